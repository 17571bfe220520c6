"""READY not taken for refused lines: the count is that of the section's lines (one power in
one game), and the words say whose, through the real mail pipeline on Pax Baltica, in English
and French (docs/orders.md, "READY with refused lines").

Before: the reply said "{n} lines of this mail were refused" while counting the lines of
one section only, so a mail with sections for two games read a wrong total.
"""

from __future__ import annotations

from typing import Any

from tests.pipeline.conftest import baltica
from tests.pipeline.test_show_state_by_mail import COALITION, SWEDEN, flat, reply_to


def test_ready_not_taken_counts_the_lines_of_its_own_game_and_says_so(b1: Any) -> None:
    """One mail, two games: one refused line in b1, two in b2, READY in each. Each READY
    is weighed on its own game's lines, and says so: "1 line for Sweden in game b1", "2
    lines for Sweden in game b2" (it said "1 line of this mail" of a mail holding three)."""
    baltica(b1, "b2", seed=b"\x43" * 32)
    reply = flat(reply_to(b1, SWEDEN, "GAME b1\nPOWER sweden sw-pw\nfrobnicate Livland\nREADY\n"
                          "GAME b2\nPOWER sweden sw-pw\nfrobnicate Livland\nfrobnicate Skåne\n"
                          "READY\n"))
    assert ("READY not taken: 1 line for Sweden in game b1 was refused; send it again "
            "corrected (with READY)") in reply, reply
    assert ("READY not taken: 2 lines for Sweden in game b2 were refused; send them again "
            "corrected (with READY)") in reply, reply
    assert "of this mail" not in reply


def test_pret_non_pris_en_compte_says_whose_lines_in_french(b1: Any) -> None:
    """The same to the Coalition's French seat, with the French keywords."""
    baltica(b1, "b2", seed=b"\x43" * 32)
    reply = flat(reply_to(b1, COALITION, "PARTIE b1\nPUISSANCE coalition co-pw\nfrobnicate\n"
                          "PRET\nPARTIE b2\nPUISSANCE coalition co-pw\nPRET\n"))
    assert ("PRÊT non pris en compte : 1 ligne pour la Coalition dans la partie b1 a été "
            "refusée ; renvoyez-la corrigée (avec PRÊT)") in reply, reply
    assert "de ce courrier" not in reply
    assert reply.count("PRÊT non pris en compte") == 1, reply  # b2's lines were all taken

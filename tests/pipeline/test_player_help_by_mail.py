"""A player's HELP, through the real mail pipeline on Pax Baltica: a player's mail in, the
reply's text out, in the seat's language (docs/orders.md, "HELP <topic>";
tests/orders/test_player_help.py parses every form and example HELP gives).

Before: a player's HELP showed optional values as required (``HISTORY <name>``, ``HELP
<text>``, ``JOIN <name> <name>``), every value as ``<name>``, no example, and to a French
seat the English ``HELP <texte>`` and ``JOIN <nom> <nom>``.
"""

from __future__ import annotations

from typing import Any

from tests.pipeline.conftest import deliver, mail, outbox
from tests.pipeline.test_show_state_by_mail import reply_to

SWEDEN, COALITION = "karl@example.se", "pyotr@example.ru"


def test_an_english_players_help_gives_each_command_as_the_parser_reads_it(b1: Any) -> None:
    """Sweden's HELP: what is optional in brackets, each value named for what it is, the
    password POWER needs not bracketed, an example under each command that takes a value;
    no moderator command, and Pax Baltica's orders after the commands, as before."""
    reply = reply_to(b1, SWEDEN, "GAME b1\nPOWER sweden sw-pw\nHELP\n")
    for form in ("POWER <power> <password>", "HISTORY [<phase>]", "HELP [<topic>]",
                 "JOIN <game> [<power>]", "SET ADDRESS <address>", "LIST [<game>]"):
        assert f"\n  {form}\n" in reply, form
    for example in ("e.g. HISTORY 1701-spring-actions-sweden", "e.g. JOIN baltica42 any",
                    "e.g. POWER sweden hunter2"):
        assert example in reply, example
    assert "[<password>]" not in reply and "<name>" not in reply.split("Orders for")[0]
    assert "  EXTEND " not in reply and "  MODERATOR " not in reply
    assert "Orders for this game:\n  recon <territory>\n" in reply


def test_a_french_seats_help_writes_the_commands_a_french_player_writes(b1: Any) -> None:
    """The Coalition's seat is French: AIDE answers in French with AIDE, REJOINDRE and the
    other French keywords, each value named in French, and French examples."""
    reply = reply_to(b1, COALITION, "PARTIE b1\nPUISSANCE coalition co-pw\nAIDE\n")
    for form in ("PUISSANCE <puissance> <mot de passe>", "AIDE [<sujet>]",
                 "REJOINDRE <partie> [<puissance>]", "HISTORIQUE [<phase>]",
                 "DEFINIR LANGUE <langue>"):
        assert f"\n  {form}\n" in reply, form
    assert "ex. : REJOINDRE baltica42 libre" in reply and "ex. : AIDE presse" in reply
    assert "\n  HELP " not in reply and "\n  JOIN " not in reply and "<nom>" not in reply
    assert "Ordres de ce jeu :\n  reconnaitre <territoire>\n" in reply


def test_help_on_one_command_gives_its_forms(b1: Any) -> None:
    """HELP history (a search by the command's first word) answers with HISTORY's form and
    its examples, the phase optional."""
    reply = reply_to(b1, SWEDEN, "GAME b1\nPOWER sweden sw-pw\nHELP history\n")
    assert "\n  HISTORY [<phase>]\n" in reply and "e.g. HISTORY\n" in reply, reply


def test_help_without_a_game_gives_the_players_forms(b1: Any) -> None:
    """HELP from an address that plays nowhere: the games here, then the same commands,
    JOIN's power optional (any open seat)."""
    reply = reply_to(b1, "newcomer@example.org", "HELP\n")
    assert "\n  JOIN <game> [<power>]\n" in reply and "e.g. JOIN baltica42 any" in reply, reply
    assert "  EXTEND " not in reply


def test_the_example_help_gives_signs_a_player_on_and_power_without_password_does_not(
        b1: Any) -> None:
    """Why HELP shows POWER's password as required: POWER sweden, no password, is no
    sign-on for a player; POWER sweden with it, as the example writes it, is."""
    deliver(b1, mail("GAME b1\nPOWER sweden\nSTATUS\n", sender=SWEDEN))
    refused = outbox(b1, kind="reply", to=SWEDEN)[-1][1]
    assert "NOT ACCEPTED: POWER needs a password" in refused, refused
    signed = reply_to(b1, SWEDEN, "GAME b1\nPOWER sweden sw-pw\nSTATUS\n")
    assert "your current report follows this reply" in signed, signed

"""A section refused for want of a sign-on lists its lines (orders.md §2: the reply holds
"each line not accepted, with the reason"; gm/pipeline/unsigned.py, docs/orders.md): a
player whose POWER line was mistyped sees that line named, with how to write it, and the
orders it left unread, in one reply; nothing is carried out, no password is shown."""

from __future__ import annotations

from typing import Any

import pytest

from gm.orders.model import SourceLine
from gm.pipeline.unsigned import SHOWN, signon_like, unread
from tests.e2e.corpus_game import GAME
from tests.pipeline.conftest import deliver, mail, outbox
from tests.pipeline.test_preamble import reply, stored

NO_SIGNON = "NOT ACCEPTED: orders without a sign-on (POWER name password)"
UNREAD = "(ignored: this section has no sign-on)"


def test_a_mistyped_power_line_is_named_with_how_to_write_it(game: Any) -> None:
    """"POWR sweden hunter2": the line is shown masked, with the sign-on to write; the
    orders below it are listed as not read; nothing is stored."""
    text = reply(game, f"Hi\nGAME {GAME}\nPOWR sweden hunter2\n"
                       "move from Skåne: Karl XII to Småland\nrecon Livland\n")
    assert NO_SIGNON in text
    assert ("    3  --  POWR sweden ******** (ignored: if this is your sign-on, write it as POWER "
            "sweden followed by your password)\n") in text
    assert f"    4  --  move from Skåne: Karl XII to Småland {UNREAD}\n" in text
    assert f"    5  --  recon Livland {UNREAD}\n" in text
    assert "hunter2" not in text and "OK  " not in text
    assert stored(game, "sweden") == []


def test_a_sign_on_without_its_keyword_is_named_too(game: Any) -> None:
    """"sweden hunter2", the keyword left out."""
    text = reply(game, f"GAME {GAME}\nSweden hunter2\nrecon Livland\n")
    assert ("    2  --  Sweden ******** (ignored: if this is your sign-on, write it as POWER "
            "sweden followed by your password)\n") in text
    assert "hunter2" not in text and stored(game, "sweden") == []


def test_power_without_a_password_lists_what_it_left_unread(game: Any) -> None:
    text = reply(game, f"GAME {GAME}\nPOWER sweden\nrecon Livland\n")
    assert "NOT ACCEPTED: POWER needs a password" in text
    assert "    3  --  recon Livland (ignored: the POWER line has no password)\n" in text
    assert stored(game, "sweden") == []


def test_a_long_unsigned_section_is_capped(game: Any) -> None:
    """A whole letter of orders with no sign-on: the first lines are listed, the rest
    counted."""
    body = "".join(f"recon Livland {i}\n" for i in range(SHOWN + 5))
    text = reply(game, f"GAME {GAME}\n" + body)
    assert text.count(UNREAD) == SHOWN
    assert "and 5 more lines, not read" in text


def test_the_unsigned_lines_are_said_in_the_senders_seat_language(race: Any) -> None:
    """A French seat that mistyped its sign-on reads the answer in French (orders.md §8):
    the sender's address holds the seat, so its language is known."""
    deliver(race, mail("GAME race1\nPUISANCE south s-secret\navancer 2\n", sender="south@example.org"))
    [(_, text)] = outbox(race, kind="reply", to="south@example.org")
    assert ("PUISANCE south ******** (ignoré : si c'est votre identification, écrivez-la "
            "PUISSANCE south suivi de votre mot de passe)") in text
    assert "avancer 2 (ignoré : cette section n'a pas d'identification)" in text
    assert "s-secret" not in text


@pytest.mark.parametrize(("line", "power"), [
    ("POWR sweden hunter2", "sweden"),
    ("Pwoer: Sweden hunter2", "sweden"),
    ("sweden hunter2", "sweden"),
    ("coalition: hunter2", "coalition"),
    ("move from Skåne: Karl XII to Småland", None),
    ("sweden", None),  # no password after it
    ("Please sweden hunter2", None),  # "please" is no sign-on keyword
])
def test_what_reads_as_a_mistyped_sign_on(line: str, power: str | None) -> None:
    assert signon_like(line, {"sweden": "sweden", "coalition": "coalition"}) == power


def test_unread_masks_sign_on_keywords_words_on_every_line() -> None:
    """A PASSWORD line in an unsigned section is an order line to the envelope; its word is
    masked like any sign-on keyword's (gm.mail.mask)."""
    entries, more = unread([SourceLine(2, "PASSWORD newsecret9")], ["sweden"])
    assert [e.text for e in entries] == ["PASSWORD ********"] and more == 0

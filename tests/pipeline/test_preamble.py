"""The lines before a mail's first envelope line (orders.md §1: "text before the first of
them is ignored (greetings)"; §2: prose is "listed as ignored, not as errors"), as the
reply lists them (gm/pipeline/preamble.py, docs/orders.md): a greeting as ignored, a line
that reads as an order (or a command) named as one that came before the sign-on, a long
letter capped; nothing in them is ever carried out."""

from __future__ import annotations

from typing import Any

import pytest
from sqlmodel import select

from gm.db.engine import session_scope
from gm.db.models import OrderSet
from gm.games.registry import get as get_module
from gm.orders.model import SourceLine
from gm.pipeline.preamble import SHOWN, preamble, reads_as_order
from tests.e2e.corpus_game import GAME, SERVICE
from tests.pipeline.conftest import deliver, mail, outbox

ANNA = "anna@example.se"  # sweden's seat in the corpus game (password hunter2)
BEFORE = "Before the first GAME or POWER line:"
SENT_AGAIN = ("came before the sign-on: nothing before the first GAME or POWER line is read. "
              "Send it again below the POWER line.")


def reply(ctx: Any, body: str, sender: str = ANNA) -> str:
    deliver(ctx, mail(body, sender=sender, to=SERVICE))
    return outbox(ctx, kind="reply", to=sender)[-1][1]


def stored(ctx: Any, power: str) -> list[str]:
    with session_scope(ctx.engine) as s:
        return [r.text for r in s.exec(select(OrderSet).where(OrderSet.power == power,
                                                              OrderSet.current == True))]  # noqa: E712


def test_s1_example_lists_the_greeting_as_ignored_and_carries_out_the_orders(game: Any) -> None:
    """orders.md §1's example mail (its PHASE line left out: the corpus game is in another
    phase): "Hi Boris, my orders below." is listed as ignored, the orders are stored."""
    text = reply(game, "Hi Boris, my orders below.\n\n"
                       f"GAME {GAME}\nPOWER sweden hunter2          # sign-on\n\n"
                       "move from Skåne: Karl XII, Dalregementet to Småland\n"
                       "recon Livland\nEND                           # optional\n")
    assert f"{BEFORE}\n    1  --  Hi Boris, my orders below. (ignored)\n" in text
    assert "OK  move from Skåne: Karl XII, Dalregementet to Småland" in text
    assert "OK  recon Livland" in text and "before the sign-on" not in text
    assert stored(game, "sweden") == [
        "move from Skåne: Karl XII, Dalregementet to Småland\nrecon Livland"]


def test_an_order_above_the_sign_on_is_named_as_one_and_nothing_is_stored(game: Any) -> None:
    """The sign-on at the bottom, like a signature: the order above it is not read, and the
    reply says so plainly, with what to do, at once."""
    text = reply(game, "Hi Boris,\nmove from Skåne: Karl XII to Småland\n\n"
                       f"GAME {GAME}\nPOWER sweden hunter2\n")
    assert "    1  --  Hi Boris, (ignored)\n" in text
    assert ("    2  --  move from Skåne: Karl XII to Småland (ignored: it looks like an order, "
            "but it came before the sign-on)\n") in text
    assert f"  Line 2 {SENT_AGAIN}\n" in text
    assert "OK  move" not in text
    assert stored(game, "sweden") == []


def test_a_command_above_the_sign_on_is_named_too_and_not_carried_out(game: Any) -> None:
    """READY above the GAME line would have been dropped silently as well."""
    text = reply(game, f"recon Livland\nREADY\nGAME {GAME}\nPOWER sweden hunter2\n")
    assert "1  --  recon Livland (ignored: it looks like an order, but it came before the sign-on)" in text
    assert "2  --  READY (ignored: it looks like a command, but it came before the sign-on)" in text
    assert ("  Lines 1, 2 came before the sign-on: nothing before the first GAME or POWER line "
            "is read. Send them again below the POWER line.\n") in text
    assert "your orders are final" not in text and stored(game, "sweden") == []


def test_a_password_above_the_sign_on_is_never_shown(game: Any) -> None:
    """The preamble is shown as written, but for its passwords (issue 22: a reply holds
    none): a PASSWORD line above the sign-on (not carried out, and named as a command) and
    the sign-on's password written in a sentence are masked."""
    text = reply(game, "Hi Boris, my password is hunter2 now\nPASSWORD newsecret9\n"
                       f"GAME {GAME}\nPOWER sweden hunter2\nrecon Livland\n")
    assert "1  --  Hi Boris, my password is ******** now (ignored)" in text
    assert ("2  --  PASSWORD ******** (ignored: it looks like a command, but it came before "
            "the sign-on)") in text
    assert "hunter2" not in text and "newsecret9" not in text


def test_a_long_preamble_is_capped_and_its_orders_are_still_named(game: Any) -> None:
    """A long letter above the orders: its first lines are listed, the rest counted; an
    order deep in it is still named."""
    letter = "".join(f"Line {i} of a long letter about the weather\n" for i in range(40))
    text = reply(game, "Dear Boris,\n" + letter + "move from Skåne: Karl XII to Småland\n"
                       f"GAME {GAME}\nPOWER sweden hunter2\nrecon Livland\n")
    before = text[text.index(BEFORE):text.index("Game baltica42")]
    assert SHOWN == 3
    assert [x.split("--")[0].strip() for x in before.splitlines() if "--" in x] == [
        "1", "2", "3", "42"]
    assert "and 38 more lines, ignored" in before
    assert "Line 39 of a long letter" not in text
    assert f"Line 42 {SENT_AGAIN}" in before
    assert "OK  recon Livland" in text and stored(game, "sweden") == ["recon Livland"]


def test_a_mail_with_no_envelope_line_keeps_its_answer(game: Any) -> None:
    """No GAME, POWER, MODERATOR or HELP line at all: the reply is the one it always was,
    the lines to start with (listing the whole mail as ignored would say less)."""
    text = reply(game, "Hi Boris,\nmove from Skåne: Karl XII to Småland\n")
    assert "No orders were found in your mail. Start with the lines" in text
    assert BEFORE not in text and "before the sign-on" not in text


def test_the_copy_to_the_registered_address_leaves_the_preamble_out(game: Any) -> None:
    """The copy for a seat signed on from another address holds only the part of the reply
    about that seat (orders.md §2): the sender's own greeting is not part of it."""
    text = reply(game, f"Hi Boris, from my phone\nGAME {GAME}\nPOWER sweden hunter2\nrecon Livland\n",
                 sender="anna.mobile@example.net")
    assert "Hi Boris, from my phone (ignored)" in text
    [(_, copy)] = outbox(game, kind="reply-copy")
    assert "OK  recon Livland" in copy and "Hi Boris" not in copy and BEFORE not in copy


def test_the_preamble_is_said_in_the_seats_language(race: Any) -> None:
    """A French seat reads it in French (orders.md §8)."""
    deliver(race, mail("Bonjour,\navancer 2\nGAME race1\nPOWER south s-secret\n",
                       sender="south@example.org"))
    [(_, text)] = outbox(race, kind="reply", to="south@example.org")
    assert "Avant la première ligne PARTIE ou PUISSANCE :" in text
    assert "1  --  Bonjour, (ignoré)" in text
    assert "2  --  avancer 2 (ignoré : on dirait un ordre, mais il précède l'identification)" in text
    assert ("La ligne 2 précède l'identification : rien de ce qui précède la première ligne PARTIE "
            "ou PUISSANCE n'est lu. Renvoyez-la sous la ligne PUISSANCE.") in text


@pytest.mark.parametrize(("game", "line", "order"), [
    ("baltica", "move from Skåne: Karl XII to Småland", True),
    ("baltica", "recon Livland.", True),
    ("baltica", "déplacer de Skåne : Karl XII vers Småland", True),
    ("baltica", "Hi Boris, my orders below.", False),
    ("baltica", "Land ahoy, I see the coast!", False),
    ("baltica", "Move fast and break things, I always say.", False),
    ("britannica", "buy army 3", True),
    ("britannica", "Buy me a drink when we meet!", False),
    ("viking", "trade accept 2", True),
    ("viking", "pass", True),
    ("viking", "Pass my regards to Olaf!", False),
    ("viking", "Play nice, everybody.", False),
])
def test_a_line_reads_as_an_order_of_the_game_by_its_first_word_and_grammar(
        game: str, line: str, order: bool) -> None:
    """An order's first word, and either no sign of prose or a parse by the game's grammar;
    a sentence opening with an order's word is prose."""
    assert reads_as_order(line, get_module(game)) is order


def test_without_a_game_only_commands_are_named() -> None:
    """The first section's game unknown (a GAME line with a typo): orders cannot be told,
    commands can."""
    said = preamble([SourceLine(1, "recon Livland"), SourceLine(2, "READY")], None)
    assert [e.reason for e in said.entries] == [
        "", "it looks like a command, but it came before the sign-on"]
    assert said.misplaced == [2]

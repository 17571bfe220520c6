"""The order mail contract (orders.md §1-§4) clause by clause, as the player reads it in the
reply: the clauses a mutation audit of gm/orders and gm/pipeline found no test failing for
when broken (or failing only by accident). Each test is named after its clause and quotes
it; each fails when that clause alone is broken."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from tests.e2e.corpus_game import VIKING, VIKING_SEATS
from tests.pipeline.conftest import deliver, mail, outbox

NORTH = "GAME race1\nPOWER north n-secret\n"


def _reply(ctx: Any, body: str, sender: str = "north@example.org", **headers: str) -> str:
    """The one reply to ``body`` sent from ``sender``, as text."""
    deliver(ctx, mail(body, sender=sender, **headers))
    return outbox(ctx, kind="reply")[-1][1]


def _lines(reply: str) -> list[str]:
    return [line.strip() for line in reply.splitlines()]


def _on_file(ctx: Any) -> str:
    """What north has on file, as ORDERS answers it."""
    return next(line for line in _lines(_reply(ctx, NORTH + "ORDERS\n"))
                if line.startswith("north has on file"))


def test_a_later_mail_replaces_every_earlier_order_the_last_mail_wins(race: Any) -> None:
    """§1: "a mail with orders replaces every earlier order of that power for that phase
    (the last mail received wins), unless it says `ADD`"."""
    _reply(race, NORTH + "advance 2\n")
    _reply(race, NORTH + "advance 3\n")
    assert _on_file(race) == "north has on file for turn-1: advance 3"


def test_add_appends_these_orders_instead_of_replacing_the_earlier_ones(race: Any) -> None:
    """§1: "`ADD` | anywhere in a section: append these orders instead of replacing the
    earlier ones"."""
    _reply(race, NORTH + "advance 2\n")
    assert "added to the earlier ones" in _reply(race, NORTH + "advance 3\nADD\n")
    assert _on_file(race) == "north has on file for turn-1: advance 2; advance 3"


def test_check_validates_and_echoes_everything_and_stores_nothing(race: Any) -> None:
    """§1: "`CHECK` | validate and echo everything, store nothing"."""
    _reply(race, NORTH + "advance 2\n")
    reply = _reply(race, NORTH + "CHECK\nadvance 3\n")
    assert "4  OK  advance 3" in reply and "CHECK: nothing was stored" in reply
    assert _on_file(race) == "north has on file for turn-1: advance 2"


def test_a_line_not_accepted_is_listed_with_its_reason_and_the_others_are_stored(race: Any) -> None:
    """§2: the reply lists "each order as understood" and "each line not accepted, with the
    reason and, where a name was misspelt, the nearest names": a line in error is answered
    on its own line, with what the game suggests, and the section's other orders are
    stored (the whole mail is not refused for it)."""
    reply = _reply(race, NORTH + "advance 2\nretreat 5\n")
    assert "3  OK  advance 2" in reply
    assert "4  ??  retreat 5: not understood (did you mean advance N?)" in reply
    assert _on_file(race) == "north has on file for turn-1: advance 2"


def test_the_reply_shows_the_original_line_under_an_order_understood_otherwise(race: Any) -> None:
    """§2: "each order as understood, in normalized form, with the line number in the text
    as parsed (after decoding and unwrapping) and the original line" (docs/orders.md: the
    original line is shown when it differs beyond case, accents and spaces)."""
    reply = _reply(race, NORTH + "avancer 2\n")
    assert "3  OK  advance 2" in reply and "you wrote: avancer 2" in reply


def test_the_reply_goes_to_reply_to_if_present_else_from(race: Any) -> None:
    """§2: "The reply goes to the sender (Reply-To if present, else From)"."""
    deliver(race, mail(NORTH + "advance 2\n", Reply_To="north-phone@example.org"))
    [(reply, text)] = outbox(race, kind="reply")
    assert reply.recipients == ["north-phone@example.org"] and "3  OK  advance 2" in text
    [(copy, _)] = outbox(race, kind="reply-copy")  # not the registered address: a copy there
    assert copy.recipients == ["north@example.org"]


def test_the_deadline_in_utc_and_in_the_players_time_zone(race: Any) -> None:
    """§2: the reply holds "the deadline, in UTC and in the player's time zone, and the
    phase id" (south's seat keeps Europe/Paris time)."""
    reply = _reply(race, "GAME race1\nPOWER south s-secret\nadvance 1\n", sender="south@example.org")
    assert "Date limite : mer. 7 janv. 2026, 12:00 UTC (mer. 7 janv. 2026, 13:00 CET)" in reply
    assert reply.startswith("==== gm reply race1 turn-1 ====")


def test_a_mail_after_the_deadline_is_too_late_and_nothing_is_stored(race: Any) -> None:
    """§1: "`PHASE` guards against stale orders" and orders are for "the phase the power is
    now ordering for"; docs/scheduling.md: a mail after deadline + grace "is answered 'too
    late for PHASE' and stored; it is never applied"."""
    race.clock.advance(timedelta(days=30))
    reply = _reply(race, NORTH + "advance 2\n")
    assert "NOT ACCEPTED: too late for turn-1: its deadline has passed" in reply
    assert "OK  advance 2" not in reply


def test_orders_for_a_phase_that_has_not_opened_yet_are_refused_never_queued(
        other_games: Any) -> None:
    """§1: "Orders for a phase that has not opened yet (including the second player's action
    phase while the first player is ordering) are refused, never queued silently" (Pax Viking:
    each player's turn is a phase; red writes in green's)."""
    address, password, _ = VIKING_SEATS["red"]
    body = f"GAME {VIKING}\nPOWER red {password}\nparley Hedeby\n"
    reply = _reply(other_games, body, sender=address, to="gm@pbem.example")
    assert "red has no orders to give in phase round-1-green (waiting for: green)" in reply
    assert "OK  " not in reply and "REFUSED" not in reply


def test_keywords_and_names_are_case_insensitive_passwords_case_sensitive(race: Any) -> None:
    """§1: "Keywords and names are case-insensitive; passwords are case-sensitive"."""
    reply = _reply(race, "game RACE1\npower NORTH N-SECRET\nADVANCE 2\n")
    assert "NOT ACCEPTED: sign-on as north failed: wrong password" in reply
    assert "OK  advance 2" not in reply
    assert "3  OK  advance 2" in _reply(race, "game RACE1\npower NORTH n-secret\nADVANCE 2\n")


def test_ready_and_wait_are_recorded_and_undone_by_not_ready_and_no_wait(race: Any) -> None:
    """§1: "`READY` / `NOT READY` | my orders are final" and "`WAIT` / `NO WAIT` | hold the
    game until the deadline even if everyone else is READY": each is kept with the power's
    orders, as ORDERS shows them."""
    _reply(race, NORTH + "advance 2\nREADY\n")
    assert _on_file(race) == "north has on file for turn-1: advance 2 [READY]"
    _reply(race, NORTH + "WAIT\n")
    assert _on_file(race) == "north has on file for turn-1: advance 2 [READY, WAIT]"
    _reply(race, NORTH + "NOT READY\nNO WAIT\n")
    assert _on_file(race) == "north has on file for turn-1: advance 2"


def test_check_stores_nothing_not_even_ready_or_wait(race: Any) -> None:
    """§1: "`CHECK` | validate and echo everything, store nothing". A READY in a CHECK
    section was recorded while its orders were not: the phase could close early with
    none of them (and WAIT, PASSWORD, SET, PRESS were carried out as well)."""
    reply = _reply(race, NORTH + "CHECK\nadvance 2\nREADY\nWAIT\n")
    assert "4  OK  advance 2" in reply and "CHECK: nothing was stored" in reply
    assert "5  --  READY (ignored: CHECK: not carried out)" in reply
    assert "6  --  WAIT (ignored: CHECK: not carried out)" in reply
    assert _on_file(race) == "north has on file for turn-1: no orders"
    assert "OK  STATUS" in _reply(race, NORTH + "CHECK\nSTATUS\n")  # asking is not storing

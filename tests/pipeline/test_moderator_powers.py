""""A moderator must be able to fix anything" (orders.md §9), by mail, on the race game:
each test names one power of the moderator and checks what the moderator or a player
would check afterwards (the mails they get, the password that works, the position, the
history), not only that the command was answered OK. Written by the mutation audit of
the moderator's powers: each of these guarantees could be broken without a test failing.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import col, select

from gm.db.engine import session_scope
from gm.db.models import EventLog, ModeratorAct, Phase
from gm.service.context import ServiceContext
from gm.service.games import current_orders, current_phase
from tests.pipeline.conftest import deliver, mail, outbox
from tests.support.moderator_notice import assert_in, moderator_speaks

NORTH, SOUTH, MOD = "north@example.org", "south@example.org", "mod@example.org"


def moderate(ctx: ServiceContext, body: str) -> str:
    """A moderator's mail for race1; the moderator's reply."""
    deliver(ctx, mail(f"GAME race1\nMODERATOR mod-secret\n{body}", sender=MOD))
    return outbox(ctx, kind="reply", to=MOD)[-1][1]


def play(ctx: ServiceContext, sender: str, body: str) -> str:
    deliver(ctx, mail(f"GAME race1\n{body}", sender=sender))
    return outbox(ctx, kind="reply", to=sender)[-1][1]


def mails_to(ctx: ServiceContext, address: str, since: int = 0,
             kind: str | None = None) -> list[str]:
    return [text for row, text in outbox(ctx)[since:]
            if address in (row.recipients or []) and kind in (None, row.kind)]


def phase(ctx: ServiceContext) -> Phase:
    with session_scope(ctx.engine) as s:
        return current_phase(s, "race1")


def deadline(ctx: ServiceContext) -> datetime:
    moment = phase(ctx).deadline
    assert moment is not None
    return moment


def positions(ctx: ServiceContext) -> dict[str, int]:
    return dict((phase(ctx).game_state or {})["position"])


def test_a_private_extend_tells_the_players_the_new_deadline_but_not_the_reason(race) -> None:  # type: ignore[no-untyped-def]
    old = deadline(race)
    before = len(outbox(race))
    moderate(race, "EXTEND PRIVATE 1d: north is in hospital\n")
    assert deadline(race) == old + timedelta(days=1)
    for address in (NORTH, SOUTH):
        notices = mails_to(race, address, before, kind="notice")
        assert len(notices) == 1, notices  # told of the new deadline...
        assert "hospital" not in notices[0]  # ...but not why: the act is private
    moderate(race, "EXTEND 1d: a holiday\n")  # a public one says why
    assert any("a holiday" in t for t in mails_to(race, NORTH, before, kind="notice"))


def test_a_ruling_is_published_with_the_next_report_once_and_a_private_one_never(race) -> None:  # type: ignore[no-untyped-def]
    reply = moderate(race, "RULING North may take the ford\nRULING PRIVATE south's mail was lost\n")
    assert "ruling recorded; it is published with the next report" in reply
    for address in (NORTH, SOUTH):  # nothing is published before the report
        assert not any("take the ford" in t for t in mails_to(race, address))
    before = len(outbox(race))
    moderate(race, "ADJUDICATE NOW\n")
    for address in (NORTH, SOUTH):
        [report] = mails_to(race, address, before, kind="report")
        assert "North may take the ford" in report
        assert "mail was lost" not in report
    before = len(outbox(race))
    moderate(race, "ADJUDICATE NOW\n")
    for address in (NORTH, SOUTH):
        [report] = mails_to(race, address, before, kind="report")
        assert "take the ford" not in report  # published once, not again with each report
        assert "mail was lost" not in report


def test_a_replaced_seat_takes_the_new_password_only_and_its_mail_goes_to_the_new_player(race) -> None:  # type: ignore[no-untyped-def]
    new = "newbie@example.net"
    moderate(race, "REPLACE POWER south WITH newbie@example.net: south left\n")
    [welcome] = mails_to(race, new, kind="welcome")
    password = re.search(r"POWER south (\S+)", welcome).group(1)  # type: ignore[union-attr]
    assert "sign-on as south failed" in play(race, SOUTH, "POWER south s-secret\nadvance 3\n")
    assert "sign-on as south failed" in play(race, new, "POWER south s-secret\nadvance 3\n")
    assert "OK  advance 2" in play(race, new, f"POWER south {password}\nadvance 2\n")
    before = len(outbox(race))
    moderate(race, "ADJUDICATE NOW\n")
    assert len(mails_to(race, new, before, kind="report")) == 1
    assert mails_to(race, SOUTH, before) == []  # the old player gets nothing of the game now


def test_adjudicate_now_by_mail_is_recorded_as_a_moderator_act(race) -> None:  # type: ignore[no-untyped-def]
    moderate(race, "ADJUDICATE NOW: both players are ready by phone\n")
    assert phase(race).phase_id == "turn-2"
    with session_scope(race.engine) as s:
        acts = [(a.command, a.actor, a.reason) for a in s.exec(select(ModeratorAct))]
    assert acts == [("adjudicate", f"moderator <{MOD}>", "both players are ready by phone")]


def test_the_moderator_gives_orders_for_a_power_and_its_player_is_told(race) -> None:  # type: ignore[no-untyped-def]
    before = len(outbox(race))
    reply = moderate(race, "POWER north\nadvance 3\n")
    assert "OK  advance 3" in reply and "north: 1 order stored" in reply
    with session_scope(race.engine) as s:
        row = current_orders(s, "race1", current_phase(s, "race1").seq)["north"]
        assert (row.text.strip(), row.source) == ("advance 3", "moderator")
    assert any("The moderator gave orders for north" in t
               for t in mails_to(race, NORTH, before, kind="notice"))
    assert mails_to(race, SOUTH, before) == []


def test_a_french_player_is_told_in_french_that_the_moderator_gave_its_orders(race) -> None:  # type: ignore[no-untyped-def]
    """The notice is in the seat's language, as every notice of a moderator's act (it was
    English to everyone)."""
    before = len(outbox(race))
    assert "OK  advance 2" in moderate(race, "POWER south\nadvance 2\n")
    [text] = mails_to(race, SOUTH, before, kind="notice")
    assert "Le modérateur a donné des ordres pour south dans la partie race1" in text, text


def test_dice_then_seed_by_mail_uses_the_rolls_then_lets_the_seed_take_over(race) -> None:  # type: ignore[no-untyped-def]
    reply = moderate(race, "DICE 6 THEN SEED\n")
    assert "1 rolls will be used first" in reply
    moderate(race, "ADJUDICATE NOW\n")  # the race rolls twice: one supplied, one seeded
    assert phase(race).phase_id == "turn-2"
    with session_scope(race.engine) as s:
        rolls = [e.data or {} for e in s.exec(select(EventLog).where(EventLog.type == "roll")
                                        .order_by(col(EventLog.seq)))]
    assert [(r["source"], r["value"]) for r in rolls][:1] == [("supplied", 6)]
    assert [r["source"] for r in rolls] == ["supplied", "seed"]


def test_a_rollback_restores_the_position_keeps_the_orders_and_undoes_the_later_phases(race) -> None:  # type: ignore[no-untyped-def]
    play(race, NORTH, "POWER north n-secret\nadvance 3\n")
    play(race, SOUTH, "POWER south s-secret\nadvance 2\n")
    moderate(race, "ADJUDICATE NOW\n")
    after_turn_1 = positions(race)
    moderate(race, "ADJUDICATE NOW\n")
    assert phase(race).phase_id == "turn-3"
    moderate(race, "ROLLBACK TO turn-1: wrong orders read\n")
    assert phase(race).phase_id == "turn-1" and positions(race) == {"north": 0, "south": 0}
    with session_scope(race.engine) as s:
        rows = list(s.exec(select(Phase).where(Phase.game_id == "race1").order_by(col(Phase.seq))))
    assert [(p.phase_id, p.state) for p in rows] == [
        ("turn-1", "undone"), ("turn-2", "undone"), ("turn-3", "undone"), ("turn-1", "open")]
    assert "north has on file for turn-1: advance 3" in play(race, NORTH, "POWER north n-secret\nORDERS\n")
    moderate(race, "ADJUDICATE NOW\n")  # the same orders, the same dice: the same outcome
    assert phase(race).phase_id == "turn-2" and positions(race) == after_turn_1


def test_resume_moves_the_deadline_by_the_length_of_the_pause(race) -> None:  # type: ignore[no-untyped-def]
    old = deadline(race)
    moderate(race, "PAUSE: server move\n")
    race.clock.advance(timedelta(hours=30))
    before = len(outbox(race))
    moderate(race, "RESUME\n")
    assert deadline(race) == old + timedelta(hours=30)
    [told] = mails_to(race, NORTH, before, kind="notice")
    assert "resumed game race1" in told


def test_resume_by_mail_works_after_a_pause_longer_than_the_deadline(race) -> None:  # type: ignore[no-untyped-def]
    old, paused_at = deadline(race), race.clock.now()
    moderate(race, "PAUSE: server move\n")
    race.clock.set(old + timedelta(days=3))  # the pause outlasts the deadline
    reply = moderate(race, "RESUME\n")
    assert "OK  RESUME: the game runs again" in reply, reply
    assert deadline(race) == old + (race.clock.now() - paused_at)


def hold(ctx: ServiceContext) -> None:
    """The game held as gm.service.adjudicate.hold leaves it when closing turn-1 raised."""
    from gm.db.models import Game

    with session_scope(ctx.engine) as s:
        game = s.exec(select(Game).where(Game.id == "race1")).one()
        game.hold_reason, game.held_at = "closing turn-1 raised KeyError: 'x'", ctx.clock.now()
        s.add(game)


def test_the_moderator_is_heard_by_mail_when_a_held_games_deadline_has_passed(race) -> None:  # type: ignore[no-untyped-def]
    hold(race)
    race.clock.set(deadline(race) + timedelta(days=1))
    reply = moderate(race, "EXTEND TO 2026-01-20 12:00: a fix is on its way\n")
    assert "OK  EXTEND" in reply, reply
    assert deadline(race) == datetime(2026, 1, 20, 12, tzinfo=UTC)
    assert "OK  advance 2" in play(race, NORTH, "POWER north n-secret\nadvance 2\n")  # in time again


def test_release_by_mail_sends_the_held_reports_and_starts_the_phases_clock(race) -> None:  # type: ignore[no-untyped-def]
    from gm.db.models import Game

    with session_scope(race.engine) as s:
        game = s.exec(select(Game).where(Game.id == "race1")).one()
        game.settings = {**(game.settings or {}), "preview": True}
        s.add(game)
    moderate(race, "ADJUDICATE NOW\n")
    length = deadline(race) - race.clock.now()  # the phase's length, counted from the close
    race.clock.advance(timedelta(days=3))  # the moderator's review outlasts it
    reply = moderate(race, "RELEASE: checked\n")
    assert "OK  RELEASE: checked: 2 held reports released" in reply, reply
    assert deadline(race) == race.clock.now() + length  # counted from the release
    for address in (NORTH, SOUTH):
        assert [row.status for row, _ in outbox(race, kind="report", to=address)][-1] == "queued"


def test_players_learn_the_deadline_a_release_sets_not_the_one_of_the_close(race) -> None:  # type: ignore[no-untyped-def]
    """The held reports were written at the close, with the deadline counted from then; a
    RELEASE days later starts the clock again, and the report each player gets names the
    new deadline, with no notice repeating it (tests/pipeline/test_release_deadline.py)."""
    from gm.db.models import Game
    from gm.i18n import translate, when

    with session_scope(race.engine) as s:
        game = s.exec(select(Game).where(Game.id == "race1")).one()
        game.settings = {**(game.settings or {}), "preview": True}
        s.add(game)
    moderate(race, "ADJUDICATE NOW\n")
    race.clock.advance(timedelta(days=3))
    before = len(outbox(race))
    reply = moderate(race, "RELEASE\n")
    new = deadline(race)
    assert new == race.clock.now() + timedelta(days=2)  # the race's phases last two days
    assert f"Deadline: {translate(when(new), 'en')}" in reply  # the moderator's reply too
    for address, language in ((NORTH, "en"), (SOUTH, "fr")):
        said = translate(when(new), language)
        assert said in outbox(race, kind="report", to=address)[-1][1], said
        assert mails_to(race, address, before, kind="notice") == []


def test_unhold_lifts_the_hold_closes_the_phase_again_and_is_recorded_privately(race) -> None:  # type: ignore[no-untyped-def]
    from gm.service.adjudicate import unhold
    from gm.service.history import history_rows

    hold(race)
    result = unhold(race, "race1", actor="moderator (cli)", reason="KeyError fixed")
    assert result is not None and result.closed and phase(race).phase_id == "turn-2"
    with session_scope(race.engine) as s:
        acts = [(r["what"], r["reason"]) for r in history_rows(s, "race1", private=True)
                if r["what"].startswith("moderator")]
        public = [r for r in history_rows(s, "race1") if r["what"].startswith("moderator")]
    assert acts == [("moderator unhold", "KeyError fixed")] and public == []


def test_a_hold_is_no_event_of_the_game_in_the_moderator_s_report_after_unhold(race) -> None:  # type: ignore[no-untyped-def]
    """The hold was told to the moderator in a notice of its own; the report of the phase
    closed after `gm mod unhold` shows what happened in the game, not the service's hold
    (a private ``game.held`` event, which no game template words)."""
    from gm.service.adjudicate import hold as hold_game
    from gm.service.adjudicate import unhold

    hold_game(race, "race1", 0, KeyError("x"))
    before = len(outbox(race))
    result = unhold(race, "race1", actor="moderator (cli)")
    assert result is not None and result.closed
    [report] = mails_to(race, MOD, before, kind="report")
    assert "game.held" not in report and "KeyError" not in report, report


@pytest.mark.parametrize(("language", "subject", "words"), [
    ("en", "[race1] held: turn-1 could not be closed",
     ["Closing turn-1 raised an error, so nothing of it was applied", "The game is held",
      "When the cause is fixed (or to try again): gm mod unhold race1"]),
    ("fr", "[race1] partie suspendue : turn-1 n'a pas pu être clôturée",
     ["La clôture de turn-1 a provoqué une erreur, rien n'en a donc été appliqué",
      "La partie est suspendue", "Une fois la cause réglée (ou pour réessayer) : gm mod unhold race1"])])
def test_the_hold_is_told_in_the_moderator_s_language_with_the_error_as_it_was(  # type: ignore[no-untyped-def]
        race, language: str, subject: str, words: list[str]) -> None:
    from gm.service.adjudicate import hold as hold_game

    moderator_speaks(race, "race1", language)
    try:
        raise KeyError("the closing error")
    except KeyError as exc:
        hold_game(race, "race1", 0, exc)
    [(notice, text)] = outbox(race, kind="notice", to=MOD)
    assert notice.subject == subject
    assert all(w in text for w in words), text
    assert "KeyError: 'the closing error'" in text  # the error and its trace are data: kept
    assert 'raise KeyError("the closing error")' in text
    assert_in(language, text, allow=["the closing error", "File \""])  # the trace

"""The next deadline as an .ics file: parsed by a standard library, one UID per seat and
phase, a higher SEQUENCE when the moderator moves the deadline."""

from __future__ import annotations

from datetime import timedelta

import icalendar

from gm.clock import utc
from gm.db.engine import session_scope
from gm.l10n import moment
from gm.service import moderator as mod
from gm.service.games import current_phase, get_game
from tests.present.support import mails, new_baltica, parts, play


def event_of(msg) -> icalendar.Event:  # type: ignore[no-untyped-def]
    part = parts(msg)["files"]["deadline.ics"]
    assert part.get_content_type() == "text/calendar"
    cal = icalendar.Calendar.from_ical(part.get_content())
    assert str(cal["METHOD"]) == "PUBLISH"
    (event,) = cal.walk("VEVENT")
    return event


def test_reports_carry_the_deadline_as_a_calendar_event(ctx) -> None:  # type: ignore[no-untyped-def]
    """Pax Baltica's first phase (the action roll) owes no orders and is played out as the
    game starts: the welcome says so and carries no event; the report of the first phase
    the players order in carries its deadline (issue 19)."""
    new_baltica(ctx)
    (_, welcome), = mails(ctx, kind="welcome", to="karl@example.org")
    assert "deadline.ics" not in parts(welcome)["files"]
    assert "needs no orders: it is played out as the game" in parts(welcome)["text"]
    reports = [r for _, r in mails(ctx, kind="report", to="karl@example.org")
               if "deadline.ics" in parts(r)["files"]]
    first = event_of(reports[-1])  # the report of the phase ordered in
    with session_scope(ctx.engine) as s:
        phase = current_phase(s, "b1")
        assert (phase.info or {}).get("owing") and first["DTEND"].dt == utc(phase.deadline)
        assert phase.deadline is not None and utc(phase.deadline) > ctx.clock.now()
    assert "b1" in str(first["SUMMARY"]) and "gm@example.org" in str(first["DESCRIPTION"])
    french = [r for _, r in mails(ctx, kind="report", to="pyotr@example.org")
              if "deadline.ics" in parts(r)["files"]][-1]
    assert "attendus" in str(event_of(french)["SUMMARY"])
    assert event_of(french)["UID"] != first["UID"], "one event per seat"


def test_extended_deadline_keeps_the_uid_with_a_higher_sequence(ctx) -> None:  # type: ignore[no-untyped-def]
    new_baltica(ctx)
    play(ctx, "b1", 1)
    _, report = mails(ctx, kind="report", to="karl@example.org")[-1]
    before = event_of(report)
    ctx.clock.advance(timedelta(hours=3))
    with session_scope(ctx.engine) as s:
        phase = mod.extend(ctx, s, get_game(s, "b1"), actor="mod", by=timedelta(hours=48),
                           reason="a player is travelling")
        new_deadline = utc(phase.deadline)
    (_, notice), = mails(ctx, kind="notice", to="karl@example.org")
    after = event_of(notice)
    assert after["UID"] == before["UID"]
    assert int(after["SEQUENCE"]) > int(before["SEQUENCE"])
    assert after["DTEND"].dt == new_deadline == before["DTEND"].dt + timedelta(hours=48)
    assert after["DTSTAMP"].dt > before["DTSTAMP"].dt
    text = parts(notice)["text"]
    assert moment(new_deadline, "UTC", "en") in text
    assert "a player is travelling" in text
    play(ctx, "b1", 1)
    _, later = mails(ctx, kind="report", to="karl@example.org")[-1]
    assert event_of(later)["UID"] != before["UID"], "the next phase is a new event"


def test_no_calendar_once_the_game_has_no_deadline(ctx) -> None:  # type: ignore[no-untyped-def]
    new_baltica(ctx)
    with session_scope(ctx.engine) as s:
        phase = current_phase(s, "b1")
        phase.deadline = None
        s.add(phase)
    from gm.service.reports import queue_current_report

    with session_scope(ctx.engine) as s:
        game, phase = get_game(s, "b1"), current_phase(s, "b1")
        queue_current_report(ctx, s, game, phase, "sweden", None, to=["karl@example.org"],
                             subject="status", key="status:test")
    _, msg = mails(ctx, kind="report", to="karl@example.org")[-1]
    p = parts(msg)
    assert "deadline.ics" not in p["files"] and "deadline.ics" not in p["text"]

"""Restarts across a passed deadline, absences, and early adjudication on READY."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from gm.db.engine import make_engine, session_scope
from gm.schedule.absences import record_absence
from gm.schedule.ready import maybe_adjudicate_early
from gm.schedule.sweep import sweep
from gm.service.context import ServiceContext
from gm.service.deadlines import OutagePolicy
from tests.schedule.support import body, events, flags, new_game, order, outbox, phase
from tests.support.moderator_notice import assert_in, moderator_speaks

H = timedelta(hours=1)


def restarted(ctx: ServiceContext) -> ServiceContext:
    """A new service process on the same database and clock."""
    return ServiceContext(engine=make_engine(str(ctx.engine.url.render_as_string(False))),
                          clock=ctx.clock, settings=ctx.settings, instance="after-restart")


def test_restart_after_a_passed_deadline_adjudicates_it_once_and_tells_the_moderator(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx, default="48h", on_outage="adjudicate", outage_threshold="15m")
    deadline = phase(ctx).deadline
    ctx.clock.set(deadline - 3 * H)
    sweep(ctx)  # alive three hours before the deadline, then down for a day
    ctx.clock.set(deadline + 21 * H)
    again = restarted(ctx)
    report = sweep(again)
    assert [a.policy for a in report.outage_acts] == [OutagePolicy.ADJUDICATE]
    assert [c.phase_id for c in report.closed] == ["turn-1"]
    assert sweep(again).closed == [] and sweep(ctx).closed == []
    assert len(events(ctx, "phase.adjudicated")) == 1
    told = [m for m in outbox(ctx, "notice") if "outage" in m.subject]
    assert len(told) == 1 and "adjudicated now, once" in body(told[0])
    again.engine.dispose()


@pytest.mark.parametrize(("language", "words"), [
    ("en", ["outage: deadline of turn-1", "The service was down from Wed, Jan 7, 2026, 09:00 UTC "
            "to Thu, Jan 8, 2026, 09:00 UTC (1 day).", "the deadline moves by the length of the "
            "outage to Thu, Jan 8, 2026, 12:00 UTC", "Use EXTEND or ADJUDICATE NOW"]),
    ("fr", ["arrêt du service : date limite de turn-1", "Le service était arrêté du mer. 7 janv. "
            "2026, 09:00 UTC au jeu. 8 janv. 2026, 09:00 UTC (1 jour).", "la date limite est "
            "repoussée de la durée de l'arrêt, au jeu. 8 janv. 2026, 12:00 UTC",
            "Utilisez PROLONGER ou ARBITRER MAINTENANT"])])
def test_the_outage_notice_is_in_the_moderator_s_language(ctx, language: str, words: list[str]) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx, default="48h", on_outage="extend", outage_threshold="15m")
    moderator_speaks(ctx, "race1", language)
    deadline = phase(ctx).deadline
    ctx.clock.set(deadline - 3 * H)
    sweep(ctx)
    ctx.clock.set(deadline + 21 * H)  # down for 24 hours
    sweep(restarted(ctx))
    [told] = [m for m in outbox(ctx, "notice")
              if "ADJUDICATE NOW" in body(m) or "ARBITRER MAINTENANT" in body(m)]  # not the summary
    text = f"{told.subject}\n{body(told)}"
    assert all(w in text for w in words), text
    assert_in(language, text)


def test_restart_with_extend_policy_moves_the_deadline_by_the_outage(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx, default="48h", on_outage="extend", outage_threshold="15m")
    deadline = phase(ctx).deadline
    ctx.clock.set(deadline - 3 * H)
    sweep(ctx)
    ctx.clock.set(deadline + 21 * H)  # down for 24 hours
    report = sweep(restarted(ctx))
    assert report.closed == []
    assert phase(ctx).deadline == deadline + 24 * H
    told = [m for m in outbox(ctx, "notice") if "outage" in m.subject]
    assert len(told) == 1 and "moves by the length of the outage" in body(told[0])
    assert sweep(ctx).outage_acts == []  # the same outage is not applied twice
    assert phase(ctx).deadline == deadline + 24 * H
    while ctx.clock.now() < deadline + 24 * H:  # the service is up now: sweeps every 10 minutes
        assert sweep(ctx).closed == []
        ctx.clock.advance(timedelta(minutes=10))
    closed = sweep(ctx).closed
    assert [c.phase_id for c in closed] == ["turn-1"]


def test_an_outage_over_the_grace_period_counts_like_one_over_the_deadline(ctx) -> None:  # type: ignore[no-untyped-def]
    """docs/scheduling.md: the outage policy applies when "a deadline (plus grace) fell in the
    gap". Alive 10 minutes into a 2 h grace period, then down until 5 h after the deadline:
    late orders could not arrive, so under extend the deadline moves by the outage."""
    new_game(ctx, default="48h", grace="2h", on_outage="extend", outage_threshold="15m")
    deadline = phase(ctx).deadline
    ctx.clock.set(deadline + timedelta(minutes=10))
    assert sweep(ctx).closed == []
    ctx.clock.set(deadline + 5 * H)
    again = restarted(ctx)
    report = sweep(again)
    again.engine.dispose()
    assert report.closed == [] and [a.policy for a in report.outage_acts] == [OutagePolicy.EXTEND]
    assert phase(ctx).deadline == deadline + 5 * H - timedelta(minutes=10)


def test_an_instance_that_died_is_no_outage_while_another_one_stays_alive(ctx) -> None:  # type: ignore[no-untyped-def]
    """Heartbeats are per instance; the service is down only when no instance was alive. One
    instance sweeps once and dies; the other sweeps every 10 minutes past the deadline: no
    outage, and the phase closes at its own deadline under on_outage = extend."""
    new_game(ctx, default="48h", on_outage="extend", outage_threshold="15m")
    deadline = phase(ctx).deadline
    ctx.clock.set(deadline - 3 * H)
    dead = restarted(ctx)
    sweep(dead)
    dead.engine.dispose()
    while ctx.clock.now() < deadline:
        ctx.clock.advance(timedelta(minutes=10))
        report = sweep(ctx)
        assert report.outage is not None and report.outage.length == timedelta(minutes=10)
        assert report.outage_acts == []  # the gap since the last beat of any instance
    assert [c.phase_id for c in report.closed] == ["turn-1"]


def test_a_short_gap_is_not_an_outage(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx, default="48h", on_outage="extend", outage_threshold="15m")
    deadline = phase(ctx).deadline
    ctx.clock.set(deadline - 5 * timedelta(minutes=1))
    sweep(ctx)
    ctx.clock.set(deadline + 5 * timedelta(minutes=1))
    assert len(sweep(ctx).closed) == 1


def _absent(ctx: ServiceContext, power: str, start: date, end: date, game_id: str = "race1") -> None:
    with session_scope(ctx.engine) as s:
        record_absence(s, game_id, power, start, end, at=ctx.clock.now())


def test_absence_with_extend_policy_gives_the_phase_length_after_return(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx, default="48h", absence="extend")  # opens 2026-01-05 12:00 UTC
    deadline = phase(ctx).deadline
    _absent(ctx, "south", date(2026, 1, 6), date(2026, 1, 10))
    order(ctx, "north")
    ctx.clock.set(deadline)
    report = sweep(ctx)
    assert report.closed == [] and report.absence_acts[0].powers == ("south",)
    new = phase(ctx).deadline
    assert new is not None and new.isoformat() == "2026-01-13T00:00:00+00:00"
    assert any("away until 2026-01-10" in body(m) for m in outbox(ctx, "notice"))
    ctx.clock.set(new)
    assert len(sweep(ctx).closed) == 1


def test_absence_of_a_power_that_sent_orders_changes_nothing(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx, default="48h", absence="extend")
    _absent(ctx, "south", date(2026, 1, 6), date(2026, 1, 10))
    order(ctx, "south")
    ctx.clock.set(phase(ctx).deadline)
    assert len(sweep(ctx).closed) == 1


def test_absence_with_ask_policy_tells_the_moderator_once_then_defaults(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx, default="48h", absence="ask")
    deadline = phase(ctx).deadline
    _absent(ctx, "south", date(2026, 1, 6), date(2026, 1, 10))
    ctx.clock.set(deadline - 23 * H)
    assert len(sweep(ctx).absence_acts) == 1
    assert sweep(ctx).absence_acts == []
    asked = [m for m in outbox(ctx, "notice") if "absent" in m.subject]
    assert len(asked) == 1 and "Decide: EXTEND" in body(asked[0])
    ctx.clock.set(deadline)
    assert sweep(ctx).closed[0].defaulted == ("north", "south")


@pytest.mark.parametrize(("language", "policy", "words"), [
    ("en", "ask", ["absent without orders for turn-1", "No orders for turn-1 (deadline Wed, Jan 7, "
                   "2026, 12:00 UTC) from: south (away until 2026-01-10).", "Decide: EXTEND the "
                   "deadline, or do nothing and they get their default orders at Wed, Jan 7, 2026, "
                   "12:00 UTC."]),
    ("fr", "ask", ["absents sans ordres pour turn-1", "Aucun ordre pour turn-1 (date limite : mer. "
                   "7 janv. 2026, 12:00 UTC) de : south (absent jusqu'au 2026-01-10).", "À vous de "
                   "décider : repoussez la date limite avec PROLONGER"]),
    ("en", "extend", ["By the game's absence policy the deadline moves to Tue, Jan 13, 2026, "
                      "00:00 UTC."]),
    ("fr", "extend", ["Selon la règle d'absence de la partie, la date limite est repoussée au mar. "
                      "13 janv. 2026, 00:00 UTC."])])
def test_the_absence_notice_is_in_the_moderator_s_language(  # type: ignore[no-untyped-def]
        ctx, language: str, policy: str, words: list[str]) -> None:
    new_game(ctx, default="48h", absence=policy)
    moderator_speaks(ctx, "race1", language)
    deadline = phase(ctx).deadline
    _absent(ctx, "south", date(2026, 1, 6), date(2026, 1, 10))
    order(ctx, "north")
    ctx.clock.set(deadline if policy == "extend" else deadline - 23 * H)
    assert len(sweep(ctx).absence_acts) == 1
    [told] = [m for m in outbox(ctx, "notice") if "2026-01-10" in body(m)]  # not the summary
    text = f"{told.subject}\n{body(told)}"
    assert all(w in text for w in words), text
    assert_in(language, text)


def test_absence_dates_are_inclusive_a_one_day_absence_covers_its_deadline(ctx) -> None:  # type: ignore[no-untyped-def]
    """ABSENT 2026-01-07 TO 2026-01-07 covers a deadline on the 7th (first and last day both
    count); an absence that ended on the 6th does not."""
    new_game(ctx, "away", default="48h", absence="extend")  # deadline 2026-01-07 12:00 UTC
    new_game(ctx, "back", default="48h", absence="extend")
    _absent(ctx, "south", date(2026, 1, 7), date(2026, 1, 7), "away")
    _absent(ctx, "south", date(2026, 1, 6), date(2026, 1, 6), "back")
    ctx.clock.set(phase(ctx, "away").deadline)
    report = sweep(ctx)
    assert [(a.game_id, a.powers) for a in report.absence_acts] == [("away", ("south",))]
    assert [c.game_id for c in report.closed] == ["back"]
    moved = phase(ctx, "away").deadline
    assert moved is not None and moved.isoformat() == "2026-01-10T00:00:00+00:00"


def test_absence_dates_are_read_in_the_games_time_zone(ctx) -> None:  # type: ignore[no-untyped-def]
    """The deadline 2026-01-07 12:00 UTC is 8 January 01:00 in Auckland: a power away from the
    8th (Auckland dates) is away at that deadline, and gets its phase length after it returns."""
    from zoneinfo import ZoneInfo

    new_game(ctx, default="48h", absence="extend", timezone="Pacific/Auckland")
    _absent(ctx, "south", date(2026, 1, 8), date(2026, 1, 10))
    ctx.clock.set(phase(ctx).deadline)
    report = sweep(ctx)
    assert report.closed == [] and [a.powers for a in report.absence_acts] == [("south",)]
    moved = phase(ctx).deadline
    assert moved is not None
    assert moved.astimezone(ZoneInfo("Pacific/Auckland")).isoformat() == "2026-01-13T00:00:00+13:00"


def test_absence_with_default_policy_tells_nobody_and_the_power_defaults_at_the_deadline(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx, default="48h", absence="default")
    deadline = phase(ctx).deadline
    _absent(ctx, "south", date(2026, 1, 6), date(2026, 1, 10))
    order(ctx, "north")
    ctx.clock.set(deadline - 23 * H)  # the first reminder time: when "ask" would ask
    assert sweep(ctx).absence_acts == []
    ctx.clock.set(deadline)
    report = sweep(ctx)
    assert report.absence_acts == [] and [c.defaulted for c in report.closed] == [("south",)]
    assert not [m for m in outbox(ctx, "notice") if "absent" in m.subject]


def test_everyone_ready_adjudicates_at_once_when_the_game_allows_it(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx, early=True)
    order(ctx, "north")
    flags(ctx, "north", ready=True)
    assert maybe_adjudicate_early(ctx, "race1") is False  # south is not READY
    flags(ctx, "south", ready=True)  # READY without orders: accepts the default
    assert maybe_adjudicate_early(ctx, "race1") is True
    assert phase(ctx).phase_id == "turn-2"
    assert maybe_adjudicate_early(ctx, "race1") is False


def test_ready_does_nothing_when_the_game_does_not_allow_it_or_someone_waits(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx, "plain")
    new_game(ctx, "waiting", early=True)
    for game in ("plain", "waiting"):
        flags(ctx, "north", game, ready=True)
        flags(ctx, "south", game, ready=True)
    flags(ctx, "south", "waiting", wait=True)
    assert not maybe_adjudicate_early(ctx, "plain")
    assert not maybe_adjudicate_early(ctx, "waiting")
    assert phase(ctx, "plain").phase_id == phase(ctx, "waiting").phase_id == "turn-1"


def test_early_delay_brings_the_deadline_forward_and_not_ready_puts_it_back(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx, early=True, early_delay="10m", grace="1h")
    deadline = phase(ctx).deadline
    flags(ctx, "north", ready=True)
    flags(ctx, "south", ready=True)
    assert maybe_adjudicate_early(ctx, "race1") is True
    early = ctx.clock.now() + timedelta(minutes=10)
    assert phase(ctx).deadline == early
    flags(ctx, "south", ready=False)
    ctx.clock.set(early)
    assert sweep(ctx).closed == []
    assert phase(ctx).deadline == deadline
    flags(ctx, "south", ready=True)
    assert maybe_adjudicate_early(ctx, "race1") is True
    ctx.clock.advance(timedelta(minutes=10))  # no grace after an early deadline
    assert len(sweep(ctx).closed) == 1


def _calendar(mail) -> tuple[str, int, str]:  # type: ignore[no-untyped-def]
    """UID, SEQUENCE and DTEND of the calendar file a mail carries."""
    import email
    from email import policy

    import icalendar

    msg = email.message_from_bytes(mail.raw, policy=policy.default)
    [part] = [p for p in msg.walk() if p.get_content_type() == "text/calendar"]
    [event] = icalendar.Calendar.from_ical(part.get_payload(decode=True)).walk("VEVENT")
    return str(event["UID"]), int(event["SEQUENCE"]), event.decoded("DTEND").isoformat()


def _moved(mail) -> bool:  # type: ignore[no-untyped-def]
    return mail.subject.endswith((": new deadline", ": nouvelle date limite"))


def test_a_deadline_the_scheduler_moves_reaches_every_player_with_its_calendar_file(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx, default="48h", on_outage="extend", outage_threshold="15m")
    deadline = phase(ctx).deadline
    first = {m.recipients[0]: _calendar(m) for m in outbox(ctx, "report")}
    ctx.clock.set(deadline - 3 * H)
    sweep(ctx)
    ctx.clock.set(deadline + 21 * H)
    sweep(restarted(ctx))
    moved = {m.recipients[0]: m for m in outbox(ctx, "notice") if _moved(m)}
    assert sorted(moved) == ["n@example.org", "s@example.org"]
    assert moved["s@example.org"].subject.endswith(": nouvelle date limite")  # south reads French
    assert "the service was down when the deadline fell" in body(moved["n@example.org"])
    assert "Motif : le service était arrêté à l'échéance" in body(moved["s@example.org"])
    for address, mail in moved.items():
        uid, sequence, end = _calendar(mail)
        assert uid == first[address][0] and sequence > first[address][1]
        assert end == (deadline + 24 * H).isoformat()


def test_an_absence_that_extends_the_deadline_tells_every_player(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx, default="48h", absence="extend")
    _absent(ctx, "south", date(2026, 1, 6), date(2026, 1, 10))
    ctx.clock.set(phase(ctx).deadline)
    sweep(ctx)
    moved = [m for m in outbox(ctx, "notice") if _moved(m)]
    assert sorted(m.recipients[0] for m in moved) == ["n@example.org", "s@example.org"]
    assert all(_calendar(m)[2] == "2026-01-13T00:00:00+00:00" for m in moved)


def test_ready_with_a_delay_never_moves_the_deadline_later(ctx) -> None:  # type: ignore[no-untyped-def]
    """early_delay brings the deadline forward ("never later than it was"): everyone READY an
    hour before the deadline with a ten-hour delay leaves the deadline where it is."""
    new_game(ctx, early=True, early_delay="10h")
    deadline = phase(ctx).deadline
    ctx.clock.set(deadline - H)
    flags(ctx, "north", ready=True)
    flags(ctx, "south", ready=True)
    assert maybe_adjudicate_early(ctx, "race1") is False
    assert phase(ctx).deadline == deadline
    ctx.clock.set(deadline)
    assert len(sweep(ctx).closed) == 1


def test_an_early_deadline_has_no_grace_period(ctx) -> None:  # type: ignore[no-untyped-def]
    """Everyone READY with early_delay 10m and grace 1h: the phase closes at the early
    deadline itself, not an hour after it (grace is for late orders, and nobody owes any)."""
    new_game(ctx, early=True, early_delay="10m", grace="1h")
    flags(ctx, "north", ready=True)
    flags(ctx, "south", ready=True)
    assert maybe_adjudicate_early(ctx, "race1") is True
    early = phase(ctx).deadline
    ctx.clock.set(early - timedelta(seconds=1))
    assert sweep(ctx).closed == []
    ctx.clock.set(early)
    assert [c.phase_id for c in sweep(ctx).closed] == ["turn-1"]


def test_everyone_ready_closes_nothing_in_a_paused_game_or_an_unreleased_preview(ctx) -> None:  # type: ignore[no-untyped-def]
    """READY adjudicates early only what the sweep could adjudicate: an open, released phase
    of a running game. A paused game, or a phase whose preview waits for the moderator, stays."""
    from gm.service.games import current_phase, get_game

    new_game(ctx, "paused", early=True)
    new_game(ctx, "preview", early=True)
    with session_scope(ctx.engine) as s:
        get_game(s, "paused").status = "paused"
        current_phase(s, "preview").released = False
    for game in ("paused", "preview"):
        flags(ctx, "north", game, ready=True)
        flags(ctx, "south", game, ready=True)
        assert maybe_adjudicate_early(ctx, game) is False
        assert phase(ctx, game).phase_id == "turn-1" and phase(ctx, game).state == "open"


@pytest.mark.parametrize(("early", "told"), [
    (True, "your orders are final\n"),
    (False, "your orders are final; this game closes its phases at the deadline, even when "
            "every player is READY")])
def test_s1_ready_says_whether_the_game_allows_an_early_close(ctx, early: bool, told: str) -> None:  # type: ignore[no-untyped-def]
    """orders.md §1: READY is "my orders are final; when every power due has said READY,
    nobody said WAIT and the game allows it, adjudicate before the deadline". A player of
    a game that does not allow it was told only "final" and waited for an early close."""
    from tests.pipeline.conftest import deliver, mail
    from tests.pipeline.conftest import outbox as sent

    new_game(ctx, early=early)
    deliver(ctx, mail("GAME race1\nPOWER north n-secret\nadvance 2\nREADY\n", sender="n@example.org"))
    [(_, text)] = sent(ctx, kind="reply", to="n@example.org")
    assert f"READY: {told}" in text, text
    if early:
        assert "closes its phases at the deadline" not in text

"""Time travel through deadlines: adjudication at the deadline, grace, pause, preview, NMR."""

from __future__ import annotations

from datetime import timedelta

import pytest

from gm.db.engine import session_scope
from gm.schedule.sweep import sweep
from gm.service.games import get_game
from tests.schedule.support import body, events, new_game, order, outbox, phase, phases
from tests.support.moderator_notice import assert_in, moderator_speaks

MIN = timedelta(minutes=1)


def test_a_phase_is_adjudicated_at_its_deadline_once_and_the_next_opens(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx, default="72h")
    first = phase(ctx)
    assert first.deadline == ctx.clock.now() + timedelta(hours=72)
    ctx.clock.set(first.deadline - MIN)
    assert sweep(ctx).closed == []
    ctx.clock.set(first.deadline)
    report = sweep(ctx)
    assert [(c.game_id, c.phase_id, c.next_phase_id) for c in report.closed] == [
        ("race1", "turn-1", "turn-2")]
    assert sweep(ctx).closed == [] and sweep(ctx).lost == 0
    done, nxt = phases(ctx)
    assert (done.state, nxt.state, nxt.phase_id) == ("done", "open", "turn-2")
    assert nxt.deadline == first.deadline + timedelta(hours=72)
    assert len(events(ctx, "phase.adjudicated")) == 1
    reports = outbox(ctx, "report")
    assert {tuple(m.recipients or []) for m in reports} >= {("n@example.org",), ("s@example.org",)}


def test_daily_deadlines_close_one_phase_per_sweep(ctx) -> None:  # type: ignore[no-untyped-def]
    """Deadlines are kept one by one: a sweep closes the due phase; the next opens from now."""
    new_game(ctx, default="24h")
    for day in range(1, 5):  # the race ends after about six turns
        ctx.clock.set(phase(ctx).deadline)
        assert len(sweep(ctx).closed) == 1
        assert phase(ctx).phase_id == f"turn-{day + 1}"
    assert len(events(ctx, "phase.adjudicated")) == 4


def test_grace_period_keeps_the_phase_open_and_late_orders_count(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx, default="48h", grace="1h")
    deadline = phase(ctx).deadline
    ctx.clock.set(deadline + timedelta(minutes=30))
    assert sweep(ctx).closed == []
    order(ctx, "north", 3)  # within grace: still applied
    ctx.clock.set(deadline + timedelta(hours=1))
    closed = sweep(ctx).closed
    assert len(closed) == 1 and closed[0].defaulted == ("south",)
    ran = {e.data["power"]: e.data["steps"] for e in events(ctx, "race.ran")}  # type: ignore[index]
    assert ran == {"north": 3, "south": 1}


def test_paused_game_and_unreleased_preview_are_not_adjudicated(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx, "paused")
    new_game(ctx, "preview")
    with session_scope(ctx.engine) as s:
        get_game(s, "paused").status = "paused"
    with session_scope(ctx.engine) as s:
        from gm.service.games import current_phase
        current_phase(s, "preview").released = False
    ctx.clock.set(phase(ctx, "paused").deadline + timedelta(days=3))
    assert sweep(ctx).closed == []
    assert phase(ctx, "paused").state == phase(ctx, "preview").state == "open"


def test_missing_orders_default_and_the_report_names_who_defaulted(ctx) -> None:  # type: ignore[no-untyped-def]
    """NMR: the module's default (advance 1) is applied and every report says who defaulted."""
    new_game(ctx)
    order(ctx, "north", 2)
    ctx.clock.set(phase(ctx).deadline)
    assert sweep(ctx).closed[0].defaulted == ("south",)
    texts = {m.recipients[0]: body(m) for m in outbox(ctx, "report")}  # type: ignore[index]
    assert "No orders received from: south (defaults applied)." in texts["n@example.org"]
    assert "Pas d'ordres reçus de : south" in texts["s@example.org"]


def test_moderator_is_told_after_n_missed_phases_in_a_row(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx, nmr_warn_after=2)
    ctx.clock.set(phase(ctx).deadline)
    first = sweep(ctx)
    assert first.nmr_warned == []
    order(ctx, "north")
    ctx.clock.set(phase(ctx).deadline)
    second = sweep(ctx)
    assert second.nmr_warned == [("race1", "south")]
    notices = [m for m in outbox(ctx, "notice") if "missed 2 phases in a row" in m.subject]
    assert len(notices) == 1 and notices[0].recipients == ["mod@example.org"]
    assert "REPLACE POWER south WITH" in body(notices[0])


@pytest.mark.parametrize(("language", "subject", "words"), [
    ("en", "[race1] south missed 2 phases in a row",
     ["south (s@example.org) sent no orders for turn-2 and has now missed 2 phases in a row; it "
      "got its default orders.", "To hand the seat to a new player: REPLACE POWER south WITH"]),
    ("fr", "[race1] south a manqué 2 phases de suite",
     ["south (s@example.org) n'a envoyé aucun ordre pour turn-2 et a désormais manqué 2 phases "
      "de suite ; ses ordres par défaut ont été appliqués.", "Pour confier le siège à un nouveau "
      "joueur : REMPLACER PUISSANCE south PAR"])])
def test_the_missed_phases_notice_is_in_the_moderator_s_language(  # type: ignore[no-untyped-def]
        ctx, language: str, subject: str, words: list[str]) -> None:
    new_game(ctx, nmr_warn_after=2)
    moderator_speaks(ctx, "race1", language)
    for _ in range(2):
        order(ctx, "north")
        ctx.clock.set(phase(ctx).deadline)
        sweep(ctx)
    [told] = [m for m in outbox(ctx, "notice")
              if "REPLACE POWER" in body(m) or "REMPLACER PUISSANCE" in body(m)]
    assert told.subject == subject
    assert all(w in body(told) for w in words), body(told)
    assert_in(language, body(told))


def test_sunday_evening_deadlines_stay_at_20_00_stockholm_across_dst(ctx) -> None:  # type: ignore[no-untyped-def]
    """"Sundays 20:00 Europe/Stockholm", driven phase by phase over the March DST change."""
    from datetime import UTC, datetime
    from zoneinfo import ZoneInfo

    ctx.clock.set(datetime(2026, 3, 17, 9, 0, tzinfo=UTC))
    new_game(ctx, default="72h", at="20:00", weekdays=["sun"], timezone="Europe/Stockholm",
             reminders=["2h"])
    seen = []
    for _ in range(3):
        deadline = phase(ctx).deadline
        seen.append(deadline.astimezone(ZoneInfo("Europe/Stockholm")))
        ctx.clock.set(deadline - timedelta(hours=2))
        assert len(sweep(ctx).reminders) == 1
        ctx.clock.set(deadline)
        assert len(sweep(ctx).closed) == 1
    assert [(d.date().isoformat(), d.strftime("%H:%M %Z")) for d in seen] == [
        ("2026-03-22", "20:00 CET"), ("2026-03-29", "20:00 CEST"), ("2026-04-05", "20:00 CEST")]


def test_orders_reset_the_missed_in_row_count_so_missed_phases_apart_warn_nobody(ctx) -> None:  # type: ignore[no-untyped-def]
    """NMR counts missed phases *in a row*: south misses turn 1, orders for turn 2, misses
    turn 3. With nmr_warn_after 2 the moderator hears nothing, and south's count is 1."""
    from gm.service.games import seat_for_power

    new_game(ctx, nmr_warn_after=2)
    for south_orders in (False, True, False):
        order(ctx, "north")
        if south_orders:
            order(ctx, "south")
        ctx.clock.set(phase(ctx).deadline)
        assert sweep(ctx).nmr_warned == []
    assert not [m for m in outbox(ctx, "notice") if "in a row" in m.subject]
    with session_scope(ctx.engine) as s:
        seat = seat_for_power(s, "race1", "south")
        assert seat is not None and seat.missed_in_row == 1


def test_the_moderator_hears_of_each_miss_at_and_past_the_limit_and_never_with_limit_0(ctx) -> None:  # type: ignore[no-untyped-def]
    """nmr_warn_after 2: south's 2nd and 3rd misses in a row are each named to the moderator
    (it may REPLACE the seat at any of them); nmr_warn_after 0: never."""
    new_game(ctx, "warn", nmr_warn_after=2)
    new_game(ctx, "never", nmr_warn_after=0)
    warned = []
    for _ in range(3):
        for game in ("warn", "never"):
            order(ctx, "north", game_id=game)
        ctx.clock.set(phase(ctx, "warn").deadline)
        warned.append(sorted(sweep(ctx).nmr_warned))
    assert warned == [[], [("warn", "south")], [("warn", "south")]]
    subjects = sorted(m.subject for m in outbox(ctx, "notice") if "in a row" in m.subject)
    assert subjects == ["[warn] south missed 2 phases in a row",
                        "[warn] south missed 3 phases in a row"]

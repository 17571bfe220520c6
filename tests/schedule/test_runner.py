"""The scheduler as a wake-up clock: jobs keyed by game and phase, per-instance store."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import inspect

from gm.schedule.runner import Runner, game_of, jobs_table
from gm.schedule.sweep import sweep
from gm.service.context import ServiceContext
from tests.schedule.support import events, new_game, phase

H = timedelta(hours=1)


def _runner(ctx: ServiceContext, instance: str) -> Runner:
    return Runner(ServiceContext(engine=ctx.engine, clock=ctx.clock, settings=ctx.settings,
                                 instance=instance), sweep_seconds=3600)


def test_jobs_are_keyed_by_game_and_phase_in_a_table_of_the_instance(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx, "race1", reminders=["2h"], grace="30m")
    new_game(ctx, "race2")
    deadline = phase(ctx, "race1").deadline
    one, two = _runner(ctx, "host-a:1"), _runner(ctx, "host-b:2")
    one.start(paused=True)
    two.start(paused=True)
    try:
        times = one.planned()
        assert set(times) == {"adjudicate:race1:0", "remind:race1:0:2h", "adjudicate:race2:0"}
        assert one.stored_ids() == {"sweep", *times}
        assert times["adjudicate:race1:0"] == deadline + timedelta(minutes=30)
        assert times["remind:race1:0:2h"] == deadline - 2 * H
        tables = set(inspect(ctx.engine).get_table_names())
        assert {jobs_table("host-a:1"), jobs_table("host-b:2")} <= tables
        assert jobs_table("host-a:1") != jobs_table("host-b:2")
        assert two.stored_ids() == one.stored_ids()  # each instance its own copy
    finally:
        one.stop()
        two.stop()


def test_a_restart_rebuilds_the_jobs_from_the_phases_table(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx)
    first = _runner(ctx, "host-a")
    first.start(paused=True)
    first.stop()
    ctx.clock.set(phase(ctx).deadline)  # while that instance was down, another closed turn-1
    assert len(sweep(ctx).closed) == 1
    again = _runner(ctx, "host-a")
    again.start(paused=True)
    try:
        assert again.stored_ids() == {"sweep", "adjudicate:race1:1"}
    finally:
        again.stop()


def test_firing_a_job_twice_adjudicates_once(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx)
    runner = _runner(ctx, "host-a")
    runner.start(paused=True)
    try:
        ctx.clock.set(phase(ctx).deadline)
        assert len(runner.fire("adjudicate:race1:0").closed) == 1
        assert runner.fire("adjudicate:race1:0").closed == []
        assert "adjudicate:race1:1" in runner.stored_ids()  # the next phase got its job
        assert "adjudicate:race1:0" not in runner.stored_ids()
    finally:
        runner.stop()
    assert len(events(ctx, "phase.adjudicated")) == 1


def test_the_running_scheduler_fires_a_due_job_and_the_phase_closes(ctx) -> None:  # type: ignore[no-untyped-def]
    """Real APScheduler thread: the fake deadline is in the real past, so the job fires now."""
    new_game(ctx)
    ctx.clock.set(phase(ctx).deadline + H)
    runner = _runner(ctx, "host-a")
    runner.start()
    try:
        assert runner.fired.wait(60), "the scheduler never fired the due job"
    finally:
        runner.stop()
    assert phase(ctx).phase_id == "turn-2"
    assert len(events(ctx, "phase.adjudicated")) == 1


def test_job_ids_name_their_game() -> None:
    assert game_of("adjudicate:baltica42:7") == "baltica42"
    assert game_of("remind:baltica42:7:2h") == "baltica42"
    assert game_of("sweep") is None

"""Orders by mail around the deadline (docs/scheduling.md, `grace`): a mail within the grace
period is applied; one after it is answered "too late for PHASE", stored, and applied to no
phase, not even the next. Through the real pipeline: ``lateness`` alone is tested in
test_deadlines.py, and the orders of test_sweep.py's grace test skip the mail."""

from __future__ import annotations

from datetime import timedelta

from gm.schedule.sweep import sweep
from tests.pipeline.conftest import deliver, mail
from tests.pipeline.conftest import outbox as replies
from tests.schedule.support import events, new_game, phase

NORTH = "GAME race1\nPOWER north n-secret\nadvance 3\n"
SOUTH = "GAME race1\nPOWER south s-secret\nadvance 3\n"


def _reply(ctx, to: str) -> str:  # type: ignore[no-untyped-def]
    return replies(ctx, kind="reply", to=to)[-1][1]


def test_a_mail_within_grace_is_applied_and_one_after_it_is_too_late_for_any_phase(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx, default="48h", grace="1h")
    deadline = phase(ctx).deadline
    ctx.clock.set(deadline + timedelta(minutes=30))  # after the deadline, within grace
    deliver(ctx, mail(NORTH, sender="n@example.org"))
    answer = _reply(ctx, "n@example.org")
    assert "OK  advance 3" in answer and "too late" not in answer
    ctx.clock.set(deadline + timedelta(hours=1, seconds=1))  # past grace; no sweep yet
    deliver(ctx, mail(SOUTH, sender="s@example.org"))
    assert "trop tard pour turn-1 : sa date limite est passée" in _reply(ctx, "s@example.org")
    closed = sweep(ctx).closed
    assert [(c.phase_id, c.defaulted) for c in closed] == [("turn-1", ("south",))]
    ran = {e.data["power"]: e.data["steps"] for e in events(ctx, "race.ran")}  # type: ignore[index]
    assert ran == {"north": 3, "south": 1}  # north's mail in grace counted; south's did not
    ctx.clock.set(phase(ctx).deadline + timedelta(hours=1))  # turn-2's deadline plus grace
    assert [c.defaulted for c in sweep(ctx).closed] == [("north", "south")]  # nor in turn-2

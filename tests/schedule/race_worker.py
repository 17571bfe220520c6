"""One service instance for the race tests: sweep until nothing is due, print what it did.

``python -m tests.schedule.race_worker URL INSTANCE NOW GO_FILE MODE`` waits
for GO_FILE to exist (so that both instances start together), then, with a
clock fixed at NOW, either sweeps until a sweep finds nothing due (MODE
``sweep``) or calls ``close_phase`` on every due phase in the same order as
the other instance, head-on, with no probing (MODE ``direct``: the row claim
alone must keep it exactly-once), and prints one JSON line.
"""

from __future__ import annotations

import json
import sys
import time
from datetime import datetime
from pathlib import Path

from gm.clock import FakeClock
from gm.db.engine import make_engine, session_scope
from gm.schedule.phases import open_phases
from gm.schedule.sweep import sweep
from gm.service.adjudicate import close_phase
from gm.service.context import ServiceContext
from tests.support import toygame  # noqa: F401  (registers "race")


def main(url: str, instance: str, now: str, go_file: str, mode: str) -> None:
    ctx = ServiceContext(engine=make_engine(url), clock=FakeClock(datetime.fromisoformat(now)),
                         settings={"address": "gm@example.org"}, instance=instance)
    print(json.dumps({"ready": instance}), flush=True)
    while not Path(go_file).exists():
        time.sleep(0.01)
    closed = lost = sweeps = 0
    problems: list[str] = []
    while mode == "direct":
        with session_scope(ctx.engine) as session:
            due = sorted((r.game_id, r.seq) for r in open_phases(session) if r.due(ctx.clock.now()))
        if not due or problems:
            break
        for game_id, seq in due:
            try:
                result = close_phase(ctx, game_id, seq, by=instance, reason="race")
            except Exception as exc:  # reported, and the test fails on it
                problems.append(f"{game_id}:{type(exc).__name__}: {exc}")
                continue
            closed += int(result.closed)
            lost += int(not result.closed)
    while mode == "sweep":
        report = sweep(ctx)
        sweeps += 1
        closed += len(report.closed)
        lost += report.lost
        problems += [f"{p.game_id}:{p.reason}" for p in report.problems]
        with session_scope(ctx.engine) as session:
            due = [r for r in open_phases(session) if r.due(ctx.clock.now())]
        if not due or not (report.closed or report.lost):  # done, or stuck on problems
            break
    print(json.dumps({"instance": instance, "closed": closed, "lost": lost, "sweeps": sweeps,
                      "problems": problems}), flush=True)
    ctx.engine.dispose()


if __name__ == "__main__":
    main(*sys.argv[1:6])

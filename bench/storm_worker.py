"""One gm instance of the deadline-storm benchmark (bench/bench_storm.py).

``python -m bench.storm_worker URL INSTANCE NOW GO_FILE [DRAW_WORKERS]`` warms up as the daemon does when it
starts (gm.service.reports.warm_up: the game modules, boards, templates and catalogues loaded
by rendering one report, nothing stored; gm.pipeline.drawpool.prepare: the drawing pool
started, its forkserver having drawn each game's opening maps, and from then on each report
queued offered to it to draw ahead; gm.daemon.settle_heap in between, as the daemon),
waits for GO_FILE (so that every instance starts
together), then with its clock at NOW does what the daemon does at a
deadline: sweeps until nothing is due (every phase claimed, adjudicated, its reports queued),
then drains the outbox (maps drawn, every mail handed to a sink that accepts it) until
nothing is left to send. Prints one JSON line: wall times (``time.time()``) when its sweeps
and its drains ended, and what it did.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from datetime import datetime
from pathlib import Path

from sqlmodel import func, select

from gm.clock import FakeClock
from gm.daemon import settle_heap
from gm.db.engine import make_engine, session_scope
from gm.db.models import OutboundMail
from gm.mail.types import SendResult
from gm.pipeline import drawpool
from gm.pipeline.dispatch import drain
from gm.schedule.phases import open_phases
from gm.schedule.sweep import sweep
from gm.service.context import ServiceContext
from gm.service.reports import warm_up


class CountingSink:
    """An outbound sink that accepts every mail (the SMTP server's side is not measured)."""

    def __init__(self) -> None:
        self.sent = 0
        self.bytes = 0

    async def send(self, raw: bytes, sender: str, recipients: list[str]) -> SendResult:
        self.sent += 1
        self.bytes += len(raw)
        return SendResult.sent()

    async def close(self) -> None:
        return None


def main(url: str, instance: str, now: str, go_file: str, draw_workers: str = "") -> None:
    settings: dict[str, object] = {"address": "gm@example.org"}
    if draw_workers:  # else gm's default, as the daemon's (gm.pipeline.drawpool.workers_for)
        settings["draw_workers"] = int(draw_workers)
    ctx = ServiceContext(engine=make_engine(url), clock=FakeClock(datetime.fromisoformat(now)),
                         settings=settings, instance=instance)
    warm_up(ctx)  # what gm.daemon.Daemon.run does before its first round
    settle_heap()  # then, as it: what the start loaded frozen out of the collector's sight
    drawpool.prepare(ctx)  # and, games running, in the background (waited for here)
    print(json.dumps({"ready": instance}), flush=True)
    while not Path(go_file).exists():
        time.sleep(0.005)
    cpu = time.process_time()
    closed = lost = 0
    problems: list[str] = []
    while True:
        report = sweep(ctx)
        closed += len(report.closed)
        lost += report.lost
        problems += [f"{p.game_id}:{p.reason}" for p in report.problems]
        with session_scope(ctx.engine) as session:
            due = [r for r in open_phases(session) if r.due(ctx.clock.now())]
        if not due or not (report.closed or report.lost):
            break
    queued_at, queued_cpu = time.time(), time.process_time() - cpu
    sink = CountingSink()

    async def drain_all() -> None:
        while True:
            await drain(ctx, sink)
            with session_scope(ctx.engine) as session:
                left = session.exec(select(func.count()).select_from(OutboundMail)
                                    .where(OutboundMail.status == "queued")).one()
            if not left:
                return

    asyncio.run(drain_all())
    print(json.dumps({"instance": instance, "closed": closed, "lost": lost, "problems": problems,
                      "queued_at": queued_at, "queued_cpu": queued_cpu, "handed_at": time.time(), "sent": sink.sent,
                      "bytes": sink.bytes}), flush=True)
    ctx.engine.dispose()


if __name__ == "__main__":
    main(*sys.argv[1:6])

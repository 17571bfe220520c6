"""Deadline storm (issue 21): ``--games`` real Pax Baltica games whose deadlines fall in the
same minute, on SQLite and on PostgreSQL, with 1 and 2 gm instances.

Each game is a 12.1 Grand Campaign in Sweden's first action phase with Sweden's orders of a
real order mail stored (bench/realgames.py; the games are copies of one, seats, state,
orders, seed and deadline, their deadlines spread over one minute). Every run starts from a
copy of that database; the instances (bench/storm_worker.py, one process each) are released
together with their clocks one second after the minute, and do what the daemon does:

* queued: sweep until nothing is due: each phase claimed, adjudicated, its next phase opened
  and its three reports (Sweden, the Coalition, the moderator) rendered and queued;
* handed: drain the outbox: each report's map drawn (SVG to PNG) and the mail handed to a
  sink that accepts it.

Reference: the engine alone, ``BalticaModule.adjudicate`` on the same states, orders and
dice, in one process. Printed per store and instance count: the engine's seconds, the
seconds to every report queued (target 15 s for 1,000 games) and to every report handed
(target 60 s), the ratio queued/engine, the instances' CPU a game to queued (``process_time``,
all instances together: steadier than wall on a shared machine), each median [min-max] of
``--runs``; then whether
every game was adjudicated exactly once. Two instances against one: the ratio of games/s.

Run: ``.venv/bin/python -m bench.bench_storm [--games 1000] [--runs 3] [--instances 1 2]
[--pg URL | --no-pg]``; PostgreSQL: ``--pg``, else GM_BENCH_DATABASE_URL, else
GM_TEST_DATABASE_URL, else postgresql+psycopg://postgres@127.0.0.1:5432/test (a database of
its own is created and dropped in that server).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import update
from sqlmodel import col, func, select

from bench import realgames as rg
from gm.clock import FakeClock
from gm.db.engine import make_engine, session_scope, sqlite_url
from gm.db.migrate import upgrade
from gm.db.models import EventLog, OrderSet, OutboundMail, Phase
from gm.dice import Dice
from gm.games.baltica import module
from gm.service.context import ServiceContext
from gm.service.games import current_phase, get_game
from tests.schedule.support import clone_games


def set_up(url: str, games: int) -> str:
    """``games`` copies of one Baltica game with Sweden's orders; the instances' clock."""
    engine = make_engine(url)
    upgrade(engine)
    ctx = ServiceContext(engine=engine, clock=FakeClock(), settings={"address": "gm@example.org"},
                         instance="bench-setup")
    rg.new_baltica(ctx, "b00000")
    rg.deliver(ctx, rg.baltica_mails(ctx, ["b00000"], 1)[0])
    ids = [f"b{i:05d}" for i in range(1, games)]
    clone_games(ctx, "b00000", ids)
    with session_scope(engine) as s:
        phase = current_phase(s, "b00000")
        orders = list(s.exec(select(OrderSet).where(OrderSet.game_id == "b00000",
                                                    OrderSet.phase_seq == phase.seq,
                                                    OrderSet.current == True)))  # noqa: E712
        for gid in ids:
            for o in orders:
                s.add(OrderSet(**{**o.model_dump(exclude={"id", "inbound_id"}), "game_id": gid}))
        assert phase.deadline is not None
        base = phase.deadline
        for i in range(games):
            s.execute(update(Phase).where(col(Phase.game_id) == f"b{i:05d}", Phase.state == "open")
                      .values(deadline=base + timedelta(seconds=60 * i / games)))
        # the set-up's own mails are not the storm's work
        s.execute(update(OutboundMail).where(OutboundMail.status == "queued").values(status="sent"))
    engine.dispose()
    return (base + timedelta(seconds=61)).isoformat()


def engine_alone(url: str) -> tuple[int, float]:
    """Adjudicate every open phase's state with its orders, the engine only; (games, s)."""
    engine = make_engine(url)
    work: list[tuple[dict[str, Any], dict[str, list[Any]], Dice]] = []
    with session_scope(engine) as s:
        for phase in s.exec(select(Phase).where(Phase.state == "open")):
            game = get_game(s, phase.game_id)
            sets = s.exec(select(OrderSet).where(OrderSet.game_id == phase.game_id,
                                                 OrderSet.phase_seq == phase.seq,
                                                 OrderSet.current == True))  # noqa: E712
            orders = {o.power: [module.order_from_json(x) for x in o.orders or []] for o in sets}
            work.append((dict(phase.game_state or {}), orders,
                         Dice(seed=game.seed, game_id=game.id, phase_id=phase.phase_id)))
    engine.dispose()
    start = time.perf_counter()
    for state, orders, dice in work:
        module.adjudicate(state, orders, dice)
    return len(work), time.perf_counter() - start


def release(url: str, now: str, instances: int,
            draw_workers: int | None = None) -> tuple[float, float, list[dict[str, Any]]]:
    """Start the instances together; (seconds to all queued, to all handed, their reports).

    Without ``draw_workers`` each instance draws with its share of this host's cores, as an
    operator running several instances on one host would set ``[service] draw_workers``
    (gm's default, every core each, would put two drawing pools on the same cores)."""
    if draw_workers is None:
        draw_workers = max(1, len(os.sched_getaffinity(0)) // instances)
    with tempfile.TemporaryDirectory() as tmp:
        go = Path(tmp) / "go"
        env = {**os.environ, "PYTHONPATH": str(rg.ROOT)}
        procs = [subprocess.Popen([sys.executable, "-m", "bench.storm_worker", url, f"i{n}", now,
                                   str(go), "" if draw_workers is None else str(draw_workers)],
                                  cwd=rg.ROOT, env=env, stdout=subprocess.PIPE, text=True)
                 for n in range(instances)]
        for p in procs:
            assert p.stdout is not None and "ready" in p.stdout.readline()
        start = time.time()
        go.touch()
        outs = [json.loads(p.communicate()[0].strip().splitlines()[-1]) for p in procs]
    return (max(o["queued_at"] for o in outs) - start, max(o["handed_at"] for o in outs) - start, outs)


def last_event(url: str) -> int:
    engine = make_engine(url)
    with session_scope(engine) as s:
        last = int(s.exec(select(func.coalesce(func.max(EventLog.id), 0))).one())
    engine.dispose()
    return last


def check(url: str, games: int, after: int) -> str:
    """Whether the storm adjudicated every game exactly once (events after ``after``)."""
    engine = make_engine(url)
    with session_scope(engine) as s:
        adjudicated = Counter(s.exec(select(EventLog.game_id).where(
            EventLog.type == "phase.adjudicated", col(EventLog.id) > after)))
        queued = s.exec(select(func.count()).select_from(OutboundMail)
                        .where(OutboundMail.kind == "report", OutboundMail.status == "queued")).one()
    engine.dispose()
    once = len(adjudicated) == games and set(adjudicated.values()) == {1}
    return (f"{'exactly once' if once else 'NOT exactly once'} ({len(adjudicated)} games adjudicated), "
            f"{queued} reports left unsent")


@contextmanager
def databases(label: str, games: int, pg_server: str) -> Iterator[tuple[str, Any]]:
    """The instances' clock and ``fresh(n) -> url``: a copy of the set-up database per run."""
    if label == "sqlite":
        with tempfile.TemporaryDirectory() as tmp:
            template = Path(tmp) / "template.db"
            now = set_up(sqlite_url(template), games)

            def fresh(n: int) -> str:
                shutil.copy(template, Path(tmp) / f"run{n}.db")
                return sqlite_url(Path(tmp) / f"run{n}.db")
            yield now, fresh
        return
    with rg.pg_databases(pg_server) as new:
        template_url = new(None)
        now = set_up(template_url, games)
        yield now, lambda n: new(template_url)


def storm(label: str, args: argparse.Namespace) -> None:
    rates: dict[int, list[float]] = {}
    cpus: dict[int, list[float]] = {}
    with databases(label, args.games, args.pg) as (now, fresh):
        runs = 0
        for instances in args.instances:
            alone, queued, handed, cpu = [], [], [], []
            for _ in range(args.runs):
                url = fresh(runs)
                runs += 1
                n, seconds = engine_alone(url)
                alone.append(seconds)
                before = last_event(url)
                q, h, outs = release(url, now, instances, args.draw_workers)
                queued.append(q)
                handed.append(h)
                cpu.append(1000 * sum(o["queued_cpu"] for o in outs) / args.games)
                verdict = check(url, args.games, before)
                closed = [o["closed"] for o in outs]
            rates[instances] = [args.games / q for q in queued]
            cpus[instances] = cpu
            name = f"storm {label} x{instances}"
            print(f"{name}: {args.games} Pax Baltica games due in one minute; last run: closed per "
                  f"instance {closed}, {verdict}")
            rg.report(name, "s to every report queued", alone, queued,
                      f"queued <= 15 s for 1,000 games ({15 * args.games / 1000:g} s here)",
                      ratio=lambda o, b: o / b, bare_name="engine alone", fmt="{:.2f}")
            print(f"{name}: every report handed to the sink (maps drawn): {rg.spread(handed, '{:.2f}')} s "
                  f"(target <= 60 s for 1,000 games)")
            print(f"{name}: the instances' CPU to every report queued (process_time, all together): "
                  f"{rg.spread(cpu, '{:.1f}')} ms a game (steadier than wall on a shared machine)")
    for k in sorted(rates):
        if k > 1 and 1 in rates:
            ratios = [b / a for a, b in zip(rates[1], rates[k], strict=True)]
            print(f"storm {label}: {k} instances / 1 instance, games/s to queued: "
                  f"{rg.spread(ratios, '{:.2f}')} (target >= 1.6 for 2 on PostgreSQL); CPU a game "
                  f"{rg.spread(cpus[k], '{:.1f}')} against {rg.spread(cpus[1], '{:.1f}')} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--instances", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--pg", default=os.environ.get("GM_BENCH_DATABASE_URL")
                        or os.environ.get("GM_TEST_DATABASE_URL") or rg.DEFAULT_PG)
    parser.add_argument("--no-pg", action="store_true")
    parser.add_argument("--no-sqlite", action="store_true")
    parser.add_argument("--draw-workers", type=int, default=None,
                        help="each instance's [service] draw_workers (default: gm's, the cores)")
    args = parser.parse_args()
    if not args.no_sqlite:
        storm("sqlite", args)
    if not args.no_pg:
        storm("postgresql", args)


if __name__ == "__main__":
    main()

"""Benchmark: 1,000 games whose deadlines fall in the same minute, end to end to queued reports.

For each store (SQLite file; PostgreSQL with one and with two instances), the
games are set up, then instance processes (tests/schedule/race_worker.py) are
released together with a clock one second after that minute and sweep until
nothing is due. Timed: from the release to the last process finishing, so
each game's claim, adjudication (the toy "race" engine), event log, next
phase and three queued reports are inside the figure. Afterwards every game
is checked to have been adjudicated exactly once.

    .venv/bin/python bench/bench_deadlines.py [--games 1000] [--pg URL]

PostgreSQL: ``--pg``, else GM_BENCH_DATABASE_URL, else GM_TEST_DATABASE_URL,
else postgresql+psycopg://postgres@127.0.0.1:5432/test; a database of its own
is created and dropped inside that server for each run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import create_engine, text, update  # noqa: E402
from sqlmodel import col, func, select  # noqa: E402

from gm.clock import FakeClock  # noqa: E402
from gm.db.engine import make_engine, session_scope, sqlite_url  # noqa: E402
from gm.db.migrate import upgrade  # noqa: E402
from gm.db.models import EventLog, OutboundMail, Phase  # noqa: E402
from gm.service.context import ServiceContext  # noqa: E402
from tests.schedule.support import clone_games, new_game  # noqa: E402

DEFAULT_PG = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


@contextmanager
def pg_database(server_url: str) -> Iterator[str]:
    name = f"gm_bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(server_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield f"{server_url.rsplit('/', 1)[0]}/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def set_up(url: str, games: int) -> tuple[str, int]:
    """``games`` race games whose deadlines spread over one minute; (worker clock, reports before)."""
    engine = make_engine(url)
    upgrade(engine)
    ctx = ServiceContext(engine=engine, clock=FakeClock(), settings={"address": "gm@example.org"},
                         instance="bench-setup")
    new_game(ctx, "b00000", default="48h")
    clone_games(ctx, "b00000", [f"b{i:05d}" for i in range(1, games)])
    with session_scope(engine) as s:
        base = s.exec(select(Phase.deadline)).first()
        assert base is not None
        for i in range(games):
            s.execute(update(Phase).where(col(Phase.game_id) == f"b{i:05d}")
                      .values(deadline=base + timedelta(seconds=60 * i / games)))
        before = s.exec(select(func.count()).select_from(OutboundMail)
                        .where(OutboundMail.kind == "report")).one()
    engine.dispose()
    return (base + timedelta(seconds=61)).isoformat(), int(before)


def race(url: str, now: str, instances: int) -> tuple[float, list[dict[str, object]]]:
    with tempfile.TemporaryDirectory() as tmp:
        go = Path(tmp) / "go"
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        procs = [subprocess.Popen([sys.executable, "-m", "tests.schedule.race_worker", url,
                                   f"i{n}", now, str(go), "sweep"], cwd=ROOT, env=env,
                                  stdout=subprocess.PIPE, text=True) for n in range(instances)]
        for p in procs:
            assert p.stdout is not None and "ready" in p.stdout.readline()
        start = time.perf_counter()
        go.touch()
        outs = [p.communicate()[0] for p in procs]
        elapsed = time.perf_counter() - start
    return elapsed, [json.loads(o.strip().splitlines()[-1]) for o in outs]


def check(url: str, games: int, reports_before: int) -> tuple[int, dict[str, int]]:
    engine = make_engine(url)
    with session_scope(engine) as s:
        adjudicated = Counter(s.exec(select(EventLog.game_id)
                                     .where(EventLog.type == "phase.adjudicated")))
        reports = int(s.exec(select(func.count()).select_from(OutboundMail)
                             .where(OutboundMail.kind == "report")).one()) - reports_before
        claims = Counter(s.exec(select(Phase.claimed_by).where(Phase.state == "done")))
    engine.dispose()
    if len(adjudicated) != games or set(adjudicated.values()) != {1}:
        raise SystemExit(f"NOT exactly once: {len(adjudicated)} games, counts {set(adjudicated.values())}")
    return reports, dict(claims)


def run(label: str, url: str, games: int, instances: int) -> None:
    now, before = set_up(url, games)
    elapsed, results = race(url, now, instances)
    reports, claims = check(url, games, before)
    problems = sum(len(r["problems"]) for r in results)  # type: ignore[arg-type]
    print(f"{label:<12} {instances:>9} {games:>6} {elapsed:>8.2f} {games / elapsed:>9.1f} "
          f"{reports:>8} {problems:>8}  {claims}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--pg", default=os.environ.get("GM_BENCH_DATABASE_URL")
                        or os.environ.get("GM_TEST_DATABASE_URL") or DEFAULT_PG)
    parser.add_argument("--no-pg", action="store_true")
    args = parser.parse_args()
    print(f"{'store':<12} {'instances':>9} {'games':>6} {'seconds':>8} {'games/s':>9} "
          f"{'reports':>8} {'problems':>8}  claims per instance")
    with tempfile.TemporaryDirectory() as tmp:
        run("sqlite", sqlite_url(Path(tmp) / "bench.db"), args.games, 1)
    with tempfile.TemporaryDirectory() as tmp:
        run("sqlite", sqlite_url(Path(tmp) / "bench2.db"), args.games, 2)
    if args.no_pg:
        return
    for instances in (1, 2):
        with pg_database(args.pg) as url:
            run("postgresql", url, args.games, instances)


if __name__ == "__main__":
    main()

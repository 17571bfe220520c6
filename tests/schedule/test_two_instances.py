"""Two service instances (two processes) race for 200 games whose deadlines fall together.

Every game must be adjudicated exactly once: one closed phase, one
``phase.adjudicated`` event, one set of rolls and one set of reports each,
whichever instance won which game.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections import Counter
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlmodel import func, select

from gm.clock import FakeClock
from gm.db.engine import make_engine, session_scope, sqlite_url
from gm.db.migrate import upgrade
from gm.db.models import EventLog, OutboundMail, Phase
from gm.service.context import ServiceContext
from tests.schedule.support import clone_games, new_game

GAMES = 200
ROOT = Path(__file__).resolve().parents[2]
PG_URL = os.environ.get("GM_TEST_DATABASE_URL", "")


@pytest.fixture(params=["sqlite", "postgres"])
def race_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of its own: a SQLite file, or a fresh database in the PostgreSQL server."""
    if request.param == "sqlite":
        yield sqlite_url(tmp_path / "race.db")
        return
    if not PG_URL:
        pytest.skip("GM_TEST_DATABASE_URL is not set: the PostgreSQL race needs a server")
    name = f"gm_sched_{uuid.uuid4().hex[:12]}"
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield f"{PG_URL.rsplit('/', 1)[0]}/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.mark.parametrize("mode", ["sweep", "direct"])
def test_two_instances_adjudicate_each_of_200_games_exactly_once(race_url: str, tmp_path: Path,
                                                                 mode: str) -> None:
    """``sweep``: the daemon's path. ``direct``: both call close_phase on every game in the
    same order at the same moment, so only the row claim stands between them."""
    engine = make_engine(race_url)
    upgrade(engine)
    ctx = ServiceContext(engine=engine, clock=FakeClock(), settings={"address": "gm@example.org"},
                         instance="setup")
    new_game(ctx, "g000", default="48h")
    clone_games(ctx, "g000", [f"g{i:03d}" for i in range(1, GAMES)])
    with session_scope(engine) as s:
        deadlines = set(s.exec(select(Phase.deadline)))
    assert len(deadlines) == 1  # they all fall together
    reports_before = _reports(engine)
    now = (ctx.clock.now() + timedelta(hours=48, minutes=1)).isoformat()
    go = tmp_path / "go"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen([sys.executable, "-m", "tests.schedule.race_worker", race_url, name,
                               now, str(go), mode], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
             for name in ("alpha", "beta")]
    for p in procs:  # both are connected and waiting
        assert p.stdout is not None and "ready" in p.stdout.readline()
    go.touch()
    results = []
    for p in procs:
        out, _ = p.communicate(timeout=600)
        assert p.returncode == 0
        results.append(json.loads(out.strip().splitlines()[-1]))
    assert [r["problems"] for r in results] == [[], []]
    assert sum(r["closed"] for r in results) == GAMES
    with session_scope(engine) as s:
        done = Counter(s.exec(select(Phase.game_id).where(Phase.state == "done")))
        opened = Counter(s.exec(select(Phase.game_id).where(Phase.state == "open")))
        adjudicated = Counter(s.exec(select(EventLog.game_id)
                                     .where(EventLog.type == "phase.adjudicated")))
        rolls = s.exec(select(func.count()).select_from(EventLog).where(EventLog.type == "roll")).one()
        claimed = Counter(s.exec(select(Phase.claimed_by).where(Phase.state == "done")))
    assert len(done) == GAMES and set(done.values()) == {1}
    assert len(opened) == GAMES and set(opened.values()) == {1}
    assert len(adjudicated) == GAMES and set(adjudicated.values()) == {1}
    assert rolls == 2 * GAMES  # one die per power per game, never rolled twice
    assert _reports(engine) - reports_before == 3 * GAMES  # north, south, moderator: once each
    assert sum(claimed.values()) == GAMES and set(claimed) <= {"alpha", "beta"}
    print(f"\nclaims per instance: {dict(claimed)}; workers: {results}")
    engine.dispose()


def _reports(engine) -> int:  # type: ignore[no-untyped-def]
    with session_scope(engine) as s:
        return int(s.exec(select(func.count()).select_from(OutboundMail)
                          .where(OutboundMail.kind == "report")).one())

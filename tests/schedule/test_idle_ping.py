"""PostgreSQL: a pooled connection is pinged before use only after it sat idle (issue 21: a
ping at every checkout was a round trip before each close of a deadline storm), and a
connection the server dropped is still replaced, idle or not. Not timed: the pool's idle
clock is the test's."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.pool import NullPool

from gm.db import engine as engine_module
from gm.schedule.sweep import sweep
from gm.service.context import ServiceContext
from tests.schedule.support import new_game, order, phase


class Clock:
    """The pool's idle clock: from the real one's now (the fixtures' connections came back by
    it), it moves only when the test moves it."""

    def __init__(self) -> None:
        self.now = time.monotonic()

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def pg(ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[ServiceContext, Clock, list[int]]]:
    """``ctx`` on PostgreSQL, the pool's idle clock, and the pings the pool sent."""
    if ctx.engine.dialect.name != "postgresql":
        pytest.skip("SQLite is a file: there is no connection to ping")
    clock, pings = Clock(), list[int]()
    monkeypatch.setattr(engine_module, "idle_clock", clock, raising=False)
    real = ctx.engine.dialect.do_ping

    def ping(dbapi_conn):  # type: ignore[no-untyped-def]
        pings.append(1)
        return real(dbapi_conn)

    monkeypatch.setattr(ctx.engine.dialect, "do_ping", ping)
    yield ctx, clock, pings


def _backend(ctx: ServiceContext) -> int:
    with ctx.engine.connect() as conn:
        return int(conn.execute(text("SELECT pg_backend_pid()")).scalar_one())


def _end(ctx: ServiceContext, pid: int) -> None:
    """End a backend as a restarted server would (from a connection of its own)."""
    admin = create_engine(ctx.engine.url, poolclass=NullPool)
    with admin.connect() as conn:
        assert conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid}).scalar_one()
    admin.dispose()


def test_closes_back_to_back_send_no_ping(pg) -> None:  # type: ignore[no-untyped-def]
    ctx, clock, pings = pg
    for game in ("race1", "race2", "race3"):
        new_game(ctx, game, default="72h")
        order(ctx, "north", 3, game)
    first = phase(ctx)
    assert first.deadline is not None
    ctx.clock.set(first.deadline + timedelta(days=1))
    _backend(ctx)  # the pool holds a connection used before
    pings.clear()
    report = sweep(ctx)
    assert sorted(c.game_id for c in report.closed) == ["race1", "race2", "race3"]
    assert pings == []  # was one a checkout: a round trip before each close


def test_a_connection_idle_for_a_while_is_pinged_and_replaced_if_the_server_dropped_it(pg) -> None:  # type: ignore[no-untyped-def]
    ctx, clock, pings = pg
    pid = _backend(ctx)
    _end(ctx, pid)
    clock.now += engine_module.IDLE_PING_SECONDS + 1
    assert _backend(ctx) != pid  # no error: the ping found it dead, a new one was opened
    assert len(pings) == 1
    assert _backend(ctx) and len(pings) == 1  # used again at once: not pinged


def test_a_connection_dropped_right_after_use_fails_once_then_the_pool_opens_new_ones(pg) -> None:  # type: ignore[no-untyped-def]
    """What pool_pre_ping spared: a connection ended within a second of its last use fails
    its first statement (the daemon's sweep and mail rounds retry after a database error),
    and every pooled connection of before is dropped with it."""
    ctx, clock, pings = pg
    with ctx.engine.connect() as a, ctx.engine.connect() as b:
        pids = [int(c.execute(text("SELECT pg_backend_pid()")).scalar_one()) for c in (a, b)]
    for pid in pids:
        _end(ctx, pid)
    with pytest.raises(OperationalError), ctx.engine.connect() as conn:
        conn.execute(text("SELECT 1"))
    assert _backend(ctx) not in pids
    assert _backend(ctx) not in pids
    assert pings == []

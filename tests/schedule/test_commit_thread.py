"""PostgreSQL: the sweep's closes are committed in a thread of their own while the sweep
works out the next close (gm.db.committer; issue 21: the COMMIT was the longest wait of a
close, the sweep's thread idle through it), and a commit that fails there comes to what it
came to inline: a database gone is raised, anything else holds that game only. Counted,
not timed."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session as OrmSession
from sqlmodel import select

from gm.db.engine import session_scope
from gm.db.models import Game
from gm.schedule.sweep import sweep
from gm.service.context import ServiceContext
from tests.schedule.support import new_game, order, phase, phases

GAMES = ("race1", "race2", "race3")


@pytest.fixture
def due(ctx: ServiceContext) -> ServiceContext:
    """Three games due together, on PostgreSQL."""
    if ctx.engine.dialect.name != "postgresql":
        pytest.skip("SQLite has one writer: its closes commit one by one in the sweep's thread")
    for game in GAMES:
        new_game(ctx, game, default="72h")
        order(ctx, "north", 3, game)
    first = phase(ctx)
    assert first.deadline is not None
    ctx.clock.set(first.deadline + timedelta(days=1))
    return ctx


@pytest.fixture
def commits() -> Iterator[list[tuple[str, str]]]:
    """(thread name, games) of every ORM session commit while the test runs: the games the
    session logged events of (a close logs its game's)."""
    seen: list[tuple[str, str]] = []

    def before_commit(session: OrmSession) -> None:
        games = set(_logged(session))
        seen.append((threading.current_thread().name, ",".join(sorted(games))))

    event.listen(OrmSession, "before_commit", before_commit)
    yield seen
    event.remove(OrmSession, "before_commit", before_commit)


def _logged(session: OrmSession) -> dict[str, int]:
    """The games ``session`` logged events of (gm.service.phases.log_event), by their ids."""
    return dict(session.info.get("gm_event_seq") or {})


def _fail_commit_of(game: str, error: BaseException) -> Any:
    def before_commit(session: OrmSession) -> None:
        if threading.current_thread().name.startswith("gm-commit") and game in _logged(session):
            raise error
    return before_commit


def test_the_closes_are_committed_in_the_commit_thread_not_the_sweeps(due, commits) -> None:  # type: ignore[no-untyped-def]
    report = sweep(due)
    assert sorted(c.game_id for c in report.closed) == list(GAMES)
    for game in GAMES:
        assert [p.state for p in phases(due, game)] == ["done", "open"]
    closes = [(thread, games) for thread, games in commits if games in GAMES]
    assert sorted(games for _, games in closes) == list(GAMES)
    # was the sweep's own thread for each, waiting on each COMMIT
    assert {thread.split("_")[0] for thread, _ in closes} == {"gm-commit"}


def test_a_commit_that_fails_in_the_commit_thread_holds_that_game_only(due) -> None:  # type: ignore[no-untyped-def]
    hook = _fail_commit_of("race2", RuntimeError("a bug at commit"))
    event.listen(OrmSession, "before_commit", hook)
    try:
        report = sweep(due)
    finally:
        event.remove(OrmSession, "before_commit", hook)
    assert sorted(c.game_id for c in report.closed) == ["race1", "race3"]
    assert [p.game_id for p in report.problems] == ["race2"]
    assert [p.state for p in phases(due, "race2")] == ["open"]  # rolled back: nothing applied
    with session_scope(due.engine) as s:
        held = {g.id: g.hold_reason for g in s.exec(select(Game))}
    assert "a bug at commit" in held["race2"] and not held["race1"] and not held["race3"]


def test_a_database_gone_at_a_commit_in_the_commit_thread_is_raised_and_holds_nothing(due) -> None:  # type: ignore[no-untyped-def]
    hook = _fail_commit_of("race2", OperationalError("COMMIT", {}, Exception("server gone")))
    event.listen(OrmSession, "before_commit", hook)
    try:
        with pytest.raises(OperationalError):
            sweep(due)
    finally:
        event.remove(OrmSession, "before_commit", hook)
    assert [p.state for p in phases(due, "race2")] == ["open"]
    with session_scope(due.engine) as s:
        assert not any(g.hold_reason for g in s.exec(select(Game)))
    again = sweep(due)  # the daemon sweeps again: the rest is closed, each once
    assert "race2" in [c.game_id for c in again.closed]
    for game in GAMES:
        assert [p.state for p in phases(due, game)] == ["done", "open"]
    assert not threading.enumerate() or all(
        not t.name.startswith("gm-commit") for t in threading.enumerate())

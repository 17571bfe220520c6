"""A SQLite transaction that writes first holds the write lock: orders stored in it lock no
phase again (gm.db.engine.note_write_lock, gm.service.orders.lock_current_phase; issue 21)."""

from __future__ import annotations

import pytest
from sqlalchemy import event, text
from sqlmodel import Session

from gm.db.engine import holds_write_lock, note_write_lock, session_scope
from gm.service.adjudicate import close_phase
from gm.service.games import current_phase, get_game
from gm.service.orders import lock_current_phase, submit_orders
from tests.service.test_game_flow import lines, new_race
from tests.support import toygame  # noqa: F401  (registers "race")


def _sqlite_only(ctx) -> None:  # type: ignore[no-untyped-def]
    if ctx.engine.dialect.name != "sqlite":
        pytest.skip("the database's write lock is SQLite's; PostgreSQL locks the phase row")


def test_the_note_lasts_as_long_as_its_transaction(ctx) -> None:  # type: ignore[no-untyped-def]
    _sqlite_only(ctx)
    new_race(ctx)
    with Session(ctx.engine) as session:
        session.execute(text("UPDATE game SET status = status"))
        note_write_lock(session)
        assert holds_write_lock(session)
        session.commit()  # the lock is gone with the transaction: so is the note
        session.execute(text("UPDATE game SET status = status"))
        assert not holds_write_lock(session)


def test_orders_under_the_write_lock_go_to_the_latest_phase_unlocked(ctx) -> None:  # type: ignore[no-untyped-def]
    _sqlite_only(ctx)
    new_race(ctx)
    with session_scope(ctx.engine) as s:
        first = current_phase(s, "race1")  # turn-1, in the session before the close
    assert close_phase(ctx, "race1", first.seq, by="test").closed  # turn-2 opens
    phase_writes: list[str] = []

    def count(conn, cursor, statement, *args) -> None:  # type: ignore[no-untyped-def]
        if statement.lstrip().upper().startswith("UPDATE PHASE"):
            phase_writes.append(statement)

    event.listen(ctx.engine, "before_cursor_execute", count)
    try:
        with session_scope(ctx.engine) as s:
            s.execute(text("UPDATE game SET status = status"))  # the transaction writes first
            note_write_lock(s)
            s.add(first)  # a phase read before the close, in this session: not current
            sub = submit_orders(ctx, s, get_game(s, "race1"), "north", lines("advance 2"))
    finally:
        event.remove(ctx.engine, "before_cursor_execute", count)
    assert sub.stored is not None and sub.phase.phase_id == "turn-2"
    assert sub.stored.phase_seq == sub.phase.seq != first.seq
    assert phase_writes == []


def test_postgresql_locks_the_current_phase_in_one_statement(ctx) -> None:  # type: ignore[no-untyped-def]
    if ctx.engine.dialect.name != "postgresql":
        pytest.skip("SQLite has no row locks")
    new_race(ctx)
    with session_scope(ctx.engine) as s:
        first = current_phase(s, "race1")
    assert close_phase(ctx, "race1", first.seq, by="test").closed  # turn-2 opens
    statements: list[str] = []

    def count(conn, cursor, statement, *args) -> None:  # type: ignore[no-untyped-def]
        statements.append(statement)

    with session_scope(ctx.engine) as s:
        event.listen(ctx.engine, "before_cursor_execute", count)
        try:
            phase = lock_current_phase(s, "race1")
        finally:
            event.remove(ctx.engine, "before_cursor_execute", count)
        assert phase.phase_id == "turn-2"
    assert len(statements) == 1 and "FOR UPDATE" in statements[0]

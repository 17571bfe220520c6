"""A power's orders and a phase's events are found through the game, not through every
game's rows of that phase (issue 21, migration 0005).

SQLite keeps no statistics unless told to (ANALYZE): of two usable indexes it may take
either. With one on ``phase_seq`` alone it took that one, so each look-up of a power's
orders, and each read of a closed phase's events, went through the rows of every game at
that phase: in a deadline storm, where all games are at the same phase, a close cost more
with each game closed before it. Not timed: the plan SQLite chose for each statement of a
mail's orders and of a close is read and checked."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import Engine

from gm.service.adjudicate import close_phase
from tests.pipeline.test_statements_per_mail import counted
from tests.schedule.support import new_game, order, phase

TABLES = ("orderset", "eventlog")


def plans(engine: Engine, statements: list[str]) -> dict[str, list[str]]:
    """Each distinct statement that reads ``TABLES`` (not a plain INSERT) and the lines of
    SQLite's plan for it that search or scan them."""
    out: dict[str, list[str]] = {}
    with engine.connect() as conn:
        for sql in dict.fromkeys(statements):
            flat = " ".join(sql.split())
            reads = [t for t in TABLES if re.search(rf"\b(FROM|UPDATE) {t}\b", flat, re.I)]
            if not reads:
                continue
            plan = [row[3] for row in conn.exec_driver_sql(
                "EXPLAIN QUERY PLAN " + sql, tuple([None] * sql.count("?")))]
            out[flat[:120]] = [line for line in plan if any(
                re.search(rf"\b{t}\b", line) for t in TABLES)]
    return out


def test_an_order_mail_and_a_close_find_orders_and_events_through_their_game(ctx) -> None:  # type: ignore[no-untyped-def]
    if ctx.engine.dialect.name != "sqlite":
        pytest.skip("PostgreSQL plans from its statistics (the same indexes are there)")
    new_game(ctx, default="72h")
    new_game(ctx, "race2", default="72h")
    with counted(ctx) as statements:
        order(ctx, "north", 3)
        order(ctx, "north", 2)  # a second version: the first one retired
        order(ctx, "south", 1, game_id="race2")
        assert close_phase(ctx, "race1", phase(ctx).seq, by="test", reason="deadline").closed
    found = plans(ctx.engine, statements)
    assert any("orderset" in s.lower() for s in found) and any("eventlog" in s.lower() for s in found)
    for statement, lines in found.items():
        assert lines, statement
        for line in lines:
            # a SEARCH by the game (and the phase), never a SCAN, never by the phase alone
            assert line.startswith("SEARCH") and "game_id=?" in line, (statement, line)

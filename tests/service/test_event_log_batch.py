"""Events are written together, not one ORM object each (gm.service.phases.log_event, issue
21): what a transaction logged is seen by its own next query, is written at its commit even
with no query after it, in the order it was logged, and is gone with a rollback."""

from __future__ import annotations

import pytest
from sqlmodel import col, select

from gm.db.engine import session_scope
from gm.db.models import EventLog
from gm.service.phases import events_of, log_event
from tests.schedule.support import new_game
from tests.support import toygame  # noqa: F401  (registers "race")


def logged(ctx) -> list[tuple[int, str]]:  # type: ignore[no-untyped-def]
    with session_scope(ctx.engine) as s:
        rows = s.exec(select(EventLog).where(EventLog.type.startswith("t."))  # type: ignore[attr-defined]
                      .order_by(col(EventLog.id))).all()
        return [(r.seq, r.type) for r in rows]


def test_a_transaction_sees_its_own_events_and_commits_them_in_order(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx)
    with session_scope(ctx.engine) as s:
        for n in range(3):
            log_event(ctx, s, "race1", 0, 0, f"t.{n}", {"n": n}, ["north"] if n else None)
        seen = [e.type for e in events_of(s, "race1", 0) if e.type.startswith("t.")]
        assert seen == ["t.0", "t.1", "t.2"]
        log_event(ctx, s, "race1", 0, 0, "t.3", {"n": 3})  # no query after it: the commit writes it
    got = logged(ctx)
    assert [t for _, t in got] == ["t.0", "t.1", "t.2", "t.3"]
    seqs = [q for q, _ in got]
    assert seqs == list(range(seqs[0], seqs[0] + 4))
    with session_scope(ctx.engine) as s:
        row = s.exec(select(EventLog).where(EventLog.type == "t.1")).one()
        assert (row.data, row.visible_to, row.game_id) == ({"n": 1}, ["north"], "race1")


def test_a_rolled_back_transaction_leaves_no_event_and_no_gap(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx)
    with pytest.raises(RuntimeError), session_scope(ctx.engine) as s:
        log_event(ctx, s, "race1", 0, 0, "t.lost", {})
        events_of(s, "race1", 0)  # written inside the transaction, then rolled back
        log_event(ctx, s, "race1", 0, 0, "t.lost-too", {})  # never written
        raise RuntimeError("the close failed")
    assert logged(ctx) == []
    with session_scope(ctx.engine) as s:
        last = max(e.seq for e in events_of(s, "race1", 0))
    with session_scope(ctx.engine) as s:  # one session: a rollback, then events again
        log_event(ctx, s, "race1", 0, 0, "t.dropped", {})
        s.rollback()
        log_event(ctx, s, "race1", 0, 0, "t.kept", {})
    assert logged(ctx) == [(last + 1, "t.kept")]

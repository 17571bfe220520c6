"""Storing a new version of a power's orders costs two statements: the current one retired
by an UPDATE returning its flags, the new one inserted numbered by its INSERT
(gm.service.orders.store_orders; issue 21)."""

from __future__ import annotations

from sqlalchemy import event, update
from sqlmodel import select

from gm.db.engine import session_scope
from gm.db.models import OrderSet
from gm.service.games import current_orders, current_phase, get_game
from gm.service.orders import lock_current_phase, set_flags, submit_orders
from tests.service.test_game_flow import lines, new_race
from tests.support import toygame  # noqa: F401  (registers "race")


def test_a_version_the_session_holds_is_seen_retired(ctx) -> None:  # type: ignore[no-untyped-def]
    new_race(ctx)
    with session_scope(ctx.engine) as s:
        game = get_game(s, "race1")
        submit_orders(ctx, s, game, "north", lines("advance 2"))
        set_flags(ctx, s, game, "north", ready=True)  # READY: the current row, in the session
        held = current_orders(s, game.id, current_phase(s, game.id).seq)["north"]
        sub = submit_orders(ctx, s, game, "north", lines("advance 3"))
        assert sub.stored is not None and sub.stored is not held
        assert not held.current  # as the database has it, not as it was read
        assert (sub.stored.current, sub.stored.ready, sub.stored.version) == (True, True, 2)
    with session_scope(ctx.engine) as s:
        rows = s.exec(select(OrderSet).where(OrderSet.power == "north")
                      .order_by(OrderSet.version)).all()
        assert [(r.version, r.current, r.ready, r.text) for r in rows] == [
            (1, False, True, "advance 2"), (2, True, True, "advance 3")]


def test_a_new_version_is_inserted_without_a_flush_and_joins_the_session(ctx) -> None:  # type: ignore[no-untyped-def]
    """One INSERT ... RETURNING, no unit-of-work flush (issue 21); the row is in the
    session with its id, so READY in the same mail updates it."""
    new_race(ctx)
    flushed: list[object] = []
    with session_scope(ctx.engine) as s:
        game = get_game(s, "race1")
        event.listen(s, "after_flush", lambda session, _ctx: flushed.extend(session.new))
        sub = submit_orders(ctx, s, game, "north", lines("advance 2"))
        assert sub.stored is not None and sub.stored.id is not None
        assert flushed == []  # not inserted by a flush
        assert s.get(OrderSet, sub.stored.id) is sub.stored
        set_flags(ctx, s, game, "north", ready=True)
    with session_scope(ctx.engine) as s:
        rows = s.exec(select(OrderSet).where(OrderSet.power == "north")).all()
        assert [(r.version, r.current, r.ready, r.text) for r in rows] == [(1, True, True, "advance 2")]


def test_replacing_orders_costs_two_statements_and_numbers_and_flags_as_before(ctx) -> None:  # type: ignore[no-untyped-def]
    """A mail's orders without ADD: the current version retired by one UPDATE returning its
    flags, the new one numbered by its INSERT (issue 21: the versions were read first, a
    third statement). READY carries over; a version retired without a successor still
    counts in the numbering."""
    new_race(ctx)
    with session_scope(ctx.engine) as s:
        game = get_game(s, "race1")
        submit_orders(ctx, s, game, "north", lines("advance 1"))
        set_flags(ctx, s, game, "north", ready=True)
    with session_scope(ctx.engine) as s:
        game = get_game(s, "race1")
        lock_current_phase(s, game.id)
        statements: list[str] = []
        listener = lambda *args: statements.append(args[2])  # noqa: E731
        event.listen(ctx.engine, "before_cursor_execute", listener)
        try:
            sub = submit_orders(ctx, s, game, "north", lines("advance 2"))
        finally:
            event.remove(ctx.engine, "before_cursor_execute", listener)
        assert sub.stored is not None and (sub.stored.version, sub.stored.ready) == (2, True)
        assert [x.split()[0] for x in statements if "orderset" in x.lower()] == ["UPDATE", "INSERT"]
        s.execute(update(OrderSet).where(OrderSet.power == "north").values(current=False))
    with session_scope(ctx.engine) as s:
        game = get_game(s, "race1")
        sub = submit_orders(ctx, s, game, "north", lines("advance 3"))
        assert sub.stored is not None and (sub.stored.version, sub.stored.ready) == (3, False)
    with session_scope(ctx.engine) as s:
        rows = s.exec(select(OrderSet).where(OrderSet.power == "north").order_by(OrderSet.version)).all()
        assert [(r.version, r.current, r.ready, r.text) for r in rows] == [
            (1, False, True, "advance 1"), (2, False, True, "advance 2"), (3, True, False, "advance 3")]

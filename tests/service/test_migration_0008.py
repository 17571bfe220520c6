"""Migration 0008: a queued mail marked ``phase_bound`` (withdrawn unsent once its phase
closed, gm.pipeline.dispatch), on a database with mails queued already, down and up
again, on SQLite and on PostgreSQL."""

from __future__ import annotations

from sqlalchemy import inspect, text
from sqlmodel import col, select

from gm.db.engine import session_scope
from gm.db.migrate import current_revision, upgrade
from gm.db.models import OutboundMail
from gm.service.context import ServiceContext
from gm.service.games import SeatSpec, create_game
from gm.service.outbox import queue_mail
from tests.service.test_migration_0007 import _to
from tests.support import toygame  # noqa: F401  (registers "race")


def _columns(ctx: ServiceContext) -> set[str]:
    return {c["name"] for c in inspect(ctx.engine).get_columns("outboundmail")}


def test_reminders_queued_before_0008_are_marked_phase_bound_and_nothing_else(ctx) -> None:  # type: ignore[no-untyped-def]
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="race1", module_name="race", scenario="duel",
                    seats=[SeatSpec("north", "north@example.org", password="n"),
                           SeatSpec("south", "south@example.org", password="s")],
                    moderator_address="mod@example.org", seed=b"\x02" * 32)
        queue_mail(ctx, s, game_id="race1", kind="reminder", to=["north@example.org"],
                   subject="[race1] reminder: turn-1 closes in 2 hours", text="hurry\n",
                   key="reminder:old", phase_bound=True)
    _to(ctx, "0007_seat_bounce")
    assert current_revision(ctx.engine) == "0007_seat_bounce"
    assert "phase_bound" not in _columns(ctx)
    with ctx.engine.connect() as conn:  # the mails are still there
        assert conn.execute(text("SELECT count(*) FROM outboundmail")).scalar() == 5
    upgrade(ctx.engine)  # as gm does on every start
    with session_scope(ctx.engine) as s:
        rows = s.exec(select(OutboundMail).order_by(col(OutboundMail.id))).all()
        assert [(r.kind, r.phase_bound) for r in rows if r.kind == "reminder"] == [
            ("reminder", True)]
        assert not any(r.phase_bound for r in rows if r.kind != "reminder")

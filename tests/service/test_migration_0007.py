"""Migration 0007: a seat's mark as bouncing (gm.service.bouncing), on a database with
seats already in it, down and up again, on SQLite and on PostgreSQL."""

from __future__ import annotations

from alembic import command
from sqlalchemy import inspect, text
from sqlmodel import select

from gm.db.engine import session_scope
from gm.db.migrate import alembic_config, current_revision, upgrade
from gm.db.models import Seat
from gm.service.context import ServiceContext
from gm.service.games import SeatSpec, create_game
from tests.support import toygame  # noqa: F401  (registers "race")

COLUMNS = {"bounce_address", "bounce_at", "bounce_mail", "bounce_said", "bounce_count"}


def _to(ctx: ServiceContext, revision: str) -> None:
    cfg = alembic_config(ctx.engine.url.render_as_string(hide_password=False))
    with ctx.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        if revision == "head":
            command.upgrade(cfg, revision)
        else:
            command.downgrade(cfg, revision)


def _seat_columns(ctx: ServiceContext) -> set[str]:
    return {c["name"] for c in inspect(ctx.engine).get_columns("seat")}


def test_seats_made_before_0007_start_unmarked_and_the_mark_goes_down_and_up(ctx) -> None:  # type: ignore[no-untyped-def]
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="race1", module_name="race", scenario="duel",
                    seats=[SeatSpec("north", "north@example.org", password="n"),
                           SeatSpec("south", "south@example.org", password="s")],
                    moderator_address="mod@example.org", seed=b"\x02" * 32)
    _to(ctx, "0006_held_report")
    assert current_revision(ctx.engine) == "0006_held_report"
    assert not COLUMNS & _seat_columns(ctx)
    with ctx.engine.connect() as conn:  # the seats are still there
        assert conn.execute(text("SELECT count(*) FROM seat")).scalar() == 2
    upgrade(ctx.engine)  # as gm does on every start
    assert COLUMNS <= _seat_columns(ctx)
    with session_scope(ctx.engine) as s:
        rows = s.exec(select(Seat).order_by(Seat.power)).all()  # type: ignore[arg-type]
        assert [(r.power, r.bounce_address, r.bounce_at, r.bounce_mail, r.bounce_said,
                 r.bounce_count) for r in rows] == [
            ("north", "", None, None, "", 0), ("south", "", None, None, "", 0)]
        rows[1].bounce_address, rows[1].bounce_count = "south@example.org", 2
        s.add(rows[1])
    _to(ctx, "0006_held_report")  # a marked seat goes down too (the mark is lost)
    upgrade(ctx.engine)
    with session_scope(ctx.engine) as s:
        assert s.exec(select(Seat.bounce_address).where(Seat.power == "south")).one() == ""

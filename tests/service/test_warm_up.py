"""The daemon's warm-up before its first deadline (issue 21): one report rendered per game
module, scenario and seat language, nothing written, nothing sent."""

from __future__ import annotations

from sqlmodel import func, select

from gm.db.engine import session_scope
from gm.db.models import EventLog, OutboundMail, Phase, Report
from gm.service import render
from gm.service.reports import warm_up
from tests.schedule.support import new_game


def _counts(ctx) -> list[int]:  # type: ignore[no-untyped-def]
    with session_scope(ctx.engine) as s:
        return [s.exec(select(func.count()).select_from(t)).one()
                for t in (OutboundMail, Report, EventLog, Phase)]


def test_warm_up_renders_a_report_per_module_scenario_and_language_and_writes_nothing(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx, "race1", default="72h")
    new_game(ctx, "race2", default="72h")  # the same module, scenario and languages
    before = _counts(ctx)
    render.environment.cache_clear()
    assert warm_up(ctx) == 2  # race/duel in English (north) and French (south)
    assert _counts(ctx) == before
    assert render.environment("fr").cache, "the French report templates are loaded"


def test_warm_up_with_no_running_game_renders_nothing(ctx) -> None:  # type: ignore[no-untyped-def]
    assert warm_up(ctx) == 0


def test_warm_up_reads_the_seats_of_a_handful_of_games_not_of_every_game(ctx) -> None:  # type: ignore[no-untyped-def]
    """A host with many games of one scenario: once every language in use is warm, the
    other games' seats are not read (a daemon with 1,000 games starts its first round
    without 1,000 look-ups)."""
    from sqlalchemy import event

    for n in range(12):
        new_game(ctx, f"race{n}", default="72h")
    seat_reads: list[str] = []

    def count(conn, cursor, statement, *args) -> None:  # type: ignore[no-untyped-def]
        if statement.lstrip().upper().startswith("SELECT") and "FROM seat" in statement \
                and "DISTINCT" not in statement.upper():
            seat_reads.append(statement)

    event.listen(ctx.engine, "before_cursor_execute", count)
    try:
        assert warm_up(ctx) == 2
    finally:
        event.remove(ctx.engine, "before_cursor_execute", count)
    assert len(seat_reads) == 1, seat_reads  # the first game's seats warm both languages

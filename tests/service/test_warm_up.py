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

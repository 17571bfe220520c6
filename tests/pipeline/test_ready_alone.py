"""Issue 19: a READY from the only power a sequential phase waits for closes it at once
by default (the judges' habit), on the corpus game (Pax Baltica 12.1, Sweden to act in
1700-autumn-actions-sweden), by mail through the real pipeline."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import update

from gm.db.engine import session_scope
from gm.db.models import Game
from gm.service.context import ServiceContext
from tests.e2e.corpus_game import GAME, build_template, copy_of
from tests.pipeline.test_standing_by_mail import phase, send


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("alone") / "template.db"
    build_template(db)
    return db


def _deadlines(ctx: ServiceContext, deadlines: dict[str, object]) -> None:
    with session_scope(ctx.engine) as s:
        g = s.get(Game, GAME)
        assert g is not None
        s.exec(update(Game).where(Game.id == GAME).values(  # type: ignore[call-overload]
            settings={**(g.settings or {}), "deadlines": deadlines}))


@pytest.fixture
def game(template: Path, tmp_path: Path) -> Iterator[ServiceContext]:
    """The corpus game with the default deadline settings (the corpus turns this off)."""
    ctx = copy_of(template, tmp_path)
    _deadlines(ctx, {})
    yield ctx
    ctx.engine.dispose()


def test_ready_from_the_only_owing_power_closes_a_sequential_phase_at_once(
        game: ServiceContext) -> None:
    assert phase(game)[0] == "1700-autumn-actions-sweden" and phase(game)[2] == ("sweden",)
    send(game, "sweden", "recon Livland\nREADY\n")
    assert phase(game)[0] != "1700-autumn-actions-sweden"


def test_without_ready_or_with_early_alone_off_the_phase_waits_for_its_deadline(
        game: ServiceContext) -> None:
    send(game, "sweden", "recon Livland\n")
    assert phase(game)[0] == "1700-autumn-actions-sweden"
    _deadlines(game, {"early_alone": False})
    send(game, "sweden", "READY\n")
    assert phase(game)[0] == "1700-autumn-actions-sweden"


def test_ready_from_a_power_the_phase_does_not_wait_for_says_it_changes_nothing(
        game: ServiceContext) -> None:
    """The Coalition's READY in Sweden's action phase was answered "your orders are final",
    though the Coalition has nothing to send there; it is stored nowhere and closes nothing."""
    reply = send(game, "coalition", "READY\n")
    assert "READY: Coalition owes no orders in this phase: READY changes nothing" in reply, reply
    assert "your orders are final" not in reply
    assert phase(game)[0] == "1700-autumn-actions-sweden"
    send(game, "sweden", "recon Livland\nREADY\n")  # the one it waits for still closes it
    assert phase(game)[0] != "1700-autumn-actions-sweden"

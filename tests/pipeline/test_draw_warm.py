"""The drawing pool's workers start warm (issue 21): the forkserver draws each game's opening
maps once (gm.pipeline.drawwarm), every worker forked from it starts with those caches filled, and
the daemon starts the pool when games are running (gm.pipeline.drawpool.prepare), not the
first mail to draw inside a deadline storm (a cold worker's first two Pax Baltica maps cost
0.6 s and 0.2 s of CPU, the next ones ~30 ms). Not timed: what a worker holds is asked."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from gm.pipeline import drawpool
from gm.service.context import ServiceContext
from tests.support import draw_probe


@pytest.fixture
def pool_ctx(ctx: ServiceContext) -> Iterator[ServiceContext]:
    ctx.settings["draw_workers"] = 1
    drawpool.shutdown()
    yield ctx
    drawpool.shutdown()


def worker_state(pool_ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The pool started ahead (drawpool.prepare), what one of its workers holds
    (tests/support/draw_probe.py), asked before its first mail."""
    assert drawpool.prepare(pool_ctx)
    pool = drawpool.pool_for(pool_ctx)
    assert pool is not None and pool.started() and pool.pids()
    monkeypatch.setattr(drawpool, "WORK", draw_probe.worker_state)
    drawing = pool.submit(b"")
    assert drawing is not None
    state: dict[str, Any] = json.loads(drawing.future.result(timeout=300))
    assert state["pid"] in pool.pids()
    return state


def test_a_worker_starts_with_the_opening_maps_drawn_and_their_layouts_loaded(
        pool_ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch) -> None:
    state = worker_state(pool_ctx, monkeypatch)
    assert state["drawn_ahead"] >= 3  # Pax Baltica alone: two powers and the moderator
    assert state["layouts"] >= 1  # was 0 before the first mail: each worker read them itself


def test_a_worker_is_forked_with_the_forkservers_objects_frozen(
        pool_ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch) -> None:
    """The forkserver freezes what it holds after drawing ahead (``gc.freeze``): a worker's
    collections never touch those objects, so their pages stay shared with the forkserver
    rather than copied into each worker (~28 MB less of each worker's own memory, PSS
    85 -> 66 MB, measured in session 14)."""
    state = worker_state(pool_ctx, monkeypatch)
    assert state["frozen"] > 10_000  # the imports, the boards, the caches (~100,000): not a handful


def test_with_no_draw_workers_nothing_is_started_ahead(ctx: ServiceContext) -> None:
    ctx.settings["draw_workers"] = 0
    assert not drawpool.prepare(ctx)
    assert drawpool.pool_for(ctx) is None


def test_the_forkserver_warm_up_raises_nothing_when_a_game_cannot_be_drawn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from gm.pipeline import drawwarm as warm

    def broken(_module: object) -> int:
        raise RuntimeError("no board")

    monkeypatch.setattr(warm, "_warm_game", broken)
    assert warm.warm() == 0

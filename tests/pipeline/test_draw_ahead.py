"""Report maps drawn ahead while the drawing workers would wait (issue 21).

A mail queued with parts to draw is offered to the drawing pool as it is queued
(gm.pipeline.drawahead): a worker draws it into a spool, and the drain sends that drawing
instead of drawing the mail again. What a player would check: each report arrives once
with the very map drawn from the bytes queued; what a host would check: a single worker
draws nothing ahead (no core to spare), the spool stays within its bounds, and nothing is
left on disk by the spool of a process that was killed.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path

import pytest

from gm.mail.compose import RENDER_HEADER
from gm.pipeline import drawahead, drawpool
from gm.pipeline.dispatch import drain
from gm.service.context import ServiceContext
from tests.pipeline.test_draw_pool import Recorder, has_map, message_id, queued
from tests.present.support import SWEDISH_ORDERS, new_baltica, play
from tests.support import draw_faults

WAIT = 60.0


@pytest.fixture(autouse=True)
def fresh_pool() -> Iterator[None]:
    drawpool.shutdown()
    yield
    drawpool.shutdown()


def started_pool(ctx: ServiceContext, workers: int) -> drawpool.DrawPool:
    """``ctx``'s pool of ``workers``, started as the daemon starts it (drawpool.prepare)."""
    ctx.settings["draw_workers"] = workers
    assert drawpool.prepare(ctx)
    pool = drawpool.pool_for(ctx)
    assert pool is not None and ctx.on_queued == pool.offer
    return pool


def settled(pool: drawpool.DrawPool) -> None:
    """Wait until no drawing ahead is in flight."""
    end = time.monotonic() + WAIT
    while pool.ahead.in_flight() and time.monotonic() < end:
        time.sleep(0.02)
    assert pool.ahead.in_flight() == 0


def test_a_report_drawn_ahead_is_sent_as_drawn_then_not_drawn_again(
        ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch) -> None:
    pool = started_pool(ctx, 2)
    pool.ahead.limit = 64  # every mail offered is drawn ahead (by rule: workers - 1 at a time)
    monkeypatch.setattr(drawpool, "WORK", draw_faults.stamped)  # drawing ahead stamps the mail
    new_baltica(ctx, "b1")
    play(ctx, "b1", 1, {"sweden": SWEDISH_ORDERS})
    settled(pool)
    monkeypatch.setattr(drawpool, "WORK", drawpool.finish_raw)  # drawn from now on: no stamp
    rows = {r.message_id: r for r in queued(ctx).values()}
    reports = {mid for mid, r in rows.items() if RENDER_HEADER.encode() in r.raw}
    assert len(reports) >= 4 and pool.ahead.kept() == len(reports), "each report drawn ahead"
    sink = Recorder()
    assert asyncio.run(drain(ctx, sink)) == len(rows)
    sent = {message_id(raw): raw for raw, _ in sink.sent}
    assert len(sent) == len(sink.sent) == len(rows), "every mail sent once"
    for mid in reports:
        assert sent[mid] == draw_faults.stamped(rows[mid].raw), \
            "sent as drawn ahead from the bytes queued, not drawn again"
        assert has_map(sent[mid])
    assert pool.ahead.kept() == 0
    folder = pool.ahead._dir
    assert folder is not None and list(folder.iterdir()) == [], "each drawing taken once"
    drawpool.shutdown()
    assert not folder.exists(), "the spool goes with the pool"


def test_with_two_workers_one_mail_is_drawn_ahead_at_a_time_and_the_rest_when_sent(
        ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch) -> None:
    pool = started_pool(ctx, 2)
    assert pool.ahead.limit == 1, "one core left to the daemon's own thread"
    monkeypatch.setattr(drawpool, "WORK", draw_faults.slow_stamped)
    new_baltica(ctx, "b1")
    play(ctx, "b1", 1, {"sweden": SWEDISH_ORDERS})
    settled(pool)
    monkeypatch.setattr(drawpool, "WORK", drawpool.finish_raw)
    rows = {r.message_id: r for r in queued(ctx).values()}
    sink = Recorder()
    assert asyncio.run(drain(ctx, sink)) == len(rows)
    reports = [raw for raw, _ in sink.sent if has_map(raw)]
    stamped = [raw for raw in reports if raw.startswith(draw_faults.STAMP)]
    assert 1 <= len(stamped) < len(reports), "those offered while one was drawing: drawn when sent"
    for raw in reports:
        queued_raw = rows[message_id(raw)].raw
        assert raw in (draw_faults.stamped(queued_raw), drawpool.finish_raw(queued_raw))


def test_a_pool_the_first_drain_started_draws_the_next_reports_ahead(
        ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch) -> None:
    """A daemon started before any game ran has no pool at its start (drawpool.prepare
    is not run); the first drain starts it, and from then on the reports are drawn ahead
    as in a daemon started with games running."""
    ctx.settings["draw_workers"] = 2
    assert ctx.on_queued is None
    new_baltica(ctx, "b1")  # the game's opening reports, queued before any pool
    opening = queued(ctx)
    assert asyncio.run(drain(ctx, Recorder())) == len(opening) > 0
    pool = drawpool.pool_for(ctx)
    assert pool is not None and pool.started() and pool.ahead.kept() == 0
    pool.ahead.limit = 64  # every mail offered is drawn ahead
    monkeypatch.setattr(drawpool, "WORK", draw_faults.stamped)
    play(ctx, "b1", 1, {"sweden": SWEDISH_ORDERS})
    settled(pool)
    monkeypatch.setattr(drawpool, "WORK", drawpool.finish_raw)
    rows = {r.message_id: r for i, r in queued(ctx).items() if i not in opening}
    reports = [mid for mid, r in rows.items() if RENDER_HEADER.encode() in r.raw]
    assert reports and pool.ahead.kept() == len(reports), "the next phase's reports drawn ahead"
    sink = Recorder()
    assert asyncio.run(drain(ctx, sink)) == len(rows)
    sent = {message_id(raw): raw for raw, _ in sink.sent}
    for mid in reports:
        assert sent[mid] == draw_faults.stamped(rows[mid].raw), "sent as drawn ahead"


def test_a_single_drawing_worker_draws_nothing_ahead(ctx: ServiceContext) -> None:
    pool = started_pool(ctx, 1)
    new_baltica(ctx, "b1")
    play(ctx, "b1", 1, {"sweden": SWEDISH_ORDERS})
    assert pool.ahead.limit == 0 and pool.ahead.kept() == 0 and pool.ahead._dir is None
    sink = Recorder()
    assert asyncio.run(drain(ctx, sink)) == len(queued(ctx))
    assert sum(has_map(raw) for raw, _ in sink.sent) >= 4


def test_a_spool_left_by_a_killed_process_is_removed_by_the_next_one() -> None:
    gone = int(subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, check=True).stdout)
    tmp = Path(tempfile.gettempdir())
    dead = tmp / f"{drawahead.PREFIX}{gone}-left"
    alive = tmp / f"{drawahead.PREFIX}{os.getppid()}-running"
    for folder in (dead, alive):
        folder.mkdir(exist_ok=True)
        (folder / "mail").write_bytes(b"a finished mail")
    ahead = drawahead.DrawAhead(2)
    try:
        path = ahead.wanted(RENDER_HEADER.encode() + b": map.json\r\n\r\n")
        assert path is not None and Path(path).parent.name.startswith(f"{drawahead.PREFIX}{os.getpid()}-")
        assert not dead.exists(), "the spool of a process no longer running is removed"
        assert (alive / "mail").exists(), "a running process's spool is left alone"
    finally:
        ahead.clear()
        (alive / "mail").unlink()
        alive.rmdir()


def test_a_process_that_ends_without_stopping_its_pool_leaves_no_spool() -> None:
    code = ("from gm.mail.compose import RENDER_HEADER\n"
            "from gm.pipeline.drawahead import DrawAhead\n"
            "print(DrawAhead(2).wanted(RENDER_HEADER.encode() + b': map.json\\r\\n\\r\\n'))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True, text=True)
    path = Path(out.stdout.strip())
    assert path.parent.name.startswith(drawahead.PREFIX), out
    assert not path.parent.exists(), "its spool went with it"


def _done(value: int | None = None, error: Exception | None = None) -> Future[int]:
    future: Future[int] = Future()
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(value or 1)
    return future


def _raw(n: int) -> bytes:
    return RENDER_HEADER.encode() + f": map.json\r\nMessage-ID: <{n}@test>\r\n\r\n".encode()


def test_a_full_spool_draws_nothing_more_ahead_until_one_is_taken_or_goes_stale(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(drawahead, "KEPT", 2)
    ahead = drawahead.DrawAhead(3)
    try:
        for n in (1, 2):
            path = ahead.wanted(_raw(n))
            assert path is not None
            Path(path).write_bytes(b"drawn")
            ahead.started(_raw(n), _done(), 0)
        assert ahead.wanted(_raw(3)) is None, "full: the drain takes the oldest first"
        monkeypatch.setattr(drawahead, "STALE_SECONDS", 0.0)  # no drain took them
        path = ahead.wanted(_raw(3))
        assert path is not None
        Path(path).write_bytes(b"drawn")
        ahead.started(_raw(3), _done(), 0)
        assert ahead.kept() == 2 and ahead.take(_raw(1)) is None, "the stale oldest went"
        taken = ahead.take(_raw(3))
        assert taken is not None and drawahead.taken(taken[2]) == b"drawn"
        assert not taken[2].exists() and ahead.take(_raw(3)) is None, "taken once"
        assert ahead.wanted(_raw(2)) is None, "not drawn twice"
        assert ahead.wanted(b"a mail with nothing to draw") is None
    finally:
        ahead.clear()


def test_a_drawing_ahead_that_failed_is_not_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    ahead = drawahead.DrawAhead(3)
    try:
        assert ahead.wanted(_raw(1)) is not None
        ahead.started(_raw(1), _done(error=OSError("disk full")), 0)
        assert ahead.take(_raw(1)) is None, "the drain draws it as it always did"
        pending: Future[int] = Future()
        assert ahead.wanted(_raw(2)) is not None
        ahead.started(_raw(2), pending, 0)
        assert ahead.in_flight() == 1
        assert ahead.wanted(_raw(3)) is not None
        ahead.started(_raw(3), Future(), 0)
        assert ahead.wanted(_raw(4)) is None, "two in flight with three workers: no more"
        pending.set_result(1)
        assert ahead.in_flight() == 1 and ahead.wanted(_raw(4)) is not None
    finally:
        ahead.clear()

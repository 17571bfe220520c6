"""Drawing the pending parts of queued mails (report maps) in a pool of processes.

A report's map is drawn when its mail is first sent (gm.service.outbox): the SVG from
the view the mail carries, then its PNG, some tenths of a second of CPU. After a
deadline storm a thousand games' reports wait for theirs (issue 21), so the outbox
drain hands the drawing of a batch of claimed mails to a pool of worker processes
sized to the machine's cores (``[service] draw_workers``, 0: one per core; 1: no
pool, drawn in the caller's thread as before) and sends each mail as soon as its
parts are drawn and stored.

Nothing about what is sent changes: drawing is a pure function of the stored mail
(:func:`gm.service.outbox.finish_raw`), its result is stored in a transaction of its
own before the first attempt, and only if the row is still queued and still pending,
so every attempt sends the same bytes. A pool that breaks (a worker killed) is
dropped; the mails it did not draw are drawn in the caller's thread at send time.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from sqlmodel import col, select

from gm.db.engine import session_scope
from gm.db.models import OutboundMail
from gm.service.context import ServiceContext
from gm.service.outbox import finish_raw, has_pending_parts

log = logging.getLogger(__name__)

_pool: ProcessPoolExecutor | None = None
_pool_size = 0


def workers(ctx: ServiceContext) -> int:
    """How many processes draw (``draw_workers``; 0 or unset: one per core)."""
    wanted = int(ctx.settings.get("draw_workers", 0) or 0)
    return wanted if wanted > 0 else (os.cpu_count() or 1)


def pool(size: int) -> ProcessPoolExecutor:
    """The process's drawing pool of ``size`` workers, started once ("spawn": a worker
    never inherits the daemon's threads, locks or database connections)."""
    global _pool, _pool_size
    if _pool is None or _pool_size != size:
        if _pool is not None:
            _pool.shutdown(wait=False, cancel_futures=True)
        _pool = ProcessPoolExecutor(max_workers=size, mp_context=multiprocessing.get_context("spawn"))
        _pool_size = size
    return _pool


def warm_up(ctx: ServiceContext) -> None:
    """Start the pool's workers and load what they draw with (a daemon does it once at start)."""
    size = workers(ctx)
    if size > 1:
        list(pool(size).map(_warm, range(size)))


def _warm(_: int) -> None:
    import gm.maps.draw  # noqa: F401  (imported now, not at the first map)
    from gm.games import registry
    from gm.maps import raster

    for name in registry.names():
        try:
            registry.get(name)
        except Exception:  # a broken module is reported where it is used, not here
            continue
    raster.map_fonts()


def _drop_pool() -> None:
    global _pool, _pool_size
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
    _pool, _pool_size = None, 0


def pending(ctx: ServiceContext, mail_ids: Sequence[int]) -> dict[int, bytes]:
    """The stored bytes of those of ``mail_ids`` that are queued with a part left to draw."""
    if not mail_ids:
        return {}
    with session_scope(ctx.engine) as session:
        rows = session.exec(select(OutboundMail.id, OutboundMail.raw).where(
            col(OutboundMail.id).in_(list(mail_ids)), OutboundMail.status == "queued"))
        return {int(i): raw for i, raw in rows if i is not None and has_pending_parts(raw)}


def store(ctx: ServiceContext, mail_id: int, raw: bytes) -> None:
    """Store the drawn mail, if the row is still queued and still has its parts pending."""
    with session_scope(ctx.engine) as session:
        row = session.get(OutboundMail, mail_id)
        if row is not None and row.status == "queued" and has_pending_parts(row.raw):
            row.raw = raw
            session.add(row)


async def drawn(ctx: ServiceContext, mail_ids: Sequence[int]) -> AsyncIterator[int]:
    """Yield ``mail_ids`` (mails this instance holds claims on) as each is ready to send:
    those with nothing to draw first, then each as soon as the pool has drawn it and it is
    stored. Without a pool (one worker, or fewer than two mails to draw) they come as they
    are, and the send path draws each in turn."""
    size = workers(ctx)
    todo = await asyncio.to_thread(pending, ctx, mail_ids) if size > 1 else {}
    if len(todo) < 2:
        for mail_id in mail_ids:
            yield mail_id
        return
    loop = asyncio.get_running_loop()
    try:
        executor = pool(size)
        futures = {loop.run_in_executor(executor, finish_raw, raw, True): mail_id
                   for mail_id, raw in todo.items()}
    except (BrokenProcessPool, RuntimeError):
        _drop_pool()
        futures = {}
    for mail_id in mail_ids:
        if mail_id not in todo or not futures:
            yield mail_id
    waiting = set(futures)
    while waiting:
        done, waiting = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        for fut in done:
            mail_id = futures[fut]
            try:
                raw = fut.result()
            except BrokenProcessPool:
                log.warning("the drawing pool broke; mail %s is drawn at send time", mail_id)
                _drop_pool()
                raw = None
            except Exception:  # e.g. a game module only the caller's process knows
                log.info("mail %s not drawn in the pool; drawn at send time", mail_id, exc_info=True)
                raw = None
            if raw is not None:
                await asyncio.to_thread(store, ctx, mail_id, raw)
            yield mail_id

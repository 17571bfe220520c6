"""Drawing queued mails' pending parts in worker processes (issue 21).

A report's map parts (map.json -> SVG -> PNG, gm.service.outbox.finish_pending_parts)
cost some 35 ms of CPU a Pax Baltica report, nearly all of it in Python holding the GIL:
one process draws them one at a time however many cores it may use. The outbox drain
(gm.pipeline.dispatch) therefore hands each claimed mail's raw bytes to a pool of worker
processes, several at once, and sends the finished mails in order as they come back.

What runs in a worker is :func:`finish_raw`, a pure function of the mail's bytes (the
same bytes as drawing in-process): no database, no clock, no state but the drawing's
own caches. The pool:

* is sized by ``[service] draw_workers`` (:func:`workers_for`): by default the cores
  this process may use (``os.sched_getaffinity``); 0 draws in-process, as before;
* starts lazily, when a mail first needs drawing, with the ``forkserver`` start method
  (``spawn`` where there is none), never ``fork``: the daemon has threads, and a forked
  copy of a lock one of them held would never be released;
* is started again after a worker died (``BrokenProcessPool``): :meth:`DrawPool.broken`;
* draws ahead: a mail queued with parts to draw is offered to the pool as it is queued,
  and drawn into a spool while the workers would wait (gm.pipeline.drawahead);
* runs its workers at a lower priority (:data:`DRAW_NICENESS`): the daemon's own thread
  (deadlines, mail) keeps its core while they draw;
* is shut down when the daemon stops (:func:`shutdown`), and a worker whose parent is
  gone, however it went (SIGKILL included), exits at once: it waits on its parent's
  sentinel (a pipe only the parent holds open) in a thread of its own. Workers ignore
  SIGINT (a Ctrl-C reaches the whole process group; the daemon handles it, and the
  workers follow it out). SIGTERM stops a worker: it is how the pool ends the workers
  of a pool that broke, one of them perhaps blocked writing a result nobody reads.

A mail whose drawing the pool could not finish loses at most its own pictures
(:func:`without_pending_parts`, what finish_pending_parts does with a part it cannot
draw); the drain decides when (gm.pipeline.dispatch).
"""

from __future__ import annotations

import email
import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path
from typing import Any

from gm.db.models import OutboundMail
from gm.mail.compose import RENDER_HEADER
from gm.pipeline.drawahead import DrawAhead, draw_to
from gm.service.context import ServiceContext
from gm.service.outbox import SOURCES_ONLY, finish_pending_parts

log = logging.getLogger("gm.drawpool")


def finish_raw(raw: bytes) -> bytes:
    """``raw`` with its pending parts drawn (or dropped, if one cannot be drawn): what
    is sent (:func:`~gm.service.outbox.finish_pending_parts`), as a pure function of the
    bytes, so that a worker process can run it and every attempt sends the same mail."""
    row = OutboundMail(message_id="", kind="", created_at=_NEVER, raw=raw)  # never stored
    finish_pending_parts(row)
    return row.raw


_NEVER = datetime(1970, 1, 1, tzinfo=UTC)

WORK: Callable[[bytes], bytes] = finish_raw
"""What a worker runs on a mail's bytes (looked up at each submission; a test puts a
function of its own here, importable by the worker, to make a worker fail)."""


def without_pending_parts(raw: bytes) -> bytes:
    """``raw`` with every part still to be drawn, and every part only there to draw from,
    taken out: what finish_pending_parts sends when no part can be drawn (the HTML shows
    the picture's alt text). Nothing is drawn, so nothing here can take the process down."""
    if RENDER_HEADER.encode() not in raw:
        return raw
    msg = email.message_from_bytes(raw, policy=SMTP)
    assert isinstance(msg, EmailMessage)
    for parent in [p for p in msg.walk() if p.is_multipart()]:
        parts = parent.get_payload()
        assert isinstance(parts, list), "a multipart's payload is its list of parts"
        parts[:] = [p for p in parts if isinstance(p, EmailMessage)
                    and p.get(RENDER_HEADER) is None and p.get_content_type() not in SOURCES_ONLY]
    return msg.as_bytes(policy=SMTP)


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # no sched_getaffinity (macOS)
        return os.cpu_count() or 1


def workers_for(ctx: ServiceContext) -> int:
    """``[service] draw_workers``: how many worker processes draw; 0 draws in-process."""
    value = ctx.settings.get("draw_workers")
    return default_workers() if value is None else max(0, int(value))


DRAW_NICENESS = 10
"""How much lower the drawing workers' priority is than the daemon's (``os.nice``): under
contention the daemon's thread (a deadline storm's sweep, the mail) keeps its core, and the
workers draw on what is left (issue 21); with cores to spare it changes nothing."""


def _context() -> Any:
    """forkserver, which loads the drawing code once, draws each game's opening maps
    (gm.pipeline.drawwarm: its caches filled) and forks each worker from it; else spawn."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["gm.pipeline.drawpool", "gm.maps.draw", "gm.pipeline.drawwarm"])
    return context


def prepare(ctx: ServiceContext) -> bool:
    """Start ``ctx``'s drawing pool now, its forkserver drawing each game's opening maps
    (gm.pipeline.drawwarm), and wait until a worker forked from it answers; False when the pool
    draws in-process or could not start. The daemon does this when it starts (issue 21:
    started by the first mail to draw, the forkserver's imports and each worker's first
    maps, some 0.6 s and 0.2 s of CPU, fell inside the first deadline storm). Each mail
    ``ctx`` queues with parts to draw is offered to the pool to draw ahead
    (:func:`pool_for`, gm.pipeline.drawahead)."""
    pool = pool_for(ctx)
    if pool is None:
        return False
    drawing = pool.submit(b"")  # no part to draw: the worker hands the bytes back
    if drawing is None:
        return False
    try:
        drawing.future.result(timeout=_PREPARE_TIMEOUT)
    except Exception:
        log.warning("the drawing pool did not start ahead; it starts with the first mail",
                    exc_info=True)
        return False
    return True


_PREPARE_TIMEOUT = 300.0


def _worker_started() -> None:
    """In each worker, before its first mail: leave Ctrl-C to the parent, exit when the
    parent is gone, take a lower priority (:data:`DRAW_NICENESS`), and import the drawing
    code."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        os.nice(DRAW_NICENESS)
    except (OSError, AttributeError):  # no nice here (Windows): the same priority
        pass
    parent = multiprocessing.parent_process()
    if parent is not None and parent.sentinel is not None:
        sentinel = parent.sentinel

        def watch() -> None:
            multiprocessing.connection.wait([sentinel])  # readable once the parent's end closed
            os._exit(0)

        threading.Thread(target=watch, name="gm-draw-parent", daemon=True).start()
    import gm.maps.draw  # noqa: F401  (the drawing code, loaded before the first mail)


@dataclass(frozen=True)
class Drawing:
    """One mail handed to the pool: its future, and which of the pool's executors runs it."""

    future: Future[Any]  # the bytes drawn; with ``spool``, their size
    generation: int
    alone: ProcessPoolExecutor | None = None  # a worker of its own (DrawPool.alone)
    spool: Path | None = None  # drawn ahead: the mail is written there (gm.pipeline.drawahead)


class DrawPool:
    """A pool of ``workers`` processes drawing mails' pending parts (:func:`finish_raw`)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.generation = 0  # counts the executors: one more after each that broke
        self._executor: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self.ahead = DrawAhead(workers)

    @property
    def window(self) -> int:
        """How many mails the drain keeps claimed and drawing ahead of the one it sends."""
        return 2 * self.workers

    def started(self) -> bool:
        return self._executor is not None

    def submit(self, raw: bytes) -> Drawing | None:
        """Hand ``raw`` to a worker; None if no worker can be started (draw in-process).

        Starting the pool (the first mail, or after one broke) waits for a worker process:
        call this from a worker thread, not the event loop."""
        for _ in range(2):  # a pool found broken is started again once
            with self._lock:
                generation = self.generation
                try:
                    if self._executor is None:
                        self._executor = ProcessPoolExecutor(
                            self.workers, mp_context=_context(), initializer=_worker_started)
                        log.info("drawing in %d worker processes", self.workers)
                    return Drawing(self._executor.submit(WORK, raw), generation)
                except BrokenProcessPool:
                    pass
                except (OSError, RuntimeError, ValueError):  # no processes here (limits, /dev/shm)
                    log.warning("no worker process for drawing: drawing in-process", exc_info=True)
                    return None
            self.broken(generation)
        return None

    def offer(self, raw: bytes) -> None:
        """Draw ``raw`` ahead into the spool if it has parts to draw and the pool is started
        and not busy (gm.pipeline.drawahead); never waits, never raises."""
        try:
            path = self.ahead.wanted(raw)
            if path is None:
                return
            with self._lock:
                if self._executor is None:
                    return  # stopped or broken: the drain starts it again
                generation = self.generation
                future = self._executor.submit(draw_to, WORK, raw, path)
            self.ahead.started(raw, future, generation)
        except Exception:  # drawing ahead is only a head start
            log.debug("a mail was not drawn ahead", exc_info=True)

    def ahead_of(self, raw: bytes) -> Drawing | None:
        """The drawing of ``raw`` ahead, now the drain's (None: there is none, it failed)."""
        taken = self.ahead.take(raw)
        if taken is None:
            return None
        future, generation, path = taken
        return Drawing(future, generation, spool=path)

    def alone(self, raw: bytes) -> Drawing | None:
        """Hand ``raw`` to a worker process of its own, started for it and stopped after it:
        a mail whose drawing was lost with a pool is tried once more where nothing else can
        break with it, nor it with anything else. None if no worker can be started."""
        try:
            executor = ProcessPoolExecutor(1, mp_context=_context(), initializer=_worker_started)
            future = executor.submit(WORK, raw)
        except (OSError, RuntimeError, ValueError, BrokenProcessPool):
            log.warning("no worker process for drawing: drawing in-process", exc_info=True)
            return None
        future.add_done_callback(lambda _: executor.shutdown(wait=False))
        return Drawing(future, -1, executor)

    def broken(self, generation: int) -> None:
        """The executor of ``generation`` lost a worker: the next mail starts a new one."""
        with self._lock:
            if generation != self.generation:
                return  # already replaced
            executor, self._executor = self._executor, None
            self.generation += 1
        log.warning("a drawing worker died; starting the pool again")
        if executor is not None:  # its futures are failed by its own thread, not cancelled
            executor.shutdown(wait=False)

    def kill(self, drawing: Drawing) -> None:
        """The worker of ``drawing`` is stuck on it: kill its executor's workers (SIGKILL)
        and, if that was the pool's, start a new one for the next mail."""
        with self._lock:
            executor = drawing.alone or (self._executor if drawing.generation == self.generation
                                         else None)
        processes: dict[int, Any] = getattr(executor, "_processes", None) or {}
        for process in list(processes.values()):
            process.kill()
        if drawing.alone is None:
            self.broken(drawing.generation)

    def shutdown(self) -> None:
        """Stop the workers (those drawing are left to finish, without waiting for them)."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
        self.ahead.clear()

    def pids(self) -> list[int]:
        """The worker processes running now (for the tests)."""
        executor = self._executor
        processes: dict[int, Any] = getattr(executor, "_processes", None) or {}
        return [p.pid for p in list(processes.values()) if p.pid is not None and p.is_alive()]


_pool: DrawPool | None = None
_pool_lock = threading.Lock()


def pool_for(ctx: ServiceContext) -> DrawPool | None:
    """This process's pool for ``ctx``'s ``draw_workers`` (None: draw in-process). Nothing
    is started until a mail is submitted. Each mail ``ctx`` queues from now on is offered
    to the pool to draw ahead (``ctx.on_queued``; drawn only once the pool has started):
    a daemon started before any game ran, whose pool the first drain starts, draws the
    next deadline's reports ahead as one started with games running does."""
    global _pool
    workers = workers_for(ctx)
    if workers == 0:
        return None
    with _pool_lock:
        if _pool is None or _pool.workers != workers:
            if _pool is not None:
                _pool.shutdown()
            _pool = DrawPool(workers)
        ctx.on_queued = _pool.offer
        return _pool


def shutdown() -> None:
    """Stop this process's pool, if it was started (the daemon, when it stops)."""
    global _pool
    with _pool_lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown()

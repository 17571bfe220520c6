"""Drawing a queued mail's parts while the drawing workers would wait (issue 21).

A deadline storm closes its phases one after the other in one thread of the daemon (the
sweep), then the drain draws the reports' maps in the drawing workers: while the sweep
runs, one core works and the workers wait (1,000 Pax Baltica games on PostgreSQL: ~20 s of
a 2-core host's ~70 s to the last report handed). So each mail queued with parts to draw
is offered to the pool as it is queued (``ServiceContext.on_queued``, set by
gm.pipeline.drawpool.pool_for; drawn once the pool has started), and a worker writes the
finished mail to a **spool** file named after a digest of the queued bytes; the drain,
when it claims that mail, takes the file (or waits for the drawing in flight) instead of
drawing it again.

* Drawing is a pure function of the queued bytes (gm.pipeline.drawpool.finish_raw), so the
  file holds the very mail the drain would have drawn. A file is taken once (read, then
  removed); a retry draws again, as before.
* As many drawings ahead are in flight as there are workers less one (one on two cores,
  none with one worker): one core is left to the daemon's own thread, whose deadlines and
  mail come first. An offer made while they are is passed over (the drain draws that
  mail), so the pool's queue never fills and the drain's own mails do not wait behind a
  storm's. Measured side by side (300 games, 2 cores, alternated): with two ahead per
  worker the sweep took 10-25% longer (the workers and the sweep on the same cores); with
  one in all, no longer on PostgreSQL and 10% on SQLite, every report handed 12% and 4-7%
  sooner; with two instances of one worker each (no core to spare), drawing ahead only
  slowed both.
* At most :data:`KEPT` files are kept (~400 KB each): when the spool is full nothing more
  is drawn ahead until the drain takes some (it takes the oldest first), but a file left
  :data:`STALE_SECONDS` untaken (the mail sent by another instance, its transaction rolled
  back) makes room. The spool goes when the pool stops or the process ends; a killed
  process's spool is removed by the next pool started on the host (its directory names
  the process).
* The workers run at a lower priority (gm.pipeline.drawpool: ``DRAW_NICENESS``): drawing
  ahead takes a core the sweep and the mail are not using, not theirs.

Nothing here is durable or needed for correctness: without the spool (no disk, a file
gone) the drain draws the mail as it always did.
"""

from __future__ import annotations

import atexit
import hashlib
import logging
import os
import shutil
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path

from gm.mail.compose import RENDER_HEADER
from gm.pipeline.alive import running

log = logging.getLogger("gm.drawpool")

KEPT = 512
"""Finished mails kept in the spool at most (a Pax Baltica report: ~400 KB)."""
STALE_SECONDS = 600.0
"""A drawing ahead not taken after this long is dropped to make room."""
PREFIX = "gm-draw-ahead-"


def key_of(raw: bytes) -> str:
    """The spool's name for the queued bytes ``raw`` (a Message-ID is in them: one per mail)."""
    return hashlib.blake2b(raw, digest_size=16).hexdigest()


def draw_to(work: Callable[[bytes], bytes], raw: bytes, path: str) -> int:
    """In a worker: ``work(raw)`` written to ``path`` (whole or not at all); its size."""
    finished = work(raw)
    part = f"{path}.part"
    with open(part, "wb") as f:
        f.write(finished)
    os.replace(part, path)
    return len(finished)


class DrawAhead:
    """One process's spool of mails drawn ahead, and the drawings in flight."""

    def __init__(self, workers: int) -> None:
        self.limit = workers - 1  # one core left to the daemon's own thread: none, with one worker
        self._lock = threading.Lock()
        self._dir: Path | None = None
        # each drawing ahead: its future, its executor's generation, when it was offered
        self._entries: OrderedDict[str, tuple[Future[int], int, float]] = OrderedDict()
        self._pending: set[Future[int]] = set()

    def wanted(self, raw: bytes) -> str | None:
        """The path to draw ``raw`` to, or None: nothing to draw, already drawn or drawing,
        enough in flight, or the spool full (of drawings the drain has yet to take)."""
        if RENDER_HEADER.encode() not in raw:
            return None
        with self._lock:
            if len(self._pending) >= self.limit:
                return None
            key = key_of(raw)
            if key in self._entries:
                return None
            while len(self._entries) >= KEPT:
                oldest_key, (oldest, _, offered) = next(iter(self._entries.items()))
                if not oldest.done() or time.monotonic() - offered < STALE_SECONDS:
                    return None
                del self._entries[oldest_key]
                self._remove(oldest_key)
            folder = self._folder()
            return None if folder is None else str(folder / key)

    def started(self, raw: bytes, future: Future[int], generation: int) -> None:
        """``future`` draws ``raw`` to the path :meth:`wanted` gave, in the pool's executor
        ``generation``."""
        with self._lock:
            self._entries[key_of(raw)] = (future, generation, time.monotonic())
            self._pending.add(future)
        future.add_done_callback(self._done)

    def _done(self, future: Future[int]) -> None:
        with self._lock:
            self._pending.discard(future)

    def take(self, raw: bytes) -> tuple[Future[int], int, Path] | None:
        """The drawing of ``raw`` ahead (its future, its executor's generation and the file
        it is written to), now the drain's; None if there is none or it failed."""
        key = key_of(raw)
        with self._lock:
            entry = self._entries.pop(key, None)
            folder = self._dir
        if entry is None or folder is None:
            return None
        future, generation, _ = entry
        if future.done() and (future.cancelled() or future.exception() is not None):
            self._remove(key)
            return None
        return future, generation, folder / key

    def in_flight(self) -> int:
        """Drawings ahead not done yet."""
        with self._lock:
            return len(self._pending)

    def kept(self) -> int:
        """Drawings ahead not taken yet (in flight or in the spool)."""
        with self._lock:
            return len(self._entries)

    def clear(self) -> None:
        """Forget every drawing ahead and remove the spool (the pool stops)."""
        with self._lock:
            folder, self._dir = self._dir, None
            self._entries.clear()
            self._pending.clear()
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)

    def _folder(self) -> Path | None:
        """The spool's directory, made at the first offer (with the lock held)."""
        if self._dir is None:
            _remove_dead_spools()
            try:
                self._dir = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-"))
            except OSError:
                log.warning("no spool for drawing ahead: mails are drawn when sent", exc_info=True)
                return None
            atexit.register(self.clear)  # a process that ends without stopping its pool
        return self._dir

    def _remove(self, key: str) -> None:
        if self._dir is not None:
            for name in (key, f"{key}.part"):
                (self._dir / name).unlink(missing_ok=True)


def taken(path: Path) -> bytes:
    """The finished mail in ``path``, the file removed (it is taken once)."""
    try:
        return path.read_bytes()
    finally:
        path.unlink(missing_ok=True)


def _remove_dead_spools() -> None:
    """Remove the spools left in the temporary directory by processes no longer running
    (a SIGKILL leaves its spool behind)."""
    for folder in Path(tempfile.gettempdir()).glob(f"{PREFIX}*"):
        pid = folder.name[len(PREFIX):].partition("-")[0]
        if pid.isdigit() and not running(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)

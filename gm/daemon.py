"""``gm serve``: read mail, run deadlines, drain the outbox, until told to stop.

One loop, three duties, each safe to interrupt anywhere:

1. inbound: fetch (nothing marked yet) -> store raw -> handle in one
   transaction (orders, reply queued, mail marked handled in the database) ->
   only then flag the mail in its mailbox;
2. deadlines: the scheduler runner (APScheduler as a wake-up clock, see
   docs/scheduling.md) runs a sweep at every deadline and reminder and
   periodically; the sweep claims due phases row by row (exactly once,
   however many instances run) and closes them;
3. outbound: the outbox is drained, with retries.

SIGTERM/SIGINT finish the mail in hand and stop. When the database is gone or
locked (a PostgreSQL restart, a network cut), the round is abandoned without
flagging anything and tried again with backoff: the mails wait in the mailbox,
the outbox waits in the database, and nothing is lost or done twice.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.exc import InterfaceError, OperationalError

from gm.mail.types import FetchedMail, MailSink, MailSource
from gm.pipeline.checkpoint import checkpoint
from gm.pipeline.dispatch import drain, release_dead_claims
from gm.pipeline.handle import handle_inbound
from gm.pipeline.ingest import still_new, store_inbound
from gm.service.context import ServiceContext

log = logging.getLogger("gm.daemon")

DB_RETRY_FIRST = 1.0
DB_RETRY_LONGEST = 60.0


def process_one(ctx: ServiceContext, source: MailSource, fetched: FetchedMail) -> None:
    """Store, handle and mark one mail; a crash anywhere leaves it to be done again, once."""
    checkpoint("receive")
    stored = store_inbound(ctx, fetched)
    checkpoint("store")
    handle_inbound(ctx, stored.inbound_id)
    checkpoint("handle")
    if still_new(ctx, stored.inbound_id):
        # Another instance is handling it right now: it flags the mail when it commits,
        # and if it dies first, the mail is fetched and handled again.
        log.info("mail %s from %s is being handled by another instance", stored.inbound_id,
                 fetched.source)
        return
    source.mark_handled([fetched])
    checkpoint("flag")
    log.info("mail %s from %s handled", stored.inbound_id, fetched.source)


def recover(ctx: ServiceContext) -> None:
    """Close every open phase whose powers are all READY (the close a crash may have cut off)."""
    from sqlmodel import select

    from gm.db.engine import session_scope
    from gm.db.models import Phase
    from gm.schedule.ready import maybe_adjudicate_early

    with session_scope(ctx.engine) as session:
        games = sorted(set(session.exec(select(Phase.game_id).where(Phase.state == "open"))))
    for game_id in games:
        if maybe_adjudicate_early(ctx, game_id):
            log.info("recovered: %s closed, every power was READY", game_id)


def sweep_once(ctx: ServiceContext) -> None:
    from gm.schedule.sweep import sweep

    report = sweep(ctx)
    if getattr(report, "closed", None):
        log.info("deadlines: %s", report)


@dataclass
class Daemon:
    ctx: ServiceContext
    source: MailSource
    sink: MailSink
    sweep_seconds: float = 30.0
    wait_seconds: float = 5.0
    stopping: bool = False
    runner: Any = None  # gm.schedule.runner.Runner while run() runs
    _last_sweep: float = field(default=0.0)
    _claims_released: bool = field(default=False)

    def stop(self) -> None:
        log.info("stopping after the mail in hand")
        self.stopping = True

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            try:
                loop.add_signal_handler(sig, self.stop)
            except (NotImplementedError, RuntimeError):  # not the main thread
                pass
        log.info("gm serving as %s", self.ctx.instance)
        from gm.schedule.runner import Runner

        # Whatever a crash interrupted after a commit (a phase everyone is READY
        # for, left open) is finished before any new mail is read.
        await asyncio.to_thread(recover, self.ctx)
        self.runner = Runner(self.ctx, sweep_seconds=self.sweep_seconds)
        self.runner.start()
        try:
            delay = DB_RETRY_FIRST
            while not self.stopping:
                try:
                    await self.step()
                except (OperationalError, InterfaceError) as exc:
                    log.warning("database unavailable, retrying in %.0f s: %s", delay,
                                str(exc.orig or exc).strip().splitlines()[0])
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, DB_RETRY_LONGEST)
                    continue
                delay = DB_RETRY_FIRST
                if not self.stopping:
                    await asyncio.to_thread(self.source.wait, self.wait_seconds)
        finally:
            self.runner.stop()
            await self.sink.close()
            self.source.close()

    async def step(self) -> None:
        """One round of the three duties (tests call this directly)."""
        if not self._claims_released:  # what a killed process of this instance was sending
            await asyncio.to_thread(release_dead_claims, self.ctx)
            self._claims_released = True
        for fetched in await asyncio.to_thread(self.source.fetch_new):
            if self.stopping:
                break
            await asyncio.to_thread(process_one, self.ctx, self.source, fetched)
        if self.runner is not None:
            self.runner.resync()  # new phases (from mail) get their wake-up jobs
        elif time.monotonic() - self._last_sweep >= self.sweep_seconds:
            await asyncio.to_thread(sweep_once, self.ctx)
            self._last_sweep = time.monotonic()
        await drain(self.ctx, self.sink)

"""``gm serve``: read mail, run deadlines, drain the outbox, until told to stop.

One loop, one thread of control, three duties per round, each safe to
interrupt anywhere:

1. inbound: fetch (nothing marked yet) -> store the round's mails raw (up to
   16 in one transaction) -> handle each in its own transaction (orders, reply
   queued, mail marked handled in the database) -> only then flag them in the
   mailbox, those handled in one go (:func:`process_round`). A mail whose
   handling raises is recorded as failed and answered once
   (gm.pipeline.handle), and the loop goes on with the next one. Each mail counts
   from when it reached the mailbox (gm.pipeline.arrival), so a mail read after the
   deadline that came before it is on time, and one that came after it too late;
   a die-rolling step that fell due is closed before the next mail is handled;
2. deadlines: when a deadline or reminder has fallen due (the loop's
   :class:`~gm.schedule.wakeup.WakeClock`, read from the phases table) or the
   periodic sweep is due, :func:`gm.schedule.sweep.sweep` claims the due
   phases row by row (exactly once, however many instances run) and closes
   them; a phase whose players owe orders only once every mail that reached
   the mailbox by its due time is handled (a mail held by another instance, or
   left for the next round, holds it back until then; a mailbox that cannot be
   read, until it can);
3. outbound: the outbox is drained, with retries.

Then the loop waits for mail, at most until the next deadline: with IMAP IDLE while
mail is rare, but for ``busy_seconds`` after a round that handled mail it looks again
every ``busy_poll_seconds`` instead (issue 21): a server's IDLE notice may come late
(Dovecot holds it 0.5 s to gather changes), and while mail keeps coming, a NOOP a few
times a second finds the next one at once. Right after a round that handled mail it
looks again without that pause: what came in while the round worked is waiting. There is no
scheduler thread, so nothing can wait on a lock the loop holds
(docs/scheduling.md). Blocking work runs in worker threads the loop awaits;
the loop itself only ever waits on them, never on a lock.

SIGTERM/SIGINT finish the mail in hand and stop. If the work in hand is not
done within ``STOP_GRACE`` seconds (a long adjudication, a mail server that
does not answer), the process exits anyway: every step is a transaction, so
the interrupted work is done again, once, on the next start (the crash tests
kill it at every such point). When the database is gone or locked (a
PostgreSQL restart, a network cut), the round is abandoned without flagging
anything and tried again with backoff.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import islice

from sqlalchemy.exc import InterfaceError, OperationalError

from gm.checkpoint import checkpoint
from gm.clock import utc
from gm.db.engine import fold_wal, session_scope
from gm.mail.imap_source import ImapLoginError, ImapSetupError, ImapUnreachable
from gm.mail.types import FetchedMail, MailSink, MailSource
from gm.pipeline import drawpool, parsewarm
from gm.pipeline.arrival import NOTHING_READ, MailboxReads
from gm.pipeline.dispatch import drain, release_dead_claims, retry_now
from gm.pipeline.handle import handle_inbound
from gm.pipeline.ingest import Stored, still_new, store_all, store_inbound
from gm.pipeline.mailwatch import MailServerWatch
from gm.pipeline.order import HELD_GAME_SECONDS, OthersGames, Round, others_alive
from gm.pipeline.section import AfterCommit
from gm.schedule.phases import open_phases
from gm.schedule.wakeup import WakeClock
from gm.service.context import ServiceContext

log = logging.getLogger("gm.daemon")

DB_RETRY_FIRST = 1.0
DB_RETRY_LONGEST = 60.0
STOP_GRACE = 7.0  # seconds after SIGTERM before the process exits whatever it is doing
BROKEN_TRIES = 3  # rounds a mail that cannot be stored or flagged is tried, per process
MAILBOX_PATIENCE = 60.0
"""How long a round tries to reach an IMAP server that does not answer before it gives up
(gm.mail.imap_source.ImapUnreachable): then the round does what needs no mailbox (die rolls,
reminders, the heartbeat, the outbox), and the loop tries again with backoff. Deadlines whose
players owe orders wait for the mailbox (gm.pipeline.arrival)."""


BY_GAME_SECONDS = 600.0
"""How long after meeting another instance (a mail it held) rounds are taken game by game."""
FRESH_SECONDS = 0.5
"""Game by game, a round older than this ends between two games (gm.pipeline.order.Round)."""

DUE_RECHECK_SECONDS = 1.0
"""How long a due-phase check before a mail holds at most (phases another instance opened)."""


@dataclass
class DueCheck:
    """Whether a die-rolling step fell due must be asked before a mail: once per batch of
    mails, not before each (issue 21: one query a mail), and again as soon as it may have
    changed: an open phase's deadline has passed since, a mail of this process or a sweep
    changed phases (ADJUDICATE NOW, READY, a moderator's or a forming game's section), or
    ``DUE_RECHECK_SECONDS`` went by (a phase another instance opened). Without one,
    :func:`process_one` asks before every mail."""

    ctx: ServiceContext
    _until: datetime | None = None  # by the context's clock: when the next open phase falls due
    _checked: float | None = None  # time.monotonic() of the last check

    def reset(self) -> None:
        self._checked = None

    def before_mail(self) -> None:
        from gm.schedule.sweep import close_due_without_orders

        now = self.ctx.clock.now()
        if (self._checked is not None and time.monotonic() - self._checked < DUE_RECHECK_SECONDS
                and (self._until is None or utc(now) < self._until)):
            return
        close_due_without_orders(self.ctx)
        with session_scope(self.ctx.engine) as session:
            later = [at for at in (r.due_at() for r in open_phases(session)) if at > utc(now)]
        self._until = min(later, default=None)  # deadline plus grace, as the check reads it
        self._checked = time.monotonic()

    def after_mail(self, after: AfterCommit) -> None:
        if after.changes_phases():
            self.reset()


@dataclass
class Handled:
    """What :func:`process_round` did with a round's mails."""

    settled: list[FetchedMail] = field(default_factory=list)  # handled (now or before): flagged
    held: list[FetchedMail] = field(default_factory=list)  # held by another instance
    broken: list[tuple[FetchedMail, Exception]] = field(default_factory=list)  # not stored or flagged
    here: int = 0  # of the settled, those this round's own transactions handled (not found handled)


ROUND_CHUNK = 16
"""Mails stored in one transaction and flagged in one go: a round's mails are stored this
many at a time, so that a long backlog is not all stored before the first is handled, and
each mail is still among the recently decoded when handled (gm.mail.mime)."""


def settle_heap() -> None:
    """Out of the collector's sight, what the start has loaded for the process's life (code,
    templates, catalogues, the warm-up's caches): ``gc.freeze`` after a collection, as
    Python's documentation advises. A full collection then scans only what came after
    (issue 21: one during a burst of mail held its replies ~100 ms, the latency's p99)."""
    gc.collect()
    gc.freeze()


def process_round(ctx: ServiceContext, source: MailSource, mails: list[FetchedMail] | Round,
                  due: DueCheck | None = None, stopping: Callable[[], bool] | None = None) -> Handled:
    """Store a round's mails (``ROUND_CHUNK`` in one transaction), handle each in its own, in
    the order ``mails`` hands them out (gm.pipeline.order: the mailbox's, or game by game),
    and flag those whose handling committed in one go (one IMAP STORE) before the next
    chunk is stored and at the end; a crash anywhere leaves each mail to be done again, once.

    A mail is flagged only after its own commit: a crash between the commit and the flag
    leaves it unflagged, and when it is fetched again its row is found settled, so it is
    flagged then and handled nothing twice. A mail held by another transaction
    (:func:`_held`) is passed to :meth:`Round.held`, which keeps its game's later mails for
    the next round. ``stopping`` is asked before each mail (SIGTERM finishes the mail in
    hand)."""
    order = mails if isinstance(mails, Round) else Round(mails, ctx.service_address, ctx.instance)
    position = {id(f): n for n, f in enumerate(order.mails)}  # the mailbox's order
    stored: dict[int, Stored] = {}
    alone: set[int] = set()  # in a chunk that could not be stored: each stored on its own
    done = Handled()
    flagged = 0
    try:
        for fetched in order:
            if stopping is not None and stopping():
                break
            n = position[id(fetched)]
            try:
                if n not in stored and n not in alone:
                    _flag(source, done, flagged)  # the chunk before: each mail committed
                    flagged = len(done.settled)
                    # the mails this round hands out next (gm.pipeline.order: game by game,
                    # this instance's games; none the other instance is to handle), stored
                    # in the mailbox's order
                    chunk = sorted([n, *islice((i for i in order.upcoming() if i != n
                                                and i not in stored and i not in alone),
                                               ROUND_CHUNK - 1)])
                    rows = _store_chunk(ctx, [order.mails[i] for i in chunk])
                    if rows is None:
                        alone.update(chunk)
                    else:
                        stored.update(zip(chunk, rows, strict=True))
                one = stored[n] if n in stored else store_inbound(ctx, fetched)
                if one.settled:  # found handled when stored (by another instance): flagged
                    done.settled.append(fetched)
                    continue
                after = _handle(ctx, one, due)
                if _held(ctx, one, after):
                    # Held by another instance, or by a transaction of a killed one that the
                    # database is ending: that instance flags it when it commits; if it dies
                    # first, the mail is fetched and handled again. Its game's later mails
                    # wait for the next round (gm.pipeline.order).
                    log.info("mail %s from %s is being handled by another instance",
                             one.inbound_id, fetched.source)
                    done.held.append(fetched)
                    order.held(fetched)
                    continue
            except (OperationalError, InterfaceError):
                raise
            except Exception as exc:  # handle_inbound answers a mail that fails: not stored
                done.broken.append((fetched, exc))
                continue
            done.settled.append(fetched)
            done.here += after.settled
            log.info("mail %s from %s handled", one.inbound_id, fetched.source)
    except BaseException:
        _flag(source, done, flagged, quietly=True)  # what committed before the database went away
        raise
    _flag(source, done, flagged)
    return done


def _store_chunk(ctx: ServiceContext, chunk: list[FetchedMail]) -> list[Stored] | None:
    """Store ``chunk`` in one transaction (:func:`store_all`). The caller takes a chunk in
    the MAILBOX's order whatever the order of handling: two instances on PostgreSQL then
    never wait for each other in a cycle on the mailbox key's unique index. None when the
    transaction fails otherwise than by the database being gone (one of them cannot be
    stored): each is then stored on its own, so that only that one is left out."""
    checkpoint("receive")
    try:
        rows = store_all(ctx, chunk)
    except (OperationalError, InterfaceError):
        raise
    except Exception:
        log.warning("storing %d mails together failed; storing each on its own", len(chunk),
                    exc_info=True)
        return None
    checkpoint("store")
    return rows


def _handle(ctx: ServiceContext, stored: Stored, due: DueCheck | None) -> AfterCommit:
    from gm.schedule.sweep import close_due_without_orders

    # A die-rolling step that fell due since the round began is closed first, so a mail
    # meant for the phase after it finds that phase open (one indexed query otherwise).
    if due is None:
        close_due_without_orders(ctx)
    else:
        due.before_mail()
    after = handle_inbound(ctx, stored.inbound_id)
    if due is not None:
        due.after_mail(after)
    checkpoint("handle")
    return after


def _held(ctx: ServiceContext, stored: Stored, after: AfterCommit) -> bool:
    """THE place where a mail is found held by another transaction: this one did not settle
    it, and it is still new (then it must not be flagged: that would hide it if its holder
    died)."""
    return not after.settled and still_new(ctx, stored.inbound_id)


def _flag(source: MailSource, done: Handled, first: int, quietly: bool = False) -> None:
    """Flag the settled mails from ``done.settled[first]`` on in one go; if that fails, each
    on its own, so that only a mail that cannot be flagged is left (and counted broken)."""
    settled = done.settled[first:]
    if not settled:
        return
    try:
        source.mark_handled(settled)
    except Exception:
        if quietly:
            log.warning("flagging %d handled mails failed; they are flagged when fetched again",
                        len(settled), exc_info=True)
            return
        for fetched in settled:
            try:
                source.mark_handled([fetched])
            except Exception as exc:
                done.settled.remove(fetched)
                done.broken.append((fetched, exc))
    checkpoint("flag")


def process_one(ctx: ServiceContext, source: MailSource, fetched: FetchedMail,
                due: DueCheck | None = None) -> bool:
    """Store, handle and flag one mail (:func:`process_round` of one); a crash anywhere
    leaves it to be done again, once.

    False when another transaction holds the mail (another instance handling it, or one
    that died a moment ago and whose transaction the database is ending): the caller then
    leaves the later mails of its game for the next round, so that no mail is handled
    before an earlier one of the same game (orders, then the READY that closes the phase;
    gm.pipeline.order). Raises what kept it from being stored or flagged."""
    done = process_round(ctx, source, [fetched], due)
    if done.broken:
        raise done.broken[0][1]
    return not done.held


def recover(ctx: ServiceContext) -> None:
    """Close every open phase whose powers are all READY (the close a crash may have cut off)."""
    from sqlmodel import select

    from gm.db.models import Phase
    from gm.schedule.ready import maybe_adjudicate_early

    with session_scope(ctx.engine) as session:
        games = sorted(set(session.exec(select(Phase.game_id).where(Phase.state == "open"))))
    for game_id in games:
        if maybe_adjudicate_early(ctx, game_id):
            log.info("recovered: %s closed, every power was READY", game_id)


def sweep_once(ctx: ServiceContext, read: datetime | None = None) -> int:
    """One sweep (gm.schedule.sweep); the number of due phases it left open because the
    mailbox was not yet read as it stood when they fell due (``read``)."""
    from gm.schedule.sweep import sweep

    report = sweep(ctx, read=read)
    for line in report.closed_lines():
        log.info("%s", line)
    for line in report.problem_lines():
        log.warning("%s", line)
    return report.waiting


def _identity(fetched: FetchedMail) -> tuple[str, int | None, int | None, int]:
    return (fetched.source, fetched.uidvalidity, fetched.uid, hash(fetched.raw))


@dataclass
class Daemon:
    ctx: ServiceContext
    source: MailSource
    sink: MailSink
    sweep_seconds: float = 30.0  # the periodic sweep: heartbeat, other instances' changes
    wait_seconds: float = 5.0  # the longest wait for mail between rounds
    busy_seconds: float = 2.0  # after a round with mail, how long the loop polls instead of IDLE
    busy_poll_seconds: float = 0.05  # the pause between two such polls
    held_game_seconds: float = HELD_GAME_SECONDS  # a game found held by another: left it this long
    stopping: bool = False
    wake: WakeClock = field(default_factory=WakeClock)
    _last_sweep: float | None = field(default=None)
    _broken: Counter[tuple[str, int | None, int | None, int]] = field(default_factory=Counter)
    _stopped: threading.Event = field(default_factory=threading.Event)
    _claims_released: bool = field(default=False)
    _last_mail: float | None = field(default=None)  # time.monotonic() of the last round with mail
    _settled: bool = field(default=False)  # the last round handled a mail itself
    _due: DueCheck | None = field(default=None)
    _met_other: float | None = field(default=None)  # time.monotonic(): another instance held a mail
    _others: tuple[str, ...] = field(default=())  # the other instances whose heartbeat is recent
    _others_asked: float | None = field(default=None)  # time.monotonic() of that question
    _others_games: OthersGames = field(default_factory=OthersGames)  # games found held: left a while
    _drawing_ready: asyncio.Future[bool] | None = field(default=None)  # drawpool.prepare, at start
    reads: MailboxReads = field(default_factory=MailboxReads)  # how far the mailbox is handled
    mail_server: MailServerWatch = field(default_factory=MailServerWatch)  # down: tried with backoff
    _waiting_read: datetime | None = field(default=None)  # a sweep left due phases for the
    # mailbox to be read: the read bound it had (it sweeps again once the bound moves)
    _told_waiting: bool = field(default=False)  # that was logged (once until the read catches up)

    def __post_init__(self) -> None:
        self._due = DueCheck(self.ctx)
        self._others_games = OthersGames(self.held_game_seconds)

    def stop(self) -> None:
        """Finish the mail in hand, then stop (tests call this; signals call :meth:`signalled`)."""
        if not self.stopping:
            log.info("stopping after the mail in hand")
        self.stopping = True

    def signalled(self) -> None:
        """SIGTERM/SIGINT: stop; exit anyway after STOP_GRACE seconds (a second signal: now)."""
        if self.stopping:
            _exit_now("a second stop signal")
        self.stop()
        threading.Thread(target=self._backstop, name="gm-stop", daemon=True).start()

    def _backstop(self) -> None:
        if not self._stopped.wait(STOP_GRACE):
            _exit_now(f"still busy {STOP_GRACE:.0f} s after the stop signal")

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            try:
                loop.add_signal_handler(sig, self.signalled)
            except (NotImplementedError, RuntimeError):  # not the main thread
                pass
        log.info("gm serving as %s", self.ctx.instance)
        from gm.service.reports import warm_up

        rendered = 0
        try:
            rendered = await asyncio.to_thread(warm_up, self.ctx)
        except Exception:  # only a head start for the first deadline: serve without it
            log.warning("warm-up skipped", exc_info=True)
        try:
            await asyncio.to_thread(parsewarm.warm_up, self.ctx)
        except Exception:  # only a head start for the first mail: serve without it
            log.warning("the order parsers' warm-up skipped", exc_info=True)
        settle_heap()
        if rendered:  # games are running, their reports' maps to draw: the pool starts now,
            # in the background (gm.pipeline.drawpool.prepare), not inside the first deadline
            self._drawing_ready = asyncio.ensure_future(
                asyncio.to_thread(drawpool.prepare, self.ctx))
        try:
            delay = DB_RETRY_FIRST
            recovered = False
            while not self.stopping:
                try:
                    if not recovered:
                        # Whatever a crash interrupted after a commit (a phase everyone is
                        # READY for, left open) is finished before any new mail is read.
                        await asyncio.to_thread(recover, self.ctx)
                        recovered = True
                    await self.step()
                except (OperationalError, InterfaceError) as exc:
                    log.warning("database unavailable, retrying in %.0f s: %s", delay,
                                str(exc.orig or exc).strip().splitlines()[0])
                    await self._sleep(delay)
                    delay = min(delay * 2, DB_RETRY_LONGEST)
                    continue
                except ImapSetupError as exc:
                    # a host's mistake, not a bug: one line that says what to do, no traceback
                    what = ("refused gm's login" if isinstance(exc, ImapLoginError)
                            else "refused the folder")
                    log.error("%s %s (%s): %s; `gm doctor` checks it. Mail waits in the "
                              "mailbox; trying again in %.0f s", self._mailbox(), what, exc,
                              exc.fix, delay)
                    await self._sleep(delay)
                    delay = min(delay * 2, DB_RETRY_LONGEST)
                    continue
                except ImapUnreachable as exc:
                    log.warning("%s does not answer (%s): deadlines whose players owe orders "
                                "wait for it; die rolls, reminders and the outbox go on; trying "
                                "again in %.0f s", self._mailbox(), exc, delay)
                    await self._sleep(delay)
                    delay = min(delay * 2, DB_RETRY_LONGEST)
                    continue
                except Exception:
                    # A bug outside one mail or one game (each of those is contained where
                    # it happens): the daemon does not stop for it; it tries again later.
                    log.exception("the round failed; trying again in %.0f s", delay)
                    await self._sleep(delay)
                    delay = min(delay * 2, DB_RETRY_LONGEST)
                    continue
                delay = DB_RETRY_FIRST
                if not self.stopping:
                    try:
                        await self._wait_for_mail()
                    except Exception:  # the mailbox went away while gm waited on it: the
                        # next round's fetch meets the same and says why (then backs off)
                        log.debug("waiting for mail failed", exc_info=True)
                        await self._sleep(1.0)  # never a tight loop, whatever fails
        finally:
            try:
                await self.sink.close()
                self.source.close()
                drawpool.shutdown()  # the drawing workers (gm.pipeline.drawpool), if started
                self._fold_wal()
            finally:
                self._stopped.set()
                log.info("stopped")

    def _fold_wal(self) -> None:
        """On SQLite, leave everything in the database file itself, so that a host who stops
        gm and copies gm.db copies it all (deploy/README.md, "What to back up")."""
        try:
            fold_wal(self.ctx.engine)
        except Exception as exc:  # the database went away: nothing to fold, stop anyway
            log.warning("the database's write-ahead log was not folded in: %s", exc)

    def _mailbox(self) -> str:
        """The IMAP server and user, as the log names them."""
        settings = getattr(self.source, "settings", None)
        if not hasattr(settings, "host"):
            return f"the mailbox {getattr(self.source, 'source', '')}".rstrip()
        host, port, user = (getattr(settings, name, "?") for name in ("host", "port", "user"))
        return f"the IMAP server {host}:{port} (user {user})"

    async def _sleep(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while not self.stopping and time.monotonic() < end:
            await asyncio.sleep(min(0.2, end - time.monotonic()))

    def busy(self) -> bool:
        """Mail came in the last ``busy_seconds``: look for the next without waiting on IDLE."""
        return self._last_mail is not None and time.monotonic() - self._last_mail < self.busy_seconds

    async def _wait_for_mail(self) -> None:
        if self.busy():
            if self._settled:  # mail may have come while the round worked: look at once
                return
            await self._sleep(min(self.wait_time(), self.busy_poll_seconds))
        else:
            await asyncio.to_thread(self.source.wait, self.wait_time())

    def wait_time(self) -> float:
        """How long to wait for mail: until the next deadline, at most ``wait_seconds``; not
        at all when a sweep left due phases for a read that began before they fell due (the
        next read begins after: it closes them), and a moment (``busy_poll_seconds``) when a
        mail not yet handled holds them (another instance's, or one left for the next round)."""
        left = self.wake.seconds_until_next(self.ctx.clock.now())
        if self._last_sweep is not None:
            periodic = self._last_sweep + self.sweep_seconds - time.monotonic()
            left = periodic if left is None else min(left, periodic)
        if self._waiting_read is not None:
            soon = self.busy_poll_seconds if self.reads.waiting else 0.0
            left = soon if left is None else min(left, soon)
        return max(0.0, min(self.wait_seconds, left if left is not None else self.wait_seconds))

    async def step(self) -> None:
        """One round: mail, then due deadlines, then the outbox (tests call this directly).

        The mail comes first: a deadline is kept once the mailbox has been read as it stood
        when it fell due, so that orders that reached the mailbox in time are carried out
        (gm.pipeline.arrival); a mail that came later is judged too late by its own arrival.
        When the mailbox cannot be read, what needs no mail still happens (reminders, die
        rolls, the deadlines the last read covers) and the queued mail still goes out."""
        if not self._claims_released:  # what a killed process of this instance was sending
            await asyncio.to_thread(release_dead_claims, self.ctx)
            # what waits for a retry goes now: the host may have restarted to mend the mail
            # server, its password or the [smtp] table (docs/robustness.md)
            waiting = await asyncio.to_thread(retry_now, self.ctx)
            if waiting:
                log.info("%d queued mails waiting for a retry are tried now", waiting)
            self._claims_released = True
        started = self.ctx.clock.now()
        try:
            found = await asyncio.to_thread(self.source.fetch_new)
        except Exception:
            if not self.stopping:  # the replies and reports already queued still go out
                await asyncio.to_thread(self.deadlines)
                await drain(self.ctx, self.sink, watch=self.mail_server)
            raise
        tried = self.reads.found([f for f in found if self._broken[_identity(f)] < BROKEN_TRIES],
                                 started, self.ctx.clock.now())
        mails = await asyncio.to_thread(lambda: self._round(tried))
        handled = len(mails.mails)
        self._settled = False
        if handled and not self.stopping:
            done = await asyncio.to_thread(process_round, self.ctx, self.source, mails, self._due,
                                           lambda: self.stopping)
            for fetched, exc in done.broken:
                # handle_inbound records and answers a mail that fails; this is a mail that
                # could not even be stored or flagged. It is left in the mailbox; this
                # process tries it BROKEN_TRIES times in all (a restart, as many again).
                log.error("mail from %s could not be stored or flagged; left in the mailbox",
                          fetched.source, exc_info=exc)
                self._broken[_identity(fetched)] += 1
            # a broken mail holds no deadline back: it may never be stored
            self.reads.handled([*done.settled, *(f for f, _ in done.broken)])
            # Mails found handled by another instance are not work done: after a round of
            # only those and held ones (the other is on the game left), the loop pauses.
            self._settled = done.here > 0
        if handled:  # mail may have opened, moved or closed phases (a sweep refreshes itself)
            self._last_mail = time.monotonic()
            await asyncio.to_thread(self._refresh)
        if not self.stopping:
            await asyncio.to_thread(self.deadlines)
            await drain(self.ctx, self.sink, watch=self.mail_server)
        if mails.met_other:
            self._met_other = time.monotonic()
            self._others_games.note(mails)

    def _round(self, fetched: list[FetchedMail]) -> Round:
        """The round's mails in the order they are handled (gm.pipeline.order): the
        mailbox's; game by game while another instance's heartbeat is recent (asked at
        most once per ``sweep_seconds``), this instance's own games first (each game's
        owner among the instances alive), and for ``BY_GAME_SECONDS`` after a mail was
        held by another instance; none of the games in which another instance was found
        holding a mail in the last ``HELD_GAME_SECONDS`` (gm.pipeline.order.OthersGames)."""
        now = time.monotonic()
        if fetched and (self._others_asked is None
                        or now - self._others_asked >= self.sweep_seconds):
            self._others = others_alive(self.ctx, timedelta(seconds=3 * self.sweep_seconds))
            self._others_asked = now
        by_game = bool(self._others) or (self._met_other is not None
                                         and now - self._met_other < BY_GAME_SECONDS)
        return Round(fetched, self.ctx.service_address, self.ctx.instance, by_game=by_game,
                     fresh_seconds=FRESH_SECONDS, peers=self._others,
                     avoid=self._others_games.now() if fetched else frozenset())

    def deadlines(self) -> None:
        """Sweep when a deadline or reminder fell due, the periodic sweep is due, or the
        mailbox has been read further since a sweep left due phases for it."""
        now = self.ctx.clock.now()
        periodic = (self._last_sweep is None
                    or time.monotonic() - self._last_sweep >= self.sweep_seconds)
        read = self.reads.read
        further = self._waiting_read is not None and read > self._waiting_read
        if not periodic and not further and not self.wake.due(now):
            return
        waiting = 0
        try:
            waiting = sweep_once(self.ctx, read)
        finally:  # a sweep that raised is not tried again at once either
            self._waiting_read = read if waiting else None
            self._tell_waiting(waiting, read)
            if self._due is not None:  # the sweep may have closed and opened phases
                self._due.reset()
            if periodic:
                self._last_sweep = time.monotonic()
            with session_scope(self.ctx.engine) as session:
                self.wake.swept(session, now, periodic=periodic)

    def _tell_waiting(self, waiting: int, read: datetime) -> None:
        """Log once that due phases wait for the mailbox (again once it caught up)."""
        if waiting and not self._told_waiting:
            since = "it was never read" if read == NOTHING_READ else f"it is read up to {read:%H:%M:%S} UTC"
            log.info("%d due phase(s) wait until %s is read as it stood when they fell due (%s)",
                     waiting, self._mailbox(), since)
        self._told_waiting = bool(waiting)

    def _refresh(self) -> None:
        with session_scope(self.ctx.engine) as session:
            self.wake.refresh(session)


def _exit_now(why: str) -> None:
    """Leave the process at once: the work in hand is done again, once, on the next start."""
    log.warning("%s: exiting now; the interrupted work is done again on the next start", why)
    for handler in logging.getLogger().handlers:
        handler.flush()
    os._exit(0)

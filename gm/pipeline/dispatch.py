"""Draining the outbox: send what is due, retry with backoff, record failures.

A mail is marked sent only after the sink accepted it; a crash in between can
re-send the same bytes with the same Message-ID, which clients collapse. A
permanent failure (5xx, refused recipient) is recorded and shown to the
moderator; temporary ones (4xx, timeouts, disk full) are retried with
exponential backoff, a mail's own refusals (4xx) up to ``MAX_ATTEMPTS``, the server's
failures (down, unreachable, login refused: ``SERVER_DOWN``) without limit; once a mail has waited through
``TELL_AFTER_ATTEMPTS`` of them (7.5 minutes: 30 s, doubling) the moderator is
told it is delayed, at most once an hour per game, so that a long outage of
the mail server is not discovered by players asking where their report is.
A mail the server took for some recipients and refused for now (4xx) for others
(greylisting) stays queued for those alone: the row's recipients become theirs. One it
refused for good (5xx) for some recipients and took for the others counts as sent, and
those recipients as not delivered: recorded (gm.service.undelivered) and told to the
moderator once, as a mail refused outright is, so that ``gm mod requeue`` sends it to
them alone once their address is mended.

Several instances may drain one outbox: each mail is claimed before it is sent, by a
conditional ``UPDATE`` that only one of them can win (:func:`claim`), with a lease
(``send_lease_seconds``, two minutes by default) after which a claim whose sender died
may be taken over. A restarted instance takes back at once the claims its own dead
processes left (same instance name, a process id no longer running on this host). A
mail is claimed only when no earlier mail of its game is still to go before it, so each
game's mails leave in the order they were queued whatever the number of instances
(gm.pipeline.sendorder).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections import deque
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import ColumnElement, Connection, CursorResult, bindparam, or_, update
from sqlmodel import Session, col, func, select

from gm.checkpoint import checkpoint
from gm.clock import utc
from gm.db.engine import session_scope
from gm.db.models import Game, OutboundMail, Phase
from gm.i18n import Text, msg, when
from gm.mail.compose import RENDER_HEADER
from gm.mail.types import SERVER_DOWN as _SERVER_DOWN
from gm.mail.types import FailureKind, MailSink, SendResult
from gm.pipeline import drawahead, drawpool, sendorder
from gm.pipeline.alive import running
from gm.pipeline.mailwatch import MailServerWatch
from gm.service.context import ServiceContext
from gm.service.notify import notify_moderator
from gm.service.outbox import PASSWORD_KINDS, mask_delivered
from gm.service.undelivered import note_failure

log = logging.getLogger("gm.dispatch")

MAX_ATTEMPTS = 12
TELL_AFTER_ATTEMPTS = 5
FIRST_RETRY = timedelta(seconds=30)
LONGEST_RETRY = timedelta(hours=2)
DRAW_TIMEOUT = 60.0
"""Seconds a mail's drawing may take in a worker (~30 ms is usual) before the worker is
taken for stuck: far less than a claim's lease, so the mail still goes under its claim."""
SEND_LEASE_SECONDS = 120.0
"""How long a claim on an outgoing mail holds (``[service] send_lease_seconds``): far longer
than a send (the SMTP timeout), so only a claim whose sender died runs out."""


SERVER_DOWN = _SERVER_DOWN
"""Failures of the mail server (or the disk), not of the mail: the server down or
unreachable, its login refused (a password being rotated), a disk full. A mail that meets
only these is never given up (``MAX_ATTEMPTS`` counts the mail's own refusals, 4xx), and
the first of them ends the drain: the other mails would meet it too (a server that hangs
would cost its timeout for each of them), they wait, untouched, until the server's next
try (gm.pipeline.mailwatch)."""


def server_down(result: SendResult) -> bool:
    return result.failure is not None and result.failure.kind in SERVER_DOWN


def backoff(attempts: int) -> timedelta:
    return min(FIRST_RETRY * (2 ** max(attempts - 1, 0)), LONGEST_RETRY)


def holder(ctx: ServiceContext) -> str:
    """Who claims a mail: this instance's name and this process."""
    return f"{ctx.instance}:{os.getpid()}"


def _unclaimed(ctx: ServiceContext) -> ColumnElement[bool]:
    """Nobody holds the mail: never claimed, or the claim's lease ran out."""
    now = ctx.clock.now()
    return ((col(OutboundMail.claimed_until) == None)  # noqa: E711
            | (col(OutboundMail.claimed_until) <= now))


def due(ctx: ServiceContext, limit: int = 200) -> list[int]:
    with session_scope(ctx.engine) as session:
        rows = session.exec(select(OutboundMail.id, OutboundMail.phase_bound).where(
            OutboundMail.status == "queued",
            (col(OutboundMail.next_attempt_at) == None)  # noqa: E711
            | (col(OutboundMail.next_attempt_at) <= ctx.clock.now()),
            _unclaimed(ctx),
        ).order_by(*sendorder.SEND_ORDER).limit(limit)).all()
        # a game's welcomes first: queued after the reports of its opening die rolls (a
        # forming game's start, gm game new), they carry the sign-on those reports assume
        bound = [int(i) for i, phase_bound in rows if phase_bound and i is not None]
        stale = withdraw_stale(session, bound) if bound else set()
        return [int(i) for i, _ in rows if i is not None and i not in stale]


def withdraw_stale(session: Session, mail_ids: list[int]) -> set[int]:
    """Mark ``withdrawn`` (never sent) the ``phase_bound`` mails among ``mail_ids`` whose
    phase has closed since they were queued; return their ids.

    Such a mail (a reminder "round-1-red closes in 1 hour", the moderator's "2 missing for
    round-1-red (1 minute left)", "round-1-red: new deadline") is queued for the game's
    open phase only; once a phase of its game was adjudicated after it was queued, it
    speaks of a phase that is over. It stays queued so long only when the mail server was
    down: it then went out after the next phase's report."""
    closed_since = (select(Phase.id).where(
        col(Phase.game_id) == col(OutboundMail.game_id),
        col(Phase.adjudicated_at) > col(OutboundMail.created_at)).exists())
    stale = {int(i) for i in session.exec(select(OutboundMail.id).where(
        col(OutboundMail.id).in_(mail_ids), col(OutboundMail.phase_bound), closed_since))
        if i is not None}
    if stale:
        session.execute(update(OutboundMail).where(col(OutboundMail.id).in_(stale))
                        .values(status="withdrawn")
                        .execution_options(synchronize_session=False))
        log.info("%d mails about phases closed since (reminders, missing orders) were "
                 "withdrawn, not sent", len(stale))
    return stale


def claim(ctx: ServiceContext, mail_id: int) -> bool:
    """Claim mail ``mail_id`` for sending; False if it is sent, or another sender holds it.

    One conditional ``UPDATE`` in a transaction of its own: on PostgreSQL a second
    instance's ``UPDATE`` waits for the first to commit and then no longer matches; on
    SQLite the database's write lock puts them one after the other."""
    with session_scope(ctx.engine) as session:
        return _claim(ctx, session, mail_id)


def _claim(ctx: ServiceContext, session: Session, mail_id: int) -> bool:
    """:data:`_CLAIM_ROW` in ``session``'s transaction: whether this sender now holds the mail."""
    result = session.execute(_CLAIM_ROW, _claim_params(ctx, mail_id),
                             execution_options={"synchronize_session": False})
    return bool(cast(CursorResult[Any], result).rowcount)


def _claim_params(ctx: ServiceContext, mail_id: int) -> dict[str, Any]:
    now = ctx.clock.now()
    return {"mail_id": mail_id, "now": now, "holder": holder(ctx), "until": now + _lease(ctx)}


def release_dead_claims(ctx: ServiceContext) -> int:
    """Free at once the claims left by this instance's earlier processes that are gone
    (a SIGKILL between claiming and recording a send); return how many.

    Only claims under this instance's name are looked at, and only those of a process id
    that is not running here: another instance's claim is left to its lease."""
    prefix = f"{ctx.instance}:"
    with session_scope(ctx.engine) as session:
        rows = session.exec(select(OutboundMail).where(
            OutboundMail.status == "queued", col(OutboundMail.claimed_by).startswith(prefix),
            col(OutboundMail.claimed_until) != None)).all()  # noqa: E711
        freed = 0
        for row in rows:
            pid = row.claimed_by[len(prefix):]
            if pid.isdigit() and not running(int(pid)):
                row.claimed_by, row.claimed_until = "", None
                session.add(row)
                freed += 1
        return freed


async def drain(ctx: ServiceContext, sink: MailSink, limit: int = 200,
                watch: MailServerWatch | None = None) -> int:
    """Send every due mail once, in order; return how many were sent.

    ``watch``: the mail server as the daemon's earlier drains found it (gm.pipeline.mailwatch):
    while it is known down, nothing is tried before its next try is due.

    A mail's pending parts (a report's map: SVG and PNG, some 25 ms of CPU) are drawn
    before each attempt to send it, from the bytes queued, and not stored
    (gm.service.outbox: drawing is a pure function of those bytes, so every attempt sends
    the same mail). With ``[service] draw_workers`` (by default
    the cores this process may use) they are drawn in worker processes
    (gm.pipeline.drawpool), several mails at once: the drain claims up to the pool's
    ``window`` of mails ahead and hands each to the pool as it is claimed, and while mail
    k is sent and recorded the next ones are being drawn; the sends stay in order, on
    the sink's one connection. A mail drawn ahead (gm.pipeline.drawahead: while a deadline
    storm's sweep ran) is taken from the spool, or waited for, not drawn again.
    With 0 the drawing is done in-process, one mail at a time.
    The database work runs in worker threads and the drawing in worker processes, so the
    daemon's event loop is never held up."""
    watch = watch or MailServerWatch()
    if not watch.may_try(ctx.clock.now()):
        return 0  # the mail server is down: the mails wait, untouched, for its next try
    pool = drawpool.pool_for(ctx)
    if pool is None:
        return await _drain_in_process(ctx, sink, limit, watch)
    sent = 0
    ahead = deque(await asyncio.to_thread(due, ctx, limit))
    window: deque[_Claimed] = deque()
    outbox = _Outbox(ctx)
    try:
        while ahead or window:
            # claim and hand to the pool up to a window ahead
            while ahead and len(window) < pool.window:
                claimed = await asyncio.to_thread(_claim_and_draw, outbox, ahead.popleft(), pool)
                if claimed is not None:
                    window.append(claimed)
            if not window:
                continue
            head = window.popleft()
            ready = await _finished(outbox, head, pool)
            if ready is None:
                continue  # no longer ours: sent meanwhile, or another sender took it over
            checkpoint("send")
            result = (await sink.send(ready, ctx.service_address, head.recipients)
                      if head.recipients else SendResult.sent())
            checkpoint("sent")
            await asyncio.to_thread(outbox.record, head.mail_id, result, head.kind)
            sent += result.ok
            if not await _watched(ctx, watch, result, bool(head.recipients)):
                break
    finally:
        if window:  # claimed ahead and not sent (the drain raised): free for the next drain
            await asyncio.to_thread(_release, ctx, [c.mail_id for c in window])
        await asyncio.to_thread(outbox.close)
    return sent


async def _drain_in_process(ctx: ServiceContext, sink: MailSink, limit: int,
                            watch: MailServerWatch) -> int:
    """:func:`drain` with ``draw_workers = 0``: each mail's parts drawn in a worker thread
    of this process, one mail at a time."""
    sent = 0
    outbox = _Outbox(ctx)
    try:
        for mail_id in await asyncio.to_thread(due, ctx, limit):
            claimed = await asyncio.to_thread(outbox.claim, mail_id)
            if claimed is None:
                continue  # sent meanwhile, or another instance is sending it
            kind, raw, recipients = claimed
            if RENDER_HEADER.encode() in raw:  # parts to draw: drawn for this attempt
                raw = await asyncio.to_thread(_draw_here, raw)
            checkpoint("send")
            result = await sink.send(raw, ctx.service_address, recipients) if recipients else SendResult.sent()
            checkpoint("sent")
            await asyncio.to_thread(outbox.record, mail_id, result, kind)
            sent += result.ok
            if not await _watched(ctx, watch, result, bool(recipients)):
                break
    finally:
        await asyncio.to_thread(outbox.close)
    return sent


async def _watched(ctx: ServiceContext, watch: MailServerWatch, result: SendResult,
                   tried: bool) -> bool:
    """Tell ``watch`` what a send found; False when the server is down: the drain stops."""
    if server_down(result):
        waiting = await asyncio.to_thread(_queued, ctx)
        watch.failed(ctx.clock.now(), backoff(watch.failures + 1), waiting)
        return False
    if tried and watch.down_since is not None:  # back: what met it down goes now too
        await asyncio.to_thread(retry_now, ctx)
        watch.answered(ctx.clock.now(), await asyncio.to_thread(_queued, ctx))
    return True


def _queued(ctx: ServiceContext) -> int:
    """How many mails wait in the outbox."""
    with session_scope(ctx.engine) as session:
        return int(session.exec(select(func.count()).select_from(OutboundMail)
                                .where(OutboundMail.status == "queued")).one())


@dataclass
class _Claimed:
    """A mail this drain holds: what it sends, and its drawing if it has parts to draw."""

    mail_id: int
    kind: str
    raw: bytes
    recipients: list[str]
    pending: bool  # parts left to draw before the first send
    drawing: drawpool.Drawing | None  # in the pool; None: drawn in-process
    claimed_at: datetime  # by the context's clock


def _claim_and_draw(outbox: _Outbox, mail_id: int, pool: drawpool.DrawPool) -> _Claimed | None:
    """Claim mail ``mail_id`` and read it (one statement); if it has parts to draw, hand
    its bytes to the pool. None when it is not claimed."""
    row = outbox.claim(mail_id)
    if row is None:
        return None
    kind, raw, recipients = row
    claimed = _Claimed(mail_id, kind, raw, recipients, RENDER_HEADER.encode() in raw, None,
                       outbox.ctx.clock.now())
    if claimed.pending:
        claimed.drawing = pool.ahead_of(claimed.raw) or pool.submit(claimed.raw)
    return claimed


async def _finished(outbox: _Outbox, mail: _Claimed, pool: drawpool.DrawPool) -> bytes | None:
    """The bytes to send for ``mail``, its parts drawn for this attempt (not stored: every
    attempt draws them again from the same stored bytes, the same mail); None if the mail
    is no longer ours (a claim that waited over half its lease is renewed first)."""
    ready = await _drawn(mail, pool) if mail.pending else mail.raw
    if outbox.ctx.clock.now() - mail.claimed_at < _lease(outbox.ctx) / 2:
        return ready
    return ready if await asyncio.to_thread(outbox.renew, mail.mail_id) else None


async def _drawn(mail: _Claimed, pool: drawpool.DrawPool) -> bytes:
    """``mail``'s bytes with its parts drawn by the pool.

    A drawing lost with its worker (the pool broke), or still not done after
    ``DRAW_TIMEOUT`` seconds (the pool's workers are then killed), is drawn again, alone,
    by a worker process of its own (the pool starts again for the next mails); if that
    one dies too, this mail is what breaks it, and it goes
    without its pictures (nothing more is drawn of it, in-process least of all). A drawing
    that raised in the worker, or one no worker could be started for, is drawn
    in-process."""
    drawing = mail.drawing
    for attempt in (1, 2):
        if drawing is None:
            break
        waiting = asyncio.wrap_future(drawing.future)
        try:
            drawn = await asyncio.wait_for(asyncio.shield(waiting), DRAW_TIMEOUT)
            if drawing.spool is not None:  # drawn ahead: the mail is in the spool
                return await asyncio.to_thread(drawahead.taken, drawing.spool)
            return cast(bytes, drawn)
        except TimeoutError:
            log.warning("drawing mail %s takes over %.0f s: its workers are stopped",
                        mail.mail_id, DRAW_TIMEOUT)
            waiting.add_done_callback(lambda f: f.cancelled() or f.exception())  # seen: it broke
            pool.kill(drawing)
        except BrokenProcessPool:
            if drawing.alone is None:
                pool.broken(drawing.generation)
        except Exception:
            log.warning("drawing mail %s raised in a worker; drawing it here", mail.mail_id,
                        exc_info=True)
            break
        if attempt == 2:
            log.warning("mail %s lost its drawing worker twice: it goes without its pictures",
                        mail.mail_id)
            return await asyncio.to_thread(drawpool.without_pending_parts, mail.raw)
        drawing = await asyncio.to_thread(pool.alone, mail.raw)
    return await asyncio.to_thread(_draw_here, mail.raw)


def _draw_here(raw: bytes) -> bytes:
    """Draw in this process; a mail whose drawing raises goes without its pictures."""
    try:
        return drawpool.finish_raw(raw)
    except Exception:
        log.warning("a mail's pictures could not be drawn; it goes without them", exc_info=True)
        return drawpool.without_pending_parts(raw)


def _lease(ctx: ServiceContext) -> timedelta:
    return timedelta(seconds=float(ctx.settings.get("send_lease_seconds", SEND_LEASE_SECONDS)))


_ID = col(OutboundMail.id) == bindparam("mail_id")
_CLAIM_ROW = (update(OutboundMail)
              .where(_ID, col(OutboundMail.status) == "queued",
                     (col(OutboundMail.claimed_until) == None)  # noqa: E711
                     | (col(OutboundMail.claimed_until) <= bindparam("now")),
                     ~sendorder.waits_for_earlier())
              .values(claimed_by=bindparam("holder"), claimed_until=bindparam("until")))
"""The claim (:func:`claim`): the mail still queued and nobody's, or its lease ran out, and
no earlier mail of its game is still to go before it (gm.pipeline.sendorder)."""
_CLAIM = _CLAIM_ROW.returning(col(OutboundMail.kind), col(OutboundMail.raw),
                              col(OutboundMail.recipients))
"""The claim, reading the mail's kind, bytes and recipients with it."""
_OURS = (_ID, col(OutboundMail.status) == "queued", col(OutboundMail.claimed_by) == bindparam("holder"))
_RENEW = update(OutboundMail).where(*_OURS).values(claimed_until=bindparam("until"))
_SENT = (update(OutboundMail).where(_ID)
         .values(attempts=col(OutboundMail.attempts) + 1, claimed_by="", claimed_until=None,
                 status="sent", sent_at=bindparam("now"), last_error=bindparam("error")))


class _Outbox:
    """The pooled drain's own statements, built once, on one connection it holds while it
    drains, each in a transaction of its own (issue 21: through the ORM session, a new
    session and connection for each, claiming, storing and recording cost the drain
    ~2.0, ~1.7 and ~1.4 ms of CPU a mail on PostgreSQL; the claim now returns the mail's
    kind, bytes and recipients, where a second statement read them).

    Used from one worker thread at a time (the drain awaits each call)."""

    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx
        self.holder = holder(ctx)
        self._conn: Connection | None = None

    def _write(self, statement: Any, **params: Any) -> Any:
        """Run ``statement`` in a transaction of its own: the row it returns (``RETURNING``)
        if it returns any, else how many rows it changed."""
        if self._conn is None:
            self._conn = self.ctx.engine.connect()
        try:
            result = cast(CursorResult[Any], self._conn.execute(statement, params))
            out = result.first() if result.returns_rows else result.rowcount
            self._conn.commit()
        except BaseException:
            self.close()  # not used again: the next statement takes a checked connection
            raise
        return out

    def claim(self, mail_id: int) -> tuple[str, bytes, list[str]] | None:
        """:func:`claim`, reading the mail's kind, bytes and recipients; None if not claimed."""
        row = self._write(_CLAIM, **_claim_params(self.ctx, mail_id))
        if row is None:
            return None
        kind, raw, recipients = row
        return str(kind), bytes(raw), list(recipients or [])

    def renew(self, mail_id: int) -> bool:
        """Renew the claim on a mail claimed ahead; False if it is no longer queued or no
        longer this sender's (its lease ran out and another took it)."""
        until = self.ctx.clock.now() + _lease(self.ctx)
        return bool(self._write(_RENEW, mail_id=mail_id, holder=self.holder, until=until))

    def record(self, mail_id: int, result: SendResult, kind: str) -> None:
        """:func:`record`: a mail sent whose kind carries no password, to every recipient the
        server did not refuse, in one statement here."""
        if result.ok and kind not in PASSWORD_KINDS and not result.refused:
            self._write(_SENT, mail_id=mail_id, now=self.ctx.clock.now(), error=_refused(result))
        else:
            record(self.ctx, mail_id, result, kind)

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()


def _refused(result: SendResult) -> str:
    return f"refused recipients: {result.refused}" if result.refused else ""


def _refused_for_good(result: SendResult) -> dict[str, str]:
    """The recipients of a mail sent to the others that the server refused for good (a 5xx
    to RCPT: no such user), with what it said: the mail never reaches them unless it is
    sent again (gm.service.undelivered)."""
    if not result.ok:
        return {}
    return {r: " ".join(x for x in (str(code), result.said.get(r, "")) if x)
            for r, code in result.refused.items() if not 400 <= code < 500}


def _refused_for_now(result: SendResult) -> list[str]:
    """The recipients of a mail sent to the others that the server refused for now (a 4xx
    to RCPT: greylisting, a full mailbox): the mail is still owed to them."""
    return [r for r, code in result.refused.items() if 400 <= code < 500] if result.ok else []


def retry_now(ctx: ServiceContext) -> int:
    """Make every queued mail waiting for its next attempt after a failure of the server
    (``SERVER_DOWN``) due now; return how many.

    The daemon does this when it starts: a host who mended the mail server, its password
    or the [smtp] table restarts gm and the mail goes, instead of waiting out a backoff
    of up to two hours. A mail refused for now (4xx) keeps its backoff: a daemon restarted
    again and again must not spend its ``MAX_ATTEMPTS``."""
    down = or_(*(col(OutboundMail.last_error).startswith(kind.value) for kind in SERVER_DOWN))
    with session_scope(ctx.engine) as session:
        now = ctx.clock.now()
        done = session.execute(
            update(OutboundMail)
            .where(col(OutboundMail.status) == "queued", col(OutboundMail.next_attempt_at) > now,
                   down)
            .values(next_attempt_at=now)
            .execution_options(synchronize_session=False))
        return int(cast(CursorResult[Any], done).rowcount or 0)


def _release(ctx: ServiceContext, mail_ids: list[int]) -> None:
    """Give up this sender's claims on mails it has not tried to send; best effort (the
    database may be what failed: the claims then run out with their lease)."""
    try:
        with session_scope(ctx.engine) as session:
            session.execute(
                update(OutboundMail)
                .where(col(OutboundMail.id).in_(mail_ids), col(OutboundMail.status) == "queued",
                       col(OutboundMail.claimed_by) == holder(ctx))
                .values(claimed_by="", claimed_until=None)
                .execution_options(synchronize_session=False))
    except Exception:
        log.warning("claims on %d mails not released; their lease runs out", len(mail_ids),
                    exc_info=True)


def record(ctx: ServiceContext, mail_id: int, result: SendResult, kind: str | None = None) -> None:
    """Write the outcome of one send; tell the moderator of a mail that will never go.

    A mail sent whose ``kind`` carries no password is marked in one ``UPDATE`` (issue 21:
    it was read, raw and all, then written)."""
    later, gone = _refused_for_now(result), _refused_for_good(result)
    if result.ok and kind is not None and kind not in PASSWORD_KINDS and not later and not gone:
        with ctx.engine.begin() as conn:
            conn.execute(_SENT, {"mail_id": mail_id, "now": ctx.clock.now(), "error": _refused(result)})
        return
    with session_scope(ctx.engine) as session:
        row = session.get(OutboundMail, mail_id)
        assert row is not None
        row.attempts += 1
        row.claimed_by, row.claimed_until = "", None
        now = ctx.clock.now()
        if gone:  # before ``later`` narrows the recipients to those still owed the mail
            _not_delivered_to(ctx, session, row, gone, result)
        if later:  # sent to the others; a 4xx is temporary for these too: to them alone, later
            row.recipients = later
            result = SendResult.temporary(FailureKind.RECIPIENTS_REFUSED, result.refused[later[0]],
                                          _refused(result))
        if result.ok:
            row.status, row.sent_at, row.last_error = "sent", now, ""
            if result.refused:
                row.last_error = f"refused recipients: {result.refused}"
        else:
            failure = result.failure
            row.last_error = f"{failure.kind.value} {failure.code or ''} {failure.detail}".strip() if failure else "?"
            permanent = not result.status.name == "TEMPORARY" or (
                row.attempts >= MAX_ATTEMPTS and not server_down(result))
            if permanent:
                row.status = "failed"
                game = session.get(Game, row.game_id) if row.game_id else None
                if game is not None:
                    note_failure(ctx, session, row, game)  # the seats it went to, for a requeue
                if game is not None and row.kind != "notice":
                    notify_moderator(ctx, session, game, msg("a mail could not be delivered"), [
                        msg("To {recipients}: {subject}", recipients=", ".join(row.recipients or []),
                            subject=row.subject),
                        msg("Error: {error}", error=row.last_error),
                        msg("Attempts: {n}", n=row.attempts),
                        _how_to_send_again(row, game)], key=f"undeliverable:{row.id}")
            else:
                row.next_attempt_at = now + backoff(row.attempts)
                if row.attempts == TELL_AFTER_ATTEMPTS:
                    _tell_delayed(ctx, session, row, down=server_down(result))
        mask_delivered(row)  # a welcome's password is not kept once it is sent
        session.add(row)


def _not_delivered_to(ctx: ServiceContext, session: Session, row: OutboundMail,
                      gone: dict[str, str], result: SendResult) -> None:
    """``row`` went to some of its recipients, and the server refused it for good to
    ``gone``: recorded for ``gm mod requeue`` and told to the moderator once, as a mail
    refused to all is (a mail of no game: logged only)."""
    game = session.get(Game, row.game_id) if row.game_id else None
    log.warning("mail %s (%s) was refused for good to %s: %s", row.id, row.kind,
                ", ".join(gone), "; ".join(gone.values()))
    if game is None:
        return
    note_failure(ctx, session, row, game, refused=gone)
    if row.kind == "notice":
        return
    took = [r for r in row.recipients or [] if r not in result.refused]
    notify_moderator(ctx, session, game, msg("a mail could not be delivered"), [
        msg("To {recipients}: {subject}", recipients=", ".join(gone), subject=row.subject),
        msg("Error: {error}", error="; ".join(f"{a}: {said}" for a, said in gone.items())),
        msg("The mail server took it for the others, who got it: {addresses}",
            addresses=", ".join(took)),
        _how_to_send_again(row, game)], key=f"undeliverable:{row.id}:refused")


def _how_to_send_again(row: OutboundMail, game: Game) -> Text:
    """The undelivered notice's last line: how the moderator gets the mail to the player
    once the address is right (gm.service.undelivered)."""
    if row.kind in PASSWORD_KINDS:  # its stored copy is masked: a new password is needed
        return msg("It carried a password, which gm does not keep: once the seat's address is "
                   "right, SEND PASSWORD <power> (after the line GAME {game}) mails a new one.",
                   game=game.id)
    return msg("This is mail {mail} of the outbox. Once the seat's address is right (gm mod "
               "address {game} <power> <address>; by mail POWER <power>, then SET ADDRESS "
               "<address>), gm mod requeue {mail} (by mail: REQUEUE {mail}) sends it again, "
               "once, to the current address of each seat that did not get it, and to no "
               "other; gm mod mails {game} --undelivered (by mail: SHOW MAILS UNDELIVERED) lists "
               "the mails that could not be delivered, with their numbers.", mail=row.id,
               game=game.id)


def _tell_delayed(ctx: ServiceContext, session: Session, row: OutboundMail, *,
                  down: bool = False) -> None:
    """The moderator learns that mail is held up by temporary failures (once an hour per
    game); ``down``: by the mail server itself, which gm waits for without a limit."""
    game = session.get(Game, row.game_id) if row.game_id else None
    if game is None or row.kind == "notice":
        return
    hour = ctx.clock.now().strftime("%Y%m%d%H")
    notify_moderator(ctx, session, game, msg("mail is delayed: the mail server refuses it for now"), [
        msg("To {recipients}: {subject}", recipients=", ".join(row.recipients or []),
            subject=row.subject),
        msg("Error: {error}", error=row.last_error),
        msg("Attempts so far: {n}; next at {when}. gm keeps retrying until the mail server "
            "takes it; restarting gm tries again at once.",
            n=row.attempts, when=when(utc(row.next_attempt_at or ctx.clock.now()))) if down else
        msg("Attempts so far: {n} of {limit}; next at {when}. gm keeps retrying.",
            n=row.attempts, limit=MAX_ATTEMPTS, when=when(utc(row.next_attempt_at or ctx.clock.now())))],
        key=f"delayed:{game.id}:{hour}")

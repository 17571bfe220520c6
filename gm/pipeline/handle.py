"""Handling one stored inbound mail, in one transaction (design.md §5, §6).

The flow, as a table::

    stored raw ──► decode ──► classify ──┬─ auto-reply/bounce/list/loop ─► ignored (no reply)
                                         ├─ no sender address ─► ignored (nobody to answer)
                                         └─ ordinary ─► too large? ─► reply "too large"
                                                        └─► clean body ─► envelope ─► sections ─► reply

The mail is marked handled, its orders stored and its reply queued in the
same transaction; if anything fails, nothing of it is kept and the mail is
handled again later. Work that must follow the commit (closing a phase) runs
after it, and is itself idempotent.
"""

from __future__ import annotations

import logging

from sqlalchemy import update
from sqlmodel import Session, col, select

from gm.db.engine import session_scope
from gm.db.models import InboundMail
from gm.i18n import msg
from gm.mail.classify import classify_with_reason
from gm.mail.mime import DecodedMail, decode
from gm.orders.envelope import parse_envelope
from gm.orders.text import clean_body
from gm.pipeline.checkpoint import checkpoint
from gm.pipeline.reply import MailReply, SectionReply
from gm.pipeline.section import AfterCommit, SectionContext, handle_section
from gm.service.context import ServiceContext
from gm.service.games import get_seat
from gm.service.outbox import queue_mail

log = logging.getLogger("gm.pipeline")


def handle_inbound(ctx: ServiceContext, inbound_id: int) -> AfterCommit:
    """Handle mail ``inbound_id`` if it is still new; then run what follows the commit."""
    after = AfterCommit()
    with session_scope(ctx.engine) as session:
        row = _lock(session, inbound_id)
        if row is None or row.status != "new":
            return after
        mail = decode(row.raw)
        checkpoint("parse")
        verdict = classify_with_reason(mail)
        if not verdict.kind.answered:
            row.status, row.note = "ignored", f"{verdict.kind.value} ({verdict.header}: {verdict.value})"
        elif not mail.reply_address:
            # Nobody to answer: acting on it would change the game without a word to anyone.
            row.status, row.note = "ignored", "no sender address (no usable From or Reply-To)"
        else:
            reply = build_reply(ctx, session, mail, row, after)
            send_reply(ctx, session, mail, row, reply)
            row.status = "handled"
            row.game_id = next((s.game_id for s in reply.sections if s.game_id), None)
            row.note = "; ".join(s.rejected for s in reply.sections if s.rejected)[:1000]
        row.handled_at = ctx.clock.now()
        session.add(row)
    run_after_commit(ctx, after)
    return after


def _lock(session: Session, inbound_id: int) -> InboundMail | None:
    """The mail's row, claimed for this transaction; None if another instance holds it.

    On PostgreSQL the row lock is the claim (``FOR UPDATE SKIP LOCKED``): an instance
    handling the mail keeps every other off it until it commits, and they go on with
    the next mail instead of waiting; whoever comes later finds it no longer ``new``.
    SQLite has one writer at a time: a conditional ``UPDATE`` of the row's status takes
    the write lock first, so the row is read inside the transaction that will mark it."""
    q = select(InboundMail).where(InboundMail.id == inbound_id)
    if session.get_bind().dialect.name == "postgresql":
        q = q.with_for_update(skip_locked=True)
    else:
        session.execute(update(InboundMail).where(col(InboundMail.id) == inbound_id,
                                                  col(InboundMail.status) == "new")
                        .values(status="new").execution_options(synchronize_session=False))
    return session.exec(q.execution_options(populate_existing=True)).first()


def build_reply(ctx: ServiceContext, session: Session, mail: DecodedMail, row: InboundMail,
                after: AfterCommit) -> MailReply:
    subject = mail.subject or "your orders"
    reply = MailReply(to=mail.reply_address,
                      subject=subject if subject.lower().startswith("re:") else f"Re: {subject}")
    if mail.too_large:
        reply.notes.append(msg("Your mail is {size} MB; mails over {limit} MB are not read. "
                               "Send the orders as plain text without attachments.",
                               size=mail.size // 1_000_000, limit=ctx.settings.get("max_mb", 10)))
        return reply
    if mail.attachments:
        names = ", ".join(a.filename or "(unnamed)" for a in mail.attachments)
        reply.notes.append(msg("Attachments are not read ({names}); put orders in the text.", names=names))
    envelope = parse_envelope(clean_body(mail.text))
    sc = SectionContext(ctx, session, mail, int(row.id or 0), after)
    for section in envelope.sections:
        reply.sections.append(handle_section(sc, section))
    reply.language = _language(session, reply.sections)
    return reply


def _language(session: Session, sections: list[SectionReply]) -> str:
    """The reply's language: that of the first seat signed on."""
    for s in sections:
        if s.game_id and s.power and s.power != "moderator":  # signed on, even if then refused
            return get_seat(session, s.game_id, s.power).language
    return "en"


def send_reply(ctx: ServiceContext, session: Session, mail: DecodedMail, row: InboundMail,
               reply: MailReply) -> None:
    """Queue the one reply, and each copy for a seat signed on from another address."""
    refs = tuple(mail.references) + ((mail.message_id,) if mail.message_id else ())
    game_id = next((s.game_id for s in reply.sections if s.game_id), None)
    queue_mail(ctx, session, game_id=game_id, kind="reply", to=[reply.to], subject=reply.subject,
               text=reply.render(), html=reply.render_html(), key=f"reply:{row.id}",
               in_reply_to=mail.message_id,
               references=refs)
    for s in reply.sections:
        if s.copy_to and not s.rejected:
            queue_mail(ctx, session, game_id=s.game_id, kind="reply-copy", to=[s.copy_to],
                       subject=f"[{s.game_id}] orders for {s.power} from {mail.from_addr}",
                       text=reply.render([s], sender=mail.from_addr),
                       html=reply.render_html([s], sender=mail.from_addr),
                       key=f"reply-copy:{row.id}:{s.power}")


def run_after_commit(ctx: ServiceContext, after: AfterCommit) -> None:
    """Close phases asked for by ADJUDICATE NOW or an all-READY game (idempotent)."""
    from gm.schedule.ready import maybe_adjudicate_early
    from gm.service.adjudicate import close_phase

    for game_id, seq, by in after.close:
        result = close_phase(ctx, game_id, seq, by=by, reason="ADJUDICATE NOW")
        log.info("ADJUDICATE NOW %s: %s", game_id, result)
    for game_id in after.ready_check:
        maybe_adjudicate_early(ctx, game_id)

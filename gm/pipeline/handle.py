"""Handling one stored inbound mail, in one transaction (design.md §5, §6).

The flow, as a table::

    claim ──► a copy of it settled first (same Message-ID)? ─► ignored (duplicate, no reply)
      └─► decode ──► classify ──┬─ auto-reply/bounce/list/loop/our own ─► ignored (no reply)
                                │   └─ a bounce of gm's own mail ─► the moderator told (gm.service.bounces)
                                ├─ no sender address ─► ignored (nobody to answer)
                                └─ ordinary ─► too large? ─► reply "too large"
                                               └─► clean body ─► envelope ─► sections ─► reply
                                                   (the lines before the first envelope line
                                                    listed as ignored: gm.pipeline.preamble)

The mail is marked handled, its orders stored, its reply queued (within the
address's reply budget, gm.pipeline.limits) and the passwords in its stored
raw copy masked (gm.mail.mask) in the same transaction; so are the other copies of it
that its claim holds (gm.pipeline.claim), marked its duplicates. Work that must follow
the commit (closing a phase) runs after it, and is itself idempotent.

When that transaction fails, nothing of it is kept:

* the database is gone (``OperationalError``/``InterfaceError``): the error
  goes up, the mail stays ``new`` and is handled again when it is back;
* anything else (a bug, design.md §7): the mail is *shunted*. In a
  transaction of its own it is marked ``failed`` with the error (its raw
  bytes kept), the sender gets one answer ("not processed, nothing in it was
  applied, the moderator has been told", in the seat's language where the
  address is a seat's), the moderators one notice with the error (in the language of
  their notices: gm.service.notify.moderators_by_language), and the
  daemon goes on with the next mail. It is never tried again by itself:
  ``gm mod retry MAIL`` (by mail ``RETRY MAIL``) handles it again, once. If another copy of the mail (same
  Message-ID) was settled meanwhile, it is only marked that one's duplicate: nobody is told.
"""

from __future__ import annotations

import logging
import traceback

from sqlalchemy.exc import InterfaceError, OperationalError
from sqlmodel import Session, col, func, select

from gm.checkpoint import checkpoint
from gm.clock import utc
from gm.db.engine import session_scope
from gm.db.models import Game, Seat
from gm.i18n import SOURCE_LANGUAGE, msg, translate
from gm.mail.classify import MailClass, classify_with_reason
from gm.mail.mask import mask_mail
from gm.mail.mime import DecodedMail, decode
from gm.orders.envelope import parse_envelope
from gm.orders.model import SourceLine
from gm.orders.text import clean_body
from gm.pipeline import limits
from gm.pipeline.claim import Claimed, claim, duplicate_note, record
from gm.pipeline.limits import classify_inbound
from gm.pipeline.preamble import preamble
from gm.pipeline.reply import MailReply, SectionReply
from gm.pipeline.section import AfterCommit, SectionContext, handle_section
from gm.pipeline.signon import envelope_secrets, signon_secrets, warn_of_unread_signons
from gm.service.bounces import take_bounce
from gm.service.context import ServiceContext
from gm.service.games import get_seat, module_of
from gm.service.notify import moderators_by_language, said
from gm.service.outbox import queue_answer, queue_mail

log = logging.getLogger("gm.pipeline")


def handle_inbound(ctx: ServiceContext, inbound_id: int, *, retry: bool = False) -> AfterCommit:
    """Handle mail ``inbound_id`` if it is still new (with ``retry``: or failed); then run
    what follows the commit. A mail whose handling raises is shunted (:func:`shunt`)."""
    try:
        after = _handle(ctx, inbound_id, retry=retry)
    except (OperationalError, InterfaceError):
        raise
    except Exception as exc:
        log.exception("handling mail %s raised; it is recorded as failed", inbound_id)
        shunt(ctx, inbound_id, exc)
        return AfterCommit()
    try:
        run_after_commit(ctx, after)
    except (OperationalError, InterfaceError):
        raise
    except Exception:  # the mail is handled and answered; the next sweep closes what is due
        log.exception("closing a phase after mail %s raised", inbound_id)
    return after


def _handle(ctx: ServiceContext, inbound_id: int, *, retry: bool) -> AfterCommit:
    after = AfterCommit()
    with session_scope(ctx.engine) as session:
        row = claim(session, inbound_id)
        if row is None or row.status not in (("new", "failed") if retry else ("new",)):
            return after
        mail = decode(row.raw)
        if row.duplicate_of is not None:
            # Another copy of this mail (same Message-ID) was settled first: that one was
            # answered and carried out (orders.md §2; gm.pipeline.claim).
            row.status, row.note = "ignored", duplicate_note(row.duplicate_of)
            known = signon_secrets(mail.text)
        else:
            known = _act(ctx, session, mail, row, after)
        row.handled_at = ctx.clock.now()
        row.masked = mask_mail(row.raw, known)  # no password at rest (issue 22)
        row.twins = {twin: mask_mail(raw, known) for twin, raw in row.twins.items()}
        record(session, row)  # and the copies held with it marked its duplicates
    after.settled = True  # committed: the block above raised otherwise
    return after


def _act(ctx: ServiceContext, session: Session, mail: DecodedMail, row: Claimed,
         after: AfterCommit) -> set[str]:
    """Classify the mail, and answer and carry it out or ignore it: set ``row``'s status,
    note and game. Return the passwords read in it, to be masked."""
    reply: MailReply | None = None
    checkpoint("parse")
    verdict = classify_inbound(ctx, session, mail)
    if not verdict.kind.answered:
        row.status, row.note = "ignored", f"{verdict.kind.value} ({verdict.header}: {verdict.value})"
        if verdict.kind is MailClass.BOUNCE and not mail.too_large:
            # one of gm's mails failed after the SMTP hand-over: the moderator hears of it
            bounced = take_bounce(ctx, session, row.raw, inbound_id=row.id)
            if bounced is not None:
                row.note, row.game_id = bounced.note, bounced.game_id
    elif not mail.reply_address:
        # Nobody to answer: acting on it would change the game without a word to anyone.
        row.status, row.note = "ignored", "no sender address (no usable From or Reply-To)"
    else:
        reply = build_reply(ctx, session, mail, row, after)
        withheld = send_reply(ctx, session, mail, row, reply)
        row.status = "handled"
        row.game_id = next((s.game_id for s in reply.sections if s.game_id), None)
        row.note = "; ".join([s.rejected for s in reply.sections if s.rejected]
                             + ([withheld] if withheld else []))[:1000]
    if row.status == "ignored" and not mail.too_large and verdict.kind not in (
            MailClass.LOOP, MailClass.BOUNCE):  # a bounce carries someone else's mail
        # the owner still hears of the right password from elsewhere (issue 22)
        warn_of_unread_signons(ctx, session, mail.text, mail.plus_tag(ctx.service_address),
                               mail.from_addr, row.id)
    return reply.secrets if reply is not None and reply.secrets is not None \
        else signon_secrets(mail.text)


def shunt(ctx: ServiceContext, inbound_id: int, exc: BaseException) -> None:
    """Record mail ``inbound_id`` as failed with ``exc``; answer its sender and tell the
    moderator, each once (a second failure after ``gm mod retry`` is only recorded)."""
    error = f"{type(exc).__name__}: {exc}"
    with session_scope(ctx.engine) as session:
        row = claim(session, inbound_id)
        if row is None or row.status not in ("new", "failed"):
            return
        try:
            mail: DecodedMail | None = decode(row.raw)
        except Exception:  # nothing can be read from it: the moderator is still told
            mail = None
        known = signon_secrets(mail.text) if mail is not None and (
            row.duplicate_of is not None or row.twins) else set()
        row.handled_at = ctx.clock.now()
        if row.duplicate_of is not None:  # another copy was settled meanwhile: nobody is told
            row.status, row.note = "ignored", duplicate_note(row.duplicate_of)
            row.masked = mask_mail(row.raw, known)
            record(session, row)
            return
        row.status, row.note = "failed", f"failed: {error}"[:1000]  # its raw kept whole, for a retry
        row.twins = {twin: mask_mail(raw, known) for twin, raw in row.twins.items()}
        record(session, row)  # and the copies held with it marked its duplicates
        if mail is not None and mail.reply_address and _answered(mail) and limits.decide(
                ctx, session, mail.reply_address, inbound_id, signed_on=False).answer is limits.Answer.REPLY:
            language = _sender_language(session, mail.from_addr)
            subject = mail.subject or "your orders"
            text = translate(msg(
                "Your mail was not processed: an error occurred while reading it, so nothing "
                "in it was applied. The moderator has been told. You may send it again, or "
                "wait for the moderator's answer."), language)
            queue_mail(ctx, session, game_id=None, kind="reply", to=[mail.reply_address],
                       subject=subject if subject.lower().startswith("re:") else f"Re: {subject}",
                       text=text + "\n", key=f"failed:{row.id}", in_reply_to=mail.message_id,
                       references=tuple(mail.references) + ((mail.message_id,) if mail.message_id else ()))
        _tell_moderators(ctx, session, row, mail, exc)


def _tell_moderators(ctx: ServiceContext, session: Session, row: Claimed, mail: DecodedMail | None,
                     exc: BaseException) -> None:
    """The notice of a shunted mail, to :func:`moderators_for` its sender, each in the language
    of their notices: one mail per language, the English one (the service's moderator's) under
    the key it always had, ``failed-notice:<mail>``."""
    error = f"{type(exc).__name__}: {exc}"
    trace = "".join(traceback.format_exception(exc)[-12:])
    subject = msg("mail {id} from {sender} failed: {error}", id=row.id, sender=row.sender,
                  error=type(exc).__name__)
    text = [msg("Mail {id} from {sender}", id=row.id, sender=row.sender),
            msg("(Message-ID {message_id}, subject {subject!r})", message_id=row.message_id,
                subject=mail.subject if mail else "?"),
            msg("raised an error while it was handled, so nothing in it was applied."),
            msg("The sender was told. The raw mail is kept."), "",
            msg("Error: {error}", error=error), "", trace,
            msg("To handle it again, once: gm mod retry {id}, or by mail RETRY {id} after the "
                "lines GAME <game> and MODERATOR <password> of a game the sender plays in "
                "(gm mod mails <game>, by mail SHOW MAILS, lists a game's mails with their "
                "numbers)", id=row.id)]
    groups = moderators_by_language(ctx, session, mail.from_addr if mail else row.sender)
    for language, moderators in groups.items():
        queue_mail(ctx, session, game_id=None, kind="notice", to=moderators,
                   subject="[gm] " + translate(subject, language),
                   text="==== gm notice ====\n" + said(text, language) + "\n",
                   key=f"failed-notice:{row.id}" + ("" if language == SOURCE_LANGUAGE else f":{language}"))


def _answered(mail: DecodedMail) -> bool:
    """Would this mail be answered at all (not an auto-reply, bounce, list or loop)?"""
    try:
        return classify_with_reason(mail).kind.answered
    except Exception:
        return False


def _sender_language(session: Session, address: str) -> str:
    """The language of the seats held by ``address``, if they agree; else English."""
    langs = set(session.exec(select(Seat.language).where(
        func.lower(col(Seat.address)) == address.lower())))
    return langs.pop() if len(langs) == 1 else "en"


def build_reply(ctx: ServiceContext, session: Session, mail: DecodedMail, row: Claimed,
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
    reply.secrets = envelope_secrets(envelope)  # before any section is handled
    sc = SectionContext(ctx, session, mail, row.id, after, utc(row.received_at))
    for section in envelope.sections:
        reply.sections.append(handle_section(sc, section))
    reply.language = _language(session, reply.sections, sc.signed_on)
    if envelope.sections and envelope.preamble:  # with no section: "No orders were found"
        _list_preamble(session, reply, envelope.preamble)
    return reply


def _list_preamble(session: Session, reply: MailReply, lines: list[SourceLine]) -> None:
    """The lines before the first envelope line, listed as ignored; those that read as an
    order of the first section's game (or as a command) named (gm.pipeline.preamble)."""
    game_id = reply.sections[0].game_id
    game = session.get(Game, game_id) if game_id else None  # read by its section already
    said = preamble(lines, module_of(game) if game is not None else None, reply.secrets or ())
    reply.preamble, reply.preamble_more = said.entries, said.more
    reply.preamble_note = said.note or ""


def _language(session: Session, sections: list[SectionReply], signed_on: dict[int, Seat]) -> str:
    """The reply's language: that of the first seat signed on (``signed_on``: those seats,
    as the sections left them, so not read again)."""
    for s in sections:
        if s.game_id and s.power and s.power != "moderator":  # signed on, even if then refused
            seat = signed_on.get(s.seat_id or 0)
            if seat is not None and seat.game_id == s.game_id and seat.power == s.power:
                return seat.language
            return get_seat(session, s.game_id, s.power).language
    return next((s.language for s in sections if s.language), "en")


def send_reply(ctx: ServiceContext, session: Session, mail: DecodedMail, row: Claimed,
               reply: MailReply) -> str:
    """Queue the one reply (within the address's budget, gm.pipeline.limits), and each copy
    for a seat signed on from another address, even when that section was then refused.
    Return why the reply was withheld ('' if it was queued)."""
    refs = tuple(mail.references) + ((mail.message_id,) if mail.message_id else ())
    game_id = next((s.game_id for s in reply.sections if s.game_id), None)
    # Keyed by this mail, whose row this transaction holds while it is new: nothing can be
    # queued under these keys yet, so each is inserted without a look-up first (issue 21).
    decision = limits.decide(ctx, session, reply.to, row.id,
                             signed_on=any(s.power for s in reply.sections))
    if decision.answer is limits.Answer.REPLY:
        text, html = reply.render_both()
        queue_answer(ctx, session, game_id=game_id, kind="reply", to=[reply.to],
                     subject=reply.subject, text=text, html=html, key=f"reply:{row.id}",
                     in_reply_to=mail.message_id, references=refs)
    elif decision.answer is limits.Answer.NOTICE:
        limits.queue_notice(ctx, session, to=reply.to, inbound_id=row.id,
                            language=reply.language, subject=reply.subject,
                            in_reply_to=mail.message_id, references=refs,
                            game=session.get(Game, game_id) if game_id else None)
    for s in reply.sections:
        if s.copy_to:
            text, html = reply.render_both([s], sender=mail.from_addr)
            queue_answer(ctx, session, game_id=s.game_id, kind="reply-copy", to=[s.copy_to],
                         subject=f"[{s.game_id}] orders for {s.power} from {mail.from_addr}",
                         text=text, html=html, key=f"reply-copy:{row.id}:{s.power}")
    return decision.note


def run_after_commit(ctx: ServiceContext, after: AfterCommit) -> None:
    """Close phases asked for by ADJUDICATE NOW, UNHOLD or an all-READY game (idempotent);
    handle again the failed mails a moderator's RETRY named."""
    from gm.schedule.ready import maybe_adjudicate_early
    from gm.service.adjudicate import close_phase

    for game_id, seq, by, why in after.close:
        result = close_phase(ctx, game_id, seq, by=by, reason=why)
        log.info("%s %s: %s", why, game_id, result)
    for game_id, mail_id, asked_by in after.retry:
        retry_failed(ctx, game_id, mail_id, asked_by)
    for game_id in after.ready_check:
        maybe_adjudicate_early(ctx, game_id)


def retry_failed(ctx: ServiceContext, game_id: str, mail_id: int, asked_by: int) -> None:
    """A moderator's RETRY (mail ``asked_by``): handle failed mail ``mail_id`` again, once.
    Its sender gets the answer; if it fails again, the moderator, who has no command line
    to read it from, is told so (``gm mod retry`` says it on the screen)."""
    from gm.db.models import InboundMail
    from gm.service.games import get_game
    from gm.service.notify import notify_moderator

    handle_inbound(ctx, mail_id, retry=True)
    with session_scope(ctx.engine) as session:
        row = session.get(InboundMail, mail_id)
        if row is None or row.status != "failed":
            return
        notify_moderator(ctx, session, get_game(session, game_id),
                         msg("mail {mail} failed again", mail=mail_id), [
                             msg("Mail {mail}, which you asked to handle again (RETRY {mail}), "
                                 "raised an error again, so nothing in it was applied "
                                 "(SHOW MAILS lists the game's mails).",
                                 mail=mail_id), "", row.note],
                         key=f"retry-failed:{mail_id}:{asked_by}")

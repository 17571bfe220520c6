"""Mail gm could not deliver, and sending it again once the address is mended.

A mail the SMTP server refused for good (a 5xx, every recipient refused, or a 4xx at its
last attempt) is marked ``failed`` by gm.pipeline.dispatch, and the game's moderator is
told once, the notice naming the mail's outbox number. The moderator fixes the seat's
address (``gm mod address``, ``POWER south`` + ``SET ADDRESS``), then:

* **lists** the game's undelivered mails (:func:`undelivered`, ``gm mod mails GAME
  --undelivered``): number, kind, address and seat, subject, the server's words, and
  whether it was queued again;
* **queues one again** (:func:`requeue`, ``gm mod requeue MAIL``, by mail ``REQUEUE
  MAIL``): a copy of the very mail, to the current address of the seat each recipient
  held when it failed (:func:`note_failure` recorded which, as a private ``mail.failed``
  event: the address has changed since), with its own Message-ID and today's date, the
  rest of its bytes as they were (a report's map is drawn when it is sent, as for any
  mail). The copy's Message-ID is keyed ``requeue:<mail>``, so a mail is queued again
  once: asked again, while the copy waits or after it went, gm refuses and says where the
  copy is; a copy that failed in turn is itself an undelivered mail, queued again by its
  own number. A mail that carried a password is not queued again (its stored copy is
  masked once it failed: ``SEND PASSWORD`` makes a new one). A private moderator act (it
  names addresses), ``gm history GAME --private``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, func, select

from gm.clock import utc
from gm.db.models import EventLog, Game, ModeratorAct, OutboundMail, Seat
from gm.db.upsert import insert_or_ignore
from gm.i18n import Text, msg, when
from gm.mail.compose import make_message_id, readdressed
from gm.service.context import ServiceContext
from gm.service.errors import Conflict, NotFound, ServiceError
from gm.service.outbox import PASSWORD_KINDS
from gm.service.secret import message_id_secret

EVENT = "mail.failed"
"""The private event a game's undelivered mail leaves in its log (:func:`note_failure`)."""


@dataclass(frozen=True)
class Copy:
    """A mail queued again: its outbox number, where it goes, and how it fared."""

    id: int
    to: list[str]
    status: str
    sent_at: datetime | None


@dataclass(frozen=True)
class Undelivered:
    """One mail gm could not deliver, as ``gm mod mails --undelivered`` lists it."""

    id: int
    queued_at: datetime
    kind: str
    to: list[str]
    powers: list[str]  # the seats its addresses held when it failed
    subject: str
    error: str
    attempts: int
    again: Copy | None  # its copy, once queued again


@dataclass(frozen=True)
class Requeued:
    """What :func:`requeue` did: ``mail`` is queued again as ``copy``, from ``old`` to ``new``."""

    mail: int
    copy: int
    kind: str
    subject: str
    old: list[str]
    new: list[str]


def note_failure(ctx: ServiceContext, session: Session, row: OutboundMail, game: Game) -> None:
    """Record, when ``row`` (a mail of ``game``) fails for good, which seats its addresses
    held: the private ``mail.failed`` event :func:`requeue` follows to the seats' new
    addresses."""
    from gm.service.games import current_phase
    from gm.service.phases import log_event

    held = _seats_holding(session, game.id, row.recipients or [])
    try:
        phase = current_phase(session, game.id)
        seq, branch = phase.seq, phase.dice_branch
    except ServiceError:  # a forming game has no phase yet
        seq, branch = 0, 0
    log_event(ctx, session, game.id, seq, branch, EVENT,
              {"mail": row.id, "kind": row.kind, "subject": row.subject,
               "addresses": list(row.recipients or []), "seats": held,
               "error": row.last_error, "attempts": row.attempts}, visible_to=[])


def undelivered(ctx: ServiceContext, session: Session, game_id: str,
                last: int = 20) -> list[Undelivered]:
    """The latest ``last`` mails of ``game_id`` that could not be delivered, oldest first."""
    rows = list(session.exec(select(OutboundMail).where(
        OutboundMail.game_id == game_id, OutboundMail.status == "failed")
        .order_by(col(OutboundMail.id).desc()).limit(last)))
    out = []
    for row in reversed(rows):
        held = _held_then(session, row)
        copy = _copy_of(ctx, session, row)
        out.append(Undelivered(
            int(row.id or 0), row.created_at, row.kind, list(row.recipients or []),
            sorted(set(held.values())), row.subject, row.last_error, row.attempts,
            Copy(int(copy.id or 0), list(copy.recipients or []), copy.status, copy.sent_at)
            if copy is not None else None))
    return out


def requeue(ctx: ServiceContext, session: Session, mail_id: int, *, actor: str,
            game: Game | None = None, reason: str = "") -> Requeued:
    """Queue mail ``mail_id`` again, once, to the seats' current addresses (module doc).

    ``game``: the game whose moderator asks (by mail): only its own mails. Every refusal
    raises before anything changes."""
    row = session.get(OutboundMail, mail_id)
    if row is None or (game is not None and row.game_id != game.id):
        raise NotFound(msg("game {game} has no mail {mail} in its outbox", game=game.id,
                           mail=mail_id) if game is not None
                       else msg("there is no mail {mail} in the outbox", mail=mail_id))
    if row.status != "failed":
        raise Conflict(_not_failed(row))
    copy = _copy_of(ctx, session, row)
    if copy is not None:
        raise Conflict(_queued_before(row, copy))
    held = _held_then(session, row)
    if row.kind in PASSWORD_KINDS:
        power = next(iter(held.values()), "<power>")
        raise Conflict(msg("mail {mail} carried a password, which gm does not keep once the "
                           "mail failed: SEND PASSWORD {power} (after the line GAME {game}) "
                           "mails a new one to the seat's address; nothing was queued",
                           mail=mail_id, power=power, game=row.game_id or "<game>"))
    old = list(row.recipients or [])
    new = _addresses_now(session, row.game_id, old, held)
    now = ctx.clock.now()
    message_id = _copy_id(ctx, session, row)
    again = OutboundMail(
        message_id=message_id, game_id=row.game_id, kind=row.kind, recipients=new,
        subject=row.subject, raw=readdressed(row.raw, to=new, message_id=message_id, date=now),
        status="queued", in_reply_to=row.in_reply_to, created_at=now, next_attempt_at=now)
    copy_id = insert_or_ignore(session, again, ["message_id"])
    if copy_id is None:  # another requeue of it at this very moment
        raise Conflict(_queued_before(row, _copy_of(ctx, session, row)))
    mailed = session.get(Game, row.game_id) if row.game_id else None
    if mailed is not None and mailed.status != "forming":  # a forming game has no history
        from gm.service.moderator import record_act

        record_act(ctx, session, mailed, actor=actor, command="requeue",
                   args={"mail": mail_id, "copy": copy_id, "kind": row.kind,
                         "old_address": ", ".join(old), "new_address": ", ".join(new)},
                   reason=reason, private=True)
    return Requeued(mail_id, copy_id, row.kind, row.subject, old, new)


def _not_failed(row: OutboundMail) -> Text:
    """Why a mail that did not fail is not queued again."""
    if row.status == "sent":
        return msg("mail {mail} was sent ({when}): only a mail that could not be delivered "
                   "is queued again; nothing changed", mail=row.id,
                   when=when(utc(row.sent_at)) if row.sent_at else "-")
    if row.status == "held":
        return msg("mail {mail} is held for your review: RELEASE sends it; nothing changed",
                   mail=row.id)
    if row.status == "withdrawn":
        return msg("mail {mail} was withdrawn and is never sent; nothing changed", mail=row.id)
    return msg("mail {mail} is still queued: gm is sending it; nothing changed", mail=row.id)


def _queued_before(row: OutboundMail, copy: OutboundMail | None) -> Text:
    """Why a mail queued again once is not queued again."""
    if copy is None:  # not seen from here yet: another transaction holds it
        return msg("mail {mail} is being queued again already; nothing changed", mail=row.id)
    to = ", ".join(copy.recipients or [])
    if copy.status == "sent":
        return msg("mail {mail} was sent again already, as mail {copy} to {to} ({when}); "
                   "nothing changed", mail=row.id, copy=copy.id, to=to,
                   when=when(utc(copy.sent_at)) if copy.sent_at else "-")
    if copy.status == "failed":
        return msg("mail {mail} was queued again already, as mail {copy} to {to}, which could "
                   "not be delivered either: queue mail {copy} again instead; nothing changed",
                   mail=row.id, copy=copy.id, to=to)
    return msg("mail {mail} is queued again already, as mail {copy} to {to}; nothing changed",
               mail=row.id, copy=copy.id, to=to)


def _copy_id(ctx: ServiceContext, session: Session, row: OutboundMail) -> str:
    """The Message-ID of ``row``'s copy: keyed ``requeue:<id>`` (gm.service.outbox), in the
    domain of ``row``'s own, so that ``gm mod requeue`` run without the daemon's config
    (``gm --db URL``) finds the copy the daemon's ``REQUEUE`` made, and the reverse."""
    domain = row.message_id.rstrip(">").rpartition("@")[2] or ctx.mail_domain
    return make_message_id(f"requeue:{row.id}", domain, message_id_secret(ctx, session))


def _copy_of(ctx: ServiceContext, session: Session, row: OutboundMail) -> OutboundMail | None:
    """``row``'s copy, if it was queued again."""
    message_id = _copy_id(ctx, session, row)
    return session.exec(select(OutboundMail).where(OutboundMail.message_id == message_id)).first()


def _seats_holding(session: Session, game_id: str, addresses: list[str]) -> dict[str, str]:
    """{address, lower case: power} of the seats of ``game_id`` at ``addresses`` now."""
    wanted = [a.lower() for a in addresses]
    rows = session.exec(select(Seat.address, Seat.power).where(
        Seat.game_id == game_id, func.lower(col(Seat.address)).in_(wanted)).order_by(
            col(Seat.power)))
    held: dict[str, str] = {}
    for address, power in rows:
        held.setdefault(address.lower(), power)
    return held


def _held_then(session: Session, row: OutboundMail) -> dict[str, str]:
    """{address, lower case: power}: the seats ``row``'s addresses held when it failed.

    From its ``mail.failed`` event; a mail that failed before gm kept one: the seats at
    those addresses now, and a seat a moderator act (``gm mod address``, ``REPLACE POWER``)
    moved away from one of them."""
    if row.game_id is None:
        return {}
    events = session.exec(select(EventLog.data).where(
        EventLog.game_id == row.game_id, EventLog.type == EVENT).order_by(col(EventLog.seq)))
    for data in events:
        if (data or {}).get("mail") == row.id:
            return {str(a): str(p) for a, p in ((data or {}).get("seats") or {}).items()}
    addresses = list(row.recipients or [])
    held = _seats_holding(session, row.game_id, addresses)
    acts = session.exec(select(ModeratorAct.args).where(
        ModeratorAct.game_id == row.game_id, col(ModeratorAct.command).in_(("address", "replace")),
        ModeratorAct.at >= row.created_at).order_by(col(ModeratorAct.id)))
    for args in acts:
        moved_from = str((args or {}).get("old_address") or "").lower()
        if moved_from in (a.lower() for a in addresses):
            held.setdefault(moved_from, str((args or {}).get("power")))
    return held


def _addresses_now(session: Session, game_id: str | None, old: list[str],
                   held: dict[str, str]) -> list[str]:
    """Where each of ``old`` goes now: the current address of the seat it held, or itself
    (an address that held no seat: an observer, the moderator, a stranger answered)."""
    new = []
    for address in old:
        power = held.get(address.lower())
        if power is None or game_id is None:
            new.append(address)
            continue
        seat = session.exec(select(Seat).where(Seat.game_id == game_id,
                                               Seat.power == power)).first()
        if seat is None or not seat.active or not seat.address:
            raise Conflict(msg("{power} has no player to send it to; nothing was sent",
                               power=power))
        new.append(seat.address)
    return [a for a in dict.fromkeys(new) if a]

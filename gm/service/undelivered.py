"""Mail gm could not deliver, and sending it again once the address is mended.

A mail does not reach an address when

* the SMTP server refused it for good (a 5xx, every recipient refused, or a 4xx at its
  last attempt): gm.pipeline.dispatch marks it ``failed``;
* the SMTP server refused some of its recipients for good (a 5xx to ``RCPT``) and took it
  for the others: it counts as ``sent``, those recipients alone did not get it;
* the SMTP server took it and a bounce came back later (a DSN, gm.service.bounces) saying
  it failed for an address: it stays ``sent``, that address did not get it.

Each is recorded in the game's log, as a private event: :func:`note_failure` writes
``mail.failed`` (the addresses refused, and which seats they held then: the address
changes after), gm.service.bounces ``mail.bounced``. The game's moderator is told once,
the notice naming the mail's outbox number and how to send it again. The moderator fixes
the seat's address (``gm mod address``, ``POWER south`` + ``SET ADDRESS``), then:

* **lists** the game's undelivered mails (:func:`undelivered`, ``gm mod mails GAME
  --undelivered``): number, kind, the addresses that did not get it and their seats,
  subject, the server's words, and whether it was queued again;
* **queues one again** (:func:`requeue`, ``gm mod requeue MAIL``, by mail ``REQUEUE
  MAIL``): for each address that did not get it, a copy of the very mail to the current
  address of the seat that address held (itself, if it held none), with its own
  Message-ID and today's date, the rest of its bytes as they were (a report's map is drawn
  when it is sent, as for any mail). Never to the addresses that got it. A copy's
  Message-ID is keyed ``requeue:<mail>:<address>``, so a mail goes again once to each
  address that missed it: asked again, while the copy waits or after it went, gm refuses
  and says where the copy is (an address that missed it later, a bounce come after the
  requeue, is still sent to); a copy that failed in turn is itself an undelivered mail,
  queued again by its own number. A mail that carried a password is not queued again
  (its stored copy is masked once it was sent or failed: ``SEND PASSWORD`` makes a new
  one). A private moderator act (it names addresses), ``gm history GAME --private``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

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
BOUNCED = "mail.bounced"
"""The private event a bounce of a game's mail leaves in its log (gm.service.bounces)."""


@dataclass(frozen=True)
class Copy:
    """A mail queued again: its outbox number, where it goes, and how it fared."""

    id: int
    to: list[str]
    status: str
    sent_at: datetime | None


@dataclass(frozen=True)
class Missed:
    """An address a mail did not reach: the seat it held then, what the server said
    ("failed: ..." when it refused it, "bounced: ..." when it sent it back), and its copy,
    once queued again."""

    address: str
    power: str | None
    said: str
    again: Copy | None


@dataclass(frozen=True)
class Undelivered:
    """One mail gm could not deliver to some or all of its addresses, as ``gm mod mails
    --undelivered`` lists it."""

    id: int
    queued_at: datetime
    kind: str
    status: str  # failed (to all), sent (the others got it)
    subject: str
    attempts: int
    missed: list[Missed]
    got: list[str]  # the addresses it was sent to that did get it, as far as gm knows

    @property
    def to(self) -> list[str]:
        """The addresses that did not get it."""
        return [m.address for m in self.missed]

    @property
    def powers(self) -> list[str]:
        """The seats those addresses held."""
        return sorted({m.power for m in self.missed if m.power})


@dataclass(frozen=True)
class Again:
    """One copy :func:`requeue` queued: its number, the address that missed the mail, and
    where the copy goes."""

    copy: int
    old: str
    new: str


@dataclass(frozen=True)
class Requeued:
    """What :func:`requeue` did: ``mail`` is queued again as ``copies``."""

    mail: int
    kind: str
    subject: str
    copies: list[Again]


def note_failure(ctx: ServiceContext, session: Session, row: OutboundMail, game: Game, *,
                 refused: dict[str, str] | None = None) -> None:
    """Record, when ``row`` (a mail of ``game``) fails for good, which seats its addresses
    held: the private ``mail.failed`` event :func:`requeue` follows to the seats' new
    addresses. ``refused``: the mail went to the others, and these addresses alone were
    refused (address -> what the server said)."""
    from gm.service.games import current_phase
    from gm.service.phases import log_event

    addresses = list(refused) if refused is not None else list(row.recipients or [])
    held = _seats_holding(session, game.id, addresses)
    try:
        phase = current_phase(session, game.id)
        seq, branch = phase.seq, phase.dice_branch
    except ServiceError:  # a forming game has no phase yet
        seq, branch = 0, 0
    data: dict[str, Any] = {"mail": row.id, "kind": row.kind, "subject": row.subject,
                            "addresses": addresses, "seats": held, "attempts": row.attempts,
                            "error": row.last_error}
    if refused is not None:
        data["refused"] = {a.lower(): said for a, said in refused.items()}
        data["error"] = "; ".join(f"{a}: {said}" for a, said in refused.items())
    log_event(ctx, session, game.id, seq, branch, EVENT, data, visible_to=[])


def waiting_for_retry(session: Session, game_id: str) -> int:
    """How many of ``game_id``'s mails are still queued after the mail server failed them
    (down, gm's login refused, a 4xx): not undelivered, not sent yet (gm.pipeline.dispatch
    tries them again)."""
    return int(session.exec(select(func.count()).select_from(OutboundMail).where(
        OutboundMail.game_id == game_id, col(OutboundMail.status) == "queued",
        col(OutboundMail.attempts) > 0)).one())


def undelivered(ctx: ServiceContext, session: Session, game_id: str,
                last: int = 20) -> list[Undelivered]:
    """The latest ``last`` mails of ``game_id`` that did not reach some or all of their
    addresses, oldest first."""
    events = _failure_events(session, game_id)
    rows = list(session.exec(select(OutboundMail).where(
        OutboundMail.game_id == game_id,
        (col(OutboundMail.status) == "failed") | col(OutboundMail.id).in_(list(events)))
        .order_by(col(OutboundMail.id).desc()).limit(last)))
    out = []
    for row in reversed(rows):
        found = events.get(int(row.id or 0), [])
        held = _held_then(session, row, found)
        missed = _missed(row, found)
        copies = _copies(ctx, session, row, list(missed))
        out.append(Undelivered(
            int(row.id or 0), row.created_at, row.kind, row.status, row.subject, row.attempts,
            [Missed(address, held.get(key), said, _as_copy(copies.get(key)))
             for key, (address, said) in missed.items()],
            [a for a in row.recipients or [] if a.lower() not in missed]
            if row.status == "sent" else []))
    return [u for u in out if u.missed]


def requeue(ctx: ServiceContext, session: Session, mail_id: int, *, actor: str,
            game: Game | None = None, reason: str = "") -> Requeued:
    """Queue mail ``mail_id`` again, once, to the current addresses of the seats that did
    not get it (module doc).

    ``game``: the game whose moderator asks (by mail): only its own mails. Every refusal
    raises before anything changes."""
    row = session.get(OutboundMail, mail_id)
    if row is None or (game is not None and row.game_id != game.id):
        raise NotFound(msg("game {game} has no mail {mail} in its outbox", game=game.id,
                           mail=mail_id) if game is not None
                       else msg("there is no mail {mail} in the outbox", mail=mail_id))
    found = _failure_events(session, row.game_id, row.id) if row.game_id else {}
    events = found.get(int(row.id or 0), [])
    missed = _missed(row, events)
    if not missed:
        raise Conflict(_not_failed(row))
    copies = _copies(ctx, session, row, list(missed))
    todo = [key for key in missed if key not in copies]
    if not todo:
        raise Conflict(_queued_before(row, list(copies.values())))
    held = _held_then(session, row, events)
    if row.kind in PASSWORD_KINDS:
        power = held.get(todo[0], "<power>")
        raise Conflict(msg("mail {mail} carried a password, which gm does not keep once the "
                           "mail failed: SEND PASSWORD {power} (after the line GAME {game}) "
                           "mails a new one to the seat's address; nothing was queued",
                           mail=mail_id, power=power, game=row.game_id or "<game>"))
    plans = [(missed[key][0], _address_now(session, row.game_id, missed[key][0], held))
             for key in todo]  # every refusal raises before a copy is queued
    now = ctx.clock.now()
    done = []
    for old, new in plans:
        message_id = _copy_id(ctx, session, row, old)
        again = OutboundMail(
            message_id=message_id, game_id=row.game_id, kind=row.kind, recipients=[new],
            subject=row.subject, raw=readdressed(row.raw, to=[new], message_id=message_id,
                                                 date=now),
            status="queued", in_reply_to=row.in_reply_to, created_at=now, next_attempt_at=now)
        copy_id = insert_or_ignore(session, again, ["message_id"])
        if copy_id is not None:  # else another requeue of it queued this one at this moment
            done.append(Again(copy_id, old, new))
    if not done:
        raise Conflict(_queued_before(row, list(_copies(ctx, session, row, todo).values())))
    mailed = session.get(Game, row.game_id) if row.game_id else None
    if mailed is not None and mailed.status != "forming":  # a forming game has no history
        from gm.service.moderator import record_act

        for one in done:
            record_act(ctx, session, mailed, actor=actor, command="requeue",
                       args={"mail": mail_id, "copy": one.copy, "kind": row.kind,
                             "old_address": one.old, "new_address": one.new},
                       reason=reason, private=True)
    return Requeued(mail_id, row.kind, row.subject, done)


def _not_failed(row: OutboundMail) -> Text:
    """Why a mail that reached every address is not queued again."""
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


def _queued_before(row: OutboundMail, copies: list[OutboundMail]) -> Text:
    """Why a mail queued again, once for each address that missed it, is not queued again."""
    if not copies:  # not seen from here yet: another transaction holds them
        return msg("mail {mail} is being queued again already; nothing changed", mail=row.id)
    return sentences([_copy_said(row, copy) for copy in copies])


def sentences(said: list[Text]) -> Text:
    """Several messages as one, each said in the reader's language (a mail that missed
    several addresses has a copy for each)."""
    if len(said) == 1:
        return said[0]
    return Text(" ".join(f"{{s{n}}}" for n in range(len(said))),
                **{f"s{n}": s for n, s in enumerate(said)})


def _copy_said(row: OutboundMail, copy: OutboundMail) -> Text:
    """Where one copy of ``row`` is, and that nothing changed."""
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


def _copy_id(ctx: ServiceContext, session: Session, row: OutboundMail, address: str) -> str:
    """The Message-ID of ``row``'s copy for ``address`` (one that did not get it): keyed
    ``requeue:<id>:<address>`` (gm.service.outbox), in the domain of ``row``'s own, so that
    ``gm mod requeue`` run without the daemon's config (``gm --db URL``) finds the copy the
    daemon's ``REQUEUE`` made, and the reverse."""
    domain = row.message_id.rstrip(">").rpartition("@")[2] or ctx.mail_domain
    return make_message_id(f"requeue:{row.id}:{address.lower()}", domain,
                           message_id_secret(ctx, session))


def _copies(ctx: ServiceContext, session: Session, row: OutboundMail,
            keys: list[str]) -> dict[str, OutboundMail]:
    """{address, lower case: its copy} for those of ``keys`` (addresses that did not get
    ``row``) it was queued again for."""
    ids = {_copy_id(ctx, session, row, key): key for key in keys}
    if not ids:
        return {}
    found = session.exec(select(OutboundMail).where(col(OutboundMail.message_id).in_(list(ids))))
    return {ids[copy.message_id]: copy for copy in found}


def _as_copy(copy: OutboundMail | None) -> Copy | None:
    if copy is None:
        return None
    return Copy(int(copy.id or 0), list(copy.recipients or []), copy.status, copy.sent_at)


def _failure_events(session: Session, game_id: str | None,
                    mail_id: int | None = None) -> dict[int, list[tuple[str, dict[str, Any]]]]:
    """{mail: its ``mail.failed`` and ``mail.bounced`` events (type, data), in order} in
    ``game_id``'s log; only ``mail_id``'s if given."""
    if game_id is None:
        return {}
    events = session.exec(select(EventLog.type, EventLog.data).where(
        EventLog.game_id == game_id, col(EventLog.type).in_((EVENT, BOUNCED)))
        .order_by(col(EventLog.seq)))
    found: dict[int, list[tuple[str, dict[str, Any]]]] = {}
    for type_, data in events:
        mail = (data or {}).get("mail")
        if isinstance(mail, int) and (mail_id is None or mail == mail_id):
            found.setdefault(mail, []).append((type_, dict(data or {})))
    return found


def _missed(row: OutboundMail,
            events: list[tuple[str, dict[str, Any]]]) -> dict[str, tuple[str, str]]:
    """{address, lower case: (address, what the server said)}: the addresses ``row`` did
    not reach, refused (its ``mail.failed`` events; a mail that failed before gm kept them:
    all its recipients) or bounced (its ``mail.bounced`` events)."""
    missed: dict[str, tuple[str, str]] = {}
    for type_, data in events:
        if type_ == EVENT:
            said = data.get("refused") or {}
            for address in data.get("addresses") or []:
                words = said.get(str(address).lower()) or data.get("error") or "?"
                missed.setdefault(str(address).lower(), (str(address), f"failed: {words}"))
        elif data.get("action", "failed") == "failed" and data.get("address"):
            address = str(data["address"])
            words = " ".join(str(x) for x in (data.get("status"), data.get("diagnostic")) if x)
            missed.setdefault(address.lower(), (address, f"bounced: {words or '?'}"))
    if row.status == "failed" and not any(t == EVENT for t, _ in events):
        for address in row.recipients or []:
            missed.setdefault(address.lower(), (address, f"failed: {row.last_error or '?'}"))
    return missed


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


def _held_then(session: Session, row: OutboundMail,
               events: list[tuple[str, dict[str, Any]]]) -> dict[str, str]:
    """{address, lower case: power}: the seats ``row``'s addresses held when it failed
    (its ``mail.failed`` events) or bounced (its ``mail.bounced`` events).

    A mail that failed before gm kept them: the seats at those addresses now, and a seat
    a moderator act (``gm mod address``, ``REPLACE POWER``) moved away from one of them."""
    if row.game_id is None:
        return {}
    held: dict[str, str] = {}
    for type_, data in events:
        if type_ == EVENT:
            for address, power in (data.get("seats") or {}).items():
                held.setdefault(str(address).lower(), str(power))
        elif data.get("address") and data.get("powers"):
            held.setdefault(str(data["address"]).lower(), str(data["powers"][0]))
    if any(t == EVENT for t, _ in events) or row.status != "failed":
        return held
    addresses = list(row.recipients or [])
    held.update(_seats_holding(session, row.game_id, addresses))
    acts = session.exec(select(ModeratorAct.args).where(
        ModeratorAct.game_id == row.game_id, col(ModeratorAct.command).in_(("address", "replace")),
        ModeratorAct.at >= row.created_at).order_by(col(ModeratorAct.id)))
    for args in acts:
        moved_from = str((args or {}).get("old_address") or "").lower()
        if moved_from in (a.lower() for a in addresses):
            held.setdefault(moved_from, str((args or {}).get("power")))
    return held


def _address_now(session: Session, game_id: str | None, old: str, held: dict[str, str]) -> str:
    """Where ``old`` (an address that did not get the mail) is sent to now: the current
    address of the seat it held, or itself (an address that held no seat: an observer, the
    moderator, a stranger answered)."""
    power = held.get(old.lower())
    if power is None or game_id is None:
        return old
    seat = session.exec(select(Seat).where(Seat.game_id == game_id, Seat.power == power)).first()
    if seat is None or not seat.active or not seat.address:
        raise Conflict(msg("{power} has no player to send it to; nothing was sent", power=power))
    return seat.address

"""A mail of gm's that bounced after the SMTP hand-over: the moderator hears of it.

A mail the SMTP server took can still fail later (the mailbox is gone or full, the user
unknown, found by the receiving side). The bounce comes back to gm's mailbox, where
gm.mail.classify calls it a bounce; gm.pipeline.handle stores it, never answers it, and
hands it here. :func:`take_bounce` reads it (gm.mail.dsn) and, for each recipient it
says *failed* (``Action: failed`` in a DSN; a plain bounce that is not a delay warning):

* only if it is a mail gm sent: the returned Message-ID is an outbox row's, and (for a
  DSN) the failed recipient is one of that row's recipients. A forged or foreign bounce
  tells nobody, and neither does a delayed, delivered, relayed or expanded one;
* once per mail and recipient: the notice is queued under the key
  ``bounce:<outbox id>:<address>`` (the same bounce twice, or one from each of several
  servers, finds it queued), and for a game's mail the ``mail.bounced`` event is looked
  for too (a game whose moderator has no address);
* once per seat's address for a failure for good (a ``5.x.x`` status): the first such
  bounce marks the game's seats that address holds as bouncing (gm.service.bouncing) and
  is told; later ones to that marked address are logged (the event, with ``told``
  false) and counted on the seat, not told, until the mark is cleared (the address
  changes, or a mail from it signs on as the seat);
* sent again by ``gm mod requeue MAIL`` (gm.service.undelivered): the notice says so, and
  ``gm mod mails GAME --undelivered`` lists the game's mails that bounced (from their
  ``mail.bounced`` events), the later ones to a marked address too;
* never about a bounce notice itself (its kind is :data:`NOTICE_KIND`), and never to the
  address that failed: the moderator's own address failing makes no loop;
* to the game's moderator for a game's mail, in the game's ``moderator_language``, else to
  those gm.pipeline.handle tells of a mail of no game, each in the language of their
  notices (:func:`gm.service.notify.moderators_by_language`); with nobody to tell, the
  log line and the event are all there is.

A game's bounce is also a private ``mail.bounced`` event in its log (``gm history GAME
--private`` lists it), and the inbound row's note says what it was about.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select as sa_select
from sqlmodel import Session, col, func, select

from gm.clock import utc
from gm.db.core import run, table
from gm.db.models import EventLog, Game, OutboundMail, Seat
from gm.i18n import Text, msg, translate
from gm.l10n import moment
from gm.mail.dsn import Bounce, Failure, read_bounce
from gm.service.bouncing import bouncing, count_again, mark, permanent
from gm.service.context import ServiceContext
from gm.service.errors import ServiceError
from gm.service.games import current_phase
from gm.service.notify import moderator_address, moderator_language, moderators_by_language
from gm.service.observers import observers
from gm.service.outbox import PASSWORD_KINDS, message_id_for, queue_mail
from gm.service.phases import log_event
from gm.service.undelivered import BOUNCED

log = logging.getLogger("gm.bounces")

NOTICE_KIND = "bounce-notice"
"""The outbox kind of the moderator's notice of a bounce: a bounce of one tells nobody."""
EVENT = BOUNCED
"""The event logged in the game of the mail that bounced (private: the moderator's)."""


@dataclass(frozen=True)
class Returned:
    """The outbox row a bounce names: what the notice says of the mail."""

    id: int
    kind: str
    game_id: str | None
    recipients: tuple[str, ...]
    subject: str
    sent_at: datetime | None


@dataclass(frozen=True)
class BounceOutcome:
    """What became of a bounce of one of gm's mails."""

    note: str  # for the inbound row: "bounce of mail 12 to x@y: 5.1.1 ..."
    game_id: str | None  # the game of the mail that came back


def take_bounce(ctx: ServiceContext, session: Session, raw: bytes, *,
                inbound_id: int) -> BounceOutcome | None:
    """Read the bounce ``raw`` (stored as inbound mail ``inbound_id``); for each recipient of
    gm's mail it says failed, log it and queue the moderator's notice once. None if it
    names no mail gm sent."""
    bounce = read_bounce(raw)
    row = _returned(session, bounce.message_ids)
    if row is None:
        return None
    failures = bounce.failures(row.recipients)
    if not failures:
        return BounceOutcome(_not_failed(row, bounce), row.game_id)
    game = session.get(Game, row.game_id) if row.game_id else None
    notes = [_tell(ctx, session, row, game, bounce, failure, inbound_id) for failure in failures]
    return BounceOutcome("; ".join(notes)[:1000], row.game_id)


def _returned(session: Session, ids: tuple[str, ...]) -> Returned | None:
    """The outbox row of the first of ``ids`` that gm sent (its raw bytes not read)."""
    wanted = [i for i in ids if i][:20]
    if not wanted:
        return None
    t = table(OutboundMail).c
    found = {r[0]: r for r in run(session, sa_select(
        t.message_id, t.id, t.kind, t.game_id, t.recipients, t.subject, t.sent_at).where(
            t.message_id.in_(wanted)))}
    for i in wanted:
        if i in found:
            _, id_, kind, game_id, recipients, subject, sent_at = found[i]
            assert id_ is not None
            return Returned(id_, kind, game_id, tuple(recipients or ()), subject, sent_at)
    return None


def _said(failure: Failure) -> str:
    """The status and the server's words, as one line."""
    s = failure.status
    return " ".join(x for x in (s.status, s.diagnostic) if x) or "no reason given"


def _not_failed(row: Returned, bounce: Bounce) -> str:
    """The note of a bounce of gm's mail that fails none of its recipients."""
    sent_to = {a.lower() for a in row.recipients}
    said = [f"{b.final_recipient or b.original_recipient} {b.action or '?'}"
            + (f" ({b.status})" if b.status else "")
            for b in bounce.recipients if set(b.addresses()) & sent_to]
    if bounce.delayed:
        said.append("a delay warning")
    what = ", ".join(said) or "no recipient of it failed"
    return f"bounce of mail {row.id}: {what}; nobody told"[:1000]


def _tell(ctx: ServiceContext, session: Session, row: Returned, game: Game | None, bounce: Bounce,
          failure: Failure, inbound_id: int) -> str:
    """Log and tell one failed recipient of ``row`` (once); what the inbound note says of it."""
    address = failure.address
    note = f"bounce of mail {row.id} to {address}: {_said(failure)}"
    if row.kind == NOTICE_KIND:
        log.warning("the bounce notice %s to %s bounced (%s): nobody told", row.id, address,
                    _said(failure))
        return f"{note} (a bounce notice: nobody told)"
    key = f"bounce:{row.id}:{address.lower()}"
    if _told_before(ctx, session, row, address, key):
        return f"{note} (told before)"
    seats = _seats(session, row.game_id, address)
    marked = _seats_to_mark(session, game, address, failure)
    if marked and all(bouncing(s) is not None for s in marked):
        return _marked_before(ctx, session, game, row, failure, seats, bounce, inbound_id,
                              marked, note)
    for seat in marked:
        mark(seat, at=ctx.clock.now(), mail=row.id, said=_said(failure))
        session.add(seat)
    if game is not None:
        _log_event(ctx, session, game, row, failure, seats, bounce, inbound_id)
    # a game's mail: its moderator, in the game's language; a mail of no game: the service's
    # moderator (English) and those of the games the address plays in, each in its own
    groups = ({moderator_language(game): [moderator_address(ctx, game)]} if game is not None
              else moderators_by_language(ctx, session, address))
    groups = {language: kept for language, wanted in groups.items()
              if (kept := [a for a in dict.fromkeys(wanted) if a and a.lower() != address.lower()])}
    told = [a for wanted in groups.values() for a in wanted]
    log.warning("mail %s (%s, %s) to %s bounced: %s; told %s", row.id, row.kind,
                row.game_id or "no game", address, _said(failure), ", ".join(told) or "nobody")
    about = row.subject.removeprefix(f"[{game.id}] ") if game is not None else row.subject
    for n, (language, to) in enumerate(groups.items()):  # the first under ``key`` (told before)
        subject = translate(msg("mail to {address} bounced: {subject}", address=address,
                                subject=about), language)
        queue_mail(ctx, session, game_id=game.id if game else None, kind=NOTICE_KIND, to=to,
                   subject=f"[{game.id}] {subject}" if game else subject,
                   text=_notice(row, game, bounce, failure, seats, language,
                                marked=bool(marked)), key=key if n == 0 else f"{key}:{language}")
    return note


def _seats_to_mark(session: Session, game: Game | None, address: str,
                   failure: Failure) -> list[Seat]:
    """The seats of ``game`` that ``address`` holds, when its failure is for good (5.x.x):
    their rows locked (on PostgreSQL a second bounce taken at the same moment waits, then
    finds them marked). A mail of no game, or a failure that may pass (4.x.x, no status),
    marks nothing."""
    if game is None or not permanent(failure.status.status):
        return []
    return list(session.exec(select(Seat).where(
        Seat.game_id == game.id, func.lower(col(Seat.address)) == address.lower()).order_by(
            col(Seat.power)).with_for_update()))


def _marked_before(ctx: ServiceContext, session: Session, game: Game | None, row: Returned,
                   failure: Failure, seats: list[tuple[str, str]], bounce: Bounce,
                   inbound_id: int, marked: list[Seat], note: str) -> str:
    """A hard bounce to an address its seats already mark as bouncing: counted and logged,
    the moderator not told again (told of the first one)."""
    for seat in marked:
        count_again(seat)
        session.add(seat)
    if game is not None:
        _log_event(ctx, session, game, row, failure, seats, bounce, inbound_id, told=False)
    first = bouncing(marked[0])
    since = f"{utc(first.since):%Y-%m-%d %H:%M} UTC" if first and first.since else "before"
    log.warning("mail %s (%s, %s) to %s bounced: %s; the address bounces since %s: "
                "nobody told again", row.id, row.kind, row.game_id, failure.address,
                _said(failure), since)
    return f"{note} (address bouncing since {since}: not told again)"


def _told_before(ctx: ServiceContext, session: Session, row: Returned, address: str, key: str) -> bool:
    """Whether this mail's bounce for ``address`` was taken before: its notice is queued, or
    (a game's mail, which may have had nobody to tell) its event is logged."""
    if session.exec(select(OutboundMail.id).where(
            OutboundMail.message_id == message_id_for(ctx, session, key))).first() is not None:
        return True
    if row.game_id is None:
        return False
    logged = session.exec(select(EventLog.data).where(EventLog.game_id == row.game_id,
                                                      EventLog.type == EVENT))
    return any((d or {}).get("mail") == row.id
               and str((d or {}).get("address", "")).lower() == address.lower() for d in logged)


def _seats(session: Session, game_id: str | None, address: str) -> list[tuple[str, str]]:
    """(game, power) of the seats ``address`` holds: in ``game_id``, or in any game."""
    q = select(Seat.game_id, Seat.power).where(func.lower(col(Seat.address)) == address.lower())
    if game_id is not None:
        q = q.where(Seat.game_id == game_id)
    return sorted((g, p) for g, p in session.exec(q))


def _log_event(ctx: ServiceContext, session: Session, game: Game, row: Returned, failure: Failure,
               seats: list[tuple[str, str]], bounce: Bounce, inbound_id: int, *,
               told: bool = True) -> None:
    try:
        phase = current_phase(session, game.id)
        seq, branch = phase.seq, phase.dice_branch
    except ServiceError:  # a forming game has no phase yet
        seq, branch = 0, 0
    data: dict[str, Any] = {
        "mail": row.id, "kind": row.kind, "subject": row.subject, "address": failure.address,
        "powers": [p for _, p in seats], "action": "failed", "status": failure.status.status,
        "diagnostic": failure.status.diagnostic, "reporting_mta": bounce.reporting_mta,
        "inbound": inbound_id}
    if not told:  # the address was marked bouncing by an earlier mail's bounce
        data["told"] = False
    log_event(ctx, session, game.id, seq, branch, EVENT, data, visible_to=[])


def _notice(row: Returned, game: Game | None, bounce: Bounce, failure: Failure,
            seats: list[tuple[str, str]], language: str, *, marked: bool = False) -> str:
    """The moderator's notice of one failed recipient, in ``language``."""
    def t(text: Text) -> str:
        return translate(text, language)

    address, status = failure.address, failure.status
    mail = msg("Mail: {kind} \"{subject}\" (mail {id} of the outbox, sent {when})",
               kind=row.kind, subject=row.subject, id=row.id,
               when=moment(utc(row.sent_at), "UTC", language)) if row.sent_at else msg(
        "Mail: {kind} \"{subject}\" (mail {id} of the outbox)", kind=row.kind,
        subject=row.subject, id=row.id)
    lines = [f"==== gm notice {game.id} ====" if game else "==== gm notice ====",
             t(msg("A mail gm sent could not be delivered: the mail server took it, and "
                   "later sent it back.")), "", t(mail),
             t(msg("To: {address}", address=address))]
    if status.final_recipient and status.final_recipient.lower() != address.lower():
        lines.append(t(msg("Forwarded to: {address}", address=status.final_recipient)))
    if seats:
        held = [t(msg("{power} in {game}", power=p, game=g)) for g, p in seats]
        lines.append(t(msg("Seat: {seats}", seats="; ".join(held))))
    else:
        lines.append(t(msg("Seat: none ({address} holds no seat)", address=address)))
    lines.append(t(msg("Status: {status}", status=status.status or "-")))
    lines.append(t(msg("The server said: {diagnostic}", diagnostic=status.diagnostic or "-")))
    if bounce.reporting_mta or status.remote_mta:
        lines.append(t(msg("Reported by: {mta}", mta=bounce.reporting_mta or status.remote_mta)))
    lines += ["", t(msg("What can be done:"))]
    for g, p in seats:
        if row.kind in PASSWORD_KINDS:  # the player may not have the password
            lines.append("- " + t(msg(
                "the player did not get the password in that mail: once the mailbox works again, "
                "SEND PASSWORD {power} (after the line GAME {game}) mails a new one to the "
                "seat's address;", game=g, power=p)))
        else:
            lines += [
                "- " + t(msg("once the mailbox works again, the player can write STATUS (after "
                             "the lines GAME {game} and POWER {power} <password>) to get the "
                             "current report again; HISTORY gives an earlier one, ORDERS the "
                             "orders on file;", game=g, power=p)),
                "- " + t(msg("the player can move the seat to a working address with SET "
                             "ADDRESS <new address> in such a mail (both addresses are told);"))]
        lines += [
            "- " + t(msg("you can give the seat to another address: gm mod replace {game} {power} "
                         "<address> (by mail: GAME {game} / MODERATOR <password> / REPLACE POWER "
                         "{power} WITH <address>); a new password and the current report go "
                         "there.", game=g, power=p))]
    if game is not None and seats and row.kind not in PASSWORD_KINDS:
        lines.append("- " + t(msg(
            "once the seat's address works (mended, or moved as above), gm mod requeue {mail} "
            "(by mail: REQUEUE {mail}) sends this very mail again, once, to the seat's "
            "current address, and to no address that got it; gm mod mails {game} "
            "--undelivered (by mail: SHOW MAILS UNDELIVERED) lists the mails that did not "
            "arrive, with their numbers.", mail=row.id, game=game.id)))
    observer = game is not None and address.lower() in (a.lower() for a in observers(game))
    if game is not None and observer:
        lines.append("- " + t(msg("{address} observes {game}; to stop sending it the public "
                                  "reports: gm game observe {game} {address} --stop (by mail: "
                                  "STOP OBSERVER {address})", address=address, game=game.id)))
    if not seats and not observer:
        lines.append("- " + t(msg("nothing is needed: no seat is concerned.")))
    if marked:
        lines += ["", t(msg("The server says this is for good: the seat's address is now "
                            "marked as bouncing (gm game show lists it; by mail: SHOW GAME). gm goes on sending to "
                            "{address}, and later mails to it that bounce are not told again "
                            "until it works again (a mail from it signed on as the seat) or the "
                            "seat's address changes.", address=address))]
        lines += [t(msg("When you learn that it works again (the player emptied the mailbox): "
                        "gm mod unbounce {game} {power} (by mail: UNBOUNCE {power}) takes the "
                        "mark off. The later mails to it that bounce are listed by gm mod mails "
                        "{game} --undelivered (by mail: SHOW MAILS UNDELIVERED), each to be sent "
                        "again by gm mod requeue (by mail: REQUEUE <number>).",
                        game=g, power=p)) for g, p in seats]
    else:
        lines += ["", t(msg("gm changes nothing by itself: later mail to {address} is sent as "
                            "usual, and each mail that bounces is told once.", address=address))]
    return "\n".join(lines) + "\n"

"""What arrived: the stored inbound mails a moderator looks through (``gm mod mails``).

"I sent my orders on Tuesday": the moderator finds the mail (or that none came), what gm
made of it (handled, ignored and why, failed), and its number for ``gm mod retry`` (by
mail ``RETRY``: :func:`retryable`). Only what the inbox row says and the mail's subject:
never its body (it holds a password).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from email.parser import BytesHeaderParser
from email.policy import default

from sqlmodel import Session, col, or_, select

from gm.db.models import Game, InboundMail, Seat
from gm.i18n import msg
from gm.service.errors import Conflict, NotFound


@dataclass(frozen=True)
class Arrived:
    id: int
    received_at: datetime
    sender: str
    subject: str
    status: str  # new, handled, ignored, failed
    game_id: str
    note: str


def arrived(session: Session, game_id: str, *, sender: str | None = None,
            last: int = 20) -> list[Arrived]:
    """The last ``last`` mails of ``game_id``, oldest first; with ``sender`` (part of an
    address, any case) every mail from it, of this game or of none (a mail without its
    GAME line, or unsigned, may not have been tied to the game)."""
    q = select(InboundMail)
    if sender:
        q = q.where(col(InboundMail.sender).ilike(f"%{sender}%"),
                    or_(col(InboundMail.game_id) == game_id, col(InboundMail.game_id).is_(None)))
    else:
        q = q.where(InboundMail.game_id == game_id)
    rows = list(session.exec(q.order_by(col(InboundMail.id).desc()).limit(max(1, last))))
    return [Arrived(int(r.id or 0), r.received_at, r.sender, _subject(r.raw), r.status,
                    r.game_id or "", r.note) for r in reversed(rows)]


def _subject(raw: bytes) -> str:
    try:
        return str(BytesHeaderParser(policy=default).parsebytes(raw).get("subject", ""))[:80]
    except Exception:  # a header gm could not read: the row still shows
        return ""


def retryable(session: Session, game: Game, mail_id: int) -> InboundMail:
    """Inbound mail ``mail_id``, which game ``game``'s moderator may have handled again by
    mail (``RETRY``): one whose handling failed, tied to the game or sent by one of its
    seats or its moderator (the failure notice went to the moderators of the games its
    sender plays). Anything else is refused, and nothing changes: a moderator learns nothing
    of another game's mail, not even that it exists."""
    row = session.get(InboundMail, mail_id)
    if row is None or not _of_game(session, game, row):
        raise NotFound(msg("game {game} has no mail {mail} (of its players or its moderator); "
                           "nothing changed", game=game.id, mail=mail_id))
    if row.status == "handled":
        raise Conflict(msg("mail {mail} was handled already: only a mail whose handling failed "
                           "is handled again; nothing changed", mail=mail_id))
    if row.status != "failed":
        raise Conflict(msg("mail {mail} did not fail ({status}): only a mail whose handling "
                           "failed is handled again; nothing changed", mail=mail_id,
                           status=_status_said(row.status)))
    return row


def _of_game(session: Session, game: Game, row: InboundMail) -> bool:
    if row.game_id is not None:
        return row.game_id == game.id
    sender = row.sender.lower()
    if sender and sender == (game.moderator_address or "").lower():
        return True
    return any((s.address or "").lower() == sender
               for s in session.exec(select(Seat).where(Seat.game_id == game.id)))


def _status_said(status: str) -> str:
    said = {"ignored": msg("ignored"), "new": msg("not handled yet")}
    return said.get(status, status)

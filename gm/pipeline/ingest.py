"""Step one of every inbound mail: store it raw, once, before anything else happens.

A mail is a duplicate when its Message-ID was seen before, or when the same
mailbox (same UIDVALIDITY) hands out the same UID again; duplicates are not
stored twice and never answered twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from gm.db.engine import session_scope
from gm.db.models import InboundMail
from gm.mail.mime import decode
from gm.mail.types import FetchedMail
from gm.service.context import ServiceContext


@dataclass(frozen=True)
class Stored:
    inbound_id: int
    new: bool  # False: seen before (its handling may still be pending)


def _seen(session: Session, fetched: FetchedMail, message_id: str) -> InboundMail | None:
    if fetched.uidvalidity is not None and fetched.uid is not None:
        row = session.exec(select(InboundMail).where(
            InboundMail.source == fetched.source, InboundMail.uidvalidity == fetched.uidvalidity,
            InboundMail.uid == fetched.uid)).first()
        if row is not None:
            return row
    return session.exec(select(InboundMail).where(InboundMail.message_id == message_id)).first()


def store_inbound(ctx: ServiceContext, fetched: FetchedMail) -> Stored:
    """Store ``fetched`` raw (in its own transaction) unless it was stored before."""
    decoded = decode(fetched.raw)
    try:
        with session_scope(ctx.engine) as session:
            existing = _seen(session, fetched, decoded.message_id)
            if existing is not None:
                return Stored(int(existing.id or 0), new=False)
            row = InboundMail(message_id=decoded.message_id, source=fetched.source,
                              uidvalidity=fetched.uidvalidity, uid=fetched.uid,
                              received_at=ctx.clock.now(), sender=decoded.from_addr[:320],
                              raw=fetched.raw)
            session.add(row)
            session.flush()
            return Stored(int(row.id or 0), new=True)
    except IntegrityError:  # a racing instance stored it first
        with session_scope(ctx.engine) as session:
            again = _seen(session, fetched, decoded.message_id)
            assert again is not None
            return Stored(int(again.id or 0), new=False)

"""Step one of every inbound mail: store it raw, once, before anything else happens.

Each mailbox message has a key of its own (:func:`mailbox_key`: the mailbox,
UIDVALIDITY and UID for IMAP, the file's unique name for Maildir), unique in the
database and inserted with ``ON CONFLICT DO NOTHING``: however many instances fetch
the same message at once, one row is stored, and each of them learns its id. A mail
whose Message-ID was seen before (a second copy in the mailbox, a UIDVALIDITY
change) is not stored again either; duplicates are never answered twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from gm.db.engine import session_scope
from gm.db.models import InboundMail
from gm.db.upsert import insert_or_ignore
from gm.mail.mime import decode
from gm.mail.types import FetchedMail
from gm.service.context import ServiceContext


@dataclass(frozen=True)
class Stored:
    inbound_id: int
    new: bool  # False: seen before (its handling may still be pending)


def mailbox_key(fetched: FetchedMail) -> str | None:
    """The unique name of a mailbox message: ``<source>:<uidvalidity>:<uid>`` for IMAP,
    ``<source>:<key>`` (the Maildir file's unique name) otherwise; None if it has none."""
    if fetched.uidvalidity is not None and fetched.uid is not None:
        return f"{fetched.source}:{fetched.uidvalidity}:{fetched.uid}"
    if fetched.key:
        return f"{fetched.source}:{fetched.key}"
    return None


def _seen(session: Session, fetched: FetchedMail, key: str | None,
          message_id: str) -> InboundMail | None:
    if key is not None:
        row = session.exec(select(InboundMail).where(InboundMail.mailbox_key == key)).first()
        if row is not None:
            return row
    if fetched.uidvalidity is not None and fetched.uid is not None:  # stored before the key existed
        # Only rows without a key: one with a key for this message was found above. The
        # mailbox_key index finds those few rows (the columns below have no index: this
        # was a scan of every mail ever stored, for each new mail; issue 21).
        row = session.exec(select(InboundMail).where(
            col(InboundMail.mailbox_key).is_(None),
            InboundMail.source == fetched.source, InboundMail.uidvalidity == fetched.uidvalidity,
            InboundMail.uid == fetched.uid)).first()
        if row is not None:
            return row
    return session.exec(select(InboundMail).where(InboundMail.message_id == message_id)).first()


def store_inbound(ctx: ServiceContext, fetched: FetchedMail) -> Stored:
    """Store ``fetched`` raw (in its own transaction) unless it was stored before."""
    decoded = decode(fetched.raw)
    key = mailbox_key(fetched)
    try:
        with session_scope(ctx.engine) as session:
            existing = _seen(session, fetched, key, decoded.message_id)
            if existing is not None:
                return Stored(int(existing.id or 0), new=False)
            row = InboundMail(message_id=decoded.message_id, mailbox_key=key, source=fetched.source,
                              uidvalidity=fetched.uidvalidity, uid=fetched.uid,
                              received_at=ctx.clock.now(), sender=decoded.from_addr[:320],
                              raw=fetched.raw)
            if key is not None:
                new_id = insert_or_ignore(session, row, ["mailbox_key"])
                if new_id is not None:
                    return Stored(new_id, new=True)
                # Another instance stored this very message a moment ago.
                again = _seen(session, fetched, key, decoded.message_id)
                assert again is not None
                return Stored(int(again.id or 0), new=False)
            session.add(row)
            session.flush()
            return Stored(int(row.id or 0), new=True)
    except IntegrityError:  # no mailbox key, and a racing instance stored it first
        with session_scope(ctx.engine) as session:
            again = _seen(session, fetched, key, decoded.message_id)
            assert again is not None
            return Stored(int(again.id or 0), new=False)


def still_new(ctx: ServiceContext, inbound_id: int) -> bool:
    """Whether mail ``inbound_id`` is still waiting to be handled (then it must not be
    flagged in its mailbox: that would hide it if the instance handling it died)."""
    with session_scope(ctx.engine) as session:
        row = session.get(InboundMail, inbound_id)
        return row is not None and row.status == "new"

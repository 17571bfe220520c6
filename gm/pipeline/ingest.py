"""Step one of every inbound mail: store it raw, once, before anything else happens.

Each mailbox message has a key of its own (:func:`mailbox_key`: the mailbox,
UIDVALIDITY and UID for IMAP, the file's unique name for Maildir), unique in the
database and inserted with ``ON CONFLICT DO NOTHING``: however many instances fetch
the same message at once, one row is stored, and each of them learns its id.

A second copy of a mail (the same Message-ID under another mailbox key: delivered
through two aliases, sent again by its client, fetched again after a UIDVALIDITY
change) is another mailbox message: it is stored too, as a row of its own, and its
claim finds it a duplicate (gm.pipeline.claim), never answered (orders.md §2: duplicates
are stored and never answered). Only a mail without a mailbox key (none of gm's mail
sources; a test's) is known by its Message-ID alone, as the row stored with it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, Select, and_, bindparam, or_, select
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from gm.db.core import run, table
from gm.db.engine import session_scope
from gm.db.models import InboundMail
from gm.db.upsert import insert_values_or_ignore
from gm.mail.mime import DecodedMail, decode
from gm.mail.types import FetchedMail
from gm.pipeline.arrival import arrival
from gm.service.context import ServiceContext


@dataclass(frozen=True)
class Stored:
    inbound_id: int
    new: bool  # False: seen before (its handling may still be pending)
    settled: bool = False  # seen before and no longer new when stored: handled (or ignored,
    # failed) and committed, by this instance or another; only to be flagged (issue 21)


def mailbox_key(fetched: FetchedMail) -> str | None:
    """The unique name of a mailbox message: ``<source>:<uidvalidity>:<uid>`` for IMAP,
    ``<source>:<key>`` (the Maildir file's unique name) otherwise; None if it has none."""
    if fetched.uidvalidity is not None and fetched.uid is not None:
        return f"{fetched.source}:{fetched.uidvalidity}:{fetched.uid}"
    if fetched.key:
        return f"{fetched.source}:{fetched.key}"
    return None


def _seen(session: Session, fetched: FetchedMail, key: str | None,
          message_id: str) -> tuple[int, str] | None:
    """The id and status of the stored row of this mailbox message, if any: the one with its
    mailbox key, else one stored before mailbox keys existed with its UID; for a mail
    without a mailbox key, one with its Message-ID. (Another copy of the mail, under
    another key, is another message: gm.pipeline.claim settles it.)

    One statement (issue 21: these were three, each reading the whole row): each branch
    of the OR is found through an index (mailbox_key, or message_id); the rows stored
    without a key are found through the mailbox_key index too (the UID columns have none:
    this was a scan of every mail ever stored, for each new mail)."""
    with_uid = fetched.uidvalidity is not None and fetched.uid is not None
    rows = run(session, _seen_query(key is not None, with_uid),
               {"message_id": message_id, "key": key, "source": fetched.source,
                "uidvalidity": fetched.uidvalidity, "uid": fetched.uid}).all()
    ranked = []
    for row_id, row_key, source, uidvalidity, uid, status in rows:
        if key is not None and row_key == key:
            kind = 0
        elif row_key is None and fetched.uid is not None and (source, uidvalidity, uid) == (
                fetched.source, fetched.uidvalidity, fetched.uid):
            kind = 1
        else:
            kind = 2  # by its Message-ID (a mail without a mailbox key)
        ranked.append((kind, int(row_id or 0), str(status)))
    if not ranked:
        return None
    _, best, status = min(ranked)  # the best kind, the first stored of it
    return best, status


@functools.cache
def _seen_query(with_key: bool, with_uid: bool) -> Select[int | None, str | None, str, int | None, int | None, str]:
    """:func:`_seen`'s statement, built once (issue 21: building it took 1 ms a mail, its
    execution 0.3), its values bound; Core (gm.db.core)."""
    t = table(InboundMail).c
    match: list[ColumnElement[bool]] = [
        t.mailbox_key == bindparam("key") if with_key else t.message_id == bindparam("message_id")]
    if with_uid:  # stored before the key existed
        match.append(and_(t.mailbox_key.is_(None), t.source == bindparam("source"),
                          t.uidvalidity == bindparam("uidvalidity"), t.uid == bindparam("uid")))
    return (select(t.id, t.mailbox_key, t.source, t.uidvalidity, t.uid, t.status)
            .where(or_(*match)).order_by(t.id))


def store_inbound(ctx: ServiceContext, fetched: FetchedMail) -> Stored:
    """Store ``fetched`` raw (in its own transaction) unless it was stored before."""
    return store_all(ctx, [fetched])[0]


def store_all(ctx: ServiceContext, mails: Sequence[FetchedMail]) -> list[Stored]:
    """Store each of ``mails`` raw unless it was stored before, all in one transaction (a
    daemon's round: one commit, not one a mail, issue 21), in their order.

    Nothing is handled here, so storing several together changes nothing a crash can
    leave behind: a mail stored but not handled is handled when it is fetched again. Two
    instances storing the same messages meet on the mailbox key's unique index (the later
    waits for the earlier's commit on PostgreSQL, then reads its row); both store in
    mailbox order, so neither waits for the other in a cycle. When the transaction fails
    (a racing insert of a mail without a mailbox key), each mail is stored on its own."""
    decoded = [decode(f.raw) for f in mails]
    try:
        with session_scope(ctx.engine) as session:
            return [_store(ctx, session, f, d) for f, d in zip(mails, decoded, strict=True)]
    except IntegrityError:
        if len(mails) > 1:
            return [x for f in mails for x in store_all(ctx, [f])]
        # no mailbox key, and a racing instance stored it first
        with session_scope(ctx.engine) as session:
            again = _seen(session, mails[0], mailbox_key(mails[0]), decoded[0].message_id)
            assert again is not None
            return [Stored(again[0], new=False)]


def _store(ctx: ServiceContext, session: Session, fetched: FetchedMail, decoded: DecodedMail) -> Stored:
    key = mailbox_key(fetched)
    existing = _seen(session, fetched, key, decoded.message_id)
    if existing is not None:
        # This mailbox message, stored before. Already settled (another instance handled
        # it since this one fetched it, or a crash cut off its flag): the caller only flags
        # it, nothing handled twice.
        return Stored(existing[0], new=False, settled=existing[1] != "new")
    values: dict[str, Any] = {  # the row's columns: no InboundMail built (issue 21)
        "message_id": decoded.message_id, "mailbox_key": key, "source": fetched.source,
        "uidvalidity": fetched.uidvalidity, "uid": fetched.uid,
        "received_at": arrival(fetched.arrived, None, ctx.clock.now()),  # lateness counts from it
        "sender": decoded.from_addr[:320], "raw": fetched.raw}
    if key is not None:
        new_id = insert_values_or_ignore(session, InboundMail, values, ["mailbox_key"])
        if new_id is not None:
            return Stored(new_id, new=True)
        # Another instance stored this very message a moment ago.
        again = _seen(session, fetched, key, decoded.message_id)
        assert again is not None
        return Stored(again[0], new=False)
    row = InboundMail(**values)
    session.add(row)
    session.flush()
    return Stored(int(row.id or 0), new=True)


def still_new(ctx: ServiceContext, inbound_id: int) -> bool:
    """Whether mail ``inbound_id`` is still waiting to be handled (then it must not be
    flagged in its mailbox: that would hide it if the instance handling it died)."""
    with session_scope(ctx.engine) as session:
        row = session.get(InboundMail, inbound_id)
        return row is not None and row.status == "new"

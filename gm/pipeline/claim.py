"""The stored mail's row, claimed for the transaction that handles it, and written back.

Read and written as plain columns (Core statements, gm.db.core), not as an ORM object:
the row is claimed, read and marked once a mail, and the ORM's read and unit-of-work
flush of it were a tenth of a mail's handling (issue 21). On SQLite the claim and the
read are one ``UPDATE ... RETURNING``; the mark is one ``UPDATE`` of the columns the
handling sets.

Copies of one mail
------------------
A mail can be in the mailbox twice, as two mailbox messages: delivered through two
aliases, sent again by its client, fetched again after a UIDVALIDITY change. Each copy is
stored as a row of its own (gm.pipeline.ingest); its *twins* are the other rows with its
Message-ID (a mail without one gets one made from its bytes, so only a byte-identical
copy is its twin). One copy is handled, the others are ignored as its duplicates and
never answered (orders.md §2). Which one is settled when a copy is claimed:

* no twin (nearly every mail): nothing more. Whether the row has one is a column of the
  claim's own statement (an ``EXISTS`` on the Message-ID's index): no statement added;
* a twin no longer ``new`` (handled, ignored or failed, committed): this copy is its
  duplicate (:attr:`Claimed.duplicate_of`), to be marked ignored, unanswered;
* twins all ``new``: on PostgreSQL their rows are locked too (``FOR UPDATE SKIP
  LOCKED``). If one cannot be, another transaction holds it (an instance handling that
  copy, or holding it as a twin of another): the claim returns None, as for a row held,
  and this copy stays ``new``; the daemon does not flag it, and takes it again in a later
  round. Otherwise this copy is handled holding its twins' rows (:attr:`Claimed.twins`),
  and :func:`record` marks them its duplicates in the same commit. On SQLite the claim's
  write lock keeps every other writer out until that commit: no twin is locked.

Why two copies X and Y are never both handled, on PostgreSQL (READ COMMITTED: each
statement reads what was committed when it began). A copy is claimed only once its row is
visible: its store has committed. A transaction Tx that handles X locks X in its claim,
with X still ``new``, and holds it to its commit; its twins are those visible to the
statement that found them (the claim's ``EXISTS`` when it found none), each locked, still
``new``, until Tx commits and marks it a duplicate. Say Ty handled Y too.

* Y was among Tx's twins: Ty locked Y, still new, in its claim; not while Tx held it, not
  after Tx's commit (Y then a duplicate), so before Tx's lock on Y, and Ty held it to its
  own commit, which marked Y handled: Tx found Y settled and X was a duplicate, not handled.
* Y was not: Y's store committed after Tx found its twins, so after X's store; Ty's
  statements, later still, found X among Y's twins, and Ty locked X still new: not while Tx
  held it, not after Tx's commit (X handled), so before Tx's claim took X's lock, and Ty held
  X to its commit, which marked X a duplicate: Tx's claim, which locks the newest version of
  the row, found X no longer new, and did not handle it.

A copy recorded as failed counts as settled (its sender was told):
:func:`gm.pipeline.handle.shunt` claims it the same way, and marks its twins. A failed
copy handled again (``gm mod retry``) is not looked at again: every twin of it is its
duplicate, or will be found to be.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Label, Select, Update, bindparam, exists, literal_column, select, update
from sqlmodel import Session

from gm.db.core import run, table
from gm.db.engine import note_write_lock
from gm.db.models import InboundMail


@dataclass
class Claimed:
    """What handling a stored mail reads of its row, and what it sets (:func:`record`)."""

    id: int
    status: str
    raw: bytes
    sender: str
    message_id: str
    note: str
    game_id: str | None
    received_at: datetime  # when it reached the mailbox (gm.pipeline.arrival): its lateness
    handled_at: datetime | None = None
    masked: bytes | None = None  # the raw as stored from now on, if it changes
    duplicate_of: int | None = None  # a copy of this mail settled before: this one is its duplicate
    twins: dict[int, bytes] = field(default_factory=dict)
    """The copies of this mail held with it, all new (id -> raw): :func:`record` marks them its
    duplicates, storing these bytes as their raw (the handler masks them as it masks this one's)."""


_ROW = table(InboundMail)
_READ = (_ROW.c.id, _ROW.c.status, _ROW.c.raw, _ROW.c.sender, _ROW.c.message_id, _ROW.c.note,
         _ROW.c.game_id, _ROW.c.received_at)
_TWIN = _ROW.alias("twin")


def duplicate_note(original: int) -> str:
    """The note of a copy ignored as the duplicate of mail ``original``."""
    return f"duplicate of mail {original} (same Message-ID)"


def claim(session: Session, inbound_id: int) -> Claimed | None:
    """The mail's row, claimed for this transaction; None if another instance holds it, or
    holds a copy of it (module docstring: copies of one mail).

    On PostgreSQL the row lock is the claim (``FOR UPDATE SKIP LOCKED``): an instance
    handling the mail keeps every other off it until it commits, and they go on with
    the next mail instead of waiting; whoever comes later finds it no longer ``new``.
    SQLite has one writer at a time: a conditional ``UPDATE`` of the row's status takes
    the write lock first, so the row is read inside the transaction that will mark it;
    it returns the row (one statement, not two). A row that is not ``new`` (a failed
    mail handled again) is read without the write."""
    postgres = session.get_bind().dialect.name == "postgresql"
    if postgres:
        found = run(session, _read(True), {"inbound_id": inbound_id}).first()
    else:
        found = run(session, _claim_write(), {"inbound_id": inbound_id}).first()
        if found is not None:
            # the transaction's first statement: the write lock is held from here to the
            # commit, so the phase need not be locked again (gm.service.orders.lock_current_phase)
            note_write_lock(session)
        else:
            found = run(session, _read(False), {"inbound_id": inbound_id}).first()
    if found is None:
        return None
    *columns, twinned = found
    row = Claimed(*columns)
    return _with_twins(session, row, postgres) if twinned and row.status == "new" else row


def _with_twins(session: Session, row: Claimed, postgres: bool) -> Claimed | None:
    """``row``, a new mail with twins: its duplicate's original if one is settled; else,
    on PostgreSQL, None if another transaction holds one of them; else the row, holding
    them (:attr:`Claimed.twins`)."""
    twins = run(session, _twins_read(), {"message_id": row.message_id, "inbound_id": row.id}).all()
    statuses = {int(i): str(status) for i, status, _ in twins}
    if postgres and statuses and all(s == "new" for s in statuses.values()):
        held = run(session, _twins_lock(), {"ids": list(statuses)}).all()
        if len(held) < len(statuses):
            return None  # a twin is held: left new, taken again once it is not (the daemon's next round)
        statuses = {int(i): str(status) for i, status in held}  # the newest, now they are locked
    settled = [i for i, status in statuses.items() if status != "new"]
    if settled:  # the original rather than another of its duplicates, when it can be told
        row.duplicate_of = min(settled, key=lambda i: (statuses[i] == "ignored", i))
    else:
        row.twins = {int(i): bytes(raw) for i, _, raw in twins}
    return row


def record(session: Session, row: Claimed) -> None:
    """Write what the handling set: status, note, game, when, and the masked raw if it
    changed (one UPDATE); mark the twins held with it (:attr:`Claimed.twins`, seldom any)
    its duplicates."""
    values: dict[str, Any] = {"inbound_id": row.id, "set_status": row.status,
                              "set_note": row.note, "set_game_id": row.game_id,
                              "set_handled_at": row.handled_at}
    if row.masked is not None and row.masked != row.raw:
        values["set_raw"] = row.masked
    run(session, _mark("set_raw" in values), values)
    for twin, raw in row.twins.items():
        run(session, _mark(True), {"inbound_id": twin, "set_status": "ignored",
                                   "set_note": duplicate_note(row.id), "set_game_id": None,
                                   "set_handled_at": row.handled_at, "set_raw": raw})


@functools.cache
def _twinned() -> Label[bool]:
    """Whether the claimed row has a twin, a column of the claim (an index probe). Its own
    columns are named in full: SQLite's ``RETURNING`` leaves out the table of a column
    SQLAlchemy names, and the twin's columns would answer for the row's own."""
    return exists().where(_TWIN.c.message_id == literal_column("inboundmail.message_id"),
                          _TWIN.c.id != literal_column("inboundmail.id")).label("twinned")


@functools.cache
def _claim_write() -> Update:
    """SQLite's claim: the write that takes the lock, returning the row (built once)."""
    return (update(_ROW).where(_ROW.c.id == bindparam("inbound_id"), _ROW.c.status == "new")
            .values(status="new").returning(*_READ, _twinned()))


@functools.cache
def _read(row_lock: bool) -> Select[Any]:
    """The row's read, with PostgreSQL's row lock or without (built once). The lock is the
    row's alone: PostgreSQL does not lock the rows a subquery of the column list reads."""
    q = select(*_READ, _twinned()).where(_ROW.c.id == bindparam("inbound_id"))
    return q.with_for_update(skip_locked=True) if row_lock else q


@functools.cache
def _twins_read() -> Select[Any]:
    """A row's twins: id, status and raw (built once)."""
    return (select(_ROW.c.id, _ROW.c.status, _ROW.c.raw)
            .where(_ROW.c.message_id == bindparam("message_id"), _ROW.c.id != bindparam("inbound_id"))
            .order_by(_ROW.c.id))


@functools.cache
def _twins_lock() -> Select[Any]:
    """PostgreSQL: the twins locked, those that are free, with their newest status (built once)."""
    return (select(_ROW.c.id, _ROW.c.status).where(_ROW.c.id.in_(bindparam("ids", expanding=True)))
            .order_by(_ROW.c.id).with_for_update(skip_locked=True))


@functools.cache
def _mark(with_raw: bool) -> Update:
    """:func:`record`'s UPDATE, with the raw or without (built once)."""
    names = ("status", "note", "game_id", "handled_at", "raw") if with_raw else (
        "status", "note", "game_id", "handled_at")
    values = {c: bindparam(f"set_{c}", type_=_ROW.c[c].type) for c in names}
    return update(_ROW).where(_ROW.c.id == bindparam("inbound_id")).values(values)

"""The stored mail's row, claimed for the transaction that handles it, and written back.

Read and written as plain columns (Core statements, gm.db.core), not as an ORM object:
the row is claimed, read and marked once a mail, and the ORM's read and unit-of-work
flush of it were a tenth of a mail's handling (issue 21). On SQLite the claim and the
read are one ``UPDATE ... RETURNING``; the mark is one ``UPDATE`` of the columns the
handling sets.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Select, Update, bindparam, select, update
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
    handled_at: datetime | None = None
    masked: bytes | None = None  # the raw as stored from now on, if it changes


_ROW = table(InboundMail)
_READ = (_ROW.c.id, _ROW.c.status, _ROW.c.raw, _ROW.c.sender, _ROW.c.message_id, _ROW.c.note,
         _ROW.c.game_id)


def claim(session: Session, inbound_id: int) -> Claimed | None:
    """The mail's row, claimed for this transaction; None if another instance holds it.

    On PostgreSQL the row lock is the claim (``FOR UPDATE SKIP LOCKED``): an instance
    handling the mail keeps every other off it until it commits, and they go on with
    the next mail instead of waiting; whoever comes later finds it no longer ``new``.
    SQLite has one writer at a time: a conditional ``UPDATE`` of the row's status takes
    the write lock first, so the row is read inside the transaction that will mark it;
    it returns the row (one statement, not two). A row that is not ``new`` (a failed
    mail handled again) is read without the write."""
    if session.get_bind().dialect.name == "postgresql":
        found = run(session, _read(True), {"inbound_id": inbound_id}).first()
    else:
        found = run(session, _claim_write(), {"inbound_id": inbound_id}).first()
        if found is not None:
            # the transaction's first statement: the write lock is held from here to the
            # commit, so the phase need not be locked again (gm.service.orders.lock_current_phase)
            note_write_lock(session)
        else:
            found = run(session, _read(False), {"inbound_id": inbound_id}).first()
    return None if found is None else Claimed(*found)


def record(session: Session, row: Claimed) -> None:
    """Write what the handling set: status, note, game, when, and the masked raw if it
    changed (one UPDATE)."""
    values: dict[str, Any] = {"inbound_id": row.id, "set_status": row.status,
                              "set_note": row.note, "set_game_id": row.game_id,
                              "set_handled_at": row.handled_at}
    if row.masked is not None and row.masked != row.raw:
        values["set_raw"] = row.masked
    run(session, _mark("set_raw" in values), values)


@functools.cache
def _claim_write() -> Update:
    """SQLite's claim: the write that takes the lock, returning the row (built once)."""
    return (update(_ROW).where(_ROW.c.id == bindparam("inbound_id"), _ROW.c.status == "new")
            .values(status="new").returning(*_READ))


@functools.cache
def _read(row_lock: bool) -> Select[Any]:
    """The row's read, with PostgreSQL's row lock or without (built once)."""
    q = select(*_READ).where(_ROW.c.id == bindparam("inbound_id"))
    return q.with_for_update(skip_locked=True) if row_lock else q


@functools.cache
def _mark(with_raw: bool) -> Update:
    """:func:`record`'s UPDATE, with the raw or without (built once)."""
    names = ("status", "note", "game_id", "handled_at", "raw") if with_raw else (
        "status", "note", "game_id", "handled_at")
    values = {c: bindparam(f"set_{c}", type_=_ROW.c[c].type) for c in names}
    return update(_ROW).where(_ROW.c.id == bindparam("inbound_id")).values(values)

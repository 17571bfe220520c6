"""Row claims: how several instances agree on who does what, in the database.

The scheduler never decides who adjudicates: a conditional UPDATE does
(``close_phase`` claims ``state='open'``). The helpers here serve the
scheduler's smaller acts (reminders, outage and absence extensions), which
must also happen once: each takes the phase row's write lock first, re-reads
the row and checks a marker in ``Phase.reminders_sent`` before acting.
"""

from __future__ import annotations

import functools
from datetime import datetime
from typing import Any

from sqlalchemy import CursorResult, Result, bindparam, text, update
from sqlmodel import Session, col, select

from gm.clock import utc
from gm.db.models import Phase


def stamp(when: datetime) -> str:
    """A deadline as it appears in markers: ``2026-03-05T20:00:00Z``."""
    return utc(when).strftime("%Y-%m-%dT%H:%M:%SZ")


def marker(what: str, deadline: datetime) -> str:
    """The once-marker of an act tied to one deadline (``"2h@2026-03-05T20:00:00Z"``)."""
    return f"{what}@{stamp(deadline)}"


def rowcount(result: Result[Any]) -> int:
    """The rows an UPDATE changed (``Session.execute`` is typed to return a plain Result)."""
    assert isinstance(result, CursorResult), type(result)
    return result.rowcount


def lock_open_phase(session: Session, phase_pk: int) -> Phase | None:
    """Take the phase row's write lock and return the row, fresh, if it is still open.

    A no-op UPDATE is the first statement of the transaction: on PostgreSQL it
    takes the row lock (a second instance waits, then sees the first one's
    commit); on SQLite it takes the database write lock before anything is read,
    so the re-read below sees the latest commit. Hold the transaction short.
    """
    result = session.execute(
        update(Phase).where(col(Phase.id) == phase_pk, col(Phase.state) == "open")
        .values(claimed_by=Phase.claimed_by)
    )
    if rowcount(result) != 1:
        return None
    q = select(Phase).where(Phase.id == phase_pk).execution_options(populate_existing=True)
    return session.exec(q).one()


def probe_free(session: Session, phase_pk: int) -> bool:
    """Is the phase still open and not being adjudicated right now by another instance?

    PostgreSQL: ``SELECT ... FOR UPDATE SKIP LOCKED`` skips a row whose claim
    another instance holds, without waiting for it; the caller commits at once,
    so this only spreads the work, it never decides it. SQLite ignores the
    locking clause (its write lock serializes the claims).
    """
    return session.exec(_probe_query(), params={"of_phase": phase_pk}).first() is not None


@functools.cache
def _probe_query() -> Any:
    """Built once (issue 21: a deadline storm probes a thousand phases)."""
    return (select(Phase.id).where(col(Phase.id) == bindparam("of_phase"), col(Phase.state) == "open")
            .with_for_update(skip_locked=True))


def serialize_writers(session: Session, key: int) -> None:
    """Make concurrent transactions that call this with ``key`` run one after another.

    PostgreSQL: a transaction-scoped advisory lock. SQLite: a no-op write
    takes the database write lock at once (before any read of the transaction).
    """
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": key})
    else:
        session.execute(update(Phase).where(col(Phase.id) == -1).values(claimed_by=""))

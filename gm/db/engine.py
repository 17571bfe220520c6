"""Opening the database: SQLite (WAL) by default, PostgreSQL by URL."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.pool import ConnectionPoolEntry
from sqlmodel import Session, create_engine


class DatabaseError(Exception):
    """The database cannot be used as it is (corrupt, newer than this code...)."""


def sqlite_url(path: str | Path) -> str:
    return f"sqlite:///{Path(path).resolve()}"


def resolve_url(url: str | None = None, db_path: str | Path | None = None) -> str:
    """``--db``/``GM_DATABASE_URL``/``gm.db`` in the working folder, in that order."""
    if url:
        return url
    if db_path:
        return sqlite_url(db_path)
    env = os.environ.get("GM_DATABASE_URL")
    if env:
        return env
    return sqlite_url("gm.db")


# Parameters hold raw player mail, passwords included: hide_parameters keeps
# them out of error messages (which the daemon logs) and out of SQL logging.


def make_engine(url: str) -> Engine:
    """An engine with the pragmas and pool settings gm relies on."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30},
                               hide_parameters=True)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True, hide_parameters=True)


@contextmanager
def session_scope(engine: Engine) -> Iterator[Session]:
    """One transaction: commit on success, roll back on any exception."""
    with Session(engine, expire_on_commit=False) as session:
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise


_WRITE_LOCKED = "gm.write_locked"


def note_write_lock(session: Session) -> None:
    """Record that ``session``'s transaction holds SQLite's write lock since its first
    statement (a write): every row it reads is then the latest, and stays so until it
    ends, as if locked. The note lasts as long as the transaction (:func:`holds_write_lock`)."""
    session.info[_WRITE_LOCKED] = session.get_transaction()


def holds_write_lock(session: Session) -> bool:
    """Whether :func:`note_write_lock` was said of the transaction ``session`` is in now."""
    held = session.info.get(_WRITE_LOCKED)
    return held is not None and held is session.get_transaction()

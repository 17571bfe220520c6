"""Opening the database: SQLite (WAL) by default, PostgreSQL by URL."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import event, exc
from sqlalchemy.engine import Engine
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.pool import ConnectionPoolEntry, PoolProxiedConnection
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
    engine = create_engine(url, hide_parameters=True)
    ping_when_idle(engine)
    return engine


def fold_wal(engine: Engine) -> None:
    """On SQLite, fold the write-ahead log into the database file and empty it (PostgreSQL:
    nothing to do).

    A daemon's connections are not closed when its process ends, so without this the last
    transactions before a stop stay in ``<database>-wal``: a host who stops gm and copies
    ``gm.db`` alone (deploy/README.md, "What to back up") would copy a database without
    them, and one who restores a backup over ``gm.db`` would have that old log laid over it."""
    if engine.dialect.name == "sqlite":
        with engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")


IDLE_PING_SECONDS = 1.0
"""A pooled connection that sat unused longer than this is pinged before it is handed out."""

_IDLE_SINCE = "gm.idle_since"
idle_clock = time.monotonic
"""The clock of the pool's idle times (a test sets its own)."""


def ping_when_idle(engine: Engine) -> None:
    """Ping a pooled connection before handing it out only if it sat idle in the pool longer
    than :data:`IDLE_PING_SECONDS`: one that fails is dropped with every other pooled
    connection (a restarted server ended them all) and a new one is opened, as
    ``pool_pre_ping`` does.

    Issue 21: ``pool_pre_ping`` pinged at every checkout, a round trip before each
    transaction: a deadline storm's sweep checks a connection out for each close, a few ms
    after it came back. A connection the server dropped since then (a restart within those
    ms) fails its first statement instead: SQLAlchemy then drops the pool's connections
    and the caller's retry (the daemon sweeps again) opens new ones."""
    dialect = engine.dialect

    @event.listens_for(engine.pool, "connect")
    def _new(_dbapi_conn: DBAPIConnection, record: ConnectionPoolEntry) -> None:
        record.info.pop(_IDLE_SINCE, None)  # the entry's connection before was dropped

    @event.listens_for(engine.pool, "checkin")
    def _idle(_dbapi_conn: DBAPIConnection, record: ConnectionPoolEntry) -> None:
        record.info[_IDLE_SINCE] = idle_clock()

    @event.listens_for(engine.pool, "checkout")
    def _ping(dbapi_conn: DBAPIConnection, record: ConnectionPoolEntry,
              _proxy: PoolProxiedConnection) -> None:
        since = record.info.get(_IDLE_SINCE)  # None: a new connection, not used before
        if since is None or idle_clock() - since <= IDLE_PING_SECONDS:
            return
        try:
            dialect.do_ping(dbapi_conn)
        except dialect.loaded_dbapi.Error as err:
            raise exc.InvalidatePoolError(f"ping after {idle_clock() - since:.0f} s idle: {err}") from err


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

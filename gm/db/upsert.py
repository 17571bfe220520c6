"""``INSERT ... ON CONFLICT DO NOTHING`` on both databases gm runs on.

Two instances that insert the same unique key at once (the same mailbox message, the
same outgoing Message-ID) must neither fail nor store it twice: the database decides
which insert wins, and the loser reads the winner's row. Unlike catching an
``IntegrityError``, this leaves the caller's transaction usable on PostgreSQL.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import inspect
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session, SQLModel


def insert_or_ignore(session: Session, row: SQLModel, key: list[str]) -> int | None:
    """Insert ``row`` (its ``id`` left to the database) unless a row with the same
    unique ``key`` columns exists.

    Returns the new row's id, or None when the key was there already (on PostgreSQL,
    after waiting for the transaction that inserted it to end). ``row`` itself is not
    added to the session: read the stored row back by its id or key."""
    dialect = session.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    table = inspect(type(row)).local_table  # the row's Table (SQLModel does not type __table__)
    values: dict[str, Any] = {c.name: getattr(row, c.name) for c in table.columns if c.name != "id"}
    stmt = insert(table).values(**values).on_conflict_do_nothing(index_elements=key)
    inserted = session.execute(stmt.returning(table.c.id)).first()
    return None if inserted is None else int(inserted[0])

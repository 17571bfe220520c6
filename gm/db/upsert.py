"""``INSERT ... ON CONFLICT DO NOTHING`` on both databases gm runs on.

Two instances that insert the same unique key at once (the same mailbox message, the
same outgoing Message-ID) must neither fail nor store it twice: the database decides
which insert wins, and the loser reads the winner's row. Unlike catching an
``IntegrityError``, this leaves the caller's transaction usable on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from sqlalchemy import bindparam, inspect
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session, SQLModel


def insert_or_ignore(session: Session, row: SQLModel, key: list[str]) -> int | None:
    """Insert ``row`` (its ``id`` left to the database) unless a row with the same
    unique ``key`` columns exists.

    Returns the new row's id, or None when the key was there already (on PostgreSQL,
    after waiting for the transaction that inserted it to end). ``row`` itself is not
    added to the session: read the stored row back by its id or key."""
    dialect = session.get_bind().dialect.name
    stmt, names = _statement(dialect, type(row), tuple(key))
    values: dict[str, Any] = {name: getattr(row, name) for name in names}
    inserted = session.execute(stmt, values).first()
    return None if inserted is None else int(inserted[0])


def insert_values_or_ignore(session: Session, model: type[SQLModel], values: Mapping[str, Any],
                            key: list[str]) -> int | None:
    """:func:`insert_or_ignore` of a row given as its column values, the model's object never
    built (issue 21: building it cost 0.1 ms, as much as the INSERT): the columns not given
    take their defaults, the ones the object would have had."""
    dialect = session.get_bind().dialect.name
    inserted = session.execute(_values_statement(dialect, model, tuple(key)), dict(values)).first()
    return None if inserted is None else int(inserted[0])


def insert_many_or_ignore(session: Session, rows: Sequence[SQLModel], key: list[str]) -> None:
    """:func:`insert_or_ignore` of many rows of one model in one statement (nothing returned:
    a row whose key was there already is left out)."""
    if not rows:
        return
    dialect = session.get_bind().dialect.name
    stmt, names = _statement(dialect, type(rows[0]), tuple(key), returning=False)
    session.execute(stmt, [{name: getattr(row, name) for name in names} for row in rows])


@lru_cache(maxsize=64)
def _values_statement(dialect: str, model: type[SQLModel], key: tuple[str, ...]) -> Any:
    """:func:`insert_values_or_ignore`'s INSERT ... ON CONFLICT DO NOTHING RETURNING id, made
    once; its columns are the values' names, given at execution."""
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    table = inspect(model).local_table
    return insert(table).on_conflict_do_nothing(index_elements=list(key)).returning(table.c.id)


@lru_cache(maxsize=64)
def _statement(dialect: str, model: type[SQLModel], key: tuple[str, ...],
               returning: bool = True) -> tuple[Any, tuple[str, ...]]:
    """The INSERT ... ON CONFLICT DO NOTHING RETURNING id of ``model``'s every column but its
    id, made once (issue 21: building it per row, values inlined, was a tenth of storing a
    mail); its values are bound at execution. Also the names of those columns."""
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    table = inspect(model).local_table  # the row's Table (SQLModel does not type __table__)
    names = tuple(c.name for c in table.columns if c.name != "id")
    stmt = insert(table).values({n: bindparam(n, type_=table.c[n].type) for n in names})
    stmt = stmt.on_conflict_do_nothing(index_elements=list(key))
    return (stmt.returning(table.c.id) if returning else stmt), names

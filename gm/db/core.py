"""Core statements run in an ORM session, for the statements every mail runs (issue 21).

A statement that names a model's attributes (``select(col(OrderSet.id))``,
``update(Phase)``) is an *ORM* statement even when it reads plain columns: the session
runs it through the ORM's compile and loading layers, which cost twice the statement
itself (0.13 ms against 0.06 for the same SELECT of four columns). The statements here
name the model's :func:`table` instead: the session still runs them in its transaction,
with its statement hooks (gm.service.phases writes the events logged before them), but
as Core. :func:`run` flushes first, as the ORM statement's autoflush did, so a Core
statement sees every change made through the session before it, as before.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, cast

from sqlalchemy import Executable, Insert, Result, Table, bindparam, insert
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.orm import make_transient_to_detached
from sqlmodel import Session, SQLModel


def table(model: type[SQLModel]) -> Table:
    """The Table of ``model`` (SQLModel does not type ``__table__``)."""
    return cast(Table, sa_inspect(model).local_table)


def run(session: Session, statement: Executable, params: Mapping[str, Any] | None = None
        ) -> Result[*tuple[Any, ...]]:
    """Execute the Core ``statement`` in ``session``'s transaction, after the flush the ORM's
    autoflush would have made (nothing to flush costs nothing)."""
    if session.autoflush:
        session.flush()
    return session.execute(statement, params)


def add_inserted(session: Session, row: SQLModel) -> int:
    """Insert ``row`` (its id left to the database) with one Core ``INSERT ... RETURNING``
    and let it join ``session`` as if read back, with its id: what ``session.add(row)`` and
    a flush do, without the unit of work (issue 21: a flush of one new row cost three
    times the INSERT). A unique key it breaks raises, as the flush did."""
    stmt, names = _insert_statement(type(row))
    new_id = int(run(session, stmt, {name: getattr(row, name) for name in names}).scalar_one())
    row.id = new_id
    make_transient_to_detached(row)
    session.add(row)
    return new_id


@functools.cache
def _insert_statement(model: type[SQLModel]) -> tuple[Insert, tuple[str, ...]]:
    """``model``'s INSERT of every column but its id, returning the id, built once; and the
    names of those columns."""
    t = table(model)
    names = tuple(c.name for c in t.columns if c.name != "id")
    return insert(t).values({n: bindparam(n, type_=t.c[n].type) for n in names}).returning(t.c.id), names

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

from collections.abc import Mapping
from typing import Any, cast

from sqlalchemy import Executable, Result, Table
from sqlalchemy import inspect as sa_inspect
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

"""Alembic migrations, applied by ``gm db upgrade`` and on every start."""

from __future__ import annotations

import os
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DatabaseError as SADatabaseError

from gm.db.engine import DatabaseError

_HERE = Path(__file__).resolve().parent


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(_HERE / "migrations"))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def head_revision() -> str:
    script = ScriptDirectory.from_config(alembic_config("sqlite://"))
    head = script.get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    try:
        with engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()
    except SADatabaseError as exc:
        where = (engine.url.database if engine.url.get_backend_name() == "sqlite"
                 else engine.url.render_as_string(hide_password=True))
        raise DatabaseError(f"the database {where} cannot be read: {exc.orig}"
                            f"{sqlite_folder_problem(engine)}") from exc


def sqlite_folder_problem(engine: Engine) -> str:
    """Why a SQLite file's folder will not do (missing, not a folder, not writable: SQLite
    writes its journal beside the file), as "; ..." for an error message, or ""."""
    name = engine.url.database
    if engine.url.get_backend_name() != "sqlite" or not name or name == ":memory:":
        return ""
    folder = Path(name).parent
    if folder.is_dir() and os.access(folder, os.W_OK):
        return ""
    return (f"; its folder {folder} must exist and be writable by the user gm runs as "
            "(create it, or set [database] path)")


def upgrade(engine: Engine) -> str:
    """Bring the schema to this code's head; refuse a database from newer code."""
    rev = current_revision(engine)
    script = ScriptDirectory.from_config(alembic_config(str(engine.url)))
    known = {s.revision for s in script.walk_revisions()}
    if rev is not None and rev not in known:
        raise DatabaseError(
            f"the database is at schema revision {rev}, which this version of gm does not "
            "know: it was written by a newer gm. Upgrade gm, or restore a backup."
        )
    if rev is None and inspect(engine).has_table("game"):
        raise DatabaseError("the database has gm tables but no migration record; restore a backup")
    head = head_revision()
    if rev != head:
        cfg = alembic_config(engine.url.render_as_string(hide_password=False))
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
    return head

"""Alembic environment for gm (run through gm.db.migrate or `gm db ...`)."""

from alembic import context
from sqlalchemy import engine_from_config, pool
from sqlmodel import SQLModel

import gm.db.models  # noqa: F401  (registers the tables)
import gm.db.schedule_tables  # noqa: F401  (the scheduler's heartbeat and absence tables)

config = context.config
target_metadata = SQLModel.metadata


def run() -> None:
    conn = config.attributes.get("connection")
    if conn is not None:
        context.configure(connection=conn, target_metadata=target_metadata,
                          render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = engine_from_config(config.get_section(config.config_ini_section, {}),
                                prefix="sqlalchemy.", poolclass=pool.NullPool)
    with engine.connect() as connection:
        context.configure(connection=connection, target_metadata=target_metadata,
                          render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()


run()

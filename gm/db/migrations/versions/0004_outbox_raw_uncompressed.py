"""outbox: a mail's bytes stored out of line without compression on PostgreSQL (issue 21)

A report mail's stored bytes, once its map is drawn, are ~390 KB of base64 PNG that
PostgreSQL's default TOAST compression (pglz) cannot shrink: it tried on every store and
gave up, ~4.5 ms of the server's CPU a mail (5.5 -> 0.95 ms a store measured; the drain
of a 300-game storm: server CPU 7.3-7.9 -> 2.6-3.1 ms a mail). ``STORAGE EXTERNAL``
keeps the value out of line, as before, and uncompressed. Only values written from now
on are affected; SQLite has no such setting (nothing to do there).

Revision ID: 0004_outbox_raw_uncompressed
Revises: 0003_rt_abuse
Create Date: 2026-11-29 08:00:00
"""
from alembic import op

revision = '0004_outbox_raw_uncompressed'
down_revision = '0003_rt_abuse'
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE outboundmail ALTER COLUMN raw SET STORAGE EXTERNAL")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE outboundmail ALTER COLUMN raw SET STORAGE EXTENDED")

"""How the outbox keeps a mail's bytes on PostgreSQL (issue 21).

A report's bytes, its map drawn, are ~390 KB of base64 PNG that PostgreSQL's default
compression cannot shrink; trying cost the server ~4.5 ms a mail at every store
(migration 0004). The bytes are kept out of line and uncompressed.
"""

from __future__ import annotations

import pytest
from sqlalchemy import text

from gm.db.engine import session_scope
from gm.service.context import ServiceContext
from gm.service.outbox import queue_mail


def test_a_mails_bytes_are_stored_uncompressed_on_postgresql(ctx: ServiceContext) -> None:
    if ctx.engine.dialect.name != "postgresql":
        pytest.skip("a PostgreSQL storage setting")
    with session_scope(ctx.engine) as s:
        row = queue_mail(ctx, s, game_id=None, kind="notice", to=["p@example.org"],
                         subject="s", text="the same line again\n" * 2000, key="storage:1")
    with ctx.engine.connect() as conn:
        storage = conn.execute(text(
            "SELECT attstorage FROM pg_attribute WHERE attrelid = 'outboundmail'::regclass "
            "AND attname = 'raw'")).scalar()
        stored, length = conn.execute(text(
            "SELECT pg_column_size(raw), octet_length(raw) FROM outboundmail WHERE id = :id"),
            {"id": row.id}).one()
    assert storage == "e", "out of line, never compressed (STORAGE EXTERNAL)"
    assert stored >= length, "a text that compresses well is kept at its full size"

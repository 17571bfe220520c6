"""The instance's secrets, kept in the database (table ``servicesecret``).

The Message-ID key is made once, by the migration that adds the table, so every
instance on one database derives the same Message-ID from the same key
(queueing stays exactly-once across restarts and instances). A database made
without the migrations gets its key on first use, inside the caller's
transaction; it is cached only once read back from a committed row, so a
rolled-back transaction can never leave two keys in use.
"""

from __future__ import annotations

import secrets
import weakref

from sqlalchemy.engine import Engine
from sqlmodel import Session

from gm.db.models import ServiceSecret
from gm.service.context import ServiceContext

MESSAGE_ID = "message-id"
_cache: weakref.WeakKeyDictionary[Engine, bytes] = weakref.WeakKeyDictionary()


def message_id_secret(ctx: ServiceContext, session: Session) -> bytes:
    """The HMAC key of this instance's Message-IDs."""
    known = _cache.get(ctx.engine)
    if known is not None:
        return known
    row = session.get(ServiceSecret, MESSAGE_ID)
    if row is not None:
        _cache[ctx.engine] = row.value
        return row.value
    value = secrets.token_bytes(32)
    session.add(ServiceSecret(name=MESSAGE_ID, value=value, created_at=ctx.clock.now()))
    session.flush()
    return value

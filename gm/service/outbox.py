"""Queueing mail in the outbox table, in the caller's transaction.

A mail is built once, with a Message-ID derived from a stable ``key``
(``reply:<inbound id>``, ``report:<game>:<seq>:<power>``...), so a crash
between sending and recording the send can only re-send the identical message,
which clients collapse. Queueing the same key twice returns the first row.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlmodel import Session, select

from gm.db.models import OutboundMail
from gm.mail.compose import build_message, make_message_id
from gm.service.context import ServiceContext


def queue_mail(
    ctx: ServiceContext,
    session: Session,
    *,
    game_id: str | None,
    kind: str,
    to: Sequence[str],
    subject: str,
    text: str,
    key: str,
    in_reply_to: str | None = None,
    references: Sequence[str] = (),
    html: str | None = None,
    held: bool = False,
) -> OutboundMail:
    """Queue one mail (status ``held`` keeps it back until released)."""
    message_id = make_message_id(key, ctx.mail_domain)
    existing = session.exec(select(OutboundMail).where(OutboundMail.message_id == message_id)).first()
    if existing is not None:
        return existing
    recipients = [a for a in dict.fromkeys(to) if a]
    raw = build_message(
        from_addr=ctx.service_address, to=recipients, subject=subject, text=text, html=html,
        message_id=message_id, in_reply_to=in_reply_to, references=tuple(references),
        game_id=game_id, date=ctx.clock.now(),
    )
    row = OutboundMail(
        message_id=message_id, game_id=game_id, kind=kind, recipients=recipients,
        subject=subject, raw=raw, status="held" if held else "queued",
        in_reply_to=in_reply_to or "", created_at=ctx.clock.now(),
        next_attempt_at=ctx.clock.now(),
    )
    session.add(row)
    session.flush()
    return row

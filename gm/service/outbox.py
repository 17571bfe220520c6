"""Queueing mail in the outbox table, in the caller's transaction.

A mail is built once, with a Message-ID derived from a stable ``key``
(``reply:<inbound id>``, ``report:<game>:<seq>:<power>``...) and the
instance's secret (:func:`message_id_for`), so a crash
between sending and recording the send can only re-send the identical message,
which clients collapse. Queueing the same key twice returns the first row, also when
two instances queue it at the same moment (``INSERT ... ON CONFLICT DO NOTHING``).

One part may be left to draw: a report's PNG map takes a good fraction of a
second to rasterise, too long for the transaction that closes a phase (a
thousand games may share a deadline). It is queued empty, marked with the name
of the SVG attachment it is drawn from, and :func:`finish_pending_parts` draws
it when the mail is first taken for sending, in a transaction of its own; the
stored bytes are final from then on, so every attempt sends the same mail.

A mail that carries a password (:data:`PASSWORD_KINDS`: a welcome) keeps it in
the stored copy only while it may still be sent: once sent (or given up), the
copy is masked (:func:`mask_delivered`, gm.mail.mask).
"""

from __future__ import annotations

import email
import email.encoders
from collections.abc import Callable, Sequence
from email.message import EmailMessage, Message
from email.policy import SMTP

from sqlalchemy.orm import make_transient_to_detached
from sqlmodel import Session, select

from gm.db.models import OutboundMail
from gm.db.upsert import insert_or_ignore
from gm.mail.compose import RENDER_HEADER, Attachment, build_message, make_message_id
from gm.mail.mask import mask_mail
from gm.service.context import ServiceContext


def message_id_for(ctx: ServiceContext, session: Session, key: str) -> str:
    """The Message-ID of the mail queued under ``key``: keyed with the instance's secret."""
    from gm.service.secret import message_id_secret

    return make_message_id(key, ctx.mail_domain, message_id_secret(ctx, session))


def content_id(ctx: ServiceContext, session: Session, key: str, name: str = "map") -> str:
    """The Content-ID of a picture shown in the mail queued under ``key``: keyed like the
    Message-ID, so it too tells nothing of the mail it was made for."""
    import hashlib
    import hmac

    from gm.service.secret import message_id_secret

    digest = hmac.new(message_id_secret(ctx, session), f"cid:{name}:{key}".encode(),
                      hashlib.sha256).hexdigest()[:16]
    return f"{name}.{digest}@{ctx.mail_domain}"


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
    attachments: Sequence[Attachment] = (),
    held: bool = False,
) -> OutboundMail:
    """Queue one mail (status ``held`` keeps it back until released).

    With ``html`` the mail is multipart/alternative; ``attachments`` with a
    ``cid`` are shown inside the HTML, the others attached (gm.mail.compose).
    """
    message_id = message_id_for(ctx, session, key)
    existing = session.exec(select(OutboundMail).where(OutboundMail.message_id == message_id)).first()
    if existing is not None:
        return existing
    recipients = [a for a in dict.fromkeys(to) if a]
    raw = build_message(
        from_addr=ctx.service_address, to=recipients, subject=subject, text=text, html=html,
        message_id=message_id, in_reply_to=in_reply_to, references=tuple(references),
        game_id=game_id, date=ctx.clock.now(), attachments=attachments,
    )
    row = OutboundMail(
        message_id=message_id, game_id=game_id, kind=kind, recipients=recipients,
        subject=subject, raw=raw, status="held" if held else "queued",
        in_reply_to=in_reply_to or "", created_at=ctx.clock.now(),
        next_attempt_at=ctx.clock.now(),
    )
    # Two instances may queue the same key at once (a notice to the moderator, keyed by
    # game and hour): the database keeps one; the other reads it.
    new_id = insert_or_ignore(session, row, ["message_id"])
    if new_id is None:
        again = session.exec(select(OutboundMail).where(OutboundMail.message_id == message_id)).one()
        return again
    # The row as inserted, with its id, joins the session as if read back (issue 21: it
    # was read again, raw and all, for each mail queued).
    row.id = new_id
    make_transient_to_detached(row)
    session.add(row)
    return row


def _svg_to_png(data: bytes) -> bytes:
    from gm.maps.raster import svg_to_png

    return svg_to_png(data.decode("utf-8"))


def _map_to_svg(data: bytes) -> bytes:
    from gm.maps.draw import svg_from_source

    return svg_from_source(data)


RENDERERS: dict[tuple[str, str], Callable[[bytes], bytes]] = {
    ("image/svg+xml", "image/png"): _svg_to_png,
    ("application/x-gm-map+json", "image/svg+xml"): _map_to_svg,
}
"""How a pending part is drawn from its source: (source type, part type) -> function."""

SOURCES_ONLY = ("application/x-gm-map+json",)
"""Parts that are only there to draw others from: dropped once those are drawn."""


def finish_pending_parts(row: OutboundMail) -> bool:
    """Draw the parts left pending at queue time into ``row.raw``; True if any was drawn.

    Called before the first send; afterwards the row holds no pending part and
    this does nothing. A part that cannot be drawn is dropped (the HTML then
    shows its alt text), never retried at every send.
    """
    if RENDER_HEADER.encode() not in row.raw:
        return False
    msg = email.message_from_bytes(row.raw, policy=SMTP)
    assert isinstance(msg, EmailMessage)
    by_name = {p.get_filename(): p for p in msg.walk() if not p.is_multipart()}
    progress = True
    while progress:  # a part may be drawn from a part drawn first (map.json -> SVG -> PNG)
        progress = False
        for parent in [p for p in msg.walk() if p.is_multipart()]:
            for part in list(parent.iter_parts()):
                source_name = part.get(RENDER_HEADER)
                if source_name is None:
                    continue
                source = by_name.get(str(source_name))
                if source is not None and source.get(RENDER_HEADER) is not None:
                    continue  # its source is not drawn yet: next round
                progress = True
                draw = RENDERERS.get((source.get_content_type() if source else "", part.get_content_type()))
                payload = source.get_payload(decode=True) if source else None
                try:
                    data = draw(payload) if draw and isinstance(payload, bytes) else None
                except Exception:  # a picture that cannot be drawn must not hold the mail back
                    data = None
                if data is None:
                    _remove(parent, part)
                    by_name.pop(part.get_filename(), None)
                    continue
                del part[RENDER_HEADER]
                part.set_payload(data)
                del part["Content-Transfer-Encoding"]
                email.encoders.encode_base64(part)
    for parent in [p for p in msg.walk() if p.is_multipart()]:
        for part in list(parent.iter_parts()):
            if part.get_content_type() in SOURCES_ONLY:
                _remove(parent, part)
    row.raw = msg.as_bytes(policy=SMTP)
    return True


def _remove(parent: Message, part: Message) -> None:
    """Take ``part`` out of the multipart ``parent``."""
    parts = parent.get_payload()
    assert isinstance(parts, list), "a multipart's payload is its list of parts"
    parts.remove(part)


PASSWORD_KINDS = frozenset({"welcome", "password"})
"""The kinds of mail that carry a player's password (the welcome, a new player's sign-on,
a new password asked for with SEND PASSWORD: gm.service.recovery)."""


def mask_delivered(row: OutboundMail) -> bool:
    """Mask the passwords in ``row``'s stored copy once it is sent or failed for good."""
    if row.kind not in PASSWORD_KINDS or row.status not in ("sent", "failed"):
        return False
    masked = mask_mail(row.raw)
    if masked == row.raw:
        return False
    row.raw = masked
    return True

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
it whenever the mail is taken for sending (gm.pipeline.dispatch), outside any
transaction. What is drawn is not stored: drawing is a pure function of the queued
bytes, so every attempt sends the same mail, and the outbox keeps a report as it was
queued, ~30 KB, not the ~400 KB of its drawn map (issue 21: storing the drawing, and on
SQLite rewriting those 400 KB again to record the send, was ~45% of the drain's own CPU
in a storm, 9.2 -> ~5.5 ms a mail, and on PostgreSQL 45% of the server's).

A mail that carries a password (:data:`PASSWORD_KINDS`: a welcome) keeps it in
the stored copy only while it may still be sent: once sent (or given up), the
copy is masked (:func:`mask_delivered`, gm.mail.mask).
"""

from __future__ import annotations

import base64
import binascii
import email
import email.encoders
import re
from collections.abc import Callable, Sequence
from email.message import EmailMessage, Message
from email.policy import SMTP
from itertools import pairwise
from typing import Any, NamedTuple, NotRequired, TypedDict, Unpack

from sqlalchemy.orm import make_transient_to_detached
from sqlmodel import Session, select

from gm.db.models import OutboundMail
from gm.db.upsert import insert_many_or_ignore, insert_or_ignore, insert_values_or_ignore
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


class MailFields(TypedDict):
    """What a queued mail is made of (:func:`queue_mail`, :func:`outbound_row`): its game,
    kind, recipients, subject, text and the key its Message-ID is made from; optionally
    what it answers, its HTML, attachments, whether it is held, and whether it is only
    true while the phase open now is open (``phase_bound``: a reminder, a count of the
    orders missing; withdrawn unsent once the phase closed, gm.pipeline.dispatch)."""

    game_id: str | None
    kind: str
    to: Sequence[str]
    subject: str
    text: str
    key: str
    in_reply_to: NotRequired[str | None]
    references: NotRequired[Sequence[str]]
    html: NotRequired[str | None]
    attachments: NotRequired[Sequence[Attachment]]
    held: NotRequired[bool]
    phase_bound: NotRequired[bool]


def queue_mail(ctx: ServiceContext, session: Session, *, looked_up: bool = False,
               **fields: Unpack[MailFields]) -> OutboundMail:
    """Queue one mail (status ``held`` keeps it back until released).

    With ``html`` the mail is multipart/alternative; ``attachments`` with a
    ``cid`` are shown inside the HTML, the others attached (gm.mail.compose).
    ``looked_up``: the caller found no mail under ``key`` in this transaction, so it is
    not looked up again before the insert (which still keeps one if another instance
    queued it meanwhile).
    """
    message_id = message_id_for(ctx, session, fields["key"])
    if not looked_up:
        existing = session.exec(select(OutboundMail).where(OutboundMail.message_id == message_id)).first()
        if existing is not None:
            return existing
    row = outbound_row(ctx, session, **fields)
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


def queue_answer(ctx: ServiceContext, session: Session, **fields: Unpack[MailFields]) -> None:
    """Queue a mail whose key nothing can be queued under yet (an answer keyed by the inbound
    mail this transaction holds while it is new: gm.pipeline.handle), as :func:`queue_mail`
    with ``looked_up``, the row inserted from its values: no OutboundMail is built, none
    joins the session (issue 21: building and attaching it cost a fifth of queueing a
    reply). Another instance's row under the same key, if any, stays as it is."""
    insert_values_or_ignore(session, OutboundMail, outbound_values(ctx, session, **fields),
                            ["message_id"])


def outbound_row(ctx: ServiceContext, session: Session, **fields: Unpack[MailFields]) -> OutboundMail:
    """The row :func:`queue_mail` stores for a mail, built but not stored (see
    :func:`insert_rows`)."""
    return OutboundMail(**outbound_values(ctx, session, **fields))


def outbound_values(ctx: ServiceContext, session: Session,
                    **fields: Unpack[MailFields]) -> dict[str, Any]:
    """The columns of the row :func:`queue_mail` stores for a mail (the others take their
    defaults)."""
    message_id = message_id_for(ctx, session, fields["key"])
    recipients = [a for a in dict.fromkeys(fields["to"]) if a]
    game_id, subject, in_reply_to = fields["game_id"], fields["subject"], fields.get("in_reply_to")
    raw = build_message(
        from_addr=ctx.service_address, to=recipients, subject=subject, text=fields["text"],
        html=fields.get("html"), message_id=message_id, in_reply_to=in_reply_to,
        references=tuple(fields.get("references", ())), game_id=game_id, date=ctx.clock.now(),
        attachments=fields.get("attachments", ()),
    )
    if ctx.on_queued is not None:  # a report's map drawn ahead (gm.pipeline.drawahead)
        ctx.on_queued(raw)
    return {"message_id": message_id, "game_id": game_id, "kind": fields["kind"],
            "recipients": recipients, "subject": subject, "raw": raw,
            "status": "held" if fields.get("held", False) else "queued",
            "in_reply_to": in_reply_to or "", "created_at": ctx.clock.now(),
            "next_attempt_at": ctx.clock.now(), "phase_bound": fields.get("phase_bound", False)}


def insert_rows(session: Session, rows: Sequence[OutboundMail]) -> None:
    """Queue mails built by :func:`outbound_row` in one statement, each unless a mail with
    its Message-ID is queued already (which stays as it is). The rows do not join the
    session. Issue 21: a close queues three report mails, an INSERT each was a fifth of its
    statements."""
    insert_many_or_ignore(session, rows, ["message_id"])


def _svg_to_png(data: bytes) -> bytes:
    from gm.maps.draw import png_from_svg

    return png_from_svg(data)


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

    Called on a copy of the queued row before each attempt to send it (the row stored
    keeps its pending parts: gm.pipeline.drawpool.finish_raw). A part that cannot be
    drawn is dropped (the HTML then shows its alt text).

    A mail as gm.mail.compose builds it is finished on its bytes (:func:`_finish_in_place`:
    the same bytes as the general path, which parses and writes the whole mail again, in a
    tenth of the time); any other, or a part that cannot be drawn, takes the general path.
    """
    if RENDER_HEADER.encode() not in row.raw:
        return False
    finished = _finish_in_place(row.raw)
    if finished is not None:
        row.raw = finished
        return True
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


_GM_BOUNDARY = re.compile(rb'boundary="(=_gm_[0-9a-f]{24}_[0-9]+)"')
_ANY_BOUNDARY = re.compile(rb"boundary=", re.IGNORECASE)
_FILENAME = re.compile(rb'filename="([^"]+)"')
_RENDER = RENDER_HEADER.lower().encode()


class _Part(NamedTuple):
    """A leaf part of a raw mail: where its delimiter line, headers and body start, where
    it ends (the next delimiter), its header lines and its headers by lower-case name."""

    start: int
    head: int
    body: int
    end: int
    lines: list[bytes]
    headers: dict[bytes, bytes]

    def type(self) -> str:
        value = self.headers.get(b"content-type", b"").split(b";")[0]
        return value.strip().lower().decode("ascii", "replace")


def _leaf_parts(raw: bytes) -> dict[str, _Part] | None:
    """The parts of ``raw`` that have a file name, by name; None if its multiparts are not
    all delimited by gm's own boundaries (gm.mail.compose)."""
    boundaries = set(_GM_BOUNDARY.findall(raw))
    if not boundaries or len(_ANY_BOUNDARY.findall(raw)) != len(_GM_BOUNDARY.findall(raw)):
        return None
    delimiters = sorted(m.start() for b in boundaries
                        for m in re.finditer(re.escape(b"\r\n--" + b), raw))
    by_name = {}
    for start, end in pairwise(delimiters):
        head = raw.find(b"\r\n", start + 2) + 2
        head_end = raw.find(b"\r\n\r\n", head - 2, end)
        if head_end < 0:
            continue
        lines = raw[head:head_end].split(b"\r\n")
        headers = {}
        for line in lines:
            name, colon, value = line.partition(b":")
            if colon and line[:1] not in (b" ", b"\t"):
                headers[name.strip().lower()] = value.strip()
        filename = _FILENAME.search(headers.get(b"content-disposition", b""))
        if filename:
            by_name[filename.group(1).decode("utf-8", "replace")] = _Part(
                start, head, head_end + 4, end, lines, headers)
    return by_name


def _finish_in_place(raw: bytes) -> bytes | None:
    """:func:`finish_pending_parts` on the bytes of a mail built by gm.mail.compose: each
    pending part's headers lose the render mark and say base64, its drawing goes in, the
    source-only parts go out, every other byte stays (tests/maps/test_finish_in_place.py:
    the same bytes as the general path). None (the general path then) when the mail is
    not of that shape (a boundary not gm's, a folded header or a body in a pending part, a
    source not in base64) or a part cannot be drawn."""
    by_name = _leaf_parts(raw)
    if by_name is None:
        return None
    pending = {n: p for n, p in by_name.items() if _RENDER in p.headers}
    if not pending:
        return None
    drawn: dict[str, bytes] = {}

    def content(name: str, seen: tuple[str, ...] = ()) -> bytes | None:
        part = by_name.get(name)
        if name in drawn or part is None or name in seen:
            return drawn.get(name)
        if name not in pending:
            encoding = part.headers.get(b"content-transfer-encoding", b"").lower()
            return base64.b64decode(raw[part.body:part.end]) if encoding == b"base64" else None
        if raw[part.body:part.end] or any(line[:1] in (b" ", b"\t") for line in part.lines):
            return None
        source_name = part.headers[_RENDER].decode("utf-8", "replace")
        source = content(source_name, (*seen, name))
        renderer = RENDERERS.get((by_name[source_name].type() if source_name in by_name else "",
                                  part.type()))
        if source is None or renderer is None:
            return None
        try:
            picture = renderer(source)
        except Exception:  # the general path drops the part (and draws it once more)
            return None
        if picture:
            drawn[name] = picture
        return picture or None

    dropped = [p for p in by_name.values() if p.type() in SOURCES_ONLY and p not in pending.values()]
    if sum(raw.count(t.encode()) for t in SOURCES_ONLY) != len(dropped):
        return None  # a source part without a file name, or the type named in a text
    if any(content(name) is None for name in pending):
        return None
    out, at = [], 0
    for part in sorted([*pending.values(), *dropped]):
        out.append(raw[at:part.start])
        at = part.end
        if part in dropped:
            continue
        name = next(n for n, p in pending.items() if p is part)
        kept = [line for line in part.lines if line.split(b":", 1)[0].strip().lower()
                not in (_RENDER, b"content-transfer-encoding")]
        out += [raw[part.start:part.head],
                b"\r\n".join([*kept, b"Content-Transfer-Encoding: base64"]), b"\r\n\r\n",
                _base64_lines(drawn[name])]
    out.append(raw[at:])
    return b"".join(out)


def _base64_lines(data: bytes) -> bytes:
    """``base64.encodebytes(data)`` with CRLF line ends (76 characters a line, each line
    ended, as email.encoders writes a part): encoded at once and cut, rather than
    encoded 57 bytes at a time (issue 21: 0.8 -> 0.55 ms for a map's PNG)."""
    encoded = binascii.b2a_base64(data, newline=False)
    if not encoded:
        return b""
    return b"\r\n".join([encoded[i:i + 76] for i in range(0, len(encoded), 76)]) + b"\r\n"


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

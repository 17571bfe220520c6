"""Turn a raw inbound mail into a :class:`DecodedMail` the order pipeline can read.

``decode`` never raises on bad input: broken charsets are decoded with
replacement characters, broken transfer encodings as far as they go, and a mail
above ``max_bytes`` is read for its headers only (``too_large``). The body is
the text/plain part when there is one; otherwise the HTML part reduced to text
with ``<blockquote>`` dropped (spec section 1); format=flowed is unwrapped
(RFC 3676, DelSp included). Attachments are listed and never read further.
Quote and signature stripping is not done here (gm/orders/text.py does it).
"""

from __future__ import annotations

import email
import enum
import hashlib
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from email.message import Message
from email.policy import Compat32
from email.utils import parsedate_to_datetime
from typing import Any, TypedDict, TypeVar

from gm.kept import Kept
from gm.mail.classify import Classification, MailClass, classify, classify_with_reason
from gm.mail.flowed import unwrap_flowed
from gm.mail.headers import decode_bytes, decode_header_value, message_ids, parse_addresses
from gm.mail.html_text import html_to_text

__all__ = [
    "Attachment",
    "BodyKind",
    "Classification",
    "DecodedMail",
    "MailClass",
    "classify",
    "classify_with_reason",
    "decode",
    "plus_tag",
    "DEFAULT_MAX_BYTES",
]

class _RawHeaderPolicy(Compat32):
    """compat32, but header values come back as parsed (raw 8-bit bytes kept as
    surrogate escapes) instead of being replaced with U+FFFD; headers.py decodes them."""

    def header_fetch_parse(self, name: str, value: str) -> str:
        return value


_RAW = _RawHeaderPolicy()


class _Message(Message):
    """The email package's message, a header's parameters (``Content-Type: text/plain;
    charset=...; format=flowed``) parsed once per value rather than once per question
    asked of them: the type, the charset, format, delsp, the file name and the report type
    are each asked for (issue 21: four parses of the same Content-Type were a quarter of
    decoding an order mail). The parse is a pure function of the value (its list is
    copied out; its items are tuples and strings); the last few hundred are kept."""

    _PARAMS: Kept[tuple[str, str], list[tuple[str, Any]]] = Kept(256)

    def _get_params_preserve(self, failobj: Any, header: str) -> Any:
        value = self.get(header, None)
        if type(value) is not str:
            return super()._get_params_preserve(failobj, header)  # type: ignore[misc]
        key = (header.lower(), value)
        params = self._PARAMS.get(key)
        if params is None:
            params = super()._get_params_preserve(failobj, header)  # type: ignore[misc]
            self._PARAMS.put(key, params)
        return list(params)
DEFAULT_MAX_BYTES = 10 * 1024 * 1024  # spec section 2: "Mails up to 10 MB are read"
SYNTHETIC_DOMAIN = "synthetic.gm.invalid"


class BodyKind(enum.Enum):
    """Where ``DecodedMail.text`` came from."""

    PLAIN = "plain"
    HTML = "html"
    NONE = "none"


@dataclass(frozen=True)
class Attachment:
    """An attachment, listed so the reply can say it was ignored."""

    filename: str
    content_type: str
    size: int


@dataclass(frozen=True)
class DecodedMail:
    """The parts of an inbound mail the service looks at."""

    message_id: str
    message_id_synthetic: bool
    from_addr: str
    from_name: str
    reply_to: str | None
    to: tuple[str, ...]
    cc: tuple[str, ...]
    subject: str
    in_reply_to: str | None
    references: tuple[str, ...]
    date: datetime | None
    text: str
    body_kind: BodyKind
    attachments: tuple[Attachment, ...]
    too_large: bool
    size: int
    content_type: str
    report_type: str
    headers: tuple[tuple[str, str], ...] = field(repr=False, default=())

    def header(self, name: str) -> str | None:
        """The first value of header ``name`` (case-insensitive), decoded, or None."""
        values = self.header_all(name)
        return values[0] if values else None

    def header_all(self, name: str) -> list[str]:
        """Every value of header ``name``, decoded, in order."""
        low = name.lower()
        return [v for k, v in self.headers if k.lower() == low]

    @property
    def reply_address(self) -> str:
        """Where a reply goes: Reply-To if present, else From (spec section 2)."""
        return self.reply_to or self.from_addr

    def recipient_addresses(self) -> tuple[str, ...]:
        """To, Cc and the delivery headers that name the envelope recipient."""
        extra: list[str] = []
        for name in ("Delivered-To", "X-Original-To", "Envelope-To"):
            extra.extend(addr for _, addr in parse_addresses(self.header_all(name)))
        return self.to + self.cc + tuple(extra)

    def plus_tag(self, service_address: str) -> str | None:
        """The game named by plus-addressing (``gm+baltica42@host`` -> "baltica42")."""
        for address in self.recipient_addresses():
            tag = plus_tag(address, service_address)
            if tag:
                return tag
        return None


def plus_tag(address: str, service_address: str) -> str | None:
    """The ``+tag`` of ``address`` if it is the service's own address with a tag."""
    local, _, domain = address.strip().rpartition("@")
    s_local, _, s_domain = service_address.strip().rpartition("@")
    if not local or domain.lower() != s_domain.lower():
        return None
    base, sep, tag = local.partition("+")
    if not sep or base.lower() != s_local.lower() or not tag:
        return None
    return tag.lower()


_RECENT: dict[tuple[bytes, int], DecodedMail] = {}
_RECENT_LOCK = threading.Lock()
_RECENT_SIZE = 32  # mails; a mail is decoded when stored, then again when handled (issue 21):
# the daemon stores up to gm.daemon.ROUND_CHUNK (16) mails before it handles the first
_RECENT_BYTES = 256 * 1024  # larger mails are decoded each time, not kept


def decode(raw: bytes, max_bytes: int = DEFAULT_MAX_BYTES) -> DecodedMail:
    """Decode ``raw`` (RFC 5322 bytes); never raises on malformed mail.

    The last few small mails decoded are remembered (a :class:`DecodedMail` is frozen), so
    the same bytes stored and then handled are read once."""
    if len(raw) > _RECENT_BYTES:
        return _decode(raw, max_bytes)
    key = (bytes(raw), max_bytes)
    found = _RECENT.get(key)
    if found is None:
        found = _decode(raw, max_bytes)
        with _RECENT_LOCK:  # the daemon decodes in worker threads
            _RECENT[key] = found
            while len(_RECENT) > _RECENT_SIZE:
                del _RECENT[next(iter(_RECENT))]
    return found


def _decode(raw: bytes, max_bytes: int) -> DecodedMail:
    too_large = len(raw) > max_bytes
    msg = email.message_from_bytes(_header_block(raw) if too_large else raw, _class=_Message,
                                   policy=_RAW)
    items = msg.items()
    headers = tuple((str(k), decode_header_value(v)) for k, v in items)
    # Each header read once (issue 21: msg.get looks through every header, lowering each
    # name, for each question): its raw values, and its first value decoded as above.
    values: dict[str, list[str]] = {}
    for k, v in items:
        values.setdefault(k.lower(), []).append(v)
    first: dict[str, str] = {}
    for k, v in headers:
        first.setdefault(k.lower(), v)
    text, kind, attachments = ("", BodyKind.NONE, ()) if too_large else _body(msg)
    return DecodedMail(
        **_identity(first.get("message-id", ""), raw),
        **_addresses(values),
        subject=first.get("subject", ""),
        in_reply_to=_first(message_ids(first.get("in-reply-to", ""))),
        references=message_ids(first.get("references", "")),
        date=_date(values.get("date", [None])[0]),
        text=text,
        body_kind=kind,
        attachments=attachments,
        too_large=too_large,
        size=len(raw),
        content_type=_safe(msg.get_content_type, "text/plain"),
        report_type=str(_safe(lambda: msg.get_param("report-type"), "") or "").lower(),
        headers=headers,
    )


_T = TypeVar("_T")
_D = TypeVar("_D")


def _header_block(raw: bytes) -> bytes:
    for sep in (b"\r\n\r\n", b"\n\n"):
        end = raw.find(sep)
        if end != -1:
            return raw[: end + len(sep)]
    return raw[:65536]


class _Identity(TypedDict):
    message_id: str
    message_id_synthetic: bool


class _Addresses(TypedDict):
    from_addr: str
    from_name: str
    reply_to: str | None
    to: tuple[str, ...]
    cc: tuple[str, ...]


def _identity(value: str, raw: bytes) -> _Identity:
    """The mail's Message-ID from ``value``, its Message-ID header decoded ('' if none)."""
    ids = message_ids(value)
    if ids:
        return {"message_id": ids[0], "message_id_synthetic": False}
    if value and " " not in value:
        return {"message_id": f"<{value.strip('<>')}>", "message_id_synthetic": False}
    digest = hashlib.sha256(raw).hexdigest()[:40]
    return {"message_id": f"<{digest}@{SYNTHETIC_DOMAIN}>", "message_id_synthetic": True}


def _addresses(values: dict[str, list[str]]) -> _Addresses:
    """The addresses of the mail whose headers' raw values are ``values`` (by lower-case name)."""
    sender = parse_addresses(values.get("from", []))
    reply_to = parse_addresses(values.get("reply-to", []))
    return {
        "from_addr": sender[0][1] if sender else "",
        "from_name": sender[0][0] if sender else "",
        "reply_to": reply_to[0][1] if reply_to else None,
        "to": tuple(a for _, a in parse_addresses(values.get("to", []))),
        "cc": tuple(a for _, a in parse_addresses(values.get("cc", []))),
    }


def _first(values: tuple[str, ...]) -> str | None:
    return values[0] if values else None


def _date(value: object) -> datetime | None:
    if not value:
        return None
    try:
        return parsedate_to_datetime(decode_header_value(value))
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def _safe(fn: Callable[[], _T], default: _D) -> _T | _D:
    try:
        return fn()
    except Exception:  # the email package can trip over hostile parameters
        return default


def _body(msg: Message) -> tuple[str, BodyKind, tuple[Attachment, ...]]:
    plain: list[str] = []
    html: list[str] = []
    attachments: list[Attachment] = []
    _collect(msg, plain, html, attachments)
    if any(p.strip() for p in plain):
        return "\n".join(p.rstrip("\n") for p in plain).strip("\n"), BodyKind.PLAIN, tuple(attachments)
    if html:
        return html_to_text("\n".join(html)), BodyKind.HTML, tuple(attachments)
    return "", BodyKind.NONE, tuple(attachments)


def _collect(part: Message, plain: list[str], html: list[str], atts: list[Attachment]) -> None:
    """Walk the MIME tree: inline text parts are body, everything else attachments."""
    if part.is_multipart():
        if _safe(part.get_content_type, "") == "message/rfc822":
            atts.append(_attachment(part))
            return
        for sub in _safe(part.get_payload, []) or []:
            if isinstance(sub, Message):
                _collect(sub, plain, html, atts)
        return
    ctype = _safe(part.get_content_type, "text/plain")
    main, _, sub = ctype.partition("/")
    if not main or not sub or main == "multipart":
        # A broken label ("text/", a multipart with no boundary) is read as text
        # (RFC 2045 §5.2), never dropped as an attachment with the orders in it.
        ctype = "text/plain"
    _normalise_transfer_encoding(part)
    if _is_attachment(part) or ctype not in ("text/plain", "text/html"):
        atts.append(_attachment(part))
        return
    text = _part_text(part)
    if ctype == "text/html":
        html.append(text)
    else:
        plain.append(_unflow(part, text))


def _normalise_transfer_encoding(part: Message) -> None:
    """Read ``Content-Transfer-Encoding: Base64 `` or ``base64 (by Webmail)`` as
    ``base64``: the email package matches the label exactly, so a stray space, a
    comment (RFC 2045 allows them) or a capital would leave the body encoded and
    the orders unread."""
    value = _safe(lambda: part.get("Content-Transfer-Encoding"), None)
    if not isinstance(value, str):
        return
    label = re.sub(r"\([^()]*\)", " ", value).strip().strip('"').strip().lower()
    if label != value:
        _safe(lambda: part.replace_header("Content-Transfer-Encoding", label), None)


def _is_attachment(part: Message) -> bool:
    disposition = str(_safe(part.get_content_disposition, "") or "")
    return disposition == "attachment" or bool(_safe(part.get_filename, None))


def _attachment(part: Message) -> Attachment:
    payload = _safe(lambda: part.get_payload(decode=True), None)
    if payload is None:
        payload = _safe(part.as_bytes, b"")
    name = decode_header_value(_safe(part.get_filename, None) or "")
    return Attachment(name, _safe(part.get_content_type, ""), len(payload or b""))


def _part_text(part: Message) -> str:
    payload = _safe(lambda: part.get_payload(decode=True), b"")
    text = decode_bytes(payload if isinstance(payload, bytes) else b"",
                        _safe(part.get_content_charset, None))
    return text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")


def _unflow(part: Message, text: str) -> str:
    if str(_safe(lambda: part.get_param("format"), "") or "").lower() != "flowed":
        return text
    delsp = str(_safe(lambda: part.get_param("delsp"), "") or "").lower() == "yes"
    return unwrap_flowed(text, delsp=delsp)

"""Build the bytes of an outgoing mail.

Everything the service sends carries ``Auto-Submitted: auto-generated`` and,
when a game is named, ``X-GM-Game`` (spec section 2), so our own mail coming
back is recognised as a loop. The Message-ID is chosen by the caller, usually
``make_message_id("reply:<inbound id>", domain, secret)``, so a message re-sent
after a crash carries the same id; it is an HMAC of the key under the
instance's secret (gm.service.secret), so it tells nobody which mail, game,
line or power it was made for. Header values are single-line: CR/LF in a subject or
name from player text is folded to a space; an address containing control
characters or angle brackets is refused with :class:`UnsafeHeaderError`.

With an HTML alternative the mail is ``multipart/alternative`` (text first, so
a client that cannot show HTML, and a reply quoting it, gets the text); images
the HTML shows (``cid:``) sit beside it in ``multipart/related``; other
attachments (a calendar file, the map's SVG) make the whole a
``multipart/mixed``. The MIME boundaries are derived from the Message-ID, so
building the same mail twice gives the same bytes.
"""

from __future__ import annotations

import binascii
import email.contentmanager
import email.generator
import hashlib
import hmac
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email import quoprimime
from email.generator import BytesGenerator
from email.headerregistry import Address, BaseHeader, HeaderRegistry
from email.message import EmailMessage
from email.policy import SMTP, Policy
from email.utils import format_datetime, formataddr, parseaddr
from functools import lru_cache
from io import BytesIO


class _FoldedOnce(BaseHeader):
    """A header that folds itself once per policy: a remembered header (:class:`_Headers`)
    is written into many mails, and its fold is a pure function of it and the policy."""

    def fold(self, *, policy: Policy) -> str:
        folded: dict[Policy, str] = self.__dict__.setdefault("_gm_folded", {})
        out = folded.get(policy)
        if out is None:
            out = folded[policy] = super().fold(policy=policy)
        return out


class _Headers(HeaderRegistry):
    """The standard header registry, its header classes made once per name, and the header
    a (name, value) pair parses to remembered (the last 4,096): the standard one makes a new
    class for every header of every mail and parses the same MIME headers (Content-Type,
    Content-Transfer-Encoding, ...) again for each part of each mail: a third of the time
    a deadline storm spent queueing reports (issue 21). A header is immutable once made
    (its fold reads its parse tree, never changes it): same headers, same bytes."""

    MEMO_SIZE = 4096

    def __init__(self) -> None:
        super().__init__(base_class=_FoldedOnce)
        self._made: dict[str, type[BaseHeader]] = {}
        self._parsed: dict[tuple[str, str], BaseHeader] = {}

    def __getitem__(self, name: str) -> type[BaseHeader]:
        key = name.lower()
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = super().__getitem__(name)
        return made

    def __call__(self, name: str, value: str) -> BaseHeader:
        key = (name, value)
        header = self._parsed.get(key)
        if header is None:
            if len(self._parsed) >= self.MEMO_SIZE:
                self._parsed.clear()
            header = self._parsed[key] = self[name](name, value)
        return header


POLICY = SMTP.clone(header_factory=_Headers())
"""email.policy.SMTP, its headers made once (:class:`_Headers`): the same bytes."""


class _Generator(BytesGenerator):
    """The standard bytes generator, each body written in one piece rather than line by
    line (a sixth of a report mail's building): the same bytes."""

    def _write_lines(self, lines: str) -> None:
        if not lines:
            return
        parts = _NLCRE.split(lines)
        nl: str = self._NL  # type: ignore[attr-defined]
        self.write(nl.join(parts[:-1]) + (nl if len(parts) > 1 else "") + parts[-1])


_NLCRE: re.Pattern[str] = email.generator.NLCRE  # type: ignore[attr-defined]


def _as_bytes(msg: EmailMessage) -> bytes:
    """``msg.as_bytes(policy=POLICY)``, through :class:`_Generator`."""
    out = BytesIO()
    _Generator(out, mangle_from_=False, policy=POLICY).flatten(msg)
    return out.getvalue()


_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")
_MAX_LINE = 78  # SMTP.max_line_length
_PLAIN_VALUE = re.compile(r"[!-~]+(?: [!-~]+)*")  # printable ASCII words, one space apart
_PLAIN_ADDRESS = re.compile(r"[A-Za-z0-9._+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')
_HEADER_NAME = re.compile(r"^[!-9;-~]+$")  # RFC 5322 ftext
_RESERVED = frozenset(
    h.lower()
    for h in (
        "From",
        "To",
        "Cc",
        "Bcc",
        "Subject",
        "Message-ID",
        "In-Reply-To",
        "References",
        "Date",
        "Auto-Submitted",
        "X-GM-Game",
        "MIME-Version",
        "Content-Type",
        "Content-Transfer-Encoding",
    )
)


class UnsafeHeaderError(ValueError):
    """An address or header name that cannot be put in a header safely."""


@dataclass(frozen=True)
class Attachment:
    """A file sent with a mail; with a ``cid`` it is shown inside the HTML part."""

    data: bytes | str
    content_type: str  # "image/png", "text/calendar"...
    filename: str
    cid: str | None = None  # "map.1234@example.org": the HTML refers to it as cid:...
    params: Mapping[str, str] = field(default_factory=dict)  # e.g. {"method": "PUBLISH"}
    render_from: str | None = None  # drawn later from the attachment of that file name


RENDER_HEADER = "X-GM-Render-From"
"""Marks a part left empty at queue time, to be drawn from another part before sending."""


def make_message_id(key: str, domain: str, secret: bytes) -> str:
    """A Message-ID that depends only on ``key``, ``domain`` and the instance's ``secret``
    (stable across re-sends), and without the secret reveals nothing of ``key``."""
    if len(secret) < 16:
        raise ValueError("a Message-ID secret needs at least 16 bytes")
    digest = hmac.new(secret, key.encode("utf-8"), hashlib.sha256).hexdigest()[:32]
    return f"<gm.{digest}@{_clean_domain(domain)}>"


def safe_header_text(value: str) -> str:
    """``value`` as one header line: control characters (CR, LF, TAB...) become spaces."""
    return _CONTROL.sub(" ", value).strip()


def build_message(
    *,
    from_addr: str,
    to: list[str],
    subject: str,
    text: str,
    message_id: str,
    html: str | None = None,
    in_reply_to: str | None = None,
    references: Iterable[str] = (),
    game_id: str | None = None,
    headers: Mapping[str, str] | None = None,
    date: datetime | None = None,
    attachments: Sequence[Attachment] = (),
) -> bytes:
    """Return the RFC 5322 bytes (CRLF, UTF-8 bodies, encoded headers) of a mail.

    The common mail (a reply: short ASCII headers and plain addresses, a text and
    perhaps an HTML alternative, nothing attached) is written directly (issue 21: the
    email package was a tenth of an order mail's handling), and so is a report mail (the
    same headers, text and HTML, attachments of plain names and types: :func:`_parts_bytes`;
    the email package was a fifth of a deadline storm's queueing); their bytes are those
    the email package writes (tests/mail/test_compose_fast.py,
    tests/mail/test_compose_parts.py compare them), which writes every other mail."""
    addresses = (_address_header(from_addr), [_address_header(a) for a in to])
    fields = [("From", addresses[0]), ("To", ", ".join(addresses[1])),
              ("Subject", safe_header_text(subject)),
              ("Date", format_datetime(date or datetime.now(UTC))),
              ("Message-ID", _msgid(message_id))]
    if in_reply_to:
        fields.append(("In-Reply-To", _msgid(in_reply_to)))
    refs = [_msgid(r) for r in references if r]
    if refs:
        fields.append(("References", " ".join(refs)))
    fields.append(("Auto-Submitted", "auto-generated"))
    if game_id:
        fields.append(("X-GM-Game", safe_header_text(game_id)))
    for name, value in (headers or {}).items():
        _check_extra_name(name)
        fields.append((name, safe_header_text(value)))
    if _plain_fields(fields, [addresses[0], *addresses[1]]):
        if not attachments:
            return _plain_bytes(fields, text, html, message_id)
        if html is not None and (direct := _parts_bytes(fields, text, html, message_id,
                                                        attachments)) is not None:
            return direct
    return _email_package_bytes(fields, text, html, message_id, attachments)


def readdressed(raw: bytes, *, to: Sequence[str], message_id: str, date: datetime) -> bytes:
    """``raw`` (a mail :func:`build_message` wrote) sent anew: its ``To``, ``Message-ID`` and
    ``Date`` headers replaced, every other byte kept (its body, its parts still to draw: a
    mail gm could not deliver, queued again for a seat's new address,
    gm.service.undelivered). The addresses are checked as :func:`build_message` checks them."""
    new = {"to": ", ".join(_address_header(a) for a in to), "message-id": _msgid(message_id),
           "date": format_datetime(date)}
    end = raw.find(b"\r\n\r\n")
    head, body = (raw + b"\r\n", b"") if end < 0 else (raw[:end + 2], raw[end + 2:])
    lines: list[bytes] = []
    for line in head.split(b"\r\n")[:-1]:
        if line[:1] in (b" ", b"\t") and lines:
            lines[-1] += b"\r\n" + line  # a folded header's next line
        else:
            lines.append(line)
    names = {"to": "To", "message-id": "Message-ID", "date": "Date"}
    out = []
    for header in lines:
        name = header.split(b":", 1)[0].strip().decode("ascii", "replace").lower()
        if name not in names:
            out.append(header + b"\r\n")
        elif name in new:  # in its place; a second one of those is dropped
            out.append(_folded(names[name], new.pop(name)))
    out += [_folded(names[name], value) for name, value in new.items()]
    return b"".join(out) + body


def _folded(name: str, value: str) -> bytes:
    """One header line as the email package writes it in :func:`build_message`."""
    return POLICY.header_factory(name, value).fold(policy=POLICY).encode("ascii")


def _plain_fields(fields: list[tuple[str, str]], addresses: list[str]) -> bool:
    """Headers the email package writes as they are: one short line of plain ASCII each."""
    return (all(_PLAIN_ADDRESS.fullmatch(a) for a in addresses)
            and all(len(name) + 2 + len(value) <= _MAX_LINE and _PLAIN_VALUE.fullmatch(value)
                    and "=?" not in value for name, value in fields))


def _qp_body(text: str) -> bytes:
    """A text part's body as the email package encodes it (quoted-printable, CRLF)."""
    lines = _crlf_free(text).encode("utf-8").splitlines()
    data = _qp_encode((b"\n".join(lines) + b"\n").decode("latin-1"))
    return data.replace("\n", "\r\n").encode("ascii")


_QP_MAP: list[str] = quoprimime._QUOPRI_BODY_ENCODE_MAP  # type: ignore[attr-defined]
_QP_QUOTED = re.compile("[^" + re.escape("".join(chr(i) for i in range(256) if _QP_MAP[i] == chr(i))
                        + "=") + "]")
"""The characters quoted but for ``=`` (quoted first, by str.replace)."""


def _qp_encode(body: str) -> str:
    """``quoprimime.body_encode(body, 78)`` for a body of latin-1 characters whose lines end
    in LF (as :func:`_qp_body` makes it): ``=`` quoted by str.replace, the other characters
    to quote (none in most replies) by one regular expression, and only the lines that need
    it broken by body_encode's own rules (issue 21: the encoding was a third of writing a
    report mail; quoting each ``=`` of the HTML's ``style="..."`` through a Python call was
    a third of writing a reply)."""
    if not body:
        return body
    quoted = body.replace("=", "=3D")
    if not quoted.isascii() or _QP_QUOTED.search(quoted):
        quoted = _QP_QUOTED.sub(lambda m: _QP_MAP[ord(m.group())], quoted)
    return "\n".join([line if len(line) <= _MAX_LINE and not line.endswith((" ", "\t"))
                      else _qp_break(line) for line in quoted.split("\n")])


def _qp_break(line: str) -> str:
    """One quoted line broken as quoprimime.body_encode breaks it (its loop, for one line)."""
    maxlinelen, soft_break = _MAX_LINE, "=\n"
    pieces = []
    start = 0
    laststart = len(line) - 1 - maxlinelen
    while start <= laststart:
        stop = start + maxlinelen - 1
        if line[stop - 2] == "=":
            pieces.append(line[start:stop - 1])
            start = stop - 2
        elif line[stop - 1] == "=":
            pieces.append(line[start:stop])
            start = stop - 1
        else:
            pieces.append(line[start:stop] + "=")
            start = stop
    if line and line[-1] in " \t":
        room = start - laststart
        if room >= 3:
            q = quoprimime.quote(line[-1])
        elif room == 2:
            q = line[-1] + soft_break
        else:
            q = soft_break + quoprimime.quote(line[-1])
        pieces.append(line[start:-1] + q)
    else:
        pieces.append(line[start:])
    return "\n".join(pieces)


_TEXT_HEADERS = b'Content-Type: text/%s; charset="utf-8"\r\nContent-Transfer-Encoding: quoted-printable\r\n'


def _plain_bytes(fields: list[tuple[str, str]], text: str, html: str | None, message_id: str) -> bytes:
    head = b"".join(f"{name}: {value}\r\n".encode("ascii") for name, value in fields)
    if html is None:
        return (head + _TEXT_HEADERS % b"plain" + b"MIME-Version: 1.0\r\n\r\n" + _qp_body(text))
    boundary = _boundary(message_id, 0).encode("ascii")
    return b"".join([
        head, b"MIME-Version: 1.0\r\nContent-Type: multipart/alternative;\r\n boundary=\"",
        boundary, b"\"\r\n\r\n--", boundary, b"\r\n", _TEXT_HEADERS % b"plain", b"\r\n",
        _qp_body(text), b"\r\n--", boundary, b"\r\n", _TEXT_HEADERS % b"html", b"\r\n",
        _qp_body(html), b"\r\n--", boundary, b"--\r\n"])


_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9.+_-]*")  # a MIME type's halves, a parameter
_PLAIN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")  # a file name written as it is
_PLAIN_CID = re.compile(r"[A-Za-z0-9._+-]+@[A-Za-z0-9.-]+")


def _header_lines(headers: list[str]) -> bytes | None:
    """Header lines the email package writes unchanged (short printable ASCII), else None."""
    if any(len(h) > _MAX_LINE or not _PLAIN_VALUE.fullmatch(h) for h in headers):
        return None
    return "".join(h + "\r\n" for h in headers).encode("ascii")


def _lines(payload: str) -> bytes:
    """A part's payload as the generator writes it (:class:`_Generator`: every line end CRLF,
    a payload of raw bytes kept as they were). Without a CR, each LF becomes CRLF, by one
    str.replace (issue 21: a map's base64 is some 300 lines)."""
    if "\r" not in payload:
        return payload.replace("\n", "\r\n").encode("ascii", "surrogateescape")
    parts = _NLCRE.split(payload)
    return ("\r\n".join(parts)).encode("ascii", "surrogateescape")


def _attachment_bytes(a: Attachment, disposition: str) -> bytes | None:
    """One attachment as the email package writes it (:func:`_add`: set_content's headers
    in set_content's order), or None when it is not of the plain kind written here."""
    maintype, _, subtype = a.content_type.partition("/")
    name = safe_header_text(a.filename)
    if not (_TOKEN.fullmatch(maintype) and _TOKEN.fullmatch(subtype) and _PLAIN_NAME.fullmatch(name)
            and all(_TOKEN.fullmatch(k) and _TOKEN.fullmatch(v) for k, v in a.params.items())
            and (a.cid is None or _PLAIN_CID.fullmatch(a.cid))):
        return None
    content_type = f"Content-Type: {maintype}/{subtype}"
    headers = [content_type]
    if a.render_from:
        source = safe_header_text(a.render_from)
        if not _PLAIN_NAME.fullmatch(source):
            return None
        headers.append(f"{RENDER_HEADER}: {source}")
        cte, payload = "base64", ""
    elif isinstance(a.data, str) and maintype == "text":
        encode_text = getattr(email.contentmanager, "_encode_text", None)
        if encode_text is None:
            return None
        cte, payload = encode_text(_crlf_free(a.data), "utf-8", None, POLICY)
        content_type = headers[0] = f'{content_type}; charset="utf-8"'
    else:
        data = a.data.encode("utf-8") if isinstance(a.data, str) else a.data
        cte, payload = "base64", _base64_lines(data)
    headers += [f"Content-Transfer-Encoding: {cte}", f'Content-Disposition: {disposition}; filename="{name}"']
    if a.cid:
        headers.append(f"Content-ID: <{a.cid}>")
    if a.params:  # set_param writes Content-Type again, last
        headers.remove(content_type)
        headers.append(content_type + "".join(f'; {k}="{v}"' for k, v in a.params.items()))
    head = _header_lines(headers)
    return None if head is None else head + b"\r\n" + _lines(payload)


def _base64_lines(data: bytes) -> str:
    """``base64.encodebytes(data).decode("ascii")``: lines of 76 characters (57 bytes), each
    ending in LF. Encoded in one call, then cut (issue 21: encodebytes calls the encoder
    for each line, some 300 calls for a map)."""
    flat = binascii.b2a_base64(data, newline=False).decode("ascii")
    return "".join([flat[i:i + 76] + "\n" for i in range(0, len(flat), 76)])


def _multipart(subtype: str, boundary: str, parts: list[bytes]) -> bytes:
    """A multipart part: its Content-Type (folded as the email package folds it), its parts."""
    line = f'Content-Type: multipart/{subtype}; boundary="{boundary}"'
    if len(line) > _MAX_LINE:
        line = f'Content-Type: multipart/{subtype};\r\n boundary="{boundary}"'
    b = boundary.encode("ascii")
    return b"".join([line.encode("ascii"), b"\r\n\r\n--", b, b"\r\n",
                     (b"\r\n--" + b + b"\r\n").join(parts), b"\r\n--", b, b"--\r\n"])


def _parts_bytes(fields: list[tuple[str, str]], text: str, html: str, message_id: str,
                 attachments: Sequence[Attachment]) -> bytes | None:
    """A mail with text, HTML and attachments (a report) written as :func:`_email_package_bytes`
    writes it: ``multipart/alternative`` of the text and the HTML, the HTML in a
    ``multipart/related`` with the pictures it shows, in a ``multipart/mixed`` with the other
    attachments; boundaries numbered by each part's place (:func:`_stable_boundaries`).
    None when an attachment is not of the plain kind written here."""
    inline = [a for a in attachments if a.cid]
    others = [a for a in attachments if not a.cid]
    written = [_attachment_bytes(a, "inline") for a in inline]
    written += [_attachment_bytes(a, "attachment") for a in others]
    if any(w is None for w in written):
        return None
    done = [w for w in written if w is not None]
    top = 1 if others else 0  # the place of multipart/alternative in the walk
    html_part = _TEXT_HEADERS % b"html" + b"\r\n" + _qp_body(html)
    if inline:
        html_part = _multipart("related", _boundary(message_id, top + 2), [html_part, *done[:len(inline)]])
    body = _multipart("alternative", _boundary(message_id, top),
                      [_TEXT_HEADERS % b"plain" + b"\r\n" + _qp_body(text), html_part])
    if others:
        body = _multipart("mixed", _boundary(message_id, 0), [body, *done[len(inline):]])
    head = b"".join(f"{name}: {value}\r\n".encode("ascii") for name, value in fields)
    return head + b"MIME-Version: 1.0\r\n" + body


def _email_package_bytes(fields: list[tuple[str, str]], text: str, html: str | None, message_id: str,
                         attachments: Sequence[Attachment]) -> bytes:
    msg = EmailMessage(policy=POLICY)
    for name, value in fields:
        msg[name] = value
    msg.set_content(_crlf_free(text), charset="utf-8", cte="quoted-printable")
    inline = [a for a in attachments if a.cid]
    if html is not None:
        msg.add_alternative(
            _crlf_free(html), subtype="html", charset="utf-8", cte="quoted-printable"
        )
        html_part = list(msg.iter_parts())[1]  # [text, html]: the related parts go in html
        for a in inline:
            _add(html_part.add_related, a, disposition="inline", cid=_msgid(f"<{a.cid}>"))
    for a in attachments:
        if not a.cid or html is None:
            _add(msg.add_attachment, a, disposition="attachment")
    _stable_boundaries(msg, message_id)
    return _as_bytes(msg)


def _add(method: Callable[..., None], a: Attachment, **kw: object) -> None:
    maintype, _, subtype = a.content_type.partition("/")
    name = safe_header_text(a.filename)
    if a.render_from:
        kw["headers"] = [f"{RENDER_HEADER}: {safe_header_text(a.render_from)}"]
        method(b"", maintype, subtype, filename=name, params=dict(a.params), **kw)
    elif isinstance(a.data, str) and maintype == "text":
        method(_crlf_free(a.data), subtype=subtype, charset="utf-8", filename=name,
               params=dict(a.params), **kw)
    else:
        data = a.data.encode("utf-8") if isinstance(a.data, str) else a.data
        method(data, maintype, subtype, filename=name, params=dict(a.params), **kw)


def _stable_boundaries(msg: EmailMessage, message_id: str) -> None:
    """Boundaries from the Message-ID and the part's place: the same mail, the same bytes."""
    for n, part in enumerate(msg.walk()):
        if part is not msg:
            del part["MIME-Version"]  # only the top needs it
        if part.is_multipart():
            part.set_boundary(_boundary(message_id, n))


def _boundary(message_id: str, n: int) -> str:
    return f"=_gm_{hashlib.sha256(message_id.encode('utf-8')).hexdigest()[:24]}_{n}"


def _crlf_free(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


@lru_cache(maxsize=1024)
def _address_header(value: str) -> str:
    """Format one address; refuse anything that could smuggle a header or a recipient.

    Remembered (the last 1,024; a refusal is not): the service's own address heads every
    mail, and a player's comes back each turn; the email package's parse was a quarter of
    building a reply (issue 21)."""
    if _CONTROL.search(value):
        raise UnsafeHeaderError(f"control character in address {value!r}")
    unquoted = _QUOTED.sub("", value)
    if any(c in unquoted for c in ",;") or unquoted.count("<") > 1 or unquoted.count(">") > 1:
        raise UnsafeHeaderError(f"not a single address: {value!r}")
    name, addr = parseaddr(value)
    if not addr or "@" not in addr or any(c in addr for c in '<>,;" '):
        raise UnsafeHeaderError(f"not a single address: {value!r}")
    local, _, domain = addr.rpartition("@")
    try:
        Address(username=local, domain=domain)
    except (ValueError, IndexError) as exc:
        raise UnsafeHeaderError(f"not a single address: {value!r}") from exc
    return formataddr((safe_header_text(name), addr)) if name else addr


def _msgid(value: str) -> str:
    value = safe_header_text(value)
    if not re.fullmatch(r"<[^<>\s]+>", value):
        raise UnsafeHeaderError(f"not a Message-ID: {value!r}")
    return value


def _check_extra_name(name: str) -> None:
    if not _HEADER_NAME.match(name) or name.lower() in _RESERVED:
        raise UnsafeHeaderError(f"header name not allowed: {name!r}")


def _clean_domain(domain: str) -> str:
    cleaned = re.sub(r"[^A-Za-z0-9.-]", "", domain)
    if not cleaned:
        raise UnsafeHeaderError(f"not a domain: {domain!r}")
    return cleaned

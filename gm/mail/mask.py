"""Masking passwords in a stored mail (issue 22: no password in clear at rest).

A password appears in mail as the word after a sign-on keyword at the start of
a line (``POWER sweden hunter2``, ``MODERATOR secret``, ``PASSWORD new``, their
French and ``SIGNON`` forms, also in quoted lines and after a colon, as in
"Sign on with:  POWER sweden hunter2"). :func:`mask_mail` finds those words in
every text part, adds the passwords the caller knows (those the order parser
read), and replaces each of them everywhere in the mail (text and HTML parts,
headers) by ``********``. The masked mail is checked afterwards; if a password
could still be read in it (an encoding this cannot rewrite), its body is
replaced by a note: a password must never stay at rest, a body may go.

Masking re-encodes the parts it changes (the bytes differ, the text reads the
same but for the passwords); mails without a password come back unchanged.

The common mail, one plain-text part in UTF-8 or ASCII sent as 7bit or 8bit
(:func:`_plain_layout`), is masked on its bytes without the email package: its body's
bytes are its text, so masking them masks every form the mail can be read in, and the
check afterwards reads the bytes. Anything else takes the general path (issue 21).
"""

from __future__ import annotations

import email
import re
from collections.abc import Iterable
from dataclasses import dataclass
from email.message import EmailMessage, Message
from email.policy import default as default_policy

MASK = "********"
MIN_EXACT = 4
"""Shorter secrets are masked as whole words only (``pw``, never the ``pw`` in ``upward``)."""

_PREFIX = r"(?:^|[:>])[ \t>|*•\-]*"  # a line's start (quoted or listed), "with:", an HTML tag
_SECRET = r"(?P<secret>[^\s<]+)"
_SIGNON = re.compile(
    _PREFIX + r"(?:power|signon|puissance)[ \t]+[^\s<]+[ \t]+" + _SECRET, re.I | re.M)
_SINGLE = re.compile(
    _PREFIX + r"(?:moderator|moderateur|modérateur|password|motdepasse)[ \t]+" + _SECRET,
    re.I | re.M)
_HTML_TAG = re.compile(r"<[^>]*>")


def find_secrets(text: str) -> set[str]:
    """The words in ``text`` that stand where a password stands in a sign-on line."""
    found: set[str] = set()
    for pattern in (_SIGNON, _SINGLE):
        for m in pattern.finditer(text):
            secret = m.group("secret").strip()
            if secret and secret != MASK:
                found.add(secret)
    return found


def mask_text(text: str, secrets: Iterable[str]) -> str:
    """``text`` with the sign-on passwords and every occurrence of ``secrets`` masked."""
    def sub(m: re.Match[str]) -> str:
        return m.group(0)[: m.start("secret") - m.start(0)] + MASK

    out = _SINGLE.sub(sub, _SIGNON.sub(sub, text))
    for secret in sorted(set(secrets) - {MASK}, key=len, reverse=True):
        for form in dict.fromkeys((secret, _html_escape(secret))):
            if len(secret) >= MIN_EXACT:
                out = out.replace(form, MASK)
            elif form:
                out = re.sub(rf"(?<!\w){re.escape(form)}(?!\w)", MASK, out)
    return out


def mask_mail(raw: bytes, known: Iterable[str] = ()) -> bytes:
    """``raw`` with every password masked (see the module's docstring)."""
    plain = _plain_layout(raw)
    if plain is not None:
        done = _mask_plain(raw, plain, set(known))
        if done is not None:
            return done
    try:
        msg = email.message_from_bytes(raw, policy=default_policy)
    except Exception:  # never raise on a malformed mail: fall back to the bytes
        return _mask_bytes(raw, set(known))
    secrets = set(known)
    texts = list(_text_parts(msg))
    for _, content in texts:
        secrets |= find_secrets(content)
        if "<" in content:  # HTML: a sign-on line split by tags
            secrets |= find_secrets(_HTML_TAG.sub("\n", content))
    for part in msg.walk():  # a part that is not text may still be read as text by someone
        payload = None if part.is_multipart() or part.get_content_maintype() == "text" \
            else part.get_payload(decode=True)
        if isinstance(payload, bytes):
            secrets |= find_secrets(payload.decode("utf-8", "replace"))
    secrets |= find_secrets(_split(raw)[0].decode("utf-8", "replace"))  # a body with no blank line
    if not secrets:
        return raw
    changed = False
    for part, content in texts:
        masked = mask_text(content, secrets)
        if masked != content:
            _replace_content(part, masked)
            changed = True
    try:
        out = _splice(raw, msg, secrets) if changed else _mask_head(raw, secrets)
    except Exception:
        return _mask_bytes(raw, secrets)
    return out if _clean(out, secrets) else _withheld(out, secrets)


_FIELD_LINE = re.compile(rb"[!-9;-~]+:|[ \t]")
"""A header line as the email package reads it: a field name and its colon, or a continuation."""
_PLAIN_TYPE = re.compile(
    rb'[ \t]*text/plain[ \t]*(?:;[ \t]*charset[ \t]*=[ \t]*(?P<cs>"?(?:utf-8|us-ascii)"?)[ \t]*)?;?[ \t]*',
    re.I)
_PLAIN_CTE = re.compile(rb"[ \t]*(?:7bit|8bit)[ \t]*", re.I)
_ODD_BREAK = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
MAX_LINE = 998


@dataclass(frozen=True)
class _Plain:
    head: bytes
    sep: bytes
    text: str


def _plain_layout(raw: bytes) -> _Plain | None:
    """The header block and text of a mail whose body's bytes are its text, else None.

    That is one part, ``text/plain`` in UTF-8 or US-ASCII (no other parameter: no
    format=flowed), sent as 7bit or 8bit (or with no MIME headers and an ASCII body),
    with a header block the email package splits where this does: the first blank line,
    one kind of line end, every line a field or a continuation."""
    head, sep, body = _split(raw)
    if sep == b"\n\n":
        if b"\r" in head:
            return None
    elif sep != b"\r\n\r\n" or head.count(b"\n") != head.count(b"\r\n") \
            or head.count(b"\r") != head.count(b"\r\n"):
        return None
    ctype: list[bytes] = []
    cte: list[bytes] = []
    for lines in _fields(head):
        if not all(_FIELD_LINE.match(line) for line in lines) or lines[0][:1] in b" \t":
            return None
        name, _, value = b"".join(lines).partition(b":")
        low = name.lower()
        if low == b"content-type":
            ctype.append(value)
        elif low == b"content-transfer-encoding":
            cte.append(value)
        elif low.startswith(b"content-"):
            return None
    if len(ctype) > 1 or len(cte) > 1 or (cte and not _PLAIN_CTE.fullmatch(cte[0])):
        return None
    charset = None
    if ctype:
        m = _PLAIN_TYPE.fullmatch(ctype[0])
        if m is None:
            return None
        charset = m.group("cs")
    try:
        text = body.decode("utf-8" if charset and b"utf" in charset.lower() else "ascii")
    except UnicodeDecodeError:
        return None
    if _ODD_BREAK.search(text.replace("\r\n", "\n")):
        return None  # a line break other than LF and CRLF: read as one by the decoder, not here
    return _Plain(head, sep, text)


def _mask_plain(raw: bytes, plain: _Plain, secrets: set[str]) -> bytes | None:
    """:func:`mask_mail` for a mail of :func:`_plain_layout`; None: take the general path."""
    content = plain.text
    secrets |= find_secrets(content)
    if "<" in content:
        secrets |= find_secrets(_HTML_TAG.sub("\n", content))
    secrets |= find_secrets(plain.head.decode("utf-8", "replace"))
    if not secrets:
        return raw
    masked = mask_text(content, secrets)
    body = masked.encode("utf-8")
    if masked != content and any(len(line) > MAX_LINE for line in body.splitlines()):
        return None  # a longer line than 7bit and 8bit allow: re-encoded by the general path
    out = _head(plain.head, secrets) + plain.sep + body
    readable = out.decode("utf-8", "replace")  # the header block and the text, as they read
    return out if not any(_present(s, readable) for s in secrets if s) else None


def _split(raw: bytes) -> tuple[bytes, bytes, bytes]:
    """(header block, separator, body) of a mail's bytes."""
    for sep in (b"\r\n\r\n", b"\n\n"):
        head, found, body = raw.partition(sep)
        if found:
            return head, sep, body
    return raw, b"", b""


def _fields(head: bytes) -> list[list[bytes]]:
    """The header block's fields, each as its physical lines (continuations kept)."""
    fields: list[list[bytes]] = []
    for line in head.splitlines():
        if line.startswith((b" ", b"\t")) and fields:
            fields[-1].append(line)
        else:
            fields.append([line])
    return fields


def _is_content_field(lines: list[bytes]) -> bool:
    return lines[0].lower().startswith((b"content-", b"mime-version"))


def _head(head: bytes, secrets: set[str], content: list[list[bytes]] | None = None) -> bytes:
    """The header block kept byte for byte, but the fields holding a secret (masked) and,
    when ``content`` is given, the Content-* fields (replaced by those)."""
    from gm.mail.headers import decode_header_value

    nl = b"\r\n" if b"\r\n" in head else b"\n"
    out: list[bytes] = []
    for lines in _fields(head):
        if content is not None and _is_content_field(lines):
            continue
        field = b"".join(lines).decode("utf-8", "surrogateescape")
        name, _, value = field.partition(":")
        shown = decode_header_value(value)
        if any(_present(s, field) for s in secrets):  # also a body line read as a header
            out.append(mask_text(field, secrets).encode("utf-8", "surrogateescape"))
        elif any(_present(s, shown) for s in secrets):  # in an encoded word
            out.append(f"{name}: {mask_text(shown, secrets)}".encode("utf-8", "surrogateescape"))
        else:
            out.extend(lines)
    for lines in content or []:
        out.extend(lines)
    return nl.join(out)


def _mask_head(raw: bytes, secrets: set[str]) -> bytes:
    head, sep, body = _split(raw)
    return _head(head, secrets) + (sep or b"\r\n\r\n") + body


def _splice(raw: bytes, msg: Message, secrets: set[str]) -> bytes:
    """The original header block (but its secrets) over the rewritten body: the headers a
    player's client wrote, broken ones included, are kept as they came."""
    head, sep, _ = _split(raw)
    linesep = "\r\n" if b"\r\n" in raw else "\n"
    new_head, _, new_body = _split(msg.as_bytes(policy=default_policy.clone(linesep=linesep)))
    content = None if msg.is_multipart() else [f for f in _fields(new_head) if _is_content_field(f)]
    return _head(head, secrets, content) + (sep or linesep.encode() * 2) + new_body


def _present(secret: str, text: str) -> bool:
    if len(secret) >= MIN_EXACT:
        return secret in text
    return re.search(rf"(?<!\w){re.escape(secret)}(?!\w)", text) is not None


def _text_parts(msg: Message) -> Iterable[tuple[EmailMessage, str]]:
    for part in msg.walk():
        if part.is_multipart() or part.get_content_maintype() != "text":
            continue
        assert isinstance(part, EmailMessage)
        try:
            content = part.get_content()
        except Exception:  # an unknown charset: read it as Latin-1
            payload = part.get_payload(decode=True)
            content = payload.decode("latin-1") if isinstance(payload, bytes) else str(payload)
        if isinstance(content, str):
            yield part, content


def _replace_content(part: EmailMessage, text: str) -> None:
    disposition = part.get_content_disposition()
    filename = part.get_filename()
    part.set_content(text, subtype=part.get_content_subtype(), charset="utf-8",
                     disposition=disposition, filename=filename)


def _clean(raw: bytes, secrets: set[str]) -> bool:
    """Whether no secret can be read in ``raw``, as bytes or through the MIME decoder."""
    from gm.mail.mime import decode

    decoded = decode(raw)
    readable = [raw.decode("utf-8", "replace"), decoded.text]
    try:
        msg = email.message_from_bytes(raw, policy=default_policy)
        readable += [c for _, c in _text_parts(msg)]
        for part in msg.walk():  # attachments too, as their bytes decode
            payload = None if part.is_multipart() else part.get_payload(decode=True)
            if isinstance(payload, bytes):
                readable.append(payload.decode("utf-8", "replace"))
    except Exception:
        pass
    return not any(_present(s, text) for s in secrets if s for text in readable)


def _withheld(raw: bytes, secrets: set[str]) -> bytes:
    """The mail's headers (but its secrets) with its body replaced by a note: a password
    in it could not be masked."""
    note = b"[gm: the body of this mail held a password that could not be masked; it was removed]"
    return _head(_split(raw)[0], secrets, [[b"MIME-Version: 1.0"],
                 [b"Content-Type: text/plain; charset=utf-8"]]) + b"\r\n\r\n" + note + b"\r\n"


def _mask_bytes(raw: bytes, secrets: set[str]) -> bytes:
    text = raw.decode("utf-8", "surrogateescape")
    secrets = secrets | find_secrets(text)
    out = mask_text(text, secrets).encode("utf-8", "surrogateescape")
    return out if _clean(out, secrets) else _withheld(out, secrets)


def _html_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")

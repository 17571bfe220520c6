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
"""

from __future__ import annotations

import email
import re
from collections.abc import Iterable
from email.message import EmailMessage, Message
from email.policy import default as default_policy

MASK = "********"
MIN_EXACT = 4
"""Shorter secrets are masked only where the sign-on pattern finds them, never everywhere."""

_PREFIX = r"(?:^|:)[ \t>|*•\-]*"
_SIGNON = re.compile(
    _PREFIX + r"(?:power|signon|puissance)[ \t]+\S+[ \t]+(?P<secret>\S+)", re.I | re.M)
_SINGLE = re.compile(
    _PREFIX + r"(?:moderator|moderateur|modérateur|password|motdepasse)[ \t]+(?P<secret>\S+)",
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
    for secret in sorted(set(secrets), key=len, reverse=True):
        if len(secret) >= MIN_EXACT:
            out = out.replace(secret, MASK)
            escaped = _html_escape(secret)
            if escaped != secret:
                out = out.replace(escaped, MASK)
    return out


def mask_mail(raw: bytes, known: Iterable[str] = ()) -> bytes:
    """``raw`` with every password masked (see the module's docstring)."""
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
    if not secrets:
        return raw
    changed = False
    for part, content in texts:
        masked = mask_text(content, secrets)
        if masked != content:
            _replace_content(part, masked)
            changed = True
    for name, value in list(msg.items()):
        text = str(value)
        if any(s in text for s in secrets if len(s) >= MIN_EXACT):
            msg.replace_header(name, mask_text(text, secrets))
            changed = True
    try:
        out = msg.as_bytes(policy=default_policy) if changed else raw
    except Exception:
        return _mask_bytes(raw, secrets)
    return out if _clean(out, secrets) else _withheld(out)


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
    except Exception:
        pass
    return not any(s in text for s in secrets if s for text in readable
                   if len(s) >= MIN_EXACT or s in find_secrets(text))


def _withheld(raw: bytes) -> bytes:
    """The mail's headers with its body replaced by a note (a password could not be masked)."""
    sep = b"\r\n\r\n" if b"\r\n\r\n" in raw else b"\n\n"
    keep: list[bytes] = []
    kept = False
    for line in raw.split(sep, 1)[0].splitlines():
        if line.startswith((b" ", b"\t")):
            if kept:
                keep.append(line)
            continue
        kept = not line.lower().startswith((b"content-", b"mime-version"))
        if kept:
            keep.append(line)
    note = b"[gm: the body of this mail held a password that could not be masked; it was removed]"
    return b"\r\n".join(keep + [b"MIME-Version: 1.0", b"Content-Type: text/plain; charset=utf-8",
                                 b"", note, b""])


def _mask_bytes(raw: bytes, secrets: set[str]) -> bytes:
    text = raw.decode("utf-8", "surrogateescape")
    secrets = secrets | find_secrets(text)
    out = mask_text(text, secrets).encode("utf-8", "surrogateescape")
    return out if _clean(out, secrets) else _withheld(out)


def _html_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")

"""Decoding header values that may be RFC 2047 encoded, raw 8-bit or broken.

Every function here returns text and never raises: an unknown or lying charset
label is decoded as UTF-8 with replacement characters, then as Latin-1.
"""

from __future__ import annotations

import codecs
import re
from email.header import decode_header
from email.utils import getaddresses
from functools import lru_cache

_WS = re.compile(r"\s+")
_MSGID = re.compile(r"<[^<>\s]+>")
_NOT_IN_ADDRESS = re.compile(r"[\s\x00-\x1f\x7f]")
_ENCODED_WORD = re.compile(r"=\?[^?\s]+\?[bBqQ]\?[^?\s]*\?=")
_HIDDEN = re.compile(r"GMENCODEDWORD(\d+)X")


def decode_bytes(data: bytes, charset: str | None) -> str:
    """Decode ``data`` with ``charset``; fall back to UTF-8, then Latin-1, never raise."""
    label = (charset or "").strip().strip('"').lower()
    if label in ("", "unknown-8bit", "x-unknown", "us-ascii", "ascii"):
        label = "utf-8"
    try:
        codecs.lookup(label)
    except (LookupError, ValueError):  # ValueError: a NUL byte in the label
        label = "utf-8"
    try:
        return data.decode(label)
    except (UnicodeDecodeError, LookupError):
        pass
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252" if _looks_cp1252(data) else "latin-1", errors="replace")


def _looks_cp1252(data: bytes) -> bool:
    return any(0x80 <= b <= 0x9F for b in data)


def _unsurrogate(value: str) -> str:
    """Undo the surrogateescape the email parser uses for raw 8-bit header bytes."""
    if value.isascii() or not any("\udc80" <= ch <= "\udcff" for ch in value):
        return value
    return decode_bytes(value.encode("ascii", "surrogateescape"), "utf-8")


def decode_header_value(value: object) -> str:
    """Return a header's text: RFC 2047 words decoded, folding undone."""
    if value is None:
        return ""
    text = _unsurrogate(str(value))
    if "=?" not in text:  # no encoded word: what decode_header gives back (issue 21: most)
        return _WS.sub(" ", text).strip()
    try:
        chunks = decode_header(text)
    except Exception:  # malformed encoded words: keep the raw text
        return _WS.sub(" ", text).strip()
    out: list[str] = []
    for chunk, charset in chunks:
        if isinstance(chunk, bytes):
            out.append(decode_bytes(chunk, charset))
        else:
            out.append(chunk)
    return _WS.sub(" ", "".join(out)).strip()


def parse_addresses(values: list[str]) -> list[tuple[str, str]]:
    """Parse address headers into (display name, addr-spec) pairs; bad ones skipped.

    The header is split into addresses before any encoded word is decoded: an
    encoded word may only ever be a display name (RFC 2047 §5), so one that
    decodes to ``CR LF Bcc: x@y`` or to a second address stays a name, never
    becomes a recipient.

    Remembered (the last 1,024 headers): a player's address comes back each turn, and the
    email package's parse was a fifth of decoding an order mail (issue 21).
    """
    try:
        texts = tuple(str(v) for v in values)
    except Exception:
        return []
    return list(_parse_addresses(texts))


@lru_cache(maxsize=1024)
def _parse_addresses(values: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    words: list[str] = []

    def hide(m: re.Match[str]) -> str:  # an encoded word may hold ':' ',' '<' '@'
        words.append(m.group(0))
        return f"GMENCODEDWORD{len(words) - 1}X"

    def show(text: str) -> str:
        return _HIDDEN.sub(lambda m: words[int(m.group(1))], text)

    try:
        pairs = getaddresses([_ENCODED_WORD.sub(hide, _WS.sub(" ", _unsurrogate(str(v))))
                              for v in values])
    except Exception:
        return ()
    return tuple((decode_header_value(show(name)), addr.strip()) for name, addr in pairs
                 if "@" in addr and not _NOT_IN_ADDRESS.search(addr.strip()) and not _HIDDEN.search(addr))


def message_ids(value: str) -> tuple[str, ...]:
    """The ``<id>`` tokens of a Message-ID, In-Reply-To or References header."""
    return tuple(_MSGID.findall(value or ""))

"""Read a bounce: which mail came back, for which recipients, and what the server said.

A mail gm's SMTP server accepted can still fail later (a mailbox gone or full, found after
the hand-over); the receiving side then mails a bounce back. Two shapes are read:

* **A delivery status notification** (RFC 3464: ``multipart/report;
  report-type=delivery-status``, also its RFC 6533 ``message/global-delivery-status``
  form): one block of fields per recipient (``Final-Recipient``, ``Original-Recipient``,
  ``Action``, ``Status``, ``Diagnostic-Code``), and the returned message whole
  (``message/rfc822``, ``message/global``) or its headers (``text/rfc822-headers``), whose
  ``Message-ID`` names the mail that came back (Gmail's ``X-Original-Message-ID`` field
  too).
* **A plain bounce** (qmail, old Exim and Sendmail, some gateways): text only. The mail is
  named by a ``Message-ID:`` line of the copy quoted in the text; which recipient failed,
  and why, is read from the explanation before that copy (:meth:`Bounce.failures`). A
  text that reads as a delay warning ("not yet been delivered ... will keep trying")
  fails nobody.

Pure: bytes in, typed values out; no database, no network. Never raises on bad input
(like gm.mail.mime.decode): what cannot be read is left out. Whether the mail named is
one of gm's, and whether the recipient was one of its recipients, is the caller's
question (gm.service.bounces).
"""

from __future__ import annotations

import email
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from email.message import Message
from email.parser import HeaderParser
from email.policy import compat32

from gm.mail.headers import decode_bytes, decode_header_value, message_ids
from gm.mail.html_text import html_to_text

ACTIONS = ("failed", "delayed", "delivered", "relayed", "expanded")
"""RFC 3464 §2.3.3. Only ``failed`` means the recipient will not get the mail."""

_STATUS_PARTS = ("message/delivery-status", "message/global-delivery-status")
_RETURNED = ("message/rfc822", "message/global", "text/rfc822-headers",
             "message/global-headers", "message/rfc822-headers")
_STATUS = re.compile(r"\b([245]\.\d{1,3}\.\d{1,3})\b")
_WS = re.compile(r"\s+")
_QUOTED_ID = re.compile(r"^[ \t>]*message-id[ \t]*:[ \t]*(?:\r?\n[ \t>]*)?(<[^<>\s]+>)",
                        re.I | re.M)
# Where a plain bounce's quoted copy of the mail begins (qmail, Exim, Sendmail, Postfix,
# Courier, gateways); else at its first header line.
_COPY = re.compile(
    r"^[ \t>-]*(below this line is a copy of the message|this is a copy of the "
    r"(message|body|headers)|(original|returned|undelivered) message( headers)? follows?"
    r"|(original )?message headers follow|original message[ \t]*-{2,})",
    re.I | re.M)
_HEADER_LINE = re.compile(r"^(return-path|received|message-id|dkim-signature|x-gm-game)[ \t]*:",
                          re.I | re.M)
_DELAY = re.compile(
    r"not yet been delivered|still (being )?(tried|trying)|will (keep|continue) (trying|to try)"
    r"|delivery attempts will continue|will (be )?retr(y|ied)|warning message only"
    r"|do not need to resend|no action is required|\bdelayed\b", re.I)
_PERMANENT = re.compile(
    r"permanent(ly)?|(given|gave) up|could ?n[o']t be delivered|cannot be delivered"
    r"|(unable|not able) to deliver|undeliverable|delivery (has )?failed|failed recipient", re.I)
_MAX_TEXT = 200_000  # characters of a plain bounce's text read; its explanation comes first


@dataclass(frozen=True)
class RecipientStatus:
    """One recipient's block of a DSN (RFC 3464 §2.3), or what a plain bounce says of one."""

    final_recipient: str  # the address, its type ("rfc822;") taken off
    original_recipient: str = ""  # as gm gave it (RFC 3461 ORCPT), when the server kept it
    action: str = ""  # failed, delayed, delivered, relayed, expanded (lower case)
    status: str = ""  # "5.1.1" (RFC 3463)
    diagnostic: str = ""  # the remote server's answer ("550 5.1.1 ... User unknown")
    remote_mta: str = ""

    @property
    def failed(self) -> bool:
        return self.action == "failed"

    def addresses(self) -> tuple[str, ...]:
        """The addresses this block names, lower case (the final one first)."""
        return tuple(a.lower() for a in dict.fromkeys((self.final_recipient,
                                                       self.original_recipient)) if a)


@dataclass(frozen=True)
class Failure:
    """A recipient of the returned mail that will not get it: ``address`` as the mail
    was sent to it, and what the bounce says."""

    address: str
    status: RecipientStatus


@dataclass(frozen=True)
class Bounce:
    """What a bounce says."""

    structured: bool  # a DSN (a delivery-status part); False: plain text
    message_ids: tuple[str, ...]  # the returned mail's Message-ID first; then any quoted one
    recipients: tuple[RecipientStatus, ...] = ()  # a DSN's per-recipient blocks, in order
    reporting_mta: str = ""
    explanation: str = ""  # a plain bounce's text before the quoted copy
    delayed: bool = False  # a plain bounce that reads as a delay warning

    def failures(self, sent_to: Sequence[str]) -> tuple[Failure, ...]:
        """The recipients among ``sent_to`` (the returned mail's own) that this bounce
        says failed, each once.

        A DSN: the blocks with ``Action: failed`` whose final or original recipient is one
        of ``sent_to``; any other action (delayed, delivered, relayed, expanded) fails
        nobody. A plain bounce (not a delay warning): those of ``sent_to`` its explanation
        names, or, when it names none of them, every one (it came back, it did not say
        for whom)."""
        wanted = {a.lower(): a for a in sent_to if a}
        found: dict[str, Failure] = {}
        if self.structured:
            for block in self.recipients:
                if not block.failed:
                    continue
                hit = next((wanted[a] for a in block.addresses() if a in wanted), None)
                if hit is not None and hit.lower() not in found:
                    found[hit.lower()] = Failure(hit, block)
            return tuple(found.values())
        if self.delayed:
            return ()
        text = self.explanation.lower()
        named = [a for low, a in wanted.items() if low in text]
        for address in named or list(wanted.values()):
            found.setdefault(address.lower(), Failure(address, _plain_status(
                self.explanation, address, named=bool(named))))
        return tuple(found.values())


def read_bounce(raw: bytes) -> Bounce:
    """Read ``raw`` (a whole mail) as a bounce; never raises."""
    try:
        msg = email.message_from_bytes(raw, policy=compat32)
    except Exception:  # the email package can trip over hostile input
        return Bounce(structured=False, message_ids=())
    blocks: list[dict[str, str]] = []
    returned: list[str] = []
    texts: list[str] = []
    html: list[str] = []
    structured = False
    for part in _parts(msg):
        ctype = _safe_type(part)
        if ctype in _STATUS_PARTS:
            structured = True
            blocks += _field_blocks(_status_text(part))
        elif ctype in _RETURNED:
            returned += _returned_ids(part)
        elif ctype == "text/plain":
            texts.append(_text(part))
        elif ctype == "text/html":
            html.append(_text(part))
    text = "\n".join(texts) if any(t.strip() for t in texts) else html_to_text("\n".join(html))
    text = text[:_MAX_TEXT]
    explanation = _explanation(text)
    quoted = [m.group(1) for m in _QUOTED_ID.finditer(text)]
    per_message = next((b for b in blocks if "reporting-mta" in b), {})
    # Gmail names the mail in its per-message block too, also when it returns no headers
    named = list(message_ids(per_message.get("x-original-message-id", "")))[:1]
    ids = tuple(dict.fromkeys(returned + named + quoted))
    recipients = tuple(_recipient(b) for b in blocks
                       if "final-recipient" in b or "original-recipient" in b)
    subject = decode_header_value(msg.get("Subject", ""))
    delayed = not structured and bool(_DELAY.search(f"{subject}\n{explanation}")) \
        and not _PERMANENT.search(f"{subject}\n{explanation}")
    return Bounce(structured=structured, message_ids=ids, recipients=recipients,
                  reporting_mta=_typed_value(per_message.get("reporting-mta", "")),
                  explanation=explanation, delayed=delayed)


def _parts(msg: Message) -> Iterator[Message]:
    """The leaves of ``msg``'s MIME tree, a ``message/*`` part (a returned mail, a status)
    being a leaf: the returned mail is not looked into."""
    if _safe_type(msg).startswith("message/") or not msg.is_multipart():
        yield msg
        return
    payload = msg.get_payload()
    for sub in payload if isinstance(payload, list) else []:
        if isinstance(sub, Message):
            yield from _parts(sub)


def _safe_type(part: Message) -> str:
    try:
        return part.get_content_type().lower()
    except Exception:
        return ""


def _text(part: Message) -> str:
    """A leaf's text, its transfer encoding and charset undone."""
    try:
        data = part.get_payload(decode=True)
        charset = part.get_content_charset()
    except Exception:
        return ""
    if isinstance(data, bytes):
        return decode_bytes(data, charset)
    payload = part.get_payload()
    return payload if isinstance(payload, str) else ""


def _headers_and_body(m: Message) -> str:
    """A parsed header block (with the body the parser left under it) as text again."""
    head = "".join(f"{k}: {v}\n" for k, v in m.items())
    body = m.get_payload()
    return head + "\n" + (body if isinstance(body, str) else "")


def _status_text(part: Message) -> str:
    """The text of a delivery-status part. The email package splits
    ``message/delivery-status`` into one Message per block and reads
    ``message/global-delivery-status`` as one message (first block as headers): both are
    joined back; an encoded one (RFC 6533 allows it) is decoded."""
    payload = part.get_payload()
    if isinstance(payload, list):
        return "\n".join(_headers_and_body(m) for m in payload if isinstance(m, Message))
    return _text(part)


def _field_blocks(text: str) -> list[dict[str, str]]:
    """RFC 3464 field blocks (separated by blank lines), each {lower-case name: value},
    folded lines unfolded; the first of a repeated field kept."""
    blocks: list[dict[str, str]] = []
    current: dict[str, str] = {}
    last: str | None = None
    for line in text.splitlines():
        if not line.strip():
            if current:
                blocks.append(current)
            current, last = {}, None
            continue
        if line[:1] in (" ", "\t"):
            if last is not None:
                current[last] += " " + line.strip()
            continue
        name, colon, value = line.partition(":")
        name = name.strip().lower()
        if not colon or not name or name in current:
            last = None
            continue
        current[name], last = value.strip(), name
    if current:
        blocks.append(current)
    return blocks


def _typed_value(value: str) -> str:
    """A DSN field's value without its type (``rfc822; a@b`` -> ``a@b``, ``smtp; 550 ...``
    -> ``550 ...``), whitespace collapsed, angle brackets off an address."""
    _, sep, rest = value.partition(";")
    text = _WS.sub(" ", rest if sep else value).strip()
    return text


def _address(value: str) -> str:
    return decode_header_value(_typed_value(value)).strip().strip("<>").strip()


def _recipient(block: dict[str, str]) -> RecipientStatus:
    status = _STATUS.search(block.get("status", ""))
    return RecipientStatus(
        final_recipient=_address(block.get("final-recipient", "")),
        original_recipient=_address(block.get("original-recipient", "")),
        action=block.get("action", "").split("(")[0].strip().lower(),
        status=status.group(1) if status else block.get("status", "").strip()[:32],
        diagnostic=decode_header_value(_typed_value(block.get("diagnostic-code", "")))[:500],
        remote_mta=_typed_value(block.get("remote-mta", ""))[:200])


def _returned_ids(part: Message) -> list[str]:
    """The Message-ID of a returned mail (``message/rfc822``) or of its headers
    (``text/rfc822-headers``)."""
    payload = part.get_payload()
    inner: Message | None = None
    if isinstance(payload, list):
        inner = next((m for m in payload if isinstance(m, Message)), None)
    else:
        try:
            inner = HeaderParser(policy=compat32).parsestr(_text(part))
        except Exception:
            inner = None
    if inner is None:
        return []
    return list(message_ids(decode_header_value(inner.get("Message-ID", ""))))[:1]


def _explanation(text: str) -> str:
    """A plain bounce's text before the copy of the mail it quotes."""
    ends = [m.start() for m in (_COPY.search(text), _HEADER_LINE.search(text)) if m is not None]
    return text[:min(ends)] if ends else text


def _plain_status(explanation: str, address: str, *, named: bool) -> RecipientStatus:
    """What a plain bounce's explanation says of ``address``: the lines from the first that
    names it to the next blank line, and the status code in them; when it names no
    recipient (``named`` False), its lines that carry a status code."""
    lines = explanation.splitlines()
    low = address.lower()
    start = next((i for i, line in enumerate(lines) if named and low in line.lower()), None)
    said: list[str] = []
    if start is not None:
        for n, line in enumerate(lines[start:]):
            if not line.strip():
                if n:
                    break
                continue
            bare = line.strip().strip("<>:").strip()
            if n == 0 and bare.lower() == low:  # the address alone (qmail's "<a@b>:")
                continue
            said.append(line.strip())
    else:
        said = [line.strip() for line in lines if _STATUS.search(line)][:3]
    diagnostic = _WS.sub(" ", " ".join(said)).strip()[:500]
    status = _STATUS.search(diagnostic) or _STATUS.search(explanation)
    return RecipientStatus(final_recipient=address, action="failed",
                           status=status.group(1) if status else "", diagnostic=diagnostic)

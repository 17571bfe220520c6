"""The small closed vocabulary shared by mail sources, sinks and the pipeline.

A source hands out :class:`FetchedMail` (raw bytes plus where they came from,
so the caller can deduplicate on UIDVALIDITY+UID); a sink answers every send
with a :class:`SendResult` whose status is OK, TEMPORARY (try again later) or
PERMANENT (record it, show the moderator, never retry).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol, runtime_checkable


@dataclass(frozen=True)
class FetchedMail:
    """One mail as it came off a source, before anything was parsed.

    ``source`` names the mailbox ("imap:INBOX", "maildir:/srv/gm/Maildir");
    ``uidvalidity``/``uid`` identify it in an IMAP mailbox (None for Maildir);
    ``key`` is the source's own handle (the UID as text, or the Maildir name);
    ``arrived`` is when the mail server says the mail reached the mailbox (IMAP
    INTERNALDATE, a Maildir file's modification time), a claim that
    gm.pipeline.arrival checks before a lateness is judged by it.
    """

    raw: bytes
    source: str
    uidvalidity: int | None
    uid: int | None
    key: str = ""
    arrived: datetime | None = None


@runtime_checkable
class MailSource(Protocol):
    """Where inbound mail comes from (IMAP, Maildir)."""

    def fetch_new(self) -> list[FetchedMail]:
        """Every mail not yet marked handled, oldest first; nothing is marked."""
        ...

    def mark_handled(self, items: list[FetchedMail]) -> None:
        """Flag or move these mails; call only after their transaction committed."""
        ...

    def wait(self, timeout: float) -> bool:
        """Block up to ``timeout`` seconds for new mail; True if some may be there."""
        ...

    def close(self) -> None:
        """Release the connection; the source may be used again (it reconnects)."""
        ...


class SendStatus(enum.Enum):
    OK = "ok"
    TEMPORARY = "temporary"
    PERMANENT = "permanent"


class FailureKind(enum.Enum):
    """Why a send did not go through (data, not prose)."""

    CONNECTION_REFUSED = "connection_refused"
    DISCONNECTED = "disconnected"
    TIMEOUT = "timeout"
    TLS = "tls"
    AUTH = "auth"  # treated as temporary: the operator fixes the password
    SERVER_TEMPORARY = "server_temporary"  # a 4xx reply
    SERVER_PERMANENT = "server_permanent"  # a 5xx reply
    RECIPIENTS_REFUSED = "recipients_refused"
    DISK_FULL = "disk_full"
    IO = "io"


SERVER_DOWN = frozenset({FailureKind.CONNECTION_REFUSED, FailureKind.DISCONNECTED,
                         FailureKind.TIMEOUT, FailureKind.TLS, FailureKind.AUTH,
                         FailureKind.DISK_FULL, FailureKind.IO})
"""Failures of the mail server (or the disk), not of the mail: the server down or
unreachable, its login refused (a password being rotated), a disk full. Every mail
would meet them (gm.pipeline.dispatch: never given up, and the first ends the drain)."""


@dataclass(frozen=True)
class SendFailure:
    kind: FailureKind
    code: int | None = None
    detail: str = ""


@dataclass(frozen=True)
class SendResult:
    """The outcome of one send: ``failure`` is set unless the status is OK.

    ``refused`` lists recipients the server refused while accepting others
    (address -> SMTP code); the mail counts as sent. ``said``: the server's words for each
    of them, when it gave any (address -> "5.1.1 no such user").
    """

    status: SendStatus
    failure: SendFailure | None = None
    refused: dict[str, int] = field(default_factory=dict)
    said: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.status is SendStatus.OK

    @classmethod
    def sent(cls, refused: dict[str, int] | None = None,
             said: dict[str, str] | None = None) -> SendResult:
        return cls(SendStatus.OK, None, dict(refused or {}), dict(said or {}))

    @classmethod
    def temporary(cls, kind: FailureKind, code: int | None = None, detail: str = "") -> SendResult:
        return cls(SendStatus.TEMPORARY, SendFailure(kind, code, detail))

    @classmethod
    def permanent(cls, kind: FailureKind, code: int | None = None, detail: str = "") -> SendResult:
        return cls(SendStatus.PERMANENT, SendFailure(kind, code, detail))


class MailSink(Protocol):
    """Where outbound mail goes (SMTP, a Maildir folder)."""

    async def send(self, raw: bytes, sender: str, recipients: list[str]) -> SendResult:
        """Hand one message over; never raises for delivery problems."""
        ...

    async def close(self) -> None:
        """Drop any open connection."""
        ...

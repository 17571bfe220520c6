"""End-to-end fixtures: the real Dovecot and aiosmtpd of the mail tests, the race game of the pipeline tests."""

from __future__ import annotations

from email.parser import BytesHeaderParser
from email.policy import default as default_policy

from tests.mail.conftest import (  # noqa: F401  (fixtures re-exported for this folder)
    dovecot,
    imap_settings,
    imap_user,
    smtp_server,
    smtp_settings,
)
from tests.pipeline.conftest import race  # noqa: F401
from tests.support.servers import ReceivedMail


def header(raw: bytes, name: str) -> str:
    """One header of a raw mail, as text ('' if missing); the body is not parsed."""
    return str(BytesHeaderParser(policy=default_policy).parsebytes(raw).get(name, "") or "").strip()


def replies_to(received: list[ReceivedMail], message_id: str) -> list[ReceivedMail]:
    """The mails received by the SMTP server that answer ``message_id``."""
    return [m for m in received if header(m.raw, "In-Reply-To") == message_id]

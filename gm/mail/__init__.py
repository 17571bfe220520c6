"""Mail in and out: MIME decoding and classification, composing, sources and sinks.

Public names are re-exported here; the modules behind them are small:

- ``mime``: ``decode(raw) -> DecodedMail``, ``classify(mail) -> MailClass``
- ``compose``: ``build_message(...) -> bytes``, ``make_message_id(key, domain, secret)``
- ``config``: ``MailSettings.from_dict(toml_doc)``
- ``imap_source`` / ``maildir_source``: ``MailSource`` implementations
- ``smtp_sink`` / ``file_sink``: ``MailSink`` implementations
- ``factory``: ``open_source(settings)``, ``open_sink(settings)``

Errors: ``MailConfigError`` (bad option), ``UnsafeHeaderError`` (an address or
header that would break a header), ``ImapLoginError`` (credentials refused),
``ImapFolderError`` (no such folder), both ``ImapSetupError`` (the [imap] table to fix).
Delivery problems are never raised: sinks return ``SendResult``.
"""

from __future__ import annotations

from gm.mail.classify import Classification, MailClass, classify, classify_with_reason
from gm.mail.compose import UnsafeHeaderError, build_message, make_message_id, safe_header_text
from gm.mail.config import (
    ImapSettings,
    MailConfigError,
    MaildirSettings,
    MailSettings,
    SmtpSettings,
    TlsMode,
)
from gm.mail.factory import open_sink, open_source
from gm.mail.file_sink import FileSink
from gm.mail.imap_source import ImapLoginError, ImapSource
from gm.mail.maildir_source import MaildirSource
from gm.mail.mime import DEFAULT_MAX_BYTES, Attachment, BodyKind, DecodedMail, decode, plus_tag
from gm.mail.smtp_sink import SmtpSink
from gm.mail.types import (
    FailureKind,
    FetchedMail,
    MailSink,
    MailSource,
    SendFailure,
    SendResult,
    SendStatus,
)

__all__ = [
    "DEFAULT_MAX_BYTES",
    "Attachment",
    "BodyKind",
    "Classification",
    "DecodedMail",
    "FailureKind",
    "FetchedMail",
    "FileSink",
    "ImapLoginError",
    "ImapSettings",
    "ImapSource",
    "MailClass",
    "MailConfigError",
    "MailSettings",
    "MailSink",
    "MailSource",
    "MaildirSettings",
    "MaildirSource",
    "SendFailure",
    "SendResult",
    "SendStatus",
    "SmtpSettings",
    "SmtpSink",
    "TlsMode",
    "UnsafeHeaderError",
    "build_message",
    "classify",
    "classify_with_reason",
    "decode",
    "make_message_id",
    "open_sink",
    "open_source",
    "plus_tag",
    "safe_header_text",
]

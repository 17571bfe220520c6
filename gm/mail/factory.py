"""Pick the configured source and sink."""

from __future__ import annotations

from gm.mail.config import InboundKind, MailSettings, OutboundKind
from gm.mail.file_sink import FileSink
from gm.mail.imap_source import ImapSource
from gm.mail.maildir_source import MaildirSource
from gm.mail.smtp_sink import SmtpSink
from gm.mail.types import MailSink, MailSource


def open_source(settings: MailSettings) -> MailSource:
    """The inbound source named by ``mail.inbound`` (imap or maildir)."""
    if settings.inbound is InboundKind.IMAP:
        return ImapSource(settings.imap)
    return MaildirSource(settings.maildir)


def open_sink(settings: MailSettings) -> MailSink:
    """The outbound sink named by ``mail.outbound`` (smtp or maildir)."""
    if settings.outbound is OutboundKind.SMTP:
        return SmtpSink(settings.smtp)
    return FileSink(settings.maildir.outbox)

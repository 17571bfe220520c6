"""Pick the configured source and sink."""

from __future__ import annotations

from gm.mail.config import InboundKind, MailSettings, OutboundKind
from gm.mail.file_sink import FileSink
from gm.mail.imap_source import ImapSource
from gm.mail.maildir_source import MaildirSource
from gm.mail.oauth2 import TokenSource
from gm.mail.smtp_sink import SmtpSink
from gm.mail.types import MailSink, MailSource


def token_source(settings: MailSettings) -> TokenSource | None:
    """One OAuth2 token source for IMAP and SMTP alike, when either uses XOAUTH2."""
    return TokenSource(settings.oauth2) if settings.uses_oauth2 else None


def open_source(settings: MailSettings, tokens: TokenSource | None = None,
                give_up_after: float | None = None) -> MailSource:
    """The inbound source named by ``mail.inbound`` (imap or maildir); an IMAP source stops
    trying to reach its server after ``give_up_after`` seconds (None: never)."""
    if settings.inbound is InboundKind.IMAP:
        return ImapSource(settings.imap, tokens=tokens or token_source(settings),
                          give_up_after=give_up_after)
    return MaildirSource(settings.maildir)


def open_sink(settings: MailSettings, tokens: TokenSource | None = None) -> MailSink:
    """The outbound sink named by ``mail.outbound`` (smtp or maildir)."""
    if settings.outbound is OutboundKind.SMTP:
        return SmtpSink(settings.smtp, tokens=tokens or token_source(settings))
    return FileSink(settings.maildir.outbox)

"""Outbound mail over SMTP (aiosmtplib), one persistent connection reused.

Every outcome is a :class:`SendResult`: 5xx replies are PERMANENT; 4xx
replies, timeouts, refused or dropped connections, TLS trouble and refused
logins are TEMPORARY (the outbox retries with backoff; a wrong password is for
the operator to fix, not a reason to give up on the mail). A connection the
server closed while idle is re-opened once without counting as a failure.
A run of failures of the server itself (down, unreachable, its login refused:
``SERVER_DOWN``) is logged as a WARNING once, at its first, and once (INFO) when the
server answers again; the ones between are DEBUG.
"""

from __future__ import annotations

import asyncio
import logging
import ssl

import aiosmtplib

from gm.mail.config import AuthMode, SmtpSettings, TlsMode
from gm.mail.oauth2 import TokenSource
from gm.mail.types import SERVER_DOWN, FailureKind, SendResult, SendStatus


class SmtpSink:
    """A :class:`~gm.mail.types.MailSink` for an SMTP submission server."""

    def __init__(self, settings: SmtpSettings, *, logger: logging.Logger | None = None,
                 tokens: TokenSource | None = None) -> None:
        self.settings = settings
        self._tokens = tokens
        self._client: aiosmtplib.SMTP | None = None
        self._lock = asyncio.Lock()
        self._log = logger or logging.getLogger("gm.mail.smtp")
        self.connections_opened = 0
        self._down = False  # the last send met the server down: said once, until it answers

    def _new_client(self) -> aiosmtplib.SMTP:
        s = self.settings
        context = ssl.create_default_context(cafile=s.ca_file or None)
        return aiosmtplib.SMTP(
            hostname=s.host,
            port=s.port,
            # with XOAUTH2 the login comes after connect(), with a fresh token
            username=(s.user or None) if s.auth is AuthMode.PASSWORD else None,
            password=(s.password or None) if s.auth is AuthMode.PASSWORD else None,
            use_tls=s.tls is TlsMode.TLS,
            start_tls=True if s.tls is TlsMode.STARTTLS else False,
            tls_context=context if s.tls is not TlsMode.NONE else None,
            timeout=s.timeout,
            local_hostname=s.local_hostname or None,
        )

    async def _connected(self) -> tuple[aiosmtplib.SMTP, bool]:
        """The live client and whether it was just opened."""
        if self._client is not None and self._client.is_connected:
            return self._client, False
        await self._drop()
        client = self._new_client()
        await client.connect()
        if self.settings.auth is AuthMode.XOAUTH2:
            await self._xoauth2(client)
        self._client = client
        self.connections_opened += 1
        return client, True

    async def connect(self) -> None:
        """Connect and log in now, raising what goes wrong (``gm doctor`` uses it)."""
        await self._connected()

    async def _xoauth2(self, client: aiosmtplib.SMTP) -> None:
        """AUTH XOAUTH2 with a fresh access token; a refused token is refreshed once."""
        if self._tokens is None:
            raise aiosmtplib.SMTPAuthenticationError(535, 'smtp.auth = "xoauth2" needs [oauth2]')
        for attempt in (1, 2):
            token = await asyncio.to_thread(self._tokens.access_token)  # may POST to the endpoint
            try:
                await client.auth_xoauth2(self.settings.user, token)
                return
            except aiosmtplib.SMTPAuthenticationError:
                self._tokens.invalidate()
                if attempt == 2:
                    raise

    async def send(self, raw: bytes, sender: str, recipients: list[str]) -> SendResult:
        """Send ``raw`` from envelope ``sender`` to ``recipients``; never raises."""
        async with self._lock:
            for attempt in (1, 2):
                try:
                    client, fresh = await self._connected()
                    errors, _ = await client.sendmail(sender, recipients, raw)
                    self._answered()
                    return SendResult.sent({r: e.code for r, e in errors.items()},
                                           {r: e.message for r, e in errors.items()})
                except aiosmtplib.SMTPServerDisconnected as exc:
                    await self._drop()
                    if attempt == 1 and not fresh:
                        continue  # the server closed an idle connection: reopen once
                    return SendResult.temporary(FailureKind.DISCONNECTED, None, str(exc))
                except Exception as exc:  # every failure becomes a result
                    await self._drop()
                    result = classify_failure(exc)
                    failure = result.failure
                    assert failure is not None
                    hint = (" (check [smtp] user and password or password_file; `gm doctor` "
                            "checks them; restart gm after changing them)"
                            if failure.kind is FailureKind.AUTH else "")
                    quiet = self._failed(failure.kind)
                    self._log.log(logging.DEBUG if quiet else logging.WARNING,
                                  "smtp send to %s:%s failed (%s%s): %s%s; %s",
                                  self.settings.host, self.settings.port, failure.kind.value,
                                  f" {failure.code}" if failure.code else "", failure.detail,
                                  hint, "the mail stays queued and is tried again later"
                                  if result.status is SendStatus.TEMPORARY else
                                  "the mail is not tried again")
                    return result
            raise AssertionError("unreachable")

    def _failed(self, kind: FailureKind) -> bool:
        """Note a failure; True when it need not be said: the server is still down (said
        at the first failure of the outage, and again once it answers)."""
        if kind not in SERVER_DOWN:
            self._answered()  # it answered, refusing this mail
            return False
        again, self._down = self._down, True
        return again

    def _answered(self) -> None:
        """The server answered: said once if it was down (its failures were said once)."""
        if self._down:
            self._down = False
            self._log.info("smtp server %s:%s answers again", self.settings.host,
                           self.settings.port)

    async def _drop(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            try:
                client.close()
            except Exception:  # already dead
                pass

    async def close(self) -> None:
        """Say QUIT and close the connection."""
        client, self._client = self._client, None
        if client is not None and client.is_connected:
            try:
                await client.quit()
            except Exception:
                client.close()


def classify_failure(exc: BaseException) -> SendResult:
    """Map an aiosmtplib/OS error to TEMPORARY or PERMANENT (RFC 5321 section 4.2.1)."""
    if isinstance(exc, aiosmtplib.SMTPRecipientsRefused):
        codes = [r.code for r in exc.recipients]
        detail = "; ".join(f"{r.recipient}: {r.code} {r.message}" for r in exc.recipients)
        if codes and all(500 <= c < 600 for c in codes):
            return SendResult.permanent(FailureKind.RECIPIENTS_REFUSED, codes[0], detail)
        return SendResult.temporary(
            FailureKind.RECIPIENTS_REFUSED, codes[0] if codes else None, detail
        )
    if isinstance(exc, aiosmtplib.SMTPAuthenticationError):
        return SendResult.temporary(FailureKind.AUTH, exc.code, exc.message)
    if isinstance(exc, aiosmtplib.SMTPResponseException):
        if 500 <= exc.code < 600:
            return SendResult.permanent(FailureKind.SERVER_PERMANENT, exc.code, exc.message)
        return SendResult.temporary(FailureKind.SERVER_TEMPORARY, exc.code, exc.message)
    if isinstance(exc, aiosmtplib.SMTPTimeoutError | asyncio.TimeoutError | TimeoutError):
        return SendResult.temporary(FailureKind.TIMEOUT, None, str(exc))
    if isinstance(exc, ssl.SSLError) or isinstance(exc.__cause__, ssl.SSLError):
        # aiosmtplib reports a failed implicit-TLS handshake (a certificate it
        # cannot verify) as SMTPConnectError caused by the SSLError
        return SendResult.temporary(FailureKind.TLS, None, str(exc))
    if isinstance(exc, aiosmtplib.SMTPConnectError | ConnectionRefusedError):
        return SendResult.temporary(FailureKind.CONNECTION_REFUSED, None, str(exc))
    if isinstance(exc, aiosmtplib.SMTPServerDisconnected | ConnectionError):
        return SendResult.temporary(FailureKind.DISCONNECTED, None, str(exc))
    if isinstance(exc, aiosmtplib.SMTPNotSupported):
        return SendResult.temporary(FailureKind.TLS, None, str(exc))
    return SendResult.temporary(FailureKind.IO, None, f"{type(exc).__name__}: {exc}")

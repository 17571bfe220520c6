"""Inbound mail from an IMAP mailbox (imapclient).

Mail is fetched with ``BODY.PEEK[]`` so nothing is marked before the caller
has stored it (each body once while it stays unhandled: :data:`KEPT_BYTES`); ``mark_handled`` then sets the handled flag (a keyword,
``$GmHandled`` by default) or moves the mail to the processed folder, and must
be called only after the transaction that stored the mail committed. Each
:class:`FetchedMail` carries UIDVALIDITY and UID for deduplication. ``wait``
uses IDLE when the server advertises it and the settings allow it, and sleeps
(polling) otherwise. When the server goes away, every operation reconnects
with exponential backoff and tries again, so a Dovecot restart loses nothing.
"""

from __future__ import annotations

import logging
import socket
import ssl
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TypeVar

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientAbortError, IMAPClientError

from gm.mail.config import AuthMode, ImapSettings, TlsMode
from gm.mail.oauth2 import TokenError, TokenSource
from gm.mail.types import FetchedMail

T = TypeVar("T")

# What "the server went away" looks like from imapclient: a socket error, an
# aborted connection (imaplib.abort, e.g. on EOF), or a login refused while the
# server is still starting.
_CONNECTION_ERRORS: tuple[type[BaseException], ...] = (
    OSError,
    IMAPClientAbortError,
    socket.timeout,
    ssl.SSLError,
)


KEPT_BYTES = 16 * 1024 * 1024
"""The bodies of fetched, still unhandled mails kept, at most (issue 21): every round asks
for the unhandled mails again, and with several instances a round ends between two games
to see what the others handled meanwhile; a UID names one message for good within its
UIDVALIDITY, so only the UIDs are asked again and a body fetched once is not fetched
again (one SEARCH, not the whole backlog each round)."""


class ImapSetupError(RuntimeError):
    """The server refused what the [imap] settings ask (not retried by the source);
    ``fix`` says what the host changes."""

    fix = "check the [imap] table"


class ImapLoginError(ImapSetupError):
    """The server refused the configured user and password (not retried)."""

    fix = ("check [imap] user and password or password_file (Gmail and Microsoft 365 need "
           "an app password or OAuth2); gm reads the password when it starts: restart gm "
           "after changing it")


class ImapFolderError(ImapSetupError, IMAPClientError):
    """The server has no folder by the configured name (``[imap] folder``)."""

    fix = "check [imap] folder: it must exist on the server, spelt as the server spells it"


class ImapUnreachable(ConnectionError):
    """The server did not answer for the source's ``give_up_after`` seconds (it went on
    trying until then): the daemon does what needs no mailbox and tries again later."""


class ImapSource:
    """A :class:`~gm.mail.types.MailSource` over one IMAP folder.

    A connection that fails is made again with backoff (``reconnect_initial`` doubling up to
    ``reconnect_max``): forever by default; after ``max_attempts`` tries (``gm doctor``: one),
    or once ``give_up_after`` seconds have passed (the daemon's round:
    :class:`ImapUnreachable`), the error is raised."""

    def __init__(
        self,
        settings: ImapSettings,
        *,
        sleep: Callable[[float], None] = time.sleep,
        logger: logging.Logger | None = None,
        max_attempts: int | None = None,
        give_up_after: float | None = None,
        tokens: TokenSource | None = None,
    ) -> None:
        self.settings = settings
        self._tokens = tokens
        self._sleep = sleep
        self._log = logger or logging.getLogger("gm.mail.imap")
        self._max_attempts = max_attempts
        self._give_up_after = give_up_after
        self._client: IMAPClient | None = None
        self.uidvalidity: int | None = None
        self.reconnects = 0
        self._kept: dict[int, tuple[bytes, datetime | None]] = {}  # UID -> body and
        # INTERNALDATE of a mail fetched and not yet handled
        self._kept_validity: int | None = None  # the UIDVALIDITY those UIDs belong to

    @property
    def source(self) -> str:
        return f"imap:{self.settings.folder}"

    # -- connection ---------------------------------------------------------

    def _connect(self) -> IMAPClient:
        s = self.settings
        context = ssl.create_default_context(cafile=s.ca_file or None)
        client = IMAPClient(
            s.host,
            port=s.port,
            ssl=s.tls is TlsMode.TLS,
            ssl_context=context if s.tls is TlsMode.TLS else None,
            timeout=s.timeout,
        )
        try:
            if s.tls is TlsMode.STARTTLS:
                client.starttls(context)
            try:
                self._login(client)
            except IMAPClientError as exc:
                if isinstance(exc, IMAPClientAbortError) or _temporary(exc):
                    raise ConnectionError(f"login not possible now: {exc}") from exc
                raise ImapLoginError(str(exc)) from exc
            try:
                info = client.select_folder(s.folder)
            except IMAPClientError as exc:
                if isinstance(exc, IMAPClientAbortError) or _temporary(exc):
                    raise
                raise ImapFolderError(f"folder {s.folder!r}: {exc}") from exc
            self.uidvalidity = int(info[b"UIDVALIDITY"])
            if s.processed_folder and not client.folder_exists(s.processed_folder):
                client.create_folder(s.processed_folder)
        except BaseException:
            _quietly(client.shutdown)
            raise
        self._log.info("imap connected to %s:%s folder %s", s.host, s.port, s.folder)
        return client

    def _login(self, client: IMAPClient) -> None:
        """LOGIN with the password, or XOAUTH2 with a fresh access token (docs/mailbox.md)."""
        s = self.settings
        if s.auth is not AuthMode.XOAUTH2:
            client.login(s.user, s.password)
            return
        if self._tokens is None:
            raise ImapLoginError('imap.auth = "xoauth2" needs the [oauth2] table')
        for attempt in (1, 2):
            try:
                token = self._tokens.access_token()
            except TokenError as exc:  # the endpoint may be back later: retried with backoff
                raise ConnectionError(f"no OAuth2 access token: {exc}") from exc
            try:
                client.oauth2_login(s.user, token)
                return
            except IMAPClientError:
                self._tokens.invalidate()  # revoked or expired early: one fresh token, once
                if attempt == 2:
                    raise

    def _with_client(self, op: Callable[[IMAPClient], T]) -> T:
        """Run ``op`` on a live connection, reconnecting with backoff on failure."""
        delay = self.settings.reconnect_initial
        attempt = 0
        began = time.monotonic()
        while True:
            attempt += 1
            connecting = self._client is None
            try:
                if self._client is None:
                    self._client = self._connect()
                return op(self._client)
            except _CONNECTION_ERRORS as exc:
                self._drop()
                if self._max_attempts is not None and attempt >= self._max_attempts:
                    raise
                waited = time.monotonic() - began
                if self._give_up_after is not None and waited + delay > self._give_up_after:
                    s = self.settings
                    raise ImapUnreachable(f"{s.host}:{s.port} has not answered for "
                                          f"{waited:.0f} s: {exc}") from exc
                self.reconnects += 1
                if connecting:  # a host's setting (tls, port, host) or the server down
                    s = self.settings
                    self._log.warning("imap cannot connect to %s:%s (tls = \"%s\"): %s; retrying "
                                      "in %.1fs (`gm doctor` names the cause and the fix)",
                                      s.host, s.port, s.tls.value, exc, delay)
                else:
                    self._log.warning("imap connection lost (%s); retrying in %.1fs", exc, delay)
                self._sleep(delay)
                delay = min(delay * 2, self.settings.reconnect_max)

    def call(self, op: Callable[[IMAPClient], T]) -> T:
        """Run ``op`` on the live connection, as the source does (``gm doctor`` uses it)."""
        return self._with_client(op)

    def _drop(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            _quietly(client.shutdown)

    def close(self) -> None:
        """Log out; the next call reconnects."""
        client, self._client = self._client, None
        if client is not None:
            _quietly(client.logout)
            _quietly(client.shutdown)

    # -- MailSource ----------------------------------------------------------

    def _unhandled_criteria(self) -> list[object]:
        flag = self.settings.handled_flag
        if self.settings.processed_folder:
            return ["ALL"]
        if flag.lower() == "\\seen":
            return ["UNSEEN"]
        return ["UNKEYWORD", flag]

    def fetch_new(self) -> list[FetchedMail]:
        """Every mail of the folder not yet handled, by ascending UID; marks nothing."""
        return self._with_client(self._fetch_new)

    def _fetch_new(self, client: IMAPClient) -> list[FetchedMail]:
        client.noop()  # let the server report new mail and UIDVALIDITY changes
        uids = sorted(int(u) for u in client.search(self._unhandled_criteria()))
        if self._kept_validity != self.uidvalidity:
            self._kept, self._kept_validity = {}, self.uidvalidity
        bodies: dict[int, tuple[bytes, datetime | None]] = {}
        missing = [uid for uid in uids if uid not in self._kept]
        batch = max(1, self.settings.fetch_batch)
        for start in range(0, len(missing), batch):
            chunk = missing[start : start + batch]
            data = client.fetch(chunk, ["BODY.PEEK[]", "INTERNALDATE"])
            for uid in chunk:
                raw = data.get(uid, {}).get(b"BODY[]")
                if raw is not None:  # else expunged between SEARCH and FETCH
                    bodies[uid] = (bytes(raw), _aware(data[uid].get(b"INTERNALDATE")))
        out: list[FetchedMail] = []
        kept: dict[int, tuple[bytes, datetime | None]] = {}
        size = 0
        for uid in uids:
            got = self._kept.get(uid) or bodies.get(uid)
            if got is None:
                continue
            raw, arrived = got
            out.append(FetchedMail(raw, self.source, self.uidvalidity, uid, str(uid), arrived))
            if size + len(raw) <= KEPT_BYTES:
                kept[uid] = got
                size += len(raw)
        self._kept = kept  # the mails still unhandled: a handled one is not searched again
        return out

    def mark_handled(self, items: list[FetchedMail]) -> None:
        """Flag (or move) these mails. Call after their transaction has committed.

        Mails from an older UIDVALIDITY are skipped: their UIDs no longer name
        them; they will be fetched again under new ones, stored again and found to
        be duplicates (same Message-ID) of the rows already settled, never answered
        twice (gm.pipeline.claim).
        """
        if items:
            self._with_client(lambda client: self._mark(client, items))

    def _mark(self, client: IMAPClient, items: list[FetchedMail]) -> None:
        uids = [i.uid for i in items if i.uid is not None and i.uidvalidity == self.uidvalidity]
        if not uids:
            return
        if self.settings.processed_folder:
            if b"MOVE" in client.capabilities():
                client.move(uids, self.settings.processed_folder)
            else:
                client.copy(uids, self.settings.processed_folder)
                client.delete_messages(uids)
                if b"UIDPLUS" in client.capabilities():
                    client.uid_expunge(uids)
                else:
                    client.expunge()
        else:
            client.add_flags(uids, [self.settings.handled_flag], silent=True)  # nothing read back

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` s: IDLE if possible, else sleep. True if mail may be new."""
        if self._client is None:  # not connected (the connection was lost): mail may have
            self._with_client(lambda c: None)  # come meanwhile, which a fresh SELECT does
            return True  # not report as new: the caller looks at once
        if self.settings.idle and self._with_client(lambda c: c.has_capability("IDLE")):
            before = self.reconnects

            def idle(client: IMAPClient) -> bool:
                # lost during IDLE and connected again: what came meanwhile is not "new"
                return True if self.reconnects != before else _idle(client, timeout)

            return self._with_client(idle)
        self._sleep(min(timeout, self.settings.poll_interval))
        return True

    @property
    def uses_idle(self) -> bool:
        """Whether ``wait`` will use IDLE (connects if needed)."""
        return self.settings.idle and self._with_client(lambda c: c.has_capability("IDLE"))


def _idle(client: IMAPClient, timeout: float) -> bool:
    """IDLE up to ``timeout`` s; True if the server told of new mail. A NOOP first: a mail
    that came after the last command and before IDLE began is reported by Dovecot only when
    IDLE ends (at the timeout), and the caller would wait that long for it."""
    if any(_is_new_mail(r) for r in client.noop()[1]):
        return True
    client.idle()
    try:
        responses = client.idle_check(timeout=timeout)
    finally:
        done = client.idle_done()
    seen = list(responses) + list(done[1] if done else [])
    return any(_is_new_mail(r) for r in seen)


def _is_new_mail(response: object) -> bool:
    return (
        isinstance(response, tuple) and len(response) >= 2 and response[1] in (b"EXISTS", b"RECENT")
    )


def _temporary(exc: Exception) -> bool:
    """A login refusal that says "try later" (RFC 5530 UNAVAILABLE), e.g. during a restart."""
    text = str(exc).upper()
    return "UNAVAILABLE" in text or "TEMPORARY" in text


def _quietly(fn: Callable[[], object]) -> None:
    try:
        fn()
    except Exception:  # closing a dead connection: nothing to do
        pass


def _aware(value: object) -> datetime | None:
    """An INTERNALDATE as imapclient hands it (naive local time: its ``normalise_times``) in
    UTC; None when the server sent none."""
    if not isinstance(value, datetime):
        return None
    return value.astimezone(UTC)

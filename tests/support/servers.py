"""Real mail servers on loopback for tests: a private Dovecot and an aiosmtpd sink.

Importable from any test folder::

    from tests.support.servers import DovecotServer, SmtpTestServer

``DovecotServer`` runs Debian's /usr/sbin/dovecot (2.3) from a temporary
config in its own process session, on a free 127.0.0.1 port, never touching
/etc/dovecot or the system service (facts in the team's dovecot notes: a fixed
non-root uid for mail, a 0755 base dir, a private base_dir/state_dir). Users
are added as one passwd-file each (read at LOGIN, so no reload is needed). ``SmtpTestServer``
is an aiosmtpd Controller that keeps every message and can be switched to
answer 4xx, 5xx or to hang, for failure tests.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

DOVECOT = "/usr/sbin/dovecot"
MAIL_UID = 64123  # any non-root uid works; no passwd entry is needed
MAIL_GID = 64123

_CONFIG = """\
base_dir = {root}/run
state_dir = {root}/state
instance_name = gm-test-{port}
log_path = {root}/dovecot.log
info_log_path = {root}/dovecot.log
protocols = imap
listen = 127.0.0.1
{ssl}
disable_plaintext_auth = no
auth_mechanisms = {mechanisms}
mail_location = maildir:{root}/mail/%u
first_valid_uid = {uid}
last_valid_uid = {uid}
first_valid_gid = {gid}
last_valid_gid = {gid}
mail_plugins =
mail_fsync = never
# IDLE is woken by inotify; when the machine runs out of inotify instances
# (Chromium and many Dovecots at once) Dovecot falls back to polling, by
# default every 30 s, longer than a test waits. Poll every second instead.
mailbox_idle_check_interval = 1 secs
{oauth2_passdb}passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/users/%u
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={root}/home/%u
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {tls_port}
  }}
}}
protocol imap {{
  mail_max_userip_connections = 200
}}
"""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def dovecot_available() -> bool:
    return Path(DOVECOT).exists() and os.geteuid() == 0


def _wait_port(port: int, up: bool, deadline: float) -> bool:
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
                if up and s.recv(64).startswith(b"* OK"):
                    return True
        except OSError:
            if not up:
                return True
        time.sleep(0.05)
    return False


@dataclass
class DovecotServer:
    """A private Dovecot IMAP server; ``start()``, ``add_user()``, ``append()``, ``stop()``."""

    root: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="gm-dovecot-")))
    port: int = field(default_factory=free_port)
    host: str = "127.0.0.1"
    process: subprocess.Popen[bytes] | None = None
    tls: tuple[Path, Path] | None = None  # (certificate chain, key): STARTTLS on port, TLS on tls_port
    tls_port: int = 0
    # an OAuth2 introspection endpoint (tests/support/oauth2_stub.py): XOAUTH2 logins too
    oauth2_introspection_url: str = ""

    def __post_init__(self) -> None:
        self.root.chmod(0o755)
        for sub in ("run", "state", "mail", "home"):
            (self.root / sub).mkdir(exist_ok=True)
        for sub in ("mail", "home"):
            os.chown(self.root / sub, MAIL_UID, MAIL_GID)
        (self.root / "users").mkdir(exist_ok=True)
        ssl = "ssl = no"
        if self.tls is not None:
            self.tls_port = self.tls_port or free_port()
            ssl = f"ssl = yes\nssl_cert = <{self.tls[0]}\nssl_key = <{self.tls[1]}"
        mechanisms, oauth2_passdb = "plain login", ""
        if self.oauth2_introspection_url:
            mechanisms += " xoauth2 oauthbearer"
            (self.root / "oauth2.conf.ext").write_text(
                "introspection_mode = post\n"
                f"introspection_url = {self.oauth2_introspection_url}\n"
                "force_introspection = yes\nusername_attribute = username\n"
                "active_attribute = active\nactive_value = true\n")
            oauth2_passdb = ("passdb {\n  driver = oauth2\n  mechanisms = xoauth2 oauthbearer\n"
                             f"  args = {self.root}/oauth2.conf.ext\n}}\n")
        config = _CONFIG.format(root=self.root, port=self.port, uid=MAIL_UID, gid=MAIL_GID,
                                ssl=ssl, tls_port=self.tls_port, mechanisms=mechanisms,
                                oauth2_passdb=oauth2_passdb)
        (self.root / "dovecot.conf").write_text(config)

    def start(self) -> None:
        """Start the server and wait until it greets."""
        self.process = subprocess.Popen(
            [DOVECOT, "-F", "-c", str(self.root / "dovecot.conf")],
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=open(self.root / "stderr.log", "ab"),
        )
        if not _wait_port(self.port, True, time.monotonic() + 20):
            self.stop()
            raise RuntimeError(f"dovecot did not start: {self.log_tail()}")

    def stop(self) -> None:
        """Stop the master and every child of its session, by process group id."""
        proc, self.process = self.process, None
        if proc is None:
            return
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                os.killpg(proc.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        else:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        _wait_port(self.port, False, time.monotonic() + 5)

    def restart(self) -> None:
        """Stop and start again on the same port; mail on disk is kept."""
        self.stop()
        self.start()

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)

    def add_user(self, user: str, password: str) -> None:
        """Add a login: one passwd-file per user, so Dovecot reads it on the next LOGIN."""
        path = self.root / "users" / user
        path.write_text(f"{user}:{{PLAIN}}{password}::::::\n", encoding="utf-8")
        path.chmod(0o644)

    def client(self, user: str, password: str):  # type: ignore[no-untyped-def]
        """A logged-in IMAPClient (plain, loopback); the caller logs out."""
        from imapclient import IMAPClient

        client = IMAPClient(self.host, port=self.port, ssl=False, timeout=30)
        client.login(user, password)
        return client

    def append(self, user: str, password: str, raws: list[bytes], folder: str = "INBOX",
               arrived: datetime | None = None) -> None:
        """APPEND each raw mail to ``folder`` of ``user`` (created if missing); ``arrived``:
        the INTERNALDATE the server records (else the server's now, as at delivery)."""
        client = self.client(user, password)
        try:
            if not client.folder_exists(folder):
                client.create_folder(folder)
            for raw in raws:
                client.append(folder, raw, msg_time=arrived)
        finally:
            client.logout()

    def log_tail(self, lines: int = 20) -> str:
        try:
            text = (self.root / "dovecot.log").read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])


class SmtpMode:
    """What the test SMTP server answers to DATA."""

    ACCEPT = "accept"
    TEMPFAIL = "tempfail"  # 451
    PERMFAIL = "permfail"  # 554
    REJECT_RCPT = "reject_rcpt"  # 550 on RCPT for addresses containing "reject"
    GREYLIST_RCPT = "greylist_rcpt"  # 450 on RCPT for addresses containing "greylist"
    HANG = "hang"  # never answer DATA (until the hang is released)


@dataclass
class ReceivedMail:
    sender: str
    recipients: list[str]
    raw: bytes


class _Handler:
    def __init__(self, server: SmtpTestServer) -> None:
        self.server = server

    async def handle_RCPT(self, srv, session, envelope, address, rcpt_options):  # type: ignore[no-untyped-def]
        if self.server.mode == SmtpMode.REJECT_RCPT and "reject" in address:
            return "550 5.1.1 no such user"
        if self.server.mode == SmtpMode.GREYLIST_RCPT and "greylist" in address:
            return "450 4.2.0 greylisted, try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, srv, session, envelope):  # type: ignore[no-untyped-def]
        mode = self.server.mode
        if mode == SmtpMode.TEMPFAIL:
            return "451 4.3.0 try again later"
        if mode == SmtpMode.PERMFAIL:
            return "554 5.7.1 rejected"
        if mode == SmtpMode.HANG:
            await asyncio.sleep(self.server.hang_seconds)
        mail = ReceivedMail(envelope.mail_from, list(envelope.rcpt_tos), bytes(envelope.content))
        self.server.received.append(mail)
        if self.server.deliver is not None:  # like an MTA: hand it on to the mailboxes
            await asyncio.to_thread(self.server.deliver, mail)
        return "250 OK queued"


class _OAuth2Handler(_Handler):
    """Also takes AUTH XOAUTH2, asking ``server.oauth2_check(user, token)``."""

    async def auth_XOAUTH2(self, srv, args):  # type: ignore[no-untyped-def]
        from base64 import b64decode

        from aiosmtpd.smtp import AuthResult

        if len(args) < 2:
            return AuthResult(success=False)
        fields = dict(part.split("=", 1) for part in
                      b64decode(args[1]).decode().split("\x01") if "=" in part)
        user, token = fields.get("user", ""), fields.get("auth", "").removeprefix("Bearer ")
        check = self.server.oauth2_check
        return AuthResult(success=bool(check and check(user, token)))


@dataclass
class SmtpTestServer:
    """An aiosmtpd server on a free loopback port collecting mail in ``received``."""

    port: int = field(default_factory=free_port)
    host: str = "127.0.0.1"
    mode: str = SmtpMode.ACCEPT
    hang_seconds: float = 30.0
    received: list[ReceivedMail] = field(default_factory=list)
    auth: dict[str, str] | None = None
    tls_context: ssl.SSLContext | None = None  # offered by STARTTLS, or from the first byte:
    implicit_tls: bool = False
    deliver: Callable[[ReceivedMail], None] | None = None  # relay each accepted mail
    oauth2_check: Callable[[str, str], bool] | None = None  # offer XOAUTH2

    def start(self) -> None:
        from aiosmtpd.controller import Controller

        kwargs: dict[str, object] = {}
        if self.tls_context is not None:
            key = "ssl_context" if self.implicit_tls else "tls_context"
            kwargs[key] = self.tls_context
            if not self.implicit_tls:
                kwargs["require_starttls"] = True
        if self.auth is not None:
            kwargs |= {
                "authenticator": self._authenticate,
                "auth_require_tls": False,
                "auth_exclude_mechanism": ["LOGIN"],
            }
        if self.oauth2_check is not None:
            kwargs |= {"auth_require_tls": False}
        handler = _OAuth2Handler(self) if self.oauth2_check is not None else _Handler(self)
        self._controller = Controller(handler, hostname=self.host, port=self.port, **kwargs)
        self._controller.start()

    def _authenticate(self, server, session, envelope, mechanism, auth_data):  # type: ignore[no-untyped-def]
        from aiosmtpd.smtp import AuthResult, LoginPassword

        ok = (
            isinstance(auth_data, LoginPassword)
            and self.auth is not None
            and self.auth.get(auth_data.login.decode()) == auth_data.password.decode()
        )
        return AuthResult(success=ok, handled=False)

    def stop(self) -> None:
        self._controller.stop()

"""``gm doctor``: check a host's set-up and say in plain words what is wrong.

Each check runs the same code the daemon runs (the configured IMAP source and
SMTP sink, the migrations, the template loader), so what the doctor passes the
daemon can do. A check that fails says what it found and how to fix it; the
checks after it that need it are skipped rather than failing for the same
reason twice. The round trip sends one test mail (marked ``Auto-Submitted``, so
no gm daemon answers it) to the moderator with a copy to gm's own address,
then reads the copy back from the inbox: proof that mail sent by gm arrives
where gm reads. One check only warns (a ``warning`` finding: gm runs, exit
status 0): an empty ``[service] moderator_address``, with which the notices of
the games that name no moderator of their own go to nobody. See docs/mailbox.md.
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
import socket
import ssl
import time
import uuid
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from email.message import EmailMessage
from email.utils import formatdate
from pathlib import Path
from typing import Any

import aiosmtplib
from imapclient.exceptions import IMAPClientError

from gm.config import Config, ConfigError, ConfigSyntaxError
from gm.mail.config import InboundKind, MailSettings, OutboundKind, TlsMode
from gm.mail.factory import token_source
from gm.mail.imap_source import ImapLoginError, ImapSource
from gm.mail.oauth2 import TokenError, TokenSource
from gm.mail.smtp_sink import SmtpSink

DOCTOR_HEADER = "X-GM-Doctor"


@dataclass(frozen=True)
class Finding:
    """One check's result: ``ok``, what was found, and the fix when it failed. A
    ``warning`` is ok (gm runs, the exit status is 0) but says what is missed and how to
    fix it."""

    check: str
    ok: bool
    detail: str
    fix: str = ""
    skipped: bool = False
    warning: bool = False

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _ok(check: str, detail: str) -> Finding:
    return Finding(check, True, detail)


def _fail(check: str, detail: str, fix: str) -> Finding:
    return Finding(check, False, detail, fix)


def unreadable_config(error: ConfigError) -> list[Finding]:
    """The finding when the config file cannot be read at all (not TOML): the other checks
    need it, and are not run."""
    where = (f"line {error.line} of {error.path}" if isinstance(error, ConfigSyntaxError)
             and error.line is not None else "the file")
    return [_fail("config", str(error),
                  f"correct {where} (a quote or bracket left open, a text value without "
                  "quotes; every option is explained in deploy/gm.example.toml), then run "
                  "gm doctor again")]


def _skip(check: str, why: str) -> Finding:
    return Finding(check, True, why, skipped=True)


def _warn(check: str, detail: str, fix: str) -> Finding:
    return Finding(check, True, detail, fix, warning=True)


@dataclass
class Doctor:
    """Runs the checks in order; ``findings`` holds what each found."""

    config: Config
    db_override: str | None = None
    send: bool = True
    wait_seconds: float = 30.0

    def run(self) -> list[Finding]:
        database = self.check_database()
        findings = [database, *self.check_outbox(database), *self.check_templates()]
        try:
            mail = self.config.mail_settings()
        except ConfigError as exc:
            return [_fail("config", str(exc), "correct that option (every option is explained "
                          "in deploy/gm.example.toml)"), *findings]
        where = str(self.config.path) if self.config.path else "no config file: built-in defaults"
        findings.insert(0, _ok("config", f"{where}; gm's address {mail.address}, mail in by "
                                         f"{mail.inbound.value}, out by {mail.outbound.value}"))
        findings.insert(1, self.check_moderator())
        tokens = token_source(mail)
        if tokens is not None:
            findings.append(self.check_oauth2(tokens))
        inbound = self.check_inbound(mail, tokens)
        outbound = self.check_outbound(mail, tokens)
        findings += [*inbound, *outbound]
        findings.append(self.round_trip(mail, tokens, ready=all(f.ok for f in findings)))
        return findings

    # -- who is told ------------------------------------------------------------

    def check_moderator(self) -> Finding:
        """``[service] moderator_address``: without it the notices of every game that names
        no moderator of its own, and of mail that belongs to no game, go to nobody."""
        moderator = str(self.config.service_settings().get("moderator_address") or "")
        if moderator:
            return _ok("moderator", f"{moderator} is told of the games that name no moderator "
                                    "of their own, and of mail that belongs to no game")
        games = self._games_without_moderator()
        whose = (f" (here: {', '.join(games)})" if games else "")
        return _warn(
            "moderator",
            "[service] moderator_address is empty: for the games that name no moderator of "
            f"their own{whose} and for mail that belongs to no game, nobody is told when a "
            "game is held because its phase raised, when a mail gm sent cannot be delivered "
            "or bounces, when a mail's handling fails, or when a mail loop is stopped",
            'set moderator_address = "you@example.org" in [service] of the config, then '
            "restart gm; a game's own moderator is set by gm game new --moderator or "
            "gm game moderator GAME --address")

    def _games_without_moderator(self) -> list[str]:
        """The games in the database that name no moderator of their own (none if the
        database cannot be read: its own check says why)."""
        from sqlmodel import Session, col, select

        from gm.db.engine import make_engine
        from gm.db.models import Game

        if self.config.missing_database(self.db_override):
            return []
        url = self.config.database_url(self.db_override)
        if url.startswith("sqlite:///") and not Path(url.removeprefix("sqlite:///")).exists():
            return []  # looking would create it
        engine = make_engine(url)
        try:
            with Session(engine) as session:
                return list(session.exec(select(Game.id).where(
                    (col(Game.moderator_address) == "") | (col(Game.moderator_address) == None)  # noqa: E711
                ).order_by(col(Game.id))))
        except Exception:  # no schema yet, a server down: the database check says so
            return []
        finally:
            engine.dispose()

    # -- the database and the templates ---------------------------------------

    def check_database(self) -> Finding:
        from gm.db.engine import make_engine
        from gm.db.migrate import current_revision, head_revision

        missing = self.config.missing_database(self.db_override)
        if missing:
            return _fail("database", missing, "run `gm init` here, or give --config / --db")
        url = self.config.database_url(self.db_override)
        shown = url.split("@")[-1] if "@" in url else url
        sqlite_file = url.removeprefix("sqlite:///") if url.startswith("sqlite:///") else ""
        if sqlite_file and not Path(sqlite_file).exists():
            folder = Path(sqlite_file).parent
            if folder.is_dir() and os.access(folder, os.W_OK):
                return _ok("database", f"{sqlite_file} does not exist yet; gm creates it on start")
            return _fail("database", f"{sqlite_file} cannot be created: {folder} is not a "
                                     "writable folder", "create the folder, or set [database] path")
        try:
            current = current_revision(make_engine(url))
        except Exception as exc:  # any driver error is the finding
            return _fail("database", f"{shown} cannot be opened: {_first_line(exc)}",
                         "check [database] url (or GM_DATABASE_URL), that the server runs and that "
                         "the user may log in; for PostgreSQL install gm[postgres]")
        head = head_revision()
        if current == head:
            return _ok("database", f"{shown}: schema {head}, up to date")
        if current is None or current < head:
            return _ok("database", f"{shown}: schema {current or 'empty'}; gm brings it to {head} "
                                   "on start (or run `gm db upgrade`)")
        return _fail("database", f"{shown}: schema {current} was written by a newer gm "
                                 f"(this one knows up to {head})",
                     "upgrade gm, or restore a backup made by this version")

    def check_outbox(self, database: Finding) -> list[Finding]:
        """The mails that wait to be sent once one of them failed (the mail server down, its
        login refused, a 4xx): a host who mends the server sees what is still to go."""
        from sqlmodel import Session, col, select

        from gm.db.engine import make_engine
        from gm.db.models import OutboundMail

        if not database.ok or "does not exist yet" in database.detail:
            return []
        engine = make_engine(self.config.database_url(self.db_override))
        try:
            with Session(engine) as session:
                queued = list(session.exec(select(OutboundMail).where(
                    col(OutboundMail.status) == "queued").order_by(col(OutboundMail.created_at))))
        except Exception:  # no schema yet: nothing was ever queued
            return []
        finally:
            engine.dispose()
        tried = [m for m in queued if m.attempts > 0]
        if not tried:
            return [_ok("outbox", "no mail waits for a retry")]
        last = max(tried, key=lambda m: m.attempts)
        count = "1 mail waits" if len(queued) == 1 else f"{len(queued)} mails wait"
        return [_warn(
            "outbox",
            f"{count} to be sent, {len(tried)} of them tried and failed; the oldest queued "
            f"{queued[0].created_at:%Y-%m-%d %H:%M} UTC; the last error: "
            f"{(last.last_error.strip().splitlines() or ['none'])[0]}",
            "mend what the smtp check says, then restart gm: a mail that failed because the "
            "server was down or refused gm's login is tried again at once (one the server "
            "refused for now, 4xx, keeps its backoff)")]

    def check_templates(self) -> Iterator[Finding]:
        from jinja2 import TemplateSyntaxError

        from gm.resources import templates_root
        from gm.service.render import environment

        env, root = environment(), templates_root()
        names = sorted(str(p.relative_to(root)) for p in root.rglob("*.j2"))
        bad = []
        for name in names:
            try:
                env.get_template(name)
            except TemplateSyntaxError as exc:
                bad.append(f"{name} line {exc.lineno}: {exc.message}")
        if bad:
            yield _fail("templates", "; ".join(bad), "correct the template (or reinstall gm)")
        else:
            yield _ok("templates", f"{len(names)} templates in {root} read")

    # -- mail -----------------------------------------------------------------

    def check_oauth2(self, tokens: TokenSource) -> Finding:
        try:
            tokens.access_token()
        except TokenError as exc:
            return _fail("oauth2", str(exc), "see docs/mailbox.md, 'OAuth2'")
        return _ok("oauth2", f"access token from {tokens.settings.token_url}")

    def check_inbound(self, mail: MailSettings, tokens: TokenSource | None) -> list[Finding]:
        if mail.inbound is InboundKind.MAILDIR:
            boxes = [mail.maildir.inbox] + ([mail.maildir.processed] if mail.maildir.processed else [])
            return [_maildir_finding("inbox", box) for box in boxes]
        s = mail.imap
        where = f"{s.host}:{s.port}"
        if s.tls is TlsMode.NONE and not _loopback(s.host):
            return [_in_clear("imap", where)]
        source = ImapSource(s, max_attempts=1, tokens=tokens)
        try:
            source.call(lambda client: None)
        except Exception as exc:
            return [_connection_failure("imap", where, s.tls, s.user, exc)]
        found = [_ok("imap", f"{where} ({s.tls.value}): logged in as {s.user}, folder {s.folder}"
                             f" (UIDVALIDITY {source.uidvalidity})")]
        found.append(_idle_finding(source, mail))
        source.close()
        return found

    def check_outbound(self, mail: MailSettings, tokens: TokenSource | None) -> list[Finding]:
        if mail.outbound is OutboundKind.MAILDIR:
            return [_maildir_finding("outbox", mail.maildir.outbox)]
        s = mail.smtp
        where = f"{s.host}:{s.port}"
        if s.tls is TlsMode.NONE and not _loopback(s.host):
            return [_in_clear("smtp", where)]

        async def login() -> None:
            sink = SmtpSink(s, tokens=tokens)
            try:
                await sink.connect()
            finally:
                await sink.close()

        try:
            asyncio.run(login())
        except Exception as exc:
            return [_connection_failure("smtp", where, s.tls, s.user, exc)]
        who = f"logged in as {s.user}" if s.user else "no login (none configured)"
        return [_ok("smtp", f"{where} ({s.tls.value}): {who}")]

    def round_trip(self, mail: MailSettings, tokens: TokenSource | None, *, ready: bool) -> Finding:
        check = "round trip"
        if not self.send:
            return _skip(check, "not tried (--no-send)")
        if mail.inbound is not InboundKind.IMAP or mail.outbound is not OutboundKind.SMTP:
            return _skip(check, "only with IMAP and SMTP: with Maildir, your mail server delivers")
        if not ready:
            return _skip(check, "not tried: mend what failed above first")
        moderator = str(self.config.service_settings().get("moderator_address") or "")
        message_id, raw = test_mail(mail, moderator)
        recipients = [a for a in (moderator, mail.address) if a]

        async def send() -> Any:
            sink = SmtpSink(mail.smtp, tokens=tokens)
            try:
                return await sink.send(raw, mail.address, recipients)
            finally:
                await sink.close()

        started = time.monotonic()
        result = asyncio.run(send())
        if not result.ok:
            return _fail(check, f"the test mail was not accepted: {result.failure}",
                         "the SMTP server refused it: check that it lets gm's user send as "
                         f"{mail.address}")
        arrived = _read_back(mail, tokens, message_id, self.wait_seconds)
        if not arrived:
            return _fail(check, f"sent to {', '.join(recipients)}, but the copy to {mail.address} "
                                f"did not arrive in {mail.imap.folder} within {self.wait_seconds:.0f} s",
                         "mail to gm's address must be delivered to the IMAP folder gm reads: "
                         "check the address, plus-addressing and any filter rules")
        to_mod = f"sent to the moderator {moderator} and " if moderator else ""
        return _ok(check, f"{to_mod}read back from {mail.imap.folder} after "
                          f"{time.monotonic() - started:.1f} s")


def test_mail(mail: MailSettings, moderator: str) -> tuple[str, bytes]:
    """The doctor's test mail: its Message-ID and its bytes."""
    message_id = f"<doctor.{uuid.uuid4().hex}@{mail.message_id_domain}>"
    message = EmailMessage()
    message["From"] = mail.address
    message["To"] = moderator or mail.address
    if moderator:
        message["Cc"] = mail.address
    message["Subject"] = "gm doctor: test mail"
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = message_id
    message["Auto-Submitted"] = "auto-generated"  # no gm daemon answers it
    message[DOCTOR_HEADER] = "test"
    message.set_content("This mail was sent by `gm doctor` to check that gm's mail goes out and "
                        "comes back. Nothing to do.\n")
    return message_id, message.as_bytes()


def _read_back(mail: MailSettings, tokens: TokenSource | None, message_id: str,
               seconds: float) -> bool:
    """Wait for the copy in gm's folder; flag it handled so no daemon stores it."""
    source = ImapSource(mail.imap, max_attempts=1, tokens=tokens)
    deadline = time.monotonic() + seconds
    try:
        while not (uids := source.call(lambda c: c.search(["HEADER", "Message-ID", message_id]))):
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.5)
            source.call(lambda c: c.noop())
        flags = [mail.imap.handled_flag, b"\\Seen"]
        source.call(lambda c: c.add_flags(uids, flags))
        return True
    finally:
        source.close()


def _idle_finding(source: ImapSource, mail: MailSettings) -> Finding:
    if not mail.imap.idle:
        return _skip("imap idle", f"idle = false: gm polls every {mail.imap.poll_interval:.0f} s")
    if not source.uses_idle:
        return _fail("imap idle", "the server does not offer IDLE: gm will poll every "
                                  f"{mail.imap.poll_interval:.0f} s, so replies go out later",
                     "use a server with IDLE, or lower imap.poll_interval")
    try:
        source.wait(1.0)
    except Exception as exc:
        return _fail("imap idle", f"IDLE failed: {_first_line(exc)}",
                     "set idle = false in [imap] to poll instead")
    return _ok("imap idle", "IDLE works: replies go out seconds after mail arrives")


def _maildir_finding(name: str, folder: str) -> Finding:
    """A Maildir is usable when gm can create, write and remove a file in each sub-folder."""
    root = Path(folder)
    try:
        for sub in ("tmp", "new", "cur"):
            (root / sub).mkdir(parents=True, exist_ok=True)
            probe = root / sub / f".gm-doctor-{uuid.uuid4().hex}"
            probe.write_bytes(b"")
            probe.unlink()
    except OSError as exc:
        return _fail(f"maildir {name}", f"{root} cannot be written: {exc.strerror or exc}",
                     f"make {root} a folder the user running gm owns (mkdir -p, chown), "
                     f"or point [maildir] {name} elsewhere")
    return _ok(f"maildir {name}", f"{root}: tmp, new and cur writable")


def _connection_failure(kind: str, where: str, tls: TlsMode, user: str,
                        exc: BaseException) -> Finding:
    """Turn a connection error into what is wrong and how to fix it."""
    section = f"[{kind}]"
    tls_port = {"imap": "993", "smtp": "465"}[kind]
    plain_port = {"imap": "143", "smtp": "587"}[kind]
    text = _first_line(exc)
    if _refused(exc):
        return _fail(kind, f"nothing answers at {where} (connection refused)",
                     f"check host and port in {section}: usually {tls_port} with tls = \"tls\" "
                     f"or {plain_port} with tls = \"starttls\"")
    if isinstance(exc, socket.gaierror):
        return _fail(kind, f"the host name in {where} does not resolve: {text}",
                     f"check host in {section}")
    if isinstance(exc, ssl.SSLCertVerificationError) or "CERTIFICATE_VERIFY_FAILED" in text:
        return _fail(kind, f"{where}: the server's certificate is not trusted ({text})",
                     f"give the CA that signed it as ca_file in {section} (deploy/README.md), "
                     "or use the host name the certificate names")
    if isinstance(exc, ssl.SSLError) or "WRONG_VERSION_NUMBER" in text:
        return _fail(kind, f"{where} does not speak TLS from the first byte ({text})",
                     f"with tls = \"tls\" use the TLS port ({tls_port}); on port {plain_port} "
                     "use tls = \"starttls\"")
    if "starttls" in text.lower():
        return _fail(kind, f"{where} offers no STARTTLS ({text})",
                     f"use the server's TLS port ({tls_port}) with tls = \"tls\"; tls = \"none\" "
                     "sends the password in clear and is for a server on this machine only")
    if isinstance(exc, TokenError) or "oauth2" in text.lower():
        return _fail(kind, f"{where}: {text}", "see docs/mailbox.md, 'OAuth2'")
    if isinstance(exc, ImapLoginError | aiosmtplib.SMTPAuthenticationError):
        return _fail(kind, f"{where} refused the login of {user or '(no user)'}: {text}",
                     f"check user and password (or password_file) in {section}; Gmail and "
                     "Microsoft need an app password or OAuth2 (docs/mailbox.md)")
    if isinstance(exc, TimeoutError | socket.timeout | aiosmtplib.SMTPTimeoutError):
        return _fail(kind, f"{where} did not answer in time ({text})",
                     f"check host and port in {section}, and that a firewall lets gm through; "
                     f"TLS on a plain port ({plain_port}) also hangs: try tls = \"starttls\"")
    if isinstance(exc, IMAPClientError) and kind == "imap":
        return _fail(kind, f"{where}: {text}",
                     "check folder (and processed_folder) in [imap]: the folder must exist")
    return _fail(kind, f"{where}: {type(exc).__name__}: {text}",
                 f"check {section} against your provider's settings (docs/mailbox.md)")


def _refused(exc: BaseException) -> bool:
    """Nothing listens there: the port (or host) is wrong."""
    if isinstance(exc, ConnectionRefusedError | aiosmtplib.SMTPConnectError) and (
            isinstance(exc, ConnectionRefusedError)
            or isinstance(exc.__cause__, ConnectionRefusedError)
            or "Errno 111" in str(exc) or "Connect call failed" in str(exc)):
        return True
    return isinstance(exc.__cause__, ConnectionRefusedError)


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _in_clear(kind: str, where: str) -> Finding:
    return _fail(kind, f'tls = "none" to {where}: the password and every order would travel '
                       "in clear over the network",
                 f'use tls = "tls" (port {"993" if kind == "imap" else "465"}) or "starttls"; '
                 '"none" is for a server on this machine only')


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def failed(findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if not f.ok]


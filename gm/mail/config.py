"""Mail settings, loaded from the [mail], [imap], [smtp] and [maildir] tables of gm.toml.

Every option is documented in deploy/gm.example.toml. ``MailSettings.from_dict``
takes the whole parsed TOML document (extra tables are ignored) and raises
:class:`MailConfigError` naming the option for a wrong value; it never reads
the environment itself, except that a ``password_file`` option is read when the
settings are loaded so secrets can live outside the config file. A relative
``*_file`` path is read from ``base`` (the config file's folder, as every relative
path in gm.toml), not from the folder gm happens to run in.
"""

from __future__ import annotations

import difflib
import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from gm.mail.mime import DEFAULT_MAX_BYTES
from gm.mail.oauth2 import OAuth2Settings

if TYPE_CHECKING:
    from _typeshed import DataclassInstance


class MailConfigError(ValueError):
    """A mail option has a wrong value; ``option`` names it ("imap.port")."""

    def __init__(self, option: str, problem: str) -> None:
        super().__init__(f"{option}: {problem}")
        self.option = option
        self.problem = problem


class TlsMode(enum.Enum):
    TLS = "tls"  # implicit TLS from the first byte (IMAPS 993, SMTPS 465)
    STARTTLS = "starttls"  # plain connect, then upgrade (IMAP 143, submission 587)
    NONE = "none"  # no encryption: loopback and tests only


class AuthMode(enum.Enum):
    PASSWORD = "password"  # LOGIN/PLAIN with the user's (app) password
    XOAUTH2 = "xoauth2"  # an OAuth2 access token from the [oauth2] table (Gmail, Microsoft 365)


class InboundKind(enum.Enum):
    IMAP = "imap"
    MAILDIR = "maildir"


class OutboundKind(enum.Enum):
    SMTP = "smtp"
    MAILDIR = "maildir"


@dataclass(frozen=True)
class ImapSettings:
    host: str = "127.0.0.1"
    port: int = 993
    user: str = ""
    password: str = field(default="", repr=False)
    auth: AuthMode = AuthMode.PASSWORD
    tls: TlsMode = TlsMode.TLS
    ca_file: str = ""
    folder: str = "INBOX"
    processed_folder: str = ""  # empty: flag in place instead of moving
    handled_flag: str = "$GmHandled"
    idle: bool = True
    poll_interval: float = 60.0
    timeout: float = 60.0
    fetch_batch: int = 200
    reconnect_initial: float = 1.0
    reconnect_max: float = 300.0


@dataclass(frozen=True)
class SmtpSettings:
    host: str = "127.0.0.1"
    port: int = 587
    user: str = ""
    password: str = field(default="", repr=False)
    auth: AuthMode = AuthMode.PASSWORD
    tls: TlsMode = TlsMode.STARTTLS
    ca_file: str = ""
    timeout: float = 60.0
    local_hostname: str = ""


@dataclass(frozen=True)
class MaildirSettings:
    inbox: str = "var/mail/inbox"
    processed: str = ""  # empty: handled mail moves to inbox/cur with the flag
    handled_flag: str = "S"
    outbox: str = "var/mail/sent"
    poll_interval: float = 2.0


@dataclass(frozen=True)
class MailSettings:
    address: str = "gm@localhost"
    domain: str = ""  # for Message-IDs; defaults to the domain of ``address``
    inbound: InboundKind = InboundKind.MAILDIR
    outbound: OutboundKind = OutboundKind.MAILDIR
    max_bytes: int = DEFAULT_MAX_BYTES
    imap: ImapSettings = field(default_factory=ImapSettings)
    smtp: SmtpSettings = field(default_factory=SmtpSettings)
    maildir: MaildirSettings = field(default_factory=MaildirSettings)
    oauth2: OAuth2Settings = field(default_factory=OAuth2Settings)

    @property
    def uses_oauth2(self) -> bool:
        """Whether a configured IMAP or SMTP connection logs in with XOAUTH2."""
        return ((self.inbound is InboundKind.IMAP and self.imap.auth is AuthMode.XOAUTH2)
                or (self.outbound is OutboundKind.SMTP and self.smtp.auth is AuthMode.XOAUTH2))

    @property
    def message_id_domain(self) -> str:
        return self.domain or self.address.rpartition("@")[2] or "localhost"

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any], base: Path | None = None) -> MailSettings:
        """Build the settings from a parsed gm.toml (tables mail, imap, smtp, maildir);
        relative secret files are read from ``base`` (default: the current folder)."""
        mail = dict(_table(doc, "mail"))
        settings = _build(cls, "mail", mail, skip={"imap", "smtp", "maildir", "oauth2"}, base=base)
        if "@" not in settings.address:
            raise MailConfigError("mail.address", "must be an address like gm@example.org")
        settings = replace(
            settings,
            imap=_build(ImapSettings, "imap", _table(doc, "imap"), base=base),
            smtp=_build(SmtpSettings, "smtp", _table(doc, "smtp"), base=base),
            maildir=_build(MaildirSettings, "maildir", _table(doc, "maildir"), base=base),
            oauth2=_build(OAuth2Settings, "oauth2", _table(doc, "oauth2"), base=base),
        )
        missing = settings.oauth2.missing() if settings.uses_oauth2 else []
        if missing:
            raise MailConfigError(missing[0], "is needed for auth = \"xoauth2\" (docs/mailbox.md)")
        return settings


_S = TypeVar("_S", bound="DataclassInstance")  # a settings dataclass


def unknown(name: str, known: Iterable[str]) -> str:
    """"unknown option", with the closest known name when a typo is likely."""
    close = difflib.get_close_matches(name, list(known), n=1)
    return f"unknown option (did you mean {close[0]}?)" if close else "unknown option"


def _table(doc: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    value = doc.get(name, {})
    if not isinstance(value, Mapping):
        raise MailConfigError(name, "must be a table")
    return value


def _build(
    cls: type[_S],
    section: str,
    values: Mapping[str, Any],
    skip: frozenset[str] | set[str] = frozenset(),
    base: Path | None = None,
) -> _S:
    known = {f.name: f for f in fields(cls)}
    kwargs: dict[str, Any] = {}
    values = dict(values)
    for secret in ("password", "client_secret"):
        if f"{secret}_file" in values:
            values[secret] = _read_secret(section, values.pop(f"{secret}_file"), secret, base)
    for key, value in values.items():
        if key in skip:
            continue
        if key not in known:
            names = [*known, *(f"{s}_file" for s in ("password", "client_secret") if s in known)]
            raise MailConfigError(f"{section}.{key}", unknown(key, names))
        kwargs[key] = _coerce(f"{section}.{key}", getattr(cls(), key), value)
    return cls(**kwargs)


def _coerce(option: str, default: Any, value: Any) -> Any:
    if isinstance(default, enum.Enum):
        try:
            return type(default)(str(value).lower())
        except ValueError:
            choices = ", ".join(m.value for m in type(default))
            raise MailConfigError(option, f"must be one of {choices}") from None
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise MailConfigError(option, "must be true or false")
        return value
    if isinstance(default, int | float) and not isinstance(value, int | float):
        raise MailConfigError(option, "must be a number")
    if isinstance(default, int) and not isinstance(default, bool):
        if int(value) != value or value < 0:
            raise MailConfigError(option, "must be a whole number >= 0")
        return int(value)
    if isinstance(default, float):
        if value < 0:
            raise MailConfigError(option, "must be >= 0")
        return float(value)
    if not isinstance(value, str):
        raise MailConfigError(option, "must be a string")
    return value


def _read_secret(section: str, path: Any, name: str = "password", base: Path | None = None) -> str:
    file = Path(str(path)).expanduser()
    if base is not None and not file.is_absolute():
        file = base / file
    try:
        return file.read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise MailConfigError(f"{section}.{name}_file", f"cannot read: {exc}") from exc

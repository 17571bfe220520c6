"""The configuration file (``gm.toml``), written commented by ``gm init``.

Found at ``--config``, else ``$GM_CONFIG``, else ``./gm.toml``; a file named by
``--config`` or ``$GM_CONFIG`` must exist. Every key has a default, so gm runs
without one (SQLite ``gm.db``, Maildir in ``./mail``); every key given is checked
(an unknown table or option is an error naming it, :meth:`Config.check` and
gm.mail.config). Relative paths, secret files included, are relative to the config
file's folder.
"""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class ConfigError(Exception):
    pass


class ConfigSyntaxError(ConfigError):
    """The config file is not TOML: which file, the line and column, and what is wrong
    (a quote or bracket left open, a value without quotes)."""

    def __init__(self, path: Path, line: int | None, column: int | None, what: str) -> None:
        self.path, self.line, self.column, self.what = path, line, column, what
        where = f"{path}, line {line}, column {column}" if line is not None else str(path)
        super().__init__(f"{where}: {what} (the file is not valid TOML)")

    @classmethod
    def from_decode(cls, path: Path, exc: Exception) -> ConfigSyntaxError:
        """From tomllib's error, whose message ends "(at line L, column C)" (Python 3.11)."""
        text = str(exc)
        found = re.search(r"\s*\(at line (\d+), column (\d+)\)$", text)
        if found is None:
            return cls(path, None, None, text)
        return cls(path, int(found[1]), int(found[2]), text[:found.start()])


OPTIONS: dict[str, dict[str, type]] = {
    "database": {"path": str, "url": str},
    "service": {"moderator_address": str, "instance": str, "reply_budget": int,
                "send_lease_seconds": float, "draw_workers": int},
    "scheduler": {"sweep_seconds": float, "busy_seconds": float, "busy_poll_seconds": float},
}
"""The options of the tables gm.toml has besides the mail tables, with their types (every
one is explained in deploy/gm.example.toml)."""
MAIL_TABLES = ("mail", "imap", "smtp", "maildir", "oauth2")
"""Checked, option by option, by gm.mail.config (``Config.mail_settings``)."""


@dataclass
class Config:
    path: Path | None
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def base(self) -> Path:
        return self.path.parent if self.path else Path.cwd()

    def section(self, name: str) -> dict[str, Any]:
        value = self.data.get(name, {})
        if not isinstance(value, dict):
            raise ConfigError(f"[{name}] in {self.path} must be a table")
        return value

    def check(self) -> None:
        """Raise :class:`ConfigError` naming the first unknown table, unknown option or
        wrong value outside the mail tables: a misspelt option must not be dropped in
        silence (``[database] uri`` would leave gm on a SQLite file beside the config)."""
        from gm.mail.config import unknown

        for table, value in self.data.items():
            if table in MAIL_TABLES:
                continue
            if table not in OPTIONS:
                close = difflib.get_close_matches(table, [*OPTIONS, *MAIL_TABLES], n=1)
                hint = f" (did you mean [{close[0]}]?)" if close else ""
                raise ConfigError(f"{self.path}: [{table}]: unknown table{hint}")
            if not isinstance(value, dict):
                raise ConfigError(f"{self.path}: [{table}] must be a table")
            for key, option in value.items():
                kinds = OPTIONS[table]
                where = f"{self.path}: {table}.{key}"
                if key not in kinds:
                    raise ConfigError(f"{where}: {unknown(key, kinds)}")
                kind = kinds[key]
                if kind is str:
                    if not isinstance(option, str):
                        raise ConfigError(f"{where}: must be a string (in quotes)")
                elif isinstance(option, bool) or not isinstance(option, int | float):
                    raise ConfigError(f"{where}: must be a number")
                elif kind is int and (int(option) != option or option < 0):
                    raise ConfigError(f"{where}: must be a whole number >= 0")
                elif option < 0:
                    raise ConfigError(f"{where}: must be >= 0")

    def resolve(self, value: str) -> Path:
        p = Path(value).expanduser()
        return p if p.is_absolute() else self.base / p

    def database_url(self, override: str | None = None) -> str:
        from gm.db.engine import sqlite_url

        if override:
            return override if "://" in override else sqlite_url(self.resolve(override))
        env = os.environ.get("GM_DATABASE_URL")
        if env:
            return env
        db = self.section("database")
        if db.get("url"):
            return str(db["url"])
        return sqlite_url(self.resolve(str(db.get("path", "gm.db"))))

    def missing_database(self, override: str | None = None) -> str | None:
        """Why there is nothing to work on, or ``None``.

        With no config file, no ``--db`` and no ``GM_DATABASE_URL``, the default
        ``gm.db`` must already exist: creating an empty one in whatever folder
        the command ran from would only answer "no games yet" and hide the
        real mistake (the wrong folder, a forgotten ``--config``).
        """
        if self.path is not None or override or os.environ.get("GM_DATABASE_URL"):
            return None
        default = self.resolve("gm.db")
        if default.exists():
            return None
        where = os.environ.get("GM_CONFIG") or str(Path.cwd() / "gm.toml")
        return (f"no config file ({where}) and no database ({default}): nothing to work on here. "
                "Run `gm init` to set up this folder, or pass --config FILE or --db PATH_OR_URL "
                "(or set GM_CONFIG / GM_DATABASE_URL).")

    def service_settings(self) -> dict[str, Any]:
        s = self.section("service")
        mail = self.section("mail")
        return {"address": mail.get("address", "gm@localhost"),
                "moderator_address": s.get("moderator_address", ""),
                "instance": s.get("instance", ""),
                "reply_budget": int(s.get("reply_budget", 10)),
                "sweep_seconds": float(self.section("scheduler").get("sweep_seconds", 30)),
                "busy_seconds": float(self.section("scheduler").get("busy_seconds", 2)),
                "busy_poll_seconds": float(self.section("scheduler").get("busy_poll_seconds",
                                                                         0.05)),
                "send_lease_seconds": float(s.get("send_lease_seconds", 120)),
                # None: the cores this process may use (gm.pipeline.drawpool.workers_for)
                "draw_workers": int(s["draw_workers"]) if "draw_workers" in s else None}

    def mail_settings(self) -> Any:
        """The [mail]/[imap]/[smtp]/[maildir]/[oauth2] tables, their paths (Maildirs,
        secret files, CA files) made absolute from the config file's folder."""
        from dataclasses import replace

        from gm.mail.config import MailConfigError, MailSettings

        self.check()
        try:
            settings = MailSettings.from_dict(self.data, base=self.base)
        except MailConfigError as exc:
            raise ConfigError(f"{self.path}: {exc}") from exc
        md = settings.maildir
        fixed = replace(md, inbox=str(self.resolve(md.inbox)), outbox=str(self.resolve(md.outbox)),
                        processed=str(self.resolve(md.processed)) if md.processed else "")

        def path(value: str) -> str:
            return str(self.resolve(value)) if value else ""

        oauth2 = settings.oauth2
        return replace(settings, maildir=fixed,
                       imap=replace(settings.imap, ca_file=path(settings.imap.ca_file)),
                       smtp=replace(settings.smtp, ca_file=path(settings.smtp.ca_file)),
                       oauth2=replace(oauth2, refresh_token_file=path(oauth2.refresh_token_file)))


def load(path: str | Path | None = None) -> Config:
    named = os.environ.get("GM_CONFIG") if not path else None
    candidate = Path(path) if path else Path(named or "gm.toml")
    if not candidate.exists():
        if path:
            raise ConfigError(f"no config file at {candidate}")
        if named:  # the systemd unit and the container name it: a missing file is a mistake,
            # not a wish for the built-in defaults (a Maildir in the working folder)
            raise ConfigError(f"no config file at {candidate} (named by GM_CONFIG): write it "
                              "(deploy/gm.example.toml), or unset GM_CONFIG")
        return Config(None, {})
    try:
        data = tomllib.loads(candidate.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigSyntaxError.from_decode(candidate, exc) from exc
    except UnicodeDecodeError as exc:
        raise ConfigSyntaxError(candidate, None, None, f"not UTF-8 text ({exc.reason} at byte "
                                f"{exc.start})") from exc
    return Config(candidate.resolve(), data)


DEFAULT_CONFIG = """\
# gm configuration. Every key is optional; the values shown are the defaults.
# Full reference with every option: deploy/gm.example.toml

[mail]
# The address players write to; plus-addressing names the game (gm+baltica42@...).
address = "gm@localhost"
# Where mail comes from and goes to: "maildir" (the embedded default) or
# inbound = "imap" / outbound = "smtp" with the [imap] and [smtp] tables.
inbound = "maildir"
outbound = "maildir"

[service]
# Where notices for the moderator go when a game names none (held games, mail that
# could not be delivered, bounces...). Empty: nobody is told; `gm doctor` warns.
moderator_address = ""
# Several daemons may share one PostgreSQL database and one mailbox; give each its own
# stable name (the default is the host name). On SQLite only one daemon may run.
# instance = "gm1"
# A claim on an outgoing mail runs out after this many seconds (only if its sender died).
# send_lease_seconds = 120
# Worker processes drawing report maps before they are sent (by default one per core
# this process may use; 0 draws them in the daemon's own process, one at a time).
# draw_workers = 2
# Replies per address and hour to mails in which no sign-on held (a mail loop
# with a robot ends there: one notice, then silence, and the moderator is told).
reply_budget = 10

[database]
# SQLite file beside this config (WAL mode). For PostgreSQL use
# url = "postgresql+psycopg://gm:secret@db.example.org/gm"
path = "gm.db"

[maildir]
# The embedded default: mail is read from a local Maildir and sent into another.
# Put order mails into mail/inbox/new/ (or let your MTA deliver there);
# every reply and report appears in mail/outbox/new/.
inbox = "mail/inbox"
outbox = "mail/outbox"

# [imap]      read mail from an IMAP server instead (see deploy/gm.example.toml)
# [smtp]      send mail through an SMTP server instead

[scheduler]
# How often the daemon looks for passed deadlines (seconds).
sweep_seconds = 30
"""

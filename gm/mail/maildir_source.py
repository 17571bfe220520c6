"""Inbound mail from a local Maildir (the embedded default).

A delivery agent (or a test) drops files into ``new/``. ``fetch_new`` reads
every file in ``new/`` and every file in ``cur/`` without the handled flag,
oldest first, and changes nothing. ``mark_handled`` renames each file to
``cur/<name>:2,<flags>`` with the handled flag (an atomic rename, so a crash
leaves a mail either unhandled or handled), or moves it into the ``processed``
Maildir when one is configured.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from gm.mail.config import MaildirSettings
from gm.mail.types import FetchedMail

_INFO_SEP = ":"  # "name:2,FLAGS" per the Maildir spec


def ensure_maildir(path: Path) -> Path:
    """Create ``path`` with tmp/, new/ and cur/ if missing; return it."""
    for sub in ("tmp", "new", "cur"):
        (path / sub).mkdir(parents=True, exist_ok=True)
    return path


def _split(name: str) -> tuple[str, str]:
    """(unique part, flags) of a Maildir file name."""
    base, sep, info = name.partition(_INFO_SEP)
    flags = info[2:] if sep and info.startswith("2,") else ""
    return base, flags


class MaildirSource:
    """A :class:`~gm.mail.types.MailSource` over one Maildir."""

    def __init__(
        self, settings: MaildirSettings, *, sleep: Callable[[float], None] = time.sleep
    ) -> None:
        self.settings = settings
        self.path = ensure_maildir(Path(settings.inbox))
        self.processed = ensure_maildir(Path(settings.processed)) if settings.processed else None
        self._sleep = sleep

    @property
    def source(self) -> str:
        return f"maildir:{self.path}"

    def _pending(self) -> list[Path]:
        files: list[Path] = []
        for sub in ("new", "cur"):
            for entry in os.scandir(self.path / sub):
                if not entry.is_file() or entry.name.startswith("."):
                    continue
                if sub == "cur" and self.settings.handled_flag in _split(entry.name)[1]:
                    continue
                files.append(Path(entry.path))
        return sorted(files, key=_age)

    def fetch_new(self) -> list[FetchedMail]:
        """Every unhandled mail, oldest first; ``key`` is the file's unique name."""
        out: list[FetchedMail] = []
        for path in self._pending():
            try:
                raw = path.read_bytes()
                arrived = datetime.fromtimestamp(path.stat().st_mtime, UTC)  # its delivery
            except FileNotFoundError:  # handled by another process meanwhile
                continue
            out.append(FetchedMail(raw, self.source, None, None, _split(path.name)[0], arrived))
        return out

    def mark_handled(self, items: list[FetchedMail]) -> None:
        """Move each mail to cur/ with the handled flag, or to the processed Maildir."""
        wanted = {item.key for item in items}
        for path in self._pending():
            base, flags = _split(path.name)
            if base not in wanted:
                continue
            if self.processed is not None:
                target = self.processed / "cur" / path.name.replace("/", "")
            else:
                new_flags = "".join(sorted(set(flags + self.settings.handled_flag)))
                target = self.path / "cur" / f"{base}{_INFO_SEP}2,{new_flags}"
            try:
                os.replace(path, target)
            except FileNotFoundError:  # another instance flagged it first: it is handled
                continue

    def wait(self, timeout: float) -> bool:
        """Poll new/ until a file appears or ``timeout`` passes; True if one did."""
        deadline = time.monotonic() + timeout
        while True:
            if any(True for _ in os.scandir(self.path / "new")):
                return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self._sleep(min(left, self.settings.poll_interval))

    def close(self) -> None:
        """Nothing to release."""


def _age(path: Path) -> tuple[float, str]:
    try:
        return (path.stat().st_mtime, path.name)
    except FileNotFoundError:
        return (0.0, path.name)

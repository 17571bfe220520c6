"""Outbound mail written into a Maildir folder (the embedded default, and tests).

Each message is written to ``tmp/`` and renamed into ``new/`` (the Maildir
delivery protocol, so a reader never sees half a file). The envelope is kept
in two header lines put in front: ``Return-Path`` and ``X-GM-Envelope-To``.
A full disk or quota (ENOSPC, EDQUOT) and any other I/O error is TEMPORARY.
"""

from __future__ import annotations

import errno
import itertools
import os
import socket
import time
from pathlib import Path

from gm.mail.maildir_source import ensure_maildir
from gm.mail.types import FailureKind, SendResult

_FULL = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)}


class FileSink:
    """A :class:`~gm.mail.types.MailSink` writing one file per message into a Maildir."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._counter = itertools.count(1)
        self._host = socket.gethostname().replace("/", "_").replace(":", "_") or "localhost"

    def _unique(self) -> str:
        return f"{time.time_ns()}.P{os.getpid()}Q{next(self._counter)}.{self._host}"

    async def send(self, raw: bytes, sender: str, recipients: list[str]) -> SendResult:
        """Deliver ``raw`` to new/; a disk problem is a temporary failure."""
        envelope = f"Return-Path: <{sender}>\r\nX-GM-Envelope-To: {', '.join(recipients)}\r\n"
        name = self._unique()
        tmp = self.path / "tmp" / name
        try:
            ensure_maildir(self.path)
            with open(tmp, "wb") as fh:
                fh.write(envelope.encode("ascii", "replace") + raw)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.path / "new" / name)
        except OSError as exc:
            _remove(tmp)
            kind = FailureKind.DISK_FULL if exc.errno in _FULL else FailureKind.IO
            return SendResult.temporary(kind, None, f"{exc.strerror or exc}")
        return SendResult.sent()

    async def close(self) -> None:
        """Nothing to release."""


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass

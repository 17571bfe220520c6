"""Named crash points for the crash tests (tests/e2e/test_crash.py); inert in production.

``checkpoint("store")`` marks a point where a crash must lose nothing and
double nothing. With ``GM_CRASH_AT=N`` in the environment the process kills
itself (SIGKILL, no clean-up) at the Nth checkpoint it reaches, with
``GM_CRASH_AT=NAME:N`` at the Nth checkpoint of that name it reaches (one that comes
late in a life, such as ``flag`` after a round's mails, is rarely the Nth of all); with
``GM_CRASH_LOG=path`` it appends each checkpoint's name to that file first.
Without these variables (always, outside the tests) a checkpoint is one
comparison with ``None``.
"""

from __future__ import annotations

import os
import signal
import threading


def _target(value: str) -> tuple[str | None, int | None]:
    """``GM_CRASH_AT``: ``N`` (None, N) or ``NAME:N`` (NAME, N); (None, None) otherwise."""
    name, _, n = value.rpartition(":")
    if not n.isdigit():
        return None, None
    return name or None, int(n)


_NAMED, _AT = _target(os.environ.get("GM_CRASH_AT", ""))
_LOG = os.environ.get("GM_CRASH_LOG") or None
_lock = threading.Lock()
_count = 0


def checkpoint(name: str) -> None:
    """Reached a named crash point (receive, parse, store, handle, flag, adjudicate, render, send, sent)."""
    if _AT is None and _LOG is None:
        return
    global _count
    with _lock:
        if _NAMED is None or _NAMED == name:
            _count += 1
        kill = _count == _AT and (_NAMED is None or _NAMED == name)
        if _LOG:
            with open(_LOG, "a", encoding="utf-8") as f:
                f.write(f"{name}{' KILL' if kill else ''}\n")
        if kill:
            os.kill(os.getpid(), signal.SIGKILL)

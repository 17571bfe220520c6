"""Named crash points for the crash tests (tests/e2e/test_crash.py); inert in production.

``checkpoint("store")`` marks a point where a crash must lose nothing and
double nothing. With ``GM_CRASH_AT=N`` in the environment the process kills
itself (SIGKILL, no clean-up) at the Nth checkpoint it reaches; with
``GM_CRASH_LOG=path`` it appends each checkpoint's name to that file first.
Without these variables (always, outside the tests) a checkpoint is one
comparison with ``None``.
"""

from __future__ import annotations

import os
import signal
import threading

_AT = int(os.environ["GM_CRASH_AT"]) if os.environ.get("GM_CRASH_AT", "").isdigit() else None
_LOG = os.environ.get("GM_CRASH_LOG") or None
_lock = threading.Lock()
_count = 0


def checkpoint(name: str) -> None:
    """Reached a named crash point (receive, parse, store, handle, flag, adjudicate, render, send, sent)."""
    if _AT is None and _LOG is None:
        return
    global _count
    with _lock:
        _count += 1
        if _LOG:
            with open(_LOG, "a", encoding="utf-8") as f:
                f.write(f"{name}{' KILL' if _count == _AT else ''}\n")
        if _count == _AT:
            os.kill(os.getpid(), signal.SIGKILL)

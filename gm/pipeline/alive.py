"""Whether a process of this host is still running: what a dead process left behind (a
send claim, gm.pipeline.dispatch; a spool of mails drawn ahead, gm.pipeline.drawahead) may
be taken back only when it is not."""

from __future__ import annotations

import os


def running(pid: int) -> bool:
    """True if process ``pid`` runs on this host (this process, another user's included)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        return True
    return True

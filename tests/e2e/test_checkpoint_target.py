"""The crash tests' kill switch (gm/checkpoint.py): at the Nth checkpoint, or at the Nth of
one name (``GM_CRASH_AT=NAME:N``, for a checkpoint that comes late in a life)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

REACH = "import sys\nfrom gm.checkpoint import checkpoint\nfor name in sys.argv[1:]:\n    checkpoint(name)\n"
NAMES = ["receive", "flag", "parse", "flag", "send"]


def reach(at: str, tmp_path: Path) -> tuple[int, list[str]]:
    """Run a process that reaches NAMES in turn with GM_CRASH_AT=``at``; (exit code, log)."""
    log = tmp_path / "crash.log"
    done = subprocess.run([sys.executable, "-c", REACH, *NAMES], timeout=60,
                          env={**os.environ, "GM_CRASH_AT": at, "GM_CRASH_LOG": str(log)})
    return done.returncode, log.read_text().splitlines()


def test_the_process_is_killed_at_the_nth_checkpoint(tmp_path: Path) -> None:
    assert reach("3", tmp_path) == (-signal.SIGKILL, ["receive", "flag", "parse KILL"])


def test_a_named_target_kills_at_the_nth_checkpoint_of_that_name(tmp_path: Path) -> None:
    assert reach("flag:2", tmp_path) == (-signal.SIGKILL, ["receive", "flag", "parse", "flag KILL"])


def test_a_target_never_reached_kills_nothing(tmp_path: Path) -> None:
    assert reach("adjudicate:1", tmp_path) == (0, NAMES)

"""What a drawing worker holds before its first mail (tests/pipeline/test_draw_warm.py): run
in a worker process as gm.pipeline.drawpool.WORK, it answers with its state, not a mail."""

from __future__ import annotations

import gc
import json
import os
import sys


def worker_state(raw: bytes) -> bytes:
    """The worker's pid, how many maps the forkserver drew ahead (gm.pipeline.drawwarm; -1: not
    loaded), how many layouts are in the layout cache and how many objects it was forked
    with frozen (``gc.freeze``: never scanned by its collections), as JSON."""
    warm = sys.modules.get("gm.pipeline.drawwarm")
    from gm.maps.layout import load_layout

    return json.dumps({"pid": os.getpid(), "drawn_ahead": getattr(warm, "DRAWN", -1),
                       "layouts": load_layout.cache_info().currsize,
                       "frozen": gc.get_freeze_count()}).encode()


def niceness(raw: bytes) -> bytes:
    """The worker's niceness (``os.nice(0)``), as text."""
    return str(os.nice(0)).encode()

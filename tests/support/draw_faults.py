"""Drawing workers that fail on purpose (tests/pipeline/test_draw_pool.py).

Each is put in ``gm.pipeline.drawpool.WORK`` by a test; the pool hands it, by name, to its
worker processes, which import this module. Otherwise each draws as gm does
(``finish_raw``): only the fault is made up.
"""

from __future__ import annotations

import os
import time

from gm.pipeline.drawpool import finish_raw

DOOMED = b"karl@example.org"
"""A worker drawing a mail to this address dies (Sweden's reports in the Baltica tests)."""


def die_on_doomed(raw: bytes) -> bytes:
    """The worker process dies, as a crash in the rasteriser would take it, on a mail to
    ``DOOMED``; any other mail is drawn."""
    if DOOMED in raw:
        os._exit(70)
    return finish_raw(raw)


def raise_always(raw: bytes) -> bytes:
    raise ValueError("a drawing that raises (on purpose)")


def slow(raw: bytes) -> bytes:
    """Draw after a pause, so that a test can kill the worker while it is drawing."""
    time.sleep(0.3)
    return finish_raw(raw)


def hang_on_doomed(raw: bytes) -> bytes:
    """The worker never finishes a mail to ``DOOMED`` (a drawing stuck in a loop)."""
    if DOOMED in raw:
        time.sleep(3600)
    return finish_raw(raw)


STAMP = b"X-Test-Drawn-By: stamped\r\n"


def stamped(raw: bytes) -> bytes:
    """Draw as gm does, and say so in a header of the mail's own: a mail sent with it was
    drawn by this function (tests/pipeline/test_draw_ahead.py: drawn ahead), not again."""
    return STAMP + finish_raw(raw)


def slow_stamped(raw: bytes) -> bytes:
    """:func:`stamped` after a pause (a drawing that takes longer than queueing a close's
    reports)."""
    time.sleep(0.3)
    return stamped(raw)

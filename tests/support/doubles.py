"""Test doubles and helpers shared by the pipeline and scheduling tests."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from gm.mail.types import FetchedMail

T = TypeVar("T")


class FlagRecorder:
    """A mailbox with nothing new in it that records the UIDs flagged, in order."""

    def __init__(self) -> None:
        self.flagged: list[int | None] = []

    def fetch_new(self) -> list[FetchedMail]:
        return []

    def mark_handled(self, items: list[FetchedMail]) -> None:
        self.flagged += [f.uid for f in items]

    def wait(self, timeout: float) -> bool:
        return False

    def close(self) -> None:
        return None


def together(n: int, work: Callable[[int], T]) -> list[T]:
    """Run ``work(i)`` for i in 0..n-1 in n threads released at the same moment (several
    instances, each in its own transactions on one database, as n processes would)."""
    barrier = threading.Barrier(n)

    def go(i: int) -> T:
        barrier.wait()
        return work(i)

    with ThreadPoolExecutor(n) as pool:
        return list(pool.map(go, range(n)))

"""gm.kept.Kept: the one bounded cache behind gm's remembered work (issue 21)."""

from __future__ import annotations

import sys
import threading

from gm.kept import Kept


def test_the_least_recently_used_entry_leaves_first_when_the_bound_is_passed() -> None:
    kept: Kept[str, int] = Kept(2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.get("a") == 1  # "a" is now the most recently used
    kept.put("c", 3)
    assert list(kept) == ["a", "c"] and len(kept) == 2
    assert kept.get("b") is None


def test_a_kept_none_is_told_from_a_missing_entry_by_the_default() -> None:
    kept: Kept[str, frozenset[str] | None] = Kept(4)
    kept.put("unknown game", None)
    missing = object()
    assert kept.get("unknown game", missing) is None
    assert kept.get("never read", missing) is missing
    assert "unknown game" in kept and "never read" not in kept


def test_threads_putting_at_once_never_pass_the_bound() -> None:
    """No call raises (unlocked, ``move_to_end`` meets a key another thread just evicted)."""
    kept: Kept[int, int] = Kept(4)
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def fill() -> None:
        start.wait()
        try:
            for i in range(20_000):
                kept.put(i % 8, i)
                kept.get((i - 3) % 8)  # the oldest entry: the next put by another evicts it
        except BaseException as e:  # a thread's exception would only end that thread
            errors.append(e)

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch as often as they can
    try:
        threads = [threading.Thread(target=fill) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    assert errors == [] and len(kept) == 4


class RecordingLock:
    """Counts the times it is taken (and checks each is let go)."""

    def __init__(self) -> None:
        self.taken = self.held = 0

    def __enter__(self) -> None:
        self.taken += 1
        self.held += 1

    def __exit__(self, *exc: object) -> None:
        self.held -= 1


def test_every_use_of_the_entries_takes_the_lock() -> None:
    """get, put, clear, ``in`` and iteration each take the instance's lock (a real one)."""
    kept: Kept[str, int] = Kept(2)
    assert hasattr(kept._lock, "acquire")  # a lock, not a stand-in such as nullcontext()
    lock = kept._lock = RecordingLock()  # type: ignore[assignment]
    for use in (lambda: kept.put("a", 1), lambda: kept.get("a"), lambda: "a" in kept,
                lambda: list(kept), kept.clear):
        before = lock.taken
        use()
        assert lock.taken == before + 1 and lock.held == 0


def test_clear_forgets_everything() -> None:
    kept: Kept[str, int] = Kept(3)
    kept.put("a", 1)
    kept.clear()
    assert len(kept) == 0 and kept.get("a") is None

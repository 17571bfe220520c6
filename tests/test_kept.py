"""gm.kept.Kept: the one bounded cache behind gm's remembered work (issue 21)."""

from __future__ import annotations

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
    kept: Kept[int, int] = Kept(50)

    def fill(base: int) -> None:
        for i in range(2_000):
            kept.put(base + i, i)
            kept.get(base + i // 2)

    threads = [threading.Thread(target=fill, args=(n * 10_000,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(kept) == 50


def test_clear_forgets_everything() -> None:
    kept: Kept[str, int] = Kept(3)
    kept.put("a", 1)
    kept.clear()
    assert len(kept) == 0 and kept.get("a") is None

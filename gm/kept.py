"""A bounded, thread-safe cache: the least recently used entry leaves first (issue 21).

What gm remembers to be fast (verified passwords, parse contexts, a fetched mail's games,
map tiles and sprites) is kept in one of these, each with its own bound, so that the
daemon's memory stays bounded however many games it serves (bench/bench_memory.py). The
drain's and the loop's worker threads share them, hence the lock.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterator
from typing import Any, Generic, TypeVar, overload

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
D = TypeVar("D")
_MISSING = object()


class Kept(Generic[K, V]):
    """At most ``size`` entries; :meth:`get` and :meth:`put` mark an entry recently used."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[K]:
        """The keys, least recently used first (a snapshot)."""
        with self._lock:
            return iter(list(self._items))

    def __contains__(self, key: K) -> bool:
        with self._lock:
            return key in self._items

    @overload
    def get(self, key: K) -> V | None: ...

    @overload
    def get(self, key: K, default: D) -> V | D: ...

    def get(self, key: K, default: Any = None) -> Any:
        """The value kept for ``key`` (now the most recently used), else ``default``."""
        with self._lock:
            value = self._items.get(key, _MISSING)
            if value is _MISSING:
                return default
            self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` for ``key``; the least recently used go beyond ``size``."""
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

"""A thread-safe least-recently-used cache bounded by an estimate of bytes, not by entries.

An entry count bounds nothing when one value can be a 9x9 board and the next a 100x100 one:
the cache asks `size_of(value)` once, when a value goes in, and evicts the least recently used
entries until the sum fits `max_bytes`. Values are meant to be immutable (frozen dataclasses,
tuples, bytes, boards nobody writes to): a value handed out is shared, without a copy, by every
thread and by the event loop, and only immutability makes that safe.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedCache(Generic[K, V]):
    """LRU cache holding at most `max_bytes` by `size_of`; safe to share between threads."""

    def __init__(self, max_bytes: int, size_of: Callable[[V], int], name: str = "") -> None:
        if max_bytes < 0:
            raise ValueError("max_bytes must be at least 0")
        self._max_bytes = max_bytes
        self._size_of = size_of
        self.name = name
        self._lock = threading.Lock()
        # key -> (value, its size as estimated when it went in); the end is the most recent.
        self._entries: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._bytes = 0
        self.hits = 0
        self.misses = 0

    @property
    def max_bytes(self) -> int:
        return self._max_bytes

    @max_bytes.setter
    def max_bytes(self, max_bytes: int) -> None:
        """A new budget (configuration, tests, benchmarks); evicts down to it at once."""
        if max_bytes < 0:
            raise ValueError("max_bytes must be at least 0")
        with self._lock:
            self._evict(max_bytes)
            self._max_bytes = max_bytes

    @property
    def bytes_used(self) -> int:
        """The sum of the estimated sizes of the values held."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return (
            f"BoundedCache({self.name!r}, {len(self)} entries, "
            f"{self._bytes} of {self._max_bytes} bytes)"
        )

    def get(self, key: K) -> V | None:
        """The value for key (now the most recently used), or None."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return entry[0]

    def put(self, key: K, value: V) -> None:
        """Keep value under key, evicting the least recently used entries until within budget.

        A value bigger than the whole budget is not kept (and any older value under key goes).
        """
        size = self._checked_size(value)
        with self._lock:
            self._store(key, value, size)

    def pop(self, key: K) -> V | None:
        """Take the value for key out of the cache, or None."""
        with self._lock:
            entry = self._entries.pop(key, None)
            if entry is None:
                return None
            self._bytes -= entry[1]
            return entry[0]

    def get_or_create(self, key: K, factory: Callable[[], V]) -> V:
        """The cached value for key, else factory()'s, kept for next time.

        The factory runs outside the lock, so a slow one blocks nobody else; two threads that
        miss together may both run it, and the first value stored is the one both get.
        """
        value = self.get(key)
        if value is not None:
            return value
        created = factory()
        size = self._checked_size(created)
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:  # another thread stored it while we built ours
                self._entries.move_to_end(key)
                return entry[0]
            self._store(key, created, size)
        return created

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = 0

    def _checked_size(self, value: V) -> int:
        size = self._size_of(value)
        if size < 0:
            raise ValueError(f"size_of gave {size} bytes, a negative size")
        return size

    def _store(self, key: K, value: V, size: int) -> None:
        """Put under the lock held by the caller."""
        old = self._entries.pop(key, None)
        if old is not None:
            self._bytes -= old[1]
        if size > self._max_bytes:
            return
        # Room first, then the value: bytes_used, read without the lock, never exceeds max_bytes.
        self._evict(self._max_bytes - size)
        self._entries[key] = (value, size)
        self._bytes += size

    def _evict(self, budget: int) -> None:
        """Drop least recently used entries until at most budget bytes remain (lock held)."""
        while self._bytes > budget:
            _, (_, size) = self._entries.popitem(last=False)
            self._bytes -= size

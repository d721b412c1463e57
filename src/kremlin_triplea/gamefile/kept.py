"""What was worked out from a file's contents, kept for those contents: read the file again, skip the work again.

A process reads the same files again and again (the draft room at every request, the matrix for every ruleset and
game, a host's script or bot, the tests). Keyed by the contents themselves (a file's bytes or text, with whatever
else the value depends on), a kept value can never belong to another version of the file: an edited file is worked
out anew. The callers keep values nobody changes (frozen), or hand out copies of them. Where the value is a
function of its (hashable) key alone, ``functools.lru_cache`` does the same (a data file's kind and key lines, a
strait's canals); ``Kept`` is for a value made from more than its key (the parsed tree beside the file's bytes).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class Kept(Generic[V]):
    """The values worked out lately, by key: at most ``size``, the most recently used kept; shared between threads."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._values: dict[Hashable, V] = {}
        self._lock = threading.Lock()  # the draft room's requests run in several threads

    def get(self, key: Hashable, make: Callable[[], V]) -> V:
        """The value kept for ``key``, else ``make()`` (kept; an error it raises is raised, and nothing kept). A value
        is never None."""
        with self._lock:
            value = self._values.pop(key, None)  # popped and put back: the dict keeps the most recent last
        if value is None:
            value = make()  # outside the lock: two threads may both make it, and the value is the same
        with self._lock:
            self._values[key] = value
            while len(self._values) > self._size:
                del self._values[next(iter(self._values))]
        return value

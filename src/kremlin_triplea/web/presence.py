"""Whether the other side has the room open (issue 43: "no sign whether the opponent is online").

Each open page of a side asks every ``POLL_SECONDS`` (the page's script); a side whose page asked within
``AWAY_SECONDS`` is here. Kept by the running server only, and never a reason to refuse anything.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

#: How often an open page says it is there, and how long after its last word a side counts as away.
POLL_SECONDS = 15
AWAY_SECONDS = 40


class Presence:
    def __init__(self, sides: tuple[str, ...], clock: Callable[[], float] = time.monotonic) -> None:
        self.sides = sides
        self.clock = clock
        self._seen: dict[str, float] = {}
        self._lock = threading.Lock()

    def touch(self, role: str) -> None:
        with self._lock:
            self._seen[role] = self.clock()

    def line(self, role: str) -> str:
        """What ``role``'s page says of the other sides: here, away since when, or not seen since the server started."""
        now = self.clock()
        told = []
        for side in self.sides:
            if side == role:
                continue
            with self._lock:
                seen = self._seen.get(side)
            if seen is None:
                told.append(f"The {side} have not opened the room since the server started.")
            elif now - seen <= AWAY_SECONDS:
                told.append(f"The {side} have the room open.")
            else:
                told.append(f"The {side} are away (last seen {_ago(now - seen)} ago).")
        return " ".join(told)


def _ago(seconds: float) -> str:
    minutes = int(seconds // 60)
    return f"{int(seconds)} s" if minutes < 1 else f"{minutes} min" if minutes < 120 else f"{minutes // 60} h"

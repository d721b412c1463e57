"""How many threads hold a lock at once: the install lock's tests (tests/test_faults_install.py, test_faults_windows.py)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager


def most_holders_at_once(lock: Callable[[], AbstractContextManager[object]], rounds: int, threads: int = 4) -> int:
    """``threads`` threads each take ``lock()`` ``rounds`` times, holding it a moment: the most inside at one time."""
    inside, most, guard = [0], [0], threading.Lock()

    def hold() -> None:
        for _ in range(rounds):
            with lock():
                with guard:
                    inside[0] += 1
                    most[0] = max(most[0], inside[0])
                time.sleep(0.002)
                with guard:
                    inside[0] -= 1

    workers = [threading.Thread(target=hold) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return most[0]

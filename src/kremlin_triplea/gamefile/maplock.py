"""The lock that serialises installs into one map: an exclusive lock on a file beside ``map.yml``.

``map.yml`` is read again under the lock, so two installs at once neither lose an entry nor take the same name.
The file goes when the lock does; a run that waits for it gives up after :data:`LOCK_WAIT_SECONDS`.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from kremlin_triplea.errors import InputError
from kremlin_triplea.gamefile.safe import BINARY

LOCK_NAME = ".map.yml.kremlin-triplea.lock"

#: How long an install waits for another one into the same map before giving up, rather than hang behind a
#: run that hangs itself (a stalled network share, a stopped process).
LOCK_WAIT_SECONDS = 120


@contextlib.contextmanager
def map_lock(folder: Path) -> Iterator[None]:
    """Hold the map's install lock (a file beside map.yml) for the duration; the file goes when the lock does."""
    path = folder / LOCK_NAME
    lock, unlock = _lock_calls()
    descriptor = _lock_file(path, lock)
    try:
        yield
    finally:
        # Removed while still held: a waiter that gets the lock next finds its file gone and opens a new one
        # (_lock_file), so no two runs ever hold locks on two different files at once. Windows refuses to
        # remove a file that is open: there it goes after closing, unless another run has opened it meanwhile.
        try:
            os.unlink(path)
            removed = True
        except OSError:
            removed = False
        unlock(descriptor)
        os.close(descriptor)
        if not removed:
            with contextlib.suppress(OSError):
                os.unlink(path)


def _lock_calls() -> tuple[Callable[[int], None], Callable[[int], None]]:
    """Take and release an exclusive lock on a whole open file: flock, or msvcrt.locking on Windows."""
    try:
        import fcntl
    except ImportError:
        import msvcrt

        return (lambda descriptor: _lock_windows(msvcrt, descriptor)), (lambda descriptor: _unlock_windows(msvcrt, descriptor))
    return (lambda descriptor: _lock_posix(fcntl, descriptor)), (lambda descriptor: None)  # closing releases it


def _lock_posix(fcntl: Any, descriptor: int) -> None:
    """flock, waiting up to LOCK_WAIT_SECONDS; a file system without locks raises its own OSError at once."""
    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    while True:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() > deadline:
                raise TimeoutError from None
            time.sleep(0.02)


def _lock_windows(msvcrt: Any, descriptor: int) -> None:
    """msvcrt's blocking lock gives up after 10 s: wait here instead, up to LOCK_WAIT_SECONDS."""
    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    while True:
        os.lseek(descriptor, 0, os.SEEK_SET)  # the lock covers the first byte; it may lie past the end
        try:
            msvcrt.locking(descriptor, msvcrt.LK_NBLCK, 1)
            return
        except OSError:  # held by another run (msvcrt says EDEADLOCK or EACCES)
            if time.monotonic() > deadline:
                raise TimeoutError from None
            time.sleep(0.05)


def _unlock_windows(msvcrt: Any, descriptor: int) -> None:
    os.lseek(descriptor, 0, os.SEEK_SET)
    with contextlib.suppress(OSError):
        msvcrt.locking(descriptor, msvcrt.LK_UNLCK, 1)


def _lock_file(path: Path, lock: Callable[[int], None]) -> int:
    """A descriptor holding the exclusive lock on the file now at ``path``."""
    while True:
        try:
            descriptor = os.open(path, os.O_RDWR | os.O_CREAT | BINARY | getattr(os, "O_NOFOLLOW", 0), 0o644)
        except OSError as error:
            raise InputError(f"cannot lock the map for installing: {error.strerror}", where=str(path)) from None
        try:
            lock(descriptor)
            current = os.stat(path, follow_symlinks=False)
        except FileNotFoundError:
            current = None
        except TimeoutError:
            os.close(descriptor)
            raise InputError(f"another install into this map has held its lock for {LOCK_WAIT_SECONDS} s; try again when it is done", where=str(path)) from None
        except OSError as error:  # a file system without locks (some network shares): nobody holds this file
            with contextlib.suppress(OSError):
                os.unlink(path)
            os.close(descriptor)
            raise InputError(f"cannot lock the map for installing: {error.strerror or error}", where=str(path)) from None
        except BaseException:
            os.close(descriptor)
            raise
        if current is not None and os.path.samestat(os.fstat(descriptor), current):
            return descriptor
        os.close(descriptor)  # the holder before us removed this file: lock the one at the path now

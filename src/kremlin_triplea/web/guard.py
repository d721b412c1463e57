"""The draft file as the room last wrote or read it: a hand edit made while the room serves is found, and the room
stops rather than write over it at the next action (issue 40)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path


class DraftWatch:
    """What the room knows of its draft file: its identity (device, inode), size, modification time and contents,
    as the room last wrote or read it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.seen = self.now()

    def now(self) -> tuple[object, ...] | None:
        """The file's identity, size, time and contents' digest now (None: no such file, or unreadable). The
        contents are read every time: on a file system with coarse times an edit in the same second keeps the time."""
        try:
            with open(self.path, "rb") as file:
                found = os.fstat(file.fileno())
                digest = hashlib.sha256(file.read()).hexdigest()
        except OSError:
            return None
        return found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns, digest

    def remember(self) -> None:
        """The file as it is now is the room's own (just written, or read)."""
        self.seen = self.now()

    def edited(self) -> bool:
        """The file is no longer what the room last wrote: replaced, rewritten, removed. The same contents written
        again (a ``touch``, an editor saving without a change) is no edit, and is remembered as it is now."""
        try:
            size = os.stat(self.path).st_size
        except OSError:
            return self.seen is not None  # removed, or no longer readable
        if self.seen is None or size != self.seen[2]:
            return True  # it appeared, or another size: edited, without reading what may be a file of any size (looked at every second)
        now = self.now()
        if now == self.seen:
            return False
        if now is not None and self.seen is not None and now[-1] == self.seen[-1]:
            self.seen = now
            return False
        return True

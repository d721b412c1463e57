"""One server per draft file (``ServeLock``): by the draft's path and by the file itself (its device and inode),
so that a second ``serve`` reaching the same file through a symbolic or a hard link is refused too (issue 40)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from kremlin_triplea.errors import InputError, KremlinError
from kremlin_triplea.gamefile.safe import BINARY, read_bytes


def lock_file(draft_path: Path) -> Path:
    return draft_path.with_name(draft_path.stem + ".room.lock")


#: Where the lock is taken on Windows: a byte far past the text, so that a second server can still read who holds it.
_WINDOWS_LOCK_OFFSET = 1 << 30


def _windows() -> bool:
    return os.name == "nt"


class ServeLock:
    """Held by the one server serving a draft file: a second ``serve`` on it is refused and told where the first one runs.

    Two servers on one draft would both accept picks, each on its own board, and write over each other. The lock is
    the operating system's (flock; a byte-range lock on Windows), so a server killed outright leaves no lock behind;
    the lock file (``NAME.room.lock``) says which process holds it and at which address. It lies beside the file
    the draft's path leads to (symbolic links followed), and the draft file itself is locked too once it exists
    (``hold_draft``, again after each write: the writer replaces it), so another name for the same file, a hard
    link, is refused as well.
    """

    def __init__(self, draft_path: Path) -> None:
        self.draft = Path(draft_path)
        self.path = lock_file(Path(os.path.realpath(self.draft)))
        self._descriptor: int | None = None
        self._held: int | None = None  # the draft file, locked (its device and inode: whatever name reaches it)

    def acquire(self) -> ServeLock:
        if not self.path.parent.is_dir():
            raise InputError(f"no such draft: the folder {self.path.parent} does not exist", where=str(self.draft))
        while True:
            try:
                descriptor = os.open(self.path, os.O_RDWR | os.O_CREAT | BINARY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0), 0o600)
            except OSError as error:
                raise InputError(f"cannot make the lock that keeps a second server off this draft: {error.strerror or error}", where=str(self.path)) from None
            if not stat.S_ISREG(os.fstat(descriptor).st_mode):
                os.close(descriptor)
                raise InputError("is not a regular file: it is where serve keeps the lock for the draft beside it; move it away", where=str(self.path))
            if not _try_lock(descriptor):
                os.close(descriptor)
                raise InputError(f"is already served by {self._holder()}; stop that server first, or use its links", where=str(self.draft))
            if _windows() or _same_file(descriptor, self.path):
                break
            os.close(descriptor)  # the server that held it removed the file as it stopped: lock the one now there
        self._descriptor = descriptor
        self.say(f"process {os.getpid()}, starting")
        return self

    def say(self, where: str) -> None:
        """Write who holds the lock (``where``: the process and its address) for a second server to report."""
        assert self._descriptor is not None
        text = f"{where}\n".encode()
        try:
            os.lseek(self._descriptor, 0, os.SEEK_SET)
            os.write(self._descriptor, text)
            os.ftruncate(self._descriptor, len(text))
        except OSError as error:  # a full disk: named, not a bare "No space left on device"
            raise InputError(f"cannot write who serves the draft: {error.strerror or error}", where=str(self.path)) from None

    def hold_draft(self) -> None:
        """Lock the draft file as it is now (its device and inode): a second server reaching it by another name (a
        hard link, a symbolic link) is refused. Called once it exists and after each write, which replaces it; where
        locking a file keeps others from reading it (Windows), the lock beside the resolved path is the one held."""
        if _windows():
            return
        try:
            descriptor = os.open(self.draft, os.O_RDONLY | BINARY | getattr(os, "O_NONBLOCK", 0))
        except OSError as error:
            raise InputError(f"cannot open the draft to keep a second server off it: {error.strerror or error}", where=str(self.draft)) from None
        if self._held is not None and os.path.samestat(os.fstat(descriptor), os.fstat(self._held)):
            os.close(descriptor)
            return  # the same file, held already
        if not stat.S_ISREG(os.fstat(descriptor).st_mode) or not _try_lock(descriptor):
            os.close(descriptor)
            raise InputError(
                "is already served by another kremlin-triplea serve, under another name for the same file (a link to it); "
                "stop that server first, or use its links",
                where=str(self.draft),
            )
        if self._held is not None:
            os.close(self._held)
        self._held = descriptor

    def _holder(self) -> str:
        try:
            text = read_bytes(self.path, max_bytes=4096, what="lock file").decode("utf-8", "replace").strip()
        except KremlinError:
            text = ""
        return text or "another process"

    def release(self) -> None:
        if self._held is not None:
            os.close(self._held)
            self._held = None
        if self._descriptor is None:
            return
        if not _windows():
            self.path.unlink(missing_ok=True)  # while still locked: a server starting now locks a new file
        os.close(self._descriptor)
        self._descriptor = None
        if _windows():  # an open file cannot be removed there: once closed
            try:
                self.path.unlink()
            except OSError:
                pass  # another server opened it meanwhile

    def __enter__(self) -> ServeLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def _try_lock(descriptor: int) -> bool:
    try:
        if _windows():
            import msvcrt

            os.lseek(descriptor, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
            msvcrt.locking(descriptor, msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def _same_file(descriptor: int, path: Path) -> bool:
    try:
        return os.path.samestat(os.fstat(descriptor), os.stat(path))
    except OSError:
        return False

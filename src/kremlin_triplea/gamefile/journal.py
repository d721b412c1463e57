"""The journal of an install, a replace or an uninstall into a map: written before any game file, gone when it is done.

A kill -9, a power cut or a full disk can stop an install anywhere. The journal (``kremlin-triplea-journal.json``
beside ``map.yml``, written atomically) names, before any of them exists, every file the operation will write: the
new game and notes first as *staged* files (``.<name>.kremlin-staged-<token>.tmp`` in the games folder), the old
ones kept as *backups* while they are replaced. The next run into the map reads it under the map's lock and finishes
or rolls back what it describes (:func:`kremlin_triplea.gamefile.install.recover`), so no game file is left that
no record knows, and the record's hashes are always those of the files.

The journal travels with the map folder like the record, so nothing in it is trusted: every name in it is a plain
name in the games folder, a staged or backup name is one of this module's, and a hash is a hash.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import secrets
import shutil
import stat
from collections.abc import Callable
from pathlib import Path

from kremlin_triplea.errors import InputError
from kremlin_triplea.gamefile.safe import BINARY, read_bytes, read_text, remove, replace, write_atomically

JOURNAL_NAME = "kremlin-triplea-journal.json"
OPERATIONS = ("install", "replace", "uninstall")
_KINDS = ("staged", "backup")
_HASH = re.compile(r"[0-9a-f]{64}")


def journal_path(folder: Path) -> Path:
    return folder / JOURNAL_NAME


def side_name(target: str, kind: str) -> str:
    """A new name beside ``target`` for its staged (new) or backup (old) content; hidden, and never a game (.tmp)."""
    return f".{target}.kremlin-{kind}-{secrets.token_hex(8)}.tmp"


def _side_name_problem(value: object, target: str, kind: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not re.fullmatch(rf"\.{re.escape(target)}\.kremlin-{kind}-[0-9a-f]{{16}}\.tmp", value):
        return f"{kind} {value!r} is not a {kind} copy of {target!r}"
    return None


def journal_problem(data: object, entry_problem: Callable[[object], str | None]) -> str | None:
    """Why ``data`` is not a journal this program writes, or None; ``entry_problem`` checks its record entry."""
    if not isinstance(data, dict) or data.get("written_by") != "kremlin-triplea":
        return "not written by kremlin-triplea"
    if data.get("operation") not in OPERATIONS:
        return f"operation {data.get('operation')!r} is not one of {', '.join(OPERATIONS)}"
    entry = data.get("entry")
    problem = entry_problem(entry)
    if problem is not None:
        return f"entry: {problem}"
    files = data.get("files")
    if not isinstance(files, list) or not 1 <= len(files) <= 2:
        return "'files' is not the list of a game's file and notes"
    allowed = {entry["file_name"], *([entry["notes_file"]] if entry.get("notes_file") else [])}
    for file in files:
        if not isinstance(file, dict) or file.get("name") not in allowed:
            return f"file {file!r} is not the game's file or its notes"
        for kind in _KINDS:
            problem = _side_name_problem(file.get(kind), file["name"], kind)
            if problem is not None:
                return problem
        value = file.get("sha256")
        if value is not None and not (isinstance(value, str) and _HASH.fullmatch(value)):
            return f"sha256 {value!r} is not a SHA-256 hash"
    return None


def read_journal(folder: Path, entry_problem: Callable[[object], str | None]) -> dict | None:
    """The map's journal, every field checked, or None if there is none."""
    path = journal_path(folder)
    if not os.path.lexists(path):
        return None
    if os.path.islink(path):
        raise InputError("is a symbolic link; the journal of an install is a file this program writes: remove the link", where=str(path))
    try:
        data = json.loads(read_text(path, what="journal of an install"))
    except ValueError as error:
        data, problem = None, f"not JSON: {error}"
    else:
        problem = journal_problem(data, entry_problem)
    if problem is not None:
        raise InputError(f"is not the journal of an install ({problem}); remove it and check the map's games by hand", where=str(path))
    return data


def write_journal(folder: Path, data: dict) -> None:
    path = journal_path(folder)
    if os.path.islink(path):  # written through, it would replace whatever it points to
        raise InputError("is a symbolic link; the journal of an install is a file this program writes: remove the link", where=str(path))
    text = json.dumps({"written_by": "kremlin-triplea", **data}, indent=2, ensure_ascii=False) + "\n"
    write_atomically(path, text.encode("utf-8"), overwrite=True)


def remove_journal(folder: Path) -> None:
    remove(journal_path(folder))


def sha256_of(path: Path) -> str | None:
    """The hash of the regular file at ``path``; None if there is none (gone, or a link, a folder...)."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
    except FileNotFoundError:
        return None
    except OSError as error:
        raise InputError(f"cannot be checked: {error.strerror}", where=str(path)) from None
    return hashlib.sha256(read_bytes(path, what="installed game")).hexdigest()


def write_staged(path: Path, data: bytes) -> None:
    """Write the staged file ``path`` (a new name: never one that exists), synced to disk before it is placed."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | BINARY | getattr(os, "O_NOFOLLOW", 0), 0o666)
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
    except OSError as error:
        raise InputError(f"cannot write: {error.strerror or error}", where=str(path)) from None


def place_new(staged: Path, target: Path) -> None:
    """Give ``target`` (which must not exist) the staged file's content; the staged name goes."""
    try:
        try:
            os.link(staged, target)
        except FileExistsError:
            raise InputError("appeared while the game was being installed; it was left as it is", where=str(target)) from None
        except OSError:  # no hard links here (FAT, some shares): check, then rename (a narrow race, never a partial file)
            if os.path.lexists(target):
                raise InputError("appeared while the game was being installed; it was left as it is", where=str(target)) from None
            replace(staged, target)
            return
    except OSError as error:
        raise InputError(f"cannot write: {error.strerror or error}", where=str(target)) from None
    remove(staged)


def keep_backup(target: Path, backup: Path) -> None:
    """Keep ``target``'s content under ``backup`` (a hard link, else a copy) while it is replaced."""
    try:
        try:
            os.link(target, backup)
        except OSError:
            shutil.copy2(target, backup)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(backup)
        raise InputError(f"cannot keep the old file while writing the new one: {error.strerror or error}", where=str(target)) from None


def put_over(source: Path, target: Path) -> None:
    """Rename ``source`` over ``target``: a staged file over the old game, or a backup back in place."""
    try:
        replace(source, target)
    except OSError as error:
        raise InputError(f"cannot write: {error.strerror or error}", where=str(target)) from None

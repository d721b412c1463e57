"""The room file beside a draft (``NAME.room.toml``): the links' secrets, the players' names, and what the draft
file cannot hold (the waiting bid and undo, who has answered the house rules), always private to its owner."""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path
from typing import Any

from kremlin_triplea.errors import InputError
from kremlin_triplea.gamefile.safe import check_output, write_atomically
from kremlin_triplea.rules.tomlfile import read_toml

SPECTATOR = "spectator"


def room_file(draft_path: Path) -> Path:
    return draft_path.with_name(draft_path.stem + ".room.toml")


ROOM_HEADER = "# The draft room's links (kremlin-triplea serve): keep private; delete to make new links.\n"


def write_private(path: Path, data: bytes) -> None:
    """Write ``data`` atomically to a file only its owner may read, at every moment (the room file holds the links' secrets).

    The atomic writer gives the new file the mode of the file it replaces, so the file is made 0600 (empty)
    before the first write and set to 0600 before any later one: no copy of the secrets is ever readable by others.
    """
    target = check_output(path, overwrite=True)
    created = False
    if target.exists():
        target.chmod(0o600)
    else:
        try:
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except OSError as error:
            raise InputError(f"cannot write: {error.strerror or error}", where=str(path)) from None
        created = True
    try:
        write_atomically(path, data, overwrite=True)
    except BaseException:
        if created:
            target.unlink(missing_ok=True)  # not an empty room file that a restart would take for one without links
        raise


def read_or_make_keys(draft_path: Path, sides: tuple[str, ...], players: dict[str, str] | None = None) -> tuple[dict[str, str], dict[str, str]]:
    """Role -> secret (each side, and the spectators), and side -> player's name, kept beside the draft so a restart keeps them."""
    import tomli_w

    path = room_file(draft_path)
    keys: dict[str, str] = {}
    names: dict[str, str] = {}
    if path.exists():
        data = read_toml(path)
        stored = data.get("keys", {})
        if not isinstance(stored, dict) or not all(isinstance(v, str) and len(v) >= 20 for v in stored.values()):
            raise InputError(f"{path}: [keys] must map each side and 'spectator' to a secret of at least 20 characters")
        keys = dict(stored)
        names = data.get("players", {})
        if not isinstance(names, dict) or not all(side in sides and isinstance(v, str) for side, v in names.items()):
            raise InputError(f"{path}: [players] must map sides ({', '.join(sides)}) to the players' names")
    missing = [role for role in (*sides, SPECTATOR) if role not in keys]
    new_names = {side: name for side, name in (players or {}).items() if names.get(side) != name}
    if missing or new_names:
        for role in missing:
            keys[role] = secrets.token_urlsafe(24)
        names = {**names, **new_names}
        write_private(path, (ROOM_HEADER + tomli_w.dumps({"keys": keys, "players": names})).encode("utf-8"))
    return keys, dict(names)


def save_room_state(draft_path: Path, **state: Any) -> None:
    """Write ``state`` into the room file beside the draft (keys and players kept), atomically."""
    import tomli_w

    path = room_file(draft_path)
    data = {key: value for key, value in {**read_toml(path), **state}.items() if value is not None}  # None: the key goes
    write_private(path, (ROOM_HEADER + tomli_w.dumps(data)).encode("utf-8"))


def keep_private(path: Path) -> bool:
    """Set ``path`` back to 0600 if it has become readable or writable by others (a copy, a chmod, a restore from a
    backup): the room looks while it serves, not only when it next writes. True: it had to."""
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
        if mode & 0o077:
            os.chmod(path, 0o600)
            return True
    except OSError:
        pass  # gone, or not ours to change: the next write makes it 0600 or says why it cannot
    return False

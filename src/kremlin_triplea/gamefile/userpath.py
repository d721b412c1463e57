"""A path a user gives (an option, an environment variable, a game's path), its ``~`` made the home folder."""

from __future__ import annotations

from pathlib import Path

from kremlin_triplea.errors import InputError


def expanded(path: Path | str, where: str) -> Path:
    """``path`` with a leading ``~`` or ``~user`` made the home folder; one line naming ``where`` (the option or
    variable that gave it) when there is no such home folder (``~unknownuser/maps``, or no $HOME and no user entry)."""
    try:
        return Path(path).expanduser()
    except RuntimeError:  # pathlib's "Could not determine home directory."
        user = str(path).replace("\\", "/").split("/", 1)[0]
        raise InputError(
            f"{str(path)!r} starts with {user}, but there is no home folder for {'user ' + user[1:] if user[1:] else 'this user'}", where=where
        ) from None

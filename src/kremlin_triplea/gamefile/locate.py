"""Find game files the way TripleA does on a player's machine.

TripleA keeps downloaded maps in ``<user folder>/downloadedMaps/<map>/``, the
user folder being ``~/Documents/triplea`` if it exists, else ``~/triplea``.
Each map folder has a ``map.yml`` listing its games (``game_name`` and
``file_name``) and the files in ``map/games/``. Maps unpacked by older
installs may sit one folder deeper (``<map>/<map>-master/map.yml``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import attrs

from kremlin_triplea.errors import InputError, UnknownNameError, and_more
from kremlin_triplea.gamefile.safe import read_text

MAPS_DIR_VARIABLE = "KREMLIN_TRIPLEA_MAPS"


@attrs.frozen
class GameEntry:
    map_name: str
    game_name: str
    path: Path

    @property
    def key(self) -> str:
        """How a user names it: ``<map>/<file name>``."""
        return f"{self.map_name}/{self.path.name}"


@attrs.frozen
class MapFolder:
    name: str
    folder: Path  # the folder holding map.yml
    games: tuple[GameEntry, ...]

    @property
    def games_folder(self) -> Path:
        return _games_folder(self.folder)


def user_folder(home: Path | None = None) -> Path:
    home = home or Path.home()
    documents = home / "Documents" / "triplea"
    return documents if documents.is_dir() else home / "triplea"


def default_maps_dir(explicit: Path | str | None = None) -> Path:
    """``explicit`` (``--maps-dir``), else ``$KREMLIN_TRIPLEA_MAPS``, else TripleA's own."""
    if explicit:
        return Path(explicit).expanduser()
    from_environment = os.environ.get(MAPS_DIR_VARIABLE)
    if from_environment:
        return Path(from_environment).expanduser()
    return user_folder() / "downloadedMaps"


def _games_folder(map_folder: Path) -> Path:
    for candidate in (map_folder / "map" / "games", map_folder / "games"):
        if candidate.is_dir():
            return candidate
    return map_folder / "map" / "games"


def _map_yml_folders(maps_dir: Path) -> Iterator[Path]:
    for child in sorted(maps_dir.iterdir()):
        if not child.is_dir():
            continue
        if (child / "map.yml").is_file():
            yield child
            continue
        for nested in sorted(child.iterdir()):
            if nested.is_dir() and (nested / "map.yml").is_file():
                yield nested


def read_map_folder(folder: Path) -> MapFolder:
    import yaml  # only needed when a map is looked up by name: keeps start-up fast

    map_yml = folder / "map.yml"
    try:
        content = yaml.safe_load(read_text(map_yml, what="map.yml")) or {}
    except yaml.YAMLError as error:
        # One line, at the place YAML stopped (its own message spans several, with a drawing of the line).
        mark = getattr(error, "problem_mark", None)
        what = " ".join(str(getattr(error, "problem", None) or error).split())
        raise InputError(f"not valid YAML: {what}", where=f"{map_yml}:{mark.line + 1}" if mark is not None else str(map_yml)) from None
    if not isinstance(content, dict):
        raise InputError("map.yml is not a mapping", where=str(map_yml))
    name = str(content.get("map_name") or folder.name)
    games_folder = _games_folder(folder)
    listed = content.get("games") or []
    if not isinstance(listed, list):
        raise InputError(f"'games' is {listed!r}, not a list of games; fix it by hand", where=str(map_yml))
    games = []
    for entry in listed:
        if isinstance(entry, dict) and entry.get("file_name"):
            games.append(GameEntry(name, str(entry.get("game_name", "")), games_folder / str(entry["file_name"])))
    return MapFolder(name, folder, tuple(games))


def installed_maps(maps_dir: Path) -> list[MapFolder]:
    """The maps of ``maps_dir`` that can be read; one with a broken map.yml is left out (see :func:`scan_maps`)."""
    return scan_maps(maps_dir)[0]


def scan_maps(maps_dir: Path) -> tuple[list[MapFolder], list[InputError]]:
    """Every map of ``maps_dir``, and why each one that cannot be read cannot: one broken map.yml among a
    player's hundred maps must not hide the others."""
    if not maps_dir.is_dir():
        raise InputError(
            f"no TripleA maps folder here; name one with --maps-dir or ${MAPS_DIR_VARIABLE}",
            where=str(maps_dir),
        )
    maps, broken = [], []
    for folder in _map_yml_folders(maps_dir):
        try:
            maps.append(read_map_folder(folder))
        except InputError as error:
            broken.append(error)
    return maps, broken


def _folder_given(folder: Path) -> str:
    """What to say when a folder is named where a game file belongs: its games, if it is a map's or a games folder."""
    games_folder = folder if folder.name == "games" else _games_folder(folder)
    games = sorted(p.name for p in games_folder.glob("*.xml")) if games_folder.is_dir() else []
    if not games:
        return "a folder, not a game file; name a game file or MAP/GAME"
    return f"a folder, not a game file; name one of its games: {games_folder / games[0]}{and_more(games)}"


def resolve_game(spec: str | Path, maps_dir: Path | str | None = None) -> Path:
    """A game file from a path, or from ``<map>/<file or game name>`` in the maps folder."""
    path = Path(spec).expanduser()
    if path.is_file() or (os.path.lexists(path) and not path.is_dir()):
        return path  # a FIFO, device or broken link is refused by the reader, naming what it is
    text = str(spec)
    if path.is_dir():
        raise InputError(_folder_given(path), where=text)
    if path.suffix.lower() == ".xml" and ("/" not in text or text.startswith((".", "/", "~"))):
        raise InputError("no such file", where=text)
    map_name, _, game = text.partition("/")
    folder_path = default_maps_dir(maps_dir) / map_name
    if game and "/" not in game and folder_path.is_dir() and (folder_path / "map.yml").is_file():
        named = _games_folder(folder_path) / game
        if named.suffix.lower() == ".xml" and named.is_file():
            return named  # MAP/FILE.xml as the folders name it: no need to read every map.yml
    found, broken = scan_maps(default_maps_dir(maps_dir))
    maps = {m.name: m for m in found}
    if map_name not in maps:
        for error in broken:  # the map asked for may be one whose map.yml cannot be read: say that, not "unknown"
            if Path(error.where or "").parent.name == map_name:
                raise error
        raise UnknownNameError("map", map_name, maps, where=text)
    folder = maps[map_name]
    if not game:
        names = ", ".join(g.path.name for g in folder.games)
        raise InputError(f"name a game of map {map_name!r}: {names}", where=text)
    for entry in folder.games:
        if game.lower() in (entry.path.name.lower(), entry.path.stem.lower(), entry.game_name.lower()):
            if not entry.path.is_file():
                raise InputError(f"map.yml lists {entry.path.name} but the file is missing", where=str(entry.path))
            return entry.path
    known = [g.path.name for g in folder.games] + [g.game_name for g in folder.games]
    raise UnknownNameError("game", game, known, where=text, within=f"map {map_name!r}")

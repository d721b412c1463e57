"""Find game files the way TripleA does on a player's machine.

TripleA keeps downloaded maps in ``<user folder>/downloadedMaps/<map>/``, the
user folder being ``~/Documents/triplea`` if it exists, else ``~/triplea``.
Each map folder has a ``map.yml`` listing its games (``game_name`` and
``file_name``) and the files in ``map/games/``. Maps unpacked by older
installs may sit one folder deeper (``<map>/<map>-master/map.yml``).
"""

from __future__ import annotations

import difflib
import functools
import os
import re
from collections.abc import Iterator
from pathlib import Path

import attrs

from kremlin_triplea.errors import InputError, UnknownNameError, and_more
from kremlin_triplea.gamefile.safe import read_text
from kremlin_triplea.gamefile.userpath import expanded

MAPS_DIR_VARIABLE = "KREMLIN_TRIPLEA_MAPS"
_WINDOWS_ABSOLUTE = re.compile(r"^[A-Za-z]:[\\/]")


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
    """``explicit`` (``--maps-dir``), else ``$KREMLIN_TRIPLEA_MAPS``, else TripleA's own: the maps folder chosen in
    TripleA 2.x's settings, else ``downloadedMaps`` in its user folder (as ClientFileSystemHelper.getUserMapsFolder)."""
    from_environment = os.environ.get(MAPS_DIR_VARIABLE)
    if explicit:
        came_from = f"${MAPS_DIR_VARIABLE}" if from_environment and str(explicit) == from_environment else "--maps-dir"
        return expanded(explicit, came_from)
    if from_environment:
        return expanded(from_environment, f"${MAPS_DIR_VARIABLE}")
    from kremlin_triplea.gamefile.installation import maps_folder_override  # reads Java's preferences: only when needed

    return maps_folder_override() or user_folder() / "downloadedMaps"


def _games_folder(map_folder: Path) -> Path:
    """The folder named ``games`` closest to ``map_folder``, at most 5 folders down, as TripleA 2.7 looks for it
    (MapDescriptionYaml.findGamesFolder: FileUtils.findClosestToRoot(mapFolder, 5, "games"), the shortest path
    first): ``map/games`` in a map as published, ``games`` in some. ``map/games`` when there is none."""
    level = [map_folder]
    for _ in range(5):
        below = sorted((d for folder in level for d in _subfolders(folder)), key=lambda d: (len(str(d)), str(d)))
        found = [d for d in below if d.name == "games"]
        if found:
            return found[0]
        level = below
    return map_folder / "map" / "games"


def _subfolders(folder: Path) -> list[Path]:
    try:
        return [Path(entry.path) for entry in os.scandir(folder) if entry.is_dir()]
    except OSError:  # unreadable: TripleA finds nothing there either
        return []


def _game_file(games_folder: Path, file_name: str) -> Path:
    """``file_name`` in ``games_folder`` or in its folders at most 3 down, the shortest path first, as TripleA 2.7
    finds a listed game (MapDescriptionYaml.searchForGameFile); where it is missing, the path it was expected at."""
    direct = games_folder / file_name
    if direct.is_file() or not games_folder.is_dir():
        return direct
    level = [games_folder]
    for _ in range(3):
        level = sorted((d for folder in level for d in _subfolders(folder)), key=lambda d: (len(str(d)), str(d)))
        for folder in level:
            if (folder / file_name).is_file():
                return folder / file_name
    return direct


def _map_yml_folders(maps_dir: Path) -> Iterator[Path]:
    for child in sorted(maps_dir.iterdir()):
        if child.is_dir():
            yield from _map_yml_folders_of(child)


def _map_yml_folders_of(child: Path) -> Iterator[Path]:
    """The folder of ``child``'s map.yml: ``child`` itself or, in older installs, one folder down."""
    if (child / "map.yml").is_file():
        yield child
        return
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
            games.append(GameEntry(name, str(entry.get("game_name", "")), _game_file(games_folder, str(entry["file_name"]))))
    return MapFolder(name, folder, tuple(games))


def map_folder_without_yml(folder: Path) -> MapFolder | None:
    """A map folder with no map.yml, read as TripleA 2.7 reads it: the map.yml it writes for such a folder
    (MapDescriptionYamlGenerator) names the map after the folder and lists each XML file whose ``<info name>``
    is not blank, a game TripleA then finds in the folder's games folder (:func:`_games_folder`). None if it
    has no game there: TripleA lists no such map."""
    if not folder.is_dir() or any(True for _ in _map_yml_folders_of(folder)):
        return None
    games_folder = _games_folder(folder)
    if not games_folder.is_dir():
        return None
    games = []
    for path in sorted(_xml_files(games_folder, depth=3), key=lambda p: (len(p.parts), str(p))):  # the closest first
        game_name = _info_name(path)
        if game_name and all(g.path.name != path.name for g in games):  # TripleA finds one file of a name
            games.append(GameEntry(folder.name, game_name, path))
    return MapFolder(folder.name, folder, tuple(games)) if games else None


def maps_without_yml(maps_dir: Path) -> list[MapFolder]:
    """The maps of ``maps_dir`` that have no map.yml but games TripleA 2.7 finds (:func:`map_folder_without_yml`)."""
    if not maps_dir.is_dir():
        return []
    found = (map_folder_without_yml(child) for child in sorted(maps_dir.iterdir()) if child.is_dir())
    return [folder for folder in found if folder is not None]


def _xml_files(folder: Path, depth: int) -> Iterator[Path]:
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:  # unreadable: TripleA finds nothing there either
        return
    for entry in entries:
        if entry.is_dir() and depth > 0:
            yield from _xml_files(Path(entry.path), depth - 1)
        elif entry.name.endswith(".xml") and entry.is_file():
            yield Path(entry.path)


def _info_name(path: Path) -> str | None:
    """The game's name, ``<info name="...">`` of the root element, as TripleA's XML mapper reads it when it writes a map's
    map.yml (MapDescriptionYamlGenerator.readGameNameFromXml): decoded in the file's own declared encoding, its
    character references and entities resolved, its white space normalised as XML attributes are, not trimmed. None
    if the file is not such a game or the name is blank (TripleA lists no such game)."""
    from xml.parsers import expat

    found: list[str] = []
    depth = [0]

    class Found(Exception):
        pass

    def start(tag: str, attributes: dict[str, str]) -> None:
        depth[0] += 1
        if depth[0] == 2 and tag == "info":
            found.append(attributes.get("name", ""))
            raise Found

    def end(tag: str) -> None:
        depth[0] -= 1

    parser = expat.ParserCreate()
    parser.StartElementHandler, parser.EndElementHandler = start, end
    try:
        with open(path, "rb") as stream:
            while chunk := stream.read(64 * 1024):  # the info element comes first: one chunk, as a rule
                parser.Parse(chunk, False)
            parser.Parse(b"", True)
    except Found:
        pass
    except (OSError, expat.ExpatError, LookupError, ValueError):
        return None
    return found[0] if found and found[0].strip() else None


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


def native_path(text: str, beside: Path | str | None = None) -> str:
    """``text`` with its backslashes read as folder separators, as on Windows (``drafts\\ann.toml``), when the text as
    given names nothing here and the separated one names a file or a place in an existing folder; else ``text``.
    A relative ``text`` is looked for in ``beside`` if given (a draft's own folder), else in the working folder.

    On Windows the system reads backslashes itself; elsewhere a backslash may also be part of a file's name, which
    is why the text as given is tried first.
    """
    if "\\" not in text or os.name == "nt":
        return text
    base = Path(beside) if beside is not None else Path()
    if os.path.lexists(base / text):
        return text
    separated = text.replace("\\", "/")
    folder = os.path.dirname(separated.rstrip("/"))
    if os.path.lexists(base / separated) or (folder and (base / folder).is_dir()):
        return separated
    return text


class MapNotInstalled(UnknownNameError):
    """A map the maps folder does not have: a typing slip of an installed map's name, or a map to download."""

    def __init__(self, name: str, installed: list[str], maps_dir: Path, where: str) -> None:
        super().__init__("map", name, installed, where=where)
        self.maps_dir = maps_dir

    @functools.cached_property
    def message(self) -> str:
        # Only a near-spelling is a slip ("wold_war_ii_v3"); world_war_ii_revised is not world_war_ii_v3 misspelt.
        slips = [c for c in self.close if difflib.SequenceMatcher(None, c.casefold(), self.name.casefold()).ratio() >= 0.9]
        if slips:
            return f"unknown map {self.name!r}; did you mean {' or '.join(repr(c) for c in slips)}?"
        installed = ", ".join(sorted(set(self._known))) or "none"
        return f"unknown map {self.name!r}: not installed in {self.maps_dir}; download it in TripleA (Download Maps) (installed: {installed})"


def _game_by_file_name(name: str, maps_dir: Path, given: str) -> Path:
    """A game named by its file name alone (``WW2v3-1941.xml``), found in the maps folder when no such file is here."""
    found = [entry for folder in installed_maps(maps_dir) for entry in folder.games if entry.path.name.casefold() == name.casefold() and entry.path.is_file()]
    if len(found) == 1:
        return found[0].path
    if found:
        raise InputError(f"no such file here, and several maps have a game {name}: name one as MAP/GAME: {', '.join(e.key for e in found)}", where=given)
    raise InputError(f"no such file here, nor a game of that file name in the maps folder {maps_dir}", where=given)


def resolve_game(spec: str | Path, maps_dir: Path | str | None = None) -> Path:
    """A game file from a path, or from ``<map>/<file or game name>`` in the maps folder."""
    path = expanded(spec, str(spec))
    if path.is_file() or (os.path.lexists(path) and not path.is_dir()):
        return path  # a FIFO, device or broken link is refused by the reader, naming what it is
    given = str(spec)
    # A path or MAP\GAME as Windows writes it: backslashes separate folders there (TripleA's own docs and forums
    # name games so). A drive letter or a \\server share is a Windows path, which names nothing elsewhere.
    text = given.replace("\\", "/")
    if text != given:
        path = expanded(text, given)
        if os.name != "nt" and (_WINDOWS_ABSOLUTE.match(given) or given.startswith("\\\\")):
            raise InputError("no such file (a Windows path: name the file as this system does)", where=given)
        if path.is_file() or (os.path.lexists(path) and not path.is_dir()):
            return path
    elif os.name != "nt" and _WINDOWS_ABSOLUTE.match(given):
        raise InputError("no such file (a Windows path: name the file as this system does)", where=given)
    if path.is_dir():
        raise InputError(_folder_given(path), where=given)
    if path.suffix.lower() == ".xml" and text.startswith((".", "/", "~")):
        raise InputError("no such file", where=given)
    if path.suffix.lower() == ".xml" and "/" not in text:
        return _game_by_file_name(text, default_maps_dir(maps_dir), given)
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
        without_yml = {m.name: m for m in maps_without_yml(default_maps_dir(maps_dir))}
        if map_name not in without_yml:
            raise MapNotInstalled(map_name, [*maps, *without_yml], default_maps_dir(maps_dir), given)
        maps[map_name] = without_yml[map_name]
    folder = maps[map_name]
    if not game:
        names = ", ".join(g.path.name for g in folder.games)
        raise InputError(f"name a game of map {map_name!r}: {names}", where=given)
    for entry in folder.games:
        if game.lower() in (entry.path.name.lower(), entry.path.stem.lower(), entry.game_name.lower()):
            if not entry.path.is_file():
                raise InputError(f"map.yml lists {entry.path.name} but the file is missing", where=str(entry.path))
            return entry.path
    known = [g.path.name for g in folder.games] + [g.game_name for g in folder.games]
    raise UnknownNameError("game", game, known, where=given, within=f"map {map_name!r}")

"""Install a generated game into a map of a TripleA user folder, list and uninstall such games.

TripleA 2.x lists a map's games from its ``map.yml``; 1.9 scans the map's
``games`` folder. Installing therefore writes the game file (and its
``.notes.html``) into the games folder and adds one entry to ``map.yml``
(:mod:`~kremlin_triplea.gamefile.mapyml`: every other byte stays). The
games this program installed are recorded beside ``map.yml`` in
``kremlin-triplea-installed.json``, so ``installed`` can list them and
``uninstall`` can take exactly its own entry out again; a game the map
shipped with is never replaced or removed.

Installs into one map are serialised by an exclusive lock on a file beside
``map.yml``; ``map.yml`` is read again under the lock, so two installs at
once neither lose an entry nor take the same name. Files are written before
the ``map.yml`` entry that lists them, so an interrupted install never lists
a game whose file is missing.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import attrs

from kremlin_triplea.errors import InputError, UnknownNameError
from kremlin_triplea.gamefile.locate import MapFolder, installed_maps, read_map_folder
from kremlin_triplea.gamefile.safe import check_output, read_text, write_atomically

RECORD_NAME = "kremlin-triplea-installed.json"
LOCK_NAME = ".map.yml.kremlin-triplea.lock"


@attrs.frozen
class InstalledGame:
    game_name: str
    game_file: Path
    notes_file: Path | None
    map_yml: Path
    map_name: str = ""
    date: str = ""
    replaced: bool = False


def default_game_name(title: str, players: tuple[str, ...] | list[str], day: datetime.date | None = None) -> str:
    """The name a game is installed under unless ``--name`` says otherwise: "<ruleset> — <player> v <player> <date>" (issue 14)."""
    day = day or datetime.date.today()
    who = " v ".join(p for p in players if p)
    return f"{title} — {who} {day.isoformat()}" if who else f"{title} {day.isoformat()}"


def unique_game_name(folder: MapFolder, wanted: str) -> str:
    """``wanted``, or ``wanted (2)``, ``(3)``... if the map already lists that name."""
    taken = {g.game_name.lower() for g in folder.games}
    name, number = wanted, 2
    while name.lower() in taken:
        name = f"{wanted} ({number})"
        number += 1
    return name


def unique_file_name(folder: MapFolder, stem: str) -> str:
    games = folder.games_folder
    listed = {g.path.name.lower() for g in folder.games}
    candidate, number = f"{stem}.xml", 2
    while candidate.lower() in listed or os.path.lexists(games / candidate) or os.path.lexists(games / f"{Path(candidate).stem}.notes.html"):
        candidate = f"{stem}-{number}.xml"
        number += 1
    return candidate


def file_stem_for(game_name: str) -> str:
    """A portable file name for the game: accents dropped ("Ünïcode" -> "Unicode"), anything else not [A-Za-z0-9._-] -> "_"."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", game_name) if not unicodedata.combining(c))
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", plain).strip("._-")
    return stem[:120] or "kremlin_game"


def check_game_name(game_name: str) -> None:
    """A name TripleA lists in its game chooser: one line of visible text (map.yml and the chooser show it as written)."""
    if not game_name.strip():
        raise InputError("a game's name cannot be empty or blank", where="--name")
    if any(unicodedata.category(c).startswith("C") for c in game_name):
        raise InputError(f"a game's name is one line of visible text, without control characters: {game_name!r}", where="--name")


@contextlib.contextmanager
def map_lock(folder: Path) -> Iterator[None]:
    """Hold the map's install lock (a file beside map.yml) for the duration."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no advisory locks; installs there are one at a time
        yield
        return
    path = folder / LOCK_NAME
    try:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except OSError as error:
        raise InputError(f"cannot lock the map for installing: {error.strerror}", where=str(path)) from None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # closing releases the lock


# -- the record of what this program installed ---------------------------------


def _record_path(folder: Path) -> Path:
    return folder / RECORD_NAME


def read_record(folder: Path) -> list[dict]:
    path = _record_path(folder)
    if not os.path.lexists(path):
        return []
    text = read_text(path, what="record of installed games")
    try:
        data = json.loads(text)
        games = data["games"]
        if not isinstance(games, list) or not all(
            isinstance(g, dict) and isinstance(g.get("game_name"), str) and isinstance(g.get("file_name"), str) for g in games
        ):
            raise ValueError("each game needs game_name and file_name")
    except (ValueError, KeyError, TypeError) as error:
        raise InputError(f"is not a record of installed games ({error}); remove it to forget them", where=str(path)) from None
    return games


def _write_record(folder: Path, games: list[dict]) -> None:
    path = _record_path(folder)
    if not games:
        if os.path.lexists(path):
            os.unlink(path)
        return
    data = json.dumps({"written_by": "kremlin-triplea", "games": games}, indent=2, ensure_ascii=False) + "\n"
    write_atomically(path, data.encode("utf-8"), overwrite=True)


# -- install ---------------------------------------------------------------------


def _map_yml_text(map_yml: Path) -> str:
    return read_text(map_yml, what="map.yml")


def check_install(folder: MapFolder, game_name: str, *, force: bool = False) -> None:
    """Refuse now what :func:`install_game` would refuse, before anything is written."""
    from kremlin_triplea.gamefile import mapyml  # editing map.yml needs yaml (17 ms to import): only when installing

    check_game_name(game_name)

    map_yml = folder.folder / "map.yml"
    text = _map_yml_text(map_yml)
    listed = {g.game_name.lower(): g for g in read_map_folder(folder.folder).games}
    ours = {g["game_name"].lower() for g in read_record(folder.folder)}
    if game_name.lower() in listed:
        _check_replace(folder, game_name, force=force, ours=ours)
    else:
        mapyml.add_game(text, game_name, file_stem_for(game_name) + ".xml", where=str(map_yml))
        check_output(map_yml, overwrite=True)  # also probes map.yml's folder
        existing = folder.games_folder
        while not existing.exists():
            existing = existing.parent
        check_output(existing / file_stem_for(game_name), overwrite=True)  # probes the games folder (or the one it will be made in)


def _check_replace(folder: MapFolder, game_name: str, *, force: bool, ours: set[str]) -> None:
    where = str(folder.folder / "map.yml")
    if game_name.lower() not in ours:
        raise InputError(
            f"map {folder.name!r} already has a game named {game_name!r} that kremlin-triplea did not install; it is never replaced: choose another --name",
            where=where,
        )
    if not force:
        raise InputError(f"map {folder.name!r} already has a game named {game_name!r}; use --force to replace it, or choose another --name", where=where)


def install_game(
    folder: MapFolder,
    game_name: str,
    xml: bytes,
    notes_html: str | None = None,
    *,
    force: bool = False,
    day: datetime.date | None = None,
    protect: tuple[Path, ...] = (),
) -> InstalledGame:
    """Write the game into ``folder`` and list it in ``map.yml`` under ``game_name``.

    ``game_name`` should match the ``<info name>`` in ``xml``. A name the map
    already lists is refused, unless this program installed that game and
    ``force`` is given: then its file and notes are replaced and ``map.yml``
    keeps its entry as it is.
    """
    from kremlin_triplea.gamefile import mapyml  # editing map.yml needs yaml (17 ms to import): only when installing

    check_game_name(game_name)
    day = day or datetime.date.today()
    map_yml = folder.folder / "map.yml"
    with map_lock(folder.folder):
        fresh = read_map_folder(folder.folder)  # read under the lock: another install may just have added a game
        record = read_record(folder.folder)
        existing = next((g for g in fresh.games if g.game_name.lower() == game_name.lower()), None)
        if existing is not None:
            _check_replace(fresh, game_name, force=force, ours={g["game_name"].lower() for g in record})
            return _replace_installed(fresh, existing.game_name, existing.path, xml, notes_html, record, day, protect)
        games = fresh.games_folder
        games.mkdir(parents=True, exist_ok=True)
        file_name = unique_file_name(fresh, file_stem_for(game_name))
        insertion = mapyml.add_game(_map_yml_text(map_yml), game_name, file_name, where=str(map_yml))
        game_file = games / file_name
        notes_file = game_file.with_suffix(".notes.html") if notes_html is not None else None
        entry = {
            "game_name": game_name,
            "file_name": file_name,
            "notes_file": notes_file.name if notes_file is not None else None,
            "date": day.isoformat(),
            "created_games_key": insertion.created_key,
            "added_line_break": insertion.added_newline,
        }
        # The files and the record come before the map.yml entry that lists the game: an interrupted
        # install never lists a missing game, and what it wrote is known to `installed` and `uninstall`.
        # A record entry of the same name not in map.yml is a leftover of such an interruption.
        stale = [g for g in record if g["game_name"].lower() != game_name.lower()]
        written: list[Path] = []
        try:
            written.append(write_atomically(game_file, xml))
            if notes_file is not None:
                written.append(write_atomically(notes_file, notes_html.encode("utf-8")))
            _write_record(fresh.folder, [*stale, entry])
            write_atomically(map_yml, insertion.text.encode("utf-8"), overwrite=True)
        except BaseException:
            for path in written:
                with contextlib.suppress(OSError):
                    os.unlink(path)
            with contextlib.suppress(OSError, InputError):
                _write_record(fresh.folder, record)
            raise
    return InstalledGame(game_name, game_file, notes_file, map_yml, fresh.name, day.isoformat())


def _replace_installed(
    folder: MapFolder, game_name: str, game_file: Path, xml: bytes, notes_html: str | None, record: list[dict], day: datetime.date, protect: tuple[Path, ...]
) -> InstalledGame:
    entry = next(g for g in record if g["game_name"].lower() == game_name.lower())
    write_atomically(game_file, xml, overwrite=True, protect=protect)
    notes_file = None
    if notes_html is not None:
        notes_file = game_file.with_suffix(".notes.html")
        write_atomically(notes_file, notes_html.encode("utf-8"), overwrite=True, protect=protect)
        entry["notes_file"] = notes_file.name
    entry["date"] = day.isoformat()
    _write_record(folder.folder, record)
    return InstalledGame(game_name, game_file, notes_file, folder.folder / "map.yml", folder.name, day.isoformat(), replaced=True)


def map_folder_for(source: Path | str, map_name: str | None, maps_dir: Path) -> MapFolder:
    """The map a game installs into: the one whose folder holds its base game (``source``), else the one ``map_name`` names."""
    maps = installed_maps(Path(maps_dir))
    resolved = Path(source).resolve()
    folder = next((m for m in maps if resolved.is_relative_to(m.folder.resolve())), None)
    if folder is None:
        folder = next((m for m in maps if m.name == map_name), None)
    if folder is None:
        raise InputError(f"no map folder for {source} in {maps_dir} (map {map_name!r}); install the map in TripleA first", where=str(maps_dir))
    return folder


# -- installed, uninstall ------------------------------------------------------


def installed_games(maps_dir: Path) -> list[InstalledGame]:
    """The games this program installed in the maps folder, map by map, in the order they were installed."""
    found = []
    for folder in installed_maps(Path(maps_dir)):
        for entry in read_record(folder.folder):
            notes = entry.get("notes_file")
            found.append(
                InstalledGame(
                    entry["game_name"],
                    folder.games_folder / entry["file_name"],
                    folder.games_folder / notes if notes else None,
                    folder.folder / "map.yml",
                    folder.name,
                    str(entry.get("date", "")),
                )
            )
    return found


def uninstall_game(maps_dir: Path, name: str) -> InstalledGame:
    """Remove a game this program installed: its file, its notes and its map.yml entry (every other byte of map.yml stays).

    ``name`` is the game's name, or ``MAP/NAME`` when several maps have one of that name.
    """
    from kremlin_triplea.gamefile import mapyml  # editing map.yml needs yaml (17 ms to import): only when installing

    games = installed_games(maps_dir)
    # MAP/NAME, or MAP\NAME as on Windows; a name that holds the separator itself is still found whole below.
    separator = "/" if "/" in name else "\\" if "\\" in name else None
    wanted_map, _, wanted_name = name.rpartition(separator) if separator else ("", "", name)
    matches = [g for g in games if g.game_name.lower() == wanted_name.lower() and (not wanted_map or g.map_name == wanted_map)]
    if not matches and wanted_map:
        matches = [g for g in games if g.game_name.lower() == name.lower()]
    if not matches:
        raise UnknownNameError("installed game", name, [g.game_name for g in games], where=str(maps_dir))
    if len(matches) > 1:
        maps = ", ".join(f"{g.map_name}/{g.game_name}" for g in matches)
        raise InputError(f"{len(matches)} maps have an installed game named {name!r}: say which, as MAP/NAME ({maps})", where=str(maps_dir))
    game = matches[0]
    folder = game.map_yml.parent
    with map_lock(folder):
        record = read_record(folder)
        entry = next((g for g in record if g["game_name"] == game.game_name), None)
        if entry is None:
            raise InputError(f"{game.game_name!r} was uninstalled meanwhile", where=str(game.map_yml))
        text = _map_yml_text(game.map_yml)
        listed = {g.game_name for g in read_map_folder(folder).games}
        if game.game_name in listed:
            new = mapyml.remove_game(
                text,
                game.game_name,
                created_key=bool(entry.get("created_games_key")),
                added_newline=bool(entry.get("added_line_break")),
                where=str(game.map_yml),
            )
            write_atomically(game.map_yml, new.encode("utf-8"), overwrite=True)
        for path in (game.game_file, game.notes_file):
            if path is not None:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(path)
        _write_record(folder, [g for g in record if g is not entry])
    return game

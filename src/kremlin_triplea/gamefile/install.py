"""Install a generated game into a map of a TripleA user folder, list and uninstall such games.

TripleA 2.x lists a map's games from its ``map.yml``; 1.9 scans the map's
``games`` folder. Installing therefore writes the game file (and its
``.notes.html``) into the games folder and adds one entry to ``map.yml``
(:mod:`~kremlin_triplea.gamefile.mapyml`: every other byte stays). The
games this program installed are recorded beside ``map.yml`` in
``kremlin-triplea-installed.json``, so ``installed`` can list them and
``uninstall`` can take exactly its own entry out again; a game the map
shipped with is never replaced or removed.

That record travels with the map folder (a host zips it and shares it), so
nothing in it is trusted: every field is checked (file names are plain names
in the map's games folder), and a file is deleted or replaced only if it ends
with this program's mark and still has the content hash recorded when it was
written. A stock game never carries the mark, so a record naming one, or a
path outside the folder, cannot make ``uninstall`` or ``--force`` touch it.

Installs into one map are serialised by an exclusive lock on a file beside
``map.yml`` (:mod:`~kremlin_triplea.gamefile.maplock`); ``map.yml`` is read again under the lock, so two installs at
once neither lose an entry nor take the same name. Files are written before
the ``map.yml`` entry that lists them, so an interrupted install never lists
a game whose file is missing.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import json
import os
import re
import stat
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import attrs

from kremlin_triplea.errors import InputError, UnknownNameError
from kremlin_triplea.gamefile import gamenames
from kremlin_triplea.gamefile.gamenames import check_game_name, host_game_name
from kremlin_triplea.gamefile.journal import (
    journal_path,
    keep_backup,
    place_new,
    put_over,
    read_journal,
    remove_journal,
    sha256_of,
    side_name,
    write_journal,
    write_staged,
)
from kremlin_triplea.gamefile.locate import GameEntry, MapFolder, installed_maps, map_folder_without_yml, maps_without_yml, read_map_folder
from kremlin_triplea.gamefile.maplock import LOCK_NAME as LOCK_NAME  # the lock file's name, where the install's files are named
from kremlin_triplea.gamefile.maplock import map_lock
from kremlin_triplea.gamefile.safe import check_output, read_bytes, read_text, remove, remove_stale_temporaries, write_atomically

RECORD_NAME = "kremlin-triplea-installed.json"

#: Ends every game and notes file this program installs (a comment in XML and in HTML alike): a game the
#: map shipped with never has it, so no record, however it was written, makes us delete or replace one.
INSTALL_MARK = "<!-- installed by kremlin-triplea: `kremlin-triplea uninstall` removes it -->"
_NOTES_SUFFIX = ".notes.html"
_HASH = re.compile(r"[0-9a-f]{64}")


@attrs.frozen
class InstalledGame:
    game_name: str
    game_file: Path
    notes_file: Path | None
    map_yml: Path
    map_name: str = ""
    date: str = ""
    replaced: bool = False
    #: The name map.yml lists the game's file under now: the user may have renamed it ("" if it lists no such file).
    listed_as: str = ""
    #: What uninstall did with the map.yml entry, for the user.
    entry: str = ""
    #: The files uninstall removed (a file already gone is not one of them).
    removed: tuple[Path, ...] = ()


def default_game_name(title: str, players: tuple[str, ...] | list[str], day: datetime.date | None = None) -> str:
    """The name a game is installed under unless ``--name`` says otherwise: "<title> - <player> v <player> <date>" (issue 14).

    ASCII only (issue 42): a host types it to uninstall the game or to find it in TripleA's list."""
    day = day or datetime.date.today()
    who = " v ".join(p for p in players if p)
    return f"{title} - {who} {day.isoformat()}" if who else f"{title} {day.isoformat()}"


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


def games_elsewhere(folder: MapFolder, maps_dir: Path | str | None) -> list[tuple[str, str]]:
    """(map, game) for every game TripleA lists from the other maps of ``maps_dir``: its chooser shows all maps' games
    in one list, and a bot finds a game by its name in any map (InstalledMapsListing.findGameXmlPathByGameName)."""
    if maps_dir is None or not Path(maps_dir).is_dir():
        return []
    here = os.path.normcase(os.path.realpath(folder.folder))
    maps = [*installed_maps(Path(maps_dir)), *maps_without_yml(Path(maps_dir))]
    return [(m.name, g.game_name) for m in maps if os.path.normcase(os.path.realpath(m.folder)) != here for g in m.games]


# -- the record of what this program installed ---------------------------------


def _record_path(folder: Path) -> Path:
    return folder / RECORD_NAME


def read_record(folder: Path) -> list[dict]:
    """The record's entries, every field checked: a record that names anything but our own plain file names is refused whole."""
    path = _record_path(folder)
    if not os.path.lexists(path):
        return []
    if os.path.islink(path):
        raise InputError("is a symbolic link; the record of installed games is a file this program writes: remove the link", where=str(path))
    text = read_text(path, what="record of installed games")
    try:
        data = json.loads(text)
        games = data["games"]
        if not isinstance(games, list):
            raise ValueError("'games' is not a list")
        for number, entry in enumerate(games, 1):
            problem = _entry_problem(entry)
            if problem is not None:
                raise ValueError(f"game {number}: {problem}")
    except (ValueError, KeyError, TypeError) as error:
        raise InputError(f"is not a record of installed games ({error}); remove it to forget them", where=str(path)) from None
    return games


def _plain_file_name(value: object) -> bool:
    """A name of a file directly in the games folder: no folder part, no drive, not '.' or '..', on any system."""
    return (
        isinstance(value, str)
        and value not in ("", ".", "..")
        and not any(c in value for c in "/\\:\0")
        and not any(unicodedata.category(c).startswith("C") for c in value)
        and os.path.basename(value) == value
    )


def _entry_problem(entry: object) -> str | None:
    """Why a record entry is not one :func:`install_game` writes, or None."""
    if not isinstance(entry, dict):
        return "not a mapping"
    name = entry.get("game_name")
    if not isinstance(name, str) or not name.strip() or any(unicodedata.category(c).startswith("C") for c in name):
        return f"game_name {name!r} is not a game's name"
    file_name = entry.get("file_name")
    if not _plain_file_name(file_name) or not file_name.lower().endswith(".xml"):
        return f"file_name {file_name!r} is not the name of a game file in the map's games folder"
    notes = entry.get("notes_file")
    if notes is not None and notes != Path(file_name).stem + _NOTES_SUFFIX:
        return f"notes_file {notes!r} is not the notes of {file_name!r}"
    for key in ("sha256", "notes_sha256"):
        value = entry.get(key)
        if value is not None and not (isinstance(value, str) and _HASH.fullmatch(value)):
            return f"{key} {value!r} is not a SHA-256 hash"
    for key in ("created_games_key", "added_line_break"):
        if not isinstance(entry.get(key, False), bool):
            return f"{key} {entry.get(key)!r} is not true or false"
    if not isinstance(entry.get("date", ""), str):
        return f"date {entry.get('date')!r} is not a date"
    return None


def _marked(data: bytes) -> bytes:
    """``data`` ending with :data:`INSTALL_MARK` on a line of its own (the file's own line breaks)."""
    newline = b"\r\n" if b"\r\n" in data else b"\n"
    separator = b"" if not data or data.endswith(b"\n") else newline
    return data + separator + INSTALL_MARK.encode("ascii") + newline


def _has_mark(data: bytes) -> bool:
    return data.rstrip(b"\r\n").endswith(INSTALL_MARK.encode("ascii"))


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _not_ours(path: Path, recorded_hash: str | None) -> str | None:
    """Why ``path`` is not a file this program installed and left unchanged (None: it is ours, or gone)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        return f"cannot be checked ({error.strerror})"
    if not stat.S_ISREG(info.st_mode):
        return "is not a regular file"
    if recorded_hash is None:
        return "has no content hash in the record (installed by an earlier version, or not by this program: if it is yours, delete it and its map.yml entry by hand)"
    data = read_bytes(path, what="installed game")
    if not _has_mark(data):
        return "does not carry kremlin-triplea's install mark (a game the map shipped with, or another program's)"
    if _sha256(data) != recorded_hash:
        return "was changed since kremlin-triplea installed it"
    return None


def _check_ours(folder: Path, entry: dict, what: str) -> None:
    """Refuse (nothing is touched) unless the entry's game file and notes are the files this program wrote."""
    games = _games_folder_of(folder)
    files = [(games / entry["file_name"], entry.get("sha256"))]
    if entry.get("notes_file"):
        files.append((games / entry["notes_file"], entry.get("notes_sha256")))
    for path, recorded in files:
        problem = _not_ours(path, recorded)
        if problem is not None:
            raise InputError(
                f"{path.name} {problem}; kremlin-triplea {what} only files it wrote itself, so nothing was changed",
                where=str(path),
            )


def _games_folder_of(folder: Path) -> Path:
    return read_map_folder(folder).games_folder


def _write_record(folder: Path, games: list[dict]) -> None:
    path = _record_path(folder)
    if os.path.islink(path):  # written through, it would replace whatever it points to
        raise InputError("is a symbolic link; the record of installed games is a file this program writes: remove the link", where=str(path))
    if not games:
        remove(path)
        return
    data = json.dumps({"written_by": "kremlin-triplea", "games": games}, indent=2, ensure_ascii=False) + "\n"
    write_atomically(path, data.encode("utf-8"), overwrite=True)


# -- install ---------------------------------------------------------------------


def _map_yml_text(map_yml: Path, fresh: MapFolder | None = None) -> str:
    """map.yml as it is, or, for a map without one (``fresh``, as :func:`_read_folder` found it), the map.yml TripleA
    2.x writes for it when it first lists the map (MapDescriptionYamlGenerator: the folder's name and every game it
    finds): the install adds its game to that, so TripleA lists the stock games and ours, as it would have had it
    written the file first."""
    if fresh is not None and not os.path.lexists(map_yml):
        from kremlin_triplea.gamefile import mapyml

        lines = [f"map_name: {mapyml.yaml_scalar(fresh.name)}", "games:"]
        lines += [f"- {mapyml.game_entry(g.game_name, g.path.name)}" for g in fresh.games]
        return "\n".join(lines) + "\n"
    return read_text(map_yml, what="map.yml")


def _read_folder(folder: Path) -> MapFolder:
    """The map's games as TripleA lists them: from its map.yml, or as TripleA finds them in a map without one."""
    if not os.path.lexists(folder / "map.yml"):
        found = map_folder_without_yml(folder)
        if found is not None:
            return found
    return read_map_folder(folder)


def check_install(folder: MapFolder, game_name: str, *, force: bool = False, maps_dir: Path | str | None = None) -> str:
    """Refuse now what :func:`install_game` would refuse, before anything is written; the name to install under
    (:func:`host_game_name`: the game must take that name before it is installed)."""
    from kremlin_triplea.gamefile import mapyml  # editing map.yml needs yaml (17 ms to import): only when installing

    map_yml = folder.folder / "map.yml"
    if os.path.lexists(journal_path(folder.folder)):
        with map_lock(folder.folder):
            recover(folder.folder)  # what a run killed in this map left: else its record would refuse what it finishes
    fresh = _read_folder(folder.folder)
    game_name = host_game_name(game_name, (g.game_name for g in fresh.games), games_elsewhere(folder, maps_dir))
    text = _map_yml_text(map_yml, fresh)
    record = read_record(folder.folder)  # a record that cannot be trusted stops the install before any work
    existing = next((g for g in fresh.games if g.game_name.lower() == game_name.lower()), None)
    if existing is not None:
        _check_replace(fresh, game_name, existing, force=force, record=record)
    else:
        mapyml.add_game(text, game_name, file_stem_for(game_name) + ".xml", where=str(map_yml))
        check_output(map_yml, overwrite=True)  # also probes map.yml's folder
        existing_folder = folder.games_folder
        while not existing_folder.exists():
            existing_folder = existing_folder.parent
        check_output(existing_folder / file_stem_for(game_name), overwrite=True)  # probes the games folder (or the one it will be made in)
    return game_name


def _check_replace(folder: MapFolder, game_name: str, existing: GameEntry, *, force: bool, record: list[dict]) -> dict:
    """The record entry of the game ``existing`` (map.yml's entry named ``game_name``) if ``force`` may replace it; else refused.

    The entry is the one recording the file map.yml lists, whatever name it was installed under (the user may have renamed it).
    """
    where = str(folder.folder / "map.yml")
    entry = next((g for g in record if g["file_name"] == existing.path.name), None)
    if entry is None:
        raise InputError(
            f"map {folder.name!r} already has a game named {game_name!r} that kremlin-triplea did not install; it is never replaced: choose another --name",
            where=where,
        )
    if not force:
        raise InputError(f"map {folder.name!r} already has a game named {game_name!r}; use --force to replace it, or choose another --name", where=where)
    _check_ours(folder.folder, entry, "replaces")
    notes = existing.path.with_suffix(_NOTES_SUFFIX)
    if not entry.get("notes_file") and os.path.lexists(notes):
        raise InputError(f"{notes.name} is not a file kremlin-triplea wrote; it is never replaced: choose another --name", where=str(notes))
    return entry


def install_game(
    folder: MapFolder,
    game_name: str,
    xml: bytes,
    notes_html: str | None = None,
    *,
    force: bool = False,
    day: datetime.date | None = None,
    protect: tuple[Path, ...] = (),
    maps_dir: Path | str | None = None,
) -> InstalledGame:
    """Write the game into ``folder`` and list it in ``map.yml`` under ``game_name``.

    ``game_name`` should match the ``<info name>`` in ``xml``. The game file and
    the notes end with :data:`INSTALL_MARK`. A name the map already lists is
    refused, unless this program installed that game, it is unchanged, and
    ``force`` is given: then its file and notes are replaced and ``map.yml``
    keeps its entry as it is.
    """
    from kremlin_triplea.gamefile import mapyml  # editing map.yml needs yaml (17 ms to import): only when installing

    if gamenames.normalised(game_name) != game_name:  # the game's own <info name> was set from it: the caller normalises
        raise InputError(f"{game_name!r} is not in its normal form (NFKC): install it as {gamenames.normalised(game_name)!r}", where="--name")
    check_game_name(game_name)
    day = day or datetime.date.today()
    map_yml = folder.folder / "map.yml"
    game_bytes = _marked(xml)
    notes_bytes = _marked(notes_html.encode("utf-8")) if notes_html is not None else None
    with map_lock(folder.folder):
        recover(folder.folder)  # what a run killed in this map left
        fresh = _read_folder(folder.folder)  # read under the lock: another install may just have added a game
        record = read_record(folder.folder)
        host_game_name(game_name, (g.game_name for g in fresh.games), games_elsewhere(fresh, maps_dir))
        existing = next((g for g in fresh.games if g.game_name.lower() == game_name.lower()), None)
        if existing is not None:
            entry = _check_replace(fresh, game_name, existing, force=force, record=record)
            return _replace_installed(fresh, entry, existing, game_bytes, notes_bytes, record, day, protect)
        games = fresh.games_folder
        try:
            games.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise InputError(f"cannot make the map's games folder: {error.strerror or error}", where=str(games)) from None
        _remove_leftovers(fresh, record, game_name)
        file_name = unique_file_name(fresh, file_stem_for(game_name))
        insertion = mapyml.add_game(_map_yml_text(map_yml, fresh), game_name, file_name, where=str(map_yml))
        game_file = games / file_name
        notes_file = game_file.with_suffix(_NOTES_SUFFIX) if notes_bytes is not None else None
        entry = {
            "game_name": game_name,
            "file_name": file_name,
            "notes_file": notes_file.name if notes_file is not None else None,
            "sha256": _sha256(game_bytes),
            "notes_sha256": _sha256(notes_bytes) if notes_bytes is not None else None,
            "date": day.isoformat(),
            "created_games_key": insertion.created_key,
            "added_line_break": insertion.added_newline,
        }
        files = [(game_file, game_bytes)] + ([(notes_file, notes_bytes)] if notes_file is not None else [])
        base = _current_bytes(map_yml)
        journal = {"operation": "install", "entry": entry, "files": [_journal_file(path, data, backup=False) for path, data in files]}
        # The journal comes before any game file, the files and the record before the map.yml entry that lists the
        # game: a kill anywhere leaves nothing the next run does not finish (map.yml lists the game) or take back.
        with _undone_unless_finished(fresh.folder):
            write_journal(fresh.folder, journal)
            for path, _ in files:
                check_output(path, protect=protect)  # probes the folder with a file of its own: after the journal
            for (_, data), file in zip(files, journal["files"], strict=True):
                write_staged(games / file["staged"], data)
            for path, file in zip((p for p, _ in files), journal["files"], strict=True):
                place_new(games / file["staged"], path)
            kept = _record_after_rename(fresh, record, game_name)
            _write_record(fresh.folder, [*kept, entry])
            written = _list_in_map_yml(fresh, base, game_name, file_name)
            if (written.created_key, written.added_newline) != (insertion.created_key, insertion.added_newline):  # map.yml changed meanwhile
                entry = {**entry, "created_games_key": written.created_key, "added_line_break": written.added_newline}
                _write_record(fresh.folder, [*kept, entry])
            remove_journal(fresh.folder)
    return InstalledGame(game_name, game_file, notes_file, map_yml, fresh.name, day.isoformat())


def _leftovers(folder: MapFolder, record: list[dict], game_name: str) -> list[dict]:
    """Record entries of ``game_name`` whose file map.yml does not list: what an install interrupted before its
    map.yml entry left (the name is free, or it would have been found in map.yml)."""
    listed = {g.path.name for g in folder.games}
    return [g for g in record if g["game_name"].lower() == game_name.lower() and g["file_name"] not in listed]


def _remove_leftovers(folder: MapFolder, record: list[dict], game_name: str) -> None:
    """Remove the files of an interrupted install of the same name, if they are the ones it wrote (else they stay)."""
    for entry in _leftovers(folder, record, game_name):
        with contextlib.suppress(InputError):
            _check_ours(folder.folder, entry, "removes")
            for name in (entry["file_name"], entry.get("notes_file")):
                if name:
                    remove(folder.games_folder / name)


def _record_after_rename(folder: MapFolder, record: list[dict], game_name: str) -> list[dict]:
    """The record without the leftovers of ``game_name``; an entry of that name whose file map.yml lists under
    another name (the user renamed it) is kept under that name, so the new game's entry is the only one so named."""
    leftovers = _leftovers(folder, record, game_name)
    listed = {g.path.name: g.game_name for g in reversed(folder.games)}
    kept = []
    for entry in record:
        if any(entry is g for g in leftovers):
            continue
        if entry["game_name"].lower() == game_name.lower() and entry["file_name"] in listed:
            entry = {**entry, "game_name": listed[entry["file_name"]]}
        kept.append(entry)
    return kept


def _replace_installed(
    folder: MapFolder,
    entry: dict,
    existing: GameEntry,
    game_bytes: bytes,
    notes_bytes: bytes | None,
    record: list[dict],
    day: datetime.date,
    protect: tuple[Path, ...],
) -> InstalledGame:
    game_file = existing.path
    notes_file = game_file.with_suffix(_NOTES_SUFFIX) if notes_bytes is not None else None
    new_entry = {**entry, "sha256": _sha256(game_bytes), "date": day.isoformat(), "game_name": existing.game_name}
    if notes_file is not None:
        new_entry.update(notes_file=notes_file.name, notes_sha256=_sha256(notes_bytes))
    files = [(game_file, game_bytes)] + ([(notes_file, notes_bytes)] if notes_file is not None else [])
    journal = {"operation": "replace", "entry": new_entry, "files": [_journal_file(path, data, backup=True) for path, data in files]}
    games = game_file.parent
    # The files and their record change together: the old files are kept until the record has the new hashes (a
    # record whose hashes are not the files' would make uninstall and the next --force refuse the game for ever).
    with _undone_unless_finished(folder.folder):
        write_journal(folder.folder, journal)
        for path, _ in files:
            check_output(path, overwrite=True, protect=protect)  # checked ours under the lock; its probe after the journal
        for (_, data), file in zip(files, journal["files"], strict=True):
            write_staged(games / file["staged"], data)
        for path, file in zip((p for p, _ in files), journal["files"], strict=True):
            if file["backup"] is not None:
                keep_backup(path, games / file["backup"])
        for path, file in zip((p for p, _ in files), journal["files"], strict=True):
            put_over(games / file["staged"], path)
        _write_record(folder.folder, [new_entry if g is entry else g for g in record])
        _discard_sides(games, journal)
        remove_journal(folder.folder)
    return InstalledGame(existing.game_name, game_file, notes_file, folder.folder / "map.yml", folder.name, day.isoformat(), replaced=True)


def _journal_file(path: Path, data: bytes, *, backup: bool) -> dict:
    """The journal's line for one file written: its staged copy, the backup of the file it replaces, its new hash."""
    kept = side_name(path.name, "backup") if backup and os.path.lexists(path) else None
    return {"name": path.name, "staged": side_name(path.name, "staged"), "backup": kept, "sha256": _sha256(data)}


def _discard_sides(games: Path, journal: dict) -> None:
    for file in journal["files"]:
        for kind in ("staged", "backup"):
            if file.get(kind):
                remove(games / file[kind])


@contextlib.contextmanager
def _undone_unless_finished(folder: Path) -> Iterator[None]:
    """Run a journalled operation; if it fails here (an error, a full disk, SIGTERM), :func:`recover` at once, as the
    next run would after a kill: it is finished if it got as far as its commit, else taken back."""
    try:
        yield
    except BaseException:
        with contextlib.suppress(Exception):  # the journal stays for the next run; the first error is the one to say
            recover(folder)
        raise


def _current_bytes(path: Path) -> bytes | None:
    return read_bytes(path, what="map.yml") if os.path.lexists(path) else None


def _list_in_map_yml(folder: MapFolder, base: bytes | None, game_name: str, file_name: str):
    """Add the game's entry to map.yml as it is now, compare-and-swap: if another program (TripleA writing the map.yml
    of a map that had none, a host's editor) wrote it since it was read, the entry is added to that file instead."""
    from kremlin_triplea.gamefile import mapyml

    map_yml = folder.folder / "map.yml"
    for _ in range(5):
        text = _map_yml_text(map_yml, folder) if base is None else _decoded(map_yml, base)
        insertion = mapyml.add_game(text, game_name, file_name, where=str(map_yml))
        if _swap(map_yml, base, insertion.text.encode("utf-8")):
            return insertion
        base = _current_bytes(map_yml)
    raise InputError("kept changing while the game was being listed in it; try again", where=str(map_yml))


def _decoded(path: Path, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("is not UTF-8 text; save it as UTF-8", where=str(path)) from None


def _swap(path: Path, expected: bytes | None, new: bytes) -> bool:
    """Write ``new`` to ``path`` if it still holds ``expected`` (None: it does not exist); whether it was written."""
    if expected is None:
        try:
            write_atomically(path, new)  # a hard link: fails if the file appeared meanwhile
        except InputError:
            if os.path.lexists(path):
                return False
            raise
        return True
    if _current_bytes(path) != expected:
        return False
    write_atomically(path, new, overwrite=True)
    return True


def map_folder_for(source: Path | str, map_name: str | None, maps_dir: Path) -> MapFolder:
    """The map a game installs into: the one whose folder holds its base game (``source``), else the one ``map_name`` names."""
    maps = installed_maps(Path(maps_dir))
    resolved = Path(source).resolve()
    folder = next((m for m in maps if resolved.is_relative_to(m.folder.resolve())), None)
    if folder is None:
        folder = next((m for m in maps if m.name == map_name), None)
    if folder is None:  # a map without map.yml, which TripleA 2.x lists all the same (it writes one for it)
        others = maps_without_yml(Path(maps_dir))
        folder = next((m for m in others if resolved.is_relative_to(m.folder.resolve())), None) or next((m for m in others if m.name == map_name), None)
    if folder is None:
        raise InputError(f"no map folder for {source} in {maps_dir} (map {map_name!r}); install the map in TripleA first", where=str(maps_dir))
    return folder


# -- installed, uninstall ------------------------------------------------------


def installed_games(maps_dir: Path, broken: list[InputError] | None = None, finished: list[InstalledGame] | None = None) -> list[InstalledGame]:
    """The games this program installed in the maps folder, map by map, in the order they were installed.

    What a run killed during an install, replace or uninstall left is recovered first (:func:`recover`); the
    uninstalls that finishes are added to ``finished``. A record that cannot be trusted is refused
    (:func:`read_record`); with ``broken`` given, its map is left out and the error added there instead, so one
    map's bad record does not hide the others. A journal that cannot be recovered now is said there too.
    """
    for journal in _journals(Path(maps_dir)):
        try:
            with map_lock(journal.parent):
                done = recover(journal.parent)
        except InputError as error:  # not recovered now: the record still names what is left, and so the list does
            if broken is not None:
                broken.append(error)
            continue
        if done is not None and finished is not None:
            finished.append(done)
    found = []
    for folder in installed_maps(Path(maps_dir)):
        try:
            record = read_record(folder.folder)
        except InputError as error:
            if broken is None:
                raise
            broken.append(error)
            continue
        listed = {g.path.name: g.game_name for g in reversed(folder.games)}  # the first entry listing a file wins
        for entry in record:
            notes = entry.get("notes_file")
            found.append(
                InstalledGame(
                    entry["game_name"],
                    folder.games_folder / entry["file_name"],
                    folder.games_folder / notes if notes else None,
                    folder.folder / "map.yml",
                    folder.name,
                    str(entry.get("date", "")),
                    listed_as=listed.get(entry["file_name"], ""),
                )
            )
    return found


def uninstall_game(maps_dir: Path, name: str) -> InstalledGame:
    """Remove a game this program installed: its file, its notes and its map.yml entry (every other byte of map.yml stays).

    ``name`` is the game's name, or ``MAP/NAME`` when several maps have one of that name. The files are
    removed only if they are the ones this program wrote (:func:`_check_ours`); the map.yml entry is the
    one that lists the game's file, whatever the user renamed it to.
    """
    broken: list[InputError] = []
    finished: list[InstalledGame] = []
    games = installed_games(maps_dir, broken, finished)
    # MAP/NAME, or MAP\\NAME as on Windows; a name that holds the separator itself is still found whole below.
    separator = "/" if "/" in name else "\\" if "\\" in name else None
    wanted_map, _, wanted_name = name.rpartition(separator) if separator else ("", "", name)
    matches = [g for g in games if _named(g, wanted_name) and (not wanted_map or g.map_name == wanted_map)]
    if not matches and wanted_map:
        matches = [g for g in games if _named(g, name)]
    if not matches:
        done = [g for g in finished if _named(g, wanted_name) or _named(g, name)]
        if done:  # an uninstall a run could not finish (a file it could not remove), finished now
            return done[0]
        if broken:  # the game may be one that a record refused here lists: say why that record is not read
            raise broken[0]
        raise UnknownNameError("installed game", name, [g.game_name for g in games], where=str(maps_dir))
    if len(matches) > 1:
        maps = ", ".join(f"{g.map_name}/{g.game_name}" for g in matches)
        raise InputError(f"{len(matches)} maps have an installed game named {name!r}: say which, as MAP/NAME ({maps})", where=str(maps_dir))
    game = matches[0]
    folder = game.map_yml.parent
    with map_lock(folder):
        recover(folder)
        record = read_record(folder)
        entry = next((g for g in record if g["game_name"] == game.game_name), None)
        if entry is None:
            raise InputError(f"{game.game_name!r} was uninstalled meanwhile", where=str(game.map_yml))
        _check_ours(folder, entry, "removes")
        names = [entry["file_name"], *([entry["notes_file"]] if entry.get("notes_file") else [])]
        journal = {"operation": "uninstall", "entry": entry, "files": [{"name": n, "staged": None, "backup": None, "sha256": None} for n in names]}
        write_journal(folder, journal)
        done = _finish_uninstall(folder, journal, game.map_name)
    return attrs.evolve(game, entry=done.entry, removed=done.removed)


def _journals(maps_dir: Path) -> list[Path]:
    """The journals left in the maps of ``maps_dir`` (a map's folder, or one folder down as older installs have it)."""
    try:
        children = sorted(p for p in maps_dir.iterdir() if p.is_dir())
    except OSError:
        return []
    found = []
    for child in children:
        for folder in (child, *sorted(p for p in child.iterdir() if p.is_dir())):
            if os.path.lexists(journal_path(folder)):
                found.append(journal_path(folder))
    return found


def recover(folder: Path) -> InstalledGame | None:
    """Finish or take back the operation whose journal a run stopped in ``folder`` left (the caller holds the map's
    lock): an install is finished if map.yml lists its game, else taken back; a replace is finished if the record
    has its new hashes, else the old files are put back; an uninstall is always finished (map.yml's entry went
    first), and the game it removed is returned. Afterwards the record's hashes are those of the files."""
    journal = read_journal(folder, _entry_problem)
    if journal is None:
        return None
    games = MapFolder(folder.name, folder, ()).games_folder
    remove_stale_temporaries(games)  # a probe of the folder, made after the journal
    entry, operation = journal["entry"], journal["operation"]
    if operation == "uninstall":
        map_name = read_map_folder(folder).name if os.path.lexists(folder / "map.yml") else folder.name
        return _finish_uninstall(folder, journal, map_name)
    record = read_record(folder)
    if operation == "install" and _lists(folder, entry["file_name"]):
        if not any(g["file_name"] == entry["file_name"] for g in record):
            _write_record(folder, [*record, entry])
    elif not (operation == "replace" and any(_same_files(g, entry) for g in record)):
        for file in journal["files"]:
            target, backup = games / file["name"], file.get("backup")
            if backup is not None and os.path.lexists(games / backup):
                put_over(games / backup, target)
            elif backup is None and sha256_of(target) == file["sha256"]:
                remove(target)
        kept = [g for g in record if operation != "install" or g["file_name"] != entry["file_name"]]
        if kept != record:
            _write_record(folder, kept)
    _discard_sides(games, journal)
    remove_journal(folder)
    return None


def _lists(folder: Path, file_name: str) -> bool:
    return os.path.lexists(folder / "map.yml") and any(g.path.name == file_name for g in read_map_folder(folder).games)


def _same_files(recorded: dict, entry: dict) -> bool:
    keys = ("file_name", "sha256", "notes_file", "notes_sha256")
    return all(recorded.get(key) == entry.get(key) for key in keys)


def _finish_uninstall(folder: Path, journal: dict, map_name: str) -> InstalledGame:
    """Take the game's entry out of map.yml, then its files (each only if it is the file recorded), then its record
    entry; a file that cannot be removed stops it with one line saying what is done and what is left."""
    entry = journal["entry"]
    games = MapFolder(folder.name, folder, ()).games_folder
    listing = _remove_entry(folder, entry) if os.path.lexists(folder / "map.yml") else f"map.yml did not list {entry['file_name']}"
    recorded = {entry["file_name"]: entry.get("sha256"), entry.get("notes_file"): entry.get("notes_sha256")}
    removed = []
    for file in journal["files"]:
        path = games / file["name"]
        current = sha256_of(path)
        if current is None or current != recorded.get(file["name"]):
            continue  # gone already, or changed since: never removed
        try:
            remove(path)
        except InputError as error:
            left = ", ".join(f["name"] for f in journal["files"] if os.path.lexists(games / f["name"]))
            raise InputError(
                f"{error.message}; the uninstall of {entry['game_name']!r} is not finished: {listing}, and {left} "
                f"{'is' if ',' not in left else 'are'} left; `kremlin-triplea uninstall {entry['game_name']}` finishes it",
                where=error.where,
            ) from None
        removed.append(path)
    _write_record(folder, [g for g in read_record(folder) if g["file_name"] != entry["file_name"]])
    remove_journal(folder)
    notes = entry.get("notes_file")
    return InstalledGame(
        entry["game_name"],
        games / entry["file_name"],
        games / notes if notes else None,
        folder / "map.yml",
        map_name,
        str(entry.get("date", "")),
        entry=listing,
        removed=tuple(removed),
    )


def _named(game: InstalledGame, name: str) -> bool:
    """Whether ``name`` is the game's: the name it was installed under, or the one map.yml lists it under now."""
    return name.lower() in (game.game_name.lower(), game.listed_as.lower())


def _remove_entry(folder: Path, entry: dict) -> str:
    """Take out the map.yml entry listing the game's file; what was done, for the user."""
    from kremlin_triplea.gamefile import mapyml  # editing map.yml needs yaml (17 ms to import): only when installing

    map_yml = folder / "map.yml"
    listing = [g for g in read_map_folder(folder).games if g.path.name == entry["file_name"]]
    if not listing:
        return f"map.yml did not list {entry['file_name']}"
    if len(listing) > 1:
        names = ", ".join(repr(g.game_name) for g in listing)
        return f"map.yml lists {entry['file_name']} {len(listing)} times ({names}); those entries were left for you to remove"
    listed_as = listing[0].game_name
    new = mapyml.remove_game(
        _map_yml_text(map_yml),
        listed_as,
        created_key=bool(entry.get("created_games_key")),
        added_newline=bool(entry.get("added_line_break")),
        where=str(map_yml),
    )
    write_atomically(map_yml, new.encode("utf-8"), overwrite=True)
    renamed = "" if listed_as == entry["game_name"] else f" (renamed {listed_as!r})"
    return f"removed its entry{renamed} from {map_yml}"

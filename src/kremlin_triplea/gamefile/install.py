"""Install a generated game into a map of a TripleA user folder.

TripleA 2.x lists a map's games from its ``map.yml``; 1.9 scans the map's
``games`` folder. Installing therefore writes the game file (and its
``.notes.html``) into the games folder and appends one entry to ``map.yml``,
in the flow style the file already uses, leaving every other byte of it as
it was.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

import attrs
import yaml

from kremlin_triplea.errors import InputError
from kremlin_triplea.gamefile.locate import MapFolder


@attrs.frozen
class InstalledGame:
    game_name: str
    game_file: Path
    notes_file: Path | None
    map_yml: Path


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
    while candidate.lower() in listed or (games / candidate).exists():
        candidate = f"{stem}-{number}.xml"
        number += 1
    return candidate


def file_stem_for(game_name: str) -> str:
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", game_name).strip("._-")
    return stem or "kremlin_game"


def install_game(folder: MapFolder, game_name: str, xml: bytes, notes_html: str | None = None) -> InstalledGame:
    """Write the game into ``folder`` and list it in ``map.yml`` under ``game_name``.

    ``game_name`` must already be unique (see :func:`unique_game_name`) and
    should match the ``<info name>`` in ``xml``.
    """
    if game_name.lower() in {g.game_name.lower() for g in folder.games}:
        raise InputError(f"map {folder.name!r} already has a game named {game_name!r}", where=str(folder.folder / "map.yml"))
    games = folder.games_folder
    games.mkdir(parents=True, exist_ok=True)
    file_name = unique_file_name(folder, file_stem_for(game_name))
    game_file = games / file_name
    map_yml = folder.folder / "map.yml"
    original_yml = map_yml.read_text(encoding="utf-8")
    new_yml = _with_game_entry(original_yml, game_name, file_name, where=str(map_yml))

    _write_new(game_file, xml)
    notes_file = None
    if notes_html is not None:
        notes_file = game_file.with_suffix(".notes.html")
        _write_new(notes_file, notes_html.encode("utf-8"))
    _replace(map_yml, new_yml.encode("utf-8"))
    return InstalledGame(game_name, game_file, notes_file, map_yml)


def _yaml_scalar(text: str) -> str:
    if re.fullmatch(r"[A-Za-z0-9_.][A-Za-z0-9_. ()-]*", text) and not text.endswith(" "):
        return text
    return "'" + text.replace("'", "''") + "'"


def _with_game_entry(text: str, game_name: str, file_name: str, *, where: str) -> str:
    """``text`` (a map.yml) with one more game entry, in the style of the existing ones."""
    entry_style = re.compile(r"^(?P<indent>[ \t]*)- \{.*\}[ \t]*$", re.M)
    lines = text.splitlines(keepends=True)
    games_line = next((i for i, line in enumerate(lines) if re.match(r"^games:\s*$", line)), None)
    entry = f"{{game_name: {_yaml_scalar(game_name)}, file_name: {_yaml_scalar(file_name)}}}"
    if games_line is None:
        separator = "" if text.endswith("\n") or not text else "\n"
        new = text + separator + f"games:\n- {entry}\n"
    else:
        last = games_line
        indent = ""
        for index in range(games_line + 1, len(lines)):
            line = lines[index]
            if line.strip() == "" or line.lstrip().startswith("#"):
                continue
            if line.lstrip().startswith("-") or line[:1] in " \t":
                last = index
                match = entry_style.match(line.rstrip("\r\n"))
                if match:
                    indent = match.group("indent")
                continue
            break
        newline = "\r\n" if lines[last].endswith("\r\n") else "\n"
        if not lines[last].endswith(("\n", "\r")):
            lines[last] += newline
        lines.insert(last + 1, f"{indent}- {entry}{newline}")
        new = "".join(lines)
    check = yaml.safe_load(new)
    names = [g.get("game_name") for g in (check or {}).get("games") or [] if isinstance(g, dict)]
    if game_name not in names:
        raise InputError("could not add the game to map.yml without changing its meaning", where=where)
    return new


def _write_new(path: Path, data: bytes) -> None:
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    with os.fdopen(handle, "wb") as stream:
        stream.write(data)
    os.chmod(temporary, 0o644)
    try:
        os.link(temporary, path)
    except FileExistsError:
        raise InputError("already exists; not replaced", where=str(path)) from None
    finally:
        os.unlink(temporary)


def _replace(path: Path, data: bytes) -> None:
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    with os.fdopen(handle, "wb") as stream:
        stream.write(data)
    os.chmod(temporary, path.stat().st_mode & 0o777)
    os.replace(temporary, path)



def install_written_game(game, maps_dir: Path) -> InstalledGame:
    """Install ``game`` (a :class:`~kremlin_triplea.game.Game` whose board holds the changes) into its map's folder.

    The map is the one whose folder holds the base game, else the one named by
    its ``mapName`` property. The game is renamed when its name is taken, so its
    ``<info name>`` is always the name ``map.yml`` lists; its notes (the
    ``notes`` property) go beside it as ``.notes.html``.
    """
    from kremlin_triplea.model.changes import SetGameName
    from kremlin_triplea.gamefile.locate import installed_maps

    source = Path(game.source).resolve()
    maps = installed_maps(Path(maps_dir))
    folder = next((m for m in maps if source.is_relative_to(m.folder.resolve())), None)
    if folder is None:
        wanted = game.board.properties.get("mapName")
        folder = next((m for m in maps if m.name == wanted), None)
    if folder is None:
        raise InputError(f"no map folder for {game.source} in {maps_dir} (map {game.board.properties.get('mapName')!r}); install the map in TripleA first", where=str(maps_dir))
    name = unique_game_name(folder, game.board.game_name)
    if name != game.board.game_name:
        game.board.push(SetGameName(name))
    return install_game(folder, name, game.to_bytes(), game.board.properties.get("notes"))

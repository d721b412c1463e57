"""Which game a written game was made from, recorded in its notes for the tool to find again.

A game this tool writes keeps its base game's map and file name in an HTML
comment at the top of its ``notes`` property: players never see it (TripleA
shows the notes as HTML), and ``render`` and ``verify`` read it to compare the
written game with its base without being told the base.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import attrs

from kremlin_triplea.errors import InputError, UnknownNameError
from kremlin_triplea.gamefile.locate import read_map_folder, resolve_game

#: The comment's opening words; what follows up to ``-->`` is one JSON object.
MARK = "kremlin-triplea base:"
HYPHEN_ESCAPE = "\\u002d"  # "-" as a JSON string escape
_RECORD = re.compile(r"<!--\s*" + re.escape(MARK) + r"\s*(\{.*?\})\s*-->", re.DOTALL)


@attrs.frozen
class BaseRecord:
    """The base game: its map (as ``maps`` lists it, map.yml's map_name) and its file's name."""

    map: str = attrs.field(validator=attrs.validators.instance_of(str))
    file: str = attrs.field(validator=attrs.validators.instance_of(str))
    game: str = attrs.field(default="", validator=attrs.validators.instance_of(str))  # its <info name>

    @property
    def spec(self) -> str:
        """The base as MAP/GAME, the way every command accepts a game."""
        return f"{self.map}/{self.file}"

    def comment(self) -> str:
        data = json.dumps({"map": self.map, "file": self.file, "game": self.game}, ensure_ascii=True, sort_keys=True)
        # JSON escapes no "-", and "--" may not appear inside an HTML comment.
        data = data.replace("--", "-" + HYPHEN_ESCAPE)
        return f"<!-- {MARK} {data} -->\n"


def map_folder_of(game_file: Path) -> Path | None:
    """The map folder (the one holding map.yml) a game file lies in, if it lies in one."""
    for folder in game_file.resolve().parents[:4]:
        if (folder / "map.yml").is_file():
            return folder
    return None


def base_record(game_file: Path | str, game_name: str) -> BaseRecord | None:
    """The record for a game made from ``game_file``, or None if that file is not in a map folder."""

    path = Path(game_file)
    folder = map_folder_of(path) if path.is_file() else None
    if folder is None:
        return None
    return BaseRecord(read_map_folder(folder).name, path.name, game_name)


def recorded_base(notes: str) -> BaseRecord | None:
    """The base recorded first in ``notes``: the newest, as each written game puts its record on top."""
    found = _RECORD.search(notes)
    if found is None:
        return None
    try:
        data = json.loads(found.group(1))
        return BaseRecord(str(data["map"]), str(data["file"]), str(data.get("game", "")))
    except (ValueError, KeyError, TypeError):
        raise InputError(f"the notes' {MARK!r} comment is not the JSON this tool writes") from None


def find_recorded_base(record: BaseRecord, written: Path, maps_dir: Path | str | None) -> Path:
    """The base game's file.

    Looked for in the map folder the written game lies in (an installed game
    lies beside its base), then in the maps folder as MAP/FILE, then beside the
    written game.
    """

    own_folder = map_folder_of(written)
    if own_folder is not None:
        own = read_map_folder(own_folder)
        if own.name == record.map and (own.games_folder / record.file).is_file():
            return own.games_folder / record.file
    try:
        return resolve_game(record.spec, maps_dir)
    except (InputError, UnknownNameError) as error:
        beside = written.resolve().parent / record.file
        if beside.is_file() and beside != written.resolve():
            return beside
        raise InputError(f"cannot find the base game {record.spec} its notes record ({error}); name it with --base", where=str(written)) from None

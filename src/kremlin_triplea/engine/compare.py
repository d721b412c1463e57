"""Our board against the engine's reading of the same file: the one comparison (verify, the matrix, the tests use it)."""

from __future__ import annotations

from typing import Any

import attrs

from kremlin_triplea.model.board import Board


@attrs.frozen
class Disagreement:
    """One thing the engine reads differently: ``key`` is ("place", name), ("pus", player), ("property", name) or ("game", "name")."""

    key: tuple[str, str]
    ours: Any
    theirs: Any

    def __str__(self) -> str:
        kind, name = self.key
        if kind == "place":
            return f"{name}: ours {_place(self.ours)}, the engine's {_place(self.theirs)}"
        if kind == "pus":
            return f"{name}: PUs ours {self.ours}, the engine's {self.theirs}"
        if kind == "property":
            return f"property {name!r}: ours {self.ours!r}, the engine's {self.theirs!r}"
        return f"game name: ours {self.ours!r}, the engine's {self.theirs!r}"


#: TripleA 2.x's parser renames these older property names as it reads them (its LegacyPropertyMapper.mapPropertyName),
#: by lower-cased name.
TRIPLEA2_RENAMED_PROPERTIES = {
    "battleships repair at end of round": "Units Repair Hits End Turn",
    "units repair at end of round": "Units Repair Hits End Turn",
    "battleships repair at beginning of round": "Units Repair Hits Start Turn",
    "units repair at beginning of round": "Units Repair Hits Start Turn",
}
#: TripleA 2.x takes ``mapName`` from the map folder's map.yml, not from the file (GameParser.parse).
TRIPLEA2_UNREAD_PROPERTIES = frozenset({"mapName"})


def disagreements(board: Board, reading: Any, *, properties: bool = True, triplea2: bool = False) -> list[Disagreement]:
    """Owners and units of every place, PUs of every player, and (with ``properties``) the game's properties and name.

    With ``triplea2`` the reading is TripleA 2.x's, whose differences by design are not disagreements: properties it
    renames are compared under their new names, and those it does not take from the file are left out; a reading
    that says it is 2.x's (``reading.triplea2``) is taken as one.
    """
    triplea2 = triplea2 or bool(getattr(reading, "triplea2", False))
    found: list[Disagreement] = []
    ours = {name: (data["owner"], {k: n for k, n in data["units"].items() if n}) for name, data in board.nodes.items()}
    theirs = {name: (t.owner, dict(t.units)) for name, t in reading.territories.items()}
    for name in sorted(set(ours) | set(theirs)):
        if ours.get(name) != theirs.get(name):
            found.append(Disagreement(("place", name), ours.get(name), theirs.get(name)))
    for player in sorted(set(board.pus) | set(reading.pus)):
        if board.pus.get(player, 0) != reading.pus.get(player, 0):
            found.append(Disagreement(("pus", player), board.pus.get(player, 0), reading.pus.get(player, 0)))
    if properties:
        if reading.game_name != board.game_name:
            found.append(Disagreement(("game", "name"), board.game_name, reading.game_name))
        for key, value in sorted(board.properties.items()):
            # Notes are HTML the engine may reformat; colours it reads as numbers.
            if key == "notes" or key.startswith("color_"):
                continue
            if triplea2 and key in TRIPLEA2_UNREAD_PROPERTIES:
                continue
            theirs = reading.properties.get(TRIPLEA2_RENAMED_PROPERTIES.get(key.lower(), key) if triplea2 else key)
            if _normal(value) != _normal(theirs):
                found.append(Disagreement(("property", key), value, theirs))
    return found


def _place(value: tuple[str | None, dict] | None) -> str:
    if value is None:
        return "no such place"
    owner, units = value
    return f"owner {owner}, units {sorted(units.items(), key=str)}"


def _normal(value: str | None) -> str:
    text = (value or "").strip()
    return text.lower() if text.lower() in ("true", "false") else text

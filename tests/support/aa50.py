"""Helpers for the tests of the Kremlin rules (tests/test_rules_*.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kremlin_triplea.model.board import Board
from kremlin_triplea.model.diff import board_difference
from kremlin_triplea.session import Session
from support.games import fresh_game
from support.paths import AA50_1941, AA50_1942, MAPS_DIR
from support.sessions import pick, session_for

GAMES = {"1941": AA50_1941, "1942": AA50_1942}
SEED = "000_bc04a4edf7f7d2ab.txt"


def run_for(path: Path, first: str, picks_per_side: int | None = None) -> Session:
    """A new kremlin-aa50 draft on the game at ``path`` (its board pristine), ``first`` to pick: a session, as every draft is driven."""
    return session_for(path, first, picks_per_side=picks_per_side)


def delta(before: Board, after: Board) -> dict[str, Any]:
    """Exactly what differs: per place its changed fields and unit count changes, and PU changes."""
    difference = board_difference(before, after)
    changed: dict[str, Any] = {}
    for place, found in difference.places.items():
        entry: dict[str, Any] = {field: (old, new) for field, old, new in found.fields}
        if found.units:
            entry["units"] = {(owner, unit): n for owner, unit, n in found.units}
        changed[place] = entry
    if difference.pus:
        changed["PUs"] = difference.pus
    return changed


__all__ = ["GAMES", "MAPS_DIR", "SEED", "delta", "fresh_game", "pick", "run_for"]


#: Four legal picks a side on AA50 1941 (options 7, 6, 1, 9 each side), Axis first: the board a bid is made on.
EIGHT_PICKS: tuple[dict[str, Any], ...] = (
    {"side": "Axis", "option": 7, "place": [{"power": "Germans", "unit": "bomber", "at": "Germany"}]},
    {"side": "Allies", "option": 7, "place": [{"power": "Russians", "unit": "bomber", "at": "Russia"}]},
    {"side": "Axis", "option": 6, "place": [{"power": "Japanese", "unit": "fighter", "at": "Japan"}]},
    {"side": "Allies", "option": 6, "place": [{"power": "British", "unit": "fighter", "at": "United Kingdom"}]},
    {"side": "Axis", "option": 1, "place": [{"power": "Italians", "unit": "infantry", "count": 3, "at": "Italy"}]},
    {"side": "Allies", "option": 1, "place": [{"power": "Americans", "unit": "infantry", "count": 3, "at": "Eastern United States"}]},
    {"side": "Axis", "option": 9, "place": [{"power": "Japanese", "unit": "battleship", "at": "60 Sea Zone"}]},
    {"side": "Allies", "option": 9, "place": [{"power": "Americans", "unit": "battleship", "at": "10 Sea Zone"}]},
)

"""Questions the rules ask of a board, each a named function.

"Enemy" and "friendly" follow the game's alliances (``Catalog.allied``);
units with no owner (a neutral's army) are neither.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import Literal

import attrs

from kremlin_triplea.model.board import Board

Via = Literal["land", "sea", "any"]


def land_neighbours(board: Board, territory: str) -> list[str]:
    return [n for n in board.neighbours(territory) if not board.is_water(n)]


def sea_neighbours(board: Board, territory: str) -> list[str]:
    return [n for n in board.neighbours(territory) if board.is_water(n)]


def allies(board: Board, power: str) -> list[str]:
    """The power and its allies, in turn order."""
    return board.catalog.allies(power)


def enemies(board: Board, power: str) -> list[str]:
    return board.catalog.enemies(power)


def enemy_unit_owners(board: Board, territory: str, power: str) -> list[str]:
    """The enemies of ``power`` with units in ``territory``."""
    owners = {owner for (owner, _), count in board.units(territory).items() if count and owner is not None}
    return sorted(o for o in owners if not board.catalog.allied(power, o))


def has_enemy_units(board: Board, territory: str, power: str) -> bool:
    return bool(enemy_unit_owners(board, territory, power))


def neighbours_with_enemy_units(board: Board, territory: str, power: str, *, via: Via = "land") -> list[str]:
    """Adjacent territories (land, sea, or both) holding units of an enemy of ``power``."""
    return [n for n in _neighbours(board, territory, via) if has_enemy_units(board, n, power)]


def owned_sea_zones(board: Board, power: str) -> list[str]:
    """Sea zones the power owns in the rules' sense: adjacent to a territory it owns."""
    owned = {
        sea
        for territory, data in board.nodes.items()
        if not data["water"] and data["owner"] == power
        for sea in board.neighbours(territory)
        if board.is_water(sea)
    }
    return sorted(owned)


def ships(board: Board, territory: str) -> dict[str | None, int]:
    """Sea units in ``territory`` by owner."""
    counts: dict[str | None, int] = {}
    for (owner, unit_type), count in board.units(territory).items():
        if count and board.catalog.unit_type(unit_type).is_ship:
            counts[owner] = counts.get(owner, 0) + count
    return counts


@attrs.frozen
class Nearest:
    """The closest matches found by :func:`nearest`: all of them, ties included."""

    distance: int | None  # None when nothing matches
    matches: tuple[str, ...]

    @property
    def unique(self) -> str | None:
        return self.matches[0] if len(self.matches) == 1 else None

    @property
    def tied(self) -> bool:
        return len(self.matches) > 1


def nearest(
    board: Board,
    start: str | Iterable[str],
    matches: Callable[[str], bool],
    *,
    via: Via = "any",
    include_start: bool = False,
    passable: Callable[[str], bool] | None = None,
) -> Nearest:
    """Breadth-first search from ``start`` for the closest territories that match.

    ``via`` says which kind of territory the path may cross ("sea": only sea
    zones after leaving the start, as a ship does; "land": only land); the
    start itself may be of either kind. ``passable`` further limits what the
    path may cross (e.g. not impassable neutrals). Ties are all reported, in
    name order, never silently broken.
    """
    starts = [start] if isinstance(start, str) else list(start)
    for territory in starts:
        board.node(territory)
    seen = set(starts)
    frontier = deque((s, 0) for s in starts)
    found: list[str] = []
    found_at: int | None = None
    if include_start:
        found = sorted(s for s in starts if matches(s))
        if found:
            return Nearest(0, tuple(found))
    while frontier:
        territory, distance = frontier.popleft()
        if found_at is not None and distance >= found_at:
            break
        for neighbour in _neighbours(board, territory, via):
            if neighbour in seen or (passable is not None and not passable(neighbour)):
                continue
            seen.add(neighbour)
            if matches(neighbour):
                found.append(neighbour)
                found_at = distance + 1
            frontier.append((neighbour, distance + 1))
    return Nearest(found_at, tuple(sorted(found)))


def _neighbours(board: Board, territory: str, via: Via) -> list[str]:
    if via == "land":
        return land_neighbours(board, territory)
    if via == "sea":
        return sea_neighbours(board, territory)
    return board.neighbours(territory)

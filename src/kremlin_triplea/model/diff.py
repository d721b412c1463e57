"""What differs between two positions of one game: the only comparison of boards (the writer, the picture, the matrix and the tests use it)."""

from __future__ import annotations

import operator
from collections import Counter

import attrs

from kremlin_triplea.model.board import PLACE_FIELDS, Board, PlaceData


@attrs.frozen
class PlaceDifference:
    place: str
    fields: tuple[tuple[str, object, object], ...]  # (field, before, after)
    units: tuple[tuple[str | None, str, int], ...]  # (owner, unit type, +added / -removed)


@attrs.frozen
class BoardDifference:
    places: dict[str, PlaceDifference]
    pus: dict[str, tuple[int, int]]  # player -> (before, after)
    techs: dict[str, tuple[frozenset[str], frozenset[str]]]
    properties: dict[str, tuple[str | None, str | None]]
    game_name: tuple[str, str] | None

    def __bool__(self) -> bool:
        return bool(self.places or self.pus or self.techs or self.properties or self.game_name)


def _unit_order(item: tuple[tuple[str | None, str], int]) -> tuple[str, str]:
    (owner, unit), _ = item
    return (owner or "", unit)


def place_difference(place: str, old: PlaceData, new: PlaceData) -> PlaceDifference | None:
    fields = tuple((f, old[f], new[f]) for f in PLACE_FIELDS if old[f] != new[f])
    units: tuple[tuple[str | None, str, int], ...] = ()
    old_units, new_units = old["units"], new["units"]
    # Equal as dicts is equal as Counters, and a C comparison: Counter's own (which takes a missing unit for a zero
    # one) runs Python code per place, and only places whose dicts differ need it.
    if dict.__ne__(old_units, new_units) and old_units != new_units:
        counts = Counter(new_units)
        counts.subtract(old_units)
        units = tuple((owner, unit, n) for (owner, unit), n in sorted(counts.items(), key=_unit_order) if n)
    return PlaceDifference(place, fields, units) if fields or units else None


_FIELDS_OF = operator.itemgetter(*PLACE_FIELDS)


def board_difference(before: Board, after: Board) -> BoardDifference:
    """Every place, player's PUs and technologies, property and the game's name that differ, ``before`` -> ``after``."""
    places = {}
    before_nodes, after_nodes = before.nodes, after.nodes
    # A copy of ``before`` changed a few places: only those are compared (WW2v3-1942 with three changes: 2 of 162).
    changed = after.places_changed_from(before)
    compared = after_nodes.items() if changed is None else ((place, after_nodes[place]) for place in changed if place in after_nodes)
    for place, new in compared:
        old = before_nodes.get(place)
        # Most places are as they were: told so in C (their fields as one tuple each, their units as dicts) before
        # place_difference's Python looks at them, which was half of writing a game with three changes.
        if old is None or (_FIELDS_OF(old) == _FIELDS_OF(new) and dict.__eq__(old["units"], new["units"])):
            continue
        found = place_difference(place, old, new)
        if found is not None:
            places[place] = found
    players = sorted(set(before.pus) | set(after.pus))
    pus = {p: (before.pus.get(p, 0), after.pus.get(p, 0)) for p in players if before.pus.get(p, 0) != after.pus.get(p, 0)}
    # Technologies and properties neither board has read nor changed are the file's on both: not read to be compared.
    techs = {}
    if not before.as_read(after, "techs"):
        techs = {
            p: (before.techs.get(p, frozenset()), after.techs.get(p, frozenset()))
            for p in sorted(set(before.techs) | set(after.techs))
            if before.techs.get(p, frozenset()) != after.techs.get(p, frozenset())
        }
    properties = {}
    if not before.as_read(after, "properties"):
        properties = {
            name: (before.properties.get(name), after.properties.get(name))
            for name in sorted(set(before.properties) | set(after.properties))
            if before.properties.get(name) != after.properties.get(name)
        }
    name = (before.game_name, after.game_name) if before.game_name != after.game_name else None
    return BoardDifference(dict(sorted(places.items())), pus, techs, properties, name)

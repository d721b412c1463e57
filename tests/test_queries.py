"""The board queries the rules use, on the real AA50 1941 board."""

from __future__ import annotations

from kremlin_triplea import load
from kremlin_triplea.model.changes import PlaceUnits, SetOwner
from kremlin_triplea.model.queries import (
    Nearest,
    allies,
    enemies,
    enemy_unit_owners,
    land_neighbours,
    nearest,
    neighbours_with_enemy_units,
    owned_sea_zones,
    sea_neighbours,
    ships,
)
from support.paths import AA50_1941

BOARD = load(AA50_1941).board


def test_land_and_sea_neighbours() -> None:
    assert land_neighbours(BOARD, "Sweden") == ["Finland", "Norway"]
    assert sea_neighbours(BOARD, "Sweden") == ["5 Sea Zone"]
    assert sea_neighbours(BOARD, "Turkey") == ["15 Sea Zone", "16 Sea Zone"]
    assert "12 Sea Zone" in sea_neighbours(BOARD, "13 Sea Zone")


def test_allies_and_enemies() -> None:
    assert allies(BOARD, "Germans") == ["Germans", "Japanese", "Italians"]
    assert enemies(BOARD, "Germans") == ["Russians", "British", "Americans", "Chinese"]


def test_enemy_units_next_door() -> None:
    # Novosibirsk's neighbours hold only Russian units: UK infantry may not go there
    # for other reasons, but it is not adjacent to enemy units.
    assert neighbours_with_enemy_units(BOARD, "Novosibirsk", "Russians") == []
    assert neighbours_with_enemy_units(BOARD, "Karelia S.S.R.", "Russians") == ["Finland"]
    assert enemy_unit_owners(BOARD, "Libya", "British") == ["Germans", "Italians"]
    # Sea neighbours count when asked for.
    assert neighbours_with_enemy_units(BOARD, "Norway", "British", via="sea") != []


def test_a_pick_changes_what_is_adjacent_to_enemy_units() -> None:
    # 000_bc04a4edf7f7d2ab.txt, clarifications: after Argentina joins the Axis,
    # Brazil is adjacent to enemy units.
    board = BOARD.copy()
    assert neighbours_with_enemy_units(board, "Brazil", "Americans") == []
    board.push_all([SetOwner("Argentina Chile", "Germans", captured=False), PlaceUnits("Argentina Chile", "Germans", "infantry", 2)])
    assert neighbours_with_enemy_units(board, "Brazil", "Americans") == ["Argentina Chile"]


def test_owned_sea_zones_in_the_rules_sense() -> None:
    german = owned_sea_zones(BOARD, "Germans")
    assert "5 Sea Zone" in german  # the Baltic, next to Germany
    assert "13 Sea Zone" in german  # next to Morocco Algeria (German in 1941)
    assert "53 Sea Zone" not in german


def test_sea_zones_with_friendly_and_enemy_ships() -> None:
    assert ships(BOARD, "5 Sea Zone") == {"Germans": 3}
    assert all(BOARD.catalog.allied("Italians", owner) for owner in ships(BOARD, "5 Sea Zone"))  # friendly to Italy
    assert not any(BOARD.catalog.allied("Russians", owner) for owner in ships(BOARD, "5 Sea Zone"))  # enemy to Russia
    assert ships(BOARD, "12 Sea Zone") == {} or not any(BOARD.catalog.allied("Germans", owner) for owner in ships(BOARD, "12 Sea Zone"))


def test_nearest_reports_ties_instead_of_choosing() -> None:
    # Turkey's navy: both its sea zones are one step away.
    turkey = nearest(BOARD, "Turkey", lambda t: BOARD.is_water(t), via="sea")
    assert turkey == Nearest(1, ("15 Sea Zone", "16 Sea Zone")) and turkey.tied and turkey.unique is None
    sweden = nearest(BOARD, "Sweden", lambda t: BOARD.is_water(t), via="sea")
    assert sweden.unique == "5 Sea Zone"


def test_nearest_over_land_respects_passability_and_finds_nothing_honestly() -> None:
    russian = nearest(BOARD, "Archangel", lambda t: BOARD.owner(t) == "Russians", via="land")
    assert russian.distance == 1 and "Karelia S.S.R." in russian.matches
    nowhere = nearest(BOARD, "Hawaiian Islands", lambda t: BOARD.owner(t) == "Germans", via="land")
    assert nowhere == Nearest(None, ())
    # Through passable land only: Spain is impassable, so Gibraltar reaches France only by sea.
    blocked = nearest(BOARD, "Gibraltar", lambda t: t == "France", via="land", passable=lambda t: not BOARD.node(t)["impassable"])
    assert blocked.matches == ()

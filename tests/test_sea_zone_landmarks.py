"""A numbered sea zone is listed with the coast it lies off (issue 42, "Finding things": 32 sea zones by number only).

Where a map names its sea zones by number alone ("5 Sea Zone"), a host choosing where a ship goes cannot tell one from
another without the map's art; the board says which land each touches. The expectations are read from the game XML
itself (its connections and each territory's production), not through the tool's board.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lxml import etree

from kremlin_triplea.draft.form import place_answers
from kremlin_triplea.rules.names import _has_own_words
from support.drafting import Script, draft, talk
from support.paths import MAPS_DIR

AA50_1941 = MAPS_DIR / "world_war_ii_v3" / "map" / "games" / "WW2v3-1941.xml"
REVISED = MAPS_DIR / "world_war_ii_revised" / "map" / "games"


def coasts_from_xml(path: Path) -> dict[str, list[str]]:
    """Each sea zone's land neighbours, the most valuable first (then by name), as the XML gives them."""
    root = etree.parse(str(path)).getroot()
    water = {t.get("name") for t in root.iter("territory") if t.get("water") == "true"}
    land = {t.get("name") for t in root.iter("territory")} - water
    production = {
        a.get("attachTo"): int(o.get("value"))
        for a in root.iter("attachment")
        if a.get("type") == "territory" and a.get("javaClass", "").endswith("TerritoryAttachment")
        for o in a.iter("option")
        if o.get("name") == "production"
    }
    coasts: dict[str, set[str]] = {zone: set() for zone in water}
    for c in root.iter("connection"):
        one, two = c.get("t1"), c.get("t2")
        if one in water and two in land:
            coasts[one].add(two)
        if two in water and one in land:
            coasts[two].add(one)
    return {zone: sorted(found, key=lambda p: (-production.get(p, 0), p)) for zone, found in coasts.items()}


def test_the_terminals_list_of_sea_zones_says_the_coast_of_each(tmp_path: Path) -> None:
    """000 option 4 (000_bc04a4edf7f7d2ab.txt): the Germans' transports go to a sea zone adjacent to their own
    territory; the list asked for them names each zone with the two most valuable lands it touches."""
    session = draft(tmp_path, [])
    script = Script("4", "transport + transport", "Germans", "?", "quit")
    talk(session, script)
    (listed,) = [line for line in script.said if line.startswith("  choices: ")]
    coasts = coasts_from_xml(AA50_1941)
    shown = dict(re.findall(r"(?:choices: |, )(\d+ Sea Zone) \(off ([^)]*)\)", listed))
    assert len(shown) >= 5, listed
    for zone, off in shown.items():
        assert off == " and ".join(coasts[zone][:2]), zone


@pytest.mark.parametrize("game", sorted(REVISED.glob("*.xml")) + [AA50_1941], ids=lambda p: p.name)
def test_every_numbered_sea_zone_with_a_coast_is_listed_with_it_and_open_sea_as_its_number(tmp_path: Path, game: Path) -> None:
    ruleset = "kremlin-aa50" if game == AA50_1941 else "kremlin-classic"
    state = draft(tmp_path, [], ruleset=ruleset, game=str(game)).state
    coasts = coasts_from_xml(game)
    for zone, coast in coasts.items():
        (answer,) = place_answers(state, [zone])
        if coast:
            assert answer.shown.endswith(f"off {' and '.join(coast[:2])})"), (zone, answer.shown)
        else:
            assert "off " not in answer.shown, (zone, answer.shown)
        assert answer.value == zone and zone in answer.names  # typed as before: the label is only what is shown


@pytest.mark.parametrize(
    ("name", "named"),
    [
        ("5 Sea Zone", False),  # AA50, Classic, Revised
        ("Sea Zone 12", False),
        ("sz12", False),
        ("SZ_5", False),
        ("Sea_Zone_5", False),
        ("SZ 3 Labrador Sea", True),
        ("Sea Zone 1 Hudson Bay", True),  # Domination_1914_No_Mans_Land.xml
        ("SZ28 Gerpisgrunn", True),  # Age_Of_Sturlungs_0.0.2.xml
        ("Bay of Ice Sea Zone", True),  # A_Song_of_Ice_and_Fire.xml
        ("Lower Chesapeake Bay SZ", True),  # Civil_War_Eastern_Campaigns.xml
    ],
)
def test_a_sea_zone_whose_name_says_where_it_is_gets_no_coast_added(name: str, named: bool) -> None:
    assert _has_own_words(name) is named

"""A rule-text unit word is matched to a unit whose engine attributes fit it, or to none (issue 46, item 3).

"armor" was a Commando, a cavalry attacking at 1 or a tank hunter; "infantry" a movement-0 trench or a build order;
"artillery" a fortification that never moves. Over every pinned and corpus game, for the map and for each power's
own units, each matched role is checked here against the game file's unitAttachment, read directly: the
attributes TripleA plays the unit by (land/sea/air, movement, attack/defence, blitz, factory, AA).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from kremlin_triplea.game import load
from kremlin_triplea.rules.roles import ROLES, match_role, plays_role, unit_facts, units_of_power
from support.paths import ALL_GAMES, CORPUS_DIR, each_game


def _attachments(path: Path) -> dict[str, dict[str, str]]:
    root = etree.parse(str(path), etree.XMLParser(huge_tree=True)).getroot()
    return {a.get("attachTo"): {o.get("name"): o.get("value") for o in a.iter("option")} for a in root.iter("attachment") if a.get("name") == "unitAttachment"}


def _int(options: dict[str, str], name: str) -> int:
    try:
        return int(options.get(name) or 0)
    except ValueError:
        return 0


def _true(options: dict[str, str], name: str) -> bool:
    return (options.get(name) or "").lower() == "true"


def contradictions(role: str, options: dict[str, str], bought: bool) -> list[str]:
    """What of the unit's attributes contradicts the rule text's unit of ``role`` (A&A's: 000 and its maps)."""
    sea, air = _true(options, "isSea"), _true(options, "isAir")
    moves, attack, defence = _int(options, "movement"), _int(options, "attack"), _int(options, "defense")
    wrong = []
    if role in ("infantry", "artillery", "armour", "aa") and (sea or air):
        wrong.append("not a land unit")
    if role in ("fighter", "bomber") and not air:
        wrong.append("not an air unit")
    if role in ("transport", "submarine", "destroyer", "cruiser", "carrier", "battleship") and not sea:
        wrong.append("not a sea unit")
    if role not in ("factory", "aa") and moves == 0:
        wrong.append("never moves")
    if role == "aa" and moves == 0 and not bought:
        wrong.append("never moves and nobody buys it")
    if role in ("infantry", "artillery") and attack == 0 and defence == 0:
        wrong.append("neither attacks nor defends")
    if role == "armour" and not (_true(options, "canBlitz") and moves >= 2 and attack >= 2):
        wrong.append(f"not a tank: canBlitz {options.get('canBlitz')}, movement {moves}, attack {attack}")
    if role == "factory" and not (_true(options, "isFactory") or _true(options, "canProduceUnits")):
        wrong.append("produces nothing")
    return wrong


@pytest.mark.parametrize("path", each_game(ALL_GAMES))
def test_every_role_matched_on_a_game_fits_the_unit_s_attributes(path: Path) -> None:
    game = load(path)
    facts = unit_facts(game)
    options = _attachments(path)
    bought = {unit for _, unit in game.catalog.costs}
    pools = [(None, None)] + [(p, units_of_power(game.board, p)) for p in game.catalog.players]
    wrong = []
    for power, among in pools:
        if among is not None and not among:
            continue
        for role in ROLES:
            unit = match_role(role, facts, among).unit
            if unit is not None and (why := contradictions(role, options.get(unit, {}), unit in bought)):
                wrong.append(f"{power or 'the map'}: {role} = {unit}: {', '.join(why)}")
    assert wrong == [], wrong[:10]


@pytest.mark.parametrize(
    ("game", "role", "unit"),
    [
        ("sengokuJidai.xml", "artillery", "Fortification"),  # artillery=true, movement 0
        ("imperialism_1974_board_game.xml", "infantry", "build_fleet"),  # a build order, movement 0
        ("great_war.xml", "armour", "cavalry"),  # blitzes, attacks at 1
        ("the_grand_war.xml", "armour", "tankHunter"),  # blitzes, attacks at 1
    ],
)
def test_profile_check_refuses_a_unit_whose_attributes_contradict_its_role(game: str, role: str, unit: str) -> None:
    """``profile check`` asks plays_role of every [units] entry: these were the matches before, and pass no longer."""
    path = CORPUS_DIR / game
    facts = unit_facts(load(path))
    assert contradictions(role, _attachments(path)[unit], False)
    assert not plays_role(role, unit, facts)
    assert match_role(role, facts).unit != unit

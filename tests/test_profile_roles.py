"""A rule-text unit word is matched to a unit whose engine attributes fit it, or to none (issue 46, item 3).

"armor" was a Commando, a cavalry attacking at 1 or a tank hunter; "infantry" a movement-0 trench or a build order;
"artillery" a fortification that never moves. Over every pinned and corpus game, for the map and for each power's
own units, each matched role is checked here against the game file's unitAttachment, read directly: the
attributes TripleA plays the unit by (land/sea/air, movement, attack/defence, blitz, factory, AA).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kremlin_triplea.game import load
from kremlin_triplea.rules.roles import ROLES, match_role, plays_role, unit_facts, units_of_power
from support.paths import ALL_GAMES, CORPUS_DIR, each_game
from support.unit_roles import engine_unit_options, role_contradictions


@pytest.mark.parametrize("path", each_game(ALL_GAMES))
def test_every_role_matched_on_a_game_fits_the_unit_s_attributes(path: Path) -> None:
    game = load(path)
    facts = unit_facts(game)
    options, supporters = engine_unit_options(path)
    bought = {unit for _, unit in game.catalog.costs}
    pools = [(None, None)] + [(p, units_of_power(game.board, p)) for p in game.catalog.players]
    wrong = []
    for power, among in pools:
        if among is not None and not among:
            continue
        for role in ROLES:
            unit = match_role(role, facts, among).unit
            if unit is not None and (why := role_contradictions(role, unit, options, supporters, unit in bought)):
                wrong.append(f"{power or 'the map'}: {role} = {unit}: {', '.join(why)}")
    assert wrong == [], wrong[:10]


@pytest.mark.parametrize(
    ("game", "role", "unit"),
    [
        ("sengokuJidai.xml", "artillery", "Fortification"),  # artillery=true, movement 0
        ("imperialism_1974_board_game.xml", "infantry", "build_fleet"),  # a build order, movement 0
        ("great_war.xml", "armour", "cavalry"),  # blitzes, attacks at 1
        ("the_grand_war.xml", "armour", "tankHunter"),  # blitzes, attacks at 1
        ("Pacific_Theater_Solo_Challenge.xml", "transport", "destroyer"),  # carries a marine, but a warship that bombards
    ],
)
def test_profile_check_refuses_a_unit_whose_attributes_contradict_its_role(game: str, role: str, unit: str) -> None:
    """``profile check`` asks plays_role of every [units] entry: these were the matches before, and pass no longer."""
    path = CORPUS_DIR / game
    facts = unit_facts(load(path))
    options, supporters = engine_unit_options(path)
    assert role_contradictions(role, unit, options, supporters, False)
    assert not plays_role(role, unit, facts)
    assert match_role(role, facts).unit != unit

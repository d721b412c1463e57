"""Option 9's what-if scenarios of 001_e336cdee7ef3c243.txt and 002_1340f5a289b0c2db.txt on each target game, with the exact change.

The three classic games start from the same setup (test_rules_classic.py), so
one expected change per scenario serves every target game of its ruleset.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kremlin_triplea.draft.rulesets import load_named_ruleset
from kremlin_triplea.errors import RuleViolation
from support.aa50 import delta
from support.classic import KREMLIN, RULESET_GAMES, TARGETS, game_id, pick, run_for

G, J, B, R, A = "Germans", "Japanese", "British", "Russians", "Americans"

EXPECTED = {
    "no-russian-purge": {"Russia": {"units": {(R, "infantry"): 3}}, "Novosibirsk": {"units": {(R, "infantry"): 2}}},
    # "Remaining German forces are retreated to Sweden": Sweden is still neutral, so they are interned, out of the
    # game (docs/kremlin-draft.md): no German units in neutral Sweden, none left in Russian Finland/Norway.
    "winter-war": {
        "Finland Norway": {"owner": (G, R), "units": {(G, "infantry"): -3, (G, "armour"): -1, (G, "fighter"): -1, (R, "infantry"): 1}},
    },
    "south-american-powers": {
        "Brazil": {"owner": (A, G), "units": {(G, "infantry"): 2}},
        # An unowned territory captured gets its taker as original owner (the board's rule): Argentina joins.
        "Argentina-Chile": {"owner": (None, G), "original_owner": (None, G), "units": {(G, "infantry"): 2}},
        "South Argentina Sea Zone": {"units": {(G, "transport"): 1, (G, "battleship"): 1}},
    },
    "italian-navy": {
        "West Mediteranean Sea Zone": {"units": {(B, "battleship"): -1}},
        "East Mediteranean Sea Zone": {"units": {(B, "submarine"): -1}},
        "Central Mediteranean Sea Zone": {"units": {(G, "submarine"): 1}},
    },
    "syria-iraq": {
        "Syria Jordan": {"owner": (B, G), "units": {(B, "infantry"): -1, (G, "infantry"): 1}},
        "Madagascar": {"owner": (B, G), "units": {(G, "infantry"): 1}},
        "Italian East Africa": {"owner": (B, G), "units": {(G, "infantry"): 1}},
        "East Mediteranean Sea Zone": {"units": {(B, "submarine"): -1}},
        "Red Sea Zone": {"units": {(B, "submarine"): 1}},
    },
    "se-pacific": {
        "East Indies": {"owner": (J, B), "units": {(J, "infantry"): -1, (B, "infantry"): 2}},
        "New Guinea": {"owner": (J, B), "units": {(J, "infantry"): -1}},
        "Borneo Celebes": {"owner": (J, B), "units": {(J, "infantry"): -1}},
        "Solomon Islands": {"owner": (J, B), "units": {(J, "infantry"): -1}},
        "East Indies Sea Zone": {"units": {(B, "battleship"): 1}},
    },
    "south-africa": {"South Africa": {"units": {(B, "infantry"): 3, (B, "armour"): 1, (B, "factory"): 1, (B, "aaGun"): 1}}},
    "australia": {
        "Australia": {"units": {(B, "infantry"): 2, (B, "factory"): 1, (B, "aaGun"): 1}},
        "South Australia Sea Zone": {"units": {(B, "transport"): 1}},
        "New Zealand": {"units": {(B, "infantry"): 1}},
    },
    "pearl-harbor": {
        "Solomon Islands Sea Zone": {"units": {(J, "submarine"): 1}},
        "Hawaii Sea Zone": {"units": {(A, "carrier"): -1, (A, "fighter"): -1}},
        "Hawaiian Islands": {"owner": (A, J), "units": {(A, "infantry"): -1}},
    },
    "sw-pacific": {
        "Australia": {"owner": (B, J), "units": {(B, "infantry"): -2, (J, "infantry"): 2}},
        "North Australia Sea Zone": {"units": {(J, "carrier"): 1, (J, "fighter"): 1}},
    },
    "china-joins-japan": {
        "China": {"owner": (A, J), "units": {(A, "infantry"): -2, (A, "fighter"): -1, (J, "infantry"): 1}},
        "Sinkiang": {"owner": (A, J), "units": {(A, "infantry"): -2, (J, "infantry"): 1}},
        "Karelia S.S.R.": {"units": {(A, "fighter"): 1}},
    },
    "indian-ocean": {
        "Madagascar": {"owner": (B, J), "units": {(J, "infantry"): 1}},
        "West Compass Sea Zone": {"units": {(J, "transport"): 1, (J, "submarine"): 1}},
        "Indian Ocean Sea Zone": {"units": {(B, "transport"): -1}},
        "India": {"units": {(B, "infantry"): -1}},
    },
    "pacific-initiative": {
        "Wake Island": {"owner": (J, A), "units": {(J, "infantry"): -1, (A, "infantry"): 2}},
        "Philippines": {"owner": (J, A), "units": {(J, "infantry"): -2, (J, "fighter"): -1, (A, "infantry"): 2}},
        "Japan": {"units": {(J, "fighter"): 1}},
        "Hawaii Sea Zone": {"units": {(A, "submarine"): 2}},
        "Wake Island Sea Zone": {"units": {(A, "transport"): 1}},
    },
    "west-africa": {
        "Algeria": {"owner": (G, A), "units": {(G, "infantry"): -1, (A, "infantry"): 2}},
        "Libya": {"units": {(G, "infantry"): 1}},
        "French West Africa": {"units": {(A, "infantry"): 2}},
        "West Africa Sea Zone": {"units": {(A, "transport"): 2, (A, "submarine"): 1}},
    },
    "mobilizes": {
        "East US": {"units": {(A, "infantry"): 2}},
        "West US": {"units": {(A, "infantry"): 2, (A, "armour"): 1}},
        "Brazil": {"units": {(A, "infantry"): 1}},
        "Alaska Sea Zone": {"units": {(A, "submarine"): 1}},
        "Gulf of Mexico Sea Zone": {"units": {(A, "transport"): 1}},
    },
}

# 002 keeps ten of 001's fifteen ("...OR..." lists by power).
ONLY_IN_001 = {"winter-war", "syria-iraq", "australia", "indian-ocean", "mobilizes"}
CASES = [(ruleset, game, scenario.id) for ruleset, game in RULESET_GAMES for scenario in load_named_ruleset(ruleset).scenarios]


def test_each_ruleset_has_its_texts_scenarios() -> None:
    assert {s.id for s in load_named_ruleset("kremlin-classic").scenarios} == set(EXPECTED)
    assert {s.id for s in load_named_ruleset("kremlin-daak").scenarios} == set(EXPECTED) - ONLY_IN_001
    for name in TARGETS:
        for scenario in load_named_ruleset(name).scenarios:
            assert scenario.side == ("Axis" if scenario.power in ("Germany", "Japan") else "Allies"), scenario.id


@pytest.mark.parametrize(("ruleset", "game", "scenario"), CASES, ids=[f"{r}-{game_id(g)}-{s}" for r, g, s in CASES])
def test_scenario_changes_exactly_what_the_text_says(ruleset: str, game: Path, scenario: str) -> None:
    found = next(s for s in load_named_ruleset(ruleset).scenarios if s.id == scenario)
    run = run_for(ruleset, game, found.side)
    outcome = pick(run, found.side, 9, scenario=found.title)
    assert delta(run.game.initial, run.game.board) == EXPECTED[scenario]
    assert outcome.lines[0].startswith(found.title)


def test_a_scenario_involving_a_place_the_other_side_affected_is_refused() -> None:
    # 001 2. option 9: "a scenerio may not be chosen if the opposing side has affected a territory or seazone involved in the scenerio"
    run = run_for("kremlin-classic", Path(RULESET_GAMES[0][1]), "Axis")
    pick(run, "Axis", 5, place=[{"power": "Japan", "unit": "bomber", "at": "Philippines"}])
    with pytest.raises(RuleViolation) as error:
        pick(run, "Allies", 9, scenario="USA takes the initiative in the Pacific")
    assert "Philippines is locked by the Axis' pick 1" in str(error.value)
    assert "a scenerio may not be chosen if the opposing side has affected a territory or seazone involved in the scenerio" in str(error.value)


@pytest.mark.parametrize("ruleset", ["kremlin-classic", "kremlin-daak"])
def test_a_scenario_of_the_other_side_is_refused_quoting_the_heading_it_stands_under(ruleset: str) -> None:
    # 001/002 list the scenarios under their power's heading: "JAPAN SCENARIOS Pearl Harbor goes better than
    # expected..." decides that the Allies may not pick it (not the RUSSIAN SCENARIOS heading, issue 12).
    run = run_for(ruleset, RULESET_GAMES[-1][1] if ruleset == "kremlin-daak" else KREMLIN, "Allies")
    with pytest.raises(RuleViolation) as error:
        pick(run, "Allies", 9, scenario="Pearl Harbor goes better than expected")
    message = str(error.value)
    assert "'Pearl Harbor goes better than expected' is one of the JAPAN SCENARIOS, a scenario for the Axis, not the Allies" in message
    assert "RUSSIAN" not in message
    assert 'rule: "Pearl Harbor goes better than expected...' in message
    run = run_for(ruleset, RULESET_GAMES[-1][1] if ruleset == "kremlin-daak" else KREMLIN, "Axis")
    with pytest.raises(RuleViolation, match="'No Russian Purge' is one of the RUSSIAN SCENARIOS, a scenario for the Allies, not the Axis"):
        pick(run, "Axis", 9, scenario="No Russian Purge")


def test_winter_war_after_the_ussr_took_sweden_interns_the_german_forces() -> None:
    """001: "a territory or seazone affected by a bonus option may be affected by other bonus options from that same side";
    Sweden taken by the USSR first, the German forces cannot retreat into it: interned, never beside the Russians."""
    ruleset, game = RULESET_GAMES[0]
    run = run_for(ruleset, game, "Allies")
    pick(run, "Allies", 2, take=[{"neutral": "Sweden", "by": "USSR"}, {"neutral": "Eire", "by": "UK"}])
    pick(run, "Axis", 1, place=[{"power": "Germany", "unit": "infantry", "count": 3, "at": "Germany"}])
    before = run.game.board.copy()
    outcome = pick(run, "Allies", 9, scenario="USSR crushes Finland in Winter War")
    assert "Sweden" not in delta(before, run.game.board)
    assert any("interned, out of the game" in line for line in outcome.lines)

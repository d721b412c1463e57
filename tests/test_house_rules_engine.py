"""House-rule sets written into real games and read back by the real TripleA engine (one JVM for all).

For every rule the set writes, the engine is asked what it sees: the canal and
who may cross it (the engine's own move validator), the objective and its
conditions, the price, the technology, the research price, the trigger, the
property, the units. Expected values are the seeds' (003, 004), not our output.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kremlin_triplea.game import load
from kremlin_triplea.gamerules.house import house_rule_changes
from kremlin_triplea.rules.house_rules import HouseChoices
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.profile import profile_for_game
from support.paths import AA50_1941, AA50_1942, MAPS_DIR

pytestmark = pytest.mark.engine

REVISED = MAPS_DIR / "world_war_ii_revised" / "map" / "games" / "ww2v2.xml"
CLASSIC = MAPS_DIR / "world_war_ii_classic" / "map" / "games" / "classic.xml"
KREMLIN = MAPS_DIR / "classic_variations" / "map" / "games" / "kremlin.xml"

CASES = {
    # 004 on AA50 1941: the expressible advantages of three powers.
    "aa50-1941": (
        AA50_1941,
        HouseChoices(
            "house-revised",
            advantages={"Germany": "german-scientists", "UK": "colonial-garrison", "USA": "war-economy"},
            values={"colonial_garrison_at": "India"},
        ),
    ),
    "aa50-1942": (AA50_1942, HouseChoices("house-revised", advantages={"UK": "radar", "USA": "fast-carriers"}, switches={"uk_infantry_to_gibraltar": False})),
    "revised": (REVISED, HouseChoices("house-revised", advantages={"Germany": 6, "Japan": "most-powerful-battleships", "USA": "mechanized-infantry"})),
    # 003 with the neutral territories, and advantages of every power.
    "classic": (
        CLASSIC,
        HouseChoices(
            "house-classic",
            advantages={
                "USSR": "far-eastern",
                "Germany": "allied-neutral",
                "UK": "naval-production",
                "Japan": "long-range-aircraft",
                "USA": "hawaiian-fighter",
            },
            values={"neutral": "Spain"},
        ),
    ),
    # 003 without them: the allied neutral brings its own army.
    "kremlin": (
        KREMLIN,
        HouseChoices(
            "house-classic",
            switches={"neutral_territories": False},
            advantages={"USSR": "non-purged-armor", "Germany": "allied-neutral", "UK": "dominion", "Japan": "infantry", "USA": "industrial"},
            values={"USSR.at": "Karelia", "neutral": "Sweden", "UK.at": "India", "sea_at": "Indian Ocean Sea Zone"},
        ),
    ),
}


def write(case: str, folder: Path) -> tuple[Path, object]:
    path, choices = CASES[case]
    game = load(path)
    profile = profile_for_game(game)
    names = Names(game.board, profile, ("Axis", "Allies"))
    applied, _ = house_rule_changes(game.board, profile, names, [choices])
    game.board.push_all(list(applied.changes))
    out = folder / f"{case}.xml"
    game.save(out)
    return out, game


@pytest.fixture(scope="module")
def seen(tmp_path_factory, engine_readings):
    folder = tmp_path_factory.mktemp("house")
    written = {case: write(case, folder) for case in CASES}
    # The games as they were, which the tests compare with, are read in the same JVM (or were, by another module).
    readings = engine_readings.read([*(path for path, _ in written.values()), *(path for path, _ in CASES.values())])[: len(written)]
    for reading in readings:
        assert reading.ok and not reading.dtd_errors, (reading.file, reading.error, reading.dtd_errors)
    return {case: reading for case, reading in zip(written, readings)}


def crossing(reading, a: str, b: str, power: str, unit: str) -> bool:
    return reading.rules["crossings"]["|".join(sorted((a, b)))][power][unit]


@pytest.mark.parametrize("case", ["aa50-1941", "revised"])
def test_hr1_to_hr3_straits_block_what_the_rules_block(seen, case: str) -> None:
    r = seen[case]
    # HR1: no sea unit in or out of the Black Sea, for anyone; air passes.
    for a in ("14 Sea Zone", "15 Sea Zone"):
        for power in ("Germans", "British", "Russians"):
            assert not crossing(r, a, "16 Sea Zone", power, "battleship")
            assert not crossing(r, a, "16 Sea Zone", power, "submarine")
            assert crossing(r, a, "16 Sea Zone", power, "fighter")
    # HR2: surface ships need (an ally holding) Northwest Europe; submarines pass.
    assert crossing(r, "5 Sea Zone", "6 Sea Zone", "Germans", "battleship")
    assert not crossing(r, "5 Sea Zone", "6 Sea Zone", "British", "battleship")
    assert crossing(r, "5 Sea Zone", "6 Sea Zone", "British", "submarine")
    # HR3: Gibraltar's owner's side sails through; the enemy's submarines and planes too.
    assert crossing(r, "12 Sea Zone", "13 Sea Zone", "Americans", "transport")
    assert not crossing(r, "12 Sea Zone", "13 Sea Zone", "Germans", "destroyer")
    assert crossing(r, "12 Sea Zone", "13 Sea Zone", "Germans", "submarine")


def test_hr3_set_up_move_and_its_switch(seen, engine_readings) -> None:
    base41, base42 = engine_readings.read([AA50_1941, AA50_1942])
    moved, kept = seen["aa50-1941"], seen["aa50-1942"]
    assert moved.territories["Gibraltar"].units[("British", "infantry")] == base41.territories["Gibraltar"].units.get(("British", "infantry"), 0) + 1
    assert moved.territories["United Kingdom"].units[("British", "infantry")] == base41.territories["United Kingdom"].units[("British", "infantry")] - 1
    assert kept.territories["Gibraltar"].units == base42.territories["Gibraltar"].units


def test_hr4_hr5_properties(seen) -> None:
    for case in ("aa50-1941", "revised"):
        props = seen[case].properties
        assert props["LHTR Heavy Bombers"] == "true" and props["Heavy Bomber Dice Rolls"] == "2"
        assert props["Raids May Be Preceeded By Air Battles"] == "true"


@pytest.mark.parametrize("case", ["aa50-1941", "aa50-1942"])
def test_hr8_to_hr10_objectives_pay_5_only_with_the_added_condition(seen, case: str) -> None:
    r = seen[case]
    assert r.properties["National Objectives"] == "true"
    expected = {
        "Russians": ("HrEightSoviet", ["Americans", "British", "Chinese"], "allied_exclusion", ["controlled"]),
        "Germans": ("HrTenGerman", ["Germans", "Italians"], "allied_exclusion", ["controlled"]),
    }
    for power in ("Russians", "Germans", "Japanese"):
        conditions = r.rules["players"][power]["conditions"]
        assert conditions["objectiveAttachment1"]["objective_value"] == 0  # the game's line pays through the amended one
        (new,) = [n for n in conditions if n.startswith("objectiveAttachmentKremlin")]
        assert conditions[new]["objective_value"] == 5
        base, *added = conditions[new]["conditions"]
        # The game's objective, copied under a name no other power has: TripleA resolves a condition
        # name to the first player holding an attachment of that name (every power has an objectiveAttachment1).
        others = {n for p, player in r.rules["players"].items() if p != power for n in player["conditions"]}
        assert base not in others and all(n not in others for n in added) and len(added) == 1
        assert {k: v for k, v in conditions[base].items() if k != "objective_value"} == {
            k: v for k, v in conditions["objectiveAttachment1"].items() if k != "objective_value"
        }
        condition = conditions[added[0]]
        if power == "Japanese":
            # No Japanese unit in any original Soviet territory.
            assert condition["players"] == ["Japanese"]
            assert {"Russia", "Archangel", "Buryatia S.S.R.", "Soviet Far East"} <= set(condition["direct_exclusion"])
            assert "Manchuria" not in condition["direct_exclusion"]
        else:
            assert condition["players"] == expected[power][1]
            assert condition["allied_exclusion"] == ["controlled"]
    del expected


def test_004_advantages_written(seen, engine_readings) -> None:
    base41, base_revised = engine_readings.read([AA50_1941, REVISED])
    r = seen["aa50-1941"]
    players = r.rules["players"]
    assert players["Germans"]["tech_cost"] == 4 and players["Italians"]["tech_cost"] == 5
    assert seen["revised"].rules["players"]["Germans"]["tech_cost"] == 4
    # War Economy: each American sea and air unit 1 less, nothing else, nobody else.
    before, after = base41.rules["players"]["Americans"]["prices"], players["Americans"]["prices"]
    for unit in before:
        sea_or_air = unit in {"battleship", "carrier", "cruiser", "destroyer", "submarine", "transport", "fighter", "bomber"}
        assert after[unit] == before[unit] - (1 if sea_or_air else 0), unit
    assert players["British"]["prices"] == base41.rules["players"]["British"]["prices"]
    # Colonial Garrison: a factory in the chosen tan territory.
    assert r.territories["India"].units[("British", "factory")] == base41.territories["India"].units.get(("British", "factory"), 0) + 1
    # Radar: the UK's own technology, by trigger from the game's first step (not the built-in Radar, whose HR5 fighter
    # bonus the text does not give); test_house_rules_positions.py checks its AA guns hit on 1 or 2.
    assert "AA Radar" not in seen["aa50-1942"].rules["players"]["British"]["techs"]


def test_003_neutral_territories(seen, engine_readings) -> None:
    base = engine_readings.read([CLASSIC])[0]
    r = seen["classic"]
    assert r.properties["neutralCharge"] == "0" and r.properties["Neutrals Are Impassable"] == "false"
    assert r.territories["Turkey"].owner is None
    assert r.territories["Turkey"].units == {(None, "infantry"): 2, (None, "armour"): 1}
    assert r.territories["Switzerland"].units == {(None, "infantry"): 2, (None, "fighter"): 1}
    # Sweden's transport: its only coast, the Baltic, holds German ships, so "placed anyway".
    assert r.territories["Baltic Sea Zone"].units[(None, "transport")] == 1
    # Argentina-Chile's: the first of its coasts without ships.
    assert r.territories["East Argentina Sea Zone"].units[(None, "transport")] == 1
    # Spain is the Allied Neutral Advantage's here: German, with the army the neutral rule gave it.
    assert r.territories["Spain"].owner == "Germans"
    assert r.territories["Spain"].units == {("Germans", "infantry"): 3, ("Germans", "armour"): 1}
    assert r.pus["Germans"] == base.pus["Germans"] + 8 - 4  # the Axis bonus at the start; Spain's IPC value paid
    assert r.pus["Japanese"] == base.pus["Japanese"] + 4


def test_003_rules_written(seen) -> None:
    for case in ("classic", "kremlin"):
        r = seen[case]
        props = r.properties
        assert props["Axis Economic Victory"] == ("100" if case == "classic" else "84")
        # 003 Winning: the Allies win only by capitals: their economic threshold is out of reach.
        assert int(props["Allies Economic Victory"]) > 175 and props["Economic Victory"] == "true"
        assert props["Movement By Territory Restricted"] == "true"  # Soviets may not attack in round 1
        assert props["Unit Placement In Enemy Seas"] == "true"
        assert props["Naval Bombard Casualties Return Fire"] == "false"
        assert props["Partial Amphibious Retreat"] == "true" and props["Attacker Retreat Planes"] == "true"
        triggers = r.rules["players"]["Germans"]["triggers"]
        (bonus,) = [t for n, t in triggers.items() if "Kremlin" in n]
        assert bonus["resource"] == "PUs" and bonus["resource_count"] == 8 and bonus["uses"] == 1 and bonus["when"] == ["after:germanEndTurn"]
        (japan,) = [t for n, t in r.rules["players"]["Japanese"]["triggers"].items() if "Kremlin" in n]
        assert japan["resource_count"] == 4 and japan["when"] == ["after:japaneseEndTurn"]
        # Straits: Gibraltar closes only to a side holding neither shore (British Gibraltar, German Algeria: open to both).
        assert crossing(r, "West Spain Sea Zone", "West Mediteranean Sea Zone", "Germans", "battleship")
        assert crossing(r, "West Spain Sea Zone", "West Mediteranean Sea Zone", "British", "battleship")
        # Neutral Turkey forbids surface ships; submarines and planes pass.
        for a in ("Central Mediteranean Sea Zone", "East Mediteranean Sea Zone"):
            assert not crossing(r, a, "Black Sea Zone", "Germans", "transport") and not crossing(r, a, "Black Sea Zone", "British", "battleship")
            assert crossing(r, a, "Black Sea Zone", "British", "submarine") and crossing(r, a, "Black Sea Zone", "Germans", "fighter")
        if case == "classic":
            # No canal at the Swedish strait (Sweden neutral lets both sides through).
            assert "Baltic Sea Zone|North Sea Zone" not in r.rules["crossings"]
        else:
            # Sweden is Germany's allied neutral: Germany holds both shores and closes the strait to the Allies.
            assert crossing(r, "Baltic Sea Zone", "North Sea Zone", "Germans", "battleship")
            assert not crossing(r, "Baltic Sea Zone", "North Sea Zone", "British", "battleship")
            assert crossing(r, "Baltic Sea Zone", "North Sea Zone", "British", "submarine")


def test_003_advantages_written(seen, engine_readings) -> None:
    base_classic, base_kremlin = engine_readings.read([CLASSIC, KREMLIN])
    c, k = seen["classic"], seen["kremlin"]
    for place in ("Kazakh S.S.R.", "Novosibirsk", "Evenki National Okrug", "Yakut S.S.R."):
        assert c.territories[place].units[("Russians", "infantry")] == base_classic.territories[place].units.get(("Russians", "infantry"), 0) + 1
    uk = c.rules["players"]["British"]["prices"]
    assert (uk["battleship"], uk["carrier"], uk["submarine"], uk["transport"]) == (20, 15, 7, 7)  # 20% less, rounded up
    assert uk["fighter"] == base_classic.rules["players"]["British"]["prices"]["fighter"]
    assert "Long Range Aircraft" in c.rules["players"]["Japanese"]["techs"]
    assert c.territories["Hawaii Sea Zone"].units[("Americans", "fighter")] == 2
    # Without the neutral rule: Sweden joins Germany with the table's army; Germany pays 3.
    assert k.territories["Sweden"].owner == "Germans"
    assert k.territories["Sweden"].units == {("Germans", "infantry"): 2}
    assert k.territories["Baltic Sea Zone"].units[("Germans", "transport")] == base_kremlin.territories["Baltic Sea Zone"].units[("Germans", "transport")] + 1
    assert k.pus["Germans"] == base_kremlin.pus["Germans"] + 8 - 3
    assert k.territories["Karelia S.S.R."].units[("Russians", "armour")] == base_kremlin.territories["Karelia S.S.R."].units[("Russians", "armour")] + 3
    assert k.territories["India"].units[("British", "infantry")] == base_kremlin.territories["India"].units[("British", "infantry")] + 2
    assert (
        k.territories["Indian Ocean Sea Zone"].units[("British", "submarine")]
        == base_kremlin.territories["Indian Ocean Sea Zone"].units.get(("British", "submarine"), 0) + 1
    )
    for place in ("Manchuria", "Kwangtung", "French Indo China"):
        assert k.territories[place].units[("Japanese", "infantry")] == base_kremlin.territories[place].units[("Japanese", "infantry")] + 2
    assert "Industrial Technology" in k.rules["players"]["Americans"]["techs"]
    assert k.territories["Turkey"].units == {}  # no neutral armies without the rule


def test_power_technologies_keep_research_as_it_was_and_wait_for_their_trigger(seen, engine_readings) -> None:
    """Writing out TripleA's own technology list changes nobody's research; the power's tech comes by trigger."""
    base42, base_revised = engine_readings.read([AA50_1942, REVISED])
    for base, case, power, tech in (
        (base42, "aa50-1942", "Americans", "fastCarriers"),
        (base42, "aa50-1942", "British", "ukRadar"),
        (base_revised, "revised", "Americans", "usMechanizedInfantry"),
        (base_revised, "revised", "Japanese", "mostPowerfulBattleships"),
    ):
        players = seen[case].rules["players"]
        for name, player in players.items():
            assert player["research"] == base.rules["players"][name]["research"], (case, name)
            assert tech not in [t for techs in player["research"].values() for t in techs]
        (trigger,) = [t for t in players[power]["triggers"].values() if t["techs"] == [tech]]
        assert trigger["uses"] == 1 and trigger["players"] == [power]
        assert seen[case].properties["Use Triggers"] == "true"

"""Option 11: the twelve what-if scenarios of 000_bc04a4edf7f7d2ab.txt on both AA50 games.

Each scenario's exact change to the base board, the seed's 1942 clauses, the
mismatches the map profile decides (and apply reports), the lock against the
other side and the one-scenario-per-side rule.
"""

from __future__ import annotations

import pytest

from kremlin_triplea.draft.rulesets import load_named_ruleset
from kremlin_triplea.errors import RuleViolation, UnknownNameError
from support.aa50 import GAMES, SEED, delta, pick, run_for

RULESET = load_named_ruleset("kremlin-aa50")
LOCK_RULE = "a scenario may not be chosen if the opposing side has affected a territory or sea zone involved in the scenario with a bonus option"
ONE_PER_SIDE = "(Please note that as with any other bonus option, only one special scenario may be chosen by each player)"

UK, GER, ITA, JAP, RUS, USA, CHI = "British", "Germans", "Italians", "Japanese", "Russians", "Americans", "Chinese"


def captured(old: str, new: str) -> dict:
    # A capture keeps the original owner (it equals the old owner in every case here).
    return {"owner": (old, new)}


# Expected deltas per scenario and game: 000_bc04a4edf7f7d2ab.txt, option 11.
EXPECTED = {
    # Axis 1: "Place two German infantry on Gibraltar...UK naval forces in Seazone 12 are destroyed."
    ("Operation Felix", "1941"): {
        "Gibraltar": {**captured(UK, GER), "units": {(GER, "infantry"): 2}},
        "12 Sea Zone": {"units": {(UK, "cruiser"): -1, (UK, "destroyer"): -1}},
    },
    # Axis 2: Syria/Iraq is Trans-Jordan (profile); Italian Africa and French Madagascar are British and empty.
    ("Germany launches Paratrooper Assault on Syria/Iraq", "1941"): {
        "Trans-Jordan": {**captured(UK, GER), "units": {(UK, "infantry"): -2, (GER, "infantry"): 1}},
        "Italian Africa": {**captured(UK, ITA), "units": {(ITA, "infantry"): 1}},
        "French Madagascar": {**captured(UK, GER), "units": {(GER, "infantry"): 1}},
    },
    ("Germany launches Paratrooper Assault on Syria/Iraq", "1942"): {
        "Trans-Jordan": {**captured(UK, GER), "units": {(UK, "infantry"): -1, (UK, "artillery"): -1, (GER, "infantry"): 1}},
        "Italian Africa": {**captured(UK, ITA), "units": {(ITA, "infantry"): 1}},
        "French Madagascar": {**captured(UK, GER), "units": {(GER, "infantry"): 1}},
    },
    # Axis 3: "Remove one UK fighter and UK bomber from United Kingdom."
    ("Germany gains advantage in air war over Britain", "1941"): {
        "United Kingdom": {"units": {(UK, "fighter"): -1, (UK, "bomber"): -1}},
    },
    # Axis 4: 1941 moves the carrier and its fighter from 44 to 53; the 1942 clause removes them from 53.
    ("Carrier force at Pearl Harbor", "1941"): {
        "44 Sea Zone": {"units": {(USA, "carrier"): -1, (USA, "fighter"): -1}},
        "53 Sea Zone": {"units": {(USA, "carrier"): 1, (USA, "fighter"): 1}},
    },
    ("Carrier force at Pearl Harbor", "1942"): {
        "53 Sea Zone": {"units": {(USA, "carrier"): -1, (USA, "fighter"): -1}},
    },
    # Axis 5: "Japan takes Buryatia S.S.R. with one infantry and one artillery...Russian units destroyed."
    ("Japan attacks on Russia go well", "1941"): {
        "Buryatia S.S.R.": {**captured(RUS, JAP), "units": {(RUS, "infantry"): -3, (JAP, "infantry"): 1, (JAP, "artillery"): 1}},
    },
    # Axis 6: Ningxia is empty in 1941 (nothing to destroy), 1 Chinese infantry in 1942.
    ("Japan offensive against China goes well", "1941"): {
        "Suiyuan": {**captured(CHI, JAP), "units": {(CHI, "infantry"): -1, (JAP, "infantry"): 1}},
        "Ningxia": {**captured(CHI, JAP), "units": {(JAP, "infantry"): 1}},
    },
    ("Japan offensive against China goes well", "1942"): {
        "Suiyuan": {**captured(CHI, JAP), "units": {(CHI, "infantry"): -2, (JAP, "infantry"): 1}},
        "Ningxia": {**captured(CHI, JAP), "units": {(CHI, "infantry"): -1, (JAP, "infantry"): 1}},
    },
    # Allies 1: "Place two Russian infantry and an artillery in both Kazakh S.S.R. and Novosibirsk."
    ("No Russian Purge", "1941"): {
        "Kazakh S.S.R.": {"units": {(RUS, "infantry"): 2, (RUS, "artillery"): 1}},
        "Novosibirsk": {"units": {(RUS, "infantry"): 2, (RUS, "artillery"): 1}},
    },
    # Allies 2: "Place one Russian infantry and one tank in Finland, German units destroyed."
    ("USSR crushes Finland in Winter War", "1941"): {
        "Finland": {**captured(GER, RUS), "units": {(GER, "infantry"): -2, (RUS, "infantry"): 1, (RUS, "armour"): 1}},
    },
    # Allies 3: the 1942 clause removes the German infantry (there is no German artillery in Libya in 1942).
    ("German paratrooper assault on Crete fails", "1941"): {
        "14 Sea Zone": {"units": {(ITA, "cruiser"): -1}},
        "Libya": {"units": {(GER, "artillery"): -1}},
        "35 Sea Zone": {"units": {(UK, "destroyer"): 1}},
    },
    ("German paratrooper assault on Crete fails", "1942"): {
        "14 Sea Zone": {"units": {(ITA, "cruiser"): -1}},
        "Libya": {"units": {(GER, "infantry"): -1}},
        "35 Sea Zone": {"units": {(UK, "destroyer"): 1}},
    },
    # Allies 4: "Remove one German submarine from each Seazone 5 and 7 and add a UK transport to Seazone 2."
    ("Enigma decoded earlier", "1941"): {
        "5 Sea Zone": {"units": {(GER, "submarine"): -1}},
        "7 Sea Zone": {"units": {(GER, "submarine"): -1}},
        "2 Sea Zone": {"units": {(UK, "transport"): 1}},
    },
    # Allies 5: "Place a submarine and a transport in Seazone 20, a tank and an artillery in Western USA, and one infantry in Brazil."
    ("Early USA Mobilization", "1941"): {
        "20 Sea Zone": {"units": {(USA, "submarine"): 1, (USA, "transport"): 1}},
        "Western United States": {"units": {(USA, "armour"): 1, (USA, "artillery"): 1}},
        "Brazil": {"units": {(USA, "infantry"): 1}},
    },
    # Allies 6: "Add one infantry, one artillery, one aagun, and one fighter to Yunnan...these units are considered Chinese units"
    ("More US support to China", "1941"): {
        "Yunnan": {"units": {(CHI, "infantry"): 1, (CHI, "artillery"): 1, (CHI, "aaGun"): 1, (CHI, "fighter"): 1}},
    },
}
# Scenarios whose text applies unchanged to 1942: the same delta.
for (title, year), expected in list(EXPECTED.items()):
    if year == "1941" and (title, "1942") not in EXPECTED:
        EXPECTED[(title, "1942")] = expected

CASES = sorted(EXPECTED)


def test_the_ruleset_has_the_seeds_twelve_scenarios_six_per_side() -> None:
    by_side = {side: [s.title for s in RULESET.scenarios if s.side == side] for side in RULESET.sides}
    assert len(by_side["Axis"]) == len(by_side["Allies"]) == 6
    assert {title for title, _ in EXPECTED} == {s.title for s in RULESET.scenarios}
    for scenario in RULESET.scenarios:
        side = "Axis" if scenario.side == "Axis" else "Allied"
        assert scenario.source == f"{SEED}, option 11, {side} scenario {scenario.number}"


@pytest.mark.parametrize("title,year", CASES)
def test_each_scenario_changes_exactly_what_the_rule_says(title: str, year: str) -> None:
    scenario = next(s for s in RULESET.scenarios if s.title == title)
    run = run_for(GAMES[year], scenario.side)
    before = run.game.board.copy()
    outcome = pick(run, scenario.side, 11, scenario=title.upper())  # titles match in any case
    assert delta(before, run.game.board) == EXPECTED[(title, year)]
    assert outcome.lines[0] == f"{title} ({scenario.source})"
    # Every captured territory keeps its original owner, so TripleA treats it as conquered.
    for place, change in EXPECTED[(title, year)].items():
        if "owner" in change:
            assert run.game.board.node(place)["original_owner"] == change["owner"][0]


@pytest.mark.parametrize(
    "title,year,report",
    [
        ("German paratrooper assault on Crete fails", "1942", "no German artillery in Libya in 1942: removed the German infantry, as the 1942 clause says"),
        (
            "German paratrooper assault on Crete fails",
            "1942",
            "1942 version: If this scenerio is chosen in the 1942 version remove the German infantry from Libya.",
        ),
        ("German paratrooper assault on Crete fails", "1941", "Crete is not on this map: AA50 has no Crete territory"),
        ("Germany launches Paratrooper Assault on Syria/Iraq", "1941", "Syria/Iraq is Trans-Jordan in this game (AA50 has no Syria/Iraq"),
        (
            "Germany launches Paratrooper Assault on Syria/Iraq",
            "1942",
            "Italian Africa (Italian East Africa) and French Madagascar are British and empty in this game",
        ),
        ("Japan offensive against China goes well", "1941", "no units of the Chinese in Ningxia to destroy"),
        ("Japan offensive against China goes well", "1941", "Ningxia holds no Chinese units in the 1941 setup"),
        ("Carrier force at Pearl Harbor", "1942", "1942 version: If this scenerio is chosen in the 1942 version simply remove the carrier and fighter"),
        ("Carrier force at Pearl Harbor", "1941", "players enforce: Carrier force at Pearl Harbor: if Japan attacks 53 Sea Zone"),
    ],
)
def test_apply_reports_where_the_text_and_the_setup_differ(title: str, year: str, report: str) -> None:
    scenario = next(s for s in RULESET.scenarios if s.title == title)
    outcome = pick(run_for(GAMES[year], scenario.side), scenario.side, 11, scenario=title)
    assert any(line.startswith(report) for line in outcome.lines), outcome.lines


def test_the_1941_pearl_harbor_text_is_not_applied_to_1942_and_no_1942_line_appears_in_1941() -> None:
    outcome = pick(run_for(GAMES["1941"], "Axis"), "Axis", 11, scenario="pearl-harbor")
    assert not any("1942" in line for line in outcome.lines)
    outcome = pick(run_for(GAMES["1942"], "Axis"), "Axis", 11, scenario="pearl-harbor")
    assert not any(line.startswith("players enforce") for line in outcome.lines)


def test_a_scenario_cannot_be_picked_when_the_other_side_affected_a_place_it_involves() -> None:
    run = run_for(GAMES["1941"], "Allies")
    pick(
        run, "Allies", 4, place=[{"power": "British", "unit": "transport", "at": "12 Sea Zone"}, {"power": "British", "unit": "submarine", "at": "2 Sea Zone"}]
    )
    with pytest.raises(RuleViolation) as error:
        pick(run, "Axis", 11, scenario="Operation Felix")
    message = str(error.value)
    assert f'"{LOCK_RULE}"' in message and f"({SEED}, option 11)" in message
    assert "12 Sea Zone is locked by the Allies' pick 1" in message


def test_a_scenario_locks_its_places_against_the_other_side() -> None:
    run = run_for(GAMES["1941"], "Axis")
    outcome = pick(run, "Axis", 11, scenario="Operation Felix")
    assert outcome.affected == {"Gibraltar", "12 Sea Zone"}
    with pytest.raises(RuleViolation) as error:
        pick(run, "Allies", 10, takeover={"territory": "Gibraltar", "by": "British"})
    assert "Gibraltar is locked by the Axis' pick 1" in str(error.value)


def test_the_same_side_may_affect_its_own_scenarios_places() -> None:
    run = run_for(GAMES["1941"], "Axis")
    pick(run, "Axis", 11, scenario="Operation Felix")
    pick(run, "Allies", 1, place=[{"power": "Americans", "unit": "infantry", "count": 3, "at": "Eastern United States"}])
    before = run.game.board.copy()
    pick(run, "Axis", 7, place=[{"power": "Germans", "unit": "bomber", "at": "Gibraltar"}])
    assert delta(before, run.game.board) == {"Gibraltar": {"units": {(GER, "bomber"): 1}}}


def test_the_opposing_sides_scenario_cannot_touch_a_locked_place() -> None:
    run = run_for(GAMES["1941"], "Axis")
    pick(run, "Axis", 4, place=[{"power": "Germans", "unit": "submarine", "at": "5 Sea Zone"}, {"power": "Germans", "unit": "submarine", "at": "5 Sea Zone"}])
    with pytest.raises(RuleViolation, match="5 Sea Zone is locked by the Axis' pick 1"):
        pick(run, "Allies", 11, scenario="Enigma decoded earlier")


def test_only_one_scenario_per_side() -> None:
    run = run_for(GAMES["1941"], "Axis")
    pick(run, "Axis", 11, scenario="Operation Felix")
    pick(run, "Allies", 11, scenario="No Russian Purge")
    with pytest.raises(RuleViolation) as error:
        pick(run, "Axis", 11, scenario="Japan attacks on Russia go well")
    message = str(error.value)
    assert f'"{ONE_PER_SIDE}"' in message and "the Axis already took option 11" in message


def test_a_side_cannot_pick_the_other_sides_scenario() -> None:
    # 000 names no side headings: the scenario's own text ("No Russian Purge- ...") is the rule quoted.
    with pytest.raises(RuleViolation, match="'No Russian Purge' is a scenario for the Allies, not the Axis -- rule: \"No Russian Purge"):
        pick(run_for(GAMES["1941"], "Axis"), "Axis", 11, scenario="No Russian Purge")


def test_an_unknown_scenario_is_named_with_close_matches() -> None:
    with pytest.raises(UnknownNameError, match="unknown scenario 'Operation Felx'.*did you mean 'Operation Felix'"):
        pick(run_for(GAMES["1941"], "Axis"), "Axis", 11, scenario="Operation Felx")


def test_a_scenario_whose_units_are_gone_fails_instead_of_guessing() -> None:
    # A base game whose setup lacks the units a scenario removes (here: 14 Sea Zone's cruisers taken out of the
    # setup itself, not by a pick: a pick's removal would be the board as it stands, see test_scenario_effects.py).
    run = run_for(GAMES["1941"], "Allies")
    del run.game.board.nodes["14 Sea Zone"]["units"][(ITA, "cruiser")]
    with pytest.raises(RuleViolation) as error:
        pick(run, "Allies", 11, scenario="crete")
    assert "removes 1 Italians cruiser from 14 Sea Zone, but World War II v3 1941 has 0 there" in str(error.value)
    assert "[[scenario_decision]]" in str(error.value)


def test_legal_choices_list_the_scenarios_the_side_may_pick() -> None:
    run = run_for(GAMES["1941"], "Allies")
    pick(
        run, "Allies", 4, place=[{"power": "British", "unit": "transport", "at": "12 Sea Zone"}, {"power": "British", "unit": "submarine", "at": "2 Sea Zone"}]
    )
    choices = next(c for c in run.next_pick().options if c.option.number == 11)
    axis = [s.title for s in RULESET.scenarios if s.side == "Axis"]
    assert list(choices.scenarios) == [t for t in axis if t != "Operation Felix"]


def test_the_options_command_lists_every_scenario_with_its_id_and_source() -> None:
    from kremlin_triplea.report.text import ruleset_text

    text = ruleset_text(RULESET)
    for scenario in RULESET.scenarios:
        assert f"scenario = {scenario.title!r} (id {scenario.id}; {scenario.source})" in text

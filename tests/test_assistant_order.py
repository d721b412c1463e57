"""The terminal draft follows the rules' order of action and says why it refuses (issue 14).

Each test drives :class:`Conversation` with scripted answers, as two players at
one keyboard would type them, and checks what the rules say: the Kremlin AA50
rules (000_bc04a4edf7f7d2ab.txt, as rulesets/kremlin-aa50.toml quotes them) and
Kremlin DAAK (002_1340f5a289b0c2db.txt, rulesets/kremlin-daak.toml) for the bid
phase.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from kremlin_triplea.assistant.session import Conversation
from kremlin_triplea.draft.rulesets import load_named_ruleset
from kremlin_triplea.draft.run import read_draft
from kremlin_triplea.tools.outputs import finish_draft
from support.drafting import AA50, Script, draft, placement_picks, talk
from support.paths import MAPS_DIR

KREMLIN_AA50 = load_named_ruleset("kremlin-aa50")
GERMAN_INFANTRY_IN_FRANCE = {"side": "Axis", "option": 1, "place": [{"power": "Germans", "unit": "infantry", "count": 3, "at": "France"}]}


# -- undo, back, and what the file keeps ---------------------------------------------------------


def test_undo_in_the_middle_of_a_pick_starts_that_pick_again_and_keeps_the_opponents_pick(tmp_path: Path) -> None:
    session = draft(tmp_path, [GERMAN_INFANTRY_IN_FRANCE])
    script = Script("2", "undo", "quit")  # the Allies begin option 2, then think better of it
    talk(session, script)
    assert script.asked.count("Allies, option> ") == 2  # pick 2 asked again from its first question
    assert len(session.picks) == 1 and len(read_draft(session.path).picks) == 1  # the Axis pick stays, in the file too
    assert session.undone_lines() == []


def test_back_asks_the_previous_question_again_and_the_later_answer_counts(tmp_path: Path) -> None:
    session = draft(tmp_path, [GERMAN_INFANTRY_IN_FRANCE])
    # Option 2: "Place one artillery and one tank" (000, option 2); the power for the tank, then its place.
    script = Script("2", "Russians", "back", "UK", "United Kingdom", "UK", "United Kingdom")
    talk(session, script)
    assert "  back one question" in script.said
    assert script.asked.count("armour for which power> ") == 2
    (made,) = session.to_toml()["pick"][1:]
    assert {p["power"] for p in made["place"]} == {"British"}  # "UK" is the rule text's name for the British
    assert {p["unit"] for p in made["place"]} == {"armour", "artillery"}


def test_undo_at_a_picks_first_question_takes_back_the_last_pick_and_says_the_file_lost_it(tmp_path: Path) -> None:
    session = draft(tmp_path, [GERMAN_INFANTRY_IN_FRANCE])
    script = Script("undo")
    talk(session, script)
    assert f"  undone: the Axis' option 1 (pick 1), removed from {session.path}" in script.said
    assert read_draft(session.path).picks == ()
    assert session.undone_lines() == [f"pick 1 (the Axis' option 1) was undone: {session.path} no longer has it"]


def test_a_resumed_finished_draft_offers_its_saved_bid_as_the_default(tmp_path: Path) -> None:
    session = draft(tmp_path, [])
    placement_picks(session, 8)
    saved = {"axis": 3, "place": [{"power": "Germans", "unit": "infantry", "count": 1, "at": "Germany"}]}
    session.push(session.bid_from_toml(saved))
    script = Script("")  # Enter: keep it
    Conversation(session, script).run()
    assert "The saved bid: axis 3; Germans place 1 infantry in Germany." in script.said
    assert read_draft(session.path).bid.data == saved
    # Undoing the last pick drops the bid too, and says so when the players stop.
    talk(session, Script("undo"))
    assert read_draft(session.path).bid is None
    assert f"the bid was undone with pick 8: {session.path} no longer has it" in session.undone_lines()


# -- refusals in apply's words ---------------------------------------------------------------------


def test_a_refused_place_says_the_rule_and_why_and_a_misspelt_one_gets_did_you_mean(tmp_path: Path) -> None:
    session = draft(tmp_path, [])
    script = Script("1", "Germans", "Finland", "Finlnd")
    talk(session, script)
    option = KREMLIN_AA50.option(1)
    # 000 option 1: "any territory not adjacent to one containing enemy units"; Karelia holds Russian infantry at the start.
    why = "Finland is adjacent to Karelia S.S.R., which holds units of Russians"
    rule = f'rule: "{option.quote("not_adjacent_to_enemy_units")}" ({option.source})'
    refusals = [line for line in script.said if why in line and rule in line]
    assert len(refusals) == 2
    assert "did you mean 'Finland'?" in refusals[1]


def test_a_second_neutral_over_the_ipc_limit_is_refused_with_the_sum(tmp_path: Path) -> None:
    params = KREMLIN_AA50.option(3).params
    neutrals = list(KREMLIN_AA50.neutrals.values())
    limit = params.max_total_ipc  # 000 option 3: "IPC values add up to no more than four"
    first = next(n for n in neutrals if n.ipc and n.name != "Saudi Arabia" and any(m is not n and n.ipc + m.ipc <= limit for m in neutrals))
    second = next(m for m in neutrals if m is not first and m.name != "Saudi Arabia" and first.ipc + m.ipc > limit)
    session = draft(tmp_path, [], first="Allies")
    script = Script("3", first.name, *(["Americans"] if first.name != "Mongolia" else []), second.name)
    talk(session, script)
    refusal = next(line for line in script.said if "refused" in line)
    assert f"{second.name} {second.ipc}" in refusal and f"= {first.ipc + second.ipc} IPCs, more than {limit}" in refusal
    assert f'"{KREMLIN_AA50.option(3).quote("max_total_ipc")}"' in refusal


def test_a_place_the_other_side_affected_is_refused_as_locked(tmp_path: Path) -> None:
    # The example: the Allies place in Persia, then the Axis may not take it over (000 A, the locks).
    session = draft(
        tmp_path, [{"side": "Allies", "option": 1, "place": [{"power": "British", "unit": "infantry", "count": 3, "at": "Persia"}]}], first="Allies"
    )
    script = Script("10", "Persia")
    talk(session, script)
    locks = KREMLIN_AA50.locks
    assert any("Persia is locked by the Allies' pick 1" in line and f'"{locks.rule}" ({locks.source})' in line for line in script.said), script.text


def test_an_option_not_available_says_why(tmp_path: Path) -> None:
    session = draft(
        tmp_path,
        [GERMAN_INFANTRY_IN_FRANCE, {"side": "Allies", "option": 1, "place": [{"power": "British", "unit": "infantry", "count": 3, "at": "United Kingdom"}]}],
    )
    script = Script("1")  # "no option twice per side" (000 A)
    talk(session, script)
    assert "  option 1 (Infantry Placement) is not available to the Axis: the Axis already took option 1" in script.said


# -- the rule text on request ----------------------------------------------------------------------


def test_help_option_shows_its_rule_text_and_source_and_the_scenarios_with_their_effects(tmp_path: Path) -> None:
    session = draft(tmp_path, [])
    script = Script("help 3", "? 11")
    talk(session, script)
    neutral = KREMLIN_AA50.option(3)
    assert f"  option 3. {neutral.title} ({neutral.source})" in script.said
    assert textwrap.wrap(f'"{neutral.rule}"', width=100)[0] in script.text
    axis_scenarios = [s for s in KREMLIN_AA50.scenarios if s.side == "Axis"]
    for scenario in axis_scenarios:
        assert f"scenario {scenario.title!r} (Axis; {scenario.source})" in script.text
    assert script.text.count("effect: ") >= len(axis_scenarios)


# -- the bid -------------------------------------------------------------------------------------------


def test_the_bid_accepts_the_draft_files_names_for_powers_and_units(tmp_path: Path) -> None:
    session = draft(tmp_path, [])
    placement_picks(session, 8)
    tank = session.game.board.catalog.cost("armour", "Germans")
    script = Script(str(tank), "Germany", "tank", "Germany", "1")  # rule-text names, as the draft file accepts them
    Conversation(session, script).run()
    assert session.to_toml()["bid"] == {"axis": tank, "place": [{"power": "Germans", "unit": "armour", "count": 1, "at": "Germany"}]}
    assert "TripleA's own bid phase" not in script.text  # 000's bid is declared: "positive = declared" in kremlin-aa50


def test_daak_offers_triplea_bid_phase_and_the_game_gets_the_bid_properties(tmp_path: Path) -> None:
    # 002 (Kremlin DAAK): the Axis may buy their bid in TripleA's own bid phase (kremlin-daak [bid] positive = "declared_or_bid_phase").
    session = draft(tmp_path, [], ruleset="kremlin-daak", game="world_war_ii_classic/classic.xml", per_side=2)
    placement_picks(session, 4)
    script = Script("6", "done", "", "4")
    Conversation(session, script).run()
    assert "TripleA's own bid phase" in script.text
    assert session.to_toml()["bid"] == {"axis": 6, "phase": {"Germans": 4, "Japanese": 2}}
    written = tmp_path / "game.xml"
    finish_draft(session.path, written, maps_dir=MAPS_DIR)
    from kremlin_triplea.game import load

    properties = load(written).board.properties
    assert (properties["Germans bid"], properties["Japanese bid"]) == ("4", "2")


def test_unit_and_power_questions_accept_the_rule_texts_names(tmp_path: Path) -> None:
    # 000 option 1 names the power "Germany" and option 9 the unit "aircraft carrier"; the draft file accepts both.
    session = draft(tmp_path, [])
    script = Script("1", "Germany", "Germany", "9", "aircraft carrier", "USA", "SZ 10")
    talk(session, script)
    picks = session.to_toml()["pick"]
    assert [p["power"] for p in picks[0]["place"]] == ["Germans"]
    assert picks[1]["place"] == [{"power": "Americans", "unit": "carrier", "count": 1, "at": "10 Sea Zone"}]


def test_the_scenario_question_lists_each_scenarios_effects(tmp_path: Path) -> None:
    session = draft(tmp_path, [])
    script = Script("11")
    talk(session, script)
    felix = next(s for s in KREMLIN_AA50.scenarios if s.title == "Operation Felix")  # 000 option 11, Axis scenario 1
    start = script.said.index(f"  scenario 'Operation Felix' (Axis; {felix.source})")
    effects = script.said[start + 1 : start + 1 + len(felix.steps)]
    assert len(effects) == len(felix.steps) and all(line.strip().startswith("effect: ") for line in effects)
    assert all(step.at in line for step, line in zip(felix.steps, effects, strict=True))  # capture Gibraltar, place there, destroy in Seazone 12


@pytest.mark.parametrize(
    ("ruleset", "game"),
    [("kremlin-aa50", AA50), ("kremlin-classic", "classic_variations/kremlin.xml"), ("kremlin-daak", "world_war_ii_classic/classic.xml")],
)
def test_the_bid_offers_triplea_bid_phase_exactly_where_the_ruleset_allows_it(tmp_path: Path, ruleset: str, game: str) -> None:
    # 002 III: "Players do not have to declare what they are buying nor where the bid units will be placed";
    # 001 (6): "players must declare where the bid units will be placed"; 000 C: the bid units' placement is declared.
    rules = load_named_ruleset(ruleset)
    session = draft(tmp_path, [], ruleset=ruleset, game=game, per_side=rules.picks.min)
    placement_picks(session, 2 * rules.picks.min)
    script = Script("0")
    Conversation(session, script).run()
    assert ("TripleA's own bid phase" in script.text) == (rules.bid.positive == "declared_or_bid_phase")


@pytest.mark.slow
def test_on_a_map_with_a_unit_type_per_power_the_terminal_offers_each_set_and_places_the_power_s_own_units(tmp_path: Path) -> None:
    """Total World War gives each power its own transport and submarine (germanTransport, britishTransport, ...):
    option 4's sets (000 option 4: two transports, two submarines, or one of each) are offered in the rule text's
    words, and the units placed are the answering power's own types (the sets were matched by the shared type, which
    no power there may have, so the terminal offered no set at all)."""
    from click.testing import CliRunner

    from kremlin_triplea.cli.main import main

    tww = Path(__file__).resolve().parent / "data" / "total_world_war" / "Total_World_War_Dec1941_3.0.xml"
    profile = tmp_path / "tww.toml"
    assert CliRunner().invoke(main, ["profile", "new", str(tww), "--ruleset", "kremlin-aa50", "-o", str(profile)]).exit_code == 0
    session = draft(tmp_path, [], game=str(tww), profile=str(profile))
    script = Script("4", "?", "transport + transport", "Germany", "11 Sea Zone", "Germany", "11 Sea Zone")
    talk(session, script)
    assert "  choices: transport + transport, submarine + submarine, submarine + transport" in script.said
    assert script.asked[3:5] == ["transport for which power> ", "Germany germanTransport where> "]
    assert session.to_toml()["pick"] == [
        {"side": "Axis", "option": 4, "place": [{"power": "Germany", "unit": "germanTransport", "count": 2, "at": "11 Sea Zone"}]}
    ]

"""House-rule sets in drafts and on the command line: choices, seeded draws, composition, conflicts, errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kremlin_triplea.cli.main import main
from kremlin_triplea.draft.run import draft_from_dict
from kremlin_triplea.game import load
from kremlin_triplea.gamefile.provenance import BaseRecord, recorded_base
from kremlin_triplea.gamerules.house import apply_house_rules
from kremlin_triplea.report.notes import add_notes
from kremlin_triplea.rules.house_rules import HouseChoices, load_named_house_set
from kremlin_triplea.rules.tomlfile import DataFileError
from kremlin_triplea.session import apply_draft
from support.house import kremlin_draft
from support.paths import AA50_1941, MAPS_DIR

CLASSIC = MAPS_DIR / "world_war_ii_classic" / "map" / "games" / "classic.xml"


def test_a_seed_draws_the_same_advantages_and_the_same_bytes_and_the_notes_say_so() -> None:
    choices = [HouseChoices("house-revised", seed=17)]
    first, second = load(AA50_1941), load(AA50_1941)
    a, b = add_notes(apply_house_rules(first, choices)), add_notes(apply_house_rules(second, choices))
    assert first.to_bytes() == second.to_bytes()
    drawn = [(c.advantage.power, c.advantage.id) for c in a.selections[0].advantages]
    assert drawn == [(c.advantage.power, c.advantage.id) for c in b.selections[0].advantages]
    house = load_named_house_set("house-revised")
    assert [p for p, _ in drawn] == list(house.powers)  # one for each power of the document
    for power, advantage in drawn:
        assert advantage in {x.id for x in house.advantages_of(power)}
    notes = first.board.properties["notes"]
    assert "random draws with seed 17" in notes
    for chosen in a.selections[0].advantages:
        assert chosen.advantage.rule.title in notes and "drawn with seed 17" in notes


def test_seeds_differ_somewhere() -> None:
    drawn = set()
    for seed in range(6):
        game = load(AA50_1941)
        result = add_notes(apply_house_rules(game, [HouseChoices("house-revised", seed=seed)]))
        drawn.add(tuple(c.advantage.id for c in result.selections[0].advantages))
    assert len(drawn) > 1


def test_without_seed_or_choice_no_advantage_and_the_notes_say_so() -> None:
    game = load(AA50_1941)
    result = add_notes(apply_house_rules(game, [HouseChoices("house-revised")]))
    assert result.selections[0].advantages == ()
    assert "no player advantages" in game.board.properties["notes"]


def test_an_advantage_that_needs_a_place_asks_for_it_with_the_legal_places() -> None:
    with pytest.raises(DataFileError, match=r"needs `colonial_garrison_at` \(one of .*India.*\), or a `seed`"):
        apply_house_rules(load(AA50_1941), [HouseChoices("house-revised", advantages={"UK": "colonial-garrison"})])
    with pytest.raises(DataFileError, match=r"colonial_garrison_at = 'Germany' is not allowed .*tan territory"):
        apply_house_rules(load(AA50_1941), [HouseChoices("house-revised", advantages={"UK": 6}, values={"colonial_garrison_at": "Germany"})])


def test_a_draft_of_house_rules_only_has_no_picks_and_no_bid() -> None:
    draft = draft_from_dict(
        {"house_rules": ["house-classic"], "house_rule_choices": {"house-classic": {"neutral_territories": False, "advantages": {"USA": 3}}}}
    )
    game = load(CLASSIC)
    result = add_notes(apply_draft(draft, game))
    assert result.game.board.units("Hawaii Sea Zone")[("Americans", "fighter")] == 2
    assert result.game.board.node("Spain")["units"] == {}  # the switch turned the neutral armies off
    assert result.game.board.properties["Axis Economic Victory"] == "84"
    with pytest.raises(DataFileError, match="a draft of house rules only has no picks and no bid"):
        draft_from_dict({"house_rules": ["house-classic"], "bid": {"axis": 3}})
    with pytest.raises(DataFileError, match="house_rules for a draft of house rules only"):
        draft_from_dict({"game": "x"})
    with pytest.raises(DataFileError, match="choices for a set the draft lists in house_rules"):
        draft_from_dict({"house_rules": ["house-classic"], "house_rule_choices": {"house-revised": {"seed": 1}}})


def test_kremlin_straits_and_house_straits_conflict_naming_both_sources() -> None:
    with pytest.raises(DataFileError) as error:
        apply_draft(draft_from_dict(kremlin_draft(house_rules=["house-revised"])), load(AA50_1941))
    message = str(error.value)
    assert "conflicting rules" in message
    assert "kremlin-aa50 rule 'd3-straits' (000_bc04a4edf7f7d2ab.txt" in message
    assert "house-revised rule 'hr2-baltic' (004_e624f6d1018dbbc1.txt, House Rule 2 Baltic Sea)" in message


def test_kremlin_draft_with_house_rules_whose_straits_are_switched_off() -> None:
    choices = {"house-revised": {"hr2_baltic": False, "hr3_gibraltar": False, "advantages": {"Germany": "german-scientists"}}}
    result = add_notes(apply_draft(draft_from_dict(kremlin_draft(house_rules=["house-revised"], house_rule_choices=choices)), load(AA50_1941)))
    lines = result.rules.game_lines
    assert any(line.startswith("House Rule 8 Soviet National Objective:") for line in lines)
    assert any(line.startswith("Germany advantage 6: German Scientists: Germans pay 4 PUs") for line in lines)
    assert not any(line.startswith("House Rule 3 Gibraltar") for line in lines)
    assert result.game.board.units("Germany")[("Germans", "infantry")] >= 3  # the Kremlin picks are there too
    notes = result.game.board.properties["notes"]
    assert "hr2_baltic off" in notes and "Germany advantage 6: German Scientists (chosen): written into the game" in notes


def test_two_sets_on_one_game_and_a_set_for_another_map_refused() -> None:
    with pytest.raises(DataFileError, match="house-classic is written for the maps world_war_ii_classic, classic_variations, not world_war_ii_v3"):
        apply_house_rules(load(AA50_1941), [HouseChoices("house-revised"), HouseChoices("house-classic")])


def test_command_line_applies_sets_with_choices(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "c.xml"
    args = [
        "--maps-dir",
        str(MAPS_DIR),
        "house",
        "world_war_ii_classic/classic.xml",
        "-r",
        "house-classic",
        "--advantage",
        "Germany=allied-neutral",
        "--choose",
        "neutral=Turkey",
        "--switch",
        "neutral_territories=off",
        "-o",
        str(out),
    ]
    done = runner.invoke(main, args)
    assert done.exit_code == 0, done.output
    assert "Germany advantage 6: Allied Neutral Advantage (chosen; neutral = Turkey (chosen)): written into the game" in done.output
    board = load(out).board
    assert board.owner("Turkey") == "Germans" and board.units("Turkey")[("Germans", "armour")] == 1
    # The written game records its base, so render and verify compare with it unasked.
    assert recorded_base(board.properties["notes"]) == BaseRecord("world_war_ii_classic", "classic.xml", "World War II Classic")
    again = runner.invoke(main, args + ["--force"])
    assert again.exit_code == 0
    bad = runner.invoke(main, args[:-2] + ["--advantage", "UK=jet", "-o", str(tmp_path / "d.xml")])
    assert bad.exit_code == 2 and "unknown UK advantage 'jet'" in bad.output and "jet-power" in bad.output
    assert "Traceback" not in bad.output


@pytest.mark.engine
def test_the_examples_apply_and_the_engine_reads_them(tmp_path: Path) -> None:
    from kremlin_triplea.draft.run import read_draft
    from kremlin_triplea.engine import read_with_engine

    examples = Path(__file__).resolve().parents[1] / "examples"
    written = []
    for name in ("house-revised-1942", "house-classic"):
        result = add_notes(apply_draft(read_draft(examples / f"{name}.toml"), maps_dir=MAPS_DIR))
        written.append(result.game.save(tmp_path / f"{name}.xml"))
    revised, classic = read_with_engine(written)
    assert revised.ok and classic.ok and not revised.dtd_errors and not classic.dtd_errors
    assert revised.territories["India"].units[("British", "factory")] == 1  # the Colonial Garrison's (India has none in 1942)
    assert classic.territories["Sweden"].owner == "Germans"
    assert classic.territories["Manchuria"].units[("Japanese", "factory")] == 1


def test_an_advantage_with_no_place_on_the_game_is_refused_clearly(tmp_path) -> None:
    # Classic: Four If By Sea leaves the UK no place for 003's Production Advantage.
    arguments = ["house", "classic_variations/four_if_by_sea.xml", "-r", "house-classic", "--advantage", "UK=production"]
    done = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), *arguments, "-o", str(tmp_path / "out.xml")])
    assert done.exit_code == 2 and done.stderr.count("\n") == 1, (done.exit_code, done.stderr, done.exception)
    assert not (tmp_path / "out.xml").exists()
    assert "cannot be given to UK on this game: there is no place for its `at`" in done.stderr

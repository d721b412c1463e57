"""`kremlin-triplea house` choices through the command line, and the conflict error in the players' words (issue 13).

Powers are accepted as the rule texts name them (004/003: "Germany", "UK", "USSR") and as TripleA does
("Germans", "British"); an unknown power, advantage or choice is refused in one line with the close
matches, exit 2, and nothing is written.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kremlin_triplea.cli.main import main
from kremlin_triplea.draft.run import draft_from_dict
from kremlin_triplea.game import load
from kremlin_triplea.rules.tomlfile import DataFileError
from kremlin_triplea.session import apply_draft
from support.house import kremlin_draft
from support.paths import AA50_1941, MAPS_DIR

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def house(tmp_path, *args: str):
    out = tmp_path / "out.xml"
    result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "house", str(AA50_1941), "-r", "house-revised", *args, "-o", str(out)])
    return result, out


@pytest.mark.parametrize("power", ["Germans", "Germany"])
def test_advantage_by_triplea_and_rule_text_power_name(tmp_path, power: str) -> None:
    # 004, Germany National Advantages 6. German Scientists.
    result, _ = house(tmp_path, "--advantage", f"{power}=german-scientists")
    assert result.exit_code == 0, result.output
    assert "Germany advantage 6: German Scientists (chosen): written into the game" in result.output
    assert "Germans pay 4 PUs per research die" in result.output


def test_advantage_by_number_for_the_british(tmp_path) -> None:
    result, _ = house(tmp_path, "--advantage", "British=1")
    assert result.exit_code == 0, result.output
    assert "UK advantage 1: Radar (chosen)" in result.output


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("--advantage", "Foo=1"), "unknown power 'Foo'"),
        (("--advantage", "Italians=1"), "unknown power 'Italians'"),  # 004 gives Italy no advantage
        (("--advantage", "Germny=1"), "did you mean 'Germany'"),
        (("--advantage", "UK=radr"), "did you mean 'radar'"),
        (("--advantage", "USSR=9"), "unknown USSR advantage '9'"),
        (("--choose", "foo=bar"), "unknown choice 'foo'"),
        (("--choose", "colonial_garrisn_at=India"), "did you mean 'colonial_garrison_at'"),
        (("--advantage", "UK=colonial-garrison", "--choose", "colonial_garrison_at=Germany"), "colonial_garrison_at = 'Germany' is not allowed"),
        (("-r", "house-revize"), "--rules house-revize: unknown ruleset 'house-revize'; did you mean 'house-revised'"),
        (("-r", "kremlin-aa50"), "--rules kremlin-aa50: "),  # a Kremlin ruleset, not a house-rule set
    ],
)
def test_unknown_names_and_values_are_refused_in_one_line(tmp_path, args: tuple[str, ...], says: str) -> None:
    result, out = house(tmp_path, *args)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kremlin-triplea: error:") and says in lines[0], result.output
    assert "Traceback" not in result.output and not out.exists()


def test_choice_for_one_power_by_its_triplea_name(tmp_path) -> None:
    result, _ = house(tmp_path, "--advantage", "UK=colonial-garrison", "--choose", "British.colonial_garrison_at=India")
    assert result.exit_code == 0, result.output
    assert "colonial_garrison_at = India (chosen)" in result.output


def test_conflict_names_both_rules_and_the_switch_that_settles_it() -> None:
    # 000 D(3) closes the Baltic for surface and air alike with two shores; 004 HR2 with one shore, submarines passing.
    with pytest.raises(DataFileError) as error:
        apply_draft(draft_from_dict(kremlin_draft(house_rules=["house-revised"])), load(AA50_1941))
    message = str(error.value)
    assert "\n" not in message
    assert message.startswith("conflicting rules: Straits (kremlin-aa50 rule 'd3-straits'")
    assert "House Rule 2 Baltic Sea (house-revised rule 'hr2-baltic'" in message
    assert "both write the baltic strait" in message
    assert "set `hr2_baltic = false` under `[house_rule_choices.house-revised]`" in message
    assert "((" not in message and "'all_of')" not in message  # no Python tuples


def test_notes_say_what_was_not_applied_and_why(tmp_path) -> None:
    # 004's HR8-HR10 amend AA50's national objectives: Revised has none, so they are not applied there; the
    # UK's set-up move to Gibraltar belongs to HR3 and goes with it.
    out = tmp_path / "revised.xml"
    revised = MAPS_DIR / "world_war_ii_revised" / "map" / "games" / "ww2v2.xml"
    result = CliRunner().invoke(main, ["house", str(revised), "-r", "house-revised", "--switch", "hr3_gibraltar=off", "-o", str(out)])
    assert result.exit_code == 0, result.output
    notes = load(out).board.properties["notes"]
    assert (
        "hr8_soviet_objective on but not applied (House Rule 8 Soviet National Objective is written for the map world_war_ii_v3, not world_war_ii_revised)"
    ) in notes
    assert "hr10_german_objective on but not applied" in notes
    assert "uk_infantry_to_gibraltar on but not applied (House Rule 3 Gibraltar: the UK&#x27;s set-up move needs hr3_gibraltar on)" in notes
    assert "hr3_gibraltar off" in notes
    not_applied = notes[notes.index("Not applied to this game") :]
    assert "hr8-soviet-objective" in not_applied and "hr3-gibraltar-setup" in not_applied


def test_notes_on_aa50_say_the_switches_are_applied(tmp_path) -> None:
    out = tmp_path / "aa50.xml"
    result = CliRunner().invoke(main, ["house", str(AA50_1941), "-r", "house-revised", "-o", str(out)])
    assert result.exit_code == 0, result.output
    notes = load(out).board.properties["notes"]
    assert "hr8_soviet_objective on," in notes and "uk_infantry_to_gibraltar on," in notes and "not applied" not in notes


@pytest.mark.parametrize("set_id", ["house-classic", "house-revised"])
def test_a_set_given_by_path_plays_as_the_same_set_given_by_name(tmp_path, set_id: str) -> None:
    """A house set the host keeps in a file of their own (``-r ./my-set.toml``, another id) is read from that file
    every time it is needed (its switches, its neutral table, the conflict wording), never looked up by its id
    under rulesets/, where it is not: the game it makes is the shipped set's game, but for the set's name."""
    from kremlin_triplea.rules.datafiles import find_data_file
    from kremlin_triplea.rules.house_rules import load_named_house_set
    from support.house import TARGETS

    own_id = f"my-{set_id}"
    text = find_data_file("rulesets", set_id).read_text(encoding="utf-8")
    copy = tmp_path / "mine" / "my-set.toml"
    copy.parent.mkdir()
    copy.write_text(text.replace(f'id = "{set_id}"', f'id = "{own_id}"', 1), encoding="utf-8")
    switches = [arg for name in load_named_house_set(set_id).choices for arg in ("--switch", f"{name}=on")]
    outputs = {}
    for given in (set_id, str(copy)):
        out = tmp_path / f"{len(outputs)}.xml"
        args = ["--maps-dir", str(MAPS_DIR), "house", str(TARGETS[set_id][0]), "-r", given, *switches, "--seed", "7", "-o", str(out)]
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
        outputs[given] = out.read_text(encoding="utf-8")
    assert own_id in outputs[str(copy)]
    assert outputs[str(copy)].replace(own_id, set_id) == outputs[set_id]


def test_house_on_a_written_kremlin_game_keeps_the_game_options_its_draft_wrote(tmp_path: Path) -> None:
    # 001 header 4 "Both IPC Victory on - M84 for Axis and M110 for Allies" is in the game apply wrote; 003 Winning
    # would put the Allies' at 1000 over it, silently. Refused naming the switch; with it off, the draft's 110 stays.
    written = tmp_path / "kremlin.xml"
    made = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "apply", str(EXAMPLES / "kremlin-classic-3rd-edition.toml"), "-o", str(written)])
    assert made.exit_code == 0, made.output
    refused = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "house", str(written), "-r", "house-classic", "-o", str(tmp_path / "h.xml")])
    assert refused.exit_code == 2 and "'Allies Economic Victory' = 1000, which the game's draft wrote as 110" in refused.output
    assert "--switch winning=off" in refused.output and not (tmp_path / "h.xml").exists()
    kept = CliRunner().invoke(
        main, ["--maps-dir", str(MAPS_DIR), "house", str(written), "-r", "house-classic", "--switch", "winning=off", "-o", str(tmp_path / "h.xml")]
    )
    assert kept.exit_code == 0, kept.output
    assert load(tmp_path / "h.xml").board.properties["Allies Economic Victory"] == "110"

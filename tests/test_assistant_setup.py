"""The terminal draft's setup and end (issue 14): Kremlin rulesets only in the ruleset question, house-rule sets in
their own, `options` for a house-rule set, and the game written only with the host's agreement."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from kremlin_triplea.assistant.session import Conversation
from kremlin_triplea.assistant.setup import ask_setup
from kremlin_triplea.cli.main import main
from kremlin_triplea.draft.run import read_draft
from kremlin_triplea.report.notes import add_notes
from kremlin_triplea.rules.house_rules import load_named_house_set
from kremlin_triplea.rules.profile import load_profile
from kremlin_triplea.rules.tomlfile import read_toml
from kremlin_triplea.session import Session, apply_draft
from support.drafting import Script, draft, placement_picks
from support.paths import MAPS_DIR

REPO = Path(__file__).resolve().parents[1]


def test_the_ruleset_question_offers_kremlin_rulesets_and_refuses_a_house_rule_set() -> None:
    script = Script("house-revised", "", "", "Axis", "", "", "4")
    data, _ = ask_setup(Conversation(None, script), MAPS_DIR)
    offered = script.said[script.said.index("Rulesets:") + 1 : script.said.index("Rulesets:") + 4]
    assert offered == ["  kremlin-aa50", "  kremlin-classic", "  kremlin-daak"]  # the rule texts 000, 001 and 002
    assert any(line.startswith("  no choice 'house-revised' here") for line in script.said)
    assert data["ruleset"] == "kremlin-aa50"


def test_house_rules_are_chosen_in_their_own_questions_and_written_as_apply_writes_them(tmp_path: Path) -> None:
    house = load_named_house_set("house-revised")
    session = draft(tmp_path, [])
    # 004's house rules 2 and 3 close the Baltic and Gibraltar, which the Kremlin ruleset's D(3) already closes,
    # differently: apply refuses the two together; the terminal presets those two switches off, saying why.
    script = Script("house-revised", "", "choose", *(["1"] * len(house.powers)))
    Conversation(session, script).ask_house_rules()
    for switch, title in (("hr2_baltic", "House Rule 2 Baltic Sea"), ("hr3_gibraltar", "House Rule 3 Gibraltar")):
        (line,) = [line for line in script.said if line.startswith(f"  {switch} (")]
        assert "is preset off: conflicting rules: Straits (kremlin-aa50 rule 'd3-straits'" in line and title in line
        assert "house_rule_choices" not in line and "--switch" not in line  # the fix for the file is not the terminal's
    written = read_toml(session.path)
    assert written["house_rules"] == ["house-revised"]
    chosen = written["house_rule_choices"]["house-revised"]
    assert {k: v for k, v in chosen.items() if k != "advantages"} == {"hr2_baltic": False, "hr3_gibraltar": False}
    assert chosen["advantages"] == {power: house.advantages_of(power)[0].id for power in house.powers}
    placement_picks(session, 8)
    Conversation(session, Script("0")).run()
    result = add_notes(apply_draft(read_draft(session.path), maps_dir=MAPS_DIR))
    (selection,) = result.house
    assert selection.switches == {k for k, on in house.choices.items() if on} - {"hr2_baltic", "hr3_gibraltar"}
    assert [a.advantage.power for a in selection.advantages] == list(house.powers)


def test_a_switch_that_conflicts_is_said_at_once_and_its_fix_offered_as_a_question(tmp_path: Path) -> None:
    session = draft(tmp_path, [])
    fix = "turn hr2_baltic (House Rule 2 Baltic Sea) off? (yes, no)> "
    script = Script("house-revised", "hr2_baltic", "yes", "", "none")
    Conversation(session, script).ask_house_rules()
    assert script.asked[:4] == [
        "house rules> ",
        "house-revised: a switch to turn on or off (Enter: done)> ",
        fix,
        "house-revised: a switch to turn on or off (Enter: done)> ",
    ]
    said = script.said.index("  hr2_baltic: on")
    assert script.said[said + 1].startswith("  conflicting rules: Straits (kremlin-aa50 rule 'd3-straits'") and script.said[said + 2] == "  hr2_baltic: off"
    assert read_toml(session.path)["house_rule_choices"]["house-revised"] == {"hr2_baltic": False, "hr3_gibraltar": False}


def test_change_starts_from_the_answers_given(tmp_path: Path) -> None:
    session = draft(tmp_path, [])
    # The fix declined, the set is refused when its answers are done; `change` keeps hr4's flip and the advantages' answer.
    script = Script("house-revised", "hr4_heavy_bombers", "hr2_baltic", "no", "", "none", "change", "hr2_baltic", "", "")
    Conversation(session, script).ask_house_rules()
    assert script.asked.count("house-revised> ") == 1
    second = script.said[script.said.index("  house-revised switches (9):", script.said.index("  house-revised switches (9):") + 1) :]
    assert "    hr4_heavy_bombers (off): House Rule 4 Heavy Bombers" in second and "    hr2_baltic (on): House Rule 2 Baltic Sea" in second
    written = read_toml(session.path)["house_rule_choices"]["house-revised"]
    assert written == {"hr2_baltic": False, "hr3_gibraltar": False, "hr4_heavy_bombers": False}


def test_help_at_a_house_rule_question_shows_the_switch_or_the_powers_advantage(tmp_path: Path) -> None:
    house = load_named_house_set("house-revised")
    heavy = next(r for r in house.rules.rules if r.when == "hr4_heavy_bombers")
    first, power = house.advantages_of(house.powers[0])[0], house.powers[0]
    session = draft(tmp_path, [])
    script = Script("house-revised", "help hr4_heavy_bombers", "", "choose", "help 1")
    with pytest.raises(EOFError):
        Conversation(session, script).ask_house_rules()
    text = script.text
    assert heavy.rule[:60] in " ".join(text.split()) and f"{heavy.title} ({heavy.source}" in text
    assert first.number == 1 and first.power == power
    assert f"{first.rule.title} ({first.rule.source}" in text  # the USSR's advantage 1, not Kremlin option 1
    option = session.ruleset.option(1)
    assert option.title not in text


def test_advantages_drawn_with_a_seed_are_shown_when_drawn(tmp_path: Path) -> None:
    from kremlin_triplea.gamerules.house import select
    from kremlin_triplea.rules.house_rules import read_choices
    from kremlin_triplea.rules.tomlfile import Section

    house = load_named_house_set("house-revised")
    session = draft(tmp_path, [])
    script = Script("house-revised", "", "seed", "7", "")
    Conversation(session, script).ask_house_rules()
    table = read_toml(session.path)["house_rule_choices"]["house-revised"]
    assert table["seed"] == 7
    drawn = select(house, read_choices(house.id, Section(table, "draft", "t")), session.game.board, session.names).advantages
    assert len(drawn) == len(house.powers)
    for chosen in drawn:
        assert any(line.startswith(f"  {chosen.advantage.power}: {chosen.advantage.title}") and line.endswith("drawn with seed 7") for line in script.said)


def test_an_advantage_that_leaves_a_place_to_choose_offers_only_the_rules_places(tmp_path: Path) -> None:
    # 003 (house-classic), Non-purged Infantry: "5 additional infantry ... placed on either production centre".
    house = load_named_house_set("house-classic")
    infantry = next(a for a in house.advantages if a.id == "non-purged-infantry")
    assert house.powers[0] == infantry.power  # asked first
    session = draft(tmp_path, [], ruleset="kremlin-classic", game="world_war_ii_classic/classic.xml", per_side=4)
    script = Script("house-classic", "2", "", "choose", str(infantry.number), "no such place")  # 2: the ruleset's victory holds
    with pytest.raises(EOFError):
        Conversation(session, script).ask_house_rules()
    question = f"{infantry.power} {infantry.title}: at> "
    assert script.asked[-1] == question and script.asked.count(question) == 2
    names = session.names
    listed = script.said[-(len(infantry.places) + 1) : -1]  # the choices, listed before the question, then the refusal
    assert {names.place(line.strip()) for line in listed} == {names.place(p) for p in infantry.places}
    assert script.said[-1].startswith("  no choice 'no such place' here")


def test_options_lists_a_house_rule_sets_switches_and_advantages() -> None:
    result = CliRunner().invoke(main, ["options", "--ruleset", "house-revised"])
    assert result.exit_code == 0, result.output
    house = load_named_house_set("house-revised")
    for switch, default in house.choices.items():
        assert f"  {switch} (default {'on' if default else 'off'})" in result.output
    for advantage in house.advantages:
        assert f"{advantage.number}. {advantage.id}: {advantage.title}" in result.output
    assert f"source: {house.rules.source}" in result.output


def test_help_names_an_advantage_and_shows_its_rule(tmp_path: Path) -> None:
    house = load_named_house_set("house-revised")
    advantage = house.advantages[0]
    session = draft(tmp_path, [])
    script = Script(f"help {advantage.id}")
    with pytest.raises(EOFError):
        Conversation(session, script).run()
    assert any(advantage.rule.rule[:40] in line for line in script.said)


def run_draft(args: list[str], answers: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    return subprocess.run(
        [sys.executable, "-m", "kremlin_triplea", "--maps-dir", str(MAPS_DIR), "draft", *args],
        input=answers,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


@pytest.mark.slow
def test_the_game_is_written_only_when_the_host_agrees_and_never_over_an_existing_file(tmp_path: Path) -> None:
    session = draft(tmp_path, [])
    placement_picks(session, 8)
    session.push(session.bid_from_toml({"axis": 0}))
    session.save()
    output = tmp_path / "game.xml"
    declined = run_draft(["--resume", str(session.path), "-o", str(output)], "\nno\n")  # keep the saved bid; do not write
    assert declined.returncode == 0, declined.stderr
    assert not output.exists()
    assert "the picture: " in declined.stdout and Path(declined.stdout.split("the picture: ")[1].split()[0]).is_file()
    assert f"the draft {session.path} is complete: `kremlin-triplea apply {session.path} -o {output}` writes it" in declined.stdout
    output.write_text("not a game")
    other = tmp_path / "other.xml"
    agreed = run_draft(["--resume", str(session.path), "-o", str(output)], f"\nyes\n{other}\n\n")
    assert agreed.returncode == 0, agreed.stderr
    assert f"{output} exists: type another file name, 'force' to replace it, or 'no'" in agreed.stdout
    assert output.read_text() == "not a game"
    applied = add_notes(apply_draft(read_draft(session.path), maps_dir=MAPS_DIR)).game.save(tmp_path / "applied.xml")
    assert other.read_bytes() == applied.read_bytes()


def test_back_and_undo_in_the_house_rule_questions(tmp_path: Path) -> None:
    session = draft(tmp_path, [])
    # 004's switch hr1_black_sea flipped, then `back`: the flip is forgotten and the switch question asked again
    # (004's hr2 and hr3 are preset off: 000 D(3) closes the straits itself). `undo` at the first
    # question has no pick to take back.
    script = Script("undo", "house-revised", "hr1_black_sea", "back", "hr1_black_sea", "", "none")
    Conversation(session, script).ask_house_rules()
    assert "  no pick is made yet: nothing to undo" in script.said and "  back one question" in script.said
    assert script.asked.count("house-revised: a switch to turn on or off (Enter: done)> ") == 4  # flip, back, flip, done
    written = read_toml(session.path)
    assert written["house_rules"] == ["house-revised"]
    assert written["house_rule_choices"] == {"house-revised": {"hr1_black_sea": False, "hr2_baltic": False, "hr3_gibraltar": False}}  # no advantages chosen


def test_undo_then_quit_says_which_pick_left_the_draft_file(tmp_path: Path) -> None:
    session = draft(tmp_path, [{"side": "Axis", "option": 1, "place": [{"power": "Germans", "unit": "infantry", "count": 3, "at": "France"}]}])
    result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "draft", "--resume", str(session.path)], input="undo\nquit\n")
    assert result.exit_code == 130, result.output
    assert f"pick 1 (the Axis' option 1) was undone: {session.path} no longer has it" in result.output
    assert read_draft(session.path).picks == ()


# The games each ruleset was written for (../shared/seeds/README.md): 000 the AA50 games, 001 "Classic: Kremlin"
# or classic_3rd_edition.xml, 002 classic.xml (2nd edition); its own first game is the draft's default.
OWN_GAME = {
    "kremlin-aa50": "world_war_ii_v3/WW2v3-1941.xml",
    "kremlin-classic": "classic_variations/kremlin.xml",
    "kremlin-daak": "world_war_ii_classic/classic.xml",
}


def listed_games(script: Script) -> list[str]:
    start = next(i for i, line in enumerate(script.said) if line.startswith("Games "))
    end = next(i for i, line in enumerate(script.said) if line.startswith("Sides:"))
    return [line.split()[0] for line in script.said[start + 1 : end] if line.startswith("  ") and not line.startswith("  warning")]


@pytest.mark.parametrize("ruleset", sorted(OWN_GAME))
def test_each_ruleset_offers_only_the_games_its_map_profiles_pin_and_defaults_to_its_own(ruleset: str) -> None:
    script = Script(ruleset, "", "Axis", "", "", "")
    data, _ = ask_setup(Conversation(None, script), MAPS_DIR)
    assert data["game"] == OWN_GAME[ruleset]
    pinned = {
        base.key for path in sorted((REPO / "maps").glob("*.toml")) for profile in [load_profile(path)] if ruleset in profile.rulesets for base in profile.games
    }
    assert set(listed_games(script)) == pinned and OWN_GAME[ruleset] in pinned


def test_a_game_of_another_ruleset_is_refused_at_the_game_question_before_any_other() -> None:
    # Kremlin Classic (001) on the AA50 game: its map profile is written for kremlin-aa50 only; it was
    # refused only once the draft was opened, after every set-up question.
    script = Script("kremlin-classic", "world_war_ii_v3/WW2v3-1941.xml", "world_war_ii_classic/classic_3rd_edition.xml", "Axis", "", "", "")
    data, _ = ask_setup(Conversation(None, script), MAPS_DIR)
    assert script.asked[:3] == ["ruleset> ", "game> ", "game> "]
    assert "  world_war_ii_v3/WW2v3-1941.xml is not a game for kremlin-classic: its map profile world_war_ii_v3.toml is written for kremlin-aa50" in script.said
    assert data["game"] == "world_war_ii_classic/classic_3rd_edition.xml"


def test_a_ruleset_whose_maps_are_not_installed_says_which_map_to_download(tmp_path: Path) -> None:
    maps = tmp_path / "downloadedMaps"
    maps.mkdir()
    (maps / "world_war_ii_v3").symlink_to(MAPS_DIR / "world_war_ii_v3", target_is_directory=True)
    script = Script("kremlin-daak", "kremlin-aa50", "", "Axis", "", "", "")
    data, _ = ask_setup(Conversation(None, script), maps)
    assert (
        f"  no game kremlin-daak was written for is installed in {maps}: download the map world_war_ii_classic in TripleA (Download Maps); or choose another ruleset"
        in script.said
    )
    assert script.asked[:3] == ["ruleset> ", "ruleset> ", "game> "]
    assert data["ruleset"] == "kremlin-aa50"


def test_a_long_list_of_choices_left_to_completion_says_how_many_and_how_to_see_them(tmp_path: Path) -> None:
    from kremlin_triplea.assistant.asking import Choice

    session = draft(tmp_path, [])
    zones = sorted(p for p in session.game.board.nodes if session.game.board.node(p).get("water"))
    assert len(zones) > 30
    script = Script("help", zones[3])
    chosen = Conversation(session, script).choose("where> ", [Choice(z, (z,)) for z in zones], list_them=False)
    assert chosen == zones[3]
    assert script.said[0] == f"  {len(zones)} choices, not listed here: 'help' lists them, Tab completes a name"
    assert all(zone in script.said[1] for zone in zones)  # help lists every one


def test_resume_goes_up_to_the_first_pick_the_rules_refuse_and_asks_it_again(tmp_path: Path) -> None:
    # A hand-edited draft: pick 3 places German infantry in Russia, which the Germans do not own (000 option 1).
    text = (REPO / "examples" / "kremlin-aa50-1941.toml").read_text(encoding="utf-8")
    edited = text.replace(
        'place = [{ power = "Germans", unit = "infantry", count = 3, at = "France" }]',
        'place = [{ power = "Germans", unit = "infantry", count = 3, at = "Russia" }]',
        1,
    )
    assert edited != text
    path = tmp_path / "draft.toml"
    path.write_text(edited, encoding="utf-8")
    result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "draft", "--resume", str(path)], input="quit\n")
    assert result.exit_code == 130, result.output
    picks = len(read_toml(path)["pick"])
    assert f"{path}: pick 3 (Axis, option 1 Infantry Placement): Germans infantry in Russia: Russia is owned by Russians" in result.output
    assert f"Resuming {path} up to pick 3, asked again; picks 3 to {picks} and the bid leave the file when it is made." in result.output
    assert "Pick 3 of 10: the Axis choose." in result.output
    assert path.read_text(encoding="utf-8") == edited  # nothing is dropped until pick 3 is made again


def test_a_profile_of_the_hosts_own_is_offered_and_a_pair_that_does_not_open_is_refused_at_the_game_question(tmp_path: Path) -> None:
    # The host's profiles/<map>.toml beside the maps folder is found first, as apply finds it. This one claims
    # kremlin-classic for the AA50 map; 001's neutrals (Rio de Oro...) are not on it, so the pair is refused as
    # the draft would be opened, at the game question, and another game is asked for.
    maps = tmp_path / "downloadedMaps"
    maps.mkdir()
    for name in ("world_war_ii_v3", "world_war_ii_classic"):
        (maps / name).symlink_to(MAPS_DIR / name, target_is_directory=True)
    (tmp_path / "profiles").mkdir()
    text = (REPO / "maps" / "world_war_ii_v3.toml").read_text(encoding="utf-8")
    claimed = text.replace('rulesets = ["kremlin-aa50"]', 'rulesets = ["kremlin-aa50", "kremlin-classic"]', 1)
    assert claimed != text
    (tmp_path / "profiles" / "world_war_ii_v3.toml").write_text(claimed, encoding="utf-8")
    script = Script("kremlin-classic", "world_war_ii_v3/WW2v3-1941.xml", "", "Axis", "", "", "")
    data, _ = ask_setup(Conversation(None, script), maps)
    assert "world_war_ii_v3/WW2v3-1941.xml" in listed_games(script)
    (refusal,) = [line for line in script.said if line.startswith("  refused: ")]
    assert "Rio de Oro" in refusal
    assert script.asked[:4] == ["ruleset> ", "game> ", "game> ", "the first pick is for which side> "]
    assert data["game"] == "world_war_ii_classic/classic_3rd_edition.xml"  # 001's own game of those installed


@pytest.mark.parametrize("set_id", ["house-classic", "house-revised"])
def test_every_switch_and_every_advantage_has_help(tmp_path: Path, set_id: str) -> None:
    from kremlin_triplea.assistant.house import HouseQuestions

    house = load_named_house_set(set_id)
    session = draft(
        tmp_path, [], **({"ruleset": "kremlin-classic", "game": "world_war_ii_classic/classic.xml", "per_side": 2} if set_id == "house-classic" else {})
    )
    questions = HouseQuestions(Conversation(session, Script()))
    questions.house = house
    for switch in house.choices:
        lines = questions.help_lines(switch)
        assert lines and lines[0].startswith(f"{set_id} switch {switch} (default ")
        for rule in (r for r in house.rules.rules if r.when == switch):
            assert " ".join(rule.rule.split())[:50] in " ".join(" ".join(lines).split())
    for power in house.powers:
        questions.power = power
        for advantage in house.advantages_of(power):
            lines = questions.help_lines(str(advantage.number))
            assert lines[0].startswith(advantage.rule.title) and " ".join(advantage.rule.rule.split())[:50] in " ".join(" ".join(lines).split())


@pytest.mark.parametrize(
    ("ruleset", "game"), [("kremlin-classic", "world_war_ii_classic/classic_3rd_edition.xml"), ("kremlin-daak", "world_war_ii_classic/classic.xml")]
)
@pytest.mark.parametrize("keep", ["1", "2"])
def test_house_classic_joins_a_kremlin_classic_draft_by_the_victory_conditions_the_host_keeps(tmp_path: Path, ruleset: str, game: str, keep: str) -> None:
    """003 Winning and 001 header 4 / 002 I. "Both IPC Victory" write the same game options differently (issue 42
    item 3): the terminal asks which holds when the set is taken, and the draft says it (003's: `choices =
    ["house_victory"]`; the ruleset's: the set's switch `winning` off). Either way the draft is one apply writes."""
    session = draft(tmp_path, [], ruleset=ruleset, game=game, per_side=4)
    script = Script("house-classic", keep, "", "", "")  # the set; which holds; the switches, the advantages, no other set as they are
    Conversation(session, script).ask_house_rules()
    assert "house-classic: which holds? (1, 2)> " in script.asked, script.asked
    data = read_toml(session.path)
    if keep == "1":
        assert data.get("choices") == ["house_victory"] and data.get("house_rule_choices", {}).get("house-classic", {}).get("winning", True)
    else:
        assert "house_victory" not in data.get("choices", []) and data["house_rule_choices"]["house-classic"]["winning"] is False
    assert Session.open(session.path, maps_dir=MAPS_DIR).house_rules == ["house-classic"]  # taken again from the file, checked as apply writes it

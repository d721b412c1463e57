"""The apply, options and legal commands."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kremlin_triplea.cli.main import main
from kremlin_triplea.game import load
from support.aa50 import SEED
from support.lines import last_line_of, line_of
from support.paths import AA50_1941, MAPS_DIR

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "kremlin-aa50-1941.toml"


def run(*args: str):
    return CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), *args])


def test_apply_the_example_writes_the_game_and_a_summary(tmp_path: Path) -> None:
    out = tmp_path / "kremlin.xml"
    result = run("apply", str(EXAMPLE), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert "pick 1 (Axis, option 10 Takeover of enemy held territory):" in result.stdout
    assert "2 Russians infantry retreat from Archangel to Russia" in result.stdout
    assert "bid 11: units worth 10 PUs placed, 1 unspent" in result.stdout
    game = load(out)
    assert game.name == "World War II v3 1941 - Kremlin (kremlin-aa50)"
    notes = game.board.properties["notes"]
    # The ruleset as players know it (000_bc04a4edf7f7d2ab.txt's title in rulesets/kremlin-aa50.toml), not its file id.
    assert "Kremlin draft" in notes and "Kremlin bonus options for AA50" in notes
    picks = notes[notes.index("<ol>") : notes.index("</ol>")]  # the picks' list; the rules' lists follow it
    assert picks.count("<li>") == 10
    assert game.board.owner("Archangel") == "Germans"


def test_apply_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    out = tmp_path / "kremlin.xml"
    out.write_text("keep me")
    result = run("apply", str(EXAMPLE), "-o", str(out))
    assert result.exit_code == 2 and "already exists" in result.stderr
    assert out.read_text() == "keep me"
    assert run("apply", str(EXAMPLE), "-o", str(out), "--force").exit_code == 0


def test_apply_a_broken_draft_prints_the_rule_and_writes_nothing(tmp_path: Path) -> None:
    draft = tmp_path / "draft.toml"
    draft.write_text(EXAMPLE.read_text().replace('at = "Morocco Algeria"', 'at = "Libya"'))
    out = tmp_path / "kremlin.xml"
    result = run("apply", str(draft), "-o", str(out))
    assert result.exit_code == 1
    assert not out.exists()
    assert result.stderr.count("\n") == 1
    assert f"{draft}:{line_of(draft.read_text(), '[bid]')}: bid (Axis 11): Libya is owned by Italians, not Germans" in result.stderr
    assert '"German units may be placed only on German-owned territories and sea zones;' in result.stderr
    assert f"({SEED}, C) Bidding)" in result.stderr


def test_apply_a_draft_with_a_broken_pick(tmp_path: Path) -> None:
    draft = tmp_path / "draft.toml"
    draft.write_text(EXAMPLE.read_text().replace('retreat = [{ to = "Russia" }]', "retreat = []"))
    result = run("apply", str(draft), "-o", str(tmp_path / "out.xml"))
    assert result.exit_code == 1
    # 000 option 10: the retreating side "decides where to retreat those units after the bidding process is complete".
    first_pick = line_of(draft.read_text(), "[[pick]]")
    assert result.stderr.startswith(
        f"kremlin-triplea: error: {draft}:{first_pick}: pick 1 (Axis, option 10 Takeover of enemy held territory), retreat of 2 Russians infantry"
    )
    assert "they may go to any of Belorussia, Karelia S.S.R., Russia, Urals; the Allies must say which" in result.stderr
    assert f"({SEED}, option 10)" in result.stderr


def test_a_pick_that_breaks_its_option_is_reported_at_its_table(tmp_path: Path) -> None:
    text = EXAMPLE.read_text().replace('count = 3, at = "France"', 'count = 2, at = "France"')
    draft = tmp_path / "draft.toml"
    draft.write_text(text)
    result = run("apply", str(draft), "-o", str(tmp_path / "out.xml"))
    assert result.exit_code == 1
    third_pick = [n for n, line in enumerate(text.splitlines(), 1) if line == "[[pick]]"][2]
    # 000 option 1: "Place three infantry ..."
    assert result.stderr.startswith(f"kremlin-triplea: error: {draft}:{third_pick}: pick 3 (Axis, option 1 Infantry Placement): the pick places 2 infantry")


def test_apply_unknown_name_suggests_close_matches(tmp_path: Path) -> None:
    draft = tmp_path / "draft.toml"
    draft.write_text(EXAMPLE.read_text().replace('territory = "Archangel"', 'territory = "Archangle"'))
    result = run("apply", str(draft), "-o", str(tmp_path / "out.xml"))
    assert result.exit_code == 2
    assert "unknown territory 'Archangle'" in result.stderr and "did you mean 'Archangel'" in result.stderr


@pytest.mark.parametrize(
    ("old", "new", "located", "message"),
    [
        ('ruleset = "kremlin-aa50"', 'ruleset = "kremlin-aa5"', "ruleset", "unknown ruleset 'kremlin-aa5'; did you mean 'kremlin-aa50'"),
        (
            'game = "world_war_ii_v3/WW2v3-1941.xml"',
            'game = "wold_war_ii_v3/WW2v3-1941.xml"',
            "game",
            "wold_war_ii_v3/WW2v3-1941.xml: unknown map 'wold_war_ii_v3'; did you mean 'world_war_ii_v3'",
        ),
        ('game = "world_war_ii_v3/WW2v3-1941.xml"', 'game = "missing.xml"', "game", "missing.xml: no such file"),
        ('first = "Axis"', 'first = "Axes"', "first", "unknown side 'Axes'"),
        ("option = 10", "option = 12", "pick 1, option", "unknown option '12' in ruleset kremlin-aa50"),
        ('option = "infantry"', 'option = "infantri"', "pick 3, option", "unknown option 'infantri' in ruleset kremlin-aa50; did you mean 'infantry'"),
        (
            'ruleset = "kremlin-aa50"',
            'ruleset = "kremlin-aa50"\nhouse_rules = ["house-revize"]',
            "house_rules",
            "unknown ruleset 'house-revize'; did you mean 'house-revised'",
        ),
        ('ruleset = "kremlin-aa50"', 'ruleset = "kremlin-aa50"\nhouse_rules = ["kremlin-classic"]', "house_rules", "kremlin-classic is a Kremlin ruleset"),
        ('ruleset = "kremlin-aa50"', 'ruleset = "kremlin-aa50"\nprofile = "v3.toml"', "profile", "no such file"),
    ],
)
def test_a_wrong_value_in_the_draft_is_reported_at_its_line(tmp_path: Path, old: str, new: str, located: str, message: str) -> None:
    """The card: bad input gets one line saying what is wrong and where -- the draft file and line, the pick as players number it."""
    text = EXAMPLE.read_text().replace(old, new, 1)
    draft = tmp_path / "draft.toml"
    draft.write_text(text)
    result = run("apply", str(draft), "-o", str(tmp_path / "out.xml"))
    assert result.exit_code == 2, result.output
    line = last_line_of(text, new)  # the line the wrong value is written on
    assert result.stderr.startswith(f"kremlin-triplea: error: {draft}:{line}: {located}: "), result.stderr
    assert message in result.stderr and result.stderr.count("\n") == 1


def test_a_rule_file_named_by_a_relative_path_is_found_beside_the_draft(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Like its game and profile: a host keeps `my-rules.toml` beside the draft and runs the command from anywhere."""
    folder = tmp_path / "evening"
    folder.mkdir()
    rules = (REPO / "rulesets" / "kremlin-aa50.toml").read_text().replace('id = "kremlin-aa50"', 'id = "our-kremlin"', 1)
    (folder / "my-rules.toml").write_text(rules)
    (folder / "draft.toml").write_text(EXAMPLE.read_text().replace('ruleset = "kremlin-aa50"', 'ruleset = "my-rules.toml"'))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    result = run("apply", str(folder / "draft.toml"), "-o", str(tmp_path / "out.xml"))
    assert result.exit_code == 0, result.stderr
    assert "ruleset our-kremlin" in result.stdout


@pytest.mark.parametrize(
    "command",
    [
        ["apply", str(EXAMPLE), "-o", "{out}"],
        ["legal", str(EXAMPLE)],
        ["value", str(EXAMPLE)],
        ["render", str(EXAMPLE), "-o", "{out}.svg"],
        ["house", str(AA50_1941), "-r", "house-revised", "-o", "{out}"],
    ],
    ids=lambda command: command[0],
)
def test_a_profile_naming_a_place_its_own_game_lacks_is_refused_before_any_pick(tmp_path: Path, command: list[str]) -> None:
    """A profile entry used as written (the capital marker's refuge, maps/world_war_ii_v3.toml) must exist on its pinned game.

    Every command taking ``--profile`` reads the game with the profile given (passed down, issue 30), so each refuses it."""
    profile = tmp_path / "v3.toml"
    profile.write_text((REPO / "maps" / "world_war_ii_v3.toml").read_text().replace('refuge = "Himalaya"', 'refuge = "Himalayas"'))
    result = run(*[word.format(out=tmp_path / "out.xml") for word in command], "--profile", str(profile))
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"kremlin-triplea: error: {profile}: the map profile does not fit {AA50_1941}: capital_marker.refuge = 'Himalayas'")
    assert "close: Himalaya" in result.stderr
    assert not (tmp_path / "out.xml").exists()


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            'territory="Kiangsu" quantity="3" owner="Japanese"',
            'territory="Kiangsu" quantity="3" owner="Japan"',
            "unitPlacement owner: unknown player 'Japan' (did you mean 'Japanese'?); TripleA silently makes these units neutral (owned by no player)",
        ),
        (
            '<territoryOwner territory="France" owner="Germans"',
            '<territoryOwner territory="France" owner="Vichy"',
            "territoryOwner owner: unknown player 'Vichy'; TripleA refuses to load the game",
        ),
    ],
)
def test_a_base_game_naming_an_undeclared_player_is_refused_before_any_pick(tmp_path: Path, old: str, new: str, message: str) -> None:
    # TripleA refuses a territory owner it does not know; a unit owner it does not know is no owner to 1.9 and a
    # missing one to 2.x (the card; 2.7's GameParser.parseUnitPlacement): no rule can be checked on that position.
    # apply checks the base game first and says so in validate's words, at validate's line (issue 33).
    base = AA50_1941.read_text(encoding="utf-8")
    assert old in base
    game = tmp_path / "game.xml"
    game.write_text(base.replace(old, new, 1), encoding="utf-8")
    line = line_of(game.read_text(encoding="utf-8"), new)
    for draft in (EXAMPLE, REPO / "examples" / "house-revised-1942.toml"):
        result = run("apply", str(draft), "--game", str(game), "-o", str(tmp_path / "out.xml"))
        assert result.exit_code == 2, result.output
        assert result.stderr == f"kremlin-triplea: error: {game}:{line}: the base game is not one TripleA loads: {message}\n"
    assert not (tmp_path / "out.xml").exists()


def test_picks_per_side_beyond_the_rules_is_a_violation_at_its_line(tmp_path: Path) -> None:
    text = EXAMPLE.read_text().replace("picks_per_side = 5", "picks_per_side = 12")
    draft = tmp_path / "draft.toml"
    draft.write_text(text)
    result = run("apply", str(draft), "-o", str(tmp_path / "out.xml"))
    assert result.exit_code == 1
    # 000 A) Order of Bonus Options: "...if both agree then they can choose up to eleven options each."
    assert result.stderr.startswith(
        f"kremlin-triplea: error: {draft}:{line_of(text, 'picks_per_side')}: picks_per_side: 12 picks per side; the rules allow 4 to 11"
    )


def test_apply_game_option_overrides_the_draft(tmp_path: Path) -> None:
    draft = tmp_path / "draft.toml"
    draft.write_text(EXAMPLE.read_text().replace('game = "world_war_ii_v3/WW2v3-1941.xml"', 'game = "no/such-game.xml"'))
    out = tmp_path / "out.xml"
    assert run("apply", str(draft), "-o", str(out)).exit_code == 2
    result = run("apply", str(draft), "--game", str(AA50_1941), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert load(out).name.startswith("World War II v3 1941")


def test_apply_warns_when_the_base_file_is_not_the_pinned_one(tmp_path: Path) -> None:
    copy = tmp_path / "WW2v3-1941.xml"
    copy.write_bytes(AA50_1941.read_bytes().replace(b"<info name=", b"<!-- edited -->\n  <info name=", 1))
    result = run("apply", str(EXAMPLE), "--game", str(copy), "-o", str(tmp_path / "out.xml"))
    assert result.exit_code == 0
    assert "warning:" in result.stderr and "differs from the WW2v3-1941.xml" in result.stderr


def test_options_lists_every_option_with_its_rule() -> None:
    result = run("options")
    assert result.exit_code == 0
    for number in range(1, 11):
        assert f"\n{number}. " in result.stdout
    assert "Argentina: 2 IPC, 2 infantry, 1 transport, 1 cruiser" in result.stdout
    assert "China: options 1, 2, 3, 6, 7, 10 only" in result.stdout


def test_legal_lists_the_next_picks_choices(tmp_path: Path) -> None:
    draft = tmp_path / "draft.toml"
    draft.write_text(
        'ruleset = "kremlin-aa50"\ngame = "world_war_ii_v3/WW2v3-1941.xml"\nfirst = "Axis"\n'
        '[[pick]]\nside = "Axis"\noption = 6\nplace = [{ power = "Japanese", unit = "fighter", at = "French Indo-China" }]\n'
    )
    result = run("legal", str(draft))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("Pick 2 of 8: the Allies choose.")
    takeovers = [line for line in result.stdout.splitlines() if line.startswith("  Chinese take ")]
    assert takeovers and not any("French Indo-China Thailand" in line for line in takeovers)  # locked by the Axis fighter
    assert "  Chinese take Kiangsu (retreats, declared after the bid; now: 3 Japanese infantry -> Manchuria)" in result.stdout


def test_legal_after_all_picks_lists_the_bid() -> None:
    result = run("legal", str(EXAMPLE))
    assert result.exit_code == 0
    assert result.stdout.startswith("All 10 picks are made; next is the bid.")
    assert "  Germans may place on: Archangel" in result.stdout


def test_a_ruleset_on_a_map_whose_profile_lacks_its_names_names_the_rule_and_the_profile(tmp_path: Path) -> None:
    # 000 D(5) "Special China Rules": kremlin-aa50 restricts China, a power World War II Revised does not have, and
    # the Revised profile (maps/world_war_ii_revised.toml) was written for another ruleset. The one line says which
    # rule needs the name, its source, and which profile to complete.
    draft = tmp_path / "revised.toml"
    draft.write_text('ruleset = "kremlin-aa50"\ngame = "world_war_ii_revised/ww2v2.xml"\nfirst = "Axis"\npicks_per_side = 4\npick = []\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "legal", str(draft)])
    assert result.exit_code == 2
    (line,) = result.output.strip().splitlines()
    assert line.startswith(
        f"kremlin-triplea: error: {REPO / 'maps' / 'world_war_ii_revised.toml'}: kremlin-aa50, the China restriction (000_bc04a4edf7f7d2ab.txt, D)"
    )
    assert "unknown power 'China' in World War II Revised" in line and "[unmatched]" in line


@pytest.mark.parametrize(
    ("args", "given", "says"),
    [
        (("apply", "{file}", "-o", "{out}"), "maps/world_war_ii_v3.toml", "this is a map profile, not a draft: `kremlin-triplea profile check"),
        (("legal", "{file}"), "rulesets/kremlin-aa50.toml", "this is a Kremlin ruleset, not a draft: `kremlin-triplea options --ruleset"),
        (("apply", "{file}", "-o", "{out}"), "rulesets/house-revised.toml", "this is a house-rule set, not a draft"),
        (("options", "--ruleset", "{file}"), "maps/world_war_ii_v3.toml", "this is a map profile, not a Kremlin ruleset or a house-rule set"),
        (
            ("options", "--ruleset", "{file}"),
            "examples/kremlin-aa50-1941.toml",
            "this is a draft, not a Kremlin ruleset or a house-rule set: `kremlin-triplea apply",
        ),
        (("profile", "check", "{file}"), "rulesets/kremlin-aa50.toml", "this is a Kremlin ruleset, not a map profile"),
        (("profile", "check", "{file}"), "examples/kremlin-aa50-1941.toml", "this is a draft, not a map profile"),
    ],
)
def test_a_data_file_given_where_another_kind_belongs_is_named_for_what_it_is(tmp_path: Path, args: tuple[str, ...], given: str, says: str) -> None:
    """Four kinds of TOML file (draft, ruleset, house-rule set, map profile): one given for another is told apart by its
    own tables, not refused by its first key the reader does not know."""
    file = REPO / given
    result = run(*(a.format(file=file, out=tmp_path / "out.xml") for a in args))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"kremlin-triplea: error: {file}: {says}"), result.stderr
    assert not (tmp_path / "out.xml").exists()


def test_a_rule_file_named_by_a_path_that_does_not_exist_is_a_missing_file_not_an_unknown_id(tmp_path: Path) -> None:
    result = run("options", "--ruleset", str(tmp_path / "ours.toml"))
    assert result.exit_code == 2 and result.stderr == f"kremlin-triplea: error: --ruleset: {tmp_path / 'ours.toml'}: no such file\n"
    result = run("profile", "check", str(tmp_path / "v5.toml"))
    assert result.exit_code == 2 and result.stderr == f"kremlin-triplea: error: {tmp_path / 'v5.toml'}: no such file\n"


@pytest.mark.parametrize("command", [("serve", "{draft}", "--port", "0"), ("draft", "--resume", "{draft}")])
def test_a_draft_of_house_rules_only_has_nothing_to_draft_and_says_what_writes_it(tmp_path: Path, command: tuple[str, ...]) -> None:
    draft = tmp_path / "house.toml"
    draft.write_bytes((REPO / "examples" / "house-revised-1942.toml").read_bytes())
    result = run(*(part.format(draft=draft) for part in command))
    assert result.exit_code == 2
    assert (
        result.stderr
        == f"kremlin-triplea: error: {draft}: a draft of house rules only has no picks to make: `kremlin-triplea apply {draft} -o GAME.xml` writes it\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["house.toml"]  # no room file, the draft untouched
    assert draft.read_bytes() == (REPO / "examples" / "house-revised-1942.toml").read_bytes()

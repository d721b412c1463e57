"""The apply, options and legal commands."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from kremlin_triplea.cli.main import main
from kremlin_triplea.game import load
from support.aa50 import SEED
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
    assert "bid (Axis 11): Libya is owned by Italians, not Germans" in result.stderr
    assert '"German units may be placed only on German-owned territories and sea zones;' in result.stderr
    assert f"({SEED}, C) Bidding)" in result.stderr


def test_apply_a_draft_with_a_broken_pick(tmp_path: Path) -> None:
    draft = tmp_path / "draft.toml"
    draft.write_text(EXAMPLE.read_text().replace('retreat = [{ to = "Russia" }]', "retreat = []"))
    result = run("apply", str(draft), "-o", str(tmp_path / "out.xml"))
    assert result.exit_code == 1
    # 000 option 10: the retreating side "decides where to retreat those units after the bidding process is complete".
    assert result.stderr.startswith("kremlin-triplea: error: pick 1 (Axis, option 10 Takeover of enemy held territory), retreat of 2 Russians infantry")
    assert "they may go to any of Belorussia, Karelia S.S.R., Russia, Urals; the Allies must say which" in result.stderr
    assert f"({SEED}, option 10)" in result.stderr


def test_apply_unknown_name_suggests_close_matches(tmp_path: Path) -> None:
    draft = tmp_path / "draft.toml"
    draft.write_text(EXAMPLE.read_text().replace('territory = "Archangel"', 'territory = "Archangle"'))
    result = run("apply", str(draft), "-o", str(tmp_path / "out.xml"))
    assert result.exit_code == 2
    assert "unknown territory 'Archangle'" in result.stderr and "did you mean 'Archangel'" in result.stderr


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

"""The command line: output formats, exit codes, one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from kremlin_triplea.cli.main import main
from kremlin_triplea.errors import KremlinError
from support.paths import AA50_1941, MAPS_DIR


def run(*args: str) -> Result:
    """The command as a user runs it, in this process: its exit status, stdout and stderr apart. An error the command
    does not turn into its one line escapes ``main`` and is ``result.exception`` (exit status 1), never a 2."""
    return CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), *args])


def python(*args: str) -> subprocess.CompletedProcess[str]:
    """The command in a Python of its own: where what the interpreter does is the point (a traceback, a closed pipe)."""
    return subprocess.run([sys.executable, "-m", "kremlin_triplea", *args], capture_output=True, text=True, timeout=120)


def test_show_json_has_the_documented_shape() -> None:
    result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "show", "--json", "world_war_ii_v3/WW2v3-1941.xml"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["game"] == "World War II v3 1941"
    assert data["players"]["Germans"] == {"alliance": "Axis", "alliances": ["Axis"], "pus": 31}
    finland = data["territories"]["Finland"]
    assert finland["water"] is False and finland["owner"] == "Germans" and finland["production"] == 2
    assert finland["units"] == [{"owner": "Germans", "type": "infantry", "count": 2}]
    assert data["territories"]["Sweden"]["owner"] is None
    assert data["properties"]["Low Luck"] == "false"


def test_show_text_lists_powers_neutrals_and_options() -> None:
    result = CliRunner().invoke(main, ["show", str(AA50_1941)])
    assert result.exit_code == 0, result.output
    assert "  Germans          31      9     31     44  Germany" in result.output
    assert "Mongolia (0 IPC; impassable; capital of Chinese)" in result.output
    assert "Low Luck: false" in result.output


def test_maps_lists_games() -> None:
    result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "maps"])
    assert result.exit_code == 0
    assert "world_war_ii_v3/WW2v3-1942.xml" in result.output and "World War II v3 1942" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["show", "/no/such/game.xml"], "kremlin-triplea: error: /no/such/game.xml: no such file"),
        (["show", "world_war_ii_v3/WW2v3-1492.xml"], "unknown game 'WW2v3-1492.xml' in map 'world_war_ii_v3'; did you mean"),
        (["show", "wold_war_ii_v3/WW2v3-1942.xml"], "unknown map 'wold_war_ii_v3'; did you mean 'world_war_ii_v3'"),
    ],
)
def test_errors_are_one_line_with_exit_status_2(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_malformed_and_non_game_files(tmp_path: Path) -> None:
    broken = tmp_path / "broken.xml"
    broken.write_text("<game>\n  <map>\n</game>\n")
    result = run("show", str(broken))
    assert result.exit_code == 2 and f"{broken}:3: malformed XML" in result.stderr
    other = tmp_path / "other.xml"
    other.write_text("<svg/>")
    result = run("show", str(other))
    assert result.exit_code == 2 and "not a TripleA game file: the root element is <svg>" in result.stderr


def test_debug_shows_the_traceback() -> None:
    result = python("--maps-dir", str(MAPS_DIR), "--debug", "show", "/no/such/game.xml")
    assert result.returncode != 0 and "Traceback" in result.stderr


def test_validate_shows_warnings_and_passes_unless_strict() -> None:
    # classic.xml connects Congo Sea Zone and South Brazil Sea Zone twice; TripleA keeps a set of neighbours.
    result = run("validate", "world_war_ii_classic/classic.xml")
    assert result.exit_code == 0
    assert "warning: duplicate connection 'Congo Sea Zone' - 'South Brazil Sea Zone'" in result.stdout
    assert "valid for TripleA 2.x (1 warning)" in result.stdout
    strict = run("validate", "--strict", "world_war_ii_classic/classic.xml")
    assert strict.exit_code == 1 and "0 errors, 1 warning" in strict.stderr


def test_validate_exit_codes_and_file_line_messages(tmp_path: Path) -> None:
    assert run("validate", "world_war_ii_v3/WW2v3-1942.xml").exit_code == 0
    broken = tmp_path / "broken.xml"
    broken.write_text(AA50_1941.read_text().replace('owner="Germans"/>', 'owner="Germens"/>', 1))
    result = run("validate", str(broken))
    assert result.exit_code == 1
    line = next(n for n, text in enumerate(broken.read_text().splitlines(), 1) if "Germens" in text)
    assert f"{broken}:{line}: " in result.stdout and "Germens" in result.stdout


def test_verify_takes_map_slash_game_and_reports_only_what_a_written_game_adds(tmp_path: Path) -> None:
    # kremlin.xml connects Congo Sea Zone and South Brazil Sea Zone twice (a warning of its own).
    base = run("verify", "classic_variations/kremlin.xml")
    assert base.exit_code == 0 and "duplicate connection 'Congo Sea Zone'" in base.stdout
    written = tmp_path / "kremlin-draft.xml"
    draft = Path(__file__).resolve().parents[1] / "examples" / "kremlin-classic-kremlin.toml"
    assert run("apply", str(draft), "-o", str(written)).exit_code == 0
    result = run("verify", str(written))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "duplicate connection" not in result.stdout
    assert "beyond those of its base game" in result.stdout and "kremlin.xml" in result.stdout
    # A fault the written game adds is reported, and fails it.
    text = written.read_text(encoding="utf-8")
    broken = tmp_path / "broken.xml"
    broken.write_text(text.replace('owner="Germans"/>', 'owner="Germens"/>', 1), encoding="utf-8")
    result = run("verify", str(broken))
    assert result.exit_code == 1
    assert [line for line in result.stdout.splitlines() if line.startswith(str(broken) + ":")][:-1] != []
    assert all("Germens" in line for line in result.stdout.splitlines()[:-1])


def test_maps_dir_and_debug_work_after_the_command_name(tmp_path: Path) -> None:
    def bare(*args: str) -> Result:
        """No maps folder but the one given: none in the environment, an empty home."""
        return CliRunner(env={"KREMLIN_TRIPLEA_MAPS": None, "HOME": str(tmp_path)}).invoke(main, list(args))

    shown = bare("show", "--maps-dir", str(MAPS_DIR), "world_war_ii_v3/WW2v3-1941.xml")
    assert shown.exit_code == 0 and shown.stdout.startswith("World War II v3 1941")
    # Given after the command name, it replaces the one given before it.
    checked = bare("--maps-dir", str(tmp_path), "validate", "world_war_ii_v3/WW2v3-1941.xml", "--maps-dir", str(MAPS_DIR))
    assert checked.exit_code == 0, checked.stderr
    # --debug after the command name lets the error escape (the interpreter prints its traceback: test_debug_shows_the_traceback).
    failed = bare("show", "/no/such/game.xml", "--debug")
    assert isinstance(failed.exception, KremlinError) and failed.stderr == ""
    quiet = bare("show", "/no/such/game.xml")
    assert quiet.exit_code == 2 and isinstance(quiet.exception, SystemExit) and quiet.stderr.count("\n") == 1


def test_verify_without_its_base_reports_every_finding_with_a_warning(tmp_path: Path) -> None:
    draft = Path(__file__).resolve().parents[1] / "examples" / "kremlin-classic-kremlin.toml"
    written = tmp_path / "kremlin-draft.xml"
    assert run("apply", str(draft), "-o", str(written)).exit_code == 0
    moved = tmp_path / "moved.xml"
    moved.write_text(written.read_text(encoding="utf-8").replace('"map": "classic_variations"', '"map": "gone"'), encoding="utf-8")
    result = run("verify", str(moved))
    assert result.exit_code == 0  # kremlin.xml's duplicate connection is a warning
    assert "cannot find the base game gone/kremlin.xml" in result.stderr
    assert "warning: duplicate connection 'Congo Sea Zone'" in result.stdout


def test_a_reader_that_stops_early_ends_the_command_quietly() -> None:
    """`kremlin-triplea maps | head -1`: the closed pipe ends the command as SIGPIPE ends a shell tool, with no error line."""
    reader, writer = os.pipe()
    os.close(reader)  # the reader is gone before the command writes a byte
    with os.fdopen(writer, "w") as closed:
        done = subprocess.run(
            [sys.executable, "-m", "kremlin_triplea", "--maps-dir", str(MAPS_DIR), "maps"], stdout=closed, stderr=subprocess.PIPE, text=True, timeout=120
        )
    assert done.returncode == 128 + 13  # SIGPIPE's number on Linux
    assert done.stderr == ""


# The game each house-rule set is written for (../shared/seeds/README.md: 003 the classic games, 004 Revised/AA50).
HOUSE_GAMES = {"house-classic": "world_war_ii_classic/classic.xml", "house-revised": "world_war_ii_v3/WW2v3-1941.xml"}


def test_every_example_in_house_help_is_accepted_by_the_set_it_names(tmp_path: Path) -> None:
    import re

    text = " ".join(run("house", "--help").output.split())
    # "--choose NAME=VALUE ... e.g. colonial_garrison_at=India (house-revised), or for one power UK.at=India (house-classic; also British.at=India)"
    examples: dict[str, list[tuple[str, str, str]]] = {}
    for option in ("--advantage", "--choose", "--switch"):
        described = text.split(f"{option} ")[1].split(" --")[0]
        for value, set_id, also in re.findall(r"(\S+=[\w.-]+) \((house-[\w-]+)(?:; also (\S+=[\w.-]+))?\)", described):
            examples.setdefault(set_id, []).append((option, value, also))
    assert {option for found in examples.values() for option, _, _ in found} == {"--advantage", "--choose", "--switch"}
    for set_id, found in examples.items():
        # The set's examples together (what an advantage leaves to choose goes with that advantage), then each "also" in its example's place.
        variants = [[a for o, v, _ in found for a in (o, v)]]
        variants += [[a for o, v, _ in found for a in (o, also if (o, v) == (option, value) else v)] for option, value, also in found if also]
        for args in variants:
            result = run("house", HOUSE_GAMES[set_id], "-r", set_id, *args, "-o", str(tmp_path / "game.xml"), "--force")
            assert result.exit_code == 0, (set_id, args, result.output)


def test_a_bare_game_file_name_is_found_in_the_maps_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no such file here
    found = run("show", "WW2v3-1941.xml", "--json")
    assert found.exit_code == 0, found.output
    assert json.loads(found.stdout) == json.loads(run("show", "world_war_ii_v3/WW2v3-1941.xml", "--json").stdout)
    missing = run("show", "no-such-game.xml")
    assert missing.exit_code == 2
    assert missing.stderr == f"kremlin-triplea: error: no-such-game.xml: no such file here, nor a game of that file name in the maps folder {MAPS_DIR}\n"


def test_a_map_not_installed_says_where_to_get_it(tmp_path: Path) -> None:
    maps = tmp_path / "downloadedMaps"
    maps.mkdir()
    (maps / "world_war_ii_v3").symlink_to(MAPS_DIR / "world_war_ii_v3", target_is_directory=True)
    result = CliRunner().invoke(main, ["--maps-dir", str(maps), "show", "world_war_ii_revised/ww2v2.xml"])
    assert result.exit_code == 2
    assert "did you mean" not in result.stderr  # world_war_ii_v3 is not world_war_ii_revised misspelt
    assert f"unknown map 'world_war_ii_revised': not installed in {maps}; download it in TripleA (Download Maps) (installed: world_war_ii_v3)" in result.stderr

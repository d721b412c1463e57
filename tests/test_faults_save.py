"""Faults while a savegame is written: a command's outputs all or none, --force and permissions, kills (issue 27).

TripleA 2.x is stood in for (tests/support/fake_triplea2.py): these tests are about where files land and what is
left when something fails, which the engine has no say in; tests/test_savegame.py runs the real TripleA 2.7.
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from kremlin_triplea.cli.main import main
from support.fake_triplea2 import SAVE_BYTES, FakeTripleA2, install_fake
from support.paths import AA50_1941, MAPS_DIR

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "kremlin-aa50-1941.toml"


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> FakeTripleA2:
    scratch = tmp_path / "system-temp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))  # the system's temporary folder, watched by the tests
    return install_fake(monkeypatch.setattr)


def scratch_left(tmp_path: Path) -> list[str]:
    return sorted(p.name for p in (tmp_path / "system-temp").iterdir())


def run(*args: str, maps: Path = MAPS_DIR):
    return CliRunner().invoke(main, ["--maps-dir", str(maps), *args])


def files_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def one_line(result, status: int) -> str:
    assert result.exit_code == status, (result.exit_code, result.stdout, result.stderr)
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    return result.stderr


# -- save -------------------------------------------------------------------------------------------------


def test_save_writes_the_engines_bytes_as_they_are(tmp_path: Path, fake: FakeTripleA2) -> None:
    out = tmp_path / "out" / "game.tsvg"
    out.parent.mkdir()
    result = run("save", str(AA50_1941), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert out.read_bytes() == SAVE_BYTES
    assert files_in(out.parent) == ["game.tsvg"] and scratch_left(tmp_path) == []


@pytest.mark.linux_only
def test_save_force_keeps_the_permissions_of_the_file_it_replaces(tmp_path: Path, fake: FakeTripleA2) -> None:
    out = tmp_path / "game.tsvg"
    out.write_bytes(b"the host's private save")
    out.chmod(0o600)
    assert run("save", str(AA50_1941), "-o", str(out), "--force").exit_code == 0
    assert out.read_bytes() == SAVE_BYTES and stat.S_IMODE(out.stat().st_mode) == 0o600


def test_save_never_replaces_a_file_that_appears_while_it_runs(tmp_path: Path, fake: FakeTripleA2) -> None:
    out = tmp_path / "game.tsvg"
    fake.during = lambda: out.write_bytes(b"another program's file")
    assert "already exists" in one_line(run("save", str(AA50_1941), "-o", str(out)), 2)
    assert out.read_bytes() == b"another program's file"
    assert files_in(tmp_path) == ["game.tsvg", "system-temp"] and scratch_left(tmp_path) == []


def test_a_refused_save_writes_nothing_and_leaves_no_scratch(tmp_path: Path, fake: FakeTripleA2) -> None:
    fake.refuse = "Could not find player name: Vichy"
    out = tmp_path / "game.tsvg"
    assert "Vichy" in one_line(run("save", str(AA50_1941), "-o", str(out)), 1)
    assert not out.exists() and files_in(tmp_path) == ["system-temp"] and scratch_left(tmp_path) == []


# -- apply -o X --savegame S [--install]: all or none -------------------------------------------------------------


def test_apply_with_a_refused_savegame_writes_neither_file(tmp_path: Path, fake: FakeTripleA2) -> None:
    fake.refuse = "Could not find player name: Vichy"
    game, save = tmp_path / "game.xml", tmp_path / "game.tsvg"
    assert "Vichy" in one_line(run("apply", str(EXAMPLE), "-o", str(game), "--savegame", str(save)), 1)
    assert files_in(tmp_path) == ["system-temp"] and scratch_left(tmp_path) == []


@pytest.mark.linux_only
def test_apply_refuses_a_savegame_named_as_the_game_before_writing_either(tmp_path: Path, fake: FakeTripleA2) -> None:
    game = tmp_path / "game.xml"
    for force in ([], ["--force"]):
        message = one_line(run("apply", str(EXAMPLE), "-o", str(game), "--savegame", str(game), *force), 2)
        assert "--savegame names the game's own output file" in message
        assert files_in(tmp_path) == ["system-temp"] and fake.saves == []
    # The same file by another name: a hard link, a symbolic link.
    game.write_bytes(b"the host's game")
    os.link(game, tmp_path / "hard.tsvg")
    (tmp_path / "soft.tsvg").symlink_to(game)
    for other in ("hard.tsvg", "soft.tsvg"):
        message = one_line(run("apply", str(EXAMPLE), "-o", str(game), "--savegame", str(tmp_path / other), "--force"), 2)
        assert "--savegame names the game's own output file" in message
        assert game.read_bytes() == b"the host's game" and fake.saves == []


def test_apply_whose_savegame_cannot_be_written_leaves_no_game_and_installs_nothing(tmp_path: Path, fake: FakeTripleA2) -> None:
    import shutil

    maps = tmp_path / "maps"
    shutil.copytree(MAPS_DIR / "world_war_ii_v3", maps / "world_war_ii_v3")
    for path in [maps, *maps.rglob("*")]:
        path.chmod(path.stat().st_mode | 0o200)
    map_folder = maps / "world_war_ii_v3"
    before = {str(p): p.read_bytes() for p in map_folder.rglob("*") if p.is_file()}
    game, save = tmp_path / "game.xml", tmp_path / "game.tsvg"
    fake.during = lambda: save.write_bytes(b"another program's file")  # appears while the engine runs: no --force
    result = run("apply", str(EXAMPLE), "-o", str(game), "--savegame", str(save), "--install", "--name", "Kremlin", maps=maps)
    assert "already exists" in one_line(result, 2)
    assert not game.exists() and save.read_bytes() == b"another program's file"
    assert {str(p): p.read_bytes() for p in map_folder.rglob("*") if p.is_file()} == before


@pytest.mark.linux_only
def test_apply_force_puts_back_the_game_it_replaced_when_a_later_output_fails(tmp_path: Path, fake: FakeTripleA2) -> None:
    game, save = tmp_path / "game.xml", tmp_path / "game.tsvg"
    game.write_bytes(b"the host's game")
    game.chmod(0o600)
    fake.during = lambda: os.mkfifo(save)  # a FIFO appears where the savegame goes: refused even with --force
    result = run("apply", str(EXAMPLE), "-o", str(game), "--savegame", str(save), "--force")
    assert "FIFO" in one_line(result, 2)
    assert game.read_bytes() == b"the host's game" and stat.S_IMODE(game.stat().st_mode) == 0o600
    assert files_in(tmp_path) == ["game.tsvg", "game.xml", "system-temp"], "no backup or temporary file left"


def test_apply_writes_the_game_and_its_savegame(tmp_path: Path, fake: FakeTripleA2) -> None:
    game, save = tmp_path / "game.xml", tmp_path / "game.tsvg"
    result = run("apply", str(EXAMPLE), "-o", str(game), "--savegame", str(save))
    assert result.exit_code == 0, result.stderr
    assert f"wrote {save} with TripleA 2.7 (stand-in) on Java (stand-in)" in result.stdout
    assert save.read_bytes() == SAVE_BYTES and game.read_bytes() == run_apply_bytes(tmp_path)
    assert files_in(tmp_path) == ["game.tsvg", "game.xml", "plain.xml", "system-temp"] and scratch_left(tmp_path) == []


def run_apply_bytes(tmp_path: Path) -> bytes:
    """The game apply writes without a savegame: the same bytes with one."""
    plain = tmp_path / "plain.xml"
    assert run("apply", str(EXAMPLE), "-o", str(plain)).exit_code == 0
    return plain.read_bytes()


# -- kill -9 while the save is checked -----------------------------------------------------------------------

PAUSING_SAVE = """
import sys
from support.fake_triplea2 import install_fake
fake = install_fake(setattr)
fake.pause = True
from kremlin_triplea.cli.main import main
main(sys.argv[1:], prog_name="kremlin-triplea")
"""


@pytest.mark.linux_only
def test_a_kill_during_save_leaves_nothing_beside_the_output_and_the_next_run_removes_its_scratch(tmp_path: Path, fake: FakeTripleA2) -> None:
    out_folder, system_temp = tmp_path / "out", tmp_path / "system-temp"
    out_folder.mkdir()
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO / "tests")]), "TMPDIR": str(system_temp)}
    child = subprocess.Popen(
        [sys.executable, "-c", PAUSING_SAVE, "save", str(AA50_1941), "-o", str(out_folder / "game.tsvg")],
        env=environment,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = child.stderr.readline()
    while line and not line.startswith("paused"):
        line = child.stderr.readline()
    assert line.startswith("paused"), "the stand-in engine never wrote the save"
    child.send_signal(signal.SIGKILL)
    child.communicate(timeout=60)
    assert files_in(out_folder) == [], "no hidden folder, no unchecked save among the host's files"
    (left,) = scratch_left(tmp_path)  # what a kill -9 cannot clean, in the system's temporary folder
    assert left.startswith(f"kremlin-save-{child.pid}-")
    assert run("save", str(AA50_1941), "-o", str(out_folder / "game.tsvg")).exit_code == 0
    assert scratch_left(tmp_path) == [] and files_in(out_folder) == ["game.tsvg"]


def test_an_earlier_versions_scratch_folder_beside_an_output_is_removed_by_the_next_write(tmp_path: Path, fake: FakeTripleA2) -> None:
    left = tmp_path / ".kremlin-save-a1b2c3d4"  # as tempfile.TemporaryDirectory(prefix=".kremlin-save-") named it
    left.mkdir()
    (left / "game.tsvg").write_bytes(b"an unchecked save")
    young = tmp_path / ".kremlin-save-e5f6g7h8"
    young.mkdir()
    hour_ago = time.time() - 3600
    os.utime(left, (hour_ago, hour_ago))
    assert run("save", str(AA50_1941), "-o", str(tmp_path / "game.tsvg")).exit_code == 0
    assert not left.exists() and young.exists(), "one that may be another run's, still running, is left"


def test_a_system_temporary_folder_that_is_missing_is_one_line(tmp_path: Path, fake: FakeTripleA2, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "no-such-folder"))
    out = tmp_path / "game.tsvg"
    message = one_line(run("save", str(AA50_1941), "-o", str(out)), 2)
    assert "cannot make a scratch folder" in message and "no-such-folder" in message
    assert not out.exists()


def test_save_with_the_base_name_never_writes_over_its_game(tmp_path: Path, fake: FakeTripleA2) -> None:
    """--base-name saves a renamed copy from a scratch folder: the game given is still the input, never the output."""
    game = tmp_path / "game.xml"
    assert run("apply", str(EXAMPLE), "-o", str(game)).exit_code == 0
    written = game.read_bytes()
    message = one_line(run("save", str(game), "-o", str(game), "--base-name", "--force"), 2)
    assert "refusing to overwrite the input file" in message
    assert game.read_bytes() == written and scratch_left(tmp_path) == []

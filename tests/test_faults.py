"""Fault injection: kills mid-write, concurrent installs, full and read-only file systems (issue 15).

Each test asserts that nothing the host owns is lost, that nothing is left
half-written, the exit status, and the one-line message. Kills land at a
chosen point (a child process whose fsync waits, so the temporary file is
being written when the signal comes) and at random points of a whole run.
"""

from __future__ import annotations

import contextlib
import errno
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from kremlin_triplea.cli.main import main
from kremlin_triplea.game import load
from kremlin_triplea.gamefile.install import installed_games
from support.paths import MAPS_DIR

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "kremlin-aa50-1941.toml"
ENV = {**os.environ, "PYTHONPATH": str(REPO / "src")}

# A child that runs the CLI, its fsync of the file named by FAULT_PAUSE_AT waiting
# (after saying "paused" on stderr) so the parent can kill it mid-write.
# The child takes Ctrl-C as a terminal's command does, however the suite was started: a shell starting a job in the
# background without job control (nohup, `&` in a script) ignores SIGINT, which the child would inherit.
PAUSING_CLI = """
import os, signal, sys, time
signal.signal(signal.SIGINT, signal.default_int_handler)
from kremlin_triplea.gamefile import safe
real_fsync = safe.os.fsync
def fsync(descriptor):
    name = os.readlink(f"/proc/self/fd/{descriptor}")
    if os.environ["FAULT_PAUSE_AT"] in os.path.basename(name):
        sys.stderr.write("paused " + name + "\\n"); sys.stderr.flush()
        time.sleep(60)
    return real_fsync(descriptor)
safe.os.fsync = fsync
from kremlin_triplea.cli.main import main
main(sys.argv[1:], prog_name="kremlin-triplea")
"""


def temporaries(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*.tmp")]


def a_maps_folder(tmp_path: Path) -> Path:
    maps = tmp_path / "maps"
    shutil.copytree(MAPS_DIR / "world_war_ii_v3", maps / "world_war_ii_v3")
    for path in [maps, *maps.rglob("*")]:  # the pinned copies are read-only; a host's are not
        path.chmod(path.stat().st_mode | 0o200)
    return maps


def kill_when_paused(args: list[str], pause_at: str, sig: int) -> subprocess.CompletedProcess:
    process = subprocess.Popen(
        [sys.executable, "-c", PAUSING_CLI, *args], env={**ENV, "FAULT_PAUSE_AT": pause_at}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    first = process.stderr.readline()
    while first and not first.startswith("paused"):
        first = process.stderr.readline()
    assert first.startswith("paused"), "the child never reached the write"
    process.send_signal(sig)
    out, err = process.communicate(timeout=60)
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> bytes:
    out = tmp_path_factory.mktemp("reference") / "game.xml"
    result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "apply", str(EXAMPLE), "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    return out.read_bytes()


# -- kills at a chosen point ---------------------------------------------------------------


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_sigterm_and_sigint_mid_write_leave_the_old_file_and_no_temporary(tmp_path: Path, sig: int) -> None:
    out = tmp_path / "out.xml"
    out.write_text("the host's game")
    completed = kill_when_paused(["--maps-dir", str(MAPS_DIR), "apply", str(EXAMPLE), "-o", str(out), "--force"], "out.xml", sig)
    assert completed.returncode == 128 + sig
    message = [line for line in completed.stderr.splitlines() if not line.startswith("paused")]
    assert message == [f"kremlin-triplea: interrupted ({signal.Signals(sig).name}); nothing was left half-written"]
    assert out.read_text() == "the host's game"
    assert temporaries(tmp_path) == []


def test_sigkill_mid_write_leaves_the_old_file_and_the_next_run_removes_the_temporary(tmp_path: Path, reference: bytes) -> None:
    out = tmp_path / "out.xml"
    out.write_text("the host's game")
    completed = kill_when_paused(["--maps-dir", str(MAPS_DIR), "apply", str(EXAMPLE), "-o", str(out), "--force"], "out.xml", signal.SIGKILL)
    assert completed.returncode == -signal.SIGKILL
    assert out.read_text() == "the host's game"
    # What a kill -9 cannot clean: the partial file, and the hard link that keeps the old one until every output is written.
    left = temporaries(tmp_path)
    assert len(left) == 2 and all(p.name.startswith(".out.xml.kremlin-") for p in left)
    assert [p.samefile(out) for p in sorted(left, key=lambda p: not p.samefile(out))] == [True, False]
    result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "apply", str(EXAMPLE), "-o", str(out), "--force"])
    assert result.exit_code == 0
    assert out.read_bytes() == reference and temporaries(tmp_path) == []


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
@pytest.mark.parametrize("pause_at", ["map.yml", ".xml.kremlin-", "notes.html"])
def test_a_kill_during_install_never_lists_a_missing_or_partial_game(tmp_path: Path, sig: int, pause_at: str) -> None:
    maps = a_maps_folder(tmp_path)
    map_yml = maps / "world_war_ii_v3" / "map.yml"
    games = maps / "world_war_ii_v3" / "map" / "games"
    before_yml, before_games = map_yml.read_bytes(), {p.name: p.read_bytes() for p in games.iterdir()}
    completed = kill_when_paused(["--maps-dir", str(maps), "apply", str(EXAMPLE), "--install", "--name", "Killed"], pause_at, sig)
    assert completed.returncode == (128 + sig if sig == signal.SIGTERM else -sig)
    if sig == signal.SIGTERM:
        assert completed.stderr.splitlines()[-1].startswith("kremlin-triplea: interrupted (SIGTERM)")
        assert temporaries(maps) == []
    # map.yml is the old one: it is written last and was not finished.
    assert map_yml.read_bytes() == before_yml
    assert {p.name: p.read_bytes() for p in games.iterdir() if p.name in before_games} == before_games
    listed = [g["file_name"] for g in yaml.safe_load(map_yml.read_text())["games"]]
    assert all((games / name).is_file() for name in listed)
    # The install can be done again; it ends whole and listed once.
    result = CliRunner().invoke(main, ["--maps-dir", str(maps), "apply", str(EXAMPLE), "--install", "--name", "Killed"])
    assert result.exit_code == 0, result.stderr
    names = [g["game_name"] for g in yaml.safe_load(map_yml.read_text())["games"]]
    assert names.count("Killed") == 1 and temporaries(maps) == []
    assert [g.game_name for g in installed_games(maps)] == ["Killed"]
    # And uninstalled: map.yml is again the one the map shipped with.
    assert CliRunner().invoke(main, ["--maps-dir", str(maps), "uninstall", "Killed"]).exit_code == 0
    assert map_yml.read_bytes() == before_yml and installed_games(maps) == []


# -- kills at random points of a whole run ----------------------------------------------------------


def test_kills_at_random_points_of_apply_and_install(tmp_path: Path, reference: bytes) -> None:
    maps = a_maps_folder(tmp_path)
    map_yml = maps / "world_war_ii_v3" / "map.yml"
    original_games = yaml.safe_load(map_yml.read_text())["games"]
    randomness = random.Random(15)
    out = tmp_path / "out.xml"

    def run(name: str) -> subprocess.Popen[str]:
        command = ["--maps-dir", str(maps), "apply", str(EXAMPLE), "-o", str(out), "--force", "--install", "--name", name]
        return subprocess.Popen([sys.executable, "-m", "kremlin_triplea", *command], env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    # The kills are timed within one whole run as this machine makes it (start-up included), so that they land
    # at different points however fast or slow the run is.
    started = time.monotonic()
    assert run("Random timed").wait(timeout=60) == 0
    whole = time.monotonic() - started
    outcomes: list[int] = []
    for attempt in range(12):
        sig = randomness.choice([signal.SIGKILL, signal.SIGTERM])
        process = run(f"Random {attempt}")
        time.sleep(randomness.uniform(0.2, 1.1) * whole)
        process.send_signal(sig)
        _, err = process.communicate(timeout=60)
        outcomes.append(process.returncode)
        if process.returncode == 0:
            pass  # finished before the signal
        elif process.returncode == 128 + signal.SIGTERM:
            assert err.splitlines()[-1] == "kremlin-triplea: interrupted (SIGTERM); nothing was left half-written"
        else:
            assert process.returncode in (-signal.SIGKILL, -signal.SIGTERM), err  # -SIGTERM: before the CLI set its handler
        # Whatever the moment: the output is absent or whole, and map.yml lists the shipped games and only whole files.
        if out.exists():
            assert load(out).name.startswith("Random "), "the output is a whole game, written by one of the runs"
        games = yaml.safe_load(map_yml.read_text())["games"]
        assert games[: len(original_games)] == original_games
        for game in games[len(original_games) :]:
            assert load(map_yml.parent / "map" / "games" / game["file_name"]).name == game["game_name"], "a listed game is whole"
    print("exit statuses of the killed runs:", outcomes)
    assert len(set(outcomes)) > 1, "the kills landed at different points"
    # The next run beside them removes what SIGKILLs left behind.
    result = CliRunner().invoke(main, ["--maps-dir", str(maps), "apply", str(EXAMPLE), "-o", str(out), "--force", "--install", "--name", "After"])
    assert result.exit_code == 0, result.stderr
    assert [p for p in temporaries(maps) + temporaries(tmp_path) if p.parent in (out.parent, map_yml.parent, map_yml.parent / "map" / "games")] == []


# -- concurrent installs from the command line --------------------------------------------------------


def test_concurrent_installs_from_the_command_line(tmp_path: Path) -> None:
    maps = a_maps_folder(tmp_path)
    map_yml = maps / "world_war_ii_v3" / "map.yml"
    shipped = yaml.safe_load(map_yml.read_text())["games"]
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "kremlin_triplea", "--maps-dir", str(maps), "apply", str(EXAMPLE), "--install", "--name", name],
            env=ENV,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("One", "Two", "Three", "Two")
    ]
    results = [(p.wait(120), p.stderr.read()) for p in processes]
    assert sorted(code for code, _ in results) == [0, 0, 0, 2]
    (refused,) = [err for code, err in results if code == 2]
    assert refused.splitlines()[-1].endswith("already has a game named 'Two'; use --force to replace it, or choose another --name")
    games = yaml.safe_load(map_yml.read_text())["games"]
    assert games[: len(shipped)] == shipped and sorted(g["game_name"] for g in games[len(shipped) :]) == ["One", "Three", "Two"]


# -- full and read-only file systems ------------------------------------------------------------------


@contextlib.contextmanager
def small_file_system(folder: Path, size: str = "64k") -> Iterator[bool]:
    """A tmpfs of ``size`` at ``folder`` where this machine allows mounting one (yields False where it does not)."""
    folder.mkdir()
    mounted = (
        os.geteuid() == 0
        and shutil.which("mount") is not None
        and subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], capture_output=True).returncode == 0
    )
    try:
        yield mounted
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(folder)], check=False)


def _simulate(monkeypatch: pytest.MonkeyPatch, code: int) -> None:
    """Where no tmpfs can be mounted: the OSError that file system would raise, at the call that would raise it."""
    from kremlin_triplea.gamefile import safe

    def fail(*_args, **_kwargs):
        raise OSError(code, os.strerror(code))

    if code == errno.ENOSPC:
        monkeypatch.setattr(safe.os, "fsync", fail)  # the data did not fit
    else:
        monkeypatch.setattr(safe.tempfile, "mkstemp", fail)  # nothing can be created


def test_a_full_file_system(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with small_file_system(tmp_path / "small") as mounted:
        out = tmp_path / "small" / "out.xml"
        keep = tmp_path / "small" / "keep.txt"
        keep.write_text("the host's file")
        if not mounted:
            _simulate(monkeypatch, errno.ENOSPC)
        result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "apply", str(EXAMPLE), "-o", str(out)])
        assert result.exit_code == 2 and result.stderr.count("\n") == 1
        assert "No space left on device" in result.stderr
        assert not out.exists() and keep.read_text() == "the host's file"
        assert sorted(p.name for p in (tmp_path / "small").iterdir()) == ["keep.txt"]


def test_a_read_only_file_system(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with small_file_system(tmp_path / "ro", size="1m") as mounted:
        out = tmp_path / "ro" / "out.xml"
        out.write_text("the host's game")
        if mounted:
            assert subprocess.run(["mount", "-o", "remount,ro", str(tmp_path / "ro")], capture_output=True).returncode == 0
        else:
            _simulate(monkeypatch, errno.EROFS)
        result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "apply", str(EXAMPLE), "-o", str(out), "--force"])
        assert result.exit_code == 2 and result.stderr.count("\n") == 1
        assert "Read-only file system" in result.stderr
        assert out.read_text() == "the host's game"

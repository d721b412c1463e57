"""Printing in any console (issue 32): a console that cannot show a character gets a replacement, never a traceback.

On Windows with output redirected or piped, Python writes the ANSI code page: cp1252 in Western Europe, cp932 in
Japan. ``PYTHONIOENCODING=<code page>:strict`` makes a Linux process write exactly as such a console would (strict is
Python's default for a redirected stream there). The commands below installed the game and then died printing its
name: the install must be reported, in the console's encoding, with the letters it cannot show replaced.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from support.paths import MAPS_DIR

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "kremlin-aa50-1941.toml"


def _kremlin(maps: Path, encoding: str, *arguments: str | Path) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONIOENCODING": f"{encoding}:strict", "PYTHONPATH": str(REPO / "src")}
    command = [sys.executable, "-m", "kremlin_triplea", "--maps-dir", str(maps), *map(str, arguments)]
    return subprocess.run(command, env=env, capture_output=True, timeout=300)


@pytest.fixture
def maps(tmp_path: Path) -> Path:
    shutil.copytree(MAPS_DIR / "world_war_ii_v3", tmp_path / "maps" / "world_war_ii_v3")
    return tmp_path / "maps"


@pytest.mark.slow  # keeps the quick subset under a minute; CI runs it
@pytest.mark.parametrize("encoding", ["cp1252", "cp932", "ascii"])
def test_an_install_named_with_letters_the_console_lacks_is_reported_not_a_traceback(maps: Path, encoding: str) -> None:
    name = "Łukasz v Jürgen — 練習"  # Ł: not in cp1252; the em-dash and ü: not in cp932; none of it in ASCII
    assert any(not _encodable(character, encoding) for character in name)
    done = _kremlin(maps, encoding, "apply", EXAMPLE, "--install", "--name", name)
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr.decode(encoding, "replace")
    listed = yaml.safe_load((maps / "world_war_ii_v3" / "map.yml").read_text(encoding="utf-8"))["games"]
    assert listed[-1]["game_name"] == name  # the file on disk keeps every letter; only the console's copy is replaced
    _console_text(done.stdout, encoding)

    listing = _kremlin(maps, encoding, "installed")
    assert listing.returncode == 0 and b"Traceback" not in listing.stderr, listing.stderr.decode(encoding, "replace")
    printed = _console_text(listing.stdout, encoding)
    assert "v J" in printed and ("?" in printed or encoding == "ascii")

    removed = _kremlin(maps, encoding, "uninstall", name)
    assert removed.returncode == 0 and b"Traceback" not in removed.stderr, removed.stderr.decode(encoding, "replace")


def test_the_default_game_name_with_its_em_dash_lists_under_cp932(maps: Path) -> None:
    done = _kremlin(maps, "cp932", "apply", EXAMPLE, "--install")
    assert done.returncode == 0, done.stderr.decode("cp932", "replace")
    listing = _kremlin(maps, "cp932", "installed")
    assert listing.returncode == 0 and b"Traceback" not in listing.stderr
    assert "Kremlin" in listing.stdout.decode("cp932")


def test_an_error_naming_a_file_the_console_cannot_show_is_one_line(tmp_path: Path, maps: Path) -> None:
    missing = tmp_path / "Łódź" / "draft.toml"
    done = _kremlin(maps, "cp1252", "apply", missing, "-o", tmp_path / "out.xml")
    lines = done.stderr.decode("cp1252").splitlines()
    assert done.returncode == 2 and len(lines) == 1 and "draft.toml" in lines[0], lines


def _encodable(character: str, encoding: str) -> bool:
    try:
        character.encode(encoding)
    except UnicodeEncodeError:
        return False
    return True


def _console_text(printed: bytes, encoding: str) -> str:
    """What was printed, read in the console's encoding; click writes UTF-8 to a console that claims ASCII (it takes
    that for a misconfigured locale), which the issue allows: UTF-8 out, or replacement."""
    return printed.decode("utf-8" if encoding == "ascii" else encoding)

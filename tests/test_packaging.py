"""The package carries its rulesets and map profiles from any checkout (issue 32).

Git for Windows checks symlinks out as small text files by default (``core.symlinks=false``); the data once reached
the package through such links, and a wheel built there had no ruleset. Here a clone made the Windows way is built
into a wheel, which is installed in a fresh virtualenv and used from outside the checkout.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from support.paths import MAPS_DIR

REPO = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


def _run(*command: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(part) for part in command], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def _clone_without_symlinks(tmp_path: Path) -> Path:
    """The committed tree of this checkout, cloned as Git for Windows does by default, with the working tree's
    uncommitted package files laid over it (so the test checks the code under test, not only the last commit)."""
    clone = tmp_path / "checkout"
    done = _run("git", "clone", "-q", "-c", "core.symlinks=false", "--no-hardlinks", REPO, clone)
    assert done.returncode == 0, done.stderr
    for name in ("setup.py", "pyproject.toml", "MANIFEST.in"):
        if (REPO / name).exists():
            shutil.copyfile(REPO / name, clone / name)
    for folder in ("maps", "rulesets"):
        for path in _data_files(folder):
            (clone / path.relative_to(REPO)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, clone / path.relative_to(REPO))
    assert not [p for p in clone.rglob("*") if p.is_symlink()], "the clone holds no symlink"
    return clone


def _data_files(folder: str) -> list[Path]:
    """Every file of a data folder that the package needs: rulesets and profiles, and profile new's evidence."""
    return sorted(p for p in (REPO / folder).rglob("*") if p.suffix in (".toml", ".json") and p.is_file())


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp_path = tmp_path_factory.mktemp("wheel")
    clone = _clone_without_symlinks(tmp_path)
    built = _run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", tmp_path / "dist", clone)
    assert built.returncode == 0, built.stderr
    (found,) = (tmp_path / "dist").glob("kremlin_triplea-*.whl")
    return found


def test_the_wheel_carries_every_ruleset_and_map_profile_as_real_files(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        packed = {name: archive.read(name) for name in archive.namelist() if name.startswith("kremlin_triplea/data/")}
    for folder in ("maps", "rulesets"):
        for path in _data_files(folder):
            inside = path.relative_to(REPO / folder).as_posix()
            assert packed.get(f"kremlin_triplea/data/{folder}/{inside}") == path.read_bytes(), f"{folder}/{inside}"


def test_the_installed_wheel_lists_options_and_applies_a_draft_outside_the_checkout(wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    # The system's site-packages give the dependencies (no download); the wheel is installed in the venv, ahead of them.
    assert _run(sys.executable, "-m", "venv", "--system-site-packages", venv).returncode == 0
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    installed = _run(bindir / "python", "-m", "pip", "install", "-q", "--no-deps", "--disable-pip-version-check", wheel)
    assert installed.returncode == 0, installed.stderr
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "KREMLIN_TRIPLEA_MAPS")}
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = _run(bindir / "python", "-c", "import kremlin_triplea; print(kremlin_triplea.__file__)", cwd=elsewhere, env=env)
    assert Path(where.stdout.strip()).is_relative_to(venv), where.stdout  # the wheel's copy, not this checkout
    options = _run(bindir / "kremlin-triplea", "options", "--ruleset", "kremlin-aa50", cwd=elsewhere, env=env)
    assert options.returncode == 0, options.stderr
    assert "Winter War" in options.stdout or "Finland" in options.stdout, options.stdout[:500]
    draft = elsewhere / "draft.toml"
    shutil.copyfile(REPO / "examples" / "kremlin-aa50-1941.toml", draft)
    applied = _run(bindir / "kremlin-triplea", "--maps-dir", MAPS_DIR, "apply", draft, "-o", elsewhere / "game.xml", cwd=elsewhere, env=env)
    assert applied.returncode == 0, applied.stderr
    assert (elsewhere / "game.xml").read_bytes().startswith(b"<?xml")

"""A kill at any step of an install, a --force replace or an uninstall leaves a map the next run recovers (issue 40).

Each run here is a child process that dies (``os._exit``, as kill -9: no handler, no ``finally``) just before its
N-th change to the file system: a file created, linked, renamed, synced or removed, a folder made. N goes from 1
until the run finishes without dying, so every step of the operation is a place it was killed. After each kill the
next run (``installed``) must leave a state that ``installed``, ``--force`` and ``uninstall`` all accept: every game
the record names is there with the recorded hash, map.yml lists a game only with its file whole, no staged or
backup copy and no journal is left, and replacing then uninstalling the game gives back the map as it shipped.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from kremlin_triplea.gamefile.install import RECORD_NAME, install_game, installed_games, uninstall_game
from kremlin_triplea.gamefile.journal import JOURNAL_NAME
from kremlin_triplea.gamefile.locate import map_folder_without_yml, read_map_folder
from support.paths import MAPS_DIR

pytestmark = pytest.mark.slow

SRC = Path(__file__).resolve().parents[1] / "src"
OLD_GAME = b"<?xml version='1.0'?>\n<game><info name='Kremlin' version='1'/></game>\n"
NEW_GAME = b"<?xml version='1.0'?>\n<game><info name='Kremlin' version='2'/></game>\n"

#: The child: counts the changes the run makes to the file system and dies before the one numbered argv[1].
CHILD = r"""
import os, sys
from pathlib import Path

kill_at = int(sys.argv[1])
count = 0
def counted(name):
    real = getattr(os, name)
    def call(*args, **kwargs):
        global count
        if name == "open" and not (args[1] & os.O_CREAT):
            return real(*args, **kwargs)
        count += 1
        if count == kill_at:
            os._exit(137)
        return real(*args, **kwargs)
    setattr(os, name, call)
for name in ("open", "link", "replace", "rename", "unlink", "remove", "mkdir", "fsync", "rmdir"):
    counted(name)

from kremlin_triplea.gamefile.install import install_game, uninstall_game
from kremlin_triplea.gamefile.locate import map_folder_without_yml, read_map_folder
operation, folder, game = sys.argv[2], Path(sys.argv[3]), sys.argv[4].encode()
if operation == "uninstall":
    uninstall_game(folder.parent, "Kremlin")
else:
    found = read_map_folder(folder) if (folder / "map.yml").exists() else map_folder_without_yml(folder)
    install_game(found, "Kremlin", game, "<p>notes " + sys.argv[4][-20:] + "</p>", force=operation == "force")
print("finished")
"""


def a_map(tmp_path: Path, with_map_yml: bool) -> Path:
    folder = tmp_path / "maps" / "world_war_ii_v3"
    shutil.copytree(MAPS_DIR / "world_war_ii_v3", folder)
    for path in [tmp_path / "maps", *(tmp_path / "maps").rglob("*")]:  # the pinned copies are read-only; a host's are not
        path.chmod(path.stat().st_mode | 0o200)
    if not with_map_yml:
        (folder / "map.yml").unlink()
    return folder


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def killed_at(step: int, operation: str, folder: Path, game: bytes) -> bool:
    """Run ``operation`` killed before its ``step``-th change; whether it finished instead."""
    environment = {**os.environ, "PYTHONPATH": str(SRC), "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(step), operation, str(folder), game.decode()], capture_output=True, text=True, env=environment, timeout=60
    )
    assert done.returncode in (0, 137), done.stderr
    return done.returncode == 0


def read_folder(folder: Path):
    return read_map_folder(folder) if (folder / "map.yml").exists() else map_folder_without_yml(folder)


def assert_recovered(folder: Path, stock: set[str]) -> str | None:
    """After the next run: the state every command accepts. The installed game's version, or None if none is."""
    games = installed_games(folder.parent)  # the next run
    assert not (folder / JOURNAL_NAME).exists(), "the journal is finished or taken back"
    games_folder = folder / "map" / "games"
    left = sorted(p.name for p in games_folder.iterdir() if p.name.startswith("."))
    assert left == [], f"staged or backup copies left: {left}"
    record = json.loads((folder / RECORD_NAME).read_text())["games"] if (folder / RECORD_NAME).exists() else []
    files = {p.name for p in games_folder.iterdir()} - stock
    assert files == {n for g in record for n in (g["file_name"], g["notes_file"]) if n}, "every game file is one the record knows"
    for entry in record:
        for name, key in ((entry["file_name"], "sha256"), (entry["notes_file"], "notes_sha256")):
            assert (games_folder / name).is_file(), "the record names only files that are there"
            import hashlib

            assert hashlib.sha256((games_folder / name).read_bytes()).hexdigest() == entry[key], f"{name}: the record's hash is the file's"
    listed = [g["file_name"] for g in yaml.safe_load((folder / "map.yml").read_text())["games"]] if (folder / "map.yml").exists() else []
    ours = [n for n in listed if n not in stock]
    assert ours == [g["file_name"] for g in record], "map.yml lists our game exactly when it is installed"
    assert [g.game_name for g in games] == [g["game_name"] for g in record]
    if not record:
        return None
    return "2" if b"version='2'" in (games_folder / record[0]["file_name"]).read_bytes() else "1"


def every_kill(operation: str, tmp_path: Path, with_map_yml: bool, installed_first: bool, game: bytes) -> list[str | None]:
    outcomes = []
    step = 1
    while True:
        case = tmp_path / f"step{step}"
        folder = a_map(case, with_map_yml)
        shipped = snapshot(folder)
        stock = {p.name for p in (folder / "map" / "games").iterdir()}
        if installed_first:
            install_game(read_folder(folder), "Kremlin", OLD_GAME, "<p>notes 1</p>")
        finished = killed_at(step, operation, folder, game)
        version = assert_recovered(folder, stock)
        outcomes.append(version)
        # What the next runs do with it: --force (installs it if it is not there), then uninstall: the map as shipped.
        install_game(read_folder(folder), "Kremlin", NEW_GAME, "<p>notes 2</p>", force=True)
        assert assert_recovered(folder, stock) == "2"
        uninstall_game(folder.parent, "Kremlin")
        assert assert_recovered(folder, stock) is None
        expected = {k: v for k, v in shipped.items()}
        after = snapshot(folder)
        if not with_map_yml:  # the install wrote map.yml, as TripleA itself would have for the map; the rest is as shipped
            after.pop("map.yml")
        assert after == expected, f"step {step}: the map is as it shipped"
        shutil.rmtree(case)
        if finished:
            return outcomes
        step += 1


@pytest.mark.parametrize("with_map_yml", [True, False], ids=["map.yml", "no map.yml"])
def test_a_kill_at_every_step_of_an_install(tmp_path: Path, with_map_yml: bool) -> None:
    outcomes = every_kill("install", tmp_path, with_map_yml, installed_first=False, game=OLD_GAME)
    assert outcomes[0] is None and outcomes[-1] == "1" and len(outcomes) > 5


def test_a_kill_at_every_step_of_a_force_replace(tmp_path: Path) -> None:
    outcomes = every_kill("force", tmp_path, True, installed_first=True, game=NEW_GAME)
    assert outcomes[0] == "1" and outcomes[-1] == "2" and set(outcomes) == {"1", "2"} and len(outcomes) > 5


def test_a_kill_at_every_step_of_an_uninstall(tmp_path: Path) -> None:
    outcomes = every_kill("uninstall", tmp_path, True, installed_first=True, game=OLD_GAME)
    assert outcomes[0] == "1" and outcomes[-1] is None and len(outcomes) > 3

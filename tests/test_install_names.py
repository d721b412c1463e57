"""A game is installed on the host's TripleA under a plain, NFKC-normalised name that looks like no game listed (issue 40).

A remote player names the game the room installs. TripleA's chooser shows names as written, so a name that merely
looks like a stock game's (a Cyrillic 'а' for a Latin 'a') would be picked in its place. The stock names here are
the pinned map's own map.yml (World War II v3 1941, 1942).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from kremlin_triplea.cli.main import main
from kremlin_triplea.errors import InputError
from kremlin_triplea.gamefile.install import check_install, host_game_name, install_game
from kremlin_triplea.gamefile.locate import read_map_folder
from support.paths import EXAMPLES_DIR, MAPS_DIR

GAME = b"<?xml version='1.0'?><game><info name='x'/></game>"
STOCK = "World War II v3 1941"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    shutil.copytree(MAPS_DIR / "world_war_ii_v3", tmp_path / "world_war_ii_v3")
    for path in [tmp_path, *tmp_path.rglob("*")]:  # the pinned copies are read-only; a host's are not
        path.chmod(path.stat().st_mode | 0o200)
    return tmp_path / "world_war_ii_v3"


def listed(folder: Path) -> list[str]:
    return [g["game_name"] for g in yaml.safe_load((folder / "map.yml").read_text(encoding="utf-8"))["games"]]


@pytest.mark.parametrize(
    "lookalike",
    [
        "World W\u0430r II v3 1941",  # Cyrillic a
        "W\u043erld War II v3 1941",  # Cyrillic o
        "World War \u0406\u0406 v3 1941",  # Cyrillic I (Ukrainian)
        "World War II v3 I94I",  # capital I for 1
        "World War Il v3 1941",  # small L for I
        "W\u03bfrld War II v3 1941",  # Greek omicron
        "World War II v3 1941".upper().replace("O", "0"),  # zero for O, another case
    ],
)
def test_a_lookalike_of_a_listed_game_is_refused_and_nothing_written(folder: Path, lookalike: str) -> None:
    before = sorted((p, p.read_bytes()) for p in folder.rglob("*") if p.is_file())
    with pytest.raises(InputError, match="looks like 'World War II v3 1941'|mixes"):
        install_game(read_map_folder(folder), lookalike, GAME)
    with pytest.raises(InputError):
        check_install(read_map_folder(folder), lookalike)
    assert sorted((p, p.read_bytes()) for p in folder.rglob("*") if p.is_file()) == before


def test_two_letters_that_look_like_one_make_a_lookalike(folder: Path) -> None:
    install_game(read_map_folder(folder), "Kremlin", GAME)
    with pytest.raises(InputError, match="looks like 'Kremlin'"):
        install_game(read_map_folder(folder), "Krernlin", GAME)  # r n for m (Unicode's confusables)


def test_the_listed_name_itself_is_not_a_lookalike(folder: Path) -> None:
    assert host_game_name(STOCK, listed(folder)) == STOCK
    assert host_game_name("world war ii v3 1941", listed(folder)) == "world war ii v3 1941"  # the same name: a replace, refused elsewhere
    with pytest.raises(InputError, match="did not install"):
        check_install(read_map_folder(folder), "world war ii v3 1941")


def test_a_name_is_installed_in_its_nfkc_form(folder: Path) -> None:
    wide = "\uff2b\uff52\uff45\uff4d\uff4c\uff49\uff4e \u2460"  # full-width "Kremlin" and a circled 1
    assert check_install(read_map_folder(folder), wide) == "Kremlin 1"
    with pytest.raises(InputError, match="normal form"):
        install_game(read_map_folder(folder), wide, GAME)
    install_game(read_map_folder(folder), "Kremlin 1", GAME)
    assert listed(folder)[-1] == "Kremlin 1"


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("Kremlin\u202e1941", "U+202E"),  # right-to-left override: the chooser would show it reversed
        ("Kremlin\u200b1941", "U+200B"),  # zero-width space: invisible
        ("Kremlin\u2028night", "U+2028"),  # a line separator
        ("Kremlin <b>", "'<'"),
        ("Kremlin \U0001f600", "U+1F600"),
        (" Kremlin", "ends"),
        ("Kremlin  night", "two spaces"),
        ("K" * 71, "at most 70"),
        ("Kremlin \u0391\u0392", "mixes Greek and Latin"),
    ],
)
def test_a_name_that_is_not_plain_is_refused_in_one_line(folder: Path, name: str, why: str) -> None:
    with pytest.raises(InputError, match=re.escape(why)):
        host_game_name(name)
    with pytest.raises(InputError):
        install_game(read_map_folder(folder), name, GAME)


@pytest.mark.parametrize("name", ["Kremlin: Bob's game (2) — 1941/42", "Kremlin à Moscou — Zoë v Jürgen", "Москва 1941", "日本 1941", "Ωμέγα 1939"])
def test_plain_names_in_any_one_alphabet_are_installed_as_given(folder: Path, name: str) -> None:
    install_game(read_map_folder(folder), name, GAME)
    assert listed(folder)[-1] == name


def test_apply_install_refuses_a_lookalike_in_one_line_and_installs_the_nfkc_form(folder: Path) -> None:
    maps = folder.parent
    example = str(EXAMPLES_DIR / "kremlin-aa50-1941.toml")
    refused = CliRunner().invoke(main, ["--maps-dir", str(maps), "apply", example, "--install", "--name", "World War II v3 I94I"])
    assert refused.exit_code == 2 and refused.stderr.count("\n") == 1 and "looks like 'World War II v3 1941'" in refused.stderr, refused.stderr
    done = CliRunner().invoke(main, ["--maps-dir", str(maps), "apply", example, "--install", "--name", "\uff2bremlin"])
    assert done.exit_code == 0, done.stderr
    assert listed(folder)[-1] == "Kremlin"
    assert b'<info name="Kremlin"' in next((folder / "map" / "games").glob("Kremlin*.xml")).read_bytes()


def test_a_game_of_another_map_or_its_lookalike_is_refused(folder: Path) -> None:
    """TripleA's chooser lists every map's games in one list, and a bot finds a game by its name in any map."""
    maps = folder.parent
    shutil.copytree(MAPS_DIR / "classic_variations", maps / "classic_variations")
    other = yaml.safe_load((maps / "classic_variations" / "map.yml").read_text(encoding="utf-8"))["games"][0]["game_name"]
    assert other == "Classic: Anzio"
    for name in (other, other.upper(), "Classic: Anzi0", "Classic: \u0410nzio"):  # itself, in capitals, a zero for O, a Cyrillic A
        with pytest.raises(InputError, match="classic_variations|mixes"):
            check_install(read_map_folder(folder), name, maps_dir=maps)
    with pytest.raises(InputError, match="which TripleA lists for map"):
        install_game(read_map_folder(folder), other, GAME, maps_dir=maps)
    refused = CliRunner().invoke(main, ["--maps-dir", str(maps), "apply", str(EXAMPLES_DIR / "kremlin-aa50-1941.toml"), "--install", "--name", other])
    assert refused.exit_code == 2 and "which TripleA lists for map" in refused.stderr, refused.stderr

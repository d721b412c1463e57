"""Installing a generated game into a copy of a TripleA downloadedMaps folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from kremlin_triplea.errors import InputError
from kremlin_triplea.game import load
from kremlin_triplea.gamefile.install import INSTALL_MARK, install_game, unique_game_name
from kremlin_triplea.gamefile.locate import installed_maps, maps_without_yml, read_map_folder, resolve_game
from support.paths import AA50_1941, MAPS_DIR


@pytest.fixture
def maps(tmp_path: Path) -> Path:
    shutil.copytree(MAPS_DIR / "world_war_ii_v3", tmp_path / "world_war_ii_v3")
    shutil.copytree(MAPS_DIR / "classic_variations", tmp_path / "classic_variations")
    return tmp_path


def test_install_adds_one_line_to_map_yml_and_the_files_beside_the_others(maps: Path) -> None:
    folder = read_map_folder(maps / "world_war_ii_v3")
    before = (folder.folder / "map.yml").read_text()
    installed = install_game(folder, "Kremlin: AA50 1941", AA50_1941.read_bytes(), "<p>notes</p>")
    after = (folder.folder / "map.yml").read_text()
    assert after == before + '- {game_name: "Kremlin: AA50 1941", file_name: "Kremlin_AA50_1941.xml"}\n'
    assert installed.game_file == folder.games_folder / "Kremlin_AA50_1941.xml"
    # The game's own bytes, then the install mark on a line of its own: an XML comment after the root
    # element (XML 1.0 production [1] allows Misc there), by which uninstall knows its own files.
    mark = INSTALL_MARK.encode("ascii") + b"\n"
    assert installed.game_file.read_bytes() == AA50_1941.read_bytes() + mark
    assert installed.notes_file.read_bytes() == b"<p>notes</p>\n" + mark
    assert load(installed.game_file).board.game_name == load(AA50_1941).board.game_name
    # What TripleA 2.x will list for this map, and what our own lookup finds:
    listed = [(g["game_name"], g["file_name"]) for g in yaml.safe_load(after)["games"]]
    assert listed[-1] == ("Kremlin: AA50 1941", "Kremlin_AA50_1941.xml") and len(listed) == 3
    assert resolve_game("world_war_ii_v3/Kremlin: AA50 1941", maps) == installed.game_file


def test_names_stay_unique(maps: Path) -> None:
    folder = read_map_folder(maps / "classic_variations")
    assert unique_game_name(folder, "Classic: Kremlin") == "Classic: Kremlin (2)"
    install_game(folder, "Classic: Kremlin (2)", b"<game/>")
    folder = read_map_folder(folder.folder)
    assert unique_game_name(folder, "Classic: Kremlin") == "Classic: Kremlin (3)"
    with pytest.raises(InputError, match="already has a game named 'classic: kremlin'"):
        install_game(folder, "classic: kremlin", b"<game/>")
    names = [g.game_name for g in installed_maps(maps)[0].games]
    assert names.count("Classic: Kremlin") == 1 and "Classic: Kremlin (2)" in names


def test_a_file_name_already_taken_gets_a_number(maps: Path) -> None:
    folder = read_map_folder(maps / "world_war_ii_v3")
    first = install_game(folder, "Kremlin", b"<game/>")
    second = install_game(read_map_folder(folder.folder), "Kremlin (2)", b"<game/>")
    assert (first.game_file.name, second.game_file.name) == ("Kremlin.xml", "Kremlin_2.xml")


def test_quotes_in_names_are_valid_yaml(maps: Path) -> None:
    folder = read_map_folder(maps / "world_war_ii_v3")
    install_game(folder, "Bob's Kremlin", b"<game/>")
    games = yaml.safe_load((folder.folder / "map.yml").read_text())["games"]
    assert games[-1] == {"game_name": "Bob's Kremlin", "file_name": "Bob_s_Kremlin.xml"}


@pytest.mark.parametrize("name", ["", "   ", "two\nlines", "tab\there"])
def test_a_blank_or_multi_line_name_is_refused_and_nothing_is_written(maps: Path, name: str) -> None:
    """TripleA's game chooser lists the name as map.yml has it: it must be one line of visible text."""
    folder = read_map_folder(maps / "world_war_ii_v3")
    before = (folder.folder / "map.yml").read_bytes()
    games = sorted(p.name for p in folder.games_folder.iterdir())
    with pytest.raises(InputError, match="a game's name"):
        install_game(folder, name, AA50_1941.read_bytes())
    assert (folder.folder / "map.yml").read_bytes() == before
    assert sorted(p.name for p in folder.games_folder.iterdir()) == games


def test_an_accented_name_keeps_its_letters_in_the_file_name(maps: Path) -> None:
    folder = read_map_folder(maps / "world_war_ii_v3")
    installed = install_game(folder, "Kremlin à Moscou — Zoë v Jürgen", AA50_1941.read_bytes())
    assert installed.game_file.name == "Kremlin_a_Moscou_Zoe_v_Jurgen.xml"
    assert yaml.safe_load((folder.folder / "map.yml").read_text())["games"][-1]["game_name"] == "Kremlin à Moscou — Zoë v Jürgen"


def test_an_empty_name_on_the_command_line_is_refused_not_replaced_by_the_default(maps: Path) -> None:
    from click.testing import CliRunner

    from kremlin_triplea.cli.main import main

    example = Path(__file__).resolve().parents[1] / "examples" / "kremlin-aa50-1941.toml"
    before = (maps / "world_war_ii_v3" / "map.yml").read_bytes()
    result = CliRunner().invoke(main, ["--maps-dir", str(maps), "apply", str(example), "--install", "--name", ""])
    assert result.exit_code == 2 and result.stderr == "kremlin-triplea: error: --name: a game's name cannot be empty or blank\n"
    assert (maps / "world_war_ii_v3" / "map.yml").read_bytes() == before


@pytest.mark.engine
@pytest.mark.slow
def test_both_engines_read_an_installed_game_mark_and_all(maps: Path) -> None:
    """The install mark is an XML comment after the root element: TripleA 2.7 and 1.9 read the game as written."""
    from kremlin_triplea.engine import read_with_engine
    from kremlin_triplea.engine.compare import disagreements
    from kremlin_triplea.engine.savegame import read_with_triplea2
    from kremlin_triplea.model.changes import SetGameName
    from support.paths import SHARED

    folder = read_map_folder(maps / "world_war_ii_v3")
    game = load(AA50_1941)
    game.board.push(SetGameName("Kremlin installed"))
    installed = install_game(folder, "Kremlin installed", game.to_bytes(), "<p>notes</p>")
    assert installed.game_file.read_bytes().rstrip().endswith(INSTALL_MARK.encode("ascii"))
    board = load(installed.game_file).board
    (new,) = read_with_triplea2([installed.game_file], triplea=SHARED / "triplea-engine-2.7")
    (old,) = read_with_engine([installed.game_file])
    assert new.error is None and new.validation == () and old.ok, (new.error, new.validation, old.error)
    assert new.game_name == old.game_name == "Kremlin installed"
    assert [str(d) for d in disagreements(board, new, triplea2=True)] == []
    assert [str(d) for d in disagreements(board, old, properties=False)] == []


# A map without map.yml (issue 28 "maps as players have them"): TripleA 2.x lists it all the same, writing the map.yml
# it lacks when it first lists the map (MapDescriptionYamlGenerator: map_name is the folder's name, one entry per XML
# file whose <info name> is not blank). An install writes that same file with its game added, so TripleA lists the
# stock games and the installed one, as if it had written the file first.
@pytest.mark.parametrize("name", ["world_war_ii_revised", "world_war_ii_classic"])
def test_installing_into_a_map_without_map_yml_writes_the_map_yml_triplea_would_with_the_game_added(tmp_path: Path, name: str) -> None:
    shutil.copytree(MAPS_DIR / name, tmp_path / name, ignore=shutil.ignore_patterns("map.yml", "*.png", "*.gif", "*.jpg"))
    published = read_map_folder(MAPS_DIR / name)  # the authors' own map.yml: what TripleA must find again
    base = published.games[0].path
    (folder,) = maps_without_yml(tmp_path)
    installed = install_game(folder, "A drafted game", load(base).to_bytes())

    listed = read_map_folder(tmp_path / name)
    assert listed.name == name
    stock = sorted((g.game_name, g.path.name) for g in published.games)
    assert sorted((g.game_name, g.path.name) for g in listed.games) == sorted([*stock, ("A drafted game", installed.game_file.name)])
    assert all(g.path.is_file() for g in listed.games)
    assert [m.name for m in installed_maps(tmp_path)] == [name]
    # The game can be named as MAP/GAME from then on, and taken out again leaving the stock games listed.
    assert resolve_game(f"{name}/A drafted game", tmp_path) == installed.game_file


def test_apply_install_finds_a_map_without_map_yml_by_its_base_game(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from kremlin_triplea.cli.main import main

    name = "world_war_ii_revised"
    shutil.copytree(MAPS_DIR / name, tmp_path / name, ignore=shutil.ignore_patterns("map.yml", "*.png", "*.gif", "*.jpg"))
    draft = tmp_path / "draft.toml"
    draft.write_text(f'game = "{name}/ww2v2.xml"\nhouse_rules = ["house-revised"]\n', encoding="utf-8")
    args = ["--maps-dir", str(tmp_path), "apply", str(draft), "-o", str(tmp_path / "out.xml"), "--install", "--name", "Revised with house rules"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert ("Revised with house rules", "Revised_with_house_rules.xml") in {(g.game_name, g.path.name) for g in read_map_folder(tmp_path / name).games}
    uninstalled = CliRunner().invoke(main, ["--maps-dir", str(tmp_path), "uninstall", "Revised with house rules"])
    assert uninstalled.exit_code == 0, uninstalled.output
    assert sorted(g.game_name for g in read_map_folder(tmp_path / name).games) == sorted(g.game_name for g in read_map_folder(MAPS_DIR / name).games)

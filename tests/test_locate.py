"""Finding games as TripleA does: user folder, map.yml, nested folders, overrides."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from kremlin_triplea.errors import InputError, UnknownNameError
from kremlin_triplea.gamefile.locate import default_maps_dir, installed_maps, map_folder_without_yml, read_map_folder, resolve_game, user_folder
from support.paths import MAPS_DIR


def test_user_folder_prefers_documents(tmp_path: Path) -> None:
    assert user_folder(tmp_path) == tmp_path / "triplea"
    (tmp_path / "Documents" / "triplea").mkdir(parents=True)
    assert user_folder(tmp_path) == tmp_path / "Documents" / "triplea"


def test_maps_dir_override_order(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("KREMLIN_TRIPLEA_MAPS", str(tmp_path / "env"))
    assert default_maps_dir(tmp_path / "flag") == tmp_path / "flag"
    assert default_maps_dir() == tmp_path / "env"
    monkeypatch.delenv("KREMLIN_TRIPLEA_MAPS")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_maps_dir() == tmp_path / "triplea" / "downloadedMaps"


def test_installed_maps_read_map_yml() -> None:
    maps = {m.name: m for m in installed_maps(MAPS_DIR)}
    assert set(maps) == {"world_war_ii_v3", "world_war_ii_classic", "classic_variations", "world_war_ii_revised"}
    assert [(g.game_name, g.path.name) for g in maps["world_war_ii_v3"].games] == [
        ("World War II v3 1941", "WW2v3-1941.xml"),
        ("World War II v3 1942", "WW2v3-1942.xml"),
    ]


def test_resolve_by_file_stem_or_game_name() -> None:
    expected = MAPS_DIR / "classic_variations" / "map" / "games" / "kremlin.xml"
    assert resolve_game("classic_variations/kremlin.xml", MAPS_DIR) == expected
    assert resolve_game("classic_variations/kremlin", MAPS_DIR) == expected
    assert resolve_game("classic_variations/Classic: Kremlin", MAPS_DIR) == expected


def test_older_installs_nest_one_more_folder(tmp_path: Path) -> None:
    nested = tmp_path / "world_war_ii_v3" / "world_war_ii_v3-master"
    shutil.copytree(MAPS_DIR / "world_war_ii_v3", nested)
    assert resolve_game("world_war_ii_v3/WW2v3-1942.xml", tmp_path) == nested / "map" / "games" / "WW2v3-1942.xml"


def test_misspelt_names_get_close_matches() -> None:
    with pytest.raises(UnknownNameError, match=r"unknown map 'world_war_ii_v4'; did you mean 'world_war_ii_v3'"):
        resolve_game("world_war_ii_v4/WW2v3-1942.xml", MAPS_DIR)
    with pytest.raises(UnknownNameError, match=r"unknown game 'WW2v3-1492' in map 'world_war_ii_v3'; did you mean 'WW2v3-1942"):
        resolve_game("world_war_ii_v3/WW2v3-1492", MAPS_DIR)


def test_missing_maps_folder_says_how_to_name_one(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="--maps-dir"):
        resolve_game("world_war_ii_v3/WW2v3-1942.xml", tmp_path / "nowhere")


def test_one_broken_map_yml_does_not_hide_the_other_maps(tmp_path: Path) -> None:
    """A player's maps folder holds many maps; one whose map.yml cannot be read is named and left out, the rest work."""
    from click.testing import CliRunner

    from kremlin_triplea.cli.main import main

    shutil.copytree(MAPS_DIR / "world_war_ii_v3", tmp_path / "world_war_ii_v3")
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "map.yml").write_text("map_name: broken\ngames: [\n  - {game_name: x\n")
    (tmp_path / "odd").mkdir()
    (tmp_path / "odd" / "map.yml").write_text("map_name: odd\ngames: 5\n")
    assert [m.name for m in installed_maps(tmp_path)] == ["world_war_ii_v3"]
    listed = CliRunner().invoke(main, ["--maps-dir", str(tmp_path), "maps"])
    assert listed.exit_code == 0 and "world_war_ii_v3/WW2v3-1941.xml" in listed.stdout
    warnings = listed.stderr.splitlines()
    assert len(warnings) == 2 and all(w.startswith("kremlin-triplea: warning: ") and w.endswith("; this map is left out") for w in warnings)
    assert f"{tmp_path / 'broken' / 'map.yml'}:3: not valid YAML: " in warnings[0]  # YAML's own message, on one line
    assert f"{tmp_path / 'odd' / 'map.yml'}: 'games' is 5, not a list of games" in warnings[1]
    # A game of a good map is found by name; the broken map, asked for by name, says why it cannot be read.
    assert resolve_game("world_war_ii_v3/World War II v3 1942", tmp_path).name == "WW2v3-1942.xml"
    with pytest.raises(InputError, match="'games' is 5, not a list of games"):
        resolve_game("odd/some game", tmp_path)


# -- paths as Windows writes them (issue 32) ----------------------------------------------------------------------

KREMLIN = MAPS_DIR / "classic_variations" / "map" / "games" / "kremlin.xml"


@pytest.mark.parametrize("spec", ["classic_variations\\kremlin.xml", "classic_variations\\kremlin", "classic_variations\\Classic: Kremlin"])
def test_map_and_game_separated_by_a_backslash(spec: str) -> None:
    assert resolve_game(spec, MAPS_DIR) == KREMLIN


def test_a_relative_path_with_backslashes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "games").mkdir()
    shutil.copy(KREMLIN, tmp_path / "games" / "kremlin.xml")
    monkeypatch.chdir(tmp_path)
    assert resolve_game("games\\kremlin.xml", MAPS_DIR) == Path("games/kremlin.xml")
    assert resolve_game(".\\games\\kremlin.xml", MAPS_DIR) == Path("games/kremlin.xml")


@pytest.mark.skipif(os.name == "nt", reason="on Windows a drive-letter path is an ordinary path")
@pytest.mark.parametrize("spec", ["C:\\Users\\ann\\triplea\\kremlin.xml", "c:/games/kremlin.xml", "\\\\server\\maps\\kremlin.xml"])
def test_a_windows_path_is_a_path_not_a_map(spec: str) -> None:
    # Was "unknown map 'C:'": the drive letter read as a map's name.
    with pytest.raises(InputError) as raised:
        resolve_game(spec, MAPS_DIR)
    assert str(raised.value) == f"{spec}: no such file (a Windows path: name the file as this system does)"


# -- maps without map.yml (issue 28) ------------------------------------------------------------------------------
# TripleA 2.7 writes a map.yml for a map folder that has none (MapDescriptionYamlGenerator): the map is named after
# its folder, each XML file whose <info name> is not blank is a game; a game file is then looked for in the folder
# named "games" closest to the map folder, at most 5 folders down, and in that folder at most 3 down
# (MapDescriptionYaml.findGamesFolder, searchForGameFile; FileUtils.findClosestToRoot, shortest path first).

PUBLISHED = ["classic_variations", "world_war_ii_classic", "world_war_ii_revised", "world_war_ii_v3"]


def _without_map_yml(source: Path, target: Path) -> Path:
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("map.yml"))
    return target


@pytest.mark.parametrize("name", PUBLISHED)
def test_a_map_without_map_yml_lists_the_games_its_map_yml_would(tmp_path: Path, name: str) -> None:
    # The authors' own map.yml is the expectation: TripleA's reading of the folder must find the same games.
    _without_map_yml(MAPS_DIR / name, tmp_path / name)
    listed = map_folder_without_yml(tmp_path / name)
    published = read_map_folder(MAPS_DIR / name)
    assert listed is not None and listed.name == name
    assert sorted((g.game_name, g.path.name) for g in listed.games) == sorted((g.game_name, g.path.name) for g in published.games)
    for game in published.games:
        expected = tmp_path / name / game.path.relative_to(MAPS_DIR / name)
        assert resolve_game(f"{name}/{game.path.name}", tmp_path) == expected
        assert resolve_game(f"{name}/{game.path.stem}", tmp_path) == expected
        assert resolve_game(f"{name}/{game.game_name}", tmp_path) == expected


def test_a_map_without_map_yml_with_its_games_in_games(tmp_path: Path) -> None:
    (tmp_path / "flat" / "games" / "more").mkdir(parents=True)
    shutil.copy(KREMLIN, tmp_path / "flat" / "games" / "more" / "kremlin.xml")  # 1 folder down in games: found
    (tmp_path / "flat" / "games" / "notes.xml").write_text("<notes>not a game: no info name</notes>")
    listed = map_folder_without_yml(tmp_path / "flat")
    assert listed is not None and [(g.game_name, g.path) for g in listed.games] == [("Classic: Kremlin", tmp_path / "flat" / "games" / "more" / "kremlin.xml")]
    assert resolve_game("flat\\Classic: Kremlin", tmp_path) == tmp_path / "flat" / "games" / "more" / "kremlin.xml"
    with pytest.raises(UnknownNameError, match="unknown game 'notes' in map 'flat'"):
        resolve_game("flat/notes", tmp_path)


def test_the_games_folder_closest_to_the_map_folder_is_the_one(tmp_path: Path) -> None:
    for games in ("map/games", "games", "a/b/c/games"):
        (tmp_path / "m" / games).mkdir(parents=True)
    shutil.copy(KREMLIN, tmp_path / "m" / "map" / "games" / "kremlin.xml")
    shutil.copy(KREMLIN, tmp_path / "m" / "games" / "kremlin.xml")
    assert resolve_game("m/kremlin", tmp_path) == tmp_path / "m" / "games" / "kremlin.xml"


def test_a_folder_without_games_is_no_map(tmp_path: Path) -> None:
    (tmp_path / "empty" / "map").mkdir(parents=True)
    shutil.copy(KREMLIN, tmp_path / "empty" / "map" / "kremlin.xml")  # not in a games folder: TripleA cannot load it
    assert map_folder_without_yml(tmp_path / "empty") is None
    with pytest.raises(UnknownNameError, match="unknown map 'empty'"):
        resolve_game("empty/kremlin.xml", tmp_path)


def test_cli_reads_a_game_of_a_map_without_map_yml_named_with_a_backslash(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from kremlin_triplea.cli.main import main

    _without_map_yml(MAPS_DIR / "classic_variations", tmp_path / "classic_variations")
    result = CliRunner().invoke(main, ["--maps-dir", str(tmp_path), "show", "classic_variations\\kremlin.xml"])
    assert result.exit_code == 0, result.output
    assert "Classic: Kremlin" in result.output


def test_native_path_reads_backslashes_only_where_the_text_as_given_names_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kremlin_triplea.gamefile.locate import native_path

    monkeypatch.chdir(tmp_path)
    (tmp_path / "drafts").mkdir()
    (tmp_path / "drafts" / "ann.toml").write_text("")
    assert native_path("drafts\\ann.toml") == "drafts/ann.toml"  # an input that exists
    assert native_path("drafts\\new.xml") == "drafts/new.xml"  # an output in a folder that exists
    assert native_path("nowhere\\new.xml") == "nowhere\\new.xml"  # no such folder: the name as given
    (tmp_path / "odd\\name.toml").write_text("")  # a backslash in a file's name, possible here: that file
    assert native_path("odd\\name.toml") == "odd\\name.toml"


def test_cli_paths_written_with_backslashes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from kremlin_triplea.cli.main import main

    example = Path(__file__).parents[1] / "examples" / "kremlin-classic-kremlin.toml"
    (tmp_path / "drafts").mkdir()
    (tmp_path / "out").mkdir()
    shutil.copy(example, tmp_path / "drafts" / "ann.toml")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "apply", "drafts\\ann.toml", "-o", "out\\game.xml"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "game.xml").is_file() and sorted(p.name for p in tmp_path.iterdir()) == ["drafts", "out"]
    refused = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "apply", "drafts\\ann.toml", "-o", "out\\"])
    assert refused.exit_code == 2 and refused.stderr == "kremlin-triplea: error: out\\: names a folder (it ends in a slash); name the output file\n"


def test_a_draft_names_its_game_and_ruleset_beside_it_with_backslashes(tmp_path: Path) -> None:
    # A draft written on Windows: `game` and `ruleset` relative to the draft's folder, separated by backslashes.
    from kremlin_triplea.draft.run import read_draft
    from kremlin_triplea.session import apply_draft

    (tmp_path / "games").mkdir()
    (tmp_path / "rules").mkdir()
    shutil.copy(KREMLIN, tmp_path / "games" / "kremlin.xml")
    shutil.copy(Path(__file__).parents[1] / "rulesets" / "kremlin-classic.toml", tmp_path / "rules" / "mine.toml")
    example = (Path(__file__).parents[1] / "examples" / "kremlin-classic-kremlin.toml").read_text()
    lines = [line for line in example.splitlines() if not line.startswith(("game =", "ruleset ="))]
    draft = tmp_path / "draft.toml"
    draft.write_text('game = "games\\\\kremlin.xml"\nruleset = "rules\\\\mine.toml"\n' + "\n".join(lines) + "\n")
    result = apply_draft(read_draft(draft), maps_dir=MAPS_DIR)
    assert Path(result.game.source) == tmp_path / "games" / "kremlin.xml"
    assert Path(result.ruleset.path) == tmp_path / "rules" / "mine.toml"


def test_maps_lists_a_map_without_map_yml(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from kremlin_triplea.cli.main import main

    _without_map_yml(MAPS_DIR / "world_war_ii_v3", tmp_path / "world_war_ii_v3")
    shutil.copytree(MAPS_DIR / "world_war_ii_classic", tmp_path / "world_war_ii_classic")
    result = CliRunner().invoke(main, ["--maps-dir", str(tmp_path), "maps"])
    assert result.exit_code == 0, result.output
    assert f"world_war_ii_v3  ({tmp_path / 'world_war_ii_v3'}; no map.yml: its games as TripleA finds them)" in result.output
    assert "world_war_ii_v3/WW2v3-1941.xml" in result.output and "World War II v3 1942" in result.output
    assert f"world_war_ii_classic  ({tmp_path / 'world_war_ii_classic'})" in result.output


def test_a_misspelt_map_without_map_yml_gets_close_matches(tmp_path: Path) -> None:
    _without_map_yml(MAPS_DIR / "world_war_ii_v3", tmp_path / "world_war_ii_v3")
    with pytest.raises(UnknownNameError, match=r"unknown map 'world_war_ii_v4'; did you mean 'world_war_ii_v3'"):
        resolve_game("world_war_ii_v4/WW2v3-1942.xml", tmp_path)


def test_the_maps_folder_chosen_in_triplea_s_settings_is_where_commands_look(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """TripleA 2.x uses the maps folder a player set (Java Preferences' MAP_FOLDER_OVERRIDE) instead of
    <user folder>/downloadedMaps (ClientFileSystemHelper.getUserMapsFolder); so do the commands, unless told otherwise."""
    from kremlin_triplea.gamefile.locate import MAPS_DIR_VARIABLE, default_maps_dir

    home, chosen = tmp_path / "home", tmp_path / "elsewhere" / "maps"
    chosen.mkdir(parents=True)
    (home / "triplea" / "downloadedMaps").mkdir(parents=True)
    node = home / ".java" / ".userPrefs" / "games" / "strategy" / "triplea" / "settings"
    node.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv(MAPS_DIR_VARIABLE, raising=False)
    assert default_maps_dir() == home / "triplea" / "downloadedMaps"  # no setting yet: TripleA's default
    (node / "prefs.xml").write_text(f'<?xml version="1.0"?>\n<map MAP_XML_VERSION="1.0">\n  <entry key="MAP_FOLDER_OVERRIDE" value="{chosen}"/>\n</map>\n')
    assert default_maps_dir() == chosen
    monkeypatch.setenv(MAPS_DIR_VARIABLE, str(tmp_path))
    assert default_maps_dir() == tmp_path  # the user's own word wins
    assert default_maps_dir(tmp_path / "given") == tmp_path / "given"


def test_a_listed_game_in_a_folder_below_games_is_found(tmp_path: Path) -> None:
    # MapDescriptionYaml.searchForGameFile: the listed file is looked for in the games folder and up to 3 folders below.
    (tmp_path / "m" / "map" / "games" / "1942").mkdir(parents=True)
    shutil.copy(KREMLIN, tmp_path / "m" / "map" / "games" / "1942" / "kremlin.xml")
    (tmp_path / "m" / "map.yml").write_text("map_name: m\ngames:\n- game_name: Classic Kremlin\n  file_name: kremlin.xml\n")
    assert resolve_game("m/Classic Kremlin", tmp_path) == tmp_path / "m" / "map" / "games" / "1942" / "kremlin.xml"
    assert [g.path for g in read_map_folder(tmp_path / "m").games] == [tmp_path / "m" / "map" / "games" / "1942" / "kremlin.xml"]


def test_profile_new_records_map_and_game_named_with_a_backslash_as_map_slash_game() -> None:
    from click.testing import CliRunner

    from kremlin_triplea.cli.main import main

    result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "profile", "new", "world_war_ii_v3\\WW2v3-1941.xml"])
    assert result.exit_code == 0, result.output
    assert 'key = "world_war_ii_v3/WW2v3-1941.xml"' in result.output.splitlines()


def test_uninstall_map_and_name_with_a_backslash(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from kremlin_triplea.cli.main import main
    from kremlin_triplea.gamefile.install import installed_games

    shutil.copytree(MAPS_DIR / "world_war_ii_v3", tmp_path / "world_war_ii_v3")
    example = Path(__file__).parents[1] / "examples" / "kremlin-aa50-1941.toml"
    runner = CliRunner()
    installed = runner.invoke(main, ["--maps-dir", str(tmp_path), "apply", str(example), "--install", "--name", "Ann v Bob"])
    assert installed.exit_code == 0, installed.output
    gone = runner.invoke(main, ["--maps-dir", str(tmp_path), "uninstall", "world_war_ii_v3\\Ann v Bob"])
    assert gone.exit_code == 0, gone.output
    assert installed_games(tmp_path) == []


def test_an_unreadable_folder_below_games_is_passed_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # As TripleA finds nothing in a folder it cannot read; the error is raised where reading it fails (root reads
    # a folder whatever its mode, so the refusal is the operating system's answer, given here by hand).
    from kremlin_triplea.gamefile import locate

    games = tmp_path / "m" / "games"
    (games / "locked").mkdir(parents=True)
    shutil.copy(KREMLIN, games / "kremlin.xml")
    scandir = os.scandir

    def refuse_locked(path):
        if Path(path).name == "locked":
            raise PermissionError(13, "Permission denied", str(path))
        return scandir(path)

    monkeypatch.setattr(locate.os, "scandir", refuse_locked)
    listed = map_folder_without_yml(tmp_path / "m")
    assert listed is not None and [g.path.name for g in listed.games] == ["kremlin.xml"]

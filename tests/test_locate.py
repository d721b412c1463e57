"""Finding games as TripleA does: user folder, map.yml, nested folders, overrides."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kremlin_triplea.errors import InputError, UnknownNameError
from kremlin_triplea.gamefile.locate import default_maps_dir, installed_maps, resolve_game, user_folder
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

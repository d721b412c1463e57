"""Saving: atomic, never over the input, never over a file without being told."""

from __future__ import annotations

from pathlib import Path

import pytest

from kremlin_triplea import load
from kremlin_triplea.errors import InputError
from kremlin_triplea.model.changes import PlaceUnits
from support.paths import AA50_1941


def test_save_writes_a_new_file_and_leaves_the_input_alone(tmp_path: Path) -> None:
    before = AA50_1941.read_bytes()
    game = load(AA50_1941)
    game.board.push(PlaceUnits("Finland", "Germans", "infantry", 3))
    out = game.save(tmp_path / "out.xml")
    assert AA50_1941.read_bytes() == before
    assert load(out).board.units("Finland")[("Germans", "infantry")] == 5
    assert [p.name for p in tmp_path.iterdir()] == ["out.xml"]  # no temporary left behind


def test_unchanged_game_saves_byte_identical(tmp_path: Path) -> None:
    assert load(AA50_1941).save(tmp_path / "same.xml").read_bytes() == AA50_1941.read_bytes()


def test_existing_output_needs_overwrite(tmp_path: Path) -> None:
    target = tmp_path / "out.xml"
    target.write_text("precious")
    game = load(AA50_1941)
    with pytest.raises(InputError, match="already exists; use --force"):
        game.save(target)
    assert target.read_text() == "precious"
    game.save(target, overwrite=True)
    assert target.read_bytes() == AA50_1941.read_bytes()


def test_the_input_is_never_the_output(tmp_path: Path) -> None:
    copy = tmp_path / "game.xml"
    copy.write_bytes(AA50_1941.read_bytes())
    game = load(copy)
    with pytest.raises(InputError, match="refusing to overwrite the input file"):
        game.save(copy, overwrite=True)


def test_missing_output_folder_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="the output folder does not exist"):
        load(AA50_1941).save(tmp_path / "no" / "out.xml")


# -- saves for a lobby bot (issue 42) ---------------------------------------------------------------------
# A 2.7 bot accepts an uploaded save only if its game name is listed in one of its maps' map.yml
# (InstalledMapsListing.hasGame, ../shared/triplea-engine-2.7/README.md); tests/test_savegame.py runs the bot check
# with the real engine. TripleA 2.x is stood in for here (tests/support/fake_triplea2.py): what matters is the name
# the save is made from and what the host is told.

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "kremlin-aa50-1941.toml"


@pytest.fixture
def saved_names(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The game name of every game the stand-in TripleA 2.x is asked to save."""
    from kremlin_triplea.engine import savegame
    from support.fake_triplea2 import install_fake

    fake = install_fake(monkeypatch.setattr)
    names: list[str] = []

    def recording(installation, requests):  # noqa: ANN001, ANN202 - the stand-in's own signature
        names.extend(load(r["save"]).board.game_name for r in requests)
        return fake.run(installation, requests)

    monkeypatch.setattr(savegame, "_run", recording)
    return names


def invoke(*args: str):
    from click.testing import CliRunner

    from kremlin_triplea.cli.main import main
    from support.paths import MAPS_DIR

    return CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), *args])


def test_apply_savegame_with_base_name_saves_the_base_games_name_and_says_so(tmp_path: Path, saved_names: list[str]) -> None:
    save = tmp_path / "bot.tsvg"
    result = invoke("apply", str(EXAMPLE), "--savegame", str(save), "--base-name")
    assert result.exit_code == 0, result.output
    assert saved_names == ["World War II v3 1941"]  # listed in world_war_ii_v3's map.yml, which a bot has
    assert f"wrote {save} with TripleA 2.7 (stand-in) on Java (stand-in), named 'World War II v3 1941' as its base game" in result.stdout
    assert "lobby bot" not in result.stderr


def test_every_save_a_lobby_bot_would_not_list_says_so_in_one_line_with_the_fix(tmp_path: Path, saved_names: list[str]) -> None:
    applied = invoke("apply", str(EXAMPLE), "-o", str(tmp_path / "game.xml"), "--savegame", str(tmp_path / "a.tsvg"))
    saved = invoke("save", str(tmp_path / "game.xml"), "-o", str(tmp_path / "b.tsvg"))
    for result in (applied, saved):
        assert result.exit_code == 0, result.output
        (line,) = [line for line in result.stderr.splitlines() if "lobby bot" in line]
        assert f"its game name {saved_names[0]!r} is none of a published map's games" in line and line.endswith("write it with --base-name")
    assert saved_names[0] == saved_names[1] != "World War II v3 1941"
    base = invoke("save", str(AA50_1941), "-o", str(tmp_path / "c.tsvg"))  # a published game's own name: listed
    assert base.exit_code == 0 and "lobby bot" not in base.stderr


def test_base_name_without_a_savegame_is_refused(tmp_path: Path) -> None:
    result = invoke("apply", str(EXAMPLE), "-o", str(tmp_path / "game.xml"), "--base-name")
    assert result.exit_code == 2 and "--base-name names the savegame: use it with --savegame" in result.stderr
    assert not (tmp_path / "game.xml").exists()

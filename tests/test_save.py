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

"""TripleA 2.7 and 1.9 read every pinned game and every example's output as we do (issue 16: both engines in CI).

2.7 is ../shared/triplea-engine-2.7's headless jar; 1.9 is Debian's package. Owners, units, PUs and the game
name (and, 2.7 against us, every property) must agree three ways, and the 2.x game selector (GameParsingValidation) must accept every game we write.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kremlin_triplea.cli.main import main
from kremlin_triplea.engine.compare import disagreements
from kremlin_triplea.engine.savegame import read_with_triplea2
from kremlin_triplea.game import load
from support.paths import EXAMPLES_DIR, MAPS_DIR, PINNED_GAMES, SHARED

pytestmark = [pytest.mark.engine, pytest.mark.slow]

TRIPLEA_27 = SHARED / "triplea-engine-2.7"


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("examples")
    paths = []
    for example in sorted(EXAMPLES_DIR.glob("*.toml")):
        out = folder / f"{example.stem}.xml"
        result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "apply", str(example), "-o", str(out)])
        assert result.exit_code == 0, result.output
        paths.append(out)
    return paths


def test_both_engines_read_every_pinned_game_and_every_output_as_we_do(written: list[Path], engine_readings) -> None:
    games = [*PINNED_GAMES, *written]
    readings_27 = read_with_triplea2(games, triplea=TRIPLEA_27)
    readings_19 = engine_readings.read(games)
    for path, new, old in zip(games, readings_27, readings_19):
        board = load(path).board
        assert new.error is None, (path.name, new.error)
        assert old.ok, (path.name, old.error)
        # Properties too: 2.7's renamed repair properties and its mapName from map.yml are differences by design.
        assert [str(d) for d in disagreements(board, new, triplea2=True)] == [], ("2.7", path.name)
        assert [str(d) for d in disagreements(board, old, properties=False)] == [], ("1.9", path.name)
        assert new.game_name == old.game_name == board.game_name, path.name
        assert new.round == 1


def test_the_2x_game_selector_accepts_every_game_we_write(written: list[Path]) -> None:
    for path, reading in zip(written, read_with_triplea2(written, triplea=TRIPLEA_27)):
        assert reading.error is None and reading.validation == (), (path.name, reading.validation)


def test_the_differences_by_design_between_27_and_our_reading_are_only_those_compare_excuses() -> None:
    # WorldWar3-1955 sets "Battleships repair at end of round", which 2.7 renames as it parses, and a mapName other
    # than its map folder's, which 2.7 takes from map.yml instead.
    game = MAPS_DIR / "classic_variations" / "map" / "games" / "WorldWar3-1955.xml"
    (reading,) = read_with_triplea2([game], triplea=TRIPLEA_27)
    board = load(game).board
    assert [d.key for d in disagreements(board, reading)] == [("property", "Battleships repair at end of round"), ("property", "mapName")]
    assert reading.properties["Units Repair Hits End Turn"] == board.properties["Battleships repair at end of round"]
    assert disagreements(board, reading, triplea2=True) == []

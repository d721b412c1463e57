"""Our reader and the real TripleA engine (1.9) see the same position in every pinned game.

Needs Debian's ``triplea`` package and a JDK, like tests/test_engine_harness.py; not skipped without.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import kremlin_triplea
from kremlin_triplea.engine import EngineReading
from support.paths import PINNED_GAMES, game_id

pytestmark = pytest.mark.engine


@pytest.fixture(scope="module")
def pinned_readings(engine_readings) -> dict[Path, EngineReading]:
    readings = dict(zip(PINNED_GAMES, engine_readings.read(PINNED_GAMES)))
    for path, reading in readings.items():
        assert reading.ok, f"{path}: {reading.error}"
    return readings


def differences(ours: dict, engine: dict) -> dict:
    """Only the keys on which the two disagree, as (ours, engine), for a readable failure."""
    keys = sorted(set(ours) | set(engine), key=str)
    return {k: (ours.get(k), engine.get(k)) for k in keys if ours.get(k) != engine.get(k)}


@pytest.mark.parametrize("path", PINNED_GAMES, ids=game_id)
def test_territories_and_owners_agree(path: Path, pinned_readings: dict[Path, EngineReading]) -> None:
    graph = kremlin_triplea.load(path).board.graph
    engine = pinned_readings[path].territories
    ours = {name: (bool(data["water"]), data["owner"]) for name, data in graph.nodes(data=True)}
    theirs = {name: (t.water, t.owner) for name, t in engine.items()}
    assert differences(ours, theirs) == {}


@pytest.mark.parametrize("path", PINNED_GAMES, ids=game_id)
def test_units_agree(path: Path, pinned_readings: dict[Path, EngineReading]) -> None:
    graph = kremlin_triplea.load(path).board.graph
    engine = pinned_readings[path].territories
    ours = {name: {key: n for key, n in data["units"].items() if n} for name, data in graph.nodes(data=True)}
    theirs = {name: dict(t.units) for name, t in engine.items()}
    assert any(theirs.values()), "the engine reports no units at all"
    assert differences(ours, theirs) == {}


@pytest.mark.parametrize("path", PINNED_GAMES, ids=game_id)
def test_pus_agree(path: Path, pinned_readings: dict[Path, EngineReading]) -> None:
    game = kremlin_triplea.load(path)
    ours = {name: player.pus for name, player in game.players.items()}
    assert differences(ours, dict(pinned_readings[path].pus)) == {}


@pytest.mark.parametrize("path", PINNED_GAMES, ids=game_id)
def test_properties_and_game_name_agree(path: Path, pinned_readings: dict[Path, EngineReading]) -> None:
    game = kremlin_triplea.load(path)
    engine = pinned_readings[path]
    assert game.name == engine.game_name
    # The engine also knows properties the file does not declare (its defaults); compare what the file says.
    # Colours are read by the engine as numbers and printed as hex, so leave those out.
    ours = {k: v for k, v in game.board.properties.items() if not k.startswith("color_") and k != "notes"}
    theirs = {k: engine.properties.get(k) for k in ours}
    normalise = {"true": "true", "false": "false"}
    assert (
        differences(
            {k: normalise.get(v.strip().lower(), v.strip()) for k, v in ours.items()},
            {k: normalise.get((v or "").strip().lower(), (v or "").strip()) for k, v in theirs.items()},
        )
        == {}
    )

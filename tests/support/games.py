"""The test games, each parsed once per test session and handed out with a pristine board."""

from __future__ import annotations

import random
from pathlib import Path

from kremlin_triplea.game import Game, load
from kremlin_triplea.model.changes import PlaceUnits, SetOwner, SetPUs

_CACHE: dict[Path, Game] = {}


def fresh_game(path: Path) -> Game:
    """A game with a pristine board; the file is parsed once per test session."""
    if path not in _CACHE:
        _CACHE[path] = load(path)
    game = _CACHE[path]
    game.reset()
    return game


def random_changes(game: Game, seed: str) -> None:
    """A few owners, units and PUs changed at random (the same for the same seed); a change the board refuses, or one a
    game without players or places cannot draw, is passed over. The read path's tests and
    scripts/read_path_differential.py (each side of it) make these."""
    chance = random.Random(seed)
    places, players, units = sorted(game.initial.nodes), sorted(game.initial.catalog.players), sorted(game.initial.catalog.unit_types)
    for _ in range(6):
        kind = chance.randrange(3)
        try:
            if kind == 0:
                game.board.push(SetOwner(chance.choice(places), chance.choice(players)))
            elif kind == 1 and units:
                game.board.push(PlaceUnits(chance.choice(places), chance.choice(players), chance.choice(units), chance.randrange(1, 5)))
            else:
                game.board.push(SetPUs(chance.choice(players), chance.randrange(99)))
        except (ValueError, IndexError):
            pass


__all__ = ["fresh_game", "random_changes"]

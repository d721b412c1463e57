"""The test games, each parsed once per test session and handed out with a pristine board."""

from __future__ import annotations

from pathlib import Path

from kremlin_triplea.game import Game, load

_CACHE: dict[Path, Game] = {}


def fresh_game(path: Path) -> Game:
    """A game with a pristine board; the file is parsed once per test session."""
    if path not in _CACHE:
        _CACHE[path] = load(path)
    game = _CACHE[path]
    game.reset()
    return game


__all__ = ["fresh_game"]

"""Comparing the engine's reading of a game with our board (the one comparison: kremlin_triplea.engine.compare)."""

from __future__ import annotations

from kremlin_triplea.engine.compare import disagreements


def position_disagreements(board, reading) -> dict:
    """Places where the engine's reading and our board differ in owner or units: (ours, engine's)."""
    return {d.key[1]: (d.ours, d.theirs) for d in disagreements(board, reading, properties=False) if d.key[0] == "place"}

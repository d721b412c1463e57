"""Comparing the engine's reading of a game with our board."""

from __future__ import annotations


def position_disagreements(board, reading) -> dict:
    """Places where the engine's reading and our board differ in owner or units: (ours, engine's)."""
    ours = {name: (data["owner"], {k: n for k, n in data["units"].items() if n}) for name, data in board.nodes.items()}
    theirs = {name: (t.owner, dict(t.units)) for name, t in reading.territories.items()}
    return {k: (ours.get(k), theirs.get(k)) for k in set(ours) | set(theirs) if ours.get(k) != theirs.get(k)}

"""kremlin-triplea: Kremlin drafts, scenarios, house rules and bids for TripleA games."""

from __future__ import annotations

__version__ = "0.1.0"

from kremlin_triplea.board import Board, Catalog
from kremlin_triplea.game import Game, load

__all__ = ["Board", "Catalog", "Game", "load", "__version__"]

"""kremlin-triplea: Kremlin drafts, scenarios, house rules and bids for TripleA games.

    >>> import kremlin_triplea
    >>> game = kremlin_triplea.load("world_war_ii_v3/WW2v3-1941.xml")
    >>> game.board.graph.nodes["Finland"]["owner"]
    'Germans'

The public names are imported on first use, so that ``import kremlin_triplea``
and the command line start quickly (networkx alone takes ~0.1 s to import).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = ["Board", "Catalog", "Game", "load", "__version__"]

_LAZY = {"Board": "kremlin_triplea.model.board", "Catalog": "kremlin_triplea.model.board", "Game": "kremlin_triplea.game", "load": "kremlin_triplea.game"}

if TYPE_CHECKING:
    from kremlin_triplea.game import Game, load
    from kremlin_triplea.model.board import Board, Catalog


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'kremlin_triplea' has no attribute {name!r}")

"""The board invariants every draft step keeps: :mod:`kremlin_triplea.model.invariants`, where every writer reads them."""

from kremlin_triplea.model.invariants import board_problems, new_problems, touched_places

__all__ = ["board_problems", "new_problems", "touched_places"]

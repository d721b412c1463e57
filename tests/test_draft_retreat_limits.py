"""Retreats follow the retreating power's movement limits (issue 12, "Retreats and locks").

000_bc04a4edf7f7d2ab.txt D(5): bonus units for China "may not leave Chinese controlled territory", and "China may
enter or attack Burma ..., French Indo-China, and Mongolia": Chinese defenders retreat only there, never into Russia.
"""

from __future__ import annotations

import pytest

from kremlin_triplea.draft.kinds.takeover import retreat_destinations
from support.aa50 import GAMES, run_for


@pytest.mark.parametrize("game", GAMES.values(), ids=list(GAMES))
def test_chinese_defenders_never_retreat_into_russia(game) -> None:
    run = run_for(game, "Axis")
    state = run.state
    board = state.board
    allowed = state.may_enter["Chinese"]
    chinese = [t for t, d in board.nodes.items() if not d["water"] and d["owner"] == "Chinese"]
    assert chinese
    offered = set()
    for territory in chinese:
        found = retreat_destinations(state, territory, "Chinese", "infantry")
        for place in found.matches:
            assert board.owner(place) != "Russians", f"{territory} -> {place}"
            assert place in allowed, f"{territory} -> {place}"
        offered.update(found.matches)
    assert offered, "Chinese defenders have somewhere to retreat"

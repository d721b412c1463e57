"""gamefile/kept.py: what was worked out from a file's contents is kept for those contents, the most recent first."""

from __future__ import annotations

import pytest

from kremlin_triplea.game import load
from kremlin_triplea.gamefile.kept import Kept
from kremlin_triplea.model.board import Board
from kremlin_triplea.model.changes import SetPUs
from support.paths import AA50_1942


def test_a_value_is_made_once_per_key_and_the_least_recently_used_goes_first() -> None:
    made: list[str] = []
    kept: Kept[str] = Kept(2)

    def get(key: str) -> str:
        return kept.get(key, lambda: made.append(key) or key.upper())

    assert [get("a"), get("b"), get("a")] == ["A", "B", "A"] and made == ["a", "b"]
    get("c")  # three keys for two places: "b" was used longest ago
    assert [get("a"), get("c")] == ["A", "C"] and made == ["a", "b", "c"]
    get("b")
    assert made == ["a", "b", "c", "b"]


def test_a_value_that_cannot_be_made_is_not_kept() -> None:
    kept: Kept[str] = Kept(2)

    def broken() -> str:
        raise ValueError("a bad file")

    with pytest.raises(ValueError, match="a bad file"):
        kept.get("a", broken)
    assert kept.get("a", lambda: "made") == "made"


def test_reading_a_game_copies_no_board_until_its_position_is_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    # load() keeps the game read and hands out a copy: on a path it has not seen, that bookkeeping was two copies
    # of the whole board (the kept game's position made, then copied), 6 ms of WW2v3-1942's read (issue 45 item 6).
    copies: list[Board] = []
    real_copy = Board.copy
    monkeypatch.setattr(Board, "copy", lambda board: copies.append(board) or real_copy(board))
    first = load(AA50_1942)
    assert copies == []
    first.board.push(SetPUs("Russians", 30))
    assert len(copies) == 1  # the position, made from the file's when first asked for
    second = load(AA50_1942)  # the kept game again: its own position, at the file's, not the first caller's
    assert second.board.pus["Russians"] == first.initial.pus["Russians"] != 30
    assert first.copy().board.pus["Russians"] == 30  # a copy of a game whose position was changed keeps the change

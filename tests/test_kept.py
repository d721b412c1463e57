"""gamefile/kept.py: what was worked out from a file's contents is kept for those contents, the most recent first."""

from __future__ import annotations

import threading

import pytest
from lxml import etree

from kremlin_triplea.game import Game, load
from kremlin_triplea.gamefile.document import XmlDocument
from kremlin_triplea.gamefile.kept import Kept
from kremlin_triplea.model.board import Board
from kremlin_triplea.model.changes import PlaceUnits, SetOwner, SetPUs
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


def test_games_loaded_in_several_threads_at_once_write_what_each_alone_writes() -> None:
    """The draft room loads the kept game in several threads at once: each writes its own changes on its own fork of
    the one parsed tree, which no write edits, while other threads read that tree (issue 45 item 6)."""
    players = ["Russians", "Germans", "British", "Japanese", "Americans"]
    changes = [[SetPUs(player, 7 + n), PlaceUnits("Finland", "Germans", "infantry", n + 1), SetOwner("Archangel", player)] for n, player in enumerate(players)]
    alone = []
    for own in changes:  # each on a game read afresh, kept by no one
        game = Game(XmlDocument.read(AA50_1942))
        game.board.push_all(own)
        alone.append(game.to_bytes())
    kept = load(AA50_1942)
    tree_before = etree.tostring(kept.xml.root)
    written: dict[int, set[bytes]] = {n: set() for n in range(len(changes))}
    read: list[bytes] = []
    start = threading.Barrier(len(changes) + 2)

    def write(n: int) -> None:
        start.wait()
        for _ in range(6):
            game = load(AA50_1942)
            game.board.push_all(changes[n])
            written[n].add(game.to_bytes())

    def read_tree() -> None:
        start.wait()
        for _ in range(12):
            read.append(etree.tostring(load(AA50_1942).xml.root))

    threads = [threading.Thread(target=write, args=(n,)) for n in range(len(changes))] + [threading.Thread(target=read_tree) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert written == {n: {alone[n]} for n in range(len(changes))}
    assert set(read) == {tree_before} and etree.tostring(kept.xml.root) == tree_before
    assert load(AA50_1942).to_bytes() == AA50_1942.read_bytes()

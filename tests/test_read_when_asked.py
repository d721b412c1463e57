"""A board's parts read from the file when first asked for (model/board.Unread) are what reading them at once gives,
whenever and in whatever thread they are first asked for, and a write that never asks for them writes what one that
read them all writes (issue 45 item 6)."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import pytest

from kremlin_triplea import game as games
from kremlin_triplea.errors import InputError
from kremlin_triplea.game import Game
from kremlin_triplea.gamefile.document import XmlDocument
from kremlin_triplea.model.board import Board, Catalog
from kremlin_triplea.model.changes import SetPUs
from support.games import random_changes
from support.paths import AA50_1942, ALL_GAMES, each_game, game_id

BOARD_PARTS = ("techs", "properties")


def every_part(board: Board) -> dict[str, object]:
    """Every part of the board read when asked for, asked for now."""
    return {**{part: getattr(board.catalog, part) for part in Catalog.READ_WHEN_ASKED}, **{part: getattr(board, part) for part in BOARD_PARTS}}


def unread(board: Board) -> list[str]:
    """The parts of the board and its catalog not read yet (each reads all of its own at once, when one is asked for)."""
    return [*(Catalog.READ_WHEN_ASKED if type(board.catalog) is not Catalog else ()), *(BOARD_PARTS if type(board) is not Board else ())]


@pytest.mark.parametrize("path", each_game(ALL_GAMES))
def test_parts_asked_for_late_are_those_read_at_once_and_writing_asks_for_none(path: Path) -> None:
    try:
        at_once = Game(XmlDocument.read(path))
    except InputError:
        return  # a game the reader refuses has no board to compare (the read path's tests name each one)
    eager = every_part(at_once.initial)
    random_changes(at_once, game_id(path))
    written_eagerly = at_once.to_bytes()

    late = Game(XmlDocument.read(path))
    random_changes(late, game_id(path))
    # random_changes draws its unit types from the catalog: the board's own parts are as read, and stay so through a write
    assert unread(late.initial) == list(BOARD_PARTS)
    assert late.to_bytes() == written_eagerly
    assert unread(late.initial) == list(BOARD_PARTS) and unread(Game(XmlDocument.read(path)).initial) == [*Catalog.READ_WHEN_ASKED, *BOARD_PARTS]
    # asked for in a random order, after the write, each part is what it was read as at once
    order = [*Catalog.READ_WHEN_ASKED, *BOARD_PARTS]
    random.Random(game_id(path)).shuffle(order)
    for part in order:
        assert getattr(late.initial.catalog if part in Catalog.READ_WHEN_ASKED else late.initial, part) == eager[part], part
    assert late.board.techs == late.initial.techs and late.board.properties == late.initial.properties


def test_the_threads_of_a_kept_game_read_each_part_once_and_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """The room's threads share a kept game's board and catalog: a part first asked for by several at once is read
    once, and every thread gets the very same value."""
    monkeypatch.setattr(games, "_GAMES_READ", type(games._GAMES_READ)(4))
    shared = games.read_game(AA50_1942)
    reads: list[str] = []
    unread_parts = shared.initial.catalog._unread
    read = unread_parts._read
    assert read is not None

    def counted(part: str) -> object:
        reads.append(part)
        return read(part)

    monkeypatch.setattr(unread_parts, "_read", counted)
    start = threading.Barrier(8)
    seen: list[dict[str, object]] = []

    def ask(seed: int) -> None:
        game = games.read_game(AA50_1942)
        order = [*Catalog.READ_WHEN_ASKED]
        random.Random(seed).shuffle(order)
        start.wait()
        seen.append({part: getattr(game.initial.catalog, part) for part in order} | {"properties": game.initial.properties})

    threads = [threading.Thread(target=ask, args=(seed,)) for seed in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(seen) == 8 and sorted(reads) == sorted({*reads}) and {*reads} == {*Catalog.READ_WHEN_ASKED, *BOARD_PARTS}
    for part in Catalog.READ_WHEN_ASKED:
        assert all(found[part] is seen[0][part] for found in seen)


def test_every_part_read_lets_the_file_go() -> None:
    """A board outliving its game keeps no parsed tree once it has read every part it reads late."""
    board = Game(XmlDocument.read(AA50_1942)).initial
    every_part(board)
    assert board.catalog._unread._read is None


def test_a_part_asked_for_while_the_file_is_being_written_is_refused() -> None:
    """A part read late must not be read from a file half written (the document is edited in place): refused, not
    read wrong."""
    game = Game(XmlDocument.read(AA50_1942))
    game.board.push(SetPUs("Russians", 30))
    with game.document.edits() as document:
        document.set_attribute(document.root.find("info"), "name", "x")
        with pytest.raises(RuntimeError, match="being written"):
            _ = game.initial.properties
    assert game.initial.properties["mapName"] == "world_war_ii_v3"


def test_a_price_that_is_not_a_whole_number_is_refused_as_the_game_is_read(tmp_path: Path) -> None:
    """The prices are read when first asked for, but a game they could not be read from is refused as it is read, at
    the line of the quantity, as before."""
    data = AA50_1942.read_bytes()
    rule = data.index(b'<cost resource="PUs" quantity="3"/>')
    broken = tmp_path / "broken.xml"
    broken.write_bytes(data[:rule] + data[rule:].replace(b'quantity="3"', b'quantity="three"', 1))
    with pytest.raises(InputError, match="quantity 'three' is not a whole number") as refused:
        Game(XmlDocument.read(broken))
    line = data[:rule].count(b"\n") + 1
    assert refused.value.where == f"{broken}:{line}"

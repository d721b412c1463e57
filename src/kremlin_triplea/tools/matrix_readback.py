"""How the matrix checks the games its picks write: files validated and read back (and read by TripleA with
``--engine``), many picks sharing each written file. Used by :mod:`kremlin_triplea.tools.matrix`."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from kremlin_triplea.check.incremental import Validator
from kremlin_triplea.check.validate import added_problems, errors, find_dtd, validate_tree
from kremlin_triplea.engine import compare, read_with_engine_of_record
from kremlin_triplea.errors import and_more
from kremlin_triplea.game import Game
from kremlin_triplea.gamefile.document import XmlDocument
from kremlin_triplea.model.board import Board, copy_units
from kremlin_triplea.model.changes import Change
from kremlin_triplea.model.diff import board_difference
from kremlin_triplea.tools.matrix_report import FILE_LIMIT, Cell

# -- checking written games --------------------------------------------------------------
#
# Writing a game, reading it back and validating it costs tens of milliseconds;
# applying a pick in memory costs tens of microseconds. The writer
# (model.codec.write_board) edits each place, each player's PUs and each
# property on its own, from that place's state before and after. So a pick is
# checked once every *place state* it leaves (a place with exactly its data
# after the pick; a player's PUs; a property) has been written and read back
# and validated in some file. Many picks share place states (the same retreat,
# the same placement under two rulesets), and one file holds one state of
# every place: the files needed are about the most states any one place takes.


@attrs.define(eq=False)
class Applied:
    """One pick or bid applied in memory: what it changed, and which cell it counts for."""

    cell: Cell
    label: str
    changes: tuple[Change, ...]
    states: list[State] | None = None  # what the changes leave, taken when they were applied
    rules: tuple[Change, ...] = ()  # the ruleset's game rules among ``changes``, written after the pick as apply does

    def fail(self, why: str) -> None:
        self.cell.errors.append(f"{self.label}: {why}")


Key = tuple[str, str]  # ("place", name), ("pus", player), ("techs", player), ("property", name), ("name", "")
State = tuple[Key, Any]


def _frozen(data: dict[str, Any]) -> tuple:
    return tuple(sorted((k, tuple(sorted(((o or "", u), n) for (o, u), n in v.items() if n)) if k == "units" else v) for k, v in data.items()))


def states_after(board: Board, changes: tuple[Change, ...]) -> list[State]:
    """The states of every place, player and property ``changes`` leave different from ``board``."""
    before = snapshot(board)
    board.push_all(list(changes))
    try:
        return states_now(board, changes, before)
    finally:
        for _ in changes:
            board.pop()


def snapshot(board: Board) -> tuple:
    return dict(board.pus), dict(board.techs), dict(board.properties), board.game_name


def states_now(board: Board, changes: tuple[Change, ...], before: tuple) -> list[State]:
    """The states ``changes`` (pushed on ``board`` after ``before`` was taken) have left."""
    before_pus, before_techs, before_props, before_name = before
    states: list[State] = []
    for place in sorted({c.territory for c in changes if hasattr(c, "territory")}):
        data = board.node(place)
        states.append((("place", place), (_frozen(data), data)))
    # Most picks change only places: the whole tables are compared first (in C) before any is walked.
    if board.pus != before_pus:
        for player in sorted(set(board.pus) | set(before_pus)):
            if board.pus.get(player, 0) != before_pus.get(player, 0):
                states.append((("pus", player), board.pus.get(player, 0)))
    if board.techs != before_techs:
        for player in sorted(set(board.techs) | set(before_techs)):
            if board.techs.get(player) != before_techs.get(player):
                states.append((("techs", player), board.techs.get(player, frozenset())))
    if board.properties != before_props:
        for name in sorted(board.properties):
            if board.properties[name] != before_props.get(name):
                states.append((("property", name), board.properties[name]))
    if board.game_name != before_name:
        states.append((("name", ""), board.game_name))
    return [(key, _copied(value)) for key, value in states]


def _copied(value: Any) -> Any:
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], dict):
        frozen, data = value
        return frozen, {**data, "units": copy_units(data["units"])}
    return value


def _state_id(state: State) -> tuple:
    key, value = state
    return (key, value[0]) if key[0] == "place" else (key, value if not isinstance(value, frozenset) else tuple(sorted(value)))


def board_with_states(base: Board, states: list[State]) -> Board:
    """``base`` with each place, player and property set to the given state."""
    board = base.copy()
    for (kind, name), value in states:
        if kind == "place":
            node = board.node(name)
            node.update(value[1])
            node["units"] = copy_units(value[1]["units"])
        elif kind == "pus":
            board.pus[name] = value
        elif kind == "techs":
            board.techs[name] = value
        elif kind == "property":
            board.properties[name] = value
        else:
            board.game_name = value
    return board


def read_back_differences(expected: Board, found: Board) -> dict[Key, str]:
    """Which place, player or property reads back differently, and how."""
    difference = board_difference(expected, found)
    differences: dict[Key, str] = {}
    for name in difference.places:
        differences[("place", name)] = f"{name}: expected {_place_view(expected, name)}, read back {_place_view(found, name)}"
    for player, (wanted, read) in difference.pus.items():
        differences[("pus", player)] = f"{player} PUs: expected {wanted}, read back {read}"
    for player, (wanted, read) in difference.techs.items():
        differences[("techs", player)] = f"{player} technologies: expected {sorted(wanted)}, read back {sorted(read)}"
    for name in difference.properties:
        differences[("property", name)] = f"property {name!r} reads back differently"
    if difference.game_name is not None:
        differences[("name", "")] = f"game name: expected {difference.game_name[0]!r}, read back {difference.game_name[1]!r}"
    return differences


def _place_view(board: Board, name: str) -> dict[str, Any]:
    data = board.nodes[name]
    return {**data, "units": {k: n for k, n in data["units"].items() if n}}


class Checker:
    """Writes boards out, reads them back and validates them; keeps the files for the engine."""

    def __init__(self, engine_folder: Path | None) -> None:

        self.dtd = find_dtd()
        # The files of one game differ mostly in their starting state: the rest is validated once per text of it.
        self.validator = Validator(self.dtd)
        self.engine_folder = engine_folder
        # (file, board written, key -> the items to blame for that place, player or property)
        self.for_engine: list[tuple[Path, Board, Callable[[Key | None], list[Applied]]]] = []
        self.files = 0
        self._base_problems: dict[str, list] = {}

    def new_problems(self, game: Game, problems: list) -> list:
        """The problems the base game does not have already (by message: edits move line numbers)."""

        if game.source not in self._base_problems:
            self._base_problems[game.source] = validate_tree(game.document.root, game.source, dtd=self.dtd)
        return added_problems(self._base_problems[game.source], problems)

    def write_and_read(self, game: Game, board: Board, name: str) -> tuple[bytes | None, str | None, dict[Key, str], list]:
        """(bytes written, why writing failed, what reads back differently, new validation problems)."""

        try:
            written = game.to_bytes(board)
        except Exception as error:  # noqa: BLE001 - a change the writer cannot express is this pick's failure
            return None, f"writing failed: {type(error).__name__}: {error}", {}, []
        self.files += 1
        again = Game(XmlDocument(written, source=name))
        differences = read_back_differences(board, again.board)
        # An error or a warning a written game adds fails its picks; a note (what the other engine cannot read, what
        # game.dtd says) never does (issue 46: a game.dtd note failed cells).
        problems = errors(self.new_problems(game, self.validator.validate(again.document.original, again.document.root, name)), strict=True)
        return written, None, differences, problems

    def check_whole(self, game: Game, board: Board, item: Applied, name: str) -> None:
        """One board written as it is (a whole draft): every difference and problem is the item's."""
        written, failed, differences, problems = self.write_and_read(game, board, name)
        if failed:
            item.fail(failed)
            return
        for text in differences.values():
            item.fail(f"reads back differently: {text}")
        if problems:
            item.fail(f"does not validate: {problems[0]}{and_more(problems)}")
        elif not differences:
            self._keep(written, board, lambda key: [item])

    def check_states(self, game: Game, items: list[Applied], name: str) -> None:
        """Check the single picks place state by place state, in as few files as the states allow.

        A pick's game rules write XML (canals, turn steps, prices) that is no place's state, and places no pick
        touches: the picks whose rules are the same (those of one ruleset) share files written on a base that has
        them, so every file is the whole game apply writes for each pick in it.
        """
        groups: dict[tuple[Change, ...], list[Applied]] = {}
        for item in items:
            groups.setdefault(item.rules, []).append(item)
        for rules, group in groups.items():
            base = game.initial.copy()
            base.push_all(list(rules))
            self._check_group(game, base, group, name)

    def _check_group(self, game: Game, base: Board, items: list[Applied], name: str) -> None:
        scratch = base.copy()  # each item's changes are pushed here and popped again
        users: dict[tuple, list[Applied]] = {}
        states: dict[tuple, State] = {}
        for item in items:
            try:
                found = item.states if item.states is not None else states_after(scratch, item.changes)
            except Exception as error:  # noqa: BLE001
                item.fail(f"cannot be applied again: {type(error).__name__}: {error}")
                continue
            for state in found:
                ident = _state_id(state)
                states.setdefault(ident, state)
                users.setdefault(ident, []).append(item)
        files: list[dict[Key, tuple]] = []
        for ident in states:
            key = ident[0]
            for chosen in files:
                if key not in chosen and len(chosen) < FILE_LIMIT:
                    chosen[key] = ident
                    break
            else:
                files.append({key: ident})
        for chosen in files:
            self._check_file(game, base, [states[i] for i in chosen.values()], {k: users[i] for k, i in chosen.items()}, name)

    def _check_file(self, game: Game, base: Board, states: list[State], blame: dict[Key, list[Applied]], name: str, *, split: bool = True) -> None:
        board = board_with_states(base, states)
        written, failed, differences, problems = self.write_and_read(game, board, name)
        if (failed or problems) and split:
            # The states the writer or the validator objects to are found cell by cell: one file per cell of this one,
            # holding the states of that cell's picks and blaming those picks only (a state shared with another cell
            # goes into both files), never halved down to single states (issue 46: on a game whose every cell fails,
            # halving validated the whole game twice per state, more than 8 CPU-minutes and 1 GB for one game). A
            # failing file costs one more file per cell in it, at most.
            by_cell: dict[int, tuple[list[State], dict[Key, list[Applied]]]] = {}
            for state in states:
                for user in blame.get(state[0], []):
                    part, part_blame = by_cell.setdefault(id(user.cell), ([], {}))
                    if state[0] not in part_blame:
                        part.append(state)
                        part_blame[state[0]] = []
                    part_blame[state[0]].append(user)
            if len(by_cell) > 1:
                for part, part_blame in by_cell.values():
                    self._check_file(game, base, part, part_blame, name, split=False)
                return
        culprits = {id(i): i for items in blame.values() for i in items}.values()
        if failed:
            for item in culprits:
                item.fail(failed)
            return
        if problems:
            for item in culprits:
                item.fail(f"does not validate: {problems[0]}{and_more(problems)}")
            return
        for key, text in differences.items():
            for item in blame.get(key, list(culprits)):
                item.fail(f"reads back differently: {text}")
        if not differences:
            self._keep(written, board, lambda key: blame.get(key, []) if key is not None else list(culprits))

    def _keep(self, written: bytes | None, board: Board, blame: Callable[[Key | None], list[Applied]]) -> None:
        if self.engine_folder is not None and written is not None:
            path = self.engine_folder / f"{len(self.for_engine):05d}.xml"
            path.write_bytes(written)
            self.for_engine.append((path, board, blame))

    def check_with_engine(self) -> float:
        """Read every kept file through one JVM and compare; returns the seconds it took."""

        if not self.for_engine:
            return 0.0
        start = time.perf_counter()
        readings = read_with_engine_of_record([path for path, _, _ in self.for_engine])
        seconds = time.perf_counter() - start
        for (_path, board, blame), reading in zip(self.for_engine, readings):
            if not reading.ok:
                for item in blame(None):
                    item.fail(f"the engine cannot read the written game: {reading.error}")
                continue
            for found in compare.disagreements(board, reading, properties=False):
                kind, name = found.key
                for item in blame(found.key) or blame(None):
                    if kind == "place":
                        item.fail(f"the engine reads {name} as {found.theirs}, we wrote {found.ours}")
                    else:
                        item.fail(f"the engine reads {name} with {found.theirs} PUs, we wrote {found.ours}")
            if reading.dtd_errors:
                for item in blame(None):
                    item.fail(f"the engine reports DTD errors: {reading.dtd_errors[0]}")
        return seconds

"""How the matrix checks the games its picks write: files validated and read back (and read by TripleA with
``--engine``), many picks sharing each written file. Used by :mod:`kremlin_triplea.tools.matrix`."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
from lxml import etree

from kremlin_triplea.check.incremental import Validator
from kremlin_triplea.check.validate import NOTE, added_problems, find_dtd, validate_tree
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


@attrs.frozen
class Written:
    """A board written out and read back: its bytes (None when writing failed, and why), what reads back
    differently, the new problems validation found, and the file's tree when there are any (to tell their places)."""

    written: bytes | None
    failed: str | None
    differences: dict[Key, str] = attrs.field(factory=dict)
    problems: list = attrs.field(factory=list)
    root: etree._Element | None = None


@attrs.define
class _Group:
    """The picks of one ruleset's game rules on one game: the base their files are written on."""

    game: Game
    base: Board
    name: str
    rules_problems: list | None = None


def _invalid(problems: list) -> str:
    return f"does not validate: {problems[0]}{and_more(problems)}"


#: Which starting state an element of the written game is part of, by its section: the writer
#: (model.codec.write_board) writes a place's state into the elements naming that territory, a player's PUs into its
#: resourceGiven, its technologies into its techAttachment, a property into its <property>.
def _element_key(element: etree._Element, section: str) -> Key | None:
    if section == "initialize":
        if element.get("territory") is not None:
            return ("place", element.get("territory"))
        if element.tag == "resourceGiven" and element.get("player") is not None:
            return ("pus", element.get("player"))
        return None
    if section == "attachmentList":
        if element.get("type") == "territory" and element.get("name") == "territoryAttachment":
            return ("place", element.get("attachTo", ""))
        if element.get("type") == "player" and element.get("name") == "techAttachment":
            return ("techs", element.get("attachTo", ""))
        return None
    if section == "propertyList" and element.tag == "property":
        return ("property", element.get("name", ""))
    if section == "info":
        return ("name", "")
    return None


def _lay_problems(root: etree._Element | None, problems: list, blame: dict[Key, Any]) -> dict[Key | None, list]:
    """Each problem under the state (of ``blame``'s) whose XML holds its line; under None when none does, or the
    line holds XML of no state or of more than one."""
    lines = {p.line for p in problems if p.line is not None}
    keys: dict[int, set[Key | None]] = {}
    for section in root if root is not None and lines else ():
        if not isinstance(section.tag, str):
            continue
        if section.tag == "info" and section.sourceline in lines:
            keys.setdefault(section.sourceline, set()).add(("name", ""))
        for top in section:
            if not isinstance(top.tag, str):
                continue
            for element in top.iter():
                if element.sourceline in lines:
                    key = _element_key(element, section.tag) or _element_key(top, section.tag)
                    keys.setdefault(element.sourceline, set()).add(key)
    laid: dict[Key | None, list] = {}
    for problem in problems:
        found = keys.get(problem.line, set())
        key = next(iter(found)) if len(found) == 1 else None
        laid.setdefault(key if key in blame else None, []).append(problem)
    return laid


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
        """The problems the base game does not have already (by message: edits move line numbers), notes left out:
        a note is what another engine than the judge cannot read, or a game.dtd remark, and never fails a game."""

        if game.source not in self._base_problems:
            self._base_problems[game.source] = validate_tree(game.document.root, game.source, dtd=self.dtd)
        return [p for p in added_problems(self._base_problems[game.source], problems) if p.severity != NOTE]

    def write_and_read(self, game: Game, board: Board, name: str) -> Written:
        """Write ``board``, read it back and validate it."""

        try:
            written = game.to_bytes(board)
        except Exception as error:  # noqa: BLE001 - a change the writer cannot express is this pick's failure
            return Written(None, f"writing failed: {type(error).__name__}: {error}")
        self.files += 1
        again = Game(XmlDocument(written, source=name))
        differences = read_back_differences(board, again.board)
        problems = self.new_problems(game, self.validator.validate(again.document.original, again.document.root, name))
        return Written(written, None, differences, problems, again.document.root if problems else None)

    def check_whole(self, game: Game, board: Board, item: Applied, name: str) -> None:
        """One board written as it is (a whole draft): every difference and problem is the item's."""
        found = self.write_and_read(game, board, name)
        if found.failed:
            item.fail(found.failed)
            return
        for text in found.differences.values():
            item.fail(f"reads back differently: {text}")
        if found.problems:
            item.fail(_invalid(found.problems))
        elif not found.differences:
            self._keep(found.written, board, lambda key: [item])

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
        group = _Group(game, base, name)
        for chosen in files:
            self._check_file(group, [states[i] for i in chosen.values()], {k: users[i] for k, i in chosen.items()})

    def _check_file(self, group: _Group, states: list[State], blame: dict[Key, list[Applied]], *, alone: bool = False) -> None:
        """Write one file holding ``states`` and judge each state's picks by what is wrong in that state's XML.

        Each problem is laid at the state whose XML holds its line, so a file costs one validation however many of
        its states fail. A problem of the game rules the states share (the group's base has it too) is every
        pick's. Only what no line tells apart (a writer's failure, a problem without a line or in XML no state of
        the file writes) has each state written alone, once; never more files than states."""
        board = board_with_states(group.base, states)
        found = self.write_and_read(group.game, board, group.name)
        culprits = list({id(i): i for items in blame.values() for i in items}.values())
        laid = _lay_problems(found.root, found.problems, blame) if found.problems else {}
        elsewhere = laid.pop(None, [])
        # What no state of the file holds is the game rules' (their file alone has it too), or no line tells whose.
        unplaced = added_problems(self._rules_problems(group), elsewhere) if elsewhere else []
        if (found.failed or unplaced) and not alone and len(states) > 1:
            for state in states:
                self._check_file(group, [state], {state[0]: blame[state[0]]}, alone=True)
            return
        if found.failed:
            for item in culprits:
                item.fail(found.failed)
            return
        shared = elsewhere  # the rules' own problems, or (a state alone) no line's: every pick's in the file
        failing: dict[int, list] = {}
        for key, where in laid.items():
            for item in blame[key]:
                failing.setdefault(id(item), []).extend(where)
        for item in culprits:
            if shared or id(item) in failing:
                item.fail(_invalid(shared + failing.get(id(item), [])))
        for key, text in found.differences.items():
            for item in blame.get(key, culprits):
                item.fail(f"reads back differently: {text}")
        if found.differences:
            return
        if not found.problems:
            self._keep(found.written, board, lambda key: blame.get(key, []) if key is not None else culprits)
        elif not shared and self.engine_folder is not None and not alone:
            # The engine reads the states no problem was laid at, in one more file.
            clean = [s for s in states if s[0] not in laid]
            if clean:
                self._check_file(group, clean, {s[0]: blame[s[0]] for s in clean}, alone=True)

    def _rules_problems(self, group: _Group) -> list:
        """The new problems of the group's base alone (its game rules written, no pick's state): worked out once."""
        if group.rules_problems is None:
            found = self.write_and_read(group.game, group.base, group.name)
            group.rules_problems = found.problems
        return group.rules_problems

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

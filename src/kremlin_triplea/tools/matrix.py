"""The option matrix: every option of every ruleset, applied to every game it claims (or is given).

For each ruleset and game, from the initial board and for each side:

1. every legal target of every option (``legal.option_choices``: each power,
   unit and place; each neutral, taker and navy zone; each takeover and
   retreat destination) becomes one pick, applied to the board in memory and
   undone (``push``/``pop``: no file is read again);
2. every bid target (each power's units and places; each negative bid);
3. a seeded random sample of whole drafts (picks drawn from the legal
   enumeration, the declarations, a bid), written as a draft file's data and
   applied by ``apply_draft`` itself, notes included;
4. each house-rule set on the games of its maps (defaults; every switch flipped).

The matrix plays what ``apply`` plays: each game is read with the profile apply
finds, the ruleset fitted by apply's own ``DraftRun``, the ruleset's game rules
(section D) written after every pick, bid and draft, and a game apply refuses is
not applicable, in apply's words.

Each result must write a file that validates (``validate.validate_tree``, with
TripleA's DTD when installed; problems the base game has already do not count)
and reads back to the board we meant; with the engine, TripleA must read the
same owners, units and PUs (all files in one JVM). How single picks share
written files is explained at ``Checker`` below.
"""

from __future__ import annotations

import random
import sys
import time
import zlib
from collections.abc import Callable, Collection, Iterator
from pathlib import Path
from typing import Any

import attrs

from kremlin_triplea.check.validate import added_problems, find_dtd, validate_tree
from kremlin_triplea.draft.choices import OptionChoices
from kremlin_triplea.draft.declare import destinations, with_declarations
from kremlin_triplea.draft.invariants import board_problems, new_problems, touched_places
from kremlin_triplea.draft.kinds import KINDS, Pick
from kremlin_triplea.draft.kinds.bid import apply_bid, bid_placement_problem, bid_receivers, removable_units
from kremlin_triplea.draft.kinds.scenario import ScenarioTarget, apply_scenario
from kremlin_triplea.draft.legal import bid_choices
from kremlin_triplea.draft.picks import BidSpec, UnitPlacement
from kremlin_triplea.draft.rulesets import load_ruleset
from kremlin_triplea.draft.run import DraftRun, draft_from_dict
from kremlin_triplea.engine import compare, read_with_engine_of_record
from kremlin_triplea.errors import KremlinError, UnknownNameError, and_more
from kremlin_triplea.game import Game, load
from kremlin_triplea.gamefile.document import XmlDocument
from kremlin_triplea.gamefile.locate import resolve_game
from kremlin_triplea.gamefile.safe import scratch_folder
from kremlin_triplea.gamerules.actions import AppliedRules
from kremlin_triplea.gamerules.house import apply_house_rules, house_rule_changes
from kremlin_triplea.model.board import Board, copy_units
from kremlin_triplea.model.changes import Change
from kremlin_triplea.model.diff import board_difference
from kremlin_triplea.report.notes import add_notes
from kremlin_triplea.rules.datafiles import named_rule_files
from kremlin_triplea.rules.house_rules import HouseChoices, load_house_set
from kremlin_triplea.rules.profile import NoProfileError, Profile, load_profile, profile_for_game
from kremlin_triplea.rules.ruleset import Option, Ruleset, data_folders
from kremlin_triplea.session import Bid, Declaration, Session, apply_draft
from kremlin_triplea.tools.rule_names import rule_names

APPLIED, NOT_APPLICABLE, FAILED = "applied", "not applicable", "failed"
FILE_LIMIT = 400  # place states per written file: a file that fails validation is halved until the culprits stand alone


@attrs.define
class Cell:
    """One option (row) on one game (column)."""

    ruleset: str
    row: str
    game: str
    applied: int = 0
    reasons: list[str] = attrs.field(factory=list)  # why not applicable (per side)
    errors: list[str] = attrs.field(factory=list)

    @property
    def status(self) -> str:
        if self.errors:
            return FAILED
        return APPLIED if self.applied else NOT_APPLICABLE

    def as_dict(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "option": self.row,
            "game": self.game,
            "status": self.status,
            "applied": self.applied,
            "reasons": self.reasons,
            "errors": self.errors,
        }


@attrs.frozen
class GameSpec:
    """A game for the matrix: its file, how it is shown, and the profile given for it (None: the one apply finds)."""

    path: Path
    label: str
    profile: Profile | None


@attrs.define
class Report:
    cells: dict[tuple[str, str, str], Cell] = attrs.field(factory=dict)
    games: list[str] = attrs.field(factory=list)
    rows: list[tuple[str, str]] = attrs.field(factory=list)  # (ruleset, row) in order
    notes: dict[str, list[str]] = attrs.field(factory=dict)  # game -> notes
    figures: dict[str, float] = attrs.field(factory=dict)

    def cell(self, ruleset: str, row: str, game: str) -> Cell:
        key = (ruleset, row, game)
        if key not in self.cells:
            self.cells[key] = Cell(ruleset, row, game)
            if (ruleset, row) not in self.rows:
                self.rows.append((ruleset, row))
        return self.cells[key]

    @property
    def failed(self) -> list[Cell]:
        return [c for c in self.cells.values() if c.status == FAILED]


# -- what to run -----------------------------------------------------------------------


def all_rulesets() -> tuple[list[Ruleset], list[str]]:
    """The installed Kremlin rulesets (not the house-rule sets beside them), and the errors of those that do not load."""
    rulesets, errors = [], []
    for path in _ruleset_files(house=False):
        try:
            rulesets.append(load_ruleset(path))
        except KremlinError as error:
            errors.append(str(error))
    return rulesets, errors


def all_house_sets() -> tuple[list[Any], list[str]]:
    """The installed house-rule sets (``[[rule]]`` files in rulesets/), and the errors of those that do not load."""

    sets, errors = [], []
    for path in _ruleset_files(house=True):
        try:
            sets.append(load_house_set(path))
        except KremlinError as error:
            errors.append(str(error))
    return sets, errors


def _ruleset_files(*, house: bool) -> list[Path]:
    return list(named_rule_files("house" if house else "ruleset").values())


def all_profiles() -> tuple[list[Profile], list[str]]:
    """The installed map profiles, and the errors of those that do not load."""
    paths = {p.stem: p for folder in reversed(data_folders("maps")) for p in folder.glob("*.toml")}
    profiles, errors = [], []
    for key in sorted(paths):
        try:
            profiles.append(load_profile(paths[key]))
        except KremlinError as error:
            errors.append(str(error))
    return profiles, errors


def covered_games(ruleset: Ruleset, profiles: list[Profile], maps_dir: Path | str | None) -> list[GameSpec]:
    """The games the map profiles written for ``ruleset`` pin (each read with the profile apply finds for it)."""

    found = []
    for profile in profiles:
        if ruleset.id in profile.rulesets:
            for base in profile.games:
                found.append(GameSpec(resolve_game(base.key, maps_dir), base.key, None))
    return found


def played_profile(game: Game) -> Profile | None:
    """The profile ``apply`` reads ``game`` with, or None when apply refuses the game (no profile, or one that does not fit)."""
    try:
        return profile_for_game(game)
    except KremlinError:
        return None


def profile_for_path(path: Path, game: Game, profiles: list[Profile]) -> Profile | None:
    """The profile that pins this file (by name or sha256), else the one of its map."""
    import hashlib

    digest = hashlib.sha256(game.document.original).hexdigest()
    for profile in profiles:
        if any(g.sha256 == digest or (g.file == path.name and g.name == game.name) for g in profile.games):
            return profile
    map_name = game.board.properties.get("mapName")
    return next((p for p in profiles if p.map == map_name), None)


# -- targets: one pick per legal choice ------------------------------------------------


def bid_targets(run: DraftRun, *, positive: bool = True) -> Iterator[tuple[str, str, BidSpec]]:
    """(row, description, bid): each placing power's units and places; each negative bid's receiver or removable unit."""
    state = run.state
    bid = state.ruleset.bid
    catalog = run.game.board.catalog
    facts = state.facts()
    choices = bid_choices(state) if positive else None
    for power, places in choices.places if choices is not None else ():
        buyable = sorted((catalog.cost(u, power) or 0, u) for u in catalog.unit_types if catalog.cost(u, power) is not None)
        seen = set()
        for cost, unit in buyable:
            place = next((p for p in places if bid_placement_problem(state, facts, power, unit, p) is None), None)
            if place is not None:
                seen.add((unit, place))
                yield "bid (units)", f"{power} {unit} in {place}", BidSpec(max(cost, 1), (UnitPlacement(power, unit, 1, place),))
        for place in places:
            unit = next((u for c, u in buyable if bid_placement_problem(state, facts, power, u, place) is None), None)
            if unit is not None and (unit, place) not in seen:
                cost = catalog.cost(unit, power) or 0
                yield "bid (units)", f"{power} {unit} in {place}", BidSpec(max(cost, 1), (UnitPlacement(power, unit, 1, place),))
    if bid.negative == "remove_units":
        for (power, unit, place), _ in sorted(removable_units(state).items(), key=lambda item: (item[0][0], item[0][1])):
            cost = catalog.cost(unit, power)
            if cost:
                yield "bid (negative)", f"{power} remove 1 {unit} from {place}", BidSpec(-cost, removals=(UnitPlacement(power, unit, 1, place),))
    else:
        for power in bid_receivers(state):
            yield "bid (negative)", f"{power} receive 5 PUs", BidSpec(-5, allocate=((power, 5),))


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
    before = _snapshot(board)
    board.push_all(list(changes))
    try:
        return states_now(board, changes, before)
    finally:
        for _ in changes:
            board.pop()


def _snapshot(board: Board) -> tuple:
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
        problems = self.new_problems(game, validate_tree(again.document.root, name, dtd=self.dtd))
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

    def _check_file(self, game: Game, base: Board, states: list[State], blame: dict[Key, list[Applied]], name: str) -> None:
        board = board_with_states(base, states)
        written, failed, differences, problems = self.write_and_read(game, board, name)
        if (failed or problems) and len(states) > 1:
            # Halve until the states the writer or the validator objects to stand alone.
            middle = len(states) // 2
            for half in (states[:middle], states[middle:]):
                self._check_file(game, base, half, {state[0]: blame[state[0]] for state in half}, name)
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


# -- the matrix --------------------------------------------------------------------------


def run_matrix(
    rulesets: list[Ruleset],
    extra_games: list[Path],
    *,
    maps_dir: Path | str | None = None,
    engine: bool = False,
    samples: int = 2,
    seed: int = 0,
    progress: Callable[[int, int, str], None] | None = None,
    broken_rulesets: list[str] = (),
    include_covered: bool = True,
    house_sets: list[Any] = (),
    given_profiles: list[Profile] = (),
    list_only: bool = False,
) -> Report:
    """Every option of every ruleset on the games its profiles cover, plus ``extra_games``.

    ``broken_rulesets`` are the errors of rulesets that did not load: each fails the matrix.
    ``include_covered=False`` runs only ``extra_games``. ``given_profiles``
    (``--profile FILE``) come before the installed ones for ``extra_games``.
    ``list_only`` finds what is available and why not, applying and writing
    nothing (one pick per option counts; ``profile new`` uses it). Each of ``house_sets`` is
    applied (defaults, then every switch flipped; advantages drawn with the seed)
    to every game of the maps it lists.
    """
    report = Report()
    for error in broken_rulesets:
        report.cell("(rulesets)", "load", "(all)").errors.append(error)
    profiles, broken = all_profiles()
    for error in broken:  # a map profile that does not load fails the matrix
        report.cell("(map profiles)", "load", "(all)").errors.append(error)
    work: list[tuple[Ruleset, GameSpec]] = []
    for ruleset in rulesets if include_covered else ():
        for spec in covered_games(ruleset, profiles, maps_dir):
            work.append((ruleset, spec))
    games: dict[Path, Game] = {}
    extra_specs = []
    for path in extra_games:
        path = Path(path).resolve()
        game = games.setdefault(path, load(path))
        # A profile given for the game (``--profile``), else none: each run looks it up as apply does.
        extra_specs.append(GameSpec(path, game_label(path), profile_for_path(path, game, list(given_profiles))))
    for ruleset in rulesets:
        claimed = {s.path.resolve() for r, s in work if r is ruleset}
        work += [(ruleset, s) for s in extra_specs if s.path not in claimed]
    started = time.perf_counter()
    with scratch_folder("matrix") as folder:
        checker = Checker(Path(folder) if engine else None)
        # One game after another, so the single picks of all its rulesets share written files.
        order = {label: n for n, label in enumerate(dict.fromkeys(s.label for _, s in work))}
        work.sort(key=lambda entry: order[entry[1].label])
        pending: list[Applied] = []
        for done, (ruleset, spec) in enumerate(work):
            if progress is not None:
                progress(done, len(work), spec.label)
            if spec.label not in report.games:
                report.games.append(spec.label)
            path = spec.path.resolve()
            game = games.get(path) or games.setdefault(path, load(path))
            try:
                _run_one(report, checker, ruleset, spec, game, samples, seed, pending, list_only)
            except KremlinError as error:  # the ruleset cannot be set up on this game at all
                report.cell(ruleset.id, "(set-up)", spec.label).errors.append(str(error))
            if done + 1 == len(work) or work[done + 1][1].label != spec.label:
                game.reset()
                checker.check_states(game, pending, spec.label)
                pending = []
                for house in house_sets:
                    _run_house_set(report, checker, house, spec, game, seed)
        if progress is not None:
            progress(len(work), len(work), "")
        report.figures["seconds_without_engine"] = time.perf_counter() - started
        report.figures["files_written"] = checker.files
        if engine:
            report.figures["engine_seconds"] = checker.check_with_engine()
            report.figures["engine_files"] = len(checker.for_engine)
    return report


def game_label(path: Path) -> str:
    """``map/GAME.xml`` for a game in a map folder (as `maps` lists it), else the file's name."""
    parts = path.parts
    if len(parts) >= 4 and parts[-2] == "games" and parts[-3] == "map":
        return f"{parts[-4]}/{path.name}"
    return path.name


def _row(option: Option) -> str:
    return f"{option.number} {option.title}"


def _run_one(
    report: Report, checker: Checker, ruleset: Ruleset, spec: GameSpec, game: Game, samples: int, seed: int, single: list[Applied], list_only: bool = False
) -> None:
    """One ruleset on one game: its single picks go to ``single`` (written later, for all rulesets of the game at once)."""
    label = spec.label
    setup = _set_up(report, ruleset, spec, game)
    if setup is None:
        return
    ruleset, profile = setup.ruleset, setup.profile
    blocked = blocked_options(ruleset, profile)
    for side in ruleset.sides:
        game.reset()
        run = DraftRun(draft_from_dict({"ruleset": ruleset.id, "first": side}), game, ruleset=ruleset, profile=profile)
        for option in ruleset.options:
            _option_rows(report, run, option, side, blocked, label, single, list_only)
    game.reset()
    run = DraftRun(draft_from_dict({"ruleset": ruleset.id, "first": ruleset.sides[0]}), game, ruleset=ruleset, profile=profile)
    for row, description, bid in () if list_only else bid_targets(run):
        cell = report.cell(ruleset.id, row, label)
        item = _apply_in_memory(cell, f"bid: {description}", run, lambda b=bid: apply_bid(run.state, b).changes)
        if item is not None:
            single.append(item)
    for row in () if list_only else ("bid (units)", "bid (negative)"):
        cell = report.cell(ruleset.id, row, label)
        if not cell.applied and not cell.errors:
            cell.reasons.append(f"the {ruleset.bid.placing_side if row == 'bid (units)' else ruleset.bid.receiving_side} have nothing to place or receive")
    cell = report.cell(ruleset.id, "random drafts", label)
    rng = random.Random(seed * 1_000_003 + zlib.crc32(f"{ruleset.id} {label}".encode()))
    for number in range(samples):
        # A host drafts from the options this map has: those needing a unit it lacks are left out.
        _sample_draft(checker, cell, game, ruleset, profile, rng, number, label, blocked)
    game.reset()


def _set_up(report: Report, ruleset: Ruleset, spec: GameSpec, game: Game) -> DraftRun | None:
    """The ruleset fitted to the game exactly as apply fits it (the profile apply finds, the names it leaves out),
    or None with every row not applicable when the game lacks the ruleset's sides or apply refuses it."""
    label = spec.label
    notes = report.notes.setdefault(label, [])
    rows = [_row(o) for o in ruleset.options if o.kind != "scenario"] + [
        f"{_row(o)}: {sc.title}" for o in ruleset.options if o.kind == "scenario" for sc in ruleset.scenarios
    ]
    rows += ["bid (units)", "bid (negative)", "random drafts"]
    alliances = game.catalog.alliances()
    # A rule-text side is the alliances the profile's [sides] names for it (Total World War's "Axis-Germany", ...).
    named = spec.profile.side_alliances if spec.profile is not None else (lambda side: (side,))
    absent_sides = [s for s in ruleset.sides if not set(named(s)) & set(alliances)]
    why = f"the game has no alliance {' or '.join(absent_sides)} (its alliances: {', '.join(alliances) or 'none'})" if absent_sides else None
    if why is None:
        game.reset()
        try:
            setup = DraftRun(draft_from_dict({"ruleset": ruleset.id, "first": ruleset.sides[0]}), game, ruleset=ruleset, profile=spec.profile)
            unwritten = game_rules_applied(setup).warnings()  # what apply warns of every draft on this game
        except KremlinError as error:
            # Without a profile, or with one not written for this ruleset, the map is not (yet) made for it; a
            # profile written for it that apply refuses is a failure ("(set-up)", in run_matrix).
            listed = spec.profile or played_profile(game)
            if not isinstance(error, NoProfileError) and (listed is None or ruleset.id in listed.rulesets):
                raise
            why = f"apply refuses this game: {error}"
        else:
            notes.extend(f"{setup.ruleset.id}: {w}" for w in (*setup.warnings, *unwritten))
            return setup
    for row in rows:
        report.cell(ruleset.id, row, label).reasons.append(why)
    return None


def blocked_options(ruleset: Ruleset, profile: Profile) -> dict[int, str]:
    """The options that place a unit the profile leaves unmatched, and why."""
    missing_units = {word: why.split("; needed by")[0] for word, why in profile.unmatched.items() if "unit: " in why}
    needs = rule_names(ruleset).units
    blocked: dict[int, str] = {}
    for word, why in missing_units.items():
        for by in needs.get(word, ()):
            if by.startswith("option "):
                blocked[int(by.split()[1])] = f"needs the unit {word!r}: {why}; the map profile's [units] must name it"
    return blocked


def _option_rows(report: Report, run: DraftRun, option: Option, side: str, blocked: dict[int, str], label: str, single: list[Applied], list_only: bool) -> None:
    """Every legal pick of one option for one side, applied in memory (its items go to ``single``), or why none."""
    ruleset, profile, game = run.ruleset, run.profile, run.game
    # A scenario option has a row per scenario; its own row only shows errors.
    cell = report.cell(ruleset.id, _row(option), label) if option.kind != "scenario" else Cell(ruleset.id, _row(option), label)
    if option.number in blocked:
        if blocked[option.number] not in cell.reasons:
            cell.reasons.append(blocked[option.number])
        return
    try:
        choices = run.option_choices(option, side)
    except KremlinError as error:
        why = missing_name_reason(error, ruleset, profile, game)
        if why is not None:
            cell.reasons.append(f"{side}: {why}")
        else:
            cell.errors.append(f"{side}: the legal choices cannot be listed: {error}")
        report.cells.setdefault((ruleset.id, cell.row, label), cell)
        if (ruleset.id, cell.row) not in report.rows:
            report.rows.append((ruleset.id, cell.row))
        return
    if option.kind == "scenario":
        single += _scenario_items(report, ruleset, option, choices, run, side, label, list_only)
        return
    if not choices.available:
        cell.reasons.append(f"{side}: {choices.unavailable}")
        return
    if list_only:
        cell.applied += 1
        return
    count = 0
    for description, pick in KINDS[choices.option.kind].picks(run.state, choices, side, 1):
        item = _apply_in_memory(
            cell,
            f"{side} option {option.number}: {description}",
            run,
            lambda p=pick: with_declarations(run.state, KINDS[p.option.kind].apply(run.state, p)),
        )
        if item is not None:
            single.append(item)
            count += 1
    if count == 0:
        cell.reasons.append(f"{side}: no complete pick can be built from the legal choices")


def _run_house_set(report: Report, checker: Checker, house: Any, spec: GameSpec, game: Game, seed: int) -> None:
    """A house-rule set on a game of one of its maps: with its defaults, then with every switch flipped."""

    profile = spec.profile or played_profile(game)
    map_name = profile.map if profile is not None else game.board.properties.get("mapName")
    if map_name not in house.rules.maps:
        return
    # A set giving advantages to powers the game lacks (a variant without the Americans) is not for it.
    powers = {k.lower(): v for k, v in (profile.powers if profile is not None else {}).items()}
    absent = [p for p in house.powers if powers.get(p.lower(), p) not in game.catalog.players]
    variants = [("defaults", {})]
    if house.choices:
        variants.append(("every switch flipped", {k: not v for k, v in house.choices.items()}))
    for what, switches in variants:
        cell = report.cell(house.id, f"house rules ({what})", spec.label)
        if absent:
            cell.reasons.append(f"names the powers {', '.join(absent)}, which this game does not have (players: {', '.join(game.catalog.players)})")
            continue
        game.reset()
        try:
            add_notes(apply_house_rules(game, [HouseChoices(house.id, switches=switches, seed=seed)]))
        except KremlinError as error:
            cell.errors.append(f"{house.id} ({what}) cannot be applied: {error}")
            continue
        except Exception as error:  # noqa: BLE001 - a crash is this set's failure on this game, reported in the matrix
            cell.errors.append(f"{house.id} ({what}) crashed: {type(error).__name__}: {error}")
            continue
        cell.applied += 1
        item = Applied(cell, f"{house.id} ({what}, advantages drawn with seed {seed})", tuple(game.board.changes))
        checker.check_whole(game, game.board.copy(), item, spec.label)
    game.reset()


def missing_name_reason(error: KremlinError, ruleset: Ruleset, profile: Profile, game: Game) -> str | None:
    """Why an unknown name makes an option not applicable here, or None if it is a failure.

    With a profile not written for the ruleset (apply warns so), any name it lacks
    is the profile's to provide. With one written for it, only a power the game does not have at all (a variant
    without the Germans) makes the option not applicable; any other unknown name
    is a fault of the profile or the ruleset.
    """

    if not isinstance(error, UnknownNameError):
        return None
    unmatched = {k.lower(): (k, v) for k, v in profile.unmatched.items()}
    if error.name.lower() in unmatched:  # the profile says the map has nothing for it
        name, why = unmatched[error.name.lower()]
        return f"needs {name!r}, which the map profile leaves unmatched ({why.split('; needed by')[0]})"
    if ruleset.id not in profile.rulesets:
        return f"needs names the map profile {profile.path} (written for {', '.join(profile.rulesets) or 'no ruleset'}) does not give: {error}"
    if error.kind == "power":
        mapped = {k.lower(): v for k, v in profile.powers.items()}.get(error.name.lower(), error.name)
        if mapped not in game.catalog.players:
            return f"names the power {error.name!r}, which this game does not have (players: {', '.join(game.catalog.players)})"
    return None


def _scenario_items(
    report: Report, ruleset: Ruleset, option: Option, choices: OptionChoices, run: DraftRun, side: str, label: str, list_only: bool = False
) -> list[Applied]:
    """Each scenario of the side on its own row: applied, or why it cannot be."""

    items = []
    for scenario in ruleset.scenarios:
        if scenario.side != side:
            continue
        cell = report.cell(ruleset.id, f"{_row(option)}: {scenario.title}", label)
        pick = Pick(1, side, option, ScenarioTarget(scenario))
        if scenario.title not in choices.scenarios:
            # Not offered: the draft must refuse it too (its rule, or a board no game can start from).
            try:
                outcome = apply_scenario(run.state, pick)
            except KremlinError as error:
                cell.reasons.append(f"{side}: {error}")
                continue
            places = touched_places(outcome.changes)
            before = board_problems(run.game.board, run.state.factory, places)
            run.game.board.push_all(list(outcome.changes))
            broken = new_problems(before, run.game.board, run.state.factory, places)
            for _ in outcome.changes:
                run.game.board.pop()
            if broken:
                cell.reasons.append(f"{side}: it would leave a board no game can start from: {'; '.join(broken)}")
            else:
                cell.errors.append(f"{side}: not listed as legal, yet it applies")
            continue
        if list_only:
            cell.applied += 1
            continue
        item = _apply_in_memory(cell, f"{side} scenario {scenario.title}", run, lambda p=pick: KINDS[p.option.kind].apply(run.state, p).changes)
        if item is not None:
            items.append(item)
    return items


def _apply_in_memory(cell: Cell, label: str, run: DraftRun, outcome_changes: Callable[[], tuple[Change, ...]]) -> Applied | None:
    """Apply one pick's changes and then the ruleset's game rules (as apply writes them after the picks), note the
    states they leave, and undo them; a legal choice the kind refuses, or game rules apply refuses after it, fail."""
    board = run.game.board
    before = _snapshot(board)
    try:
        changes = tuple(outcome_changes())
        places = touched_places(changes)
        problems = board_problems(board, run.state.factory, places)
        board.push_all(list(changes))
    except KremlinError as error:
        cell.errors.append(f"{label}: listed as legal but refused: {error}")
        return None
    except Exception as error:  # noqa: BLE001 - any crash is this pick's failure, reported in the matrix
        cell.errors.append(f"{label}: crashed: {type(error).__name__}: {error}")
        return None
    broken = new_problems(problems, board, run.state.factory, places)
    if broken:  # apply refuses it so (DraftRun._push_keeping_invariants): listed as legal, it is a failure
        for _ in changes:
            board.pop()
        cell.errors.append(f"{label}: listed as legal but apply refuses it: it would leave a board no game can start from: {'; '.join(broken)}")
        return None
    try:
        rules = game_rules_now(run)
        board.push_all(list(rules))
    except Exception as error:  # noqa: BLE001 - apply would refuse (or crash on) the rules after this pick
        for _ in changes:
            board.pop()
        cell.errors.append(f"{label}: the ruleset's game rules cannot be written after it: {type(error).__name__}: {error}")
        return None
    changes += rules
    states = states_now(board, changes, before)
    for _ in changes:
        board.pop()
    cell.applied += 1
    return Applied(cell, label, changes, states, rules)


def game_rules_now(run: DraftRun) -> tuple[Change, ...]:
    """The changes of the ruleset's own game rules (section D) on the board as it stands, as ``apply_draft`` makes them."""
    return game_rules_applied(run).changes


def game_rules_applied(run: DraftRun) -> AppliedRules:
    """The ruleset's own game rules on the board as it stands: what is written, what is left to the players and why."""
    rules, _ = house_rule_changes(run.game.board, run.profile, run.names, [], before=(run.ruleset.rule_set,))
    return rules


def _sample_draft(
    checker: Checker, cell: Cell, game: Game, ruleset: Ruleset, profile: Profile, rng: random.Random, number: int, label: str, blocked: Collection[int] = ()
) -> None:
    """One whole draft drawn from the legal picks, written as a draft file's data and applied by ``apply_draft``."""
    made: list[str] = []
    try:
        data = random_draft_data(game, ruleset, profile, rng, made, blocked)
    except KremlinError as error:
        cell.errors.append(f"draft {number + 1} ({'; '.join(made)}): a legal pick was refused: {error}")
        return
    if data is None:
        cell.reasons.append(f"draft {number + 1}: after {len(made)} picks ({'; '.join(made)}) no option has a legal pick left")
        return
    game.reset()
    try:
        # Exactly what `apply` does with the file: its fitting, picks, declarations, bid and the ruleset's game rules.
        result = apply_draft(draft_from_dict(data, path=f"<matrix draft {number + 1}>"), game, ruleset=ruleset, profile=profile)
        add_notes(result)
    except KremlinError as error:
        cell.errors.append(f"draft {number + 1} ({'; '.join(made)}): apply refuses a draft of legal picks: {error}")
        game.reset()
        return
    cell.applied += 1
    item = Applied(cell, f"draft {number + 1} ({len(made)} picks: {'; '.join(made)})", tuple(game.board.changes))
    checker.check_whole(game, game.board.copy(), item, label)
    game.reset()


def random_draft_data(
    game: Game, ruleset: Ruleset, profile: Profile, rng: random.Random, made: list[str], blocked: Collection[int] = ()
) -> dict[str, Any] | None:
    """A complete draft file's data, each pick drawn from the legal ones (of the options not ``blocked``: those needing
    a unit the map lacks), then the declarations and a bid; None if the picks run out."""
    game.reset()
    first = rng.choice(ruleset.sides)
    # Drawn on a session, as the players make a draft: each step pushed (and checked) as it is drawn, the file written from them.
    session = Session(draft_from_dict({"ruleset": ruleset.id, "first": first}), game, ruleset=ruleset, profile=profile)
    run = session.run
    for index in range(1, run.total_picks + 1):
        side = run.side_to_pick(index)
        chosen = None
        # Options in random order, each enumerated only until one has a legal pick.
        options = [o for o in run.ruleset.options if o.number not in blocked]
        for option in rng.sample(options, len(options)):
            try:
                choices = run.option_choices(option, side)
            except KremlinError as error:
                if missing_name_reason(error, ruleset, profile, game) is not None:
                    continue  # not applicable on this game: the option rows say why
                raise
            picks = list(KINDS[choices.option.kind].picks(run.state, choices, side, index)) if choices.available else []
            if picks:
                chosen = rng.choice(picks)
                break
        if chosen is None:
            return None
        description, pick = chosen
        session.push(pick)
        made.append(f"{side} option {pick.option.number}: {description}")
    # Where each displaced group goes: its side's choice among the nearest places, written into its pick (000 A).
    for displaced in list(run.pending_declarations()):
        found = destinations(run.state, displaced)
        to = rng.choice(found.matches) if found.tied else None
        session.push(Declaration(displaced, to, written=to is not None))
    bid = _random_bid(run, rng)
    if bid is not None:
        session.push(Bid(bid))
    data = {**session.to_toml(), "picks_per_side": run.picks_per_side}
    # The draft's choices that turn the ruleset's game rules on or off (unrestricted_russia, low_luck...), each by chance.
    data["choices"] = [name for name in rule_switches(run.ruleset) if rng.random() < 0.5]
    return data


def rule_switches(ruleset: Ruleset) -> list[str]:
    """The choices a draft may make that the ruleset's game rules and their changes name in ``when``/``unless``."""
    found: dict[str, None] = {}
    for rule in ruleset.rule_set.rules:
        conditions = [rule.when, rule.unless] + [c.data.get(k) for c in rule.changes for k in ("when", "unless")]
        for condition in conditions:
            for term in (condition or "").split(" and "):
                if term.strip():
                    found.setdefault(term.strip().removeprefix("not ").strip())
    return list(found)


def _random_bid(run: DraftRun, rng: random.Random) -> BidSpec | None:
    """One legal bid drawn at random: a unit on a legal place, or a negative bid."""
    state = run.state
    catalog = run.game.board.catalog
    if rng.random() < 0.5:
        negatives = [spec for row, _, spec in bid_targets(run, positive=False)]
        if negatives:
            return rng.choice(negatives)
    facts = state.facts()
    places = list(run.game.board.nodes)
    for power in rng.sample(list(state.side_powers[state.ruleset.bid.placing_side]), len(state.side_powers[state.ruleset.bid.placing_side])):
        buyable = [u for u in catalog.unit_types if catalog.cost(u, power) is not None]
        for unit in rng.sample(buyable, len(buyable)):
            for place in rng.sample(places, len(places)):
                if bid_placement_problem(state, facts, power, unit, place) is None:
                    return BidSpec(max(catalog.cost(unit, power) or 0, 1), (UnitPlacement(power, unit, 1, place),))
    return None


# -- output ------------------------------------------------------------------------------


def text_table(report: Report) -> str:
    games = report.games
    lines = ["Games:"]
    lines += [f"  G{i + 1:<3} {g}" for i, g in enumerate(games)]
    width = max([len(f"{r} {o}") for r, o in report.rows] + [10])
    header = f"{'option':<{width}} " + " ".join(f"{'G' + str(i + 1):>6}" for i in range(len(games)))
    lines += ["", header]
    for ruleset, row in report.rows:
        cells = []
        for game in games:
            cell = report.cells.get((ruleset, row, game))
            if cell is None:
                cells.append(f"{'':>6}")
            elif cell.status == FAILED:
                cells.append(f"{'FAIL':>6}")
            elif cell.status == APPLIED:
                cells.append(f"{cell.applied:>6}")
            else:
                cells.append(f"{'n/a':>6}")
        lines.append(f"{ruleset + ' ' + row:<{width}} " + " ".join(cells))
    lines += ["", "A number is how many picks applied and checked; n/a: not applicable (why below); FAIL: see below."]
    reasons = [c for c in report.cells.values() if c.status == NOT_APPLICABLE]
    if reasons:
        lines += ["", "Not applicable:"]
        lines += _not_applicable_lines(report, reasons)
    partly = [c for c in report.cells.values() if c.status == APPLIED and c.reasons]
    if partly:
        lines += ["", "Applied for one side only:"]
        for cell in partly:
            lines.append(f"  {cell.ruleset} {cell.row} on {cell.game}: {'; '.join(dict.fromkeys(cell.reasons))}")
    notes = [(g, n) for g, ns in report.notes.items() for n in dict.fromkeys(ns)]
    if notes:
        lines += ["", "Notes:"]
        lines += [f"  {g}: {n}" for g, n in notes]
    failed = report.failed
    if failed:
        lines += ["", "Failures:"]
        for cell in failed:
            lines.append(f"  {cell.ruleset} {cell.row} on {cell.game}: {len(cell.errors)} failed")
            lines += [f"    {e}" for e in cell.errors[:5]]
    total = sum(c.applied for c in report.cells.values())
    lines += ["", f"{total} picks, bids and drafts applied; {len(failed)} failed cells; {len(report.cells)} cells."]
    figures = report.figures
    line = f"{figures.get('files_written', 0):.0f} games written, read back and validated in {figures.get('seconds_without_engine', 0):.1f} s"
    if "engine_seconds" in figures:
        line += f"; the engine read {figures['engine_files']:.0f} of them in one JVM in {figures['engine_seconds']:.1f} s"
    lines.append(line + ".")
    return "\n".join(lines) + "\n"


def _not_applicable_lines(report: Report, cells: list[Cell]) -> list[str]:
    """One line per cell; a ruleset whose every row on a game is not applicable for one reason (apply refuses the
    game, an alliance it lacks) gets one line for them all."""
    rows: dict[tuple[str, str], list[Cell]] = {}
    for cell in report.cells.values():
        rows.setdefault((cell.ruleset, cell.game), []).append(cell)
    lines, done = [], set()
    for cell in cells:
        key = (cell.ruleset, cell.game)
        if key in done:
            continue
        every = rows[key]
        why = "; ".join(dict.fromkeys(cell.reasons))
        if len(every) > 1 and all(c.status == NOT_APPLICABLE and "; ".join(dict.fromkeys(c.reasons)) == why for c in every):
            done.add(key)
            lines.append(f"  {cell.ruleset} on {cell.game} (all {len(every)} rows): {why}")
        else:
            lines.append(f"  {cell.ruleset} {cell.row} on {cell.game}: {why}")
    return lines


def json_data(report: Report) -> dict[str, Any]:
    return {
        "games": report.games,
        "cells": [report.cells[k].as_dict() for k in sorted(report.cells, key=lambda k: (report.rows.index(k[:2]), report.games.index(k[2])))],
        "notes": {g: list(dict.fromkeys(n)) for g, n in report.notes.items()},
        "failed": len(report.failed),
        "figures": report.figures,
    }


def junit_xml(report: Report) -> bytes:
    """One test suite per game, one test case per option; not applicable is a skipped case."""
    from lxml import etree

    suites = etree.Element("testsuites", name="kremlin-triplea matrix")
    for game in report.games:
        cells = [c for (r, o, g), c in report.cells.items() if g == game]
        suite = etree.SubElement(
            suites,
            "testsuite",
            name=game,
            tests=str(len(cells)),
            failures=str(sum(c.status == FAILED for c in cells)),
            skipped=str(sum(c.status == NOT_APPLICABLE for c in cells)),
        )
        for cell in cells:
            case = etree.SubElement(suite, "testcase", classname=cell.ruleset, name=cell.row)
            if cell.status == FAILED:
                failure = etree.SubElement(case, "failure", message=cell.errors[0][:500])
                failure.text = "\n".join(cell.errors)
            elif cell.status == NOT_APPLICABLE:
                etree.SubElement(case, "skipped", message="; ".join(dict.fromkeys(cell.reasons))[:1000])
            else:
                out = etree.SubElement(case, "system-out")
                out.text = f"{cell.applied} applied and checked"
    return etree.tostring(suites, xml_declaration=True, encoding="UTF-8", pretty_print=True)


def progress_printer(stream=sys.stderr) -> Callable[[int, int, str], None]:
    def show(done: int, total: int, label: str) -> None:
        width = 30
        filled = width * done // max(total, 1)
        stream.write(f"\rmatrix [{'#' * filled}{' ' * (width - filled)}] {done}/{total} {label[:40]:<40}")
        if done == total:
            stream.write("\n")
        stream.flush()

    return show

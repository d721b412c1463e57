"""The option matrix: every option of every ruleset, applied to every game it claims (or is given).

For each ruleset and game, from the initial board and for each side:

1. every legal target of every option (``legal.legal_choices``: each power,
   unit and place; each neutral, taker and navy zone; each takeover and
   retreat destination) becomes one pick, applied to the board in memory and
   undone (``push``/``pop``: no file is read again);
2. every bid target (each power's units and places; each receiving power);
3. a seeded random sample of whole drafts (picks drawn from the legal
   enumeration, then a bid), each applied with its notes like ``apply`` does.

Each result must write a file that validates (``validate.validate_tree``, with
TripleA's DTD when installed) and reads back to the board we meant; with the
engine, TripleA must read the same owners, units and PUs (all files in one
JVM). Writing is the slow part, so single picks that touch disjoint places and
players share one written file (a *pack*): a difference is blamed on the pick
that touched the place, and a pack that fails validation is checked again pick
by pick.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs

from kremlin_triplea.board import Board
from kremlin_triplea.changes import Change, SetGameName, SetProperty
from kremlin_triplea.errors import KremlinError
from kremlin_triplea.game import Game, load
from kremlin_triplea.rules.draft import DraftResult, DraftRun, draft_from_dict
from kremlin_triplea.rules.kinds import APPLY, BidSpec, NeutralTake, Pick, Retreat, TakeoverSpec, UnitPlacement, apply_bid, bid_placement_problem, unit_sets
from kremlin_triplea.rules.legal import OptionChoices, bid_choices, legal_choices, option_choices
from kremlin_triplea.rules.profile import Profile, load_profile
from kremlin_triplea.rules.profile_tools import derived_setup, rule_names
from kremlin_triplea.rules.ruleset import Option, Ruleset, data_folders, load_ruleset

APPLIED, NOT_APPLICABLE, FAILED = "applied", "not applicable", "failed"
PACK_LIMIT = 64  # picks per written file; small enough that a failing pack is cheap to check pick by pick


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
        return {"ruleset": self.ruleset, "option": self.row, "game": self.game, "status": self.status,
                "applied": self.applied, "reasons": self.reasons, "errors": self.errors}


@attrs.frozen
class GameSpec:
    """A game for the matrix: its file, how it is shown, and the profile written for it (if any)."""

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
    """The installed rulesets, and the errors of those that do not load."""
    paths = {p.stem: p for folder in reversed(data_folders("rulesets")) for p in folder.glob("*.toml")}
    rulesets, errors = [], []
    for key in sorted(paths):
        try:
            rulesets.append(load_ruleset(paths[key]))
        except KremlinError as error:
            errors.append(str(error))
    return rulesets, errors


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
    """The games the map profiles written for ``ruleset`` pin."""
    from kremlin_triplea.gamefile.locate import resolve_game

    found = []
    for profile in profiles:
        if ruleset.id in profile.rulesets:
            for base in profile.games:
                found.append(GameSpec(resolve_game(base.key, maps_dir), base.key, profile))
    return found


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


def option_picks(run: DraftRun, choices: OptionChoices, side: str, index: int = 1) -> Iterator[tuple[str, Pick]]:
    """(description, pick) for every legal target of one option."""
    option = choices.option
    if option.kind == "scenario":
        for title in choices.scenarios:
            scenario = next(s for s in run.ruleset.scenarios if s.title == title and s.side == side)
            yield f"scenario {title}", Pick(index, side, option, scenario=scenario)
    elif option.kind == "placement":
        yield from _placement_picks(run, choices, side, index)
    elif option.kind == "neutral_takeover":
        yield from _neutral_picks(choices, side, index)
    else:
        for takeover in choices.takeovers:
            variants = [()]
            for position, retreat in enumerate(takeover.retreats):
                variants += [((position, to),) for to in retreat.destinations[1:]]
            for variant in variants:
                chosen = dict(variant)
                retreats = tuple(
                    Retreat(chosen.get(i, r.destinations[0]), r.owner, r.unit)
                    for i, r in enumerate(takeover.retreats) if len(r.destinations) > 1
                )
                spec = TakeoverSpec(takeover.territory, takeover.power, retreats)
                where = ", ".join(f"{r.power} {r.unit} to {r.to}" for r in retreats)
                yield f"{takeover.power} take {takeover.territory}" + (f" (retreat {where})" if where else ""), Pick(index, side, option, takeover=spec)


def _placement_picks(run: DraftRun, choices: OptionChoices, side: str, index: int) -> Iterator[tuple[str, Pick]]:
    option = choices.option
    if choices.sets:
        for entry in choices.sets:
            counts: dict[str, int] = {}
            for unit in entry.units:
                counts[unit] = counts.get(unit, 0) + 1
            for place in entry.places:
                placements = tuple(UnitPlacement(entry.power, u, n, place) for u, n in counts.items())
                yield f"{entry.power} {' + '.join(entry.units)} in {place}", Pick(index, side, option, placements=placements)
        return
    require = option.params.require  # type: ignore[union-attr]
    by_unit: dict[str, list[tuple[str, str]]] = {}
    for unit_choice in choices.units:
        by_unit.setdefault(unit_choice.unit, []).extend((unit_choice.power, p) for p in unit_choice.places)
    for unit_set in unit_sets(run.state, option):
        units = list(unit_set.elements())
        if not all(u in by_unit for u in units):
            continue
        for position, unit in enumerate(units):
            if unit in units[:position]:
                continue  # the same unit type again: its targets were enumerated already
            for power, place in by_unit[unit]:
                placements = [UnitPlacement(power, unit, 1, place)]
                for other in units[:position] + units[position + 1:]:
                    fitting = [
                        (p, at) for p, at in by_unit[other]
                        if ("same_power" not in require or p == power) and ("same_territory" not in require or at == place)
                    ]
                    if not fitting:
                        break
                    # The companion goes where the target goes if it may (one place touched, so
                    # more picks share a written file), else to a place that varies with the target.
                    same = [(p, at) for p, at in fitting if at == place]
                    companion = same[0] if same else fitting[zlib.crc32(f"{power} {place}".encode()) % len(fitting)]
                    placements.append(UnitPlacement(companion[0], other, 1, companion[1]))
                else:
                    yield f"{power} {unit} in {place} (with {' + '.join(units)})", Pick(index, side, option, placements=tuple(placements))


def _neutral_picks(choices: OptionChoices, side: str, index: int) -> Iterator[tuple[str, Pick]]:
    """Each neutral, taker and navy zone, with a partner from the enumeration's legal pairs."""
    option = choices.option
    count = option.params.count  # type: ignore[union-attr]
    by_territory = {n.territory: n for n in choices.neutrals}
    for neutral in choices.neutrals:
        others: tuple[NeutralTake, ...] = ()
        if count == 2:
            partners = sorted({b if a == neutral.territory else a for a, b in choices.neutral_pairs if neutral.territory in (a, b)})
            if not partners:
                continue
            # A partner that varies with the neutral, so more picks share a written file.
            partner = by_territory[partners[zlib.crc32(neutral.territory.encode()) % len(partners)]]
            power, zones = partner.takers[0]
            others = (NeutralTake(partner.territory, power, zones[0] if zones else None),)
        elif count != 1:
            continue  # the enumeration lists pairs only
        for power, zones in neutral.takers:
            for zone in zones or (None,):
                take = NeutralTake(neutral.territory, power, zone)
                navy = f" (navy to {zone})" if zone else ""
                yield f"{power} take {neutral.name}{navy}", Pick(index, side, option, takes=(take, *others))


def bid_targets(run: DraftRun) -> Iterator[tuple[str, str, BidSpec]]:
    """(row, description, bid): each placing power's units and places; each negative bid's receiver or removable unit."""
    state = run.state
    bid = state.ruleset.bid
    catalog = run.game.board.catalog
    facts = state.facts()
    choices = bid_choices(state)
    for power, places in choices.places:
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
        removable = [state.names.unit(u) for u in bid.removable_units if state.names.has_unit(u)]
        for power in state.side_powers.get(bid.placing_side, ()):
            for unit in removable:
                cost = catalog.cost(unit, power)
                for place, data in run.game.board.graph.nodes(data=True):
                    if cost and data["units"].get((power, unit), 0) > 0:
                        yield "bid (negative)", f"{power} remove 1 {unit} from {place}", BidSpec(-cost, removals=(UnitPlacement(power, unit, 1, place),))
    else:
        for power in state.side_powers.get(bid.receiving_side, ()):
            yield "bid (negative)", f"{power} receive 5 PUs", BidSpec(-5, allocate=((power, 5),))


# -- checking written games --------------------------------------------------------------


@attrs.define
class Applied:
    """One pick or bid applied in memory: what it changed, where, and which cell it counts for."""

    cell: Cell
    label: str
    changes: tuple[Change, ...]

    @property
    def touches(self) -> frozenset[str]:
        return frozenset(_touch(c) for c in self.changes)


def _touch(change: Change) -> str:
    for field in ("territory", "player", "name", "section"):
        value = getattr(change, field, None)
        if value is not None:
            return f"{type(change).__name__ if field != 'territory' else 'place'}:{value}"
    return repr(change)


def board_view(board: Board) -> dict[str, Any]:
    nodes = {name: {**data, "units": {k: n for k, n in data["units"].items() if n}} for name, data in board.graph.nodes(data=True)}
    return {"nodes": nodes, "pus": dict(board.pus), "techs": dict(board.techs), "properties": dict(board.properties), "name": board.game_name}


def view_differences(expected: dict[str, Any], found: dict[str, Any]) -> dict[str, str]:
    """Touch key (as ``_touch`` makes them) -> what differs."""
    differences = {}
    for name in sorted(set(expected["nodes"]) | set(found["nodes"])):
        if expected["nodes"].get(name) != found["nodes"].get(name):
            differences[f"place:{name}"] = f"{name}: expected {expected['nodes'].get(name)}, read back {found['nodes'].get(name)}"
    for player in sorted(set(expected["pus"]) | set(found["pus"])):
        if expected["pus"].get(player, 0) != found["pus"].get(player, 0):
            differences[f"SetPUs:{player}"] = f"{player} PUs: expected {expected['pus'].get(player, 0)}, read back {found['pus'].get(player, 0)}"
    for key in ("techs", "properties", "name"):
        if expected[key] != found[key]:
            differences[key] = f"{key} differ after reading back"
    return differences


class Checker:
    """Writes boards out, reads them back and validates them; keeps the files for the engine."""

    def __init__(self, engine_folder: Path | None) -> None:
        from kremlin_triplea.validate import find_dtd

        self.dtd = find_dtd()
        self.engine_folder = engine_folder
        self.for_engine: list[tuple[Path, Board, list[Applied]]] = []
        self.files = 0
        self._base_problems: dict[str, Counter[str]] = {}

    def new_problems(self, game: Game, problems: list) -> list:
        """The problems the base game does not have already (by message: edits move line numbers)."""
        from kremlin_triplea.validate import validate_tree

        if game.source not in self._base_problems:
            self._base_problems[game.source] = Counter(p.message for p in validate_tree(game.document.root, game.source, dtd=self.dtd))
        known = Counter(self._base_problems[game.source])
        fresh = []
        for problem in problems:
            if known[problem.message] > 0:
                known[problem.message] -= 1
            else:
                fresh.append(problem)
        return fresh

    def check(self, game: Game, board: Board, items: list[Applied], name: str) -> None:
        """Write ``board`` (the base plus every item's changes); blame problems on the items."""
        from kremlin_triplea.gamefile.document import XmlDocument
        from kremlin_triplea.validate import validate_tree

        saved = game.board
        game.board = board
        try:
            written = game.to_bytes()
        except Exception as error:  # a change the writer cannot express
            game.board = saved
            if len(items) > 1:
                for item in items:
                    self.check(game, _board_with(game, [item]), [item], name)
                return
            items[0].cell.errors.append(f"{items[0].label}: writing failed: {type(error).__name__}: {error}")
            return
        game.board = saved
        self.files += 1
        again = Game(XmlDocument(written, source=name))
        differences = view_differences(board_view(board), board_view(again.board))
        for key, text in differences.items():
            blamed = [i for i in items if key in i.touches] or items
            for item in blamed:
                item.cell.errors.append(f"{item.label}: reads back differently: {text}")
        problems = self.new_problems(game, validate_tree(again.document.root, name, dtd=self.dtd))
        if problems:
            if len(items) > 1:
                for item in items:
                    self.check(game, _board_with(game, [item]), [item], name)
                return
            items[0].cell.errors.append(f"{items[0].label}: does not validate: {problems[0]}" + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))
            return
        if self.engine_folder is not None and not differences:
            path = self.engine_folder / f"{len(self.for_engine):05d}.xml"
            path.write_bytes(written)
            self.for_engine.append((path, board, items))

    def check_with_engine(self) -> float:
        """Read every kept file through one JVM and compare; returns the seconds it took."""
        from kremlin_triplea.engine import read_with_engine

        if not self.for_engine:
            return 0.0
        start = time.perf_counter()
        readings = read_with_engine([path for path, _, _ in self.for_engine])
        seconds = time.perf_counter() - start
        for (path, board, items), reading in zip(self.for_engine, readings):
            if not reading.ok:
                for item in items:
                    item.cell.errors.append(f"{item.label}: the engine cannot read the written game: {reading.error}")
                continue
            ours = {name: (data["owner"], {k: n for k, n in data["units"].items() if n}) for name, data in board.graph.nodes(data=True)}
            theirs = {name: (t.owner, dict(t.units)) for name, t in reading.territories.items()}
            for name in sorted(set(ours) | set(theirs)):
                if ours.get(name) != theirs.get(name):
                    blamed = [i for i in items if f"place:{name}" in i.touches] or items
                    for item in blamed:
                        item.cell.errors.append(f"{item.label}: the engine reads {name} as {theirs.get(name)}, we wrote {ours.get(name)}")
            for player in sorted(set(board.pus) | set(reading.pus)):
                if board.pus.get(player, 0) != reading.pus.get(player, 0):
                    blamed = [i for i in items if f"SetPUs:{player}" in i.touches] or items
                    for item in blamed:
                        item.cell.errors.append(f"{item.label}: the engine reads {player} with {reading.pus.get(player, 0)} PUs, we wrote {board.pus.get(player, 0)}")
            if reading.dtd_errors:
                for item in items:
                    item.cell.errors.append(f"{item.label}: the engine reports DTD errors: {reading.dtd_errors[0]}")
        return seconds


def _board_with(game: Game, items: list[Applied]) -> Board:
    board = game.initial.copy()
    for item in items:
        board.push_all(list(item.changes))
    return board


def check_in_packs(checker: Checker, game: Game, items: list[Applied], name: str) -> None:
    """Write the single picks in packs of picks touching disjoint places and players."""
    packs: list[tuple[set[str], list[Applied]]] = []
    for item in items:
        touches = item.touches
        for used, pack in packs:
            if len(pack) < PACK_LIMIT and not (used & touches):
                used |= touches
                pack.append(item)
                break
        else:
            packs.append((set(touches), [item]))
    for _, pack in packs:
        checker.check(game, _board_with(game, pack), pack, name)


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
) -> Report:
    """Every option of every ruleset on the games its profiles cover, plus ``extra_games``.

    ``broken_rulesets`` are the errors of rulesets that did not load: each fails the matrix.
    """
    report = Report()
    for error in broken_rulesets:
        report.cell("(rulesets)", "load", "(all)").errors.append(error)
    profiles, broken = all_profiles()
    for error in broken:  # a map profile that does not load fails the matrix
        report.cell("(map profiles)", "load", "(all)").errors.append(error)
    work: list[tuple[Ruleset, GameSpec]] = []
    for ruleset in rulesets:
        for spec in covered_games(ruleset, profiles, maps_dir):
            work.append((ruleset, spec))
    games: dict[Path, Game] = {}
    extra_specs = []
    for path in extra_games:
        path = Path(path).resolve()
        game = games.setdefault(path, load(path))
        extra_specs.append(GameSpec(path, _label(path), profile_for_path(path, game, profiles)))
    for ruleset in rulesets:
        claimed = {s.path.resolve() for r, s in work if r is ruleset}
        work += [(ruleset, s) for s in extra_specs if s.path not in claimed]
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="kremlin-matrix-") as folder:
        checker = Checker(Path(folder) if engine else None)
        for done, (ruleset, spec) in enumerate(work):
            if progress is not None:
                progress(done, len(work), spec.label)
            if spec.label not in report.games:
                report.games.append(spec.label)
            path = spec.path.resolve()
            game = games.get(path) or games.setdefault(path, load(path))
            try:
                _run_one(report, checker, ruleset, spec, game, samples, seed)
            except KremlinError as error:  # the ruleset cannot be set up on this game at all
                report.cell(ruleset.id, "(set-up)", spec.label).errors.append(str(error))
        if progress is not None:
            progress(len(work), len(work), "")
        report.figures["seconds_without_engine"] = time.perf_counter() - started
        report.figures["files_written"] = checker.files
        if engine:
            report.figures["engine_seconds"] = checker.check_with_engine()
            report.figures["engine_files"] = len(checker.for_engine)
    return report


def _label(path: Path) -> str:
    parts = path.parts
    if len(parts) >= 4 and parts[-2] == "games" and parts[-3] == "map":
        return f"{parts[-4]}/{path.name}"
    return path.name


def _row(option: Option) -> str:
    return f"{option.number} {option.title}"


def _run_one(report: Report, checker: Checker, ruleset: Ruleset, spec: GameSpec, game: Game, samples: int, seed: int) -> None:
    label = spec.label
    profile = spec.profile
    notes = report.notes.setdefault(label, [])
    missing_units: dict[str, str] = {}
    derived = profile is None or ruleset.id not in profile.rulesets
    if derived:
        setup = derived_setup(game, ruleset, profile)
        ruleset, profile = setup.ruleset, setup.profile
        missing_units = setup.missing_units
        notes += [f"{ruleset.id}: {n}" for n in setup.notes]
    else:
        notes += [f"{ruleset.id}: {w}" for w in profile.check_base_file(game)]
    alliances = game.catalog.alliances()
    absent_sides = [s for s in ruleset.sides if s not in alliances]
    rows = [_row(o) for o in ruleset.options if o.kind != "scenario"] + [f"{_row(o)}: {sc.title}" for o in ruleset.options if o.kind == "scenario" for sc in ruleset.scenarios]
    rows += ["bid (units)", "bid (negative)", "random drafts"]
    if absent_sides:
        why = f"the game has no alliance {' or '.join(absent_sides)} (its alliances: {', '.join(alliances) or 'none'})"
        for row in rows:
            report.cell(ruleset.id, row, label).reasons.append(why)
        return
    needs = rule_names(ruleset).units
    blocked: dict[int, str] = {}
    for word, why in missing_units.items():
        for by in needs.get(word, ()):
            if by.startswith("option "):
                number = int(by.split()[1])
                blocked[number] = f"needs the unit {word!r}: {why}; the map profile's [units] must name it"
    single: list[Applied] = []
    for side in ruleset.sides:
        game.board = game.initial.copy()
        run = DraftRun(draft_from_dict({"ruleset": ruleset.id, "first": side}), game, ruleset=ruleset, profile=profile)
        board = game.board
        for option in ruleset.options:
            # A scenario option has a row per scenario; its own row only shows errors.
            cell = report.cell(ruleset.id, _row(option), label) if option.kind != "scenario" else Cell(ruleset.id, _row(option), label)
            if option.number in blocked:
                if blocked[option.number] not in cell.reasons:
                    cell.reasons.append(blocked[option.number])
                continue
            try:
                choices = option_choices(run.state, option, side)
            except KremlinError as error:
                # Without a profile a name the option needs may be missing: not applicable, and why.
                if derived:
                    cell.reasons.append(f"{side}: needs names a map profile must provide: {error}")
                else:
                    cell.errors.append(f"{side}: the legal choices cannot be listed: {error}")
                report.cells.setdefault((ruleset.id, cell.row, label), cell)
                if (ruleset.id, cell.row) not in report.rows:
                    report.rows.append((ruleset.id, cell.row))
                continue
            if option.kind == "scenario":
                single += _scenario_items(report, ruleset, option, choices, run, side, label)
                continue
            cell = report.cell(ruleset.id, _row(option), label)
            if not choices.available:
                cell.reasons.append(f"{side}: {choices.unavailable}")
                continue
            count = 0
            for description, pick in option_picks(run, choices, side):
                item = _apply_in_memory(cell, f"{side} option {option.number}: {description}", board, lambda p=pick: APPLY[p.option.kind](run.state, p).changes)
                if item is not None:
                    single.append(item)
                    count += 1
            if count == 0:
                cell.reasons.append(f"{side}: no complete pick can be built from the legal choices")
    game.board = game.initial.copy()
    run = DraftRun(draft_from_dict({"ruleset": ruleset.id, "first": ruleset.sides[0]}), game, ruleset=ruleset, profile=profile)
    for row, description, bid in bid_targets(run):
        cell = report.cell(ruleset.id, row, label)
        item = _apply_in_memory(cell, f"bid: {description}", game.board, lambda b=bid: apply_bid(run.state, b).changes)
        if item is not None:
            single.append(item)
    for row in ("bid (units)", "bid (negative)"):
        cell = report.cell(ruleset.id, row, label)
        if not cell.applied and not cell.errors:
            cell.reasons.append(f"the {ruleset.bid.placing_side if row == 'bid (units)' else ruleset.bid.receiving_side} have nothing to place or receive")
    check_in_packs(checker, game, single, label)
    cell = report.cell(ruleset.id, "random drafts", label)
    if blocked:
        cell.reasons.append(f"options {', '.join(str(n) for n in sorted(blocked))} cannot be applied on this map, so whole drafts are not sampled")
    else:
        rng = random.Random(seed * 1_000_003 + zlib.crc32(f"{ruleset.id} {label}".encode()))
        for number in range(samples):
            _sample_draft(checker, cell, game, ruleset, profile, rng, number, label)
    game.board = game.initial.copy()


def _scenario_items(report: Report, ruleset: Ruleset, option: Option, choices: OptionChoices, run: DraftRun, side: str, label: str) -> list[Applied]:
    """Each scenario of the side on its own row: applied, or why it cannot be."""
    from kremlin_triplea.rules.scenarios import apply_scenario

    items = []
    for scenario in ruleset.scenarios:
        if scenario.side != side:
            continue
        cell = report.cell(ruleset.id, f"{_row(option)}: {scenario.title}", label)
        pick = Pick(1, side, option, scenario=scenario)
        if scenario.title not in choices.scenarios:
            try:
                apply_scenario(run.state, pick)
                cell.errors.append(f"{side}: not listed as legal, yet it applies")
            except KremlinError as error:
                cell.reasons.append(f"{side}: {error}")
            continue
        item = _apply_in_memory(cell, f"{side} scenario {scenario.title}", run.game.board, lambda p=pick: APPLY[p.option.kind](run.state, p).changes)
        if item is not None:
            items.append(item)
    return items


def _apply_in_memory(cell: Cell, label: str, board: Board, outcome_changes: Callable[[], tuple[Change, ...]]) -> Applied | None:
    """Apply one pick's changes and undo them; a legal choice the kind refuses is a failure."""
    try:
        changes = tuple(outcome_changes())
        board.push_all(list(changes))
    except KremlinError as error:
        cell.errors.append(f"{label}: listed as legal but refused: {error}")
        return None
    except Exception as error:  # noqa: BLE001 - any crash is this pick's failure, reported in the matrix
        cell.errors.append(f"{label}: crashed: {type(error).__name__}: {error}")
        return None
    for _ in changes:
        board.pop()
    cell.applied += 1
    return Applied(cell, label, changes)


def _sample_draft(checker: Checker, cell: Cell, game: Game, ruleset: Ruleset, profile: Profile, rng: random.Random, number: int, label: str) -> None:
    from kremlin_triplea.rules.notes import game_name, notes_html

    game.board = game.initial.copy()
    first = rng.choice(ruleset.sides)
    run = DraftRun(draft_from_dict({"ruleset": ruleset.id, "first": first}), game, ruleset=ruleset, profile=profile)
    made = []
    try:
        for index in range(1, run.total_picks + 1):
            next_pick = legal_choices(run)
            available = [c for c in next_pick.options if c.available]
            if not available:
                break
            choices = rng.choice(available)
            picks = list(option_picks(run, choices, next_pick.side or "", index))
            if not picks:
                break
            description, pick = rng.choice(picks)
            run.apply_pick(pick)
            made.append(f"{next_pick.side} option {pick.option.number}: {description}")
        bids = list(bid_targets(run))
        bid_spec = rng.choice(bids)[2] if bids else None
        bid = run.apply_bid(bid_spec) if bid_spec is not None else None
        result = DraftResult(game, run.ruleset, run.profile, tuple(run.applied), bid, bid_spec, run.warnings, run.state)
        game.board.push(SetProperty("notes", notes_html(result) + game.board.properties.get("notes", "")))
        game.board.push(SetGameName(game_name(result)))
    except KremlinError as error:
        cell.errors.append(f"draft {number + 1} ({'; '.join(made)}): a legal pick was refused: {error}")
        return
    cell.applied += 1
    item = Applied(cell, f"draft {number + 1} ({len(made)} picks: {'; '.join(made)})", tuple(game.board.changes))
    checker.check(game, game.board.copy(), [item], label)
    game.board = game.initial.copy()


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
        for cell in reasons:
            lines.append(f"  {cell.ruleset} {cell.row} on {cell.game}: {'; '.join(dict.fromkeys(cell.reasons))}")
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
    return "\n".join(lines) + "\n"


def json_data(report: Report) -> dict[str, Any]:
    return {
        "games": report.games,
        "cells": [report.cells[k].as_dict() for k in sorted(report.cells, key=lambda k: (report.rows.index(k[:2]), report.games.index(k[2])))],
        "notes": {g: list(dict.fromkeys(n)) for g, n in report.notes.items()},
        "failed": len(report.failed),
    }


def junit_xml(report: Report) -> bytes:
    """One test suite per game, one test case per option; not applicable is a skipped case."""
    from lxml import etree

    suites = etree.Element("testsuites", name="kremlin-triplea matrix")
    for game in report.games:
        cells = [c for (r, o, g), c in report.cells.items() if g == game]
        suite = etree.SubElement(
            suites, "testsuite", name=game, tests=str(len(cells)),
            failures=str(sum(c.status == FAILED for c in cells)), skipped=str(sum(c.status == NOT_APPLICABLE for c in cells)),
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

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
4. each house-rule set on the games of its maps, and of maps whose profile lists it (defaults; every switch flipped).

The matrix plays what ``apply`` plays: each game is read with the profile apply
finds, the ruleset fitted by apply's own ``Session``, the ruleset's game rules
(section D) written after every pick, bid and draft, and a game apply refuses is
not applicable, in apply's words.

Each result must write a file that validates (``validate.validate_tree``, with
TripleA's DTD when installed; problems the base game has already do not count)
and reads back to the board we meant; with the engine, TripleA must read the
same owners, units and PUs (all files in one JVM). How single picks share
written files is explained at ``Checker`` below.
"""

from __future__ import annotations

import contextlib
import gc
import random
import time
import zlib
from collections.abc import Callable, Collection, Iterator
from pathlib import Path
from typing import Any

from kremlin_triplea.check.gate import check_base_game
from kremlin_triplea.draft.choices import OptionChoices
from kremlin_triplea.draft.kinds.bid import bid_placement_problem, bid_receivers, removable_units
from kremlin_triplea.draft.legal import bid_choices
from kremlin_triplea.draft.picks import BidSpec, UnitPlacement
from kremlin_triplea.draft.rulesets import load_ruleset
from kremlin_triplea.draft.run import draft_from_dict
from kremlin_triplea.errors import KremlinError, RuleViolation, UnknownNameError
from kremlin_triplea.game import Game, load
from kremlin_triplea.gamefile.locate import resolve_game
from kremlin_triplea.gamefile.safe import scratch_folder
from kremlin_triplea.gamerules.actions import AppliedRules
from kremlin_triplea.gamerules.house import apply_house_rules, house_rule_changes, house_switches
from kremlin_triplea.model.changes import Change
from kremlin_triplea.report.notes import add_notes
from kremlin_triplea.rules.datafiles import named_rule_files
from kremlin_triplea.rules.house_rules import HouseChoices, load_house_set
from kremlin_triplea.rules.profile import NoProfileError, Profile, load_profile, profile_for_game
from kremlin_triplea.rules.ruleset import Option, Ruleset, data_folders
from kremlin_triplea.session import Bid, Declaration, Session, Step, apply_draft, variant_titles
from kremlin_triplea.tools.matrix_readback import Applied, Checker, snapshot, states_now
from kremlin_triplea.tools.matrix_report import Cell, GameSpec, Report

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


def bid_targets(session: Session, *, positive: bool = True) -> Iterator[tuple[str, str, BidSpec]]:
    """(row, description, bid): each placing power's units and places; each negative bid's receiver or removable unit."""
    state = session.state
    bid = state.ruleset.bid
    catalog = session.game.board.catalog
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
    (``--profile FILE``) come before the installed ones for ``extra_games``. ``list_only`` finds what is available and why not, applying and writing nothing (one pick per option counts;
    ``profile new`` uses it). Each of ``house_sets`` is applied (defaults, then every switch flipped; advantages
    drawn with the seed) to every game of the maps it lists.
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
        game = games.get(path) or games.setdefault(path, load(path))
        # A profile given for the game (``--profile``), else none: each run looks it up as apply does.
        extra_specs.append(GameSpec(path, game_label(path), profile_for_path(path, game, list(given_profiles))))
    for ruleset in rulesets:
        claimed = {s.path.resolve() for r, s in work if r is ruleset}
        work += [(ruleset, s) for s in extra_specs if s.path not in claimed]
    started = time.perf_counter()
    with scratch_folder("matrix") as folder, fewer_collections():
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
                check_base_game(game.document)  # apply refuses every draft on a base game TripleA refuses or misreads
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


@contextlib.contextmanager
def fewer_collections(every: int = 100_000) -> Iterator[None]:
    """Python's cyclic garbage collector run after every ``every`` new objects instead of every 700, meanwhile.

    The matrix keeps what each pick leaves (its states, copies of the places it touched) until the game's files
    are written, hundreds of thousands of objects, and makes as many short-lived ones: each of the collector's
    full passes walks them all. On G40CanadianMod its 42 full passes took 5 of the matrix's 41 CPU seconds; with
    collections a hundred times rarer none is left, and the matrix peaks at the same memory (it makes few cycles:
    183 MB either way).
    """
    thresholds = gc.get_threshold()
    gc.set_threshold(max(every, thresholds[0]), *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)


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
    # An option is judged by its legal picks alone, as `legal` judges it (issue 46: one offering "two transports, two
    # submarines, or a submarine and a transport" is available on a map without transports); one whose every pick
    # needs a unit the map lacks says so in its own choices. Each first pick the option's kind lists (each bid) is
    # pushed on its own onto a new session, a draft at its start fitted as apply fits it, and taken back
    # (_push_in_memory): the session checks it as it checks the players' picks.
    for side in ruleset.sides:
        game.reset()
        session = _draft_start(ruleset, profile, game, side)
        for option in ruleset.options:
            _option_rows(report, session, option, side, label, single, list_only)
    game.reset()
    session = _draft_start(ruleset, profile, game, ruleset.sides[0])
    for row, description, bid in () if list_only else bid_targets(session):
        cell = report.cell(ruleset.id, row, label)
        item = _push_in_memory(cell, f"bid: {description}", session, Bid(bid))
        if item is not None:
            single.append(item)
    for row in () if list_only else ("bid (units)", "bid (negative)"):
        cell = report.cell(ruleset.id, row, label)
        if not cell.applied and not cell.errors:
            cell.reasons.append(f"the {ruleset.bid.placing_side if row == 'bid (units)' else ruleset.bid.receiving_side} have nothing to place or receive")
    cell = report.cell(ruleset.id, "random drafts", label)
    rng = random.Random(seed * 1_000_003 + zlib.crc32(f"{ruleset.id} {label}".encode()))
    for number in range(samples):
        # A host drafts from the options this map has: those with no legal pick are left out.
        _sample_draft(checker, cell, game, ruleset, profile, rng, number, label)
    game.reset()


def _set_up(report: Report, ruleset: Ruleset, spec: GameSpec, game: Game) -> Session | None:
    """The ruleset fitted to the game exactly as apply fits it (the profile apply finds, the names it leaves out),
    or None with every row not applicable when the game lacks the ruleset's sides or apply refuses it."""
    label = spec.label
    notes = report.notes.setdefault(label, [])
    # An option made of alternatives (a scenario option: the scenarios) has a row for each.
    rows = [row for o in ruleset.options for row in ([f"{_row(o)}: {t}" for t in variant_titles(ruleset, o)] or [_row(o)])]
    rows += ["bid (units)", "bid (negative)", "random drafts"]
    alliances = game.catalog.alliances()
    # A rule-text side is the alliances the profile's [sides] names for it (Total World War's "Axis-Germany", ...).
    # Given or not (then the one apply finds, as it finds it), the profile says which alliances a side is.
    sided = spec.profile or played_profile(game)
    named = sided.side_alliances if sided is not None else (lambda side: (side,))
    absent_sides = [s for s in ruleset.sides if not set(named(s)) & set(alliances)]
    why = f"the game has no alliance {' or '.join(absent_sides)} (its alliances: {', '.join(alliances) or 'none'})" if absent_sides else None
    if why is None:
        game.reset()
        try:
            setup = _draft_start(ruleset, spec.profile, game, ruleset.sides[0])
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


def _draft_start(ruleset: Ruleset, profile: Profile | None, game: Game, first: str) -> Session:
    """A draft at its start (``first`` to pick), its board, ruleset and profile fitted as apply fits them: each of its
    first picks (and bids) is pushed on its own and taken back (:meth:`Session.trying`)."""
    return Session(draft_from_dict({"ruleset": ruleset.id, "first": first}), game, ruleset=ruleset, profile=profile)


def _option_rows(report: Report, session: Session, option: Option, side: str, label: str, single: list[Applied], list_only: bool) -> None:
    """Every pick of one option the session lists for one side, pushed in memory (its items go to ``single``), or why none."""
    ruleset, profile, game = session.ruleset, session.profile, session.game
    # An option made of alternatives (a scenario option) has a row per alternative; its own row only shows errors.
    has_variants = bool(variant_titles(ruleset, option))
    cell = Cell(ruleset.id, _row(option), label) if has_variants else report.cell(ruleset.id, _row(option), label)
    try:
        choices = session.listed_choices(option, side)
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
    if has_variants:
        single += _variant_items(report, session, option, choices, side, label, list_only)
        return
    if not choices.available:
        cell.reasons.append(f"{side}: {choices.unavailable}")
        return
    if list_only:
        cell.applied += 1
        return
    count = 0
    for description, pick in session.candidate_picks(choices, side):
        item = _push_in_memory(cell, f"{side} option {option.number}: {description}", session, pick)
        if item is not None:
            single.append(item)
            count += 1
    if count == 0:
        cell.reasons.append(f"{side}: no complete pick can be built from the legal choices")


def _run_house_set(report: Report, checker: Checker, house: Any, spec: GameSpec, game: Game, seed: int) -> None:
    """A house-rule set on a game of one of its maps, or of a map whose profile lists it in `rulesets` (as ``house``
    takes it there): with its defaults, then with every switch flipped."""

    profile = spec.profile or played_profile(game)
    map_name = profile.map if profile is not None else game.board.properties.get("mapName")
    if map_name not in house.rules.maps and (profile is None or house.id not in profile.rulesets):
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
            check_base_game(game.document)  # as `house` refuses it
            add_notes(apply_house_rules(game, [HouseChoices(house.id, switches=switches, seed=seed)], profile=profile))
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


def _variant_items(report: Report, session: Session, option: Option, choices: OptionChoices, side: str, label: str, list_only: bool = False) -> list[Applied]:
    """Each alternative of the option for the side (each scenario) on its own row: pushed, or why it cannot be."""

    items = []
    form = session.pick_form(choices, side)
    for variant in session.option_variants(choices, side):
        cell = report.cell(session.ruleset.id, f"{_row(option)}: {variant.title}", label)
        # The alternative as the players name it, offered or not.
        pick = session.pick_from_answers(option, variant.answers, side, form=form)
        if not variant.offered:
            # Not offered: the draft must refuse it too (its rule, or a board no game can start from).
            with session.trying():
                try:
                    session.push(pick)
                except RuleViolation as error:
                    cell.reasons.append(f"{side}: {error.why if error.why.startswith(_NO_GAME_STARTS) else error}")
                    continue
                except KremlinError as error:
                    cell.reasons.append(f"{side}: {error}")
                    continue
            cell.errors.append(f"{side}: not listed as legal, yet it applies")
            continue
        if list_only:
            cell.applied += 1
            continue
        item = _push_in_memory(cell, f"{side} option {option.number}: {variant.title}", session, pick, declared=False)
        if item is not None:
            items.append(item)
    return items


#: The session's words for a step refused by the board invariants (DraftRun._push_keeping_invariants).
_NO_GAME_STARTS = "it would leave a board no game can start from"


def _push_in_memory(cell: Cell, label: str, session: Session, step: Step, *, declared: bool = True) -> Applied | None:
    """Push one step (a first pick, its displaced groups then declared at their first nearest place; or a bid) on
    ``session`` and then the ruleset's game rules (as apply writes them after the picks), note the states they
    leave, and take all back; a listed step the session refuses, or game rules apply refuses after it, fail."""
    board = session.game.board
    before = snapshot(board)
    mark = len(board.changes)
    with session.trying():
        try:
            if isinstance(step, Bid):  # a bid on the board of a draft at its start: the picks end there
                session.end_picks()
            session.push(step)
            if declared:
                _declare_at_first_place(session)
        except RuleViolation as error:
            refused = f"apply refuses it: {error.why}" if error.why.startswith(_NO_GAME_STARTS) else f"refused: {error}"
            cell.errors.append(f"{label}: listed as legal but {refused}")
            return None
        except KremlinError as error:
            cell.errors.append(f"{label}: listed as legal but refused: {error}")
            return None
        except Exception as error:  # noqa: BLE001 - any crash is this pick's failure, reported in the matrix
            cell.errors.append(f"{label}: crashed: {type(error).__name__}: {error}")
            return None
        try:
            rules = game_rules_now(session)
            board.push_all(list(rules))
        except Exception as error:  # noqa: BLE001 - apply would refuse (or crash on) the rules after this pick
            cell.errors.append(f"{label}: the ruleset's game rules cannot be written after it: {type(error).__name__}: {error}")
            return None
        changes = tuple(board.changes[mark:])
        states = states_now(board, changes, before)
        for _ in rules:  # the game rules are written on the board, not a step of the session's
            board.pop()
    cell.applied += 1
    return Applied(cell, label, changes, states, rules)


def _declare_at_first_place(session: Session) -> None:
    """The picks ended here and each displaced group declared: at its one nearest place, or the first where several tie
    (the board the pick leaves once its units have somewhere to be)."""
    session.end_picks()
    while (waiting := session.open_declaration()) is not None:
        displaced, found, _ = waiting
        session.declare(Declaration(displaced, found.matches[0]))


def game_rules_now(session: Session) -> tuple[Change, ...]:
    """The changes of the ruleset's own game rules (section D) on the board as it stands, as ``apply_draft`` makes them."""
    return game_rules_applied(session).changes


def game_rules_applied(session: Session) -> AppliedRules:
    """The ruleset's own game rules on the board as it stands: what is written, what is left to the players and why."""
    rules, _ = house_rule_changes(session.game.board, session.profile, session.names, [], before=(session.ruleset.rule_set,))
    return rules


def _sample_draft(checker: Checker, cell: Cell, game: Game, ruleset: Ruleset, profile: Profile, rng: random.Random, number: int, label: str) -> None:
    """One whole draft drawn from the legal picks, written as a draft file's data and applied by ``apply_draft``."""
    made: list[str] = []
    try:
        data = random_draft_data(game, ruleset, profile, rng, made)
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
    while (side := session.turn) is not None:
        chosen = None
        # Options in random order, each enumerated only until one has a legal pick.
        options = [o for o in session.ruleset.options if o.number not in blocked]
        for option in rng.sample(options, len(options)):
            try:
                picks = list(session.option_picks(option, side))
            except KremlinError as error:
                if missing_name_reason(error, ruleset, profile, game) is not None:
                    continue  # not applicable on this game: the option rows say why
                raise
            if picks:
                chosen = rng.choice(picks)
                break
        if chosen is None:
            return None
        description, pick = chosen
        session.push(pick)
        made.append(f"{side} option {pick.option.number}: {description}")
    # Where each displaced group goes, asked as the players are asked (000 A): the session places each group with one
    # nearest place; a group with several waits for its side's choice, drawn here and written into its pick.
    while (waiting := session.open_declaration()) is not None:
        displaced, found, _ = waiting
        session.declare(Declaration(displaced, rng.choice(found.matches)))
    bid = _random_bid(session, rng)
    if bid is not None:
        session.push(Bid(bid))
    data = {**session.to_toml(), "picks_per_side": session.picks_per_side}
    # The draft's choices that turn the ruleset's game rules on or off (unrestricted_russia, low_luck...), each by chance.
    data["choices"] = [name for name in rule_switches(session.ruleset) if rng.random() < 0.5]
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
    # A house set's switch a ruleset's rule names (001 header 4 gives way to 003 Winning) is that set's, not the draft's.
    own = set().union(*house_switches().values())
    return [name for name in found if name not in own]


def _random_bid(session: Session, rng: random.Random) -> BidSpec | None:
    """One legal bid drawn at random: a unit on a legal place, or a negative bid."""
    state = session.state
    catalog = session.game.board.catalog
    if rng.random() < 0.5:
        negatives = [spec for row, _, spec in bid_targets(session, positive=False)]
        if negatives:
            return rng.choice(negatives)
    facts = state.facts()
    places = list(session.game.board.nodes)
    for power in rng.sample(list(state.side_powers[state.ruleset.bid.placing_side]), len(state.side_powers[state.ruleset.bid.placing_side])):
        buyable = [u for u in catalog.unit_types if catalog.cost(u, power) is not None]
        for unit in rng.sample(buyable, len(buyable)):
            for place in rng.sample(places, len(places)):
                if bid_placement_problem(state, facts, power, unit, place) is None:
                    return BidSpec(max(catalog.cost(unit, power) or 0, 1), (UnitPlacement(power, unit, 1, place),))
    return None

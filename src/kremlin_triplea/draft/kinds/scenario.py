"""The scenario option: a what-if scenario's steps carried out on the board as it stands (rules/scenarios.py has the data)."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from typing import Any, ClassVar

import attrs

from kremlin_triplea.draft.choices import OptionChoices
from kremlin_triplea.draft.form import Answers, Field, Form, answered, answers_of
from kremlin_triplea.draft.invariants import board_problems, new_problems, touched_places
from kremlin_triplea.draft.kinds.base import OptionKind, Variant, register
from kremlin_triplea.draft.picks import Pick, PickTarget
from kremlin_triplea.draft.state import DraftState, Outcome, Problem
from kremlin_triplea.errors import RuleViolation, UnknownNameError, and_more, possessive
from kremlin_triplea.model.changes import Change, PlaceUnits, RemoveUnits, SetOwner, SetTerritory
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.options import OptionParams
from kremlin_triplea.rules.ruleset import Option, Ruleset
from kremlin_triplea.rules.scenarios import Scenario, Step
from kremlin_triplea.rules.tomlfile import Section


@attrs.frozen
class ScenarioParams(OptionParams):
    """A scenario option: the pick names one of the ruleset's [[scenario]] entries (rules/scenarios.py)."""

    KIND: ClassVar[str] = "scenario"
    KEYS: ClassVar[tuple[str, ...]] = ()
    QUOTES: ClassVar[frozenset[str]] = frozenset({"lock"})  # a scenario refused by another's lock (scenario.py)

    @classmethod
    def from_toml(cls, section: Section) -> ScenarioParams:
        return cls()

    def describe(self, ruleset: Any) -> list[str]:
        lines = []
        for scenario in ruleset.scenarios:
            who = scenario.side + (f", {scenario.power}" if scenario.power else "")
            lines.append(f"{who}: scenario = {scenario.title!r} (id {scenario.id}; {scenario.source})")
        return lines

    def rule_names(self, ruleset: Any) -> Iterator[tuple[str, str]]:
        # The scenarios' names are the ruleset's, whether or not an option offers them: tools/profiles.py reads them all.
        return iter(())


@attrs.frozen
class ScenarioTarget(PickTarget):
    """What a scenario pick names: ``scenario = "title"`` (any case) or its id."""

    KEY: ClassVar[str] = "scenario"

    scenario: Scenario

    def to_toml(self) -> str:
        return self.scenario.title

    @property
    def chosen(self) -> str:
        return self.scenario.title


def apply_scenario(state: DraftState, pick: Pick) -> Outcome:
    """Check the pick's scenario against the side and the locks, then turn its steps into changes."""
    target = pick.target
    assert isinstance(target, ScenarioTarget)
    scenario = target.scenario
    names = state.names
    profile = state.profile
    _check_side(scenario, pick)
    steps, involved_names, variant = scenario.for_edition(state.edition)
    lines: list[str] = [f"{scenario.title} ({scenario.source})"]
    if variant is not None:
        lines.append(f"{variant.edition} version: {variant.rule}")
    decisions = [d for d in profile.scenario_decisions if d.scenario == scenario.id and d.applies_to(state.base_file, state.edition)]
    for decision in decisions:
        if decision.steps is not None:
            steps = decision.steps
        lines.append(f"{decision.report} (map profile: {decision.reason})")
    told: set[str] = set()

    def place(name: str) -> str | None:
        """The game's name for a rule-text place; None for a place the map does not have."""
        if name in profile.absent_places:
            if name not in told:
                lines.append(f"{name} is not on this map: {profile.absent_places[name]}")
                told.add(name)
            return None
        found = names.place(name, where=f"{state.ruleset.path}: scenario {scenario.id!r}")
        reason = profile.place_reasons.get(name)
        if found.lower() != name.strip().lower() and reason and name not in told:
            lines.append(f"{name} is {found} in this game ({reason})")
            told.add(name)
        return found

    involved = [p for p in (place(n) for n in involved_names) if p is not None]
    _check_locks(state, pick, involved)

    # Steps see the board as the earlier steps left it; the changes are undone
    # here and pushed again, all or nothing, by the draft.
    board = state.board
    changes: list[Change] = []
    moved: list[Change] = []  # units already on the board that a retreat or move put elsewhere (not option units)
    touched: set[str] = set(involved)
    try:
        for step in steps:
            at = place(step.at)
            if at is None:
                raise Problem(scenario.rule, scenario.source, f"step {step.kind} names {step.at}, which the map does not have").violation(pick.label)
            touched.add(at)
            made, said = _step_changes(state, scenario, step, at, place, pick)
            for change in made:
                try:
                    board.push(change)
                except ValueError as error:  # the steps compute their changes from this board, so this is a bug
                    raise AssertionError(f"scenario {scenario.id!r}: {change} does not apply to the board it was computed from: {error}") from None
                changes.append(change)
                if isinstance(change, PlaceUnits):
                    if step.kind in ("move", "retreat"):
                        moved.append(change)
                    # Where the text retreats units to is the retreating side's ground, as for a takeover's retreat
                    # ([locks] lock_retreat_destinations); every other place a scenario changes is its effect.
                    if step.kind != "retreat" or state.ruleset.locks.lock_retreat_destinations:
                        touched.add(change.territory)
            lines += said
    finally:
        for _ in changes:
            board.pop()
    # Locks are symmetric: a place this scenario changes (not only those it names in `involves`) may not have been
    # affected by the other side, just as the places it changes are locked against the other side afterwards.
    _check_locks(state, pick, sorted(touched - set(involved)))
    honour = variant.players_enforce if variant is not None else scenario.players_enforce
    if honour:
        lines.append(f"players enforce: {honour}")
    return Outcome(tuple(changes), frozenset(touched), tuple(lines), moved=tuple(moved))


def _check_side(scenario: Scenario, pick: Pick) -> None:
    """Refuse a scenario picked by the side it is not for."""
    if scenario.side != pick.side:
        # The sentence that decides is the scenario's own text where the rules list it: 001/002 list each under its
        # power's heading ("JAPAN SCENARIOS"), 000 names the acting power in the text itself.
        heading = scenario.source.rsplit(", ", 1)[-1]
        listed = f"one of the {heading}, " if heading.upper().endswith("SCENARIOS") else ""
        raise Problem(scenario.rule, scenario.source, f"{scenario.title!r} is {listed}a scenario for the {scenario.side}, not the {pick.side}").violation(
            pick.label
        )


def _check_locks(state: DraftState, pick: Pick, places: list[str]) -> None:
    """Refuse the pick if any of ``places`` is locked against its side (the option's lock rule)."""
    for where in places:
        problem = state.lock_problem(pick.side, where)
        if problem is not None:
            raise Problem(pick.option.quote("lock"), pick.option.source, problem.why).violation(pick.label)


def _step_changes(state: DraftState, scenario: Scenario, step: Step, at: str, place, pick: Pick) -> tuple[list[Change], list[str]]:
    """One step's changes, computed from the board as it stands now (earlier picks and steps included)."""
    names, board = state.names, state.board
    shown = names.shown(at)
    where = f"{state.ruleset.path}: scenario {scenario.id!r}"
    power = names.power(step.power, where=where) if step.power else None
    units = _units_of(state, scenario, step, power, pick)
    # Which units a retreat or a destruction concerns: of any power's type for the word (the owner is checked apart);
    # a word the map has no type for is an unknown name, as a place is.
    types = {unit for word in step.types for unit in names.units_of_any_power(word) or {names.unit(word, where=where)}}
    described = ", ".join(f"{n} {u}" for u, n in units)
    if step.kind == "place":
        return _place(state, scenario, power, units, at, pick)
    if step.kind == "remove":
        # "Remove one UK fighter and UK bomber from United Kingdom": the units named, as many of them as are still there.
        changes: list[Change] = []
        short = []
        for unit, count in units:
            present = board.units(at)[(power, unit)]
            if _in_base_game(board, at, power, unit) < count:
                # The base game itself lacks them: a mismatch between the text and this game, for the map profile.
                raise Problem(
                    scenario.rule,
                    scenario.source,
                    f"the scenario removes {count} {power} {unit} from {shown}, but {board.game_name} has {present} there; "
                    "the map profile must record what to do ([[scenario_decision]])",
                ).violation(pick.label)
            if present:
                changes.append(RemoveUnits(at, power, unit, min(count, present)))
            if present < count:
                short.append(f"{count} {unit} ({present} there)")
        said = [f"remove {described} of the {power} from {shown}"]
        if short:
            said.append(f"the text removes {', '.join(short)} of the {power} in {shown}; earlier picks took the rest away, so only what is there is removed")
        return changes, said
    if step.kind == "move":
        to = _destination(scenario, step, place, pick)
        for unit, count in units:
            present = board.units(at)[(power, unit)]
            if present < count:
                raise Problem(
                    scenario.rule,
                    scenario.source,
                    f"the scenario moves {count} {power} {unit} from {shown}, but there are {present} there now",
                ).violation(pick.label)
        _refuse_enemies_at_sea(state, scenario, "moves", power, units, to, pick)
        return _relocate(state, power, units, at, to)
    if step.kind == "retreat":
        # "German forces in Algeria are retreated to Libya": whatever of them is there now.
        to = _destination(scenario, step, place, pick)
        present = sorted((u, n) for (o, u), n in board.units(at).items() if n and o == power and (not types or u in types))
        if not present:
            what = " or ".join(sorted(types)) if types else "units"
            return [], [f"no {power} {what} in {shown} to retreat"]
        _refuse_enemies_at_sea(state, scenario, "retreats", power, present, to, pick)
        return _relocate(state, power, present, at, to)
    if step.kind == "capture":
        return _capture(state, power, at)
    if step.kind == "army":
        return _take_army(state, scenario, step, power, at, place, pick)
    # destroy: every unit of the power (or side) there now, of ``types`` if given
    if step.side is not None:
        side = names.side(step.side, where=where)
        owners = set(state.side_powers[side])
        whose = f"the {side}"
    else:
        owners = {power}
        whose = f"the {power}"
    doomed = sorted(((o, u), n) for (o, u), n in board.units(at).items() if n and o in owners and (not types or u in types))
    if not doomed:
        what = f"{' or '.join(sorted(types))} of {whose}" if types else f"units of {whose}"
        return [], [f"no {what} in {shown} to destroy"]
    text = ", ".join(f"{n} {o} {u}" for (o, u), n in doomed)
    return [RemoveUnits(at, o, u, n) for (o, u), n in doomed], [f"destroy {text} in {shown}"]


def _units_of(state: DraftState, scenario: Scenario, step: Step, power: str | None, pick: Pick) -> list[tuple[str, int]]:
    """The step's units as ``power``'s own types (issue 28), or the scenario refused where it can have none of one."""
    if power is None:
        return [(state.names.unit(u, where=f"{state.ruleset.path}: scenario {scenario.id!r}"), n) for u, n in step.units]
    problem = state.units_problem(scenario.rule, scenario.source, power, (word for word, _ in step.units))
    if problem is not None:
        raise problem.violation(pick.label)
    return state.own_units(step.units, power)


def _place(state: DraftState, scenario: Scenario, power: str | None, units: list[tuple[str, int]], at: str, pick: Pick) -> tuple[list[Change], list[str]]:
    """Place ``units`` of ``power`` at ``at``, where the text says: one factory a territory, no ships among enemies."""
    shown = state.names.shown(at)
    places_factory = any(u in state.factories for u, _ in units)
    if places_factory and any(u in state.factories and n for (_, u), n in state.board.units(at).items()):
        # One factory per territory, as the factory option enforces it: the text places "factory", not a second one.
        raise Problem(
            scenario.rule,
            scenario.source,
            f"{shown} already has a factory (an earlier pick placed it) and the game allows one factory per territory, "
            "so the scenario's factory cannot be placed there",
        ).violation(pick.label)
    _refuse_enemies_at_sea(state, scenario, "places", power, units, at, pick)
    described = ", ".join(f"{n} {u}" for u, n in units)
    return [PlaceUnits(at, power, u, n) for u, n in units], [f"{power} place {described} in {shown}"]


def _in_base_game(board, at: str, power: str | None, unit: str) -> int:
    """How many of ``power``'s ``unit`` stood at ``at`` before the draft's changes (the base game's own setup)."""
    count = board.units(at)[(power, unit)]
    for change in board.changes:
        if isinstance(change, (PlaceUnits, RemoveUnits)) and (change.territory, change.owner, change.unit_type) == (at, power, unit):
            count += change.count if isinstance(change, RemoveUnits) else -change.count
    return count


def _destination(scenario: Scenario, step: Step, place, pick: Pick) -> str:
    to = place(step.to)
    if to is None:
        raise Problem(scenario.rule, scenario.source, f"the destination {step.to} is not on this map").violation(pick.label)
    return to


def _refuse_enemies_at_sea(state: DraftState, scenario: Scenario, verb: str, power: str | None, units: list[tuple[str, int]], to: str, pick: Pick) -> None:
    """Refuse a step that puts ``power``'s units into a sea zone where units at war with it stand now.

    The texts name one sea zone and no other ("UK submarine in the East Mediterranean is retreated to the Arabian
    Sea", 001 GERMAN SCENARIOS; "Move the US Carrier/fighter from Seazone 44 to Seazone 53", 000 Axis scenario 4;
    "place battleship in Drake Passage", 001 GERMAN SCENARIOS), so the nearest place the text allows is that zone
    alone. Ships cannot be interned as land units are (a sea zone belongs to nobody), and a zone holding enemies is
    a board no game starts from (001 options 3 and 7: "not in the same seazone with enemy units"): the scenario is
    refused, and so not offered.
    """
    board = state.board
    if power is None or not board.is_water(to):
        return
    enemies = sorted({o for (o, _), n in board.units(to).items() if n and o is not None and not board.catalog.allied(o, power)})
    if enemies:
        shown = state.names.shown(to)
        raise Problem(
            scenario.rule,
            scenario.source,
            f"the scenario {verb} {', '.join(f'{n} {u}' for u, n in units)} of the {power} {'in' if verb == 'places' else 'to'} {shown} and nowhere else, "
            f"but {shown} now holds units of {', '.join(enemies)} (earlier picks), at war with them; "
            "no game starts with enemies in one sea zone",
        ).violation(pick.label)


def _relocate(state: DraftState, power: str, units: list[tuple[str, int]], at: str, to: str) -> tuple[list[Change], list[str]]:
    """Move ``units`` of ``power`` from ``at`` to ``to``; into land not held by a friend of ``power`` they are interned."""
    names, board = state.names, state.board
    described = ", ".join(f"{n} {u}" for u, n in units)
    changes: list[Change] = [RemoveUnits(at, power, u, n) for u, n in units]
    destination = board.node(to)
    if not destination["water"] and (destination["owner"] is None or not board.catalog.allied(power, destination["owner"])):
        # A retreat goes only into friendly territory (docs/kremlin-draft.md, "Retreats into a neutral or enemy
        # territory"): into a still-neutral or an enemy territory the units are interned, out of the game, so the
        # board never holds a power's units in a neutral or beside its enemies (001 "retreated to Sweden"; 000/001
        # West African landings after the Allies took Libya).
        held = f"neutral {names.shown(to)}" if destination["owner"] is None else f"{names.shown(to)} (held by {destination['owner']})"
        return changes, [f"{described} of the {power} in {names.shown(at)} cannot retreat into {held}: interned, out of the game"]
    changes += [PlaceUnits(to, power, u, n) for u, n in units]
    return changes, [f"move {described} of the {power} from {names.shown(at)} to {names.shown(to)}"]


def _capture(state: DraftState, taker: str, at: str) -> tuple[list[Change], list[str]]:
    """``taker`` takes ``at`` with what is there: units at war with it are destroyed, factories and AA guns change hands."""
    board, shown = state.board, state.names.shown(at)
    data = board.node(at)
    if data["owner"] == taker:
        return [], [f"{shown} is already held by {taker} (an earlier pick took it)"]
    kept = data["original_owner"] or data["owner"]
    changes: list[Change] = [SetOwner(at, taker, captured=True)]
    lines = [f"{taker} capture {shown} (held by {data['owner'] or 'nobody'}; it keeps its original owner {kept}, so liberation returns it)"]
    if board.is_water(at):
        return changes, lines
    # A taken territory holds no units of its former owner or of any power at war with the taker: the text's
    # "takes ... (UK units destroyed)" is the rule for units it does not name too (units an earlier pick retreated there).
    destroyed, captured = [], []
    for (owner, unit), n in sorted(board.units(at).items(), key=lambda item: (item[0][0] or "", item[0][1])):
        if not n or owner is None or board.catalog.allied(owner, taker):
            continue
        changes.append(RemoveUnits(at, owner, unit, n))
        if board.catalog.unit_type(unit).infrastructure:
            changes.append(PlaceUnits(at, taker, unit, n))
            captured.append(f"{n} {owner} {unit}")
        else:
            destroyed.append(f"{n} {owner} {unit}")
    if destroyed:
        lines.append(f"destroy {', '.join(destroyed)} still in {shown} (a territory taken keeps no enemy units)")
    if captured:
        lines.append(f"{taker} capture {', '.join(captured)} in {shown}")
    return changes, lines


def _take_army(state: DraftState, scenario: Scenario, step: Step, taker: str, at: str, place, pick: Pick) -> tuple[list[Change], list[str]]:
    """``taker`` gains control of the neutral ``at`` and its army (the ruleset's neutral table) unless it exists already."""
    board, names, shown = state.board, state.names, state.names.shown(at)
    neutral = state.neutrals.get(at)
    if neutral is None:
        raise Problem(scenario.rule, scenario.source, f"{shown} is not a neutral of the ruleset's table").violation(pick.label)
    data = board.node(at)
    if data["owner"] is not None and not data["impassable"]:
        if board.catalog.allied(taker, data["owner"]):
            # One army: the neutral was taken over (with its army) by an earlier pick of this side.
            return [], [f"{shown} already joined {data['owner']} with its army (an earlier pick): the army exists once, nothing more is placed"]
        raise Problem(scenario.rule, scenario.source, f"{shown} and its army belong to {data['owner']}, an enemy of {taker}").violation(pick.label)
    problem = state.units_problem(scenario.rule, scenario.source, taker, (word for word, _ in neutral.army))
    if problem is not None:
        raise Problem(problem.rule, problem.source, f"{possessive(shown)} army cannot join {taker}: {problem.why}").violation(pick.label)
    army = state.own_units(neutral.army, taker)  # the taker's own types (issue 28)
    on_land = [(u, n) for u, n in army if not board.catalog.unit_type(u).is_ship]
    at_sea = [(u, n) for u, n in army if board.catalog.unit_type(u).is_ship]
    changes: list[Change] = [SetOwner(at, taker, captured=False)]
    if data["impassable"]:
        changes.append(SetTerritory(at, "impassable", False))
    changes += [PlaceUnits(at, taker, u, n) for u, n in on_land]
    line = f"{shown} joins {taker} with its army: {', '.join(f'{n} {u}' for u, n in on_land) or 'none'}"
    if at_sea:
        zone = _destination(scenario, step, place, pick) if step.to is not None else None
        if zone is None:
            raise Problem(scenario.rule, scenario.source, f"{possessive(shown)} army has ships and the scenario names no sea zone for them").violation(
                pick.label
            )
        _refuse_enemies_at_sea(state, scenario, "places", taker, at_sea, zone, pick)
        changes += [PlaceUnits(zone, taker, u, n) for u, n in at_sea]
        line += f"; its ships {', '.join(f'{n} {u}' for u, n in at_sea)} in {names.shown(zone)}"
    return changes, [line]


def scenario_lines(scenario: Scenario, edition: str | None, *, with_rule: bool = True) -> list[str]:
    """A scenario as players read it: title, source, the rule's words, and what it does to the board."""
    steps, _, variant = scenario.for_edition(edition)
    rule = variant.rule if variant is not None else scenario.rule
    lines = [f"scenario {scenario.title!r} ({scenario.side}; {scenario.source})"]
    if with_rule:
        lines += textwrap.wrap(f'"{rule}"', width=100, initial_indent="  ", subsequent_indent="    ")
    for step in steps:
        lines.append("    effect: " + step_words(step))
    return lines


def step_words(step: Step) -> str:
    units = ", ".join(f"{n} {u}" for u, n in step.units)
    if step.kind == "place":
        return f"{step.power} place {units} in {step.at}"
    if step.kind == "remove":
        return f"{possessive(step.power)} {units} removed from {step.at}"
    if step.kind == "move":
        return f"{possessive(step.power)} {units} move from {step.at} to {step.to}"
    if step.kind == "capture":
        return f"{step.at} captured by {step.power}"
    return f"every unit of {step.power or step.side} in {step.at} destroyed"


def scenario_form(state: DraftState, choices: ScenarioChoices, side: str) -> Form:
    """Which of the side's scenarios; the terminal first shows each with its effects on this game."""
    field = Field("scenario", "Scenario", answers_of(choices.scenarios))

    def asked(answers: Answers) -> Field:
        intro = []
        for title in choices.scenarios:
            scenario = next(s for s in state.ruleset.scenarios if s.title == title and s.side == side)
            intro += scenario_lines(scenario, state.edition, with_rule=False)
        return attrs.evolve(field, label="scenario ('help TITLE' shows its rule)", listed=False, intro=tuple(intro), narrowed=None)

    return Form((attrs.evolve(field, narrowed=asked),), lambda answers: answered(answers, "scenario"))


@attrs.frozen
class ScenarioChoices(OptionChoices):
    scenarios: tuple[str, ...] = ()  # titles of the scenarios the side may pick


@register
class ScenarioOption(OptionKind):
    """One of the side's what-if scenarios (``scenario = "title"``): its steps carried out on the board."""

    name = "scenario"
    params = ScenarioParams
    target = ScenarioTarget

    def parse_target(self, section: Section, names: Names, ruleset: Ruleset) -> ScenarioTarget:
        return ScenarioTarget(ruleset.scenario(section.text(ScenarioTarget.KEY), where=f"{section.where}: {section.key}"))

    def choices(self, state: DraftState, option: Option, side: str, powers: list[str]) -> OptionChoices:
        titles = []
        refused: list[str] = []  # why each scenario of the side is not offered, for the option's line when none is
        for scenario in state.ruleset.scenarios:
            if scenario.side != side:
                continue
            try:
                outcome = apply_scenario(state, Pick(index=0, side=side, option=option, target=ScenarioTarget(scenario)))
                # Not offered when it would leave a board no game starts from (the draft refuses it too).
                places = touched_places(outcome.changes)
                before = board_problems(state.board, state.factories, places)
                state.board.push_all(list(outcome.changes))
                broken = new_problems(before, state.board, state.factories, places)
                for _ in outcome.changes:
                    state.board.pop()
                if broken:
                    refused.append(f"{scenario.title!r}: it would leave a board no game can start from: {broken[0]}")
                    continue
            except RuleViolation as violation:
                refused.append(f"{scenario.title!r}: {violation.why}")
                continue
            except UnknownNameError as error:
                if error.name.lower() in {k.lower() for k in state.profile.unmatched}:
                    refused.append(f"{scenario.title!r}: the map has no {error.name} (map profile)")
                    continue  # the map profile says the map has nothing for a name it needs
                raise
            titles.append(scenario.title)
        unavailable = (
            None if titles else f"no scenario of the {side} can be carried out now: {refused[0] if refused else 'the ruleset has none'}{and_more(refused)}"
        )
        return ScenarioChoices(option, unavailable=unavailable, scenarios=tuple(titles))

    def describe_choices(self, choices: OptionChoices) -> list[str]:
        assert isinstance(choices, ScenarioChoices)
        return [f"  scenario = {title!r}" for title in choices.scenarios]

    def picks(self, state: DraftState, choices: OptionChoices, side: str, index: int) -> Iterator[tuple[str, Pick]]:
        assert isinstance(choices, ScenarioChoices)
        option = choices.option
        for title in choices.scenarios:
            scenario = next(s for s in state.ruleset.scenarios if s.title == title and s.side == side)
            yield f"scenario {title}", Pick(index, side, option, ScenarioTarget(scenario))

    def apply(self, state: DraftState, pick: Pick) -> Outcome:
        return apply_scenario(state, pick)

    def help_lines(self, state: DraftState, option: Option, side: str | None) -> list[str]:
        return [line for s in state.ruleset.scenarios if side is None or s.side == side for line in scenario_lines(s, state.edition)]

    def form(self, state: DraftState, choices: OptionChoices, side: str, index: int) -> Form:
        assert isinstance(choices, ScenarioChoices)
        return scenario_form(state, choices, side)

    def variant_titles(self, ruleset: Ruleset, option: Option) -> tuple[str, ...]:
        return tuple(scenario.title for scenario in ruleset.scenarios)

    def variants(self, state: DraftState, choices: OptionChoices, side: str) -> tuple[Variant, ...]:
        assert isinstance(choices, ScenarioChoices)
        # Answered as the form's one field is, offered or not: the draft must refuse one not offered.
        return tuple(Variant(s.title, {"scenario": s.title}, s.title in choices.scenarios) for s in state.ruleset.scenarios if s.side == side)

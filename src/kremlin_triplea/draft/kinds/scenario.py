"""The scenario option: a what-if scenario's steps carried out on the board as it stands (rules/scenarios.py has the data)."""

from __future__ import annotations

from collections.abc import Iterator

from kremlin_triplea.draft.choices import OptionChoices
from kremlin_triplea.draft.invariants import board_problems, new_problems
from kremlin_triplea.draft.kinds.base import OptionKind, register
from kremlin_triplea.draft.picks import Pick
from kremlin_triplea.draft.state import DraftState, Outcome, Problem
from kremlin_triplea.errors import RuleViolation, UnknownNameError
from kremlin_triplea.model.changes import Change, PlaceUnits, RemoveUnits, SetOwner
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.ruleset import Option, Ruleset
from kremlin_triplea.rules.scenarios import Scenario, Step
from kremlin_triplea.rules.tomlfile import Section


def apply_scenario(state: DraftState, pick: Pick) -> Outcome:
    """Check the pick's scenario against the side and the locks, then turn its steps into changes."""
    option, scenario = pick.option, pick.scenario
    assert scenario is not None
    names = state.names
    profile = state.profile
    if scenario.side != pick.side:
        raise Problem(option.quote("side"), option.source, f"{scenario.title!r} is a scenario of the {scenario.side}, not the {pick.side}").violation(
            pick.label
        )
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
    for where in involved:
        problem = state.lock_problem(pick.side, where)
        if problem is not None:
            raise Problem(option.quote("lock"), option.source, problem.why).violation(pick.label)

    # Steps see the board as the earlier steps left it; the changes are undone
    # here and pushed again, all or nothing, by the draft.
    board = state.board
    changes: list[Change] = []
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
                except ValueError as error:
                    raise Problem(
                        scenario.rule,
                        scenario.source,
                        f"cannot {change} in {board.game_name}: {error}; the map profile must record a decision ([[scenario_decision]])",
                    ).violation(pick.label) from None
                changes.append(change)
                if isinstance(change, PlaceUnits):
                    touched.add(change.territory)
            lines += said
    finally:
        for _ in changes:
            board.pop()
    honour = variant.players_enforce if variant is not None else scenario.players_enforce
    if honour:
        lines.append(f"players enforce: {honour}")
    return Outcome(tuple(changes), frozenset(touched), tuple(lines))


def _step_changes(state: DraftState, scenario: Scenario, step: Step, at: str, place, pick: Pick) -> tuple[list[Change], list[str]]:
    names, board = state.names, state.board
    shown = names.shown(at)
    where = f"{state.ruleset.path}: scenario {scenario.id!r}"
    units = [(names.unit(u, where=where), n) for u, n in step.units]
    power = names.power(step.power, where=where) if step.power else None
    described = ", ".join(f"{n} {u}" for u, n in units)
    if step.kind == "place":
        return [PlaceUnits(at, power, u, n) for u, n in units], [f"{power} place {described} in {shown}"]
    if step.kind == "remove":
        for unit, count in units:
            present = board.units(at)[(power, unit)]
            if present < count:
                raise Problem(
                    scenario.rule,
                    scenario.source,
                    f"the scenario removes {count} {power} {unit} from {shown}, but {board.game_name} has {present} there; "
                    "the map profile must record what to do ([[scenario_decision]])",
                ).violation(pick.label)
        return [RemoveUnits(at, power, u, n) for u, n in units], [f"remove {described} of the {power} from {shown}"]
    if step.kind == "move":
        to = place(step.to)
        if to is None:
            raise Problem(scenario.rule, scenario.source, f"the move's destination {step.to} is not on this map").violation(pick.label)
        for unit, count in units:
            present = board.units(at)[(power, unit)]
            if present < count:
                raise Problem(
                    scenario.rule,
                    scenario.source,
                    f"the scenario moves {count} {power} {unit} from {shown}, but {board.game_name} has {present} there",
                ).violation(pick.label)
        changes: list[Change] = [RemoveUnits(at, power, u, n) for u, n in units]
        destination = board.node(to)
        if not destination["water"] and (destination["owner"] is None or not board.catalog.allied(power, destination["owner"])):
            # A retreat goes only into friendly territory (docs/kremlin-draft.md, "Retreats into a neutral or enemy
            # territory"): into a still-neutral or an enemy territory the units are interned, out of the game, so the
            # board never holds a power's units in a neutral or beside its enemies (001 "retreated to Sweden").
            held = f"neutral {names.shown(to)}" if destination["owner"] is None else f"{names.shown(to)} (held by {destination['owner']})"
            return changes, [f"{described} of the {power} from {shown} cannot retreat into {held}: interned, out of the game"]
        changes += [PlaceUnits(to, power, u, n) for u, n in units]
        return changes, [f"move {described} of the {power} from {shown} to {names.shown(to)}"]
    if step.kind == "capture":
        data = board.node(at)
        kept = data["original_owner"] or data["owner"]
        return [SetOwner(at, power, captured=True)], [
            f"{power} capture {shown} (held by {data['owner'] or 'nobody'}; it keeps its original owner {kept}, so liberation returns it)"
        ]
    # destroy
    if step.side is not None:
        side = names.side(step.side, where=where)
        owners = set(state.side_powers[side])
        whose = f"the {side}"
    else:
        owners = {power}
        whose = f"the {power}"
    doomed = sorted(((o, u), n) for (o, u), n in board.units(at).items() if n and o in owners)
    if not doomed:
        return [], [f"no units of {whose} in {shown} to destroy in {board.game_name}"]
    text = ", ".join(f"{n} {o} {u}" for (o, u), n in doomed)
    return [RemoveUnits(at, o, u, n) for (o, u), n in doomed], [f"destroy {text} in {shown}"]


@register
class ScenarioOption(OptionKind):
    """One of the side's what-if scenarios (``scenario = "title"``): its steps carried out on the board."""

    name = "scenario"
    target_key = "scenario"

    def parse_target(self, section: Section, names: Names, ruleset: Ruleset) -> dict:
        return {"scenario": ruleset.scenario(section.text("scenario"), where=f"{section.where}: {section.key}")}

    def choices(self, state: DraftState, option: Option, side: str, powers: list[str]) -> OptionChoices:
        titles = []
        before = board_problems(state.board, state.factory)
        for scenario in state.ruleset.scenarios:
            if scenario.side != side:
                continue
            try:
                outcome = apply_scenario(state, Pick(index=0, side=side, option=option, scenario=scenario))
                # Not offered when it would leave a board no game starts from (the draft refuses it too).
                state.board.push_all(list(outcome.changes))
                broken = new_problems(before, state.board, state.factory)
                for _ in outcome.changes:
                    state.board.pop()
                if broken:
                    continue
            except RuleViolation:
                continue
            except UnknownNameError as error:
                if error.name.lower() in {k.lower() for k in state.profile.unmatched}:
                    continue  # the map profile says the map has nothing for a name it needs
                raise
            titles.append(scenario.title)
        unavailable = None if titles else f"every scenario of the {side} involves a place the other side has affected"
        return OptionChoices(option, unavailable=unavailable, scenarios=tuple(titles))

    def picks(self, state: DraftState, choices: OptionChoices, side: str, index: int) -> Iterator[tuple[str, Pick]]:
        option = choices.option
        for title in choices.scenarios:
            scenario = next(s for s in state.ruleset.scenarios if s.title == title and s.side == side)
            yield f"scenario {title}", Pick(index, side, option, scenario=scenario)

    def apply(self, state: DraftState, pick: Pick) -> Outcome:
        return apply_scenario(state, pick)

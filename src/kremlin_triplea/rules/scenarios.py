"""Scenarios: a named what-if (Kremlin AA50 option 11, the classic rulesets' power scenarios) as data.

Design
------
A scenario is data in the ruleset (``[[scenario]]``), in the rule text's own names:

* ``id``, ``title`` (as the rule text gives it), ``side``, optionally ``power``
  (the classic rulesets group their scenarios by power), ``source`` and the
  quoted ``rule``;
* ``involves``: the territories and sea zones the scenario involves. It cannot
  be picked if the opposing side has already affected one of them, and picking
  it locks them (and every place a step touches) against the opposing side;
* ``steps``: primitive steps, applied in order on the board as it stands::

      { place = "Gibraltar", power = "Germany", units = { infantry = 2 } }
      { remove = "United Kingdom", power = "UK", units = { fighter = 1, bomber = 1 } }
      { move = "Seazone 44", to = "Seazone 53", power = "USA", units = { carrier = 1, fighter = 1 } }
      { capture = "Gibraltar", by = "Germany" }      # keeps its original owner: liberation works
      { destroy = "Seazone 12", power = "UK" }       # or side = "Allies": every unit of them there

* ``[[scenario.variant]]``: the rule text's clauses for one edition of the game
  ("If this scenario is chosen in the 1942 version ..."), replacing ``steps``
  (and ``involves`` if given) when the map profile says the game is that edition;
* ``players_enforce``: what the scenario asks that the game cannot do (it goes to
  the game notes' players'-honour list); a variant has its own.

The map profile translates the names and records every mismatch between the
text and a game's setup as a ``[[scenario_decision]]`` (the report ``apply``
prints and its reason, optionally replacing the steps for that game). A step
that cannot apply (a unit to remove is not there) is an error naming the
scenario, the step and the game, never a silent skip; a place the text names
that the map does not have is listed in the profile's ``[absent_places]``.

A draft picks a scenario with ``option = 11, scenario = "Operation Felix"``
(the title, case-insensitive, or the id). One scenario per side: the option's
own no-repeat rule, quoted as the option's ``one_per_side`` quote.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from kremlin_triplea.model.changes import Change, PlaceUnits, RemoveUnits, SetOwner
from kremlin_triplea.errors import UnknownNameError
from kremlin_triplea.rules.tomlfile import Section

if TYPE_CHECKING:
    from kremlin_triplea.draft.kinds import DraftState, Outcome, Pick
    from kremlin_triplea.rules.ruleset import Ruleset

STEP_KINDS = ("place", "remove", "move", "capture", "destroy")


@attrs.frozen
class Step:
    """One primitive step, in rule-text names: ``kind`` is one of STEP_KINDS, ``at`` the place it acts on."""

    kind: str
    at: str
    power: str | None = None  # place/remove/move: whose units; capture: the new owner; destroy: whose units
    side: str | None = None  # destroy: every unit of this side
    units: tuple[tuple[str, int], ...] = ()
    to: str | None = None  # move: the destination


@attrs.frozen
class Variant:
    edition: str
    rule: str
    steps: tuple[Step, ...]
    involves: tuple[str, ...] | None = None
    players_enforce: str = ""


@attrs.frozen
class Scenario:
    id: str
    title: str
    side: str
    source: str
    rule: str
    involves: tuple[str, ...]
    steps: tuple[Step, ...]
    power: str | None = None
    number: int | None = None  # its number in the rule text's list for its side
    variants: tuple[Variant, ...] = ()
    players_enforce: str = ""

    def for_edition(self, edition: str | None) -> tuple[tuple[Step, ...], tuple[str, ...], Variant | None]:
        """The steps and involved places for a game of ``edition``, and the variant used (if any)."""
        for variant in self.variants:
            if edition is not None and variant.edition.lower() == edition.lower():
                return variant.steps, variant.involves if variant.involves is not None else self.involves, variant
        return self.steps, self.involves, None


@attrs.frozen
class ScenarioDecision:
    """A map profile's decision where the rule text and one game's setup disagree."""

    scenario: str
    games: tuple[str, ...]  # base game files or editions it applies to
    report: str
    reason: str
    steps: tuple[Step, ...] | None = None  # replaces the scenario's steps for these games

    def applies_to(self, file: str | None, edition: str | None) -> bool:
        keys = {k.lower() for k in self.games}
        return (file or "").lower() in keys or (edition or "").lower() in keys


# -- reading -------------------------------------------------------------------


def read_steps(section: Section, key: str) -> tuple[Step, ...]:
    steps = []
    for entry in section.tables(key):
        kinds = [k for k in STEP_KINDS if entry.has(k)]
        if len(kinds) != 1:
            raise entry.fail(kinds[1] if kinds else STEP_KINDS[0], f"exactly one of {', '.join(STEP_KINDS)} per step")
        kind = kinds[0]
        if kind in ("place", "remove"):
            entry.only(kind, "power", "units")
            steps.append(Step(kind, entry.text(kind), power=entry.text("power"), units=tuple(entry.counts("units").items())))
        elif kind == "move":
            entry.only(kind, "to", "power", "units")
            steps.append(Step(kind, entry.text(kind), power=entry.text("power"), units=tuple(entry.counts("units").items()), to=entry.text("to")))
        elif kind == "capture":
            entry.only(kind, "by")
            steps.append(Step(kind, entry.text(kind), power=entry.text("by")))
        else:
            entry.only(kind, "power", "side")
            if entry.has("power") == entry.has("side"):
                raise entry.fail("power", "either `power` or `side` (whose units are destroyed)")
            steps.append(Step(kind, entry.text(kind), power=entry.text("power", None), side=entry.text("side", None)))
    return tuple(steps)


def read_scenarios(root: Section, sides: tuple[str, ...]) -> tuple[Scenario, ...]:
    scenarios = []
    for section in root.tables("scenario", []):
        section.only("id", "number", "title", "side", "power", "source", "rule", "involves", "steps", "variant", "players_enforce")
        side = section.text("side")
        if side not in sides:
            raise section.fail("side", f"one of {', '.join(sides)}", side)
        variants = []
        for entry in section.tables("variant", []):
            entry.only("edition", "rule", "steps", "involves", "players_enforce")
            involves = entry.texts("involves", None)
            variants.append(Variant(
                entry.text("edition"), entry.text("rule"), read_steps(entry, "steps"),
                tuple(involves) if involves is not None else None, entry.text("players_enforce", ""),
            ))
        scenarios.append(
            Scenario(
                id=section.text("id").strip().lower(),
                title=section.text("title"),
                side=side,
                source=section.text("source"),
                rule=section.text("rule"),
                involves=tuple(section.texts("involves")),
                steps=read_steps(section, "steps"),
                power=section.text("power", None),
                number=section.integer("number", None),
                variants=tuple(variants),
                players_enforce=section.text("players_enforce", ""),
            )
        )
    seen: set[str] = set()
    for index, scenario in enumerate(scenarios):
        for key in (scenario.id, scenario.title.lower()):
            if key in seen:
                raise root.fail(f"scenario[{index}]", "a scenario id and title used by no other scenario", key)
            seen.add(key)
    return tuple(scenarios)


def read_decisions(root: Section) -> tuple[ScenarioDecision, ...]:
    decisions = []
    for section in root.tables("scenario_decision", []):
        section.only("scenario", "games", "report", "reason", "steps")
        decisions.append(
            ScenarioDecision(
                scenario=section.text("scenario").strip().lower(),
                games=tuple(section.texts("games")),
                report=section.text("report"),
                reason=section.text("reason"),
                steps=read_steps(section, "steps") if section.has("steps") else None,
            )
        )
    return tuple(decisions)


def find_scenario(ruleset: Ruleset, key: str, *, where: str | None = None) -> Scenario:
    """A scenario by its title as the rule text gives it (any case) or its id."""
    wanted = key.strip().lower()
    for scenario in ruleset.scenarios:
        if wanted in (scenario.id, scenario.title.lower()):
            return scenario
    known = [s.title for s in ruleset.scenarios] + [s.id for s in ruleset.scenarios]
    raise UnknownNameError("scenario", key, known, where=where, within=f"ruleset {ruleset.id}")


# -- applying ------------------------------------------------------------------


def apply_scenario(state: DraftState, pick: Pick) -> Outcome:
    """Check the pick's scenario against the side and the locks, then turn its steps into changes."""
    from kremlin_triplea.draft.kinds import Outcome, Problem

    option, scenario = pick.option, pick.scenario
    assert scenario is not None
    names = state.names
    profile = state.profile
    if scenario.side != pick.side:
        raise Problem(option.quote("side"), option.source, f"{scenario.title!r} is a scenario of the {scenario.side}, not the {pick.side}").violation(pick.label)
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
                    raise Problem(scenario.rule, scenario.source, f"cannot {change} in {board.game_name}: {error}; the map profile must record a decision ([[scenario_decision]])").violation(pick.label) from None
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
    from kremlin_triplea.draft.kinds import Problem

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
                    scenario.rule, scenario.source,
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
                    scenario.rule, scenario.source,
                    f"the scenario moves {count} {power} {unit} from {shown}, but {board.game_name} has {present} there",
                ).violation(pick.label)
        changes: list[Change] = [RemoveUnits(at, power, u, n) for u, n in units]
        changes += [PlaceUnits(to, power, u, n) for u, n in units]
        return changes, [f"move {described} of the {power} from {shown} to {names.shown(to)}"]
    if step.kind == "capture":
        data = board.node(at)
        kept = data["original_owner"] or data["owner"]
        return [SetOwner(at, power, captured=True)], [f"{power} capture {shown} (held by {data['owner'] or 'nobody'}; it keeps its original owner {kept}, so liberation returns it)"]
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

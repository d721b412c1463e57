"""The placement option (000 options 1, 2, 4-9 and their classic twins): units of the side's powers placed where the option allows."""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Iterator
from typing import Any, ClassVar

import attrs

from kremlin_triplea.draft.choices import OptionChoices
from kremlin_triplea.draft.kinds.base import OptionKind, register
from kremlin_triplea.draft.picks import Pick, PickTarget, UnitPlacement
from kremlin_triplea.draft.state import DraftState, Facts, Outcome, Problem, describe_units
from kremlin_triplea.errors import UnknownNameError
from kremlin_triplea.model.changes import PlaceUnits
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.options import OptionParams
from kremlin_triplea.rules.ruleset import Option, Ruleset
from kremlin_triplea.rules.tomlfile import Section

# The places a placement option may name, and the checks it may require; the
# code for each is in placement_problem below.
PLACEMENT_PLACES = (
    "own_territory",
    "sea_zone_adjacent_to_own_territory_or_with_friendly_ships",
    "friendly_sea_zone",  # adjacent to a territory of the power or an ally, or holding allied ships
    "friendly_carrier_with_room",
)
PLACEMENT_CHECKS = (
    "not_adjacent_to_enemy_units",
    "no_enemy_units",
    "same_territory",
    "same_power",
    "no_factory_there",
)


@attrs.frozen
class PlacementParams(OptionParams):
    """Units of the side's powers placed where the option allows (000 options 1, 2, 4-9)."""

    KIND: ClassVar[str] = "placement"
    KEYS: ClassVar[tuple[str, ...]] = ("unit_sets", "at", "require", "exclude")

    unit_sets: tuple[tuple[str, ...], ...]  # choose exactly one; rule-text unit names
    at: tuple[str, ...]  # a unit may go to any one of these kinds of place
    require: tuple[str, ...]  # further checks, all must hold
    exclude: tuple[tuple[str, str, str], ...] = ()  # (power, unit, place) never allowed, rule-text names

    @classmethod
    def from_toml(cls, section: Section) -> PlacementParams:
        unit_sets = section.get(
            "unit_sets",
            'a list of unit lists, e.g. [["transport", "submarine"]]',
            lambda v: isinstance(v, list) and v and all(isinstance(s, list) and s and all(isinstance(u, str) for u in s) for s in v),
        )
        at = section.texts("at")
        if not at:
            raise section.fail("at", f"at least one place among {', '.join(PLACEMENT_PLACES)}", at)
        for place in at:
            if place not in PLACEMENT_PLACES:
                raise section.fail("at", f"places among {', '.join(PLACEMENT_PLACES)}", place)
        require = section.texts("require", [])
        for check in require:
            if check not in PLACEMENT_CHECKS:
                raise section.fail("require", f"checks among {', '.join(PLACEMENT_CHECKS)}", check)
        exclude = []
        for entry in section.tables("exclude", []):
            entry.only("power", "unit", "at")
            exclude.append((entry.text("power"), entry.text("unit"), entry.text("at")))
        return cls(tuple(tuple(s) for s in unit_sets), tuple(at), tuple(require), tuple(exclude))

    def describe(self, ruleset: Any) -> list[str]:
        sets = " | ".join(" + ".join(s) for s in self.unit_sets)
        lines = [f"units: {sets}; where: {' or '.join(self.at)}" + (f"; checks: {', '.join(self.require)}" if self.require else "")]
        return lines + [f"except: no {power} {unit} in {place}" for power, unit, place in self.exclude]

    def without_names(self, missing: set[str]) -> tuple[PlacementParams, str]:
        kept = tuple(e for e in self.exclude if not any(n.lower() in missing for n in e))
        if kept == self.exclude:
            return self, ""
        gone = ", ".join(e[2] for e in self.exclude if e not in kept)
        return attrs.evolve(self, exclude=kept), f"the exclusions at {gone} do not apply: not on this map"

    def rule_names(self, ruleset: Any) -> Iterator[tuple[str, str]]:
        for unit_set in self.unit_sets:
            for unit in unit_set:
                yield "units", unit
        if "no_factory_there" in self.require:
            yield "units", "factory"
        for power, unit, place in self.exclude:
            yield from (("powers", power), ("units", unit), ("places", place))


@attrs.frozen
class UnitChoice:
    """Where ``power`` may place one ``unit``."""

    unit: str
    power: str
    places: tuple[str, ...]


@attrs.frozen
class SetChoice:
    """For options whose units share one power and one place: where a whole unit set may go."""

    units: tuple[str, ...]
    power: str
    places: tuple[str, ...]


@attrs.frozen
class PlacementChoices(OptionChoices):
    units: tuple[UnitChoice, ...] = ()
    sets: tuple[SetChoice, ...] = ()  # options with same_territory and same_power: whole sets


@attrs.frozen
class Placements(PickTarget):
    """What a placement pick names: ``place = [{ power, unit, count = 1, at }, ...]``."""

    KEY: ClassVar[str] = "place"

    units: tuple[UnitPlacement, ...]

    def to_toml(self) -> list[dict[str, Any]]:
        return [p.to_toml() for p in self.units]


def placement_problem(state: DraftState, facts: Facts, option: Option, side: str, power: str, unit: str, place: str) -> Problem | None:
    """Why ``power`` may not place one ``unit`` at ``place`` for ``option`` (None: it may)."""
    params = option.params
    assert isinstance(params, PlacementParams)
    board = state.board
    problem = state.power_problem(option, side, power)
    if problem is not None:
        return problem
    kind = board.catalog.unit_type(unit)
    data = board.node(place)
    shown = state.names.shown(place)
    restriction = state.restrictions.get(power)
    if restriction is not None and restriction.placements_only_on_own_territory and (data["water"] or data["owner"] != power):
        return Problem(restriction.rule, restriction.source, f"{power} {unit} in {shown}: {power} units may only be placed on territory {power} controls")
    reasons: list[tuple[str, str]] = []
    fits = False
    for alternative in params.at:
        if alternative == "own_territory":
            if data["water"] or kind.is_ship:
                reasons.append((alternative, f"{shown} is a sea zone" if data["water"] else f"a {unit} cannot be placed on land"))
            elif data["owner"] != power:
                reasons.append((alternative, f"{shown} is owned by {data['owner'] or 'nobody'}, not {power}"))
            elif data["impassable"]:
                # Saudi Arabia is British in the game files but a neutral in the rules: no unit may be there.
                reasons.append((alternative, f"{shown} is impassable: a neutral in the rules (option 3 takes neutrals), not {power} territory"))
            else:
                fits = True
        elif alternative == "sea_zone_adjacent_to_own_territory_or_with_friendly_ships":
            if not data["water"] or not kind.is_ship:
                reasons.append((alternative, f"{shown} is not a sea zone" if not data["water"] else f"a {unit} is not a naval unit"))
            elif place not in facts.owned_sea(power) and place not in facts.friendly_ship_zones(power):
                reasons.append((alternative, f"{shown} is neither adjacent to a territory {power} owns nor holds friendly naval units"))
            else:
                fits = True
        elif alternative == "friendly_sea_zone":
            if not data["water"] or not kind.is_ship:
                reasons.append((alternative, f"{shown} is not a sea zone" if not data["water"] else f"a {unit} is not a naval unit"))
            elif place not in facts.friendly_sea(power):
                reasons.append((alternative, f"{shown} is not a friendly sea zone (beside a territory of {power} or an ally, or holding allied naval units)"))
            else:
                fits = True
        elif alternative == "friendly_carrier_with_room":
            if not data["water"] or kind.domain != "air" or not kind.carrier_cost:
                continue
            capacity, used = facts.carrier_room(place, power)
            if capacity == 0:
                reasons.append((alternative, f"{shown} has no friendly carrier"))
            elif capacity - used < kind.carrier_cost:
                reasons.append((alternative, f"the friendly carriers in {shown} have no room left ({used} of {capacity} taken)"))
            else:
                fits = True
        if fits:
            break
    if not fits:
        # Report the reasons that concern this kind of place first (a sea zone's for a sea zone).
        relevant = [r for r in reasons if (r[0] == "own_territory") != data["water"]] or reasons
        key = relevant[0][0] if relevant else params.at[0]
        why = "; ".join(dict.fromkeys(r[1] for r in relevant)) or f"{shown} is not a place for a {unit}"
        return Problem(option.quote(key), option.source, f"{power} {unit} in {shown}: {why}")
    for excluded_power, excluded_unit, excluded_place in params.exclude:
        names = state.names
        if (names.power(excluded_power), names.unit(excluded_unit), names.place(excluded_place)) == (power, unit, place):
            return Problem(option.quote("exclude"), option.source, f"{power} {unit} in {shown}: excepted by the option")
    enemies = facts.enemy_places(power)
    for check in params.require:
        if check == "not_adjacent_to_enemy_units":
            for neighbour in sorted(board.neighbours(place)):
                if neighbour in enemies and not board.is_water(neighbour):
                    return Problem(
                        option.quote(check),
                        option.source,
                        f"{power} {unit} in {shown}: {shown} is adjacent to {state.names.shown(neighbour)}, which holds units of {', '.join(enemies[neighbour])}",
                    )
        elif check == "no_enemy_units":
            if place in enemies:
                return Problem(option.quote(check), option.source, f"{power} {unit} in {shown}: {shown} holds units of {', '.join(enemies[place])}")
        elif check == "no_factory_there":
            if any(u == state.factory and n for (_, u), n in data["units"].items()):
                return Problem(
                    option.quote(check), option.source, f"{power} {unit} in {shown}: {shown} already has a factory (the game allows one per territory)"
                )
    return state.lock_problem(side, place)


def could_fit(params: PlacementParams, data: dict, kind, power: str) -> bool:  # noqa: ANN001 - model.board's unit type
    """A cheap necessary condition of :func:`placement_problem` finding no problem: the kind of place is one of the option's.

    The legal-choice enumeration asks it first, so the full check (and its message) runs only where a unit might go.
    """
    for alternative in params.at:
        if alternative == "own_territory":
            if not data["water"] and not kind.is_ship and data["owner"] == power and not data["impassable"]:
                return True
        elif alternative == "friendly_carrier_with_room":
            if data["water"] and kind.domain == "air" and kind.carrier_cost:
                return True
        elif data["water"] and kind.is_ship:  # the sea-zone alternatives
            return True
    return False


def unit_sets(state: DraftState, option: Option, power: str | None = None) -> list[Counter[str]]:
    """The option's unit sets as game unit types: ``power``'s own where the map profile gives it its own
    (``[units_by_power]``, issue 28: a German armor is the Germans' tank, not another power's)."""
    params = option.params
    assert isinstance(params, PlacementParams)
    return [Counter(state.names.unit(u, power=power) for u in units) for units in params.unit_sets]


def _unit_of(state: DraftState, word: str, power: str) -> str | None:
    """``power``'s unit for a rule-text word, or None where the map has none it can place (Names.own_unit)."""
    try:
        return state.names.own_unit(word, power)
    except UnknownNameError:
        return None


def _matches_a_set(state: DraftState, option: Option, entries: tuple[UnitPlacement, ...]) -> bool:
    """Whether the units placed are exactly one of the option's sets, each entry read as its own power's unit."""
    params = option.params
    assert isinstance(params, PlacementParams)
    for words in params.unit_sets:
        left = list(words)
        for entry in entries:
            for _ in range(entry.count):
                word = next((w for w in left if _unit_of(state, w, entry.power) == entry.unit), None)
                if word is None:
                    break
                left.remove(word)
            else:
                continue
            break
        else:
            if not left:
                return True
    return False


def apply_placement(state: DraftState, pick: Pick) -> Outcome:
    option = pick.option
    params = option.params
    assert isinstance(params, PlacementParams)
    target = pick.target
    assert isinstance(target, Placements)
    placed = Counter[str]()
    for entry in target.units:
        placed[entry.unit] += entry.count
    if not _matches_a_set(state, option, target.units):
        power = next(iter(e.power for e in target.units), None)
        params_sets = option.params.unit_sets  # type: ignore[union-attr]
        sets = " or ".join(describe_units(Counter(_unit_of(state, w, power) or w for w in words)) for words in params_sets) if power else "its sets"
        raise Problem(
            option.quote("unit_sets"), option.source, f"the pick places {describe_units(placed) or 'nothing'}; the option gives exactly {sets}"
        ).violation(pick.label)
    facts = state.facts()
    for entry in target.units:
        problem = placement_problem(state, facts, option, pick.side, entry.power, entry.unit, entry.at)
        if problem is not None:
            raise problem.violation(pick.label)
    if "same_territory" in params.require and len({e.at for e in target.units}) > 1:
        places = ", ".join(sorted({e.at for e in target.units}))
        raise Problem(option.quote("same_territory"), option.source, f"the units go to different places: {places}").violation(pick.label)
    if "same_power" in params.require and len({e.power for e in target.units}) > 1:
        powers = ", ".join(sorted({e.power for e in target.units}))
        raise Problem(option.quote("same_power"), option.source, f"the units belong to different powers: {powers}").violation(pick.label)
    merged = Counter[tuple[str, str, str]]()
    for entry in target.units:
        merged[(entry.at, entry.power, entry.unit)] += entry.count
    changes = tuple(PlaceUnits(at, power, unit, count) for (at, power, unit), count in merged.items())
    lines = [f"{power} place {count} {unit} in {state.names.shown(at)}" for (at, power, unit), count in merged.items()]
    for at, _, unit in merged:
        if unit == state.factory:
            # Option 8's output limit: the map profile records how the game enforces it.
            how = "enforced by the game" if state.profile.factory_output_enforced_by_game else "NOT enforced by this game: tell the players"
            lines.append(
                f"the factory in {state.names.shown(at)} produces at most {state.board.node(at)['production']} units per round, the territory's IPC value ({how})"
            )
    return Outcome(changes, frozenset(e.at for e in target.units), tuple(lines))


@register
class Placement(OptionKind):
    """Units of the side's powers placed where the option's parameters allow (``place = [...]``)."""

    name = "placement"
    params = PlacementParams
    target = Placements

    def parse_target(self, section: Section, names: Names, ruleset: Ruleset) -> Placements:
        return Placements(UnitPlacement.list_from_toml(section, Placements.KEY, names))

    def choices(self, state: DraftState, option: Option, side: str, powers: list[str]) -> OptionChoices:
        params = option.params
        assert isinstance(params, PlacementParams)
        facts = state.facts()
        places = list(state.board.nodes)
        by_unit: dict[tuple[str, str], tuple[str, ...]] = {}
        nodes = state.board.nodes
        for power in powers:
            own = {_unit_of(state, w, power) for words in params.unit_sets for w in words}
            for unit in sorted(u for u in own if u is not None):
                kind = state.board.catalog.unit_type(unit)
                by_unit[(unit, power)] = tuple(
                    p for p in places if could_fit(params, nodes[p], kind, power) and placement_problem(state, facts, option, side, power, unit, p) is None
                )
        units = tuple(UnitChoice(u, p, by_unit[(u, p)]) for (u, p) in by_unit if by_unit[(u, p)])
        sets: list[SetChoice] = []
        joint = "same_territory" in params.require and "same_power" in params.require
        possible = False
        for number in range(len(params.unit_sets)):
            if joint:
                for power in powers:
                    own_set = [_unit_of(state, w, power) for w in params.unit_sets[number]]
                    if None in own_set:
                        continue  # the map gives this power none of some unit of the set
                    units_of_set = Counter(u for u in own_set if u is not None)
                    common = set(by_unit[(next(iter(units_of_set)), power)])
                    for unit in units_of_set:
                        common &= set(by_unit[(unit, power)])
                    if common:
                        sets.append(SetChoice(tuple(sorted(units_of_set.elements())), power, tuple(sorted(common))))
                        possible = True
            elif all(any(by_unit.get((_unit_of(state, w, p), p)) for p in powers) for w in params.unit_sets[number]):
                possible = True
        unavailable = None if possible else f"no power of the {side} has a legal place for these units"
        return PlacementChoices(option, unavailable=unavailable, units=units, sets=tuple(sets))

    def describe_choices(self, choices: OptionChoices) -> list[str]:
        assert isinstance(choices, PlacementChoices)
        if choices.sets:
            return [f"  {entry.power} {' + '.join(entry.units)} together on: {', '.join(entry.places)}" for entry in choices.sets]
        return [f"  {entry.power} {entry.unit} on: {', '.join(entry.places)}" for entry in choices.units]

    def picks(self, state: DraftState, choices: OptionChoices, side: str, index: int) -> Iterator[tuple[str, Pick]]:
        assert isinstance(choices, PlacementChoices)
        option = choices.option
        if choices.sets:
            for entry in choices.sets:
                counts: dict[str, int] = {}
                for unit in entry.units:
                    counts[unit] = counts.get(unit, 0) + 1
                for place in entry.places:
                    placements = tuple(UnitPlacement(entry.power, u, n, place) for u, n in counts.items())
                    yield f"{entry.power} {' + '.join(entry.units)} in {place}", Pick(index, side, option, Placements(placements))
            return
        params = option.params
        assert isinstance(params, PlacementParams)
        require = params.require
        # Where each rule-text word of the sets may go, as (power, that power's unit, place), in the choices' order.
        by_word: dict[str, list[tuple[str, str, str]]] = {}
        for words in params.unit_sets:
            for word in words:
                if word not in by_word:
                    by_word[word] = [(c.power, c.unit, place) for c in choices.units if _unit_of(state, word, c.power) == c.unit for place in c.places]
        for written in params.unit_sets:
            words = tuple(Counter(written).elements())  # a unit repeated in a set stands together, as it is counted
            if not all(by_word[w] for w in words):
                continue
            for position, word in enumerate(words):
                if word in words[:position]:
                    continue  # the same unit again: its targets were enumerated already
                for power, unit, place in by_word[word]:
                    placements = [UnitPlacement(power, unit, 1, place)]
                    for other in words[:position] + words[position + 1 :]:
                        fitting = [
                            (p, u, at)
                            for p, u, at in by_word[other]
                            if ("same_power" not in require or p == power) and ("same_territory" not in require or at == place)
                        ]
                        if not fitting:
                            break
                        # The companion goes where the target goes if it may (one place touched, so
                        # more picks share a written file), else to a place that varies with the target.
                        same = [f for f in fitting if f[2] == place]
                        companion = same[0] if same else fitting[zlib.crc32(f"{power} {place}".encode()) % len(fitting)]
                        placements.append(UnitPlacement(companion[0], companion[1], 1, companion[2]))
                    else:
                        shown = " + ".join(_unit_of(state, w, power) or w for w in words)
                        yield f"{power} {unit} in {place} (with {shown})", Pick(index, side, option, Placements(tuple(placements)))

    def apply(self, state: DraftState, pick: Pick) -> Outcome:
        return apply_placement(state, pick)

"""The placement option (000 options 1, 2, 4-9 and their classic twins): units of the side's powers placed where the option allows."""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Iterator
from typing import Any, ClassVar

import attrs

from kremlin_triplea.draft.choices import OptionChoices
from kremlin_triplea.draft.form import Answer, Answers, Field, Form, Unanswered, answered, answers_of, place_answers
from kremlin_triplea.draft.kinds.base import OptionKind, register
from kremlin_triplea.draft.picks import Pick, PickTarget, UnitPlacement
from kremlin_triplea.draft.state import DraftState, Facts, Outcome, Problem, describe_units
from kremlin_triplea.errors import KremlinError, UnknownNameError, possessive
from kremlin_triplea.model.changes import PlaceUnits
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.options import OptionParams
from kremlin_triplea.rules.ruleset import Option, Ruleset
from kremlin_triplea.rules.tomlfile import Section

# The places a placement option may name (the code for each: _refusal below), and the checks it may
# require (placement_problem and _requirement_problem).
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
    # Each place and check quotes its own words (placement_problem, _requirement_problem), as do the unit sets
    # and the exceptions.
    QUOTES: ClassVar[frozenset[str]] = frozenset({"unit_sets", "exclude", *PLACEMENT_PLACES, *PLACEMENT_CHECKS})

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
        # The kinds of place and the checks in words (the ruleset file's own names are own_territory, same_power...).
        at, checks = (" or ".join(a.replace("_", " ") for a in self.at), ", ".join(r.replace("_", " ") for r in self.require))
        lines = [f"units: {sets}; where: {at}" + (f"; checks: {checks}" if checks else "")]
        return lines + [f"except: no {power} {unit} in {place}" for power, unit, place in self.exclude]

    def without_names(self, missing: Any) -> tuple[PlacementParams, str]:
        # An exception only narrows what is allowed: it is kept whole, an unmatched name standing for every name of
        # its kind the profile gives no rule-text name (placement_problem), so a missing name never allows more. A
        # name is missing only as the kind it is used as (its power, unit, place).
        widened = []
        for power, unit, place in self.exclude:
            lacking = [n for n, kind in ((power, missing.powers), (unit, missing.units), (place, missing.places)) if n.lower() in kind]
            if lacking:
                widened.append(
                    f"no {power} {unit} in {place}: this map names no {' or '.join(lacking)}, "
                    "so the exception holds for every player, unit or place the rules do not name"
                )
        return self, "; ".join(widened)

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
    restriction = state.restrictions.get(power)
    if restriction is not None and restriction.placements_only_on_own_territory and (data["water"] or data["owner"] != power):
        why = f"{power} units may only be placed on territory {power} controls"
        return Problem(restriction.rule, restriction.source, f"{power} {unit} in {state.names.shown(place)}: {why}")
    if not fits(params, facts, place, data, kind, power):
        # Report the reasons that concern this kind of place first (a sea zone's for a sea zone).
        reasons = _misfits(params, facts, state.names.shown(place), place, data, kind, power, unit)
        relevant = [r for r in reasons if (r[0] == "own_territory") != data["water"]] or reasons
        key = relevant[0][0] if relevant else params.at[0]
        why = "; ".join(dict.fromkeys(r[1] for r in relevant)) or f"{state.names.shown(place)} is not a place for a {unit}"
        return Problem(option.quote(key), option.source, f"{power} {unit} in {state.names.shown(place)}: {why}")
    # No game starts with enemies in one territory (model/invariants.py): 1941 Global Command Decision begins with German
    # armies inside Soviet Brest, Estonia and Grodno, the Soviets' own territories, where no Soviet unit can be put. (At
    # sea the options say it themselves, "not in the same sea zone with enemy units", and are quoted.) Asked after the
    # option's own places, so a refusal says the rule's words first ("Russia is owned by Russians").
    enemies = sorted({who for (who, _), n in board.units(place).items() if n and who is not None and not board.catalog.allied(power, who)})
    if enemies and not data["water"]:
        why = f"units of {', '.join(enemies)}, at war with {power}, stand there"
        return Problem(option.quote(params.at[0]), option.source, f"{power} {unit} in {state.names.shown(place)}: {why}")
    for excluded_power, excluded_unit, excluded_place in params.exclude:
        # A name of the exception the map profile leaves [unmatched] may be any the profile gives no rule-text name:
        # the exception holds for all of them rather than for none (issue 46).
        rule = f"{possessive(option.label)} exception"
        if power not in state.players_for(excluded_power, rule) or place not in state.places_for(excluded_place, rule):
            continue
        # its own unit for the word (issue 28), as the pick's entry is read; any unit where the map has none for it
        excluded_unit_here = _unit_of(state, excluded_unit, power)
        if excluded_unit_here == unit or (excluded_unit_here is None and excluded_unit.strip().lower() in {k.lower() for k in state.profile.unmatched}):
            return Problem(option.quote("exclude"), option.source, f"{power} {unit} in {state.names.shown(place)}: excepted by the option")
    problem = _requirement_problem(state, facts, option, power, unit, place)
    if problem is not None:
        return problem
    return state.lock_problem(side, place)


def fits(params: PlacementParams, facts: Facts, place: str, data: dict, kind, power: str) -> bool:  # noqa: ANN001 - model.board's unit type
    """Whether one of the option's kinds of place (``at``) takes one ``kind`` of unit of ``power`` at ``place``.

    The legal choices ask it of every place before the whole check (:func:`placement_problem`, which asks it too);
    :func:`_misfits` says why not when it does not.
    """
    for alternative in params.at:  # a loop, not any() over a generator: asked of every place on the map
        if _refusal(alternative, facts, place, data, kind, power) is None:
            return True
    return False


def _refusal(alternative: str, facts: Facts, place: str, data: dict, kind, power: str) -> str | None:  # noqa: ANN001
    """Why the kind of place ``alternative`` does not take one ``kind`` of unit of ``power`` at ``place``: a key of
    :func:`_refusal_text` ("" when the alternative is not about such a unit at all), or None when it takes it.

    Only the key is made here: the legal choices ask this of every place, and most places refuse."""
    if alternative == "own_territory":
        if data["water"]:
            return "a sea zone"
        if kind.is_ship:
            return "a ship on land"
        if data["owner"] != power:
            return "not the power's"
        return "impassable" if data["impassable"] else None
    if alternative == "friendly_carrier_with_room":
        if not data["water"] or kind.domain != "air" or not kind.carrier_cost:
            return ""
        capacity, used = facts.carrier_room(place, power)
        if capacity == 0:
            return "no carrier"
        return "no room on the carriers" if capacity - used < kind.carrier_cost else None
    # The sea-zone alternatives.
    if not data["water"]:
        return "not a sea zone"
    if not kind.is_ship:
        return "not naval"
    if alternative == "sea_zone_adjacent_to_own_territory_or_with_friendly_ships":
        return None if place in facts.owned_sea(power) or place in facts.friendly_ship_zones(power) else "neither beside the power nor friendly ships"
    return None if place in facts.friendly_sea(power) else "not friendly"


def _misfits(params: PlacementParams, facts: Facts, shown: str, place: str, data: dict, kind, power: str, unit: str) -> list[tuple[str, str]]:  # noqa: ANN001
    """(alternative, why it does not take the unit) for each of the option's kinds of place that :func:`fits` refused."""
    refusals = [(alternative, _refusal(alternative, facts, place, data, kind, power)) for alternative in params.at]
    return [(alternative, _refusal_text(key, facts, shown, place, data, kind, power, unit)) for alternative, key in refusals if key]


def _refusal_text(key: str, facts: Facts, shown: str, place: str, data: dict, kind, power: str, unit: str) -> str:  # noqa: ANN001
    """The words for a :func:`_refusal` key."""
    if key == "no room on the carriers":
        capacity, used = facts.carrier_room(place, power)
        return f"the friendly carriers in {shown} have no room left ({used} of {capacity} taken)"
    return {
        "a sea zone": f"{shown} is a sea zone",
        "a ship on land": f"a {unit} cannot be placed on land",
        "not the power's": f"{shown} is owned by {data['owner'] or 'nobody'}, not {power}",
        # Saudi Arabia is British in the game files but a neutral in the rules: no unit may be there.
        "impassable": f"{shown} is impassable: a neutral in the rules (option 3 takes neutrals), not {power} territory",
        "no carrier": f"{shown} has no friendly carrier",
        "not a sea zone": f"{shown} is not a sea zone",
        "not naval": f"a {unit} is not a naval unit",
        "neither beside the power nor friendly ships": f"{shown} is neither adjacent to a territory {power} owns nor holds friendly naval units",
        "not friendly": f"{shown} is not a friendly sea zone (beside a territory of {power} or an ally, or holding allied naval units)",
    }[key]


def _requirement_problem(state: DraftState, facts: Facts, option: Option, power: str, unit: str, place: str) -> Problem | None:
    """Which of the option's ``require`` checks one unit at ``place`` breaks (None: none)."""
    params = option.params
    assert isinstance(params, PlacementParams)
    board, data, shown = state.board, state.board.node(place), state.names.shown(place)
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
            if any(u in state.factories and n for (_, u), n in data["units"].items()):
                return Problem(
                    option.quote(check), option.source, f"{power} {unit} in {shown}: {shown} already has a factory (the game allows one per territory)"
                )
    return None


def unit_sets(state: DraftState, option: Option, power: str | None = None) -> list[Counter[str]]:
    """The option's unit sets as game unit types: ``power``'s own where the map profile gives it its own
    (``[units_by_power]``, issue 28: a German armor is the Germans' tank, not another power's); the sets
    ``power`` can have whole (:meth:`Names.own_unit`)."""
    params = option.params
    assert isinstance(params, PlacementParams)
    if power is None:
        return [Counter(state.names.unit(u) for u in units) for units in params.unit_sets]
    own = [[_unit_of(state, u, power) for u in units] for units in params.unit_sets]
    return [Counter(u for u in units if u is not None) for units in own if None not in units]


def _unit_of(state: DraftState, word: str, power: str) -> str | None:
    """``power``'s unit for a rule-text word, or None where the map has none it can place (Names.own_unit)."""
    try:
        return state.names.own_unit(word, power)
    except UnknownNameError:
        return None


def _why_unavailable(state: DraftState, params: PlacementParams, side: str, powers: list[str]) -> str:
    """Why no unit set of the option can be placed: a unit every set needs that no power of the side has on this map
    (its reason, e.g. the map profile leaves it unmatched), else that no place takes them."""
    lacking: list[str] = []
    for words in params.unit_sets:
        gone = [w for w in dict.fromkeys(words) if all(_unit_of(state, w, p) is None for p in powers)]
        if not gone:
            return f"no power of the {side} has a legal place for these units"
        lacking += [w for w in gone if w not in lacking]
    why = next((reason for p in powers for w in lacking if (reason := _no_unit_reason(state, w, p)) is not None), None)
    return f"no power of the {side} has a {' or '.join(lacking)} on this map" + (f" ({why})" if why else "")


def _no_unit_reason(state: DraftState, word: str, power: str) -> str | None:
    try:
        return state.names.why_no_unit(word, power)
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
        if unit in state.factories:
            # Option 8's output limit: the map profile records how the game enforces it.
            how = "enforced by the game" if state.profile.factory_output_enforced_by_game else "NOT enforced by this game: tell the players"
            lines.append(
                f"the factory in {state.names.shown(at)} produces at most {state.board.node(at)['production']} units per round, the territory's IPC value ({how})"
            )
    return Outcome(changes, frozenset(e.at for e in target.units), tuple(lines))


def placement_form(state: DraftState, choices: PlacementChoices, side: str) -> Form:
    """One row per unit of the option's largest set (power, unit, place; ``count`` when a row holds several).

    The room shows every row with every power, unit and place the option allows now, each row's unit the
    set's own by default (artillery, then tank); the terminal first asks which set where there are several,
    then for each unit of it which power (where several may) and where, narrowed by the earlier answers
    (one power or one place for all where the option says so).
    """
    option = choices.option
    params = option.params
    assert isinstance(params, PlacementParams)
    names = state.names
    combos = [(u.power, u.unit, u.places) for u in choices.units] or [(s.power, u, s.places) for s in choices.sets for u in s.units]
    powers = list(dict.fromkeys(p for p, _, _ in combos))
    units = list(dict.fromkeys(u for _, u, _ in combos))
    places = sorted({p for _, _, places in combos for p in places})
    largest = max(params.unit_sets, key=len)
    defaults = []
    for n, word in enumerate(largest):
        try:
            named = names.unit(word)
        except KremlinError:
            named = units[n % len(units)]
        defaults.append(named if named in units else units[n % len(units)])
    ask = _SetAsked(state, choices, side) if choices.sets else _UnitsAsked(state, choices, side)
    fields = [ask.units_field()]
    for n, unit in enumerate(defaults):
        group = f"Unit {n + 1}"
        fields += [
            Field(f"power.{n}", "", answers_of(powers), group=group, narrowed=lambda answers, n=n: ask.power_field(answers, n)),
            Field(f"unit.{n}", "", answers_of(units), default=unit, group=group, narrowed=lambda answers, n=n: ask.unit_field(answers, n)),
            Field(f"at.{n}", "at", tuple(Answer(p, (p,)) for p in places), place=True, group=group, narrowed=lambda answers, n=n: ask.place_field(answers, n)),
            Field(f"count.{n}", "count", (), default="1", terminal=False, page=False, number=(1, 100)),
        ]

    def read(answers: Answers) -> list[dict[str, Any]]:
        counted = Counter[tuple[str, str, str]]()
        for n in range(len(defaults)):
            at = answers.get(f"at.{n}", "")
            if at:  # a row without a place is left blank on purpose
                counted[(answered(answers, f"power.{n}"), answered(answers, f"unit.{n}"), at)] += int(answers.get(f"count.{n}", "1"))
        if not counted:
            raise Unanswered("choose where the units go")
        return [{"power": p, "unit": u, "count": c, "at": at} for (p, u, at), c in counted.items()]

    notes = ("Sets the rules allow: " + "; ".join(" + ".join(s) for s in params.unit_sets),)
    return Form(tuple(fields), read, notes=notes)


class _SetAsked:
    """The terminal's questions for an option whose set goes to one place for one power: which set, then where."""

    def __init__(self, state: DraftState, choices: PlacementChoices, side: str) -> None:
        self.state, self.choices, self.side = state, choices, side

    def chosen(self, answers: Answers) -> SetChoice:
        return self.choices.sets[int(answers["set"])]

    def units_field(self) -> Field:
        sets = self.choices.sets
        names = self.state.names

        def by_power(name: str) -> str:  # "Germany": the Germans' set
            found = [str(n) for n, s in enumerate(sets) if s.power == names.power(name)]
            if len(found) != 1:
                raise UnknownNameError("unit set", name, [])
            return found[0]

        def said(answers: Answers) -> list[str]:
            entry = self.chosen(answers)
            return [f"{entry.power}: {' + '.join(entry.units)}, all in one place"]

        named = tuple(Answer(str(n), (f"{s.power} {' + '.join(s.units)}",)) for n, s in enumerate(sets))
        return Field("set", "units", named, alone="", resolve=by_power, then=said, page=False)

    def power_field(self, answers: Answers, n: int) -> Field | None:
        entry = self.chosen(answers)
        return Field(f"power.{n}", "power", answers_of([entry.power]), alone="") if n < len(entry.units) else None

    def unit_field(self, answers: Answers, n: int) -> Field | None:
        entry = self.chosen(answers)
        return Field(f"unit.{n}", "unit", answers_of([entry.units[n]]), alone="") if n < len(entry.units) else None

    def place_field(self, answers: Answers, n: int) -> Field | None:
        entry = self.chosen(answers)
        if n >= len(entry.units):
            return None
        if n:  # the set goes to one place
            return Field(f"at.{n}", "where", answers_of([answers["at.0"]]), alone="")
        state, option = self.state, self.choices.option

        def set_problem(place: str) -> Problem | None:
            facts = state.facts()
            found = (placement_problem(state, facts, option, self.side, entry.power, state.names.unit(u), place) for u in entry.units)
            return next((p for p in found if p is not None), None)

        return Field(
            "at.0", "where", place_answers(state, entry.places), place=True, listed=len(entry.places) <= 30, resolve=state.names.place, refuse=set_problem
        )


class _UnitsAsked:
    """The terminal's questions for an option whose units go one by one: which set, then each unit's power and place."""

    def __init__(self, state: DraftState, choices: PlacementChoices, side: str) -> None:
        self.state, self.choices, self.side = state, choices, side
        params = choices.option.params
        assert isinstance(params, PlacementParams)
        # By the rule text's word, not a unit type: on a map with per-power types (Total World War) the word is
        # each power's own type (germanInfantry, russianInfantry), so a set is asked in words and each unit's type
        # follows from the power that places it.
        words = {w for unit_set in params.unit_sets for w in unit_set}
        self.by_unit: dict[str, list[UnitChoice]] = {}
        for unit_choice in choices.units:
            for word in sorted(w for w in words if _unit_of(state, w, unit_choice.power) == unit_choice.unit):
                self.by_unit.setdefault(word, []).append(unit_choice)
        sets = [Counter(unit_set) for unit_set in params.unit_sets]
        self.sets = [s for s in sets if all(w in self.by_unit for w in s)]
        # A word is shown as the map names its unit where that is one type for every power ("armour"), else as a word.
        self.shown = {w: (found.pop() if len(found := {o.unit for o in ours}) == 1 else w) for w, ours in self.by_unit.items()}
        self.word_of = {shown: word for word, shown in self.shown.items()}
        self.same_place = "same_territory" in params.require
        self.same_power = "same_power" in params.require

    def units_field(self) -> Field:
        named = answers_of([" + ".join(sorted(self.shown[w] for w in s.elements())) for s in self.sets])
        # "aircraft carrier": the set of the carrier alone
        return Field("set", "units", named, alone="", resolve=self._word, page=False)

    def _word(self, answer: str) -> str:
        """A unit typed as the map names it (``germanInfantry``, ``armour``) as the rule text's word for it."""
        typed = self.state.names.unit(answer)
        return next((self.shown[w] for w, found in self.by_unit.items() if any(o.unit == typed for o in found)), typed)

    def _type(self, answers: Answers, n: int) -> str:
        """The unit type the ``n``-th word is for the power answered for it."""
        word = self.units(answers)[n]
        return next(o.unit for o in self.by_unit[word] if o.power == answers[f"power.{n}"])

    def units(self, answers: Answers) -> list[str]:
        """The chosen set's rule-text words."""
        return [self.word_of.get(shown, shown) for shown in answers["set"].split(" + ")]

    def options(self, answers: Answers, n: int) -> list[UnitChoice]:
        """Who may place the set's ``n``-th unit, and where, after the earlier units' answers."""
        units = self.units(answers)
        placed = [(answers[f"power.{k}"], answers[f"at.{k}"]) for k in range(n)]
        options = self.by_unit[units[n]]
        if self.same_power and placed:
            options = [o for o in options if o.power == placed[0][0]]
        if self.same_place and placed:
            options = [attrs.evolve(o, places=tuple(p for p in o.places if p == placed[0][1])) for o in options]
        if (self.same_power or self.same_place) and not placed:
            later = units[n + 1 :]

            def leaves_room(power: str, place: str) -> bool:
                # With one power or one place for all, the first unit's answer must suit every later unit.
                return all(
                    any((not self.same_power or o.power == power) and (not self.same_place or place in o.places) for o in self.by_unit[other])
                    for other in later
                )

            options = [attrs.evolve(o, places=tuple(p for p in o.places if leaves_room(o.power, p))) for o in options]
        return [o for o in options if o.places]

    def power_field(self, answers: Answers, n: int) -> Field | None:
        units = self.units(answers)
        if n >= len(units):
            return None
        unit = self.shown[units[n]]
        powers = [o.power for o in self.options(answers, n)]
        intro = (f"unit {n + 1} of {len(units)}: one {unit}",)
        return Field(f"power.{n}", f"{unit} for which power", answers_of(powers), alone="", intro=intro, resolve=self.state.names.power)

    def unit_field(self, answers: Answers, n: int) -> Field | None:
        units = self.units(answers)
        return Field(f"unit.{n}", "unit", answers_of([self._type(answers, n)]), alone="") if n < len(units) else None

    def place_field(self, answers: Answers, n: int) -> Field | None:
        units = self.units(answers)
        if n >= len(units):
            return None
        state, option, unit, power = self.state, self.choices.option, self._type(answers, n), answers[f"power.{n}"]
        places = next(o.places for o in self.options(answers, n) if o.power == power)
        previous = next((answers[f"at.{k}"] for k in reversed(range(n)) if units[k] == units[n] and answers[f"at.{k}"] in places), None)
        return Field(
            f"at.{n}",
            f"{power} {unit} where",
            place_answers(state, places),
            default=previous,
            place=True,
            listed=len(places) <= 30,
            resolve=state.names.place,
            refuse=lambda at: placement_problem(state, state.facts(), option, self.side, power, unit, at),
        )


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
        # fits reads of a unit type only whether it is a ship, flies and needs carrier room: units alike there share the
        # places it takes (a power's infantry, artillery and armour), asked once.
        fitting: dict[tuple, list[str]] = {}
        for power in powers:
            own = {_unit_of(state, w, power) for words in params.unit_sets for w in words}
            for unit in sorted(u for u in own if u is not None):
                kind = state.board.catalog.unit_type(unit)
                alike = (power, kind.is_ship, kind.domain == "air", kind.carrier_cost)
                if alike not in fitting:
                    fitting[alike] = [p for p in places if fits(params, facts, p, nodes[p], kind, power)]
                by_unit[(unit, power)] = tuple(p for p in fitting[alike] if placement_problem(state, facts, option, side, power, unit, p) is None)
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
        unavailable = None if possible else _why_unavailable(state, params, side, powers)
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
        allied = state.board.catalog.allied
        # Where each rule-text word of the sets may go, as (power, that power's unit, place), in the choices' order.
        by_word: dict[str, list[tuple[str, str, str]]] = {}
        for words in params.unit_sets:
            for word in words:
                if word not in by_word:
                    by_word[word] = [(c.power, c.unit, place) for c in choices.units if _unit_of(state, word, c.power) == c.unit for place in c.places]
        # The same targets by place, in the same order: a companion that may stand with the target is found there
        # without walking every target of the map (on a big map that walk, target by target, was most of the listing).
        by_word_place: dict[str, dict[str, list[tuple[str, str, str]]]] = {}
        for word, targets in by_word.items():
            for target in targets:
                by_word_place.setdefault(word, {}).setdefault(target[2], []).append(target)
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
                        # The companion goes where the target goes if it may (one place touched, so more picks share
                        # a written file), else to a place that varies with the target. Never beside the target a
                        # power at war with its own (Total World War's Germany and Italy are both Axis, each its own
                        # alliance): a board no game starts from (draft/invariants.py).
                        same = [
                            (p, u, at)
                            for p, u, at in by_word_place.get(other, {}).get(place, ())
                            if ("same_power" not in require or p == power) and allied(p, power)
                        ]
                        if same:
                            companion = same[0]
                        else:
                            fitting = [
                                (p, u, at)
                                for p, u, at in by_word[other]
                                if ("same_power" not in require or p == power) and ("same_territory" not in require or at == place) and at != place
                            ]
                            if not fitting:
                                break
                            companion = fitting[zlib.crc32(f"{power} {place}".encode()) % len(fitting)]
                        placements.append(UnitPlacement(companion[0], companion[1], 1, companion[2]))
                    else:
                        shown = " + ".join(_unit_of(state, w, power) or w for w in words)
                        yield f"{power} {unit} in {place} (with {shown})", Pick(index, side, option, Placements(tuple(placements)))

    def apply(self, state: DraftState, pick: Pick) -> Outcome:
        return apply_placement(state, pick)

    def form(self, state: DraftState, choices: OptionChoices, side: str, index: int) -> Form:
        assert isinstance(choices, PlacementChoices)
        return placement_form(state, choices, side)

"""The territory-takeover option (000 option 10): an enemy territory taken; its defenders retreat where their side declares after the bid."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import attrs

from kremlin_triplea.draft.choices import OptionChoices
from kremlin_triplea.draft.form import Answers, Field, Form, answered, answers_of, place_answers
from kremlin_triplea.draft.kinds.base import DisplacedWords, OptionKind, register
from kremlin_triplea.draft.picks import Pick, PickTarget, refuse_repeats
from kremlin_triplea.draft.state import Displaced, DraftState, Outcome, Problem, describe_pairs
from kremlin_triplea.errors import KremlinError
from kremlin_triplea.model.board import Board
from kremlin_triplea.model.changes import Change, PlaceUnits, RemoveUnits, SetOwner
from kremlin_triplea.model.queries import Nearest, nearest
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.options import OptionParams
from kremlin_triplea.rules.ruleset import Option, Ruleset
from kremlin_triplea.rules.tomlfile import Section


@attrs.frozen
class TerritoryTakeoverParams(OptionParams):
    """An enemy territory taken over (000 option 10)."""

    KIND: ClassVar[str] = "territory_takeover"
    KEYS: ClassVar[tuple[str, ...]] = ("units", "forbidden_units")
    QUOTES: ClassVar[frozenset[str]] = frozenset({"enemy_held", "units", "forbidden_units", "retreat"})

    units: tuple[tuple[str, int], ...]  # placed for the taking power
    forbidden_units: tuple[str, ...]  # a territory holding one of these may not be taken

    @classmethod
    def from_toml(cls, section: Section) -> TerritoryTakeoverParams:
        return cls(units=tuple(section.counts("units").items()), forbidden_units=tuple(section.texts("forbidden_units", [])))

    def describe(self, ruleset: Any) -> list[str]:
        units = ", ".join(f"{n} {u}" for u, n in self.units)
        return [f"places {units}; not where there is a {', '.join(self.forbidden_units)}"]

    def rule_names(self, ruleset: Any) -> Iterator[tuple[str, str]]:
        for unit, _ in self.units:
            yield "units", unit
        for unit in self.forbidden_units:
            yield "units", unit


@attrs.frozen
class Retreat:
    to: str
    power: str | None = None  # None: any owner
    unit: str | None = None  # None: any unit type

    @property
    def specific(self) -> bool:
        return self.power is not None or self.unit is not None

    def to_toml(self) -> dict[str, Any]:
        return {"to": self.to} | ({"power": self.power} if self.power else {}) | ({"unit": self.unit} if self.unit else {})


def _retreat_group(key: tuple[str | None, str | None]) -> str:
    power, unit = key
    if power is None and unit is None:
        return "a retreat for every unit"
    return f"a retreat for {' '.join(x for x in (power, unit) if x)}" + ("" if unit else " units")


@attrs.frozen
class TakeoverSpec(PickTarget):
    """What a territory takeover pick names: ``takeover = { territory, by, retreat = [{ to, power, unit }, ...] }``."""

    KEY: ClassVar[str] = "takeover"

    territory: str
    by: str
    retreats: tuple[Retreat, ...] = ()

    @classmethod
    def from_toml(cls, section: Section, key: str, names: Names) -> TakeoverSpec:
        """``takeover = { territory, by, retreat = [{ to, power, unit }, ...] }``."""
        spec = section.table(key)
        spec.only("territory", "by", "retreat")
        at = f"{spec.where}: {spec.key}"
        retreats = []
        entries = spec.tables("retreat", [])
        for entry in entries:
            entry.only("to", "power", "unit")
            here = f"{entry.where}: {entry.key}"
            power, unit = entry.text("power", None), entry.text("unit", None)
            retreats.append(
                Retreat(
                    names.territory(entry.text("to"), where=here),
                    names.power(power, where=here) if power else None,
                    names.unit(unit, where=here) if unit else None,
                )
            )
        # One destination per group of units: a second entry for the same owner and unit type was never used.
        refuse_repeats(entries, [(r.power, r.unit) for r in retreats], _retreat_group, "give each group of units one destination")
        return cls(names.territory(spec.text("territory"), where=at), names.power(spec.text("by"), where=at), tuple(retreats))

    def to_toml(self) -> dict[str, Any]:
        data: dict[str, Any] = {"territory": self.territory, "by": self.by}
        if self.retreats:
            data["retreat"] = [r.to_toml() for r in self.retreats]
        return data


@attrs.frozen
class RetreatChoice:
    owner: str
    unit: str
    count: int
    destinations: tuple[str, ...]  # () means the units cannot retreat and are removed


@attrs.frozen
class TakeoverChoice:
    territory: str
    power: str
    retreats: tuple[RetreatChoice, ...]  # where its defenders could retreat now (declared after the bid)


@attrs.frozen
class TakeoverChoices(OptionChoices):
    takeovers: tuple[TakeoverChoice, ...] = ()


def takeover_problem(state: DraftState, option: Option, side: str, territory: str, power: str) -> Problem | None:
    """Why ``power`` may not take ``territory`` over (None: it may)."""
    params = option.params
    assert isinstance(params, TerritoryTakeoverParams)
    problem = state.power_problem(option, side, power)
    if problem is not None:
        return problem
    board = state.board
    data = board.node(territory)
    shown = state.names.shown(territory)
    owner = data["owner"]
    if data["water"]:
        return Problem(option.quote("enemy_held"), option.source, f"{shown} is a sea zone")
    if data["impassable"]:
        return Problem(option.quote("enemy_held"), option.source, f"{shown} is impassable: a neutral (option 3) or terrain, not enemy held")
    if owner is None or board.catalog.allied(power, owner):
        return Problem(option.quote("enemy_held"), option.source, f"{shown} is held by {owner or 'nobody'}, not by an enemy of {power}")
    # "Enemy held" is held by the other side: a player of neither side (a map's neutral player, of alliance None or
    # its own, at war with nobody) is not an enemy whatever its alliance (issue 46: its 79 territories, capitals
    # included, were offered).
    owner_side = state.side_of.get(owner)
    if owner_side is None or owner_side == side:
        sides = " nor the ".join(state.side_powers)
        return Problem(option.quote("enemy_held"), option.source, f"{shown} is held by {owner}, a power of neither the {sides}: not enemy held")
    restriction = state.restrictions.get(power)
    if restriction is not None and restriction.takeover_only_where_may_enter and territory not in state.may_enter.get(power, frozenset()):
        return Problem(
            restriction.rule, restriction.source, f"{power} may not enter {shown} (it may enter {', '.join(sorted(state.may_enter.get(power, ())))})"
        )
    # The taker places the option's units (its own types, issue 28): a power that can have none of one may not take.
    problem = state.units_problem(option.quote("units"), option.source, power, (word for word, _ in params.units))
    if problem is not None:
        return problem
    forbidden = {unit for word in params.forbidden_units for unit in state.names.units_of_any_power(word)}
    present = sorted({u for (_, u), n in data["units"].items() if n and u in forbidden})
    if present:
        return Problem(option.quote("forbidden_units"), option.source, f"{shown} contains a {', '.join(present)}")
    # A capital in its enemy's hands is a board no game starts from (model/invariants.py): the kind's own targets
    # never list one (World_At_War's Suriname, the Dutch capital, was listed and then refused).
    capital = data["capital"]
    if capital is not None and not board.catalog.allied(capital, power):
        return Problem(option.quote("enemy_held"), option.source, f"{shown} is the capital of {capital}: no game starts with a capital in its enemy's hands")
    return state.lock_problem(side, territory)


def retreat_destinations(state: DraftState, territory: str, owner: str, unit: str) -> Nearest:
    """The nearest territories held by ``owner``'s side ("retreat any enemy forces to the nearest enemy territory").

    Air units fly over anything passable. Land units go over land; where no territory of their side can be reached
    over land (island garrisons: Wake, Hawaii, the Philippines), they go by sea to the nearest one, counting the sea
    zones crossed (docs/kremlin-draft.md, "Retreats"). A power whose movement the ruleset restricts (000 D(5): China)
    retreats only into, and only across, the territories it may enter.
    """
    board = state.board
    catalog = board.catalog
    allowed = state.may_enter.get(owner)

    def theirs(place: str) -> bool:
        data = board.nodes[place]
        if data["water"] or data["impassable"] or data["owner"] is None or not catalog.allied(owner, data["owner"]):
            return False
        # Not a territory of their side that their enemies already stand in (1941 Global Command Decision starts with
        # Axis armies inside Soviet Kherson): the retreat would leave a board no game starts from (model/invariants.py).
        if any(n and who is not None and not catalog.allied(owner, who) for (who, _), n in board.units(place).items()):
            return False
        return allowed is None or place in allowed

    def passable(place: str) -> bool:
        data = board.nodes[place]
        return not data["impassable"] and (allowed is None or data["water"] or place in allowed)

    if catalog.unit_type(unit).domain == "air":
        return nearest(board, territory, theirs, via="any", passable=passable)
    over_land = nearest(board, territory, theirs, via="land", passable=passable)
    if over_land.matches or allowed is not None:
        return over_land
    return nearest(board, territory, theirs, via="any", passable=passable)


def retreating_groups(state: DraftState, territory: str, power: str) -> list[tuple[str, str, int]]:
    """(owner, unit, count) of the units of enemies of ``power`` in ``territory`` that can move, so retreat."""
    catalog = state.board.catalog
    return sorted(
        (owner, unit, count)
        for (owner, unit), count in state.board.units(territory).items()
        if count and owner is not None and not catalog.allied(power, owner) and not _structure(catalog.unit_type(unit))
    )


def captured_structures(state: DraftState, territory: str, power: str) -> list[tuple[str, str, int]]:
    """(owner, unit, count) of enemy structures in ``territory``: they cannot move, and TripleA captures them."""
    catalog = state.board.catalog
    return sorted(
        (owner, unit, count)
        for (owner, unit), count in state.board.units(territory).items()
        if count and owner is not None and not catalog.allied(power, owner) and _structure(catalog.unit_type(unit))
    )


def _structure(kind) -> bool:
    # A harbour or an airfield (infrastructure with no movement) cannot retreat; an AA gun moves, and retreats.
    return kind.infrastructure and kind.movement == 0


def new_owner_after_takeover(board: Board, territory: str, power: str) -> str:
    """TripleA's capture rule: a territory whose original owner is an ally of the taker is liberated to it."""
    original = board.node(territory)["original_owner"]
    if original is not None and original != power and board.catalog.allied(power, original):
        return original
    return power


def apply_territory_takeover(state: DraftState, pick: Pick) -> Outcome:
    """Take the territory; its defenders leave it now, and where they retreat is declared after the bid (000 A)."""
    option = pick.option
    params = option.params
    assert isinstance(params, TerritoryTakeoverParams)
    spec = pick.target
    assert isinstance(spec, TakeoverSpec)
    problem = takeover_problem(state, option, pick.side, spec.territory, spec.by)
    if problem is not None:
        raise problem.violation(pick.label)
    board = state.board
    changes: list[Change] = []
    lines: list[str] = []
    displaced: list[Displaced] = []
    shown = state.names.shown(spec.territory)
    groups = retreating_groups(state, spec.territory, spec.by)
    for retreat in spec.retreats:
        # A retreat the draft declares for units that are not there is a mistake in the file, whatever the board later.
        if retreat.specific and not any(retreat.power in (None, owner) and retreat.unit in (None, unit) for owner, unit, _ in groups):
            what = " ".join(x for x in (retreat.power, retreat.unit) if x)
            raise Problem(option.quote("retreat"), option.source, f"the retreat for {what} to {retreat.to} matches no retreating units in {shown}").violation(
                pick.label
            )
    for owner, unit, count in groups:
        changes.append(RemoveUnits(spec.territory, owner, unit, count))
        displaced.append(
            Displaced(
                pick.index, pick.label, "retreat", spec.territory, owner, unit, count, state.side_of.get(owner, owner), option.quote("retreat"), option.source
            )
        )
    owner = new_owner_after_takeover(board, spec.territory, spec.by)
    for structure_owner, unit, count in captured_structures(state, spec.territory, spec.by):
        # "retreat any enemy forces": a structure cannot move; the territory's new owner takes it, as TripleA does.
        changes += [RemoveUnits(spec.territory, structure_owner, unit, count), PlaceUnits(spec.territory, owner, unit, count)]
        lines.append(f"{owner} capture {count} {structure_owner} {unit} in {shown} (it cannot move, so it cannot retreat)")
    changes.append(SetOwner(spec.territory, owner, captured=True))
    placed = state.own_units(params.units, spec.by)  # the taker's own (issue 28), checked by takeover_problem
    changes += [PlaceUnits(spec.territory, spec.by, u, n) for u, n in placed]
    held = f"{owner} (liberated: its original owner)" if owner != spec.by else spec.by
    lines.insert(
        0,
        f"{spec.by} take over {shown} (was {board.owner(spec.territory)}); it now belongs to {held}, original owner {board.node(spec.territory)['original_owner']}; {spec.by} place {describe_pairs(placed)}",
    )
    return Outcome(tuple(changes), frozenset({spec.territory}), tuple(lines), displaced=tuple(displaced))


def declared_retreat(spec: TakeoverSpec, owner: str, unit: str) -> str | None:
    """Where the draft file's ``retreat = [...]`` sends ``owner``'s ``unit`` (the most specific entry wins), if it says."""
    specific = [r for r in spec.retreats if r.specific and r.power in (None, owner) and r.unit in (None, unit)]
    specific.sort(key=lambda r: (r.power is None) + (r.unit is None))
    general = [r for r in spec.retreats if not r.specific]
    chosen = specific[0] if specific else general[0] if general else None
    return chosen.to if chosen is not None else None


def takeover_form(state: DraftState, choices: TakeoverChoices, side: str) -> Form:
    """The territory and the power that takes it; where its defenders retreat is declared after the bid (000 A), so the
    form only tells where they could go now."""
    option = choices.option
    names = state.names
    territories = sorted({t.territory for t in choices.takeovers})
    powers = list(dict.fromkeys(t.power for t in choices.takeovers))

    def retreats(answers: Answers) -> list[str]:
        try:  # the room's typed names, as the draft file reads them
            wanted = (names.place(answers.get("territory", "")), names.power(answers.get("by", "")))
        except KremlinError:
            return []
        takeover = next((t for t in choices.takeovers if (t.territory, t.power) == wanted), None)
        lines = []
        for r in takeover.retreats if takeover is not None else ():
            now = ", ".join(r.destinations) or "nowhere (they would be removed)"
            side = state.side_of.get(r.owner, r.owner)
            lines.append(f"{r.count} {r.owner} {r.unit} leave {takeover.territory}: the {side} declare where they retreat after the bid (now: {now})")
        return lines

    def territory_asked(answers: Answers) -> Field:
        def refused(place: str) -> Problem | None:
            found = [takeover_problem(state, option, side, place, power) for power in state.side_powers[side]]
            return None if any(p is None for p in found) else (found[0] if found else None)

        return Field(
            "territory", "take over", place_answers(state, territories), place=True, listed=len(territories) <= 40, resolve=names.place, refuse=refused
        )

    def taker_asked(answers: Answers) -> Field:
        offers = [t.power for t in choices.takeovers if t.territory == answers["territory"]]
        return Field("by", "by which power", answers_of(offers), alone="", resolve=names.power, then=retreats)

    fields = (
        Field("territory", "", place_answers(state, territories), place=True, group="Take over", narrowed=territory_asked),
        Field("by", "by", answers_of(powers), group="Take over", then=retreats, narrowed=taker_asked),
    )

    def read(answers: Answers) -> dict[str, Any]:
        return {"territory": answered(answers, "territory"), "by": answered(answers, "by")}

    return Form(fields, read, preview="Show its retreats")


@register
class TerritoryTakeover(OptionKind):
    """An enemy territory taken by a power of the side, its defenders retreated (``takeover = {...}``)."""

    name = "territory_takeover"
    params = TerritoryTakeoverParams
    target = TakeoverSpec
    displaces = ("retreat",)  # the territory's defenders

    def parse_target(self, section: Section, names: Names, ruleset: Ruleset) -> TakeoverSpec:
        return TakeoverSpec.from_toml(section, TakeoverSpec.KEY, names)

    def choices(self, state: DraftState, option: Option, side: str, powers: list[str]) -> OptionChoices:
        board = state.board
        choices = []
        land = [t for t, d in board.nodes.items() if not d["water"]]
        params = option.params
        assert isinstance(params, TerritoryTakeoverParams)
        lacking = []  # the powers that cannot take the option's units, and why (the option's line says so when none may take)
        # Where a group retreats depends on its place, its owner and whether it flies, not on who takes the place nor
        # on its unit otherwise: one search each, not one per taker and unit (on big maps most of the choices' time).
        destinations: dict[tuple[str, str, bool], tuple[str, ...]] = {}

        def retreats_of(territory: str, owner: str, unit: str) -> tuple[str, ...]:
            key = (territory, owner, board.catalog.unit_type(unit).domain == "air")
            if key not in destinations:
                destinations[key] = retreat_destinations(state, territory, owner, unit).matches
            return destinations[key]

        for power in powers:
            problem = state.units_problem(option.quote("units"), option.source, power, (word for word, _ in params.units))
            if problem is not None:
                lacking.append(problem.why)
                continue
            for territory in land:
                if takeover_problem(state, option, side, territory, power) is not None:
                    continue
                retreats = tuple(
                    RetreatChoice(owner, unit, count, retreats_of(territory, owner, unit)) for owner, unit, count in retreating_groups(state, territory, power)
                )
                choices.append(TakeoverChoice(territory, power, retreats))
        unavailable = None if choices else f"no enemy territory may be taken over by the {side}" + (f": {'; '.join(dict.fromkeys(lacking))}" if lacking else "")
        return TakeoverChoices(option, unavailable=unavailable, takeovers=tuple(choices))

    def describe_choices(self, choices: OptionChoices) -> list[str]:
        assert isinstance(choices, TakeoverChoices)
        lines = []
        for takeover in choices.takeovers:
            retreat = "; ".join(f"{r.count} {r.owner} {r.unit} -> {' or '.join(r.destinations) or 'cannot retreat (removed)'}" for r in takeover.retreats)
            lines.append(f"  {takeover.power} take {takeover.territory}" + (f" (retreats, declared after the bid; now: {retreat})" if retreat else ""))
        return lines

    def picks(self, state: DraftState, choices: OptionChoices, side: str, index: int) -> Iterator[tuple[str, Pick]]:
        """One pick per territory and taker: where the defenders retreat is declared after the bid, not in the pick."""
        assert isinstance(choices, TakeoverChoices)
        option = choices.option
        for takeover in choices.takeovers:
            yield f"{takeover.power} take {takeover.territory}", Pick(index, side, option, TakeoverSpec(takeover.territory, takeover.power))

    def apply(self, state: DraftState, pick: Pick) -> Outcome:
        return apply_territory_takeover(state, pick)

    def form(self, state: DraftState, choices: OptionChoices, side: str, index: int) -> Form:
        assert isinstance(choices, TakeoverChoices)
        return takeover_form(state, choices, side)

    def destinations(self, state: DraftState, displaced: Displaced) -> Nearest:
        return retreat_destinations(state, displaced.origin, displaced.owner, displaced.unit)

    def declared(self, pick: Pick, displaced: Displaced) -> str | None:
        return declared_retreat(pick.target, displaced.owner, displaced.unit) if isinstance(pick.target, TakeoverSpec) else None

    def write_declaration(self, entry: dict[str, Any], displaced: Displaced, to: str, names: Names) -> None:
        """``retreat = [{ to, power, unit }]`` in the entry's ``takeover`` (replacing one for the same units)."""
        takeover = entry["takeover"]
        kept = [r for r in takeover.get("retreat", []) if (r.get("power"), r.get("unit")) != (displaced.owner, displaced.unit)]
        takeover["retreat"] = [*kept, {"to": to, "power": displaced.owner, "unit": displaced.unit}]

    def displaced_words(self, displaced: Displaced) -> DisplacedWords:
        return DisplacedWords("retreat", "retreat to", "territories of their side", "cannot retreat (no territory of their side can be reached)", moved=True)

    def placed_line(self, state: DraftState, displaced: Displaced, place: str) -> str:
        what = ", ".join(f"{n} {displaced.owner} {u}" for u, n in displaced.units())
        return f"{what} retreat from {state.names.shown(displaced.origin)} to {state.names.shown(place)}"

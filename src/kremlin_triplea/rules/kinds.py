"""Each kind of option, implemented once and driven by the ruleset's parameters.

A kind checks one pick against the board as the earlier picks left it and
returns the primitive changes it makes (``Outcome``), or raises
``RuleViolation`` naming the pick, quoting the rule and saying why. The same
checks (``placement_problem``, ``neutral_problem``, ``takeover_problem``...)
drive the legal-choice enumeration in :mod:`legal`, so a choice listed as
legal never fails when applied.

Option 11's scenarios are their own kind (:mod:`scenarios`): a list of
primitive steps on rule-text names, checked for locks like any other pick.
"""

from __future__ import annotations

import math

from collections import Counter
from collections.abc import Iterable

import attrs

from kremlin_triplea.board import Board
from kremlin_triplea.changes import Change, PlaceUnits, RemoveUnits, SetOwner, SetProperty, SetPUs, SetTerritory
from kremlin_triplea.errors import RuleViolation
from kremlin_triplea.queries import Nearest, nearest, owned_sea_zones
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.profile import Profile
from kremlin_triplea.rules.scenarios import Scenario, apply_scenario
from kremlin_triplea.rules.ruleset import (
    NeutralTakeoverParams,
    Option,
    PlacementParams,
    PowerRestriction,
    Ruleset,
    TerritoryTakeoverParams,
)

# -- what a draft says, with names resolved to the game's -------------------


@attrs.frozen
class UnitPlacement:
    power: str
    unit: str
    count: int
    at: str

    def __str__(self) -> str:
        return f"{self.count} {self.power} {self.unit} in {self.at}"


@attrs.frozen
class NeutralTake:
    territory: str
    by: str
    navy_at: str | None = None


@attrs.frozen
class Retreat:
    to: str
    power: str | None = None  # None: any owner
    unit: str | None = None  # None: any unit type

    @property
    def specific(self) -> bool:
        return self.power is not None or self.unit is not None


@attrs.frozen
class TakeoverSpec:
    territory: str
    by: str
    retreats: tuple[Retreat, ...] = ()


@attrs.frozen
class Pick:
    index: int  # 1-based position in the draft
    side: str
    option: Option
    placements: tuple[UnitPlacement, ...] = ()
    takes: tuple[NeutralTake, ...] = ()
    takeover: TakeoverSpec | None = None
    scenario: Scenario | None = None

    @property
    def label(self) -> str:
        chosen = f": {self.scenario.title}" if self.scenario is not None else ""
        return f"pick {self.index} ({self.side}, option {self.option.number} {self.option.title}{chosen})"


@attrs.frozen
class BidSpec:
    amount: int  # the winning bid: positive, the Axis places units; negative, the Allies get PUs
    placements: tuple[UnitPlacement, ...] = ()
    allocate: tuple[tuple[str, int], ...] = ()
    removals: tuple[UnitPlacement, ...] = ()  # negative bid, rulesets with negative = "remove_units"
    phase: tuple[tuple[str, int], ...] = ()  # positive bid left to TripleA's bid phase: (power, PUs)

    label = "bid"


@attrs.frozen
class Outcome:
    """What one pick (or the bid) did."""

    changes: tuple[Change, ...]
    affected: frozenset[str]  # territories and sea zones it locks against the other side
    lines: tuple[str, ...]  # what happened, for people
    # Placements among ``changes`` that move units already on the board (retreats),
    # so they are not units "selected with a bonus option" (negative bids keep those).
    moved: tuple[Change, ...] = ()


@attrs.frozen
class Problem:
    """Why a choice breaks a rule: the rule's words, where they stand, and the reason."""

    rule: str
    source: str
    why: str

    def violation(self, label: str) -> RuleViolation:
        return RuleViolation(label, self.why, rule=self.rule, source=self.source)


# -- the state a draft is applied to ----------------------------------------


class DraftState:
    """The board as changed by the picks so far, plus who locked which place."""

    def __init__(self, board: Board, ruleset: Ruleset, profile: Profile, names: Names) -> None:
        self.board = board
        self.ruleset = ruleset
        self.profile = profile
        self.names = names
        catalog = board.catalog
        self.side_powers = {side: tuple(catalog.alliance_members(side)) for side in ruleset.sides}
        self.side_of = {power: side for side, powers in self.side_powers.items() for power in powers}
        self.locks: dict[str, tuple[str, int]] = {}  # place -> (side, pick index) that first affected it
        self.option_units = Counter[tuple[str, str | None, str]]()  # (place, owner, unit) -> units the options put there
        self.used: dict[str, list[int]] = {side: [] for side in ruleset.sides}
        self.restrictions: dict[str, PowerRestriction] = {names.power(p): r for p, r in ruleset.restrictions.items()}
        self.neutrals = {names.territory(n.name): n for n in ruleset.neutrals.values()}
        # A map without a factory unit (the matrix runs rulesets on any map) still has options needing none.
        self.factory: str | None = names.unit("factory") if names.has_unit("factory") else None
        # Which base game this is (the profile's [[game]]): scenarios have per-edition clauses.
        base = next((g for g in profile.games if g.name == board.game_name), None)
        self.base_file: str | None = base.file if base is not None else None
        self.edition: str | None = base.edition if base is not None else None
        self.may_enter: dict[str, frozenset[str]] = {}
        self._facts: tuple[tuple[int, object], Facts] | None = None
        for power, restriction in self.restrictions.items():
            listed = self.profile.powers_may_enter.get(power, ())
            self.may_enter[power] = frozenset(names.territory(t) for t in (*listed, *restriction.may_also_enter))

    def facts(self) -> Facts:
        """Facts about the board as it is now, reused until a change is pushed or popped."""
        position = self.board.position
        cached = self._facts
        if cached is None or cached[0][0] != position[0] or cached[0][1] is not position[1]:
            self._facts = cached = (position, Facts(self.board))
        return cached[1]

    def lock_problem(self, side: str, place: str) -> Problem | None:
        holder = self.locks.get(place)
        if holder is None or holder[0] == side:
            return None
        return Problem(self.ruleset.locks.rule, self.ruleset.locks.source, f"{self.names.shown(place)} was affected by {holder[0]}'s pick {holder[1]}")

    def power_problem(self, option: Option, side: str, power: str) -> Problem | None:
        if self.side_of.get(power) != side:
            return Problem(option.rule, option.source, f"{power} is not a power of the {side} (they are {', '.join(self.side_powers[side])})")
        restriction = self.restrictions.get(power)
        if restriction is not None and option.number not in restriction.options:
            allowed = ", ".join(str(n) for n in sorted(restriction.options))
            return Problem(restriction.rule, restriction.source, f"option {option.number} may not be taken for {power} (only options {allowed})")
        return None

    def already_used(self, side: str, number: int) -> bool:
        """Whether ``side`` may not take option ``number`` again now (the no-repeat rule).

        With ``no_repeat_per`` (001: "the rule is in effect for the second set of
        nine picks and so on") only the side's picks of the current set count.
        """
        used = self.used[side]
        per = self.ruleset.picks.no_repeat_per
        if per is not None:
            used = used[len(used) // per * per:]
        return number in used

    def record(self, side: str, index: int, outcome: Outcome) -> None:
        for place in outcome.affected:
            self.locks.setdefault(place, (side, index))
        for change in outcome.changes:
            if isinstance(change, PlaceUnits) and change not in outcome.moved:
                self.option_units[(change.territory, change.owner, change.unit_type)] += change.count


class Facts:
    """Answers about one board position, computed once per question (the board must not change meanwhile)."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.catalog = board.catalog
        self._enemy_places: dict[str, dict[str, list[str]]] = {}
        self._owned_sea: dict[str, frozenset[str]] = {}
        self._friendly_ships: dict[str, frozenset[str]] = {}
        self._friendly_sea: dict[str, frozenset[str]] = {}

    def enemy_places(self, power: str) -> dict[str, list[str]]:
        """Place -> the enemies of ``power`` with units there."""
        if power not in self._enemy_places:
            found: dict[str, list[str]] = {}
            for place, data in self.board.nodes.items():
                owners = sorted({o for (o, _), n in data["units"].items() if n and o is not None and not self.catalog.allied(power, o)})
                if owners:
                    found[place] = owners
            self._enemy_places[power] = found
        return self._enemy_places[power]

    def owned_sea(self, power: str) -> frozenset[str]:
        if power not in self._owned_sea:
            self._owned_sea[power] = frozenset(owned_sea_zones(self.board, power))
        return self._owned_sea[power]

    def friendly_ship_zones(self, power: str) -> frozenset[str]:
        if power not in self._friendly_ships:
            zones = set()
            for place, data in self.board.nodes.items():
                if data["water"] and any(
                    n and o is not None and self.catalog.allied(power, o) and self.catalog.unit_type(u).is_ship for (o, u), n in data["units"].items()
                ):
                    zones.add(place)
            self._friendly_ships[power] = frozenset(zones)
        return self._friendly_ships[power]

    def friendly_sea(self, power: str) -> frozenset[str]:
        """Sea zones beside a territory of ``power`` or an ally, or holding allied ships (002's "friendly sea zones")."""
        if power not in self._friendly_sea:
            board = self.board
            beside_allies = {
                place for place, data in board.nodes.items()
                if data["water"] and any(
                    not board.nodes[n]["water"] and board.nodes[n]["owner"] is not None and self.catalog.allied(power, board.nodes[n]["owner"])
                    for n in board.neighbours(place)
                )
            }
            self._friendly_sea[power] = frozenset(beside_allies | self.friendly_ship_zones(power))
        return self._friendly_sea[power]

    def carrier_room(self, zone: str, power: str) -> tuple[int, int]:
        """(capacity of allied carriers, carrier space already taken by air units) in ``zone``."""
        capacity = used = 0
        for (owner, unit), count in self.board.units(zone).items():
            kind = self.catalog.unit_type(unit)
            if owner is not None and self.catalog.allied(power, owner):
                capacity += kind.carrier_capacity * count
            if kind.domain == "air":
                used += kind.carrier_cost * count
        return capacity, used


# -- placement ---------------------------------------------------------------


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
                        option.quote(check), option.source,
                        f"{power} {unit} in {shown}: {shown} is adjacent to {state.names.shown(neighbour)}, which holds units of {', '.join(enemies[neighbour])}",
                    )
        elif check == "no_enemy_units":
            if place in enemies:
                return Problem(option.quote(check), option.source, f"{power} {unit} in {shown}: {shown} holds units of {', '.join(enemies[place])}")
        elif check == "no_factory_there":
            if any(u == state.factory and n for (_, u), n in data["units"].items()):
                return Problem(option.quote(check), option.source, f"{power} {unit} in {shown}: {shown} already has a factory (the game allows one per territory)")
    return state.lock_problem(side, place)


def unit_sets(state: DraftState, option: Option) -> list[Counter[str]]:
    params = option.params
    assert isinstance(params, PlacementParams)
    return [Counter(state.names.unit(u) for u in units) for units in params.unit_sets]


def apply_placement(state: DraftState, pick: Pick) -> Outcome:
    option = pick.option
    params = option.params
    assert isinstance(params, PlacementParams)
    placed = Counter[str]()
    for entry in pick.placements:
        placed[entry.unit] += entry.count
    choices = unit_sets(state, option)
    if placed not in choices:
        sets = " or ".join(_describe_units(c) for c in choices)
        raise Problem(option.quote("unit_sets"), option.source, f"the pick places {_describe_units(placed) or 'nothing'}; the option gives exactly {sets}").violation(pick.label)
    facts = state.facts()
    for entry in pick.placements:
        problem = placement_problem(state, facts, option, pick.side, entry.power, entry.unit, entry.at)
        if problem is not None:
            raise problem.violation(pick.label)
    if "same_territory" in params.require and len({e.at for e in pick.placements}) > 1:
        places = ", ".join(sorted({e.at for e in pick.placements}))
        raise Problem(option.quote("same_territory"), option.source, f"the units go to different places: {places}").violation(pick.label)
    if "same_power" in params.require and len({e.power for e in pick.placements}) > 1:
        powers = ", ".join(sorted({e.power for e in pick.placements}))
        raise Problem(option.quote("same_power"), option.source, f"the units belong to different powers: {powers}").violation(pick.label)
    merged = Counter[tuple[str, str, str]]()
    for entry in pick.placements:
        merged[(entry.at, entry.power, entry.unit)] += entry.count
    changes = tuple(PlaceUnits(at, power, unit, count) for (at, power, unit), count in merged.items())
    lines = [f"{power} place {count} {unit} in {state.names.shown(at)}" for (at, power, unit), count in merged.items()]
    for at, _, unit in merged:
        if unit == state.factory:
            # Option 8's output limit: the map profile records how the game enforces it.
            how = "enforced by the game" if state.profile.factory_output_enforced_by_game else "NOT enforced by this game: tell the players"
            lines.append(f"the factory in {state.names.shown(at)} produces at most {state.board.node(at)['production']} units per round, the territory's IPC value ({how})")
    return Outcome(changes, frozenset(e.at for e in pick.placements), tuple(lines))


# -- neutral takeover ----------------------------------------------------------


def neutral_problem(state: DraftState, option: Option, side: str, territory: str, power: str) -> Problem | None:
    """Why ``power`` may not take over the neutral ``territory`` (None: it may)."""
    problem = state.power_problem(option, side, power)
    if problem is not None:
        return problem
    shown = state.names.shown(territory)
    neutral = state.neutrals.get(territory)
    if neutral is None:
        known = ", ".join(n.name for n in state.neutrals.values())
        return Problem(option.quote("neutral"), option.source, f"{shown} is not a neutral of the table ({known})")
    data = state.board.node(territory)
    # Untaken: impassable (AA50's neutrals, even British-held Saudi Arabia) or unowned (classic maps' passable neutrals).
    if not data["impassable"] and data["owner"] is not None:
        return Problem(option.quote("neutral"), option.source, f"{shown} has already been taken over (owner {data['owner']})")
    restriction = state.restrictions.get(power)
    if restriction is not None and restriction.neutrals and neutral.name not in restriction.neutrals:
        return Problem(restriction.rule, restriction.source, f"{power} may take over only {', '.join(restriction.neutrals)}, not {neutral.name}")
    return state.lock_problem(side, territory)


def neutral_set_problem(state: DraftState, option: Option, territories: list[str]) -> Problem | None:
    """Why these neutrals may not be taken together: the groups (one major, one minor) or the IPC limit."""
    params = option.params
    assert isinstance(params, NeutralTakeoverParams)
    neutrals = [state.neutrals[t] for t in territories]
    if params.per_group:
        taken = Counter(n.group for n in neutrals)
        wanted = Counter(dict(params.per_group))
        if taken != wanted:
            listed = ", ".join(f"{n.name} ({n.group})" for n in neutrals)
            needed = " and ".join(f"{count} {group}" for group, count in params.per_group)
            return Problem(option.quote("per_group"), option.source, f"{listed}: the option takes {needed}")
    if params.max_total_ipc is not None:
        total = sum(n.ipc or 0 for n in neutrals)
        if total > params.max_total_ipc:
            values = " + ".join(f"{n.name} {n.ipc}" for n in neutrals)
            return Problem(option.quote("max_total_ipc"), option.source, f"{values} = {total} IPCs, more than {params.max_total_ipc}")
    return None


def neutral_navy(state: DraftState, territory: str) -> list[tuple[str, int]]:
    """The neutral's naval units (game unit names and counts)."""
    army = [(state.names.unit(u), n) for u, n in state.neutrals[territory].army]
    return [(u, n) for u, n in army if state.board.catalog.unit_type(u).is_ship]


def navy_destinations(state: DraftState, territory: str, power: str) -> Nearest:
    """The nearest sea zones (over sea) holding no units of an enemy of ``power``."""
    enemies = state.facts().enemy_places(power)
    board = state.board
    return nearest(board, territory, lambda z: board.is_water(z) and z not in enemies, via="sea")


def navy_problem(state: DraftState, option: Option, side: str, territory: str, power: str, navy_at: str | None) -> tuple[str | None, Problem | None]:
    """Where the neutral's ships go, or why the draft's ``navy_at`` cannot be."""
    shown = state.names.shown(territory)
    if not neutral_navy(state, territory):
        if navy_at is not None:
            return None, Problem(option.quote("navy"), option.source, f"{shown} has no naval units, so navy_at = {navy_at!r} does not apply")
        return None, None
    found = navy_destinations(state, territory, power)
    if not found.matches:
        return None, Problem(option.quote("navy"), option.source, f"no sea zone without enemy units can be reached from {shown}")
    choices = ", ".join(found.matches)
    if navy_at is not None:
        if navy_at not in found.matches:
            return None, Problem(option.quote("navy"), option.source, f"{navy_at} is not a nearest friendly sea zone of {shown} for {power}; the nearest are: {choices}")
        zone = navy_at
    elif found.tied:
        return None, Problem(option.quote("navy"), option.source, f"{shown}'s ships have several nearest friendly sea zones ({choices}); say which with navy_at")
    else:
        zone = found.matches[0]
    return zone, state.lock_problem(side, zone)


def apply_neutral_takeover(state: DraftState, pick: Pick) -> Outcome:
    option = pick.option
    params = option.params
    assert isinstance(params, NeutralTakeoverParams)
    territories = [t.territory for t in pick.takes]
    if len(pick.takes) != params.count or len(set(territories)) != len(territories):
        raise Problem(option.quote("count"), option.source, f"the pick takes over {len(set(territories))} different neutral(s); the option takes exactly {params.count}").violation(pick.label)
    zones: dict[str, str | None] = {}
    for take in pick.takes:
        problem = neutral_problem(state, option, pick.side, take.territory, take.by)
        if problem is None:
            zones[take.territory], problem = navy_problem(state, option, pick.side, take.territory, take.by, take.navy_at)
        if problem is not None:
            raise problem.violation(pick.label)
    problem = neutral_set_problem(state, option, territories)
    if problem is not None:
        raise problem.violation(pick.label)
    changes: list[Change] = []
    lines: list[str] = []
    affected: set[str] = set()
    for take in pick.takes:
        territory, neutral = take.territory, state.neutrals[take.territory]
        changes.append(SetOwner(territory, take.by, captured=False))
        facts = []
        if params.production == "table_value" and neutral.ipc is not None:
            changes.append(SetTerritory(territory, "production", neutral.ipc))
            facts.append(f"production {neutral.ipc}")
        else:
            facts.append(f"production unchanged ({params.production_reason})" if params.production_reason else "production unchanged")
        if state.board.node(territory)["impassable"]:
            changes.append(SetTerritory(territory, "impassable", False))
            facts.append("no longer impassable")
        affected.add(territory)
        army = [(state.names.unit(u), n) for u, n in neutral.army]
        on_land = [(u, n) for u, n in army if not state.board.catalog.unit_type(u).is_ship]
        at_sea = [(u, n) for u, n in army if state.board.catalog.unit_type(u).is_ship]
        changes += [PlaceUnits(territory, take.by, u, n) for u, n in on_land]
        line = f"{state.names.shown(territory)} joins {take.by}: {', '.join(facts)}, army {_describe_pairs(on_land)}"
        zone = zones[territory]
        if zone is not None:
            changes += [PlaceUnits(zone, take.by, u, n) for u, n in at_sea]
            affected.add(zone)
            line += f"; navy {_describe_pairs(at_sea)} to {zone}"
        lines.append(line)
        marker = state.profile.capital_marker
        if marker is not None and marker.at == territory and state.board.node(territory)["capital"] == marker.power:
            changes += [SetTerritory(territory, "capital", None), SetTerritory(marker.refuge, "capital", marker.power)]
            lines.append(f"the {marker.power} capital marker moves from {territory} to {marker.refuge} ({marker.reason})")
    return Outcome(tuple(changes), frozenset(affected), tuple(lines))


# -- territory takeover --------------------------------------------------------


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
    restriction = state.restrictions.get(power)
    if restriction is not None and restriction.takeover_only_where_may_enter and territory not in state.may_enter.get(power, frozenset()):
        return Problem(restriction.rule, restriction.source, f"{power} may not enter {shown} (it may enter {', '.join(sorted(state.may_enter.get(power, ())))})")
    forbidden = {state.names.unit(u) for u in params.forbidden_units}
    present = sorted({u for (_, u), n in data["units"].items() if n and u in forbidden})
    if present:
        return Problem(option.quote("forbidden_units"), option.source, f"{shown} contains a {', '.join(present)}")
    return state.lock_problem(side, territory)


def retreat_destinations(state: DraftState, territory: str, owner: str, unit: str) -> Nearest:
    """The nearest territories held by ``owner``'s side: land units over land, air units over anything passable."""
    board = state.board
    catalog = board.catalog

    def theirs(place: str) -> bool:
        data = board.nodes[place]
        return not data["water"] and not data["impassable"] and data["owner"] is not None and catalog.allied(owner, data["owner"])

    via = "any" if catalog.unit_type(unit).domain == "air" else "land"
    return nearest(board, territory, theirs, via=via, passable=lambda place: not board.nodes[place]["impassable"])


def retreating_groups(state: DraftState, territory: str, power: str) -> list[tuple[str, str, int]]:
    """(owner, unit, count) of the units of enemies of ``power`` in ``territory``."""
    catalog = state.board.catalog
    return sorted(
        (owner, unit, count)
        for (owner, unit), count in state.board.units(territory).items()
        if count and owner is not None and not catalog.allied(power, owner)
    )


def new_owner_after_takeover(board: Board, territory: str, power: str) -> str:
    """TripleA's capture rule: a territory whose original owner is an ally of the taker is liberated to it."""
    original = board.node(territory)["original_owner"]
    if original is not None and original != power and board.catalog.allied(power, original):
        return original
    return power


def apply_territory_takeover(state: DraftState, pick: Pick) -> Outcome:
    option = pick.option
    params = option.params
    assert isinstance(params, TerritoryTakeoverParams)
    spec = pick.takeover
    assert spec is not None
    problem = takeover_problem(state, option, pick.side, spec.territory, spec.by)
    if problem is not None:
        raise problem.violation(pick.label)
    board = state.board
    changes: list[Change] = []
    lines: list[str] = []
    affected = {spec.territory}
    moved: list[Change] = []
    used: set[Retreat] = set()
    shown = state.names.shown(spec.territory)
    for owner, unit, count in retreating_groups(state, spec.territory, spec.by):
        found = retreat_destinations(state, spec.territory, owner, unit)
        specific = [r for r in spec.retreats if r.specific and r.power in (None, owner) and r.unit in (None, unit)]
        specific.sort(key=lambda r: (r.power is None) + (r.unit is None))
        general = [r for r in spec.retreats if not r.specific]
        chosen = specific[0] if specific else general[0] if general else None
        choices = ", ".join(found.matches)
        destination: str | None
        if not found.matches:
            destination = None
        elif chosen is not None and chosen.to in found.matches:
            destination = chosen.to
            used.add(chosen)
        elif chosen is not None and (chosen.specific or found.tied):
            raise Problem(
                option.quote("retreat"), option.source,
                f"{owner} {unit} in {shown} cannot retreat to {chosen.to}; the nearest territories of their side are: {choices}",
            ).violation(pick.label)
        elif found.tied:
            raise Problem(
                option.quote("retreat"), option.source,
                f"{count} {owner} {unit} in {shown} may retreat to any of {choices}; the draft must say which (retreat = [{{ to = ... }}])",
            ).violation(pick.label)
        else:
            destination = found.matches[0]
        changes.append(RemoveUnits(spec.territory, owner, unit, count))
        if destination is None:
            lines.append(f"{count} {owner} {unit} in {shown} cannot retreat (no territory of their side can be reached) and are removed")
        else:
            changes.append(PlaceUnits(destination, owner, unit, count))
            moved.append(changes[-1])
            lines.append(f"{count} {owner} {unit} retreat from {shown} to {state.names.shown(destination)}")
            if state.ruleset.locks.lock_retreat_destinations:
                affected.add(destination)
    for retreat in spec.retreats:
        if retreat.specific and retreat not in used:
            what = " ".join(x for x in (retreat.power, retreat.unit) if x)
            raise Problem(option.quote("retreat"), option.source, f"the retreat for {what} to {retreat.to} matches no retreating units in {shown}").violation(pick.label)
    owner = new_owner_after_takeover(board, spec.territory, spec.by)
    changes.append(SetOwner(spec.territory, owner, captured=True))
    placed = [(state.names.unit(u), n) for u, n in params.units]
    changes += [PlaceUnits(spec.territory, spec.by, u, n) for u, n in placed]
    held = f"{owner} (liberated: its original owner)" if owner != spec.by else spec.by
    lines.insert(0, f"{spec.by} take over {shown} (was {board.owner(spec.territory)}); it now belongs to {held}, original owner {board.node(spec.territory)['original_owner']}; {spec.by} place {_describe_pairs(placed)}")
    return Outcome(tuple(changes), frozenset(affected), tuple(lines), moved=tuple(moved))


# -- the bid -------------------------------------------------------------------


def bid_cost(board: Board, unit: str, power: str) -> int | None:
    """What ``power`` pays for ``unit`` in a bid: None unless its production frontier sells it.

    The classic games define artillery and destroyer rules that no frontier
    lists; a bid may only buy what the power could buy in the game.
    """
    catalog = board.catalog
    if any(player == power for player, _ in catalog.costs):
        return catalog.costs.get((power, unit))
    return catalog.cost(unit, power)


def bid_placement_problem(state: DraftState, facts: Facts, power: str, unit: str, place: str) -> Problem | None:
    bid = state.ruleset.bid
    board = state.board
    shown = state.names.shown(place)
    if state.side_of.get(power) != bid.placing_side:
        return Problem(bid.placement_rule, bid.source, f"{power} is not a power of the {bid.placing_side}, who place the bid")
    kind = board.catalog.unit_type(unit)
    if bid_cost(board, unit, power) is None:
        return Problem(bid.amount_rule, bid.source, f"{power} cannot buy {unit} in this game (not in its production frontier), so it cannot be bid")
    if board.is_water(place):
        if not kind.is_ship:
            return Problem(bid.placement_rule, bid.source, f"a {unit} cannot be placed in the sea zone {shown}")
        if place not in facts.owned_sea(power):
            return Problem(bid.placement_rule, bid.source, f"{shown} is not a {power}-owned sea zone (adjacent to a territory {power} owns)")
    else:
        if kind.is_ship:
            return Problem(bid.placement_rule, bid.source, f"a {unit} cannot be placed on land ({shown})")
        if board.owner(place) != power:
            return Problem(bid.placement_rule, bid.source, f"{shown} is owned by {board.owner(place) or 'nobody'}, not {power}")
        if board.node(place)["impassable"]:
            return Problem(bid.placement_rule, bid.source, f"{shown} is impassable: a neutral in the rules, not {power} territory")
    return None


def apply_bid(state: DraftState, bid_spec: BidSpec) -> Outcome:
    bid = state.ruleset.bid
    board = state.board
    label = f"bid ({bid.placing_side} {bid_spec.amount})"
    lines: list[str] = []
    changes: list[Change] = []
    if bid_spec.amount >= 0 and bid_spec.allocate:
        raise Problem(bid.negative_rule, bid.source, "only a negative bid gives PUs to allocate").violation(label)
    if bid_spec.amount >= 0 and bid_spec.removals:
        raise Problem(bid.negative_rule, bid.source, "only a negative bid removes units").violation(label)
    if bid_spec.amount <= 0 and (bid_spec.placements or bid_spec.phase):
        raise Problem(bid.amount_rule, bid.source, "only a positive bid places units").violation(label)
    if bid_spec.amount < 0 and bid.negative == "remove_units":
        return _remove_for_negative_bid(state, bid_spec, label)
    if bid_spec.amount < 0 and bid_spec.removals:
        raise Problem(bid.negative_rule, bid.source, f"in {state.ruleset.id} a negative bid gives the {bid.receiving_side} PUs (allocate), it removes no units").violation(label)
    if bid_spec.amount > 0:
        facts = state.facts()
        spent = 0
        merged = Counter[tuple[str, str, str]]()
        for entry in bid_spec.placements:
            problem = bid_placement_problem(state, facts, entry.power, entry.unit, entry.at)
            if problem is not None:
                raise problem.violation(label)
            spent += (bid_cost(board, entry.unit, entry.power) or 0) * entry.count
            merged[(entry.at, entry.power, entry.unit)] += entry.count
        if spent > bid_spec.amount:
            raise Problem(bid.amount_rule, bid.source, f"the units cost {spent} PUs, more than the bid of {bid_spec.amount}").violation(label)
        changes += [PlaceUnits(at, power, unit, count) for (at, power, unit), count in merged.items()]
        lines += [f"{power} place {count} {unit} in {state.names.shown(at)}" for (at, power, unit), count in merged.items()]
        if bid_spec.phase:
            phase_changes, phase_lines = _bid_phase(state, bid_spec, bid_spec.amount - spent, label)
            changes += phase_changes
            lines += phase_lines
        else:
            lines.append(f"bid {bid_spec.amount}: units worth {spent} PUs placed, {bid_spec.amount - spent} unspent")
    elif bid_spec.amount < 0:
        total = 0
        for power, amount in bid_spec.allocate:
            if state.side_of.get(power) != bid.receiving_side:
                raise Problem(bid.negative_rule, bid.source, f"{power} is not a power of the {bid.receiving_side}").violation(label)
            if amount < 0:
                raise Problem(bid.negative_rule, bid.source, f"{power} would receive {amount} PUs; amounts must not be negative").violation(label)
            total += amount
        if total != -bid_spec.amount:
            raise Problem(bid.negative_rule, bid.source, f"the allocation gives {total} PUs; a bid of {bid_spec.amount} gives the {bid.receiving_side} exactly {-bid_spec.amount}").violation(label)
        for power, amount in bid_spec.allocate:
            if amount:
                changes.append(SetPUs(power, board.pus.get(power, 0) + amount))
                lines.append(f"{power} receive {amount} PUs ({board.pus.get(power, 0)} -> {board.pus.get(power, 0) + amount})")
        lines.append(f"bid {bid_spec.amount}: the {bid.receiving_side} receive {-bid_spec.amount} PUs")
    else:
        lines.append("bid 0: nothing placed, nothing allocated")
    return Outcome(tuple(changes), frozenset(), tuple(lines))


def _bid_phase(state: DraftState, bid_spec: BidSpec, left: int, label: str) -> tuple[list[Change], list[str]]:
    """A positive bid (or what the declared units left of it) handed to TripleA's own bid phase."""
    bid = state.ruleset.bid
    if bid.positive != "declared_or_bid_phase":
        raise Problem(bid.placement_rule, bid.source, f"in {state.ruleset.id} the bid units must be declared (place = [...]); the bid cannot be left to TripleA's bid phase").violation(label)
    pattern = state.profile.bid_property
    if pattern is None:
        raise Problem(bid.positive_rule, bid.source, f"the map profile {state.profile.path} names no bid property ([bid_phase]), so this game's bid phase cannot be used").violation(label)
    changes: list[Change] = []
    lines: list[str] = []
    for power, amount in bid_spec.phase:
        if state.side_of.get(power) != bid.placing_side:
            raise Problem(bid.placement_rule, bid.source, f"{power} is not a power of the {bid.placing_side}, who place the bid").violation(label)
        name = pattern.format(power=power)
        if name not in state.board.properties:
            raise Problem(bid.positive_rule, bid.source, f"the game has no property {name!r} for {power}'s bid").violation(label)
        if amount < 0:
            raise Problem(bid.amount_rule, bid.source, f"{power}'s bid phase gets {amount} PUs; amounts must not be negative").violation(label)
        if amount:
            changes.append(SetProperty(name, str(amount)))
            lines.append(f"{power} spend {amount} PUs in TripleA's bid phase (game option {name!r})")
    total = sum(n for _, n in bid_spec.phase)
    if total != left:
        raise Problem(bid.amount_rule, bid.source, f"the bid phase gets {total} PUs, but {left} of the bid of {bid_spec.amount} are left after the declared units").violation(label)
    lines.append(f"bid {bid_spec.amount}: {left} PUs to spend in TripleA's bid phase")
    return changes, lines


def achievable_values(costs: Iterable[int], limit: int) -> list[bool]:
    """``found[v]``: whether units of these costs (any number of each) are worth exactly ``v``, for v up to ``limit``."""
    costs = sorted({c for c in costs if c > 0})
    found = [False] * (limit + 1)
    found[0] = True
    for value in range(1, limit + 1):
        found[value] = any(c <= value and found[value - c] for c in costs)
    return found


def removal_target(amount: int, costs: Iterable[int], rounding: str) -> int:
    """The value a negative bid of ``-amount`` removes: 001 "at_most_bid" or 002 "round_down_to_unit"."""
    costs = sorted({c for c in costs if c > 0})
    if costs:
        # Above Schur's bound on the Frobenius number every multiple of the costs' gcd is some
        # mix of units: a huge bid is answered by arithmetic, not by a table as long as the bid.
        step = math.gcd(*costs)
        every_multiple_from = step * (costs[0] // step - 1) * (costs[-1] // step - 1)
        if amount > every_multiple_from + costs[-1]:
            below = amount - amount % step
            return below if rounding != "round_down_to_unit" or below == amount else below + step
    found = achievable_values(costs, amount + max(costs, default=0))
    if rounding == "round_down_to_unit":
        return next(v for v in range(amount, len(found)) if found[v])
    return next(v for v in range(amount, -1, -1) if found[v])


def _remove_for_negative_bid(state: DraftState, bid_spec: BidSpec, label: str) -> Outcome:
    """A negative bid that removes the placing side's units (001, 002), declared in the draft."""
    bid = state.ruleset.bid
    board = state.board
    if bid_spec.allocate:
        raise Problem(bid.negative_rule, bid.source, f"in {state.ruleset.id} a negative bid removes {bid.placing_side} units (remove = [...]); it gives no PUs").violation(label)
    removable = [state.names.unit(u) for u in bid.removable_units]
    costs = {board.catalog.cost(u, p) for u in removable for p in state.side_powers[bid.placing_side]} - {None, 0}
    if not costs:
        raise Problem(bid.removable_rule or bid.negative_rule, bid.source, f"this game gives no cost to {' or '.join(removable)}, so no units can be worth the bid").violation(label)
    removed = Counter[tuple[str, str, str]]()
    value = 0
    for entry in bid_spec.removals:
        if state.side_of.get(entry.power) != bid.placing_side:
            raise Problem(bid.negative_rule, bid.source, f"{entry.power} is not a power of the {bid.placing_side}, who remove units").violation(label)
        if entry.unit not in removable:
            raise Problem(bid.removable_rule, bid.source, f"{entry.power} {entry.unit} in {state.names.shown(entry.at)}: only {' and '.join(removable)} may be removed").violation(label)
        removed[(entry.at, entry.power, entry.unit)] += entry.count
        value += (board.catalog.cost(entry.unit, entry.power) or 0) * entry.count
    for (at, power, unit), count in removed.items():
        present = board.units(at).get((power, unit), 0)
        from_options = state.option_units[(at, power, unit)] if bid.keep_option_units else 0
        if count > present - from_options:
            why = f"{state.names.shown(at)} holds {present} {power} {unit}"
            if from_options:
                why += f", {from_options} of them from bonus options"
                raise Problem(bid.keep_option_units_rule, bid.source, f"{why}: at most {max(present - from_options, 0)} may be removed, not {count}").violation(label)
            raise Problem(bid.removable_rule, bid.source, f"{why}: {count} cannot be removed").violation(label)
    target = removal_target(-bid_spec.amount, costs, bid.remove_value)
    if value != target:
        how = "rounded down (away from zero) to the next value" if bid.remove_value == "round_down_to_unit" else "the most, not above the bid, that"
        raise Problem(
            bid.remove_value_rule or bid.negative_rule, bid.source,
            f"the removed units are worth {value} PUs; a bid of {bid_spec.amount} removes units worth {target} ({how} {' and '.join(removable)} can make)",
        ).violation(label)
    changes: list[Change] = [RemoveUnits(at, power, unit, count) for (at, power, unit), count in removed.items()]
    lines = [f"{power} remove {count} {unit} from {state.names.shown(at)}" for (at, power, unit), count in removed.items()]
    lines.append(f"bid {bid_spec.amount}: the {bid.placing_side} remove units worth {value} PUs")
    return Outcome(tuple(changes), frozenset(), tuple(lines))


APPLY = {
    "placement": apply_placement,
    "neutral_takeover": apply_neutral_takeover,
    "territory_takeover": apply_territory_takeover,
    "scenario": apply_scenario,
}


def _describe_units(units: Counter[str]) -> str:
    return " and ".join(f"{n} {u}" for u, n in sorted(units.items()))


def _describe_pairs(pairs: Iterable[tuple[str, int]]) -> str:
    return ", ".join(f"{n} {u}" for u, n in pairs) or "none"

"""The placement option (000 options 1, 2, 4-9 and their classic twins): units of the side's powers placed where the option allows."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from kremlin_triplea.draft.picks import Pick
from kremlin_triplea.draft.state import DraftState, Facts, Outcome, Problem
from kremlin_triplea.model.changes import PlaceUnits
from kremlin_triplea.rules.ruleset import Option, PlacementParams


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


def _describe_units(units: Counter[str]) -> str:
    return " and ".join(f"{n} {u}" for u, n in sorted(units.items()))


def _describe_pairs(pairs: Iterable[tuple[str, int]]) -> str:
    return ", ".join(f"{n} {u}" for u, n in pairs) or "none"

"""The neutral-takeover option (000 option 3, 001/002's neutral options): neutrals join a power with their armies."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from kremlin_triplea.draft.picks import Pick
from kremlin_triplea.draft.state import DraftState, Outcome, Problem
from kremlin_triplea.model.changes import Change, PlaceUnits, SetOwner, SetTerritory
from kremlin_triplea.model.queries import Nearest, nearest
from kremlin_triplea.rules.ruleset import NeutralTakeoverParams, Option


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


def _describe_units(units: Counter[str]) -> str:
    return " and ".join(f"{n} {u}" for u, n in sorted(units.items()))


def _describe_pairs(pairs: Iterable[tuple[str, int]]) -> str:
    return ", ".join(f"{n} {u}" for u, n in pairs) or "none"

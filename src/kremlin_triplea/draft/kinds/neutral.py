"""The neutral-takeover option (000 option 3, 001/002's neutral options): neutrals join a power with their armies."""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Iterator
from itertools import combinations

from kremlin_triplea.draft.choices import NeutralChoice, OptionChoices
from kremlin_triplea.draft.kinds.base import OptionKind, register
from kremlin_triplea.draft.picks import NeutralTake, Pick
from kremlin_triplea.draft.state import Displaced, DraftState, Outcome, Problem, describe_pairs
from kremlin_triplea.model.changes import Change, PlaceUnits, SetOwner, SetTerritory
from kremlin_triplea.model.queries import Nearest, nearest
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.options import NeutralTakeoverParams
from kremlin_triplea.rules.ruleset import Option, Ruleset
from kremlin_triplea.rules.tomlfile import Section


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


def navy_problem(state: DraftState, option: Option, territory: str, navy_at: str | None) -> Problem | None:
    """Why the pick's ``navy_at`` cannot be, whatever the board after the bid: the neutral has no ships."""
    if navy_at is not None and not neutral_navy(state, territory):
        shown = state.names.shown(territory)
        return Problem(option.quote("navy"), option.source, f"{shown} has no naval units, so navy_at = {navy_at!r} does not apply")
    return None


def apply_neutral_takeover(state: DraftState, pick: Pick) -> Outcome:
    option = pick.option
    params = option.params
    assert isinstance(params, NeutralTakeoverParams)
    territories = [t.territory for t in pick.takes]
    if len(pick.takes) != params.count or len(set(territories)) != len(territories):
        raise Problem(
            option.quote("count"), option.source, f"the pick takes over {len(set(territories))} different neutral(s); the option takes exactly {params.count}"
        ).violation(pick.label)
    for take in pick.takes:
        problem = neutral_problem(state, option, pick.side, take.territory, take.by) or navy_problem(state, option, take.territory, take.navy_at)
        if problem is not None:
            raise problem.violation(pick.label)
    problem = neutral_set_problem(state, option, territories)
    if problem is not None:
        raise problem.violation(pick.label)
    changes: list[Change] = []
    lines: list[str] = []
    affected: set[str] = set()
    displaced: list[Displaced] = []
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
        line = f"{state.names.shown(territory)} joins {take.by}: {', '.join(facts)}, army {describe_pairs(on_land)}"
        if at_sea:
            # "place it in the nearest friendly sea zone": declared after the bid, on the board as it then stands (000 A).
            # The navy is one group: one navy_at per neutral in the draft file, one place for all its ships.
            (unit, count), *more = at_sea
            displaced.append(
                Displaced(pick.index, pick.label, "navy", territory, take.by, unit, count, pick.side, option.quote("navy"), option.source, tuple(more))
            )
        lines.append(line)
        marker = state.profile.capital_marker
        if marker is not None and marker.at == territory and state.board.node(territory)["capital"] == marker.power:
            changes += [SetTerritory(territory, "capital", None), SetTerritory(marker.refuge, "capital", marker.power)]
            lines.append(f"the {marker.power} capital marker moves from {territory} to {marker.refuge} ({marker.reason})")
    return Outcome(tuple(changes), frozenset(affected), tuple(lines), displaced=tuple(displaced))


@register
class NeutralTakeover(OptionKind):
    """Neutrals join a power of the side with their armies (``take = [...]``)."""

    name = "neutral_takeover"
    target_key = "take"

    def parse_target(self, section: Section, names: Names, ruleset: Ruleset) -> dict:
        return {"takes": NeutralTake.list_from_toml(section, "take", names)}

    def choices(self, state: DraftState, option: Option, side: str, powers: list[str]) -> OptionChoices:
        params = option.params
        assert isinstance(params, NeutralTakeoverParams)
        choices = []
        for territory, neutral in state.neutrals.items():
            takers = []
            for power in powers:
                if neutral_problem(state, option, side, territory, power) is not None:
                    continue
                # Where its ships would go now (shown to players; declared after the bid).
                takers.append((power, navy_destinations(state, territory, power).matches if neutral_navy(state, territory) else ()))
            if takers:
                choices.append(NeutralChoice(territory, neutral.name, neutral.ipc, tuple(takers), neutral.group))
        pairs = (
            tuple(
                (a.territory, b.territory)
                for a, b in combinations(choices, params.count)
                if neutral_set_problem(state, option, [a.territory, b.territory]) is None
            )
            if params.count == 2
            else ()
        )
        unavailable = None if pairs else f"no {params.count} neutrals the option allows together can be taken by the {side}"
        return OptionChoices(option, unavailable=unavailable, neutrals=tuple(choices), neutral_pairs=pairs)

    def picks(self, state: DraftState, choices: OptionChoices, side: str, index: int) -> Iterator[tuple[str, Pick]]:
        """Each neutral and taker (its navy's zone is declared after the bid), with a partner from the enumeration's legal pairs."""
        option = choices.option
        count = option.params.count  # type: ignore[union-attr]
        by_territory = {n.territory: n for n in choices.neutrals}
        for neutral in choices.neutrals:
            others: tuple[NeutralTake, ...] = ()
            if count == 2:
                partners = sorted({b if a == neutral.territory else a for a, b in choices.neutral_pairs if neutral.territory in (a, b)})
                if not partners:
                    continue
                # A partner that varies with the neutral, so more picks share a written file.
                partner = by_territory[partners[zlib.crc32(neutral.territory.encode()) % len(partners)]]
                others = (NeutralTake(partner.territory, partner.takers[0][0]),)
            elif count != 1:
                continue  # the enumeration lists pairs only
            for power, _ in neutral.takers:
                yield f"{power} take {neutral.name}", Pick(index, side, option, takes=(NeutralTake(neutral.territory, power), *others))

    def apply(self, state: DraftState, pick: Pick) -> Outcome:
        return apply_neutral_takeover(state, pick)

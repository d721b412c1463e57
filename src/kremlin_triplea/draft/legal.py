"""Every legal choice for the next pick, like a chess program's legal-move generator.

It asks the very checks ``apply`` uses (kinds.placement_problem,
neutral_problem, navy_problem, takeover_problem, bid_placement_problem), so a
choice listed here is accepted when applied.
"""

from __future__ import annotations

from itertools import combinations

import attrs

from pathlib import Path

from kremlin_triplea.game import Game
from kremlin_triplea.draft.run import Draft, DraftRun, open_game
from kremlin_triplea.errors import RuleViolation, UnknownNameError
from kremlin_triplea.draft.kinds import (
    DraftState,
    Pick,
    bid_cost,
    bid_placement_problem,
    navy_destinations,
    neutral_navy,
    neutral_problem,
    neutral_set_problem,
    placement_problem,
    retreat_destinations,
    retreating_groups,
    takeover_problem,
    unit_sets,
)
from kremlin_triplea.rules.ruleset import NeutralTakeoverParams, Option, PlacementParams
from kremlin_triplea.rules.scenarios import apply_scenario


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
class NeutralChoice:
    territory: str
    name: str  # as the rule text names it
    ipc: int | None  # None: the rule text gives no IPC value
    takers: tuple[tuple[str, tuple[str, ...]], ...]  # (power, sea zones its navy may go to; () if no navy)
    group: str | None = None  # "major" / "minor" where the option counts groups


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
    retreats: tuple[RetreatChoice, ...]


@attrs.frozen
class OptionChoices:
    option: Option
    unavailable: str | None = None  # why the side cannot take this option now
    units: tuple[UnitChoice, ...] = ()
    sets: tuple[SetChoice, ...] = ()
    neutrals: tuple[NeutralChoice, ...] = ()
    neutral_pairs: tuple[tuple[str, str], ...] = ()
    takeovers: tuple[TakeoverChoice, ...] = ()
    scenarios: tuple[str, ...] = ()  # titles of the scenarios the side may pick

    @property
    def available(self) -> bool:
        return self.unavailable is None


@attrs.frozen
class BidChoices:
    side: str
    places: tuple[tuple[str, tuple[str, ...]], ...]  # (power, territories and sea zones it may place on)
    costs: tuple[tuple[str, tuple[tuple[str, int], ...]], ...]  # (power, (unit, cost)...)
    # Rulesets whose negative bid removes units: (power, place, unit, how many may go), option units excluded.
    removable: tuple[tuple[str, str, str, int], ...] = ()


@attrs.frozen
class NextPick:
    index: int  # 1-based; total+1 once the picks are done
    total: int
    side: str | None  # None once the picks are done
    options: tuple[OptionChoices, ...]
    bid: BidChoices | None


def next_choices(draft: Draft, game: Game | None = None, *, maps_dir: Path | str | None = None) -> NextPick:
    """The legal choices after ``draft``'s picks (they must all be legal), on its game or ``game``."""
    run = DraftRun(draft, game or open_game(draft, None, maps_dir))
    run.apply_picks()
    return legal_choices(run)


def legal_choices(run: DraftRun) -> NextPick:
    """The legal choices after the picks ``run`` has applied."""
    index = len(run.applied) + 1
    if index > run.total_picks:
        return NextPick(index, run.total_picks, None, (), bid_choices(run.state))
    side = run.side_to_pick(index)
    return NextPick(index, run.total_picks, side, tuple(option_choices(run.state, option, side) for option in run.ruleset.options), None)


def option_choices(state: DraftState, option: Option, side: str) -> OptionChoices:
    if state.already_used(side, option.number):
        return OptionChoices(option, unavailable=f"the {side} already took option {option.number}")
    powers = [p for p in state.side_powers[side] if state.power_problem(option, side, p) is None]
    if option.kind == "placement":
        return _placement_choices(state, option, side, powers)
    if option.kind == "neutral_takeover":
        return _neutral_choices(state, option, side, powers)
    if option.kind == "scenario":
        return _scenario_choices(state, option, side)
    return _takeover_choices(state, option, side, powers)


def _scenario_choices(state: DraftState, option: Option, side: str) -> OptionChoices:
    titles = []
    for scenario in state.ruleset.scenarios:
        if scenario.side != side:
            continue
        try:
            apply_scenario(state, Pick(index=0, side=side, option=option, scenario=scenario))
        except RuleViolation:
            continue
        except UnknownNameError as error:
            if error.name.lower() in {k.lower() for k in state.profile.unmatched}:
                continue  # the map profile says the map has nothing for a name it needs
            raise
        titles.append(scenario.title)
    unavailable = None if titles else f"every scenario of the {side} involves a place the other side has affected"
    return OptionChoices(option, unavailable=unavailable, scenarios=tuple(titles))


def _placement_choices(state: DraftState, option: Option, side: str, powers: list[str]) -> OptionChoices:
    params = option.params
    assert isinstance(params, PlacementParams)
    facts = state.facts()
    places = list(state.board.nodes)
    wanted = sorted({u for units in unit_sets(state, option) for u in units})
    by_unit: dict[tuple[str, str], tuple[str, ...]] = {}
    for unit in wanted:
        for power in powers:
            by_unit[(unit, power)] = tuple(p for p in places if placement_problem(state, facts, option, side, power, unit, p) is None)
    units = tuple(UnitChoice(u, p, by_unit[(u, p)]) for (u, p) in by_unit if by_unit[(u, p)])
    sets: list[SetChoice] = []
    joint = "same_territory" in params.require and "same_power" in params.require
    possible = False
    for units_of_set in unit_sets(state, option):
        if joint:
            for power in powers:
                common = set(by_unit[(next(iter(units_of_set)), power)])
                for unit in units_of_set:
                    common &= set(by_unit[(unit, power)])
                if common:
                    sets.append(SetChoice(tuple(sorted(units_of_set.elements())), power, tuple(sorted(common))))
                    possible = True
        elif all(any(by_unit[(u, p)] for p in powers) for u in units_of_set):
            possible = True
    unavailable = None if possible else f"no power of the {side} has a legal place for these units"
    return OptionChoices(option, unavailable=unavailable, units=units, sets=tuple(sets))


def _neutral_choices(state: DraftState, option: Option, side: str, powers: list[str]) -> OptionChoices:
    params = option.params
    assert isinstance(params, NeutralTakeoverParams)
    choices = []
    for territory, neutral in state.neutrals.items():
        takers = []
        for power in powers:
            if neutral_problem(state, option, side, territory, power) is not None:
                continue
            if neutral_navy(state, territory):
                found = navy_destinations(state, territory, power)
                zones = tuple(z for z in found.matches if state.lock_problem(side, z) is None)
                if not zones:
                    continue
                takers.append((power, zones))
            else:
                takers.append((power, ()))
        if takers:
            choices.append(NeutralChoice(territory, neutral.name, neutral.ipc, tuple(takers), neutral.group))
    pairs = tuple(
        (a.territory, b.territory)
        for a, b in combinations(choices, params.count)
        if neutral_set_problem(state, option, [a.territory, b.territory]) is None
    ) if params.count == 2 else ()
    unavailable = None if pairs else f"no {params.count} neutrals the option allows together can be taken by the {side}"
    return OptionChoices(option, unavailable=unavailable, neutrals=tuple(choices), neutral_pairs=pairs)


def _takeover_choices(state: DraftState, option: Option, side: str, powers: list[str]) -> OptionChoices:
    board = state.board
    choices = []
    land = [t for t, d in board.nodes.items() if not d["water"]]
    for power in powers:
        for territory in land:
            if takeover_problem(state, option, side, territory, power) is not None:
                continue
            retreats = tuple(
                RetreatChoice(owner, unit, count, retreat_destinations(state, territory, owner, unit).matches)
                for owner, unit, count in retreating_groups(state, territory, power)
            )
            choices.append(TakeoverChoice(territory, power, retreats))
    unavailable = None if choices else f"no enemy territory may be taken over by the {side}"
    return OptionChoices(option, unavailable=unavailable, takeovers=tuple(choices))


def bid_choices(state: DraftState) -> BidChoices:
    bid = state.ruleset.bid
    facts = state.facts()
    board = state.board
    catalog = board.catalog
    places = []
    costs = []
    for power in state.side_powers[bid.placing_side]:
        allowed = tuple(
            p for p in board.nodes
            if any(bid_placement_problem(state, facts, power, u, p) is None for u in catalog.unit_types if bid_cost(board, u, power) is not None)
        )
        places.append((power, allowed))
        costs.append((power, tuple((u, bid_cost(board, u, power) or 0) for u in catalog.unit_types if bid_cost(board, u, power) is not None)))
    removable = []
    if bid.negative == "remove_units":
        units = {state.names.unit(u) for u in bid.removable_units}
        for place, data in board.nodes.items():
            for (owner, unit), count in sorted(data["units"].items(), key=lambda item: (str(item[0][0]), item[0][1])):
                kept = state.option_units[(place, owner, unit)] if bid.keep_option_units else 0
                if unit in units and state.side_of.get(owner) == bid.placing_side and count > kept:
                    removable.append((owner, place, unit, count - kept))
    return BidChoices(bid.placing_side, tuple(places), tuple(costs), tuple(removable))


def describe(next_pick: NextPick, names_shown=lambda n: n) -> list[str]:
    """The choices as text, one option after another."""
    lines: list[str] = []
    if next_pick.side is None:
        lines.append(f"All {next_pick.total} picks are made; next is the bid.")
        bid = next_pick.bid
        assert bid is not None
        for (power, places), (_, costs) in zip(bid.places, bid.costs):
            lines.append(f"  {power} may place on: {', '.join(places)}")
            lines.append(f"    costs: {', '.join(f'{u} {c}' for u, c in costs)}")
        if bid.removable:
            lines.append(f"  a negative bid may remove: {', '.join(f'{n} {power} {unit} in {place}' for power, place, unit, n in bid.removable)}")
        return lines
    lines.append(f"Pick {next_pick.index} of {next_pick.total}: the {next_pick.side} choose.")
    for choices in next_pick.options:
        option = choices.option
        head = f"Option {option.number} ({option.id}) {option.title}"
        if not choices.available:
            lines.append(f"{head}: not available ({choices.unavailable})")
            continue
        lines.append(f"{head}:")
        if choices.sets:
            for entry in choices.sets:
                lines.append(f"  {entry.power} {' + '.join(entry.units)} together on: {', '.join(entry.places)}")
        elif choices.units:
            for entry in choices.units:
                lines.append(f"  {entry.power} {entry.unit} on: {', '.join(entry.places)}")
        for neutral in choices.neutrals:
            takers = "; ".join(f"{p}" + (f" (navy to {' or '.join(z)})" if z else "") for p, z in neutral.takers)
            value = f"{neutral.ipc} IPC" if neutral.ipc is not None else f"{neutral.group} neutral"
            lines.append(f"  {neutral.name} [{neutral.territory}] {value}, by {takers}")
        if choices.neutral_pairs:
            lines.append(f"  {len(choices.neutral_pairs)} legal pairs")
        for takeover in choices.takeovers:
            retreat = "; ".join(
                f"{r.count} {r.owner} {r.unit} -> {' or '.join(r.destinations) or 'cannot retreat (removed)'}" for r in takeover.retreats
            )
            lines.append(f"  {takeover.power} take {takeover.territory}" + (f" (retreat: {retreat})" if retreat else ""))
        for title in choices.scenarios:
            lines.append(f"  scenario = {title!r}")
    return lines

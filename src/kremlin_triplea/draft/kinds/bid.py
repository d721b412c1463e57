"""The bid (000 C, 001 bidding, 002 bid order): units placed for a positive bid, PUs or removals for a negative one."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable

from kremlin_triplea.draft.picks import BidSpec
from kremlin_triplea.draft.state import DraftState, Facts, Outcome, Problem
from kremlin_triplea.errors import possessive
from kremlin_triplea.model.board import Board
from kremlin_triplea.model.changes import Change, PlaceUnits, RemoveUnits, SetProperty, SetPUs


def bid_cost(board: Board, unit: str, power: str) -> int | None:
    """What ``power`` pays for ``unit`` in a bid: None unless its production frontier sells it.

    The classic games define artillery and destroyer rules that no frontier
    lists; a bid may only buy what the power could buy in the game.
    """
    catalog = board.catalog
    if any(player == power for player, _ in catalog.costs):
        return catalog.costs.get((power, unit))
    return catalog.cost(unit, power)


def bid_placement_problem(state: DraftState, facts: Facts, power: str, unit: str, place: str, *, carriers_counted_by_caller: bool = False) -> Problem | None:
    """Why ``power`` may not place one ``unit`` at ``place`` for the bid (None: it may).

    A plane at sea needs carrier room; the whole bid (:func:`apply_bid`) counts the
    carriers it places too and passes ``carriers_counted_by_caller``.
    """
    bid = state.ruleset.bid
    board = state.board
    shown = state.names.shown(place)
    if state.side_of.get(power) != bid.placing_side:
        return Problem(bid.placement_rule, bid.source, f"{power} is not a power of the {bid.placing_side}, who place the bid")
    kind = board.catalog.unit_type(unit)
    if bid_cost(board, unit, power) is None:
        return Problem(bid.amount_rule, bid.source, f"{power} cannot buy {unit} in this game (not in its production frontier), so it cannot be bid")
    if board.is_water(place):
        # 000 C: a power's units go on its own territories "and sea zones": ships, and planes on carriers with room.
        if not kind.is_ship and not (kind.domain == "air" and kind.carrier_cost):
            return Problem(bid.placement_rule, bid.source, f"a {unit} cannot be placed in the sea zone {shown}")
        if place not in facts.owned_sea(power):
            return Problem(bid.placement_rule, bid.source, f"{shown} is not a {power}-owned sea zone (adjacent to a territory {power} owns)")
        enemies = facts.enemy_places(power).get(place)
        if enemies and not any(n for (owner, _), n in board.units(place).items() if owner == power):
            # The board invariants hold at sea (draft/invariants.py): the game starts from the board the draft
            # writes, before any combat. TripleA's own placement refuses it too unless a game allows "Unit Placement
            # In Enemy Seas" (AbstractPlaceDelegate: "Cannot place sea units with enemy naval units"). A game that
            # starts with the power's units beside enemies there (oztea_1942's 109 Sea Zone: Germans and British)
            # keeps its own oddity, which one more unit of the power does not change.
            return Problem(
                bid.placement_rule, bid.source, f"{shown} holds units of {', '.join(enemies)}, at war with {power}: no game starts with enemies in one sea zone"
            )
        if not kind.is_ship and not carriers_counted_by_caller:
            capacity, used = facts.carrier_room(place, power)
            if capacity - used < kind.carrier_cost:
                return Problem(
                    bid.placement_rule,
                    bid.source,
                    f"a {unit} at sea needs a carrier with room: {shown} has room for {max(capacity - used, 0)} (carriers {capacity}, taken {used})",
                )
    else:
        if kind.is_ship:
            return Problem(bid.placement_rule, bid.source, f"a {unit} cannot be placed on land ({shown})")
        if board.owner(place) != power:
            return Problem(bid.placement_rule, bid.source, f"{shown} is owned by {board.owner(place) or 'nobody'}, not {power}")
        if board.node(place)["impassable"]:
            return Problem(bid.placement_rule, bid.source, f"{shown} is impassable: a neutral in the rules, not {power} territory")
        if unit in state.factories and any(n for (_, u), n in board.units(place).items() if u in state.factories):
            # The board every game starts from (draft/invariants.py): a territory holds one factory.
            return Problem(bid.placement_rule, bid.source, f"{shown} already has a {unit}: a territory holds one")
    return None


def bid_receivers(state: DraftState) -> list[str]:
    """The powers a negative bid's PUs may go to: the receiving side's powers that spend PUs (not AA50's Chinese)."""
    return [p for p in state.side_powers[state.ruleset.bid.receiving_side] if state.board.catalog.players[p].spends_pus]


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
        raise Problem(
            bid.negative_rule, bid.source, f"in {state.ruleset.id} a negative bid gives the {bid.receiving_side} PUs (allocate), it removes no units"
        ).violation(label)
    if bid_spec.amount > 0:
        facts = state.facts()
        spent = 0
        merged = Counter[tuple[str, str, str]]()
        for entry in bid_spec.placements:
            problem = bid_placement_problem(state, facts, entry.power, entry.unit, entry.at, carriers_counted_by_caller=True)
            if problem is not None:
                raise problem.violation(label)
            spent += (bid_cost(board, entry.unit, entry.power) or 0) * entry.count
            merged[(entry.at, entry.power, entry.unit)] += entry.count
        if spent > bid_spec.amount:
            raise Problem(bid.amount_rule, bid.source, f"the units cost {spent} PUs, more than the bid of {bid_spec.amount}").violation(label)
        _check_carriers(state, facts, merged, label)
        changes += [PlaceUnits(at, power, unit, count) for (at, power, unit), count in merged.items()]
        lines += [f"{power} place {count} {unit} in {state.names.shown(at)}" for (at, power, unit), count in merged.items()]
        if bid_spec.phase:
            phase_changes, phase_lines = _bid_phase(state, bid_spec, bid_spec.amount - spent, label)
            changes += phase_changes
            lines += phase_lines
        else:
            lines.append(f"bid {bid_spec.amount}: units worth {spent} PUs placed, {bid_spec.amount - spent} unspent")
    elif bid_spec.amount < 0:
        changes, lines = _allocate(state, bid_spec, label)
    else:
        lines.append("bid 0: nothing placed, nothing allocated")
    return Outcome(tuple(changes), frozenset(), tuple(lines))


def _check_carriers(state: DraftState, facts: Facts, merged: Counter[tuple[str, str, str]], label: str) -> None:
    """Planes the bid puts at sea land on carriers there, the bid's own carriers included."""
    bid, board = state.ruleset.bid, state.board
    for zone in sorted({at for at, _, _ in merged if board.is_water(at)}):
        placed = [(power, board.catalog.unit_type(unit), count) for (at, power, unit), count in merged.items() if at == zone]
        if not any(kind.domain == "air" for _, kind, _ in placed):
            continue  # no plane of the bid here: planes the game itself has at sea are not the bid's to house
        capacity, used = facts.carrier_room(zone, placed[0][0])
        capacity += sum(kind.carrier_capacity * count for _, kind, count in placed)
        used += sum(kind.carrier_cost * count for _, kind, count in placed if kind.domain == "air")
        if used > capacity:
            raise Problem(
                bid.placement_rule,
                bid.source,
                f"the bid's planes in {state.names.shown(zone)} need {used} carrier spaces; the carriers there have {capacity}",
            ).violation(label)


def _allocate(state: DraftState, bid_spec: BidSpec, label: str) -> tuple[list[Change], list[str]]:
    """A negative bid's PUs, given to the receiving side's powers as ``allocate`` says (000 C)."""
    bid, board = state.ruleset.bid, state.board
    changes: list[Change] = []
    lines: list[str] = []
    total = 0
    for power, amount in bid_spec.allocate:
        if state.side_of.get(power) != bid.receiving_side:
            raise Problem(bid.negative_rule, bid.source, f"{power} is not a power of the {bid.receiving_side}").violation(label)
        if amount and power not in bid_receivers(state):
            raise Problem(
                bid.negative_rule,
                bid.source,
                f"{power} cannot spend PUs in this game (its purchase step places units without PUs), so PUs given to {power} "
                f"would be worth nothing to the {bid.receiving_side}; give them to {', '.join(bid_receivers(state))}",
            ).violation(label)
        if amount < 0:
            raise Problem(bid.negative_rule, bid.source, f"{power} would receive {amount} PUs; amounts must not be negative").violation(label)
        total += amount
    if total != -bid_spec.amount:
        raise Problem(
            bid.negative_rule,
            bid.source,
            f"the allocation gives {total} PUs; a bid of {bid_spec.amount} gives the {bid.receiving_side} exactly {-bid_spec.amount}",
        ).violation(label)
    for power, amount in bid_spec.allocate:
        if amount:
            changes.append(SetPUs(power, board.pus.get(power, 0) + amount))
            lines.append(f"{power} receive {amount} PUs ({board.pus.get(power, 0)} -> {board.pus.get(power, 0) + amount})")
    lines.append(f"bid {bid_spec.amount}: the {bid.receiving_side} receive {-bid_spec.amount} PUs")
    return changes, lines


def _bid_phase(state: DraftState, bid_spec: BidSpec, left: int, label: str) -> tuple[list[Change], list[str]]:
    """A positive bid (or what the declared units left of it) handed to TripleA's own bid phase."""
    bid = state.ruleset.bid
    if bid.positive != "declared_or_bid_phase":
        raise Problem(
            bid.placement_rule,
            bid.source,
            f"in {state.ruleset.id} the bid units must be declared (place = [...]); the bid cannot be left to TripleA's bid phase",
        ).violation(label)
    pattern = state.profile.bid_property
    if pattern is None:
        raise Problem(
            bid.positive_rule, bid.source, f"the map profile {state.profile.path} names no bid property ([bid_phase]), so this game's bid phase cannot be used"
        ).violation(label)
    changes: list[Change] = []
    lines: list[str] = []
    for power, amount in bid_spec.phase:
        if state.side_of.get(power) != bid.placing_side:
            raise Problem(bid.placement_rule, bid.source, f"{power} is not a power of the {bid.placing_side}, who place the bid").violation(label)
        name = pattern.format(power=power)
        if name not in state.board.properties:
            raise Problem(bid.positive_rule, bid.source, f"the game has no property {name!r} for {possessive(power)} bid").violation(label)
        if amount < 0:
            raise Problem(bid.amount_rule, bid.source, f"{possessive(power)} bid phase gets {amount} PUs; amounts must not be negative").violation(label)
        if amount:
            changes.append(SetProperty(name, str(amount)))
            lines.append(f"{power} spend {amount} PUs in TripleA's bid phase (game option {name!r})")
    total = sum(n for _, n in bid_spec.phase)
    if total != left:
        raise Problem(
            bid.amount_rule, bid.source, f"the bid phase gets {total} PUs, but {left} of the bid of {bid_spec.amount} are left after the declared units"
        ).violation(label)
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


def removable_units(state: DraftState) -> dict[tuple[str, str, str], int]:
    """(power, unit, place) -> how many units a negative bid may remove there (001 1.7, 002 III).

    The placing side's units of the ruleset's removable types, less the units
    bonus options placed there where the ruleset keeps those ("units selected
    with a bonus option"). Units an opponent's scenario moved are not option units.
    """
    bid = state.ruleset.bid
    # "Only armor and infantry": each power's own (Total World War's germanTank), a word the map lacks none.
    types = {unit for word in bid.removable_units for unit in state.names.units_of_any_power(word)}
    found: dict[tuple[str, str, str], int] = {}
    for place in sorted(state.board.nodes):
        for (owner, unit), count in sorted(state.board.units(place).items(), key=lambda item: (str(item[0][0]), item[0][1])):
            if unit not in types or owner is None or state.side_of.get(owner) != bid.placing_side:
                continue
            kept = state.option_units[(place, owner, unit)] if bid.keep_option_units else 0
            if count > kept:
                found[(owner, unit, place)] = count - kept
    return found


def _remove_for_negative_bid(state: DraftState, bid_spec: BidSpec, label: str) -> Outcome:
    """A negative bid that removes the placing side's units (001, 002), declared in the draft."""
    bid = state.ruleset.bid
    board = state.board
    if bid_spec.allocate:
        raise Problem(
            bid.negative_rule, bid.source, f"in {state.ruleset.id} a negative bid removes {bid.placing_side} units (remove = [...]); it gives no PUs"
        ).violation(label)
    # In the ruleset's order (its message names them so), each power's own type for a word (issue 28).
    removable = list(dict.fromkeys(unit for word in bid.removable_units for unit in sorted(state.names.units_of_any_power(word) or {state.names.unit(word)})))
    costs = {board.catalog.cost(u, p) for u in removable for p in state.side_powers[bid.placing_side]} - {None, 0}
    if not costs:
        raise Problem(
            bid.removable_rule or bid.negative_rule, bid.source, f"this game gives no cost to {' or '.join(removable)}, so no units can be worth the bid"
        ).violation(label)
    removed = Counter[tuple[str, str, str]]()
    value = 0
    for entry in bid_spec.removals:
        if state.side_of.get(entry.power) != bid.placing_side:
            raise Problem(bid.negative_rule, bid.source, f"{entry.power} is not a power of the {bid.placing_side}, who remove units").violation(label)
        if entry.unit not in removable:
            raise Problem(
                bid.removable_rule, bid.source, f"{entry.power} {entry.unit} in {state.names.shown(entry.at)}: only {' and '.join(removable)} may be removed"
            ).violation(label)
        removed[(entry.at, entry.power, entry.unit)] += entry.count
        value += (board.catalog.cost(entry.unit, entry.power) or 0) * entry.count
    for (at, power, unit), count in removed.items():
        present = board.units(at).get((power, unit), 0)
        from_options = state.option_units[(at, power, unit)] if bid.keep_option_units else 0
        if count > present - from_options:
            why = f"{state.names.shown(at)} holds {present} {power} {unit}"
            if from_options:
                why += f", {from_options} of them from bonus options"
                raise Problem(bid.keep_option_units_rule, bid.source, f"{why}: at most {max(present - from_options, 0)} may be removed, not {count}").violation(
                    label
                )
            raise Problem(bid.removable_rule, bid.source, f"{why}: {count} cannot be removed").violation(label)
    target = removal_target(-bid_spec.amount, costs, bid.remove_value)
    if value != target:
        how = "rounded down (away from zero) to the next value" if bid.remove_value == "round_down_to_unit" else "the most, not above the bid, that"
        raise Problem(
            bid.remove_value_rule or bid.negative_rule,
            bid.remove_value_source or bid.source,
            f"the removed units are worth {value} PUs; a bid of {bid_spec.amount} removes units worth {target} ({how} {' and '.join(removable)} can make)",
        ).violation(label)
    changes: list[Change] = [RemoveUnits(at, power, unit, count) for (at, power, unit), count in removed.items()]
    lines = [f"{power} remove {count} {unit} from {state.names.shown(at)}" for (at, power, unit), count in removed.items()]
    lines.append(f"bid {bid_spec.amount}: the {bid.placing_side} remove units worth {value} PUs")
    return Outcome(tuple(changes), frozenset(), tuple(lines))

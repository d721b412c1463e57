"""Every legal choice for the next pick, like a chess program's legal-move generator.

Each option kind lists its own legal targets (``KINDS[kind].choices``) with
the very checks its ``apply`` uses, and the bid's with bid_placement_problem,
so a choice listed here is accepted when applied; an option none of whose
targets the draft would accept whole (``DraftRun.offered_choices``: the board
invariants) is not available, with why.
"""

from __future__ import annotations

from kremlin_triplea.draft.choices import BidChoices, NextPick
from kremlin_triplea.draft.kinds import KINDS, DraftState
from kremlin_triplea.draft.kinds.bid import bid_cost, bid_placement_problem, removable_units
from kremlin_triplea.draft.run import DraftRun


def legal_choices(run: DraftRun) -> NextPick:
    """The legal choices after the picks ``run`` has applied."""
    index = len(run.applied) + 1
    if index > run.total_picks:
        return NextPick(index, run.total_picks, None, (), bid_choices(run.state))
    side = run.side_to_pick(index)
    return NextPick(index, run.total_picks, side, tuple(run.offered_choices(option, side) for option in run.ruleset.options), None)


def bid_choices(state: DraftState) -> BidChoices:
    bid = state.ruleset.bid
    facts = state.facts()
    board = state.board
    catalog = board.catalog
    places = []
    costs = []
    for power in state.side_powers[bid.placing_side]:
        buyable = [u for u in catalog.unit_types if bid_cost(board, u, power) is not None]
        # Land the power does not own takes no bid unit: skipped before the full check (and its message) runs.
        allowed = tuple(
            p
            for p, data in board.nodes.items()
            if (data["water"] or data["owner"] == power) and any(bid_placement_problem(state, facts, power, u, p) is None for u in buyable)
        )
        places.append((power, allowed))
        costs.append((power, tuple((u, bid_cost(board, u, power) or 0) for u in buyable)))
    removable = []
    if bid.negative == "remove_units":
        removable = [(power, place, unit, count) for (power, unit, place), count in removable_units(state).items()]
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
        lines += KINDS[option.kind].describe_choices(choices)
    return lines

"""Whole drafts drawn at random from the draft's legal picks (the property tests and the engine batches use them)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from kremlin_triplea.draft.declare import write_declaration
from kremlin_triplea.draft.kinds.bid import bid_cost, bid_placement_problem, bid_receivers, removable_units, removal_target
from kremlin_triplea.draft.legal import bid_choices
from kremlin_triplea.draft.picks import Pick
from kremlin_triplea.draft.run import draft_from_dict
from kremlin_triplea.game import Game
from kremlin_triplea.rules.ruleset import Option
from kremlin_triplea.session import Declaration, Session
from support.aa50 import fresh_game

T = TypeVar("T")
Choose = Callable[[Sequence[T]], T]


def draw_pick(session: Session, choose: Choose, prefer: Callable[[list[Option]], list[Option]] = lambda options: []) -> Pick | None:
    """A legal next pick drawn at random: an option among those with a legal pick (by number), then one of its legal
    picks (in the enumeration's order); None when the picks are done or none is legal.

    The same draw as grouping the whole of ``session.legal_picks`` by option, with the same ``choose`` answers, but
    only the drawn option's picks are listed: whether an option has one is what ``next_pick`` (``legal``) says, and
    it stops at the option's first accepted pick (tests/test_legal_equals_accepted.py holds the two equal).
    ``prefer``: options (of those with a pick) to draw among instead when ``choose([True, False])`` says so.
    """
    next_pick = session.next_pick()
    if next_pick.side is None:
        return None
    offering = {c.option.number: c.option for c in next_pick.options if c.available}
    if not offering:
        return None
    preferred = [o.number for o in prefer(list(offering.values()))]  # in the ruleset's order, as the enumeration lists them
    number = choose(preferred) if preferred and choose([True, False]) else choose(sorted(offering))
    return choose([pick for _, pick in session.option_picks(offering[number], next_pick.side)])


def random_draft(choose: Choose, ruleset: str, game: Path, first: str, per_side: int) -> dict[str, Any]:
    """A complete draft (the TOML's data): each pick drawn from the legal picks (an option, then one of its targets), then a bid."""
    data: dict[str, Any] = {"ruleset": ruleset, "game": str(game), "first": first, "picks_per_side": per_side, "pick": []}
    session = Session(draft_from_dict(dict(data)), fresh_game(game))  # driven as the players drive a draft
    for _ in range(2 * per_side):
        chosen = draw_pick(session, choose)
        assert chosen is not None, "every draft of the rulesets has a legal pick until its last"
        session.push(chosen)
        data["pick"].append(chosen.to_toml())
    # After the bid, each displaced group goes where its side says among its nearest places then (000 A): the session
    # places a group with one nearest place, and asks for the others, as it asks the players.
    while (waiting := session.open_declaration()) is not None:
        displaced, found, _ = waiting
        to = choose(found.matches)
        write_declaration(data["pick"][displaced.pick - 1], displaced, to, session.names)
        session.declare(Declaration(displaced, to))
    data["bid"] = random_bid(choose, session)
    return data


def random_bid(choose: Choose, session: Session) -> dict[str, Any]:
    """A legal bid: units the placing side buys and places where the bid may, or a negative bid as the ruleset takes it."""
    rules = session.ruleset.bid
    placing = rules.placing_side.lower()
    amount = choose(range(-12, 13))
    if amount == 0:
        return {placing: 0}
    if amount > 0:
        if rules.positive == "declared_or_bid_phase" and choose([True, False]):
            powers = list(session.state.side_powers[rules.placing_side])
            first = choose(range(amount + 1))
            return {placing: amount, "phase": {powers[0]: first, powers[1]: amount - first}}
        return {placing: amount, "place": _declared_units(choose, session, amount)}
    if rules.negative == "remove_units":
        return _removals(choose, session, amount)
    receivers = bid_receivers(session.state)
    allocate: dict[str, int] = {}
    for _ in range(-amount):
        power = choose(receivers)
        allocate[power] = allocate.get(power, 0) + 1
    return {placing: amount, "allocate": allocate}


def _declared_units(choose: Choose, session: Session, amount: int) -> list[dict[str, Any]]:
    """Up to three units the placing side can buy, each where the bid may place it, worth at most ``amount``."""
    choices, facts, board = bid_choices(session.state), session.state.facts(), session.game.board
    place, left = [], amount
    for _ in range(choose(range(0, 4))):
        power, places = choose(choices.places)
        affordable = [u for u in board.catalog.unit_types if (bid_cost(board, u, power) or 99) <= left]
        if not affordable:
            break
        unit = choose(affordable)
        fitting = [p for p in places if bid_placement_problem(session.state, facts, power, unit, p) is None]
        if fitting:
            place.append({"power": power, "unit": unit, "count": 1, "at": choose(fitting)})
            left -= bid_cost(board, unit, power) or 0
    return place


def _removals(choose: Choose, session: Session, amount: int) -> dict[str, Any]:
    """A negative bid removing removable units worth exactly what the ruleset asks (or no bid when none fits)."""
    rules, board = session.ruleset.bid, session.game.board
    spare = [key for key, count in removable_units(session.state).items() for _ in range(count)]  # one entry per unit
    costs = {(p, u): board.catalog.cost(u, p) or 0 for p, u, _ in spare}
    target = removal_target(-amount, set(costs.values()) - {0}, rules.remove_value)
    for _ in range(20):
        picked, value, pool = [], 0, list(spare)
        while value < target and pool:
            entry = choose(pool)
            pool.remove(entry)
            if costs[entry[:2]] and value + costs[entry[:2]] <= target:
                picked.append(entry)
                value += costs[entry[:2]]
        if value == target:
            return {rules.placing_side.lower(): amount, "remove": [{"power": p, "unit": u, "count": 1, "at": at} for p, u, at in picked]}
    return {rules.placing_side.lower(): 0}


def board_view(game: Game) -> dict[str, Any]:
    """Everything a written game must read back to: places, PUs, properties, name."""
    board = game.board
    nodes = {name: {**data, "units": {k: n for k, n in data["units"].items() if n}} for name, data in board.nodes.items()}
    return {"nodes": nodes, "pus": dict(board.pus), "properties": dict(board.properties), "name": board.game_name}

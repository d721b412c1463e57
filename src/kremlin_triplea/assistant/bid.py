"""The bid's questions in the terminal draft: its amount, the units it places or removes, the PUs it allocates, and
the declarations of where displaced units go, which come before it (000 A, Order of action). Asked through the
:class:`~kremlin_triplea.assistant.session.Conversation` that owns the draft's answers, as
:class:`~kremlin_triplea.assistant.house.HouseQuestions` asks the house rules."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from kremlin_triplea.assistant.asking import Choice
from kremlin_triplea.draft.declare import question
from kremlin_triplea.draft.kinds.bid import bid_placement_problem, bid_receivers, removable_units, removal_target
from kremlin_triplea.draft.legal import bid_choices
from kremlin_triplea.draft.picks import BidSpec, UnitPlacement
from kremlin_triplea.report.value import value_session
from kremlin_triplea.rules.ruleset import BidRules
from kremlin_triplea.session import Bid, Declaration


class BidQuestions:
    """The bid of the conversation's session, asked of the players."""

    def __init__(self, conversation: Any) -> None:  # assistant.session.Conversation, which asks through this class
        self.conversation = conversation
        self.session = conversation.session

    def say(self, text: str = "") -> None:
        self.conversation.say(text)

    def ask_bid(self) -> None:
        """The bid, after the declarations that come before it, pushed onto the session as one :class:`Bid`."""
        say = self.say
        session = self.session
        state = session.state
        bid_rules = state.ruleset.bid
        say("")
        say(
            f"All {session.total_picks} picks are made. "
            + ", ".join(f"{s} {sum(v.value for v in value_session(session).picks if v.side == s):+d}" for s in state.side_powers)
            + " IPCs by the valuation ('values' details it)."
        )
        if session.bid is not None:
            # A finished draft resumed: its bid is the default, on the board the picks and declarations made.
            self.ask_declarations()  # a bid the declarations leave without a place is withdrawn (session.bid_dropped)
        if session.bid is not None:
            say(f"The saved bid: {_bid_words(session.bid.to_toml(bid_rules.placing_side))}.")
            keep = Choice(True, ("keep", "yes"), "keep (the saved bid)")
            if self.conversation.choose("the saved bid> ", [keep, Choice(False, ("change", "no"), "change (a new bid)")], default=keep, list_them=False):
                session.save()
                return
            session.withdraw_bid()
        elif (dropped := session.take_dropped_bid()) is not None:
            say(f"The saved bid no longer applies ({dropped}); a new bid is asked.")
        say(f"The bid ({bid_rules.source}): positive, the {bid_rules.placing_side} place units worth it; negative, {_negative_bid_words(bid_rules)}.")
        phase_powers = session.bid_phase_powers
        if phase_powers:
            say(f"  a positive bid may also be left to TripleA's own bid phase ({bid_rules.source}): the {bid_rules.placing_side} buy and place it in the game")
        amount = self.conversation.number("bid> ", -10_000, 10_000, 0)
        # The answers make the bid itself (the game's names, as chosen), not a draft file's [bid] table to read again.
        placements: tuple[UnitPlacement, ...] = ()
        removals: tuple[UnitPlacement, ...] = ()
        allocate: dict[str, int] = {}
        phase_shares: dict[str, int] = {}
        # The bid is made: the units the picks displaced are placed before the bid's units (000 A "Order of action").
        self.ask_declarations()
        if amount > 0:
            placements, left = self.ask_bid_placements(amount)
            if left and phase_powers:
                phase = Choice(True, ("phase", "bid phase"), f"phase (TripleA's bid phase: the {bid_rules.placing_side} spend them in the game)")
                unspent = Choice(False, ("unspent",), "unspent")
                if self.conversation.choose(f"the {left} PUs left> ", [phase, unspent], default=phase):
                    phase_shares = self.ask_shares(left, phase_powers, "for TripleA's bid phase")
        elif amount < 0:
            if bid_rules.negative == "remove_units":
                removals = self.ask_removals(-amount)
            else:
                allocate = self.ask_allocation(-amount)
        session.push(Bid(BidSpec(amount, placements, tuple(allocate.items()), removals, tuple(phase_shares.items()))))
        session.save()

    def ask_declarations(self) -> None:
        """Where each displaced group goes, in the picks' order, asked of its side where several places are nearest."""
        session = self.session
        said = False
        # A declaration is saved in the draft file as it is made, like a pick: ``back`` in the bid's questions
        # does not replay it (its answer is not among the bid's answers).
        answered = len(self.conversation.answers)
        while (step := session.open_declaration()) is not None:
            displaced, found, stale = step
            if not said:
                self.say("Where the units the picks displaced go, in the order of the picks (000 A, Order of action 1):")
                said = True
            if stale is not None:
                self.say(f"  the draft's place for {displaced.describe()} no longer applies: {stale}")
            player = session.players.get(displaced.side)
            self.say(
                f"  {displaced.describe()} (pick {displaced.pick}) may go to {', '.join(found.matches)}: "
                + (f"{player}, for the {displaced.side}, choose" if player else f"the {displaced.side} choose")
            )
            what = f"{question(displaced)}> "
            to = self.conversation.choose(
                what, self.conversation.place_choices(found.matches), list_them=False, counted=False, resolve=self.conversation.resolve_place
            )  # listed above
            session.declare(Declaration(displaced, to))
            session.save()
            del self.conversation.answers[answered:]
        lines = session.declaration_lines()
        if lines and not said:
            self.say("Where the units the picks displaced go (000 A, Order of action 1):")
        for line in lines:
            self.say(f"  {line}")

    def ask_bid_placements(self, amount: int) -> tuple[tuple[UnitPlacement, ...], int]:
        """The units the bid places, and the PUs left."""
        say = self.say
        choices = bid_choices(self.session.state)
        costs = dict(choices.costs)
        places = dict(choices.places)

        state = self.session.state
        facts = state.facts()
        placed: list[tuple[str, str, str, int]] = []
        left = amount
        while True:
            affordable = {p: [(u, c) for u, c in costs[p] if 0 < c <= left] for p in costs}
            powers = [p for p in costs if affordable[p] and places[p]]
            if not powers:
                break
            say(f"  {left} PUs left to place" + (" (type 'done' to keep the rest unspent)" if placed or left else ""))
            done = Choice(None, ("done",))
            power = self.conversation.choose("bid for which power> ", [Choice(p, (p,)) for p in powers] + [done], resolve=state.names.power)
            if power is None:
                break
            unit = self.conversation.choose(f"{power} unit> ", [Choice(u, (u,), f"{u} ({c} PUs)") for u, c in affordable[power]], resolve=state.names.unit)
            legal = [p for p in places[power] if bid_placement_problem(state, facts, power, unit, p) is None]
            if not legal:
                say(f"  {power} have no place for a {unit}")
                continue
            place = self.conversation.choose(
                f"{power} {unit} where> ",
                self.conversation.place_choices(legal),
                list_them=len(legal) <= 30,
                resolve=self.conversation.resolve_place,
                refuse=lambda answer, power=power, unit=unit: self.conversation.refusal(
                    answer, lambda at: bid_placement_problem(state, facts, power, unit, at), label=f"bid ({state.ruleset.bid.placing_side})"
                ),
            )
            cost = dict(affordable[power])[unit]
            count = self.conversation.number(f"how many (up to {left // cost})> ", 1, left // cost, 1)
            placed.append((power, unit, place, count))
            left -= cost * count
        return tuple(UnitPlacement(p, u, n, at) for p, u, at, n in placed), left

    def ask_removals(self, amount: int) -> tuple[UnitPlacement, ...]:
        """A negative bid that removes the placing side's units: exactly the value the rules set, never a dead end."""
        say = self.say
        state = self.session.state
        rules = state.ruleset.bid
        board = state.board
        removable = [state.names.unit(u) for u in rules.removable_units]
        powers = state.side_powers[rules.placing_side]
        cost = {(p, u): board.catalog.cost(u, p) for p in powers for u in removable if board.catalog.cost(u, p)}
        target = removal_target(amount, set(cost.values()), rules.remove_value)
        # (power, unit, place) -> units that may go
        stock: Counter[tuple[str, str, str]] = Counter({k: n for k, n in removable_units(state).items() if k[:2] in cost})
        say(f"  a bid of -{amount} removes {rules.placing_side} units ({', '.join(removable)}) worth exactly {target} PUs")
        removed: list[UnitPlacement] = []
        left = target
        while left > 0:

            def fits(power: str, unit: str, place: str, count: int, left: int = left) -> bool:
                rest = stock.copy()
                rest[(power, unit, place)] -= count
                return _reachable(left - cost[(power, unit)] * count, [(cost[(p, u)], n) for (p, u, _), n in rest.items() if n > 0])

            open_keys = [k for k, n in stock.items() if n > 0 and cost[k[:2]] <= left and fits(*k, 1)]
            power = self.conversation.choose(
                f"{left} PUs of units left to remove; from which power> ",
                [Choice(p, (p,)) for p in dict.fromkeys(k[0] for k in open_keys)],
                resolve=state.names.power,
            )
            unit = self.conversation.choose(
                f"{power} unit to remove> ",
                [Choice(u, (u,), f"{u} ({cost[(power, u)]} PUs)") for u in dict.fromkeys(k[1] for k in open_keys if k[0] == power)],
                resolve=state.names.unit,
            )
            places = [k[2] for k in open_keys if k[:2] == (power, unit)]
            place = self.conversation.choose(
                f"remove {power} {unit} from> ", self.conversation.place_choices(places), list_them=len(places) <= 30, resolve=self.conversation.resolve_place
            )
            price, most = cost[(power, unit)], stock[(power, unit, place)]
            # Only counts the PUs left pay for are asked about (a game's own count may be in the millions).
            most = min(most, left // price) if price > 0 else most
            counts = [n for n in range(1, most + 1) if fits(power, unit, place, n)]
            count = counts[0] if len(counts) == 1 else self.conversation.choose("how many> ", [Choice(n, (str(n),)) for n in counts])
            stock[(power, unit, place)] -= count
            left -= cost[(power, unit)] * count
            removed.append(UnitPlacement(power, unit, count, place))
        return tuple(removed)

    def ask_allocation(self, total: int) -> dict[str, int]:
        return self.ask_shares(total, bid_receivers(self.session.state), "")

    def ask_shares(self, total: int, powers: Sequence[str], purpose: str) -> dict[str, int]:
        """``total`` PUs shared among ``powers``: each asked in turn, the last receives the rest."""
        left = total
        shares: dict[str, int] = {}
        for number, power in enumerate(powers):
            if left == 0:
                break
            last = number == len(powers) - 1
            amount = left if last else self.conversation.number(f"PUs for {power}{' ' + purpose if purpose else ''} (0..{left})> ", 0, left, 0)
            if last:
                self.say(f"  {power} receive the remaining {left}")
            if amount:
                shares[power] = amount
            left -= amount
        return shares


def _reachable(value: int, items: list[tuple[int, int]]) -> bool:
    """Whether some of ``items`` ((cost, how many)) add up to exactly ``value``."""
    if value < 0 or value > sum(cost * count for cost, count in items):
        return False  # also bounds the table below by the units there are, whatever the bid
    found = [True] + [False] * value
    for cost, count in items:
        for _ in range(min(count, value // cost)):
            for v in range(value, cost - 1, -1):
                found[v] = found[v] or found[v - cost]
    return found[value]


def _negative_bid_words(rules: BidRules) -> str:
    """What a negative bid does under this ruleset, in its own words (000 gives the PUs to the Allies; 001 and 002 remove Axis units)."""
    if rules.negative == "remove_units":
        return f'the {rules.placing_side} remove {" or ".join(rules.removable_units)} worth it from the board ("{rules.removable_rule or rules.negative_rule}")'
    return f'the {rules.receiving_side} receive the PUs ("{rules.negative_rule}")'


def _bid_words(bid: dict[str, Any]) -> str:
    """A ``[bid]`` table as one line: its amount, then what it places, removes, allocates or leaves to the bid phase."""
    parts = [", ".join(f"{k} {v}" for k, v in bid.items() if isinstance(v, int))]
    for key, verb in (("place", "place"), ("remove", "remove")):
        for entry in bid.get(key, []):
            parts.append(f"{entry['power']} {verb} {entry['count']} {entry['unit']} {'in' if key == 'place' else 'from'} {entry['at']}")
    for key, what in (("allocate", "receive"), ("phase", "spend in TripleA's bid phase")):
        for power, amount in bid.get(key, {}).items():
            parts.append(f"{power} {what} {amount} PUs")
    return "; ".join(p for p in parts if p)

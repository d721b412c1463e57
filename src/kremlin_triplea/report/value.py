"""What each pick is worth, in IPCs, so players can judge the bid (000, section C).

A pick is valued by what it changes on the board, measured for each side
before and after it:

* **units** at the game's own costs (``Catalog.cost`` for the unit's owner), so
  units placed count for their side and enemy units destroyed count against
  theirs;
* **production**: the IPC value of the territories each side owns, so a
  territory taken from the enemy counts twice in the difference (gained by
  one side, lost by the other) and a neutral joining counts once;
* **PUs**: starting PUs given or taken (negative bids, some scenarios).

A pick's value to its side is its own gain minus the other side's. Units that
are moved rather than created or destroyed (retreats) are reported as
*displaced* with their cost, but change neither side's total: their new
position is not valued. Units a pick takes off the board until the
declarations after the bid (a territory's defenders, a neutral's ships) count
as their owner's meanwhile; a group that then finds no place is lost after
the picks, so no pick's value shows that loss. Everything else a pick may change (technologies,
capitals, victory cities, game options, added XML) is listed as not valued.
The limits are stated in docs/kremlin-draft.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from kremlin_triplea.draft.kinds import Displaced, Outcome, displacing_kind
from kremlin_triplea.draft.picks import BidSpec
from kremlin_triplea.draft.run import AppliedPick
from kremlin_triplea.model.board import Board
from kremlin_triplea.model.changes import (
    Change,
    PlaceUnits,
    RemoveUnits,
    SetOwner,
    SetPUs,
    SetTerritory,
)
from kremlin_triplea.session import Session

if TYPE_CHECKING:
    from kremlin_triplea.draft.run import DraftResult
    from kremlin_triplea.rules.profile import Profile

# Changes whose effect the three measures already cover.
_MEASURED_FIELDS = frozenset({"production", "impassable", "original_owner"})


@attrs.frozen
class Holdings:
    """What one side has that the valuation counts, in IPCs."""

    units: int = 0
    production: int = 0
    pus: int = 0

    @property
    def total(self) -> int:
        return self.units + self.production + self.pus

    def __sub__(self, other: Holdings) -> Holdings:
        return Holdings(self.units - other.units, self.production - other.production, self.pus - other.pus)

    def __add__(self, other: Holdings) -> Holdings:
        return Holdings(self.units + other.units, self.production + other.production, self.pus + other.pus)


@attrs.frozen
class PickValue:
    """One pick (or the bid) valued: each side's gain, and what was not counted."""

    label: str
    side: str  # the side that made the pick (the bid: the side that placed or received it)
    gains: tuple[tuple[str, Holdings], ...]  # (side, what it gained; negative: lost), in the ruleset's order
    displaced: int  # cost of units moved (retreats): reported, not counted
    unpriced: tuple[str, ...]  # units changed that the game gives no cost for
    unvalued: tuple[str, ...]  # changes outside the three measures

    def gain(self, side: str) -> Holdings:
        return dict(self.gains)[side]

    @property
    def value(self) -> int:
        """Worth to the picking side: its gain minus the other sides' gains."""
        return sum(h.total if s == self.side else -h.total for s, h in self.gains)


@attrs.frozen
class DraftValue:
    sides: tuple[str, ...]
    picks: tuple[PickValue, ...]
    bid: PickValue | None

    def running(self) -> list[dict[str, int]]:
        """After each pick, every side's total of the values of its own picks."""
        totals = dict.fromkeys(self.sides, 0)
        rows = []
        for pick in self.picks:
            totals[pick.side] += pick.value
            rows.append(dict(totals))
        return rows

    def totals(self, *, with_bid: bool = False) -> dict[str, int]:
        totals = dict.fromkeys(self.sides, 0)
        for pick in self.picks + ((self.bid,) if with_bid and self.bid is not None else ()):
            totals[pick.side] += pick.value
        return totals

    def as_data(self) -> dict[str, object]:
        def pick_data(pick: PickValue) -> dict[str, object]:
            return {
                "label": pick.label,
                "side": pick.side,
                "value": pick.value,
                "gains": {side: attrs.asdict(gain) for side, gain in pick.gains},
                "displaced": pick.displaced,
                "unpriced": list(pick.unpriced),
                "unvalued": list(pick.unvalued),
            }

        return {
            "sides": list(self.sides),
            "picks": [dict(pick_data(p), running=r) for p, r in zip(self.picks, self.running())],
            "bid": pick_data(self.bid) if self.bid is not None else None,
            "totals": self.totals(),
        }

    def by_side(self) -> list[tuple[str, list[str]]]:
        """Each side's picks, one short line each, and its total (the picture's legend)."""
        totals = self.totals()
        found = []
        for side in self.sides:
            lines = [f"{_short(p.label)}: {p.value:+d}" for p in self.picks if p.side == side]
            if self.bid is not None and self.bid.side == side:
                lines.append(f"{self.bid.label}: {self.bid.value:+d}")
            lines.append(f"picks total: {totals[side]:+d} IPCs")
            found.append((side, lines))
        return found

    def lines(self) -> list[str]:
        """The valuation as text: each pick, its breakdown and the running totals."""
        out = []
        for pick, running in zip(self.picks, self.running()):
            out += describe_pick(pick)
            out.append("  running: " + ", ".join(f"{s} {running[s]:+d}" for s in self.sides))
        if self.bid is not None:
            out += describe_pick(self.bid)
        totals = self.totals()
        first, *rest = self.sides
        out.append("picks: " + ", ".join(f"{s} {totals[s]:+d}" for s in self.sides))
        if rest:
            lead = totals[first] - sum(totals[s] for s in rest)
            out.append(f"difference ({first} minus {', '.join(rest)}): {lead:+d} IPCs")
        if self.bid is not None:
            with_bid = self.totals(with_bid=True)
            out.append("with the bid: " + ", ".join(f"{s} {with_bid[s]:+d}" for s in self.sides))
        return out


def holdings(board: Board, sides: Mapping[str, str], off_board: Iterable[Displaced] = ()) -> dict[str, Holdings]:
    """Each side's units (at cost), production and PUs on ``board`` and ``off_board``; ``sides`` maps power -> side."""
    catalog = board.catalog
    units = dict.fromkeys(set(sides.values()), 0)
    production = dict(units)
    pus = dict(units)
    for displaced in off_board:
        for unit, count in displaced.units():
            cost = catalog.cost(unit, displaced.owner)
            if displaced.owner in sides and cost is not None:
                units[sides[displaced.owner]] += cost * count
    for _, data in board.nodes.items():
        side = sides.get(data["owner"])
        if side is not None and not data["water"]:
            production[side] += data["production"]
        for (owner, unit), count in data["units"].items():
            owner_side = sides.get(owner)
            cost = catalog.cost(unit, owner) if owner_side is not None else None
            if cost is not None:
                units[owner_side] += cost * count
    for power, amount in board.pus.items():
        if power in sides:
            pus[sides[power]] += amount
    return {side: Holdings(units[side], production[side], pus[side]) for side in units}


class Valuer:
    """Values outcomes one after another on a board the caller changes between calls."""

    def __init__(self, board: Board, side_powers: Mapping[str, Iterable[str]]) -> None:
        self.board = board
        self.side_order = tuple(side_powers)
        self.sides = {power: side for side, powers in side_powers.items() for power in powers}
        self.off_board: list[Displaced] = []  # displaced by the picks, placed by the declarations after the bid
        self.before = holdings(board, self.sides)

    def value(self, label: str, side: str, outcome: Outcome) -> PickValue:
        """Value ``outcome``, which the board now shows applied on top of the last call's position."""
        self.off_board += outcome.displaced
        after = holdings(self.board, self.sides, self.off_board)
        gains = tuple((s, after[s] - self.before[s]) for s in self.side_order)
        self.before = after
        catalog = self.board.catalog
        displaced = sum((catalog.cost(c.unit_type, c.owner) or 0) * c.count for c in outcome.moved if isinstance(c, PlaceUnits))
        # Units a pick takes off the board that stood on it before (defenders that retreat) move; they are no gain.
        moved = [d for d in outcome.displaced if displacing_kind(d).displaced_words(d).moved]
        displaced += sum((catalog.cost(unit, d.owner) or 0) * count for d in moved for unit, count in d.units())
        unpriced = sorted(
            {
                f"{c.owner} {c.unit_type}"
                for c in outcome.changes
                if isinstance(c, (PlaceUnits, RemoveUnits)) and c.owner in self.sides and catalog.cost(c.unit_type, c.owner) is None
            }
        )
        unvalued = tuple(str(c) for c in outcome.changes if not _measured(c))
        return PickValue(label, side, gains, displaced, tuple(unpriced), unvalued)

    def declared(self) -> None:
        """The declarations (now on the board) placed every displaced group: their places are not valued."""
        self.off_board = []
        self.before = holdings(self.board, self.sides)


def _measured(change: Change) -> bool:
    if isinstance(change, SetTerritory):
        return change.field in _MEASURED_FIELDS
    return isinstance(change, (PlaceUnits, RemoveUnits, SetOwner, SetPUs))


def value_result(result: DraftResult) -> DraftValue:
    """Value every pick and the bid of an applied draft, on its own board (the house rules' changes on top of them)."""
    above = len(result.rules.changes) if result.rules is not None else 0
    return _valued(
        result.game.board,
        result.state.side_powers,
        result.picks,
        result.declarations,
        result.bid_spec,
        result.bid,
        result.ruleset.bid.placing_side,
        above=above,
    )


def value_session(session: Session) -> DraftValue:
    """Value the picks a session has made so far, and its bid once it is on the board (after the declarations)."""
    return _valued(
        session.game.board, session.state.side_powers, session.applied, session.declared, session.bid, session.bid_outcome, session.ruleset.bid.placing_side
    )


def _valued(
    board: Board,
    side_powers: Mapping[str, Iterable[str]],
    applied: Iterable[AppliedPick],
    declarations: Iterable[tuple[Displaced, Outcome]],
    bid_spec: BidSpec | None,
    bid_outcome: Outcome | None,
    placing_side: str,
    *,
    above: int = 0,
) -> DraftValue:
    """Each pick valued on the board it left, the bid after the declarations: read off the draft's own board.

    As python-chess reads a position's history, the board is popped back to the draft's start and each step's
    changes pushed back in turn, valued as they go: the board ends where it was. ``above``: changes on top of
    the steps' (the house rules of a finished draft), popped first and pushed back last.
    """
    applied = list(applied)
    declarations = list(declarations)
    steps = [list(pick.outcome.changes) for pick in applied] + [list(outcome.changes) for _, outcome in declarations]
    if bid_outcome is not None:
        steps.append(list(bid_outcome.changes))
    on_top = [board.pop() for _ in range(above)]
    taken = _pop_steps(board, steps)
    try:
        valuer = Valuer(board, side_powers)
        picks = []
        for pick in applied:
            board.push_all(taken.pop())
            picks.append(valuer.value(pick.pick.label, pick.pick.side, pick.outcome))
        for _ in declarations:
            board.push_all(taken.pop())
        bid = None
        if bid_outcome is not None and bid_spec is not None:
            valuer.declared()
            board.push_all(taken.pop())
            bid = valuer.value(f"bid {bid_spec.amount}", _bid_side(side_powers, placing_side, bid_spec.amount), bid_outcome)
    finally:  # the board as it was, whatever happened
        while taken:
            board.push_all(taken.pop())
        board.push_all(on_top[::-1])
    return DraftValue(tuple(side_powers), tuple(picks), bid)


def _pop_steps(board: Board, steps: list[list[Change]]) -> list[list[Change]]:
    """Pop ``steps`` (oldest first) off the top of ``board``; the changes popped, last step first, each in push order.

    Each change popped is the step's own object: a board whose top is not these steps is a defect, not a position to value.
    """
    taken: list[list[Change]] = []
    for changes in reversed(steps):
        popped = [board.pop() for _ in changes][::-1]
        taken.append(popped)
        if any(got is not want for got, want in zip(popped, changes)):
            for done in reversed(taken):
                board.push_all(done)
            raise AssertionError("the board's last changes are not the draft's steps")
    return taken


def value_draft(path: Path | str, *, game_spec: str | None = None, maps_dir: Path | str | None = None, profile: Profile | None = None) -> DraftValue:
    """Value a draft file's picks so far, and its bid once the picks are complete (the file opened as ``apply`` opens it)."""
    # An unfinished draft's bid waits for its picks (set aside by the session): it is valued once they are made.
    session = Session.open(path, game_spec=game_spec, maps_dir=maps_dir, profile=profile, set_bid_aside=True)
    if session.picks_done and session.bid_dropped is not None:
        raise session.bid_dropped  # the picks made, the bid must apply, as apply refuses it
    if session.bid is not None:
        session.declare_all()  # before the bid's units (000 A); a group the file leaves open is refused, as apply refuses it
    return value_session(session)


def _bid_side(side_powers: Mapping[str, object], placing_side: str, amount: int) -> str:
    """Who the bid favours: the placing side for a positive bid, the other for a negative one."""
    return placing_side if amount >= 0 else _other(side_powers, placing_side)


def _other(side_powers: Mapping[str, object], side: str) -> str:
    return next((s for s in side_powers if s != side), side)


def _short(label: str) -> str:
    """'pick 3 (Axis, option 1 Infantry Placement)' -> 'pick 3: option 1 Infantry Placement'."""
    head, _, rest = label.partition(" (")
    if not rest:
        return label
    _, _, what = rest.rstrip(")").partition(", ")
    return f"{head}: {what}" if what else label


def describe_pick(pick: PickValue) -> list[str]:
    lines = [f"{pick.label}: {pick.value:+d} IPCs for the {pick.side}"]
    for side, gain in pick.gains:
        parts = [f"{name} {amount:+d}" for name, amount in (("units", gain.units), ("production", gain.production), ("PUs", gain.pus)) if amount]
        if parts:
            lines.append(f"  {side}: {', '.join(parts)}")
    if pick.displaced:
        lines.append(f"  displaced (not counted): units worth {pick.displaced} IPCs")
    if pick.unpriced:
        lines.append(f"  no cost in this game (not counted): {', '.join(pick.unpriced)}")
    for change in pick.unvalued:
        lines.append(f"  not valued: {change}")
    return lines

"""Declarations after the bid: where the units the picks displaced go (000 A, "Order of action" 1).

"Once the bid is finalized ... players have to: 1. Declare where to place or retreat troops affected by options
in the order they were chosen ... 2. Placement of unit(s) if the bid is positive." A pick that takes an enemy
territory (option 10) or a neutral with ships (option 3) takes those units off the board
(:class:`~kremlin_triplea.draft.state.Displaced`); here each group, in the picks' order, goes to one of its
nearest legal places on the board as it stands then: the defenders to the nearest territory of their side, the
ships to the nearest sea zone without enemy units. A draft file may state the destination with the pick
(``retreat = [{ to = ... }]``, ``navy_at = ...``); one the board then allows is taken, one it does not is refused,
and where several places are nearest and the file says nothing, the declaring side must say which.
"""

from __future__ import annotations

from typing import Any

from kremlin_triplea.draft.kinds.neutral import NeutralTakes, navy_destinations
from kremlin_triplea.draft.kinds.takeover import TakeoverSpec, declared_retreat, retreat_destinations
from kremlin_triplea.draft.picks import Pick
from kremlin_triplea.draft.state import Displaced, DraftState, Outcome, Problem
from kremlin_triplea.model.changes import Change, PlaceUnits
from kremlin_triplea.model.queries import Nearest
from kremlin_triplea.rules.names import Names


def destinations(state: DraftState, displaced: Displaced) -> Nearest:
    """The places ``displaced`` may go now (several: the declaring side chooses; none: they are lost)."""
    if displaced.kind == "retreat":
        return retreat_destinations(state, displaced.origin, displaced.owner, displaced.unit)
    return navy_destinations(state, displaced.origin, displaced.owner)


def declared_in(pick: Pick, displaced: Displaced) -> str | None:
    """The destination ``pick``'s own entry in the draft file states for ``displaced``, if any."""
    if displaced.kind == "retreat":
        return declared_retreat(pick.target, displaced.owner, displaced.unit) if isinstance(pick.target, TakeoverSpec) else None
    takes = pick.target.takes if isinstance(pick.target, NeutralTakes) else ()
    return next((take.navy_at for take in takes if take.territory == displaced.origin), None)


def label(displaced: Displaced) -> str:
    """How messages name one declaration: the pick as players number it, and the units."""
    what = "retreat" if displaced.kind == "retreat" else "navy"
    return f"{displaced.label}, {what} of {displaced.describe()}"


def declaration_problem(state: DraftState, displaced: Displaced, to: str | None) -> Problem | None:
    """Why ``to`` cannot be where ``displaced`` goes now (None: it can; ``to = None``: whether one must be said)."""
    found = destinations(state, displaced)
    choices = ", ".join(found.matches)
    if to is None:
        if found.tied:
            return Problem(displaced.rule, displaced.source, f"they may go to any of {choices}; the {displaced.side} must say which")
        return None
    if not found.matches:
        return Problem(displaced.rule, displaced.source, f"they cannot reach any place of their side, so they cannot go to {to}")
    if to not in found.matches:
        kind = "territories of their side" if displaced.kind == "retreat" else "sea zones without enemy units"
        return Problem(displaced.rule, displaced.source, f"they cannot go to {to}; the nearest {kind} are: {choices}")
    return None


def declare(state: DraftState, displaced: Displaced, to: str | None) -> Outcome:
    """Place ``displaced`` at ``to`` (or at the one nearest place when ``to`` is None); raises the problem as a violation."""
    problem = declaration_problem(state, displaced, to)
    if problem is not None:
        raise problem.violation(label(displaced))
    found = destinations(state, displaced)
    shown = state.names.shown(displaced.origin)
    what = ", ".join(f"{n} {displaced.owner} {u}" for u, n in displaced.units())
    if not found.matches:
        verb = "cannot retreat (no territory of their side can be reached)" if displaced.kind == "retreat" else "cannot be placed (no sea zone can be reached)"
        return Outcome((), frozenset(), (f"{what} from {shown} {verb} and are removed",))
    place = to if to is not None else found.matches[0]
    placed = tuple(PlaceUnits(place, displaced.owner, unit, count) for unit, count in displaced.units())
    if displaced.kind == "retreat":
        # Moved, not created: neither "selected with a bonus option" nor valued as a gain.
        return Outcome(placed, frozenset(), (f"{what} retreat from {shown} to {state.names.shown(place)}",), moved=placed)
    ships = ", ".join(f"{n} {u}" for u, n in displaced.units())
    return Outcome(placed, frozenset(), (f"navy {ships} to {state.names.shown(place)}",))


def with_declarations(state: DraftState, outcome: Outcome) -> tuple[Change, ...]:
    """``outcome``'s changes followed by its displaced groups placed at once (the first nearest place where several tie).

    For tools that try one pick on its own (the matrix): the board the pick leaves once its units have somewhere to be.
    The board is left as it was.
    """
    if not outcome.displaced:
        return outcome.changes
    board = state.board
    changes = list(outcome.changes)
    board.push_all(changes)
    pushed = len(changes)
    try:
        for displaced in outcome.displaced:
            found = destinations(state, displaced)
            placed = declare(state, displaced, found.matches[0] if found.tied else None).changes
            board.push_all(list(placed))
            pushed += len(placed)
            changes += placed
    finally:
        for _ in range(pushed):
            board.pop()
    return tuple(changes)


def write_declaration(entry: dict[str, Any], displaced: Displaced, to: str, names: Names) -> None:
    """Record in the pick's ``[[pick]]`` table (as the draft file has it) where ``displaced`` goes.

    A retreat becomes ``retreat = [{ to, power, unit }]`` in its ``takeover`` (replacing one for the same units);
    a navy becomes ``navy_at`` of its neutral in ``take``.
    """
    if displaced.kind == "retreat":
        takeover = entry["takeover"]
        kept = [r for r in takeover.get("retreat", []) if (r.get("power"), r.get("unit")) != (displaced.owner, displaced.unit)]
        takeover["retreat"] = [*kept, {"to": to, "power": displaced.owner, "unit": displaced.unit}]
        return
    for take in entry["take"]:
        if names.territory(take["neutral"]) == displaced.origin:
            take["navy_at"] = to

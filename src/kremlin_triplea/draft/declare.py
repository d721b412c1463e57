"""Declarations after the bid: where the units the picks displaced go (000 A, "Order of action" 1).

"Once the bid is finalized ... players have to: 1. Declare where to place or retreat troops affected by options
in the order they were chosen ... 2. Placement of unit(s) if the bid is positive." A pick may take units off the
board (:class:`~kremlin_triplea.draft.state.Displaced`: option 10's defenders, option 3's ships); here each group,
in the picks' order, goes to one of its nearest legal places on the board as it stands then. What "legal" and
"nearest" mean, and where the draft file states a destination with the pick (``retreat = [{ to = ... }]``,
``navy_at = ...``), is the displacing kind's (:meth:`~kremlin_triplea.draft.kinds.base.OptionKind.destinations`
and its siblings): a destination the board then allows is taken, one it does not is refused, and where several
places are nearest and the file says nothing, the declaring side must say which.
"""

from __future__ import annotations

from typing import Any

from kremlin_triplea.draft.kinds.base import displacing_kind
from kremlin_triplea.draft.picks import Pick
from kremlin_triplea.draft.state import Displaced, DraftState, Outcome, Problem
from kremlin_triplea.model.changes import Change, PlaceUnits
from kremlin_triplea.model.queries import Nearest
from kremlin_triplea.rules.names import Names


def destinations(state: DraftState, displaced: Displaced) -> Nearest:
    """The places ``displaced`` may go now (several: the declaring side chooses; none: they are lost), worked out
    once per board position (a group's places are asked when it is offered, checked and placed)."""
    return state.at_position(("destinations", displaced), lambda: displacing_kind(displaced).destinations(state, displaced))


def declared_in(pick: Pick, displaced: Displaced) -> str | None:
    """The destination ``pick``'s own entry in the draft file states for ``displaced``, if any."""
    return displacing_kind(displaced).declared(pick, displaced)


def label(displaced: Displaced) -> str:
    """How messages name one declaration: the pick as players number it, and the units."""
    return f"{displaced.label}, {displacing_kind(displaced).displaced_words(displaced).name} of {displaced.describe()}"


def question(displaced: Displaced) -> str:
    """What the declaring side is asked about ``displaced`` ("retreat to")."""
    return displacing_kind(displaced).displaced_words(displaced).question


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
        places = displacing_kind(displaced).displaced_words(displaced).places
        return Problem(displaced.rule, displaced.source, f"they cannot go to {to}; the nearest {places} are: {choices}")
    return None


def declare(state: DraftState, displaced: Displaced, to: str | None) -> Outcome:
    """Place ``displaced`` at ``to`` (or at the one nearest place when ``to`` is None); raises the problem as a violation."""
    problem = declaration_problem(state, displaced, to)
    if problem is not None:
        raise problem.violation(label(displaced))
    kind = displacing_kind(displaced)
    found = destinations(state, displaced)
    if not found.matches:
        what = ", ".join(f"{n} {displaced.owner} {u}" for u, n in displaced.units())
        lost = kind.displaced_words(displaced).lost
        return Outcome((), frozenset(), (f"{what} from {state.names.shown(displaced.origin)} {lost} and are removed",))
    place = to if to is not None else found.matches[0]
    placed = tuple(PlaceUnits(place, displaced.owner, unit, count) for unit, count in displaced.units())
    line = kind.placed_line(state, displaced, place)
    # Moved units are neither "selected with a bonus option" nor valued as a gain.
    return Outcome(placed, frozenset(), (line,), moved=placed if kind.displaced_words(displaced).moved else ())


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
    """Record in the pick's ``[[pick]]`` table (as the draft file has it) where ``displaced`` goes (the kind's keys)."""
    displacing_kind(displaced).write_declaration(entry, displaced, to, names)

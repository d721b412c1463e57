"""The steps of a draft in progress, as frozen values: a pick, the bid and the other side's agreement, a declaration, a house-rule choice.

A :class:`~kremlin_triplea.session.core.Session` is driven by pushing these, as python-chess's Board is by
pushing moves: each is checked before it changes anything, and ``pop`` takes back the last step of any kind.
A pick is :class:`kremlin_triplea.draft.picks.Pick` itself; the others are defined here.
"""

from __future__ import annotations

from typing import Any

import attrs

from kremlin_triplea.draft.kinds import Displaced, Outcome
from kremlin_triplea.draft.picks import BidSpec, Pick
from kremlin_triplea.draft.run import Draft


@attrs.frozen
class Bid:
    """The bid (000 C): units the placing side places, PUs the other side receives, or units removed.

    ``by``: the side that proposed it, which the other side must agree to (an :class:`Agreement` step) before it
    counts; None for a bid both sides entered together (the terminal draft, a draft file).
    """

    spec: BidSpec
    by: str | None = None


@attrs.frozen
class Agreement:
    """The other side agrees to the bid proposed (000 C: "Players can bid once or go back and forth auction style")."""

    side: str


@attrs.frozen
class Declaration:
    """Where one group of units a pick displaced goes (000 A "Order of action" 1).

    ``to`` is None for a group with one nearest place (or none): it goes there and the draft file says nothing.
    ``written`` says whether the draft file records ``to`` in the pick's entry (a place the players chose).
    """

    displaced: Displaced
    to: str | None
    written: bool = True


@attrs.frozen
class HouseRuleChoice:
    """A house-rule set taken into the draft, with its ``[house_rule_choices.<set>]`` table (switches, advantages, seed).

    The table is kept as the draft file writes it (a tuple of (key, value) pairs, frozen); the set's own reader
    checks it when the step is pushed. ``by``: the side that answered for its powers (the draft room asks each side
    to choose its powers' advantages, 003/004; "none" leaves the table as it was, so the step is the answer's only
    trace); None for the draft file's own table.
    """

    set_id: str
    table: tuple[tuple[str, Any], ...] = ()
    by: str | None = None

    @classmethod
    def of(cls, set_id: str, table: dict[str, Any] | None = None, by: str | None = None) -> HouseRuleChoice:
        return cls(set_id, _frozen(table).items if table else (), by)

    def as_table(self) -> dict[str, Any]:
        return _thawed(dict(self.table))


Step = Pick | Bid | Agreement | Declaration | HouseRuleChoice  # what a session pushes and pops


def _frozen(value: Any) -> Any:
    """A TOML value made hashable: tables become sorted tuples of pairs marked as tables, lists tuples."""
    if isinstance(value, dict):
        return _Table(tuple((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def _thawed(value: Any) -> Any:
    if isinstance(value, _Table):
        return {k: _thawed(v) for k, v in value.items}
    if isinstance(value, dict):
        return {k: _thawed(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_thawed(v) for v in value]
    return value


@attrs.frozen
class _Table:
    items: tuple[tuple[str, Any], ...]

    def __iter__(self):  # noqa: ANN204 - dict(...) of a frozen table
        return iter(self.items)


@attrs.define
class Done:
    """A step pushed, with what it did: its outcome, a pick's note, the draft a house-rule choice replaced (the
    session's record of its steps, which its parts share)."""

    step: Step
    outcome: Outcome | None = None
    note: str | None = None
    draft_before: Draft | None = None

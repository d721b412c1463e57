"""What every game-file action receives and returns (the actions of :mod:`actions` and :mod:`house_actions`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

import attrs

from kremlin_triplea.rules.registry import Registry
from kremlin_triplea.rules.tomlfile import DataFileError

if TYPE_CHECKING:
    from kremlin_triplea.model.board import Board
    from kremlin_triplea.model.changes import Change
    from kremlin_triplea.rules.game_rules import GameRule
    from kremlin_triplea.rules.names import Names
    from kremlin_triplea.rules.profile import Profile
    from kremlin_triplea.rules.tomlfile import Section


class CannotWrite(DataFileError):
    """A change this game cannot express (the map has no such strait, no such turn step, no such victory city...).

    Not the rule data's mistake, and not a reason to refuse the draft: the rule is the players' to enforce.
    """


@attrs.frozen
class Planned:
    """One action's effect: what it changes (``key``, compared across sets), to what, and the changes."""

    key: tuple[str, ...]
    value: object
    changes: tuple[Change, ...]
    line: str


class ActionContext:
    """What an action needs: the board it reads, the profile and names that translate the rule text, the rule."""

    def __init__(
        self, board: Board, profile: Profile, names: Names, rule: GameRule, claimed: Mapping[tuple[str, ...], tuple[object, ...]] | None = None
    ) -> None:
        self.board = board
        self.profile = profile
        self.names = names
        self.rule = rule
        self.where = f"{rule.label}"
        # What the rules before this one write, by key: the board is changed only once all are planned, and a
        # rule may build on an earlier one (003's naval discount on the prices 003's Industrial Technology writes).
        self._claimed = claimed if claimed is not None else {}

    def written(self, key: tuple[str, ...]) -> object | None:
        """The value an earlier rule writes for ``key``, if one does."""
        found = self._claimed.get(key)
        return found[0] if found is not None else None

    def fail(self, why: str) -> DataFileError:
        return DataFileError(f"{self.rule.label}: {why}", where=None)

    def cannot(self, why: str) -> CannotWrite:
        """What this game lacks to express the change (the players enforce it, see :class:`CannotWrite`)."""
        return CannotWrite(f"{self.rule.label}: {why}", where=None)

    def power(self, name: str) -> str:
        return self.names.power(name, where=self.where)

    def place(self, name: str) -> str:
        return self.names.place(name, where=self.where)

    def unit(self, name: str, power: str | None = None) -> str:
        """The game's unit type; with ``power``, that power's own (maps whose powers have their own types)."""
        return self.names.unit(name, where=self.where, power=power)


#: The action that carries out each change kind of the rule data (rules/game_rules.py's ``CHANGE_KINDS``): it reads
#: one ``[[change]]`` table and returns what it plans. Registered beside each action (gamerules/actions.py and
#: gamerules/house_actions.py) with ``@CHANGE_ACTIONS.register("kind")``.
CHANGE_ACTIONS: Registry[Callable[[ActionContext, Section], list[Planned]]] = Registry("change action")

"""What every game-file action receives and returns (the actions of :mod:`actions` and :mod:`house_actions`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from kremlin_triplea.rules.tomlfile import DataFileError

if TYPE_CHECKING:
    from kremlin_triplea.model.board import Board
    from kremlin_triplea.model.changes import Change
    from kremlin_triplea.rules.game_rules import GameRule
    from kremlin_triplea.rules.names import Names
    from kremlin_triplea.rules.profile import Profile


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

    def __init__(self, board: Board, profile: Profile, names: Names, rule: GameRule) -> None:
        self.board = board
        self.profile = profile
        self.names = names
        self.rule = rule
        self.where = f"{rule.label}"

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

"""One class per kind of option, found through a registry by the ruleset's ``kind = "..."``.

Like python-chess's variants, a kind is a small class with a few hooks:

``target_key``
    the draft file's key for what the pick names (``place``, ``take``, ...);
``parse_target``
    that key's TOML read into :class:`~kremlin_triplea.draft.picks.Pick` fields;
``choices``
    every legal target now, described for people (``legal``, the assistant);
``picks``
    one :class:`~kremlin_triplea.draft.picks.Pick` per legal target (the matrix, property tests);
``apply``
    check a pick on the board as the earlier picks left it and return its changes,
    or raise ``RuleViolation`` quoting the rule.

``choices``, ``picks`` and ``apply`` ask the same checks, so a target listed as
legal is accepted when applied. Adding a kind is one module that defines a
subclass with ``@register``, plus its data in the rulesets.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from kremlin_triplea.draft.choices import OptionChoices
from kremlin_triplea.draft.picks import Pick
from kremlin_triplea.draft.state import DraftState, Outcome
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.ruleset import Option, Ruleset
from kremlin_triplea.rules.tomlfile import Section


class OptionKind:
    """A kind of bonus option; subclasses implement the hooks (see the module's docstring)."""

    name: ClassVar[str]
    target_key: ClassVar[str]

    def parse_target(self, section: Section, names: Names, ruleset: Ruleset) -> dict[str, Any]:
        raise NotImplementedError

    def choices(self, state: DraftState, option: Option, side: str, powers: list[str]) -> OptionChoices:
        raise NotImplementedError

    def picks(self, state: DraftState, choices: OptionChoices, side: str, index: int) -> Iterator[tuple[str, Pick]]:
        """(description, pick) for every legal target of ``choices`` (what :meth:`choices` listed)."""
        raise NotImplementedError

    def apply(self, state: DraftState, pick: Pick) -> Outcome:
        raise NotImplementedError


KINDS: dict[str, OptionKind] = {}


def register(cls: type[OptionKind]) -> type[OptionKind]:
    """Class decorator: the ruleset's ``kind = cls.name`` is carried out by ``cls``."""
    if cls.name in KINDS:
        raise ValueError(f"option kind {cls.name!r} registered twice")
    KINDS[cls.name] = cls()
    return cls

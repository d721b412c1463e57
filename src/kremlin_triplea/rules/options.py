"""What every kind of bonus option's parameters can do: the base of the schema of a ruleset's ``[[option]]`` tables.

A kind's parameters class lives in its own module with its mechanism
(:mod:`kremlin_triplea.draft.kinds`), so adding a kind is one module plus
data. The ruleset reader below the draft does not know the kinds: whoever
reads a ruleset hands it the parameter classes by kind (the draft's
``load_ruleset`` hands it the registered ones), and the reader asks only this
interface. Each class reads its keys from the option's table when the ruleset
is read (``from_toml``), so a malformed option fails with the file, the key
and what was expected before any game is touched.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from kremlin_triplea.rules.tomlfile import Section

# Keys every [[option]] has, whatever its kind.
OPTION_KEYS = ("number", "id", "title", "kind", "source", "rule", "quotes")

# Quotes every option may give, whatever its kind: the no-repeat rule as the option words it (draft/run.py).
COMMON_QUOTES = frozenset({"one_per_side"})

# The tables of rule-text names a ruleset uses (a map profile translates each); see :meth:`OptionParams.rule_names`.
NAME_TABLES = ("powers", "units", "places")


class OptionParams:
    """The parameters of one kind of option, read from its ``[[option]]`` table (subclasses are frozen attrs classes)."""

    KIND: ClassVar[str]  # the ruleset's ``kind = "..."``
    KEYS: ClassVar[tuple[str, ...]]  # the keys of the option's table this kind reads, besides OPTION_KEYS
    # The checks of this kind whose words an option may quote in ``[option.quotes]`` (``option.quote(check)``); a
    # key outside these and COMMON_QUOTES is refused when the ruleset is read: misspelt, it quoted the whole rule.
    QUOTES: ClassVar[frozenset[str]] = frozenset()

    @classmethod
    def from_toml(cls, section: Section) -> OptionParams:
        raise NotImplementedError

    def describe(self, ruleset: Any) -> list[str]:
        """What the option allows, one line each (``kremlin-triplea options``)."""
        return []

    def check_in(self, ruleset: Any, root: Section, option: Section) -> None:
        """Raise ``option.fail(...)`` (or a failure at another table of ``root``) if the rest of the ruleset contradicts these parameters.

        Called once the whole file is read, so a kind may cross-check tables
        other than its own (a neutral option against the ``[[neutral]]`` table).
        """

    def without_names(self, missing: Any) -> tuple[OptionParams, str]:
        """These parameters on a map that lacks the rule-text names ``missing`` (rules.profile.Unmatched: lower-case
        names by the kind each is missing as), and what that leaves out.

        Most kinds keep their parameters (an option that needs a missing name
        fails with it by name). A kind whose parameters narrow what is allowed
        never drops a part (issue 46: that allows what the rule forbids): it
        keeps it and says how it holds here (placement's exceptions).
        """
        return self, ""

    def rule_names(self, ruleset: Any) -> Iterator[tuple[str, str]]:
        """(table, rule-text name) for every name the option needs translated, table one of :data:`NAME_TABLES`."""
        return iter(())

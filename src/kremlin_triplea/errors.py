"""The errors a user can cause, each with the place it concerns.

The CLI prints ``str(error)`` as one line and exits non-zero; it shows a
traceback only with ``--debug``. Anything that is not a ``KremlinError`` is a
bug in this program.
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Iterable, Sequence


class KremlinError(Exception):
    """An error in the user's input, reported as ``where: message``."""

    exit_code = 2

    def __init__(self, message: str, *, where: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.where = where

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


class InputError(KremlinError):
    """A file that is missing, unreadable, unsafe or not a TripleA game."""


class UnknownNameError(KremlinError):
    """A name (map, game, territory, unit, power...) that does not exist.

    Its message (the close matches, the known names) is made when it is read: the draft's legality checks ask
    whether a name is a territory by catching this error, thousands of times a draft, and comparing a name with
    every known one costs most of a millisecond.
    """

    def __init__(
        self,
        kind: str,
        name: str,
        known: Iterable[str],
        *,
        where: str | None = None,
        within: str | None = None,
        show_all: bool = False,
        suggest: Iterable[str] | None = None,
    ) -> None:
        Exception.__init__(self, kind, name)
        self.where = where
        self.kind = kind
        self.name = name
        self._known = tuple(known)  # as they are now: the caller may change its collection afterwards
        # The names "did you mean" may offer (default: every known one): a caller that accepts more names than it
        # would suggest (a draft's rule-text aliases) gives the ones a player should write.
        self._suggest = None if suggest is None else tuple(suggest)
        self._within = within
        self._show_all = show_all

    @functools.cached_property
    def close(self) -> list[str]:
        """The known names that look like :attr:`name`."""
        return close_matches(self.name, self._sorted_known if self._suggest is None else sorted(set(self._suggest)))

    @functools.cached_property
    def message(self) -> str:
        known = self._sorted_known
        message = f"unknown {self.kind} {self.name!r}" + (f" in {self._within}" if self._within else "")
        if self.close:
            message += "; did you mean " + " or ".join(repr(c) for c in self.close) + "?"
        if self._show_all or not self.close:
            shown = known if len(known) <= 40 else known[:40] + ["..."]
            message += f" (known: {', '.join(shown)})" if known else f" (there are no {self.kind}s)"
        return message

    @functools.cached_property
    def _sorted_known(self) -> list[str]:
        return list(_sorted_names(self._known))


def possessive(name: str) -> str:
    """``name``'s, as English writes it for a player or a place: the Germans' submarine, the UK's fleet, Sweden's army."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def and_more(found: Sequence[str], hint: str | None = None) -> str:
    """What follows the first of ``found`` in a one-line message: " (and 3 more; HINT)", or nothing for one."""
    if len(found) <= 1:
        return ""
    return f" (and {len(found) - 1} more; {hint})" if hint else f" (and {len(found) - 1} more)"


def close_matches(name: str, known: Iterable[str], n: int = 3) -> list[str]:
    """Names in ``known`` that look like ``name``, compared case-insensitively."""
    return list(_close_matches(name, tuple(known), n))


@functools.lru_cache(maxsize=256)
def _sorted_names(known: tuple[str, ...]) -> tuple[str, ...]:
    """The names of ``known`` once each, sorted: worked out once per list, as close matches are (below). The matrix
    tells why each game rule a map lacks a name for is not written after every pick, the same message each time."""
    return tuple(sorted(set(known)))


@functools.lru_cache(maxsize=1024)
def _close_matches(name: str, known: tuple[str, ...], n: int) -> tuple[str, ...]:
    """close_matches, worked out once per name and list: the matrix asks the same unknown strait of every pick's
    board, and difflib's comparison with every name of the map is most of an error's cost."""
    by_lower: dict[str, str] = {}
    for candidate in known:
        by_lower.setdefault(candidate.lower(), candidate)
    hits = difflib.get_close_matches(name.lower(), list(by_lower), n=n, cutoff=0.6)
    if not hits:
        hits = [k for k in by_lower if name.lower() in k][:n]
    return tuple(by_lower[h] for h in hits)


class RuleViolation(KremlinError):
    """A draft breaks a rule: names the pick, quotes the rule and its source, and says why."""

    exit_code = 1

    def __init__(self, pick: str, why: str, *, rule: str, source: str, where: str | None = None) -> None:
        super().__init__(f'{pick}: {why} -- rule: "{rule}" ({source})', where=where)
        self.pick = pick
        self.why = why
        self.rule = rule
        self.source = source

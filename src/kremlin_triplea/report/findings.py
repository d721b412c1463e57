"""Findings grouped by kind: what ``validate`` prints, one line a kind (issue 44 item 5).

A real game can break game.dtd in a hundred places of three kinds, or give two hundred connections twice: a line
for each buries the one error that matters. Findings of one kind (``kind``: the check that found them and the shape
of its message, or game.dtd's error type) are said once, in the words of the first, with how many there are and
the first few places; ``--all`` lists every one. An error keeps its ``file:line`` at the start of its line.

The findings are duck-typed (``file``, ``line``, ``message``, ``severity``, ``kind`` and a ``str`` that is the
finding's own line), so this module reads no checker: the checks live beside it, in check/.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

import attrs

#: How many places of a kind a grouped line names after its first.
PLACES_SHOWN = 4


class Finding(Protocol):
    file: str
    line: int | None
    message: str
    severity: str
    kind: str


@attrs.frozen
class Group:
    """The findings of one kind and severity, in the order given (by line): the first speaks for them all."""

    findings: tuple[Finding, ...]

    @property
    def first(self) -> Finding:
        return self.findings[0]

    @property
    def count(self) -> int:
        return len(self.findings)

    def line(self) -> str:
        """The group's one line: the first finding's, and for more than one, how many and where the others are."""
        said = str(self.first)
        if self.count == 1:
            return said
        # Each other line once: a thousand attributes of one element are one place.
        others = [str(line) for line in dict.fromkeys(f.line for f in self.findings[1:]) if line is not None and line != self.first.line]
        shown = ", ".join(others[:PLACES_SHOWN]) + (", ..." if len(others) > PLACES_SHOWN else "")
        if others:
            where = f", also at line{'s' if len(others) > 1 else ''} {shown}"
        else:
            where = " on the same line" if self.first.line is not None and all(f.line == self.first.line for f in self.findings) else ""
        return f"{said} [{self.count} of this kind{where}; --all lists each]"


def grouped(findings: Iterable[Finding]) -> list[Group]:
    """The findings by kind and severity, each group where its first finding is (a finding without a kind is its own)."""
    groups: dict[tuple[str, str], list[Finding]] = {}
    for finding in findings:
        groups.setdefault((finding.severity, finding.kind or f"message: {finding.message}"), []).append(finding)
    return [Group(tuple(members)) for members in groups.values()]


def report_lines(findings: Sequence[Finding], *, every: bool = False) -> list[str]:
    """The lines that say ``findings``: one a kind, or with ``every`` one a finding."""
    if every:
        return [str(f) for f in findings]
    return [group.line() for group in grouped(findings)]

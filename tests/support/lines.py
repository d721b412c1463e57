"""Where a piece of a file's text stands, by line, as error messages count them (from 1)."""

from __future__ import annotations


def line_of(text: str, snippet: str) -> int:
    """The line on which ``snippet`` first starts in ``text``."""
    return text[: text.index(snippet)].count("\n") + 1


def last_line_of(text: str, snippet: str) -> int:
    """The line on which the first ``snippet`` in ``text`` ends: an edit's last line, where its value stands."""
    return line_of(text, snippet) + snippet.rstrip("\n").count("\n")

"""The room's pages in players' words (issue 43): no unit type's id (``aaGun``), no rule file's hash
(``000_bc04a4edf7f7d2ab.txt``), no rule set's id (``kremlin-classic``, ``house-revised``) in what a player reads.

Applied once, to the text of every page the room draws (never to attributes: a form still sends the game's ids), so
every line any layer writes (a kind's legal choices, a refusal, a pick's effects) reads the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from html import escape

ACRONYMS = {"aa"}  # written in capitals: "AA gun"
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
#: A seed's file name, "000_bc04a4edf7f7d2ab.txt": shown as the rule text's number the rules are cited by ("000").
RULE_FILE = re.compile(r"\b(\d{3})_[0-9a-f]{8,}\.txt\b")
_TEXT = re.compile(r">([^<]+)<")


def unit_words(unit: str) -> str:
    """A unit type's id as words: "aaGun": "AA gun", "heavyBomber": "heavy bomber", "infantry": "infantry"."""
    words = _CAMEL.sub(" ", unit).replace("_", " ").split()
    return " ".join(w.upper() if w.lower() in ACRONYMS else w.lower() for w in words)


class Words:
    """The text pass for one draft's pages: its game's unit types whose ids are not words already, and the rule sets it
    is played with (``titles``: id -> title; a message the draft writes for the host names a set by its id). ``kept``:
    names shown exactly as they are, whatever they hold (a game's name in TripleA, which players look for there)."""

    def __init__(self, units: Iterable[str] = (), titles: Mapping[str, str] | None = None, kept: Iterable[str] = ()) -> None:
        spelt = {unit: unit_words(unit) for unit in units}
        self.units = {unit: words for unit, words in spelt.items() if words != unit}
        self._unit = _alternatives(self.units)
        self.titles = {name: escape(title, quote=False) for name, title in (titles or {}).items()}  # put into a page's HTML
        self._title = _alternatives(self.titles)
        kept_html = sorted({escape(name, quote=False) for name in kept if name}, key=len, reverse=True)
        self._kept = re.compile("(" + "|".join(map(re.escape, kept_html)) + ")") if kept_html else None

    def text(self, text: str) -> str:
        """``text`` (a page's text between two tags, as the HTML writes it) in players' words."""
        if self._kept is not None:  # split on the kept names (the odd parts): only the parts between are put in words
            return "".join(part if odd else self._words(part) for odd, part in ((i % 2 == 1, p) for i, p in enumerate(self._kept.split(text))))
        return self._words(text)

    def _words(self, text: str) -> str:
        text = RULE_FILE.sub(r"rule text \1", text)
        if self._title is not None:
            text = self._title.sub(lambda m: self.titles[m.group(1)], text)
        return self._unit.sub(lambda m: self.units[m.group(1)], text) if self._unit is not None else text

    def page(self, html: str) -> str:
        """``html`` with each text between tags in words (the attributes, what the forms send, as they were)."""
        return _TEXT.sub(lambda m: ">" + self.text(m.group(1)) + "<", html)


def _alternatives(names: Mapping[str, str]) -> re.Pattern[str] | None:
    """One pattern for every name of ``names`` as a whole word, the longest first (None: no names)."""
    if not names:
        return None
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(names, key=len, reverse=True))) + r")(?![\w-])")

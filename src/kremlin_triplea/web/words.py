"""The room's pages in players' words (issue 43): no unit type's id (``aaGun``), no rule file's hash
(``000_bc04a4edf7f7d2ab.txt``) in what a player reads.

Applied once, to the text of every page the room draws (never to attributes: a form still sends the game's ids), so
every line any layer writes (a kind's legal choices, a refusal, a pick's effects) reads the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

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
    """The text pass for one game's pages: its unit types whose ids are not words already."""

    def __init__(self, units: Iterable[str] = ()) -> None:
        spelt = {unit: unit_words(unit) for unit in units}
        self.units = {unit: words for unit, words in spelt.items() if words != unit}
        self._unit = re.compile(r"\b(" + "|".join(map(re.escape, sorted(self.units, key=len, reverse=True))) + r")\b") if self.units else None

    def text(self, text: str) -> str:
        text = RULE_FILE.sub(r"rule text \1", text)
        return self._unit.sub(lambda m: self.units[m.group(1)], text) if self._unit is not None else text

    def page(self, html: str) -> str:
        """``html`` with each text between tags in words (the attributes, what the forms send, as they were)."""
        return _TEXT.sub(lambda m: ">" + self.text(m.group(1)) + "<", html)

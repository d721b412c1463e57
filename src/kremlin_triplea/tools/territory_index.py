"""A game's territories as ``profile new``'s matching reads them: each one's kind, words and land neighbours worked
out once per game, and the spelling comparison it ranks names by. Used by :mod:`place_matching`.

Every rule-text place is compared with every territory, often several times over (a game has ~100 rule-text places
and up to ~700 territories): what is the same for every comparison is kept here instead of redone per place.
"""

from __future__ import annotations

import difflib
import functools
from collections import Counter

from kremlin_triplea.tools.place_words import letters_only, place_key, place_tokens, plain_words

DIRECTIONS = frozenset({"north", "south", "east", "west"})


class TerritoryIndex:
    """The game's board, read-only, with its territories indexed by kind, name, words and key.

    It answers ``nodes``, ``is_water``, ``neighbours``, ``node`` and ``catalog`` as the board does (what
    :class:`~kremlin_triplea.tools.place_evidence.KnownPlace` reads of it). Lists of names are in name order unless
    said otherwise; the board must not change while the index is used.
    """

    def __init__(self, board) -> None:
        self.board = board
        self.nodes = board.nodes
        self.catalog = board.catalog
        self._water = {n: board.is_water(n) for n in board.nodes}
        everything = sorted(board.nodes)
        self._of_kind = {None: everything, "sea": [n for n in everything if self._water[n]], "land": [n for n in everything if not self._water[n]]}
        #: each territory's words (:func:`place_tokens`), as a tuple, a set and a text
        self.tokens = {n: place_tokens(n) for n in everything}
        self.token_set = {n: frozenset(words) for n, words in self.tokens.items()}
        self.token_text = {n: " ".join(words) for n, words in self.tokens.items()}
        self.directions = {n: words & DIRECTIONS for n, words in self.token_set.items()}
        # Territories by their name in lower case, in plain words and by key, in the board's order.
        self._by: dict[str, dict[str, list[str]]] = {"lower": {}, "plain": {}, "key": {}, "letters": {}}
        for name in board.nodes:
            for how, value in (("lower", name.lower()), ("plain", plain_words(name)), ("key", place_key(name)), ("letters", letters_only(name))):
                self._by[how].setdefault(value, []).append(name)
        self._around: dict[str, frozenset[str]] = {}

    def is_water(self, name: str) -> bool:
        return self._water[name] if name in self._water else self.board.is_water(name)

    def neighbours(self, name: str) -> list[str]:
        return self.board.neighbours(name)

    def node(self, name: str):
        return self.board.node(name)

    def of_kind(self, kind: str | None) -> list[str]:
        """The territories of that kind ("sea", "land"; None: all)."""
        return self._of_kind[kind]

    def named(self, how: str, value: str, kind: str | None = None, *, board_order: bool = False) -> list[str]:
        """The territories of ``kind`` (None: any) whose name in lower case (``how="lower"``), in plain words
        (``"plain"``, :func:`plain_words`), by key (``"key"``, :func:`place_key`) or in letters and digits alone
        (``"letters"``, :func:`letters_only`) is ``value``; in name order, or in the board's own order."""
        found = [n for n in self._by[how].get(value, ()) if kind is None or self._water[n] == (kind == "sea")]
        return found if board_order else sorted(found)

    def land_around(self, name: str) -> frozenset[str]:
        """The keys (:func:`place_key`) of a territory's land neighbours."""
        if name not in self._around:
            self._around[name] = frozenset(place_key(n) for n in self.board.neighbours(name) if not self.is_water(n))
        return self._around[name]


def closest(word: str, spelt: dict[str, str], cutoff: float) -> list[tuple[float, str]]:
    """(similarity, name) of the names whose spelling is at least ``cutoff`` like ``word``, best first.

    The similarity is difflib's ``SequenceMatcher.ratio``. Its two cheap upper bounds, ``real_quick_ratio`` (the
    lengths) and ``quick_ratio`` (the letters in common), rule most names out first, computed here as difflib
    computes them but from letter counts kept per text instead of counted again for every comparison.
    """
    matcher = difflib.SequenceMatcher(None, b=word)
    wanted = _letters(word).items()
    found = []
    for name, text in spelt.items():
        length = len(text) + len(word)
        if _ratio(min(len(text), len(word)), length) < cutoff:
            continue
        have = _letters(text)
        if _ratio(sum(min(n, have.get(letter, 0)) for letter, n in wanted), length) < cutoff:
            continue
        matcher.set_seq1(text)
        if (ratio := matcher.ratio()) >= cutoff:
            found.append((ratio, name))
    return sorted(found, key=lambda c: (-c[0], c[1]))


def _ratio(matches: int, length: int) -> float:
    """difflib's ratio of ``matches`` in two texts of ``length`` letters together (the same float)."""
    return 2.0 * matches / length if length else 1.0


@functools.lru_cache(maxsize=65536)
def _letters(text: str) -> dict[str, int]:
    return dict(Counter(text))

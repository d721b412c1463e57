"""Territory names as words, so names spelt differently on two maps compare: "Sea Zone 12", "12 Sea Zone", "Western
Europe" and "West Europe" reduce to the same key; used by the evidence of shipped profiles and by the matching.
"""

from __future__ import annotations

import functools
import re

# Words a game adds to a sea zone's name that say nothing about which one it is.
_FILLER = {"sea", "zone", "seazone", "sz", "the", "of", "off", "r", "coast", "nat", "l", "islands", "island", "is"}


@functools.lru_cache(maxsize=65536)
def plain_words(name: str) -> str:
    """The name in lower-case words of letters and digits: "Anglo-Egypt Sudan" -> "anglo egypt sudan"."""
    return " ".join(re.sub(r"[^a-z0-9]+", " ", name.lower()).split())


# Spellings of one word ("Western USA" is the game's "West US", "Eastern United States" the rule text's "Eastern USA").
# A compass letter is a word ("S.Sweden" is the south of Sweden, not Sweden: New World Order splits it in two, and a
# neutral matched to one half was taken over by halves).
_SAME_WORD = {
    "western": "west",
    "eastern": "east",
    "northern": "north",
    "southern": "south",
    "usa": "us",
    "ssr": "",
    "n": "north",
    "s": "south",
    "e": "east",
    "w": "west",
    "c": "central",
}


@functools.lru_cache(maxsize=65536)
def place_tokens(name: str) -> tuple[str, ...]:
    """The words that say which place a name is: spellings made one, filler dropped, a sea zone's number too if it has words."""
    plain = plain_words(name).replace("united states", "us").replace("s s r", "ssr")
    words = tuple(t for t in (_SAME_WORD.get(t, t) for t in plain.split() if t not in _FILLER) if t)
    # "SZ 58 Bay of Bengal": the number is the map's own label; the words name the sea.
    named = tuple(t for t in words if not t.isdigit())
    return named or words


@functools.lru_cache(maxsize=65536)
def place_key(name: str) -> str:
    """A territory's words in any order: "Anglo Sudan Egypt" and "Anglo-Egypt Sudan" are one place."""
    return " ".join(sorted(set(place_tokens(name)))) or plain_words(name)


def carries_word(name: str, word: str) -> bool:
    """Whether ``name`` is ``word`` or carries it as a word of its own: Total World War's alliance "Allies-Usa" carries
    "Allies" (the side a profile's map calls Allies)."""
    return name == word or word.lower() in re.split(r"[^a-z0-9]+", name.lower())


@functools.lru_cache(maxsize=65536)
def letters_only(name: str) -> str:
    """The name's letters and digits in lower case, nothing between them: "Cape Town" and "Capetown", "French
    Indo-China" and "French Indochina" are spelt alike."""
    return plain_words(name).replace(" ", "")

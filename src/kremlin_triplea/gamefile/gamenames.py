"""The names a game may be installed under on the host's TripleA, and which of them look like one another (issue 40).

A game installed from the room is named by a remote player, and TripleA's game chooser shows every name as written:
a name that looks like a stock game's ("Wоrld War II v3 1941" with a Cyrillic 'о') would be picked in its place. So
a name is a plain one (letters, digits, single spaces and the punctuation of titles), NFKC-normalised (full-width
and other compatibility forms become the letters they stand for), written in one of the look-alike alphabets at
most (Latin, Greek, Cyrillic), and its skeleton (Unicode's confusables, UTS #39) differs from every listed game's
unless it is that very game's name.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections.abc import Iterable
from importlib import resources

from kremlin_triplea.errors import InputError

#: TripleA's own bound on a name in map.yml (MapDescriptionYaml.MAX_GAME_NAME_LENGTH, MAX_MAP_NAME_LENGTH).
MAX_NAME_LENGTH = 70
#: The punctuation of a title besides letters, digits and spaces: "Kremlin: Bob's game (2) — 1941/42".
TITLE_PUNCTUATION = frozenset("-_'.,:;!?&()[]+#/%*=@~\u2013\u2014\u2019")
#: Alphabets whose letters look alike: a name mixing them is how look-alikes are made.
_LOOKALIKE_SCRIPTS = ("LATIN", "GREEK", "CYRILLIC")
_DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")


def normalised(name: str) -> str:
    return unicodedata.normalize("NFKC", name)


def plain_name_problem(name: str) -> str | None:
    """Why ``name`` (NFKC-normalised) is not a plain name, or None."""
    if not name.strip():
        return "a game's name cannot be empty or blank"
    if len(name) > MAX_NAME_LENGTH:
        return f"a game's name is at most {MAX_NAME_LENGTH} characters, as TripleA's map.yml takes it ({len(name)} given)"
    if name != name.strip() or "  " in name:
        return f"a game's name has no space at its ends and no two spaces in a row: {name!r}"
    previous = " "
    for character in name:
        category = unicodedata.category(character)
        plain = (
            category[0] in "LN"
            or character == " "
            or character in TITLE_PUNCTUATION
            or (category[0] == "M" and unicodedata.category(previous)[0] in "LM")  # an accent on a letter
        )
        if not plain:
            return f"a game's name is letters, digits, spaces and {''.join(sorted(TITLE_PUNCTUATION))}: {name!r} has {_described(character)}"
        previous = character
    scripts = sorted({s for s in map(_script, name) if s in _LOOKALIKE_SCRIPTS})
    if len(scripts) > 1:
        return f"a game's name is written in one of Latin, Greek and Cyrillic: {name!r} mixes {' and '.join(s.title() for s in scripts)} letters"
    return None


def check_game_name(game_name: str) -> None:
    """A name TripleA lists in its game chooser: a plain name (:func:`plain_name_problem`)."""
    problem = plain_name_problem(game_name)
    if problem is not None:
        raise InputError(problem, where="--name")


def host_game_name(wanted: str, listed: Iterable[str] = (), elsewhere: Iterable[tuple[str, str]] = ()) -> str:
    """The name ``wanted`` is installed under by the host's rules: NFKC-normalised (the form an install takes), a plain
    name, no look-alike of a game ``listed`` (the map's games: a name that merely looks like a stock game's would be
    picked in TripleA's chooser in its place), and neither the name nor a look-alike of a game of another map
    (``elsewhere``: (map, game)), which TripleA lists beside it. The same name as one of the map's own is not a
    look-alike: whether it may be replaced is the install's business. The room names games by this rule too."""
    name = normalised(wanted)
    check_game_name(name)
    for other in listed:
        if looks_like(name, other):
            raise InputError(f"{name!r} looks like {other!r}, a game TripleA lists for this map; choose a name that does not", where="--name")
    for map_name, other in elsewhere:
        if looks_like(name, other) or name.casefold() == normalised(other).casefold():
            raise InputError(f"{name!r} is, or looks like, {other!r}, which TripleA lists for map {map_name!r}; choose another name", where="--name")
    return name


def _described(character: str) -> str:
    return f"{character!r} (U+{ord(character):04X} {unicodedata.name(character, 'unnamed')})"


def _script(character: str) -> str:
    """The first word of the character's Unicode name for a letter (LATIN, CYRILLIC...); "" for anything else."""
    if not unicodedata.category(character).startswith("L"):
        return ""
    return unicodedata.name(character, "").split(" ", 1)[0]


def skeletons(name: str) -> frozenset[str]:
    """What ``name`` looks like, in any case: two names that share a skeleton are told apart by no reader (UTS #39's
    skeleton: every character that looks like others replaced by one of its kind, runs of spaces as one). Taken of
    the name as written, in small and in capital letters, since which letters look alike depends on the case ("l" and
    "I", "O" and "0")."""
    characters, sequences = _confusables()
    text = " ".join(normalised(name).split())
    found = set()
    for cased in (text, text.casefold(), text.upper()):
        cased = sequences.sub(lambda match: characters[match.group(0)], cased)
        found.add("".join(characters.get(c, c) for c in cased).casefold())
    return frozenset(found)


def looks_like(name: str, other: str) -> bool:
    """Whether ``name`` is a look-alike of ``other``: a skeleton in common, not the same name (ignoring case)."""
    return normalised(name).casefold() != normalised(other).casefold() and not skeletons(name).isdisjoint(skeletons(other))


@functools.cache
def _confusables() -> tuple[dict[str, str], re.Pattern[str]]:
    """Unicode's confusables (as the confusable-homoglyphs package ships them): each character that looks like others
    mapped to one character of their kind (an ASCII one when there is one), and the sequences that look like one
    character ("rn" and "m") found by one pattern, longest first."""
    data = json.loads(resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text(encoding="utf-8"))
    parent: dict[str, str] = {}

    def root(character: str) -> str:
        while parent.setdefault(character, character) != character:
            parent[character] = parent[parent[character]]
            character = parent[character]
        return character

    for key, glyphs in data.items():
        for glyph in glyphs:
            parent[root(key.translate(_DIRECTION_MARKS))] = root(glyph["c"].translate(_DIRECTION_MARKS))
    kinds: dict[str, list[str]] = {}
    for text in list(parent):
        kinds.setdefault(root(text), []).append(text)
    # One character stands for its kind: an ASCII one if any, else a single character, else the shortest text.
    characters = {text: min(kind, key=lambda k: (len(k) > 1, not k.isascii(), len(k), k)) for kind in kinds.values() for text in kind}
    sequences = [text for text in characters if len(text) > 1]
    pattern = re.compile("|".join(re.escape(s) for s in sorted(sequences, key=len, reverse=True)))
    return characters, pattern

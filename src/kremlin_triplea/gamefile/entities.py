"""A game file that declares XML entities: what TripleA's parser would make of them, for the one line refusing it.

This tool reads no entity declaration (gamefile/safe.py: entities can expand without limit, and no TripleA game
file has one), but TripleA's parser (the JDK's StAX parser, with secure processing) expands them within its bounds
and loads the game. The refusal says which: the references are counted as the JDK counts them.
"""

from __future__ import annotations

import math
import re

_ENTITY_REFERENCE = re.compile(rb"&([A-Za-z_:][A-Za-z0-9_.:-]*);")
_NOT_EXPANDED = re.compile(rb"<!--.*?-->|<!\[CDATA\[.*?\]\]>", re.DOTALL)

#: The bounds of TripleA's XML parser (the JDK's StAX parser, secure processing) on entities: how many references it
#: expands in all, nested ones included (jdk.xml.entityExpansionLimit: "JAXP00010001: The parser has encountered more
#: than "64000" entity expansions", which TripleA 2.7 says at 64,000 and not at 63,999), and how many characters they
#: expand to (jdk.xml.totalEntitySizeLimit, "JAXP00010004": 2.7 loads 49,000,000 and refuses 51,000,000).
MOST_ENTITY_EXPANSIONS = 63_999
MAX_ENTITY_CHARACTERS = 50_000_000
#: Why this tool reads no entity declaration at all, where TripleA's parser expands entities within its bounds.
_NO_ENTITIES = "this tool reads no entity declaration, which no TripleA game file has: entities can expand without limit"
_INTERNAL_ENTITY = re.compile(rb"""<!ENTITY\s+([^\s%"']+)\s+(?:"([^"]*)"|'([^']*)')\s*>""")
_ANY_ENTITY = re.compile(rb"<!ENTITY\s")
_SUBSET_END = re.compile(rb"\]\s*>")


def entities_refused(data: bytes) -> str:
    """Why a file declaring entities is refused: and whether TripleA would load it, from what its entities expand to
    (counted as the JDK's parser counts them: each reference expanded, nested ones included) against its bounds."""
    declarations = _INTERNAL_ENTITY.findall(data)
    start = data.find(b"<!DOCTYPE")
    end = _SUBSET_END.search(data, start) if start >= 0 else None
    if end is None or len(declarations) != len(_ANY_ENTITY.findall(data, start, end.start())):
        return f"declares XML entities; {_NO_ENTITIES}"  # external or parameter entities: what TripleA does with them is not worked out here
    values = {name: first or second for name, first, second in declarations}
    expanded: dict[bytes, tuple[float, float]] = {}  # name -> (expansions, characters) of one reference to it

    def one_reference(name: bytes, within: frozenset[bytes] = frozenset()) -> tuple[float, float]:
        if name in within:
            return math.inf, math.inf  # a loop: the JDK's parser refuses it
        if name not in expanded:
            count, size = 1.0, float(len(values[name]))  # the reference itself, and its text less the references in it
            for reference in _ENTITY_REFERENCE.finditer(values[name]):
                if reference.group(1) in values:
                    inner_count, inner_size = one_reference(reference.group(1), within | {name})
                    count, size = count + inner_count, size - len(reference.group(0)) + inner_size
            expanded[name] = (count, size)
        return expanded[name]

    body = _NOT_EXPANDED.sub(b"", data[end.end() :])  # a reference in a comment or CDATA section is text
    used = [one_reference(r.group(1)) for r in _ENTITY_REFERENCE.finditer(body) if r.group(1) in values]
    expansions, characters = sum(count for count, _ in used), sum(size for _, size in used)
    if expansions > MOST_ENTITY_EXPANSIONS or characters > MAX_ENTITY_CHARACTERS:
        return (
            f"declares XML entities that expand {_times(expansions)} to {_shown(characters)} characters; TripleA's parser refuses that too "
            f"(fewer than {MOST_ENTITY_EXPANSIONS + 1:,} expansions, at most {MAX_ENTITY_CHARACTERS:,} characters), and {_NO_ENTITIES}"
        )
    used_how = f"they expand {_times(expansions)} to {_shown(characters)} characters, within its parser's bounds" if expansions else "they are used nowhere"
    return f"declares XML entities; TripleA would load it ({used_how}), but {_NO_ENTITIES}"


def _shown(number: float) -> str:
    return "endlessly (a loop)" if math.isinf(number) else f"{int(number):,}"


def _times(number: float) -> str:
    return "once" if number == 1 else _shown(number) + ("" if math.isinf(number) else " times")

"""The grammar of a ``checked`` attachment option, as derived from TripleA 2.x's own setters (issue 44).

A ``checked`` option is read by its own parser in 2.x (``setRounds``, ``setMovementRestrictionType``,
``setChance``, ...). scripts/derive_engine_tables.py does not transcribe those parsers: it sets values on a fresh
attachment in the engine's JVM and records which it takes. A value is split as 2.7 splits it (on every ``:``,
empty parts kept: Guava's ``Splitter.on(':')``) and each part is reduced to its *class*: the empty part, a blank one (Java's whitespace only), a Java int
by the bucket it falls in (:data:`INT_BUCKETS`), a range ``int-int`` or ``int-+``, the name of a thing of a kind the
game declares (:data:`NAME_KINDS`), a word of the option's class file (its string constants), a name beginning
with such a word (:data:`PREFIX`: ``rulesAttachmentUSA``), else any other text.
The tables hold, for each number of parts, the class sequences the engine took (``tuples``: one and two parts,
every sequence tried; with two whole numbers of one bucket, also their order) or, for three and more parts, the
classes each part may be with the others as in one value it took (``alternatives``, each a list of positions: one
per form found, ``count:territory:unit`` and ``territory:unit:unit``; more parts than probed repeat the last). A
count of parts no shorter value leads to is found part by part as the setter refuses (``damage:flag:unitType``,
``rulesAttachment...:RulesAttachment``), up to :data:`GUIDED_PARTS`. :func:`takes` judges a value by them,
:func:`why_not` says why it refuses one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import product

from kremlin_triplea.check.javaread import JAVA_INT_MAX, JAVA_INT_MIN, java_int
from kremlin_triplea.errors import possessive

#: A Java int's class by the bucket it falls in: (class, lowest, highest). Bounds the setters test (a chance's
#: 0..120, a count's sign) fall between buckets; the probes set each bucket's ends.
INT_BUCKETS = (
    ("int<-1", JAVA_INT_MIN, -2),
    ("-1", -1, -1),
    ("0", 0, 0),
    ("1", 1, 1),
    ("int2-120", 2, 120),
    ("int>120", 121, JAVA_INT_MAX),
)
#: The kinds of names the probe game declares one of (scripts/derive_engine_tables.py's ``NAMED`` and
#: ``GRAMMAR_NAMED``); an attachment of a kind is one of that class on a player, before the option or its own.
NAME_KINDS = (
    "unit type",
    "territory",
    "player",
    "resource",
    "territory effect",
    "rules attachment",
    "trigger attachment",
    "relationship type",
    "production rule",
    "production frontier",
)
#: The classes of a part other than words: buckets, ranges, empty, a kind's name, any other text.
CORE_CLASSES = (*(b[0] for b in INT_BUCKETS), "range", "range+", "empty", "blank", *(f"name:{k}" for k in NAME_KINDS), "text")
#: What Java's ``Character.isWhitespace`` calls a space: Python's but the no-break spaces and NEL.
_NOT_JAVA_SPACE = frozenset("\u00a0\u2007\u202f\u0085")
#: Parts up to which one and two part values are probed as whole sequences; up to MAX_PARTS as positions.
TUPLE_PARTS, MAX_PARTS = 2, 4
#: The most parts a value is probed with part by part where shorter ones show nothing (activateTrigger's
#: ``triggerName:numberOfTimes:useUses:testUses:testConditions:testChance``); a value of more parts than any probed
#: is not judged (whenCapturedChangesInto's ``from:to:keep:unit:count`` may go on by pairs).
GUIDED_PARTS = 6
WORD = "w:"
#: The class of a part that begins with a word of the option's class files and goes on (``rulesAttachmentUSA``
#: begins with ``rulesAttachment``: ``String.startsWith``, as the ``...AttachmentName`` setters ask).
PREFIX = "p:"


def bucket(value: int) -> str:
    return next(name for name, low, high in INT_BUCKETS if low <= value <= high)


def part_classes(part: str, has: Callable[[str, str], bool], words: Iterable[str] = (), prefixes: Iterable[str] = ()) -> list[str]:
    """The classes of one ``:``-separated part of a value (see the module's docstring)."""
    found = [WORD + part] if part in words else []
    found += [PREFIX + word for word in prefixes if part.startswith(word) and part != word]
    if part == "":
        return [*found, "empty"]
    if part.isspace() and not _NOT_JAVA_SPACE.intersection(part):
        return [*found, "blank"]  # String.isBlank: some setters skip such a part
    number = java_int(part)
    if number is not None:
        return [*found, bucket(number)]
    ends = part.split("-")
    if len(ends) == 2 and java_int(ends[0]) is not None and (ends[1] == "+" or java_int(ends[1]) is not None):
        return [*found, "range+" if ends[1] == "+" else "range"]
    names = [f"name:{kind}" for kind in NAME_KINDS if has(kind, part)]
    return [*found, *(names or ["text"])]


def order_tag(classes: Sequence[str], parts: Sequence[str]) -> str:
    """For two whole numbers of one bucket holding more than one value: ``<``, ``=`` or ``>``; else empty."""
    if len(parts) != 2 or classes[0] != classes[1] or classes[0] not in ("int<-1", "int2-120", "int>120"):
        return ""
    first, second = java_int(parts[0]), java_int(parts[1])
    return "<" if first < second else "=" if first == second else ">"


def key(classes: Sequence[str], tag: str = "") -> str:
    return "|".join(classes) + (f"#{tag}" if tag else "")


def _candidates(parts: Sequence[str], has: Callable[[str, str], bool], words: Iterable[str], prefixes: Iterable[str]) -> Iterator[tuple[tuple[str, ...], str]]:
    for classes in product(*(part_classes(p, has, words, prefixes) for p in parts)):
        yield classes, order_tag(classes, parts)


def takes(grammar: dict, value: str, has: Callable[[str, str], bool]) -> bool:
    """Whether 2.x takes ``value`` for an option of ``grammar`` (the tables' ``grammar``), names judged by ``has``."""
    parts = value.split(":")
    words, prefixes = grammar.get("words", ()), grammar.get("prefixes", ())
    by_count = grammar["parts"]
    count = len(parts)
    shape = by_count.get(str(count))
    if shape is None and count > MAX_PARTS and str(MAX_PARTS) in by_count:
        shape = {"alternatives": [p + [p[-1]] * (count - MAX_PARTS) for p in by_count[str(MAX_PARTS)]["alternatives"]]}
    if shape is None and count > GUIDED_PARTS:
        return True  # more parts than the probes set: not judged
    if shape is None:
        return False
    if "tuples" in shape:
        accepted = set(shape["tuples"])
        return any(key(classes, tag) in accepted for classes, tag in _candidates(parts, has, words, prefixes))
    classes = [set(part_classes(p, has, words, prefixes)) for p in parts]
    return any(all(c.intersection(allowed) for c, allowed in zip(classes, positions)) for positions in shape["alternatives"])


def why_not(grammar: dict, value: str, has: Callable[[str, str], bool]) -> str:
    """Why 2.x does not take ``value`` (which :func:`takes` refused), in one clause: the count of parts, or the first
    part no value it takes has there, or else the combination."""
    if grammar.get("read_only"):
        return "2.7 sets no value of it (its property has no setter: read only)"
    parts = value.split(":")
    counts = sorted(int(n) for n in grammar["parts"])
    if len(parts) not in counts and not (len(parts) > MAX_PARTS and MAX_PARTS in counts):
        shown = " or ".join(map(str, counts)) + (" or more" if counts[-1] == MAX_PARTS else "")
        return f"{shown_value(value)} has {len(parts)} ':'-separated part{'s' * (len(parts) != 1)}, where 2.7 takes {shown}"
    shape = grammar["parts"].get(str(len(parts))) or grammar["parts"][str(MAX_PARTS)]
    for index, part in enumerate(parts):
        there = _classes_at(shape, index)
        if not set(part_classes(part, has, grammar.get("words", ()), grammar.get("prefixes", ()))) & there:
            said = ", ".join([*_numbers_said(there), *sorted({_said(c) for c in there if c not in _BUCKET_NAMES})])
            where = f"part {index + 1} of {shown_value(value)}, {part!r}," if len(parts) > 1 else shown_value(value)
            return f"{where} is none of what 2.7 takes there: {said}"
    return f"2.7 does not take {shown_value(value)} (each part is one it takes, but not together)"


def shown_value(value: str) -> str:
    return repr(value) if len(value) <= 60 else repr(value[:57] + "...")


def _classes_at(shape: dict, index: int) -> set[str]:
    if "tuples" in shape:
        return {entry.split("#")[0].split("|")[index] for entry in shape["tuples"]}
    return {c for positions in shape["alternatives"] for c in positions[min(index, len(positions) - 1)]}


_BUCKET_NAMES = tuple(b[0] for b in INT_BUCKETS)


def _numbers_said(classes: set[str]) -> list[str]:
    """The whole numbers the bucket ``classes`` hold, as ranges (``a whole number from 0 to 120``)."""
    runs: list[list[tuple[str, int, int]]] = []
    for bucket_ in INT_BUCKETS:
        if bucket_[0] not in classes:
            continue
        if runs and INT_BUCKETS.index(runs[-1][-1]) + 1 == INT_BUCKETS.index(bucket_):
            runs[-1].append(bucket_)
        else:
            runs.append([bucket_])
    said = []
    for run in runs:
        low, high = run[0][1], run[-1][2]
        if low == high:
            said.append(str(low))
        elif low == JAVA_INT_MIN and high == JAVA_INT_MAX:
            said.append("a whole number")
        elif high == JAVA_INT_MAX:
            said.append(f"a whole number from {low}")
        elif low == JAVA_INT_MIN:
            said.append(f"a whole number up to {high}")
        else:
            said.append(f"a whole number from {low} to {high}")
    return said


def _said(symbol: str) -> str:
    if symbol.startswith(WORD):
        return repr(symbol.removeprefix(WORD))
    if symbol.startswith(PREFIX):
        return f"a name beginning {symbol.removeprefix(PREFIX)!r}"
    if symbol.startswith("name:"):
        return f"{possessive('a ' + symbol.removeprefix('name:'))} name"
    return {"range": "a range (1-3)", "range+": "an open range (2-+)", "empty": "nothing", "blank": "spaces", "text": "any text"}[symbol]

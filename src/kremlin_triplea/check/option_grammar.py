"""The grammar of a ``checked`` attachment option, as derived from TripleA 2.x's own setters (issue 44).

A ``checked`` option is read by its own parser in 2.x (``setRounds``, ``setMovementRestrictionType``,
``setChance``, ...). scripts/derive_engine_tables.py does not transcribe those parsers: it sets values on a fresh
attachment in the engine's JVM and records which it takes. A value is split as 2.7 splits it (on every ``:``,
empty parts kept: Guava's ``Splitter.on(':')``) and each part is reduced to its *class*: the empty part, a blank one (Java's whitespace only), a Java int
by the bucket it falls in (:data:`INT_BUCKETS`), a range ``int-int`` or ``int-+``, the name of a thing of a kind the
game declares (:data:`NAME_KINDS`) or such a name after a ``-`` (:data:`NEGATED`: ``frontier:-rule``), a word of the
option's class files (their string constants; one the setter matches ignoring case, ``folded``, as Java's
``equalsIgnoreCase`` matches it), a name beginning with such a word (:data:`PREFIX`: ``rulesAttachmentUSA``), else
any other text.
The tables hold, for each number of parts, the class sequences the engine took (``tuples``: one and two parts,
every sequence tried; with two whole numbers of one bucket, also their order) and, for three and more parts (and two
parts of words no pair of classes shows), the
classes each part may be with the others as in one value it took (``alternatives``, each a list of positions: one
per form found, ``count:territory:unit`` and ``territory:unit:unit``; more parts than probed repeat the last), with
the order two whole numbers of one bucket must be in where the setter asks one (``orders``: whenCombatDamaged's
``from:to``). A
count of parts no shorter value leads to is found part by part as the setter refuses (``damage:flag:unitType``,
``rulesAttachment...:RulesAttachment``), up to :data:`GUIDED_PARTS`; a value of more parts is taken where the engine
took such longer values (``longer``) and refused where it did not. An option whose setter refuses every value
(``refuses_every_value``) or has none (``read_only``) takes nothing. :func:`takes` judges a value by them,
:func:`why_not` says why it refuses one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import product

from kremlin_triplea.check.javaread import JAVA_INT_MAX, JAVA_INT_MIN, java_equals_ignore_case, java_int
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
    "technology",
    "unit support attachment",
)
#: The class of a part that is ``-`` then a name of a kind (``frontier:-rule`` removes a rule, ``-tech`` makes a
#: technology unavailable): ``-name:production rule``.
NEGATED = "-"
#: The classes of a part other than words: buckets, ranges, empty, a kind's name or one negated, any other text.
CORE_CLASSES = (
    *(b[0] for b in INT_BUCKETS),
    "range",
    "range+",
    "empty",
    "blank",
    *(f"name:{k}" for k in NAME_KINDS),
    *(f"{NEGATED}name:{k}" for k in NAME_KINDS),
    "text",
)
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


def part_classes(part: str, has: Callable[[str, str], bool], words: Iterable[str] = (), prefixes: Iterable[str] = (), folded: Iterable[str] = ()) -> list[str]:
    """The classes of one ``:``-separated part of a value (see the module's docstring); a word of ``folded`` is
    matched as Java's ``equalsIgnoreCase`` matches it (``tRuE`` is ``true``)."""
    found = [WORD + part] if part in words else []
    found += [WORD + word for word in folded if word != part and java_equals_ignore_case(part, word)]
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
    if part.startswith(NEGATED):
        names += [f"{NEGATED}name:{kind}" for kind in NAME_KINDS if has(kind, part.removeprefix(NEGATED))]
    return [*found, *(names or ["text"])]


def order_tag(classes: Sequence[str], parts: Sequence[str]) -> str:
    """For two whole numbers of one bucket holding more than one value: ``<``, ``=`` or ``>``; else empty."""
    if len(parts) != 2 or classes[0] != classes[1] or classes[0] not in ("int<-1", "int2-120", "int>120"):
        return ""
    first, second = java_int(parts[0]), java_int(parts[1])
    return "<" if first < second else "=" if first == second else ">"


def key(classes: Sequence[str], tag: str = "") -> str:
    return "|".join(classes) + (f"#{tag}" if tag else "")


def _candidates(parts: Sequence[str], has: Callable[[str, str], bool], grammar: dict) -> Iterator[tuple[tuple[str, ...], str]]:
    for classes in product(*(_classes_of(p, has, grammar) for p in parts)):
        yield classes, order_tag(classes, parts)


def takes(grammar: dict, value: str, has: Callable[[str, str], bool]) -> bool:
    """Whether 2.x takes ``value`` for an option of ``grammar`` (the tables' ``grammar``), names judged by ``has``."""
    parts = value.split(":")
    by_count = grammar["parts"]
    if not by_count:
        return False  # read only, or refused whatever the value
    count = len(parts)
    shape = by_count.get(str(count))
    if shape is None and count > MAX_PARTS and str(MAX_PARTS) in by_count:
        shape = {"alternatives": [p + [p[-1]] * (count - MAX_PARTS) for p in by_count[str(MAX_PARTS)]["alternatives"]]}
    if shape is None and count > GUIDED_PARTS:
        return bool(grammar.get("longer"))  # more parts than the probes set: not judged where 2.7 took a longer value
    if shape is None:
        return False
    if "tuples" in shape and any(key(classes, tag) in set(shape["tuples"]) for classes, tag in _candidates(parts, has, grammar)):
        return True
    if "alternatives" not in shape:
        return False
    classes = [set(_classes_of(p, has, grammar)) for p in parts]
    orders = shape.get("orders", ())
    return any(
        all(c.intersection(allowed) for c, allowed in zip(classes, positions)) and _in_order(parts, classes, [o for o in orders if o[0] == form])
        for form, positions in enumerate(shape["alternatives"])
    )


def _in_order(parts: Sequence[str], classes: Sequence[set[str]], orders: Iterable[Sequence]) -> bool:
    """Whether two whole numbers of one bucket are in an order the setter takes (the tables' ``orders``: ``[form,
    i, j, bucket, tags]``, tags of :func:`order_tag`)."""
    for _, i, j, bucket_, tags in orders:
        if i < len(parts) and j < len(parts) and bucket_ in classes[i] and bucket_ in classes[j]:
            first, second = java_int(parts[i]), java_int(parts[j])
            if ("<" if first < second else "=" if first == second else ">") not in tags:
                return False
    return True


def why_not(grammar: dict, value: str, has: Callable[[str, str], bool]) -> str:
    """Why 2.x does not take ``value`` (which :func:`takes` refused), in one clause: the count of parts, or the first
    part no value it takes has there, or else the combination."""
    if grammar.get("read_only"):
        return "2.7 sets no value of it (its property has no setter: read only)"
    if grammar.get("refuses_every_value"):
        return "2.7 refuses every value of it (its setter throws before it reads the value)"
    parts = value.split(":")
    counts = sorted(int(n) for n in grammar["parts"])
    if len(parts) not in counts and not (len(parts) > MAX_PARTS and MAX_PARTS in counts):
        shown = " or ".join(map(str, counts)) + (" or more" if counts[-1] == MAX_PARTS else "")
        return f"{shown_value(value)} has {len(parts)} ':'-separated part{'s' * (len(parts) != 1)}, where 2.7 takes {shown}"
    shape = grammar["parts"].get(str(len(parts))) or grammar["parts"][str(MAX_PARTS)]
    for index, part in enumerate(parts):
        there = _classes_at(shape, index)
        if not set(_classes_of(part, has, grammar)) & there:
            said = ", ".join([*_numbers_said(there), *sorted({_said(c) for c in there if c not in _BUCKET_NAMES})])
            where = f"part {index + 1} of {shown_value(value)}, {part!r}," if len(parts) > 1 else shown_value(value)
            return f"{where} is none of what 2.7 takes there: {said}"
    return f"2.7 does not take {shown_value(value)} (each part is one it takes, but not together)"


def _classes_of(part: str, has: Callable[[str, str], bool], grammar: dict) -> list[str]:
    return part_classes(part, has, grammar.get("words", ()), grammar.get("prefixes", ()), grammar.get("folded", ()))


def shown_value(value: str) -> str:
    return repr(value) if len(value) <= 60 else repr(value[:57] + "...")


def _classes_at(shape: dict, index: int) -> set[str]:
    tuples = {entry.split("#")[0].split("|")[index] for entry in shape.get("tuples", ())}
    return tuples | {c for positions in shape.get("alternatives", ()) for c in positions[min(index, len(positions) - 1)]}


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
    if symbol.startswith(NEGATED + "name:"):
        return f"'-' then {possessive('a ' + symbol.removeprefix(NEGATED + 'name:'))} name"
    return {"range": "a range (1-3)", "range+": "an open range (2-+)", "empty": "nothing", "blank": "spaces", "text": "any text"}[symbol]

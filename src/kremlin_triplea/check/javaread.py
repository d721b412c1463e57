"""Numbers and flags read as TripleA 2.7 reads them from a game file's attributes.

TripleA 2.7 maps the XML onto its ``org.triplea.map.data.elements`` classes
(``org.triplea.generic.xml.reader.AttributeValueCasting``): an attribute of an
``int``/``Integer`` field goes through ``Integer.valueOf``, a ``Boolean`` one
must be ``true`` or ``false`` in any case. A value either fails refuses the
whole game ("Bad XML data while setting field: ..., Invalid value: one,
required an integer number").
"""

from __future__ import annotations

import re

JAVA_INT_MIN, JAVA_INT_MAX = -(2**31), 2**31 - 1

# Integer.parseInt: one optional sign, then at least one digit. A digit is any
# Unicode decimal digit (Character.digit), which is what \d means in a str pattern;
# no spaces, no underscores, no words.
_JAVA_INT = re.compile(r"[+-]?\d+")


def java_int(text: str | None) -> int | None:
    """``text`` as Java's ``Integer.parseInt`` reads it, or None where it throws."""
    if text is None or not _JAVA_INT.fullmatch(text) or not all(ord(c) <= 0xFFFF for c in text):
        return None  # Java reads UTF-16 units: a digit outside the BMP is two units, neither a digit
    value = int(text)
    return value if JAVA_INT_MIN <= value <= JAVA_INT_MAX else None


def shown(text: str) -> str:
    """``text`` for a message: a number as it is, anything else quoted (so spaces and empty values show)."""
    return text if _JAVA_INT.fullmatch(text) else repr(text)


def why_not_java_int(text: str) -> str:
    """Why ``Integer.parseInt`` refuses ``text`` (which it does)."""
    if _JAVA_INT.fullmatch(text):
        return f"beyond TripleA's limit of {JAVA_INT_MAX:,} (a Java int)" if int(text) > 0 else f"below TripleA's limit of {JAVA_INT_MIN:,} (a Java int)"
    if text.strip() != text and _JAVA_INT.fullmatch(text.strip()):
        return "a number with spaces around it, which Java's Integer.parseInt refuses"
    return "not a whole number"


def java_boolean(text: str) -> bool | None:
    """``text`` as a 2.7 ``Boolean`` attribute or attachment flag: ``true`` or ``false`` as Java's
    ``equalsIgnoreCase`` matches them (``tRuE``, and ``falſe``: the long s is an ``S`` in upper case), else None."""
    return True if java_equals_ignore_case(text, "true") else False if java_equals_ignore_case(text, "false") else None


def java_equals_ignore_case(text: str, other: str) -> bool:
    """Java's ``String.equalsIgnoreCase``: as long in UTF-16 units, and each unit equal, or equal in upper case, or
    their upper cases equal in lower case (``Character.toUpperCase``/``toLowerCase`` map one char to one char)."""
    if len(text) != len(other) or not text.isascii() and any(ord(c) > 0xFFFF for c in text):
        return False  # a character outside the BMP is two UTF-16 units: no ASCII word matches it
    for a, b in zip(text, other):
        if a == b:
            continue
        upper_a, upper_b = _java_upper(a), _java_upper(b)
        if upper_a != upper_b and _java_lower(upper_a) != _java_lower(upper_b):
            return False
    return True


def _java_upper(char: str) -> str:
    upper = char.upper()
    return upper if len(upper) == 1 else char  # Java's char mapping keeps what becomes two (ß)


def _java_lower(char: str) -> str:
    lower = char.lower()
    return lower if len(lower) == 1 else char

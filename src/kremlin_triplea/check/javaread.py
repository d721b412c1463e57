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
    """``text`` as a 2.7 ``Boolean`` attribute: ``true`` or ``false`` in any case, else None (refused)."""
    folded = text.lower() if text.isascii() else None
    return {"true": True, "false": False}.get(folded or "")

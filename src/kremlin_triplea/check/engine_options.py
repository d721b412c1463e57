"""Which attachment options TripleA 2.7 reads as Java ints, by attachment class: from the tables derived from the
engine (check/engine_tables.py), where each option's kind was found by setting values as the parser does.

An ``int`` option's setter is ``x = getInt(value)``: ``Integer.parseInt`` refuses anything else ("Attachments: two
is not a valid int value") and the engine refuses the game. An attachment class's options include its parents'.
"""

from __future__ import annotations

import functools

from kremlin_triplea.check.engine_tables import attachment_class, triplea2


@functools.cache  # asked once per option element of a game; the tables never change
def int_options(java_class: str) -> frozenset[str]:
    """The options an attachment of ``java_class`` (its simple name) reads as Java ints."""
    name = attachment_class(java_class)
    if name is None:
        return frozenset()
    return frozenset(option for option, found in triplea2()["attachments"][name]["properties"].items() if found["kind"] == "int")


def inherited(java_class: str, own: dict[str, frozenset[str]], parents: dict[str, str]) -> frozenset[str]:
    """What ``java_class`` has of a per-class table, with what its superclasses have (``parents``: class -> superclass)."""
    found: frozenset[str] = frozenset()
    while java_class:
        found |= own.get(java_class, frozenset())
        java_class = parents.get(java_class, "")
    return found

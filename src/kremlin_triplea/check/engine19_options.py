"""The attachment options TripleA 1.9 has, by attachment class (1.9 refuses any other).

1.9's GameParser.setValues looks each option up as a public method
``set<Name>(String)`` of the attachment's class (the option's first letter
upper-cased) and refuses the game when there is none: "The following option
name of ... are either misspelled or exist only in a future version of
TripleA". These are those methods' names, by the class declaring each, read
from Debian's 1.9 jar by reflection (scripts/derive_engine19_tables.py writes
check/tables/triplea19.json; tests/test_validate_tables19.py derives it again).
"""

from __future__ import annotations

import functools
import json
from importlib import resources

from kremlin_triplea.check.engine_options import inherited


@functools.cache  # read once per process: package data never changes
def _tables_19() -> dict:
    return json.loads(resources.files(__package__).joinpath("tables", "triplea19.json").read_text(encoding="utf-8"))


@functools.cache  # asked once per attachment of a game; the tables never change
def setters_19(java_class: str) -> frozenset[str]:
    """The ``set<Name>`` suffixes an attachment of ``java_class`` (simple name) has in 1.9; empty for a class 1.9 lacks."""
    tables = _tables_19()
    return inherited(java_class, {name: frozenset(found) for name, found in tables["setters"].items()}, tables["parents"])

"""What TripleA 2.x knows, as validate judges by it: tables derived from the engine's own classes (issue 44).

``check/tables/triplea2.json`` is written by scripts/derive_engine_tables.py from a TripleA 2.x jar (2.7.15472's
headless jar, ../shared/triplea-engine-2.7) and checked against it by tests/test_validate_tables.py: nothing here
is a hand-kept list of the engine's names. It holds

- ``attachments``: each attachment ``javaClass`` name ``XmlGameElementMapper`` makes, with each option its
  ``getPropertyOrEmpty`` answers and the option's kind (``int``, ``boolean``, ``text`` or ``checked``: read by the
  option's own parser);
- ``delegates``: each delegate ``javaClass`` name it makes;
- ``game_properties``: each game property ``games.strategy.triplea.Properties`` reads, with the type it casts to;
- ``xml``: the XML mapping's classes (``org.triplea.map.data.elements``), their attributes and child tags.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

#: Where 2.7 strips a delegate's ``javaClass`` before looking it up (XmlGameElementMapper.newDelegate).
DELEGATE_PACKAGE = "games.strategy.triplea.delegate."


@functools.cache  # read once per process: package data never changes
def triplea2() -> dict[str, Any]:
    """The tables derived from TripleA 2.7.15472 (see the module's docstring)."""
    return json.loads(resources.files(__package__).joinpath("tables", "triplea2.json").read_text(encoding="utf-8"))


def attachment_class(java_class: str | None) -> str | None:
    """The attachment class 2.x makes of an attachment's ``javaClass`` (its name after the last dot), or None."""
    if java_class is None:
        return None
    name = java_class.rsplit(".", 1)[-1]
    return name if name in triplea2()["attachments"] else None


def is_delegate(java_class: str) -> bool:
    """Whether 2.x makes a delegate of ``java_class`` (XmlGameElementMapper.newDelegate: its package prefix removed)."""
    return java_class.removeprefix(DELEGATE_PACKAGE) in triplea2()["delegates"]


def option_kind(attachment: str, option: str) -> str | None:
    """The kind of ``option`` (as 2.x looks it up) on an attachment of class ``attachment``, None if it has none."""
    found = triplea2()["attachments"][attachment]["properties"].get(option)
    return None if found is None else found["kind"]


def options_of(attachment: str) -> list[str]:
    """Every option an attachment of class ``attachment`` has."""
    return list(triplea2()["attachments"][attachment]["properties"])


def game_property_type(name: str) -> str | None:
    """The type (``boolean``, ``int``) 2.x casts the game property ``name`` to when it reads it, if it reads it."""
    return triplea2()["game_properties"].get(name)

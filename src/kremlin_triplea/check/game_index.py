"""What a game file declares, as the checks of :mod:`validate` read it: ``GameIndex`` (each kind of name to its first
element, the attachments TripleA makes with variables and ``foreach`` expanded), and the words the checks share
(the engines, what TripleA does with what it refuses or keeps).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import attrs
from lxml import etree

from kremlin_triplea.check.variables import Expanded, expand
from kremlin_triplea.errors import close_matches

#: The engine's name for "no player": it accepts it wherever a player is named.
NEUTRAL = "Neutral"


REFUSES = "TripleA refuses to load the game"


KEEPS_LAST = "TripleA silently keeps only the last one"


#: The engines validate judges for: TripleA 2.x (as 2.7 parses; the default) and TripleA 1.9.
TRIPLEA_2 = "2"


TRIPLEA_19 = "1.9"


ENGINES = (TRIPLEA_2, TRIPLEA_19)


#: What a check yields: the line (or the element, for its line) and a message.
Finding = tuple["etree._Element | int | None", str]


#: Each kind of named thing and where a game file declares it: the words messages name each kind by, for both
#: engines. 2.x's named elements are the tables' read_unasked ``named`` (derived); tests/test_validate_tables.py
#: holds these paths to them.
DECLARATIONS = {
    "territory": "map/territory",
    "player": "playerList/player",
    "unit type": "unitList/unit",
    "resource": "resourceList/resource",
    "production rule": "production/productionRule",
    "repair rule": "production/repairRule",
    "production frontier": "production/productionFrontier",
    "repair frontier": "production/repairFrontier",
    "delegate": "gamePlay/delegate",
    "territory effect": "territoryEffectList/territoryEffect",
}


@attrs.frozen
class GameIndex:
    """The names a game declares, each kind mapping a name to its first element."""

    root: etree._Element
    declared: dict[str, dict[str, etree._Element]]
    #: The attachments TripleA makes, variables and ``foreach`` expanded (check/variables.py)
    attachments: list[etree._Element]
    #: (type, attachTo, name) -> the attachment TripleA uses
    attachment_index: dict[tuple[str, str, str], etree._Element]
    #: Attachments whose ``foreach`` TripleA refuses, with its reason
    refused_foreach: list[tuple[etree._Element, str]]

    engine: str

    @classmethod
    def of(cls, root: etree._Element, engine: str = TRIPLEA_2) -> GameIndex:
        declared: dict[str, dict[str, etree._Element]] = {}
        for kind, path in DECLARATIONS.items():
            names = declared[kind] = {}
            for element in root.iterfind(path):
                names.setdefault(element.get("name", ""), element)
        # TripleA 1.9 has no variables: it reads every attachment as written.
        expanded = expand(root) if engine == TRIPLEA_2 else Expanded(list(root.iterfind("attachmentList/attachment")), [])
        # Of two attachments with one key the engine keeps the last, so the index does too.
        index = {attachment_key(element): element for element in expanded.attachments}
        return cls(root, declared, expanded.attachments, index, expanded.refused, engine)

    def kept_attachments(self) -> list[etree._Element]:
        """The attachments the engine keeps, in the file's order: of two with one key, the last (2.7's
        ``addAttachment`` puts each by name on its thing, so the second replaces the first). Only these are
        validated (GameParsingValidation asks each thing's attachments ``validate()``); every one has its options set."""
        return [element for element in self.attachments if self.attachment_index.get(attachment_key(element)) is element]

    def has(self, kind: str, name: str) -> bool:
        return name in self.declared[kind] or (kind == "player" and name == NEUTRAL)

    def is_water(self, territory: str) -> bool:
        element = self.declared["territory"].get(territory)
        return element is not None and element.get("water") == "true"

    def attachment(self, type_: str, attach_to: str, name: str) -> etree._Element | None:
        """The attachment called ``name`` on the ``type_`` named ``attach_to``, if any."""
        return self.attachment_index.get((type_, attach_to, name))

    def alliances(self) -> dict[str, set[str]]:
        """Each player's alliance names."""
        result: dict[str, set[str]] = {}
        for element in self.root.iterfind("playerList/alliance"):
            result.setdefault(element.get("player", ""), set()).add(element.get("alliance", ""))
        return result


def attachment_key(element: etree._Element) -> tuple[str, str, str]:
    """An attachment's (type, attachTo, name); ``type`` defaults to unitType as in the DTD."""
    return (element.get("type", "unitType"), element.get("attachTo", ""), element.get("name", ""))


def property_value(prop: etree._Element) -> str | None:
    """A property's value as 2.7 reads it: a ``<value>`` child's text (trimmed) before the ``value`` attribute."""
    child = prop.find("value")
    if child is not None:
        return (child.text or "").strip()
    return prop.get("value") or None


def option_values(attachment: etree._Element | None) -> dict[str, str]:
    """An attachment's options as name -> value (the last wins, as in the engine)."""
    if attachment is None:
        return {}
    return {o.get("name", ""): o.get("value", "") for o in attachment.iterfind("option")}


def unknown(kind: str, name: str, known: Iterable[str]) -> str:
    """``unknown <kind> '<name>'``, with the closest known name if one is close."""
    close = close_matches(name, known, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return f"unknown {kind} {name!r}{hint}"


WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")  # what Java's Integer.parseInt accepts

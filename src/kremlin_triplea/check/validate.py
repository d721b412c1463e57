"""Find what makes TripleA refuse a game file, or silently read it wrong: the engine's verdict (issue 33).

``validate_tree`` judges a parsed ``<game>`` element for one engine, TripleA
2.x by default (as 2.7 parses: variables and ``foreach`` expanded first,
check/variables.py; every number read as Java's ``Integer.parseInt`` does,
check/javaread.py) or 1.9, and returns the problems sorted by line:

* an *error* is what the judge refuses ("Could not find player", "No
  territory called", a number parseInt refuses, ...) or reads other than the
  file says (a negative unit quantity makes no units, a ``unitPlacement``
  owner that is no player makes *neutral* units). Errors make the file invalid;
* a *warning* is what the judge reads and ignores: a connection given twice
  (a set of neighbours), a second player, unit type, rule, frontier or
  attachment of one name (the last wins), a ``"<player> bid"`` for no player;
* a *note* is what only the other engine cannot read (1.9 and 2.x
  variables, a ``<loader>``, options it lacks), and each kind of way the file
  breaks game.dtd, once (1.9 prints those and loads the game anyway).

What each engine does was read from its parser: 2.7.15472's
``GameParser``, ``org.triplea.map.data.elements`` and attachment classes, and
1.9's ``GameParser`` (tag 1.9.0.7044); tests/test_validate_engines.py holds
every real game and a mutation set against both engines. The checks are
precise rather than exhaustive: an option value is only checked where the
engine's reading of it is known exactly (``OPTION_REFERENCES``,
check/engine_options.py).
"""

from __future__ import annotations

import copy
import functools
import hashlib
import os
import re
import sys
import zipfile
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import attrs
from lxml import etree

from kremlin_triplea.check.engine19_options import setters_19
from kremlin_triplea.check.engine_options import int_options
from kremlin_triplea.check.javaread import java_boolean, java_int, shown, why_not_java_int
from kremlin_triplea.check.variables import Expanded, expand
from kremlin_triplea.errors import InputError, close_matches
from kremlin_triplea.gamefile.installation import find_installation
from kremlin_triplea.gamefile.safe import write_atomically
from kremlin_triplea.gamefile.tripleaxml import JAVA_INT_MAX, outside_java_int

#: Environment variable naming TripleA's game.dtd (or a TripleA jar holding it).
DTD_VARIABLE = "KREMLIN_TRIPLEA_DTD"

#: Where an installed TripleA keeps its jar, which holds the engine's game.dtd.

#: The jar member the engine validates game files against.
JAR_DTD_MEMBER = "games/strategy/engine/xml/game.dtd"

#: The engine's name for "no player": it accepts it wherever a player is named.
NEUTRAL = "Neutral"

REFUSES = "TripleA refuses to load the game"
KEEPS_LAST = "TripleA silently keeps only the last one"

ERROR = "error"
WARNING = "warning"
#: What another engine than the judge cannot read, or its DTD says: neither an error nor a warning.
NOTE = "note"

#: The engines validate judges for: TripleA 2.x (as 2.7 parses; the default) and TripleA 1.9.
TRIPLEA_2 = "2"
TRIPLEA_19 = "1.9"
ENGINES = (TRIPLEA_2, TRIPLEA_19)


@attrs.frozen
class Problem:
    """One thing wrong with a game file, at a line of it when there is one."""

    file: str  # display name of the file
    line: int | None
    message: str
    severity: str = attrs.field(default=ERROR, validator=attrs.validators.in_((ERROR, WARNING, NOTE)))

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.message}" if self.is_error else f"{where}: {self.severity}: {self.message}"


#: What a check yields: the line (or the element, for its line) and a message.
Finding = tuple["etree._Element | int | None", str]


def validate_tree(root: etree._Element, file: str, *, dtd: Path | None = None, engine: str = TRIPLEA_2, read_dtd: bool = True) -> list[Problem]:
    """Every problem in the game whose ``<game>`` element is ``root`` for ``engine``, by line.

    Errors are what ``engine`` refuses or misreads, warnings what it accepts
    and ignores. What the other engine cannot read is a note, one per kind
    (an error when it is the judge's own refusal); so is each kind of way the
    file breaks game.dtd, which TripleA 1.9 prints and loads the game anyway
    and 2.x does not read. ``dtd`` is that game.dtd (or a TripleA jar holding
    it); without it ``find_dtd`` looks for one, and with none found (or
    without ``read_dtd``: a caller that wants only the verdict) the DTD is
    left out.
    """
    if engine not in ENGINES:
        raise ValueError(f"engine {engine!r} is not one of {ENGINES}")
    game = GameIndex.of(root, engine)
    problems = [Problem(file, _line(where), message, WARNING if check in WARNING_CHECKS else ERROR) for check in CHECKS for where, message in check(game)]
    for where, message in triplea19_refusals(root):
        problems.append(Problem(file, _line(where), message, ERROR if engine == TRIPLEA_19 else NOTE))

    dtd = find_dtd(dtd, game_file=_source_path(root, file)) if read_dtd else None
    if dtd is not None:
        reported = {p.line for p in problems}
        problems += [Problem(file, line, message, NOTE) for line, message in dtd_notes(root, dtd, reported)]
    return sorted(problems, key=lambda p: p.line or 0)


def errors(problems: Iterable[Problem], *, strict: bool = False) -> list[Problem]:
    """The problems that make the file invalid: its errors, and with ``strict`` its warnings too (never its notes)."""
    return [p for p in problems if p.is_error or (strict and p.severity == WARNING)]


def unlined(message: str) -> str:
    """A message without the line numbers it cites ("first on line 1007"), which edits move."""
    return re.sub(r"\bline \d+", "line N", message)


def added_problems(base: Iterable[Problem], problems: Iterable[Problem]) -> list[Problem]:
    """The ``problems`` of a written game that its base game does not have already.

    Problems are matched by message without line numbers (an edit moves lines),
    each base problem excusing one written one.
    """
    known = Counter(unlined(p.message) for p in base)
    fresh = []
    for problem in problems:
        message = unlined(problem.message)
        if known[message] > 0:
            known[message] -= 1
        else:
            fresh.append(problem)
    return fresh


def _line(where: etree._Element | int | None) -> int | None:
    return where.sourceline if isinstance(where, etree._Element) else where


# --------------------------------------------------------------------------
# What the game declares
# --------------------------------------------------------------------------

#: Each kind of named thing and where a game file declares it.
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
        index = {_attachment_key(element): element for element in expanded.attachments}
        return cls(root, declared, expanded.attachments, index, expanded.refused, engine)

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


def _attachment_key(element: etree._Element) -> tuple[str, str, str]:
    """An attachment's (type, attachTo, name); ``type`` defaults to unitType as in the DTD."""
    return (element.get("type", "unitType"), element.get("attachTo", ""), element.get("name", ""))


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


# --------------------------------------------------------------------------
# Checks: each takes the game and yields findings
# --------------------------------------------------------------------------


def duplicate_territories(game: GameIndex) -> Iterator[Finding]:
    """Two territories with one name: TripleA refuses the game."""
    for element, first in _duplicates(game, "territory"):
        yield element, f"duplicate territory {element.get('name', '')!r} (first on line {first.sourceline}); {REFUSES}"


def duplicate_declarations(game: GameIndex) -> Iterator[Finding]:
    """A player, unit type, resource, rule or frontier given twice: the engine keeps the last and ignores the first."""
    for kind in ("player", "unit type", "resource", "production rule", "repair rule", "production frontier", "repair frontier"):
        for element, first in _duplicates(game, kind):
            consequence = "an exact copy; TripleA reads only one" if _same(element, first) else KEEPS_LAST
            yield element, f"duplicate {kind} {element.get('name', '')!r} (first on line {first.sourceline}); {consequence}"


def _duplicates(game: GameIndex, kind: str) -> Iterator[tuple[etree._Element, etree._Element]]:
    """Each declaration of ``kind`` whose name an earlier one has, with that first one."""
    first = game.declared[kind]
    for element in game.root.iterfind(DECLARATIONS[kind]):
        if first[element.get("name", "")] is not element:
            yield element, first[element.get("name", "")]


def _same(one: etree._Element, other: etree._Element) -> bool:
    """The same attributes and the same children (compared as written, without the text around them)."""
    return dict(one.attrib) == dict(other.attrib) and [etree.tostring(c, with_tail=False) for c in one] == [etree.tostring(c, with_tail=False) for c in other]


def duplicate_attachments(game: GameIndex) -> Iterator[Finding]:
    """Two attachments of one name on one thing: the second replaces the first."""
    seen: dict[tuple[str, str, str], etree._Element] = {}
    said: set[tuple[str, str, str]] = set()
    for element in game.attachments:
        key = _attachment_key(element)
        first = seen.setdefault(key, element)
        if first is element:
            continue
        type_, attach_to, name = key
        same = _options(first) == _options(element)
        if first.sourceline == element.sourceline:
            # One foreach making one attachment more than once: as meant when alike, else said once.
            if not same and key not in said:
                said.add(key)
                yield element, f"its foreach makes attachment {name!r} on {type_} {attach_to!r} more than once, with other options; {KEEPS_LAST}"
            continue
        consequence = "an exact copy; TripleA reads only one" if same else f"{KEEPS_LAST}, losing the first one's options"
        where = f"{type_} {attach_to!r} (first on line {first.sourceline})"
        yield element, f"duplicate attachment {name!r} on {where}; {consequence}"


def _options(attachment: etree._Element) -> list[tuple[str | None, ...]]:
    return [(o.get("name"), o.get("value"), o.get("count")) for o in attachment.iterfind("option")]


def duplicate_connections(game: GameIndex) -> Iterator[Finding]:
    """The same two territories connected twice, either way round (a connection goes both ways)."""
    seen: dict[frozenset[str], etree._Element] = {}
    for element in game.root.iterfind("map/connection"):
        key = frozenset((element.get("t1", ""), element.get("t2", "")))
        first = seen.setdefault(key, element)
        if first is not element:
            ends = f"{element.get('t1')!r} - {element.get('t2')!r}"
            yield element, f"duplicate connection {ends} (first on line {first.sourceline})"


@attrs.frozen
class Reference:
    """An attribute that names something the game must declare."""

    path: str  # from <game> to the referring elements
    attribute: str
    kinds: tuple[str, ...]  # the name must be one of these kinds
    consequence: str = REFUSES
    optional: bool = False  # an absent or empty value means "none"


def _refs(path: str, **attributes: str | tuple[str, ...]) -> list[Reference]:
    """References from ``path`` that make the engine refuse the game when unknown."""
    return [Reference(path, attribute, kinds if isinstance(kinds, tuple) else (kinds,)) for attribute, kinds in attributes.items()]


NEUTRAL_UNITS = "TripleA silently makes these units neutral (owned by no player)"

#: TripleA 2.7 refuses a step for an unknown player ("The step ... wants a player with the name of ..."); 1.9 runs it
#: with no player (``steps_without_player_19``).
STEP_PLAYER = Reference("gamePlay/sequence/step", "player", ("player",), optional=True)

#: Every attribute whose value TripleA looks up, and what happens when it is missing.
REFERENCES = [
    *_refs("map/connection", t1="territory", t2="territory"),
    *_refs("playerList/alliance", player="player"),
    STEP_PLAYER,
    *_refs("gamePlay/sequence/step", delegate="delegate"),
    *_refs("production/productionRule/cost", resource="resource"),
    *_refs("production/productionRule/result", resourceOrUnit=("resource", "unit type")),
    *_refs("production/repairRule/cost", resource="resource"),
    *_refs("production/repairRule/result", resourceOrUnit=("resource", "unit type")),
    *_refs("production/productionFrontier/frontierRules", name="production rule"),
    *_refs("production/repairFrontier/repairRules", name="repair rule"),
    *_refs("production/playerProduction", player="player", frontier="production frontier"),
    *_refs("production/playerRepair", player="player", frontier="repair frontier"),
    *_refs("technology/playerTech", player="player"),
    *_refs("initialize/ownerInitialize/territoryOwner", territory="territory", owner="player"),
    *_refs("initialize/unitInitialize/unitPlacement", territory="territory", unitType="unit type"),
    Reference("initialize/unitInitialize/unitPlacement", "owner", ("player",), NEUTRAL_UNITS, optional=True),
    *_refs("initialize/unitInitialize/heldUnits", player="player", unitType="unit type"),
    *_refs("initialize/resourceInitialize/resourceGiven", player="player", resource="resource"),
    *_refs("initialize/relationshipInitialize/relationship", player1="player", player2="player"),
]


def unknown_references(game: GameIndex) -> Iterator[Finding]:
    """Attributes naming a territory, player, unit type, ... the game does not declare."""
    for ref in REFERENCES:
        if game.engine == TRIPLEA_19 and ref is STEP_PLAYER:
            continue  # steps_without_player_19
        declared = [game.declared[kind] for kind in ref.kinds]
        for element in game.root.iterfind(ref.path):
            name = element.get(ref.attribute)
            if name is None and not ref.optional:
                # 2.7 looks the name up as null ("No territory called: null", ...).
                yield element, f"{element.tag} has no {ref.attribute}; {REFUSES}"
                continue
            if name is None or (ref.optional and not name.strip()):
                continue
            if not any(name in names for names in declared) and not any(game.has(kind, name) for kind in ref.kinds):
                known = [n for kind in ref.kinds for n in game.declared[kind]]
                kind = " or ".join(ref.kinds)
                yield element, f"{element.tag} {ref.attribute}: {unknown(kind, name, known)}; {ref.consequence}"


def steps_without_player_19(game: GameIndex) -> Iterator[Finding]:
    """Judged for 1.9: a step for an unknown player, which 1.9's GameParser runs with no player."""
    if game.engine != TRIPLEA_19:
        return
    for element in game.root.iterfind(STEP_PLAYER.path):
        name = element.get("player", "")
        if name.strip() and not game.has("player", name):
            yield element, f"step player: {unknown('player', name, game.declared['player'])}; TripleA 1.9 silently runs this step with no player"


def player_named_neutral(game: GameIndex) -> Iterator[Finding]:
    """References to "Neutral" in a game that declares a player of that name.

    Both engines look "Neutral" up as their own no-player before the declared
    players (2.7 ``PlayerList.getPlayerId``), so what the file gives the
    declared player, territories, units or PUs, goes to no player.
    """
    declared = game.declared["player"].get(NEUTRAL)
    if declared is None:
        return
    for ref in REFERENCES:
        if "player" in ref.kinds:
            for element in game.root.iterfind(f"{ref.path}[@{ref.attribute}='{NEUTRAL}']"):
                yield (
                    element,
                    (
                        f"{element.tag} {ref.attribute}: {NEUTRAL!r} is TripleA's name for no player, so this goes to no player, "
                        f"not to the player {NEUTRAL!r} declared on line {declared.sourceline}"
                    ),
                )


#: The kind of thing an attachment's ``type`` attaches it to (technologies and
#: relationships are left out: the engine adds built-in ones the file need not declare).
ATTACHMENT_TYPES = {
    "unitType": "unit type",
    "territory": "territory",
    "resource": "resource",
    "player": "player",
    "territoryEffect": "territory effect",
}


def unknown_attachment_targets(game: GameIndex) -> Iterator[Finding]:
    """Attachments whose ``attachTo`` names nothing of their ``type``."""
    for element in game.attachments:
        kind = ATTACHMENT_TYPES.get(element.get("type", "unitType"))
        attach_to = element.get("attachTo")
        if kind is None or attach_to is None or game.has(kind, attach_to):
            continue
        message = unknown(kind, attach_to, game.declared[kind])
        yield element, f"attachment {element.get('name')!r} attachTo: {message}; {REFUSES}"


def _names(value: str) -> list[str]:
    """A ``:``-separated list of names, split as Java's ``value.split(":")`` does.

    Java drops trailing empty strings, except that "" splits into [""].
    """
    if not value:
        return [""]
    names = value.split(":")
    while names and not names[-1]:
        names.pop()
    return names


_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")  # what Java's Integer.parseInt accepts

#: Keywords the engine's rules (RulesAttachment) accept in a territory list.
#: From the first keyword on, the engine reads no more names.
RULES_KEYWORDS = {"controlled", "controlledNoWater", "original", "originalNoWater", "all", "map", "enemy"}


def _rules_territories(value: str) -> list[str]:
    """The territory names in a RulesAttachment list, read as the 1.9 engine does.

    A leading whole number is the count, ``each`` is a flag, and a keyword
    (``controlled``, ``original``, ...) ends the list.
    """
    listed = _names(value)
    if listed == [""]:
        return []
    names = []
    for index, name in enumerate(listed):
        if index == 0 and _WHOLE_NUMBER.fullmatch(name):
            continue
        if name in RULES_KEYWORDS:
            break
        if name != "each":
            names.append(name)
    return names


def _one_name(value: str) -> list[str]:
    return [value]


def _names_unless_empty(value: str) -> list[str]:
    return _names(value) if value else []


def _canal_units(value: str) -> list[str]:
    """Excluded unit types; "NONE" and "ALL" (in any case) name none."""
    return [] if value.upper() in ("NONE", "ALL") else _names(value)


#: Attachment options whose value names things: (class, option) -> (kind, names in a value).
#: Only options whose reading in the 1.9 engine is known exactly; all refuse the game.
OPTION_REFERENCES: dict[tuple[str, str], tuple[str, Callable[[str], list[str]]]] = {
    ("CanalAttachment", "landTerritories"): ("territory", _names),
    ("CanalAttachment", "excludedUnits"): ("unit type", _canal_units),
    ("TerritoryAttachment", "capital"): ("player", _one_name),
    ("TerritoryAttachment", "originalOwner"): ("player", _one_name),
    ("TerritoryAttachment", "convoyAttached"): ("territory", _names_unless_empty),
    ("TriggerAttachment", "territories"): ("territory", _names),
    **{
        ("RulesAttachment", option): ("territory", _rules_territories)
        for option in (
            "alliedOwnershipTerritories",
            "directOwnershipTerritories",
            "alliedExclusionTerritories",
            "directExclusionTerritories",
            "enemyExclusionTerritories",
            "enemySurfaceExclusionTerritories",
            "directPresenceTerritories",
            "alliedPresenceTerritories",
            "enemyPresenceTerritories",
            "movementRestrictionTerritories",
        )
    },
}


def unknown_names_in_options(game: GameIndex) -> Iterator[Finding]:
    """Option values (canal land territories, capitals, rule territory lists, ...) naming nothing."""
    for attachment in game.attachments:
        java_class = attachment.get("javaClass", "").rsplit(".", 1)[-1]
        for option in attachment.iterfind("option"):
            reference = OPTION_REFERENCES.get((java_class, option.get("name", "")))
            if reference is None:
                continue
            kind, names_in = reference
            # The engine hands the setter "count:value" when the option has a count.
            value, count = option.get("value", ""), option.get("count", "")
            for name in names_in(f"{count}:{value}" if count else value):
                if not game.has(kind, name):
                    message = unknown(kind, name, game.declared[kind])
                    yield option, f"{java_class} option {option.get('name')}: {message}; {REFUSES}"


def bids_for_unknown_players(game: GameIndex) -> Iterator[Finding]:
    """``"<player> bid"`` properties for no player: the engine reads bids by that name only."""
    for prop in game.root.iterfind("propertyList/property"):
        name = prop.get("name", "")
        if name.endswith(" bid"):
            player = name[: -len(" bid")]
            if not game.has("player", player):
                message = unknown("player", player, game.declared["player"])
                yield prop, f"property {name!r}: {message}; TripleA never uses this bid"


def unit_types_without_unit_attachment(game: GameIndex) -> Iterator[Finding]:
    """Unit types with no attachment named ``unitAttachment`` (TripleA's loader requires one)."""
    for name, element in game.declared["unit type"].items():
        if game.attachment("unitType", name, "unitAttachment") is None:
            yield element, f"unit type {name!r} has no unitAttachment; {REFUSES}"


def owned_territories_without_territory_attachment(game: GameIndex) -> Iterator[Finding]:
    """Territories given an owner but no ``territoryAttachment``."""
    for element in game.root.iterfind("initialize/ownerInitialize/territoryOwner"):
        territory = element.get("territory", "")
        if game.has("territory", territory) and game.attachment("territory", territory, "territoryAttachment") is None:
            yield element, (f"territory {territory!r} has an owner but no territoryAttachment; TripleA then gives it no production, original owner or capital")


def land_units_at_sea_without_transport(game: GameIndex) -> Iterator[Finding]:
    """Land units placed in a sea zone where their side has no ship to carry them.

    A unit type is sea if its unitAttachment says ``isSea`` true, air if it says
    ``isAir`` true, else land. A land unit placed in a sea zone is reported
    unless that sea zone also has a sea unit with a ``transportCapacity`` above
    0, owned by the land unit's owner or by a player sharing an alliance with
    it. Capacities and transport costs are not added up.
    """
    land, ships = set(), set()
    for name in game.declared["unit type"]:
        options = option_values(game.attachment("unitType", name, "unitAttachment"))
        is_sea, is_air = options.get("isSea", "").lower() == "true", options.get("isAir", "").lower() == "true"
        if not is_sea and not is_air:
            land.add(name)
        capacity = options.get("transportCapacity", "").strip()
        if is_sea and capacity.isdecimal() and int(capacity) > 0:
            ships.add(name)

    alliances = game.alliances()

    def side(player: str) -> set[str]:
        own = alliances.get(player, set())
        return {player} | {other for other, names in alliances.items() if names & own}

    placements = list(game.root.iterfind("initialize/unitInitialize/unitPlacement"))
    carriers: dict[str, set[str]] = {}  # sea zone -> owners of ships that can carry land units
    for element in placements:
        if element.get("unitType") in ships:
            carriers.setdefault(element.get("territory", ""), set()).add(element.get("owner", ""))
    for element in placements:
        territory, owner, unit = element.get("territory", ""), element.get("owner", ""), element.get("unitType", "")
        if unit in land and game.is_water(territory) and not carriers.get(territory, set()) & side(owner):
            whose = f"owned by {owner}" if owner else "neutral"
            yield (
                element,
                (
                    f"land unit {unit!r} ({whose}) placed in sea zone {territory!r}, where its side has no ship "
                    "with transportCapacity; TripleA then has land units at sea"
                ),
            )


def _whole_number(value: str, default: int) -> int:
    value = value.strip()
    return int(value) if _WHOLE_NUMBER.fullmatch(value) else default


@attrs.frozen
class _Carrying:
    """What a unit type's unitAttachment says about sea transport (-1: the engine's "none")."""

    land: bool
    sea_transport: bool
    capacity: int
    cost: int

    @classmethod
    def of(cls, game: GameIndex, unit_type: str) -> _Carrying:
        options = option_values(game.attachment("unitType", unit_type, "unitAttachment"))
        is_sea = options.get("isSea", "").lower() == "true"
        is_air = options.get("isAir", "").lower() == "true"
        capacity = _whole_number(options.get("transportCapacity", ""), -1)
        cost = _whole_number(options.get("transportCost", ""), -1)
        return cls(not is_sea and not is_air, is_sea and capacity != -1, capacity, cost)


def land_units_beyond_transport_capacity(game: GameIndex) -> Iterator[Finding]:
    """Land units placed in a sea zone that its transports cannot all carry.

    Read from the engine (``InitializationDelegate.initTransportedLandUnits``,
    TripleA 1.9 and 2.7): when the game starts, every land unit in a sea zone
    is loaded onto a transport there (a sea unit whose ``transportCapacity`` is
    set), land units and transports each in the order they are placed, each
    land unit onto the first transport with room left for its
    ``transportCost``, whoever owns either. A land unit with no
    ``transportCost``, or one no transport has room for, stops the game from
    starting. Sea zones without any transport are left to
    ``land_units_at_sea_without_transport``.
    """
    carrying: dict[str, _Carrying] = {}

    def of(unit_type: str) -> _Carrying:
        if unit_type not in carrying:
            carrying[unit_type] = _Carrying.of(game, unit_type)
        return carrying[unit_type]

    zones: dict[str, list[etree._Element]] = {}
    for element in game.root.iterfind("initialize/unitInitialize/unitPlacement"):
        territory, unit_type = element.get("territory", ""), element.get("unitType", "")
        if game.is_water(territory) and game.has("unit type", unit_type):
            zones.setdefault(territory, []).append(element)
    for zone, placements in zones.items():
        room = [of(e.get("unitType", "")).capacity for e in placements for _ in range(_quantity(e)) if of(e.get("unitType", "")).sea_transport]
        if not room:
            continue
        total = sum(room)
        for element in placements:
            unit_type = element.get("unitType", "")
            unit = of(unit_type)
            if not unit.land:
                continue
            if unit.cost == -1:
                yield (
                    element,
                    (
                        f"land unit {unit_type!r} placed in sea zone {zone!r} has no transportCost, so no transport can "
                        'carry it; TripleA stops when the game starts ("Non transportable unit in sea")'
                    ),
                )
                break
            for _ in range(_quantity(element)):
                spot = next((index for index, left in enumerate(room) if left >= unit.cost), None)
                if spot is None:
                    break
                room[spot] -= unit.cost
            else:
                continue
            yield (
                element,
                (
                    f"land units placed in sea zone {zone!r} do not fit on its transports: {unit_type!r} "
                    f"(transportCost {unit.cost}) finds no room left, the transports there carrying {total} in all; "
                    'TripleA stops when the game starts ("Cannot load all land units in sea transports")'
                ),
            )
            break


def _quantity(placement: etree._Element) -> int:
    return max(_whole_number(placement.get("quantity", "1"), 1), 0)


#: The elements with a numeric attribute long enough to exceed a Java int (2147483647 has ten digits): only
#: they can break the limit, and lxml finds them without visiting every element in Python.
_LONG_OPTION_NUMBERS = etree.XPath("//option[string-length(@value) > 9 or string-length(@count) > 9]")


def numbers_beyond_java_int(game: GameIndex) -> Iterator[Finding]:
    """Option values holding a whole number beyond a Java int (in a ``:`` list too): TripleA cannot open the game.

    The options 2.7 reads as one int are ``option_numbers_the_engine_cannot_read``'s.
    """
    for element in _LONG_OPTION_NUMBERS(game.root):
        parent = element.getparent()
        java_class = parent.get("javaClass", "").rsplit(".", 1)[-1] if parent is not None else ""
        if _decapitalized(element.get("name", "")) in int_options(java_class) and not element.get("count"):
            continue
        for attribute in ("value", "count"):
            text = element.get(attribute)
            bad = next((t for t in (text or "").split(":") if outside_java_int(t)), None)
            if bad is not None:
                name = element.get("name")
                yield (
                    element,
                    (
                        f"<option{f' name={name!r}' if name else ''}> {attribute} {bad.strip()} is beyond TripleA's limit "
                        f"of {JAVA_INT_MAX:,} (a Java int); {REFUSES}"
                    ),
                )


def _decapitalized(name: str) -> str:
    """An option name as 2.7 looks it up (GameParser.decapitalize)."""
    return name[:1].lower() + name[1:]


def option_numbers_the_engine_cannot_read(game: GameIndex) -> Iterator[Finding]:
    """Options TripleA reads as one Java int (check/engine_options.py) whose value Integer.parseInt refuses."""
    for attachment in game.attachments:
        java_class = attachment.get("javaClass", "").rsplit(".", 1)[-1]
        ints = int_options(java_class)
        for option in attachment.iterfind("option"):
            value = option.get("value")
            if value is None or option.get("count") or _decapitalized(option.get("name", "")) not in ints:
                continue
            if java_int(value) is None:
                yield option, f"{java_class} option {option.get('name')}: {shown(value)} is {why_not_java_int(value)}; {REFUSES}"


def _editable_number(prop: etree._Element) -> bool:
    return prop.get("editable", "").lower() == "true" and prop.find("number") is not None


def property_numbers_read_as_text(game: GameIndex) -> Iterator[Finding]:
    """A property value that is a whole number beyond a Java int: read as text, so the game uses no number there.

    2.7 tries Guava's Ints.tryParse and keeps the text when it fails; 1.9 does
    so too for a property that is not an editable number
    (``editable_numbers_19`` has those).
    """
    for prop in game.root.iterfind("propertyList/property"):
        value = prop.get("value", "")
        if outside_java_int(value) and not (game.engine == TRIPLEA_19 and _editable_number(prop)):
            yield prop, f"property {prop.get('name')!r} value {value.strip()} is beyond a Java int; TripleA reads it as text, not a number"


def editable_numbers_19(game: GameIndex) -> Iterator[Finding]:
    """Judged for 1.9: an editable number property whose value Integer.parseInt refuses (1.9 refuses the game)."""
    if game.engine != TRIPLEA_19:
        return
    for prop in game.root.iterfind("propertyList/property"):
        value = prop.get("value")
        if value is not None and _editable_number(prop) and java_int(value) is None:
            yield prop, f"editable number property {prop.get('name')!r} value {shown(value)} is {why_not_java_int(value)}; {REFUSES}"


def missing_quantities(game: GameIndex) -> Iterator[Finding]:
    """A unit placement or held units without quantity: 2.7 reads 0 and makes no units; 1.9 refuses (parseInt of "").
    Judged for 1.9, a resourceGiven without quantity is refused too."""
    paths = ["initialize/unitInitialize/unitPlacement", "initialize/unitInitialize/heldUnits"]
    if game.engine == TRIPLEA_19:
        paths.append("initialize/resourceInitialize/resourceGiven")
    for path in paths:
        for element in game.root.iterfind(path):
            if element.get("quantity") is not None:
                continue
            consequence = REFUSES if game.engine == TRIPLEA_19 else "TripleA 2.7 reads 0 and silently creates no units"
            yield element, f"<{element.tag}> has no quantity; {consequence}"


#: Every attribute TripleA 2.7 reads as a Java int (the ``int``/``Integer`` fields of its
#: ``org.triplea.map.data.elements`` classes), by the elements that carry it.
INT_ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "diceSides": ("value",),
    "gamePlay/sequence/step": ("maxRunCount",),
    "gamePlay/offset": ("round",),
    "initialize/unitInitialize/unitPlacement": ("quantity", "hitsTaken", "unitDamage"),
    "initialize/unitInitialize/heldUnits": ("quantity",),
    "initialize/resourceInitialize/resourceGiven": ("quantity",),
    "initialize/relationshipInitialize/relationship": ("roundValue",),
    "production/productionRule/cost": ("quantity",),
    "production/productionRule/result": ("quantity",),
    "production/repairRule/cost": ("quantity",),
    "production/repairRule/result": ("quantity",),
    "propertyList/property": ("min", "max"),
    "propertyList/property/number": ("min", "max"),
}

#: Every attribute TripleA 2.7 reads as a Boolean: "true" or "false" in any case, else it refuses the game.
BOOLEAN_ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "map/territory": ("water",),
    "playerList/player": ("optional", "canBeDisabled", "isHidden"),
    "propertyList/property": ("editable",),
}


#: Of ``INT_ATTRIBUTES``, those TripleA 1.9 reads as 0 when blank (its GameParser trims and skips them).
BLANK_IS_ZERO_IN_19 = {("unitPlacement", "hitsTaken"), ("unitPlacement", "unitDamage")}


def numbers_the_engine_cannot_read(game: GameIndex) -> Iterator[Finding]:
    """Whole numbers Java's Integer.parseInt refuses (" 2 ", "one", 4294967296): TripleA then loads nothing."""
    for path, attributes in INT_ATTRIBUTES.items():
        for element in game.root.iterfind(path):
            for attribute in attributes:
                text = element.get(attribute)
                if text is None or java_int(text) is not None:
                    continue
                if game.engine == TRIPLEA_19 and not text.strip() and (element.tag, attribute) in BLANK_IS_ZERO_IN_19:
                    continue
                yield element, f"<{element.tag}> {attribute} {shown(text)} is {why_not_java_int(text)}; {REFUSES}"


def flags_the_engine_cannot_read(game: GameIndex) -> Iterator[Finding]:
    """Booleans other than true/false (any case): TripleA 2.x then loads nothing (1.9 reads them: ``flags_19_reads_as_false``)."""
    if game.engine != TRIPLEA_2:
        return
    for path, attributes in BOOLEAN_ATTRIBUTES.items():
        for element in game.root.iterfind(path):
            for attribute in attributes:
                text = element.get(attribute)
                if text is not None and java_boolean(text) is None:
                    yield element, f"<{element.tag}> {attribute} {text!r} is neither true nor false; {REFUSES}"


def flags_19_reads_as_false(game: GameIndex) -> Iterator[Finding]:
    """Booleans TripleA 1.9 reads as false though they do not say false.

    Its GameParser compares: ``water`` trimmed and in any case, ``editable`` in
    any case, a player's ``optional``, ``canBeDisabled`` and ``isHidden``
    exactly with "true"; anything else is false.
    """
    if game.engine != TRIPLEA_19:
        return
    for path, attributes in BOOLEAN_ATTRIBUTES.items():
        for element in game.root.iterfind(path):
            for attribute in attributes:
                text = element.get(attribute)
                if text is None:
                    continue
                read = text.strip() if attribute == "water" else text
                says = read.lower() if attribute in ("water", "editable") else read
                if says not in ("true", "false"):
                    yield element, f"<{element.tag}> {attribute} {text!r} is neither true nor false; TripleA 1.9 reads it as false"


def numbers_out_of_range(game: GameIndex) -> Iterator[Finding]:
    """Whole numbers the engine reads and then refuses, or uses as something else.

    From TripleA 2.7's ``GameParser``: a negative unit quantity makes no units
    (``UnitType.create`` counts up to it); a negative ``resourceGiven``
    quantity throws ("quantity must be positive", ``ResourceCollection
    .addResource``); a ``unitDamage`` below zero, or a ``hitsTaken`` outside
    0 .. the unit type's hitPoints - 1, refuses the game.
    """
    for path in ("initialize/unitInitialize/unitPlacement", "initialize/unitInitialize/heldUnits"):
        for element in game.root.iterfind(path):
            quantity = java_int(element.get("quantity", "0"))
            if quantity is not None and quantity < 0:
                yield element, f"<{element.tag}> quantity {quantity} is negative; TripleA silently creates no units"
    for element in game.root.iterfind("initialize/resourceInitialize/resourceGiven"):
        quantity = java_int(element.get("quantity", "0"))
        if quantity is not None and quantity < 0:
            yield element, f'<resourceGiven> quantity {quantity} is negative; {REFUSES} ("quantity must be positive")'
    for element in game.root.iterfind("initialize/unitInitialize/unitPlacement"):
        damage = java_int(element.get("unitDamage", "0"))
        if damage is not None and damage < 0:
            yield element, f"<unitPlacement> unitDamage {damage} is below zero; {REFUSES}"
        hits, unit_type = java_int(element.get("hitsTaken", "0")), element.get("unitType", "")
        if hits is None or not game.has("unit type", unit_type):
            continue
        most = _hit_points(game, unit_type) - 1
        if not 0 <= hits <= most:
            yield element, f"<unitPlacement> hitsTaken {hits} is outside 0 to {most} (one less than {unit_type!r}'s hitPoints); {REFUSES}"


def _hit_points(game: GameIndex, unit_type: str) -> int:
    """A unit type's hitPoints as its unitAttachment sets them: 1 unless set, the legacy isTwoHit setting 2 or 1
    (UnitAttachment.setIsTwoHit), the option given last winning."""
    hit_points = 1
    attachment = game.attachment("unitType", unit_type, "unitAttachment")
    for option in attachment.iterfind("option") if attachment is not None else ():
        name, value = option.get("name"), option.get("value", "")
        if name == "hitPoints" and java_int(value) is not None:
            hit_points = java_int(value) or 0
        elif name == "isTwoHit":
            hit_points = 2 if value.lower() == "true" else 1
    return hit_points


#: TripleA 1.9's version, as its GameParser compares a game's minimumVersion with it.
TRIPLEA_19_VERSION = (1, 9, 0)
CANNOT_19 = "TripleA 1.9 cannot read this"


def triplea19_refusals(root: etree._Element) -> Iterator[Finding]:
    """What TripleA 1.9 refuses that 2.x reads: 2.x variables, no ``<loader>``, a ``minimumVersion`` above 1.9,
    a step ``maxRunCount`` of 0 or less."""
    variable_list = root.find("variableList")
    foreach = [a for a in root.iterfind("attachmentList/attachment") if a.get("foreach", "").strip()]
    if variable_list is not None or foreach:
        where = variable_list if variable_list is not None else foreach[0]
        yield where, f"{CANNOT_19}: uses 2.x variables (<variableList>, foreach on {len(foreach)} attachment(s))"
    if root.find("loader") is None:
        yield None, f'{CANNOT_19}: it has no <loader> (1.9: "No child called loader")'
    triplea = root.find("triplea")
    if triplea is not None:
        # 1.9's Version compares major, minor and point (not the build): 1.9.1 is above its 1.9.0.
        text = triplea.get("minimumVersion", "")
        parts = [java_int(part) for part in text.split(".")[:3]]
        if None in parts:
            yield triplea, f"{CANNOT_19}: its minimumVersion {text!r} is not a version 1.9 can read"
        elif tuple(parts) > TRIPLEA_19_VERSION:
            yield triplea, f"{CANNOT_19}: it requires TripleA {text} (minimumVersion)"
    yield from _options_19_lacks(root)
    for step in root.iterfind("gamePlay/sequence/step[@maxRunCount]"):
        count = java_int(step.get("maxRunCount"))
        if count is not None and count <= 0:
            yield step, f'{CANNOT_19}: step maxRunCount {count} ("maxRunCount must be positive"; 2.x ignores it)'


def _options_19_lacks(root: etree._Element) -> Iterator[Finding]:
    """Attachment options 1.9 has no setter for (check/engine19_options.py), once per class and option, at the first."""
    places: dict[tuple[str, str], list[etree._Element]] = {}
    for attachment in root.iterfind("attachmentList/attachment"):
        java_class = attachment.get("javaClass", "").rsplit(".", 1)[-1]
        known = setters_19(java_class)
        if not known:
            continue  # a class 1.9 lacks altogether is not told apart here
        for option in attachment.iterfind("option"):
            name = option.get("name", "")
            if name and name[:1].upper() + name[1:] not in known:
                places.setdefault((java_class, name), []).append(option)
    for (java_class, name), found in places.items():
        more = f" ({len(found)} places)" if len(found) > 1 else ""
        yield found[0], f"{CANNOT_19}: {java_class} has no option {name!r}{more} (a newer TripleA's)"


def _major_minor(version: str) -> tuple[int, int] | None:
    """A version's major and minor numbers as TripleA reads them (``org.triplea.util.Version``), None if unreadable."""
    parts = version.split("+", 1)[0].split(".")
    major, minor = java_int(parts[0]), java_int(parts[1]) if len(parts) > 1 else 0
    return None if major is None or minor is None else (major, minor)


#: TripleA 2.7's version (games asking for a newer minimumVersion are refused).
TRIPLEA_2_VERSION = (2, 7)


def minimum_version(game: GameIndex) -> Iterator[Finding]:
    """A ``<triplea minimumVersion>`` above 2.7, or one TripleA cannot read: 2.7 refuses the game (1.9's is ``triplea19_refusals``)."""
    triplea = game.root.find("triplea")
    if game.engine != TRIPLEA_2 or triplea is None or not triplea.get("minimumVersion", "").strip():
        return
    text = triplea.get("minimumVersion", "")
    version = _major_minor(text)
    if version is None:
        yield triplea, f"<triplea> minimumVersion {text!r} is not a version TripleA can read; {REFUSES}"
    elif version > TRIPLEA_2_VERSION:
        yield triplea, f"<triplea> minimumVersion {text} is above TripleA 2.7; {REFUSES} (it needs a newer TripleA)"


def foreach_refusals(game: GameIndex) -> Iterator[Finding]:
    """An attachment ``foreach`` of undeclared variables, of variables of unequal lengths, or of more than two groups."""
    for element, reason in game.refused_foreach:
        yield element, f"attachment {element.get('name')!r} foreach: {reason}; {REFUSES}"


CHECKS: list[Callable[[GameIndex], Iterable[Finding]]] = [
    minimum_version,
    foreach_refusals,
    duplicate_territories,
    duplicate_declarations,
    duplicate_attachments,
    duplicate_connections,
    unknown_references,
    player_named_neutral,
    steps_without_player_19,
    unknown_attachment_targets,
    unknown_names_in_options,
    bids_for_unknown_players,
    unit_types_without_unit_attachment,
    owned_territories_without_territory_attachment,
    land_units_at_sea_without_transport,
    numbers_beyond_java_int,
    option_numbers_the_engine_cannot_read,
    property_numbers_read_as_text,
    editable_numbers_19,
    missing_quantities,
    numbers_the_engine_cannot_read,
    flags_the_engine_cannot_read,
    flags_19_reads_as_false,
    numbers_out_of_range,
    land_units_beyond_transport_capacity,
]

#: Checks whose findings TripleA reads as the map maker meant (see the module's docstring).
#: A bid property for no player is one: the engine never looks it up, and plays as without it.
WARNING_CHECKS = {
    property_numbers_read_as_text,
    owned_territories_without_territory_attachment,
    player_named_neutral,
    steps_without_player_19,
    duplicate_declarations,
    duplicate_attachments,
    duplicate_connections,
    bids_for_unknown_players,
    flags_19_reads_as_false,
}


# --------------------------------------------------------------------------
# TripleA's game.dtd
# --------------------------------------------------------------------------

# The DTD's words for what the 2.x variables note already says.
_VARIABLE_DTD_MESSAGES = re.compile(
    r"No declaration for (element (variableList|variable|element)|attribute (name of element (variable|element)|foreach of element attachment))$"
    r"|Element game content does not follow the DTD, expecting .*, got \(.*variableList"
)


# DTD errors the checks above already report on the same line, better: names, and flags that are not true/false.
_SAID_BETTER = {etree.ErrorTypes.DTD_UNKNOWN_ID, etree.ErrorTypes.DTD_ID_REDEFINED, etree.ErrorTypes.DTD_ATTRIBUTE_VALUE}


def dtd_notes(root: etree._Element, dtd: Path, reported_lines: set[int | None]) -> list[tuple[int, str]]:
    """Each kind of way the document breaks ``dtd``, once, as (first line, message with how many places).

    TripleA 1.9 validates every game file against its DTD, prints the errors
    and loads the game anyway; 2.x reads no DTD. What the 2.x variables note
    says (``triplea19_refusals``) is left out, and so is an unknown or
    repeated name or a value outside a list where a check reported that line.
    """
    schema = _load_dtd(dtd)
    if schema.validate(root.getroottree()):
        return []
    stripped = _without_stray_text(root, schema)
    if stripped is not None and schema.validate(stripped.getroottree()):
        return []  # only text the engine ignores (its other errors are reported from the copy, by the same lines)
    kinds: dict[str, list[int]] = {}
    for error in schema.error_log:
        if _VARIABLE_DTD_MESSAGES.search(error.message) or (error.type in _SAID_BETTER and error.line in reported_lines):
            continue
        kinds.setdefault(error.message, []).append(error.line)
    return [
        (lines[0], f"does not follow game.dtd (TripleA 1.9 prints this and loads the game): {message}" + (f" ({len(lines)} places)" if len(lines) > 1 else ""))
        for message, lines in kinds.items()
    ]


def _without_stray_text(root: etree._Element, schema: etree.DTD) -> etree._Element | None:
    """A copy of the document without the text the DTD allows no text in (None if it has none).

    Text between the elements of ``<unitInitialize>`` and the like breaks the DTD, but 2.7 reads the game as if
    it were not there (its parser maps elements only) and 1.9 only prints the error; a map that has it is played
    as it is, and an error it had before an edit is no error of the edit (the DTD's message lists every child,
    so it differs once a unit is placed).
    """
    no_text = {e.name for e in schema.elements() if e.type in ("element", "empty")}

    def stray(text: str | None) -> bool:
        return bool(text and text.strip())

    if not any(e.tag in no_text and (stray(e.text) or any(stray(c.tail) for c in e)) for e in root.iter(tag=etree.Element)):
        return None
    copied = copy.deepcopy(root)
    for element in copied.iter(tag=etree.Element):
        if element.tag in no_text:
            if stray(element.text):
                element.text = None
            for child in element:
                if stray(child.tail):
                    child.tail = None
    return copied


def _load_dtd(path: Path) -> etree.DTD:
    try:
        stat = path.stat()
    except OSError as error:
        raise InputError(f"cannot read the DTD: {error.strerror}", where=str(path)) from None
    return _parse_dtd(str(path), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=8)
def _parse_dtd(path: str, _mtime_ns: int, _size: int) -> etree.DTD:
    try:
        return etree.DTD(path)
    except (etree.DTDParseError, OSError) as error:
        raise InputError(f"cannot read the DTD: {error}", where=path) from None


def find_dtd(explicit: Path | None = None, *, game_file: Path | None = None) -> Path | None:
    """TripleA's game.dtd, or None if there is none to be found.

    In order: ``explicit`` (``--dtd``), the file named by $KREMLIN_TRIPLEA_DTD,
    the installed TripleA's (extracted from its jar into a cache folder), then
    a ``game.dtd`` beside ``game_file`` or in its map folder. The installed
    engine's DTD comes before copies shipped with maps because it is the one
    TripleA validates against. ``explicit`` and the variable may also name a
    TripleA jar.
    """
    for given, where in ((explicit, None), (_env_path(), f"${DTD_VARIABLE}")):
        if given is not None:
            if not given.is_file():
                raise InputError("no such DTD file", where=f"{where}={given}" if where else str(given))
            return _dtd_from_jar(given) if given.suffix == ".jar" else given
    installed = find_installation().found
    if installed is not None:
        found = _dtd_from_jar(installed.jar, required=False)
        if found is not None:
            return found
    if game_file is not None:
        games_folder = game_file.resolve().parent
        for folder in (games_folder, games_folder.parent):
            if (folder / "game.dtd").is_file():
                return folder / "game.dtd"
    return None


def _env_path() -> Path | None:
    value = os.environ.get(DTD_VARIABLE, "").strip()
    return Path(value) if value else None


def _source_path(root: etree._Element, file: str) -> Path | None:
    """The game file on disk, if the tree was read from one or ``file`` names one."""
    for candidate in (root.getroottree().docinfo.URL, file):
        if candidate and not candidate.startswith(("http:", "https:", "ftp:")):
            path = Path(candidate.removeprefix("file://"))
            if path.is_file():
                return path
    return None


def _dtd_from_jar(jar: Path, *, required: bool = True) -> Path | None:
    """The jar's game.dtd, copied into the cache folder (the engine reads it from there)."""
    stat = jar.stat()
    try:
        data = _read_jar_dtd(str(jar), stat.st_mtime_ns, stat.st_size)
    except InputError:
        if required:
            raise
        return None
    target = _cache_folder() / f"game-{hashlib.sha256(data).hexdigest()[:16]}.dtd"
    if not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(target, data, overwrite=True)
    return target


@functools.lru_cache(maxsize=8)
def _read_jar_dtd(jar: str, _mtime_ns: int, _size: int) -> bytes:
    """The bytes of the jar's game.dtd: JAR_DTD_MEMBER, else any non-empty game.dtd in it."""
    try:
        with zipfile.ZipFile(jar) as archive:
            members = [m for m in archive.infolist() if m.filename.endswith("game.dtd") and 0 < m.file_size < 2**20]
            members.sort(key=lambda m: (m.filename != JAR_DTD_MEMBER, m.filename))
            if not members:
                raise InputError("holds no game.dtd", where=jar)
            return archive.read(members[0])
    except (OSError, zipfile.BadZipFile) as error:
        raise InputError(f"cannot read the jar: {error}", where=jar) from None


def _cache_folder() -> Path:
    """Where the platform keeps a user's caches (issue 32): %LOCALAPPDATA% on Windows, ~/Library/Caches on macOS,
    $XDG_CACHE_HOME (else ~/.cache) elsewhere."""
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        base = Path(os.environ["LOCALAPPDATA"])
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "kremlin-triplea"

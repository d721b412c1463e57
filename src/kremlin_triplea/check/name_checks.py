"""Validate's checks of names: what is declared twice, and every name a game file uses that it does not declare
(references, attachment targets, names inside options, bids). Each check takes a ``GameIndex`` and yields findings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import attrs
from lxml import etree

from kremlin_triplea.check.game_index import (
    DECLARATIONS,
    KEEPS_LAST,
    NEUTRAL,
    REFUSES,
    TRIPLEA_2,
    TRIPLEA_19,
    WHOLE_NUMBER,
    Finding,
    GameIndex,
    attachment_key,
    unknown,
)
from kremlin_triplea.check.option_checks import option_name
from kremlin_triplea.gamefile.document import attributes_of


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
    return attributes_of(one) == attributes_of(other) and [etree.tostring(c, with_tail=False) for c in one] == [
        etree.tostring(c, with_tail=False) for c in other
    ]


def duplicate_attachments(game: GameIndex) -> Iterator[Finding]:
    """Two attachments of one name on one thing: the second replaces the first."""
    seen: dict[tuple[str, str, str], etree._Element] = {}
    said: set[tuple[str, str, str]] = set()
    for element in game.attachments:
        key = attachment_key(element)
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
        if element.get("t1") is not None and element.get("t1") == element.get("t2"):
            continue  # connections_to_itself
        key = frozenset((element.get("t1", ""), element.get("t2", "")))
        first = seen.setdefault(key, element)
        if first is not element:
            ends = f"{element.get('t1')!r} - {element.get('t2')!r}"
            yield element, f"duplicate connection {ends} (first on line {first.sourceline})"


def connections_to_itself(game: GameIndex) -> Iterator[Finding]:
    """A territory connected to itself (GameMap.addConnection throws: "Cannot connect a territory to itself")."""
    for element in game.root.iterfind("map/connection"):
        if element.get("t1") is not None and element.get("t1") == element.get("t2"):
            yield element, f"connection of {element.get('t1')!r} to itself; {REFUSES}"


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


#: Every attribute whose value TripleA looks up, and what happens when it is missing. Kept here, not in the tables,
#: for what the engine cannot say of itself: the kind of thing each names (a message's words) and 1.9's consequences;
#: tests/test_validate_27_classes.py holds it to what 2.x looks up unasked (the tables' read_unasked looked_up).
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
        # Every name the reference may be (game.has: a declared one, or the engine's Neutral for a player), looked up once.
        known_names = {name for kind in ref.kinds for name in game.declared[kind]} | ({NEUTRAL} if "player" in ref.kinds else set())
        for element in game.root.iterfind(ref.path):
            name = element.get(ref.attribute)
            if name is None and not ref.optional:
                # 2.7 looks the name up as null ("No territory called: null", ...).
                yield element, f"{element.tag} has no {ref.attribute}; {REFUSES}"
                continue
            if name is None or (ref.optional and not name.strip()):
                continue
            if name not in known_names:
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
#: relationships are left out: the engine adds built-in ones the file need not declare). The types themselves are
#: the tables' attachable_types (derived); this names the kind of declaration each looks in, for both engines.
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
        if kind is not None and attach_to is None and game.engine == TRIPLEA_2:
            yield element, f"attachment {element.get('name')!r} has no attachTo; {REFUSES}"  # 2.7: "Could not find territory: null"
            continue
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


#: Keywords the engine's rules (RulesAttachment) accept in a territory list.
#: From the first keyword on, the engine reads no more names. 1.9's reading, ported from its setter (2.x's is the
#: tables' grammar of each option).
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
        if index == 0 and WHOLE_NUMBER.fullmatch(name):
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
#: Only options whose reading in the 1.9 engine is known exactly; all refuse the game. 1.9's readings, ported from
#: its setters (Debian's jar has no tables of them); for 2.x, the tables' ``names`` of each option are judged instead.
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


_CLASSES_WITH_REFERENCES = frozenset(java_class for java_class, _ in OPTION_REFERENCES)


def unknown_names_in_options(game: GameIndex) -> Iterator[Finding]:
    """Option values (canal land territories, capitals, rule territory lists, ...) naming nothing."""
    for attachment in game.attachments:
        java_class = attachment.get("javaClass", "").rsplit(".", 1)[-1]
        if java_class not in _CLASSES_WITH_REFERENCES:
            continue  # none of its options names anything (a game has thousands of unit attachments)
        for option in attachment.iterfind("option"):
            written = option.get("name", "")
            if game.engine == TRIPLEA_2 and not (written and option.get("value")):
                continue  # 2.x leaves out an option without name or value (GameParser.setOptions; empty is none)
            # 2.x looks an option up decapitalized and by its legacy name's new one (check/option_checks.py)
            reference = OPTION_REFERENCES.get((java_class, option_name(written) if game.engine == TRIPLEA_2 else written))
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

"""Whether each rule the notes say "TripleA enforces" holds in the game written (issue 46, item 2).

A ruleset says what TripleA does on the games it was written for; on another game the same rule may be a
property TripleA reads for nothing (Restricted Russia where no player has a movement list), or data the game
lacks (China's infantry per two territories without ``productionPerXTerritories``). So every such claim is a
check of the written game's own data: what the rule itself names (``[[game_rule.holds_if]]``, data) and what
the engine needs for a property it sets (:data:`PROPERTY_NEEDS`, read from TripleA 2.7's source). A rule whose
check fails is the players' to keep, with why, like a change the map cannot express.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs
from lxml import etree

from kremlin_triplea.errors import UnknownNameError, possessive
from kremlin_triplea.gamefile.tripleaxml import option_name_as_read
from kremlin_triplea.gamerules.actions import AppliedRules
from kremlin_triplea.rules.game_rules import GameRule
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.tomlfile import Section


def _options(root: etree._Element, attachment: str, attach_to: str | None = None) -> dict[str, str]:
    """The options of the ``attachment`` attached to ``attach_to`` (any, when None), by name: an option with a count
    as 2.7's GameParser reads it, "count:value" (productionPerXTerritories value="infantry" count="2": "2:infantry")."""
    found: dict[str, str] = {}
    for element in root.iter("attachment"):
        if element.get("name") == attachment and (attach_to is None or element.get("attachTo") == attach_to):
            found.update({o.get("name"): _counted(o) for o in element.iter("option")})
    return found


def _counted(option: etree._Element) -> str:
    value = option.get("value", "")
    return value if option.get("count") is None else f"{option.get('count')}:{value}"


def _two_hit_battleship(root: etree._Element, names: Names) -> str | None:
    # InitializationDelegate.initTwoHitBattleship (2.7): the property sets hitPoints 2 on the unit type named exactly
    # Constants.UNIT_TYPE_BATTLESHIP ("battleship") and on no other; another battleship takes two hits only by its own
    # hitPoints (or isTwoHit).
    types = {u.get("name") for u in root.iter("unit")}
    if "battleship" in types:
        return None
    battleships = sorted(t for t in names.units_of_any_power("battleship") if t in types) if names.has_unit("battleship") else []
    one_hit = [t for t in battleships if _hit_points(root, t) < 2]
    if battleships and not one_hit:
        return None
    shown = ", ".join(one_hit) or "none"
    return f"TripleA gives two hits only to a unit type named exactly 'battleship' (or one whose hitPoints are 2); this game's battleship: {shown}"


def _hit_points(root: etree._Element, unit: str) -> int:
    """The unit type's hit points as 2.7's UnitAttachment reads its options in order: hitPoints, or the old isTwoHit
    (true: 2, else 1; WAW40's Battleship), the last one written winning."""
    points = 1
    for element in root.iter("attachment"):
        if element.get("name") == "unitAttachment" and element.get("attachTo") == unit:
            for option in element.iter("option"):
                name, value = option_name_as_read(option.get("name") or ""), (option.get("value") or "").strip()
                if name == "hitPoints" and value.lstrip("-").isdigit():
                    points = int(value)
                elif name == "isTwoHit":
                    points = 2 if value.lower() == "true" else 1
    return points


def _movement_restricted(root: etree._Element, names: Names) -> str | None:
    # MoveValidator.validateMovementRestrictedByTerritory (2.7): with the property on, a player's move is checked
    # against its rulesAttachment's movementRestrictionTerritories, as its movementRestrictionType says ("allowed" or
    # "disallowed"); a player without both moves freely.
    if any(_restricts(_options(root, "rulesAttachment", p.get("name"))) for p in root.iter("player")):
        return None
    return "no player of this game has a movement list (movementRestrictionTerritories with a movementRestrictionType): TripleA restricts no move"


def _restricts(options: dict[str, str]) -> bool:
    """Whether a rulesAttachment's movement list restricts its player in 2.7: a list, and a type to read it by."""
    return "movementRestrictionTerritories" in options and options.get("movementRestrictionType", "").strip().lower() in ("allowed", "disallowed")


#: A property TripleA reads only together with other data of the game: what it needs, as the engine reads it.
PROPERTY_NEEDS: dict[str, Callable[[etree._Element, Names], str | None]] = {
    "Two hit battleship": _two_hit_battleship,
    "Movement By Territory Restricted": _movement_restricted,
}


def _property(root: etree._Element, name: str) -> str | None:
    element = next((p for p in root.iter("property") if p.get("name") == name), None)
    if element is None:
        return None
    value = element.get("value")
    if value is None:  # <property name=...><value>...</value></property>
        child = element.find("value")
        value = child.text if child is not None else None
    return value


def _same(written: str | None, wanted: object) -> bool:
    if written is None:
        return False
    return written.strip().lower() == (str(wanted).lower() if not isinstance(wanted, bool) else ("true" if wanted else "false"))


def _check(root: etree._Element, names: Names, check: Section) -> str | None:
    """Why the game does not meet one ``holds_if`` check (None: it does)."""
    data = check.data
    if data["kind"] == "property":
        written = _property(root, data["name"])
        if _same(written, data["value"]):
            return None
        return f"this game's property {data['name']!r} is {written!r}, not {data['value']!r}"
    if data["kind"] == "technology":
        if any(t.get("name") == data["name"] for t in root.iter("techname")):
            return None
        return f"this game has no technology {data['name']!r}"
    if data["kind"] == "profile":
        profile = names.profile
        if data["table"] == "factory_output":
            return None if profile.factory_output_enforced_by_game else f"the map profile says this game does not: {profile.factory_output_reason}"
        return None if profile.bid_property is not None else "this game has no bid phase for the powers (map profile [bid_phase])"
    if data["kind"] == "bid_phase":
        return _bid_phase(root, names, data["side"])
    try:
        player = names.power(data["power"])
    except UnknownNameError:
        return f"this game has no player {data['power']}"
    options = _options(root, data["attachment"], player)
    if data["option"] not in options:
        return f"{possessive(player)} {data['attachment']} has no {data['option']}"
    if data["option"] == "movementRestrictionTerritories" and not _restricts(options):
        # 2.7 reads the list by its type; a list without one restricts nobody (validateMovementRestrictedByTerritory).
        return f"{possessive(player)} {data['attachment']} has no movementRestrictionType for its movement list: TripleA restricts nothing by it"
    written = options[data["option"]]
    # "count:value" holds a count ("2:infantry", one infantry per 2 territories) as "count" alone does ("2").
    if "value" in data and not _same(written, data["value"]) and not (":" in written and _same(written.split(":", 1)[0], data["value"])):
        return f"{possessive(player)} {data['attachment']} has {data['option']} = {options[data['option']]!r}, not {data['value']!r}"
    return None


def _bid_phase(root: etree._Element, names: Names, side: str) -> str | None:
    """Why a power of ``side`` cannot buy its bid in TripleA's own bid phase here: the map profile names no bid
    property, or the power lacks the property or its bid steps (the sequence is the base game's: no rule writes one)."""
    pattern = names.profile.bid_property
    if pattern is None:
        return "this game has no bid phase for the powers (map profile [bid_phase])"
    try:
        powers = names.board.catalog.alliance_members(names.side(side))
    except UnknownNameError:
        return f"this game has no side {side}"
    players = names.board.catalog.players
    lacking = [p for p in powers if _property(root, pattern.format(power=p)) is None or not players[p].bid_phase]
    if not powers or lacking:
        return f"TripleA's bid phase (a '{pattern}' property, a bid step and a bid placement step) is missing for {', '.join(lacking) or side}"
    return None


def why_not_held(rule: GameRule, root: etree._Element, names: Names) -> str | None:
    """Why TripleA does not enforce ``rule`` in the game ``root`` (None: it does, as far as the game's data show)."""
    why = [reason for check in rule.holds_if if (reason := _check(root, names, check)) is not None]
    for change in rule.changes:
        data = change.data
        if data.get("kind") == "set_property" and data.get("name") in PROPERTY_NEEDS and _same(_property(root, data["name"]), data.get("value")):
            if data.get("value") is True and (reason := PROPERTY_NEEDS[data["name"]](root, names)) is not None:
                why.append(reason)
    return "; ".join(why) or None


def checked_rules(rules: AppliedRules, written: bytes, names: Names) -> AppliedRules:
    """``rules`` with each rule TripleA would be said to enforce checked against the game ``written``: one that does not
    hold there moves to the rules the players keep (``unwritten``), with why."""
    root = etree.fromstring(written, etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True))
    failing = [(rule, why) for rule in rules.game if (why := why_not_held(rule, root, names)) is not None]
    if not failing:
        return rules
    gone = {id(rule) for rule, _ in failing}
    # The host's lines say it too: not "already in the game" for a rule the game does not hold.
    said = tuple(line for line in rules.game_lines if not any(line.startswith(f"{rule.title}: already in the game") for rule, _ in failing))
    return attrs.evolve(rules, game=tuple(r for r in rules.game if id(r) not in gone), unwritten=(*rules.unwritten, *failing), game_lines=said)

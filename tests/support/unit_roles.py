"""What of a unit type's engine attributes contradicts the rule text's unit of a role: an oracle read from the game
file as TripleA 2.7 reads it, independent of kremlin_triplea.rules.roles.

2.7's GameParser.setOptions decapitalizes an option's name before it looks the property up ("TransportCapacity"
sets transportCapacity) and reads a boolean in any case; setIsSub (2.x) stands for isFirstStrike, canEvade and the
rest, so a map writing those is a submarine too; an ``artillery`` flag is a UnitSupportAttachment rule, so a unit
some support attachment names supports like artillery.
"""

from __future__ import annotations

from pathlib import Path

from lxml import etree


def engine_unit_options(path: Path) -> tuple[dict[str, dict[str, str]], set[str]]:
    """(unit type -> its unitAttachment options keyed as 2.7 reads them, unit types a support attachment gives)."""
    root = etree.parse(str(path), etree.XMLParser(huge_tree=True)).getroot()
    options: dict[str, dict[str, str]] = {}
    supporters = set()
    for attachment in root.iter("attachment"):
        owner = attachment.get("attachTo")
        if attachment.get("name") == "unitAttachment":
            found = options.setdefault(owner, {})
            for option in attachment.iter("option"):
                name = option.get("name") or ""
                found[name[:1].lower() + name[1:]] = option.get("value") or ""
        elif attachment.get("javaClass", "").endswith("UnitSupportAttachment"):
            supporters.add(owner)
    return options, supporters


def _int(options: dict[str, str], name: str) -> int:
    try:
        return int(options.get(name) or 0)
    except ValueError:
        return 0


def _true(options: dict[str, str], name: str) -> bool:
    return (options.get(name) or "").lower() == "true"


def role_contradictions(role: str, unit: str, options: dict[str, dict[str, str]], supporters: set[str], bought: bool) -> list[str]:
    """What of ``unit``'s attributes contradicts the rule text's unit of ``role`` (000/001/002's A&A units)."""
    own = options.get(unit, {})
    sea, air = _true(own, "isSea"), _true(own, "isAir")
    moves, attack, defence = _int(own, "movement"), _int(own, "attack"), _int(own, "defense")
    wrong = []
    if role in ("infantry", "artillery", "armour", "aa") and (sea or air):
        wrong.append("not a land unit")
    if role in ("fighter", "bomber") and not air:
        wrong.append("not an air unit")
    if role in ("transport", "submarine", "destroyer", "cruiser", "carrier", "battleship") and not sea:
        wrong.append("not a sea unit")
    if role not in ("factory", "aa") and moves == 0:
        wrong.append("never moves")
    if role == "aa" and moves == 0 and not bought:
        wrong.append("never moves and nobody buys it")
    if role in ("infantry", "artillery") and attack == 0 and defence == 0:
        wrong.append("neither attacks nor defends")
    if role == "artillery" and not (_true(own, "artillery") or unit in supporters):
        wrong.append("supports nothing (no artillery flag, no support attachment)")
    if role == "armour" and not (_true(own, "canBlitz") and moves >= 2 and attack >= 2):
        wrong.append(f"not a tank: canBlitz {own.get('canBlitz')}, movement {moves}, attack {attack}")
    if role == "factory" and not (_true(own, "isFactory") or _true(own, "canProduceUnits")):
        wrong.append("produces nothing")
    if role == "bomber" and not _true(own, "isStrategicBomber"):
        wrong.append("cannot bomb (no isStrategicBomber)")
    if role == "submarine" and not (_true(own, "isSub") or _true(own, "isSubmarine") or (_true(own, "isFirstStrike") and _true(own, "canEvade"))):
        wrong.append("not a submarine (neither isSub nor isFirstStrike with canEvade)")
    if role == "destroyer" and not _true(own, "isDestroyer"):
        wrong.append("not a destroyer (no isDestroyer)")
    if role == "carrier" and _int(own, "carrierCapacity") <= 0:
        wrong.append("carries no aircraft (no carrierCapacity)")
    if role == "transport":
        costs = [_int(o, "transportCost") for u, o in options.items() if not _true(o, "isSea") and not _true(o, "isAir") and _int(o, "transportCost") > 0]
        capacity = _int(own, "transportCapacity")
        if not costs or capacity < min(costs):
            wrong.append(f"carries no land unit (transportCapacity {capacity}, the least transportCost {min(costs, default=None)})")
        if _true(own, "canBombard"):
            wrong.append("a warship that bombards, not a transport")
    if role == "aa" and not any(_true(own, f) for f in ("isAA", "isAAforCombatOnly", "isAAforFlyOverOnly", "isRocket")):
        wrong.append("fires at no aircraft")
    return wrong


__all__ = ["engine_unit_options", "role_contradictions"]

"""TripleA 1.9 driven from Python through JPype: reading games and the rules report (issue 16).

A user's TripleA ships a Java runtime but no compiler, so the 1.9 engine is not driven by Java source compiled
here: this module is the 1.9 adapter over the shared JPype runner (:mod:`kremlin_triplea.engine.jvm_bridge`),
run as the child process ``python -m kremlin_triplea.engine.triplea19_bridge`` in the jar's folder (1.9 reads
``game_engine.properties`` from its working folder). A request ``{"read": FILE}`` is answered with what the
engine made of the file, in the keys :func:`kremlin_triplea.engine.read_with_engine` takes: ``file``, ``ok``,
``error`` (the root cause, ``SimpleName: first line``), ``game_name``, ``dtd_errors`` (the parser only prints
them and still accepts the file), ``territories``, ``pus``, ``properties`` and ``rules`` (canals, crossings
asked of the engine's own move validator, and each power's techs, prices, units, conditions and triggers), unless
the request says ``"rules": false``: asking the move validator about every canal, power and ship type costs more
than the reading itself on a map with many canals (dragon_war.xml's 142 bridges: about a minute), and a caller
judging whether the engine reads a game as written does not look at them.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kremlin_triplea.engine.jvm_bridge import serve

#: A file that keeps the engine busy this long is reported as timed out, and the batch goes on.
FILE_TIMEOUT_SECONDS = 60


def java_class(name: str):
    """The engine's (or the JDK's) class ``name``; JPype is imported only in the child process, where the JVM runs."""
    from jpype import JClass

    return JClass(name)


def root_message(error: BaseException) -> str:
    """A Java exception's root cause as ``SimpleName: first line of its message`` (the 1.9 harness's form)."""
    from jpype import JException

    if not isinstance(error, JException):
        return f"{type(error).__name__}: {error}"
    root = error
    while root.getCause() is not None and not root.getCause().equals(root):
        root = root.getCause()
    message = root.getMessage()
    name = str(root.getClass().getSimpleName())
    if message is None or not str(message).strip():
        return name
    return f"{name}: {str(message).strip().splitlines()[0]}"


def _owner_name(player) -> str | None:
    return None if player is None or player.isNull() else str(player.getName())


def territory_of(territory) -> dict[str, Any]:
    """A territory's owner, water and units counted by owner and type (the reading's shape)."""
    counts: dict[str, dict[str, int]] = {}
    for unit in territory.getUnits().getUnits():
        owner = _owner_name(unit.getOwner()) or ""
        kind = str(unit.getType().getName())
        by_type = counts.setdefault(owner, {})
        by_type[kind] = by_type.get(kind, 0) + 1
    units = [{"count": n, "owner": owner or None, "type": kind} for owner in sorted(counts) for kind, n in sorted(counts[owner].items())]
    return {"owner": _owner_name(territory.getOwner()), "units": units, "water": bool(territory.isWater())}


def _value_string(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, java_class("java.awt.Color")):
        # The file writes colours as hexadecimal RGB; Color.toString would not round-trip.
        return f"{int(value.getRGB()) & 0xFFFFFF:06X}"
    return str(value.toString())


def _properties(data) -> dict[str, str]:
    """Constant and editable properties, editable winning as in GameProperties.get."""
    game_properties = java_class("games.strategy.engine.data.properties.GameProperties")
    properties = data.getProperties()
    # Constant properties have no public accessor.
    field = game_properties.class_.getDeclaredField(game_properties.CONSTANT_PROPERTIES_FIELD_NAME)
    field.setAccessible(True)
    values: dict[str, str] = {}
    for entry in field.get(properties).entrySet():
        values[str(entry.getKey())] = _value_string(entry.getValue())
    # GameData's constructor puts a random UUID here; it is not from the file and would make output differ.
    values.pop(str(java_class("games.strategy.engine.data.GameData").GAME_UUID), None)
    for p in properties.getEditableProperties():
        values[str(p.getName())] = _value_string(p.getValue())
    return values


def pus_of(data) -> dict[str, int]:
    pu = data.getResourceList().getResource("PUs")
    if pu is None:
        return {}
    return {str(p.getName()): int(p.getResources().getQuantity(pu)) for p in data.getPlayerList().getPlayers()}


def _dtd_errors(parser) -> list[str]:
    """The parser collects DTD violations privately and only prints them; it still accepts the file."""
    try:
        field = java_class("games.strategy.engine.data.GameParser").class_.getDeclaredField("errorsSAX")
        field.setAccessible(True)
        return [f"line {e.getLineNumber()}, column {e.getColumnNumber()}: {e.getMessage()}" for e in field.get(parser)]
    except Exception as e:  # A silent empty list would claim the file is valid.
        return [f"kremlin harness cannot read GameParser.errorsSAX: {e}"]


def _names(named) -> list[str]:
    return sorted(str(item.getName()) for item in named) if named is not None else []


def _strings(values) -> list[str]:
    return [str(v) for v in values] if values is not None else []


def rules(data) -> dict[str, Any]:
    """The rules a game file gives the engine, as the engine understands them (the 1.9 rules report)."""
    canal_attachment = java_class("games.strategy.triplea.attachments.CanalAttachment")
    canals: dict[str, Any] = {}
    zones_by_canal: dict[str, list] = {}
    for zone in data.getMap().getTerritories():
        for canal in canal_attachment.get(zone):
            canals[f"{zone.getName()}|{canal.getName()}"] = {
                "canal": str(canal.getCanalName()) if canal.getCanalName() is not None else None,
                "sea_zone": str(zone.getName()),
                "land": _names(canal.getLandTerritories()),
                "excluded": _names(canal.getExcludedUnits()),
            }
            zones_by_canal.setdefault(str(canal.getCanalName()), []).append(zone)
    unit_attachment = java_class("games.strategy.triplea.attachments.UnitAttachment")
    move_validator = java_class("games.strategy.triplea.delegate.MoveValidator")
    route_class = java_class("games.strategy.engine.data.Route")
    crossings: dict[str, Any] = {}
    for name in sorted(zones_by_canal):
        zones = zones_by_canal[name]
        if len(zones) != 2:
            continue  # the engine refuses such a canal when a ship meets it; the canals list shows it
        start, end = sorted(zones, key=lambda z: str(z.getName()))
        key = f"{start.getName()}|{end.getName()}"
        if key in crossings:
            continue
        route = route_class(start, end)
        by_player = {}
        for player in data.getPlayerList().getPlayers():
            by_type = {}
            for kind in data.getUnitTypeList().getAllUnitTypes():
                ua = unit_attachment.get(kind)
                if not ua.getIsSea() and not ua.getIsAir():
                    continue
                units = kind.create(1, player, True)
                blocked = (
                    move_validator.validateCanal(start, route, units, player, data).isPresent()
                    or move_validator.validateCanal(end, route, units, player, data).isPresent()
                )
                by_type[str(kind.getName())] = not blocked
            by_player[str(player.getName())] = by_type
        crossings[key] = by_player
    players = {str(p.getName()): _player(p, data) for p in data.getPlayerList().getPlayers()}
    return {"canals": canals, "crossings": crossings, "players": players}


def _player(player, data) -> dict[str, Any]:
    tech_tracker = java_class("games.strategy.triplea.delegate.TechTracker")
    unit_attachment = java_class("games.strategy.triplea.attachments.UnitAttachment")
    rules_attachment = java_class("games.strategy.triplea.attachments.RulesAttachment")
    trigger_attachment = java_class("games.strategy.triplea.attachments.TriggerAttachment")
    fields: dict[str, Any] = {
        "techs": sorted({str(a.getName()) for a in tech_tracker.getCurrentTechAdvances(player, data)}),
        "tech_cost": int(tech_tracker.getTechCost(player)),
        # What the power may research, category by category, in the engine's order.
        "research": {str(c.getName()): [str(a.getName()) for a in c.getTechs()] for c in player.getTechnologyFrontierList().getFrontiers()},
    }
    prices = {}
    frontier = player.getProductionFrontier()
    if frontier is not None:
        for rule in frontier.getRules():
            for result in rule.getResults().keySet():
                prices[str(result.getName())] = int(rule.getCosts().totalValues())
        fields["frontier"] = str(frontier.getName())
    fields["prices"] = prices
    units = {}
    for kind in data.getUnitTypeList().getAllUnitTypes():
        ua = unit_attachment.get(kind)
        units[str(kind.getName())] = {
            "attack": int(ua.getAttack(player)),
            "blitz": bool(ua.getCanBlitz(player)),
            "defense": int(ua.getDefense(player)),
            "movement": int(ua.getMovement(player)),
        }
    fields["units"] = units
    conditions, triggers = {}, {}
    for entry in player.getAttachments().entrySet():
        value = entry.getValue()
        if isinstance(value, rules_attachment):
            conditions[str(entry.getKey())] = {
                "objective_value": int(value.getObjectiveValue()),
                "conditions": [str(c.getName()) for c in value.getConditions()],
                "players": _names(value.getPlayers()),
                "allied_ownership": _strings(value.getAlliedOwnershipTerritories()),
                "allied_exclusion": _strings(value.getAlliedExclusionTerritories()),
                "direct_exclusion": _strings(value.getDirectExclusionTerritories()),
            }
        elif isinstance(value, trigger_attachment):
            resource = value.getResource()
            triggers[str(entry.getKey())] = {
                "uses": int(value.getUses()),
                "when": [f"{m.getFirst()}:{m.getSecond()}" for m in value.getWhen()],
                "resource": None if resource is None else str(resource),
                "resource_count": int(value.getResourceCount()),
                "players": _names(value.getPlayers()),
                "techs": [str(a.getName()) for a in value.getTech()],
                "conditions": [str(c.getName()) for c in value.getConditions()],
            }
    fields["conditions"] = conditions
    fields["triggers"] = triggers
    return fields


def read(file: str, *, with_rules: bool = True) -> dict[str, Any]:
    """What the 1.9 engine made of ``file`` (the keys of the old EngineHarness's JSON lines); its rules report only
    ``with_rules`` (``rules`` is None otherwise)."""
    from jpype import JException

    reading = _failed(file, None)
    # The map name only appears in the engine's messages; the bare file name keeps them machine-independent.
    parser = java_class("games.strategy.engine.data.GameParser")(Path(file).name)
    game_name = java_class("java.util.concurrent.atomic.AtomicReference")()
    stream = None
    try:
        stream = java_class("java.io.FileInputStream")(file)
        data = parser.parse(stream, game_name, False)
        reading["territories"] = {str(t.getName()): territory_of(t) for t in data.getMap().getTerritories()}
        reading["pus"] = pus_of(data)
        reading["properties"] = _properties(data)
        try:
            reading["rules"] = rules(data) if with_rules else None
        except JException as e:
            # The file was read; only the rules report failed. Say so rather than report no rules.
            reading["rules"] = {"error": root_message(e)}
        reading["ok"] = True
    except JException as e:
        reading["ok"], reading["error"] = False, root_message(e)
    finally:
        if stream is not None:
            stream.close()
        reading["game_name"] = None if game_name.get() is None else str(game_name.get())
        reading["dtd_errors"] = _dtd_errors(parser)
    return reading


def _failed(file: str, error: str | None) -> dict[str, Any]:
    """A reading that says only ``error``."""
    return {"dtd_errors": [], "error": error, "file": file, "game_name": None, "ok": False, "properties": None, "pus": None, "rules": None, "territories": None}


def _answer(request: Mapping[str, Any]) -> dict[str, Any]:
    """One file read in a thread of its own, so that a file the engine never finishes does not stop the batch."""
    file = request["read"]
    done: list[dict[str, Any]] = []

    def work() -> None:
        try:
            done.append(read(file, with_rules=bool(request.get("rules", True))))
        except BaseException as e:  # read() catches what the engine throws; this is the adapter's own failure
            done.append(_failed(file, f"kremlin harness: {root_message(e)}"))

    worker = threading.Thread(target=work, name="kremlin-engine-reader", daemon=True)
    worker.start()
    worker.join(float(request.get("timeout", FILE_TIMEOUT_SECONDS)))
    if not done:
        return _failed(file, f"timed out after {request.get('timeout', FILE_TIMEOUT_SECONDS)} s")
    return done[0]


def main() -> None:
    serve(lambda home: _answer)


if __name__ == "__main__":
    sys.exit(main())

"""What TripleA 2.x refuses in a game's structure, and its own validation of what it read (issue 44).

Each check says what 2.7.15472 does, read from its ``GameParser``, ``GameParsingValidation`` and attachment
classes; tests/test_validate_27_classes.py holds, for each, a game 2.7 refuses (or misreads) and one it reads,
judged by 2.7 itself. Where a check needs the engine's names (an option's kind, a game property's type, a fresh
attachment's values) it reads them from the tables derived from the engine (check/engine_tables.py).
"""

from __future__ import annotations

from collections.abc import Iterator

from lxml import etree

from kremlin_triplea.check.engine_tables import attachment_class, game_property_type, triplea2
from kremlin_triplea.check.game_index import NEUTRAL, REFUSES, TRIPLEA_2, Finding, GameIndex, property_value, unknown
from kremlin_triplea.check.javaread import JAVA_INT_MAX, JAVA_INT_MIN, java_boolean, java_int
from kremlin_triplea.check.name_checks import OPTION_REFERENCES
from kremlin_triplea.check.option_checks import option_name, technologies


def sections_the_engine_requires(game: GameIndex) -> Iterator[Finding]:
    """A game without a section 2.7 reads unasked (a picture, ``<game/>``, a game missing its ``<gamePlay>``): the
    tables' ``read_unasked`` sections, each a path from ``<game>`` (a NullPointerException when not there)."""
    if game.engine != TRIPLEA_2:
        return
    for path in triplea2()["read_unasked"]["sections"]:
        if game.root.find(path) is None:
            yield game.root, f"the game has no <{path.replace('/', '> <')}>; {REFUSES}"


def attributes_the_engine_requires(game: GameIndex) -> Iterator[Finding]:
    """An attribute 2.7 reads unasked that is absent or empty (an empty one is read as absent): the tables'
    ``read_unasked`` attributes (an alliance's name, a step property's name and value: a java.util.Properties holds
    no null, ...)."""
    if game.engine != TRIPLEA_2:
        return
    for path, attributes in triplea2()["read_unasked"]["attributes"].items():
        for element in game.root.iterfind(path):
            for attribute in attributes:
                if not element.get(attribute):
                    yield element, f"<{element.tag}> has no {attribute}; {REFUSES}"


def rules_without_cost_or_result(game: GameIndex) -> Iterator[Finding]:
    """A production or repair rule without a ``<cost>`` ("No costs for production rule") or ``<result>``."""
    for kind in ("productionRule", "repairRule"):
        for rule in game.root.iterfind(f"production/{kind}"):
            for part in ("cost", "result"):
                if rule.find(part) is None:
                    yield rule, f"<{kind}> {rule.get('name')!r} has no <{part}>; {REFUSES}"


def rules_in_a_frontier_twice(game: GameIndex) -> Iterator[Finding]:
    """A production or repair frontier naming one rule twice (ProductionFrontier.addRule: "Rule already added")."""
    for frontier, rules in (("productionFrontier", "frontierRules"), ("repairFrontier", "repairRules")):
        for element in game.root.iterfind(f"production/{frontier}"):
            seen: set[str | None] = set()
            for rule in element.iterfind(rules):
                if rule.get("name") in seen:
                    yield rule, f"<{frontier}> {element.get('name')!r} names rule {rule.get('name')!r} twice; {REFUSES}"
                seen.add(rule.get("name"))


def nameless_declarations(game: GameIndex) -> Iterator[Finding]:
    """A territory, player, unit type, rule, ... without a name, or with an empty one: the tables' ``read_unasked``
    named elements, which 2.7 makes a named thing of (a DefaultNamed: its constructor refuses a null name, and an
    empty one is read as none: "Could not parse: null")."""
    if game.engine != TRIPLEA_2:
        return
    for path, made in triplea2()["read_unasked"]["named"].items():
        for element in game.root.iterfind(path):
            if not element.get("name"):
                yield element, f"<{element.tag}> without a name (2.x makes a {made} of it, which must have one); {REFUSES}"


def unknown_references_27(game: GameIndex) -> Iterator[Finding]:
    """Names 2.7 looks up in the starting state that the game does not declare: a relationship's ``type``."""
    if game.engine != TRIPLEA_2:
        return
    # with those every 2.x game has before its own (the tables': a fresh RelationshipTypeList's)
    types = [e.get("name", "") for e in game.root.iterfind("relationshipTypes/relationshipType")] + triplea2()["relationship_types"]
    for element in game.root.iterfind("initialize/relationshipInitialize/relationship"):
        if element.get("type") not in types:
            yield element, f"relationship type: {unknown('relationship type', element.get('type') or '', types)}; {REFUSES}"


def unknown_names_27(game: GameIndex) -> Iterator[Finding]:
    """Names 2.7 looks up outside the starting state that the game does not declare: a resource's ``isDisplayedFor``
    players (``NONE`` in any case is none), a playerTech's techs, and option values that are only names of one kind
    (as the tables say)."""
    if game.engine != TRIPLEA_2:
        return
    for element in game.root.iterfind("resourceList/resource"):
        shown_for = element.get("isDisplayedFor")
        if not shown_for or shown_for.upper() == "NONE":
            continue
        for name in shown_for.split(":"):
            if name not in game.declared["player"] and name != NEUTRAL:
                yield element, f"resource {element.get('name')!r} isDisplayedFor: {unknown('player', name, game.declared['player'])}; {REFUSES}"
    yield from _player_techs(game)
    yield from _option_names(game)


def _player_techs(game: GameIndex) -> Iterator[Finding]:
    known = technologies(game)
    for tech in game.root.iterfind("technology/playerTech/category/tech"):
        if tech.get("name") not in known:
            yield tech, f"playerTech tech: {unknown('technology', tech.get('name') or '', known)}; {REFUSES}"


def _option_names(game: GameIndex) -> Iterator[Finding]:
    for attachment in game.attachments:
        java_class = attachment_class(attachment.get("javaClass"))
        if java_class is None:
            continue
        properties = triplea2()["attachments"][java_class]["properties"]
        for option in attachment.iterfind("option"):
            written, value = option.get("name"), option.get("value")
            if not written or not value or option.get("count"):
                continue
            name = option_name(written)
            found = properties.get(name, {})
            if found.get("counted"):
                yield from _counted_name(game, java_class, written, value, found["counted"], option)
                continue
            kind = found.get("names")
            if kind is None or found.get("count_first") or (java_class, name) in OPTION_REFERENCES:  # those: unknown_names_in_options
                continue
            if name == "giveUnitControl" and value in ("true", "false"):
                continue  # skipped by 2.7 (LegacyPropertyMapper.ignoreOptionName)
            if value in found.get("words", ()):
                continue  # a word 2.7 takes instead of names (as the probes found)
            listed = value.split(":")
            if len(listed) > 1 and listed[0] in found.get("prefixes", ()):
                listed = listed[1:]  # a word 2.7 takes before the names (``BY:``, as the probes found)
            if found.get("parts") and len(listed) not in found["parts"]:
                yield option, f"{java_class} option {written}: {len(listed)} names where 2.7 takes {' or '.join(map(str, found['parts']))}; {REFUSES}"
                continue
            for each in listed:
                if not game.has(kind, each):
                    yield option, f"{java_class} option {written}: {unknown(kind, each, game.declared[kind])}; {REFUSES}"
                    break


def _counted_name(game: GameIndex, java_class: str, written: str, value: str, kind: str, option: etree._Element) -> Iterator[Finding]:
    """An option whose value is a count then a name (``1:Gold``, as the tables say): both there, the count a Java
    int, the name declared."""
    parts = value.split(":")
    if len(parts) < 2 or java_int(parts[0]) is None:
        yield option, f"{java_class} option {written}: {value!r} is not a whole number then a {kind}; {REFUSES}"
    elif not game.has(kind, parts[1]):
        yield option, f"{java_class} option {written}: {unknown(kind, parts[1], game.declared[kind])}; {REFUSES}"


def _option_value(attachment: etree._Element, java_class: str, name: str):
    """The value 2.7 gives ``name`` on ``attachment``: its last option's, read by the property's kind, else the
    derived default (None when neither says: the check then leaves the attachment alone)."""
    found = triplea2()["attachments"][java_class]["properties"].get(name, {})
    value = found.get("default")
    kind = found.get("kind")
    for option in attachment.iterfind("option"):
        if option.get("name") and option.get("value") and option_name(option.get("name")) == name:
            text = option.get("value")
            value = java_int(text) if kind == "int" else java_boolean(text) if kind == "boolean" else None
    return value


#: UnitAttachment.validate: what an air, sea or land unit may not have (each: a property and the value that is
#: "not set"; any other value is refused: "air units cannot have certain properties"). Code of validate(), not a table
#: the engine holds to read: ported, each rule with a named case 2.7 judges (tests/test_validate_27_classes.py).
UNIT_KINDS_MAY_NOT_HAVE = {
    "air": {
        "isSea": False,
        "transportCost": -1,
        "carrierCapacity": -1,
        "canBlitz": False,
        "canBombard": False,
        "isLandTransportable": False,
        "isLandTransport": False,
        "isAirTransportable": False,
        "isCombatTransport": False,
    },
    "sea": {
        "canBlitz": False,
        "isStrategicBomber": False,
        "carrierCost": -1,
        "transportCost": -1,
        "isLandTransportable": False,
        "isLandTransport": False,
        "isAirTransportable": False,
        "isAirTransport": False,
        "isKamikaze": False,
    },
    "land": {"canBombard": False, "carrierCapacity": -1, "bombard": -1, "isAirTransport": False, "isCombatTransport": False, "isKamikaze": False},
}


def unit_attachments_the_engine_refuses(game: GameIndex) -> Iterator[Finding]:
    """Unit attachments 2.x's game selector refuses (UnitAttachment.validate, run by GameParsingValidation): an air,
    sea or land unit with a property its kind may not have, or fewer than one hit point."""
    if game.engine != TRIPLEA_2:
        return
    for attachment in game.kept_attachments():
        if attachment_class(attachment.get("javaClass")) != "UnitAttachment":
            continue
        kind = "air" if _option_value(attachment, "UnitAttachment", "isAir") else "sea" if _option_value(attachment, "UnitAttachment", "isSea") else "land"
        wrong = sorted(name for name, unset in UNIT_KINDS_MAY_NOT_HAVE[kind].items() if _option_value(attachment, "UnitAttachment", name) not in (unset, None))
        if wrong:
            yield attachment, f"{attachment.get('attachTo')!r}: {kind} units cannot have {', '.join(wrong)}; {REFUSES}"
        values = unit_values(attachment)
        hit_points = values.get("hitPoints")  # isTwoHit sets it too
        if isinstance(hit_points, int) and hit_points < 1:
            yield attachment, f"{attachment.get('attachTo')!r}: hitPoints cannot be zero or negative; {REFUSES}"
        yield from _invading_transports_refused(game, attachment)
        yield from _unit_rules_refused(game, attachment, values)
        for option in attachment.iterfind("option"):  # validate() looks up every unit of each requiresUnits
            if option.get("name") and option.get("value") and option_name(option.get("name")) == "requiresUnits":
                missing = next((n for n in option.get("value").split(":") if not game.has("unit type", n)), None)
                if missing is not None:
                    yield option, f"UnitAttachment option requiresUnits: {unknown('unit type', missing, game.declared['unit type'])}; {REFUSES}"


def sea_transports_the_engine_refuses(game: GameIndex) -> Iterator[Finding]:
    """UnitAttachment.validate's one rule that reads a game property (a check of the starting state, apart from
    the unit rules of the rest): where Transport Casualties Restricted is true, a sea transport may have no attack
    or defense unless it is a combat transport."""
    if game.engine != TRIPLEA_2:
        return
    restricted = next(
        (java_boolean(property_value(p) or "") for p in game.root.iterfind("propertyList/property") if p.get("name") == TRANSPORT_CASUALTIES_RESTRICTED), None
    )
    if not restricted:
        return
    for attachment in game.kept_attachments():
        if attachment_class(attachment.get("javaClass")) != "UnitAttachment":
            continue
        v = unit_values(attachment)
        numbers = {n: v.get(n) if isinstance(v.get(n), int) and not isinstance(v.get(n), bool) else None for n in ("transportCapacity", "attack", "defense")}
        if (
            v.get("isSea") is True
            and not (numbers["transportCapacity"] is not None and numbers["transportCapacity"] < 0)
            and any(numbers[n] is not None and numbers[n] > 0 for n in ("attack", "defense"))
            and v.get("isCombatTransport") is not True
        ):
            yield (
                attachment,
                f"{attachment.get('attachTo')!r}: a sea transport cannot have attack or defense where {TRANSPORT_CASUALTIES_RESTRICTED!r} is true, unless isCombatTransport; {REFUSES}",
            )


#: The game property UnitAttachment.validate reads (Properties.getTransportCasualtiesRestricted): a sea transport
#: may then have no attack or defense unless it is a combat transport.
TRANSPORT_CASUALTIES_RESTRICTED = "Transport Casualties Restricted"


def unit_values(attachment: etree._Element) -> dict[str, int | bool | str | None]:
    """What 2.7's UnitAttachment holds after its options are set in order, by property (the tables' defaults where
    none sets one): an int or flag option as Java reads it (None where it cannot), a text one as written, and a
    legacy flag by the fields the tables say it sets (``isFactory``: canBeDamaged, isConstruction, ...)."""
    properties = triplea2()["attachments"]["UnitAttachment"]["properties"]
    values: dict[str, int | bool | str | None] = {name: found.get("default") for name, found in properties.items()}
    for option in attachment.iterfind("option"):
        written, text = option.get("name"), option.get("value")
        if not written or not text:
            continue  # left out
        name = option_name(written)
        found = properties.get(name, {})
        if "sets" in found and java_boolean(text) is not None:
            values.update(found["sets"]["true" if java_boolean(text) else "false"])
        elif found.get("kind") in ("int", "boolean", "text"):
            values[name] = java_int(text) if found["kind"] == "int" else java_boolean(text) if found["kind"] == "boolean" else text
    return values


def _unit_rules_refused(game: GameIndex, attachment: etree._Element, v: dict[str, int | bool | str | None]) -> Iterator[Finding]:
    """UnitAttachment.validate's rules of numbers and flags together: AA dice, maxBuiltPerPlayer, combat and
    restricted transports, constructions, damage (each refusal 2.7's GameParseException); ``v``: its :func:`unit_values`."""
    unit = repr(attachment.get("attachTo"))

    def below(name: str, low: int) -> bool:
        return isinstance(v.get(name), int) and not isinstance(v.get(name), bool) and v[name] < low

    def above(name: str, high: int) -> bool:
        return isinstance(v.get(name), int) and not isinstance(v.get(name), bool) and v[name] > high

    if (
        below("attackAA", 0)
        or below("offensiveAttackAA", 0)
        or any(below(n, -1) or above(n, 200) for n in ("attackAAmaxDieSides", "offensiveAttackAAmaxDieSides"))
    ):
        yield attachment, f"{unit}: attackAA and offensiveAttackAA cannot be negative, nor their maxDieSides below -1 or above 200; {REFUSES}"
    if below("maxBuiltPerPlayer", -1):
        yield attachment, f"{unit}: maxBuiltPerPlayer cannot be below -1; {REFUSES}"
    if v.get("isCombatTransport") is True and below("transportCapacity", 1):
        yield attachment, f"{unit}: isCombatTransport needs a transportCapacity of at least 1; {REFUSES}"
    no_type = v.get("constructionType") in (None, "none", "")
    if v.get("isConstruction") is True and (no_type or below("constructionsPerTerrPerTypePerTurn", 0) or below("maxConstructionsPerTypePerTerr", 0)):
        yield (
            attachment,
            f"{unit}: a construction needs a constructionType and constructionsPerTerrPerTypePerTurn and maxConstructionsPerTypePerTerr of 0 or more; {REFUSES}",
        )
    per_turn, most = v.get("constructionsPerTerrPerTypePerTurn"), v.get("maxConstructionsPerTypePerTerr")
    if v.get("isConstruction") is False and (
        not no_type or not below("constructionsPerTerrPerTypePerTurn", 0) or not below("maxConstructionsPerTypePerTerr", 0)
    ):
        yield attachment, f"{unit}: constructionType, constructionsPerTerrPerTypePerTurn or maxConstructionsPerTypePerTerr without isConstruction; {REFUSES}"
    if isinstance(per_turn, int) and isinstance(most, int) and per_turn > most:
        yield attachment, f"{unit}: constructionsPerTerrPerTypePerTurn above maxConstructionsPerTypePerTerr; {REFUSES}"
    damaged, dies = v.get("canBeDamaged") is True, v.get("canDieFromReachingMaxDamage") is True
    if ((damaged or dies) and below("maxDamage", 1)) or (dies and v.get("canBeDamaged") is False):
        yield attachment, f"{unit}: canDieFromReachingMaxDamage needs canBeDamaged, and either a maxDamage of 1 or more; {REFUSES}"


def _invading_transports_refused(game: GameIndex, attachment: etree._Element) -> Iterator[Finding]:
    """UnitAttachment.validate looks up each unit type of ``canInvadeOnlyFrom`` (the last option's value, as its
    setter keeps it; ``all`` or ``none`` first, in any case, stands for itself), and refuses one that is no unit type
    ("No unit type") or has no attachment."""
    options = [o for o in attachment.iterfind("option") if o.get("name") and o.get("value") and option_name(o.get("name")) == "canInvadeOnlyFrom"]
    if not options:
        return
    count, value = options[-1].get("count"), options[-1].get("value") or ""
    parts = f"{count}:{value}".split(":") if count else value.split(":")
    if parts[0].lower() in ("all", "none"):
        return
    with_attachments = {a.get("attachTo") for a in game.kept_attachments() if (a.get("type") or "unitType") == "unitType"}
    for part in parts:
        if not game.has("unit type", part):
            yield options[-1], f"UnitAttachment option canInvadeOnlyFrom: {unknown('unit type', part, game.declared['unit type'])}; {REFUSES}"
            return
        if part not in with_attachments:
            yield options[-1], f"UnitAttachment option canInvadeOnlyFrom: unit type {part!r} has no attachment; {REFUSES}"
            return


def canals_the_engine_refuses(game: GameIndex) -> Iterator[Finding]:
    """Canals 2.x's game selector refuses (CanalAttachment.validate): one without a canalName or landTerritories,
    or named other than ``canalAttachment...``; a canal name on other than two sea zones."""
    if game.engine != TRIPLEA_2:
        return
    zones: dict[str, set[str]] = {}
    first: dict[str, etree._Element] = {}
    for attachment in game.kept_attachments():
        if attachment_class(attachment.get("javaClass")) != "CanalAttachment":
            continue
        set_to = {option_name(o.get("name") or ""): o.get("value") for o in attachment.iterfind("option") if o.get("name") and o.get("value")}
        name = set_to.get("canalName")
        if not name:
            yield attachment, f"canal attachment {attachment.get('name')!r} has no canalName; {REFUSES}"
            continue
        if not (attachment.get("name") or "").startswith("canalAttachment"):
            yield attachment, f"canal attachment {attachment.get('name')!r}: its name must start with 'canalAttachment'; {REFUSES}"
        if not set_to.get("landTerritories"):
            yield attachment, f"canal {name!r} has no landTerritories; {REFUSES}"
        if attachment.get("type") == "territory":
            zones.setdefault(name, set()).add(attachment.get("attachTo", ""))
            first.setdefault(name, attachment)
    for name, territories in zones.items():
        if len(territories) != 2:
            yield first[name], f"canal {name!r} is on {len(territories)} sea zone{'s' if len(territories) != 1 else ''}, not exactly 2; {REFUSES}"


def editable_numbers_out_of_range(game: GameIndex) -> Iterator[Finding]:
    """An editable number property whose value lies outside its min and max, or whose max is below its min
    (NumberProperty: "Default 2147483647 value out of range, 0 - 1000")."""
    if game.engine != TRIPLEA_2:
        return
    for prop in game.root.iterfind("propertyList/property"):
        value = property_value(prop)
        if java_boolean(prop.get("editable") or "") is not True or _inferred_type(value) != "int":
            continue
        number = prop.find("number")
        bounds = []
        for bound, unset in (("min", JAVA_INT_MIN), ("max", JAVA_INT_MAX)):
            text = prop.get(bound) if prop.get(bound) is not None else (number.get(bound) if number is not None else None)
            bounds.append(unset if text is None else java_int(text))
        low, high = bounds
        if low is None or high is None:
            continue  # a bound 2.7 cannot read: numbers_the_engine_cannot_read's
        if high < low or not low <= int(value) <= high:
            yield prop, f"editable property {prop.get('name')!r} value {value} is outside its range {low} - {high}; {REFUSES}"


def _inferred_type(value: str | None) -> str:
    """PropertyValueTypeInference.inferType: ``boolean`` for true/false in any case, ``int`` for what Guava's
    Ints.tryParse reads (ASCII digits, an optional minus, within a Java int), else ``String``."""
    if value is None:
        return "String"
    if java_boolean(value) is not None:
        return "boolean"
    digits = value[1:] if value.startswith("-") else value
    if digits.isascii() and digits.isdigit() and java_int(value) is not None:
        return "int"
    return "String"


def properties_the_engine_cannot_cast(game: GameIndex) -> Iterator[Finding]:
    """A game property 2.x reads as a flag or a number whose value it keeps as something else (``Low Luck="yes"``):
    the game loads, and fails when the engine asks for it (a ClassCastException, in an AI's turn); or, for one 2.x
    reads while it loads this game (:func:`properties_read_at_load`), it refuses the game."""
    if game.engine != TRIPLEA_2:
        return
    at_load = properties_read_at_load(game)
    for prop in game.root.iterfind("propertyList/property"):
        name = prop.get("name")
        wanted = game_property_type(name) if name else None
        value = property_value(prop)
        if wanted is None or value is None:
            continue
        found = _inferred_type(value)
        if found != wanted:
            what = {"boolean": "a flag (true or false)", "int": "a whole number"}[wanted]
            read = f"as {'text' if found == 'String' else found}, where it reads {what}"
            if name in at_load:
                yield (
                    prop,
                    f"property {name!r} value {value!r} is read by TripleA 2.x {read}, and cast while it loads this game (ClassCastException); {REFUSES}",
                )
            else:
                yield prop, f"property {name!r} value {value!r} is read by TripleA 2.x {read}: the game fails when it asks (ClassCastException)"
    if at_load is None:
        flag = next(p for p in game.root.iterfind("propertyList/property") if p.get("name") == "WW2V3")
        yield flag, f"WW2V2 and WW2V3 are both true in a game without <technology>: 2.7 cannot make its built-in technologies; {REFUSES}"


def properties_read_at_load(game: GameIndex) -> set[str] | None:
    """The game properties 2.x reads while it loads ``game`` (the tables' ``properties_read_at_load``, derived from
    the engine): without ``<technology>``, those ``createDefaultTechAdvances`` reads, and the technologies it makes
    by the game's WW2V2 and WW2V3 flags (None when it cannot make them); then, for each built-in technology of the
    game's without a ``techAbilityAttachment`` (a ``techname`` naming it by property, or a generic one naming it in
    ``tech``, whose built-in advance never holds the game's attachments: TechAbilityAttachment.get), those
    ``setDefaultTechnologyAttachments`` reads."""
    tables = triplea2()["properties_read_at_load"]
    read: set[str] = set()
    if game.root.find("technology") is None:
        read |= set(tables["without_technology"])
        values = {p.get("name"): property_value(p) for p in game.root.iterfind("propertyList/property")}
        flags = ",".join("true" if java_boolean(values.get(name) or "") else "false" for name in ("WW2V2", "WW2V3"))
        built_in = tables["default_technologies"][flags]
        if built_in is None:
            return None
    else:
        built_in = []
        for techname in game.root.iterfind("technology/technologies/techname"):
            name, tech = techname.get("name") or "", techname.get("tech") or ""
            if tech.strip():
                read |= set(tables["by_technology"].get(tech, ()))
            else:
                built_in.append(name)
    names = triplea2()["technologies"]
    for tech in built_in:
        if not any(game.attachment("technology", n, "techAbilityAttachment") is not None for n in (tech, names.get(tech))):
            read |= set(tables["by_technology"].get(tech, ()))
    return read

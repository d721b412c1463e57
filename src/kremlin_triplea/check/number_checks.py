"""Validate's checks of numbers, flags and what each engine can load: values Java's ``Integer.parseInt`` or
``Boolean`` reads otherwise than the file says, units at sea without transport, and what only 1.9 or only 2.x
refuses. Each check takes a ``GameIndex`` (or the root, for 1.9's) and yields findings.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import attrs
from lxml import etree

from kremlin_triplea.check.engine19_options import setters_19
from kremlin_triplea.check.engine_options import int_options
from kremlin_triplea.check.engine_tables import game_property_type
from kremlin_triplea.check.game_index import REFUSES, TRIPLEA_2, TRIPLEA_19, WHOLE_NUMBER, Finding, GameIndex, option_values
from kremlin_triplea.check.javaread import java_boolean, java_int, shown, why_not_java_int
from kremlin_triplea.check.reading27 import attributes_of_types
from kremlin_triplea.check.structure_checks import unit_values
from kremlin_triplea.errors import possessive
from kremlin_triplea.gamefile.tripleaxml import JAVA_INT_MAX, option_name_as_read, outside_java_int


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
        options = _unit_options(game, name)
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


def _unit_options(game: GameIndex, unit_type: str) -> dict[str, str]:
    """A unit type's unitAttachment options by the names the engine reads (Command Decision's "TransportCost" is its
    transportCost: GameParser.decapitalize)."""
    return {option_name_as_read(name): value for name, value in option_values(game.attachment("unitType", unit_type, "unitAttachment")).items()}


def _whole_number(value: str, default: int) -> int:
    value = value.strip()
    return int(value) if WHOLE_NUMBER.fullmatch(value) else default


@attrs.frozen
class _Carrying:
    """What a unit type's unitAttachment says about sea transport (-1: the engine's "none")."""

    land: bool
    sea_transport: bool
    capacity: int
    cost: int

    @classmethod
    def of(cls, game: GameIndex, unit_type: str) -> _Carrying:
        options = _unit_options(game, unit_type)
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
        # The transports in placement order, as runs of [room left, how many transports have it]: a placement's
        # quantity is a number in the file (a billion transports or infantry must not become a billion list items).
        room = [[of(e.get("unitType", "")).capacity, _quantity(e)] for e in placements if of(e.get("unitType", "")).sea_transport and _quantity(e)]
        if not room:
            continue
        total = sum(left * count for left, count in room)
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
            if _load_first_fit(room, unit.cost, _quantity(element)):
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


def _load_first_fit(room: list[list[int]], cost: int, units: int) -> bool:
    """Load ``units`` land units of ``cost`` one by one, each onto the first transport with room for it, as the engine
    does; ``room`` (runs of [room left, transports]) is updated. False when one finds no room.

    The first transport with room keeps taking units until it has less room than ``cost`` left, then the next: a run
    of equal transports fills whole transports at a time, and splits where the units run out.
    """
    if units and cost <= 0:
        return any(left >= cost for left, _ in room)  # they all go onto the first transport with room, taking none
    index = 0
    while units and index < len(room):
        left, count = room[index]
        each = left // cost if left >= cost else 0
        if each == 0:
            index += 1
            continue
        full = min(count, units // each)  # transports loaded to the last unit they take
        if full:
            units -= full * each
            room[index : index + 1] = [[left - each * cost, full]] + ([[left, count - full]] if count > full else [])
            index += 1
            continue
        # Fewer units left than one transport takes: the first transport of the run takes them all.
        room[index : index + 1] = [[left - units * cost, 1]] + ([[left, count - 1]] if count > 1 else [])
        units = 0
    return units == 0


def _quantity(placement: etree._Element) -> int:
    return max(_whole_number(placement.get("quantity", "1"), 1), 0)


#: The elements with a numeric attribute long enough to exceed a Java int (2147483647 has ten digits): only
#: they can break the limit, and lxml finds them without visiting every element in Python.
_LONG_OPTION_NUMBERS = etree.XPath("//option[string-length(@value) > 9 or string-length(@count) > 9]")


#: A whole number beyond a Java int has ten digits at least (2**31 = 2147483648); ``\d`` is any decimal digit, as
#: ``str.isdecimal`` (outside_java_int) takes them.
_TEN_DIGITS = re.compile(r"\d{10}")


def numbers_beyond_java_int(game: GameIndex) -> Iterator[Finding]:
    """Option values holding a whole number beyond a Java int (in a ``:`` list too): TripleA cannot open the game.

    The options 2.7 reads as one int are ``option_numbers_the_engine_cannot_read``'s.
    """
    for element in _LONG_OPTION_NUMBERS(game.root):
        if not any(_TEN_DIGITS.search(element.get(a) or "") for a in ("value", "count")):
            continue  # a long text, but no run of ten digits: no whole number in it is beyond a Java int
        parent = element.getparent()
        java_class = parent.get("javaClass", "").rsplit(".", 1)[-1] if parent is not None else ""
        if option_name_as_read(element.get("name", "")) in int_options(java_class) and not element.get("count"):
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


def option_numbers_the_engine_cannot_read(game: GameIndex) -> Iterator[Finding]:
    """Judged for 1.9: options 2.7 reads as one Java int (check/engine_options.py) whose value Integer.parseInt refuses
    (2.x's are ``options_the_engine_cannot_set``'s, check/option_checks.py)."""
    if game.engine == TRIPLEA_2:
        return
    for attachment in game.attachments:
        java_class = attachment.get("javaClass", "").rsplit(".", 1)[-1]
        ints = int_options(java_class)
        if not ints:
            continue
        for option in attachment.iterfind("option"):
            value = option.get("value")
            if value is None or option.get("count") or option_name_as_read(option.get("name", "")) not in ints:
                continue
            if java_int(value) is None:
                yield option, f"{java_class} option {option.get('name')}: {shown(value)} is {why_not_java_int(value)}; {REFUSES}"


def _editable_number(prop: etree._Element) -> bool:
    return prop.get("editable", "").lower() == "true" and prop.find("number") is not None


def property_numbers_read_as_text(game: GameIndex) -> Iterator[Finding]:
    """A property value that is a whole number beyond a Java int: read as text, so the game uses no number there.

    2.7 tries Guava's Ints.tryParse and keeps the text when it fails; 1.9 does
    so too for a property that is not an editable number
    (``editable_numbers_19`` has those). A property 2.x reads as a number is
    ``properties_the_engine_cannot_cast``'s (check/structure_checks.py) for 2.x.
    """
    for prop in game.root.iterfind("propertyList/property"):
        value = prop.get("value", "")
        if game.engine == TRIPLEA_2 and game_property_type(prop.get("name", "")) is not None:
            continue
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
#: ``org.triplea.map.data.elements`` classes: the tables' mapping), by the path of the element that carries it.
INT_ATTRIBUTES = attributes_of_types("int", "Integer")


#: Every attribute TripleA 2.7 reads as a Boolean (its ``boolean``/``Boolean`` fields): "true" or "false" in any
#: case, else it refuses the game.
BOOLEAN_ATTRIBUTES = attributes_of_types("boolean", "Boolean")


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


#: The most elements a Java list grows to (``ArraysSupport.SOFT_MAX_ARRAY_LENGTH``, Integer.MAX_VALUE - 8): beyond it
#: ``ArrayList`` throws OutOfMemoryError whatever the heap ("Requested array size exceeds VM limit").
JAVA_LIST_MAX = JAVA_INT_MAX - 8


def unit_collections_beyond_java_lists(game: GameIndex) -> Iterator[Finding]:
    """More units in one territory or held by one player than a Java list holds: 2.7 builds every unit the file
    places at load (``UnitType.create`` collects them into a list) and keeps a territory's or player's units in one
    list (``UnitCollection``), so it runs out of memory loading such a game whatever memory it has."""
    totals: dict[tuple[str, str], int] = {}
    for path, holder in (("initialize/unitInitialize/unitPlacement", "territory"), ("initialize/unitInitialize/heldUnits", "player")):
        for element in game.root.iterfind(path):
            quantity = java_int(element.get("quantity", "0"))
            if quantity is None or quantity <= 0:
                continue  # numbers_the_engine_cannot_read, numbers_out_of_range
            where = (holder, element.get(holder) or "")
            before = totals.get(where, 0)
            totals[where] = before + quantity
            if before <= JAVA_LIST_MAX < totals[where]:
                yield (
                    element,
                    f"{totals[where]:,} units for {holder} {where[1]!r}, more than a Java list holds ({JAVA_LIST_MAX:,}): "
                    f"TripleA builds each unit at load and keeps {possessive('a ' + holder)} units in one list, and runs out of memory; {REFUSES}",
                )


#: The memory 2.7 takes for each unit a file places, as it loads the game (the unit, its id, the lists and changes
#: that hold it): the units of one placement of WW2v3-1942 that 2.7 loads, and the next count it runs out of memory
#: at, were 1,500,000 and 1,625,000 with a heap of 256 MiB; 3,000,000 and 3,250,000 with 512 MiB; 6,000,000 and
#: 6,500,000 with 1 GiB; 12,000,000 and 13,000,000 with 2 GiB: about 172 bytes a unit whatever the heap
#: (test_validate_27_classes' engine test asks 2.7 again at 256 MiB).
UNIT_BYTES = 172
#: The heap a player's TripleA 2.7 has: its launcher sets none (build.install4j adds only -Xss1250K), so Java takes
#: a quarter of the machine's memory; validate judges for a machine of 8 GiB (2 GiB), failing closed: a game that
#: does not load there is one many players cannot load.
PLAYERS_HEAP = 2 * 1024**3


def units_a_heap_holds(heap: int) -> int:
    """The most units a file may place for 2.7 to load it with ``heap`` bytes of memory (``UNIT_BYTES`` each)."""
    return heap // UNIT_BYTES


def units_beyond_a_players_memory(game: GameIndex) -> Iterator[Finding]:
    """More units placed and held in all than a player's 2.7 has memory for (``PLAYERS_HEAP``): 2.7 builds every
    unit the file places at load, and runs out of memory (OutOfMemoryError) before the game opens."""
    if game.engine != TRIPLEA_2:
        return
    total, most = 0, units_a_heap_holds(PLAYERS_HEAP)
    for element in game.root.iterfind("initialize/unitInitialize/*"):
        if element.tag not in ("unitPlacement", "heldUnits"):
            continue
        quantity = java_int(element.get("quantity", "0"))
        if quantity is None or quantity <= 0:
            continue  # numbers_the_engine_cannot_read, numbers_out_of_range
        total += quantity
        if total - quantity <= most < total:
            yield (
                element,
                f"{total:,} units placed by here: 2.7 builds each at load, about {UNIT_BYTES} bytes each, more than the "
                f"{PLAYERS_HEAP // 1024**3} GiB of memory a player's TripleA has (a quarter of an 8 GiB machine), and runs out of memory; {REFUSES}",
            )


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
            yield element, f'<resourceGiven> quantity {quantity} is negative ("quantity must be positive"); {REFUSES}'
    hit_points: dict[str, int | None] = {}  # a unit type's, read once however many placements it has
    for element in game.root.iterfind("initialize/unitInitialize/unitPlacement"):
        damage = java_int(element.get("unitDamage", "0"))
        if damage is not None and damage < 0:
            yield element, f"<unitPlacement> unitDamage {damage} is below zero; {REFUSES}"
        hits, unit_type = java_int(element.get("hitsTaken", "0")), element.get("unitType", "")
        if hits is None or not game.has("unit type", unit_type):
            continue
        if unit_type not in hit_points:
            hit_points[unit_type] = _hit_points(game, unit_type)
        if hit_points[unit_type] is None:
            continue
        most = hit_points[unit_type] - 1
        if not 0 <= hits <= most:
            yield element, f"<unitPlacement> hitsTaken {hits} is outside 0 to {most} (one less than {unit_type!r}'s hitPoints); {REFUSES}"


def _hit_points(game: GameIndex, unit_type: str) -> int | None:
    """A unit type's hitPoints as 2.7's UnitAttachment holds them once its options are set in order
    (structure_checks.unit_values: the option's name as 2.7 looks it up, the legacy isTwoHit setting them as the
    tables say, the last given winning); None where its number is one Java does not read (refused elsewhere)."""
    attachment = game.attachment("unitType", unit_type, "unitAttachment")
    if attachment is None:
        return 1
    points = unit_values(attachment).get("hitPoints")
    return points if isinstance(points, int) and not isinstance(points, bool) else None


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
    """A ``<triplea minimumVersion>`` above 2.7, or one TripleA cannot read: 2.7 refuses the game (1.9's is ``triplea19_refusals``).

    A ``<triplea>`` without one (or with an empty one: read as none) is refused too: 2.7's
    GameParser.isEngineCompatibleWithMap asks ``getMinimumVersion().isBlank()`` of the null the mapping gives
    (NullPointerException); a blank one is compatible with every engine."""
    triplea = game.root.find("triplea")
    if game.engine != TRIPLEA_2 or triplea is None:
        return
    text = triplea.get("minimumVersion") or None
    if text is None:
        yield triplea, f"<triplea> has no minimumVersion (2.7 fails asking for it: NullPointerException); {REFUSES}"
        return
    if not text.strip():
        return
    version = _major_minor(text)
    if version is None:
        yield triplea, f"<triplea> minimumVersion {text!r} is not a version TripleA can read; {REFUSES}"
    elif version > TRIPLEA_2_VERSION:
        yield triplea, f"<triplea> minimumVersion {text} is above TripleA 2.7 (it needs a newer TripleA); {REFUSES}"


def foreach_refusals(game: GameIndex) -> Iterator[Finding]:
    """An attachment ``foreach`` of undeclared variables, of variables of unequal lengths, or of more than two groups."""
    for element, reason in game.refused_foreach:
        yield element, f"attachment {element.get('name')!r} foreach: {reason}; {REFUSES}"

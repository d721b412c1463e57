"""Write the tables validate judges a game by, read from a TripleA 2.x jar (issue 44: derive, do not transcribe).

    python3 scripts/derive_engine_tables.py [JAR] [--out FILE] [--check]

JAR is a TripleA 2.x jar (default: ../shared/triplea-engine-2.7's headless jar); the tables are written to
src/kremlin_triplea/check/tables/triplea2.json (sorted keys, one format: the same jar gives the same bytes).
``--check`` writes nothing and exits 1 when the file differs from what the jar gives.

What is read, and how (all from the engine's own classes, in its own JVM through JPype):

- ``technologies``: the technologies 2.x has built in, name by property (``TechAdvance``).
- ``xml``: the XML mapping 2.x reads a game with (``org.triplea.generic.xml.reader.XmlMapper`` over the
  ``org.triplea.map.data.elements`` classes): from ``Game``, every class's ``@Attribute`` fields (the names the
  annotation gives, else the field's, each with its rank in the annotation: the first found is read; its field, Java
  type and default) and its ``@Tag``/``@TagList`` children (the names the annotation gives, else the child class's
  simple name; its field, and whether a list) and ``@BodyText``. Tag names are matched
  ignoring case (``XmlParser`` upper-cases both); attribute names exactly (``getAttributeValue(null, name)``).
- ``delegates`` / ``attachments``: the names ``XmlGameElementMapper`` makes a delegate or an attachment of (its
  two private factory maps, read by reflection).
- ``properties``: for every attachment class, each option name its ``getPropertyOrEmpty`` answers (every name
  in the class files of the class and its superclasses is asked: the names are a ``switch`` in 2.7, not a map),
  with its kind found by setting values on a fresh attachment (of a game declaring one unit type, territory, player
  and resource, attached to the unit type) as the parser does
  (``MutableProperty.setValue``): ``int`` (``1`` taken and read back as the Integer 1 unless the
  property is write-only; words, flags, names, empty refused: ``Integer.parseInt``), ``boolean`` (``true``, ``FALSE`` and ``tRuE`` taken; numbers, words, empty and spaced
  ``true`` refused: ``getBool``),
  ``text`` (anything taken), or
  ``checked`` (read by its own parser, which refuses what names nothing in an empty game); the Java type of the
  field of that name, where there is one; the value a fresh attachment holds (an int, boolean or text); and, for a
  ``checked`` option whose value is only ``:``-separated names of one kind (unit types, territories, players or
  resources, found by setting names on an attachment of a game declaring one of each), that kind (``names``), how
  many names it takes (``parts``: None for any number), whether a whole number may come first (``count_first``) and
  the strings of the class's files it takes alone instead (``words``) or before the names (``prefixes``); for one
  whose value is a count then a name (``1:Gold``), the name's kind (``counted``); for every other ``checked``
  option, its ``grammar`` (check/option_grammar.py): the classes of ``:``-separated parts it takes, found by setting
  values of each class (Java ints at the ends of buckets, ranges, empty and blank parts, each kind's name, other text,
  the string literals of the class files and their case variants, names beginning with one) on fresh attachments,
  and where no shorter value leads to a count of parts, part by part as the setter refuses (the engine frames its
  refusal was thrown through tell one check from the next); None where it takes nothing
  but empty parts in the probe game (it names what the game lacks: an attachment, a delegate), and no parts at all
  (``read_only``) where the property has no string setter, or (``refuses_every_value``) where its setter refuses
  ``null`` and every value at one place (it throws before it reads the value: RulesAttachment's ``chance``); for a
  flag with no field of its name, the fields setting it ``true`` or ``false`` changes (``sets``: ``isFactory``).
- ``read_unasked``: what 2.x's ``GameParser`` reads without asking whether the file has it, found by taking each
  element and attribute of a probe game away in turn (scripts/engine_parser_probe.py): the elements it makes a
  named thing of (a ``DefaultNamed``, whose constructor refuses a null name: ``named``, path -> the engine's class),
  the sections (``sections``) and attributes (``attributes``, path -> names) whose absence is a NullPointerException.
- ``attachable_types``: what an attachment's ``type`` may be (``GameParser.findAttachment``'s switch), found by
  giving the probe game's attachment each string literal of GameParser's class file (scripts/engine_parser_probe.py).
- ``legacy_option_names``: the option names 2.x renames before it looks them up (``LegacyPropertyMapper``), by
  the name in lower case.
- ``support_attachment_prefix``: what the name of a unit type's attachment begins with for 2.x to take it for a unit
  support attachment (``Constants.SUPPORT_ATTACHMENT_PREFIX``).
- ``old_artillery_support_prefix``: the name, before the unit type's, of the support attachment 2.x makes for a unit
  type whose UnitAttachment sets ``artillery`` true (``Constants.SUPPORT_RULE_NAME_OLD``).

The option probes run in batches inside the JVM (scripts/engine_probe.py): about 1.5 million of them, ~1.5 CPU-minutes
in all on the shared 2-core machine under load; the parser's (scripts/engine_parser_probe.py: some 250 parses of the
probe game, each taken apart one way) ~4 s of it.
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import struct
import sys
import zipfile
from itertools import combinations, product
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from kremlin_triplea.check.option_grammar import CORE_CLASSES, GUIDED_PARTS, INT_BUCKETS, NEGATED, PREFIX, WORD  # noqa: E402
from kremlin_triplea.check.option_grammar import key as grammar_key  # noqa: E402
from kremlin_triplea.engine.jvm_bridge import triplea2_classpath  # noqa: E402

sys.path.insert(0, str(ROOT / "scripts"))
from engine_parser_probe import attachable_types, read_unasked  # noqa: E402
from engine_probe import Prober  # noqa: E402

DEFAULT_JAR = ROOT.parent / "shared" / "triplea-engine-2.7" / "triplea-2.7.15472-headless.jar"
TABLES = ROOT / "src" / "kremlin_triplea" / "check" / "tables" / "triplea2.json"

ELEMENTS = "org.triplea.map.data.elements."
ANNOTATIONS = "org.triplea.generic.xml.reader.annotations."
ATTACHMENTS = "games.strategy.triplea.attachments."

#: Values set on a fresh attachment to tell a property's kind (see the module's docstring).
PROBES = ("1", "-7", "0", "word", "yes", "", " true", "true", "FALSE", "tRuE", "ProbeUnit", "ProbeLand", "ProbePlayer", "ProbeResource")
_IDENTIFIER = re.compile(r"[a-zA-Z][a-zA-Z0-9_]*")
#: A string of a class file that may be a word an option takes (``BY``, ``controlled``): letters, at most 20.
_WORD = re.compile(r"[A-Za-z]{1,20}")
#: A string of a class file that may be a word a ``checked`` option takes (``canOnlyPlaceInOriginalTerritories``).
_OPTION_WORD = re.compile(r"[A-Za-z]{1,60}")


def class_file_names(jar: Path, class_name: str) -> set[str]:
    """Every identifier-like UTF-8 constant of ``class_name``'s class file in ``jar`` (names, strings, descriptors' parts)."""
    return {name for text in class_file_texts(jar, class_name) for name in _IDENTIFIER.findall(text)}


def class_file_texts(jar: Path, class_name: str) -> set[str]:
    """Every UTF-8 constant of ``class_name``'s class file in ``jar`` (its strings, names and descriptors)."""
    return set(_constant_pool(jar, class_name)[0].values())


def class_file_strings(jar: Path, class_name: str) -> set[str]:
    """The string literals of ``class_name``'s class file in ``jar`` (its ``CONSTANT_String`` entries)."""
    texts, strings = _constant_pool(jar, class_name)
    return {texts[index] for index in strings}


def _constant_pool(jar: Path, class_name: str) -> tuple[dict[int, str], list[int]]:
    """A class file's UTF-8 constants by index, and the indexes its ``CONSTANT_String`` entries point at."""
    with zipfile.ZipFile(jar) as archive:
        data = archive.read(class_name.replace(".", "/") + ".class")
    count = struct.unpack_from(">H", data, 8)[0]
    offset, index, texts, strings = 10, 1, {}, []
    sizes = {3: 4, 4: 4, 5: 8, 6: 8, 7: 2, 8: 2, 9: 4, 10: 4, 11: 4, 12: 4, 15: 3, 16: 2, 17: 4, 18: 4, 19: 2, 20: 2}
    while index < count:
        tag = data[offset]
        if tag == 1:
            length = struct.unpack_from(">H", data, offset + 1)[0]
            texts[index] = data[offset + 3 : offset + 3 + length].decode("utf-8", "replace")
            offset += 3 + length
        else:
            if tag == 8:
                strings.append(struct.unpack_from(">H", data, offset + 1)[0])
            offset += 1 + sizes[tag]
        index += 2 if tag in (5, 6) else 1
    return texts, strings


def start_jvm(jar: Path) -> None:
    import jpype

    if not jpype.isJVMStarted():
        jpype.startJVM(
            jpype.getDefaultJVMPath(),
            "-Djava.awt.headless=true",
            "-Dtriplea.headless=true",
            classpath=[str(p) for p in triplea2_classpath(jar)],
            convertStrings=False,
        )
        logger = jpype.JClass("org.slf4j.LoggerFactory").getLogger("ROOT")
        logger.setLevel(jpype.JClass("ch.qos.logback.classic.Level").OFF)  # the probes' refusals are expected


def xml_mapping() -> dict[str, dict]:
    """Every element class of the 2.x mapping reachable from ``Game``, by its simple (nested: dotted) class name."""
    from jpype import JClass

    annotation = {kind: JClass(ANNOTATIONS + kind) for kind in ("Attribute", "Tag", "TagList", "BodyText")}
    found: dict[str, dict] = {}

    def names(given, default: str) -> list[str]:
        given = [str(n) for n in given]
        return [default] if given == [""] else given

    def walk(cls) -> str:
        key = str(cls.getName()).removeprefix(ELEMENTS).replace("$", ".")
        if key in found:
            return key
        entry: dict = {"attributes": {}, "children": {}, "body_text": False}
        found[key] = entry
        for field in cls.getDeclaredFields():
            if (a := field.getAnnotation(annotation["Attribute"])) is not None:
                for rank, name in enumerate(names(a.names(), str(field.getName()))):
                    entry["attributes"][name] = {
                        "field": str(field.getName()),
                        "rank": rank,
                        "type": str(field.getType().getSimpleName()),
                        "default": str(a.defaultValue()) or None,
                    }
            elif (t := field.getAnnotation(annotation["Tag"])) is not None:
                child = field.getType()
                for rank, name in enumerate(names(t.names(), str(child.getSimpleName()))):
                    entry["children"][name] = {"class": walk(child), "list": False, "field": str(field.getName()), "rank": rank}
            elif (t := field.getAnnotation(annotation["TagList"])) is not None:
                child = field.getGenericType().getActualTypeArguments()[0]
                for rank, name in enumerate(names(t.names(), str(child.getSimpleName()))):
                    entry["children"][name] = {"class": walk(child), "list": True, "field": str(field.getName()), "rank": rank}
            elif field.getAnnotation(annotation["BodyText"]) is not None:
                entry["body_text"] = True
        return key

    walk(JClass(ELEMENTS + "Game").class_)
    return found


def factory_names() -> tuple[list[str], list[str]]:
    """The delegate and attachment names ``XmlGameElementMapper`` knows (its private factory maps)."""
    from jpype import JClass

    mapper_class = JClass("games.strategy.engine.data.gameparser.XmlGameElementMapper")
    mapper = mapper_class()
    found = []
    for field_name in ("delegateFactoriesByTypeName", "attachmentFactoriesByTypeName"):
        field = mapper_class.class_.getDeclaredField(field_name)
        field.setAccessible(True)
        found.append(sorted(str(k) for k in field.get(mapper).keySet()))
    return found[0], found[1]


def _superclasses(cls):
    while cls is not None and str(cls.getName()) != "java.lang.Object":
        yield cls
        cls = cls.getSuperclass()


def _field_types(cls) -> dict[str, str]:
    types: dict[str, str] = {}
    for owner in _superclasses(cls):
        for field in owner.getDeclaredFields():
            types.setdefault(str(field.getName()), re.sub(r"\b[a-z][\w.]*\.(?=[A-Z])", "", str(field.getGenericType().getTypeName())))
    return types


def _kind(make, name: str) -> str:
    taken, read = {}, {}
    for value in PROBES:
        prop = make().getPropertyOrEmpty(name).get()
        try:
            prop.setValue(value)
            taken[value] = True
        except Exception:  # noqa: BLE001 - a refusal is the answer sought
            taken[value] = False
            continue
        try:
            read[value] = prop.getValue()
        except Exception:  # noqa: BLE001 - a write-only property: nothing to read back
            read[value] = None
    numbers_only = taken["1"] and not any(taken[v] for v in PROBES[3:])  # a range may refuse -7 or 0: still read as an int
    if numbers_only and (read["1"] is None or _is(read["1"], "java.lang.Integer", 1)):  # None: a write-only property
        return "int"
    if taken["true"] and taken["FALSE"] and taken["tRuE"] and not any(taken[v] for v in PROBES[:7] + PROBES[10:]):
        return "boolean"
    if all(taken.values()):
        return "text"
    return "checked"


def _default(make, name: str) -> int | bool | str | None:
    """The value a fresh attachment holds for a property (an Integer, Boolean or String; None for anything else): its
    field's of that name where there is one (a getter may give a value worked out from others), else its getter's."""
    attachment = make()
    try:
        field = next((f for owner in _superclasses(attachment.getClass()) for f in owner.getDeclaredFields() if str(f.getName()) == name), None)
        if field is not None:
            field.setAccessible(True)
            value = field.get(attachment)
        else:
            value = attachment.getPropertyOrEmpty(name).get().getValue()
    except Exception:  # noqa: BLE001 - a property whose getter needs a game: no default to tell
        return None
    kind = "" if value is None else str(value.getClass().getName())
    if kind == "java.lang.Integer":
        return int(value.intValue())
    if kind == "java.lang.Boolean":
        return bool(value.booleanValue())
    return str(value) if kind == "java.lang.String" else None


def _fields_a_flag_sets(make, name: str) -> dict[str, dict] | None:
    """For a flag with no field of its name (a legacy one: ``isFactory`` sets canBeDamaged, isConstruction, ...), the
    fields of whole numbers, flags and text that setting it ``true`` or ``false`` on a fresh attachment changes, and
    what each holds after either (a field either changes, after both); None where it changes none."""
    after = {}
    fresh = _field_values(make())
    for value in ("true", "false"):
        attachment = make()
        attachment.getPropertyOrEmpty(name).get().setValue(value)
        after[value] = _field_values(attachment)
    changed = sorted(f for f in fresh if any(after[v].get(f) != fresh[f] for v in after))
    return {value: {f: after[value].get(f) for f in changed} for value in after} if changed else None


def _field_values(attachment) -> dict[str, int | bool | str | None]:
    """The whole numbers, flags and text of an attachment's fields, by name (its class's and superclasses')."""
    from jpype import JClass

    is_static = JClass("java.lang.reflect.Modifier").isStatic
    read = {"int": int, "java.lang.Integer": int, "boolean": bool, "java.lang.Boolean": bool, "java.lang.String": str}
    found: dict[str, int | bool | str | None] = {}
    for owner in _superclasses(attachment.getClass()):
        for field in owner.getDeclaredFields():
            kind = str(field.getType().getName())
            if kind not in read or str(field.getName()) in found or is_static(field.getModifiers()):
                continue
            field.setAccessible(True)
            value = field.get(attachment)
            found[str(field.getName())] = None if value is None else read[kind](value)
    return found


def _is(value, java_type: str, expected) -> bool:
    """Whether ``value`` (what a property's getter gave) is the Java ``java_type`` holding ``expected``."""
    return (
        value is not None
        and str(value.getClass().getName()) == java_type
        and (value.intValue() if java_type.endswith("Integer") else bool(value.booleanValue())) == expected
    )


#: The one name of each kind the game of the reference probes declares (see ``_names_of``).
NAMED = {"unit type": "ProbeUnit", "territory": "ProbeLand", "player": "ProbePlayer", "resource": "ProbeResource"}


def _game_with_one_of_each():
    """A game declaring one unit type, territory, player and resource (``NAMED``), and the unit type ``infantry``."""
    from jpype import JClass

    data = JClass("games.strategy.engine.data.GameData")()
    data.getUnitTypeList().addUnitType(JClass("games.strategy.engine.data.UnitType")(NAMED["unit type"], data))
    # and the unit type an option may default to (productionPerXTerritories' "2" is "2:infantry"), so such a value is taken
    data.getUnitTypeList().addUnitType(JClass("games.strategy.engine.data.UnitType")(JClass("games.strategy.triplea.Constants").UNIT_TYPE_INFANTRY, data))
    data.getMap().addTerritory(JClass("games.strategy.engine.data.Territory")(NAMED["territory"], data))
    data.getPlayerList().addPlayerId(JClass("games.strategy.engine.data.GamePlayer")(NAMED["player"], data))
    data.getResourceList().addResource(JClass("games.strategy.engine.data.Resource")(NAMED["resource"], data))
    return data


#: What else the game of the grammar probes declares, by kind (option_grammar.NAME_KINDS): a territory effect, a
#: relationship type, a production rule and frontier, a rules and a trigger attachment on its player (the names
#: ``conditions`` and ``activateTrigger`` look up), a technology (``techs``, ``tech``, ``availableTech``) and a unit
#: support attachment on its unit type (``support``: one whose name begins ``Constants.SUPPORT_ATTACHMENT_PREFIX``).
GRAMMAR_NAMED = {
    "territory effect": "ProbeEffect",
    "rules attachment": "ProbeRules",
    "trigger attachment": "ProbeTrigger",
    "relationship type": "ProbeRelation",
    "production rule": "ProbeRule",
    "production frontier": "ProbeFrontier",
    "technology": "ProbeTech",
    "unit support attachment": "supportAttachmentOfProbe",  # not "supportAttachment" + "Probe": a PREFIX class's value
}


def _grammar_game(mapper):
    """The game of ``_game_with_one_of_each``, also declaring ``GRAMMAR_NAMED`` and the resource PUs (which
    ``costPU`` sets a cost in)."""
    from jpype import JClass

    data = _game_with_one_of_each()
    data.getResourceList().addResource(JClass("games.strategy.engine.data.Resource")(JClass("games.strategy.triplea.Constants").PUS, data))
    data.getTerritoryEffectList().put(
        GRAMMAR_NAMED["territory effect"], JClass("games.strategy.engine.data.TerritoryEffect")(GRAMMAR_NAMED["territory effect"], data)
    )
    engine_data = "games.strategy.engine.data."
    data.getRelationshipTypeList().addRelationshipType(JClass(engine_data + "RelationshipType")(GRAMMAR_NAMED["relationship type"], data))
    data.getProductionRuleList().addProductionRule(JClass(engine_data + "ProductionRule")(GRAMMAR_NAMED["production rule"], data))
    data.getProductionFrontierList().addProductionFrontier(JClass(engine_data + "ProductionFrontier")(GRAMMAR_NAMED["production frontier"], data))
    player = data.getPlayerList().getPlayerId(NAMED["player"])
    for kind, java_class in (("rules attachment", "RulesAttachment"), ("trigger attachment", "TriggerAttachment")):
        player.addAttachment(GRAMMAR_NAMED[kind], mapper.newAttachment(java_class, GRAMMAR_NAMED[kind], player, data).get())
    generic = JClass("games.strategy.triplea.delegate.GenericTechAdvance")
    data.getTechnologyFrontier().addAdvance(generic(GRAMMAR_NAMED["technology"], None, data))  # found by name and by property
    support = GRAMMAR_NAMED["unit support attachment"]
    assert support.startswith(str(support_attachment_prefix())), support  # UnitSupportAttachment.get(UnitType) finds it
    unit = data.getUnitTypeList().getUnitType(NAMED["unit type"]).get()
    unit.addAttachment(support, mapper.newAttachment("UnitSupportAttachment", support, unit, data).get())
    return data


def old_artillery_support_prefix() -> str:
    """What a unit type's own support attachment is called, before the unit type's name, when its UnitAttachment sets
    ``artillery`` true (``UnitSupportAttachment.addRule``: ``Constants.SUPPORT_RULE_NAME_OLD``): a TriggerAttachment's
    ``support`` may name it (the_pact_of_steel's ``-supportAttachmentArtyOldartillery``)."""
    from jpype import JClass

    return str(JClass("games.strategy.triplea.Constants").SUPPORT_RULE_NAME_OLD)


def support_attachment_prefix() -> str:
    """What the name of an attachment on a unit type begins with for 2.x to take it for a unit support attachment
    (``UnitSupportAttachment.get(UnitType)``: ``Constants.SUPPORT_ATTACHMENT_PREFIX``)."""
    from jpype import JClass

    return str(JClass("games.strategy.triplea.Constants").SUPPORT_ATTACHMENT_PREFIX)


def _names_of(mapper, java_class: str, name: str, words: list[str]) -> dict | None:
    """What a ``checked`` option's value names, when it is only ``:``-separated names of one kind: the kind, how
    many names it takes (1 to 3 tried; None when any of them), whether a whole number may come first, and which of
    ``words`` (the strings of the class's files) it takes alone, or before the names (``BY:``). Each kind's name is
    set alone, twice and three times (``A:A``), and an unknown name in each of those places refused."""
    taken = _Taken(mapper, java_class, name)
    taken.many(
        [
            *(":".join([k] * n) for k in NAMED.values() for n in (1, 2, 3)),
            *(":".join([k] * (n - 1) + ["ProbeNothing"]) for k in NAMED.values() for n in (1, 2, 3)),
        ]
    )
    taken.many([*(f"1:{k}" for k in NAMED.values()), *words, *(f"{w}:{k}" for w in words for k in NAMED.values())])
    if taken("ProbeNothing"):
        return None
    found = []
    for kind, known in NAMED.items():
        parts = [n for n in (1, 2, 3) if taken(":".join([known] * n))]
        if parts and not any(taken(":".join([known] * (n - 1) + ["ProbeNothing"])) for n in parts):
            found.append(
                {
                    "names": kind,
                    "parts": None if parts == [1, 2, 3] else parts,
                    "count_first": taken(f"1:{known}"),
                    "words": sorted(word for word in words if taken(word)),
                    "prefixes": sorted(word for word in words if taken(f"{word}:{known}")),
                }
            )
    return found[0] if len(found) == 1 else None


class _Taken:
    """Whether a fresh attachment of a class, attached to nothing in a probe game of its own (what probes of other
    options set is never seen), takes a value for an option: ``taken(value)``; ``taken.many(values)`` probes a batch."""

    def __init__(self, mapper, java_class: str, name: str) -> None:
        self._prober, self._name = Prober(mapper, java_class, None, _game_with_one_of_each()), name

    def __call__(self, value: str) -> bool:
        return self._prober(self._name, value) is None

    def many(self, values) -> None:
        self._prober.many(self._name, values)


class _Refusal:
    """Where the option ``name`` of fresh attachments of a prober refuses a value (None where it takes it):
    ``refusal(value)``; ``refusal.many(values)`` probes a batch first (the grammar's searches ask in batches)."""

    def __init__(self, prober: Prober, name: str) -> None:
        self._prober, self._name = prober, name

    def __call__(self, value: str) -> str | None:
        return self._prober(self._name, value)

    def many(self, values) -> None:
        self._prober.many(self._name, values)


#: The grammar of an option whose property has no string setter (``MutableProperty.ofReadOnly``): it takes no value.
READ_ONLY = {"parts": {}, "words": [], "read_only": True}


#: The grammar of an option whose setter refuses every value before it reads it (RulesAttachment's ``chance``).
REFUSES_EVERY_VALUE = {"parts": {}, "words": [], "refuses_every_value": True}


def _refuses_every_value(refusal) -> bool:
    """Whether the setter refuses every value at one place before it reads it: ``null`` (which a setter reading its
    value throws on where it reads it) and a value of each class are refused by the same throw."""
    values = [None, *(v for c in CORE_CLASSES for v in CLASS_VALUES[c]), "1:1", "1:1:1"]
    refusal.many(values)
    thrown = {refusal(v) and refusal(v).split("|")[0] for v in values}
    return len(thrown) == 1 and None not in thrown


def _read_only(make, name: str) -> bool:
    """Whether the property ``name`` refuses a value for having no string setter (``MutableProperty.ofReadOnly``:
    UnsupportedOperationException, "No String Setter has been defined!"), whatever the value."""
    from jpype import JClass, JException

    try:
        make().getPropertyOrEmpty(name).get().setValue(JClass("java.lang.String")("1"))
    except JException as error:
        return str(error.getClass().getName()) == "java.lang.UnsupportedOperationException"
    return False


def _counted_name_of(mapper, java_class: str, name: str) -> str | None:
    """The kind of thing a ``checked`` option's value names after a count (``1:Gold``): a count then a known name
    taken; the name alone, the count alone, two names, an unknown name and a count that is no number refused."""
    taken = _Taken(mapper, java_class, name)
    taken.many(["1:ProbeNothing", "ProbeNothing", "1", *(f"{a}:{b}" for a in NAMED.values() for b in NAMED.values())])
    taken.many(v for k in NAMED.values() for v in (f"1:{k}", k, f"x:{k}"))
    if taken("1:ProbeNothing") or taken("ProbeNothing") or taken("1"):
        return None
    if any(taken(f"{one}:{other}") for one in NAMED.values() for other in NAMED.values()):
        return None  # the count may be left out (``Land:Unit``): not a count then a name
    kinds = [kind for kind, known in NAMED.items() if taken(f"1:{known}") and not taken(known) and not taken(f"x:{known}")]
    return kinds[0] if len(kinds) == 1 else None


#: A value of each class of option_grammar.CORE_CLASSES the probes set (a bucket of ints: both its ends).
CLASS_VALUES = {
    **{name: tuple(dict.fromkeys((str(low), str(high)))) for name, low, high in INT_BUCKETS},
    "range": ("1-3",),
    "range+": ("2-+",),
    "empty": ("",),
    "blank": (" ", "\t"),
    **{f"name:{kind}": (known,) for kind, known in {**NAMED, **GRAMMAR_NAMED}.items()},
    **{f"{NEGATED}name:{kind}": (NEGATED + known,) for kind, known in {**NAMED, **GRAMMAR_NAMED}.items()},
    "text": ("ProbeNothing",),
}


@functools.cache
def _class_values(symbol: str) -> tuple[str, ...]:
    if symbol.startswith(PREFIX):
        return (symbol.removeprefix(PREFIX) + "Probe",)
    return (symbol.removeprefix(WORD),) if symbol.startswith(WORD) else CLASS_VALUES[symbol]


def _pair_values(first: str, second: str, tag: str) -> list[tuple[str, str]]:
    """Values of two parts of the classes given, in the order ``tag`` says (two ints of one bucket)."""
    if not tag:
        return list(product(_class_values(first), _class_values(second)))
    low, high = next((low, high) for name, low, high in INT_BUCKETS if name == first)
    ends = {"<": [(low, low + 1), (high - 1, high)], "=": [(low, low), (high, high)], ">": [(low + 1, low), (high, high - 1)]}[tag]
    return [(str(a), str(b)) for a, b in ends]


def _guided_seed(refusal, count: int, symbols: list[str], fixed: dict[int, str] | None = None) -> tuple[str, ...] | None:
    """A value of ``count`` parts the engine takes, found the way its setter refuses (``refusal``: where it was
    thrown): from every part other text (or as ``fixed``), each free part is set in turn to each symbol, and the first
    whose refusal is one not met before (a check further on, or another) is kept, until a value is taken or no part
    moves the setter. For setters that check their parts one by one (``damage:translateAttributes:unitType``, a
    name beginning with its attachment's kind then the kind), which no part alone or pair of classes shows."""
    current = [(fixed or {}).get(index, "text") for index in range(count)]
    said = refusal(":".join(_class_values(s)[0] for s in current))
    ask_first = getattr(refusal, "many", lambda values: None)
    if said is None:
        return tuple(current)
    seen = {said}
    for _ in range(2 * count):
        moved = False
        for index in (i for i in range(count) if i not in (fixed or {})):
            ask_first(":".join(_class_values(s)[0] for s in current[:index] + [symbol] + current[index + 1 :]) for symbol in symbols)
            for symbol in symbols:
                trial = current[:index] + [symbol] + current[index + 1 :]
                got = refusal(":".join(_class_values(s)[0] for s in trial))
                if got is None:
                    return tuple(trial)
                if got not in seen:
                    seen.add(got)
                    current, moved = trial, True
                    break
        if not moved:
            paired = _paired_move(refusal, current, fixed or {}, seen)
            if paired is None:
                return None
            current, taken = paired
            if taken:
                return tuple(current)
    return None


#: The buckets of whole numbers holding more than one value: two parts of one may be in an order a setter asks
#: (whenCombatDamaged's ``from:to``, from <= to).
ORDERED_BUCKETS = tuple(name for name, low, high in INT_BUCKETS if low != high)


def _paired_move(refusal, current: list[str], fixed: dict[int, str], seen: set) -> tuple[list[str], bool] | None:
    """Where no one part moves the setter, two whole numbers at once (a check of two numbers together: ``from < 0
    || to < 0 || to < from`` refuses every value one part away): the first pair of buckets taken (then True) or
    refused by a check not met before; None where none moves it."""
    free = [i for i in range(len(current)) if i not in fixed]
    trials = [
        current[:i] + [a] + current[i + 1 : j] + [b] + current[j + 1 :]
        for i, j in combinations(free, 2)
        for a, b in product([b[0] for b in INT_BUCKETS], repeat=2)
    ]
    refusal.many(":".join(_class_values(s)[0] for s in trial) for trial in trials)
    for trial in trials:
        got = refusal(":".join(_class_values(s)[0] for s in trial))
        if got is None:
            return trial, True
        if got not in seen:
            seen.add(got)
            return trial, False
    return None


#: Options whose values the part classes cannot say, so no grammar is derived (validate does not judge them), each
#: with why: a grammar of the classes alone would refuse values 2.7 takes.
WITHHELD: dict[tuple[str, str], str] = {}


def option_grammar(refusal, words: list[str]) -> dict | None:
    """The grammar of a ``checked`` option (check/option_grammar.py) from ``refusal`` (None where the engine takes a
    value, else where its setter refused it: engine_probe.Prober): for one and two parts every class sequence (a class taken when each of its values is), two parts
    holding at most one word; for three and four, one value taken found by extending a shorter one, then each part
    varied over every class and word with the others as in it (each value of one part fewer extended, unless
    an alternative found covers it). A word is tried only where other text is refused
    (where any text is taken, a word is that text). ``words``: the option's class files' strings; the upper, lower
    and swapped case of each word taken are tried in its places. None when no value is taken (a value naming what
    the probe game lacks). Counts of parts none of that finds, up to one beyond the most found (up to GUIDED_PARTS
    when none is found), are searched part by part as the setter refuses (:func:`_guided_alternatives`), where a
    part may also be a name beginning with a word (``PREFIX``)."""
    prefixes = [PREFIX + w for w in words]
    first = _option_grammar(refusal, [WORD + w for w in words], prefixes)
    if first is None:
        return None
    variants = sorted({v for w in first["words"] for v in _case_variants(w)})
    second = _option_grammar(refusal, [WORD + w for w in variants], prefixes) if variants else None
    return _folded(second, first["words"]) if second is not None else first


def _case_variants(word: str) -> tuple[str, ...]:
    """A word in upper, lower, swapped, capitalized and alternating case (``tRuE``, ``TrUe``)."""
    alternating = "".join(c.upper() if i % 2 else c.lower() for i, c in enumerate(word))
    return (word, word.upper(), word.lower(), word.swapcase(), word.capitalize(), alternating, alternating.swapcase())


def _folded(grammar: dict, words: list[str]) -> dict:
    """``grammar`` with each word taken in every case it was tried in (``_case_variants``) written once, as its class
    file has it, and listed in ``folded``: the setter matches it ignoring case (``equalsIgnoreCase``), so validate
    matches it as Java does (option_grammar.part_classes)."""
    used = set(grammar["words"])
    folded = [w for w in words if all(v in used for v in _case_variants(w))]
    canonical = {v: w for w in sorted(folded) for v in _case_variants(w)}  # of two (DEFENCE, defence), the last in order

    def fold(symbol: str) -> str:
        return WORD + canonical[symbol.removeprefix(WORD)] if symbol.startswith(WORD) and symbol.removeprefix(WORD) in canonical else symbol

    for shape in grammar["parts"].values():
        if "tuples" in shape:
            shape["tuples"] = sorted({"|".join(map(fold, k.split("#")[0].split("|"))) + (f"#{k.split('#')[1]}" if "#" in k else "") for k in shape["tuples"]})
        for positions in shape.get("alternatives", ()):
            positions[:] = [sorted({fold(s) for s in allowed}) for allowed in positions]
    words_left = sorted({canonical.get(w, w) for w in grammar["words"]})
    return {**grammar, "words": words_left, **({"folded": sorted(folded)} if folded else {})}


def _option_grammar(refusal, words: list[str], prefixes: list[str]) -> dict | None:
    def taken(value: str) -> bool:
        return refusal(value) is None

    @functools.cache
    def ordered_values_of(symbols: tuple[str, ...], orders: tuple) -> tuple[str, ...]:
        return tuple(
            ":".join(v) for v in product(*map(_class_values, symbols)) if all(symbols[i] != symbols[j] or _order(v[i], v[j]) in tags for i, j, tags in orders)
        )

    def values_of(symbols, orders=()) -> tuple[str, ...]:
        """The values of the classes ``symbols``: each class's values in each part; where ``orders`` holds parts
        ``i`` and ``j`` of one bucket, only their values in the orders given (``(i, j, tags)``). Asked again and
        again by the searches: kept."""
        return ordered_values_of(tuple(symbols), tuple((i, j, tuple(tags)) for i, j, tags in orders))

    def all_taken(symbols, orders=()) -> bool:
        return all(taken(v) for v in values_of(symbols, orders))

    def ask_first(candidates, orders=()) -> None:
        """Probe in batches the values of every symbol sequence of ``candidates`` (cheaper than one by one): the first
        value of each, then the others of those whose first is taken (the only ones ``all_taken`` asks further)."""
        candidates = [values_of(symbols, orders) for symbols in candidates]
        refusal.many(values[0] for values in candidates if values)
        refusal.many(v for values in candidates if values and taken(values[0]) for v in values[1:])

    def taken_in(symbols: tuple[str, ...], index: int, orders=()) -> list[str]:
        """The symbols part ``index`` of ``symbols`` may be, the others as they are."""
        ask_first((symbols[:index] + (s,) + symbols[index + 1 :] for s in (*CORE_CLASSES, *words, *prefixes)), orders)
        core = [s for s in CORE_CLASSES if all_taken(symbols[:index] + (s,) + symbols[index + 1 :], orders)]
        if "text" in core:
            return core
        return core + [w for w in (*words, *prefixes) if all_taken(symbols[:index] + (w,) + symbols[index + 1 :], orders)]

    def orders_of(found: tuple[str, ...]) -> list[tuple[int, int, list[str]]]:
        """The orders two parts of one bucket of ``found`` (a value taken) must be in, where not every one is taken
        (whenCombatDamaged's ``from:to``: ``<`` or ``=``)."""
        found_orders = []
        for i, j in combinations(range(len(found)), 2):
            if found[i] == found[j] and found[i] in ORDERED_BUCKETS:
                tags = [tag for tag in ("<", "=", ">") if all_taken(found, [(i, j, [tag])])]
                if tags and len(tags) < 3:
                    found_orders.append((i, j, tags))
        return found_orders

    def form_of(found: tuple[str, ...]) -> tuple[list[list[str]], list[tuple[int, int, list[str]]]]:
        """The symbols each part of a value of ``found``'s form may be, the others as in it, and its orders."""
        orders = orders_of(found)
        return [sorted(taken_in(found, index, orders)) for index in range(len(found))], orders

    shapes: dict[str, dict] = {}
    one = taken_in(("text",), 0)
    if one:
        shapes["1"] = {"tuples": sorted(one)}
    pairs = set()

    def tags(first: str, second: str) -> tuple[str, ...]:
        return ("<", "=", ">") if first == second and first in ("int<-1", "int2-120", "int>120") else ("",)

    pair_values = [
        [f"{a}:{b}" for a, b in _pair_values(first, second, tag)] for first, second in product(CORE_CLASSES, repeat=2) for tag in tags(first, second)
    ]
    refusal.many(values[0] for values in pair_values)  # then the others of the pairs whose first is taken
    refusal.many(v for values in pair_values if taken(values[0]) for v in values[1:])
    for first, second in product(CORE_CLASSES, repeat=2):
        for tag in tags(first, second):
            if all(taken(f"{a}:{b}") for a, b in _pair_values(first, second, tag)):
                pairs.add(grammar_key((first, second), tag))
    alone = [w for w in one if w.startswith(WORD)]
    pairs |= {grammar_key((a, b)) for a, b in product(alone, repeat=2) if all_taken((a, b))}  # two words, each taken alone
    for core in CORE_CLASSES:  # a word in one part, the other part any class
        pairs |= {grammar_key((w, core)) for w in taken_in(("text", core), 0) if w.startswith(WORD)}
        pairs |= {grammar_key((core, w)) for w in taken_in((core, "text"), 1) if w.startswith(WORD)}
    if pairs:
        shapes["2"] = {"tuples": sorted(pairs)}
        # and the forms a part-by-part search finds that no pair of classes shows (a word then a word, each refused
        # alone: ``unitAttachment:UnitAttachment``, where a name of the probe game's is one pair taken)
        found, _, _ = _guided_alternatives(refusal, 2, [*CORE_CLASSES, *words, *prefixes], form_of)
        more = [form for form in found if not all(grammar_key(t) in pairs for t in product(*form))]
        if more:
            shapes["2"]["alternatives"] = more
    seeds = [tuple(k.split("|")) for k in sorted(pairs) if "#" not in k]
    for count in range(3 if "2" in shapes else 1, GUIDED_PARTS + 1):
        if str(count) in shapes:
            continue
        if shapes and count > max(map(int, shapes)) + 1:
            break
        alternatives: list[list[list[str]]] = []
        extended, orders = [], []
        for shorter in seeds if count > 2 else ():  # each value taken of one part fewer, extended by a part, unless one found covers it
            worded = any(s.startswith((WORD, PREFIX)) for s in shorter)  # a word may lead elsewhere (``count:owned:all:anything``)
            if not worded and any(all(s in allowed for s, allowed in zip(shorter, positions)) for positions in alternatives):
                continue
            kept = orders_of(shorter)
            ask_first((shorter + (last,) for last in (*CORE_CLASSES, *words)), kept)
            seed = next((shorter + (last,) for last in (*CORE_CLASSES, *words) if all_taken(shorter + (last,), kept)), None)
            if seed is not None:
                form, found_orders = form_of(seed)
                if form in alternatives:
                    continue
                extended.append(seed)
                orders += [[len(alternatives), i, j, seed[i], tags] for i, j, tags in found_orders]
                alternatives.append(form)
        if not alternatives:  # none a shorter value leads to: part by part, as the setter refuses
            alternatives, extended, orders = _guided_alternatives(refusal, count, [*CORE_CLASSES, *words, *prefixes], form_of)
        if alternatives:
            shapes[str(count)] = {"alternatives": alternatives, **({"orders": orders} if orders else {})}
        seeds = _with_words(refusal, extended, alternatives)
    if not any(s not in ("empty", "blank") for shape in shapes.values() for s in _symbols_of(shape)):
        return None  # only empty parts taken: the option names what the probe game lacks (an attachment, a delegate)
    used = sorted({w.removeprefix(WORD) for shape in shapes.values() for w in _symbols_of(shape) if w.startswith(WORD)})
    begun = sorted({w.removeprefix(PREFIX) for shape in shapes.values() for w in _symbols_of(shape) if w.startswith(PREFIX)})
    longer = _takes_longer(refusal, shapes)
    return {
        "parts": dict(sorted(shapes.items(), key=lambda item: int(item[0]))),
        "words": used,
        **({"prefixes": begun} if begun else {}),
        **({"longer": True} if longer else {}),
    }


#: How many parts past GUIDED_PARTS the values :func:`_takes_longer` sets go to.
LONGER_PARTS = 4


def _takes_longer(refusal, shapes: dict) -> bool:
    """Whether the engine takes a value of more parts than the probes set (up to GUIDED_PARTS): each form of the
    most parts found, its last part repeated up to LONGER_PARTS more (``unit:unit:...``). validate does not judge
    such values where it does (``longer``), and refuses them where it does not."""
    most = max(map(int, shapes))
    shape = shapes[str(most)]
    lasts = [tuple(k.split("#")[0].split("|")) for k in shape.get("tuples", ())]
    lasts += [tuple(p[0] for p in form) for form in shape.get("alternatives", ())]
    values = [
        ":".join(_class_values(s)[0] for s in (*form, *[form[-1]] * (n - len(form))))
        for form in lasts
        for n in range(GUIDED_PARTS + 1, GUIDED_PARTS + 1 + LONGER_PARTS)
    ]
    refusal.many(values)
    return any(refusal(v) is None for v in values)


def _with_words(refusal, seeds: list[tuple[str, ...]], forms: list[list[list[str]]]) -> list[tuple[str, ...]]:
    """The seeds of the forms found, and each with one part another word or prefix its form allows there where that
    word leads the setter elsewhere in a longer value (PlayerAttachment's ``count:owned:all`` reads no more parts,
    ``count:owned:unit`` reads units), which the form's first seed does not show: where the seed and the variant,
    each one part longer (other text), are refused differently."""

    def longer(symbols: tuple[str, ...]) -> str:
        return ":".join(_class_values(s)[0] for s in (*symbols, "text"))

    variants = [
        (seed, seed[:index] + (s,) + seed[index + 1 :])
        for seed, form in zip(seeds, forms)
        for index, allowed in enumerate(form)
        for s in allowed
        if s.startswith((WORD, PREFIX)) and s != seed[index]
    ]
    refusal.many(longer(symbols) for pair in variants for symbols in pair)
    found = list(seeds) + [variant for seed, variant in variants if refusal(longer(seed)) != refusal(longer(variant))]
    return list(dict.fromkeys(found))


def _guided_alternatives(refusal, count: int, symbols: list[str], form_of) -> tuple[list[list[list[str]]], list[tuple[str, ...]], list[list]]:
    """The forms of ``count`` parts the engine takes, each as the symbols each part may be with the others as in one
    value taken (``form_of``): the first found by :func:`_guided_seed`; then, for each part, each symbol no form
    found allows there that the setter refuses elsewhere than other text there (it passed a check), searched again
    with that part fixed (``rulesAttachment...:RulesAttachment``, then ``triggerAttachment...:TriggerAttachment``).
    Also the orders two parts of one bucket must be in (``[form, i, j, bucket, tags]``: whenCombatDamaged's
    ``from:to``, ``<`` or ``=``)."""
    seed = _guided_seed(refusal, count, symbols)
    if seed is None:
        return [], [], []
    forms, seeds, orders = [], [], []

    def value(parts) -> str:
        return ":".join(_class_values(s)[0] for s in parts)

    def add(found: tuple[str, ...]) -> None:
        form, found_orders = form_of(found)
        orders.extend([len(forms), i, j, found[i], tags] for i, j, tags in found_orders)
        forms.append(form)
        seeds.append(found)

    add(seed)

    for index in range(count):
        other = refusal(value(seed[:index] + ("text",) + seed[index + 1 :]))
        refusal.many(value(seed[:index] + (symbol,) + seed[index + 1 :]) for symbol in symbols)
        for symbol in symbols:
            if any(symbol in form[index] for form in forms) or refusal(value(seed[:index] + (symbol,) + seed[index + 1 :])) == other:
                continue
            found = _guided_seed(refusal, count, symbols, fixed={index: symbol})
            if found is not None and not any(all(s in allowed for s, allowed in zip(found, form)) for form in forms):
                add(found)
    return forms, seeds, orders


def _order(first: str, second: str) -> str:
    """``<``, ``=`` or ``>``: how two whole numbers compare."""
    a, b = int(first), int(second)
    return "<" if a < b else "=" if a == b else ">"


def _symbols_of(shape: dict):
    for entry in shape.get("tuples", ()):
        yield from entry.split("#")[0].split("|")
    for positions in shape.get("alternatives", ()):
        for allowed in positions:
            yield from allowed


def _option_words(jar: Path, cls) -> list[str]:
    """The words a ``checked`` option of ``cls`` may take: the string literals of its class files that are words,
    its nested classes' among them (UnitSupportAttachment's ``PropertyName`` holds ``allied``, ``strength``, ...)."""
    owners = [nested for owner in _superclasses(cls) for nested in (owner, *owner.getDeclaredClasses())]
    strings = {text for owner in owners for text in class_file_strings(jar, str(owner.getName())) if _OPTION_WORD.fullmatch(text)}
    return sorted(strings - set(NAMED.values()) - set(GRAMMAR_NAMED.values()))


def attachment_properties(jar: Path, attachment_names: list[str]) -> dict[str, dict]:
    """Each attachment class's options (see the module's docstring), by the name ``javaClass`` gives it."""
    from jpype import JClass

    mapper = JClass("games.strategy.engine.data.gameparser.XmlGameElementMapper")()
    found: dict[str, dict] = {}
    for java_class in attachment_names:
        data = _game_with_one_of_each()
        unit_type = data.getUnitTypeList().getUnitType(NAMED["unit type"]).get()

        def make(java_class=java_class, data=data, unit_type=unit_type):
            return mapper.newAttachment(java_class, "probe", unit_type, data).get()

        cls = make().getClass()
        candidates = set()
        for owner in _superclasses(cls):
            candidates |= class_file_names(jar, str(owner.getName()))
        field_types = _field_types(cls)
        option_words = _option_words(jar, cls)
        words = sorted(
            {text for owner in _superclasses(cls) for text in class_file_texts(jar, str(owner.getName())) if _WORD.fullmatch(text)} - set(NAMED.values())
        )
        properties = {}
        for name in sorted(candidates):
            if not make().getPropertyOrEmpty(name).isPresent():
                continue
            kind = _kind(make, name)
            properties[name] = {"kind": kind, "java_type": field_types.get(name), "default": _default(make, name)}
            if kind == "boolean" and field_types.get(name) is None and (sets := _fields_a_flag_sets(make, name)):
                properties[name]["sets"] = sets
            if kind == "checked" and (names := _names_of(mapper, java_class, name, words)):
                properties[name].update(names)
            elif kind == "checked" and (counted := _counted_name_of(mapper, java_class, name)):
                properties[name]["counted"] = counted
            elif kind == "checked":
                grammar_data = _grammar_game(mapper)
                grammar_unit = grammar_data.getUnitTypeList().getUnitType(NAMED["unit type"]).get()
                refusal = _Refusal(Prober(mapper, java_class, grammar_unit, grammar_data), name)
                grammar = None if (java_class, name) in WITHHELD else option_grammar(refusal, option_words)
                if grammar is None and _read_only(make, name):
                    grammar = READ_ONLY
                elif grammar is None and (java_class, name) not in WITHHELD and _refuses_every_value(refusal):
                    grammar = REFUSES_EVERY_VALUE
                properties[name]["grammar"] = grammar
        superclass = cls.getSuperclass()
        found[java_class] = {"class": str(cls.getName()), "superclass": str(superclass.getSimpleName()), "properties": properties}
    return found


def game_property_types(jar: Path) -> dict[str, str]:
    """Each game property the engine reads through ``games.strategy.triplea.Properties``, by name: the type it reads
    it as (``boolean``, ``int`` or ``String``).

    Each one-argument getter is called on properties holding one text value under one name at a time (every string
    constant of ``Properties`` and ``Constants``): an ``int`` or ``boolean`` getter that reads that name fails to cast
    the text (``GameProperties.get(key, default)``), a ``String`` getter gives the text back."""
    from jpype import JClass, JException

    properties_class = JClass("games.strategy.triplea.Properties")
    game_properties = JClass("games.strategy.engine.data.properties.GameProperties")
    game_data = JClass("games.strategy.engine.data.GameData")
    names = sorted(class_file_texts(jar, "games.strategy.triplea.Properties") | class_file_texts(jar, "games.strategy.triplea.Constants"))
    getters = [
        m
        for m in properties_class.class_.getDeclaredMethods()
        if len(m.getParameterTypes()) == 1 and str(m.getParameterTypes()[0].getName()) == "games.strategy.engine.data.properties.GameProperties"
    ]
    found: dict[str, str] = {}
    for name in names:
        holding = game_properties(game_data())
        holding.set(name, JClass("java.lang.String")("\u0000probe"))
        for getter in getters:
            kind = str(getter.getReturnType().getSimpleName())
            try:
                value = getter.invoke(None, holding)
            except JException:  # InvocationTargetException of a ClassCastException: this getter reads ``name``
                found[name] = kind
                continue
            if kind == "String" and value is not None and str(value) == "\u0000probe":
                found[name] = kind
    return found


#: What a probe puts in a game property to find who reads it: text no int or boolean getter can cast.
_UNCASTABLE = "\u0000probe"


def properties_read_at_load(property_types: dict[str, str]) -> dict:
    """The game properties 2.x reads while it loads a game, where a value of the wrong type refuses the game
    (ClassCastException) instead of failing in play. GameParser reads them in two places, each probed on a fresh game
    holding one ``int`` or ``boolean`` property (``property_types``) as uncastable text, the others unset:

    - ``without_technology``: those ``TechAdvance.createDefaultTechAdvances`` reads (a game without ``<technology>``);
    - ``default_technologies``: the built-in technologies it makes, by the flags ``WW2V2,WW2V3`` (``true,false``;
      None where it throws, refusing the game);
    - ``by_technology``: for each built-in technology (by property), those
      ``TechAbilityAttachment.setDefaultTechnologyAttachments`` reads when the game's technologies hold it without a
      ``techAbilityAttachment`` of its own."""
    from jpype import JClass, JException

    game_data = JClass("games.strategy.engine.data.GameData")
    advance = JClass("games.strategy.triplea.delegate.TechAdvance")
    ability = JClass("games.strategy.triplea.attachments.TechAbilityAttachment")
    typed = sorted(name for name, kind in property_types.items() if kind in ("int", "boolean"))

    def read(run) -> list[str]:
        """The typed properties ``run`` (given a fresh game) fails to cast; none when it fails with none uncastable."""
        run(game_data())  # raises if the probe game itself is not enough: then nothing can be told
        found = []
        for name in typed:
            data = game_data()
            data.getProperties().set(name, JClass("java.lang.String")(_UNCASTABLE))
            try:
                run(data)
            except JException as error:
                if str(error.getClass().getName()) == "java.lang.ClassCastException":
                    found.append(name)
                else:
                    raise
        return found

    def defaults(flags: tuple[bool, bool]) -> list[str] | None:
        """None where it throws (both flags: "We should not be using ww2v3 categories if we have custom techs")."""
        data = game_data()
        for name, flag in zip(("WW2V2", "WW2V3"), flags):
            data.getProperties().set(name, JClass("java.lang.Boolean")(flag))
        try:
            advance.createDefaultTechAdvances(data)
        except JException:
            return None
        return sorted(str(tech.getProperty()) for tech in data.getTechnologyFrontier().getTechs())

    def with_technology(key: str):
        def run(data) -> None:
            data.getTechnologyFrontier().addAdvance(advance.findDefinedAdvanceAndCreateAdvance(key, data))
            ability.setDefaultTechnologyAttachments(data)

        return run

    field = advance.class_.getDeclaredField("ALL_PREDEFINED_TECHNOLOGIES")
    field.setAccessible(True)
    keys = sorted(str(key) for key in field.get(None).keySet())
    return {
        "without_technology": read(advance.createDefaultTechAdvances),
        "default_technologies": {f"{str(v2).lower()},{str(v3).lower()}": defaults((v2, v3)) for v2, v3 in product((False, True), repeat=2)},
        "by_technology": {key: found for key in keys if (found := read(with_technology(key)))},
    }


def built_in_relationship_types() -> list[str]:
    """The relationship types every 2.x game has before its own (a fresh ``RelationshipTypeList``'s: the default war
    and allied relations, the self and null ones), which an option may name."""
    from jpype import JClass

    data = JClass("games.strategy.engine.data.GameData")()
    return sorted(str(t.getName()) for t in data.getRelationshipTypeList().getAllRelationshipTypes())


def legacy_option_names(jar: Path) -> dict[str, str]:
    """The option names 2.x renames before it looks them up, by the name in lower case (it matches ignoring case):
    ``LegacyPropertyMapper.mapLegacyOptionName`` asked of each string literal of its class file."""
    from jpype import JClass, JString

    mapper = "games.strategy.engine.data.gameparser.LegacyPropertyMapper"
    method = JClass(mapper).class_.getDeclaredMethod("mapLegacyOptionName", JClass("java.lang.String").class_)
    method.setAccessible(True)
    renamed = {literal: str(method.invoke(None, JString(literal))) for literal in sorted(class_file_strings(jar, mapper))}
    return {literal.lower(): name for literal, name in renamed.items() if name != literal}


def predefined_technologies() -> dict[str, str]:
    """The technologies 2.x has built in, by the property a game's ``techname`` may name one by: its name
    (``TechAdvance``'s private map of them, each made as ``findDefinedAdvanceAndCreateAdvance`` makes it)."""
    from jpype import JClass

    advance = JClass("games.strategy.triplea.delegate.TechAdvance")
    field = advance.class_.getDeclaredField("ALL_PREDEFINED_TECHNOLOGIES")
    field.setAccessible(True)
    data = JClass("games.strategy.engine.data.GameData")()
    found = {}
    for key in field.get(None).keySet():
        made = advance.findDefinedAdvanceAndCreateAdvance(key, data)
        found[str(made.getProperty())] = str(made.getName())
    return found


def derive(jar: Path) -> dict:
    start_jvm(jar)
    delegates, attachments = factory_names()
    return {
        "engine": jar.name,
        "xml": xml_mapping(),
        "delegates": delegates,
        "game_properties": (property_types := game_property_types(jar)),
        "properties_read_at_load": properties_read_at_load(property_types),
        "technologies": predefined_technologies(),
        "legacy_option_names": legacy_option_names(jar),
        "relationship_types": built_in_relationship_types(),
        "support_attachment_prefix": support_attachment_prefix(),
        "old_artillery_support_prefix": old_artillery_support_prefix(),
        "read_unasked": read_unasked(),
        "attachable_types": attachable_types(sorted(filter(None, class_file_strings(jar, "games.strategy.engine.data.gameparser.GameParser")))),
        "attachments": attachment_properties(jar, attachments),
    }


def text_of(tables: dict) -> str:
    return json.dumps(tables, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def derive_main(derive, default_jar: Path, tables: Path, description: str) -> int:  # noqa: ANN001 - derive: jar -> tables
    """The command line of a tables script (this one and derive_engine19_tables.py): derive the tables from a jar and
    write them atomically to --out, or with --check say whether --out is what the jar gives."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("jar", nargs="?", type=Path, default=default_jar)
    parser.add_argument("--out", type=Path, default=tables)
    parser.add_argument("--check", action="store_true", help="exit 1 if --out differs from what the jar gives; write nothing")
    args = parser.parse_args()
    text = text_of(derive(args.jar))
    if args.check:
        same = args.out.is_file() and args.out.read_text(encoding="utf-8") == text
        print(f"{args.out}: {'as' if same else 'NOT as'} {args.jar.name} gives")
        return 0 if same else 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    partial = args.out.with_suffix(".json.partial")
    partial.write_text(text, encoding="utf-8")
    partial.replace(args.out)
    print(f"{args.out}: {len(text):,} bytes from {args.jar.name}")
    return 0


def main() -> int:
    return derive_main(derive, DEFAULT_JAR, TABLES, __doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())

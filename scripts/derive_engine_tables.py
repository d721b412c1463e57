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
  (``MutableProperty.setValue``): ``int`` (``1`` taken and read back as the Integer 1, a word and ``true`` refused:
  ``Integer.parseInt``), ``boolean`` (``true``, ``FALSE`` and ``tRuE`` taken; numbers, words, empty and spaced
  ``true`` refused: ``getBool``),
  ``text`` (anything taken), or
  ``checked`` (read by its own parser, which refuses what names nothing in an empty game); the Java type of the
  field of that name, where there is one; the value a fresh attachment holds (an int, boolean or text); and, for a
  ``checked`` option whose value is only ``:``-separated names of one kind (unit types, territories, players or
  resources, found by setting names on an attachment of a game declaring one of each), that kind (``names``), how
  many names it takes (``parts``: None for any number), whether a whole number may come first (``count_first``) and
  the words it takes alone instead (``words``).
"""

from __future__ import annotations

import argparse
import json
import re
import struct
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from kremlin_triplea.engine.jvm_bridge import triplea2_classpath  # noqa: E402

DEFAULT_JAR = ROOT.parent / "shared" / "triplea-engine-2.7" / "triplea-2.7.15472-headless.jar"
TABLES = ROOT / "src" / "kremlin_triplea" / "check" / "tables" / "triplea2.json"

ELEMENTS = "org.triplea.map.data.elements."
ANNOTATIONS = "org.triplea.generic.xml.reader.annotations."
ATTACHMENTS = "games.strategy.triplea.attachments."

#: Values set on a fresh attachment to tell a property's kind (see the module's docstring).
PROBES = ("1", "-7", "0", "word", "yes", "", " true", "true", "FALSE", "tRuE", "ProbeUnit", "ProbeLand", "ProbePlayer", "ProbeResource")
_IDENTIFIER = re.compile(r"[a-zA-Z][a-zA-Z0-9_]*")


def class_file_names(jar: Path, class_name: str) -> set[str]:
    """Every identifier-like UTF-8 constant of ``class_name``'s class file in ``jar`` (names, strings, descriptors' parts)."""
    return {name for text in class_file_texts(jar, class_name) for name in _IDENTIFIER.findall(text)}


def class_file_texts(jar: Path, class_name: str) -> set[str]:
    """Every UTF-8 constant of ``class_name``'s class file in ``jar`` (its strings, names and descriptors)."""
    with zipfile.ZipFile(jar) as archive:
        data = archive.read(class_name.replace(".", "/") + ".class")
    count = struct.unpack_from(">H", data, 8)[0]
    offset, index, found = 10, 1, set()
    sizes = {3: 4, 4: 4, 5: 8, 6: 8, 7: 2, 8: 2, 9: 4, 10: 4, 11: 4, 12: 4, 15: 3, 16: 2, 17: 4, 18: 4, 19: 2, 20: 2}
    while index < count:
        tag = data[offset]
        if tag == 1:
            length = struct.unpack_from(">H", data, offset + 1)[0]
            found.add(data[offset + 3 : offset + 3 + length].decode("utf-8", "replace"))
            offset += 3 + length
        else:
            offset += 1 + sizes[tag]
        index += 2 if tag in (5, 6) else 1
    return found


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
    if taken["1"] and not (taken["word"] or taken["true"] or taken["FALSE"]) and _is(read["1"], "java.lang.Integer", 1):
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


def _is(value, java_type: str, expected) -> bool:
    """Whether ``value`` (what a property's getter gave) is the Java ``java_type`` holding ``expected``."""
    return (
        value is not None
        and str(value.getClass().getName()) == java_type
        and (value.intValue() if java_type.endswith("Integer") else bool(value.booleanValue())) == expected
    )


#: Words an option of names may take instead of a name (each tried: those it takes are kept in ``words``).
WORDS = ("true", "false", "TRUE", "FALSE", "all", "ALL", "none", "NONE", "each", "controlled", "original", "map", "enemy")

#: The one name of each kind the game of the reference probes declares (see ``_names_of``).
NAMED = {"unit type": "ProbeUnit", "territory": "ProbeLand", "player": "ProbePlayer", "resource": "ProbeResource"}


def _game_with_one_of_each():
    """A game declaring one unit type, territory, player and resource (``NAMED``), nothing else."""
    from jpype import JClass

    data = JClass("games.strategy.engine.data.GameData")()
    data.getUnitTypeList().addUnitType(JClass("games.strategy.engine.data.UnitType")(NAMED["unit type"], data))
    data.getMap().addTerritory(JClass("games.strategy.engine.data.Territory")(NAMED["territory"], data))
    data.getPlayerList().addPlayerId(JClass("games.strategy.engine.data.GamePlayer")(NAMED["player"], data))
    data.getResourceList().addResource(JClass("games.strategy.engine.data.Resource")(NAMED["resource"], data))
    return data


def _names_of(mapper, java_class: str, name: str) -> dict | None:
    """What a ``checked`` option's value names, when it is only ``:``-separated names of one kind: the kind, how
    many names it takes (1 to 3 tried; None when any of them) and whether a whole number may come first. Each kind's
    name is set alone, twice and three times (``A:A``), and an unknown name in each of those places refused."""
    from jpype import JClass

    def taken(value: str) -> bool:
        data = _game_with_one_of_each()
        try:
            mapper.newAttachment(java_class, "probe", None, data).get().getPropertyOrEmpty(name).get().setValue(JClass("java.lang.String")(value))
        except Exception:  # noqa: BLE001 - a refusal is the answer sought
            return False
        return True

    if taken("ProbeNothing"):
        return None
    found = []
    for kind, known in NAMED.items():
        parts = [n for n in (1, 2, 3) if taken(":".join([known] * n))]
        if parts and not any(taken(":".join([known] * (n - 1) + ["ProbeNothing"])) for n in parts):
            words = sorted(word for word in WORDS if taken(word))
            found.append({"names": kind, "parts": None if parts == [1, 2, 3] else parts, "count_first": taken(f"1:{known}"), "words": words})
    return found[0] if len(found) == 1 else None


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
        properties = {}
        for name in sorted(candidates):
            if not make().getPropertyOrEmpty(name).isPresent():
                continue
            kind = _kind(make, name)
            properties[name] = {"kind": kind, "java_type": field_types.get(name), "default": _default(make, name)}
            if kind == "checked" and (names := _names_of(mapper, java_class, name)):
                properties[name].update(names)
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
        "game_properties": game_property_types(jar),
        "technologies": predefined_technologies(),
        "attachments": attachment_properties(jar, attachments),
    }


def text_of(tables: dict) -> str:
    return json.dumps(tables, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("jar", nargs="?", type=Path, default=DEFAULT_JAR)
    parser.add_argument("--out", type=Path, default=TABLES)
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


if __name__ == "__main__":
    sys.exit(main())

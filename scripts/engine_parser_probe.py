"""What TripleA 2.x's GameParser reads without asking whether the file has it, found by asking it (issue 44 a).

scripts/derive_engine_tables.py calls :func:`read_unasked` in the 2.x JVM it runs. The probe game
(scripts/parser_probe_game.xml) is a game 2.x reads that holds an element of every class the XML mapping reads from
``<game>`` and every attribute of each (checked first against the mapping: a class or attribute it lacks is an
error, so that a later engine's new one is probed, not missed). Each element is taken away in turn, and each
attribute of each element (an empty text attribute is read as none: reading27), and 2.x parses what is left; the
innermost cause of its refusal (``GameParser.parse`` logs it) says why:

- thrown in ``DefaultNamed``'s constructor: the element is made a named thing, which cannot be nameless
  (``checkNotNull``): ``named``, by path, with the engine's class of it (``Territory``, ``RepairFrontier``);
- another NullPointerException: 2.x read it without asking (a section: ``sections``; an attribute: ``attributes``,
  by path);
- a refusal whose message ends in ``null``: 2.x looked the attribute's name up without asking whether there was
  one (``Could not find territory: null``): ``looked_up``, by path (check/name_checks.py's references);
- anything else is another check's, and no refusal is none.

Paths are from ``<game>``, spelt as validate's tree spells them (check/reading27.py).
"""

from __future__ import annotations

import copy
import tempfile
from pathlib import Path

from lxml import etree

PROBE_GAME = Path(__file__).resolve().parent / "parser_probe_game.xml"
DEFAULT_NAMED = "games.strategy.engine.data.DefaultNamed"
NULL_POINTER = "java.lang.NullPointerException"


def _path(element: etree._Element) -> str:
    return "/".join(e.tag for e in reversed([element, *element.iterancestors()][:-1]))


def mapping_paths() -> dict[str, set[str]]:
    """Every path the mapping reads from ``<game>`` (each class once, by its first names) with its attributes."""
    from kremlin_triplea.check.reading27 import _classes

    classes = _classes()
    found: dict[str, set[str]] = {}

    def walk(name: str, path: list[str], seen: frozenset[str]) -> None:
        found["/".join(path)] = {spelling for spelling, *_ in classes[name].attributes}
        for tag, (child, _field, _list) in classes[name].spelt.items():
            if child not in seen:
                walk(child, [*path, tag], seen | {child})

    walk("Game", [], frozenset({"Game"}))
    del found[""]
    return found


def _missing(game: etree._Element) -> list[str]:
    """What the mapping reads that the probe game lacks: paths, and attributes as path@name."""
    held: dict[str, set[str]] = {}
    for element in game.iter(etree.Element):
        if element is not game:
            held.setdefault(_path(element), set()).update(element.attrib)
    return [
        f"{path}@{name}" if path in held else path
        for path, attributes in mapping_paths().items()
        for name in (sorted(attributes - held[path]) if path in held else [None])
    ]


class _Parser:
    """2.x's GameParser on one edited probe game at a time, saying the innermost cause of its refusal."""

    def __init__(self, folder: Path) -> None:
        from jpype import JClass

        self.file = folder / "probe.xml"
        self.path = JClass("java.io.File")(str(self.file)).toPath()
        self.parser = JClass("games.strategy.engine.data.gameparser.GameParser")
        factory = JClass("org.slf4j.LoggerFactory")
        self.appender = JClass("ch.qos.logback.core.read.ListAppender")()
        self.appender.setContext(factory.getILoggerFactory())
        self.appender.start()
        logger = factory.getLogger("games.strategy.engine.data.gameparser.GameParser")
        logger.setLevel(JClass("ch.qos.logback.classic.Level").ERROR)  # its refusals (the tables' script silences the rest)
        logger.setAdditive(False)
        logger.addAppender(self.appender)

    def refusal(self, game: etree._Element) -> tuple[str, list[str], str] | None:
        """None where 2.x reads ``game``, else its refusal's innermost cause: its class, frames (class.method) and
        message."""
        self.file.write_bytes(etree.tostring(game, xml_declaration=True, encoding="UTF-8"))
        self.appender.list.clear()
        if self.parser.parse(self.path, False).isPresent():
            return None
        for event in self.appender.list:
            thrown = event.getThrowableProxy()
            while thrown is not None and thrown.getCause() is not None:
                thrown = thrown.getCause()
            if thrown is not None:
                frames = [f.getStackTraceElement() for f in thrown.getStackTraceElementProxyArray()]
                return str(thrown.getClassName()), [f"{f.getClassName()}.{f.getMethodName()}" for f in frames], str(thrown.getMessage())
        return "logged", [], ""


def _named_class(frames: list[str]) -> str | None:
    """The engine's class a refused name was to make: the outermost constructor of the chain from DefaultNamed's
    (which refused it through Guava's checkNotNull), None where DefaultNamed's constructor did not refuse it."""
    start = f"{DEFAULT_NAMED}.<init>"
    if start not in frames:
        return None
    made = DEFAULT_NAMED
    for frame in frames[frames.index(start) + 1 :]:
        if not frame.endswith(".<init>"):
            break
        made = frame.removesuffix(".<init>")
    return made.rsplit(".", 1)[-1]


def read_unasked() -> dict:
    """``named`` (path -> engine class), ``sections`` (paths), ``attributes`` and ``looked_up`` (path -> names): see the module's
    docstring. Runs in a started 2.x JVM."""
    game = etree.parse(str(PROBE_GAME), etree.XMLParser(remove_comments=True)).getroot()
    if missing := _missing(game):
        raise SystemExit(f"{PROBE_GAME.name} lacks what 2.x's mapping reads: {', '.join(missing)}")
    named: dict[str, str] = {}
    sections: set[str] = set()
    attributes: dict[str, set[str]] = {}
    looked_up: dict[str, set[str]] = {}
    with tempfile.TemporaryDirectory(prefix="kremlin-parser-probe-") as folder:
        parser = _Parser(Path(folder))
        if parser.refusal(game) is not None:
            raise SystemExit(f"2.x refuses {PROBE_GAME.name} itself: {parser.refusal(game)}")
        for index, element in enumerate(list(game.iter(etree.Element))[1:], start=1):
            path = _path(element)
            for name in [*element.attrib, None]:
                edited = copy.deepcopy(game)
                target = list(edited.iter(etree.Element))[index]
                if name is None:
                    target.getparent().remove(target)
                else:
                    del target.attrib[name]
                refused = parser.refusal(edited)
                if refused is None:
                    continue
                kind, frames, message = refused
                if name == "name" and (made := _named_class(frames)):
                    named[path] = made
                elif kind == NULL_POINTER and name is None:
                    sections.add(path)
                elif kind == NULL_POINTER:
                    attributes.setdefault(path, set()).add(name)
                elif name is not None and message.endswith("null"):
                    looked_up.setdefault(path, set()).add(name)
    for path in named:  # a name some element of the path makes a named thing of is not also read unasked
        attributes.get(path, set()).discard("name")
    return {
        "named": dict(sorted(named.items())),
        "sections": sorted(sections),
        "attributes": {path: sorted(names) for path, names in sorted(attributes.items()) if names},
        "looked_up": {path: sorted(names) for path, names in sorted(looked_up.items())},
    }


#: How 2.x refuses an attachment's ``type`` it attaches nothing of (GameParser.findAttachment's switch).
NO_SUCH_TYPE = "Type not found to attach to"


def attachable_types(candidates: list[str]) -> list[str]:
    """Which of ``candidates`` (the string literals of GameParser's class file) 2.x takes for an attachment's
    ``type``: the probe game's first attachment given each, and not refused as a type 2.x attaches nothing of (it
    may well be refused otherwise: its ``attachTo`` names no thing of that type). Runs in a started 2.x JVM."""
    game = etree.parse(str(PROBE_GAME), etree.XMLParser(remove_comments=True)).getroot()
    taken = []
    with tempfile.TemporaryDirectory(prefix="kremlin-parser-probe-") as folder:
        parser = _Parser(Path(folder))
        for candidate in candidates:
            edited = copy.deepcopy(game)
            try:
                edited.find("attachmentList/attachment").set("type", candidate)
            except ValueError:
                continue  # a control character (a string concatenation's recipe): no file's attribute holds it
            refused = parser.refusal(edited)
            if refused is None or not refused[2].startswith(NO_SUCH_TYPE):
                taken.append(candidate)
    return taken

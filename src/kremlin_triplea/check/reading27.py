"""A game file as TripleA 2.x's XML mapping reads it, for validate to judge what 2.x reads (issue 44).

2.7 does not read a game as a tree: ``org.triplea.generic.xml.reader.XmlMapper`` walks the file's events and fills
its ``org.triplea.map.data.elements`` classes (their fields and names: the ``xml`` table derived from the engine,
check/engine_tables.py). :func:`read_as_27` runs the same walk over a parsed file and gives the tree of what 2.x
read, each element at its line in the file, so that every check reads what the engine reads:

- a class reads the attributes its fields name, exactly as spelt, the first name of a field's that is there
  (``attachTo`` before the legacy ``attatchTo``); an empty text attribute is read as none (``Strings.emptyToNull``);
- a class with children reads every start tag below it, at any depth, whose local name is one of its children's
  in any case (a known child inside an unknown wrapper is read; ``<Option>`` is an option), and ends at the first
  end tag of its own name in any case (``XmlParser.parse``); a class with no children reads no further, so its
  parent reads what lies inside it;
- a child held in one field (a section of ``<game>``) given twice is the last one (the first is dropped); a
  list's children are read in order;
- body text is what came since the last end tag, trimmed;
- nothing after the end of ``<game>`` is read (the walk has ended), and a document whose root is no ``<game>``
  yields a ``<game>`` of whatever known sections lie inside it.

The tree's tags and attributes are spelt as game.dtd spells them (the checks' paths), whatever the file's case.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Iterator

from lxml import etree

from kremlin_triplea.check.engine_tables import triplea2

#: game.dtd's spelling of a tag where it is not the mapping's name with its first letter in lower case.
DTD_SPELLING = {"TechName": "techname"}


def _spelt(name: str) -> str:
    return DTD_SPELLING.get(name, name[:1].lower() + name[1:])


def _events(root: etree._Element) -> Iterator[tuple[str, etree._Element]]:
    """The file's start and end tags below the document, in order (comments and processing instructions are no
    event the mapping reads)."""
    for event, element in etree.iterwalk(root, events=("start", "end")):
        if isinstance(element.tag, str):
            yield event, element


def _body_text(element: etree._Element) -> str:
    """What XmlParser gives a body-text class at its end tag: the text since the last end tag before it (its last
    child element's), trimmed."""
    return "".join(element.xpath("text()[not(following-sibling::*)]")).strip()


def _local(element: etree._Element) -> str:
    tag = element.tag
    return tag.rsplit("}", 1)[-1] if tag[0] == "{" else tag


class _Class:
    """One class of the mapping, prepared for the walk: its children by upper-case tag, its attributes by field."""

    def __init__(self, entry: dict) -> None:
        self.body_text = entry["body_text"]
        self.reads_on = bool(entry["children"]) or self.body_text
        first = {}
        for name, child in sorted(entry["children"].items(), key=lambda item: -item[1]["rank"]):
            first[child["field"]] = name  # the field's first name: its spelling in the tree
        #: upper-case tag -> (the child's class, its spelling, its field, whether a list)
        self.children = {name.upper(): (child["class"], first[child["field"]], child["field"], child["list"]) for name, child in entry["children"].items()}
        fields: dict[str, list[tuple[int, str, dict]]] = {}
        for name, attribute in entry["attributes"].items():
            fields.setdefault(attribute["field"], []).append((attribute["rank"], name, attribute))
        #: the children spelt as the tree spells them: tag -> (class, field, whether a list)
        self.spelt = {_spelt(spelling): (child_class, field, is_list) for child_class, spelling, field, is_list in self.children.values()}
        #: attributes read under another name than their spelling in the tree (``attatchTo``), and text attributes
        self.aliases = frozenset(name for name, attribute in entry["attributes"].items() if name != attribute["field"])
        self.texts = frozenset(name for name, attribute in entry["attributes"].items() if attribute["type"] == "String")
        #: each attribute's Java type, by its spelling in the tree (its field's)
        self.types = {attribute["field"]: attribute["type"] for attribute in entry["attributes"].values()}
        #: (the attribute's spelling, its names in the order read, whether text, its default)
        self.attributes = []
        for field, names in fields.items():
            names.sort(key=lambda found: found[0])
            spelling = field if any(name == field for _, name, _ in names) else names[0][1]
            text = names[0][2]["type"] == "String"
            self.attributes.append((spelling, tuple(name for _, name, _ in names), text, names[0][2]["default"] if text else None))


@functools.cache  # the tables never change
def _classes() -> dict[str, _Class]:
    return {name: _Class(entry) for name, entry in triplea2()["xml"].items()}


@functools.cache  # the tables never change
def attributes_of_types(*java_types: str) -> dict[str, tuple[str, ...]]:
    """Every attribute the mapping reads into a field of one of ``java_types`` (``int``, ``Boolean``, ...), by the
    path of its element from ``<game>`` as the tree spells them (each class once, by its first names)."""
    classes = _classes()
    found: dict[str, tuple[str, ...]] = {}

    def walk(name: str, path: str, seen: frozenset[str]) -> None:
        typed = tuple(sorted(field for field, java_type in classes[name].types.items() if java_type in java_types))
        if typed:
            found[path] = typed
        for tag, (child, _field, _list) in sorted(classes[name].spelt.items()):
            if child not in seen:
                walk(child, f"{path}/{tag}".lstrip("/"), seen | {child})

    walk("Game", "", frozenset({"Game"}))
    return found


class _Mapper:
    def __init__(self, events: Iterator[tuple[str, etree._Element]]) -> None:
        self.events = events
        self.classes = _classes()

    def read(self, class_name: str, tag: str, spelling: str, start: etree._Element | None, parent: etree._Element | None) -> etree._Element:
        """The element of ``class_name`` the mapping makes from here, called by the name ``tag`` (``start``: the
        start tag it was called at), spelt ``spelling``, the last child of ``parent``."""
        mapped = self.classes[class_name]
        made = etree.Element(_spelt(spelling)) if parent is None else etree.SubElement(parent, _spelt(spelling))
        if start is not None:
            made.sourceline = start.sourceline
            _read_attributes(start, mapped, made)
        if not mapped.reads_on:
            return made
        single: dict[str, etree._Element] = {}
        for event, value in self.events:
            if event == "start":
                found = mapped.children.get(_local(value).upper())
                if found is None:
                    continue
                child_class, spelling, field, is_list = found
                element = self.read(child_class, _local(value), spelling, value, made)
                if not is_list:
                    earlier = single.get(field)
                    if earlier is not None:
                        made.remove(earlier)
                    single[field] = element
            elif _local(value).upper() == tag.upper():
                if mapped.body_text:
                    made.text = _body_text(value)
                return made
        return made


def _read_as_written(
    element: etree._Element, mapped: _Class, tag: str, renamed: list[tuple[etree._Element, _Class]], judged: frozenset[etree._Element] = frozenset()
) -> bool:
    """Whether the mapping reads ``element`` (of the class ``mapped``, called by the name ``tag`` in upper case) and
    everything in it as the tree holds it: each child a child of its class spelt as the tree spells it, a section
    once, no attribute under a legacy name, no empty text attribute; what the mapping skips (an unknown element,
    what lies inside a class that reads no further) holds no tag it would read, nor one that would end ``element``.
    An element with an attribute under a legacy name or an empty text attribute is added to ``renamed``. The children
    in ``judged`` are taken as read as written, unlooked at (a caller that judged the same bytes before)."""
    if _attributes_differ(element, mapped):
        renamed.append((element, mapped))
    classes = _classes()
    seen: set[str] = set()
    for child in element:
        if not isinstance(child.tag, str):
            continue
        found = mapped.spelt.get(child.tag)
        if found is None:
            if not _skipped(child.iter(), mapped, tag):
                return False
            continue
        child_class, field, is_list = found
        if not is_list:
            if field in seen:
                return False
            seen.add(field)
        read = classes[child_class]
        if child in judged:
            continue
        if read.reads_on:
            if not _read_as_written(child, read, child.tag.upper(), renamed):
                return False
            continue
        if _attributes_differ(child, read):
            renamed.append((child, read))
        if len(child) and not _skipped(child.iterdescendants(), mapped, tag):
            return False
    return not (mapped.body_text and len(element))


def _attributes_differ(element: etree._Element, mapped: _Class) -> bool:
    return any(name in mapped.aliases or (value == "" and name in mapped.texts) for name, value in element.items())


def _read_attributes(start: etree._Element, mapped: _Class, made: etree._Element) -> None:
    """``made``'s attributes as the mapping reads ``start``'s (see the module's docstring)."""
    for spelling, names, text, default in mapped.attributes:
        value = next((start.get(name) for name in names if start.get(name) is not None), default)
        if value is not None and not (text and value == ""):  # an empty text is read as none
            made.set(spelling, value)


def _skipped(elements: Iterator[etree._Element], reader: _Class, tag: str) -> bool:
    """Whether ``reader`` (reading the element called ``tag``) passes over all of ``elements``: none is one of its
    children in any case, nor ends it."""
    for element in elements:
        if isinstance(element.tag, str):
            name = _local(element).upper()
            if name in reader.children or name == tag:
                return False
    return True


def sections_as_27(root: etree._Element, judged: frozenset[etree._Element]) -> list[etree._Element] | None:
    """The sections of ``root`` (a ``<game>``) other than ``judged`` as 2.x's mapping reads them, each a copy (with
    its attributes read under their names), in the file's order; None where the mapping does not read ``root`` as
    the tree holds it (:func:`read_as_27` then makes a tree anew). ``judged`` are sections whose bytes, at the same
    lines, the caller found read as written before: they are not looked at, and the cost is that of the others."""
    renamed: list[tuple[etree._Element, _Class]] = []
    if root.tag != "game" or not _read_as_written(root, _classes()["Game"], "GAME", renamed, judged):
        return None
    sections = [s for s in root if isinstance(s.tag, str) and s not in judged]
    copies = [copy.deepcopy(s) for s in sections]
    renamed = [(element, mapped) for element, mapped in renamed if element is not root]
    if renamed:
        # each element's copy, by the element (held by ``renamed`` while this runs: its id is no other's)
        in_copies = {id(o): c for section, copied in zip(sections, copies) for o, c in zip(section.iter(), copied.iter())}
        for element, mapped in renamed:
            _rename(element, mapped, in_copies[id(element)])
    return copies


def _rename(element: etree._Element, mapped: _Class, target: etree._Element) -> None:
    """``target`` (a copy of ``element``) with its attributes read as the mapping reads ``element``'s."""
    written = dict(target.attrib)
    target.attrib.clear()
    for name, value in written.items():
        if name not in mapped.aliases and name not in {spelling for spelling, *_ in mapped.attributes}:
            target.set(name, value)  # what the mapping does not read: as written
    _read_attributes(element, mapped, target)


def read_as_27(root: etree._Element) -> etree._Element:
    """The ``<game>`` TripleA 2.x reads from the document whose root element is ``root`` (see the module's docstring):
    ``root`` itself when the mapping reads it as it is (a game as map makers write them); a copy with the attributes
    read as the mapping reads them when only those differ; else a tree made anew."""
    renamed: list[tuple[etree._Element, _Class]] = []
    if root.tag == "game" and _read_as_written(root, _classes()["Game"], "GAME", renamed):
        if not renamed:
            return root
        copied = copy.deepcopy(root)
        originals = {id(element): index for index, element in enumerate(root.iter())}
        in_copy = list(copied.iter())
        for element, mapped in renamed:
            _rename(element, mapped, in_copy[originals[id(element)]])
        return copied
    game = _Mapper(_events(root)).read("Game", "Game", "Game", None, None)
    game.sourceline = root.sourceline
    return game

"""An XML document that writes back every byte it was not asked to change.

The lxml tree is the model that code reads and edits, but only through the
methods of :class:`XmlDocument` (``set_attribute``, ``append``, ``insert_after``,
``remove``, ``set_text``). Each method records the original state of the
element it touches the first time it touches it. ``to_bytes`` then copies the
original bytes of every untouched element verbatim and re-renders only the
touched tags: an attribute edit rewrites one attribute value in place, a new
element is indented like its neighbours, a removed element takes its own line
with it. Comments, attribute order and quoting, CDATA, character references,
the prolog and the DOCTYPE therefore survive any edit that does not concern
them, and a document with no edits is written back byte for byte.

A write makes its edits inside :meth:`XmlDocument.edits`, which undoes them at
the end (or, for a document other threads read, makes them in a fork): the tree
is never copied for a write of a document nobody shares.
"""

from __future__ import annotations

import bisect
import codecs
import contextlib
import copy
import itertools
import re
import threading
import weakref
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import NamedTuple, NoReturn

import attrs
from lxml import etree

from kremlin_triplea.errors import InputError
from kremlin_triplea.gamefile.safe import parse_xml, read_bytes
from kremlin_triplea.gamefile.taglines import START_TAG as _START_TAG
from kremlin_triplea.gamefile.taglines import START_TAG_OPEN as _START_TAG_OPEN
from kremlin_triplea.gamefile.taglines import Lines, attributes_of, start_on_line

# What is skipped looking for markup: comments, CDATA sections and processing instructions (a "<" inside them begins
# nothing).
_SKIPPED_OPEN = re.compile(rb"<(?:!--|!\[CDATA\[|\?)")
_SKIPPED_CLOSE = {b"<!--": b"-->", b"<![CDATA[": b"]]>", b"<?": b"?>"}
_ELEMENT_COUNT = etree.XPath("count(//*)")
_MATCH_START = re.Match.start
_END_TAG_OR_SKIPPED = re.compile(rb"<!--.*?-->|<!\[CDATA\[.*?\]\]>|<\?.*?\?>|</[^>]*>", re.DOTALL)
_END_TAG = re.compile(rb"</[^>]*>")
_AFTER_ROOT = re.compile(rb"(?:\s+|<!--.*?-->|<\?.*?\?>)*", re.DOTALL)
_ATTRIBUTE = re.compile(rb"""(\s+)([^\s=/>]+)(\s*=\s*)("[^"]*"|'[^']*')""")
_INDENT = re.compile(rb"\n([ \t]*)$")
_SLASH = ord("/")
_BLANKS, _NEWLINE = frozenset(b" \t"), ord("\n")


class Span(NamedTuple):
    """Byte offsets of one element in the source: its start tag and end tag."""

    start: int
    start_tag_end: int
    end_tag_start: int  # equals start_tag_end for a self-closing tag
    end: int

    @property
    def self_closing(self) -> bool:
        return self.start_tag_end == self.end


@attrs.define
class _Touched:
    """What an element was before the first edit that touched it, and the attributes edited since.

    The edits are kept rather than the element's attributes read back: lxml finds an attribute by walking the
    element's list of them, so reading all of an element with 30,000 attributes takes seconds (quadratic). What the
    edits replaced is kept too, so that they can be undone (:meth:`XmlDocument.edits`)."""

    children: list[etree._Element]
    attributes: dict[str, str | None] = attrs.field(factory=dict)  # name -> the value set, or None: removed
    text: tuple[str, bool] | None = None  # the content set by set_text, and whether as CDATA
    replaced: dict[str, str | None] = attrs.field(factory=dict)  # name -> the value before the first edit, or None: absent
    attribute_order: list[str] | None = None  # the attributes' names before the first removal: put back in this order
    nodes: list[etree._Element] | None = None  # every child node (comments too) before the first child edit


class XmlDocument:
    """A parsed XML file plus its original bytes."""

    def __init__(self, data: bytes, *, source: str) -> None:
        self.source = source
        tree = parse_xml(data, where=source)
        encoding = _byte_order_mark_encoding(data) or tree.docinfo.encoding or "UTF-8"
        if not _ascii_compatible(encoding):
            # UTF-16 and the like: the byte-level editing below needs ASCII markup, so the file is
            # carried as UTF-8 (what TripleA's own files use), its declaration saying so.
            data = _as_utf8(data, encoding, where=source)
            tree = parse_xml(data, where=source)
            encoding = "UTF-8"
        self.original = data
        self.tree = tree
        self.root: etree._Element = self.tree.getroot()
        self.encoding = encoding
        self._touched: dict[etree._Element, _Touched] = {}
        self._dirty_paths: set[etree._Element] = set()
        self._dirty_children: dict[etree._Element, list[etree._Element]] = {}
        self._spans: _Spans | None = None
        self._starts: list[int] | None = None
        self._fork_of: weakref.ref[XmlDocument] | None = None
        self._added: set[etree._Element] = set()  # the elements added by edits since (append, insert_after)
        #: Whether other threads may read this document (game.read_game's cache hands it to all): its edits are then
        #: made in a fork, never in it (:meth:`edits`).
        self.shared = False
        self._editing = False
        # A shared document's fork, its edits undone, lent to the next write (one at a time) in the thread that made it,
        # by that thread's id: the copy of the tree and the places of its tags made once, not at every write. Only
        # there: lxml gives a copy the names dictionary of the thread that made it, and an edit adding a name adds it
        # to that dictionary, which libxml2 does not guard against that thread's own parsing meanwhile.
        self._spare: tuple[int, XmlDocument] | None = None
        self._spare_lock = threading.Lock()

    @classmethod
    def read(cls, path: Path | str) -> XmlDocument:
        path = Path(path)
        return cls(read_bytes(path), source=str(path))

    def fork(self) -> XmlDocument:
        """An independent, editable copy of this unedited document, without parsing it again."""
        if self._touched:
            raise RuntimeError("only an unedited document can be forked")
        twin = object.__new__(XmlDocument)
        twin.source, twin.original, twin.encoding = self.source, self.original, self.encoding
        twin.tree = copy.deepcopy(self.tree)
        twin.root = twin.tree.getroot()
        twin._touched, twin._dirty_paths, twin._dirty_children = {}, set(), {}
        twin._spans = None
        twin._starts = None
        # Every tag's place is borrowed from here, if a write needs them and the original is still there: a weak
        # reference, since a shared document keeps its spare fork (edits), and a fork keeping its original back would
        # make the pair a cycle that only the garbage collector frees.
        twin._fork_of = weakref.ref(self)
        twin._added = set()
        twin.shared, twin._editing = False, False
        twin._spare, twin._spare_lock = None, threading.Lock()
        return twin

    @contextlib.contextmanager
    def edits(self) -> Iterator[XmlDocument]:
        """The document to make edits in and write from, for the duration of the ``with``: this unedited document
        itself, every edit undone at the end (the tree is as parsed again, element for element), or a :meth:`fork`
        of it when it is :attr:`shared`, whose readers in other threads must never see an edit: the fork's edits are
        undone in turn and the fork lent to the thread's next write, or made anew when another write has it or the
        write is another thread's. Copying the tree
        for every write was 0.70x lxml's parse of WW2v3-1942 in instructions (issue 45 item 6); the tags' places are
        located once, before the first edit, and serve every later write."""
        if self.shared:
            thread = threading.get_ident()
            with self._spare_lock:
                lent = self._spare[1] if self._spare is not None and self._spare[0] == thread else None
                if lent is not None:
                    self._spare = None
            fork = lent if lent is not None else self.fork()
            try:
                with fork.edits() as edited:
                    yield edited
            finally:
                if not fork._editing and not fork._touched:  # its edits undone (or none made): lent to the next write
                    with self._spare_lock:
                        self._spare = (thread, fork)
            return
        if self._touched or self._editing:
            raise RuntimeError("only an unedited document can be edited and undone")
        self.spans()
        self._editing = True
        try:
            yield self
        finally:
            self._undo()
            self._editing = False

    def _undo(self) -> None:
        """Every edit since the document was read undone: each touched element's attributes and child nodes as they
        were (the same element objects, so what readers hold stays in the tree); a new element leaves with its parent's
        children put back."""
        for element, touched in self._touched.items():
            if touched.nodes is not None:
                element[:] = touched.nodes
            for name, value in touched.replaced.items():
                if value is None:
                    element.attrib.pop(name, None)
                else:
                    element.set(name, value)
            if touched.attribute_order is not None:
                values = [(name, element.get(name)) for name in touched.attribute_order]
                element.attrib.clear()
                for name, value in values:
                    element.set(name, value)
        self._touched, self._dirty_paths, self._dirty_children, self._added = {}, set(), {}, set()

    # -- edits -----------------------------------------------------------

    @property
    def modified(self) -> bool:
        return bool(self._touched)

    def set_attribute(self, element: etree._Element, name: str, value: str) -> None:
        old = element.get(name)
        if old == value:
            return
        touched = self._touch(element)
        touched.replaced.setdefault(name, old)
        touched.attributes[name] = value
        element.set(name, value)

    def remove_attribute(self, element: etree._Element, name: str) -> None:
        if name in element.attrib:
            touched = self._touch(element)
            if touched.attribute_order is None:  # the order read: less any attribute added since (none was removed)
                added = {added for added, value in touched.replaced.items() if value is None}
                touched.attribute_order = [name for name in attributes_of(element) if name not in added]
            touched.replaced.setdefault(name, element.get(name))
            touched.attributes[name] = None
            del element.attrib[name]

    def append(self, parent: etree._Element, child: etree._Element) -> etree._Element:
        """Add ``child`` as the last element of ``parent``."""
        self._touch_children(parent)
        parent.append(child)
        self._added.add(child)
        return child

    def insert_after(self, anchor: etree._Element, child: etree._Element) -> etree._Element:
        """Add ``child`` right after ``anchor``, as its sibling."""
        parent = anchor.getparent()
        assert parent is not None, "cannot insert a sibling of the root element"
        self._touch_children(parent)
        anchor.addnext(child)
        self._added.add(child)
        return child

    def remove(self, element: etree._Element) -> None:
        parent = element.getparent()
        assert parent is not None, "cannot remove the root element"
        self._touch_children(parent)
        spans = self.spans()
        if element in spans:  # located while in the tree: the writer copies the bytes around it
            spans[element]
        parent.remove(element)

    def set_text(self, element: etree._Element, text: str, *, cdata: bool = False) -> None:
        """Replace everything inside ``element`` with ``text`` in what :meth:`to_bytes` writes. The tree keeps the
        text it was read with: nothing reads an element's text back after setting it, and text (CDATA or not, in
        how many nodes) could not be put back as it was read."""
        if len(element):
            raise ValueError(f"<{element.tag}> has child elements; set_text would drop them")
        self._touch(element).text = (text, cdata)

    def _touch(self, element: etree._Element) -> _Touched:
        touched = self._touched.get(element)
        if touched is None:
            # Located while its children are still the original ones: where it ends is found through its last child.
            spans = self.spans()
            if element in spans:  # not one added since
                spans[element]
            touched = _Touched(list(element.iterchildren(etree.Element)))
            self._touched[element] = touched
        return touched

    def _touch_children(self, parent: etree._Element) -> None:
        """Touch ``parent`` before a child is added or removed, keeping its child nodes as they were first."""
        touched = self._touch(parent)
        if touched.nodes is None:
            touched.nodes = list(parent)

    # -- writing ---------------------------------------------------------

    def to_bytes(self) -> bytes:
        if not self._touched:
            return self.original
        spans = self.spans()
        root_span = spans[self.root]
        self._dirty_paths, self._dirty_children = _paths_to(self._touched)
        out = bytearray(self.original[: root_span.start])
        self._emit(self.root, spans, out)
        out += self.original[root_span.end :]
        return bytes(out)

    def spans(self) -> _Spans:
        """Where each original element stands in the original bytes."""
        if self._spans is None:
            if self._touched:
                raise RuntimeError("spans must be located before the first edit")
            self._spans = _Spans(self)
        return self._spans

    def element_starts(self, elements: int | None = None) -> list[int]:
        """Where each element's start tag begins, in document order; a fork's elements stand in the same order as its
        original's, so it borrows them. ``elements``: how many the document had as first read (default: as many as
        it has now, for one not edited)."""
        if self._starts is None:
            original = self._fork_of() if self._fork_of is not None else None
            if original is not None:
                self._starts = original.element_starts()
            else:
                self._starts = _element_starts(self.original, int(_ELEMENT_COUNT(self.root)) if elements is None else elements)
        return self._starts

    def original_elements(self) -> list[etree._Element]:
        """Every element of the document as first read, in document order: a touched element's children as they were
        before its first edit (removed ones too, added ones not), any other's as they are. Where no edit lies within an
        element, its elements are walked by lxml in C (a big game's file falls back here past line 65,534)."""
        on_paths, _ = _paths_to(self._touched)
        found: list[etree._Element] = []
        pending = [self.root]
        while pending:
            element = pending.pop()
            if element not in on_paths:
                found.extend(element.iter(etree.Element))
                continue
            found.append(element)
            touched = self._touched.get(element)
            children = touched.children if touched is not None else list(element.iterchildren(etree.Element))
            pending.extend(reversed(children))
        return found

    def _emit(self, element: etree._Element, spans: _Spans, out: bytearray) -> None:
        span = spans[element]
        touched = self._touched.get(element)
        if element not in self._dirty_paths:
            out += self.original[span.start : span.end]
            return
        start_tag = self.original[span.start : span.start_tag_end]
        if touched is not None and touched.attributes:
            start_tag = _rewrite_start_tag(start_tag, touched.attributes, self.encoding)
        if touched is not None and touched.text is not None:
            if start_tag.endswith(b"/>"):
                start_tag = start_tag[:-2].rstrip() + b">"
            out += start_tag
            out += _serialize_content(_with_text(element, *touched.text), self.encoding)
            out += f"</{element.tag}>".encode(self.encoding)
            return
        current = list(element.iterchildren(etree.Element))
        if span.self_closing:
            if not current:
                out += start_tag
                return
            start_tag = start_tag[:-2].rstrip() + b">"
            out += start_tag
            indent = _indent_before(self.original, span.start)
            self._emit_new_children(current, indent + _indent_unit(self.original), out)
            out += b"\n" + indent + f"</{element.tag}>".encode(self.encoding)
            return
        out += start_tag
        if touched is None:
            self._emit_dirty_children(element, spans, out)
        else:
            self._emit_children(element, touched, current, spans, out)
        out += self.original[span.end_tag_start : span.end]

    def _emit_dirty_children(self, element: etree._Element, spans: _Spans, out: bytearray) -> None:
        """The content of an element no edit touched but some edit lies within: its children are its original ones
        (adding or removing a child touches the parent), so only the children on the way to an edit are looked at,
        in document order, and the bytes between them copied; a parent of 100,000 children is not walked."""
        span = spans[element]
        position = span.start_tag_end
        for child in sorted(self._dirty_children.get(element, ()), key=lambda c: spans[c].start):
            child_span = spans[child]
            out += self.original[position : child_span.start]
            self._emit(child, spans, out)
            position = child_span.end
        out += self.original[position : span.end_tag_start]

    def _emit_children(
        self,
        element: etree._Element,
        touched: _Touched | None,
        current: list[etree._Element],
        spans: _Spans,
        out: bytearray,
    ) -> None:
        span = spans[element]
        original = touched.children if touched else current
        # Sets, not lists: membership is tested once per child, and an element may have 100,000 of them.
        kept, was_there = set(current), set(original)
        # New elements are grouped behind the original element they follow.
        following: dict[etree._Element | None, list[etree._Element]] = {}
        previous_original: etree._Element | None = None
        for child in current:
            # The children it had when first touched are original: a child is added only by touching its parent.
            if child in was_there:
                previous_original = child
            else:
                following.setdefault(previous_original, []).append(child)
        surviving = [c for c in original if c in kept]
        if surviving != [c for c in current if c in was_there]:
            raise ValueError(f"<{element.tag}>: reordering original elements is not supported")

        child_indent = _child_indent(self.original, span, original, spans)
        last_kept = surviving[-1] if surviving else None
        # Elements added after the last original one go after everything else
        # (comments included), on their own lines before the closing tag's line.
        trailing = following.pop(last_kept, [])
        position = span.start_tag_end
        self._emit_new_children(following.get(None, []) if last_kept is not None else [], child_indent, out)
        dirty = self._dirty_paths
        for child in original:
            if child in kept and child not in dirty and child not in following:
                continue  # unchanged, nothing after it: copied with the run of bytes it belongs to
            child_span = spans[child]
            gap = self.original[position : child_span.start]
            if child in kept:
                out += gap
                self._emit(child, spans, out)
                self._emit_new_children(following.get(child, []), child_indent, out)
            else:
                # Drop the removed element's own line: the whitespace run before it.
                out += _strip_trailing_line_whitespace(gap)
            position = child_span.end
        closing_gap = self.original[position : span.end_tag_start]
        content = _strip_trailing_line_whitespace(closing_gap)
        out += content
        self._emit_new_children(trailing, child_indent, out)
        closing_line = closing_gap[len(content) :]
        if trailing and not closing_line.startswith(b"\n"):
            closing_line = b"\n" + _indent_before(self.original, span.start)
        out += closing_line

    def _emit_new_children(self, children: list[etree._Element], indent: bytes, out: bytearray) -> None:
        for child in children:
            out += b"\n" + indent + _serialize_new(child, indent, _indent_unit(self.original), self.encoding)


def _byte_order_mark_encoding(data: bytes) -> str | None:
    """UTF-32 or UTF-16 when the file starts with their byte order mark (a file may say so without a declaration)."""
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return "UTF-32"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "UTF-16"
    return None


def _ascii_compatible(encoding: str) -> bool:
    try:
        return "<a b='c'/>\n".encode(codecs.lookup(encoding).name) == b"<a b='c'/>\n"
    except (LookupError, UnicodeError):
        return False


def _as_utf8(data: bytes, encoding: str, *, where: str) -> bytes:
    """``data`` (in ``encoding``, which is not ASCII-compatible) as UTF-8, its declaration changed to match."""
    try:
        text = data.decode(codecs.lookup(encoding).name)
    except (LookupError, UnicodeError) as error:
        raise InputError(f"cannot decode the file as {encoding}: {error}", where=where) from None
    text = text.removeprefix("\ufeff")
    text = re.sub(r"""^(<\?xml[^>]*?encoding\s*=\s*)(["'])[^"']*\2""", r"\1\2UTF-8\2", text, count=1)
    return text.encode("utf-8")


def _paths_to(touched: Iterable[etree._Element]) -> tuple[set[etree._Element], dict[etree._Element, list[etree._Element]]]:
    """The touched elements and their ancestors, and each one's children among them: the paths from the root to the
    edits, each element on them once."""
    on_paths: set[etree._Element] = set()
    children: dict[etree._Element, list[etree._Element]] = {}
    for element in touched:
        node: etree._Element | None = element
        while node is not None and node not in on_paths:
            on_paths.add(node)
            parent = node.getparent()
            if parent is not None:
                children.setdefault(parent, []).append(node)
            node = parent
    return on_paths, children


def _element_starts(data: bytes, elements: int) -> list[int]:
    """Where each of the ``elements`` elements' start tag begins in ``data``, in document order, in time linear in
    the file.

    Every ``<`` outside comments, CDATA sections and processing instructions begins markup (XML allows none in text
    or attribute values), and the markup a name follows is a start tag: each ``<`` followed by neither ``!``, ``?``
    nor ``/`` is found by one regular expression (one pass in C). Only when that finds more than ``elements`` (a
    ``<`` inside a comment, CDATA section or PI: commented-out XML, HTML notes) are those struck out. Matching every
    tag whole and pairing them in Python took longer than lxml's parse of the file, and splitting the file at every
    ``<`` and telling the pieces apart in Python nearly half of it (issue 45 item 6)."""
    starts = list(map(_MATCH_START, _START_TAG_OPEN.finditer(data)))  # each match's start read in C, not a Python loop: half the time
    if len(starts) != elements:
        for start, end in _skipped(data):
            del starts[bisect.bisect_right(starts, start) : bisect.bisect_left(starts, end)]
    return starts


def _skipped(data: bytes) -> Iterator[tuple[int, int]]:
    """Where each comment, CDATA section and processing instruction begins and ends, in order: each opening found by a
    regular expression, its end by ``bytes.find``, the run after the end searched next. One expression matching them
    whole (``<!--.*?-->|...``) was most of locating the tags of a file with HTML notes (WW2v3-1942: 0.5x lxml's
    parse in instructions); an opening without its end is not one, as it was not a match of that expression."""
    position = 0
    while True:
        opening = _SKIPPED_OPEN.search(data, position)
        if opening is None:
            return
        end = data.find(_SKIPPED_CLOSE[opening.group()], opening.end())
        if end < 0:
            position = opening.start() + 1
            continue
        position = end + len(_SKIPPED_CLOSE[opening.group()])
        yield opening.start(), position


class _Spans:
    """Each original element's :class:`Span`, found when first asked for.

    An element's start tag is read off the line the parser read it on (:func:`~kremlin_triplea.gamefile.taglines.
    start_on_line`) where that is certain, else found by its place in document order among every start tag of the
    file (:func:`_element_starts`, the places numbered over the document as first read, once); its start tag ends where
    the tag's own markup does, and its end tag is the first after the end of its last child. Only the elements on the
    paths to the edits, and the children beside them, are asked for. An element's span is asked for before its first
    edit and before it is removed (:meth:`XmlDocument._touch`, :meth:`XmlDocument.remove`), while its last child is its
    original one; an element no edit touched has its original children still. Finding every start tag of the file for
    a write of WW2v3-1942 with three changes was 0.40x lxml's parse in instructions, reading four lines 0.02x (issue
    45 item 6)."""

    def __init__(self, document: XmlDocument) -> None:
        self._document = weakref.proxy(document)  # which keeps this: a cycle only the garbage collector would free
        self._data, self._source = document.original, document.source
        self._lines = Lines(self._data)
        self._place: dict[etree._Element, int] | None = None  # numbered when a line does not tell
        self._found: dict[etree._Element, Span] = {}

    def _start_of(self, element: etree._Element) -> int:
        start = start_on_line(self._data, self._lines, element, self._document.encoding)
        if start is not None:
            return start
        if self._place is None:
            self._place = dict(zip(self._document.original_elements(), itertools.count()))
            if len(self._place) != len(self._document.element_starts(len(self._place))):
                self._unmatched()
        place = self._place.get(element)
        if place is None:
            raise KeyError(element)
        return self._document.element_starts(len(self._place))[place]

    def _unmatched(self) -> NoReturn:
        raise InputError(
            "could not match the file's tags to its elements, so it cannot be edited in place; save it again from TripleA or an XML editor",
            where=self._source,
        )

    def __getitem__(self, element: etree._Element) -> Span:
        span = self._found.get(element)
        if span is None:
            if element not in self:
                raise KeyError(element)
            start = self._start_of(element)
            tag = _START_TAG.match(self._data, start)
            if tag is None:
                self._unmatched()
            start_tag_end = tag.end()
            if self._data[start_tag_end - 2] == _SLASH:
                span = Span(start, start_tag_end, start_tag_end, start_tag_end)
            else:
                end_tag = self._root_end_tag() if element is self._document.root else None
                if end_tag is None:
                    last = next(element.iterchildren(etree.Element, reversed=True), None)
                    end_tag = self._end_tag_after(self[last].end if last is not None else start_tag_end)
                span = Span(start, start_tag_end, end_tag.start(), end_tag.end())
            self._found[element] = span
        return span

    def _root_end_tag(self) -> re.Match[bytes] | None:
        """The root's end tag read from the end of the file, where only blanks, comments and PIs may follow it (None
        when something else might: it is then found after the root's last child, as any element's). A game's last
        section holds its notes, often most of its bytes: no line of them is counted to reach the end."""
        found = _END_TAG.match(self._data, max(self._data.rfind(b"</"), 0))
        if found is None or _AFTER_ROOT.fullmatch(self._data, found.end()) is None:
            return None
        return found

    def _end_tag_after(self, position: int) -> re.Match[bytes]:
        """The first end tag after ``position``, past any text, comments, CDATA sections and PIs."""
        while True:
            found = _END_TAG_OR_SKIPPED.search(self._data, position)
            if found is None:
                self._unmatched()
            if found.group().startswith(b"</"):
                return found
            position = found.end()

    def __contains__(self, element: object) -> bool:
        """Whether ``element`` is one the file has (in the tree or removed since), not one added since or inside one."""
        if not isinstance(element, etree._Element) or element in self._found:
            return isinstance(element, etree._Element)
        added = self._document._added
        return not added or (element not in added and not any(ancestor in added for ancestor in element.iterancestors()))


def _escape_attribute(value: str, quote: bytes, encoding: str) -> bytes:
    escaped = value.replace("&", "&amp;").replace("<", "&lt;")
    # Attribute-value normalisation would turn raw line breaks and tabs into spaces.
    escaped = escaped.replace("\r", "&#13;").replace("\n", "&#10;").replace("\t", "&#9;")
    escaped = escaped.replace('"', "&quot;") if quote == b'"' else escaped.replace("'", "&apos;")
    return escaped.encode(encoding, "xmlcharrefreplace")


def _rewrite_start_tag(tag: bytes, edits: dict[str, str | None], encoding: str) -> bytes:
    """``tag`` with the edited attributes' values replaced in place (kept byte for byte when the value is the one
    written), removed ones (None) cut, new ones appended; every other attribute is left as it is, in one pass."""
    remaining = {name: value for name, value in edits.items() if value is not None}

    def replace(match: re.Match[bytes]) -> bytes:
        name = match.group(2).decode(encoding)
        if name not in edits:
            return match.group()
        if edits[name] is None:
            return b""
        value = remaining.pop(name)
        quoted = match.group(4)
        quote = quoted[:1]
        if etree.XML("<a v=" + quoted.decode(encoding) + "/>").get("v") == value:
            return match.group()
        return match.group(1) + match.group(2) + match.group(3) + quote + _escape_attribute(value, quote, encoding) + quote

    rewritten = _ATTRIBUTE.sub(replace, tag)
    if not remaining:
        return rewritten
    closing = b"/>" if rewritten.endswith(b"/>") else b">"
    body = rewritten[: -len(closing)].rstrip()
    for name, value in remaining.items():
        body += b" " + name.encode(encoding) + b'="' + _escape_attribute(value, b'"', encoding) + b'"'
    return body + closing


def _serialize_content(element: etree._Element, encoding: str) -> bytes:
    full = etree.tostring(element, encoding=encoding, with_tail=False)
    if full.startswith(b"<?xml"):
        full = full.split(b"?>", 1)[1].lstrip()
    if full.endswith(b"/>"):
        return b""
    return full[full.index(b">") + 1 : full.rindex(b"</")]


def _with_text(element: etree._Element, text: str, cdata: bool) -> etree._Element:
    """A copy of ``element`` whose text is ``text`` (its comments and PIs kept, as lxml's ``.text =`` keeps them)."""
    copied = copy.deepcopy(element)
    copied.text = etree.CDATA(text) if cdata else text
    return copied


def _serialize_new(element: etree._Element, indent: bytes, unit: bytes, encoding: str) -> bytes:
    copy = etree.fromstring(etree.tostring(element, with_tail=False))
    if len(copy):
        etree.indent(copy, space=unit.decode("ascii"))
    text = etree.tostring(copy, encoding=encoding, with_tail=False)
    if text.startswith(b"<?xml"):
        text = text.split(b"?>", 1)[1].lstrip()
    return text.replace(b"\n", b"\n" + indent)


def _indent_before(data: bytes, offset: int) -> bytes:
    """The spaces and tabs that begin the line up to ``offset``, if nothing else stands before it on its line.

    Read backwards over the blanks only: searching back for the line's start crossed, for each of an element's
    children written on one line, every child before it (quadratic: 39 s for 100,000 children)."""
    start = offset
    while start > 0 and data[start - 1] in _BLANKS:
        start -= 1
    return data[start:offset] if start == 0 or data[start - 1] == _NEWLINE else b""


def _indent_unit(data: bytes) -> bytes:
    """The file's indentation step, guessed from its second line that is indented."""
    match = re.search(rb"\n([ \t]+)<", data)
    return match.group(1) if match else b"  "


def _child_indent(data: bytes, span: Span, original: list[etree._Element], spans: _Spans) -> bytes:
    for child in original:
        found = _indent_before(data, spans[child].start)
        if found:
            return found
    return _indent_before(data, span.start) + _indent_unit(data)


def _strip_trailing_line_whitespace(gap: bytes) -> bytes:
    match = _INDENT.search(gap)
    return gap[: match.start()] if match else gap.rstrip(b" \t")

"""Where an element's start tag stands in the bytes, found from the line the parser read it on.

libxml2 keeps, for each element, the line its start tag ends on (lxml's ``sourceline``: the line of its ``>``). The
start tags ending on that line are read off that line alone, so one element is located without finding every tag
before it in the file, which was a third of writing WW2v3-1942 with three changes (the whole file's ``<``s, each a
match object; issue 45 item 6). Only a line whose place is certain is read so: :func:`start_on_line` answers None
(and the caller finds the element the long way, every tag of the file) for a line holding or ending a comment, CDATA
section, processing instruction or DOCTYPE part, for a line number lxml does not give (a copied tree forgets those
beyond 65,534), for a file whose line breaks libxml2 may count otherwise than its ``\\n`` bytes (a lone ``\\r``), for
a namespaced name, for several start tags on the line of which not exactly one reads as the element, and for a tag
that is not the element's.
"""

from __future__ import annotations

import bisect
import re

from lxml import etree

#: A start tag, matched attribute by attribute: a quoted value may hold ">".
START_TAG = re.compile(rb"""<[^!?/][^>"']*(?:(?:"[^"]*"|'[^']*')[^>"']*)*>""")
#: A "<" beginning neither a comment, CDATA, a PI, a DOCTYPE nor an end tag.
START_TAG_OPEN = re.compile(rb"<(?![!?/])")
_ALL_ATTRIBUTES = etree.XPath("@*")
#: Bytes of one block of the line index: the line breaks of each block are counted in C, one ``bytes.count`` each.
_BLOCK = 1024
# What a line is read for: a start tag, the opening of a comment, CDATA section or PI (skipped to its end), a DOCTYPE
# part, or the end of one of them opened on an earlier line.
_MARKUP = re.compile(rb"<(?![/!?])|<!--|<!\[CDATA\[|<\?|<!|-->|\]\]>|\?>")
_SKIPPED_END = {b"<!--": b"-->", b"<![CDATA[": b"]]>", b"<?": b"?>"}
#: libxml2 keeps a line number in 16 bits, the rest beside it, which a copied tree does not copy.
_LAST_LINE_KEPT = 65534
_NAME_END = frozenset(b" \t\r\n/>")


class Lines:
    """Where each line of ``data`` begins: the line breaks counted block by block (in C) as far as a line asked for,
    then found within its block. A game's notes, most of the bytes of many, come last and are seldom counted."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        # Lines numbered as libxml2 numbers them only where every line break is a "\n" (a "\r\n" is one).
        self.usable = b"\r" not in data or data.count(b"\r") == data.count(b"\r\n")
        self._breaks_through: list[int] = []  # line breaks in the blocks counted, up to each, inclusive

    def start(self, line: int) -> int | None:
        """Where line ``line`` (from 1) begins; None beyond the last."""
        if line == 1:
            return 0
        before = line - 1  # the line breaks before it
        counted, data = self._breaks_through, self._data
        while (not counted or counted[-1] < before) and len(counted) * _BLOCK < len(data):
            offset = len(counted) * _BLOCK
            counted.append((counted[-1] if counted else 0) + data.count(b"\n", offset, offset + _BLOCK))
        block = bisect.bisect_left(counted, before)
        if block == len(counted):
            return None
        position = block * _BLOCK - 1
        for _ in range(before - (self._breaks_through[block - 1] if block else 0)):
            position = self._data.find(b"\n", position + 1)
        return position + 1

    def end(self, begin: int) -> int:
        """Where the line beginning at ``begin`` ends: the start of the next, or the end of the data."""
        found = self._data.find(b"\n", begin)
        return len(self._data) if found < 0 else found + 1


def start_on_line(data: bytes, lines: Lines, element: etree._Element, encoding: str) -> int | None:
    """Where ``element``'s start tag begins, read off the line it ends on; None where that is not certain."""
    line, tag = element.sourceline, element.tag
    if not lines.usable or line is None or line > _LAST_LINE_KEPT or not isinstance(tag, str) or tag.startswith("{"):
        return None
    begin = lines.start(line)
    if begin is None:
        return None
    end = lines.end(begin)
    # A start tag begun on an earlier line begins at the last "<" before this one (a tag holds no "<").
    window = begin
    before = data.rfind(b"<", 0, begin)
    if before >= 0 and data[before + 1 : before + 2] not in (b"!", b"?", b"/"):
        straddling = START_TAG.match(data, before)
        if straddling is not None and straddling.end() > begin:
            window = before
    found = _start_tags_ending_in(data, window, end)
    if found is None:
        return None
    name = tag.encode(encoding)
    named = [t for t in found if data.startswith(name, t.start() + 1) and data[t.start() + 1 + len(name)] in _NAME_END]
    if len(found) == 1:
        return named[0].start() if named else None
    return _the_one_read_as(element, named, encoding)


def _start_tags_ending_in(data: bytes, window: int, end: int) -> list[re.Match[bytes]] | None:
    """The start tags from ``window`` that end before ``end``; comments, CDATA sections and PIs opened on the way
    skipped; None where the window may begin inside one of them (it holds an end of one it did not open) or holds a
    DOCTYPE part."""
    found = []
    position = window
    while True:
        markup = _MARKUP.search(data, position, end)
        if markup is None:
            return found
        text = markup.group()
        if text == b"<":
            start_tag = START_TAG.match(data, markup.start())
            if start_tag is None:
                return None
            if start_tag.end() <= end:  # ends on this line: a tag ending on a later line is a later line's element
                found.append(start_tag)
            position = start_tag.end()
        elif text in _SKIPPED_END:
            closing = data.find(_SKIPPED_END[text], markup.end())
            if closing < 0:
                return None
            position = closing + len(_SKIPPED_END[text])
        else:
            return None


def _the_one_read_as(element: etree._Element, candidates: list[re.Match[bytes]], encoding: str) -> int | None:
    """Of several start tags of the element's name on its line, the one whose attributes read as the element's (the
    element as first read: a located element is located before its first edit); None unless exactly one does."""
    wanted = attributes_of(element)
    matching = []
    for candidate in candidates:
        text = candidate.group()
        alone = text if text.endswith(b"/>") else text[:-1] + b"/>"
        try:
            read = etree.fromstring(alone, etree.XMLParser(encoding=encoding, resolve_entities=False, no_network=True))
        except (etree.XMLSyntaxError, LookupError, ValueError):
            return None
        if attributes_of(read) == wanted:
            matching.append(candidate.start())
    return matching[0] if len(matching) == 1 else None


def attributes_of(element: etree._Element) -> dict[str, str]:
    """The element's attributes, in time linear in their number: ``dict(element.attrib)`` and ``element.items()`` look
    each value up by its name again (libxml2 walks the attribute list for each), which took 56 s for an element
    with 32,000 attributes."""
    return {attribute.attrname: str(attribute) for attribute in _ALL_ATTRIBUTES(element)}

"""``validate_tree`` for many versions of one game that differ mostly in their starting state (the option matrix's
written files): what does not read that state is worked out once per distinct text of the rest of the file.

A game's *starting state* is its ``<initialize>`` and ``<propertyList>`` (owners, units, PUs, properties): the
matrix's files change it in every file and the rest (the map, the attachments TripleA makes, the sequence) in a
few. Most checks, and the ``GameIndex`` of declared names and attachments every check reads, read only the rest;
on G40CanadianMod they are nine tenths of a validate.

``Validator.validate`` returns exactly ``validate_tree(root, file, dtd=..., engine=...)``. The checks that do not
read the starting state (``REST_CHECKS``) run on a copy of the file without it (a ``<game>`` holding copies of
every other section, each at its line), so they *cannot* read it, and their findings are kept under the source
text of those sections (the lines from the end of the previous section's start tag to the end of the next one's:
libxml2 gives an element the line where its start tag ends, and a section lies between those two). A later file
whose text there is the same byte for byte, at the same lines, has the same sections at the same lines, so the
same findings. The checks of the starting state run on the whole file every time, with the index (which reads
only the rest: ``DECLARATIONS``, the variables and the attachments) from the copy.
"""

from __future__ import annotations

import copy
from collections import OrderedDict
from itertools import zip_longest
from pathlib import Path

import attrs
from lxml import etree

from kremlin_triplea.check.dtd import find_dtd, source_path
from kremlin_triplea.check.game_index import TRIPLEA_2, GameIndex
from kremlin_triplea.check.number_checks import triplea19_refusals
from kremlin_triplea.check.reading27 import read_as_27, sections_as_27
from kremlin_triplea.check.validate import CHECKS, READS_TECHNOLOGIES, STATE_CHECKS, Problem, assemble, lined, validate_tree
from kremlin_triplea.gamefile.document import attributes_of

#: The sections of ``<game>`` that hold the starting state, which the matrix changes in every file.
STATE_SECTIONS = frozenset({"initialize", "propertyList"})

#: The checks that read only the rest of the file (``numbers_beyond_java_int`` looks at every ``<option>``: it is
#: one of them while the starting state has none, as in every game file TripleA writes).
REST_CHECKS = [check for check in CHECKS if check not in STATE_CHECKS]


def rest_checks(root: etree._Element) -> list:
    """The checks that read only the rest of ``root``: without ``<technology>``, not those that read its
    technologies (``READS_TECHNOLOGIES``: they are then those its WW2V2 and WW2V3 properties make)."""
    if root.find("technology") is not None:
        return REST_CHECKS
    return [check for check in REST_CHECKS if check not in READS_TECHNOLOGIES]


#: How many rests a Validator keeps. The matrix writes the files of one ruleset's game rules together, most of
#: them on that ruleset's rest: on G40CanadianMod 130 of 173 files reuse a rest with four kept, as many as with
#: every rest kept (and the matrix peaks at 182 MB, not 664 MB).
KEPT = 4

Lined = list[tuple[int | None, str]]


class Validator:
    """Validates files of one game with the findings of the unchanged sections kept from file to file."""

    def __init__(self, dtd: Path | None = None, engine: str = TRIPLEA_2) -> None:
        self.dtd = dtd
        self.engine = engine
        # text of the sections other than the starting state -> (index, each rest check's findings, 1.9's refusals,
        # the rest's tree), the most recently used last: each holds a copy of the game's tree (on G40CanadianMod
        # some 12 MB); a Validator is one thread's (a file's starting state is put in the kept tree while it is judged)
        self._rest: OrderedDict[bytes, tuple[GameIndex, dict, Lined, etree._Element]] = OrderedDict()
        self.reused = 0  # files whose rest was validated before (for the benchmark figures)

    def validate(self, source: bytes, root: etree._Element, file: str) -> list[Problem]:
        """``validate_tree(root, file, dtd=self.dtd, engine=self.engine)``; ``root`` is ``source`` parsed."""
        key = _rest_key(source, root)
        if key is None or any(True for s in root if s.tag in STATE_SECTIONS for _ in s.iter("option")):
            return validate_tree(root, file, dtd=self.dtd, engine=self.engine)
        if key in self._rest:
            found = self._validate_state(root, key)
            if found is None:
                return validate_tree(root, file, dtd=self.dtd, engine=self.engine)
            self.reused += 1
            self._rest.move_to_end(key)
        else:
            # 2.x judges the tree its mapping reads: the file itself, or a copy with attributes read under other
            # names (G40CanadianMod), whose elements stand where the file's do, so the rest's findings still follow
            # its text. A tree the mapping made anew is judged whole.
            read = read_as_27(root) if self.engine == TRIPLEA_2 else root
            if not _element_for_element(read, root):
                return validate_tree(root, file, dtd=self.dtd, engine=self.engine)
            self._rest[key] = self._validate_rest(root, read)
            if len(self._rest) > KEPT:
                self._rest.popitem(last=False)
            index, rest, _refusals, _tree = self._rest[key]
            game = attrs.evolve(index, root=read)
            found = {check: rest[check] if check in rest else lined(check(game)) for check in CHECKS}
        dtd = find_dtd(self.dtd, game_file=source_path(root, file))
        return assemble(file, found, self._rest[key][2], self.engine, root, dtd)

    def _validate_state(self, root: etree._Element, key: bytes) -> dict | None:
        """Every check's findings on ``root``, whose rest is ``key``'s: the rest checks' as kept, the starting
        state's checks run on the kept rest with ``root``'s starting state as 2.x reads it put in its place (a copy
        of those sections only: the rest's bytes, at the same lines, are read as they were); None where the mapping
        does not read the file as the tree holds it."""
        index, rest, _refusals, tree = self._rest[key]
        state = [s for s in root if isinstance(s.tag, str) and s.tag in STATE_SECTIONS]
        if self.engine == TRIPLEA_2:
            read = sections_as_27(root, frozenset(s for s in root if isinstance(s.tag, str) and s.tag not in STATE_SECTIONS))
            if read is None or not all(_element_for_element(r, s) for r, s in zip(read, state)):
                return None
        else:
            read = [copy.deepcopy(s) for s in state]
        sections = [s for s in root if isinstance(s.tag, str)]
        for section, copied in zip(state, read):
            tree.insert(sections.index(section), copied)
        try:
            game = attrs.evolve(index, root=tree)
            return {check: rest[check] if check in rest else lined(check(game)) for check in CHECKS}
        finally:
            for copied in read:
                tree.remove(copied)

    def _validate_rest(self, root: etree._Element, read: etree._Element) -> tuple[GameIndex, dict, Lined, etree._Element]:
        """The index and the rest checks' findings of the tree 2.x reads, 1.9's refusals of the file's own, and the
        rest (the tree without the starting state) the starting state's checks are run on for the files after."""
        rest = _without_state(read)
        index = GameIndex.of(rest, self.engine)
        found = {check: lined(check(index)) for check in rest_checks(root)}
        return index, found, lined(triplea19_refusals(rest if read is root else _without_state(root))), rest


def _without_state(root: etree._Element) -> etree._Element:
    """A ``<game>`` holding copies of ``root``'s sections other than the starting state, each at its line."""
    rest = etree.Element(root.tag, attributes_of(root))
    for section in root:
        if isinstance(section.tag, str) and section.tag not in STATE_SECTIONS:
            rest.append(copy.deepcopy(section))  # lxml keeps each element's sourceline in the copy
    return rest


def _element_for_element(read: etree._Element, root: etree._Element) -> bool:
    """Whether ``read`` has ``root``'s elements in its order, each with its tag and line (only attributes differ).
    Comments are left out: a copied comment has no line, and no check reads one."""
    if read is root:
        return True
    pairs = zip_longest(read.iter(etree.Element), root.iter(etree.Element))
    return all(a is not None and b is not None and a.tag == b.tag and a.sourceline == b.sourceline for a, b in pairs)


def _rest_key(source: bytes, root: etree._Element) -> bytes | None:
    """The text of ``root``'s children other than the starting state, with their lines (and the text before the
    first child: the declaration, the DOCTYPE and ``<game>``'s own attributes), or None when the lines do not tell
    the sections apart. Kept whole, not as a digest: two rests are the same only when their bytes are."""
    children = list(root)
    lines = [child.sourceline for child in children]
    if not children or None in lines or any(b < a for a, b in zip(lines, lines[1:])) or not _lines_are_bytes(source, root):
        return None
    text = source.split(b"\n")
    if lines[-1] > len(text):
        return None
    ranges = [(1, lines[0])]
    for n, child in enumerate(children):
        if child.tag not in STATE_SECTIONS:
            ranges.append((lines[n - 1] if n else 1, lines[n + 1] if n + 1 < len(children) else len(text)))
    parts = []
    for first, last in ranges:
        parts += [b"%d %d\n" % (first, last), *text[first - 1 : last]]
    return b"\n".join(parts)


def _lines_are_bytes(source: bytes, root: etree._Element) -> bool:
    """Whether every line break of ``source`` is a byte b"\\n" and every such byte a line break (UTF-8, Latin-1 and
    the like), not a UTF-16 file, whose lines the bytes do not show."""
    try:
        newline = "\n".encode(root.getroottree().docinfo.encoding or "UTF-8")
    except LookupError:
        return False
    return newline == b"\n" and b"\x00" not in source

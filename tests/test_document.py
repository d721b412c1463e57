"""The XML layer writes back every byte it was not asked to change."""

from __future__ import annotations

import re
import threading
from pathlib import Path
from xml.sax.saxutils import quoteattr

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from kremlin_triplea.errors import InputError
from kremlin_triplea.game import Game
from kremlin_triplea.gamefile import document as document_module
from kremlin_triplea.gamefile.document import XmlDocument
from kremlin_triplea.model.changes import PlaceUnits, SetOwner, SetPUs
from support.paths import AA50_1942, ALL_GAMES, each_game


def canonical(element: etree._Element) -> tuple:
    """The element as data, ignoring whitespace-only text (indentation)."""
    text = (element.text or "").strip() if isinstance(element.tag, str) else element.text
    children = tuple(canonical(c) for c in element if isinstance(c.tag, str))
    return (element.tag, tuple(sorted(element.attrib.items())), text, children)


def reread(document: XmlDocument) -> etree._Element:
    return XmlDocument(document.to_bytes(), source="output").root


@pytest.mark.parametrize("path", each_game(ALL_GAMES))
def test_unchanged_file_is_written_back_byte_identical(path: Path) -> None:
    document = XmlDocument.read(path)
    assert document.to_bytes() == path.read_bytes()


@pytest.mark.slow  # keeps the quick subset under a minute; CI runs it
@pytest.mark.parametrize("path", each_game(ALL_GAMES))
def test_edits_change_exactly_what_they_say(path: Path) -> None:
    document = XmlDocument.read(path)
    root = document.root
    elements = [e for e in root.iter() if isinstance(e.tag, str)]
    first_leaf = next(e for e in elements[1:] if len(e) == 0)
    document.set_attribute(first_leaf, "kremlinMark", 'a "quoted" & <odd> value')
    parent_with_children = max(elements, key=len)
    victim = parent_with_children[len(parent_with_children) // 2]
    while not isinstance(victim.tag, str):
        victim = victim.getnext()
    document.remove(victim)
    added = document.append(parent_with_children, etree.Element("kremlinAdded", {"n": "1"}))
    nested = etree.Element("kremlinNested")
    etree.SubElement(nested, "option", name="x", value="y")
    document.insert_after(added, nested)

    expected = canonical(root)
    output = document.to_bytes()
    assert canonical(reread(document)) == expected
    # Everything before the first edited element is untouched, byte for byte.
    first_edit = min(document.spans()[e].start for e in (first_leaf, victim))
    assert output[:first_edit] == document.original[:first_edit]


def test_attribute_edit_keeps_quoting_order_and_the_rest_of_the_line() -> None:
    data = b"<?xml version='1.0'?>\n<game>\n  <a  z='1'   y=\"2\" />  <!-- keep -->\n</game>\n"
    document = XmlDocument(data, source="t")
    document.set_attribute(document.root[0], "y", "3")
    document.set_attribute(document.root[0], "z", "it's")
    assert document.to_bytes() == (b"<?xml version='1.0'?>\n<game>\n  <a  z='it&apos;s'   y=\"3\" />  <!-- keep -->\n</game>\n")


def test_removed_element_takes_its_line_and_new_one_copies_indentation() -> None:
    data = b"<game>\n    <a/>\n    <b/>\n    <!-- c -->\n</game>"
    document = XmlDocument(data, source="t")
    document.remove(document.root[0])
    document.append(document.root, etree.Element("d"))
    assert document.to_bytes() == b"<game>\n    <b/>\n    <!-- c -->\n    <d/>\n</game>"


def test_a_removed_section_with_children_takes_its_lines() -> None:
    # The places of a section's elements are numbered when first asked for (issue 45 item 6): a section removed
    # whole is located from its own elements, numbered after it left the tree.
    data = b"<game>\n    <a>\n        <b/>\n        <c>x</c>\n    </a>\n    <d/>\n</game>"
    document = XmlDocument(data, source="t")
    document.remove(document.root[0])
    assert document.to_bytes() == b"<game>\n    <d/>\n</game>"


def test_self_closing_parent_opens_up_for_a_new_child() -> None:
    data = b"<game>\n  <list/>\n</game>"
    document = XmlDocument(data, source="t")
    new = etree.Element("item")
    etree.SubElement(new, "option", name="n")
    document.append(document.root[0], new)
    assert document.to_bytes() == (b'<game>\n  <list>\n    <item>\n      <option name="n"/>\n    </item>\n  </list>\n</game>')


def test_set_text_writes_cdata_and_keeps_neighbours() -> None:
    data = b'<game>\n  <p name="notes"><value><![CDATA[old <b>]]></value></p>\n  <q/>\n</game>'
    document = XmlDocument(data, source="t")
    document.set_text(document.root[0][0], "new <i>notes</i>", cdata=True)
    assert document.to_bytes() == (b'<game>\n  <p name="notes"><value><![CDATA[new <i>notes</i>]]></value></p>\n  <q/>\n</game>')


def test_utf8_bom_and_non_ascii_survive_an_edit() -> None:
    data = '\ufeff<?xml version="1.0"?>\n<game>\n  <t name="Ålesund"/>\n</game>'.encode()
    document = XmlDocument(data, source="t")
    document.set_attribute(document.root[0], "owner", "Nørge")
    assert document.to_bytes() == '\ufeff<?xml version="1.0"?>\n<game>\n  <t name="Ålesund" owner="Nørge"/>\n</game>'.encode()


def test_entity_declarations_are_refused() -> None:
    bomb = b'<?xml version="1.0"?><!DOCTYPE game [<!ENTITY a "xxxxxxxx"><!ENTITY b "&a;&a;&a;">]><game>&b;</game>'
    with pytest.raises(InputError, match="declares XML entities"):
        XmlDocument(bomb, source="bomb.xml")


def test_external_entities_are_never_resolved(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET")
    data = f'<?xml version="1.0"?><!DOCTYPE game [<!ENTITY s SYSTEM "file://{secret}">]><game>&s;</game>'
    with pytest.raises(InputError, match="declares XML entities"):
        XmlDocument(data.encode(), source="x.xml")


def test_malformed_xml_names_file_and_line() -> None:
    with pytest.raises(InputError, match=r"^broken.xml:3: malformed XML"):
        XmlDocument(b"<game>\n<a>\n</b>\n</game>", source="broken.xml")


def test_oversized_file_is_refused(tmp_path: Path) -> None:
    from kremlin_triplea.gamefile.safe import read_bytes

    big = tmp_path / "big.xml"
    big.write_bytes(b"<game>" + b" " * 2000 + b"</game>")
    with pytest.raises(InputError, match="TripleA would load it, but this tool reads no game file beyond 1,000 bytes"):
        read_bytes(big, max_bytes=1000)


BASE = XmlDocument.read(AA50_1942)
BASE_ELEMENTS = [e for e in BASE.root.iter() if isinstance(e.tag, str)]


def _edits_of(kinds: list[str]) -> st.SearchStrategy[tuple[str, int, str]]:
    """An edit of one of ``kinds``, as ``_edit`` makes it: the kind, the element's place in document order, a value."""
    return st.tuples(st.sampled_from(kinds), st.integers(0, len(BASE_ELEMENTS) - 1), st.text(max_size=8))


_EDIT = _edits_of(["set", "unset", "remove", "append", "after", "text"])
#: The edits the tree itself shows: a text set is kept for the writer, not put in the tree (XmlDocument.set_text).
_TREE_EDIT = _edits_of(["set", "unset", "remove", "append", "after"])


def _edit(document: XmlDocument, edits: list[tuple[str, int, str]]) -> None:
    """Make ``edits`` (by each element's place in document order) in ``document``, skipping what cannot be made."""
    elements = [e for e in document.root.iter() if isinstance(e.tag, str)]
    removed: set[etree._Element] = set()
    for kind, index, value in edits:
        element = elements[index]
        if any(a in removed for a in element.iterancestors()) or element in removed:
            continue
        value = re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]", "", value)
        if kind == "set":
            document.set_attribute(element, "name" if value[:1] < "m" else "value", value)
        elif kind == "unset" and element.attrib:
            document.remove_attribute(element, next(iter(element.attrib)))
        elif kind == "remove" and element is not document.root:
            document.remove(element)
            removed.add(element)
        elif kind == "append":
            document.append(element, etree.Element("added", v=value))
        elif kind == "after" and element is not document.root:
            document.insert_after(element, etree.Element("after", v=value))
        elif kind == "text" and not len(element) and "]]>" not in value:
            document.set_text(element, value, cdata=value[:1] < "m")


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.lists(_TREE_EDIT, max_size=12))
def test_any_sequence_of_edits_reads_back_as_the_edited_tree(edits: list[tuple[str, int, str]]) -> None:
    document = XmlDocument(BASE.original, source="t")
    _edit(document, edits)
    assert canonical(reread(document)) == canonical(document.root)


def test_a_fork_edits_independently_and_writes_like_a_fresh_parse() -> None:
    original = XmlDocument.read(AA50_1942)
    fork = original.fork()
    fresh = XmlDocument(original.original, source="fresh")
    for document in (fork, fresh):
        finland = next(e for e in document.root.iter("unitPlacement") if e.get("territory") == "Finland")
        document.set_attribute(finland, "quantity", "9")
        document.remove(next(document.root.iter("territoryOwner")))
    assert fork.to_bytes() == fresh.to_bytes() != original.original
    assert original.to_bytes() == original.original and not original.modified
    assert original.fork().to_bytes() == original.original


@settings(max_examples=40, deadline=None)
@given(st.lists(_EDIT, max_size=10), st.lists(_EDIT, max_size=10))
def test_edits_made_in_the_document_itself_write_as_a_fork_and_are_undone(first: list[tuple[str, int, str]], second: list[tuple[str, int, str]]) -> None:
    """XmlDocument.edits lends an unshared document itself, edits undone at the end (issue 45 item 6: no copy of the
    tree per write): what is written is what a fork of it with the same edits writes, and after the ``with`` the tree
    is the parsed one, the same element objects in the same order with the same attributes in their order, so the
    next edits write what they write on a fresh parse."""
    document = XmlDocument(BASE.original, source="t")
    elements = list(document.root.iter())
    parsed = etree.tostring(document.root)
    for edits in (first, second):
        fork = XmlDocument(BASE.original, source="t").fork()
        _edit(fork, edits)
        with document.edits() as edited:
            assert edited is document
            _edit(edited, edits)
            written = edited.to_bytes()
        assert written == fork.to_bytes()
        assert etree.tostring(document.root) == parsed and list(document.root.iter()) == elements
        assert not document.modified and document.to_bytes() == BASE.original


@settings(max_examples=40, deadline=None)
@given(st.lists(_EDIT, max_size=12), st.integers(2, 5))
def test_edits_write_alike_whether_an_element_is_found_on_its_line_or_among_every_tag(edits: list[tuple[str, int, str]], every: int) -> None:
    """An element whose line does not tell is found among every tag of the file, numbered over the document as first
    read, after any edits made so far (issue 45 item 6): with every ``every``-th line not telling, the same edits write
    the same bytes as with every element found on its line."""
    from kremlin_triplea.gamefile.taglines import start_on_line

    on_lines = XmlDocument(BASE.original, source="t")
    _edit(on_lines, edits)
    mixed = XmlDocument(BASE.original, source="t")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(
            document_module, "start_on_line", lambda data, lines, e, encoding: None if e.sourceline % every == 0 else start_on_line(data, lines, e, encoding)
        )
        _edit(mixed, edits)
        assert mixed.to_bytes() == on_lines.to_bytes()


def test_a_shared_document_is_edited_in_a_fork_copied_once_and_lent_to_one_write_at_a_time() -> None:
    """Other threads read a shared document (game.read_game's cache): its edits are made in a fork, never in it. The
    fork's edits are undone and the fork lent to the next write, so the tree is not copied at every write (issue 45
    item 6); a write while another has it, or in another thread, gets a fork of its own."""
    document = XmlDocument(BASE.original, source="t")
    document.shared = True
    forks = []
    for quantity in ("9", "8"):
        with document.edits() as edited:
            forks.append(edited)
            assert edited is not document
            edited.set_attribute(next(edited.root.iter("unitPlacement")), "quantity", quantity)
            fresh = XmlDocument(BASE.original, source="t")
            fresh.set_attribute(next(fresh.root.iter("unitPlacement")), "quantity", quantity)
            assert edited.to_bytes() == fresh.to_bytes()
            assert not document.modified and next(document.root.iter("unitPlacement")).get("quantity") not in ("9", "8")
            with document.edits() as meanwhile:
                assert meanwhile is not edited and next(meanwhile.root.iter("unitPlacement")).get("quantity") not in ("9", "8")
    assert forks[0] is forks[1] and not forks[0].modified
    in_another_thread: list[XmlDocument] = []

    def write() -> None:
        with document.edits() as edited:
            in_another_thread.append(edited)

    thread = threading.Thread(target=write)
    thread.start()
    thread.join()
    # lxml gives a copy the names dictionary of the thread that made it, and libxml2 does not guard a dictionary
    # against two threads: another thread's write makes its own fork.
    assert in_another_thread[0] is not forks[0]


def test_whitespace_characters_in_attribute_values_survive() -> None:
    document = XmlDocument(b"<game><a v='x'/></game>", source="t")
    document.set_attribute(document.root[0], "v", "a\rb\nc\td")
    assert XmlDocument(document.to_bytes(), source="out").root[0].get("v") == "a\rb\nc\td"


_NAMES = st.sampled_from([f"a{i}" for i in range(12)])


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(_NAMES, st.text("xy &<'\"", max_size=3), max_size=8),
    st.lists(st.tuples(st.sampled_from(["set", "remove"]), _NAMES, st.text("xy &<'\"", max_size=3)), max_size=10),
)
def test_attribute_edits_rewrite_only_the_attributes_edited(start: dict[str, str], edits: list[tuple[str, str, str]]) -> None:
    """The start tag is rewritten from the edits made, not from the element's attributes read back (reading all of
    an element's attributes through lxml is quadratic: 56 s for an element of 32,000, issue 40): whatever the
    sequence of sets, removals and values set back, the tag reads back as the element and every attribute no edit
    named keeps its bytes."""
    tag = "<e" + "".join(f" {name}={quoteattr(value)}" for name, value in start.items()) + "/>"
    document = XmlDocument(f"<game>{tag}</game>".encode(), source="t")
    element = document.root[0]
    for kind, name, value in edits:
        if kind == "set":
            document.set_attribute(element, name, value)
        else:
            document.remove_attribute(element, name)
    written = document.to_bytes()
    assert dict(XmlDocument(written, source="again").root[0].attrib) == dict(element.attrib)
    untouched = [name for name in start if name not in {name for _, name, _ in edits}]
    for name in untouched:
        assert f" {name}={quoteattr(start[name])}".encode() in written


@given(st.binary(max_size=40).map(lambda b: bytes(c for c in b if c in b" \t\nx<")), st.data())
def test_the_indent_before_an_element_is_the_blank_start_of_its_line(data: bytes, draw: st.DataObject) -> None:
    """A new child copies the indentation of the line its neighbour starts (the blanks before it when nothing else
    is); found by reading back over the blanks, not by searching for the line's start (quadratic on one long line)."""
    from kremlin_triplea.gamefile.document import _indent_before

    offset = draw.draw(st.integers(0, len(data)))
    prefix = data[data.rfind(b"\n", 0, offset) + 1 : offset]
    assert _indent_before(data, offset) == (prefix if not prefix.strip() else b"")


def test_markup_inside_comments_cdata_and_instructions_is_not_taken_for_tags() -> None:
    # A "<" inside a comment, a CDATA section or a processing instruction begins no tag (commented-out XML and HTML
    # notes are common in published games), a quoted attribute value may hold ">", and an element's end tag is the
    # first after its last child that no comment holds: each edit below lands on the element it names.
    data = (
        b'<?xml version="1.0"?>\n<?editor <kept a="1"/>?>\n<game>\n'
        b'  <!-- <territoryOwner territory="A" owner="X"/> </game> -->\n'
        b'  <territoryOwner territory="A" owner="Y"/>\n'
        b'  <p name="notes"><value><![CDATA[<b>bold</b> </p>]]></value></p>\n'
        b'  <list when="a>b">\n    <item n="1"/>\n    <!-- </list> <item n="0"/> -->\n  </list>\n'
        b"</game>\n"
    )
    document = XmlDocument(data, source="t")
    owner = document.root.find("territoryOwner")
    document.set_attribute(owner, "owner", "Z")
    listed = document.root.find("list")
    document.set_attribute(listed, "when", "c")
    document.append(listed, etree.Element("item", n="2"))
    assert document.to_bytes() == (
        b'<?xml version="1.0"?>\n<?editor <kept a="1"/>?>\n<game>\n'
        b'  <!-- <territoryOwner territory="A" owner="X"/> </game> -->\n'
        b'  <territoryOwner territory="A" owner="Z"/>\n'
        b'  <p name="notes"><value><![CDATA[<b>bold</b> </p>]]></value></p>\n'
        b'  <list when="c">\n    <item n="1"/>\n    <!-- </list> <item n="0"/> -->\n    <item n="2"/>\n  </list>\n'
        b"</game>\n"
    )


# Markup that begins no element: its "<" and any tag-like text inside it must not be taken for a start tag.
_NOT_ELEMENTS = (
    b"<!-- <a b='1'/> -->",
    b"<!--<x>-->",
    b"<![CDATA[<b>bold</b> </p>]]>",
    b"<?editor <kept a='1'/>?>",
    b"</x-not-here>",  # only as text inside a comment below: an end tag where it stands would be malformed
    b"text &lt;a&gt; ",
    b"\n  ",
)


@st.composite
def _document_with_known_starts(draw: st.DrawFn) -> tuple[bytes, list[int]]:
    """A well-formed document and where its generator put each start tag, in document order."""
    out, starts = bytearray(b'<?xml version="1.0"?>\n'), []

    def element(depth: int) -> None:
        starts.append(len(out))
        # Line breaks inside a start tag too: the parser gives an element the line its tag ends on.
        attribute = draw(st.sampled_from([b"", b" a='x>y'", b' b="<!-- not a comment -->"'.replace(b"<", b"&lt;"), b"\n c='1'\n", b" d='?>'"]))
        name = draw(st.sampled_from([b"e", b"f"]))
        children = draw(st.integers(0, 3 if depth < 3 else 0))
        if not children and draw(st.booleans()):
            out.extend(b"<" + name + attribute + b"/>")
            return
        out.extend(b"<" + name + attribute + b">")
        for _ in range(children):
            for _ in range(draw(st.integers(0, 2))):
                markup = draw(st.sampled_from(_NOT_ELEMENTS))
                out.extend(b"<!--" + markup.replace(b"--", b"") + b"-->" if markup.startswith(b"</") else markup)
            element(depth + 1)
        out.extend(b"</" + name + b">")

    element(0)
    return bytes(out), starts


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(_document_with_known_starts())
def test_each_element_start_is_found_where_its_tag_begins(case: tuple[bytes, list[int]]) -> None:
    """The places the writer copies bytes between are where the start tags stand, comments, CDATA sections and PIs
    holding tag-like text notwithstanding (the generator knows where it put each tag)."""
    from kremlin_triplea.gamefile.document import _element_starts
    from kremlin_triplea.gamefile.taglines import Lines, start_on_line

    data, starts = case
    assert sum(1 for _ in etree.fromstring(data).iter(etree.Element)) == len(starts)
    assert _element_starts(data, len(starts)) == starts
    document = XmlDocument(data, source="t")
    assert document.element_starts() == starts
    # Read off its line, an element is found where its tag begins, or not at all (then found among every tag).
    lines = Lines(data)
    assert all(start_on_line(data, lines, element, "UTF-8") in (None, start) for element, start in zip(document.root.iter(etree.Element), starts))


def test_every_element_of_a_game_is_found_on_its_line() -> None:
    """Each element's start tag is read off the line the parser read it on, where it begins among every tag of the
    file (WW2v3-1942: its 1,711 elements; all 531,446 of the 114 games when measured), so a write finds the few it
    edits without every tag of the file before them (issue 45 item 6)."""
    from kremlin_triplea.gamefile.taglines import Lines, start_on_line

    document = XmlDocument.read(AA50_1942)
    lines = Lines(document.original)
    found = [start_on_line(document.original, lines, element, document.encoding) for element in document.root.iter(etree.Element)]
    assert found == document.element_starts()


def test_a_write_finds_the_elements_it_edits_on_their_lines() -> None:
    """WW2v3-1942 written with three changes (an owner, units, PUs) locates what it edits without numbering every
    element of the file, and writes what a document locating every tag writes."""
    game = Game(XmlDocument.read(AA50_1942))
    game.board.push_all([PlaceUnits("Finland", "Germans", "infantry", 3), SetOwner("Archangel", "Germans"), SetPUs("Russians", 30)])
    written = game.to_bytes()
    assert game.document._spans is not None and game.document._spans._place is None
    every_tag = Game(XmlDocument.read(AA50_1942))
    every_tag.board.push_all(game.board.changes)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(document_module, "start_on_line", lambda *_: None)
        assert every_tag.to_bytes() == written
    assert every_tag.document._spans is not None and every_tag.document._spans._place is not None


# What the writer takes for a comment, a CDATA section or a PI: the first end after the opening, as this expression
# reads it (an opening without an end is none).
_SKIPPED_AS_READ = re.compile(rb"<!--.*?-->|<!\[CDATA\[.*?\]\]>|<\?.*?\?>", re.DOTALL)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([b"<", b"!", b"--", b"-", b"?", b">", b"[CDATA[", b"]]", b"]", b"x", b"\n"]), max_size=40).map(b"".join))
def test_comments_cdata_and_instructions_are_found_where_the_expression_finds_them(data: bytes) -> None:
    """Locating the tags strikes out each '<' inside a comment, CDATA section or PI; they are found by their
    openings and ends (bytes.find) rather than by the expression matching them whole, which was most of the cost of
    locating a file with HTML notes (issue 45 item 6): the same places, for any bytes."""
    from kremlin_triplea.gamefile.document import _skipped

    assert list(_skipped(data)) == [(found.start(), found.end()) for found in _SKIPPED_AS_READ.finditer(data)]


def test_a_shared_document_and_its_spare_fork_are_freed_without_the_garbage_collector() -> None:
    """A shared document keeps the fork it lends to writes (issue 45 item 6); the fork does not keep it back, so a
    game the cache lets go of frees its two trees at once, not at the collector's next full pass."""
    import gc
    import weakref

    document = XmlDocument(BASE.original, source="t")
    document.shared = True
    with document.edits() as edited:
        edited.set_attribute(next(edited.root.iter("unitPlacement")), "quantity", "9")
    trees = [weakref.ref(document), weakref.ref(document._spare[1])]
    enabled = gc.isenabled()
    gc.disable()
    try:
        del document, edited
        assert [tree() for tree in trees] == [None, None]
    finally:
        if enabled:
            gc.enable()

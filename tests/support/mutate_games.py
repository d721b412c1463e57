"""Random edits of a real game file, for validate's generative differential against TripleA 2.7 (issue 44).

:func:`mutated` makes one edit of a game, drawn from ``random.Random``: any element, attribute, text or structure
(an attribute set to a value from a wide alphabet: other case, spaces, Unicode digits, signs, words, empty, huge,
another name of the game; removed or renamed; an element removed, duplicated, wrapped, moved, renamed; an option
added with a name the engine knows or not). :func:`mutations` is the hypothesis strategy of them. The same game and
seed give the same bytes.
"""

from __future__ import annotations

import copy
import functools
import random
from pathlib import Path

import attrs
from hypothesis import strategies as st
from lxml import etree

from kremlin_triplea.check.engine_tables import triplea2

WORDS = ("true", "false", "TRUE", "False", "yes", "no", "maybe", "sure", "none", "NONE", "all", "null", "x", "Neutral", "unitType", "territory")
NUMBERS = ("0", "1", "-1", "2", "+3", "007", "-0", "2147483647", "2147483648", "-2147483649", "4294967296", "1.5", "1e3", "0x10", "٣", "３", "𝟗", "1_000")
SPACES = (" ", "  ", "\t", "\n", "\u00a0")
WRAPPERS = ("wrap", "extra", "group", "Map", "option", "GAME")


@attrs.frozen
class Mutation:
    base: Path
    seed: int
    what: str  # the edit, in words
    data: bytes


@functools.cache
def _tree_bytes(path: Path) -> bytes:
    return path.read_bytes()


def _parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=True, remove_comments=False)


def _value(rng: random.Random, old: str, names: list[str]) -> str:
    kind = rng.randrange(9)
    if kind == 0:
        return rng.choice(WORDS)
    if kind == 1:
        return rng.choice(NUMBERS)
    if kind == 2:
        return old.upper() if rng.random() < 0.5 else old.lower() or old.swapcase()
    if kind == 3:
        return rng.choice(SPACES) + old if rng.random() < 0.5 else old + rng.choice(SPACES)
    if kind == 4:
        return ""
    if kind == 5:
        return rng.choice(names) if names else old
    if kind == 6:
        return ":".join(rng.choice(names or [old]) for _ in range(rng.randint(1, 3)))
    if kind == 7:
        return old[:-1] if len(old) > 1 else old + "x"  # a misspelling
    return str(rng.choice((-1, 1)) * rng.randrange(10 ** rng.randint(0, 12)))


def _option_name(rng: random.Random) -> str:
    classes = triplea2()["attachments"]
    properties = list(classes[rng.choice(sorted(classes))]["properties"])
    name = rng.choice(properties)
    return rng.choice((name, name[:1].upper() + name[1:], name.upper(), name + "s"))


def mutated(base: Path, seed: int) -> Mutation:
    """One random edit of ``base`` (see the module's docstring), the same for the same seed."""
    rng = random.Random(seed)
    root = etree.fromstring(_tree_bytes(base), _parser())
    elements = [e for e in root.iter() if isinstance(e.tag, str) and e is not root]
    names = sorted({v for e in elements for k, v in e.items() if k in ("name", "attachTo", "territory", "owner", "unitType")})
    target = rng.choice(elements)
    where = f"<{target.tag}> line {target.sourceline}"
    operation = rng.randrange(12)
    if operation <= 3 and target.attrib:
        attribute = rng.choice(sorted(target.attrib))
        value = _value(rng, target.get(attribute), names)
        target.set(attribute, value)
        what = f"{where} {attribute}={value!r}"
    elif operation == 4 and target.attrib:
        attribute = rng.choice(sorted(target.attrib))
        del target.attrib[attribute]
        what = f"{where} without {attribute}"
    elif operation == 5 and target.attrib:
        attribute = rng.choice(sorted(target.attrib))
        renamed = rng.choice((attribute.upper(), attribute[:1].upper() + attribute[1:], attribute.replace("attach", "attatch"), attribute + "s"))
        value = target.attrib.pop(attribute)
        target.set(renamed, value)
        what = f"{where} {attribute} renamed {renamed}"
    elif operation == 6:
        target.getparent().remove(target)
        what = f"{where} removed"
    elif operation == 7:
        target.addnext(copy.deepcopy(target))
        what = f"{where} twice"
    elif operation == 8:
        wrapper = etree.Element(rng.choice(WRAPPERS))
        target.addprevious(wrapper)
        wrapper.append(target)
        what = f"{where} wrapped in <{wrapper.tag}>"
    elif operation == 9:
        other = rng.choice(elements)
        if other is target or target in other.iterancestors():
            other = root
        target.getparent().remove(target)
        other.append(target)
        what = f"{where} moved into <{other.tag}> line {other.sourceline}"
    elif operation == 10:
        target.tag = rng.choice((target.tag.upper(), target.tag[:1].upper() + target.tag[1:], target.tag + "s", target.tag.replace("ach", "atch")))
        what = f"{where} renamed <{target.tag}>"
    else:
        attachments = root.findall("attachmentList/attachment")
        attachment = rng.choice(attachments) if attachments else target
        option = etree.SubElement(attachment, "option", name=_option_name(rng), value=_value(rng, "1", names))
        what = f"<attachment> line {attachment.sourceline} given option {option.get('name')}={option.get('value')!r}"
    data = etree.tostring(root.getroottree(), encoding="utf-8", xml_declaration=True)
    return Mutation(base, seed, what, data)


def mutations(bases: list[Path]) -> st.SearchStrategy[Mutation]:
    """Edits of the games ``bases``: a game, then a seed (hypothesis shrinks a disagreement to the smallest seed)."""
    return st.builds(mutated, st.sampled_from(bases), st.integers(min_value=0, max_value=2**32 - 1))

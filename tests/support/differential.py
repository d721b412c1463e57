"""validate's verdict beside TripleA 2.7's on one file, for the generative differential (issue 44)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from lxml import etree

from kremlin_triplea.check.game_index import REFUSES
from kremlin_triplea.check.validate import validate_tree

#: How 2.7's verdict (scripts/judge_with_triplea27.py) and validate's go together.
AGREE, DISAGREE, UNCHECKED = "agree", "disagree", "unchecked"


def tool_verdict(path: Path) -> tuple[str, list[str]]:
    """validate's verdict for 2.x: ``refuses`` (an error saying TripleA refuses the game), ``misreads`` (other
    errors: what TripleA reads otherwise than the file says), ``reads``; and its errors. A file lxml cannot parse is
    judged ``unparsed``."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=True)
    try:
        root = etree.parse(str(path), parser).getroot()
    except etree.XMLSyntaxError as error:
        return "unparsed", [str(error)]
    errors = [p.message for p in validate_tree(root, path.name, read_dtd=False) if p.is_error]
    if any(message.endswith(REFUSES) for message in errors):
        return "refuses", errors
    return ("misreads" if errors else "reads"), errors


def compared(engine: str, tool: str, why: str = "", errors: Sequence[str] = ()) -> str:
    """Whether the verdicts agree. The judge sees refusals and property casts only: where validate says 2.7 reads
    a game otherwise than it says (units it makes none of, ...) and the judge sees it read, that is unchecked. A
    property 2.7 cannot cast is a refusal where 2.7 reads it while loading the game, else a misreading: validate
    tells which (structure_checks.properties_read_at_load), so each must be said as 2.7 says it. ``why`` and
    ``errors`` are for the report."""
    if engine in ("refuses", "misreads"):
        return AGREE if tool == engine else DISAGREE
    if tool == "misreads":
        return UNCHECKED
    return AGREE if tool == "reads" else DISAGREE

"""The Session is the only door (issue 45): above the draft, nothing reaches into it but through a Session.

The terminal draft, the draft room, the matrix, ``value`` and the command line drive a draft through
:class:`~kremlin_triplea.session.Session` (its pushes, its questions for a pick, its copy). Reaching past it, into the
session's ``DraftRun`` (``.run.``), the option kinds' registry (``KINDS[``), or building a ``DraftRun``, makes a second
engine beside the session's: the matrix had its own pick engine, and the UIs assembled draft-file tables by kind.

``STILL_REACHING`` names the modules that still reach past it, each with why; an entry no longer needed fails the test,
so the list only shrinks.
"""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "kremlin_triplea"
#: Where the draft lives: these build and read it directly.
INSIDE = ("draft", "session")
#: What reaches past the door: the session's DraftRun, the kinds' registry, a DraftRun built by hand.
REACHING = re.compile(r"\.run\.|\bKINDS\[|\bDraftRun\(")

STILL_REACHING: dict[str, str] = {}


def _reaching() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative.split("/", 1)[0] in INSIDE:
            continue
        code = (line.split("#", 1)[0] for line in path.read_text(encoding="utf-8").splitlines())  # comments may name anything
        lines = [f"{number}: {line.strip()}" for number, line in enumerate(code, 1) if REACHING.search(line)]
        if lines:
            found[relative] = lines
    return found


def test_nothing_above_the_draft_reaches_past_the_session_but_what_is_still_being_moved() -> None:
    found = _reaching()
    new = {module: lines for module, lines in found.items() if module not in STILL_REACHING}
    assert new == {}, "reach the draft through Session (its properties, pick_form, pick_from_answers, copy)"
    done = sorted(set(STILL_REACHING) - set(found))
    assert done == [], f"no longer reaching past the session: take {done} out of STILL_REACHING"


def test_the_session_never_pops_the_board_itself() -> None:
    """Issue 45, "four stacks pop the same board": the session's steps are undone by the draft (DraftRun.pop,
    pop_declaration, take_back_bid), which keeps its own records with the board; a board change popped by the
    session beside them would leave the draft's records and the board apart."""
    popping = [
        f"{path.name}:{number}"
        for path in sorted((PACKAGE / "session").glob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "board.pop(" in line.split("#", 1)[0]
    ]
    assert popping == []

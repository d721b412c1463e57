"""The Session is the only door (issue 45): above the draft, nothing reaches into it but through a Session.

The terminal draft, the draft room, the matrix, ``value`` and the command line drive a draft through
:class:`~kremlin_triplea.session.Session` (its pushes, its questions for a pick, its copy). Reaching past it, into the
session's ``DraftRun`` (``.run.``), the option kinds' registry (``KINDS[``), or building a ``DraftRun``, makes a second
engine beside the session's: the matrix had its own pick engine, and the UIs assembled draft-file tables by kind.

The package, the scripts and the tests are read (issue 45: "tests included"); the tests of draft/ and session/
themselves examine what the door is made of and are exempt by name (``TESTS_OF_THE_DRAFT``, each with why).
``STILL_REACHING`` names the files that still reach past it, each with why; an entry no longer needed fails the test,
so the list only shrinks.
"""

from __future__ import annotations

import re
from pathlib import Path

from kremlin_triplea.draft.kinds import KINDS

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "kremlin_triplea"
TESTS = ROOT / "tests"
SCRIPTS = ROOT / "scripts"
#: Where the draft lives: these build and read it directly.
INSIDE = ("draft", "session")
#: The kinds registered by draft/kinds/ (a test's own kind is registered later, by that test).
KIND_NAMES = tuple(sorted(KINDS))
#: What reaches past the door: the session's DraftRun, the kinds' registry, a DraftRun built by hand, and code that
#: tells kinds apart by name (a kind name compared with an option's kind: a second engine's special case).
REACHING = re.compile(
    r"\.run\.|\bsession\.run\b(?!\()|\bKINDS\[|\bDraftRun\("
    + r"|\bkind\s*[!=]=\s*[\"']({0})[\"']|[\"']({0})[\"']\s*[!=]=\s*[\w.]*kind\b".format("|".join(map(re.escape, KIND_NAMES)))
)

#: Tests of draft/ and session/ themselves: they examine what the door is made of, so they may reach inside. Each with why.
TESTS_OF_THE_DRAFT: dict[str, str] = {
    "test_architecture_door.py": "this test: its patterns name what they refuse",
    "test_session.py": "the Session's own tests: its DraftRun's pending groups, beside its own steps",
    "test_picks.py": "DraftRun.violation, the draft's own check of a pick (the index, the turn)",
    "test_option_kinds.py": "the kinds themselves: a DraftRun's legal picks of each kind",
    "test_kind_contract.py": "the kind contract, checked on every registered kind (KINDS[name])",
    "test_legal_equals_accepted.py": "draft/legal's property: the kinds' listed picks against DraftRun's checks, and a kind of its own",
    "test_draft_invariants.py": "the draft's invariants after each pick and declaration (DraftRun.declared)",
    "test_draft_unit_words.py": "the draft file's [bid] parsed by DraftRun.parse_bid (its words for units)",
    "test_faults_messages.py": "a draft file's [[pick]] table parsed by DraftRun.parse_pick (its error messages)",
    "test_scenario_effects.py": "the scenario kind's effects (draft/kinds/scenario.py): its option found by its kind's name",
    "test_rules_classic.py": "the ruleset files' data: which kind each Classic option is, as the rule text says (kind names)",
    "test_rules_classic_property.py": "the Classic rules' property run on a DraftRun (draft/'s legal picks, each checked)",
}

STILL_REACHING: dict[str, str] = {}


def _scanned() -> list[tuple[str, Path]]:
    """Every module above the draft, every script, and every test but the draft's and the session's own: (name, path)."""
    modules = [(path.relative_to(PACKAGE).as_posix(), path) for path in sorted(PACKAGE.rglob("*.py"))]
    tests = [(path.relative_to(ROOT).as_posix(), path) for path in sorted([*TESTS.rglob("*.py"), *SCRIPTS.glob("*.py")])]
    return [(name, path) for name, path in modules if name.split("/", 1)[0] not in INSIDE] + [
        (name, path) for name, path in tests if path.name not in TESTS_OF_THE_DRAFT or path.parent != TESTS
    ]


def _reaching() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for relative, path in _scanned():
        code = (line.split("#", 1)[0] for line in path.read_text(encoding="utf-8").splitlines())  # comments may name anything
        lines = [f"{number}: {line.strip()}" for number, line in enumerate(code, 1) if REACHING.search(line)]
        if lines:
            found[relative] = lines
    return found


def test_nothing_above_the_draft_reaches_past_the_session_but_what_is_still_being_moved() -> None:
    found = _reaching()
    new = {module: lines for module, lines in found.items() if module not in STILL_REACHING}
    assert new == {}, "reach the draft through Session (its properties, pick_form, pick_from_answers, option_picks, copy)"
    done = sorted(set(STILL_REACHING) - set(found))
    assert done == [], f"no longer reaching past the session: take {done} out of STILL_REACHING"


def test_the_tests_exempt_as_the_drafts_own_are_tests_that_exist() -> None:
    """An exemption for a test file that is gone (renamed, split) would exempt whatever later takes its name."""
    assert sorted(name for name in TESTS_OF_THE_DRAFT if not (TESTS / name).is_file()) == []


def test_the_patterns_find_what_they_refuse() -> None:
    """The patterns checked on lines written for the purpose (a pattern that matched nothing would pass every module)."""
    reaching = [
        "session.run.applied",
        "run = self.session.run",
        "KINDS[option.kind]",
        "DraftRun(draft, game)",
        'option.kind == "scenario"',
        "'placement' != o.kind",
    ]
    fine = [
        "session.ruleset",
        "session.runs",
        "conversation.run()",
        "session.pick_form(choices)",
        'kind="scenario"',
        "option.kind == choices.option.kind",
        "run_.result",
    ]
    assert [line for line in reaching if not REACHING.search(line)] == []
    assert [line for line in fine if REACHING.search(line)] == []


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

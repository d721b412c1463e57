"""Whatever a user gets wrong in a file they write, the answer is one line and a status, never a traceback.

The card: bad input gets one line saying what is wrong and where, and exit 2; a rule violation exit 1. Each
test takes a real file (an example draft, a shipped ruleset, a shipped map profile), breaks one to three of
its values or lines at random, and runs the command a user would. A fuzzing pass over these same inputs found
eight tracebacks (a table where a word belongs, an empty place list, a profile place the game lacks...); these
tests keep the whole class of them out.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from kremlin_triplea.cli.main import main
from support.paths import MAPS_DIR
from support.properties import examples

REPO = Path(__file__).resolve().parents[1]

#: Values of every TOML type and of the wrong kinds of name: what a slip of the hand or a wrong guess writes.
ODD_VALUES = (
    "0",
    "-1",
    "2147483648",
    '"x"',
    '""',
    '"  "',
    "[]",
    "{}",
    "[{}]",
    '["x"]',
    "1.5",
    "true",
    '"Germans"',
    '"Allies"',
    '"France"',
    '"infantry"',
    '"1 Sea Zone"',
)
_VALUE = re.compile(r'("[^"]*"|-?\d+|\[[^\]]*\]|\{[^}]*\}|true|false)')


@st.composite
def broken(draw, text: str) -> str:
    """``text`` with one to three of its lines changed: a value replaced by an odd one, or the line dropped."""
    lines = text.splitlines()
    for _ in range(draw(st.integers(1, 3))):
        index = draw(st.integers(0, len(lines) - 1))
        line = lines[index]
        starts = [m.end() for m in re.finditer(r"= ", line)]
        if starts and draw(st.booleans()):
            start = draw(st.sampled_from(starts))
            value = _VALUE.match(line, start)
            if value is not None:
                lines[index] = line[:start] + draw(st.sampled_from(ODD_VALUES)) + line[value.end() :]
                continue
        del lines[index]
    return "\n".join(lines) + "\n"


def assert_answered(result, *, one_line: bool = True) -> None:
    """Done (0), a rule violation (1) or bad input (2); when refused, one line of stderr and no traceback.

    ``one_line=False`` for a report of problems (`profile check` lists every one, exit 1).
    """
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (0, 1, 2), result.output
    if result.exit_code and one_line:
        assert result.stderr.startswith("kremlin-triplea: error: ") and result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.output


def run(*args: str):
    return CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), *args])


FAST = settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@pytest.mark.parametrize("draft_name", ["kremlin-aa50-1941", "kremlin-classic-kremlin", "house-revised-1942"])
def test_a_broken_draft_is_answered_in_one_line(tmp_path: Path, draft_name: str) -> None:
    text = (REPO / "examples" / f"{draft_name}.toml").read_text()

    @FAST
    @given(broken(text))
    def check(draft_text: str) -> None:
        draft = tmp_path / "draft.toml"
        draft.write_text(draft_text)
        assert_answered(run("apply", str(draft), "-o", str(tmp_path / "out.xml"), "--force"))

    check()


@pytest.mark.parametrize(
    ("ruleset", "draft_name", "key"),
    [
        ("kremlin-aa50", "kremlin-aa50-1941", "ruleset"),
        ("kremlin-daak", "kremlin-daak-classic", "ruleset"),
        ("house-revised", "house-revised-1942", "house_rules"),
    ],
)
def test_a_broken_rule_file_is_answered_in_one_line(tmp_path: Path, ruleset: str, draft_name: str, key: str) -> None:
    """The map maker's file, read by `options` and used by a draft that names it (beside the draft)."""
    text = (REPO / "rulesets" / f"{ruleset}.toml").read_text()
    draft_text = (REPO / "examples" / f"{draft_name}.toml").read_text()
    named = '"rules.toml"' if key == "ruleset" else '["rules.toml"]'
    draft_text = re.sub(rf"^{key} = .*$", f"{key} = {named}", draft_text, flags=re.M)
    draft_text = draft_text.replace(f"[house_rule_choices.{ruleset}]", '[house_rule_choices."rules.toml"]')
    (tmp_path / "draft.toml").write_text(draft_text)

    # What the fuzzing pass found (tracebacks before): a word's place holding a list or a table, an empty place list.
    @FAST
    @given(broken(text))
    @example(re.sub(r'kind = "(placement|canal)"', "kind = []", text, count=1))
    @example(re.sub(r'kind = "(placement|canal)"', "kind = {}", text, count=1))
    @example(text.replace('at = ["own_territory"]', "at = []", 1))
    @example(text.replace('choice = "at"', "choice = [{}]", 1))
    def check(rules_text: str) -> None:
        (tmp_path / "rules.toml").write_text(rules_text)
        assert_answered(run("options", "--ruleset", str(tmp_path / "rules.toml")))
        assert_answered(run("apply", str(tmp_path / "draft.toml"), "-o", str(tmp_path / "out.xml"), "--force"))

    check()


def test_a_broken_map_profile_is_answered_in_one_line(tmp_path: Path) -> None:
    text = (REPO / "maps" / "world_war_ii_v3.toml").read_text()

    # What the fuzzing pass found: a place the game lacks where the profile is used as written; a table in a list of names.
    @FAST
    @given(broken(text))
    @example(text.replace('refuge = "Himalaya"', 'refuge = "Allies"', 1))
    @example(text.replace('Argentina = ["21 Sea Zone", "25 Sea Zone"]', 'Argentina = ["21 Sea Zone", {}]', 1))
    def check(profile_text: str) -> None:
        profile = tmp_path / "v3.toml"
        profile.write_text(profile_text)
        assert_answered(run("profile", "check", str(profile)), one_line=False)
        assert_answered(run("apply", str(REPO / "examples" / "kremlin-aa50-1941.toml"), "--profile", str(profile), "-o", str(tmp_path / "out.xml"), "--force"))

    check()


@st.composite
def broken_setup(draw, text: str) -> str:
    """``text`` (a game file) with one to three set-up values changed: an owner, a unit type, a count, a territory."""
    spots = [m for m in re.finditer(r"<(?:unitPlacement|territoryOwner|connection|playerStartingResource)\b[^>]*>", text)]
    for _ in range(draw(st.integers(1, 3))):
        element = draw(st.sampled_from(spots))
        values = list(re.finditer(r'(\w+)="([^"]*)"', element.group(0)))
        value = draw(st.sampled_from(values))
        odd = draw(st.sampled_from(("", "0", "-1", "x", "Germans", "Allies", "France", "infantry", "1 Sea Zone", "99999999999")))
        start, end = element.start() + value.start(2), element.start() + value.end(2)
        if text[element.start() : element.end()] == element.group(0):  # not moved by an earlier change
            text = text[:start] + odd + text[end:]
    return text


def test_a_broken_game_file_is_answered_in_one_line(tmp_path: Path) -> None:
    """A host's own edit of the base game (Edit Mode's work done by hand): refused in one line, or applied."""
    from support.paths import AA50_1941

    text = AA50_1941.read_text(encoding="utf-8")
    draft = REPO / "examples" / "kremlin-aa50-1941.toml"

    # What the fuzzing pass found: units and a territory of a player the game does not declare (KeyError before).
    @FAST
    @given(broken_setup(text))
    @example(text.replace('territory="Kiangsu" quantity="3" owner="Japanese"', 'territory="Kiangsu" quantity="3" owner="France"', 1))
    @example(text.replace('<territoryOwner territory="France" owner="Germans"', '<territoryOwner territory="France" owner="Vichy"', 1))
    def check(game_text: str) -> None:
        game = tmp_path / "game.xml"
        game.write_text(game_text, encoding="utf-8")
        assert_answered(run("apply", str(draft), "--game", str(game), "-o", str(tmp_path / "out.xml"), "--force"))
        assert_answered(run("show", str(game)))

    check()

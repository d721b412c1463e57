"""What ``validate`` prints: one line per kind of finding, a count and the first places, --all for each (issue 44 item 5).

The issue's case: a game both engines load got a line for every attribute game.dtd does not declare (63 lines), and
one 2.7 refuses got 10,004 lines before its verdict. The bound is on every real game (pinned maps and the corpus):
at most 20 lines for each one we call valid, and, with TripleA 2.7 as the judge, for each one 2.7 loads.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from lxml import etree

from kremlin_triplea.check.validate import validate_tree
from kremlin_triplea.cli.main import main
from kremlin_triplea.gamefile.document import XmlDocument
from kremlin_triplea.gamefile.safe import MAX_FILE_BYTES
from support.paths import AA50_1941, ALL_GAMES, CORPUS_DIR, MAPS_DIR, each_game, game_id

CORPUS_DTD = CORPUS_DIR / "game.dtd"
#: The most lines validate prints for a game TripleA loads (the issue's "~20").
MOST_LINES = 20


def validate(path: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["validate", "--dtd", str(CORPUS_DTD), *args, str(path)])


def printed(result: Result) -> list[str]:
    return result.stdout.splitlines() + result.stderr.splitlines()


def with_duplicate_connections(count: int) -> bytes:
    """AA50 1941 with its first ``count`` connections given a second time (TripleA keeps a set of neighbours: a warning each)."""
    data = AA50_1941.read_bytes()
    connections = re.findall(rb"<connection t1=[^>]*/>", data)[:count]
    assert len(connections) == count
    return data.replace(b"</map>", b"".join(b"  " + c + b"\n" for c in connections) + b"</map>", 1)


def test_findings_of_one_kind_are_one_line_with_a_count_and_the_first_places(tmp_path: Path) -> None:
    game = tmp_path / "twice.xml"
    game.write_bytes(with_duplicate_connections(30))
    result = validate(game)
    assert result.exit_code == 0, result.output
    said = [line for line in result.stdout.splitlines() if "duplicate connection" in line]
    assert len(said) == 1, result.stdout
    lines = [n for n, text in enumerate(game.read_text().splitlines(), 1) if "<connection" in text][-30:]
    assert said[0].startswith(f"{game}:{lines[0]}: warning: duplicate connection ")
    assert f"[30 of this kind, also at lines {lines[1]}, {lines[2]}, {lines[3]}, {lines[4]}, ...; --all lists each]" in said[0]
    assert result.stdout.splitlines()[-1] == f"{game}: valid for TripleA 2.x (30 warnings)"
    every = validate(game, "--all")
    assert [line.split(": ", 1)[0] for line in every.stdout.splitlines() if "duplicate connection" in line] == [f"{game}:{n}" for n in lines]
    assert validate(game, "--verbose").stdout == every.stdout


def test_verify_says_validates_findings_as_validate_does(tmp_path: Path) -> None:
    game = tmp_path / "twice.xml"
    game.write_bytes(with_duplicate_connections(30))
    result = CliRunner().invoke(main, ["verify", str(game)])
    assert result.exit_code == 0, result.output
    said = [line for line in result.stdout.splitlines() if "duplicate connection" in line]
    assert len(said) == 1 and "[30 of this kind, also at lines " in said[0], result.stdout
    every = CliRunner().invoke(main, ["verify", "--all", str(game)])
    assert len([line for line in every.stdout.splitlines() if "duplicate connection" in line]) == 30


def test_errors_of_one_kind_name_the_file_and_line_of_the_first_and_the_lines_of_the_next(tmp_path: Path) -> None:
    game = tmp_path / "misspelt.xml"
    game.write_text(re.sub(r'(<territoryOwner [^>]*owner=)"Germans"', r'\1"Germens"', AA50_1941.read_text()))
    lines = [n for n, text in enumerate(game.read_text().splitlines(), 1) if 'owner="Germens"' in text]
    assert len(lines) > 5
    result = validate(game)
    assert result.exit_code == 1
    errors = [line for line in result.stdout.splitlines() if "Germens" in line]
    assert len(errors) == 1 and errors[0].startswith(f"{game}:{lines[0]}: ") and ": warning: " not in errors[0], result.stdout
    assert f"[{len(lines)} of this kind, also at lines {', '.join(map(str, lines[1:5]))}, ...; --all lists each]" in errors[0]
    assert result.stderr == f"{len(lines)} errors in {game} for TripleA 2.x\n"
    every = validate(game, "--all")
    assert [line.split(": ", 1)[0] for line in every.stdout.splitlines() if "Germens" in line] == [f"{game}:{n}" for n in lines]


def test_game_dtd_notes_are_grouped_by_the_dtds_kind_of_error(tmp_path: Path) -> None:
    """Each undeclared attribute is a message of its own in libxml2's words; one kind (its error type) in ours."""
    game = tmp_path / "undeclared.xml"
    names = [f"madeUp{n}" for n in range(12)]
    game.write_text(AA50_1941.read_text().replace("<territory ", "<territory " + " ".join(f'{n}="1"' for n in names) + " ", 1))
    result = validate(game)
    assert result.exit_code == 0, result.output
    notes = [line for line in result.stdout.splitlines() if "No declaration for attribute madeUp" in line]
    assert len(notes) == 1 and "[12 of this kind" in notes[0], result.stdout
    assert len([line for line in validate(game, "--all").stdout.splitlines() if "No declaration for attribute madeUp" in line]) == 12


def test_the_issues_case_ten_thousand_undeclared_attributes_are_one_line(tmp_path: Path) -> None:
    """Issue 44: 10,004 lines, then 'valid'. The element's 9,998 attributes game.dtd does not declare are one kind on one line."""
    game = tmp_path / "many.xml"
    data = AA50_1941.read_bytes()
    extra = b"".join(b' x%d="v"' % n for n in range(9_998))
    game.write_bytes(data.replace(b"<info ", b"<info" + extra + b" ", 1))
    line = data[: data.index(b"<info ")].count(b"\n") + 1
    result = validate(game)
    assert result.exit_code == 0 and len(printed(result)) == 2, result.output
    assert result.stdout.startswith(
        f"{game}:{line}: note: does not follow game.dtd (TripleA 1.9 prints this and loads the game): No declaration for attribute x0 of element info"
    )
    assert "[9998 of this kind on the same line; --all lists each]\n" in result.stdout


def test_validate_help_says_what_it_prints() -> None:
    said = " ".join(CliRunner().invoke(main, ["validate", "--help"]).stdout.split())
    assert "Prints one line per kind of finding" in said and "--all lists every one" in said
    assert "--all, --verbose" in said and "--engine" in said and "--for [2|1.9]" in said


@pytest.mark.parametrize("game", each_game(ALL_GAMES))
def test_every_real_game_is_said_in_few_lines_and_its_errors_at_their_file_and_line(game: Path) -> None:
    result = validate(game)
    assert result.exit_code in (0, 1), result.output
    lines = printed(result)
    problems = validate_tree(XmlDocument.read(game).root, str(game), dtd=CORPUS_DTD)
    if result.exit_code == 0:
        assert len(lines) <= MOST_LINES, "\n".join(lines)
    for problem in problems:
        if problem.is_error and problem.line is not None:
            assert any(line.startswith(f"{game}:{problem.line}: ") or f" {problem.line}," in line or f" {problem.line};" in line for line in lines)
    assert len(validate(game, "--all").stdout.splitlines()) == len(problems) + (result.exit_code == 0)


def aa50_declaring(entities: bytes, *, within: bytes = b"") -> bytes:
    """AA50 1941 with an internal DTD subset declaring ``entities`` (in place of its DOCTYPE), and ``within`` before <info>."""
    data = re.sub(rb"<!DOCTYPE[^>]*>", b"<!DOCTYPE game [" + entities + b"]>", AA50_1941.read_bytes(), count=1)
    return data.replace(b"<info ", within + b"<info ", 1)


def aa50_with(before_end: bytes) -> bytes:
    return AA50_1941.read_bytes().replace(b"</game>", before_end + b"</game>", 1)


def entity_references(count: int) -> bytes:
    """AA50 1941 declaring one entity, referenced ``count`` times in an attribute: the JDK counts each expansion."""
    return aa50_declaring(b'<!ENTITY v "1">', within=b'<note x="' + b"&v;" * count + b'"/>')


def entity_characters(millions: int) -> bytes:
    """AA50 1941 declaring an entity of a million characters, referenced ``millions`` times (the JDK bounds the total)."""
    return aa50_declaring(b'<!ENTITY v "' + b"a" * 1_000_000 + b'">', within=b'<note x="' + b"&v;" * millions + b'"/>')


#: What this tool refuses for its own safety and TripleA 2.7 loads (asked below): name -> the file's bytes.
SAFETY_REFUSALS = {
    "elements nested 300 deep": lambda: aa50_with(b"<x>" * 300 + b"</x>" * 300),
    "a text of 11 MB": lambda: aa50_with(b"<note>" + b"a" * 11_000_000 + b"</note>"),
    "a comment of 11 MB": lambda: aa50_with(b"<!--" + b"a" * 11_000_000 + b"-->"),
    "an attribute value of 11 MB": lambda: AA50_1941.read_bytes().replace(b"<info ", b'<info x="' + b"a" * 11_000_000 + b'" ', 1),
    "an internal entity, used": lambda: aa50_declaring(b'<!ENTITY ger "Germans">').replace(b'owner="Germans"/>', b'owner="&ger;"/>', 1),
    "63,999 entity expansions": lambda: entity_references(63_999),
    "entities expanding to 49,000,000 characters": lambda: entity_characters(49),
    "a file beyond the size bound": lambda: AA50_1941.read_bytes() + b"\n" * (MAX_FILE_BYTES + 1 - AA50_1941.stat().st_size),
}
#: Entities TripleA's parser refuses too (the JDK's bound: 64,000 expansions), so they are no safety refusal.
ENTITIES_BEYOND_TRIPLEAS_BOUND = {
    "64,000 entity expansions": lambda: entity_references(64_000),
    "entities expanding to 51,000,000 characters": lambda: entity_characters(51),
    "entities nested to 1,111,111 expansions": lambda: aa50_declaring(
        b'<!ENTITY a "aaaaaaaaaa">' + b"".join(b'<!ENTITY %c "%s">' % (98 + k, b"&%c;" % (97 + k) * 10) for k in range(6)),
        within=b'<!-- &g; is text here --><property name="x" value="&g;"/>',
    ),
}


@pytest.mark.parametrize("case", list(SAFETY_REFUSALS))
def test_what_the_tool_refuses_for_safety_and_triplea_loads_is_said_so_in_one_line(tmp_path: Path, case: str) -> None:
    game = tmp_path / "game.xml"
    game.write_bytes(SAFETY_REFUSALS[case]())
    result = validate(game)
    assert result.exit_code == 2 and result.stdout == "", result.output
    assert result.stderr.count("\n") == 1 and result.stderr.startswith(f"kremlin-triplea: error: {game}"), result.stderr
    assert "TripleA would load it" in result.stderr and ", but this tool " in result.stderr, result.stderr


@pytest.mark.parametrize(
    ("case", "said"),
    [
        ("64,000 entity expansions", "64,000 times to 64,000 characters"),
        ("entities expanding to 51,000,000 characters", "51 times to 51,000,000 characters"),
        ("entities nested to 1,111,111 expansions", "1,111,111 times to 10,000,000 characters"),
    ],
)
def test_entities_triplea_refuses_too_are_said_so_with_their_count(tmp_path: Path, case: str, said: str) -> None:
    game = tmp_path / "entities.xml"
    game.write_bytes(ENTITIES_BEYOND_TRIPLEAS_BOUND[case]())
    result = validate(game)
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.output
    assert (
        f"declares XML entities that expand {said}; " in result.stderr
        and "TripleA's parser refuses that too (fewer than 64,000 expansions, at most 50,000,000 characters)" in result.stderr
    )
    assert "would load" not in result.stderr


@pytest.mark.slow
def test_the_safety_bounds_leave_room_for_every_real_game() -> None:
    """The refusal's reason (safe.SAFE_BOUNDS_WHY) claims the largest game is 3.3 MB and none nests more than 5 deep."""

    def depth(element) -> int:
        return 1 + max((depth(child) for child in element.iterchildren(tag=etree.Element)), default=0)

    assert max(game.stat().st_size for game in ALL_GAMES) < 3_300_000 < MAX_FILE_BYTES
    assert max(depth(XmlDocument.read(game).root) for game in ALL_GAMES) == 5


@pytest.mark.engine
def test_triplea_27_loads_what_the_tool_refuses_for_safety_and_refuses_entities_beyond_its_bound(tmp_path: Path) -> None:
    from support.judge27 import judged_by_27

    paths = []
    for number, make in enumerate([*SAFETY_REFUSALS.values(), *ENTITIES_BEYOND_TRIPLEAS_BOUND.values()]):
        paths.append(tmp_path / f"case{number}.xml")
        paths[-1].write_bytes(make())
    verdicts = [answer["verdict"] for answer in judged_by_27(paths)]
    assert verdicts == ["reads"] * len(SAFETY_REFUSALS) + ["refuses"] * len(ENTITIES_BEYOND_TRIPLEAS_BOUND)


@pytest.mark.engine
@pytest.mark.slow
def test_every_real_game_triplea_27_loads_is_said_in_at_most_20_lines() -> None:
    from support.judge27 import judged_by_27

    verdicts = judged_by_27(ALL_GAMES)
    loaded = [game for game, verdict in zip(ALL_GAMES, verdicts) if verdict["verdict"] == "reads"]
    assert len(loaded) > len(ALL_GAMES) // 2, verdicts
    too_long = {game_id(game): n for game in loaded if (n := len(printed(validate(game)))) > MOST_LINES}
    assert not too_long


# -- validate --engine: TripleA 2.x's own verdict beside ours (issue 44 item 4) --------------------------------------


def misspelt_owner(folder: Path) -> Path:
    """AA50 1941 with a territory owned by a player it lacks ('Germens'): 2.7 refuses it ("Could not find player")."""
    game = folder / "misspelt.xml"
    game.write_text(AA50_1941.read_text().replace('owner="Germans"/>', 'owner="Germens"/>', 1))
    return game


def test_without_a_triplea_2_validate_engine_says_where_it_looked_and_how_to_point_at_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    for variable in ("KREMLIN_TRIPLEA", "KREMLIN_TRIPLEA_JAR"):
        monkeypatch.delenv(variable, raising=False)
    result = validate(AA50_1941, "--engine")
    assert result.exit_code == 2 and result.stdout == "", result.output
    assert result.stderr.count("\n") == 1 and "no TripleA" in result.stderr, result.stderr
    assert f"looked in: {tmp_path / 'TripleA'} (~/TripleA)" in result.stderr and "--triplea DIR" in result.stderr and "$KREMLIN_TRIPLEA=DIR" in result.stderr
    named = validate(AA50_1941, "--engine", "--triplea", str(tmp_path))
    assert named.exit_code == 2 and f"looked in: {tmp_path} (--triplea)" in named.stderr, named.output


@pytest.mark.parametrize(("args", "said"), [(["--triplea", "/x"], "use it with --engine"), (["--engine", "--for", "1.9"], "without --for 1.9")])
def test_validate_engine_options_that_do_not_go_together_are_refused_in_one_line(args: list[str], said: str) -> None:
    result = validate(AA50_1941, *args)
    assert result.exit_code == 2 and said in result.stderr and result.stderr.count("\n") == 1, result.output


@pytest.mark.engine
def test_validate_engine_prints_triplea_27s_verdict_on_a_game_it_reads_from_a_players_installation(tmp_path: Path) -> None:
    from support.triplea27 import CLIENT_VERSION_27, installation_without_compiler

    folder = installation_without_compiler(tmp_path / "triplea")
    result = validate(AA50_1941, "--engine", "--triplea", str(folder))
    assert result.exit_code == 0, result.output
    engine = [line for line in result.stdout.splitlines() if line.startswith("engine: ")]
    assert len(engine) == 1 and engine[0].startswith(f"engine: TripleA {CLIENT_VERSION_27} at {folder} (--triplea) on Java "), engine
    assert engine[0].endswith(": reads") and result.stdout.splitlines()[-1] == f"{AA50_1941}: valid for TripleA 2.x" and result.stderr == ""


@pytest.mark.engine
def test_validate_engine_prints_triplea_27s_refusal_beside_ours(tmp_path: Path) -> None:
    from support.triplea27 import JAR_27

    game = misspelt_owner(tmp_path)
    result = validate(game, "--engine", "--triplea", str(JAR_27))
    assert result.exit_code == 1, result.output
    engine = next(line for line in result.stdout.splitlines() if line.startswith("engine: "))
    assert ": refuses: " in engine and "Germens" in engine, engine
    assert "disagree" not in result.output and result.stderr == f"1 error in {game} for TripleA 2.x\n"


@pytest.mark.engine
@pytest.mark.parametrize("wrong", ["says valid what 2.7 refuses", "refuses what 2.7 reads"])
def test_a_disagreement_with_triplea_27_is_one_bug_report_line_and_exit_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, wrong: str) -> None:
    """validate made wrong on purpose (its verdict replaced), so that 2.7 disagrees with it."""
    import kremlin_triplea.check.validate as validate_module
    from kremlin_triplea.check.game_index import REFUSES
    from support.triplea27 import JAR_27

    if wrong == "says valid what 2.7 refuses":
        game, said, engine_said = misspelt_owner(tmp_path), "validate says TripleA reads", "refuses (TripleA does not parse"
        monkeypatch.setattr(validate_module, "validate_tree", lambda root, file, **_: [])
    else:
        game, said, engine_said = AA50_1941, "validate says TripleA refuses (made up; " + REFUSES + ")", "reads"
        made_up = validate_module.Problem(str(AA50_1941), 3, f"made up; {REFUSES}")
        monkeypatch.setattr(validate_module, "validate_tree", lambda root, file, **_: [made_up])
    result = validate(game, "--engine", "--triplea", str(JAR_27))
    assert result.exit_code == 1, result.output
    report = [line for line in result.stderr.splitlines() if "disagree" in line]
    assert len(report) == 1, result.stderr
    assert report[0].startswith(f"{game}: validate and TripleA 2.x disagree, a bug of validate or of the engine (please report it with this file): {said}; ")
    assert f"TripleA 2.7.15472 at {JAR_27.parent} (--triplea) on Java " in report[0] and f" {engine_said}" in report[0]


# -- item 6: every command that takes a base game judges it as apply does ---------------------------------------------


def base_game_triplea_refuses(folder: Path) -> tuple[Path, int]:
    """AA50 1941 with a unit's canBlitz 'maybe' (2.7 refuses it: "canBlitz ... not a boolean"), which our board reads
    as the rules need it; and its line."""
    data = AA50_1941.read_text()
    game = folder / "maybe.xml"
    game.write_text(data.replace('name="canBlitz" value="true"', 'name="canBlitz" value="maybe"', 1))
    return game, data[: data.index('name="canBlitz" value="true"')].count("\n") + 1


def draft_on(game: Path, folder: Path) -> Path:
    draft = folder / "draft.toml"
    draft.write_text(f'ruleset = "kremlin-aa50"\ngame = "{game.as_posix()}"\nfirst = "Axis"\npicks_per_side = 5\n', encoding="utf-8")
    return draft


@pytest.mark.parametrize(
    "command",
    [
        ("apply", "{draft}", "-o", "{out}"),
        ("legal", "{draft}"),
        ("draft", "--resume", "{draft}", "-o", "{out}"),
        ("house", "{game}", "-r", "house-revised", "--seed", "1", "-o", "{out}"),
    ],
    ids=["apply", "legal", "terminal draft", "house"],
)
def test_every_command_taking_a_base_game_refuses_one_triplea_refuses_in_validates_words(tmp_path: Path, command: tuple[str, ...]) -> None:
    game, line = base_game_triplea_refuses(tmp_path)
    draft = draft_on(game, tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    args = [part.format(draft=draft, out=tmp_path / "out.xml", game=game) for part in command]
    result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), *args])
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        f"kremlin-triplea: error: {game}:{line}: the base game is not one TripleA loads: UnitAttachment option canBlitz: "
        "'maybe' is neither true nor false; TripleA refuses to load the game\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing written: no output, no room file


def test_the_matrix_refuses_a_base_game_triplea_refuses_as_apply_does(tmp_path: Path) -> None:
    game, line = base_game_triplea_refuses(tmp_path)
    result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "matrix", "--ruleset", "kremlin-aa50", "--samples", "0", "--game", str(game)])
    assert result.exit_code == 1, result.output
    assert f"kremlin-aa50 (set-up) on {game.name}: 1 failed" in result.stdout
    assert f"{game}:{line}: the base game is not one TripleA loads: UnitAttachment option canBlitz: 'maybe' is neither true nor false" in result.stdout
    assert "\n0 picks, bids and drafts applied;" in result.stdout


def test_the_draft_room_refuses_a_base_game_triplea_refuses_before_anyone_drafts(tmp_path: Path) -> None:
    """The room ``serve`` opens (built here, as a server that did not refuse it would serve on and never end)."""
    from kremlin_triplea.errors import InputError
    from kremlin_triplea.web.room import Room

    game, line = base_game_triplea_refuses(tmp_path)
    draft = draft_on(game, tmp_path)
    with pytest.raises(InputError) as refused:
        Room(draft, MAPS_DIR)
    assert (
        str(refused.value)
        == f"{game}:{line}: the base game is not one TripleA loads: UnitAttachment option canBlitz: 'maybe' is neither true nor false; TripleA refuses to load the game"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["draft.toml", "maybe.xml"]  # no room file, no keys


@pytest.mark.engine
def test_validate_engine_on_a_file_the_tool_does_not_read_prints_triplea_27s_verdict_beside_the_reason(tmp_path: Path) -> None:
    from support.triplea27 import JAR_27

    game = tmp_path / "deep.xml"
    game.write_bytes(SAFETY_REFUSALS["elements nested 300 deep"]())
    result = validate(game, "--engine", "--triplea", str(JAR_27))
    assert result.exit_code == 2, result.output
    assert result.stdout.startswith(f"engine: TripleA 2.7.15472 at {JAR_27.parent} (--triplea) on Java ") and result.stdout.endswith(": reads\n")
    assert result.stderr.count("\n") == 1 and "TripleA would load it, but this tool" in result.stderr


@pytest.mark.engine
def test_a_refusal_that_says_triplea_would_load_what_27_refuses_is_reported_as_a_bug(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The entity bound made wrong on purpose (100,000 expansions): 64,000 are then said to load, which 2.7 refuses."""
    from kremlin_triplea.gamefile import entities
    from support.triplea27 import JAR_27

    monkeypatch.setattr(entities, "MOST_ENTITY_EXPANSIONS", 100_000)
    game = tmp_path / "entities.xml"
    game.write_bytes(ENTITIES_BEYOND_TRIPLEAS_BOUND["64,000 entity expansions"]())
    result = validate(game, "--engine", "--triplea", str(JAR_27))
    assert result.exit_code == 2, result.output
    report, refusal = result.stderr.splitlines()
    assert report.startswith(
        f"{game}: validate and TripleA 2.x disagree, a bug of validate or of the engine (please report it with this file): validate says TripleA would load it ({game}"
    )
    assert ": declares XML entities; TripleA would load it (they expand 64,000 times to 64,000 characters, within its parser's bounds)" in report
    assert "JAXP00010001" in report and refusal.startswith(f"kremlin-triplea: error: {game}:")


@pytest.mark.engine
def test_a_misreading_the_engines_checks_do_not_see_is_no_disagreement(tmp_path: Path) -> None:
    """Units placed for a player the game lacks: 2.7 reads the game and makes them neutral; validate says so (exit 1)."""
    from support.triplea27 import JAR_27

    game = tmp_path / "neutral-units.xml"
    game.write_text(re.sub(r'(<unitPlacement [^>]*owner=)"Germans"', r'\1"Germens"', AA50_1941.read_text(), count=1))
    result = validate(game, "--engine", "--triplea", str(JAR_27))
    assert result.exit_code == 1, result.output
    assert "TripleA silently makes these units neutral" in result.stdout and result.stdout.count("engine: ") == 2
    assert "engine: its parser and GameParsingValidation accept what validate says TripleA misreads" in result.stdout
    assert "disagree" not in result.output and result.stderr == f"1 error in {game} for TripleA 2.x\n"


def test_every_refusal_ends_with_the_refusal() -> None:
    """A message saying TripleA refuses the game says it last: the verdict of validate --engine, of the differential
    and of every reader is read from its end (cli/validate.py our_verdict), so a message that went on after it
    ('minimumVersion 77 is above TripleA 2.7; TripleA refuses to load the game (it needs a newer TripleA)') was
    read as a misreading. Every f-string of check/ holding REFUSES ends with it."""
    import ast

    import kremlin_triplea.check as check

    wrong = []
    for path in sorted(Path(check.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.JoinedStr):
                continue
            holds = [i for i, part in enumerate(node.values) if isinstance(part, ast.FormattedValue) and ast.unparse(part.value) == "REFUSES"]
            if holds and holds[-1] != len(node.values) - 1:
                wrong.append(f"{path.name}:{node.lineno}")
    assert wrong == []

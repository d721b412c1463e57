"""Every mistake in what a user gives is one line and exit 2 (issue 27, item 3): never two lines, never a traceback.

The classes: a control character in a game file (a NUL byte) or in a name given on the command line; a number
out of range, not a number or not finite in any numeric option of any command (found by walking the commands,
so an option added later is covered too); a folder where a game file belongs.
"""

from __future__ import annotations

import math
import os
import shutil
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from kremlin_triplea.cli.main import main
from support.paths import AA50_1941, MAPS_DIR

CLASSIC_MAP = MAPS_DIR / "classic_variations"
KREMLIN = CLASSIC_MAP / "map" / "games" / "kremlin.xml"


def run(*args: str):
    return CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), *args])


def assert_one_line(result, status: int = 2) -> str:
    assert result.exit_code == status, (result.exit_code, result.output, result.exception)
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("kremlin-triplea: error: "), result.stderr
    return result.stderr


# -- control characters ------------------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(at=st.integers(min_value=0, max_value=KREMLIN.stat().st_size - 1), control=st.sampled_from(["\0", "\x01", "\x0b", "\x1b"]))
def test_a_control_character_anywhere_in_a_game_file_is_one_line(tmp_path_factory, at: int, control: str) -> None:
    # libxml2 ends its message for a NUL byte with a newline ("Char 0x0 out of allowed range\n, line 4, column 38").
    data = KREMLIN.read_bytes()
    broken = tmp_path_factory.mktemp("nul") / "kremlin.xml"
    broken.write_bytes(data[:at] + control.encode() + data[at:])
    for command in ("show", "validate"):  # none of them is a character XML allows, anywhere
        assert str(broken) in assert_one_line(run(command, str(broken)))


def test_a_nul_byte_in_a_game_file_is_named_at_its_line(tmp_path: Path) -> None:
    text = KREMLIN.read_bytes()
    at = text.index(b"<info")  # line 4 of kremlin.xml: the case of the issue (was two lines)
    broken = tmp_path / "kremlin.xml"
    broken.write_bytes(text[:at] + b"\0" + text[at:])
    line = text[:at].count(b"\n") + 1
    message = assert_one_line(run("show", str(broken)))
    assert f"{broken}:{line}: malformed XML: Invalid character: Char 0x0 out of allowed range" in message


@pytest.mark.parametrize("control", ["\n", "\r", "\t", "\x1b[31m", "\x07"])
def test_a_control_character_in_a_name_given_is_shown_escaped_on_one_line(control: str) -> None:
    name = f"no{control}such.xml"
    message = assert_one_line(run("show", name))
    assert f"no{control.encode('unicode_escape').decode()}such.xml: no such file" in message


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["show"], ["'GAME'", "(see `main show --help`)"]),
        (["show", "--nope", "x"], ["--nope", "(see `main show --help`)"]),
        (["nope"], ["'nope'", "(see `main --help`)"]),
        (["--maps-dir", str(KREMLIN), "maps"], [str(KREMLIN), "(see `main --help`)"]),
    ],
    ids=["missing-argument", "unknown-option", "unknown-command", "group-option"],
)
def test_a_wrong_option_or_argument_is_one_line(args: list[str], said: list[str]) -> None:
    # click's own report is three lines (usage, a hint, the error); the command to ask for help is kept.
    message = assert_one_line(CliRunner().invoke(main, args))
    assert all(part in message for part in said), message


@pytest.mark.parametrize("args", [[], ["profile"]], ids=["main", "profile"])
def test_a_group_named_alone_shows_its_help(args: list[str]) -> None:
    result = CliRunner().invoke(main, args)
    assert "Usage: " in result.output and "Commands:" in result.output and "error" not in result.output


def test_a_warning_naming_a_control_character_is_one_line(tmp_path: Path) -> None:
    # A map folder named with a newline and a broken map.yml: the warning names it escaped, on one line.
    odd = tmp_path / "bad\nmap"
    odd.mkdir()
    (odd / "map.yml").write_text("games: [\n")
    shutil.copytree(CLASSIC_MAP, tmp_path / "classic_variations")
    result = CliRunner().invoke(main, ["--maps-dir", str(tmp_path), "maps"])
    assert result.exit_code == 0, result.output
    assert result.stderr.count("\n") == 1 and result.stderr.startswith(f"kremlin-triplea: warning: {tmp_path}/bad\\nmap/map.yml:"), result.stderr


# -- numbers -----------------------------------------------------------------------------------------------------


def _commands(group: click.Group, ctx: click.Context, path: tuple[str, ...] = ()):
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None
        if isinstance(command, click.Group):
            yield from _commands(command, ctx, (*path, name))
        else:
            yield (*path, name), command


def _numeric_options() -> list[tuple[tuple[str, ...], str, click.ParamType]]:
    with click.Context(main) as ctx:
        found = []
        for path, command in _commands(main, ctx):
            for param in command.params:
                if isinstance(param, click.Option) and isinstance(param.type, (click.types.IntParamType, click.types.FloatParamType)):
                    found.append((path, param.opts[-1] if param.opts[-1].startswith("--") else param.opts[0], param.type))
    return found


NUMERIC = _numeric_options()


def test_the_walk_finds_the_numeric_options() -> None:
    # The commands' numeric options as their help lists them: a walk finding none would check nothing.
    assert {(" ".join(path), option) for path, option, _ in NUMERIC} >= {
        ("render", "--scale"),
        ("serve", "--port"),
        ("serve", "--picks-per-side"),
        ("verify", "--rounds"),
        ("matrix", "--samples"),
        ("matrix", "--seed"),
        ("house", "--seed"),
    }


def _bad_values(kind: click.ParamType) -> list[str]:
    """Values no number option takes: not numbers, not finite, and beyond the option's own range."""
    bad = ["nan", "inf", "-inf", "1e400", "abc", "", "²", "0x10"]
    if isinstance(kind, click.types.IntParamType):
        bad += ["1.5", "1e3"]
    low, high = getattr(kind, "min", None), getattr(kind, "max", None)
    step = 1 if isinstance(kind, click.IntRange) else 1e-6
    if low is not None:
        bad.append(str(low - step))
    if high is not None:
        bad.append(str(high + step))
    return bad


@pytest.mark.parametrize(("path", "option", "kind"), NUMERIC, ids=[f"{' '.join(p)} {o}" for p, o, _ in NUMERIC])
def test_every_numeric_option_refuses_what_is_not_a_number_in_range_in_one_line(path, option, kind, tmp_path: Path) -> None:
    for value in _bad_values(kind):
        # Alone on the line: click converts the options given before it checks for missing arguments.
        message = assert_one_line(CliRunner().invoke(main, ["--maps-dir", str(tmp_path), *path, f"{option}={value}"]))
        assert f"'{option}'" in message, (value, message)


def test_render_scale_nan_writes_nothing(tmp_path: Path) -> None:
    # The case: a PNG ended in a traceback from cairo ("cannot convert float NaN to integer").
    for out in ("map.png", "map.svg"):
        message = assert_one_line(run("render", str(AA50_1941), "--no-base", "--scale", "nan", "-o", str(tmp_path / out)))
        assert "'nan' is not a number in the range 0.05<=x<=4" in message
    assert list(tmp_path.iterdir()) == []


def test_the_library_refuses_a_scale_it_cannot_draw(tmp_path: Path) -> None:
    from kremlin_triplea.errors import InputError
    from kremlin_triplea.report.render import write_picture

    for scale in (math.nan, math.inf, 0.0, 5.0):
        with pytest.raises(InputError, match="is not a number from 0.05 to 4"):
            write_picture("<svg/>", tmp_path / "map.png", scale=scale)
    assert list(tmp_path.iterdir()) == []


def test_a_house_advantage_given_in_other_digits_is_an_unknown_choice() -> None:
    # "UK=²": str.isdigit() is true for a superscript two, and int() refused it with a traceback.
    game = "world_war_ii_revised/lhtr.xml"
    message = assert_one_line(run("house", game, "-r", "house-revised", "--advantage", "UK=²", "-o", "unused.xml"), status=2)
    assert "unknown UK advantage '²'" in message


# -- folders -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "options"),
    [
        (["show"], []),
        (["validate"], []),
        (["render"], ["--no-base", "-o", "out.svg"]),
        (["save"], ["-o", "out.tsvg"]),
        (["house"], ["-r", "house-classic", "-o", "out.xml"]),
        (["profile", "new"], []),
    ],
    ids=["show", "validate", "render", "save", "house", "profile-new"],
)
def test_a_folder_given_as_game_is_called_a_folder(command: list[str], options: list[str], tmp_path: Path) -> None:
    # Was "no such file" for a folder that exists, or "unknown map ''" for a map's own folder.
    empty = tmp_path / "empty"
    empty.mkdir()
    message = assert_one_line(run(*command, str(empty), *options))
    assert f"{empty}: a folder, not a game file; name a game file or MAP/GAME" in message
    message = assert_one_line(run(*command, str(CLASSIC_MAP), *options))
    assert f"{CLASSIC_MAP}: a folder, not a game file; name one of its games: {CLASSIC_MAP / 'map' / 'games'}/" in message


def test_a_games_folder_given_as_game_lists_its_games(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    shutil.copy(KREMLIN, games / "kremlin.xml")
    message = assert_one_line(run("show", str(games)))
    assert message.endswith(f"{games}: a folder, not a game file; name one of its games: {games / 'kremlin.xml'}\n")


def test_a_folder_given_as_base_is_called_a_folder(tmp_path: Path) -> None:
    message = assert_one_line(run("render", str(AA50_1941), "--base", str(tmp_path), "-o", str(tmp_path / "out.svg")))
    assert f"{tmp_path}: a folder, not a game file" in message


# -- repeated entries --------------------------------------------------------------------------------------------


def _draft(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "draft.toml"
    path.write_text('ruleset = "kremlin-classic"\nfirst = "Allies"\ngame = "classic_variations/kremlin.xml"\n' + text)
    return path


def test_a_neutral_taken_twice_in_one_pick_is_named_as_the_repeat(tmp_path: Path) -> None:
    # The case: was "the pick takes over 2 different neutral(s); the option takes exactly 2".
    draft = _draft(
        tmp_path,
        '[[pick]]\nside = "Allies"\noption = 2\n'
        'take = [{ neutral = "Sweden", by = "USSR" }, { neutral = "Afghanistan", by = "UK" }, { neutral = "Sweden", by = "USSR" }]\n',
    )
    message = assert_one_line(run("apply", str(draft), "-o", str(tmp_path / "out.xml")))
    assert message == f"kremlin-triplea: error: {draft}:7: pick 1, take 3: Sweden again, as in take 1; each neutral is taken over once\n"
    assert not (tmp_path / "out.xml").exists()


@pytest.mark.parametrize(
    ("retreats", "said"),
    [
        ('[{ to = "Germany" }, { to = "Ukraine S.S.R." }]', "retreat 2: a retreat for every unit again, as in retreat 1"),
        (
            '[{ to = "Germany", unit = "infantry" }, { to = "Germany" }, { to = "Ukraine S.S.R.", unit = "infantry" }]',
            "retreat 3: a retreat for infantry again, as in retreat 1",
        ),
        (
            '[{ to = "Germany", power = "Germany", unit = "armour" }, { to = "Germany", power = "Germans", unit = "armour" }]',
            "retreat 2: a retreat for Germans armour again, as in retreat 1",
        ),
    ],
    ids=["every-unit", "by-unit", "power-in-either-name"],
)
def test_a_second_retreat_for_the_same_units_is_named_as_the_repeat(tmp_path: Path, retreats: str, said: str) -> None:
    # 001 option 8: "retreat any enemy forces to the nearest enemy territory": one destination per group of units;
    # the second entry for the same group was silently never used.
    draft = _draft(tmp_path, f'[[pick]]\nside = "Allies"\noption = 8\ntakeover = {{ territory = "Libya", by = "UK", retreat = {retreats} }}\n')
    message = assert_one_line(run("apply", str(draft), "-o", str(tmp_path / "out.xml")))
    assert f"{draft}:7: pick 1, takeover, {said}; give each group of units one destination\n" in message


def test_retreats_for_different_units_are_not_repeats() -> None:
    from kremlin_triplea.draft.run import draft_from_dict
    from support.classic import KREMLIN as GAME
    from support.classic import run_for

    run_ = run_for("kremlin-classic", GAME, "Allies")
    retreat = [{"to": "Germany", "unit": "infantry"}, {"to": "Germany", "unit": "armour"}, {"to": "Ukraine S.S.R."}]
    section = draft_from_dict(
        {
            "ruleset": "kremlin-classic",
            "first": "Allies",
            "pick": [{"side": "Allies", "option": 8, "takeover": {"territory": "Libya", "by": "UK", "retreat": retreat}}],
        }
    ).picks[0]
    assert len(run_.run.parse_pick(1, section).target.retreats) == 3  # type: ignore[attr-defined]


def test_placements_of_the_same_units_add_up_and_are_not_repeats() -> None:
    # Placement entries count units: the legal enumeration itself writes three infantry as three entries of one
    # (draft/kinds/placement.py), so two entries for one place are two units there, not a slip.
    from support.classic import KREMLIN as GAME
    from support.classic import pick, run_for

    run_ = run_for("kremlin-classic", GAME, "Allies")
    east = run_.state.names.place("Eastern USA")
    before = run_.game.board.units(east)[("Americans", "infantry")]
    pick(
        run_,
        "Allies",
        1,
        place=[{"power": "USA", "unit": "infantry", "count": 2, "at": "Eastern USA"}, {"power": "USA", "unit": "infantry", "at": "Eastern USA"}],
    )
    assert run_.game.board.units(east)[("Americans", "infantry")] == before + 3


@pytest.mark.parametrize("key", ["house_rules", "choices"])
def test_a_house_rule_set_or_choice_listed_twice_is_named(tmp_path: Path, key: str) -> None:
    # A set listed twice was applied twice: its 15 rules for the players were listed twice in the game's notes.
    draft = tmp_path / "draft.toml"
    sets = '"house-classic", "house-classic"' if key == "house_rules" else '"house-classic"'
    choices = '"low_luck", "low_luck"' if key == "choices" else '"low_luck"'
    draft.write_text(f'game = "classic_variations/kremlin.xml"\nhouse_rules = [{sets}]\nchoices = [{choices}]\n')
    line = 2 if key == "house_rules" else 3
    repeated = "house-classic" if key == "house_rules" else "low_luck"
    message = assert_one_line(run("apply", str(draft), "-o", str(tmp_path / "out.xml")))
    assert message == f"kremlin-triplea: error: {draft}:{line}: {key}: {repeated} again; list each once\n"


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["-r", "house-revised", "-r", "house-revised"], "--rules house-revised given twice; give each set once"),
        (
            ["-r", "house-revised", "--switch", "hr3_gibraltar=on", "--switch", "hr3_gibraltar=off"],
            "--switch hr3_gibraltar given twice (hr3_gibraltar=on, hr3_gibraltar=off); give it once",
        ),
        (
            ["-r", "house-revised", "--advantage", "UK=radar", "--advantage", "UK=enigma-decoded"],
            "--advantage UK given twice (UK=radar, UK=enigma-decoded); give it once",
        ),
    ],
    ids=["rules", "switch", "advantage"],
)
def test_house_options_given_twice_are_named(tmp_path: Path, options: list[str], said: str) -> None:
    # The last one silently won (a switch on, then off), or a set was applied twice.
    message = assert_one_line(run("house", "world_war_ii_revised/lhtr.xml", *options, "-o", str(tmp_path / "out.xml")))
    assert message == f"kremlin-triplea: error: {said}\n"
    assert not (tmp_path / "out.xml").exists()


# -- digits int() does not read ----------------------------------------------------------------------------------
# str.isdigit() is true for "²" and "①", which int() (and Java's Integer.parseInt) refuses: every check before an
# int() asks isdecimal(), true exactly for the digits int() reads.


@pytest.mark.parametrize(
    ("pattern", "replacement"),
    [
        (r'name="transportCapacity" value="\d+"', 'name="transportCapacity" value="²"'),
        (r'<resourceGiven player="(\w+)" resource="PUs" quantity="\d+"', r'<resourceGiven player="\1" resource="PUs" quantity="²"'),
    ],
    ids=["transport-capacity", "resource"],
)
def test_odd_digits_in_a_game_file_give_no_traceback(tmp_path: Path, pattern: str, replacement: str) -> None:
    import re

    text, replaced = re.subn(pattern, replacement, KREMLIN.read_text(encoding="utf-8"), count=1)
    assert replaced == 1
    odd = tmp_path / "kremlin.xml"
    odd.write_text(text, encoding="utf-8")
    for command in ("validate", "show"):
        result = run(command, str(odd))
        assert result.exit_code in (0, 1, 2) and (result.exception is None or isinstance(result.exception, SystemExit)), (command, result.output)
        if result.exit_code == 2:
            assert_one_line(result)


def test_odd_digits_in_a_property_range_the_draft_sets_give_no_traceback(tmp_path: Path) -> None:
    # 001 "Both IPC Victory on": the draft writes "Axis Economic Victory" = 84 and widens the property's declared
    # range when the value lies outside it; a range written "①" was read as a number and int() failed (a traceback).
    import re

    pattern = r'name="Axis Economic Victory" value="\d+" editable="true">(\s*)<number min="\d+" max="\d+"'
    text, replaced = re.subn(
        pattern, r'name="Axis Economic Victory" value="100" editable="true">\1<number min="70" max="①"', KREMLIN.read_text(encoding="utf-8")
    )
    assert replaced == 1
    game = tmp_path / "kremlin.xml"
    game.write_text(text, encoding="utf-8")
    example = Path(__file__).parents[1] / "examples" / "kremlin-classic-kremlin.toml"
    draft = tmp_path / "draft.toml"
    draft.write_text(re.sub(r"(?m)^game = .*$", 'game = "kremlin.xml"', example.read_text(encoding="utf-8")), encoding="utf-8")
    result = run("apply", str(draft), "-o", str(tmp_path / "out.xml"))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    # TripleA reads a property's range with Integer.parseInt, which takes no circled digit (Character.digit is -1):
    # it refuses such a base game, so apply does, in one line at the range's line (issue 33), and writes nothing.
    line = text[: text.index('max="①"')].count("\n") + 1
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1, result.output
    assert f"kremlin.xml:{line}:" in result.output and "not a whole number" in result.output
    assert not (tmp_path / "out.xml").exists()


def test_odd_digits_in_the_draft_rooms_forms_are_refused_as_fields() -> None:
    from kremlin_triplea.web.forms import FormError, option_of, rows

    with pytest.raises(FormError, match=r"at\.²: not a field of this form"):
        rows({"at.²": "Germany"}, "at")
    assert option_of({"option": "²"}) == "²"  # a name, looked up as one (and refused as an unknown option there)


@pytest.mark.parametrize(("key", "value"), [("profile", '"r.toml"'), ("ruleset", '"r.toml"'), ("house_rules", '["r.toml"]')])
def test_a_folder_a_draft_names_as_a_rule_file_is_called_a_folder(tmp_path: Path, key: str, value: str) -> None:
    # Was "no such file" for a folder beside the draft (looked for elsewhere), or "not a regular file".
    import re

    (tmp_path / "r.toml").mkdir()
    text = (Path(__file__).parents[1] / "examples" / "kremlin-classic-kremlin.toml").read_text()
    text = re.sub(rf"(?m)^{key} = .*$", f"{key} = {value}", text) if re.search(rf"(?m)^{key} = ", text) else f"{key} = {value}\n{text}"
    draft = tmp_path / "draft.toml"
    draft.write_text(text)
    message = assert_one_line(run("apply", str(draft), "-o", str(tmp_path / "out.xml")))
    kind = "map profile" if key == "profile" else "rule file"
    assert f"{key}: {tmp_path / 'r.toml'}: a folder, not a {kind}" in message


def test_a_folder_given_as_ruleset_is_called_a_folder(tmp_path: Path) -> None:
    (tmp_path / "r.toml").mkdir()
    message = assert_one_line(run("options", "--ruleset", str(tmp_path / "r.toml")))
    assert message == f"kremlin-triplea: error: --ruleset: {tmp_path / 'r.toml'}: a folder, not a rule file\n"


# -- the host's files and paths (issue 40) ------------------------------------------------------------------------


def test_a_home_folder_of_no_user_is_one_line_naming_where_it_came_from(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``~unknownuser/...``: pathlib raised RuntimeError ("Could not determine home directory.") as a traceback."""
    unknown = "~kremlin-no-such-user-40"
    monkeypatch.setenv("KREMLIN_TRIPLEA_MAPS", f"{unknown}/maps")
    message = assert_one_line(CliRunner().invoke(main, ["maps"]))
    assert message.startswith("kremlin-triplea: error: $KREMLIN_TRIPLEA_MAPS: ") and "no home folder for user kremlin-no-such-user-40" in message
    monkeypatch.delenv("KREMLIN_TRIPLEA_MAPS")
    message = assert_one_line(CliRunner().invoke(main, ["--maps-dir", f"{unknown}/maps", "maps"]))
    assert message.startswith("kremlin-triplea: error: --maps-dir: ")
    for command in ("show", "validate"):
        message = assert_one_line(run(command, f"{unknown}/game.xml"))
        assert f"{unknown}/game.xml: " in message and "no home folder" in message


def test_a_bad_maps_folder_from_the_environment_is_named_as_the_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a_file = tmp_path / "not-a-folder"
    a_file.write_text("x")
    monkeypatch.setenv("KREMLIN_TRIPLEA_MAPS", str(a_file))
    message = assert_one_line(CliRunner().invoke(main, ["maps"]))
    assert "$KREMLIN_TRIPLEA_MAPS" in message and "--maps-dir" not in message, message
    message = assert_one_line(CliRunner().invoke(main, ["--maps-dir", str(a_file), "maps"]))
    assert "'--maps-dir'" in message  # given on the command line, it is the option's


def test_a_huge_map_width_is_one_line_not_all_the_memory(tmp_path: Path) -> None:
    folder = tmp_path / "map"
    shutil.copytree(MAPS_DIR / "world_war_ii_v3" / "map", folder)
    properties = folder / "map.properties"
    properties.chmod(0o644)
    properties.write_text(properties.read_text().replace("map.width=", "map.width=1000000000000\n#map.width="), encoding="utf-8")
    message = assert_one_line(run("render", str(AA50_1941), "--no-base", "--map-dir", str(folder), "-o", str(tmp_path / "map.svg")))
    assert f"{properties}: map.width is 1,000,000,000,000 pixels" in message
    assert not (tmp_path / "map.svg").exists()


def test_validate_with_an_unwritable_cache_folder_still_validates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A read-only home (here a file where the cache folder goes): the cache is optional."""
    blocker = tmp_path / "home-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker / "cache"))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)  # TMPDIR read again
    result = run("validate", str(AA50_1941))
    assert result.exit_code == 0, result.stderr
    assert "valid for TripleA 2.x" in result.stdout


def test_a_profile_given_as_a_path_to_a_regular_file_is_read_and_a_fifo_is_named_a_fifo(tmp_path: Path) -> None:
    from kremlin_triplea.errors import InputError
    from kremlin_triplea.rules.datafiles import find_data_file

    regular = tmp_path / "my-profile.txt"
    regular.write_text("x")
    assert find_data_file("maps", str(regular)) == regular, "a regular file named by its path is the file (was 'not a regular file')"
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    found = find_data_file("maps", str(fifo))
    with pytest.raises(InputError, match="is a FIFO"):
        from kremlin_triplea.rules.profile import load_profile

        load_profile(found)


@pytest.mark.linux_only
def test_a_fifo_where_a_profile_is_looked_for_is_named_not_passed_over(tmp_path: Path) -> None:
    maps = tmp_path / "maps"
    shutil.copytree(MAPS_DIR / "world_war_ii_v3", maps / "world_war_ii_v3")
    (tmp_path / "profiles").mkdir()
    fifo = tmp_path / "profiles" / "world_war_ii_v3.toml"
    os.mkfifo(fifo)
    example = Path(__file__).resolve().parents[1] / "examples" / "kremlin-aa50-1941.toml"
    message = assert_one_line(CliRunner().invoke(main, ["--maps-dir", str(maps), "apply", str(example), "-o", str(tmp_path / "out.xml")]))
    assert f"{fifo}: is a FIFO (named pipe)" in message
    assert not (tmp_path / "out.xml").exists()

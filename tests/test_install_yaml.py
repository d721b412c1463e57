"""Installing into map.yml keeps every game the map lists, in every style YAML allows (issue 15).

The expectations come from YAML itself (PyYAML parses the file before and
after) and from TripleA's reading of map.yml: the `games` list of
{game_name, file_name} entries; a second `games:` key would hide the first
(YAML keeps the last key), which is the defect this guards against.
"""

from __future__ import annotations

import difflib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import unicodedata
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kremlin_triplea.cli.main import main
from kremlin_triplea.errors import InputError
from kremlin_triplea.gamefile.gamenames import looks_like, plain_name_problem
from kremlin_triplea.gamefile.install import INSTALL_MARK, RECORD_NAME, install_game, installed_games, uninstall_game
from kremlin_triplea.gamefile.locate import read_map_folder
from kremlin_triplea.gamefile.mapyml import add_game, remove_game
from support.paths import MAPS_DIR
from support.properties import examples

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "kremlin-aa50-1941.toml"
GAME = b"<?xml version='1.0'?><game><info name='x'/></game>"


def marked(game: bytes) -> bytes:
    """A game file as installed: its bytes, then the install mark on a line of its own."""
    return game + b"\n" + INSTALL_MARK.encode("ascii") + b"\n"


def games_of(text: str) -> list:
    return (yaml.safe_load(text) or {}).get("games") or []


def only_insertions(old: str, new: str) -> bool:
    """Whether ``new`` is ``old`` with text inserted and nothing else changed."""
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    return all(tag in ("equal", "insert") for tag, *_ in matcher.get_opcodes())


def a_map(tmp: Path, text: str | bytes) -> Path:
    folder = tmp / "amap"
    (folder / "map" / "games").mkdir(parents=True)
    (folder / "map.yml").write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return folder


# -- every style, one by one -----------------------------------------------------

STYLES = {
    "block": "map_name: amap\ngames:\n- game_name: A\n  file_name: a.xml\n- {game_name: B, file_name: b.xml}\n",
    "indented block": "map_name: amap\ngames:\n  - game_name: A\n    file_name: a.xml\n  - game_name: B\n    file_name: b.xml\nversion: 3\n",
    "flow": "map_name: amap\ngames: [{game_name: A, file_name: a.xml}, {game_name: B, file_name: b.xml}]\n",
    "flow over lines": "games: [\n  {game_name: A, file_name: a.xml},\n  {game_name: B, file_name: b.xml}\n]\nmap_name: amap\n",
    "empty flow": "map_name: amap\ngames: []\n",
    "commented key": "map_name: amap\ngames: # none yet\nversion: 1\n",
    "bare key at the end": "map_name: amap\ngames:",
    "no key": "map_name: amap\n# a comment\n",
    "no final line break": "map_name: amap\ngames:\n- {game_name: A, file_name: a.xml}",
    "CRLF": "map_name: amap\r\ngames:\r\n  - game_name: A\r\n    file_name: a.xml\r\n",
    "comments in the list": "games:\n# first\n- {game_name: A, file_name: a.xml}  # shipped\n# trailing comment\n\nmap_name: amap\n",
    "empty file": "",
}


@pytest.mark.parametrize("style", STYLES)
def test_install_keeps_every_game_in_every_style_and_uninstall_restores_the_bytes(tmp_path: Path, style: str) -> None:
    original = STYLES[style]
    folder = a_map(tmp_path, original)
    before = games_of(original)
    installed = install_game(read_map_folder(folder), "Kremlin: Bob's game", GAME, "<p>notes</p>")
    after_bytes = (folder / "map.yml").read_bytes()
    after = after_bytes.decode("utf-8")
    assert games_of(after) == before + [{"game_name": "Kremlin: Bob's game", "file_name": installed.game_file.name}]
    rest_before = {k: v for k, v in (yaml.safe_load(original) or {}).items() if k != "games"}
    assert {k: v for k, v in yaml.safe_load(after).items() if k != "games"} == rest_before
    assert only_insertions(original, after)
    if "\r\n" in original:
        assert after.count("\r\n") == after.count("\n"), "every line keeps its CRLF"
    assert installed.game_file.read_bytes() == marked(GAME)
    uninstall_game(tmp_path, "Kremlin: Bob's game")
    assert (folder / "map.yml").read_bytes() == original.encode("utf-8")
    assert not installed.game_file.exists() and not installed.notes_file.exists()


REFUSED = {
    "scalar": "games: none\n",
    "mapping": "games: {game_name: A, file_name: a.xml}\n",
    "two keys": "games: [{game_name: A, file_name: a.xml}]\ngames: []\n",
    "alias": "shipped: &g [{game_name: A, file_name: a.xml}]\ngames: *g\n",
    "not a mapping": "- a\n- b\n",
    "two documents": "map_name: a\n---\nmap_name: b\n",
    "broken YAML": "games: [\n",
}


@pytest.mark.parametrize("style", REFUSED)
def test_a_map_yml_that_cannot_be_edited_safely_is_refused_with_one_line_and_not_changed(tmp_path: Path, style: str) -> None:
    folder = a_map(tmp_path, REFUSED[style])
    before = sorted(p.name for p in (folder / "map" / "games").iterdir())
    with pytest.raises(InputError) as refused:
        add_game(REFUSED[style], "Kremlin", "Kremlin.xml", where=str(folder / "map.yml"))
    message = str(refused.value)
    assert "\n" not in message and "map.yml" in message and "not changed" in message
    assert (folder / "map.yml").read_text() == REFUSED[style]
    assert sorted(p.name for p in (folder / "map" / "games").iterdir()) == before


def test_install_refusing_a_map_yml_writes_no_game_file(tmp_path: Path) -> None:
    folder = a_map(tmp_path, "map_name: amap\ngames: [a, [b]]\nx: &y 1\n")
    folder_view = read_map_folder(folder)
    (folder / "map.yml").write_text("map_name: amap\ngames: none\n")
    with pytest.raises(InputError, match="'games' is 'none', not a list of games"):
        install_game(folder_view, "Kremlin", GAME)
    assert list((folder / "map" / "games").iterdir()) == []
    assert not (folder / RECORD_NAME).exists()


def test_a_symlinked_map_yml_stays_a_link_and_its_target_is_edited(tmp_path: Path) -> None:
    folder = a_map(tmp_path, "")
    real = tmp_path / "shared-map.yml"
    real.write_text(STYLES["block"])
    (folder / "map.yml").unlink()
    (folder / "map.yml").symlink_to(real)
    install_game(read_map_folder(folder), "Kremlin", GAME)
    assert (folder / "map.yml").is_symlink() and os.readlink(folder / "map.yml") == str(real)
    assert [g["game_name"] for g in games_of(real.read_text())] == ["A", "B", "Kremlin"]


def test_map_yml_keeps_its_permissions(tmp_path: Path) -> None:
    folder = a_map(tmp_path, STYLES["flow"])
    (folder / "map.yml").chmod(0o640)
    install_game(read_map_folder(folder), "Kremlin", GAME)
    assert (folder / "map.yml").stat().st_mode & 0o777 == 0o640


def test_a_bom_stays(tmp_path: Path) -> None:
    text = "\ufeffmap_name: amap\ngames:\n- {game_name: A, file_name: a.xml}\n"
    folder = a_map(tmp_path, text)
    install_game(read_map_folder(folder), "Kremlin", GAME)
    after = (folder / "map.yml").read_bytes()
    assert after.startswith(b"\xef\xbb\xbfmap_name: amap\n") and len(games_of(after.decode("utf-8-sig"))) == 2


# -- the same name again, installed, uninstall ---------------------------------------


def test_the_same_name_again_needs_force_and_a_shipped_game_is_never_replaced(tmp_path: Path) -> None:
    folder = a_map(tmp_path, STYLES["block"])
    first = install_game(read_map_folder(folder), "Kremlin", b"<game>1</game>")
    yml = (folder / "map.yml").read_bytes()
    with pytest.raises(InputError, match="already has a game named 'Kremlin'; use --force"):
        install_game(read_map_folder(folder), "Kremlin", b"<game>2</game>")
    assert first.game_file.read_bytes() == marked(b"<game>1</game>")
    again = install_game(read_map_folder(folder), "Kremlin", b"<game>2</game>", force=True)
    assert again.replaced and again.game_file == first.game_file and first.game_file.read_bytes() == marked(b"<game>2</game>")
    assert (folder / "map.yml").read_bytes() == yml, "replacing keeps the one entry"
    with pytest.raises(InputError, match="did not install; it is never replaced"):
        install_game(read_map_folder(folder), "A", b"<game/>", force=True)


def test_installed_lists_and_uninstall_removes_only_ours(tmp_path: Path) -> None:
    shutil.copytree(MAPS_DIR / "world_war_ii_v3", tmp_path / "world_war_ii_v3")
    map_yml = tmp_path / "world_war_ii_v3" / "map.yml"
    original = map_yml.read_bytes()
    runner = CliRunner()
    assert runner.invoke(main, ["--maps-dir", str(tmp_path), "installed"]).stdout == "no games installed by kremlin-triplea\n"
    result = runner.invoke(main, ["--maps-dir", str(tmp_path), "apply", str(EXAMPLE), "--install", "--name", "Alice v Bob"])
    assert result.exit_code == 0, result.stderr
    listed = runner.invoke(main, ["--maps-dir", str(tmp_path), "installed"]).stdout.splitlines()
    assert len(listed) == 1
    map_name, name, file_name, date = listed[0].split("\t")
    assert (map_name, name) == ("world_war_ii_v3", "Alice v Bob") and Path(file_name).is_file() and len(date) == 10
    # The game TripleA lists is named as map.yml lists it.
    assert b'<info name="Alice v Bob"' in Path(file_name).read_bytes()
    again = runner.invoke(main, ["--maps-dir", str(tmp_path), "apply", str(EXAMPLE), "--install", "--name", "Alice v Bob"])
    assert again.exit_code == 2 and again.stderr.count("\n") == 1 and "use --force" in again.stderr
    refused = runner.invoke(main, ["--maps-dir", str(tmp_path), "uninstall", "World War II v3 1941"])
    assert refused.exit_code == 2 and "unknown installed game" in refused.stderr
    gone = runner.invoke(main, ["--maps-dir", str(tmp_path), "uninstall", "Alice v Bob"])
    assert gone.exit_code == 0, gone.stderr
    assert map_yml.read_bytes() == original and not Path(file_name).exists()
    assert installed_games(tmp_path) == []


def test_the_default_name_is_the_game_the_sides_and_the_date(tmp_path: Path) -> None:
    import datetime

    shutil.copytree(MAPS_DIR / "world_war_ii_v3", tmp_path / "world_war_ii_v3")
    result = CliRunner().invoke(main, ["--maps-dir", str(tmp_path), "apply", str(EXAMPLE), "--install"])
    assert result.exit_code == 0, result.stderr
    (game,) = installed_games(tmp_path)
    # issue 14: "the ruleset, the players' names and the date"; the draft names sides, not players.
    assert game.game_name == f"World War II v3 1941 Kremlin - Axis v Allies {datetime.date.today().isoformat()}"


# -- concurrent installs ----------------------------------------------------------


def test_installs_at_once_each_get_their_entry(tmp_path: Path) -> None:
    folder = a_map(tmp_path, STYLES["indented block"])
    errors: list[BaseException] = []

    def install(number: int) -> None:
        try:
            install_game(read_map_folder(folder), f"Kremlin {number}", GAME)
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=install, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    names = [g["game_name"] for g in games_of((folder / "map.yml").read_text())]
    assert names[:2] == ["A", "B"] and sorted(names[2:]) == sorted(f"Kremlin {n}" for n in range(8))
    files = [g["file_name"] for g in games_of((folder / "map.yml").read_text())[2:]]
    assert len(set(files)) == 8 and all((folder / "map" / "games" / f).is_file() for f in files)


def test_installs_of_the_same_name_at_once_list_it_once(tmp_path: Path) -> None:
    folder = a_map(tmp_path, STYLES["flow"])
    outcomes: list[str] = []

    def install() -> None:
        try:
            install_game(read_map_folder(folder), "Kremlin", GAME)
            outcomes.append("installed")
        except InputError as error:
            outcomes.append(str(error))

    threads = [threading.Thread(target=install) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes.count("installed") == 1
    assert [g["game_name"] for g in games_of((folder / "map.yml").read_text())].count("Kremlin") == 1


# -- the property: every style YAML allows -----------------------------------------

_NAME_CHARS = st.characters(whitelist_categories=("Lu", "Ll", "Nd"), whitelist_characters=" :'-&#()é,", max_codepoint=0x17F)
names = (
    st.text(_NAME_CHARS, min_size=1, max_size=20)
    .map(lambda t: " ".join(unicodedata.normalize("NFKC", t).split()))
    .filter(lambda t: plain_name_problem(t) is None)
)


def _quoted(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a YAML double-quoted scalar


@st.composite
def map_ymls(draw) -> tuple[str, list[dict]]:
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    style = draw(st.sampled_from(["absent", "null", "null comment", "flow", "flow lines", "block", "indented block"]))
    least = 1 if "block" in style else 0  # a block list has at least one item; the empty ones are the null styles
    listed = draw(st.lists(names, min_size=least, max_size=4, unique_by=str.lower)) if style not in ("absent", "null", "null comment") else []
    games = [{"game_name": n, "file_name": f"g{i}.xml"} for i, n in enumerate(listed)]
    indent = " " * draw(st.integers(1, 4))
    entry_flow = lambda g: "{game_name: " + _quoted(g["game_name"]) + ", file_name: " + g["file_name"] + "}"  # noqa: E731
    lines: list[str] = []
    if style == "null":
        lines = ["games:"]
    elif style == "null comment":
        lines = ["games:  # " + draw(st.sampled_from(["none", "games: [x]", "- a"]))]
    elif style == "flow":
        lines = ["games: [" + ", ".join(entry_flow(g) for g in games) + "]" + draw(st.sampled_from(["", "  # listed"]))]
    elif style == "flow lines":
        lines = ["games: ["] + [indent + entry_flow(g) + "," for g in games] + ["]"]
    elif style in ("block", "indented block"):
        dash = indent if style == "indented block" else ""
        lines = ["games:"]
        for g in games:
            if draw(st.booleans()):
                lines.append(f"{dash}- {entry_flow(g)}")
            else:
                lines += [f"{dash}- game_name: {_quoted(g['game_name'])}", f"{dash}  file_name: {g['file_name']}"]
            if draw(st.booleans()):
                lines.append(draw(st.sampled_from(["", "# comment", f"{dash}# indented comment"])))
    others = [["map_name: amap"], ["version: 2"], ["# just a comment"], ["description: >", "  folded text", "  over lines"], [""]]
    chosen = draw(st.lists(st.sampled_from(others), max_size=4))
    position = draw(st.integers(0, len(chosen)))
    blocks = chosen[:position] + ([lines] if lines else []) + chosen[position:]
    text = newline.join(line for block in blocks for line in block)
    if text and draw(st.booleans()):
        text += newline
    return text, games


@pytest.mark.slow
@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(map_ymls(), names)
def test_property_install_adds_exactly_one_entry_and_changes_no_other_byte(generated: tuple[str, list[dict]], name: str) -> None:
    text, games = generated
    parsed = yaml.safe_load(text) or {}
    assert (parsed.get("games") or []) == games  # the generator writes what it means
    with tempfile.TemporaryDirectory() as temporary:
        folder = a_map(Path(temporary), text)
        if name.lower() in {g["game_name"].lower() for g in games} or any(looks_like(name, g["game_name"]) for g in games):
            with pytest.raises(InputError):
                install_game(read_map_folder(folder), name, GAME)
            assert (folder / "map.yml").read_bytes() == text.encode("utf-8")
            return
        installed = install_game(read_map_folder(folder), name, GAME)
        after = (folder / "map.yml").read_bytes().decode("utf-8")
        assert games_of(after) == games + [{"game_name": name, "file_name": installed.game_file.name}]
        assert {k: v for k, v in (yaml.safe_load(after) or {}).items() if k != "games"} == {k: v for k, v in parsed.items() if k != "games"}
        assert only_insertions(text, after)
        if "\r\n" in text:
            assert after.count("\n") == after.count("\r\n")
        uninstall_game(Path(temporary), name)
        assert (folder / "map.yml").read_bytes() == text.encode("utf-8")


def test_add_and_remove_are_inverse_on_text() -> None:
    for text in STYLES.values():
        insertion = add_game(text, "N", "n.xml")
        assert remove_game(insertion.text, "N", created_key=insertion.created_key, added_newline=insertion.added_newline) == text


@pytest.mark.slow
def test_installs_from_separate_processes_at_once_each_get_their_entry(tmp_path: Path) -> None:
    folder = a_map(tmp_path, STYLES["block"])
    script = (
        "import sys\nfrom kremlin_triplea.gamefile.install import install_game\n"
        "from kremlin_triplea.gamefile.locate import read_map_folder\nfrom pathlib import Path\n"
        "install_game(read_map_folder(Path(sys.argv[1])), sys.argv[2], b'<game/>')\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    processes = [subprocess.Popen([sys.executable, "-c", script, str(folder), f"Kremlin {n}"], env=env, stderr=subprocess.PIPE) for n in range(6)]
    for process in processes:
        assert process.wait(60) == 0, process.stderr.read()
    names = [g["game_name"] for g in games_of((folder / "map.yml").read_text())]
    assert names[:2] == ["A", "B"] and sorted(names[2:]) == sorted(f"Kremlin {n}" for n in range(6))


def test_a_map_yml_triplea_cannot_read_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    """``game_name: 1e3`` unquoted (as earlier versions wrote it): TripleA's SnakeYAML reads a number and drops the whole
    map.yml, so a game added to it would not be listed either (tests/test_mapyml_engine.py asks TripleA's reader)."""
    text = "map_name: amap\ngames:\n- {game_name: Stock, file_name: stock.xml}\n- {game_name: 1e3, file_name: 1e3.xml}\n"
    folder = a_map(tmp_path, text)
    with pytest.raises(InputError, match=r"map.yml:4: game_name 1e3 is read by TripleA as a number.*write it in quotes \(game_name: \"1e3\"\)"):
        install_game(read_map_folder(folder), "Kremlin", GAME)
    assert (folder / "map.yml").read_text() == text
    assert list((folder / "map" / "games").iterdir()) == []

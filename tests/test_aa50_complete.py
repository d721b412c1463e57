"""Kremlin AA50 end to end: the example drafts of both games, --install, and the real engine playing them.

Needs Debian's ``triplea`` package and a JDK for the engine tests (like
tests/test_engine_harness.py); not skipped without. The engine reads both
generated games in one JVM and plays them in another, one round each (a
two-round run of the 1941 example showed China's first-move step once, in
round 1, as maxRunCount="1" makes TripleA skip it afterwards).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from lxml import etree

from kremlin_triplea.check.validate import validate_tree
from kremlin_triplea.cli.main import main
from kremlin_triplea.game import load
from kremlin_triplea.gamefile.document import XmlDocument
from support.paths import MAPS_DIR

pytestmark = pytest.mark.engine

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = {"1941": REPO / "examples" / "kremlin-aa50-1941.toml", "1942": REPO / "examples" / "kremlin-aa50-1942.toml"}
BOTH = pytest.mark.parametrize("year", sorted(EXAMPLES))
CHINA_STEP = "kremlinChinaFirstMoveChineseNonCombatMove"


def run(*args: str, maps: Path = MAPS_DIR):
    return CliRunner().invoke(main, ["--maps-dir", str(maps), *args], catch_exceptions=False)


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("aa50")
    files = {}
    for year, draft in EXAMPLES.items():
        files[year] = folder / f"kremlin-{year}.xml"
        result = run("apply", str(draft), "-o", str(files[year]))
        assert result.exit_code == 0, result.output
    return files


# What each example's scenario picks and section D rules must have left in the written game.
EXPECTED_SUMMARY = {
    "1941": [
        'pick 9 (Axis, option 11 Special "What-if" Scenarios: Japan attacks on Russia go well):',
        "  destroy 3 Russians infantry in Buryatia S.S.R.",
        'pick 10 (Allies, option 11 Special "What-if" Scenarios: Enigma decoded earlier):',
        "  British place 1 transport in 2 Sea Zone",
    ],
    "1942": [
        "  1942 version: If this scenerio is chosen in the 1942 version simply remove the carrier and fighter from the Hawaii Seazone(SZ 53).",
        "  no German artillery in Libya in 1942: removed the German infantry, as the 1942 clause says (map profile: WW2v3-1942.xml has 1 German infantry and 1 armour in Libya, no artillery; the seed's own 1942 clause removes the infantry)",
        "  Chinese take over Burma (was Japanese); it now belongs to British (liberated: its original owner), original owner British; Chinese place 1 infantry, 1 artillery",
        "  bid -6: the Allies receive 6 PUs",
    ],
}


@BOTH
def test_the_example_draft_writes_a_valid_game_with_section_d_in_it(year: str, written: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "again.xml"
    result = run("apply", str(EXAMPLES[year]), "-o", str(out))
    lines = result.output.splitlines()
    for expected in EXPECTED_SUMMARY[year]:
        assert expected in lines
    assert "written into the game:" in lines
    assert out.read_bytes() == written[year].read_bytes()  # same inputs, same bytes
    assert validate_tree(XmlDocument.read(out).root, str(out)) == []
    board = load(out).board
    assert (board.node("Eastern Canada")["victory_city"], board.node("Union of South Africa")["victory_city"]) == (0, 1)
    root = etree.parse(str(out)).getroot()
    assert CHINA_STEP in [s.get("name") for s in root.iter("step")]
    canals = {a.get("attachTo") for a in root.iter("attachment") if a.get("name", "").startswith("canalAttachmentKremlin")}
    assert canals == {"5 Sea Zone", "6 Sea Zone", "12 Sea Zone", "13 Sea Zone", "14 Sea Zone", "15 Sea Zone", "16 Sea Zone"}
    notes = board.properties["notes"]
    honour = notes[notes.index("<h3>You enforce</h3>") : notes.index("<hr/>")]
    # 000_bc04a4edf7f7d2ab.txt D) (1) and (5), quoted whole in what the players enforce.
    assert "Only 2 tech tokens per side (Axis or Allied) per round may be purchased" in honour
    assert "then China may upgrade one infantry unit to an artillery unit(in Yunnan only)." in honour


def test_the_scenarios_of_the_examples_are_in_the_written_games(written: dict[str, Path]) -> None:
    b41, b42 = load(written["1941"]).board, load(written["1942"]).board
    assert b41.owner("Buryatia S.S.R.") == "Japanese" and b41.node("Buryatia S.S.R.")["original_owner"] == "Russians"
    assert dict(b41.units("Buryatia S.S.R.")) == {("Japanese", "infantry"): 1, ("Japanese", "artillery"): 1}
    assert b41.units("7 Sea Zone")[("Germans", "submarine")] == 1
    assert b42.units("53 Sea Zone")[("Americans", "carrier")] == 0 and b42.units("53 Sea Zone")[("Americans", "destroyer")] == 1
    assert b42.units("Libya")[("Germans", "infantry")] == 0 and b42.units("Libya")[("Germans", "armour")] == 1


def test_install_puts_the_game_where_tripleA_lists_it(tmp_path: Path) -> None:
    """Issue 14: installed under --name (default: the game, the sides and the date); the same name again only with --force."""
    maps = tmp_path / "downloadedMaps"
    shutil.copytree(MAPS_DIR / "world_war_ii_v3", maps / "world_war_ii_v3")
    before = (maps / "world_war_ii_v3" / "map.yml").read_text()
    first = run("apply", str(EXAMPLES["1942"]), "--install", "--name", "Kremlin 1942 Ann v Bob", maps=maps)
    again = run("apply", str(EXAMPLES["1942"]), "--install", "--name", "Kremlin 1942 Ann v Bob", maps=maps)
    second = run("apply", str(EXAMPLES["1942"]), "--install", "--name", "Kremlin 1942 rematch", "-o", str(tmp_path / "copy.xml"), maps=maps)
    assert first.exit_code == 0 and second.exit_code == 0, first.output + second.output
    assert again.exit_code == 2 and "already has a game named 'Kremlin 1942 Ann v Bob'; use --force" in again.output
    after = (maps / "world_war_ii_v3" / "map.yml").read_text()
    assert after.startswith(before)  # every existing entry and byte kept
    listed = [(g["game_name"], g["file_name"]) for g in yaml.safe_load(after)["games"]]
    assert [name for name, _ in listed[-2:]] == ["Kremlin 1942 Ann v Bob", "Kremlin 1942 rematch"]
    games = maps / "world_war_ii_v3" / "map" / "games"
    for name, file_name in listed[-2:]:
        assert load(games / file_name).name == name  # the <info name> is the listed name
        notes = (games / file_name).with_suffix(".notes.html").read_text()
        assert "<h2>Kremlin draft: Kremlin bonus options for AA50" in notes
    assert load(tmp_path / "copy.xml").name == listed[-1][0]


def test_apply_needs_somewhere_to_put_the_game() -> None:
    result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "apply", str(EXAMPLES["1941"])])
    assert result.exit_code == 2 and "say where the game goes: -o FILE, --install, --savegame FILE, or several" in result.output


# -- the real engine ------------------------------------------------------------


@pytest.fixture(scope="module")
def verified(written: dict[str, Path]):
    from kremlin_triplea.engine.verify import verify_with_engine

    years = sorted(written)
    return dict(zip(years, verify_with_engine([written[y] for y in years], rounds=1)))


@BOTH
def test_the_engine_reads_what_we_wrote_and_plays_a_round_with_fast_ai(year: str, verified) -> None:
    result = verified[year]
    assert result.disagreements == ()
    play = result.play
    assert play.ok, (play.error, play.exceptions)
    assert play.exceptions == () and play.rounds_played == 1
    # China's first move: once, before any other power's turn (the bids come before it).
    assert play.steps.count(CHINA_STEP) == 1
    first_turn = next(i for i, s in enumerate(play.steps) if s.endswith("Tech"))
    assert play.steps.index(CHINA_STEP) < first_turn


@BOTH
def test_the_engines_move_validator_closes_the_straits(year: str, verified) -> None:
    crossings = verified[year].engine_rules["crossings"]
    ships = ("battleship", "carrier", "cruiser", "destroyer", "submarine", "transport")
    allies, axis = ("British", "Americans", "Russians", "Chinese"), ("Germans", "Italians", "Japanese")
    # Gibraltar British, Morocco Algeria Axis: nobody's ships pass; aircraft fly over.
    for power in allies + axis:
        assert not any(crossings["12 Sea Zone|13 Sea Zone"][power][u] for u in ships)
        assert crossings["12 Sea Zone|13 Sea Zone"][power]["fighter"]
    # Turkey neutral: the Dardanelles are shut to everybody.
    for pair in ("14 Sea Zone|16 Sea Zone", "15 Sea Zone|16 Sea Zone"):
        assert not any(crossings[pair][p][u] for p in allies + axis for u in ships)
    # Northwestern Europe and Norway German: the Axis pass the Baltic strait, the Allies do not.
    assert all(crossings["5 Sea Zone|6 Sea Zone"][p]["transport"] for p in axis)
    assert not any(crossings["5 Sea Zone|6 Sea Zone"][p]["transport"] for p in allies)

"""The house-rule sets (003_ecae7919a6bcb85e.txt, 004_e624f6d1018dbbc1.txt) as data, checked against the seeds and the real games.

Every rule of each document is listed with its own words and a verdict; every
name a rule uses means something in every game the set is for; the map facts
behind each canal and objective are the XML's.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib

from kremlin_triplea.game import load
from kremlin_triplea.rules.house_rules import load_house_set
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.profile import load_named_profile
from kremlin_triplea.rules.tomlfile import DataFileError
from support.paths import MAPS_DIR, SHARED

REPO = Path(__file__).resolve().parents[1]
SEEDS = SHARED / "seeds"

SETS = {
    "house-classic": (
        "003_ecae7919a6bcb85e.txt",
        {
            "world_war_ii_classic": ["classic.xml", "classic_3rd_edition.xml"],
            "classic_variations": ["kremlin.xml"],
        },
    ),
    "house-revised": (
        "004_e624f6d1018dbbc1.txt",
        {
            "world_war_ii_revised": ["ww2v2.xml", "lhtr.xml"],
            "world_war_ii_v3": ["WW2v3-1941.xml", "WW2v3-1942.xml"],
        },
    ),
}
GAME_CASES = [(set_id, m, f) for set_id, (_, maps) in SETS.items() for m, files in maps.items() for f in files]


def read_set(set_id: str) -> dict:
    return tomllib.loads((REPO / "rulesets" / f"{set_id}.toml").read_text())


def entries(data: dict) -> list[dict]:
    return data["rule"] + data.get("advantage", [])


def changes(data: dict) -> list[tuple[dict, dict]]:
    return [(entry, change) for entry in entries(data) for change in entry.get("change", [])]


def seed_words(seed: str) -> str:
    return " ".join((SEEDS / seed).read_text().split())


@pytest.mark.parametrize("set_id", sorted(SETS))
def test_every_quote_is_the_seeds_own_words(set_id: str) -> None:
    seed_file, _ = SETS[set_id]
    data = read_set(set_id)
    seed = seed_words(seed_file)
    assert data["source"] == seed_file
    quoted = [e["rule"] for e in entries(data)]
    quoted += [data["advantages"][k] for k in ("rule", "draw_rule") if k in data["advantages"]]
    bare_seed = "".join(seed.split())
    for text in quoted:
        # " [...] " joins passages of one rule that the document keeps apart (an advantage and the
        # development it names): each is the seed's own words. Compared without spaces: the seed
        # breaks lines inside words ("Strate\ngic", "In ad\ndition"), the quotes mend them.
        for passage in text.split(" [...] "):
            assert "".join(passage.split()) in bare_seed, passage
    for entry in entries(data):
        assert entry.get("source", seed_file).startswith(seed_file), entry["id"]


# Rules the players keep are quoted whole: each passage runs from the start of its paragraph (or of
# the item after its heading) to the paragraph's end, so the notes alone say how to play the rule
# (issue 13: Banzai, Motherland and Kamikaze were quoted from the middle of a sentence).
_PARAGRAPH_END = re.compile(r"[ \t]*(\n[ \t]*\n|\n[ \t]*\d+\.\s|\n[ \t]*\t|\s*$)")
_PARAGRAPH_START = re.compile(r"(\n[ \t]*\n|\n[ \t]*\t|\n(?=[ \t]*\d+\.)|^)\s*(\d+\.\s+)?([^.\n]{0,60}?(:|-)\s+)?$")


def _raw_match(raw: str, words: str) -> re.Match[str]:
    # Any spacing between any two characters: the seed breaks lines inside words too.
    found = re.search(r"\s*".join(re.escape(c) for c in "".join(words.split())), raw)
    assert found is not None, words
    return found


@pytest.mark.parametrize("set_id", sorted(SETS))
def test_rules_the_players_keep_are_quoted_whole(set_id: str) -> None:
    raw = (SEEDS / SETS[set_id][0]).read_text()
    for entry in entries(read_set(set_id)):
        if entry["enforced_by"] != "players":
            continue
        for passage in entry["rule"].split(" [...] "):
            found = _raw_match(raw, passage)
            assert _PARAGRAPH_END.match(raw, found.end()), (entry["id"], "ends mid-paragraph", raw[found.end() : found.end() + 60])
            assert _PARAGRAPH_START.search(raw[: found.start()]), (entry["id"], "starts mid-paragraph", raw[max(0, found.start() - 60) : found.start()])


def test_the_rules_named_in_issue_13_are_whole() -> None:
    """Banzai (004 Japan 6), Motherland (003 USSR 1, Japan 2) and Kamikaze (004 Japan 2, 003 Japan 4) in full."""
    revised = {a["id"]: a["rule"] for a in read_set("house-revised")["advantage"]}
    classic = {(a["power"], a["id"]): a["rule"] for a in read_set("house-classic")["advantage"]}
    assert revised["banzai-attacks"].startswith("When you move only infantry into a contested space")
    assert revised["kamikaze"].endswith("Only one Kamikaze attack may be made per turn.")
    for power in ("USSR", "Japan"):
        assert classic[(power, "motherland")].endswith("The Motherland Advantage only applies to original territory, or reconquered original territory.")
        assert "One additional roll is provided for every five defenders, rounding up." in classic[(power, "motherland")]
    assert "Japanese fighters may attack without a viable landing option" in classic[("Japan", "kamikaze")]


@pytest.mark.parametrize("set_id", sorted(SETS))
def test_every_rule_has_a_verdict_and_says_why_when_the_game_cannot(set_id: str) -> None:
    data = read_set(set_id)
    ids = [e["id"] for e in data["rule"]]
    assert len(ids) == len(set(ids))
    for entry in entries(data):
        assert entry["enforced_by"] in ("game", "players", "tool"), entry["id"]
        if entry["enforced_by"] == "players":
            assert entry.get("why"), f"{entry['id']}: a players' rule says why the game cannot"
            assert not entry.get("change"), f"{entry['id']}: a players' rule writes nothing"
        if entry["enforced_by"] == "game" and not entry.get("change"):
            # Nothing of its own to write: TripleA does it already, or another rule's change does.
            assert entry.get("built_in") or entry.get("written_by") in ids, entry["id"]


def test_004_lists_every_house_rule_of_the_document() -> None:
    seed = (SEEDS / "004_e624f6d1018dbbc1.txt").read_text()
    numbers = sorted({int(line.split()[2]) for line in seed.splitlines() if line.startswith("House Rule ")})
    assert numbers == [1, 2, 3, 4, 5, 7, 8, 9, 10]  # the document has no House Rule 6
    titles = {e["title"] for e in read_set("house-revised")["rule"]}
    for number in numbers:
        assert any(t.startswith(f"House Rule {number} ") or t.startswith(f"House Rule {number}:") for t in titles), number


def test_003_lists_every_section_of_the_document() -> None:
    # A section's own parts are named after it ("Development Descriptions, 13. Industrial Technology").
    sections = {e["source"].split(", ")[1] for e in read_set("house-classic")["rule"]}
    assert sections == {
        "Random Turns",
        "Divided Seazones",
        "Air Assault of Islands",
        "Directed Research",
        "Amphibious Assaults",
        "Retreats",
        "Dogfights",
        "Strategic Bombings",
        "Order of Combat",
        "Winning",
        "Straits",
        "Bribed Overflights",
        "Capturing A Capital",
        "Transports",
        "Placing Naval Units in Enemy-Occupied Sea Zones",
        "Port Guns",
        "Air Missions",
        "Submarine Units",
        "Damaged Units",
        "Initial Conditions",
        "NEUTRAL TERRITORIES",
        "Weapons Developments",
        "Development Descriptions",
    }


@pytest.mark.parametrize("set_id", sorted(SETS))
def test_six_advantages_per_power_numbered_as_the_document(set_id: str) -> None:
    data = read_set(set_id)
    assert data["advantages"]["per_power"] == 1
    for power in data["advantages"]["powers"]:
        mine = [a for a in data["advantage"] if a["power"] == power]
        assert [a["number"] for a in mine] == [1, 2, 3, 4, 5, 6], power
        assert len({a["id"] for a in mine}) == 6
        seed = seed_words(SETS[set_id][0])
        for advantage in mine:
            assert advantage["title"] in seed, advantage["title"]


def test_003_neutral_table_is_the_documents() -> None:
    table = {n["name"]: (n["ipc"], n["army"]) for n in read_set("house-classic")["neutral"]}
    assert len(table) == 14
    assert sum(ipc for ipc, _ in table.values()) == 28
    assert table["Spain"] == (4, {"infantry": 3, "tank": 1})
    assert table["Sweden"] == (3, {"infantry": 2, "transport": 1})
    assert table["Argentina"] == (3, {"infantry": 2, "transport": 1})
    assert table["Switzerland"] == (3, {"infantry": 2, "fighter": 1})


def _place_names(change: dict, entry: dict) -> list[str]:
    names: list[str] = []
    for key in ("at", "from", "to"):
        value = change.get(key)
        if isinstance(value, str) and not value.startswith("{"):
            names.append(value)
        elif isinstance(value, list):
            names += value
    return names + entry.get("places", []) + entry.get("neutrals", [])


@pytest.mark.parametrize(("set_id", "map_name", "file"), GAME_CASES)
def test_every_name_the_set_uses_is_in_each_game(set_id: str, map_name: str, file: str) -> None:
    data = read_set(set_id)
    assert map_name in data["maps"]
    profile = load_named_profile(map_name)
    game = load(MAPS_DIR / map_name / "map" / "games" / file)
    names = Names(game.board, profile, ("Axis", "Allies"))
    for entry, change in changes(data):
        if map_name not in entry.get("maps", data["maps"]):
            continue
        if "power" in change:
            names.power(change["power"])
        for unit in change.get("units", {}) if isinstance(change.get("units"), dict) else ():
            names.unit(unit)
        for place in _place_names(change, entry):
            names.place(place)
        for land in change.get("land", []):
            assert not game.board.graph.nodes[names.territory(land)]["water"]
    for neutral in data.get("neutral", []):
        name = names.territory(neutral["name"])
        assert game.board.graph.nodes[name]["owner"] is None, neutral["name"]
        for unit in neutral["army"]:
            names.unit(unit)


@pytest.mark.parametrize(("set_id", "map_name", "file"), GAME_CASES)
def test_each_canal_crosses_its_straits_boundaries_beside_its_land(set_id: str, map_name: str, file: str) -> None:
    """Each strait's pairs are neighbouring sea zones of the game, and each land territory touches the strait."""
    data = read_set(set_id)
    profile = load_named_profile(map_name)
    board = load(MAPS_DIR / map_name / "map" / "games" / file).board
    names = Names(board, profile, ("Axis", "Allies"))
    canals = [c for _, c in changes(data) if c["kind"] == "canal"]
    assert canals
    for canal in canals:
        strait = profile.straits[canal["strait"]]
        zones = {z for pair in strait.sea_zone_pairs for z in pair}
        for a, b in strait.sea_zone_pairs:
            assert board.graph.nodes[a]["water"] and board.graph.nodes[b]["water"]
            assert board.graph.has_edge(a, b), (a, b)
        for land in canal["land"]:
            assert zones & set(board.graph.neighbors(names.territory(land))), (canal["strait"], land)
        assert canal["ships"] in ("all", "surface") and canal["control"] in ("all_of", "any_of")


@pytest.mark.parametrize("file", ["WW2v3-1941.xml", "WW2v3-1942.xml"])
def test_hr8_to_hr10_amend_the_objective_they_repeat(file: str) -> None:
    """HR8-HR10 restate an AA50 objective and add a clause: the amended attachment is that objective."""
    xml = (MAPS_DIR / "world_war_ii_v3" / "map" / "games" / file).read_text()
    expected = {
        "Russians": "Archangel",
        "Japanese": "Manchuria:Kiangsu:French Indo-China Thailand",
        "Germans": "France:Northwestern Europe:Germany:Poland:Czechoslovakia Hungary:Bulgaria Romania",
    }
    objectives = [c for _, c in changes(read_set("house-revised")) if c["kind"] == "objective"]
    profile = load_named_profile("world_war_ii_v3")
    assert {profile.powers[c["power"]] for c in objectives} == set(expected)
    for change in objectives:
        power = profile.powers[change["power"]]
        head = f'<attachment name="{change["amends"]}" attachTo="{power}"'
        block = xml.split(head, 1)[1].split("</attachment>", 1)[0]
        assert f'name="objectiveValue" value="{change["value"]}"' in block
        assert f'name="alliedOwnershipTerritories" value="{expected[power]}"' in block


def test_straits_of_each_profile_are_the_same_waters() -> None:
    """Revised and AA50 number the Black Sea, Baltic and Gibraltar alike (16, 5, 12/13); classic names them."""
    revised, aa50 = load_named_profile("world_war_ii_revised"), load_named_profile("world_war_ii_v3")
    for name in ("black_sea", "baltic", "gibraltar"):
        assert revised.straits[name].sea_zone_pairs == aa50.straits[name].sea_zone_pairs
    classic = load_named_profile("classic_variations")
    assert set(classic.straits) == {"gibraltar", "turkey", "sweden"}


@pytest.mark.parametrize("set_id", sorted(SETS))
def test_the_docs_table_lists_every_rule_and_advantage(set_id: str) -> None:
    docs = (REPO / "docs" / "house-rules.md").read_text()
    section = docs[docs.index(f"### `{set_id}`") :]
    for entry in read_set(set_id)["rule"]:
        assert f"(`{entry['id']}`) | {'**engine** (written into the game)' if entry['enforced_by'] == 'game' else 'players (in the notes)'} |" in section, (
            entry["id"]
        )
    for advantage in read_set(set_id)["advantage"]:
        verdict = "**engine** (written into the game)" if advantage["enforced_by"] == "game" else "players (in the notes)"
        assert f"{advantage['power']} {advantage['number']}. {advantage['title']} (`{advantage['id']}`) | {verdict} |" in section


@pytest.mark.parametrize(("map_name", "file"), [(m, f) for m, files in SETS["house-classic"][1].items() for f in files])
def test_trigger_steps_are_steps_of_each_classic_game(map_name: str, file: str) -> None:
    xml = (MAPS_DIR / map_name / "map" / "games" / file).read_text()
    steps = [c["after_step"] for _, c in changes(read_set("house-classic")) if c["kind"] == "trigger_pus"]
    assert steps == ["germanEndTurn", "japaneseEndTurn"]
    for step in steps:
        assert f'<step name="{step}" delegate="endTurn"' in xml


@pytest.mark.parametrize("written", ["choice = [{}]", "choice = [1]", "choice = [[]]"])
def test_an_advantage_choice_that_is_not_a_list_of_names_is_refused_at_its_line(tmp_path: Path, written: str) -> None:
    """Found by the fuzzing of rule files (test_broken_inputs): a list holding a table was a TypeError in apply."""
    from kremlin_triplea.errors import KremlinError
    from kremlin_triplea.rules.house_rules import load_house_set

    text = (Path(__file__).resolve().parents[1] / "rulesets" / "house-classic.toml").read_text(encoding="utf-8")
    assert 'choice = "at"' in text
    broken = tmp_path / "house.toml"
    broken.write_text(text.replace('choice = "at"', written, 1), encoding="utf-8")
    line = text[: text.index('choice = "at"')].count("\n") + 1
    with pytest.raises(KremlinError, match=rf"house.toml:{line}: .*choice.*a name or a list of names"):
        load_house_set(broken)


def test_the_checks_page_is_the_sets_and_the_tests_as_they_are() -> None:
    """docs/house-rules-checks.md is what scripts/house_rules_checks.py makes of the sets and the tests now."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO / "tests")])}
    made = subprocess.run([sys.executable, str(REPO / "scripts" / "house_rules_checks.py")], capture_output=True, text=True, env=env, check=True, cwd=REPO)
    assert made.stdout == (REPO / "docs" / "house-rules-checks.md").read_text(encoding="utf-8"), "run the script and commit its page"


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        ('enforced_by = "players"\nwhy = "w"\nplayers_keep = "x"', "players_keep: expected what the players keep of a rule the game enforces"),
        ('enforced_by = "game"\nbuilt_in = "b"\nbefore_play = true', "before_play: expected a rule the players keep, or `players_keep`"),
    ],
)
def test_what_the_players_keep_is_said_of_rules_the_game_enforces(tmp_path: Path, entry: str, said: str) -> None:
    path = tmp_path / "house-x.toml"
    path.write_text(f'id = "house-x"\ntitle = "x"\nsource = "s"\nmaps = ["m"]\n\n[[rule]]\nid = "r"\ntitle = "t"\nsource = "s"\nrule = "r"\n{entry}\n')
    with pytest.raises(DataFileError) as refused:
        load_house_set(path)
    assert said in str(refused.value)

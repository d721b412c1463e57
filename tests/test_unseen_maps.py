"""A Kremlin draft on a real map the tool has never seen (issue 28): World War II v4 from triplea-maps.

The map has no profile of ours; a host drafts one with ``profile new`` where apply finds it, and plays kremlin-aa50
on it. AA50's section D (000_bc04a4edf7f7d2ab.txt D(3): the straits of Gibraltar, the Baltic and the Dardanelles;
D(5): China's first move) names what this map lacks, so those rules are the players', with a warning each; the draft
itself applies (it was refused whole for "the map profile has no [straits.gibraltar]").
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import tomli_w
import tomllib
from click.testing import CliRunner
from lxml import etree

from kremlin_triplea.cli.main import main
from kremlin_triplea.draft.rulesets import load_named_ruleset
from support.drafts import random_draft
from support.paths import SHARED

V4 = Path(__file__).resolve().parent / "data" / "world_war_ii_v4" / "WW2v4.xml"
SEED_TEXT = " ".join((SHARED / "seeds" / "000_bc04a4edf7f7d2ab.txt").read_text().split())


def _installed(tmp_path: Path) -> tuple[Path, Path]:
    """(maps folder, game): WW2v4.xml installed as TripleA installs it, its map.yml naming it."""
    maps = tmp_path / "downloadedMaps"
    games = maps / "world_war_ii_v4" / "map" / "games"
    games.mkdir(parents=True)
    shutil.copy(V4, games / V4.name)
    (maps / "world_war_ii_v4" / "map.yml").write_text("map_name: world_war_ii_v4\ngames:\n- game_name: World War II v4\n  file_name: WW2v4.xml\n")
    return maps, games / V4.name


def _run(maps: Path, *args: str):
    return CliRunner().invoke(main, ["--maps-dir", str(maps), *args])


@pytest.fixture(scope="module")
def profiled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """(maps folder, game, profile): WW2v4 installed and its profile drafted by `profile new` where apply finds it,
    passing `profile check`; made once for the tests that read them (none writes into that folder)."""
    folder = tmp_path_factory.mktemp("unseen")
    maps, game = _installed(folder)
    profile = folder / "profiles" / "world_war_ii_v4.toml"  # beside the maps folder: where apply looks first
    made = _run(maps, "profile", "new", "world_war_ii_v4/WW2v4.xml", "--ruleset", "kremlin-aa50", "-o", str(profile))
    assert made.exit_code == 0, made.output
    checked = _run(maps, "profile", "check", str(profile))
    assert checked.exit_code == 0, checked.output
    return maps, game, profile


def _whole_draft(tmp_path: Path, maps: Path, game: Path, seed: int) -> tuple[Path, object]:
    import random

    ruleset = load_named_ruleset("kremlin-aa50")
    data = random_draft(random.Random(seed).choice, "kremlin-aa50", game, "Axis", ruleset.picks.default)
    draft, out = tmp_path / f"draft{seed}.toml", tmp_path / f"kremlin{seed}.xml"
    draft.write_text(tomli_w.dumps(data), encoding="utf-8")
    return out, _run(maps, "apply", str(draft), "-o", str(out))


def test_a_whole_aa50_draft_applies_on_an_unseen_map_its_missing_straits_left_to_the_players(profiled: tuple[Path, Path, Path], tmp_path: Path) -> None:
    maps, game, profile = profiled
    for quoted in ("Straight of Gibraltar, Baltic Straight, and the Dardanelles Straight", "China makes a restricted first move"):
        assert quoted in SEED_TEXT
    out, result = _whole_draft(tmp_path, maps, game, seed=1)
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.stderr.splitlines() if "not written into the game" in line]
    # The summary counts every rule left to the players: their own and each one this map cannot express.
    unwritten = {re.search(r"rule '([^']+)'", line).group(1) for line in warnings}
    own = [r for r in load_named_ruleset("kremlin-aa50").game_rules if r.enforced_by == "players"]
    counted = int(re.search(r"^(\d+) rules the players keep themselves", result.output, re.M).group(1))
    assert unwritten and counted >= len(own) + len(unwritten), (counted, len(own), sorted(unwritten))
    # D(3)'s straits that `profile new` drafted from the map's geometry are written; the others go to the players.
    drafted = tomllib.loads(profile.read_text(encoding="utf-8")).get("straits", {})
    missing = sorted({"gibraltar", "baltic", "black_sea"} - set(drafted))
    assert missing  # this map has no Gibraltar strait at all
    for strait in missing:
        assert any(f"[straits.{strait}]" in line and "'Straits'" in line for line in warnings), result.stderr
    assert any("China's restricted first move" in line for line in warnings), result.stderr
    notes = etree.parse(str(out)).getroot().xpath("//property[@name='notes']/value")[0].text
    you_enforce = notes[notes.index("<h3>You enforce</h3>") :]
    aa50 = load_named_ruleset("kremlin-aa50")
    straits = next(rule for rule in aa50.rule_set.rules if rule.id == "d3-straits")
    assert "<b>Straits (not in this game: " in you_enforce and straits.rule.replace("'", "&#x27;") in you_enforce
    # Nothing of the straits is in the game: TripleA is not said to enforce them.
    enforced = notes[notes.index("<h3>TripleA enforces</h3>") : notes.index("<h3>You enforce</h3>")]
    assert ("Straits" in enforced) == bool(drafted)  # the strait the map has is TripleA's to enforce, and only then


@pytest.mark.slow
def test_the_matrix_on_the_unseen_map_applies_whole_drafts_and_fails_nothing(profiled: tuple[Path, Path, Path]) -> None:
    maps, _, _ = profiled
    result = _run(maps, "matrix", "--ruleset", "kremlin-aa50", "--game", "world_war_ii_v4/WW2v4.xml", "--samples", "2", "--json", "-")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["failed"] == 0
    drafts = next(c for c in data["cells"] if c["option"] == "random drafts")
    assert drafts["status"] == "applied" and drafts["applied"] == 2, drafts
    # The matrix says what apply warns of every draft here: the straits the map cannot express are the players'.
    notes = data["notes"]["world_war_ii_v4/WW2v4.xml"]
    assert any("[straits.gibraltar]" in note and "not written into the game" in note for note in notes), notes


@pytest.mark.engine
@pytest.mark.slow
def test_a_whole_draft_on_the_unseen_map_is_played_a_round_by_triplea_27(profiled: tuple[Path, Path, Path], tmp_path: Path) -> None:
    from support.triplea27 import installation_without_compiler

    maps, game, _ = profiled
    out, result = _whole_draft(tmp_path, maps, game, seed=2)
    assert result.exit_code == 0, result.output
    folder = installation_without_compiler(tmp_path / "triplea")
    verified = _run(maps, "verify", str(out), "--engine", "--triplea", str(folder))
    assert verified.exit_code == 0, verified.output
    # TripleA 2.7 build 15472, named as its jar names it: 2.7.15472 (the bot's) or 2.7+15472 (the client's).
    assert re.search(r"engine: TripleA 2\.7[.+]15472 ", verified.output) and "Fast AI played: 1 of 1 round(s)" in verified.output
    assert tomllib.loads((tmp_path / "draft2.toml").read_text(encoding="utf-8"))["ruleset"] == "kremlin-aa50"


@pytest.mark.parametrize("name", ["Smalls_1939.xml", "Ultimate_World_-_Revised.xml", "Steampunk_1915.xml"])
def test_every_place_of_a_game_is_read_back_by_its_own_name_whatever_the_profile_numbers_sea_zones(name: str) -> None:
    """A draft names places as the game does (what `Pick.to_toml` writes). Big World's 'SZ 3 Labrador Sea' was read
    as the rule text's 'Seazone 3' (the profile's sea_zone_name) and refused: the game's own name must win."""
    import attrs

    from kremlin_triplea.game import load
    from kremlin_triplea.rules.names import Names
    from kremlin_triplea.rules.profile import load_named_profile
    from support.paths import CORPUS_DIR

    game = load(CORPUS_DIR / name)
    profile = attrs.evolve(load_named_profile("world_war_ii_v3"), sea_zone_name="Seazone {n}", places={})
    names = Names(game.board, profile, ("Axis", "Allies"))
    assert {place: names.place(place) for place in game.board.nodes} == {place: place for place in game.board.nodes}


def test_a_bid_offers_no_second_factory_where_one_stands(profiled: tuple[Path, Path, Path]) -> None:
    """On WW2v4 the Germans may buy a factory: the bid listed 'Germans factory in Germany' as legal, and apply refused
    it for the board it leaves (draft/invariants.py: no territory holds more than one factory)."""
    from kremlin_triplea.draft.kinds.bid import bid_placement_problem
    from kremlin_triplea.draft.run import draft_from_dict
    from kremlin_triplea.game import load
    from kremlin_triplea.session import Session

    _, game_path, _ = profiled
    game = load(game_path)
    run = Session(draft_from_dict({"ruleset": "kremlin-aa50", "first": "Axis"}), game)
    facts = run.state.facts()
    assert game.board.catalog.cost("factory", "Germans") is not None and game.board.units("Germany")[("Germans", "factory")] == 1
    problem = bid_placement_problem(run.state, facts, "Germans", "factory", "Germany")
    assert problem is not None and "already has a factory" in problem.why
    free = next(t for t, d in game.board.nodes.items() if d["owner"] == "Germans" and not d["water"] and not game.board.units(t)[("Germans", "factory")])
    assert bid_placement_problem(run.state, facts, "Germans", "factory", free) is None


def test_a_draft_naming_the_rule_text_s_unit_word_places_the_picking_power_s_own_unit(tmp_path: Path) -> None:
    """Issue 46: on Total World War (each power its own types) a draft's "Germany tank" was read through the table
    for every power, as the shared Tank nobody can buy, and refused. The rule text's words ("tank", "armour", "sub")
    are read through the picking power's own table: germanTank, germanSubmarine."""
    from kremlin_triplea.draft.run import draft_from_dict
    from kremlin_triplea.game import load
    from kremlin_triplea.rules.profile import load_profile
    from kremlin_triplea.session import Session

    game = Path(__file__).resolve().parent / "data" / "total_world_war" / "Total_World_War_Dec1941_3.0.xml"
    written = tmp_path / "tww.toml"
    made = CliRunner().invoke(main, ["profile", "new", str(game), "--ruleset", "kremlin-aa50", "-o", str(written)])
    assert made.exit_code == 0, made.output
    data = tomllib.loads(written.read_text(encoding="utf-8"))
    data["units_by_power"]["Germany"]["artillery"] = "germanArtillery"  # a host's review: Germany's own artillery
    written.write_text(tomli_w.dumps(data), encoding="utf-8")
    run = Session(draft_from_dict({"ruleset": "kremlin-aa50", "first": "Axis"}), load(game), profile=load_profile(written))
    legal = next(pick for _, pick in run.option_picks(run.ruleset.option(2), "Axis") if {"germanTank"} & {u.unit for u in pick.target.units})  # type: ignore[attr-defined]
    for word in ("tank", "armour", "armor"):
        data = legal.to_toml()
        data["place"] = [{**entry, "unit": word if entry["unit"] == "germanTank" else entry["unit"]} for entry in data["place"]]
        parsed = run.pick_from_toml(data)
        assert parsed.target == legal.target and run.is_legal(parsed), word
    assert run.names.unit("sub", power="Germany") == "germanSubmarine"

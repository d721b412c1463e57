"""Issue 17: `profile new` for maps the tool does not know, profile lookup, and the shipped profiles' own check.

Expectations come from the rule texts (../shared/seeds), the names reference
(../shared/design/seed-to-triplea-names.md), the hand-written profiles
(maps/*.toml) and the game files themselves, never from `profile new`'s output.
"""

from __future__ import annotations

import functools
import re
import shutil
from pathlib import Path

import pytest
import tomllib
from click.testing import CliRunner

from kremlin_triplea.cli.main import main
from kremlin_triplea.draft.rulesets import load_named_ruleset
from kremlin_triplea.draft.run import draft_from_dict, read_draft
from kremlin_triplea.game import load
from kremlin_triplea.model.changes import RemoveUnits
from kremlin_triplea.rules.profile import NoProfileError, load_profile, profile_for_game
from kremlin_triplea.rules.ruleset import data_folders
from kremlin_triplea.session import Session
from kremlin_triplea.tools.matrix import all_rulesets, run_matrix
from kremlin_triplea.tools.place_evidence import KnownPlace, known_places, shipped_known_places, shipped_strait_shapes, strait_shapes
from kremlin_triplea.tools.place_matching import match_places, match_power, place_kinds
from kremlin_triplea.tools.place_words import plain_words
from kremlin_triplea.tools.profile_check import check_profile, review_marks
from kremlin_triplea.tools.profiles import new_profile
from kremlin_triplea.tools.rule_names import rule_names, straits_needed
from kremlin_triplea.tools.territory_index import closest
from support.paths import AA50_1941, AA50_1942, CORPUS_DIR, MAPS_DIR


@functools.cache
def _known(skip_board: frozenset[str] | None = None) -> dict[str, list[KnownPlace]]:
    """What the pinned games say of each rule-text place (``known_places``), read once per left-out board for the
    tests that only read it (each call reads every pinned game again)."""
    return known_places(MAPS_DIR, skip_board=skip_board)


REPO = Path(__file__).resolve().parents[1]
SHIPPED = sorted({p.stem: p for folder in reversed(data_folders("maps")) for p in folder.glob("*.toml")}.values())
UNREADABLE = set(tomllib.loads((REPO / "tests" / "data" / "engine-1.9-unreadable.toml").read_text())["unreadable"])
READABLE = [g for g in sorted(CORPUS_DIR.glob("*.xml")) if g.name not in UNREADABLE]
REVISED = CORPUS_DIR / "ww2v2.xml"  # a published game no shipped profile pins (the corpus copy differs from the pinned one)


# -- the shipped profiles pass their own check (CI runs this) --------------------------


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_profile_passes_profile_check(path: Path) -> None:
    assert check_profile(path, MAPS_DIR) == []


def test_the_check_refuses_a_sea_zone_matched_to_land(tmp_path: Path) -> None:
    # kremlin-classic's 'South American Powers join the Axis' puts a battleship in Drake Passage: a sea zone.
    text = (REPO / "maps" / "world_war_ii_classic.toml").read_text()
    assert '"Drake Passage" = "South Argentina Sea Zone"' in text
    profile = tmp_path / "world_war_ii_classic.toml"
    profile.write_text(text.replace('"Drake Passage" = "South Argentina Sea Zone"', '"Drake Passage" = "Argentina-Chile"'))
    problems = check_profile(profile, MAPS_DIR)
    assert any("places.Drake Passage = 'Argentina-Chile': a land territory, but Drake Passage is a sea zone" in p for p in problems)


def test_the_check_accepts_a_name_left_unmatched_and_refuses_one_left_out(tmp_path: Path) -> None:
    text = (REPO / "maps" / "world_war_ii_v3.toml").read_text()
    assert 'Venezuela = "Northern South America"' in text
    text = text.replace('Venezuela = "Northern South America"\n', "").replace('Venezuela = "confident alias', 'Venezuelan = "confident alias')
    left_out = tmp_path / "left_out.toml"
    left_out.write_text(text)
    assert any("names the place 'Venezuela'" in p for p in check_profile(left_out, MAPS_DIR))
    unmatched = tmp_path / "unmatched.toml"
    unmatched.write_text(text + '\n[unmatched]\nVenezuela = "place: not on this map (a test)"\n')
    assert not any("Venezuela" in p for p in check_profile(unmatched, MAPS_DIR))


# -- profile new --------------------------------------------------------------------------


def test_profile_new_without_ruleset_reads_and_passes_the_check(tmp_path: Path) -> None:
    """The issue's first failure: duplicate [neutral_coasts] keys whenever --ruleset was not given."""
    out = tmp_path / "revised.toml"
    result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "profile", "new", str(REVISED), "-o", str(out)])
    assert result.exit_code == 0, result.output
    data = tomllib.loads(out.read_text())  # duplicate keys would raise here
    assert set(data["rulesets"]) == {r.id for r in all_rulesets()[0]}
    checked = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "profile", "check", str(out)])
    assert checked.exit_code == 0, checked.output
    assert review_marks(out), "every guess is marked REVIEW in a comment"
    # Revised has no Italians (its players are Russians, Germans, British, Japanese, Americans):
    # what needs Italy is listed as not available, in the matrix's words.
    assert data["unmatched"]["Italy"].startswith("power: no player is Italy")
    text = out.read_text()
    assert "# kremlin-aa50:" in text and "#   no power for: China, Italy" in text
    assert "Germany launches Paratrooper Assault on Syria/Iraq: not available: Axis:" in text and "unknown power 'Italy'" in text


def test_places_are_matched_only_to_their_own_kind_and_the_issues_traps_are_avoided() -> None:
    """On AA50 with only the other boards' profiles as evidence (its own left out)."""
    game = load(AA50_1941)
    rulesets = all_rulesets()[0]
    known = _known(frozenset(game.board.nodes))
    matches = match_places(game, rulesets, known)
    kinds = place_kinds(rulesets)
    for rule, match in matches.items():
        kind = kinds.get(rule)
        if match.name is not None and kind is not None and kind.kind is not None:
            assert game.board.is_water(match.name) == (kind.kind == "sea"), (rule, match)
    # Issue 17's wrong matches: none of them again.
    assert matches["West Indian Ocean"].name != "India"
    assert matches["Central Mediterranean"].name not in ("Central America", "Central United States")
    assert matches["Western USA"].name == "Western United States"  # maps/world_war_ii_v3.toml
    assert matches["Ningxia"].name == "Ningxia"
    assert matches["China"].name is None  # AA50 has no territory China (seed-to-triplea-names.md: the Chinese territories)
    # seed-to-triplea-names.md 1: Venezuela is AA50's Northern South America, Peru its Peruvian Central.
    assert matches["Venezuela"].name == "Northern South America"
    assert matches["Peru"].name == "Peruvian Central"


def test_names_pointing_different_ways_are_not_matched_and_sea_zone_labels_are_read_by_their_words() -> None:
    # Big World's sea zones are "SZ 57 Arabian Sea"; its "West Indies" is the Caribbean, not 001's "East Indes".
    game = load(CORPUS_DIR / "Smalls_1939.xml")
    matches = match_places(game, [load_named_ruleset("kremlin-classic")], _known())
    assert matches["East Indes"].name != "West Indies"
    assert matches["Arabian Sea"].name == "SZ 57 Arabian Sea" and game.board.is_water("SZ 57 Arabian Sea")
    assert matches["Baltic Sea"].name is None  # West and East Baltic Sea: which one is for a person to say


def test_names_are_ranked_by_difflibs_similarity_with_none_above_the_cutoff_left_out() -> None:
    """``closest`` rules names out by difflib's two cheap upper bounds, computed its own way: on every rule-text
    place of kremlin-aa50 against every territory of AA50 it keeps exactly the names whose SequenceMatcher ratio
    reaches the cutoff, with that ratio."""
    import difflib

    territories = {n: plain_words(n) for n in load(AA50_1941).board.nodes}
    words = sorted({plain_words(n) for n in rule_names(load_named_ruleset("kremlin-aa50")).places}) + ["", "a", "sea zone"]
    for word in words:
        ratios = {n: difflib.SequenceMatcher(None, text, word).ratio() for n, text in territories.items()}
        for cutoff in (0.6, 0.8):
            expected = sorted(((r, n) for n, r in ratios.items() if r >= cutoff), key=lambda c: (-c[0], c[1]))
            assert closest(word, territories, cutoff) == expected, word
    assert closest("east indes", {"East Indies": "east indies"}, 0.8)[0][1] == "East Indies"


def test_a_rule_text_place_joining_two_territories_is_not_matched_to_one_of_them() -> None:
    # kremlin-classic's 'Finland/Norway' is classic's one territory; AA50 has Finland and Norway apart.
    game = load(AA50_1941)
    matches = match_places(game, [load_named_ruleset("kremlin-classic")], _known(frozenset(game.board.nodes)))
    assert matches["Finland/Norway"].name is None and "Finland, Norway apart" in matches["Finland/Norway"].evidence


def test_a_joined_place_is_not_matched_to_a_third_territory_where_the_game_has_its_parts_apart() -> None:
    # 000/001's 'Syria/Iraq' is one territory of the rule texts' maps, AA50's 'Trans-Jordan' (maps/world_war_ii_v3.toml).
    # Ultimate World has Syria, Iraq and Trans Jordan apart: the AA50 name must not carry over to the third of them.
    game = load(CORPUS_DIR / "Ultimate_World_-_Revised.xml")
    assert {"Syria", "Iraq", "Trans Jordan"} <= set(game.board.nodes)
    matches = match_places(game, [load_named_ruleset("kremlin-aa50")], _known())
    assert matches["Syria/Iraq"].name is None and "Iraq, Syria apart" in matches["Syria/Iraq"].evidence


def test_a_sea_zone_a_scenario_empties_is_found_by_the_units_it_holds() -> None:
    # 001 'Japan continues attacks into the Indian Ocean' removes a UK transport from the Bay of Bengal, beside
    # India; maps/world_war_ii_classic.toml: "'Indian Ocean Sea Zone' is the only sea zone touching India and holds
    # the UK transport the scenario destroys". Found without the classic profiles as evidence.
    game = load(MAPS_DIR / "world_war_ii_classic" / "map" / "games" / "classic.xml")
    matches = match_places(game, [load_named_ruleset("kremlin-classic")], _known(frozenset(game.board.nodes)))
    assert matches["Bay of Bengal"].name == "Indian Ocean Sea Zone"


def test_a_place_whose_words_several_territories_carry_is_left_to_a_person() -> None:
    # 000's neutral/scenario 'Libya' and 001's 'South Africa' are one territory each on the rule texts' maps.
    # Ultimate World divides Libya (Western and Eastern Libya); Global 1940 has both South West Africa (another
    # place) and the Union of South Africa. Neither is matched by its words to one of them.
    world = load(CORPUS_DIR / "Ultimate_World_-_Revised.xml")
    assert {"Western Libya", "Eastern Libya"} <= set(world.board.nodes)
    libya = match_places(world, [load_named_ruleset("kremlin-aa50")], _known())["Libya"]
    assert libya.name is None and "Eastern Libya, Western Libya all carry its words" in libya.evidence
    global40 = load(CORPUS_DIR / "G40CanadianMod.xml")
    assert {"South West Africa", "Union of South Africa"} <= set(global40.board.nodes)
    assert match_places(global40, [load_named_ruleset("kremlin-classic")], _known())["South Africa"].name != "South West Africa"


def test_a_name_another_map_gives_a_neutral_is_not_taken_for_a_players_territory() -> None:
    """Classic's profile calls 000's neutral Venezuela 'Columbia'; the Civil War maps' Columbia is a Confederate
    (Southern) city. A neutral of the rule text (000 option 3's table) held by a player here is not it."""
    for name, owner in (("Civil_War.xml", "Confederate"), ("blue_vs_gray.xml", "South")):
        game = load(CORPUS_DIR / name)
        assert game.board.node("Columbia")["owner"] == owner
        match = match_places(game, [load_named_ruleset("kremlin-aa50")], shipped_known_places())["Venezuela"]
        assert match.name != "Columbia", (name, match)


def test_a_land_guess_shows_what_the_territory_is_worth_here_and_on_the_profiled_map() -> None:
    # AA50's 'Kazakh S.S.R.' (maps/world_war_ii_v3.toml) is Ultimate World's 'Kazakh'; the reviewer sees both values,
    # read here from the two game files.
    world = load(CORPUS_DIR / "Ultimate_World_-_Revised.xml")
    here = world.board.node("Kazakh")["production"]
    there = load(AA50_1941).board.node("Kazakh S.S.R.")["production"]
    match = match_places(world, [load_named_ruleset("kremlin-aa50")], _known())["Kazakh S.S.R."]
    assert match.name == "Kazakh"
    assert match.evidence.endswith(f"; worth {here} here, {there} on the profiled maps")


def test_a_numbered_sea_zone_is_taken_only_where_the_units_the_rule_text_takes_from_it_are() -> None:
    # 000 AA50 scenario 'Enigma decoded earlier': "Remove one German submarine from each Seazone 5 and 7"; the rule
    # text numbers sea zones as AA50 does (maps/world_war_ii_v3.toml: sea_zone_name = "{n} Sea Zone"). Without the
    # AA50 profile as evidence, the number is taken where the game's sea zone of that number holds the submarine.
    game = load(AA50_1941)
    rulesets = [load_named_ruleset("kremlin-aa50")]
    known = _known(frozenset(game.board.nodes))
    matches = match_places(game, rulesets, known)
    assert (matches["Seazone 5"].name, matches["Seazone 7"].name) == ("5 Sea Zone", "7 Sea Zone")
    assert "holds the units" in matches["Seazone 7"].evidence
    # Where that sea zone does not hold a German submarine, the number alone proves nothing: left unmatched, and
    # Seazone 5 with it, since one submarine where the rule text removes one is not evidence enough on its own.
    subs = game.board.node("7 Sea Zone")["units"][("Germans", "submarine")]
    game.board.push(RemoveUnits("7 Sea Zone", "Germans", "submarine", subs))
    again = match_places(game, rulesets, known)
    assert (again["Seazone 7"].name, again["Seazone 5"].name) == (None, None)


def test_a_numbered_sea_zone_is_not_taken_on_a_map_numbered_otherwise() -> None:
    # A World War I map's 'Sea Zone 5 Arctic Ocean' holds a German submarine, but AA50's Seazone 5 is the Baltic
    # (maps/world_war_ii_v3.toml); its 'Sea Zone 7' holds none, so the Enigma scenario does not confirm the numbers.
    game = load(CORPUS_DIR / "Steampunk_1915.xml")
    assert game.board.node("Sea Zone 5 Arctic Ocean")["units"].get(("Germany", "submarine"), 0) >= 1
    matches = match_places(game, [load_named_ruleset("kremlin-aa50")], _known())
    assert matches["Seazone 5"].name is None


def test_powers_are_matched_through_the_names_players_use() -> None:
    players = list(load(AA50_1941).catalog.players)
    found = {word: match_power(word, players, {})[0] for word in ("UK", "USA", "USSR", "Germany", "Japan", "Italy", "China")}
    assert found == {
        "UK": "British",
        "USA": "Americans",
        "USSR": "Russians",
        "Germany": "Germans",
        "Japan": "Japanese",
        "Italy": "Italians",
        "China": "Chinese",
    }
    assert match_power("Anzac", ["ANZAC", "British"], {})[0] == "ANZAC"
    assert match_power("Italy", list(load(REVISED).catalog.players), {})[0] is None


def test_a_pinned_map_gets_no_wrong_match_without_its_own_profile() -> None:
    """scripts/bench_profiles.py's measure, as a property: every match made agrees with the hand-written profile."""
    rulesets = all_rulesets()[0]
    for path in SHIPPED:
        profile = load_profile(path)
        for base in profile.games:
            game = load(base.key, maps_dir=MAPS_DIR)
            drafted = new_profile(game, rulesets, known=_known(frozenset(game.board.nodes)))
            written = {k.lower(): v for k, v in profile.places.items()}
            nodes = {n.lower(): n for n in game.board.nodes}
            for rule, match in drafted.places.items():
                truth = written.get(rule.lower()) or nodes.get(rule.lower())
                if match.name is not None and truth is not None:
                    assert match.name == truth, (base.key, rule, match)


@pytest.mark.slow
def test_the_matrix_with_a_new_profile_says_what_the_map_lacks_instead_of_failing(tmp_path: Path) -> None:
    # World War II Revised has no cruiser and no Italians (its unit types and players): AA50's options 3 and 5
    # need a cruiser, and its scenario 'Germany launches Paratrooper Assault on Syria/Iraq' names Italy.
    game = load(REVISED)
    ruleset = load_named_ruleset("kremlin-aa50")
    out = tmp_path / "revised.toml"
    out.write_text(new_profile(game, [ruleset], known=_known(), key=str(REVISED)).text)
    report = run_matrix([ruleset], [REVISED], maps_dir=MAPS_DIR, samples=0, include_covered=False, given_profiles=[load_profile(out)])
    assert report.failed == []
    cells = {row: cell for (_, row, _), cell in report.cells.items()}
    assert cells["5 Destroyer/Cruiser Placement"].status == "not applicable"
    assert "has a cruiser on this map (the map has no cruiser" in " ".join(cells["5 Destroyer/Cruiser Placement"].reasons)
    syria = cells['11 Special "What-if" Scenarios: Germany launches Paratrooper Assault on Syria/Iraq']
    assert syria.status == "not applicable" and "unknown power 'Italy'" in " ".join(syria.reasons)
    assert cells["1 Infantry Placement"].status == "applied"


# -- issue 28 item 2: what the rulesets' game rules need from a map -----------------------------

OTTAWA_CITY = 'attachTo="Eastern Canada" javaClass="games.strategy.triplea.attachments.TerritoryAttachment" type="territory">\n      <option name="production" value="3"/>\n      <option name="victoryCity" value="1"/>'


def _v3_with_ottawa_moved(tmp_path: Path, to_western_canada: bool) -> Path:
    """WW2v3 1941 whose Eastern Canada is no victory city; with ``to_western_canada``, the British Western Canada
    beside it is one instead."""
    text = AA50_1941.read_text(encoding="utf-8")
    assert text.count(OTTAWA_CITY) == 1  # Eastern Canada's attachment
    text = text.replace(OTTAWA_CITY, OTTAWA_CITY.rsplit("\n", 1)[0], 1)
    if to_western_canada:
        western = '<attachment name="territoryAttachment" attachTo="Western Canada" javaClass="games.strategy.triplea.attachments.TerritoryAttachment" type="territory">\n      <option name="production" value="1"/>'
        assert text.count(western) == 1
        text = text.replace(western, western + '\n      <option name="victoryCity" value="1"/>', 1)
    path = tmp_path / "WW2v3-1941.xml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_places_the_game_rules_name_are_needed_from_a_map() -> None:
    # 000_bc04a4edf7f7d2ab.txt, D) (4): "Move the victory city in Ottawa to Capetown, South Africa."; D) (5): China
    # "may enter or attack Burma ..., French Indo-China, and Mongolia".
    places = rule_names(load_named_ruleset("kremlin-aa50")).places
    for place in ("Ottawa", "Capetown, South Africa", "Burma", "French Indo-China", "Mongolia"):
        assert any(by.startswith("game rule ") for by in places[place]), place


def test_a_new_profile_gives_every_place_and_strait_the_game_rules_need_or_lists_it_unmatched() -> None:
    """The issue's case: on a World War II Global game, Ottawa was neither in [places] nor in [unmatched], and the
    straits of 000 D) (3) were missing without a word."""
    game = load(CORPUS_DIR / "G40CanadianMod.xml")
    ruleset = load_named_ruleset("kremlin-aa50")
    data = tomllib.loads(new_profile(game, [ruleset], known=shipped_known_places()).text)
    for place in rule_names(ruleset).places:
        assert place in data["places"] or place in data["unmatched"] or place in game.board.nodes, place
    for strait in straits_needed(ruleset):
        assert strait in data.get("straits", {}) or f"straits.{strait}" in data["unmatched"], strait
    # D) (5) "China makes a restricted first move ... before any other power moves": a step placed before the first turn.
    assert "after" in data["turn_step_positions"]["before_first_turn"] or "turn_step_positions.before_first_turn" in data["unmatched"]


def test_profile_check_names_a_strait_a_game_rule_needs_and_the_profile_lacks(tmp_path: Path) -> None:
    # The issue's case: apply stopped at 000 D) (3) with "the map profile has no [straits.gibraltar]"; the check said nothing.
    text = (REPO / "maps" / "world_war_ii_v3.toml").read_text(encoding="utf-8")
    lacking = tmp_path / "world_war_ii_v3.toml"
    lacking.write_text(re.sub(r"\n\[straits\.gibraltar\]\n(?:.+\n)*", "\n", text), encoding="utf-8")
    problems = check_profile(lacking, MAPS_DIR)
    assert any("closes the strait 'gibraltar': neither [straits.gibraltar] nor [unmatched] has it" in p for p in problems), problems
    unmatched = tmp_path / "unmatched.toml"
    unmatched.write_text(lacking.read_text() + '\n[unmatched]\n"straits.gibraltar" = "strait: a test"\n', encoding="utf-8")
    assert not any("gibraltar" in p for p in check_profile(unmatched, MAPS_DIR))
    assert load_profile(unmatched).lacks("straits", "gibraltar") == "strait: a test"
    assert load_profile(unmatched).lacks("straits", "baltic") is None


def test_a_step_before_the_first_turn_goes_after_the_games_bids() -> None:
    """WW2v3's hand-written profile: after americanBidPlace, the last of the bid steps both games run first."""
    written = load_profile(REPO / "maps" / "world_war_ii_v3.toml").turn_step_positions["before_first_turn"]
    for path in (AA50_1941, AA50_1942):
        data = tomllib.loads(new_profile(load(path), [load_named_ruleset("kremlin-aa50")], known=shipped_known_places()).text)
        assert data["turn_step_positions"]["before_first_turn"]["after"] == written.after


def test_straits_are_drawn_from_the_maps_geometry() -> None:
    """On WW2v3 the boundaries found beside each strait's sides are those the hand-written profile gives (its
    reasons: 12/13 is the Atlantic's one boundary with the Mediterranean, 5 Sea Zone's one way out is 6, 16 Sea
    Zone's two are 14 and 15)."""
    game = load(AA50_1941)
    written = load_profile(REPO / "maps" / "world_war_ii_v3.toml")
    data = tomllib.loads(new_profile(game, [load_named_ruleset("kremlin-aa50")], known=shipped_known_places()).text)
    for key, strait in written.straits.items():
        drafted = data["straits"][key]
        assert sorted(map(sorted, drafted["sea_zones"])) == sorted(map(sorted, strait.sea_zone_pairs)), key
        assert sorted(drafted["land"]) == sorted(strait.land), key


@pytest.mark.parametrize(
    "path",
    [REPO / "tests" / "data" / "world_war_ii_v5_1942" / "WW2v5_1942_2nd.xml", REPO / "tests" / "data" / "world_war_ii_v6_1941" / "WW2v6_1941.xml"],
    ids=lambda p: p.stem,
)
def test_the_dardanelles_on_an_unseen_map_close_every_way_out_of_its_black_sea(path: Path) -> None:
    """000 D) (3) names "the Dardanelles Straight": the Black Sea's ways out beside Turkey. Read from the game file
    here: the sea zone beside Turkey that also borders Ukraine and Caucasus is the Black Sea, and every sea zone
    next to it is a way out (on these maps one, where AA50 has two)."""
    from lxml import etree

    root = etree.parse(str(path)).getroot()
    water = {t.get("name") for t in root.iter("territory") if t.get("water") == "true"}
    around: dict[str, set[str]] = {}
    for c in root.iter("connection"):
        around.setdefault(c.get("t1"), set()).add(c.get("t2"))
        around.setdefault(c.get("t2"), set()).add(c.get("t1"))
    (black_sea,) = [z for z in water if {"Turkey", "Caucasus"} <= around[z] and any(n.startswith("Ukraine") for n in around[z])]
    expected = sorted(sorted((z, black_sea)) for z in around[black_sea] if z in water)
    data = tomllib.loads(new_profile(load(path), [load_named_ruleset("kremlin-aa50")], known=shipped_known_places()).text)
    drafted = data["straits"]["black_sea"]
    assert sorted(map(sorted, drafted["sea_zones"])) == expected
    assert drafted["land"] == ["Turkey"]


def test_a_victory_city_a_rule_moves_must_be_one_on_the_map(tmp_path: Path) -> None:
    """000 D) (4) moves Ottawa's victory city. Where the map's Eastern Canada is none, the British victory city
    beside it is taken for Ottawa; where there is none, Ottawa is unmatched, saying why."""
    ruleset = load_named_ruleset("kremlin-aa50")
    moved = tmp_path / "moved"
    moved.mkdir()
    data = tomllib.loads(new_profile(load(_v3_with_ottawa_moved(moved, True)), [ruleset], known=shipped_known_places()).text)
    assert data["places"]["Ottawa"] == "Western Canada"
    assert "is not a victory city here" in data["place_reasons"]["Ottawa"]
    gone = tmp_path / "gone"
    gone.mkdir()
    data = tomllib.loads(new_profile(load(_v3_with_ottawa_moved(gone, False)), [ruleset], known=shipped_known_places()).text)
    assert "Ottawa" not in data["places"]
    assert "Eastern Canada" in data["unmatched"]["Ottawa"] and "is not one here" in data["unmatched"]["Ottawa"]


# -- issue 28 item 4: the evidence ships with the tool ------------------------------------


def test_the_shipped_evidence_is_what_the_pinned_games_say() -> None:
    # maps/evidence/known-places.json is what scripts/known_places.py reads from the pinned games: a shipped
    # profile or pinned game that changes without it fails here.
    assert shipped_known_places() == known_places(MAPS_DIR)
    revised = frozenset(load(MAPS_DIR / "world_war_ii_revised" / "map" / "games" / "lhtr.xml").board.nodes)
    assert shipped_known_places(skip_board=revised) == known_places(MAPS_DIR, skip_board=revised)
    assert shipped_known_places(skip_board=revised) != shipped_known_places()
    assert shipped_strait_shapes() == tuple(strait_shapes(MAPS_DIR))


def test_profile_new_answers_the_same_whichever_maps_are_installed(tmp_path: Path) -> None:
    """The issue's case: on World At War 1940, "Australia" became Austria when the pinned maps were not installed."""
    game = tmp_path / "WAW40.xml"
    shutil.copy(CORPUS_DIR / "WAW40.xml", game)
    empty = tmp_path / "no-maps"
    empty.mkdir()
    answers = []
    for maps in (empty, MAPS_DIR):
        result = CliRunner().invoke(main, ["--maps-dir", str(maps), "profile", "new", str(game), "--ruleset", "kremlin-aa50"])
        assert result.exit_code == 0, result.output
        answers.append(result.output)
    assert answers[0] == answers[1]
    # Nor where the tool is: its scenarios' refusals name kremlin-aa50.toml, not the folder it is installed in.
    assert "kremlin-aa50.toml: scenario" in answers[0]
    assert not any(str(folder) in answers[0] for folder in data_folders("rulesets"))
    places = tomllib.loads(answers[0])["places"]
    # The game's Austria is in Europe, beside Germany; the rule text's Australia is the ANZAC homeland.
    assert places.get("Australia") != "Austria"


# -- issue 28 item 5: a profile's game key works on another machine --------------------------


def test_profile_new_names_its_game_by_a_relative_key_that_check_finds(tmp_path: Path, monkeypatch) -> None:
    games = tmp_path / "elsewhere"
    games.mkdir()
    game = games / "WAW40.xml"
    shutil.copy(CORPUS_DIR / "WAW40.xml", game)
    out = tmp_path / "profiles" / "waw.toml"
    result = CliRunner().invoke(main, ["profile", "new", str(game), "--ruleset", "kremlin-aa50", "-o", str(out)])
    assert result.exit_code == 0, result.output
    (pinned,) = tomllib.loads(out.read_text())["game"]
    assert pinned["key"] == "../elsewhere/WAW40.xml"  # from the profile's folder, not /tmp/...
    monkeypatch.chdir(games)  # checked from anywhere: the key is the profile's, not the shell's
    assert check_profile(out) == []
    moved = tmp_path / "moved"
    shutil.copytree(tmp_path / "profiles", moved / "profiles")
    shutil.copytree(games, moved / "elsewhere")
    assert check_profile(moved / "profiles" / "waw.toml") == []


def test_profile_new_names_a_game_of_the_maps_folder_by_its_map(tmp_path: Path) -> None:
    maps = tmp_path / "downloadedMaps"
    game = _install(maps, "world_at_war", CORPUS_DIR / "WAW40.xml")
    out = tmp_path / "waw.toml"
    result = CliRunner().invoke(main, ["--maps-dir", str(maps), "profile", "new", str(game), "--ruleset", "kremlin-aa50", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert tomllib.loads(out.read_text())["game"][0]["key"] == "world_at_war/WAW40.xml"
    assert check_profile(out, maps) == []


# -- where profiles are found ------------------------------------------------------------


def _install(maps: Path, map_folder: str, game: Path) -> Path:
    games = maps / map_folder / "map" / "games"
    games.mkdir(parents=True)
    shutil.copy(game, games / game.name)
    (maps / map_folder / "map.yml").write_text(f"map_name: {map_folder}\ngames:\n  - game_name: A game\n    file_name: {game.name}\n")
    return games / game.name


def test_profiles_are_found_beside_the_maps_folder_then_in_the_map_then_built_in(tmp_path: Path) -> None:
    game = load(_install(tmp_path / "downloadedMaps", "my_aa50", AA50_1941))  # mapName world_war_ii_v3
    assert Path(profile_for_game(game).path).name == "world_war_ii_v3.toml"  # built-in, the fallback
    shipped = (REPO / "maps" / "world_war_ii_v3.toml").read_text()
    in_map = tmp_path / "downloadedMaps" / "my_aa50" / "kremlin-profile.toml"
    in_map.write_text(shipped)
    assert profile_for_game(game).path == str(in_map)
    users = tmp_path / "profiles" / "world_war_ii_v3.toml"
    users.parent.mkdir()
    users.write_text(shipped)
    assert profile_for_game(game).path == str(users)
    other = tmp_path / "other.toml"
    other.write_text(shipped)
    assert profile_for_game(game, other).path == str(other)  # a draft's profile
    # --profile wins over all: the command line hands the profile it names to the run, which reads the game with it.
    draft = draft_from_dict({"ruleset": "kremlin-aa50", "first": "Axis", "profile": str(other)}, str(tmp_path / "draft.toml"))
    assert Session(draft, game).profile.path == str(other)
    assert Session(draft, game, profile=load_profile(in_map)).profile.path == str(in_map)


@pytest.mark.slow
def test_a_game_without_profile_names_the_options_that_need_one_and_the_command_that_starts_it(tmp_path: Path) -> None:
    maps = tmp_path / "downloadedMaps"
    path = _install(maps, "iron_war", CORPUS_DIR / "iron_war.xml")
    draft = tmp_path / "draft.toml"
    draft.write_text('ruleset = "kremlin-classic"\ngame = "iron_war/iron_war.xml"\nfirst = "Axis"\n')
    with pytest.raises(NoProfileError):
        profile_for_game(load(path))
    result = CliRunner().invoke(main, ["--maps-dir", str(maps), "legal", str(draft)])
    assert result.exit_code == 2
    command = f"kremlin-triplea --maps-dir {maps} profile new iron_war/iron_war.xml -o {tmp_path / 'profiles' / 'iron_war.toml'}"
    assert command in result.output
    # kremlin-classic option 3 excludes a German transport from the Baltic Sea; iron_war calls it 'Baltic Sea Zone'.
    assert "option 3 needs Baltic Sea" in result.output
    # The command it gives writes a profile where it is found, and the draft then reads.
    made = CliRunner().invoke(main, command.split()[1:])
    assert made.exit_code == 0, made.output
    assert profile_for_game(load(path)).path == str(tmp_path / "profiles" / "iron_war.toml")
    listed = CliRunner().invoke(main, ["--maps-dir", str(maps), "legal", str(draft)])
    assert listed.exit_code == 0, listed.output
    assert "Option 1 (infantry) Infantry Placement:" in listed.output


def test_a_draft_names_its_profile_relative_to_itself(tmp_path: Path) -> None:
    profile = tmp_path / "profiles" / "aa50.toml"
    profile.parent.mkdir()
    profile.write_text((REPO / "maps" / "world_war_ii_v3.toml").read_text().replace('map = "world_war_ii_v3"', 'map = "my copy"'))
    draft = tmp_path / "drafts" / "draft.toml"
    draft.parent.mkdir()
    draft.write_text(f'ruleset = "kremlin-aa50"\ngame = "{AA50_1941}"\nfirst = "Axis"\nprofile = "../profiles/aa50.toml"\n')
    parsed = read_draft(draft)
    assert Path(parsed.profile).resolve() == profile.resolve()
    assert Session(parsed, load(AA50_1941)).profile.map == "my copy"


def test_apply_takes_profile_on_the_command_line(tmp_path: Path) -> None:
    profile = tmp_path / "aa50.toml"
    profile.write_text((REPO / "maps" / "world_war_ii_v3.toml").read_text().replace('map = "world_war_ii_v3"', 'map = "my copy"'))
    out = tmp_path / "out.xml"
    result = CliRunner().invoke(
        main, ["--maps-dir", str(MAPS_DIR), "apply", str(REPO / "examples" / "kremlin-aa50-1941.toml"), "-o", str(out), "--profile", str(profile)]
    )
    assert result.exit_code == 0, result.output
    assert "map profile my copy" in result.output


# -- proof over the corpus -------------------------------------------------------------


@pytest.mark.slow
def test_profile_new_on_every_corpus_game_passes_the_check_unchanged(tmp_path: Path) -> None:
    """Every corpus game TripleA 1.9 reads (tests/data/engine-1.9-unreadable.toml lists the others): about 40 s."""
    rulesets = all_rulesets()[0]
    known = _known()
    assert len(READABLE) >= 70
    for path in READABLE:
        game = load(path)
        drafted = new_profile(game, rulesets, known=known, key=str(path))
        out = tmp_path / f"{path.stem}.toml"
        out.write_text(drafted.text)
        assert check_profile(out, MAPS_DIR) == [], path.name  # includes: no place matched to the other kind
        for rule, match in drafted.places.items():
            if match.name is not None and place_kinds(rulesets).get(rule) is not None:
                kind = place_kinds(rulesets)[rule].kind
                assert kind is None or game.board.is_water(match.name) == (kind == "sea"), (path.name, rule, match)


# The matrix applies every legal pick: on all 73 readable games, 124 s on one core (scripts/corpus_matrix.py prints
# the figures per game; the largest, G40CanadianMod, 17 s).
@pytest.mark.slow
# The largest games first: pytest-xdist hands tests out in this order, and a minute-long game left for the end would
# keep one worker busy while the other waits.
@pytest.mark.parametrize("path", sorted(READABLE, key=lambda p: (-p.stat().st_size, p.name)), ids=lambda p: p.name)
def test_matrix_passes_on_a_corpus_game_with_its_new_profile(path: Path, drafted_profiles) -> None:
    out = drafted_profiles.draft(path)  # `profile new`'s draft, made once for the run (the claims test asks for it too)
    matrix = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "matrix", "--only-given", "--game", str(path), "--profile", str(out), "--samples", "1"])
    assert matrix.exit_code == 0, matrix.output[-3000:]


@pytest.mark.parametrize(
    ("game", "rule", "was"),
    [
        ("the_grand_war.xml", "Bering Sea", "SZ Bering Strait"),  # shares Alaska only with the Bering Sea elsewhere
        ("UW_1.7.xml", "West Indian Ocean", "SZ 158 Indian"),  # one of many Indian Ocean zones; Madagascar alone
        ("middle_east.xml", "Central Mediterranean", "Mediterranean sz 2"),  # sz 1, 2 and 3; Libya alone
    ],
)
def test_a_sea_zone_is_never_matched_by_one_word_and_one_coast(game: str, rule: str, was: str) -> None:
    """Issue 46: a sea zone matched across oceans by one shared word and one shared coast. Judged by hand: each of these
    maps has several seas carrying the word, and the one taken shared a single coast with the rule text's sea on the
    profiled maps; left unmatched, for a person."""
    rulesets = [load_named_ruleset(n) for n in ("kremlin-aa50", "kremlin-classic", "kremlin-daak")]
    match = match_places(load(CORPUS_DIR / game), rulesets, _known())[rule]
    assert match.name is None and was in load(CORPUS_DIR / game).board.nodes, match


def test_an_unmatched_place_says_it_was_refused_for_its_owner() -> None:
    """Issue 46: an unmatched name never said it was refused for its owner. pacific.xml's Wake is held by the other
    alliance than classic_variations' Wake Island: the reason says so, not 'no territory has its name'."""
    rulesets = [load_named_ruleset(n) for n in ("kremlin-aa50", "kremlin-classic", "kremlin-daak")]
    match = match_places(load(CORPUS_DIR / "pacific.xml"), rulesets, _known())["Wake Island"]
    assert match.name is None and match.evidence.startswith("Wake has its words but is not taken: Wake is held by another alliance here"), match


def test_a_victory_city_the_map_names_verbatim_is_not_moved_to_a_neighbour(tmp_path: Path) -> None:
    """Issue 46: a city name present verbatim in the map lost to the victory city beside it. WW2v3 1941 with its
    Eastern Canada named "Ottawa", no victory city, and Western Canada one: 000 D) (4)'s Ottawa is this map's Ottawa,
    which holds no victory city to move; it is not Western Canada."""
    moved = _v3_with_ottawa_moved(tmp_path, True)
    moved.write_text(moved.read_text(encoding="utf-8").replace('"Eastern Canada"', '"Ottawa"'), encoding="utf-8")
    game = load(moved)
    assert "Ottawa" in game.board.nodes and not game.board.node("Ottawa")["victory_city"] and game.board.node("Western Canada")["victory_city"]
    data = tomllib.loads(new_profile(game, [load_named_ruleset("kremlin-aa50")], known=shipped_known_places()).text)
    assert "Ottawa" not in data["places"]
    assert "this game's Ottawa (its very name) is not one" in data["unmatched"]["Ottawa"]

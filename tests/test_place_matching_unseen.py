"""Profile new's place matching on maps it has never seen (issue 46 item 6). Expectations come from the
hand-written profiles (maps/*.toml) and the game files, never from profile new's output."""

from __future__ import annotations

import pytest

from kremlin_triplea.game import load
from kremlin_triplea.rules.profile import load_profile
from kremlin_triplea.tools.matrix import all_rulesets
from kremlin_triplea.tools.place_evidence import installed_profiles, shipped_known_places
from kremlin_triplea.tools.place_matching import match_places
from support.paths import MAPS_DIR


def _pinned_games() -> list:
    found = []
    for profile in installed_profiles():
        for base in profile.games:
            found.append(pytest.param(profile.path, base.key, id=f"{profile.map}/{base.file}"))
    return found


@pytest.mark.parametrize(("profile_path", "key"), _pinned_games())
def test_a_board_identical_to_a_profiled_one_takes_that_profile_s_places(profile_path, key) -> None:
    """A board whose territories and connections are a pinned game's (another scenario or set-up of that map, say)
    gets every place its hand-written profile gives: the classic board lost Bering Sea, Drake Passage, Java Sea,
    the Southern and West Indian Oceans and the sea off eastern Australia, so the scenarios that need them."""
    profile = load_profile(profile_path)
    game = load(key, maps_dir=MAPS_DIR)
    matches = match_places(game, all_rulesets()[0], shipped_known_places())
    for rule, name in profile.places.items():
        if rule in matches and name in game.board.nodes:
            assert matches[rule].name == name, (rule, matches[rule])


def test_a_board_with_one_connection_otherwise_is_not_taken_for_the_profiled_one(tmp_path) -> None:
    """The classic board with Drake Passage's sea zone cut from one neighbour is another board: its places are
    matched on their own evidence (Drake Passage, which classic's profile calls South Argentina Sea Zone, is not
    taken from that profile)."""
    from lxml import etree

    classic = MAPS_DIR / "world_war_ii_classic" / "map" / "games" / "classic.xml"
    tree = etree.parse(str(classic))
    cut = next(c for c in tree.iter("connection") if "South Argentina Sea Zone" in (c.get("t1"), c.get("t2")))
    cut.getparent().remove(cut)
    other = tmp_path / "classic-cut.xml"
    tree.write(str(other), xml_declaration=True, encoding="UTF-8")
    matches = match_places(load(other), all_rulesets()[0], shipped_known_places())
    assert matches["Drake Passage"].name is None
    assert "this board is that of" not in matches["Western USA"].evidence


def test_a_sea_zone_is_not_matched_by_one_shared_word_and_one_shared_coast() -> None:
    """The profiled maps' Central Mediterranean (and the German Mediterranean fleet's) touches Southern Europe and
    Libya; middle_east.xml's "Mediterranean sz 2" touches Libya and Alexandria: one word and one coast of three in
    common, which made it both (a sea zone of the same name elsewhere needs most of its coasts, two at least)."""
    from support.paths import CORPUS_DIR

    game = load(CORPUS_DIR / "middle_east.xml")
    known = shipped_known_places()
    coasts = {frozenset(k.land_neighbours) for k in known["central mediterranean"] + known["german mediterranean fleet"]}
    assert coasts == {frozenset({"europe south", "libya"})}  # as the profiled maps have it
    matches = match_places(game, all_rulesets()[0], known)
    for rule in ("Central Mediterranean", "German Mediterranean fleet"):
        assert matches[rule].name is None, matches[rule]
        assert "Mediterranean sz 2" not in matches[rule].evidence.split(";")[0]


@pytest.mark.parametrize(
    ("game_file", "rule", "territory"),
    [("Global_War.xml", "French Madagascar", "Madagascar"), ("G40CanadianMod.xml", "South Eire", "Eire"), ("Civil_War.xml", "Venezuela", "Columbia")],
)
def test_an_unmatched_place_names_the_territory_refused_and_its_starting_owner(game_file: str, rule: str, territory: str) -> None:
    """A territory here has the place's words or the name a profiled map gives it, and is refused for its starting
    owner (owned where the place is a neutral there, or the other side's): the reason said no territory had its name."""
    from support.paths import CORPUS_DIR

    game = load(CORPUS_DIR / game_file)
    known = shipped_known_places()
    there = [k for k in known[rule.lower()] if k.name.lower() == territory.lower() or territory.lower() in k.name.lower()]
    owner_here = game.board.node(territory)["owner"]
    # The game file and the profiled map disagree on who holds it at the start (neutral there, or the other side).
    assert there and any((owner_here is None) != (k.owner_alliances is None) or owner_here is not None for k in there)
    match = match_places(game, all_rulesets()[0], known)[rule]
    assert match.name is None
    assert "no land territory has its name" not in match.evidence, match.evidence
    assert match.evidence.startswith(f"{territory} ") and "not taken" in match.evidence
    assert ("owned here" in match.evidence) or ("held by another alliance" in match.evidence), match.evidence

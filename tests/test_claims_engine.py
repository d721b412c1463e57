"""Issue 46's Done-when on the pinned maps and the corpus: every claim about play a written game's notes make holds in
TripleA 2.7.

tests/test_heldout_maps.py asks 2.7 about the ten held-out maps; this asks the same questions
(tests/support/triplea27_claims.py) of every pinned and readable corpus game with each Kremlin ruleset its profile fits
(the installed one, or the one ``profile new`` drafts), drafted
with each side's first legal picks and written by ``apply``: what the notes say TripleA enforces is asked of 2.7's
own objects (properties, attachments, MoveValidator, the sequence, hit points after initialization), and every rule
they leave to the players must be one 2.7 does not enforce. One JVM for every game.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from lxml import etree

from kremlin_triplea.cli.main import main
from kremlin_triplea.draft.rulesets import load_named_ruleset
from kremlin_triplea.draft.run import draft_from_dict
from kremlin_triplea.errors import KremlinError
from kremlin_triplea.game import load
from kremlin_triplea.gamerules.house_actions import game_technologies
from kremlin_triplea.report.claims import why_not_held
from kremlin_triplea.rules.profile import profile_for_game
from kremlin_triplea.session import Session
from support.paths import CORPUS_DIR, MAPS_DIR, PINNED_GAMES
from support.triplea27_claims import Written, every_ask, judged, position_of, write_first_picks
from test_profile_new import READABLE

KREMLIN = ("kremlin-aa50", "kremlin-classic", "kremlin-daak")


def _profiled(game: Path) -> Path | None:
    """The installed profile of the game's map (maps/<map>.toml), or None for a map the project has not profiled."""
    try:
        return profile_for_game(load(game)).path
    except KremlinError:
        return None


def _drafted(game: Path, folder: Path) -> Path:
    """The profile ``profile new`` drafts for a game, as a map maker starts one."""
    out = folder / f"{game.stem}.toml"
    if out.exists():  # drafted already for this test
        return out
    made = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "profile", "new", str(game), "-o", str(out)])
    assert made.exit_code == 0, made.output
    return out


def _wrong_claims(games: list[tuple[Path, Path]], folder: Path) -> tuple[int, list[str]]:
    """Each (game, profile) with each Kremlin ruleset that fits it, drafted with each side's first legal picks and
    written by ``apply``; every claim about play its notes make asked of one 2.7 JVM. The number of games written,
    and what 2.7 did not bear out (with the claims no question could check: the test fails closed on those)."""
    from kremlin_triplea.engine import find_any_engine
    from kremlin_triplea.engine.triplea27_positions import run_positions27
    from support.triplea27 import installation_without_compiler

    asked, unasked = [], []
    for game, profile in games:
        loaded = load(game)
        for ruleset in KREMLIN:
            try:
                session = Session(draft_from_dict({"ruleset": ruleset, "first": "Axis"}), load(game), profile=profile_for_game(loaded, profile))
            except KremlinError:
                continue  # the ruleset does not fit this game (its sides, its names): nothing is written
            out = folder / f"{game.parent.name}-{game.stem}-{ruleset}.xml"
            try:
                out, takes = write_first_picks(game, profile, ruleset, out)
            except StopIteration:
                # Taking the first legal pick each time runs out before the draft is whole (FirstPunicWar, Tutorial,
                # Test1: few options fit): no game is written, so no note claims anything.
                continue
            written = Written(f"{game.name} {ruleset}", game, out, tuple(load_named_ruleset(ruleset).rule_set.rules), session.names, takes)
            asks, missing, _ = every_ask(written)
            unasked += missing
            asked.append((written, asks, *position_of(written, asks)))
    answers = run_positions27(find_any_engine(installation_without_compiler(folder / "triplea")), [position for _, _, position, _ in asked])
    wrong = [why for (_, asks, _, questions), got in zip(asked, answers) for why in judged(asks, questions, got)]
    return len(asked), unasked + wrong


@pytest.mark.engine
@pytest.mark.slow
def test_every_claim_about_play_on_every_pinned_game_holds_in_one_triplea_27(tmp_path: Path) -> None:
    games = [(game, profile) for game in PINNED_GAMES if (profile := _profiled(game)) is not None]
    written, wrong = _wrong_claims(games, tmp_path)
    # Every pinned game its map's profile fits (all but WorldWar3-1955.xml, another board), each with a ruleset or more.
    assert len(games) == len(PINNED_GAMES) - 1 and written >= len(games)
    assert wrong == [], wrong[:20]


@pytest.mark.engine
@pytest.mark.slow
def test_every_claim_about_play_on_every_corpus_game_holds_in_one_triplea_27(tmp_path: Path, drafted_profiles) -> None:
    """The corpus games TripleA 1.9 reads, each with the profile ``profile new`` drafts for it (it found: an empty
    <technology> taken for none, so WAW40's granted jetPower was no technology in 2.7; G40CanadianMod's 'disallowed'
    Russian list taken for Restricted Russia; WAW40's isTwoHit battleship taken for a one-hit one)."""
    games = [(game, drafted_profiles.draft(game)) for game in READABLE]  # the corpus matrix's drafts (test_profile_new)
    written, wrong = _wrong_claims(games, tmp_path)
    assert written >= 70
    assert wrong == [], wrong[:20]


def test_the_axis_bid_goes_to_triplea_s_bid_phase_only_where_each_axis_power_has_its_bid_steps() -> None:
    """002 III, "Players do not have to declare what they are buying": kremlin-daak's iii-undeclared-bid says the
    Axis buy their bid in TripleA's own bid phase (a BidPurchaseDelegate and a BidPlaceDelegate step per power).
    battleship_row.xml has every '<power> bid' property but no bid step: the claim was made there from the map
    profile's [bid_phase] alone, and a draft's bid phase took PUs no step would spend. Now the rule is the players'
    there, saying why, and the draft offers the phase to no power."""
    rule = _rule("kremlin-daak", "iii-undeclared-bid")
    games = {path.name: path for path in PINNED_GAMES}
    for name, axis_bids in (("kremlin.xml", True), ("battleship_row.xml", False)):
        game = load(games[name])
        session = Session(draft_from_dict({"ruleset": "kremlin-daak", "first": "Axis"}), game, profile=profile_for_game(game))
        why = why_not_held(rule, etree.parse(str(games[name])).getroot(), session.names)
        assert (why is None) == axis_bids, (name, why)
        assert axis_bids or "TripleA's bid phase (a '{power} bid' property, a bid step and a bid placement step) is missing for " in why
        assert (sorted(session.bid_phase_powers) == ["Germans", "Japanese"]) == axis_bids, (name, session.bid_phase_powers)


def _rule(ruleset: str, rule_id: str):
    return next(r for r in load_named_ruleset(ruleset).rule_set.rules if r.id == rule_id)


def _why_not_held(ruleset: str, rule_id: str, game: Path, folder: Path) -> str | None:
    loaded = load(game)
    session = Session(draft_from_dict({"ruleset": ruleset, "first": "Axis"}), loaded, profile=profile_for_game(loaded, _drafted(game, folder)))
    out, _ = write_first_picks(game, session.profile.path, ruleset, folder / f"{game.stem}-{ruleset}.xml")  # as apply writes it
    return why_not_held(_rule(ruleset, rule_id), etree.parse(str(out), etree.XMLParser(huge_tree=True)).getroot(), session.names)


@pytest.mark.slow
def test_restricted_russia_is_claimed_only_where_russia_s_list_is_where_it_may_go(tmp_path: Path) -> None:
    """001 header 2 (kremlin-classic h2) and 002 I (kremlin-daak): "TripleA stops every Russian move out of Soviet
    territory". G40CanadianMod's Russian list is 'disallowed' (the Pacific territories Russia may not enter): it stops
    no move out of Soviet territory, and the claim was made there from the list alone."""
    for ruleset, rule_id in (("kremlin-classic", "h2-restricted-russia"), ("kremlin-daak", "i-restricted-russia")):
        why = _why_not_held(ruleset, rule_id, CORPUS_DIR / "G40CanadianMod.xml", tmp_path)
        assert why is not None and "movementRestrictionType = 'disallowed', not 'allowed'" in why, why
        assert _why_not_held(ruleset, rule_id, CORPUS_DIR / "kremlin.xml", tmp_path) is None


@pytest.mark.slow
def test_a_battleship_made_two_hit_by_the_old_is_two_hit_takes_two_hits(tmp_path: Path) -> None:
    """001 header 3 (kremlin-classic h3): 2.7's UnitAttachment reads isTwoHit="true" as hitPoints 2; WAW40's Battleship
    is written so, and the notes told the players to keep a rule the game already holds."""
    assert _why_not_held("kremlin-classic", "h3-two-hit-battleships", CORPUS_DIR / "WAW40.xml", tmp_path) is None


@pytest.mark.slow
def test_a_technology_granted_in_a_game_with_an_empty_technology_section_is_listed_there(tmp_path: Path) -> None:
    """002 I's Axis Advantage (kremlin-daak i-axis-advantage: Germany starts with Jet Power). WAW40 has an empty
    <technology>, so TripleA defines no technology and builds no list of its own: the techAttachment's jetPower was
    no technology in 2.7. The grant now lists jetPower in that section, as game.dtd orders it."""
    game = CORPUS_DIR / "WAW40.xml"
    assert game_technologies(load(game).board) == () and b"<technology>" in game.read_bytes()
    out, _ = write_first_picks(game, _drafted(game, tmp_path), "kremlin-daak", tmp_path / "waw40.xml")
    technology = etree.parse(str(out)).getroot().find("technology")
    assert [t.get("name") for t in technology.iterfind("technologies/techname")] == ["jetPower"]

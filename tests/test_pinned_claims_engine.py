"""Issue 46's Done-when on the pinned maps: every claim about play that a written game's notes make holds in TripleA 2.7.

tests/test_heldout_maps.py asks 2.7 about the ten held-out maps; this asks the same questions
(tests/support/triplea27_claims.py) of every pinned game with each Kremlin ruleset its map's profile fits, drafted
with each side's first legal picks and written by ``apply``: what the notes say TripleA enforces is asked of 2.7's
own objects (properties, attachments, MoveValidator, the sequence, hit points after initialization), and every rule
they leave to the players must be one 2.7 does not enforce. One JVM for every game.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kremlin_triplea.draft.rulesets import load_named_ruleset
from kremlin_triplea.draft.run import draft_from_dict
from kremlin_triplea.errors import KremlinError
from kremlin_triplea.game import load
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.profile import profile_for_game
from kremlin_triplea.session import Session
from support.paths import PINNED_GAMES

KREMLIN = ("kremlin-aa50", "kremlin-classic", "kremlin-daak")


def _profiled(game: Path) -> Path | None:
    """The installed profile of the game's map (maps/<map>.toml), or None for a map the project has not profiled."""
    try:
        return profile_for_game(load(game)).path
    except KremlinError:
        return None


@pytest.mark.engine
@pytest.mark.slow
def test_every_claim_about_play_on_every_pinned_game_holds_in_one_triplea_27(tmp_path: Path) -> None:
    from kremlin_triplea.engine import find_any_engine
    from kremlin_triplea.engine.triplea27_positions import run_positions27
    from support.triplea27 import installation_without_compiler
    from support.triplea27_claims import Written, every_ask, judged, position_of, write_first_picks

    games, unasked, fitted = [], [], 0
    for game in PINNED_GAMES:
        profile = _profiled(game)
        if profile is None:
            continue
        loaded = load(game)
        for ruleset in KREMLIN:
            try:
                session = Session(draft_from_dict({"ruleset": ruleset, "first": "Axis"}), load(game), profile=profile_for_game(loaded, profile))
            except KremlinError:
                continue  # the ruleset does not fit this game (its sides, its names): nothing is written
            fitted += 1
            out, takes = write_first_picks(game, profile, ruleset, tmp_path / f"{game.parent.parent.parent.name}-{game.stem}-{ruleset}.xml")
            names = Names(loaded.board, session.profile, tuple(loaded.board.catalog.alliances()))
            written = Written(f"{game.name} {ruleset}", game, out, tuple(load_named_ruleset(ruleset).rule_set.rules), names, takes)
            asks, missing, _ = every_ask(written)
            unasked += missing
            games.append((written, asks, *position_of(written, asks)))
    # Every pinned map is profiled, and each of the three rulesets fits its own target games at least.
    assert fitted >= 3 and {w.label.split()[-1] for w, *_ in games} == set(KREMLIN), [w.label for w, *_ in games]
    answers = run_positions27(find_any_engine(installation_without_compiler(tmp_path / "triplea")), [position for _, _, position, _ in games])
    wrong = [why for (_, asks, _, asked), got in zip(games, answers) for why in judged(asks, asked, got)]
    assert (unasked, wrong[:20]) == ([], [])


def test_the_axis_bid_goes_to_triplea_s_bid_phase_only_where_each_axis_power_has_its_bid_steps() -> None:
    """002 III, "Players do not have to declare what they are buying": kremlin-daak's iii-undeclared-bid says the
    Axis buy their bid in TripleA's own bid phase (a BidPurchaseDelegate and a BidPlaceDelegate step per power).
    battleship_row.xml has every '<power> bid' property but no bid step: the claim was made there from the map
    profile's [bid_phase] alone, and a draft's bid phase took PUs no step would spend. Now the rule is the players' there, saying why, and the draft offers the phase to no power."""
    from lxml import etree

    from kremlin_triplea.report.claims import why_not_held

    daak = load_named_ruleset("kremlin-daak")
    rule = next(r for r in daak.rule_set.rules if r.id == "iii-undeclared-bid")
    games = {path.name: path for path in PINNED_GAMES}
    for name, axis_bids in (("kremlin.xml", True), ("battleship_row.xml", False)):
        game = load(games[name])
        session = Session(draft_from_dict({"ruleset": "kremlin-daak", "first": "Axis"}), game, profile=profile_for_game(game))
        names = Names(game.board, session.profile, tuple(game.board.catalog.alliances()))
        why = why_not_held(rule, etree.parse(str(games[name])).getroot(), names)
        assert (why is None) == axis_bids, (name, why)
        assert axis_bids or "TripleA's bid phase (a '{power} bid' property, a bid step and a bid placement step) is missing for " in why
        assert (sorted(session.bid_phase_powers) == ["Germans", "Japanese"]) == axis_bids, (name, session.bid_phase_powers)

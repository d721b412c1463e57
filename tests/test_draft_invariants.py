"""Invariants that hold after every pick of any draft (issue 12): a board no game can start from is never made.

No territory or sea zone holds units of two sides at war or a power's units while neutral; one factory a territory; ships
only at sea, planes at sea only on carriers with room, land units at sea only on transports with room.
Drafts are drawn from the draft's own legal picks, options and scenarios of both sides mixed, for the three
Kremlin rulesets on every game their seeds target.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from kremlin_triplea.draft.invariants import board_problems, new_problems
from kremlin_triplea.draft.run import draft_from_dict
from kremlin_triplea.errors import RuleViolation
from kremlin_triplea.model.changes import PlaceUnits
from kremlin_triplea.session import Declaration, Session
from support.aa50 import GAMES, fresh_game
from support.classic import RULESET_GAMES
from support.drafts import draw_pick, random_bid
from support.sessions import bid, session_for

TARGETS = [("kremlin-aa50", GAMES["1941"]), ("kremlin-aa50", GAMES["1942"]), *RULESET_GAMES]


@pytest.mark.parametrize(("ruleset", "game"), TARGETS, ids=lambda v: getattr(v, "name", v))
def test_the_base_games_break_none(ruleset: str, game) -> None:
    assert board_problems(fresh_game(game).board, "factory") == set()


def test_each_invariant_is_reported_in_plain_words() -> None:
    board = fresh_game(GAMES["1941"]).board
    before = board_problems(board, "factory")
    board.push_all(
        [
            PlaceUnits("Karelia S.S.R.", "Germans", "infantry", 1),  # Russian land, German units
            PlaceUnits("Sweden", "Germans", "infantry", 1),  # a neutral
            PlaceUnits("Germany", "Germans", "factory", 1),  # Germany already has one
            PlaceUnits("Germany", "Germans", "battleship", 1),  # a ship on land
            PlaceUnits("1 Sea Zone", "Americans", "fighter", 1),  # no carrier there
            PlaceUnits("1 Sea Zone", "Americans", "infantry", 1),  # no transport there
            PlaceUnits("2 Sea Zone", "Germans", "submarine", 1),  # enemies at sea, as on land
            PlaceUnits("2 Sea Zone", "British", "submarine", 1),
        ]
    )
    found = new_problems(before, board, "factory")
    assert found == sorted(
        [
            "Karelia S.S.R. belongs to Russians but holds units of Germans, at war with them",
            "Karelia S.S.R. holds units of Germans and Russians, who are at war",
            "Sweden is neutral but holds units of Germans",
            "Germany holds more than one factory",
            "Germany is land but holds ships (battleship)",
            "1 Sea Zone holds planes needing 1 carrier spaces; its carriers have 0",
            "1 Sea Zone holds land units needing 2 transport room; its transports have 0",
            "2 Sea Zone holds units of British and Germans, who are at war",
        ]
    )


def test_one_factory_a_territory_counts_every_power_s_factory_type() -> None:
    """A map giving each power its own factory (Total World War: germanFactory, russianFactory...) still has one
    factory a territory: a second factory of another power's type beside the first is two factories."""
    game = fresh_game(Path(__file__).resolve().parent / "data" / "total_world_war" / "Total_World_War_Dec1941_3.0.xml")
    board = game.board
    assert board.units("Western Germany")[("Germany", "germanFactory")] == 1  # the game file's set-up
    factories = {"germanFactory", "russianFactory", "britishFactory"}
    before = board_problems(board, factories, ["Western Germany"])
    board.push(PlaceUnits("Western Germany", "Germany", "britishFactory", 1))
    assert new_problems(before, board, factories, ["Western Germany"]) == ["Western Germany holds more than one factory (britishFactory, germanFactory)"]
    board.pop()


def _every_pick_keeps_the_invariants(ruleset: str, game, seed: int) -> int:
    rng = random.Random(seed)
    session = Session(draft_from_dict({"ruleset": ruleset, "first": rng.choice(["Axis", "Allies"])}), fresh_game(game))
    base = board_problems(session.game.board, session.state.factory)
    made = 0
    for _ in range(session.run.total_picks):
        pick = draw_pick(session, rng.choice)
        if pick is None:
            break
        outcome = session.push(pick)  # a listed pick is accepted: the draft refuses what breaks an invariant, and does not list it
        # Every retreat went where the rules allow: into land of the retreating power's side, within a restricted
        # power's movement limits (000 D(5): China only where it may enter).
        for change in outcome.moved:
            place = session.game.board.node(change.territory)
            if place["water"]:  # a scenario's fleet moved (000 "Carrier force at Pearl Harbor"): ships and planes only
                assert session.game.board.catalog.unit_type(change.unit_type).domain != "land", (pick.label, change)
                continue
            assert place["owner"] is not None and session.game.board.catalog.allied(change.owner, place["owner"]), (pick.label, change)
            allowed = session.state.may_enter.get(change.owner)
            assert allowed is None or change.territory in allowed, (pick.label, change)
        made += 1
        assert new_problems(base, session.game.board, session.state.factory) == [], pick.label
    # After the bid, the displaced units are declared (000 A "Order of action" 1), each among its nearest places on
    # the board the later picks and earlier declarations left: retreats into their side's land within its limits,
    # navies into sea zones without enemy units; the board keeps the invariants after each.
    session.end_picks()  # a draft whose options ran out is declared where it stopped
    while (waiting := session.open_declaration()) is not None:
        displaced, found, _ = waiting
        session.declare(Declaration(displaced, rng.choice(found.matches)))
    for displaced, outcome in session.run.declared:
        for change in outcome.changes:
            place = session.game.board.node(change.territory)
            if displaced.kind == "navy":
                assert place["water"], (displaced, change)
                continue
            assert not place["water"] or session.game.board.catalog.unit_type(change.unit_type).domain == "air", (displaced, change)
            assert place["owner"] is not None and session.game.board.catalog.allied(change.owner, place["owner"]), (displaced, change)
            allowed = session.state.may_enter.get(change.owner)
            assert allowed is None or change.territory in allowed, (displaced, change)
    assert new_problems(base, session.game.board, session.state.factory) == [], "declarations"
    spec = random_bid(rng.choice, session)
    try:
        session.push(session.bid_from_toml(spec))
    except RuleViolation as refused:
        assert "no game can start from" not in str(refused)
    assert new_problems(base, session.game.board, session.state.factory) == []
    return made


@pytest.mark.parametrize(("ruleset", "game"), TARGETS, ids=lambda v: getattr(v, "name", v))
def test_random_drafts_keep_the_invariants_after_every_pick(ruleset: str, game) -> None:
    assert _every_pick_keeps_the_invariants(ruleset, game, seed=11) >= 4


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize(("ruleset", "game"), TARGETS, ids=lambda v: getattr(v, "name", v))
def test_many_random_drafts_keep_the_invariants(ruleset: str, game, seed: int) -> None:
    _every_pick_keeps_the_invariants(ruleset, game, seed)


def test_a_bid_places_no_ship_among_enemy_ships() -> None:
    # 001 bid: "players must declare where the bid units will be placed"; a German sea zone (next to German land)
    # that holds British ships takes no German ship: the board would start with enemies in one sea zone, which
    # TripleA's own bid placement refuses in the classic games ("Cannot place sea units with enemy naval units").
    from kremlin_triplea.draft.legal import bid_choices
    from support.classic import KREMLIN

    session = session_for(KREMLIN, "Axis", ruleset="kremlin-classic")
    board = session.game.board
    assert board.units("North Sea Zone")[("British", "battleship")] or board.units("North Sea Zone")[("British", "transport")]
    places = dict(bid_choices(session.state).places)["Germans"]
    assert "North Sea Zone" not in places and "Baltic Sea Zone" in places
    with pytest.raises(RuleViolation, match="North Sea Zone holds units of British, at war with Germans: no game starts with enemies in one sea zone"):
        bid(session, axis=8, place=[{"power": "Germany", "unit": "submarine", "count": 1, "at": "North Sea Zone"}])


def test_a_bid_ship_beside_enemies_the_game_itself_starts_with_there_is_placed() -> None:
    # Some games start with enemies together at sea (oztea_1942.xml: Germans and British in 109, 117 and 119 Sea
    # Zone): the game's own oddity, which the invariants leave alone (new_problems), so one more unit of a power
    # already standing there is no new problem. Here the base board is given such a zone by hand.
    from kremlin_triplea.draft.legal import bid_choices
    from support.classic import KREMLIN

    session = session_for(KREMLIN, "Axis", ruleset="kremlin-classic")
    session.game.board.push(PlaceUnits("North Sea Zone", "Germans", "submarine", 1))
    assert "North Sea Zone" in dict(bid_choices(session.state).places)["Germans"]
    bid(session, axis=8, place=[{"power": "Germany", "unit": "submarine", "count": 1, "at": "North Sea Zone"}])
    assert session.game.board.units("North Sea Zone")[("Germans", "submarine")] == 2

"""Every rule of 000_bc04a4edf7f7d2ab.txt broken at least once: rejected with the rule quoted, its source and why."""

from __future__ import annotations

from typing import Any

import pytest

from kremlin_triplea.draft.rulesets import load_named_ruleset
from kremlin_triplea.draft.run import draft_from_dict
from kremlin_triplea.errors import RuleViolation
from kremlin_triplea.model.changes import PlaceUnits
from kremlin_triplea.session import Session, apply_draft
from support.aa50 import EIGHT_PICKS, GAMES, SEED, fresh_game
from support.sessions import declare, pick, session_for

RULESET = load_named_ruleset("kremlin-aa50")
BOTH = pytest.mark.parametrize("year", sorted(GAMES))


def rule_of(option: int, check: str | None = None) -> str:
    found = RULESET.option(option)
    return found.quote(check) if check else found.rule


def assert_violation(error: pytest.ExceptionInfo[RuleViolation], *, rule: str, source: str, why: str, pick_label: str | None = None) -> None:
    message = str(error.value)
    assert f'"{rule}"' in message, message
    assert f"({source})" in message, message
    assert why in message, message
    assert SEED in message
    if pick_label is not None:
        assert message.startswith(pick_label) or f": {pick_label}" in message, message
    assert error.value.exit_code == 1


def broken(year: str, first: str, picks: list[tuple[str, Any, dict]]) -> pytest.ExceptionInfo[RuleViolation]:
    """Apply ``picks`` in order; the last one must be refused."""
    session = session_for(GAMES[year], first, picks_per_side=max(4, len(picks)))
    for side, option, spec in picks[:-1]:
        pick(session, side, option, **spec)
    side, option, spec = picks[-1]
    with pytest.raises(RuleViolation) as error:
        pick(session, side, option, **spec)
    return error


def refused_declaration(year: str, first: str, option: int, spec: dict) -> pytest.ExceptionInfo[RuleViolation]:
    """Apply one pick (accepted: where its units go is declared after the bid); the declarations must be refused."""
    session = session_for(GAMES[year], first)
    pick(session, first, option, **spec)
    with pytest.raises(RuleViolation) as error:
        declare(session)
    return error


def option_source(number: int) -> str:
    return f"{SEED}, option {number}"


# -- order of picks ------------------------------------------------------------


def test_first_pick_by_the_wrong_side() -> None:
    with pytest.raises(RuleViolation) as error:
        session = session_for(GAMES["1941"], "Axis")
        pick(session, "Allies", 7, place=[{"power": "Russians", "unit": "bomber", "at": "Russia"}])
    assert_violation(error, rule=RULESET.picks.alternate_rule, source=RULESET.picks.source, why="it is the Axis' turn", pick_label="pick 1 (Allies)")


def test_sides_alternate() -> None:
    error = broken(
        "1941",
        "Axis",
        [
            ("Axis", 7, {"place": [{"power": "Germans", "unit": "bomber", "at": "Germany"}]}),
            ("Axis", 6, {"place": [{"power": "Germans", "unit": "fighter", "at": "Germany"}]}),
        ],
    )
    assert_violation(error, rule=RULESET.picks.alternate_rule, source=RULESET.picks.source, why="it is the Allies' turn")


def test_same_option_not_twice_by_the_same_side() -> None:
    error = broken(
        "1941",
        "Axis",
        [
            ("Axis", 7, {"place": [{"power": "Germans", "unit": "bomber", "at": "Germany"}]}),
            ("Allies", 7, {"place": [{"power": "Russians", "unit": "bomber", "at": "Russia"}]}),
            ("Axis", "bomber", {"place": [{"power": "Japanese", "unit": "bomber", "at": "Japan"}]}),
        ],
    )
    assert_violation(error, rule=RULESET.picks.no_repeat_rule, source=RULESET.picks.no_repeat_source, why="already took option 7")


@pytest.mark.parametrize("count", [3, 12])
def test_picks_per_side_between_four_and_eleven(count: int) -> None:
    with pytest.raises(RuleViolation) as error:
        session_for(GAMES["1941"], "Axis", picks_per_side=count)
    assert_violation(error, rule=RULESET.picks.rule, source=RULESET.picks.source, why=f"{count} picks per side; the rules allow 4 to 11")


def test_each_side_makes_exactly_its_picks() -> None:
    draft = draft_from_dict(
        {
            "ruleset": "kremlin-aa50",
            "first": "Axis",
            "pick": [
                {"side": "Axis", "option": 7, "place": [{"power": "Germans", "unit": "bomber", "at": "Germany"}]},
            ],
        }
    )
    with pytest.raises(RuleViolation) as error:
        apply_draft(draft, fresh_game(GAMES["1941"]))
    assert_violation(error, rule=RULESET.picks.alternate_rule, source=RULESET.picks.source, why="1 picks made; 4 per side means 8")


def test_no_more_picks_than_agreed() -> None:
    ninth = {
        "side": "Axis",
        "option": 2,
        "place": [{"power": "Italians", "unit": "artillery", "at": "Italy"}, {"power": "Germans", "unit": "tank", "at": "Germany"}],
    }
    draft = draft_from_dict({"ruleset": "kremlin-aa50", "first": "Axis", "pick": [*EIGHT_PICKS, ninth]})
    with pytest.raises(RuleViolation) as error:
        Session.from_draft(draft, fresh_game(GAMES["1941"]))
    assert_violation(error, rule=RULESET.picks.rule, source=RULESET.picks.source, why="more than 4 picks per side")


def test_power_must_belong_to_the_picking_side() -> None:
    error = broken("1941", "Axis", [("Axis", 7, {"place": [{"power": "Russians", "unit": "bomber", "at": "Russia"}]})])
    assert_violation(error, rule=rule_of(7), source=option_source(7), why="Russians is not a power of the Axis")


# -- option 1 ------------------------------------------------------------------


@BOTH
def test_option_1_uk_infantry_cannot_go_to_novosibirsk(year: str) -> None:
    error = broken(year, "Allies", [("Allies", 1, {"place": [{"power": "UK", "unit": "infantry", "count": 3, "at": "Novosibirsk"}]})])
    assert_violation(error, rule=rule_of(1, "own_territory"), source=option_source(1), why="Novosibirsk is owned by Russians, not British")


@BOTH
def test_option_1_brazil_is_adjacent_to_enemy_units_after_argentina_joins_the_axis(year: str) -> None:
    # The seed's own example (Bonus Option Clarifications): every pick sees the board as changed.
    error = broken(
        year,
        "Axis",
        [
            ("Axis", 3, {"take": [{"neutral": "Argentina", "by": "Germans", "navy_at": "25 Sea Zone"}, {"neutral": "Mongolia", "by": "Japanese"}]}),
            ("Allies", 1, {"place": [{"power": "USA", "unit": "infantry", "count": 3, "at": "Brazil"}]}),
        ],
    )
    assert_violation(
        error,
        rule=rule_of(1, "not_adjacent_to_enemy_units"),
        source=option_source(1),
        why="Brazil is adjacent to Argentina Chile (Argentina), which holds units of Germans",
    )


def test_option_1_all_three_on_the_same_territory() -> None:
    error = broken(
        "1941",
        "Axis",
        [
            (
                "Axis",
                1,
                {
                    "place": [
                        {"power": "Germans", "unit": "infantry", "count": 2, "at": "France"},
                        {"power": "Germans", "unit": "infantry", "count": 1, "at": "Germany"},
                    ]
                },
            )
        ],
    )
    assert_violation(error, rule=rule_of(1, "same_territory"), source=option_source(1), why="different places: France, Germany")


def test_option_1_exactly_three_infantry() -> None:
    error = broken("1941", "Axis", [("Axis", 1, {"place": [{"power": "Germans", "unit": "infantry", "count": 2, "at": "France"}]})])
    assert_violation(error, rule=rule_of(1, "unit_sets"), source=option_source(1), why="places 2 infantry; the option gives exactly 3 infantry")


def test_option_1_one_power() -> None:
    error = broken(
        "1941",
        "Axis",
        [
            (
                "Axis",
                1,
                {
                    "place": [
                        {"power": "Italians", "unit": "infantry", "count": 2, "at": "Italy"},
                        {"power": "Germans", "unit": "infantry", "count": 1, "at": "Italy"},
                    ]
                },
            )
        ],
    )
    # The German infantry is refused first: Italy is not German.
    assert_violation(error, rule=rule_of(1, "own_territory"), source=option_source(1), why="Italy is owned by Italians, not Germans")


# -- option 2 ------------------------------------------------------------------


@BOTH
def test_option_2_tank_adjacent_to_enemy_units(year: str) -> None:
    error = broken(
        year,
        "Allies",
        [
            (
                "Allies",
                2,
                {
                    "place": [
                        {"power": "Russians", "unit": "artillery", "at": "Kazakh S.S.R."},
                        {"power": "Russians", "unit": "tank", "at": "Karelia S.S.R."},
                    ]
                },
            )
        ],
    )
    assert_violation(error, rule=rule_of(2, "not_adjacent_to_enemy_units"), source=option_source(2), why="Karelia S.S.R. is adjacent to")


# -- option 3 ------------------------------------------------------------------


def test_option_3_more_than_four_ipcs() -> None:
    # The issue's own example: Sweden 3 + Venezuela 2.
    error = broken(
        "1941",
        "Allies",
        [("Allies", 3, {"take": [{"neutral": "Sweden", "by": "Russians"}, {"neutral": "Venezuela", "by": "Americans", "navy_at": "20 Sea Zone"}]})],
    )
    assert_violation(error, rule=rule_of(3, "max_total_ipc"), source=option_source(3), why="Sweden 3 + Venezuela 2 = 5 IPCs, more than 4")


def test_option_3_two_neutrals() -> None:
    error = broken("1941", "Axis", [("Axis", 3, {"take": [{"neutral": "Spain", "by": "Germans"}]})])
    assert_violation(error, rule=rule_of(3, "count"), source=option_source(3), why="takes over 1 different neutral(s); the option takes exactly 2")


def test_option_3_only_neutrals_of_the_table() -> None:
    error = broken("1941", "Axis", [("Axis", 3, {"take": [{"neutral": "Himalaya", "by": "Germans"}, {"neutral": "Spain", "by": "Germans"}]})])
    assert_violation(error, rule=rule_of(3, "neutral"), source=option_source(3), why="Himalaya is not a neutral of the table")


def test_option_3_a_neutral_only_once() -> None:
    error = broken(
        "1941",
        "Axis",
        [
            ("Axis", 3, {"take": [{"neutral": "Spain", "by": "Germans"}, {"neutral": "Angola", "by": "Italians"}]}),
            ("Allies", 3, {"take": [{"neutral": "Spain", "by": "British"}, {"neutral": "Mozambique", "by": "British"}]}),
        ],
    )
    assert_violation(error, rule=rule_of(3, "neutral"), source=option_source(3), why="Spain has already been taken over (owner Germans)")


def test_option_3_china_only_mongolia() -> None:
    restriction = RULESET.restrictions["China"]
    error = broken("1941", "Allies", [("Allies", 3, {"take": [{"neutral": "Afghanistan", "by": "China"}, {"neutral": "Mongolia", "by": "China"}]})])
    assert_violation(error, rule=restriction.rule, source=restriction.source, why="Chinese may take over only Mongolia, not Afghanistan")


def test_option_3_tied_navy_needs_navy_at() -> None:
    # 1941: both of Turkey's sea zones are free of Allied units (in 1942 one holds British ships).
    error = refused_declaration("1941", "Axis", 3, {"take": [{"neutral": "Turkey", "by": "Germans"}, {"neutral": "Angola", "by": "Germans"}]})
    assert_violation(error, rule=rule_of(3, "navy"), source=option_source(3), why="they may go to any of 15 Sea Zone, 16 Sea Zone; the Axis must say which")


def test_option_3_navy_at_must_be_a_nearest_friendly_zone() -> None:
    error = refused_declaration(
        "1941", "Axis", 3, {"take": [{"neutral": "Sweden", "by": "Germans", "navy_at": "6 Sea Zone"}, {"neutral": "Angola", "by": "Germans"}]}
    )
    assert_violation(
        error, rule=rule_of(3, "navy"), source=option_source(3), why="they cannot go to 6 Sea Zone; the nearest sea zones without enemy units are: 5 Sea Zone"
    )


# -- options 4, 5, 9 (ships) ---------------------------------------------------


@BOTH
def test_option_4_not_with_enemy_units(year: str) -> None:
    error = broken(
        year,
        "Allies",
        [
            (
                "Allies",
                4,
                {
                    "place": [
                        {"power": "British", "unit": "transport", "at": "7 Sea Zone"},
                        {"power": "British", "unit": "transport", "at": "2 Sea Zone"},
                    ]
                },
            )
        ],
    )
    assert_violation(error, rule=rule_of(4, "no_enemy_units"), source=option_source(4), why="7 Sea Zone holds units of Germans")


def test_option_4_adjacent_to_own_territory_or_with_friendly_ships() -> None:
    error = broken(
        "1941",
        "Axis",
        [
            (
                "Axis",
                4,
                {
                    "place": [
                        {"power": "Italians", "unit": "submarine", "at": "10 Sea Zone"},
                        {"power": "Italians", "unit": "submarine", "at": "14 Sea Zone"},
                    ]
                },
            )
        ],
    )
    assert_violation(
        error,
        rule=rule_of(4, "sea_zone_adjacent_to_own_territory_or_with_friendly_ships"),
        source=option_source(4),
        why="10 Sea Zone is neither adjacent to a territory Italians owns nor holds friendly naval units",
    )


def test_option_5_ships_go_to_sea() -> None:
    error = broken(
        "1941",
        "Allies",
        [
            (
                "Allies",
                5,
                {
                    "place": [
                        {"power": "British", "unit": "destroyer", "at": "United Kingdom"},
                        {"power": "British", "unit": "cruiser", "at": "2 Sea Zone"},
                    ]
                },
            )
        ],
    )
    assert_violation(
        error, rule=rule_of(5, "sea_zone_adjacent_to_own_territory_or_with_friendly_ships"), source=option_source(5), why="United Kingdom is not a sea zone"
    )


def test_option_9_carrier_or_battleship_not_both() -> None:
    error = broken(
        "1941",
        "Allies",
        [
            (
                "Allies",
                9,
                {
                    "place": [
                        {"power": "Americans", "unit": "carrier", "at": "10 Sea Zone"},
                        {"power": "Americans", "unit": "battleship", "at": "10 Sea Zone"},
                    ]
                },
            )
        ],
    )
    assert_violation(error, rule=rule_of(9, "unit_sets"), source=option_source(9), why="the option gives exactly 1 carrier or 1 battleship")


# -- options 6, 7, 8 -----------------------------------------------------------


@BOTH
def test_option_6_uk_fighter_not_in_brazil(year: str) -> None:
    error = broken(year, "Allies", [("Allies", 6, {"place": [{"power": "UK", "unit": "fighter", "at": "Brazil"}]})])
    assert_violation(error, rule=rule_of(6, "own_territory"), source=option_source(6), why="Brazil is owned by Americans, not British")


def test_option_6_carrier_must_have_room() -> None:
    # 44 Sea Zone (1941): one US carrier (room for 2) with one fighter; after an earlier pick's fighter it is full.
    session = session_for(GAMES["1941"], "Allies")
    session.game.board.push(PlaceUnits("44 Sea Zone", "Americans", "fighter", 1))
    with pytest.raises(RuleViolation) as error:
        pick(session, "Allies", 6, place=[{"power": "British", "unit": "fighter", "at": "44 Sea Zone"}])
    assert_violation(error, rule=rule_of(6, "friendly_carrier_with_room"), source=option_source(6), why="have no room left (2 of 2 taken)")


@BOTH
def test_option_7_uk_bomber_not_in_brazil(year: str) -> None:
    error = broken(year, "Allies", [("Allies", 7, {"place": [{"power": "UK", "unit": "bomber", "at": "Brazil"}]})])
    assert_violation(error, rule=rule_of(7, "own_territory"), source=option_source(7), why="Brazil is owned by Americans, not British")


def test_option_8_aa_gun_with_the_factory() -> None:
    error = broken(
        "1941",
        "Allies",
        [
            (
                "Allies",
                8,
                {
                    "place": [
                        {"power": "Russians", "unit": "factory", "at": "Kazakh S.S.R."},
                        {"power": "Russians", "unit": "aa gun", "at": "Novosibirsk"},
                    ]
                },
            )
        ],
    )
    assert_violation(error, rule=rule_of(8, "same_territory"), source=option_source(8), why="different places: Kazakh S.S.R., Novosibirsk")


def test_option_8_one_factory_per_territory() -> None:
    error = broken(
        "1941",
        "Allies",
        [
            (
                "Allies",
                8,
                {
                    "place": [
                        {"power": "Russians", "unit": "factory", "at": "Russia"},
                        {"power": "Russians", "unit": "aa gun", "at": "Russia"},
                    ]
                },
            )
        ],
    )
    assert_violation(error, rule=rule_of(8, "no_factory_there"), source=option_source(8), why="Russia already has a factory")


# -- option 10 -----------------------------------------------------------------


@BOTH
def test_option_10_not_a_territory_with_a_factory(year: str) -> None:
    error = broken(year, "Axis", [("Axis", 10, {"takeover": {"territory": "Karelia S.S.R.", "by": "Germans"}})])
    assert_violation(error, rule=rule_of(10, "forbidden_units"), source=option_source(10), why="Karelia S.S.R. contains a factory")


def test_option_10_only_enemy_territory() -> None:
    error = broken("1941", "Axis", [("Axis", 10, {"takeover": {"territory": "Libya", "by": "Germans"}})])
    assert_violation(error, rule=rule_of(10, "enemy_held"), source=option_source(10), why="Libya is held by Italians, not by an enemy of Germans")


def test_option_10_not_a_neutral() -> None:
    error = broken("1941", "Axis", [("Axis", 10, {"takeover": {"territory": "Saudi Arabia", "by": "Germans"}})])
    assert_violation(error, rule=rule_of(10, "enemy_held"), source=option_source(10), why="Saudi Arabia is impassable")


def test_option_10_retreat_choice_required_when_several_are_nearest() -> None:
    # 000 option 10: "The player who wins the retreating side decides where to retreat those units after the bidding
    # process is complete if there is more than one eligible territory to retreat to."
    error = refused_declaration("1941", "Axis", 10, {"takeover": {"territory": "Archangel", "by": "Germans"}})
    assert_violation(
        error,
        rule=rule_of(10, "retreat"),
        source=option_source(10),
        why="retreat of 2 Russians infantry from Archangel: they may go to any of Belorussia, Karelia S.S.R., Russia, Urals; the Allies must say which",
        pick_label="pick 1 (Axis, option 10",
    )


def test_option_10_retreat_only_to_a_nearest_territory() -> None:
    error = refused_declaration("1941", "Axis", 10, {"takeover": {"territory": "Archangel", "by": "Germans", "retreat": [{"to": "Caucasus"}]}})
    assert_violation(error, rule=rule_of(10, "retreat"), source=option_source(10), why="cannot go to Caucasus; the nearest territories of their side are")


def test_option_10_china_only_where_china_may_enter() -> None:
    restriction = RULESET.restrictions["China"]
    error = broken("1942", "Allies", [("Allies", 10, {"takeover": {"territory": "Philippine Islands", "by": "Chinese"}})])
    assert_violation(error, rule=restriction.rule, source=restriction.source, why="Chinese may not enter Philippine Islands")


def test_china_may_not_take_option_4() -> None:
    restriction = RULESET.restrictions["China"]
    error = broken(
        "1941",
        "Allies",
        [
            (
                "Allies",
                4,
                {
                    "place": [
                        {"power": "Chinese", "unit": "transport", "at": "2 Sea Zone"},
                        {"power": "Chinese", "unit": "transport", "at": "2 Sea Zone"},
                    ]
                },
            )
        ],
    )
    assert_violation(error, rule=restriction.rule, source=restriction.source, why="option 4 may not be taken for Chinese (only options 1, 2, 3, 6, 7, 10)")


# -- locks ---------------------------------------------------------------------


def test_place_affected_by_the_other_side_is_locked() -> None:
    # The seed's example: an Axis fighter on French Indo-China forbids an Allied takeover there.
    error = broken(
        "1941",
        "Axis",
        [
            ("Axis", 6, {"place": [{"power": "Japanese", "unit": "fighter", "at": "French-Indo China"}]}),
            ("Allies", 10, {"takeover": {"territory": "French Indo-China", "by": "Chinese"}}),
        ],
    )
    assert_violation(
        error, rule=RULESET.locks.rule, source=RULESET.locks.source, why="French Indo-China Thailand (French Indo-China) is locked by the Axis' pick 1"
    )


def test_same_side_may_affect_a_place_again() -> None:
    # The seed's Egypt example: take over Egypt, then a factory and a bomber there.
    session = session_for(GAMES["1941"], "Axis")
    pick(session, "Axis", 10, takeover={"territory": "Egypt", "by": "Germans", "retreat": [{"to": "Trans-Jordan"}]})
    pick(session, "Allies", 7, place=[{"power": "British", "unit": "bomber", "at": "United Kingdom"}])
    pick(session, "Axis", 8, place=[{"power": "Germans", "unit": "factory", "at": "Egypt"}, {"power": "Germans", "unit": "aa gun", "at": "Egypt"}])
    pick(session, "Allies", 6, place=[{"power": "British", "unit": "fighter", "at": "United Kingdom"}])
    pick(session, "Axis", 7, place=[{"power": "Germans", "unit": "bomber", "at": "Egypt"}])
    assert session.game.board.units("Egypt")[("Germans", "bomber")] == 1


# -- bid -----------------------------------------------------------------------


def _bid_session(year: str) -> Session:
    """The eight picks made: the bid is next (000 C)."""
    return Session.from_draft(draft_from_dict({"ruleset": "kremlin-aa50", "first": "Axis", "pick": list(EIGHT_PICKS)}), fresh_game(GAMES[year]))


def _bid_violation(bid: dict) -> pytest.ExceptionInfo[RuleViolation]:
    session = _bid_session("1941")
    with pytest.raises(RuleViolation) as error:
        session.push(session.bid_from_toml(bid))
    return error


def test_bid_german_units_only_on_german_territory() -> None:
    # The example places a German artillery in Libya, which is Italian.
    error = _bid_violation({"axis": 11, "place": [{"power": "Germans", "unit": "artillery", "count": 1, "at": "Libya"}]})
    assert_violation(error, rule=RULESET.bid.placement_rule, source=RULESET.bid.source, why="Libya is owned by Italians, not Germans")


def test_bid_sea_zone_must_be_owned() -> None:
    error = _bid_violation({"axis": 11, "place": [{"power": "Italians", "unit": "submarine", "at": "5 Sea Zone"}]})
    assert_violation(error, rule=RULESET.bid.placement_rule, source=RULESET.bid.source, why="5 Sea Zone is not a Italians-owned sea zone")


def test_bid_units_worth_at_most_the_bid() -> None:
    error = _bid_violation({"axis": 11, "place": [{"power": "Germans", "unit": "bomber", "at": "Germany"}]})
    assert_violation(error, rule=RULESET.bid.amount_rule, source=RULESET.bid.source, why="the units cost 12 PUs, more than the bid of 11")


def test_bid_only_axis_places() -> None:
    error = _bid_violation({"axis": 11, "place": [{"power": "Russians", "unit": "infantry", "at": "Russia"}]})
    assert_violation(error, rule=RULESET.bid.placement_rule, source=RULESET.bid.source, why="Russians is not a power of the Axis")


def test_negative_bid_allocation_must_add_up() -> None:
    error = _bid_violation({"axis": -11, "allocate": {"Russians": 6, "British": 4}})
    assert_violation(
        error, rule=RULESET.bid.negative_rule, source=RULESET.bid.source, why="the allocation gives 10 PUs; a bid of -11 gives the Allies exactly 11"
    )


def test_negative_bid_only_to_allies() -> None:
    error = _bid_violation({"axis": -5, "allocate": {"Germans": 5}})
    assert_violation(error, rule=RULESET.bid.negative_rule, source=RULESET.bid.source, why="Germans is not a power of the Allies")


def test_negative_bid_places_nothing() -> None:
    error = _bid_violation({"axis": -5, "allocate": {"Russians": 5}, "place": [{"power": "Germans", "unit": "infantry", "at": "Germany"}]})
    assert_violation(error, rule=RULESET.bid.amount_rule, source=RULESET.bid.source, why="only a positive bid places units")


def test_positive_bid_allocates_nothing() -> None:
    error = _bid_violation({"axis": 5, "allocate": {"Russians": 5}})
    assert_violation(error, rule=RULESET.bid.negative_rule, source=RULESET.bid.source, why="only a negative bid gives PUs to allocate")


def test_china_fighter_not_on_a_carrier_at_sea() -> None:
    restriction = RULESET.restrictions["China"]
    error = broken("1941", "Allies", [("Allies", 6, {"place": [{"power": "China", "unit": "fighter", "at": "44 Sea Zone"}]})])
    assert_violation(error, rule=restriction.rule, source=restriction.source, why="Chinese units may only be placed on territory Chinese controls")


@BOTH
def test_british_saudi_arabia_is_a_neutral_not_british_territory(year: str) -> None:
    # The game files give the impassable Saudi Arabia to the British; the rules list it as a neutral.
    error = broken(year, "Allies", [("Allies", 1, {"place": [{"power": "UK", "unit": "infantry", "count": 3, "at": "Saudi Arabia"}]})])
    assert_violation(error, rule=rule_of(1, "own_territory"), source=option_source(1), why="Saudi Arabia is impassable: a neutral in the rules")


def test_a_negative_bid_given_to_china_is_refused_it_cannot_spend_pus() -> None:
    """000 C: "the allied player will receive additional IPC's ... to disperse to the allied IPC's on hand";
    AA50's Chinese buy nothing with PUs (their purchase step is TripleA's NoPUPurchaseDelegate), so PUs given
    to them are worth nothing to the Allies."""
    from kremlin_triplea.draft.kinds.bid import apply_bid, bid_receivers
    from kremlin_triplea.draft.picks import BidSpec
    from kremlin_triplea.errors import RuleViolation

    session = session_for(GAMES["1941"], "Axis")
    assert "Chinese" in session.state.side_powers["Allies"] and "Chinese" not in bid_receivers(session.state)
    with pytest.raises(RuleViolation, match=r"Chinese cannot spend PUs in this game.*give them to Russians, British, Americans") as refused:
        apply_bid(session.state, BidSpec(-5, allocate=(("Chinese", 2), ("British", 3))))
    assert SEED in str(refused.value)
    given = apply_bid(session.state, BidSpec(-5, allocate=(("Russians", 2), ("British", 3))))
    assert [c.player for c in given.changes] == ["Russians", "British"]


def test_a_bid_plane_lands_on_a_carrier_with_room_in_an_own_sea_zone() -> None:
    """000 C: "Japanese units may be placed only on Japanese-owned territories and sea zones. A sea zone is owned by a
    country if it is adjacent to a territory which the country owns." A plane at sea needs carrier room."""
    from kremlin_triplea.draft.kinds.bid import apply_bid
    from kremlin_triplea.draft.picks import BidSpec, UnitPlacement
    from kremlin_triplea.errors import RuleViolation

    session = session_for(GAMES["1942"], "Axis")
    # 51 Sea Zone (beside the Japanese Caroline Islands) holds two Japanese carriers' worth of room (2) and one fighter.
    outcome = apply_bid(session.state, BidSpec(10, (UnitPlacement("Japanese", "fighter", 1, "51 Sea Zone"),)))
    assert outcome.changes and outcome.changes[0].territory == "51 Sea Zone"
    with pytest.raises(RuleViolation, match="need 3 carrier spaces; the carriers there have 2") as refused:
        apply_bid(session.state, BidSpec(20, (UnitPlacement("Japanese", "fighter", 2, "51 Sea Zone"),)))
    assert SEED in str(refused.value)
    # A carrier the bid places carries the bid's planes: carrier + two fighters in an own sea zone without ships.
    session = session_for(GAMES["1941"], "Axis")
    apply_bid(session.state, BidSpec(34, (UnitPlacement("Japanese", "carrier", 1, "60 Sea Zone"), UnitPlacement("Japanese", "fighter", 2, "60 Sea Zone"))))
    with pytest.raises(RuleViolation, match="need 1 carrier spaces; the carriers there have 0"):
        apply_bid(session.state, BidSpec(10, (UnitPlacement("Japanese", "fighter", 1, "60 Sea Zone"),)))  # no carrier there


def test_a_bid_ship_is_never_placed_in_a_sea_zone_holding_enemy_units() -> None:
    """The board invariants hold at sea as on land (issue 27): every zone an Axis power may bid into (one it "owns",
    000 C) that holds Allied units at the start refuses an Axis submarine; the matrix's random bids had put them there."""
    from kremlin_triplea.model.queries import owned_sea_zones

    state = _bid_session("1941").state
    board = state.board
    axis = [p for p, side in state.side_of.items() if side == "Axis"]
    contested = [
        (power, zone)
        for power in axis
        for zone in sorted(owned_sea_zones(board, power))
        if any(n and owner is not None and state.side_of.get(owner) == "Allies" for (owner, _), n in board.units(zone).items())
    ]
    assert contested  # AA50 1941 has such zones (British ships beside German and Italian coasts)
    for power, zone in contested:
        error = _bid_violation({"axis": 11, "place": [{"power": power, "unit": "submarine", "at": zone}]})
        assert "at war with" in str(error.value) and zone in str(error.value), (power, zone)


def test_a_bid_factory_is_never_placed_beside_another() -> None:
    """A territory holds one factory (the board invariants): the bid's legal places leave out every territory that
    has one (the matrix on an unseen map found a factory bid listed as legal for Germany, then refused)."""
    state = _bid_session("1941").state
    board = state.board
    factory = state.factory
    with_factory = [p for p in board.nodes if any(n and u == factory for (_, u), n in board.units(p).items()) and board.owner(p) == "Germans"]
    assert with_factory
    for place in with_factory:
        error = _bid_violation({"axis": 15, "place": [{"power": "Germans", "unit": factory, "at": place}]})
        assert "already has a" in str(error.value), place

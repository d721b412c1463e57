"""Each bonus option of 000_bc04a4edf7f7d2ab.txt applied to both AA50 games, with the exact change to the base file."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from kremlin_triplea.draft.run import draft_from_dict
from kremlin_triplea.errors import RuleViolation
from kremlin_triplea.game import load
from kremlin_triplea.rules.profile import Profile, load_profile
from kremlin_triplea.session import Declaration, Session
from kremlin_triplea.tools.matrix import all_rulesets
from kremlin_triplea.tools.place_evidence import known_places
from kremlin_triplea.tools.profiles import new_profile
from support.aa50 import EIGHT_PICKS, GAMES, delta, fresh_game
from support.paths import CORPUS_DIR, MAPS_DIR
from support.sessions import bid, declare, pick, session_for

BOTH = pytest.mark.parametrize("year", sorted(GAMES))


def applied(year: str, first: str, option, **spec):
    """One pick, then the declarations after the bid (000 A "Order of action" 1): what the pick did in the end."""
    session = session_for(GAMES[year], first)
    outcome = pick(session, first, option, **spec)
    declare(session)
    declared = tuple(line for done in session.done if isinstance(done.step, Declaration) for line in done.outcome.lines)
    return delta(session.game.initial, session.game.board), attrs.evolve(outcome, lines=outcome.lines + declared)


@BOTH
def test_option_1_three_infantry_on_one_own_territory(year: str) -> None:
    # 000_bc04a4edf7f7d2ab.txt, option 1
    changes, outcome = applied(year, "Axis", 1, place=[{"power": "Germany", "unit": "infantry", "count": 3, "at": "France"}])
    assert changes == {"France": {"units": {("Germans", "infantry"): 3}}}
    assert outcome.affected == {"France"}


@BOTH
def test_option_2_artillery_and_tank_of_different_powers(year: str) -> None:
    # 000_bc04a4edf7f7d2ab.txt, option 2: "you may place a Japanese tank and an Italian artillery"
    changes, _ = applied(
        year,
        "Axis",
        "artillery-tank",
        place=[
            {"power": "Italy", "unit": "artillery", "at": "Italy"},
            {"power": "Japan", "unit": "tank", "at": "Japan"},
        ],
    )
    assert changes == {
        "Italy": {"units": {("Italians", "artillery"): 1}},
        "Japan": {"units": {("Japanese", "armour"): 1}},
    }


@BOTH
def test_option_3_sweden_and_peru_with_their_navies(year: str) -> None:
    # 000_bc04a4edf7f7d2ab.txt, option 3: Sweden 3 + Peru 1 = 4 IPCs
    changes, outcome = applied(
        year,
        "Axis",
        3,
        take=[
            {"neutral": "Sweden", "by": "Germans"},
            {"neutral": "Peru", "by": "Japanese", "navy_at": "Seazone 21"},
        ],
    )
    assert changes == {
        "Sweden": {
            "owner": (None, "Germans"),
            "original_owner": (None, "Germans"),
            "production": (0, 3),
            "impassable": (True, False),
            "units": {("Germans", "infantry"): 2, ("Germans", "artillery"): 1},
        },
        "5 Sea Zone": {"units": {("Germans", "destroyer"): 1}},
        "Peruvian Central": {
            "owner": (None, "Japanese"),
            "original_owner": (None, "Japanese"),
            "production": (0, 1),
            "impassable": (True, False),
            "units": {("Japanese", "infantry"): 1},
        },
        "21 Sea Zone": {"units": {("Japanese", "submarine"): 1}},
    }
    # The ships' sea zones are declared after the bid (000 A "Order of action" 1), so the draft locks only the neutrals.
    assert outcome.affected == {"Sweden", "Peruvian Central"}


@BOTH
def test_option_3_mongolia_for_china_moves_the_capital_marker(year: str) -> None:
    # 000_bc04a4edf7f7d2ab.txt, option 3 and D(5): "The only neutral selectable by China in Bonus Option 3 is Mongolia."
    changes, _ = applied(
        year,
        "Allies",
        3,
        take=[
            {"neutral": "mongolia", "by": "China"},
            {"neutral": "Venezuela", "by": "USA", "navy_at": "SZ 19"},
        ],
    )
    assert changes == {
        "Mongolia": {
            "owner": (None, "Chinese"),
            "original_owner": (None, "Chinese"),
            "production": (0, 2),
            "impassable": (True, False),
            "capital": ("Chinese", None),
            "units": {("Chinese", "infantry"): 1, ("Chinese", "armour"): 1},
        },
        "Himalaya": {"capital": (None, "Chinese")},
        "Northern South America": {
            "owner": (None, "Americans"),
            "original_owner": (None, "Americans"),
            "production": (0, 2),
            "impassable": (True, False),
            "units": {("Americans", "infantry"): 1},
        },
        "19 Sea Zone": {"units": {("Americans", "destroyer"): 1}},
    }


@BOTH
def test_option_3_saudi_arabia_changes_owner_from_british(year: str) -> None:
    changes, _ = applied(
        year,
        "Axis",
        3,
        take=[
            {"neutral": "Saudi Arabia", "by": "Italians"},
            {"neutral": "South Eire", "by": "Germans"},
        ],
    )
    assert changes == {
        "Saudi Arabia": {
            "owner": ("British", "Italians"),
            "original_owner": ("British", "Italians"),
            "production": (0, 3),
            "impassable": (True, False),
            "units": {("Italians", "infantry"): 1},
        },
        "Eire": {
            "owner": (None, "Germans"),
            "original_owner": (None, "Germans"),
            "production": (0, 1),
            "impassable": (True, False),
            "units": {("Germans", "infantry"): 2},
        },
    }


@BOTH
def test_option_3_navy_with_a_single_nearest_zone_needs_no_navy_at(year: str) -> None:
    changes, outcome = applied(year, "Allies", 3, take=[{"neutral": "Sweden", "by": "Russians"}, {"neutral": "Afghanistan", "by": "British"}])
    # 5 Sea Zone holds German ships (enemies of the Russians), so the destroyer goes on to 6 Sea Zone.
    assert changes["6 Sea Zone"] == {"units": {("Russians", "destroyer"): 1}}
    assert "5 Sea Zone" not in changes
    assert any("6 Sea Zone" in line for line in outcome.lines)


@BOTH
def test_option_3_a_neutrals_navy_is_one_group_declared_once(year: str) -> None:
    # 000_bc04a4edf7f7d2ab.txt, option 3: "if a neutral has a naval unit place it in the nearest friendly sea zone";
    # Argentina's navy is a transport and a cruiser (000's neutral table). 21 and 25 Sea Zone are equally near, so
    # the Allies choose, once for the whole navy, as the draft file's one navy_at per neutral says.
    take = [{"neutral": "Argentina", "by": "Russians"}, {"neutral": "Afghanistan", "by": "British"}]
    session = session_for(GAMES[year], "Allies")
    pick(session, "Allies", 3, take=take)
    assert [d.describe() for d in session.pending_declarations] == ["1 Russians transport, 1 Russians cruiser from Argentina Chile"]
    take[0]["navy_at"] = "25 Sea Zone"
    changes, _ = applied(year, "Allies", 3, take=take)
    assert changes["25 Sea Zone"] == {"units": {("Russians", "transport"): 1, ("Russians", "cruiser"): 1}}
    assert "21 Sea Zone" not in changes


@BOTH
def test_option_4_transport_and_submarine(year: str) -> None:
    changes, _ = applied(
        year,
        "Allies",
        4,
        place=[
            {"power": "Russians", "unit": "transport", "at": "4 Sea Zone"},
            {"power": "UK", "unit": "sub", "at": "Seazone 2"},
        ],
    )
    assert changes == {
        "4 Sea Zone": {"units": {("Russians", "transport"): 1}},
        "2 Sea Zone": {"units": {("British", "submarine"): 1}},
    }


@BOTH
def test_option_5_destroyer_and_cruiser(year: str) -> None:
    changes, _ = applied(
        year,
        "Allies",
        5,
        place=[
            {"power": "British", "unit": "destroyer", "at": "2 Sea Zone"},
            {"power": "British", "unit": "cruiser", "at": "2 Sea Zone"},
        ],
    )
    assert changes == {"2 Sea Zone": {"units": {("British", "destroyer"): 1, ("British", "cruiser"): 1}}}


@BOTH
def test_option_6_fighter_on_own_territory(year: str) -> None:
    changes, _ = applied(year, "Allies", 6, place=[{"power": "UK", "unit": "fighter", "at": "United Kingdom"}])
    assert changes == {"United Kingdom": {"units": {("British", "fighter"): 1}}}


@pytest.mark.parametrize(("year", "zone"), [("1941", "44 Sea Zone"), ("1942", "53 Sea Zone")])
def test_option_6_fighter_on_a_friendly_carrier_with_room(year: str, zone: str) -> None:
    # The US carrier with one fighter: 44 Sea Zone in 1941, 53 Sea Zone in 1942.
    changes, _ = applied(year, "Allies", 6, place=[{"power": "British", "unit": "fighter", "at": zone}])
    assert changes == {zone: {"units": {("British", "fighter"): 1}}}


@BOTH
def test_option_7_bomber(year: str) -> None:
    changes, _ = applied(year, "Allies", 7, place=[{"power": "USSR", "unit": "bomber", "at": "Russia"}])
    assert changes == {"Russia": {"units": {("Russians", "bomber"): 1}}}


@BOTH
def test_option_8_factory_and_aa_gun(year: str) -> None:
    changes, outcome = applied(
        year,
        "Allies",
        8,
        place=[
            {"power": "Russians", "unit": "industrial complex", "at": "Kazakh S.S.R."},
            {"power": "Russians", "unit": "AA gun", "at": "Kazakh S.S.R."},
        ],
    )
    assert changes == {"Kazakh S.S.R.": {"units": {("Russians", "factory"): 1, ("Russians", "aaGun"): 1}}}


@BOTH
def test_option_9_carrier_or_battleship(year: str) -> None:
    changes, _ = applied(year, "Allies", 9, place=[{"power": "Americans", "unit": "carrier", "at": "10 Sea Zone"}])
    assert changes == {"10 Sea Zone": {"units": {("Americans", "carrier"): 1}}}


@pytest.mark.parametrize(
    ("year", "retreating"),
    [
        ("1941", {("Russians", "infantry"): 2}),
        ("1942", {("Russians", "infantry"): 3, ("Russians", "armour"): 1}),
    ],
)
def test_option_10_takeover_of_archangel_with_retreat(year: str, retreating: dict) -> None:
    # 000_bc04a4edf7f7d2ab.txt, A) Order of Bonus Options: the Archangel example
    changes, outcome = applied(year, "Axis", 10, takeover={"territory": "Archangel", "by": "Germans", "retreat": [{"to": "Russia"}]})
    assert changes == {
        "Archangel": {
            "owner": ("Russians", "Germans"),
            "units": {**{key: -n for key, n in retreating.items()}, ("Germans", "infantry"): 1, ("Germans", "artillery"): 1},
        },
        "Russia": {"units": retreating},
    }
    assert outcome.affected == {"Archangel"}  # the retreat destination is the Allies' choice, not locked


@BOTH
def test_option_10_china_takes_kiangsu_and_units_retreat_to_the_only_nearest(year: str) -> None:
    changes, _ = applied(year, "Allies", 10, takeover={"territory": "Kiangsu", "by": "Chinese"})
    assert changes == {
        "Kiangsu": {
            "owner": ("Japanese", "Chinese"),
            "units": {("Japanese", "infantry"): -3, ("Chinese", "infantry"): 1, ("Chinese", "artillery"): 1},
        },
        "Manchuria": {"units": {("Japanese", "infantry"): 3}},
    }


def test_option_10_china_liberates_burma_for_the_british_in_1942() -> None:
    # D(5): "Burma(reverts to UK control if taken by China)"; TripleA liberates to the original owner.
    changes, outcome = applied("1942", "Allies", 10, takeover={"territory": "Burma", "by": "China"})
    assert changes == {
        "Burma": {
            "owner": ("Japanese", "British"),
            "units": {("Japanese", "infantry"): -1, ("Chinese", "infantry"): 1, ("Chinese", "artillery"): 1},
        },
        "French Indo-China Thailand": {"units": {("Japanese", "infantry"): 1}},
    }
    assert "liberated" in outcome.lines[0]


@BOTH
def test_option_10_island_defenders_retreat_by_sea_to_the_nearest_territory_of_their_side(year: str) -> None:
    # 000 option 10: "retreat any enemy forces to the nearest enemy territory.(The player who wins the retreating
    # side decides where to retreat those units ... if there is more than one eligible territory to retreat to.)"
    # Iwo Jima has no land path: the nearest Japanese territories by sea are Japan, Manchuria and Okinawa, one sea
    # zone away each (docs/kremlin-draft.md, "Retreats"); the draft must say which, and is not silently ignored.
    board = fresh_game(GAMES[year]).board
    # The Japanese territories reached through the fewest sea zones, searched here zone ring by zone ring.
    seen, ring, nearest_by_sea = {"Iwo Jima"}, {"Iwo Jima"}, []
    while not nearest_by_sea:
        ring = {z for place in ring for z in board.neighbours(place) if board.is_water(z) and z not in seen}
        seen |= ring
        nearest_by_sea = sorted({t for z in ring for t in board.neighbours(z) if not board.is_water(t) and board.owner(t) == "Japanese"} - {"Iwo Jima"})
    assert {"Japan", "Okinawa"} <= set(nearest_by_sea)  # 1942 adds Wake Island
    with pytest.raises(
        RuleViolation, match=f"retreat of 1 Japanese infantry from Iwo Jima: they may go to any of {', '.join(nearest_by_sea)}; the Axis must say which"
    ):
        applied(year, "Allies", 10, takeover={"territory": "Iwo Jima", "by": "Americans"})
    changes, outcome = applied(year, "Allies", 10, takeover={"territory": "Iwo Jima", "by": "Americans", "retreat": [{"to": "Okinawa"}]})
    assert changes["Iwo Jima"] == {
        "owner": ("Japanese", "Americans"),
        "units": {("Japanese", "infantry"): -1, ("Americans", "infantry"): 1, ("Americans", "artillery"): 1},
    }
    assert changes["Okinawa"]["units"][("Japanese", "infantry")] == 1
    assert any("1 Japanese infantry retreat from Iwo Jima to Okinawa" in line for line in outcome.lines)


@BOTH
def test_option_10_keeps_the_original_owner_in_the_written_file(year: str) -> None:
    session = session_for(GAMES[year], "Axis")
    pick(session, "Axis", 10, takeover={"territory": "Archangel", "by": "Germans", "retreat": [{"to": "Russia"}]})
    from kremlin_triplea.game import Game
    from kremlin_triplea.gamefile.document import XmlDocument

    again = Game(XmlDocument(session.game.to_bytes(), source="written.xml"))
    node = again.board.graph.nodes["Archangel"]
    assert (node["owner"], node["original_owner"]) == ("Germans", "Russians")


@BOTH
def test_positive_bid_places_units_and_reports_unspent(year: str) -> None:
    game = fresh_game(GAMES[year])
    session = Session.from_draft(draft_from_dict({"ruleset": "kremlin-aa50", "first": "Axis", "pick": list(EIGHT_PICKS)}), game)
    before = game.board.copy()
    placed = [{"power": "Germans", "unit": "artillery", "at": "Germany"}, {"power": "Italians", "unit": "infantry", "count": 2, "at": "Italy"}]
    outcome = session.push(session.bid_from_toml({"axis": 11, "place": placed}))
    assert delta(before, game.board) == {
        "Germany": {"units": {("Germans", "artillery"): 1}},
        "Italy": {"units": {("Italians", "infantry"): 2}},
    }
    assert outcome.lines[-1] == "bid 11: units worth 10 PUs placed, 1 unspent"


@BOTH
def test_negative_bid_gives_the_allies_pus(year: str) -> None:
    game = fresh_game(GAMES[year])
    session = Session.from_draft(draft_from_dict({"ruleset": "kremlin-aa50", "first": "Axis", "pick": list(EIGHT_PICKS)}), game)
    before = game.board.copy()
    session.push(session.bid_from_toml({"axis": -11, "allocate": {"Russians": 6, "UK": 5}}))
    russians, british = before.pus["Russians"], before.pus["British"]
    assert delta(before, game.board) == {"PUs": {"Russians": (russians, russians + 6), "British": (british, british + 5)}}


def test_python_api_lists_the_same_choices_as_the_command() -> None:
    from pathlib import Path

    from support.aa50 import MAPS_DIR

    example = Path(__file__).resolve().parents[1] / "examples" / "kremlin-aa50-1941.toml"
    choices = Session.open(example, maps_dir=MAPS_DIR).next_pick()
    assert choices.side is None and choices.index == 11 and choices.bid is not None
    germans = dict(choices.bid.places)["Germans"]
    assert "Archangel" in germans and "Libya" not in germans


def test_option_10_chinese_defenders_retreat_only_where_china_may_go() -> None:
    # 000 D(5): Chinese units may enter "all the territories that Chinese units are eligible to enter ... in the
    # regular version of the game" plus Burma, French Indo-China and Mongolia; "such units may not leave Chinese
    # controlled territory". On 1942 the nearest Allied territories of Chinghai include Kazakh S.S.R. and
    # Novosibirsk, which Chinese units may not enter: the retreat goes to Ningxia or Sikang only.
    session = session_for(GAMES["1942"], "Axis")
    allowed = session.state.may_enter["Chinese"]
    assert "Kazakh S.S.R." not in allowed and {"Ningxia", "Sikang"} <= allowed
    pick(session, "Axis", 10, takeover={"territory": "Chinghai", "by": "Japanese", "retreat": [{"to": "Kazakh S.S.R."}]})
    with pytest.raises(
        RuleViolation, match="Chinese infantry from Chinghai: they cannot go to Kazakh S.S.R.; the nearest territories of their side are: Ningxia, Sikang"
    ):
        declare(session)
    session.pop()
    pick(session, "Axis", 10, takeover={"territory": "Chinghai", "by": "Japanese", "retreat": [{"to": "Sikang"}]})
    declare(session)
    assert session.game.board.units("Sikang")[("Chinese", "infantry")] > session.game.initial.units("Sikang")[("Chinese", "infantry")]


def test_option_10_structures_cannot_retreat_and_are_captured(tmp_path: Path) -> None:
    # 000 option 10: "retreat any enemy forces to the nearest enemy territory". oztea_1942.xml's Gibraltar holds a
    # British harbour (infrastructure with no movement): it cannot move, so it cannot retreat, and TripleA captures
    # a conquered territory's infrastructure; the infantry and the AA gun (which moves) retreat.
    path = CORPUS_DIR / "oztea_1942.xml"
    game = load(path)
    kind = game.catalog.unit_type("harbour")
    assert kind.infrastructure and kind.movement == 0 and game.catalog.unit_type("aaGun").movement > 0
    session = Session(draft_from_dict({"ruleset": "kremlin-aa50", "first": "Axis"}), load(path), profile=_new_profile(tmp_path, path))
    outcome = pick(session, "Axis", 10, takeover={"territory": "Gibraltar", "by": "Germans", "retreat": [{"to": "Archangel"}]})
    units = session.game.board.units("Gibraltar")
    assert units[("Germans", "harbour")] == 1 and units[("British", "harbour")] == 0
    assert units[("British", "infantry")] == 0 and units[("British", "aaGun")] == 0
    assert any("capture 1 British harbour in Gibraltar" in line for line in outcome.lines)


def test_a_bid_without_planes_is_not_refused_for_planes_the_game_has_at_sea(tmp_path: Path) -> None:
    # 000 C: a bid places units "on German-owned territories and sea zones...". oztea_1942.xml's 20 Sea Zone holds a
    # Japanese carrier full of planes; a bid submarine there houses no plane, so carrier room is not its business.
    # Its 49 Sea Zone holds the American fleet and its planes (once counted against Japanese carrier room): a
    # Japanese ship there is refused for the enemy fleet (the board invariants hold at sea), never for carriers.
    path = CORPUS_DIR / "oztea_1942.xml"
    session = Session(draft_from_dict({"ruleset": "kremlin-aa50", "first": "Axis"}), load(path), profile=_new_profile(tmp_path, path))
    for zone in ("49 Sea Zone", "20 Sea Zone"):
        spec = {"axis": 6, "place": [{"power": "Japanese", "unit": "submarine", "at": zone}]}
        if zone == "49 Sea Zone":
            with pytest.raises(RuleViolation, match="49 Sea Zone holds units of Americans, at war with Japanese") as refused:
                bid(session, **spec)
            assert "carrier" not in refused.value.why
        else:
            bid(session, **spec)
    assert session.game.board.units("20 Sea Zone")[("Japanese", "submarine")] == session.game.initial.units("20 Sea Zone")[("Japanese", "submarine")] + 1


def _new_profile(folder: Path, path: Path) -> Profile:
    """``profile new`` for a corpus game no shipped profile covers, read as ``--profile`` reads it."""
    profile = folder / f"{path.stem}.toml"
    profile.write_text(new_profile(load(path), all_rulesets()[0], known=known_places(MAPS_DIR), key=str(path)).text)
    return load_profile(profile)

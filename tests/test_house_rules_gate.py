"""House rules keep the board (issue 41): every rule written after a draft passes the board invariants the draft's picks pass.

``house`` on a game ``apply`` wrote, and a draft's own house sets, once produced boards no game can start from. Each case
here is one the issue found, from the seeds' texts: 003 Far Eastern Advantage ("one additional infantry on Kazakh ..."),
003 Dominion Advantage ("placed on the Dominion territories ... and the adjacent sea zones"), 003 Allied Neutral
Advantage ("an allied neutral country"), 004 House Rule 3's set-up move ("UK may move one infantry from England to
Gibraltar during Setup") after 000's Operation Felix ("Gibraltar captured by German forces").
"""

from __future__ import annotations

from pathlib import Path

import pytest
import tomllib

from kremlin_triplea.draft.invariants import board_problems
from kremlin_triplea.draft.run import draft_from_dict
from kremlin_triplea.errors import RuleViolation
from kremlin_triplea.game import Game, load
from kremlin_triplea.gamerules.house import apply_house_rules
from kremlin_triplea.rules.house_rules import HouseChoices
from kremlin_triplea.rules.tomlfile import DataFileError
from kremlin_triplea.session import apply_draft
from support.aa50 import fresh_game
from support.house import duplicates
from support.paths import AA50_1941, MAPS_DIR

CLASSIC_3RD = MAPS_DIR / "world_war_ii_classic" / "map" / "games" / "classic_3rd_edition.xml"
FACTORIES = frozenset({"factory"})

# 001 option 8 "Takeover of enemy held territory": Japan takes Kazakh; 001 Japanese scenario 3 "China joins Japan!!!".
KAZAKH_JAPANESE = {
    "ruleset": "kremlin-classic",
    "first": "Axis",
    "picks_per_side": 2,
    "pick": [
        {"side": "Axis", "option": 8, "takeover": {"territory": "Kazakh S.S.R.", "by": "Japan"}},
        {"side": "Allies", "option": 1, "place": [{"power": "UK", "unit": "infantry", "count": 3, "at": "East Canada"}]},
        {"side": "Axis", "option": 9, "scenario": "China joins Japan!!!"},
        {"side": "Allies", "option": 4, "place": [{"power": "UK", "unit": "fighter", "at": "United Kingdom"}]},
    ],
    "bid": {"axis": 0},
}

# 001 Japanese scenario 2 "Japan takes Australia ... add a carrier and fighter off the East coast of Australia".
AUSTRALIA_JAPANESE = {
    **KAZAKH_JAPANESE,
    "pick": [
        {"side": "Axis", "option": 9, "scenario": "Japanese expansion into the SW Pacific goes better than expected"},
        KAZAKH_JAPANESE["pick"][1],
        KAZAKH_JAPANESE["pick"][0],
        KAZAKH_JAPANESE["pick"][3],
    ],
}


def _written(draft: dict, game: Path, tmp_path: Path) -> Game:
    """The game ``apply`` writes for ``draft``, read back as ``house`` reads it (its changes are the file's now)."""
    result = apply_draft(draft_from_dict({**draft, "game": str(game)}), fresh_game(game))
    path = tmp_path / "written.xml"
    path.write_bytes(result.game.to_bytes())
    return load(path)


def test_far_eastern_advantage_is_refused_where_a_pick_made_kazakh_japanese(tmp_path: Path) -> None:
    game = _written(KAZAKH_JAPANESE, CLASSIC_3RD, tmp_path)
    assert game.board.owner("Kazakh S.S.R.") == "Japanese"
    with pytest.raises(DataFileError) as refused:
        apply_house_rules(game, [HouseChoices("house-classic", advantages={"USSR": "far-eastern"})])
    # The rule, and what the game holds that blocks it.
    assert "Far Eastern Advantage" in str(refused.value) and "Kazakh S.S.R. belongs to Japanese" in str(refused.value)
    assert not game.board.changes


def test_a_drawn_advantage_is_one_the_board_can_take(tmp_path: Path) -> None:
    game = _written(KAZAKH_JAPANESE, CLASSIC_3RD, tmp_path)
    for seed in range(12):
        twin = game.copy()
        result = apply_house_rules(twin, [HouseChoices("house-classic", seed=seed)])
        ussr = next(c for c in result.selections[0].advantages if c.advantage.power == "USSR")
        assert ussr.advantage.id != "far-eastern"
        assert board_problems(twin.board, FACTORIES) == board_problems(game.board, FACTORIES)


def test_dominion_advantage_places_only_on_dominions_the_uk_holds_and_seas_without_its_enemies(tmp_path: Path) -> None:
    game = _written(AUSTRALIA_JAPANESE, CLASSIC_3RD, tmp_path)
    carrier = next(z for z in game.board.neighbours("Australia") if game.board.units(z)[("Japanese", "carrier")])
    with pytest.raises(DataFileError, match=r"at = 'Australia' is not allowed .*Australia belongs to Japanese in this game, at war with British"):
        apply_house_rules(
            game.copy(), [HouseChoices("house-classic", advantages={"UK": "dominion"}, values={"at": "Australia", "sea_at": "Indian Ocean Sea Zone"})]
        )
    with pytest.raises(DataFileError, match=rf"sea_at = '{carrier}' is not allowed .*holds units of Japanese, at war with British"):
        apply_house_rules(game.copy(), [HouseChoices("house-classic", advantages={"UK": "dominion"}, values={"at": "India", "sea_at": carrier})])
    for seed in range(8):  # drawn: only where the text and the board allow
        twin = game.copy()
        result = apply_house_rules(twin, [HouseChoices("house-classic", advantages={"UK": "dominion"}, seed=seed)])
        uk = next(c for c in result.selections[0].advantages if c.advantage.power == "UK")
        assert uk.values["at"][0] != "Australia" and uk.values["sea_at"][0] != carrier
        assert board_problems(twin.board, FACTORIES) == board_problems(game.board, FACTORIES)


def test_allied_neutral_is_refused_once_a_pick_made_the_neutral_someones(tmp_path: Path) -> None:
    game = load(CLASSIC_3RD)
    from kremlin_triplea.model.changes import PlaceUnits, SetOwner

    game.board.push_all([SetOwner("Sweden", "British", captured=False), PlaceUnits("Sweden", "British", "infantry", 2)])  # 001 option 2
    with pytest.raises(DataFileError, match=r"Sweden is not neutral in this game: it belongs to British"):
        apply_house_rules(game.copy(), [HouseChoices("house-classic", advantages={"Germany": "allied-neutral"}, values={"neutral": "Sweden"})])
    drawn = game.copy()
    result = apply_house_rules(
        drawn, [HouseChoices("house-classic", advantages={"Germany": "allied-neutral"}, seed=1, switches={"neutral_territories": False})]
    )
    germany = next(c for c in result.selections[0].advantages if c.advantage.power == "Germany")
    assert germany.values["neutral"][0] != "Sweden"


SWEDEN_BRITISH = {
    **KAZAKH_JAPANESE,
    "first": "Allies",
    "pick": [
        {"side": "Allies", "option": 2, "take": [{"neutral": "Sweden", "by": "UK"}, {"neutral": "Eire", "by": "UK"}]},
        {"side": "Axis", "option": 1, "place": [{"power": "Germany", "unit": "infantry", "count": 3, "at": "Germany"}]},
        {"side": "Allies", "option": 4, "place": [{"power": "UK", "unit": "fighter", "at": "United Kingdom"}]},
        {"side": "Axis", "option": 4, "place": [{"power": "Germany", "unit": "fighter", "at": "Germany"}]},
    ],
}


def test_neutral_territories_leave_alone_a_neutral_a_pick_took(tmp_path: Path) -> None:
    # 003 NEUTRAL TERRITORIES arms the neutrals; 001 option 2 made Sweden British with its army: nothing to arm there.
    game = _written(SWEDEN_BRITISH, CLASSIC_3RD, tmp_path)
    army = dict(game.board.units("Sweden"))
    result = apply_house_rules(game, [HouseChoices("house-classic")])
    assert game.board.owner("Sweden") == "British" and dict(game.board.units("Sweden")) == army
    assert any("Sweden: not neutral" in line and "belongs to British" in line for line in result.rules.game_lines)
    assert board_problems(game.board, FACTORIES) == set()


def test_hr3_set_up_move_is_refused_where_gibraltar_is_german_naming_the_rule_what_blocks_it_and_the_switch(tmp_path: Path) -> None:
    # Written with 000 D(3), a Kremlin AA50 game refuses HR3 for its strait first (test below): Gibraltar is made German
    # here as Operation Felix makes it ("Gibraltar captured by German forces...Place two German infantry on Gibraltar").
    from kremlin_triplea.model.changes import PlaceUnits, RemoveUnits, SetOwner

    game = load(AA50_1941)
    british = [RemoveUnits("Gibraltar", o, u, n) for (o, u), n in game.board.units("Gibraltar").items() if n]
    felix = [*british, SetOwner("Gibraltar", "Germans", captured=True), PlaceUnits("Gibraltar", "Germans", "infantry", 2)]
    game.board.push_all(felix)
    with pytest.raises(RuleViolation) as refused:
        apply_house_rules(game, [HouseChoices("house-revised")])
    words = str(refused.value)
    assert "House Rule 3 Gibraltar: the UK's set-up move" in words
    assert "Gibraltar belongs to Germans but holds units of British" in words
    assert "blocked by an earlier change: " in words and "Germans" in words
    assert "--switch uk_infantry_to_gibraltar=off" in words
    assert game.board.changes == felix  # nothing of the refused set is left on the board
    apply_house_rules(game, [HouseChoices("house-revised", switches={"uk_infantry_to_gibraltar": False})])
    assert board_problems(game.board, FACTORIES) == set()


# -- composition: 003 Winning beside 001 header 4 / 002 I. "Both IPC Victory on" --------------------------------------

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
KREMLIN_EXAMPLES = {
    "kremlin-classic": (EXAMPLES / "kremlin-classic-3rd-edition.toml", CLASSIC_3RD),
    "kremlin-daak": (EXAMPLES / "kremlin-daak-classic.toml", MAPS_DIR / "world_war_ii_classic" / "map" / "games" / "classic.xml"),
}


def _with_house_classic(ruleset: str, **extra) -> tuple:
    path, game = KREMLIN_EXAMPLES[ruleset]
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    draft = draft_from_dict({**data, "game": str(game), "house_rules": ["house-classic"], **extra}, str(path))
    return draft, fresh_game(game)


@pytest.mark.parametrize("ruleset", sorted(KREMLIN_EXAMPLES))
def test_house_classic_joins_a_kremlin_draft_through_the_victory_choice_its_conflict_names(ruleset: str) -> None:
    with pytest.raises(DataFileError) as refused:
        apply_draft(*_with_house_classic(ruleset))
    words = str(refused.value)
    # Both ways out, each a choice that exists: the set's switch and the draft's choice.
    assert "--switch winning=off" in words and "list `house_victory` in the draft's `choices`" in words
    # 003 Winning: "attain 84 IPC income (100 if Neutral Territories used)"; the Allies' economic victory out of reach.
    house = apply_draft(*_with_house_classic(ruleset, choices=["house_victory"])).game.board.properties
    assert (house["Axis Economic Victory"], house["Allies Economic Victory"]) == ("100", "1000")
    # 001 header 4 / 002 I.: "M84 for Axis and M110 for Allies".
    kremlin = apply_draft(*_with_house_classic(ruleset, house_rule_choices={"house-classic": {"winning": False}})).game.board.properties
    assert (kremlin["Axis Economic Victory"], kremlin["Allies Economic Victory"]) == ("84", "110")


# -- written once: 004 HR1-HR3 beside 000 D(3)'s straits ---------------------------------------------------------------


def test_house_on_a_written_kremlin_game_writes_each_strait_once_or_refuses_naming_the_switch(tmp_path: Path) -> None:
    data = tomllib.loads((EXAMPLES / "kremlin-aa50-1941.toml").read_text(encoding="utf-8"))
    game = _written(data, AA50_1941, tmp_path)  # 000 D(3): canals at Gibraltar, the Baltic and the Black Sea
    assert duplicates(game.to_bytes()) == []
    # HR2 writes the Baltic canal for surface ships only, D(3) for every ship: one name, two meanings.
    with pytest.raises(
        DataFileError, match=r"House Rule 2 Baltic Sea .*canalAttachmentKremlinBaltic1.*already holds with other options.*--switch hr2_baltic=off"
    ):
        apply_house_rules(game.copy(), [HouseChoices("house-revised")])
    # HR1's Black Sea canal is D(3)'s own (Turkey, every ship): in the game once, and said so.
    twin = game.copy()
    result = apply_house_rules(twin, [HouseChoices("house-revised", switches={"hr2_baltic": False, "hr3_gibraltar": False})])
    assert duplicates(twin.to_bytes()) == []
    assert any(line.startswith("House Rule 1 Black Sea: already in the game as written") for line in result.rules.game_lines)


# -- each written rule changes only what its text says -------------------------------------------------------------------


@pytest.mark.parametrize("game", [MAPS_DIR / "world_war_ii_revised" / "map" / "games" / "ww2v2.xml", AA50_1941], ids=lambda p: p.name)
def test_uk_radar_gives_the_aa_guns_their_bonus_and_not_the_built_in_radar_hr5_makes_a_fighters_bonus(game: Path) -> None:
    # 004 UK 1: "UK owned antiaircraft guns in tan territories hit air units on a roll of 1 or 2"; HR5: "* If the
    # defender have the Radar Research breakthrough their fighters fire with +1". The advantage is not the breakthrough.
    from lxml import etree

    written = load(game)
    apply_house_rules(written, [HouseChoices("house-revised", advantages={"UK": "radar"}, switches={"uk_infantry_to_gibraltar": False})])
    root = etree.fromstring(written.to_bytes())
    # What the British own from the start, by the game's techAttachment or by a trigger's `tech`.
    granted = [o.get("value") for a in root.iterfind("attachmentList/attachment[@attachTo='British']") for o in a.iterfind("option[@name='tech']")]
    assert "aARadar" not in written.board.techs["British"] and granted == ["ukRadar"]
    (own,) = [a for a in root.iterfind("attachmentList/attachment[@name='techAbilityAttachment']") if a.get("attachTo") == "ukRadar"]
    assert [(o.get("name"), o.get("value")) for o in own.iterfind("option")] == [("radarBonus", "1:aaGun")]


def test_in_a_draft_the_refusal_names_the_pick_that_blocks_the_rule() -> None:
    # 001 option 6 puts a Japanese factory in Manchuria; 003 Japan 1 "starts the game with a production centre on any
    # Japanese territory on mainland Asia" chosen there would make two ("can't have more than one"): the draft's own
    # step that put the first one there is named, as the players number it.
    picks = [
        {
            "side": "Axis",
            "option": 6,
            "place": [{"power": "Japan", "unit": "factory", "at": "Manchuria"}, {"power": "Japan", "unit": "aa gun", "at": "Manchuria"}],
        },
        KAZAKH_JAPANESE["pick"][1],
        {"side": "Axis", "option": 4, "place": [{"power": "Germany", "unit": "fighter", "at": "Germany"}]},
        KAZAKH_JAPANESE["pick"][3],
    ]
    draft = draft_from_dict(
        {
            **KAZAKH_JAPANESE,
            "game": str(CLASSIC_3RD),
            "pick": picks,
            "house_rules": ["house-classic"],
            "house_rule_choices": {"house-classic": {"winning": False, "advantages": {"Japan": "production"}, "at": "Manchuria"}},
        }
    )
    with pytest.raises(RuleViolation) as refused:
        apply_draft(draft, fresh_game(CLASSIC_3RD))
    words = str(refused.value)
    assert "Japan advantage 1: Production Advantage" in words and "Manchuria holds more than one factory" in words
    assert "blocked by pick 1 (Axis, option 6" in words and "--advantage Japan=" in words


def test_a_drawn_factory_advantage_goes_where_there_is_no_factory_yet(tmp_path: Path) -> None:
    game = _written(
        {
            **KAZAKH_JAPANESE,
            "pick": [
                {
                    "side": "Axis",
                    "option": 6,
                    "place": [{"power": "Japan", "unit": "factory", "at": "Manchuria"}, {"power": "Japan", "unit": "aa gun", "at": "Manchuria"}],
                },
                *KAZAKH_JAPANESE["pick"][1:2],
                {"side": "Axis", "option": 4, "place": [{"power": "Germany", "unit": "fighter", "at": "Germany"}]},
                KAZAKH_JAPANESE["pick"][3],
            ],
        },
        CLASSIC_3RD,
        tmp_path,
    )
    for seed in range(8):
        twin = game.copy()
        result = apply_house_rules(twin, [HouseChoices("house-classic", advantages={"Japan": "production"}, seed=seed)])
        japan = next(c for c in result.selections[0].advantages if c.advantage.power == "Japan")
        assert japan.values["at"][0] != "Manchuria"
        assert board_problems(twin.board, FACTORIES) == board_problems(game.board, FACTORIES)


def test_house_victory_without_house_classic_changes_nothing_and_a_choice_no_rule_names_is_refused() -> None:
    from kremlin_triplea.errors import UnknownNameError

    path, game = KREMLIN_EXAMPLES["kremlin-classic"]
    data = {**tomllib.loads(path.read_text(encoding="utf-8")), "game": str(game)}
    # Without 003 Winning to hold instead, 001 header 4 "Both IPC Victory on" holds whatever the draft chooses.
    kept = apply_draft(draft_from_dict({**data, "choices": ["house_victory"]}, str(path)), fresh_game(game)).game.board.properties
    assert (kept["Axis Economic Victory"], kept["Allies Economic Victory"]) == ("84", "110")
    with pytest.raises(UnknownNameError, match=r"unknown choice 'house_victroy'.*did you mean 'house_victory'"):
        apply_draft(draft_from_dict({**data, "choices": ["house_victroy"]}, str(path)), fresh_game(game))


def test_a_house_sets_switch_is_no_choice_of_a_draft_without_the_set() -> None:
    # "winning" is house-classic's: as a draft choice beside "house_victory" it would leave 001 header 4 out with no 003
    # Winning to hold instead, and the game with no victory of either.
    path, game = KREMLIN_EXAMPLES["kremlin-classic"]
    data = {**tomllib.loads(path.read_text(encoding="utf-8")), "game": str(game), "choices": ["house_victory", "winning"]}
    with pytest.raises(DataFileError, match=r"'winning' is a switch of house-classic: list house-classic in `house_rules`"):
        apply_draft(draft_from_dict(data, str(path)), fresh_game(game))


def test_a_set_written_into_a_game_again_is_refused_not_written_twice(tmp_path: Path) -> None:
    # 004 HR8-HR10 amend AA50's objectives by copies of their own names: a second `house` on the written game copied
    # them again (three duplicate attachments validate warns of) and would pay every PU of the set twice.
    once = load(AA50_1941)
    apply_house_rules(once, [HouseChoices("house-revised")])
    path = tmp_path / "once.xml"
    path.write_bytes(once.to_bytes())
    again = load(path)
    with pytest.raises(DataFileError, match=r"is in this game already .*the game was written with house-revised before"):
        apply_house_rules(again, [HouseChoices("house-revised")])
    assert not again.board.changes


def test_a_refused_advantage_given_with_no_place_of_choice_starts_with_the_set() -> None:
    # Through the library (no draft file, no command line), the refusal names no empty place: it starts with the set.
    from kremlin_triplea.rules.house_rules import load_named_house_set

    house = load_named_house_set("house-classic")
    with pytest.raises(DataFileError) as refused:
        apply_house_rules(load(CLASSIC_3RD), [HouseChoices("house-classic", advantages={"Italy": 1})])
    assert str(refused.value).startswith(f"house-classic gives advantages to {', '.join(house.powers)}, not to Italy"), str(refused.value)

"""Every rule a house-rule set writes into a game, proven by what TripleA 1.9 does in a position built for it.

The table (``CHECKS``) has one entry per rule the sets (003 ``house-classic``, 004 ``house-revised``) write
into the game, advantages included; :func:`test_every_written_rule_has_an_engine_check` reads the sets and
fails when a rule is written without an entry, so a rule added to a set cannot go unproven.

Each entry sets up positions in games written with the set (or in the unmodified game, to compare) and says,
from the rule's own words in the seed, what the engine must answer there: an objective holding and failing
clause by clause and the PUs paid at the end of the turn, a production frontier before and after Industrial
Technology, who may pass a strait, a technology owned from the game's first step and the values it gives,
whether the end of the round ends the game, what a won battle hands over. Options that act deep inside a
battle are read through the engine's own ``games.strategy.triplea.Properties`` getters, the ones its
delegates call. All positions run in one JVM (kremlin_triplea.engine.positions).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kremlin_triplea.engine.positions import Position, run_positions
from kremlin_triplea.engine.triplea27_positions import COMMANDS as COMMANDS_27
from kremlin_triplea.engine.triplea27_positions import run_positions27
from kremlin_triplea.game import load
from kremlin_triplea.gamefile.installation import find_installation
from kremlin_triplea.gamerules.house import apply_house_rules
from kremlin_triplea.rules.house_rules import HouseChoices, load_named_house_set
from support.paths import AA50_1941, AA50_1942, MAPS_DIR, SHARED

REVISED = MAPS_DIR / "world_war_ii_revised" / "map" / "games" / "ww2v2.xml"
CLASSIC = MAPS_DIR / "world_war_ii_classic" / "map" / "games" / "classic.xml"
KREMLIN = MAPS_DIR / "classic_variations" / "map" / "games" / "kremlin.xml"

HR = "house-revised"  # 004_e624f6d1018dbbc1.txt
HC = "house-classic"  # 003_ecae7919a6bcb85e.txt

# The games the positions start from: the unmodified games ("base-...") and games written with a set.
# One advantage per power, so several games cover a set's advantages.
GAMES: dict[str, tuple[Path, HouseChoices | None]] = {
    "base-aa41": (AA50_1941, None),
    "base-aa42": (AA50_1942, None),
    "base-revised": (REVISED, None),
    "base-classic": (CLASSIC, None),
    "base-kremlin": (KREMLIN, None),
    "aa41": (
        AA50_1941,
        HouseChoices(
            HR,
            advantages={"Germany": "german-scientists", "UK": "colonial-garrison", "Japan": "most-powerful-battleships", "USA": "war-economy"},
            values={"colonial_garrison_at": "India"},
        ),
    ),
    "aa42": (AA50_1942, HouseChoices(HR, switches={"uk_infantry_to_gibraltar": False}, advantages={"UK": "french-resistance", "USA": "fast-carriers"})),
    "aa41-wolf-packs": (AA50_1941, HouseChoices(HR, advantages={"Germany": "wolf-packs"})),
    "revised-wolf-packs": (REVISED, HouseChoices(HR, advantages={"Germany": "wolf-packs"})),
    "revised": (REVISED, HouseChoices(HR, advantages={"UK": "radar", "Japan": "most-powerful-battleships", "USA": "mechanized-infantry"})),
    "revised-radar": (REVISED, HouseChoices(HR, advantages={"UK": "radar"})),  # no power technology: no technology section otherwise
    "classic-set": (CLASSIC, HouseChoices(HC)),  # the set's rules, no advantage: what an advantage adds to
    "classic-a": (
        CLASSIC,
        HouseChoices(
            HC,
            advantages={"USSR": "non-purged-infantry", "Germany": "super-sub", "UK": "naval-production", "Japan": "production", "USA": "industrial"},
            values={"USSR.at": "Russia", "Japan.at": "Manchuria"},
        ),
    ),
    "classic-b": (
        CLASSIC,
        HouseChoices(
            HC,
            advantages={"USSR": "far-eastern", "Germany": "naval", "UK": "air-production", "Japan": "infantry", "USA": "allied-bomber"},
            values={"Germany.at": "Baltic Sea Zone"},
        ),
    ),
    "classic-c": (
        CLASSIC,
        HouseChoices(
            HC,
            advantages={"USSR": "economic-support", "Germany": "allied-neutral", "UK": "jet-power", "Japan": "long-range-aircraft", "USA": "hawaiian-fighter"},
            values={"neutral": "Spain"},
        ),
    ),
    "classic-d": (CLASSIC, HouseChoices(HC, advantages={"UK": "production", "Japan": "naval-production", "USA": "chinese"}, values={"UK.at": "Australia"})),
    "kremlin": (
        KREMLIN,
        HouseChoices(
            HC,
            switches={"neutral_territories": False},
            advantages={"USSR": "non-purged-armor", "Germany": "allied-neutral", "UK": "dominion"},
            values={"USSR.at": "Karelia S.S.R.", "neutral": "Sweden", "UK.at": "India", "sea_at": "Indian Ocean Sea Zone"},
        ),
    ),
}


class Ask:
    """Collects a check's positions; each ``at`` gives back the list its answers are put in after the run."""

    def __init__(self) -> None:
        self.positions: list[tuple[str, tuple[tuple[str, ...], ...], list[dict[str, Any]]]] = []

    def at(self, game: str, *commands: tuple[str, ...]) -> list[dict[str, Any]]:
        answers: list[dict[str, Any]] = []
        self.positions.append((game, commands, answers))
        return answers


Check = Callable[[Ask], Callable[[], None]]
CHECKS: dict[tuple[str, str], Check] = {}
#: The answer lists of each check's positions, filled by the engine_answers fixture.
ASKED: dict[tuple[str, str], list[list[dict[str, Any]]]] = {}


def check(set_id: str, *rule_ids: str) -> Callable[[Check], Check]:
    """Register an engine check for these rules of a set (advantage rules by their id, e.g. "uk-radar")."""

    def register(fn: Check) -> Check:
        for rule_id in rule_ids:
            assert (set_id, rule_id) not in CHECKS, rule_id
            CHECKS[(set_id, rule_id)] = fn
        return fn

    return register


def written_rules(set_id: str) -> list[str]:
    """The ids of the rules (advantages included) the set writes into a game: enforced_by = "game"."""
    house = load_named_house_set(set_id)
    rules = list(house.rules.rules) + [a.rule for a in house.advantages]
    return [r.id for r in rules if r.enforced_by == "game"]


def canal(a: str, b: str, power: str, unit: str) -> tuple[str, ...]:
    return ("canal", a, b, power, unit)


def passes(answer: dict[str, Any]) -> bool:
    return answer["passes"]


# ---------------------------------------------------------------------------------------------------
# 004 house rules (004_e624f6d1018dbbc1.txt)


@check(HR, "hr1-black-sea")
def _(ask: Ask):
    # HR1: "no sea units may move into or out of sea zone 16, however air units may move through".
    answers = {
        game: ask.at(
            game,
            *[
                canal(z, "16 Sea Zone", p, u)
                for z in ("15 Sea Zone",)
                for p in ("Germans", "Russians", "British")
                for u in ("battleship", "submarine", "transport", "fighter")
            ],
        )
        for game in ("aa41", "revised")
    }
    base = ask.at("base-aa41", canal("15 Sea Zone", "16 Sea Zone", "Germans", "battleship"))

    def verify() -> None:
        assert passes(base[0])  # the game lets ships through without the rule
        for game, got in answers.items():
            for (p, u), answer in zip([(p, u) for p in ("Germans", "Russians", "British") for u in ("battleship", "submarine", "transport", "fighter")], got):
                assert passes(answer) == (u == "fighter"), (game, p, u, answer)

    return verify


def _held_strait(a: str, b: str, land: str, ship: str, positions: tuple[tuple[str, str | None, str], ...]):
    """A strait only the side holding ``land`` may sail through with surface ships; submarines and planes
    always pass. ``positions``: (game, a power given the land or None to keep the game's owner, the side
    that then holds it)."""
    kinds = [(p, u) for p in ("Germans", "British") for u in (ship, "submarine", "fighter")]

    def build(ask: Ask):
        got = [
            (holder, ask.at(game, *([("owner", land, owner)] if owner else []), *[canal(a, b, p, u) for p, u in kinds])) for game, owner, holder in positions
        ]

        def verify() -> None:
            for holder, answers in got:
                assert len(answers) >= len(kinds)
                for (p, u), answer in zip(kinds, answers[-len(kinds) :]):
                    assert passes(answer) == (u != ship or p == holder), (holder, p, u, answer)

        return verify

    return build


# HR2: "no surface sea units may move into or out of sea zone 5 without the control of Northwest Europe.
# However, submarines and air units may move into or out this sea zone."
check(HR, "hr2-baltic")(
    _held_strait(
        "6 Sea Zone",
        "5 Sea Zone",
        "Northwestern Europe",
        "battleship",
        (("aa41", None, "Germans"), ("aa41", "British", "British"), ("revised", None, "Germans")),
    )
)
# HR3: "No surface sea units may move into or out of sea zone 13 without the control of Gibraltar. However,
# submarines and air units may move into or out of the Mediterranean." (Italy's Gibraltar opens it to Germany)
check(HR, "hr3-gibraltar")(
    _held_strait(
        "12 Sea Zone", "13 Sea Zone", "Gibraltar", "destroyer", (("aa41", None, "British"), ("aa41", "Italians", "Germans"), ("revised", None, "British"))
    )
)


@check(HR, "hr3-gibraltar-setup")
def _(ask: Ask):
    # "UK may move one infantry from England to Gibraltar during Setup" (switch uk_infantry_to_gibraltar).
    moved = ask.at("aa41", ("units", "United Kingdom"), ("units", "Gibraltar"))
    base = ask.at("base-aa41", ("units", "United Kingdom"), ("units", "Gibraltar"))
    kept = ask.at("aa42", ("units", "Gibraltar"))
    base42 = ask.at("base-aa42", ("units", "Gibraltar"))

    def verify() -> None:
        assert moved[0]["units"]["British|infantry"] == base[0]["units"]["British|infantry"] - 1
        assert moved[1]["units"]["British|infantry"] == base[1]["units"].get("British|infantry", 0) + 1
        assert kept[0] == base42[0]  # the switch off: no move

    return verify


@check(HR, "hr4-heavy-bombers")
def _(ask: Ask):
    # HR4: "you roll two dice each on attack or defense and use the better result" (LHTR heavy bombers),
    # on Revised too, where the game has it off.
    got = {
        game: ask.at(
            game,
            ("unit", "Germans", "bomber"),
            ("grant", "Germans", "heavyBomber"),
            ("unit", "Germans", "bomber"),
            ("rule", "getLHTR_Heavy_Bombers"),
            ("rule", "getHeavyBomberDiceRolls"),
        )
        for game in ("aa41", "revised")
    }
    base = ask.at("base-revised", ("rule", "getLHTR_Heavy_Bombers"))

    def verify() -> None:
        assert base[0]["value"] is False
        for game, (before, _, after, lhtr, rolls) in got.items():
            assert before["attack_rolls"] == 1 and after["attack_rolls"] == 2 and after["defense_rolls"] == 2, game
            assert lhtr["value"] is True and rolls["value"] == 2, game

    return verify


@check(HR, "hr5-escorts-interceptors")
def _(ask: Ask):
    # HR5: "Attacking fighters may escort and protect the bombers ... defending fighters ... can participate
    # in the defense": TripleA's air battle before a raid, fought by fighters that escort and intercept.
    got = {
        game: ask.at(game, ("rule", "getRaidsMayBePreceededByAirBattles"), ("unit", "Germans", "fighter"), ("unit", "British", "fighter"))
        for game in ("aa41", "revised")
    }
    # A German raid on the UK's factory meets the British fighters based there; without fighters, no air battle.
    raids = {
        game: ask.at(
            game,
            ("airbattle", "United Kingdom", "Germans"),
            ("remove", "United Kingdom", "British", "fighter", "2"),
            ("airbattle", "United Kingdom", "Germans"),
        )
        for game in ("aa41", "revised")
    }

    # "1. Interceptors* and escort fire at "1"**. One turn only. Bombers cannot fire***." and the footnotes:
    # "* If the defender have the Radar Research breakthrough their fighters fire with +1", "** If the attacker
    # or defender has the Jet Power research breakthrough their fighters fire with +1", "*** If the attacker has
    # the Heavy Bomber research breakthrough their bomber fire at "1"". Each technology granted on its own; what
    # TripleA's technology does besides (its land values, Radar's AA, Heavy Bombers' dice) is the base game's.
    techs = {"aARadar": ("fighter", "aaGun"), "jetPower": ("fighter",), "heavyBomber": ("bomber",)}

    def after(game: str, tech: str) -> list[dict[str, Any]]:
        return ask.at(game, ("grant", "Germans", tech), *(("unit", "Germans", unit) for unit in techs[tech]))

    plain = {game: ask.at(game, ("unit", "Germans", "fighter"), ("unit", "Germans", "bomber")) for game in ("aa41", "revised")}
    granted = {(game, tech): after(game, tech) for game in ("aa41", "revised-radar") for tech in techs}
    # The unmodified games, for what the technology does besides (Revised has no Radar to grant).
    base = {
        (game, tech): after(base_game, tech)
        for game, base_game in (("aa41", "base-aa41"), ("revised-radar", "base-revised"))
        for tech in techs
        if (base_game, tech) != ("base-revised", "aARadar")
    }

    def verify() -> None:
        for game, (with_fighters, _, without) in raids.items():
            assert with_fighters["air_battle"] is True and without["air_battle"] is False, game
        for game, (raids_preceded, german, british) in got.items():
            assert raids_preceded["value"] is True, game
            for fighter in (german, british):
                assert fighter["can_escort"] and fighter["can_intercept"], (game, fighter)
                assert fighter["air_attack"] == 1, (game, fighter)
            # The UK's Radar advantage on "revised" gives its AA guns +1 and nothing else: its interceptors fire at 1
            # ("UK owned antiaircraft guns ... hit air units on a roll of 1 or 2"; HR5's +1 is for the Radar breakthrough).
            assert (german["air_defense"], british["air_defense"]) == (1, 1), game
        for game, (fighter, bomber) in plain.items():
            assert (fighter["air_attack"], fighter["air_defense"], bomber["air_attack"]) == (1, 1, 0), game
        for (game, tech), answers in granted.items():
            units = dict(zip(techs[tech], answers[1:]))
            plain_units = dict(zip(techs[tech], base.get((game, tech), [{}] * 3)[1:]))
            if tech == "aARadar":
                assert units["fighter"]["air_defense"] == 2 and units["fighter"]["air_attack"] == 1, game
                assert units["aaGun"]["aa_attack"] == 2, game  # Radar's own: AA hits on 1 or 2
            if tech == "jetPower":
                assert (units["fighter"]["air_attack"], units["fighter"]["air_defense"]) == (2, 2), game
                for value in ("attack", "defense"):
                    assert units["fighter"][value] == plain_units["fighter"][value], (game, value)  # Jet Power's own
            if tech == "heavyBomber":
                assert units["bomber"]["air_attack"] == 1, game
                assert units["bomber"]["attack_rolls"] == units["bomber"]["defense_rolls"] == 2, game  # HR4's two dice

    return verify


@check(HR, "germany-wolf-packs")
def _(ask: Ask):
    # 004 Germany 4: "Your submarines attack on a 3 (4 if you have the Super Submarines development) if there is
    # more than one of them ... Wolf Packs do not improve defending submarines. Enemy destroyers do not affect
    # this National Advantage." In an empty sea zone (3 Sea Zone: nothing starts there on either map) against a
    # British destroyer; the British subs of the same battle for a power without the advantage.
    zone = "3 Sea Zone"
    pack = (("add", zone, "Germans", "submarine", "2"), ("add", zone, "British", "destroyer", "1"))
    games = {"aa41-wolf-packs": "base-aa41", "revised-wolf-packs": "base-revised"}
    got = {
        game: ask.at(
            game,
            *pack,
            ("power", zone, "Germans", "attacking"),
            ("power", zone, "Germans", "defending"),
            ("add", zone, "British", "submarine", "2"),
            ("power", zone, "British", "attacking"),
            ("grant", "Germans", "superSub"),
            ("power", zone, "Germans", "attacking"),
        )
        for game in games
    }
    lone = {
        game: ask.at(game, ("add", zone, "Germans", "submarine", "1"), ("add", zone, "British", "destroyer", "1"), ("power", zone, "Germans", "attacking"))
        for game in games
    }
    base = {game: ask.at(plain, *pack, ("power", zone, "Germans", "attacking"), ("power", zone, "Germans", "defending")) for game, plain in games.items()}

    def verify() -> None:
        for game in games:
            attacking, defending, british, super_subs = (got[game][i]["power"] for i in (2, 3, 5, 7))
            plain_attack, plain_defence = base[game][2]["power"]["submarine"], base[game][3]["power"]["submarine"]
            assert plain_attack == [2, 2] and attacking["submarine"] == [3, 3], game  # "attack on a 3"
            assert super_subs["submarine"] == [4, 4], game  # "4 if you have the Super Submarines development"
            assert defending["submarine"] == plain_defence, game  # "do not improve defending submarines"
            assert british["submarine"] == plain_attack, game  # the Germans' advantage only
            # What the notes say TripleA does differently: a lone submarine supports itself.
            assert lone[game][2]["power"]["submarine"] == [3], game

    return verify


@check(HR, "hr7-liberation")
def _(ask: Ask):
    # HR7: a territory originally an ally's, taken back, goes to that ally; while the ally's capital is in
    # enemy hands the liberator keeps it.
    # The game's first step runs first, as before any battle: TripleA 2.x records the original owners there.
    start = ("step", "gameInitDelegate")
    freed = ask.at("aa41", start, ("owner", "Egypt", "Germans"), ("takeover", "Egypt", "Americans"))
    kept = ask.at("aa41", start, ("owner", "Egypt", "Germans"), ("owner", "United Kingdom", "Germans"), ("takeover", "Egypt", "Americans"))

    def verify() -> None:
        assert freed[2]["owner"] == "British"
        assert kept[3]["owner"] == "Americans"

    return verify


def _objective(answer: dict[str, Any]) -> dict[str, Any]:
    """The house rule's objective among the power's: the one written for it (its conditions are the power's own)."""
    (name,) = [n for n in answer if n.startswith("objectiveAttachmentKremlin")]
    return answer[name]


def _objective_payments(answer: dict[str, Any], power: str) -> dict[str, int]:
    """What the end-of-turn step paid for each objective, from the engine's own history lines."""
    found = {}
    for line in answer["history"]:
        match = re.match(rf"Objective (.*): {power} met a national objective for an additional (\d+) PUs", line)
        if match:
            found[match.group(1)] = int(match.group(2))
    return found


def _collected(answer: dict[str, Any], power: str) -> int:
    (income,) = [int(m.group(1)) for line in answer["history"] if (m := re.match(rf"{power} collect (\d+) PUs", line))]
    return income


def _objective_check(game: str, power: str, end_turn: str, failing: dict[str, tuple[tuple[str, ...], ...]], owner_of_conditions: str):
    """On AA50 1941 and 1942: in both every power has an objectiveAttachment1, the name TripleA resolved to
    the wrong power's objective (issue 13)."""

    def build(ask: Ask):
        checks = [_one_objective_check(ask, g, power, end_turn, failing, owner_of_conditions) for g in (game, game.replace("41", "42"))]

        def verify() -> None:
            for one in checks:
                one()

        return verify

    return build


def _one_objective_check(
    ask: Ask, game: str, power: str, end_turn: str, failing: dict[str, tuple[tuple[str, ...], ...]], owner_of_conditions: str
) -> Callable[[], None]:
    holds = ask.at(game, ("objectives", power), ("step", end_turn))
    fails = {clause: ask.at(game, *setup, ("objectives", power), ("step", end_turn)) for clause, setup in failing.items()}

    def verify() -> None:
        objective = _objective(holds[0])
        assert objective["value"] == 5 and objective["holds"] is True
        # Every condition is the power's own: none resolves to another power's attachment of the same name.
        assert objective["conditions"] and set(objective["conditions"].values()) == {owner_of_conditions}
        ended = holds[1]
        paid = _objective_payments(ended, power)
        assert [v for k, v in paid.items() if "Kremlin" in k] == [5]
        # The end of the turn pays the income and the objectives, nothing else.
        assert ended["pus_after"][power] - ended["pus_before"][power] == _collected(ended, power) + sum(paid.values())
        for clause, got in fails.items():
            assert _objective(got[-2])["holds"] is False, clause
            unpaid = _objective_payments(got[-1], power)
            assert not [v for k, v in unpaid.items() if "Kremlin" in k and v], clause
            assert got[-1]["pus_after"][power] - got[-1]["pus_before"][power] == _collected(got[-1], power) + sum(unpaid.values()), clause

    return verify


# HR8: "Gain 5 IPCs if no other Allied forces are present in a territory controlled by the Soviet Union, and if
# no Soviet forces are present in any other Allied territory, and if the Soviets control Archangels."
check(HR, "hr8-soviet-objective")(
    _objective_check(
        "aa41",
        "Russians",
        "russianEndTurn",
        {
            "Allied forces in a Soviet territory": (("add", "Russia", "British", "infantry", "1"),),
            "Soviet forces in another Allied territory": (("add", "India", "Russians", "infantry", "1"),),
            "Archangel lost": (("owner", "Archangel", "Germans"),),
        },
        "Russians",
    )
)

# HR9: "Gain 5 IPCs if Axis powers control all of the following territories: Manchuria, Kiangsu, French
# Indo-China/Thailand, and if no Japanese forces are present in any Soviet territory."
check(HR, "hr9-japanese-objective")(
    _objective_check(
        "aa41",
        "Japanese",
        "japaneseEndTurn",
        {
            "Manchuria lost": (("owner", "Manchuria", "Russians"),),
            "Kiangsu lost": (("owner", "Kiangsu", "Chinese"),),
            "French Indo-China lost": (("owner", "French Indo-China Thailand", "British"),),
            "Japanese forces in a Soviet territory": (("owner", "Buryatia S.S.R.", "Japanese"), ("add", "Buryatia S.S.R.", "Japanese", "infantry", "1")),
        },
        "Japanese",
    )
)

# HR10: "Gain 5 IPCs if Axis powers control all of the following territories: France, Northwestern Europe,
# Germany, Czechoslovakia/Hungary, Bulgaria/Romania, and Poland, and if no Japanese forces are present in any
# Axis territory."
check(HR, "hr10-german-objective")(
    _objective_check(
        "aa41",
        "Germans",
        "germanEndTurn",
        {
            "France lost": (("owner", "France", "British"),),
            "Northwestern Europe lost": (("owner", "Northwestern Europe", "British"),),
            "Czechoslovakia/Hungary lost": (("owner", "Czechoslovakia Hungary", "Russians"),),
            "Bulgaria/Romania lost": (("owner", "Bulgaria Romania", "Russians"),),
            "Poland lost": (("owner", "Poland", "Russians"),),
            "Japanese forces in an Axis territory": (("add", "Germany", "Japanese", "infantry", "1"),),
        },
        "Germans",
    )
)


@check(HR, "national-objectives-on")
def _(ask: Ask):
    # HR8-HR10 add lines to the national objectives: they are played ('National Objectives' on) ...
    got = ask.at("aa42", ("rule", "getNationalObjectives"), ("objectives", "Russians"), ("step", "russianEndTurn"))
    # ... and Germany taking Archangel no longer satisfies the Soviet objective (issue 13: a condition name
    # resolved to another power's objective).
    other = ask.at("aa42", ("owner", "Archangel", "Germans"), ("objectives", "Russians"), ("objectives", "Japanese"))

    def verify() -> None:
        assert got[0]["value"] is True
        assert _objective(got[1])["holds"] is True
        assert _objective(other[1])["holds"] is False
        assert _objective(other[2])["holds"] is True  # Archangel is no Japanese clause

    return verify


@check(HR, "germany-german-scientists")
def _(ask: Ask):
    # "Your Weapons Development dice cost 4 IPCs instead of 5."
    got = ask.at("aa41", ("techcost", "Germans"), ("techcost", "Italians"))

    def verify() -> None:
        assert (got[0]["cost"], got[1]["cost"]) == (4, 5)

    return verify


@check(HR, "uk-radar")
def _(ask: Ask):
    # "UK owned antiaircraft guns ... hit air units on a roll of 1 or 2": the UK owns a technology of its own from
    # the start whose one effect is that, not the built-in Radar (which HR5 makes a fighters' bonus too).
    got = {
        game: ask.at(game, ("step", "gameInitDelegate"), ("techs", "British"), ("techs", "Germans"), ("unit", "British", "aaGun"), ("unit", "Germans", "aaGun"))
        for game in ("revised", "revised-radar")
    }

    def verify() -> None:
        for game, (_, british, german, british_aa, german_aa) in got.items():
            assert "ukRadar" in british["techs"] and "aARadar" not in british["techs"] and "ukRadar" not in german["techs"], game
            assert (british_aa["aa_attack"], german_aa["aa_attack"]) == (2, 1), game

    return verify


@check(HR, "uk-french-resistance")
def _(ask: Ask):
    # "Once per game, if the Allies control Western Europe, you may place three of your infantry there for
    # free during the mobilize new units phase of your turn."
    held = ask.at("aa42", ("owner", "France", "Americans"), ("step", "britishPlace"), ("units", "France"), ("step", "britishPlace"), ("units", "France"))
    german = ask.at("aa42", ("step", "britishPlace"), ("units", "France"))
    base = ask.at("base-aa42", ("units", "France"))

    def verify() -> None:
        assert held[2]["units"].get("British|infantry", 0) == 3
        assert held[4]["units"].get("British|infantry", 0) == 3  # once per game
        assert german[1]["units"] == base[0]["units"]  # not while the Axis hold it

    return verify


@check(HR, "uk-colonial-garrison")
def _(ask: Ask):
    # "one additional industrial complex in any tan territory with an income value of at least 1" (India chosen).
    got, base = ask.at("aa41", ("units", "India")), ask.at("base-aa41", ("units", "India"))

    def verify() -> None:
        assert got[0]["units"]["British|factory"] == base[0]["units"].get("British|factory", 0) + 1

    return verify


@check(HR, "japan-most-powerful-battleships")
def _(ask: Ask):
    # "Your battleships attack and defend on a 5": from the game's first step, so in the UK's round-1 turn on Revised.
    got = {
        game: ask.at(game, ("step", "gameInitDelegate"), ("unit", "Japanese", "battleship"), ("unit", "British", "battleship"), ("techs", "Japanese"))
        for game in ("aa41", "revised")
    }

    def verify() -> None:
        for game, (_, japanese, british, techs) in got.items():
            assert (japanese["attack"], japanese["defense"]) == (5, 5), game
            assert (british["attack"], british["defense"]) == (4, 4), game
            assert "mostPowerfulBattleships" in techs["techs"], game

    return verify


@check(HR, "usa-mechanized-infantry")
def _(ask: Ask):
    # "Your infantry have a move of 2 and may blitz as tanks do."
    got = ask.at("revised", ("step", "gameInitDelegate"), ("unit", "Americans", "infantry"), ("unit", "British", "infantry"))

    def verify() -> None:
        assert (got[1]["movement"], got[1]["blitz"]) == (2, True)
        assert (got[2]["movement"], got[2]["blitz"]) == (1, False)

    return verify


@check(HR, "usa-fast-carriers")
def _(ask: Ask):
    # "Your aircraft carriers have a move of 3."
    got = ask.at("aa42", ("step", "gameInitDelegate"), ("unit", "Americans", "carrier"), ("unit", "British", "carrier"))

    def verify() -> None:
        assert got[1]["movement"] == 3 and got[2]["movement"] == 2

    return verify


SEA_AND_AIR_AA50 = {"battleship", "carrier", "cruiser", "destroyer", "submarine", "transport", "fighter", "bomber"}


@check(HR, "usa-war-economy")
def _(ask: Ask):
    # "Your cost of buying sea and air units is reduced by 1 IPC."
    got = ask.at("aa41", ("frontier", "Americans"), ("frontier", "British"))
    base = ask.at("base-aa41", ("frontier", "Americans"), ("frontier", "British"))

    def verify() -> None:
        before, after = base[0]["prices"], got[0]["prices"]
        assert set(after) == set(before)
        for unit, price in before.items():
            assert after[unit] == price - (unit in SEA_AND_AIR_AA50), unit
        assert got[1]["prices"] == base[1]["prices"]

    return verify


# ---------------------------------------------------------------------------------------------------
# 003 house rules (003_ecae7919a6bcb85e.txt)


def _options(game: str, expected: dict[str, Any]):
    """Options read through the engine's own getters, as its battle and move code reads them."""

    def build(ask: Ask):
        got = ask.at(game, *[("rule", getter) for getter in expected])

        def verify() -> None:
            assert {g: a["value"] for g, a in zip(expected, got)} == expected

        return verify

    return build


# "Naval bombardment shots from battleships take effect immediately (the casualties don't shoot back)."
check(HC, "bombardment-casualties")(_options("classic-a", {"getNavalBombardCasualtiesReturnFireRestricted": False}))
# "Units that attack from a transport may not retreat. Other land forces can retreat as normal. Planes can retreat."
check(HC, "amphibious-retreats")(_options("classic-a", {"getPartialAmphibiousRetreat": True, "getAttackerRetreatPlanes": True}))


@check(HC, "naval-placement-in-enemy-seas")
def _(ask: Ask):
    # "you may place new naval units in *enemy-occupied* sea zones adjacent to industrial complexes you have
    # owned since the beginning of your turn": a German submarine off the UK's factory.
    place = ("place", "britishPlace", "British", "battleship", "North Sea Zone")
    got = {game: ask.at(game, ("add", "North Sea Zone", "Germans", "submarine", "1"), place) for game in ("classic-a", "kremlin", "base-classic")}

    def verify() -> None:
        assert got["classic-a"][1]["placed"] is True and got["kremlin"][1]["placed"] is True
        assert got["base-classic"][1]["placed"] is False  # classic.xml as it is: the enemy ship blocks it

    return verify


@check(HC, "air-missions")
def _(ask: Ask):
    # "Air units may fly over occupied land or sea territories to attack other targets. They are not subject
    # to attacks by units stationed in those territories, but are subject to AA fire."
    route = ("Germany", "East Europe", "Karelia S.S.R.", "Caucasus", "Persia")
    got = {
        game: ask.at(
            game,
            ("add", "Karelia S.S.R.", "Russians", "aaGun", "1"),
            ("rule", "getAATerritoryRestricted"),
            ("aafire", "germanCombatMove", "Germans", "bomber", *route),
            ("aafire", "germanCombatMove", "Germans", "fighter", *route),
        )
        for game in ("classic-a", "kremlin")
    }

    def verify() -> None:
        for game, (_, restricted, bomber, fighter) in got.items():
            assert restricted["value"] is False, game
            # The Soviet AA gun the planes fly over fires as they pass, on their way to Persia.
            assert "Karelia S.S.R." in bomber["fire"] and "Karelia S.S.R." in fighter["fire"], game
            assert "Germany" not in bomber["fire"], game

    return verify


@check(HC, "soviets-no-attack-round-1")
def _(ask: Ask):
    # "The Soviets may not attack during their first turn of play. They may perform non-combat moves and
    # purchases as normal." Karelia -> East Europe (German) is an attack; Karelia -> Russia a non-combat move.
    attack = ("move", "russianCombatMove", "Russians", "infantry", "Karelia S.S.R.", "East Europe")
    calm = ("move", "russianNonCombatMove", "Russians", "infantry", "Karelia S.S.R.", "Russia")
    got = {game: ask.at(game, attack, calm, ("step", "russianBattle"), attack) for game in ("classic-a", "kremlin")}
    base = ask.at("base-classic", attack)

    def verify() -> None:
        assert base[0]["valid"] is True  # classic.xml lets them attack in round 1
        for game, (first, non_combat, _, later) in got.items():
            assert first["valid"] is False and non_combat["valid"] is True, game
            assert later["valid"] is True, game  # the restriction ends with the first Soviet turn's battles

    return verify


@check(HC, "strategic-bombing-interceptors")
def _(ask: Ask):
    # "the defending power has the option of scrambling his defending planes ... the attacker may declare that
    # nearby fighers are escorts": an air battle before the raid; dogfight values "fighters ... attack and
    # defend at 3 ... Bombers ... at 1".
    got = ask.at(
        "classic-a",
        ("rule", "getRaidsMayBePreceededByAirBattles"),
        ("unit", "Germans", "fighter"),
        ("unit", "Germans", "bomber"),
        ("unit", "British", "fighter"),
    )
    # A German raid on the UK's factory: the British fighters there may scramble; classic.xml has no air battle.
    raids = {
        game: ask.at(
            game,
            ("airbattle", "United Kingdom", "Germans"),
            ("remove", "United Kingdom", "British", "fighter", "2"),
            ("airbattle", "United Kingdom", "Germans"),
        )
        for game in ("classic-a", "kremlin", "base-classic")
    }

    def verify() -> None:
        for game in ("classic-a", "kremlin"):
            assert raids[game][0]["air_battle"] is True and raids[game][2]["air_battle"] is False, game
        assert raids["base-classic"][0]["air_battle"] is False
        assert got[0]["value"] is True
        for fighter in (got[1], got[3]):
            assert fighter["can_intercept"] and fighter["can_escort"] and (fighter["air_attack"], fighter["air_defense"]) == (3, 3)
        assert (got[2]["air_attack"], got[2]["air_defense"]) == (1, 1)

    return verify


@check(HC, "damaged-units")
def _(ask: Ask):
    # "Battleships and aircraft carriers ... are not destroyed if successfully hit ... the owner ... may repair
    # the unit" (paid): two hits, no free repair.
    got = ask.at(
        "classic-b",
        ("unit", "Germans", "battleship"),
        ("unit", "Americans", "carrier"),
        ("unit", "Germans", "transport"),
        ("rule", "getBattleshipsRepairAtEndOfRound"),
        ("rule", "getBattleshipsRepairAtBeginningOfRound"),
    )
    # A hit battleship and carrier stay damaged through their owner's turn (no free repair at its start or end).
    german = ask.at(
        "classic-b",
        ("damage", "Central Mediteranean Sea Zone", "Germans", "battleship", "1"),
        *[("step", f"german{s}") for s in ("Tech", "Purchase", "CombatMove", "Battle", "NonCombatMove", "Place", "EndTurn")],
        ("units", "Central Mediteranean Sea Zone"),
    )
    american = ask.at(
        "classic-b",
        ("damage", "Hawaii Sea Zone", "Americans", "carrier", "1"),
        *[("step", f"american{s}") for s in ("Tech", "Purchase", "CombatMove", "Battle", "NonCombatMove", "Place", "EndTurn")],
        ("step", "endRoundStep"),
        ("units", "Hawaii Sea Zone"),
    )

    def verify() -> None:
        assert (got[0]["hit_points"], got[1]["hit_points"], got[2]["hit_points"]) == (2, 2, 1)
        assert got[3]["value"] is False and got[4]["value"] is False
        assert german[-1]["units"]["Germans|battleship"] == 1 and german[-1]["damaged"] == {"Germans|battleship": 1}
        assert american[-1]["units"]["Americans|carrier"] == 1 and american[-1]["damaged"] == {"Americans|carrier": 1}

    return verify


# The Axis sums of the classic board; "attain 84 IPC income (100 if Neutral Territories used)".
AXIS = ("Germans", "Japanese")


def _income_of(answer: dict[str, Any], powers: tuple[str, ...]) -> int:
    return sum(answer["pus_after"][p] - answer["pus_before"][p] for p in powers)


@check(HC, "winning")
def _(ask: Ask):
    # "The game is over if the Axis player can capture the Russian and British capitols ... or attain 84 IPC
    # income (100 if Neutral Territories used). The Allies win if they capture both Axis capitols".
    start = ask.at("classic-a", ("step", "endRoundStep"))
    capitals = ask.at("classic-a", ("owner", "Russia", "Germans"), ("owner", "United Kingdom", "Germans"), ("step", "endRoundStep"))
    axis_capitals = ask.at("classic-a", ("owner", "Germany", "British"), ("owner", "Japan", "Americans"), ("step", "endRoundStep"))
    # The whole board to the Allies: no economic victory for them, however rich.
    # Their income (as the engine collects it) is above 147, the most classic.xml lets 'Allies Economic Victory' be.
    allied_board = ask.at(
        "classic-a",
        *[("owner", t, "Americans") for t in ALLIED_GRAB],
        *[("step", f"{p}EndTurn") for p in ("russian", "british", "american")],
        ("step", "endRoundStep"),
    )
    # The Axis just under 100 (98: their income, as the engine collects it, is asserted) and just over it.
    under = ask.at("classic-a", *[("owner", t, "Germans") for t in AXIS_GRAB], ("step", "germanEndTurn"), ("step", "japaneseEndTurn"), ("step", "endRoundStep"))
    over = ask.at(
        "classic-a", *[("owner", t, "Germans") for t in AXIS_GRAB + AXIS_MORE], ("step", "germanEndTurn"), ("step", "japaneseEndTurn"), ("step", "endRoundStep")
    )
    # Without the neutral territories the threshold is 84: the same 98 ends the game.
    kremlin_axis = ask.at("kremlin", *[("owner", t, "Germans") for t in AXIS_GRAB], ("step", "endRoundStep"))

    def verify() -> None:
        assert start[0]["game_over"] is False
        assert capitals[-1]["game_over"] is True and set(capitals[-1]["winners"]) >= set(AXIS)
        assert axis_capitals[-1]["game_over"] is True and "Germans" not in axis_capitals[-1]["winners"]
        assert sum(_collected(a, p) for a, p in zip(allied_board[-4:-1], ("Russians", "British", "Americans"))) > 147
        assert allied_board[-1]["game_over"] is False
        assert _collected(under[-3], "Germans") + _collected(under[-2], "Japanese") in range(84, 100)
        assert under[-1]["game_over"] is False
        assert _collected(over[-3], "Germans") + _collected(over[-2], "Japanese") >= 100
        assert over[-1]["game_over"] is True and set(over[-1]["winners"]) >= set(AXIS)
        assert kremlin_axis[-1]["game_over"] is True and set(kremlin_axis[-1]["winners"]) >= set(AXIS)

    return verify


# Territories handed over in the victory positions (classic.xml names; none is a capital).
AXIS_GRAB = (
    "Karelia S.S.R.",
    "Caucasus",
    "Ukraine S.S.R.",
    "Kazakh S.S.R.",
    "Novosibirsk",
    "India",
    "East Canada",
    "West Canada",
    "West US",
    "Anglo Sudan Egypt",
    "South Africa",
    "Australia",
    "Brazil",
    "Persia",
    "China",
    "Sinkiang",
)
AXIS_MORE = ("Alaska", "Mexico", "Yakut S.S.R.", "Evenki National Okrug")
# Every land territory of classic.xml but the five capitals (a capital of another power is a conquest).
ALLIED_GRAB = (
    "Afghanistan",
    "Alaska",
    "Algeria",
    "Anglo Sudan Egypt",
    "Angola",
    "Argentina-Chile",
    "Australia",
    "Borneo Celebes",
    "Brazil",
    "Caroline Islands",
    "Caucasus",
    "China",
    "Columbia",
    "Congo",
    "Cuba",
    "East Indies",
    "East Canada",
    "East Europe",
    "Eire",
    "Evenki National Okrug",
    "Finland Norway",
    "French Equatorial Africa",
    "French Indo China",
    "French West Africa",
    "Gibraltar",
    "Hawaiian Islands",
    "India",
    "Italian East Africa",
    "Karelia S.S.R.",
    "Kazakh S.S.R.",
    "Kenya-Rhodesia",
    "Kwangtung",
    "Libya",
    "Madagascar",
    "Manchuria",
    "Mexico",
    "Midway",
    "Mongolia",
    "Mozambique",
    "New Guinea",
    "New Zealand",
    "Novosibirsk",
    "Okinawa",
    "Panama",
    "Persia",
    "Peru",
    "Philippines",
    "Rio del Oro",
    "Saudi Arabia",
    "Sinkiang",
    "Solomon Islands",
    "South Africa",
    "South Europe",
    "Soviet Far East",
    "Spain",
    "Sweden",
    "Switzerland",
    "Syria Jordan",
    "Turkey",
    "Ukraine S.S.R.",
    "Wake Island",
    "West Canada",
    "West Europe",
    "West US",
    "Yakut S.S.R.",
)


@check(HC, "straits-gibraltar")
def _(ask: Ask):
    # "If a side controls both sides of a strait, he may forbid surface ships from crossing it (unlike a canal,
    # where submarines cannot cross it either)": Gibraltar - Algeria.
    moves = [canal("West Spain Sea Zone", "West Mediteranean Sea Zone", p, u) for p in ("Germans", "British") for u in ("battleship", "submarine")]
    split = ask.at("classic-a", ("owner", "Gibraltar", "British"), ("owner", "Algeria", "Germans"), *moves)
    german = ask.at("classic-a", ("owner", "Gibraltar", "Germans"), ("owner", "Algeria", "Germans"), *moves)
    british = ask.at("classic-a", ("owner", "Gibraltar", "British"), ("owner", "Algeria", "Americans"), *moves)

    def verify() -> None:
        keys = [(p, u) for p in ("Germans", "British") for u in ("battleship", "submarine")]
        assert all(passes(a) for a in split[2:])
        assert dict(zip(keys, map(passes, german[2:]))) == {
            ("Germans", "battleship"): True,
            ("Germans", "submarine"): True,
            ("British", "battleship"): False,
            ("British", "submarine"): True,
        }
        assert dict(zip(keys, map(passes, british[2:]))) == {
            ("Germans", "battleship"): False,
            ("Germans", "submarine"): True,
            ("British", "battleship"): True,
            ("British", "submarine"): True,
        }

    return verify


@check(HC, "straits-turkey")
def _(ask: Ask):
    # "While Neutral, Turkey FORBIDS both sides passage through the strait" (surface ships: it is a strait).
    moves = [
        canal(z, "Black Sea Zone", p, u)
        for z in ("East Mediteranean Sea Zone",)
        for p in ("Germans", "Russians")
        for u in ("transport", "submarine", "fighter")
    ]
    neutral = {game: ask.at(game, *moves) for game in ("classic-a", "kremlin")}
    soviet = ask.at("classic-a", ("owner", "Turkey", "Russians"), *moves)

    def verify() -> None:
        keys = [(p, u) for p in ("Germans", "Russians") for u in ("transport", "submarine", "fighter")]
        for game, got in neutral.items():
            assert {k: passes(a) for k, a in zip(keys, got)} == {k: k[1] != "transport" for k in keys}, game
        assert {k: passes(a) for k, a in zip(keys, soviet[1:])} == {k: k[1] != "transport" or k[0] == "Russians" for k in keys}

    return verify


@check(HC, "straits-sweden")
def _(ask: Ask):
    # "While Neutral, Sweden ALLOWS both sides through the strait".
    got = ask.at("classic-a", *[canal("North Sea Zone", "Baltic Sea Zone", p, "battleship") for p in ("Germans", "British")])

    def verify() -> None:
        assert all(passes(a) for a in got)

    return verify


@check(HC, "straits-sweden-allied")
def _(ask: Ask):
    # Sweden Germany's allied neutral: Germany holds both sides and forbids the Allies' surface ships.
    got = ask.at("kremlin", *[canal("North Sea Zone", "Baltic Sea Zone", p, u) for p in ("Germans", "British") for u in ("battleship", "submarine")])
    freed = ask.at("kremlin", ("owner", "West Europe", "British"), canal("North Sea Zone", "Baltic Sea Zone", "British", "battleship"))

    def verify() -> None:
        assert [passes(a) for a in got] == [True, True, False, True]
        assert passes(freed[1])  # the Allies hold one shore: not both sides Germany's

    return verify


@check(HC, "capturing-a-capital")
def _(ask: Ask):
    # "When a capital is captured, the attacker is awarded the cash of the defender."
    got = ask.at("classic-a", ("pus", "Germans"), ("pus", "Russians"), ("takeover", "Russia", "Germans"), ("pus", "Germans"), ("pus", "Russians"))

    def verify() -> None:
        assert got[1]["pus"] > 0
        assert got[3]["pus"] == got[0]["pus"] + got[1]["pus"] and got[4]["pus"] == 0

    return verify


@check(HC, "axis-war-enthusiasm")
def _(ask: Ask):
    # "Germany and Japan get a bonus of $8 and $4, respectively, in the begining and the end of the first turn."
    got = ask.at(
        "classic-a",
        ("pus", "Germans"),
        ("pus", "Japanese"),
        ("step", "germanEndTurn"),
        ("step", "japaneseEndTurn"),
        ("step", "germanEndTurn"),
        ("step", "japaneseEndTurn"),
    )
    base = ask.at("base-classic", ("pus", "Germans"), ("pus", "Japanese"), ("step", "germanEndTurn"), ("step", "japaneseEndTurn"))

    def verify() -> None:
        assert got[0]["pus"] == base[0]["pus"] + 8 and got[1]["pus"] == base[1]["pus"] + 4
        assert _income_of(got[2], ("Germans",)) == _income_of(base[2], ("Germans",)) + 8
        assert _income_of(got[3], ("Japanese",)) == _income_of(base[3], ("Japanese",)) + 4
        # Only the first turn's end.
        assert _income_of(got[4], ("Germans",)) == _income_of(base[2], ("Germans",))
        assert _income_of(got[5], ("Japanese",)) == _income_of(base[3], ("Japanese",))

    return verify


# The NEUTRAL TERRITORIES table of 003, as the seed prints it (the table's armour is TripleA's "armour").
NEUTRAL_TABLE = {
    "Mongolia": (1, {"infantry": 1}),
    "Turkey": (3, {"infantry": 2, "armour": 1}),
    "Spain": (4, {"infantry": 3, "armour": 1}),
    "Switzerland": (3, {"infantry": 2, "fighter": 1}),
    "Sweden": (3, {"infantry": 2}),
    "Eire": (1, {"infantry": 1}),
}


@check(HC, "neutral-territories")
def _(ask: Ask):
    # "The neutral countries now have an IPC value and an indigenous force. They may be attacked by any player
    # ... If the attack succeeds, the territory falls under the control of the attacker."
    armies = ask.at("classic-a", *[("units", n) for n in NEUTRAL_TABLE], ("rule", "getNeutralCharge"), ("rule", "getNeutralsImpassable"))
    # Taken, a neutral pays its IPC value at the end of its conqueror's turn.
    taken = ask.at("classic-a", ("owner", "Spain", "Germans"), ("step", "germanEndTurn"))
    untaken = ask.at("classic-a", ("step", "germanEndTurn"))

    def verify() -> None:
        for (name, (_, army)), answer in zip(NEUTRAL_TABLE.items(), armies):
            assert answer["owner"] == "" and answer["units"] == {f"|{u}": n for u, n in army.items()}, name
        assert armies[-2]["value"] == 0 and armies[-1]["value"] is False
        assert _income_of(taken[1], ("Germans",)) == _income_of(untaken[0], ("Germans",)) + NEUTRAL_TABLE["Spain"][0]

    return verify


@check(HC, "neutral-transports")
def _(ask: Ask):
    # "Transports should be placed in sea-zones not containing enemy ships if possible. If this is not possible
    # the transports are placed anyway": Sweden's only coast, the Baltic, holds German ships.
    got = ask.at("classic-a", ("units", "Baltic Sea Zone"), ("units", "Sweden"))

    def verify() -> None:
        assert got[0]["units"].get("|transport") == 1
        assert any(k.startswith("Germans|") for k in got[0]["units"])

    return verify


# -- 003 advantages


def _added_units(game: str, base: str, expected: dict[str, dict[str, int]]):
    """Units the advantage adds at the start, per territory: "owner|type" -> how many more than the game had."""

    def build(ask: Ask):
        got = ask.at(game, *[("units", t) for t in expected])
        before = ask.at(base, *[("units", t) for t in expected])

        def verify() -> None:
            for (territory, more), after, was in zip(expected.items(), got, before):
                for key, n in more.items():
                    assert after["units"].get(key, 0) == was["units"].get(key, 0) + n, (territory, key)

        return verify

    return build


# "Soviets gain 5 additional infantry units at the start of the game, which may be placed on either production centre."
check(HC, "ussr-non-purged-infantry")(_added_units("classic-a", "base-classic", {"Russia": {"Russians|infantry": 5}}))
# "Soviets gain 3 additional armor units at the start of the game" (Karelia chosen).
check(HC, "ussr-non-purged-armor")(_added_units("kremlin", "base-kremlin", {"Karelia S.S.R.": {"Russians|armour": 3}}))
# "one additional infantry on Kazakh, Novosibirsk, Evenki Nat'l Okrug, and Yakut S.S.R."
check(HC, "ussr-far-eastern")(
    _added_units("classic-b", "base-classic", {t: {"Russians|infantry": 1} for t in ("Kazakh S.S.R.", "Novosibirsk", "Evenki National Okrug", "Yakut S.S.R.")})
)
# "Germany gains 1 battleship." (in the Baltic, chosen)
check(HC, "germany-naval")(_added_units("classic-b", "base-classic", {"Baltic Sea Zone": {"Germans|battleship": 1}}))
# "United Kingdom starts the game with a production centre on any U.K. territory." (Australia chosen)
check(HC, "uk-production")(_added_units("classic-d", "base-classic", {"Australia": {"British|factory": 1}}))
# "two additional infantry and an additional submarine ... on the Dominion territories ... and the adjacent sea zones."
check(HC, "uk-dominion")(_added_units("kremlin", "base-kremlin", {"India": {"British|infantry": 2}, "Indian Ocean Sea Zone": {"British|submarine": 1}}))
# "Japan starts the game with a production centre on any Japanese territory on mainland Asia." (Manchuria chosen)
check(HC, "japan-production")(_added_units("classic-a", "base-classic", {"Manchuria": {"Japanese|factory": 1}}))
# "two additional infantry units on each Japanese territory on mainland Asia."
check(HC, "japan-infantry")(_added_units("classic-b", "base-classic", {t: {"Japanese|infantry": 2} for t in ("Manchuria", "Kwangtung", "French Indo China")}))
# "United States starts the game with a bomber stationed in the United Kingdom."
check(HC, "usa-allied-bomber")(_added_units("classic-b", "base-classic", {"United Kingdom": {"Americans|bomber": 1}}))
# "United States starts the game with a second fighter on the carrier stationed at Hawaii."
check(HC, "usa-hawaiian-fighter")(_added_units("classic-c", "base-classic", {"Hawaii Sea Zone": {"Americans|fighter": 1}}))
# "One additional infantry on China and Sianking."
check(HC, "usa-chinese")(_added_units("classic-d", "base-classic", {"China": {"Americans|infantry": 1}, "Sinkiang": {"Americans|infantry": 1}}))


@check(HC, "ussr-economic-support")
def _(ask: Ask):
    # "At the beginning of the game, the Americans may grant the U.S.S.R. 5 IPCs".
    got = ask.at("classic-c", ("pus", "Americans"), ("pus", "Russians"))
    base = ask.at("base-classic", ("pus", "Americans"), ("pus", "Russians"))

    def verify() -> None:
        assert got[0]["pus"] == base[0]["pus"] - 5 and got[1]["pus"] == base[1]["pus"] + 5

    return verify


@check(HC, "germany-allied-neutral")
def _(ask: Ask):
    # "Germany begins the game with an allied neutral country ... Germany must pay the IPC value of that
    # country to gain the alliance, but gains the immediate use of that territory's armies."
    spain = ask.at("classic-c", ("units", "Spain"), ("pus", "Germans"))
    sweden = ask.at("kremlin", ("units", "Sweden"), ("pus", "Germans"))
    base = ask.at("base-classic", ("pus", "Germans"))
    base_kremlin = ask.at("base-kremlin", ("pus", "Germans"))

    def verify() -> None:
        assert (spain[0]["owner"], spain[0]["units"]) == ("Germans", {"Germans|infantry": 3, "Germans|armour": 1})
        assert spain[1]["pus"] == base[0]["pus"] + 8 - 4  # the Axis bonus at the start, Spain's IPC value paid
        assert sweden[0]["owner"] == "Germans" and sweden[0]["units"]["Germans|infantry"] == 2
        assert sweden[1]["pus"] == base_kremlin[0]["pus"] + 8 - 3

    return verify


def _tech_from_start(game: str, power: str, tech: str, unit: str, field: str, more: int, base: str):
    """The power owns the technology once the game's first step has run, and the unit's value shows it."""

    def build(ask: Ask):
        got = ask.at(game, ("step", "gameInitDelegate"), ("techs", power), ("unit", power, unit))
        before = ask.at(base, ("unit", power, unit))

        def verify() -> None:
            assert tech in got[1]["techs"]
            assert got[2][field] == before[0][field] + more, (unit, field)

        return verify

    return build


# "Germans start the game with the Super Sub weapons technology." (TripleA's: +1 submarine attack)
check(HC, "germany-super-sub")(_tech_from_start("classic-a", "Germans", "superSub", "submarine", "attack", 1, "base-classic"))
# "United Kingdom starts the game with Jet Power weapons technology." (TripleA's: fighters defend at 5)
check(HC, "uk-jet-power")(_tech_from_start("classic-c", "British", "jetPower", "fighter", "defense", 1, "base-classic"))
# "Japan starts the game with the Long-Range aircraft weapon development." (003: "Your fighters now move 6")
check(HC, "japan-long-range-aircraft")(_tech_from_start("classic-c", "Japanese", "longRangeAir", "fighter", "movement", 2, "base-classic"))


@check(HC, "usa-industrial")
def _(ask: Ask):
    # "United States starts the game with Industrial Technology development": its cheaper frontier from the start.
    # Its prices are the development's (003 Development 13, written with the set): the set's game with the
    # technology granted.
    got = ask.at("classic-a", ("step", "gameInitDelegate"), ("techs", "Americans"), ("frontier", "Americans"))
    base = ask.at("classic-set", ("frontier", "Americans"), ("grant", "Americans", "industrialTechnology"), ("frontier", "Americans"))

    def verify() -> None:
        assert "industrialTechnology" in got[1]["techs"]
        assert got[2]["prices"] == base[2]["prices"] != base[0]["prices"]

    return verify


SEA_CLASSIC = {"battleship", "carrier", "submarine", "transport"}
AIR_CLASSIC = {"fighter", "bomber"}


def _production(game: str, power: str, kind: set[str]):
    """'All naval (air) units produced from <power> cost 20% less. This advantage is cumulative with Industrial
    Technology development, if it is acquired.' Before and after the technology, against the game without it."""

    def build(ask: Ask):
        got = ask.at(game, ("frontier", power), ("grant", power, "industrialTechnology"), ("frontier", power))
        # The set without the advantage: its own Industrial Technology prices (003 Development 13).
        base = ask.at("classic-set", ("frontier", power), ("grant", power, "industrialTechnology"), ("frontier", power))

        def verify() -> None:
            for (before, after), (plain_before, plain_after) in (((got[0], got[2]), (base[0], base[2])),):
                for unit, price in plain_before["prices"].items():
                    if unit in kind:
                        assert before["prices"][unit] == math.ceil(price * 0.8), unit  # "20% less", rounded up as 003 rounds
                        # Cumulative: less than Industrial Technology alone, and less than the advantage alone.
                        assert after["prices"][unit] == math.ceil(plain_after["prices"][unit] * 0.8), unit
                        assert after["prices"][unit] <= min(before["prices"][unit], plain_after["prices"][unit]), unit
                    else:
                        assert before["prices"][unit] == price and after["prices"][unit] == plain_after["prices"][unit], unit
                assert after["frontier"] != before["frontier"]  # the technology switched the frontier

        return verify

    return build


check(HC, "uk-naval-production")(_production("classic-a", "British", SEA_CLASSIC))
check(HC, "uk-air-production")(_production("classic-b", "British", AIR_CLASSIC))
check(HC, "japan-naval-production")(_production("classic-d", "Japanese", SEA_CLASSIC))


# 003 Development Descriptions: the six TripleA has, granted in the game written with the set.
CLASSIC_POWERS = ("Russians", "Germans", "British", "Japanese", "Americans")


def _development(tech: str, expected: Callable[[dict[str, Any], dict[str, Any]], None], *asked: tuple[str, ...]):
    """Every power granted ``tech`` in the set's game; ``expected(answers, base answers)`` per power, from the rule's text."""

    def build(ask: Ask):
        got = {p: ask.at("classic-set", ("grant", p, tech), *(tuple(f.replace("{p}", p) for f in c) for c in asked)) for p in CLASSIC_POWERS}
        base = {p: ask.at("base-classic", ("grant", p, tech), *(tuple(f.replace("{p}", p) for f in c) for c in asked)) for p in CLASSIC_POWERS}

        def verify() -> None:
            for power in CLASSIC_POWERS:
                expected(got[power][1:], base[power][1:])

        return verify

    return build


def _super_subs(got, base) -> None:
    assert got[0]["attack"] == 3  # "All subs attack at 3"


def _heavy_bombers(got, base) -> None:
    assert got[0]["attack_rolls"] == 2 and base[0]["attack_rolls"] == 3  # "All bomber attacks roll 2 dice" (TripleA's: 3)


def _jet_power(got, base) -> None:
    assert got[0]["defense"] == 5  # "Fighters defend at 5"
    assert got[0]["air_attack"] == 4  # "Attack at 4 during dogfights" (Dogfights: "All fighters ... at 3 (except Jet Power)")


def _rockets(got, base) -> None:
    assert got[0]["value"] is True and base[0]["value"] is False  # "More than one ... may perform Rocket shots in any given turn"


def _long_range_aircraft(got, base) -> None:
    assert got[0]["movement"] == 6 and got[1]["movement"] == 8  # "Your fighters now move 6; your bombers 8."


def _industrial_technology(got, base) -> None:
    # "Thus, Infantry cost 3, Armor cost 4, transports and subs cost 7, fighters cost 10, bombers cost 12,
    # carriers cost 15, and battleships cost 20 IPCs."
    rule = {"infantry": 3, "armour": 4, "transport": 7, "submarine": 7, "fighter": 10, "bomber": 12, "carrier": 15, "battleship": 20}
    assert {u: got[0]["prices"][u] for u in rule} == rule, got[0]["frontier"]
    assert got[0]["frontier"].endswith("IndustrialTechnology")


@check(HC, "dogfights")
def _(ask: Ask):
    # 003 Dogfights: "Any time air units are present in both attacking and defending forces a dogfight may
    # ensue ... All fighters involved in a dogfight attack and defend at 3 (except Jet Power).  Bombers involved
    # in a dogfight attack and defend at 1." An attack on the United Kingdom, whose planes are there; without them,
    # no dogfight.
    got = ask.at(
        "classic-set",
        ("rule", "getBattlesMayBePreceededByAirBattles"),
        ("unit", "Germans", "fighter"),
        ("unit", "Germans", "bomber"),
        ("airbattle", "United Kingdom", "Germans", "battle"),
        ("remove", "United Kingdom", "British", "fighter", "2"),
        ("remove", "United Kingdom", "British", "bomber", "1"),
        ("airbattle", "United Kingdom", "Germans", "battle"),
    )
    base = ask.at("base-classic", ("rule", "getBattlesMayBePreceededByAirBattles"))

    def verify() -> None:
        rule, fighter, bomber, with_fighters, _, _, without = got
        assert rule["value"] is True and base[0]["value"] is False
        assert fighter["can_air_battle"] and (fighter["air_attack"], fighter["air_defense"]) == (3, 3)
        assert bomber["can_air_battle"] and (bomber["air_attack"], bomber["air_defense"]) == (1, 1)
        assert with_fighters["air_battle"] is True and without["air_battle"] is False

    return verify


check(HC, "dev-super-subs")(_development("superSub", _super_subs, ("unit", "{p}", "submarine")))
check(HC, "dev-heavy-bombers")(_development("heavyBomber", _heavy_bombers, ("unit", "{p}", "bomber")))
check(HC, "dev-jet-power")(_development("jetPower", _jet_power, ("unit", "{p}", "fighter")))
check(HC, "dev-rockets")(_development("rocket", _rockets, ("rule", "getAllRocketsAttack")))
check(HC, "dev-long-range-aircraft")(_development("longRangeAir", _long_range_aircraft, ("unit", "{p}", "fighter"), ("unit", "{p}", "bomber")))
check(HC, "dev-industrial-technology")(_development("industrialTechnology", _industrial_technology, ("frontier", "{p}")))


# ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("set_id", [HC, HR])
def test_every_written_rule_has_an_engine_check(set_id: str) -> None:
    """A rule written into the game (enforced_by = "game") without an entry in CHECKS fails here."""
    missing = [rule for rule in written_rules(set_id) if (set_id, rule) not in CHECKS]
    assert not missing, f"{set_id}: rules written into the game without an engine check in {__name__}.CHECKS: {missing}"
    stale = [rule for s, rule in CHECKS if s == set_id and rule not in written_rules(set_id)]
    assert not stale, f"{set_id}: engine checks for rules the set does not write: {stale}"


def _write(name: str, folder: Path) -> Path:
    path, choices = GAMES[name]
    if choices is None:
        return path
    game = load(path)
    apply_house_rules(game, [choices])
    return game.save(folder / f"{name}.xml")


def _commands_of(build: Check) -> set[str]:
    """The commands a check asks (its build only records positions)."""
    ask = Ask()
    build(ask)
    return {command[0] for _, commands, _ in ask.positions for command in commands}


#: The checks TripleA 2.7's positions answer (engine/triplea27_positions.py): every one, which
#: test_every_check_runs_in_both_engines keeps so.
CHECKS_27 = sorted(key for key, build in CHECKS.items() if _commands_of(build) <= set(COMMANDS_27))


def test_every_check_runs_in_both_engines() -> None:
    """A check that asks 2.7 what its positions do not answer would run in 1.9 only: teach 2.7's positions first."""
    missing = {key: sorted(_commands_of(CHECKS[key]) - set(COMMANDS_27)) for key in CHECKS if key not in CHECKS_27}
    assert not missing, missing


def _answered(run: Callable[[list[Position]], list[list[dict[str, Any]]]], keys: list[tuple[str, str]], folder: Path, asked: dict) -> dict:
    """Every check's positions run in one JVM; what each check verifies, by (set, rule)."""
    verifiers: dict[tuple[str, str], Callable[[], None]] = {}
    pending: list[tuple[str, tuple[tuple[str, ...], ...], list[dict[str, Any]]]] = []
    for key in keys:
        ask = Ask()
        verifiers[key] = CHECKS[key](ask)
        pending += ask.positions
        asked[key] = [answers for _, _, answers in ask.positions]
    files = {name: _write(name, folder) for name in sorted({game for game, _, _ in pending})}
    answers = run([Position(files[game], commands, label=game) for game, commands, _ in pending])
    for (game, commands, into), got in zip(pending, answers):
        for command, answer in zip(commands, got):
            if "error" in answer:
                # The check that asked fails, saying why; the others go on.
                answer["error"] = f"{game}: {' '.join(command)}: {answer['error']}"
        into.extend(got)
    return verifiers


@pytest.fixture(scope="module")
def engine_answers(tmp_path_factory) -> dict[tuple[str, str], Callable[[], None]]:
    return _answered(lambda positions: run_positions(positions, strict=False), sorted(CHECKS), tmp_path_factory.mktemp("house-positions"), ASKED)


ASKED_27: dict[tuple[str, str], list[list[dict[str, Any]]]] = {}


@pytest.fixture(scope="module")
def engine_answers_27(tmp_path_factory) -> dict[tuple[str, str], Callable[[], None]]:
    found = find_installation(SHARED / "triplea-engine-2.7").found
    assert found is not None and found.major == 2, "the pinned TripleA 2.7 engine is missing from ../shared"
    return _answered(lambda positions: run_positions27(found, positions), CHECKS_27, tmp_path_factory.mktemp("house-positions-27"), ASKED_27)


@pytest.mark.engine
@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(CHECKS), ids=lambda key: f"{key[0]}:{key[1]}")
def test_engine_plays_the_rule(engine_answers, key: tuple[str, str]) -> None:
    _verify(engine_answers[key], ASKED[key])


@pytest.mark.engine
@pytest.mark.slow
@pytest.mark.parametrize("key", CHECKS_27, ids=lambda key: f"{key[0]}:{key[1]}")
def test_triplea27_plays_the_rule(engine_answers_27, key: tuple[str, str]) -> None:
    """The same check, its positions set up in TripleA 2.7."""
    _verify(engine_answers_27[key], ASKED_27[key])


def _verify(verify: Callable[[], None], asked: list[list[dict[str, Any]]]) -> None:
    try:
        verify()
    except (AssertionError, KeyError, TypeError):
        errors = [a["error"] for answers in asked for a in answers if "error" in a]
        assert not errors, errors
        raise

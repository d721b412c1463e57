"""The house-rule sets in play: the engine's Fast AI plays a round of a game with each set (one JVM),
and the power technologies their triggers grant are there after it.

The sets add canals, objectives with conditions, triggers, prices, a research price, neutral armies
and starting units: a game the engine reads but cannot play (a trigger or condition it chokes on
during the round) fails here.
"""

from __future__ import annotations

import pytest

from kremlin_triplea.engine.play import play_with_engine
from kremlin_triplea.game import load
from kremlin_triplea.gamerules.house import apply_house_rules
from kremlin_triplea.rules.house_rules import HouseChoices
from support.paths import AA50_1941, MAPS_DIR

pytestmark = pytest.mark.engine

CLASSIC = MAPS_DIR / "world_war_ii_classic" / "map" / "games" / "classic.xml"


def written(path, choices, folder, name):
    game = load(path)
    apply_house_rules(game, [choices])
    return game.save(folder / f"{name}.xml")


def test_fast_ai_plays_a_round_with_each_set(tmp_path) -> None:
    games = [
        written(
            AA50_1941,
            HouseChoices(
                "house-revised",
                advantages={"Germany": "german-scientists", "UK": "colonial-garrison", "Japan": "most-powerful-battleships", "USA": "fast-carriers"},
                values={"colonial_garrison_at": "India"},
            ),
            tmp_path,
            "revised",
        ),
        written(
            CLASSIC,
            HouseChoices(
                "house-classic",
                advantages={
                    "USSR": "far-eastern",
                    "Germany": "allied-neutral",
                    "UK": "naval-production",
                    "Japan": "long-range-aircraft",
                    "USA": "hawaiian-fighter",
                },
                values={"neutral": "Spain"},
            ),
            tmp_path,
            "classic",
        ),
    ]
    reports = play_with_engine(games, rounds=1, seed=6)
    for report in reports:
        assert report.ok and report.rounds_played == 1 and not report.exceptions, (report.file, report.error, report.exceptions[:3])
    # The power technologies, granted by their triggers in round 1, act for their power only.
    players = reports[0].final.rules["players"]
    assert "fastCarriers" in players["Americans"]["techs"] and "mostPowerfulBattleships" in players["Japanese"]["techs"]
    assert players["Americans"]["units"]["carrier"]["movement"] == 3 and players["British"]["units"]["carrier"]["movement"] == 2
    assert (players["Japanese"]["units"]["battleship"]["attack"], players["Japanese"]["units"]["battleship"]["defense"]) == (5, 5)
    assert (players["Americans"]["units"]["battleship"]["attack"], players["Americans"]["units"]["battleship"]["defense"]) == (4, 4)

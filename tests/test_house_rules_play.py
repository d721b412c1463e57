"""The house-rule sets in play: the engine's Fast AI plays a round of a game with each set (one JVM).

The sets add canals, objectives with conditions, triggers, prices, a research price, neutral armies
and starting units: a game the engine reads but cannot play (a trigger or condition it chokes on
during the round) fails here.
"""

from __future__ import annotations

from conftest import AA50_1941, MAPS_DIR
from kremlin_triplea.engine.play import play_with_engine
from kremlin_triplea.game import load
from kremlin_triplea.rules.house_rules import HouseChoices, apply_house_rules

CLASSIC = MAPS_DIR / "world_war_ii_classic" / "map" / "games" / "classic.xml"


def written(path, choices, folder, name):
    game = load(path)
    apply_house_rules(game, [choices])
    return game.save(folder / f"{name}.xml")


def test_fast_ai_plays_a_round_with_each_set(tmp_path) -> None:
    games = [
        written(AA50_1941, HouseChoices("house-revised", advantages={"Germany": "german-scientists", "UK": "colonial-garrison", "USA": "war-economy"},
                                        values={"colonial_garrison_at": "India"}), tmp_path, "revised"),
        written(CLASSIC, HouseChoices("house-classic", advantages={
            "USSR": "far-eastern", "Germany": "allied-neutral", "UK": "naval-production", "Japan": "long-range-aircraft", "USA": "hawaiian-fighter"},
            values={"neutral": "Spain"}), tmp_path, "classic"),
    ]
    for report in play_with_engine(games, rounds=1, seed=6):
        assert report.ok and report.rounds_played == 1 and not report.exceptions, (report.file, report.error, report.exceptions[:3])

"""Every production frontier a house rule writes for a power keeps every technology that swaps frontiers (issue 29).

TripleA's Industrial Technology and Improved Shipyards move a power from its frontier F to the frontier
named F + "IndustrialTechnology" / F + "Shipyards", and do nothing when the game lacks it ("No tech named:
productionAmericansShipyards not adding tech"). A rule that gives a power its own frontier must give it
its own twins too, or the power loses the technology's prices.

The test is the class, not an instance: for every house-rule set, every game it targets (the seeds'
README), every rule of the set that writes prices (read from the set's data) and every technology the
engine says the game defines, TripleA 1.9 and TripleA 2.7 are asked the power's prices after it is granted the technology.
They must be the rule's change (from the rule's own words, :data:`PRICE_RULES`) applied to the prices the
same game without the rule has after the same technology.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kremlin_triplea.engine.positions import Position, run_positions
from kremlin_triplea.engine.triplea27_positions import run_positions27
from kremlin_triplea.game import load
from kremlin_triplea.gamefile.installation import find_installation
from kremlin_triplea.gamerules.house import apply_house_rules
from kremlin_triplea.rules.house_rules import HouseChoices, load_named_house_set
from support.engine import asked_once
from support.house import TARGETS
from support.paths import SHARED

PRICE_KINDS = ("price_change", "frontier_cost")


def _twenty_percent_less(price: int) -> int:
    # 003's "20% less", rounded up as the same document's Industrial Technology rounds ("reduced by 20%, rounding up").
    return math.ceil(price * 0.8)


# (set, rule id) -> (the unit classes the rule names, the price it makes of the one the power had).
PRICE_RULES: dict[tuple[str, str], tuple[tuple[str, ...], Callable[[int], int]]] = {
    # 004, USA 6 War Economy: "Your cost of buying sea and air units is reduced by 1 IPC."
    ("house-revised", "usa-war-economy"): (("sea", "air"), lambda p: p - 1),
    # 003, UK 3: "All naval units produced from the United Kingdom cost 20% less. This advantage is cumulative
    # with Industrial Technology"; UK 4 the same for air units; Japan 6 the same for Japan's naval units.
    ("house-classic", "uk-naval-production"): (("sea",), _twenty_percent_less),
    ("house-classic", "uk-air-production"): (("air",), _twenty_percent_less),
    ("house-classic", "japan-naval-production"): (("sea",), _twenty_percent_less),
}

# The rule-text power -> the TripleA player, on every game these sets target.
PLAYERS = {"USA": "Americans", "UK": "British", "Japan": "Japanese", "Germany": "Germans", "USSR": "Russians"}


def price_rules(set_id: str) -> list[tuple[str, str]]:
    """(rule id, rule-text power) of every rule of the set, advantages included, that writes a power's prices."""
    house = load_named_house_set(set_id)
    found = []
    for rule in [*house.rules.rules, *(a.rule for a in house.advantages)]:
        for change in rule.changes:
            if change.data.get("kind") in PRICE_KINDS:
                found.append((rule.id, change.data["power"]))
    return found


@pytest.mark.parametrize("set_id", sorted(TARGETS))
def test_every_price_rule_has_its_words_here(set_id: str) -> None:
    """A set that gains a rule writing prices fails here until its words are in PRICE_RULES."""
    assert {(set_id, rule) for rule, _ in price_rules(set_id)} == {k for k in PRICE_RULES if k[0] == set_id}


def _advantage(set_id: str, rule_id: str) -> tuple[str, str] | None:
    house = load_named_house_set(set_id)
    return next(((a.power, a.id) for a in house.advantages if a.rule.id == rule_id), None)


def _write(path: Path, choices: HouseChoices, folder: Path, name: str) -> Path:
    game = load(path)
    apply_house_rules(game, [choices])
    return game.save(folder / f"{name}.xml")


CASES = [(set_id, game, rule, power) for set_id, games in sorted(TARGETS.items()) for game in games for rule, power in price_rules(set_id)]


def _installation27():
    found = find_installation(SHARED / "triplea-engine-2.7").found
    assert found is not None and found.major == 2, "the pinned TripleA 2.7 engine is missing from ../shared"
    return found


ENGINES: dict[str, Callable[[list[Position]], list[list[dict[str, Any]]]]] = {
    "1.9": run_positions,
    "2.7": lambda positions: run_positions27(_installation27(), positions),
}


@pytest.fixture(scope="module", params=sorted(ENGINES))
def prices_after_technologies(request, tmp_path_factory) -> dict[tuple[str, str, str], list[tuple[str, dict[str, Any], dict[str, Any]]]]:
    """(set, game, rule) -> for each technology the game defines: (technology, prices without the rule, with it),
    asked of TripleA 1.9 and of TripleA 2.7."""
    run = ENGINES[request.param]
    folder = tmp_path_factory.mktemp("frontiers")
    games = sorted({(set_id, game) for set_id, game, _, _ in CASES})
    (technologies,) = zip(*run([Position(game, (("technologies",),), label=game.name) for _, game in games]))
    written: dict[tuple[str, str, str], Path] = {}
    for (set_id, game), _ in zip(games, technologies):
        written[(set_id, game.name, "")] = _write(game, HouseChoices(set_id), folder, f"{set_id}-{game.stem}")
    for set_id, game, rule, _ in CASES:
        power, advantage = _advantage(set_id, rule) or (None, None)
        assert advantage is not None, f"{rule}: price rules other than advantages are written with the set itself"
        written[(set_id, game.name, rule)] = _write(game, HouseChoices(set_id, advantages={power: advantage}), folder, f"{set_id}-{game.stem}-{rule}")
    positions, keys = [], []
    for (set_id, game), listed in zip(games, technologies):
        for rule, power in price_rules(set_id):
            player = PLAYERS[power]
            for tech in listed["technologies"]:
                for which in ("", rule):
                    commands = (("grant", player, tech), ("frontier", player), *(("unit", player, u) for u in _units(game)))
                    positions.append(Position(written[(set_id, game.name, which)], commands, label=f"{game.name} {rule or 'set'} {tech}"))
                    keys.append((set_id, game.name, rule, tech, which))
    # The prices without the rule are asked again for each rule of a power: each different position is asked once.
    answers = asked_once(run, positions)
    found: dict[tuple[str, str, str], dict[str, dict[str, Any]]] = {}
    for (set_id, game, rule, tech, which), got in zip(keys, answers):
        found.setdefault((set_id, game, rule), {}).setdefault(tech, {})[which or "without"] = got
    return {key: [(tech, pair["without"], pair[key[2]]) for tech, pair in sorted(by_tech.items())] for key, by_tech in found.items()}


def _units(game: Path) -> list[str]:
    return sorted(load(game).board.catalog.unit_types)


@pytest.mark.engine
@pytest.mark.slow
@pytest.mark.parametrize(("set_id", "game", "rule", "power"), CASES, ids=[f"{s}:{g.name}:{r}" for s, g, r, _ in CASES])
def test_prices_after_every_technology(prices_after_technologies, set_id: str, game: Path, rule: str, power: str) -> None:
    classes, price = PRICE_RULES[(set_id, rule)]
    by_tech = prices_after_technologies[(set_id, game.name, rule)]
    assert by_tech, "the engine names no technology"
    for tech, without, with_rule in by_tech:
        units = {answer_unit: a for answer_unit, a in zip(_units(game), without[2:])}
        before, after = without[1]["prices"], with_rule[1]["prices"]
        assert after.keys() == before.keys(), (tech, without[1]["frontier"], with_rule[1]["frontier"])
        expected = {unit: price(cost) if any(units[unit][f"is_{c}"] for c in classes) else cost for unit, cost in before.items()}
        assert after == expected, f"{game.name}: {power} after {tech} ({with_rule[1]['frontier']} vs {without[1]['frontier']})"
        # The technology moved the power as far in the rule's game as in the game without it.
        assert with_rule[1]["frontier"].endswith(without[1]["frontier"].removeprefix("production")), tech

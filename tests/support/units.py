"""What a game file lets each player have, read with lxml directly (not through the tool): the expectation of the
tests that no power is given a unit type it cannot have (issue 28)."""

from __future__ import annotations

from pathlib import Path

from lxml import etree


def units_players_can_have(game: Path) -> dict[str, set[str]]:
    """Each player's units as the game file has them: what its production frontier sells, and its set-up."""
    root = etree.parse(str(game)).getroot()
    rules = {r.get("name"): [x.get("resourceOrUnit") for x in r.iter("result")] for r in root.iter("productionRule")}
    frontiers = {f.get("name"): [u for r in f.iter("frontierRules") for u in rules.get(r.get("name"), [])] for f in root.iter("productionFrontier")}
    has: dict[str, set[str]] = {}
    for production in root.iter("playerProduction"):
        has.setdefault(production.get("player"), set()).update(frontiers[production.get("frontier")])
    for placement in root.iter("unitPlacement"):
        if placement.get("owner"):
            has.setdefault(placement.get("owner"), set()).add(placement.get("unitType"))
    return has

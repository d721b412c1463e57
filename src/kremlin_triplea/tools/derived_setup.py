"""What ``profile new`` derives from a map itself for a ruleset: each power's own unit for a rule-text word
(matched by role, :mod:`kremlin_triplea.rules.roles`) and the pattern of the sea zones' names."""

from __future__ import annotations

import re
from collections import Counter

import attrs

from kremlin_triplea.game import Game
from kremlin_triplea.rules.roles import ROLES, UnitFacts, match_role, plays_role, role_of, unit_facts, units_of_power


@attrs.frozen
class PowerUnit:
    """A power's own unit type for a rule-text unit, where the unit for every power is not one it can have."""

    power: str  # the game's player
    word: str
    unit: str | None  # None: no unit type the power can have plays the role
    reason: str


def units_per_power(game: Game, general: dict[str, str | None], players: list[str], facts: list[UnitFacts] | None = None) -> list[PowerUnit]:
    """For each of ``players`` and rule-text unit word whose unit for every power (``general``) it cannot have, its own.

    A power can have the units of its production frontier and of its set-up
    (:func:`units_of_power`); its own unit is the one of the word's role among
    those. Players with neither (a map's neutral player) take the general unit.
    """
    facts = facts if facts is not None else unit_facts(game)
    found = []
    for player in players:
        can_have = units_of_power(game.board, player)
        if not can_have:
            continue
        for word, unit in general.items():
            if unit is None or unit in can_have:
                continue  # a unit no power has is [unmatched]
            role = role_of(word) or next((r for r in ROLES if plays_role(r, unit, facts)), None)
            if role is None:
                continue
            match = match_role(role, facts, can_have, f" {player} can have")
            reason = match.reason if match.unit is None else f"{player} cannot have {unit}; {match.reason}"
            found.append(PowerUnit(player, word, match.unit, reason))
    return found


def guess_sea_zone_name(game: Game) -> str:
    """The commonest pattern of the sea zones' names with their number as {n} ("{n} Sea Zone")."""
    patterns = Counter(re.sub(r"\d+", "{n}", name, count=1) for name, data in game.board.nodes.items() if data["water"] and re.search(r"\d", name))
    return patterns.most_common(1)[0][0] if patterns else "{n} Sea Zone"

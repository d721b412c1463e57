"""A ruleset on a map without a profile for it (or with one written for another ruleset): ``derived_setup``.

Unit words are matched by role (:mod:`kremlin_triplea.rules.roles`), neutrals found on the map itself (unowned
land with production 0, or impassable land, worth their production), and the rule-text names nothing on the map
can stand for listed as what a profile must provide.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import attrs

from kremlin_triplea.game import Game
from kremlin_triplea.rules.profile import Profile
from kremlin_triplea.rules.roles import ROLE_OF_WORD, ROLES, UnitFacts, match_role, match_unit_word, plays_role, role_of, unit_facts, units_of_power
from kremlin_triplea.rules.ruleset import Neutral, Ruleset
from kremlin_triplea.tools.rule_names import rule_names


@attrs.frozen
class DerivedSetup:
    """A ruleset and a profile fitted to one game from the map itself."""

    ruleset: Ruleset
    profile: Profile
    notes: tuple[str, ...]  # what differs from a written profile, for people
    missing_units: dict[str, str]  # rule-text unit word -> why no unit of the map stands for it


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


def map_neutrals(game: Game) -> dict[str, Neutral]:
    """Neutrals found on the map: unowned land with production 0, or impassable land; worth their production.

    Their armies are whatever the map already puts there, so nothing is added.
    """
    found = {}
    for name, data in game.board.nodes.items():
        if data["water"]:
            continue
        if (data["owner"] is None and not data["production"]) or data["impassable"]:
            found[name] = Neutral(name=name, ipc=int(data["production"] or 0), army=(), note="found on the map: unowned with production 0, or impassable")
    return found


def derived_setup(game: Game, ruleset: Ruleset, base: Profile | None = None) -> DerivedSetup:
    names = rule_names(ruleset)
    game_units = {u.lower(): u for u in game.catalog.unit_types}
    facts = unit_facts(game)
    units: dict[str, str] = {}
    missing: dict[str, str] = {}
    known = dict(base.units) if base is not None else {}
    for word in names.units:
        if word.lower() in game_units or known.get(word) in game.catalog.unit_types:
            continue
        match = match_unit_word(word, game, facts)
        if match is not None and match.unit is not None:
            units[word] = match.unit
        else:
            missing[word] = match.reason if match is not None else f"{word!r} is not a unit word the roles know ({', '.join(sorted(ROLE_OF_WORD))})"
    if "factory" not in names.units:  # every draft state looks up the factory
        match = match_unit_word("factory", game, facts)
        if "factory" not in game_units and match is not None and match.unit is not None:
            units["factory"] = match.unit
    general = {w: game_units.get(w.lower()) or known.get(w) or units.get(w) for w in names.units}
    own: dict[str, dict[str, str]] = {}
    for found in units_per_power(game, general, list(game.catalog.players), facts):
        if found.unit is not None:
            own.setdefault(found.power, {})[found.word] = found.unit
    if base is not None:
        own = {p: {**own.get(p, {}), **base.units_by_power.get(p, {})} for p in {*own, *base.units_by_power}}
    notes = []
    players = {p.lower() for p in game.catalog.players}
    base_powers = {k.lower(): v for k, v in (base.powers if base else {}).items()}
    # A restriction is kept whatever the map lacks (issue 46): its names the map has not are [unmatched], which the
    # draft reads so that they allow nothing the whole rule forbids.
    restrictions = dict(ruleset.restrictions)
    unmatched: dict[str, str] = {}
    land = {t.lower() for t, d in game.board.nodes.items() if not d["water"]} | {k.lower() for k in (base.places if base else {})}
    for power, restriction in ruleset.restrictions.items():
        if power.lower() not in players and power.lower() not in base_powers:
            unmatched[power] = f"power: the map has no power {power} (a profile's [powers] can name it)"
            notes.append(f"the {power} restriction binds every player the rules do not name: the map has no power {power} (a profile's [powers] can name it)")
        unknown = [t for t in restriction.may_also_enter if t.lower() not in land]
        if unknown:
            unmatched.update({t: f"place: the map has no {t} (a profile's [places] can name it)" for t in unknown})
            notes.append(f"the {power} restriction holds without {', '.join(unknown)}: the map has none (a profile's [places] can name them)")
    neutrals = map_neutrals(game)
    notes.append(f"{len(neutrals)} neutrals found on the map (unowned land with production 0, or impassable land)")
    derived_ruleset = attrs.evolve(ruleset, neutrals=neutrals, restrictions=restrictions)
    map_name = game.board.properties.get("mapName") or Path(game.source).stem
    if base is not None:
        profile = attrs.evolve(
            base,
            units={**units, **base.units},
            units_by_power=own,
            rulesets=(ruleset.id,),
            neutral_coasts={},
            capital_marker=None,
            powers_may_enter={k: v for k, v in base.powers_may_enter.items() if k in {base.powers.get(p, p) for p in restrictions}},
            unmatched={**base.unmatched, **unmatched},
        )
    else:
        profile = Profile(
            map=map_name,
            path=f"(derived from {Path(game.source).name}: no map profile)",
            rulesets=(ruleset.id,),
            sea_zone_name=guess_sea_zone_name(game),
            games=(),
            powers={},
            units=units,
            places={},
            place_reasons={},
            neutral_coasts={},
            capital_marker=None,
            powers_may_enter={},
            factory_output_enforced_by_game=False,
            factory_output_reason="no map profile: nobody has checked how this game limits a new factory's output",
            special_reasons={},
            units_by_power=own,
            unmatched=unmatched,
        )
    return DerivedSetup(derived_ruleset, profile, tuple(notes), missing)


def guess_sea_zone_name(game: Game) -> str:
    """The commonest pattern of the sea zones' names with their number as {n} ("{n} Sea Zone")."""
    patterns = Counter(re.sub(r"\d+", "{n}", name, count=1) for name, data in game.board.nodes.items() if data["water"] and re.search(r"\d", name))
    return patterns.most_common(1)[0][0] if patterns else "{n} Sea Zone"

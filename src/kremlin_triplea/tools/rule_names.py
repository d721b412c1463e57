"""The rule-text names a ruleset (or a house-rule set) uses, and what needs each: the names a map profile maps.

Numbered sea zones ("Seazone 12") are the rule text's map's numbers; a profile's ``sea_zone_name`` turns them
into the game's names.
"""

from __future__ import annotations

import attrs

from kremlin_triplea.rules.names import NUMBERED_SEA_ZONE
from kremlin_triplea.rules.profile import Profile
from kremlin_triplea.rules.ruleset import Ruleset


@attrs.frozen
class RuleNames:
    """The rule-text names a ruleset uses, by kind, and which options need each."""

    powers: dict[str, tuple[str, ...]]  # name -> what needs it ("restriction", "option 3"...)
    units: dict[str, tuple[str, ...]]
    places: dict[str, tuple[str, ...]]


def rule_names(ruleset: Ruleset) -> RuleNames:
    powers: dict[str, list[str]] = {}
    units: dict[str, list[str]] = {}
    places: dict[str, list[str]] = {}

    def need(table: dict[str, list[str]], name: str, by: str) -> None:
        table.setdefault(name, [])
        if by not in table[name]:
            table[name].append(by)

    tables = {"powers": powers, "units": units, "places": places}
    for option in ruleset.options:
        for table, name in option.params.rule_names(ruleset):
            need(tables[table], name, f"option {option.number}")
    for scenario in getattr(ruleset, "scenarios", ()):
        by = f"scenario {scenario.title!r}"
        if scenario.power:
            need(powers, scenario.power, by)
        steps = list(scenario.steps) + [s for v in scenario.variants for s in v.steps]
        for place in (*scenario.involves, *(s.at for s in steps), *(s.to for s in steps if s.to)):
            need(places, numbered_sea_zone(place) or place, by)
        for step in steps:
            if step.power:
                need(powers, step.power, by)
            for unit, _ in step.units:
                need(units, unit, by)
    for restriction in ruleset.restrictions.values():
        by = f"the {restriction.power} restriction"
        need(powers, restriction.power, by)
        for place in restriction.may_also_enter:
            need(places, place, by)
    for rule in getattr(ruleset, "game_rules", ()):
        for table, name in game_rule_names(rule):
            need(tables[table], name, f"game rule {rule.id!r}")
    return RuleNames(
        {k: tuple(v) for k, v in sorted(powers.items())},
        {k: tuple(v) for k, v in sorted(units.items())},
        {k: tuple(v) for k, v in sorted(places.items())},
    )


#: The fields of a game rule's change that name a rule-text place, power or unit, by the change's kind
#: (gamerules/actions.py reads them with the profile's names).
_GAME_RULE_FIELDS: dict[str, tuple[tuple[str, str], ...]] = {
    "canal": (("places", "land"),),
    "victory_city": (("places", "from"), ("places", "to")),
    "turn_step": (("powers", "power"),),
    "grant_tech": (("powers", "power"),),
    "frontier_cost": (("powers", "power"), ("units", "costs")),
    "place_units": (("powers", "power"), ("places", "at"), ("units", "units")),
    "move_units": (("powers", "power"), ("places", "from"), ("places", "to"), ("units", "units")),
}


#: Attachments a game rule changes whose ``attach_to`` is a power.
_POWER_ATTACHMENTS = ("rulesAttachment", "playerAttachment", "techAttachment")


def game_rule_names(rule) -> list[tuple[str, str]]:
    """The (table, name) pairs a game rule names: the places, powers and units its changes need on a map.

    Only what is written in the rule text's names; a canal's sides left to the profile's ``[straits]`` and a turn
    step's position (``[turn_step_positions]``) are the profile's own entries.
    """
    found = []
    for change in rule.changes:
        data = change.data
        kind = data.get("kind")
        for table, field in _GAME_RULE_FIELDS.get(kind, ()):
            value = data.get(field)
            names = list(value) if isinstance(value, (list, dict)) else [value] if isinstance(value, str) else []
            found += [(table, n) for n in names if isinstance(n, str)]
        if kind == "attachment_option":
            if data.get("attachment") in _POWER_ATTACHMENTS and isinstance(data.get("attach_to"), str):
                found.append(("powers", data["attach_to"]))
            if str(data.get("option", "")).endswith("Territories") and isinstance(data.get("add"), list):
                found += [("places", n) for n in data["add"] if isinstance(n, str)]
    return found


def numbered_sea_zone(name: str) -> str | None:
    """A rule text's numbered sea zone ("Seazone 12", "SZ 12", "Sea Zone 12(...)") as "Seazone 12", else None.

    The numbers are those of the map the rule text was written for; a profile's
    ``sea_zone_name`` turns them into the game's names ("{n} Sea Zone" on AA50).
    """
    match = NUMBERED_SEA_ZONE.match(name)
    return f"Seazone {match.group(1)}" if match else None


def numbered_in_game(profile: Profile, name: str) -> str | None:
    """The game's name for a numbered sea zone by the profile's ``sea_zone_name`` ("Seazone 12" -> "12 Sea Zone")."""
    match = NUMBERED_SEA_ZONE.match(name)
    return profile.sea_zone_name.format(n=match.group(1)) if match else None


def straits_needed(ruleset: Ruleset) -> dict[str, str]:
    """The straits a ruleset's game rules need from a profile (``[straits.<key>]``), each with the rule that needs it."""
    needed = {}
    for rule in ruleset.game_rules:
        for change in rule.changes:
            if change.data.get("kind") == "canal" and "strait" in change.data:
                needed.setdefault(str(change.data["strait"]), f"{rule.id} ({rule.source})")
    return needed

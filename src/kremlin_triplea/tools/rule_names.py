"""The rule-text names a ruleset (or a house-rule set) uses, and what needs each: the names a map profile maps.

Numbered sea zones ("Seazone 12") are the rule text's map's numbers; a profile's ``sea_zone_name`` turns them
into the game's names.
"""

from __future__ import annotations

import attrs

from kremlin_triplea.draft.rulesets import load_ruleset
from kremlin_triplea.rules.game_rules import GameRule
from kremlin_triplea.rules.house_rules import HouseSet, load_house_set
from kremlin_triplea.rules.names import NUMBERED_SEA_ZONE
from kremlin_triplea.rules.profile import Profile
from kremlin_triplea.rules.ruleset import Ruleset, find_data_file
from kremlin_triplea.rules.tomlfile import read_toml


@attrs.frozen
class RuleNames:
    """The rule-text names a ruleset uses, by kind, and which options need each."""

    powers: dict[str, tuple[str, ...]]  # name -> what needs it ("restriction", "option 3"...)
    units: dict[str, tuple[str, ...]]
    places: dict[str, tuple[str, ...]]


def load_rules(name: str) -> Ruleset | HouseSet:
    """A Kremlin ruleset or a house-rule set (a file of ``[[rule]]``s) by its name or path, as a map profile's
    ``rulesets`` lists either; an unknown name is refused with the close ones."""
    path = find_data_file("rulesets", name)
    if "rule" in read_toml(path):
        return load_house_set(path)
    return load_ruleset(path)


def written_rules(ruleset: Ruleset | HouseSet) -> tuple[GameRule, ...]:
    """The rules a ruleset writes into a game: a Kremlin ruleset's game rules, a house set's rules and advantages."""
    if isinstance(ruleset, HouseSet):
        return ruleset.rules.rules + tuple(a.rule for a in ruleset.advantages)
    return ruleset.game_rules


def neutral_armies(ruleset: Ruleset | HouseSet) -> list[tuple[str, tuple[tuple[str, int], ...]]]:
    """Each neutral the rule text lists, with its army: a Kremlin ruleset's neutrals, a house set's [[neutral]] table."""
    if isinstance(ruleset, HouseSet):
        return [(n["name"], tuple(n.get("army", {}).items())) for n in ruleset.neutrals]
    return [(n.name, n.army) for n in ruleset.neutrals.values()]


def rule_names(ruleset: Ruleset | HouseSet) -> RuleNames:
    powers: dict[str, list[str]] = {}
    units: dict[str, list[str]] = {}
    places: dict[str, list[str]] = {}

    def need(table: dict[str, list[str]], name: str, by: str) -> None:
        table.setdefault(name, [])
        if by not in table[name]:
            table[name].append(by)

    tables = {"powers": powers, "units": units, "places": places}
    for option in getattr(ruleset, "options", ()):
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
    for restriction in getattr(ruleset, "restrictions", {}).values():
        by = f"the {restriction.power} restriction"
        need(powers, restriction.power, by)
        for place in restriction.may_also_enter:
            need(places, place, by)
    for rule in written_rules(ruleset):
        for table, name in game_rule_names(rule):
            need(tables[table], name, f"game rule {rule.id!r}")
    if isinstance(ruleset, HouseSet):
        for table, name, by in _house_names(ruleset):
            need(tables[table], name, by)
    return RuleNames(
        {k: tuple(v) for k, v in sorted(powers.items())},
        {k: tuple(v) for k, v in sorted(units.items())},
        {k: tuple(v) for k, v in sorted(places.items())},
    )


def _house_names(house: HouseSet) -> list[tuple[str, str, str]]:
    """What a house set names beside its rules' changes: the powers given advantages, the places an advantage
    chooses among, and its neutral table's countries and their armies."""
    found = [("powers", power, "its advantages") for power in house.powers]
    for advantage in house.advantages:
        by = f"game rule {advantage.rule.id!r}"
        found += [("places", place, by) for place in (*advantage.places, *advantage.neutrals)]
    for neutral in house.neutrals:
        found.append(("places", neutral["name"], "its [[neutral]] table"))
        found += [("units", unit, "its [[neutral]] table") for unit in neutral.get("army", {})]
    return found


#: The fields of a game rule's change that name a rule-text place, power or unit, by the change's kind
#: (gamerules/actions.py and gamerules/house_actions.py read them with the profile's names).
_GAME_RULE_FIELDS: dict[str, tuple[tuple[str, str], ...]] = {
    "canal": (("places", "land"),),
    "victory_city": (("places", "from"), ("places", "to")),
    "turn_step": (("powers", "power"),),
    "grant_tech": (("powers", "power"),),
    "frontier_cost": (("powers", "power"), ("units", "costs")),
    "place_units": (("powers", "power"), ("places", "at"), ("units", "units")),
    "move_units": (("powers", "power"), ("places", "from"), ("places", "to"), ("units", "units")),
    "tech_cost": (("powers", "power"),),
    "price_change": (("powers", "power"),),
    "set_pus": (("powers", "power"),),
    "trigger_pus": (("powers", "power"),),
    "trigger_units": (("powers", "power"), ("places", "at"), ("units", "units")),
    "power_tech": (("powers", "power"),),
    "unit_support": (("powers", "power"), ("units", "attach_to"), ("units", "units")),
    "objective": (("powers", "power"),),
    "give_neutral": (("powers", "power"),),
}


#: Attachments a game rule changes whose ``attach_to`` is a power.
_POWER_ATTACHMENTS = ("rulesAttachment", "playerAttachment", "techAttachment")


def game_rule_names(rule) -> list[tuple[str, str]]:
    """The (table, name) pairs a game rule names: the places, powers and units its changes and its checks need on a map.

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
            # "{at}": a place the advantage leaves to choose (its own list, or the board's), not a name.
            found += [(table, n) for n in names if isinstance(n, str) and not n.startswith("{")]
        # A technology's or a power's bonuses and abilities by unit ("air_attack_bonus = { fighter = 1 }"), and an
        # objective's conditions on powers ("players = [...]"): rule-text names too.
        for key, value in data.items():
            if (key.endswith("_bonus") or key == "abilities") and isinstance(value, dict):
                found += [("units", n) for n in value if isinstance(n, str)]
        for condition in data.get("condition", []) if isinstance(data.get("condition"), list) else []:
            if isinstance(condition, dict) and isinstance(condition.get("players"), list):
                found += [("powers", n) for n in condition["players"] if isinstance(n, str)]
        if kind == "attachment_option":
            if data.get("attachment") == "unitAttachment" and isinstance(data.get("attach_to"), str):
                found.append(("units", data["attach_to"]))  # a unit type's own option (003's two-hit carrier)
            if data.get("attachment") in _POWER_ATTACHMENTS and isinstance(data.get("attach_to"), str):
                found.append(("powers", data["attach_to"]))
            if str(data.get("option", "")).endswith("Territories") and isinstance(data.get("add"), list):
                found += [("places", n) for n in data["add"] if isinstance(n, str)]
    # What the rule needs of the game to hold (a claim's check, report/claims.py): kremlin-classic's Restricted
    # Russia asks whether Russia has a movement list; unnamed here, "Russia" was no player of Europe 1940 (its
    # Russians), and the notes gave the players the rule for that wrong cause.
    for check in rule.holds_if:
        if isinstance(check.data.get("power"), str):
            found.append(("powers", check.data["power"]))
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


def straits_needed(ruleset: Ruleset | HouseSet) -> dict[str, str]:
    """The straits a ruleset's game rules (or a house set's rules) need from a profile (``[straits.<key>]``), each with the rule that needs it."""
    needed = {}
    for rule in written_rules(ruleset):
        for change in rule.changes:
            if change.data.get("kind") == "canal" and "strait" in change.data:
                needed.setdefault(str(change.data["strait"]), f"{rule.id} ({rule.source})")
    return needed

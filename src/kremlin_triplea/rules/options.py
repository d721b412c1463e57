"""The parameters of each kind of bonus option: the schema of a ruleset's ``[[option]]`` tables.

Each class reads its keys from the option's table when the ruleset is read
(``from_toml``), so a malformed option fails with the file, the key and what
was expected before any game is touched. The mechanism of each kind is in
:mod:`kremlin_triplea.draft.kinds` (a class registered under the same ``kind``).
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from kremlin_triplea.rules.tomlfile import Section

# Keys every [[option]] has, whatever its kind.
OPTION_KEYS = ("number", "id", "title", "kind", "source", "rule", "quotes")

# The places a placement option may name, and the checks it may require; the
# code for each is in draft/kinds/placement.py.
PLACEMENT_PLACES = (
    "own_territory",
    "sea_zone_adjacent_to_own_territory_or_with_friendly_ships",
    "friendly_sea_zone",  # adjacent to a territory of the power or an ally, or holding allied ships
    "friendly_carrier_with_room",
)
PLACEMENT_CHECKS = (
    "not_adjacent_to_enemy_units",
    "no_enemy_units",
    "same_territory",
    "same_power",
    "no_factory_there",
)


@attrs.frozen
class PlacementParams:
    """Units of the side's powers placed where the option allows (000 options 1, 2, 4-9)."""

    KIND: ClassVar[str] = "placement"
    KEYS: ClassVar[tuple[str, ...]] = ("unit_sets", "at", "require", "exclude")

    unit_sets: tuple[tuple[str, ...], ...]  # choose exactly one; rule-text unit names
    at: tuple[str, ...]  # a unit may go to any one of these kinds of place
    require: tuple[str, ...]  # further checks, all must hold
    exclude: tuple[tuple[str, str, str], ...] = ()  # (power, unit, place) never allowed, rule-text names

    @classmethod
    def from_toml(cls, section: Section) -> PlacementParams:
        unit_sets = section.get(
            "unit_sets",
            'a list of unit lists, e.g. [["transport", "submarine"]]',
            lambda v: isinstance(v, list) and v and all(isinstance(s, list) and s and all(isinstance(u, str) for u in s) for s in v),
        )
        at = section.texts("at")
        for place in at:
            if place not in PLACEMENT_PLACES:
                raise section.fail("at", f"places among {', '.join(PLACEMENT_PLACES)}", place)
        require = section.texts("require", [])
        for check in require:
            if check not in PLACEMENT_CHECKS:
                raise section.fail("require", f"checks among {', '.join(PLACEMENT_CHECKS)}", check)
        exclude = []
        for entry in section.tables("exclude", []):
            entry.only("power", "unit", "at")
            exclude.append((entry.text("power"), entry.text("unit"), entry.text("at")))
        return cls(tuple(tuple(s) for s in unit_sets), tuple(at), tuple(require), tuple(exclude))

    def describe(self, ruleset: Any) -> list[str]:
        """What the option allows, one line each (``kremlin-triplea options``)."""
        sets = " | ".join(" + ".join(s) for s in self.unit_sets)
        lines = [f"units: {sets}; where: {' or '.join(self.at)}" + (f"; checks: {', '.join(self.require)}" if self.require else "")]
        return lines + [f"except: no {power} {unit} in {place}" for power, unit, place in self.exclude]


@attrs.frozen
class NeutralTakeoverParams:
    """Neutrals join a power with their armies (000 option 3; 001/002's neutral options)."""

    KIND: ClassVar[str] = "neutral_takeover"
    KEYS: ClassVar[tuple[str, ...]] = ("count", "max_total_ipc", "navy_to", "navy_reason", "per_group", "production", "production_reason", "production_source")

    count: int  # neutrals per pick: the sum of per_group when that is given
    max_total_ipc: int | None  # None: no limit on the table's IPC values
    navy_to: str
    navy_reason: str
    per_group: tuple[tuple[str, int], ...] = ()  # e.g. (("major", 1), ("minor", 1)): how many of each [[neutral]] group
    # "table_value": the neutral's production becomes its table IPC value (AA50);
    # "unchanged": the game's production stays (001, 002: "The starting income doesn't change")
    production: str = "table_value"
    production_reason: str = ""
    production_source: str = ""

    @classmethod
    def from_toml(cls, section: Section) -> NeutralTakeoverParams:
        per_group = tuple(section.counts("per_group", {}).items())
        return cls(
            count=sum(n for _, n in per_group) if per_group else section.integer("count"),
            max_total_ipc=section.integer("max_total_ipc", None),
            navy_to=section.get("navy_to", "nearest_sea_zone_without_enemy_units", lambda v: v == "nearest_sea_zone_without_enemy_units"),
            navy_reason=section.text("navy_reason", ""),
            per_group=per_group,
            production=section.get("production", "table_value or unchanged", lambda v: v in ("table_value", "unchanged"), "table_value"),
            production_reason=section.text("production_reason", ""),
            production_source=section.text("production_source", ""),
        )

    def describe(self, ruleset: Any) -> list[str]:
        if self.per_group:
            lines = [f"take {' and '.join(f'{n} {group}' for group, n in self.per_group)} neutral(s):"]
        else:
            lines = [f"take {self.count} neutrals worth at most {self.max_total_ipc} IPCs together:"]
        for neutral in ruleset.neutrals.values():
            army = ", ".join(f"{n} {u}" for u, n in neutral.army)
            value = f"{neutral.ipc} IPC" if neutral.ipc is not None else str(neutral.group)
            lines.append(f"  {neutral.name}: {value}, {army}" + (f" ({neutral.note})" if neutral.note else ""))
        if self.production == "unchanged":
            lines.append(f"production of a taken neutral: unchanged ({self.production_reason})")
        return lines


@attrs.frozen
class TerritoryTakeoverParams:
    """An enemy territory taken over (000 option 10)."""

    KIND: ClassVar[str] = "territory_takeover"
    KEYS: ClassVar[tuple[str, ...]] = ("units", "forbidden_units")

    units: tuple[tuple[str, int], ...]  # placed for the taking power
    forbidden_units: tuple[str, ...]  # a territory holding one of these may not be taken

    @classmethod
    def from_toml(cls, section: Section) -> TerritoryTakeoverParams:
        return cls(units=tuple(section.counts("units").items()), forbidden_units=tuple(section.texts("forbidden_units", [])))

    def describe(self, ruleset: Any) -> list[str]:
        units = ", ".join(f"{n} {u}" for u, n in self.units)
        return [f"places {units}; not where there is a {', '.join(self.forbidden_units)}"]


@attrs.frozen
class ScenarioParams:
    """A scenario option: the pick names one of the ruleset's [[scenario]] entries (rules/scenarios.py)."""

    KIND: ClassVar[str] = "scenario"
    KEYS: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def from_toml(cls, section: Section) -> ScenarioParams:
        return cls()

    def describe(self, ruleset: Any) -> list[str]:
        lines = []
        for scenario in ruleset.scenarios:
            who = scenario.side + (f", {scenario.power}" if scenario.power else "")
            lines.append(f"{who}: scenario = {scenario.title!r} (id {scenario.id}; {scenario.source})")
        return lines


Params = PlacementParams | NeutralTakeoverParams | TerritoryTakeoverParams | ScenarioParams

# A ruleset's ``kind = "..."`` -> the class of its parameters.
PARAMS_BY_KIND: dict[str, type[PlacementParams | NeutralTakeoverParams | TerritoryTakeoverParams | ScenarioParams]] = {
    cls.KIND: cls for cls in (PlacementParams, NeutralTakeoverParams, TerritoryTakeoverParams, ScenarioParams)
}

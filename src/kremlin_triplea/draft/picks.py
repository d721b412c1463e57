"""What a draft says, as frozen values with names resolved to the game's: a pick, its placements, takeovers, retreats, and the bid.

Each value reads itself from the draft file's TOML (``from_toml``, names
translated by the map profile and checked at once) and writes itself back
(``to_toml``, in the game's names, which the draft file accepts too), so a
pick that round-trips through a draft file is the same pick.
"""

from __future__ import annotations

from typing import Any

import attrs

from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.ruleset import Option
from kremlin_triplea.rules.scenarios import Scenario
from kremlin_triplea.rules.tomlfile import Section


@attrs.frozen
class UnitPlacement:
    power: str
    unit: str
    count: int
    at: str

    def __str__(self) -> str:
        return f"{self.count} {self.power} {self.unit} in {self.at}"

    @classmethod
    def list_from_toml(cls, section: Section, key: str, names: Names) -> tuple[UnitPlacement, ...]:
        """``place = [{ power, unit, count = 1, at }, ...]`` (also a bid's ``place`` and ``remove``)."""
        placements = []
        for entry in section.tables(key):
            entry.only("power", "unit", "count", "at")
            at = f"{entry.where}: {entry.key}"
            count = entry.integer("count", 1)
            if count < 1:
                raise entry.fail("count", "a positive whole number", count)
            placements.append(
                cls(names.power(entry.text("power"), where=at), names.unit(entry.text("unit"), where=at), count, names.place(entry.text("at"), where=at))
            )
        return tuple(placements)

    def to_toml(self) -> dict[str, Any]:
        return {"power": self.power, "unit": self.unit, "count": self.count, "at": self.at}


@attrs.frozen
class NeutralTake:
    territory: str
    by: str
    navy_at: str | None = None

    @classmethod
    def list_from_toml(cls, section: Section, key: str, names: Names) -> tuple[NeutralTake, ...]:
        """``take = [{ neutral, by, navy_at }, ...]``."""
        takes = []
        for entry in section.tables(key):
            entry.only("neutral", "by", "navy_at")
            at = f"{entry.where}: {entry.key}"
            navy = entry.text("navy_at", None)
            takes.append(
                cls(names.territory(entry.text("neutral"), where=at), names.power(entry.text("by"), where=at), names.sea_zone(navy, where=at) if navy else None)
            )
        return tuple(takes)

    def to_toml(self) -> dict[str, Any]:
        return {"neutral": self.territory, "by": self.by} | ({"navy_at": self.navy_at} if self.navy_at else {})


@attrs.frozen
class Retreat:
    to: str
    power: str | None = None  # None: any owner
    unit: str | None = None  # None: any unit type

    @property
    def specific(self) -> bool:
        return self.power is not None or self.unit is not None

    def to_toml(self) -> dict[str, Any]:
        return {"to": self.to} | ({"power": self.power} if self.power else {}) | ({"unit": self.unit} if self.unit else {})


@attrs.frozen
class TakeoverSpec:
    territory: str
    by: str
    retreats: tuple[Retreat, ...] = ()

    @classmethod
    def from_toml(cls, section: Section, key: str, names: Names) -> TakeoverSpec:
        """``takeover = { territory, by, retreat = [{ to, power, unit }, ...] }``."""
        spec = section.table(key)
        spec.only("territory", "by", "retreat")
        at = f"{spec.where}: {spec.key}"
        retreats = []
        for entry in spec.tables("retreat", []):
            entry.only("to", "power", "unit")
            here = f"{entry.where}: {entry.key}"
            power, unit = entry.text("power", None), entry.text("unit", None)
            retreats.append(
                Retreat(
                    names.territory(entry.text("to"), where=here),
                    names.power(power, where=here) if power else None,
                    names.unit(unit, where=here) if unit else None,
                )
            )
        return cls(names.territory(spec.text("territory"), where=at), names.power(spec.text("by"), where=at), tuple(retreats))

    def to_toml(self) -> dict[str, Any]:
        data: dict[str, Any] = {"territory": self.territory, "by": self.by}
        if self.retreats:
            data["retreat"] = [r.to_toml() for r in self.retreats]
        return data


@attrs.frozen
class Pick:
    index: int  # 1-based position in the draft
    side: str
    option: Option
    placements: tuple[UnitPlacement, ...] = ()
    takes: tuple[NeutralTake, ...] = ()
    takeover: TakeoverSpec | None = None
    scenario: Scenario | None = None

    @property
    def label(self) -> str:
        chosen = f": {self.scenario.title}" if self.scenario is not None else ""
        return f"pick {self.index} ({self.side}, option {self.option.number} {self.option.title}{chosen})"

    def to_toml(self) -> dict[str, Any]:
        """The draft file's ``[[pick]]`` table for this pick (``note`` is the caller's)."""
        data: dict[str, Any] = {"side": self.side, "option": self.option.number}
        if self.placements:
            data["place"] = [p.to_toml() for p in self.placements]
        if self.takes:
            data["take"] = [t.to_toml() for t in self.takes]
        if self.takeover is not None:
            data["takeover"] = self.takeover.to_toml()
        if self.scenario is not None:
            data["scenario"] = self.scenario.title
        return data


@attrs.frozen
class BidSpec:
    amount: int  # the winning bid: positive, the Axis places units; negative, the Allies get PUs
    placements: tuple[UnitPlacement, ...] = ()
    allocate: tuple[tuple[str, int], ...] = ()
    removals: tuple[UnitPlacement, ...] = ()  # negative bid, rulesets with negative = "remove_units"
    phase: tuple[tuple[str, int], ...] = ()  # positive bid left to TripleA's bid phase: (power, PUs)

    label = "bid"

    def to_toml(self, placing_side: str) -> dict[str, Any]:
        """The draft file's ``[bid]`` table (``placing_side`` names the amount's key: "axis" = 11)."""
        data: dict[str, Any] = {placing_side.lower(): self.amount}
        if self.placements:
            data["place"] = [p.to_toml() for p in self.placements]
        if self.removals:
            data["remove"] = [p.to_toml() for p in self.removals]
        if self.allocate:
            data["allocate"] = dict(self.allocate)
        if self.phase:
            data["phase"] = dict(self.phase)
        return data

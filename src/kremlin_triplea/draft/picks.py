"""What a draft says, as frozen values with names resolved to the game's: a pick, its placements, takeovers, retreats, and the bid."""

from __future__ import annotations

import attrs

from kremlin_triplea.rules.ruleset import Option
from kremlin_triplea.rules.scenarios import Scenario


@attrs.frozen
class UnitPlacement:
    power: str
    unit: str
    count: int
    at: str

    def __str__(self) -> str:
        return f"{self.count} {self.power} {self.unit} in {self.at}"


@attrs.frozen
class NeutralTake:
    territory: str
    by: str
    navy_at: str | None = None


@attrs.frozen
class Retreat:
    to: str
    power: str | None = None  # None: any owner
    unit: str | None = None  # None: any unit type

    @property
    def specific(self) -> bool:
        return self.power is not None or self.unit is not None


@attrs.frozen
class TakeoverSpec:
    territory: str
    by: str
    retreats: tuple[Retreat, ...] = ()


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


@attrs.frozen
class BidSpec:
    amount: int  # the winning bid: positive, the Axis places units; negative, the Allies get PUs
    placements: tuple[UnitPlacement, ...] = ()
    allocate: tuple[tuple[str, int], ...] = ()
    removals: tuple[UnitPlacement, ...] = ()  # negative bid, rulesets with negative = "remove_units"
    phase: tuple[tuple[str, int], ...] = ()  # positive bid left to TripleA's bid phase: (power, PUs)

    label = "bid"

"""The legal choices for the next pick, described for people and tools: what each option allows now, and the bid."""

from __future__ import annotations

import attrs

from kremlin_triplea.rules.ruleset import Option


@attrs.frozen
class UnitChoice:
    """Where ``power`` may place one ``unit``."""

    unit: str
    power: str
    places: tuple[str, ...]


@attrs.frozen
class SetChoice:
    """For options whose units share one power and one place: where a whole unit set may go."""

    units: tuple[str, ...]
    power: str
    places: tuple[str, ...]


@attrs.frozen
class NeutralChoice:
    territory: str
    name: str  # as the rule text names it
    ipc: int | None  # None: the rule text gives no IPC value
    takers: tuple[tuple[str, tuple[str, ...]], ...]  # (power, sea zones its navy may go to; () if no navy)
    group: str | None = None  # "major" / "minor" where the option counts groups


@attrs.frozen
class RetreatChoice:
    owner: str
    unit: str
    count: int
    destinations: tuple[str, ...]  # () means the units cannot retreat and are removed


@attrs.frozen
class TakeoverChoice:
    territory: str
    power: str
    retreats: tuple[RetreatChoice, ...]


@attrs.frozen
class OptionChoices:
    option: Option
    unavailable: str | None = None  # why the side cannot take this option now
    units: tuple[UnitChoice, ...] = ()
    sets: tuple[SetChoice, ...] = ()
    neutrals: tuple[NeutralChoice, ...] = ()
    neutral_pairs: tuple[tuple[str, str], ...] = ()
    takeovers: tuple[TakeoverChoice, ...] = ()
    scenarios: tuple[str, ...] = ()  # titles of the scenarios the side may pick

    @property
    def available(self) -> bool:
        return self.unavailable is None


@attrs.frozen
class BidChoices:
    side: str
    places: tuple[tuple[str, tuple[str, ...]], ...]  # (power, territories and sea zones it may place on)
    costs: tuple[tuple[str, tuple[tuple[str, int], ...]], ...]  # (power, (unit, cost)...)
    # Rulesets whose negative bid removes units: (power, place, unit, how many may go), option units excluded.
    removable: tuple[tuple[str, str, str, int], ...] = ()


@attrs.frozen
class NextPick:
    index: int  # 1-based; total+1 once the picks are done
    total: int
    side: str | None  # None once the picks are done
    options: tuple[OptionChoices, ...]
    bid: BidChoices | None

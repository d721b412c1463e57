"""The legal choices for the next pick, described for people and tools: what each option allows now (its kind's subclass), and the bid."""

from __future__ import annotations

import attrs

from kremlin_triplea.rules.ruleset import Option


@attrs.frozen
class OptionChoices:
    """What one option allows the side now: unavailable (and why), or its legal targets.

    Each kind returns a subclass of its own carrying its targets' shape (the placement kind's units and
    places, the neutral kind's neutrals and pairs...), so this class knows no kind.
    """

    option: Option
    unavailable: str | None = None  # why the side cannot take this option now

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

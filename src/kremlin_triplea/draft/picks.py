"""What a draft says, as frozen values with names resolved to the game's: a pick and what it names, unit placements, and the bid.

Each value reads itself from the draft file's TOML (``from_toml``, names
translated by the map profile and checked at once) and writes itself back
(``to_toml``, in the game's names, which the draft file accepts too), so a
pick that round-trips through a draft file is the same pick. What a pick names
(its *target*) is of its option kind's own class, defined with the kind in
:mod:`kremlin_triplea.draft.kinds`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, ClassVar

import attrs

from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.ruleset import Option
from kremlin_triplea.rules.tomlfile import DataFileError, Section


def refuse_repeats(entries: Sequence[Section], keys: Sequence[Hashable], said: Callable[[Any], str], once: str) -> None:
    """Refuse a list entry that names again what an earlier entry of the list named, at its line, naming both.

    A repeat is a slip of the pen, and counted otherwise it was misreported: three ``take`` entries naming Sweden
    twice were "2 different neutral(s)", and a second retreat for the same units was silently ignored. ``said``
    words a key ("Sweden"), ``once`` the rule the repeat breaks ("each neutral is taken over once").
    """
    first: dict[Hashable, Section] = {}
    for entry, key in zip(entries, keys, strict=True):
        if key in first:
            earlier = first[key].key.rsplit(", ", 1)[-1]  # "take 1" of "pick 1, take 1": the entry's own list
            raise DataFileError(f"{entry.key}: {said(key)} again, as in {earlier}; {once}", where=entry.where)
        first[key] = entry


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
            power = names.power(entry.text("power"), where=at)
            # The rule text's word ("tank") is the placing power's own unit where the profile gives it one
            # ([units_by_power]: Total World War's germanTank), as every option reads it (Names.own_unit).
            placements.append(cls(power, names.unit(entry.text("unit"), where=at, power=power), count, names.place(entry.text("at"), where=at)))
        return tuple(placements)

    def to_toml(self) -> dict[str, Any]:
        return {"power": self.power, "unit": self.unit, "count": self.count, "at": self.at}


class PickTarget:
    """What a pick names, of its option kind's own frozen class (units placed, neutrals taken, a scenario...)."""

    KEY: ClassVar[str]  # the draft file's key for it in a [[pick]] table

    def to_toml(self) -> Any:
        """The value of :attr:`KEY` in the draft file, in the game's names."""
        raise NotImplementedError

    @property
    def chosen(self) -> str:
        """What the pick's label adds after the option (a scenario's title); empty for most kinds."""
        return ""


@attrs.frozen
class Pick:
    index: int  # 1-based position in the draft
    side: str
    option: Option
    target: PickTarget  # of the class the option's kind reads (``KINDS[option.kind].target``)

    @property
    def label(self) -> str:
        chosen = f": {self.target.chosen}" if self.target.chosen else ""
        return f"pick {self.index} ({self.side}, option {self.option.number} {self.option.title}{chosen})"

    def to_toml(self) -> dict[str, Any]:
        """The draft file's ``[[pick]]`` table for this pick (``note`` is the caller's)."""
        return {"side": self.side, "option": self.option.number, self.target.KEY: self.target.to_toml()}


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

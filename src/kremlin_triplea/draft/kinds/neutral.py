"""The neutral-takeover option (000 option 3, 001/002's neutral options): neutrals join a power with their armies."""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Iterator
from itertools import combinations
from typing import Any, ClassVar

import attrs

from kremlin_triplea.draft.choices import OptionChoices
from kremlin_triplea.draft.form import Answer, Answers, Field, Form, Unanswered, answered, answers_of
from kremlin_triplea.draft.kinds.base import DisplacedWords, OptionKind, register
from kremlin_triplea.draft.picks import Pick, PickTarget, refuse_repeats
from kremlin_triplea.draft.state import Displaced, DraftState, Outcome, Problem, describe_pairs
from kremlin_triplea.errors import and_more, possessive
from kremlin_triplea.model.changes import Change, PlaceUnits, RemoveUnits, SetOwner, SetTerritory
from kremlin_triplea.model.queries import Nearest, nearest
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.options import OptionParams
from kremlin_triplea.rules.roles import units_of_power
from kremlin_triplea.rules.ruleset import Option, Ruleset, neutral_value_words
from kremlin_triplea.rules.tomlfile import DataFileError, Section


@attrs.frozen
class NeutralTakeoverParams(OptionParams):
    """Neutrals join a power with their armies (000 option 3; 001/002's neutral options)."""

    KIND: ClassVar[str] = "neutral_takeover"
    KEYS: ClassVar[tuple[str, ...]] = ("count", "max_total_ipc", "navy_to", "navy_reason", "per_group", "production", "production_reason", "production_source")
    # "income": the rule that production = "table_value" carries out (a neutral's table value becomes its
    # production); kept with the option's other words, though no refusal quotes it.
    QUOTES: ClassVar[frozenset[str]] = frozenset({"neutral", "per_group", "max_total_ipc", "navy", "count", "income"})

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
            production=section.choice("production", ("table_value", "unchanged"), "table_value or unchanged", "table_value"),
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
            lines.append(f"  {neutral.name}: {neutral.value_words}, {army}" + (f" ({neutral.note})" if neutral.note else ""))
        if self.production == "unchanged":
            lines.append(f"production of a taken neutral: unchanged ({self.production_reason})")
        return lines

    def check_in(self, ruleset: Any, root: Section, option: Section) -> None:
        groups = {n.group for n in ruleset.neutrals.values()}
        if self.per_group:
            for group, _ in self.per_group:
                if group not in groups:
                    raise option.fail("per_group", f"groups of the [[neutral]] table ({', '.join(sorted(g for g in groups if g))})", group)
            for neutral in root.tables("neutral", []):
                if not neutral.has("group"):
                    name = neutral.data.get("name")
                    raise DataFileError(
                        f"neutral {name}: missing `group`; expected a `group` for every neutral (an option counts neutrals by group)", where=neutral.where
                    )
        if self.production == "table_value" and any(n.ipc is None for n in ruleset.neutrals.values()):
            raise option.fail("production", 'an `ipc` for every neutral (production = table_value), or production = "unchanged"', "a neutral without ipc")

    def rule_names(self, ruleset: Any) -> Iterator[tuple[str, str]]:
        for neutral in ruleset.neutrals.values():
            yield "places", neutral.name
            for unit, _ in neutral.army:
                yield "units", unit


@attrs.frozen
class NeutralTake:
    territory: str
    by: str
    navy_at: str | None = None

    @classmethod
    def list_from_toml(cls, section: Section, key: str, names: Names) -> tuple[NeutralTake, ...]:
        """``take = [{ neutral, by, navy_at }, ...]``."""
        takes = []
        entries = section.tables(key)
        for entry in entries:
            entry.only("neutral", "by", "navy_at")
            at = f"{entry.where}: {entry.key}"
            navy = entry.text("navy_at", None)
            takes.append(
                cls(names.territory(entry.text("neutral"), where=at), names.power(entry.text("by"), where=at), names.sea_zone(navy, where=at) if navy else None)
            )
        refuse_repeats(entries, [t.territory for t in takes], names.shown, "each neutral is taken over once")
        return tuple(takes)

    def to_toml(self) -> dict[str, Any]:
        return {"neutral": self.territory, "by": self.by} | ({"navy_at": self.navy_at} if self.navy_at else {})


@attrs.frozen
class NeutralTakes(PickTarget):
    """What a neutral takeover pick names: ``take = [{ neutral, by, navy_at }, ...]``."""

    KEY: ClassVar[str] = "take"

    takes: tuple[NeutralTake, ...]

    def to_toml(self) -> list[dict[str, Any]]:
        return [t.to_toml() for t in self.takes]


@attrs.frozen
class NeutralChoice:
    territory: str
    name: str  # as the rule text names it
    ipc: int | None  # None: the rule text gives no IPC value
    takers: tuple[tuple[str, tuple[str, ...]], ...]  # (power, sea zones its navy may go to; () if no navy)
    group: str | None = None  # "major" / "minor" where the option counts groups

    @property
    def value_words(self) -> str:
        return neutral_value_words(self.ipc, self.group)


@attrs.frozen
class NeutralChoices(OptionChoices):
    neutrals: tuple[NeutralChoice, ...] = ()
    neutral_pairs: tuple[tuple[str, str], ...] = ()  # the pairs the option allows together, where it takes two


def neutral_problem(state: DraftState, option: Option, side: str, territory: str, power: str) -> Problem | None:
    """Why ``power`` may not take over the neutral ``territory`` (None: it may)."""
    problem = state.power_problem(option, side, power)
    if problem is not None:
        return problem
    shown = state.names.shown(territory)
    neutral = state.neutrals.get(territory)
    if neutral is None:
        known = ", ".join(n.name for n in state.neutrals.values())
        return Problem(option.quote("neutral"), option.source, f"{shown} is not a neutral of the table ({known})")
    data = state.board.node(territory)
    # Untaken: impassable (AA50's neutrals, even British-held Saudi Arabia), unowned (classic maps' passable neutrals)
    # or held by a player of neither side (a map's neutral player: Oztea 1939 Global's Neutral_True, issue 46).
    if not data["impassable"] and data["owner"] is not None and state.side_of.get(data["owner"]) is not None:
        return Problem(option.quote("neutral"), option.source, f"{shown} has already been taken over (owner {data['owner']})")
    # A capital parked on a neutral (AA50's Chinese one in Mongolia) goes to its refuge only by the profile's
    # [capital_marker]; otherwise an enemy taker would hold it, a board no game starts from (model/invariants.py).
    capital, marker = data["capital"], state.profile.capital_marker
    moved = marker is not None and marker.at == territory and marker.power == capital
    if capital is not None and not moved and not state.board.catalog.allied(capital, power):
        return Problem(
            option.quote("neutral"),
            option.source,
            f"{shown} holds the capital of {capital}: no game starts with a capital in its enemy's hands (a map profile's [capital_marker] gives it a refuge)",
        )
    restriction = state.restrictions.get(power)
    if restriction is not None and restriction.neutrals and neutral.name not in restriction.neutrals:
        return Problem(restriction.rule, restriction.source, f"{power} may take over only {', '.join(restriction.neutrals)}, not {neutral.name}")
    return army_problem(state, option, territory, power) or state.lock_problem(side, territory)


def neutral_garrison(state: DraftState, territory: str) -> list[tuple[str | None, str, int]]:
    """(owner, unit, count) of the units the map puts in a neutral: owned by nobody or by a player of neither side."""
    units = state.board.units(territory)
    return [(owner, unit, n) for (owner, unit), n in sorted(units.items(), key=lambda kv: (kv[0][0] or "", kv[0][1])) if n and state.side_of.get(owner) is None]


def army_problem(state: DraftState, option: Option, territory: str, power: str) -> Problem | None:
    """Why the neutral's army cannot join ``power``: it joins as ``power``'s own units (issue 28), never another power's
    type, so a power the map gives none of one of them may not take it (WW2v6 1941 has no artillery). A neutral with no
    army in the table brings the map's garrison as it is: only to a power that can have those units."""
    neutral = state.neutrals[territory]
    if not neutral.army:
        can_have = units_of_power(state.board, power)
        foreign = sorted({unit for _, unit, _ in neutral_garrison(state, territory) if unit not in can_have})
        if foreign:
            return Problem(
                option.quote("neutral"), option.source, f"{possessive(neutral.name)} garrison cannot join {power}: {power} cannot have {', '.join(foreign)}"
            )
        return None
    problem = state.units_problem(option.quote("neutral"), option.source, power, (word for word, _ in neutral.army))
    return Problem(problem.rule, problem.source, f"{possessive(neutral.name)} army cannot join {power}: {problem.why}") if problem is not None else None


def neutral_set_problem(state: DraftState, option: Option, territories: list[str]) -> Problem | None:
    """Why these neutrals may not be taken together: the groups (one major, one minor) or the IPC limit."""
    params = option.params
    assert isinstance(params, NeutralTakeoverParams)
    neutrals = [state.neutrals[t] for t in territories]
    if params.per_group:
        taken = Counter(n.group for n in neutrals)
        wanted = Counter(dict(params.per_group))
        if taken != wanted:
            listed = ", ".join(f"{n.name} ({n.group})" for n in neutrals)
            needed = " and ".join(f"{count} {group}" for group, count in params.per_group)
            return Problem(option.quote("per_group"), option.source, f"{listed}: the option takes {needed}")
    if params.max_total_ipc is not None:
        total = sum(n.ipc or 0 for n in neutrals)
        if total > params.max_total_ipc:
            values = " + ".join(f"{n.name} {n.ipc}" for n in neutrals)
            return Problem(option.quote("max_total_ipc"), option.source, f"{values} = {total} IPCs, more than {params.max_total_ipc}")
    return None


def neutral_army(state: DraftState, territory: str, power: str) -> list[tuple[str, int]]:
    """The neutral's army as ``power``'s unit types (game unit names and counts); :func:`neutral_problem` checks it has them."""
    return state.own_units(state.neutrals[territory].army, power)


def neutral_navy(state: DraftState, territory: str, power: str) -> list[tuple[str, int]]:
    """The neutral's naval units as ``power``'s (game unit names and counts)."""
    return [(u, n) for u, n in neutral_army(state, territory, power) if state.board.catalog.unit_type(u).is_ship]


def navy_destinations(state: DraftState, territory: str, power: str) -> Nearest:
    """The nearest sea zones (over sea) holding no units of an enemy of ``power``."""
    enemies = state.facts().enemy_places(power)
    board = state.board
    return nearest(board, territory, lambda z: board.is_water(z) and z not in enemies, via="sea")


def navy_problem(state: DraftState, option: Option, territory: str, power: str, navy_at: str | None) -> Problem | None:
    """Why the pick's ``navy_at`` cannot be, whatever the board after the bid: the neutral has no ships."""
    if navy_at is not None and not neutral_navy(state, territory, power):
        shown = state.names.shown(territory)
        return Problem(option.quote("navy"), option.source, f"{shown} has no naval units, so navy_at = {navy_at!r} does not apply")
    return None


def apply_neutral_takeover(state: DraftState, pick: Pick) -> Outcome:
    option = pick.option
    params = option.params
    assert isinstance(params, NeutralTakeoverParams)
    target = pick.target
    assert isinstance(target, NeutralTakes)
    territories = [t.territory for t in target.takes]
    if len(target.takes) != params.count or len(set(territories)) != len(territories):
        raise Problem(
            option.quote("count"), option.source, f"the pick takes over {len(set(territories))} different neutral(s); the option takes exactly {params.count}"
        ).violation(pick.label)
    for take in target.takes:
        problem = neutral_problem(state, option, pick.side, take.territory, take.by) or navy_problem(state, option, take.territory, take.by, take.navy_at)
        if problem is not None:
            raise problem.violation(pick.label)
    problem = neutral_set_problem(state, option, territories)
    if problem is not None:
        raise problem.violation(pick.label)
    changes: list[Change] = []
    lines: list[str] = []
    affected: set[str] = set()
    displaced: list[Displaced] = []
    for take in target.takes:
        territory, neutral = take.territory, state.neutrals[take.territory]
        changes.append(SetOwner(territory, take.by, captured=False))
        facts = []
        if params.production == "table_value" and neutral.ipc is not None:
            changes.append(SetTerritory(territory, "production", neutral.ipc))
            facts.append(f"production {neutral.ipc}")
        else:
            facts.append(f"production unchanged ({params.production_reason})" if params.production_reason else "production unchanged")
        if state.board.node(territory)["impassable"]:
            changes.append(SetTerritory(territory, "impassable", False))
            facts.append("no longer impassable")
        affected.add(territory)
        army = neutral_army(state, territory, take.by)
        # "you take over their armies as well" (000 option 3): the garrison the map puts there (neutral-owned units)
        # is no longer the neutral's. The army of the ruleset's neutral table stands for it where the table gives
        # one; a neutral found on the map (no table army) brings its garrison as it is (issue 46: the garrison stayed
        # neutral-owned inside the taker's territory).
        garrison = neutral_garrison(state, territory)
        changes += [RemoveUnits(territory, owner, unit, n) for owner, unit, n in garrison]
        if not neutral.army:
            army = [(unit, n) for _, unit, n in garrison]
        elif garrison:
            facts.append(f"its garrison on the map ({', '.join(f'{n} {u}' for _, u, n in garrison)}) gives way to the rule's army")
        on_land = [(u, n) for u, n in army if not state.board.catalog.unit_type(u).is_ship]
        at_sea = [(u, n) for u, n in army if state.board.catalog.unit_type(u).is_ship]
        changes += [PlaceUnits(territory, take.by, u, n) for u, n in on_land]
        line = f"{state.names.shown(territory)} joins {take.by}: {', '.join(facts)}, army {describe_pairs(on_land)}"
        if at_sea:
            # "place it in the nearest friendly sea zone": declared after the bid, on the board as it then stands (000 A).
            # The navy is one group: one navy_at per neutral in the draft file, one place for all its ships.
            (unit, count), *more = at_sea
            displaced.append(
                Displaced(pick.index, pick.label, "navy", territory, take.by, unit, count, pick.side, option.quote("navy"), option.source, tuple(more))
            )
        lines.append(line)
        marker = state.profile.capital_marker
        if marker is not None and marker.at == territory and state.board.node(territory)["capital"] == marker.power:
            changes += [SetTerritory(territory, "capital", None), SetTerritory(marker.refuge, "capital", marker.power)]
            lines.append(f"the {marker.power} capital marker moves from {territory} to {marker.refuge} ({marker.reason})")
    return Outcome(tuple(changes), frozenset(affected), tuple(lines), displaced=tuple(displaced))


def next_neutral_problem(state: DraftState, option: Option, side: str, territory: str, taken: tuple[str, ...]) -> Problem | None:
    """Why the side may not take ``territory`` as its next neutral after ``taken`` (the neutral's rules, then the set's)."""
    params = option.params
    assert isinstance(params, NeutralTakeoverParams)
    found = [neutral_problem(state, option, side, territory, power) for power in state.side_powers[side]]
    problem = None if any(p is None for p in found) else (found[0] if found else None)
    if problem is not None or territory not in state.neutrals:
        return problem
    together = [list(c) for c in combinations(sorted(state.neutrals), params.count) if {*taken, territory} <= set(c)]
    problems = [neutral_set_problem(state, option, c) for c in together]
    return problems[0] if problems and all(problems) else None


def neutral_form(state: DraftState, choices: NeutralChoices, side: str) -> Form:
    """One neutral and the power it joins per neutral the option takes; the terminal offers only neutrals that keep a legal set open.

    Where a neutral's ships go is declared after the bid (000 A "Order of action" 1), not here.
    """
    option = choices.option
    params = option.params
    assert isinstance(params, NeutralTakeoverParams)
    by_territory = {n.territory: n for n in choices.neutrals}
    # Every set of neutrals the option allows together; each answer keeps at least one open.
    allowed = [combo for combo in combinations(sorted(by_territory), params.count) if neutral_set_problem(state, option, list(combo)) is None]
    powers = list(dict.fromkeys(p for n in choices.neutrals for p, _ in n.takers))

    def shown(territory: str) -> Answer:
        neutral = by_territory[territory]
        names = (neutral.name, territory) if neutral.name != territory else (territory,)
        return Answer(territory, names, neutral.name + (f" [{territory}]" if territory != neutral.name else "") + f" {neutral.value_words}")

    def neutral_asked(answers: Answers, n: int) -> Field:
        taken = tuple(answers[f"neutral.{k}"] for k in range(n))
        open_sets = [c for c in allowed if set(taken) <= set(c)]
        candidates = sorted({t for c in open_sets for t in c} - set(taken))
        return Field(
            f"neutral.{n}",
            f"neutral {n + 1} of {params.count}",
            tuple(shown(t) for t in candidates),
            place=True,
            refuse=lambda place: next_neutral_problem(state, option, side, place, taken),
        )

    def taker_asked(answers: Answers, n: int) -> Field:
        neutral = by_territory[answers[f"neutral.{n}"]]
        takers = dict(neutral.takers)

        def navy(answers: Answers) -> list[str]:
            zones = takers[answers[f"by.{n}"]]
            return [f"its navy goes to a nearest friendly sea zone (now {', '.join(zones)}): the {side} declare which after the bid"] if zones else []

        alone = f"{neutral.name} joins {next(iter(takers))}"
        return Field(f"by.{n}", f"{neutral.name} joins which power", answers_of(list(takers)), alone=alone, resolve=state.names.power, then=navy)

    fields = []
    for n in range(params.count):
        group = f"Neutral {n + 1}"
        fields += [
            Field(
                f"neutral.{n}",
                "",
                tuple(shown(t) for t in by_territory),
                place=True,
                group=group,
                narrowed=lambda answers, n=n: neutral_asked(answers, n),
            ),
            Field(f"by.{n}", "joins", answers_of(powers), group=group, narrowed=lambda answers, n=n: taker_asked(answers, n)),
        ]

    def read(answers: Answers) -> list[dict[str, Any]]:
        takes = [{"neutral": answers[f"neutral.{n}"], "by": answered(answers, f"by.{n}")} for n in range(params.count) if answers.get(f"neutral.{n}")]
        if not takes:
            raise Unanswered("choose the neutrals")
        return takes

    return Form(tuple(fields), read)


@register
class NeutralTakeover(OptionKind):
    """Neutrals join a power of the side with their armies (``take = [...]``)."""

    name = "neutral_takeover"
    params = NeutralTakeoverParams
    target = NeutralTakes
    displaces = ("navy",)  # a neutral's ships

    def parse_target(self, section: Section, names: Names, ruleset: Ruleset) -> NeutralTakes:
        return NeutralTakes(NeutralTake.list_from_toml(section, NeutralTakes.KEY, names))

    def choices(self, state: DraftState, option: Option, side: str, powers: list[str]) -> OptionChoices:
        params = option.params
        assert isinstance(params, NeutralTakeoverParams)
        choices = []
        armies = []  # why a neutral's army could join none of the powers (said when no neutral may be taken)
        for territory, neutral in state.neutrals.items():
            takers = []
            for power in powers:
                if neutral_problem(state, option, side, territory, power) is not None:
                    continue
                # Where its ships would go now (shown to players; declared after the bid).
                takers.append((power, navy_destinations(state, territory, power).matches if neutral_navy(state, territory, power) else ()))
            if takers:
                choices.append(NeutralChoice(territory, neutral.name, neutral.ipc, tuple(takers), neutral.group))
            elif powers and all(army_problem(state, option, territory, power) for power in powers):
                armies.append(army_problem(state, option, territory, powers[0]).why)  # type: ignore[union-attr]
        pairs = (
            tuple(
                (a.territory, b.territory)
                for a, b in combinations(choices, params.count)
                if neutral_set_problem(state, option, [a.territory, b.territory]) is None
            )
            if params.count == 2
            else ()
        )
        # One neutral a pick: any neutral with a taker; two: a pair the option allows together (picks yields those).
        possible = pairs if params.count == 2 else choices if params.count == 1 else ()
        why = f"no {params.count} neutrals the option allows together can be taken by the {side}"
        unavailable = None if possible else why + (f": {armies[0]}{and_more(armies)}" if armies else "")
        return NeutralChoices(option, unavailable=unavailable, neutrals=tuple(choices), neutral_pairs=pairs)

    def describe_choices(self, choices: OptionChoices) -> list[str]:
        assert isinstance(choices, NeutralChoices)
        lines = []
        for neutral in choices.neutrals:
            takers = "; ".join(f"{p}" + (f" (navy, declared after the bid; now {' or '.join(z)})" if z else "") for p, z in neutral.takers)
            lines.append(f"  {neutral.name} [{neutral.territory}] {neutral.value_words}, by {takers}")
        if choices.neutral_pairs:
            lines.append(f"  {len(choices.neutral_pairs)} legal pairs")
        return lines

    def picks(self, state: DraftState, choices: OptionChoices, side: str, index: int) -> Iterator[tuple[str, Pick]]:
        """Each neutral and taker (its navy's zone is declared after the bid), with a partner from the enumeration's legal pairs."""
        assert isinstance(choices, NeutralChoices)
        option = choices.option
        count = option.params.count  # type: ignore[union-attr]
        by_territory = {n.territory: n for n in choices.neutrals}
        for neutral in choices.neutrals:
            others: tuple[NeutralTake, ...] = ()
            if count == 2:
                partners = sorted({b if a == neutral.territory else a for a, b in choices.neutral_pairs if neutral.territory in (a, b)})
                if not partners:
                    continue
                # A partner that varies with the neutral, so more picks share a written file.
                partner = by_territory[partners[zlib.crc32(neutral.territory.encode()) % len(partners)]]
                others = (NeutralTake(partner.territory, partner.takers[0][0]),)
            elif count != 1:
                continue  # the enumeration lists pairs only
            for power, _ in neutral.takers:
                yield f"{power} take {neutral.name}", Pick(index, side, option, NeutralTakes((NeutralTake(neutral.territory, power), *others)))

    def apply(self, state: DraftState, pick: Pick) -> Outcome:
        return apply_neutral_takeover(state, pick)

    def form(self, state: DraftState, choices: OptionChoices, side: str, index: int) -> Form:
        assert isinstance(choices, NeutralChoices)
        return neutral_form(state, choices, side)

    def destinations(self, state: DraftState, displaced: Displaced) -> Nearest:
        return navy_destinations(state, displaced.origin, displaced.owner)

    def declared(self, pick: Pick, displaced: Displaced) -> str | None:
        takes = pick.target.takes if isinstance(pick.target, NeutralTakes) else ()
        return next((take.navy_at for take in takes if take.territory == displaced.origin), None)

    def write_declaration(self, entry: dict[str, Any], displaced: Displaced, to: str, names: Names) -> None:
        """``navy_at`` of the neutral in the entry's ``take``."""
        for take in entry["take"]:
            if names.territory(take["neutral"]) == displaced.origin:
                take["navy_at"] = to

    def displaced_words(self, displaced: Displaced) -> DisplacedWords:
        return DisplacedWords("navy", "navy to", "sea zones without enemy units", "cannot be placed (no sea zone can be reached)")

    def placed_line(self, state: DraftState, displaced: Displaced, place: str) -> str:
        return f"navy {', '.join(f'{n} {u}' for u, n in displaced.units())} to {state.names.shown(place)}"

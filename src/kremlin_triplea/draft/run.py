"""A Kremlin draft: the host's file of picks and the bid, checked and applied in order.

The file (TOML)::

    ruleset = "kremlin-aa50"
    game = "world_war_ii_v3/WW2v3-1941.xml"   # map/game, or a path (relative to the draft)
    first = "Axis"
    picks_per_side = 4

    [[pick]]
    side = "Axis"
    option = 1                                   # number in the rule text, or the id
    place = [{ power = "Germans", unit = "infantry", count = 3, at = "Finland" }]

    [[pick]]
    side = "Allies"
    option = 3
    take = [{ neutral = "Sweden", by = "Russians" }, { neutral = "Venezuela", by = "Americans", navy_at = "20 Sea Zone" }]

    [[pick]]
    side = "Axis"
    option = 10
    takeover = { territory = "Archangel", by = "Germans", retreat = [{ to = "Russia" }] }

    [bid]
    axis = 11
    place = [{ power = "Germans", unit = "artillery", count = 1, at = "Libya" }]
    # or, for a negative bid: allocate = { Russians = 6, British = 5 }
    # rulesets whose negative bid removes Axis units (kremlin-classic, kremlin-daak):
    #   axis = -8, remove = [{ power = "Germans", unit = "armour", count = 1, at = "West Europe" }, ...]
    # a positive bid left to TripleA's own bid phase (kremlin-daak): phase = { Germans = 6, Japanese = 4 }

Every pick sees the board as changed by all earlier picks.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from kremlin_triplea.model.changes import Change, SetGameName, SetProperty
from kremlin_triplea.errors import RuleViolation
from kremlin_triplea.game import Game, load
from kremlin_triplea.draft.kinds import (
    APPLY,
    BidSpec,
    DraftState,
    NeutralTake,
    Outcome,
    Pick,
    Retreat,
    TakeoverSpec,
    UnitPlacement,
    apply_bid,
)
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.profile import Profile, fit_ruleset, profile_for_game
from kremlin_triplea.rules.ruleset import Ruleset, load_named_ruleset
from kremlin_triplea.rules.game_rules import AppliedRules, RuleSet
from kremlin_triplea.rules.scenarios import find_scenario
from kremlin_triplea.rules.tomlfile import DataFileError, Section, read_toml

if TYPE_CHECKING:
    from kremlin_triplea.rules.house_rules import HouseSelection


@attrs.frozen
class Draft:
    path: str
    ruleset: str | None  # None: a draft of house rules only
    game: str | None
    first: str
    picks_per_side: int | None
    picks: tuple[Section, ...] = attrs.field(eq=False)
    bid: Section | None = attrs.field(eq=False)
    house_rules: tuple[str, ...] = ()  # further rule sets (rulesets/house-*.toml) written into the game
    choices: tuple[str, ...] = ()  # the draft's choices that rules' when/unless name
    # Per house set: its switches, advantages (power = id or number), what they leave to choose, seed.
    house_rule_choices: dict[str, Section] = attrs.field(factory=dict, eq=False)
    profile: str | None = None  # a map profile file named by the draft (`profile = "x.toml"`), resolved against its folder


def read_draft(path: Path | str) -> Draft:
    path = Path(path)
    root = Section(read_toml(path), str(path))
    return draft_from_data(root)


def draft_from_data(root: Section) -> Draft:
    root.only("ruleset", "game", "first", "picks_per_side", "pick", "bid", "house_rules", "choices", "house_rule_choices", "profile")
    profile = root.text("profile", None)
    if profile is not None and not Path(profile).is_absolute():
        profile = str(Path(root.file).parent / profile)
    house_rules = tuple(root.texts("house_rules", []))
    house_choices = root.table("house_rule_choices", None)
    per_set = {name: house_choices.table(name) for name in house_choices.data} if house_choices is not None else {}
    for name in per_set:
        if name not in house_rules:
            raise house_choices.fail(name, f"choices for a set the draft lists in house_rules ({', '.join(house_rules) or 'none'})", name)
    if not root.has("ruleset"):
        # House rules only: no Kremlin ruleset, so no picks and no bid.
        if not house_rules:
            raise root.fail("ruleset", "a Kremlin ruleset, or house_rules for a draft of house rules only")
        for key in ("first", "picks_per_side", "pick", "bid"):
            if root.has(key):
                raise root.fail(key, "nothing: a draft of house rules only has no picks and no bid")
        return Draft(path=root.file, ruleset=None, game=root.text("game", None), first="", picks_per_side=None, picks=(), bid=None,
                     house_rules=house_rules, choices=tuple(root.texts("choices", [])), house_rule_choices=per_set, profile=profile)
    return Draft(
        path=root.file,
        ruleset=root.text("ruleset"),
        game=root.text("game", None),
        first=root.text("first"),
        picks_per_side=root.integer("picks_per_side", None),
        picks=tuple(root.tables("pick", [])),
        bid=root.table("bid", None),
        house_rules=house_rules,
        choices=tuple(root.texts("choices", [])),
        house_rule_choices=per_set,
        profile=profile,
    )


@attrs.frozen
class AppliedPick:
    pick: Pick
    outcome: Outcome


@attrs.frozen
class DraftResult:
    """A draft applied: the game (its board changed), each pick's outcome, the bid's, warnings."""

    game: Game
    ruleset: Ruleset
    profile: Profile
    picks: tuple[AppliedPick, ...]
    bid: Outcome | None
    bid_spec: BidSpec | None
    warnings: tuple[str, ...]
    state: DraftState = attrs.field(eq=False)
    rules: AppliedRules | None = None  # the rule sets' rules: written into the game, or for the players
    house: tuple[HouseSelection, ...] = ()  # the house sets' advantages and switches, as chosen or drawn

    @property
    def changes(self) -> list[Change]:
        """Every primitive change of the picks and the bid, in order (notes and name excluded)."""
        found = [change for applied in self.picks for change in applied.outcome.changes]
        return found + (list(self.bid.changes) if self.bid is not None else [])

    def summary(self) -> list[str]:
        lines = [f"{self.game.board.game_name}: ruleset {self.ruleset.id}, map profile {self.profile.map}"]
        for applied in self.picks:
            lines.append(applied.pick.label + ":")
            lines += [f"  {line}" for line in applied.outcome.lines]
        if self.bid is not None:
            lines.append("bid:")
            lines += [f"  {line}" for line in self.bid.lines]
        if self.house:
            from kremlin_triplea.rules.house_rules import selection_lines

            lines += selection_lines(self.house)
        if self.rules is not None and self.rules.game_lines:
            lines.append("written into the game:")
            lines += [f"  {line}" for line in self.rules.game_lines]
        if self.rules is not None and self.rules.players:
            lines.append(f"{len(self.rules.players)} rules the players enforce themselves: listed in the game notes")
        return lines


def open_game(draft: Draft, game: str | None = None, maps_dir: Path | str | None = None) -> Game:
    spec = game or draft.game
    if spec is None:
        raise DataFileError("game: missing; name the game in the draft or with --game", where=draft.path)
    candidate = Path(spec)
    if not candidate.is_absolute() and (Path(draft.path).parent / candidate).is_file():
        spec = str(Path(draft.path).parent / candidate)
    return load(spec, maps_dir=maps_dir)


class DraftRun:
    """Applies a draft's picks one at a time (``apply`` and ``legal`` share it)."""

    def __init__(self, draft: Draft, game: Game, *, ruleset: Ruleset | None = None, profile: Profile | None = None) -> None:
        self.draft = draft
        self.game = game
        if draft.ruleset is None and ruleset is None:
            raise DataFileError("a draft of house rules only has no picks: nothing to choose or check pick by pick", where=draft.path)
        self.ruleset = ruleset or load_named_ruleset(draft.ruleset)
        self.profile = profile or profile_for_game(game, draft.profile)
        # Names the profile leaves [unmatched]: the neutrals, restrictions and exclusions they are in do not apply here.
        self.ruleset, left_out = fit_ruleset(self.ruleset, self.profile)
        warnings = self.profile.check_base_file(game) + list(left_out)
        if self.profile.rulesets and self.ruleset.id not in self.profile.rulesets:
            warnings.append(f"the map profile {self.profile.path} was written for the rulesets {', '.join(self.profile.rulesets)}, not {self.ruleset.id}")
        self.warnings = tuple(warnings)
        self.names = Names(game.board, self.profile, self.ruleset.sides)
        self.state = DraftState(game.board, self.ruleset, self.profile, self.names)
        picks = self.ruleset.picks
        self.first = self.names.side(draft.first, where=f"{draft.path}: first")
        self.second = next(s for s in self.ruleset.sides if s != self.first)
        self.picks_per_side = picks.default if draft.picks_per_side is None else draft.picks_per_side
        if not picks.min <= self.picks_per_side <= (picks.max or self.picks_per_side):
            allowed = f"{picks.min} to {picks.max}" if picks.max else f"at least {picks.min}"
            raise RuleViolation(
                "picks_per_side", f"{self.picks_per_side} picks per side; the rules allow {allowed}",
                rule=picks.rule, source=picks.source, where=draft.path,
            )
        self.applied: list[AppliedPick] = []

    @property
    def total_picks(self) -> int:
        return 2 * self.picks_per_side

    def side_to_pick(self, index: int) -> str:
        """The side making pick ``index`` (1-based): they alternate, ``first`` starting."""
        return self.first if index % 2 == 1 else self.second

    def parse_pick(self, index: int, section: Section) -> Pick:
        names = self.names
        section.only("side", "option", "place", "take", "takeover", "scenario", "note")
        where = f"{section.file}: {section.key}"
        picks = self.ruleset.picks
        label = f"pick {index}"
        if index > self.total_picks:
            raise RuleViolation(label, f"the draft has more than {self.picks_per_side} picks per side", rule=picks.rule, source=picks.source, where=section.file)
        side = names.side(section.text("side"), where=where)
        expected = self.side_to_pick(index)
        if side != expected:
            raise RuleViolation(f"{label} ({side})", f"it is the {expected}' turn to pick ({self.first} pick first, then the sides alternate)", rule=picks.alternate_rule, source=picks.source, where=section.file)
        raw_option = section.get("option", "an option number or id", lambda v: isinstance(v, (int, str)) and not isinstance(v, bool))
        option = self.ruleset.option(raw_option)
        if self.state.already_used(side, option.number):
            raise RuleViolation(f"{label} ({side}, option {option.number} {option.title})", f"the {side} already took option {option.number}" + (f" in this set of {picks.no_repeat_per} picks" if picks.no_repeat_per else ""), rule=option.quotes.get("one_per_side", picks.no_repeat_rule), source=picks.no_repeat_source if "one_per_side" not in option.quotes else option.source, where=section.file)
        wanted = {"placement": "place", "neutral_takeover": "take", "territory_takeover": "takeover", "scenario": "scenario"}[option.kind]
        for other in ("place", "take", "takeover", "scenario"):
            if other != wanted and section.has(other):
                raise section.fail(other, f"`{wanted}` for option {option.number} ({option.kind}), not `{other}`")
        pick = Pick(index=index, side=side, option=option)
        if wanted == "scenario":
            return attrs.evolve(pick, scenario=find_scenario(self.ruleset, section.text("scenario"), where=where))
        if wanted == "place":
            return attrs.evolve(pick, placements=self.parse_placements(section, "place"))
        if wanted == "take":
            takes = []
            for entry in section.tables("take"):
                entry.only("neutral", "by", "navy_at")
                at = f"{entry.file}: {entry.key}"
                navy = entry.text("navy_at", None)
                takes.append(NeutralTake(names.territory(entry.text("neutral"), where=at), names.power(entry.text("by"), where=at), names.sea_zone(navy, where=at) if navy else None))
            return attrs.evolve(pick, takes=tuple(takes))
        spec = section.table("takeover")
        spec.only("territory", "by", "retreat")
        at = f"{spec.file}: {spec.key}"
        retreats = []
        for entry in spec.tables("retreat", []):
            entry.only("to", "power", "unit")
            here = f"{entry.file}: {entry.key}"
            power = entry.text("power", None)
            unit = entry.text("unit", None)
            retreats.append(Retreat(names.territory(entry.text("to"), where=here), names.power(power, where=here) if power else None, names.unit(unit, where=here) if unit else None))
        return attrs.evolve(pick, takeover=TakeoverSpec(names.territory(spec.text("territory"), where=at), names.power(spec.text("by"), where=at), tuple(retreats)))

    def parse_placements(self, section: Section, key: str) -> tuple[UnitPlacement, ...]:
        placements = []
        for entry in section.tables(key):
            entry.only("power", "unit", "count", "at")
            at = f"{entry.file}: {entry.key}"
            count = entry.integer("count", 1)
            if count < 1:
                raise entry.fail("count", "a positive whole number", count)
            placements.append(UnitPlacement(self.names.power(entry.text("power"), where=at), self.names.unit(entry.text("unit"), where=at), count, self.names.place(entry.text("at"), where=at)))
        return tuple(placements)

    def apply_pick(self, pick: Pick) -> Outcome:
        """Check ``pick`` on the current board and push its changes (all or nothing)."""
        outcome = APPLY[pick.option.kind](self.state, pick)
        self.game.board.push_all(list(outcome.changes))
        self.state.record(pick.side, pick.index, outcome)
        self.state.used[pick.side].append(pick.option.number)
        self.applied.append(AppliedPick(pick, outcome))
        return outcome

    def apply_picks(self) -> None:
        for index, section in enumerate(self.draft.picks, start=1):
            self.apply_pick(self.parse_pick(index, section))

    def check_complete(self) -> None:
        picks = self.ruleset.picks
        done = len(self.applied)
        if done != self.total_picks:
            next_side = self.side_to_pick(done + 1)
            raise RuleViolation(
                "draft", f"{done} picks made; {self.picks_per_side} per side means {self.total_picks} (next: the {next_side})",
                rule=picks.alternate_rule, source=picks.source, where=self.draft.path,
            )

    def parse_bid(self) -> BidSpec | None:
        section = self.draft.bid
        if section is None:
            return None
        placing = self.ruleset.bid.placing_side.lower()
        section.only(placing, "place", "allocate", "remove", "phase")
        amount = section.integer(placing)
        pus = lambda v: isinstance(v, dict) and all(isinstance(n, int) and not isinstance(n, bool) for n in v.values())  # noqa: E731
        allocate = section.get("allocate", "a table of power = PUs", pus, {})
        phase = section.get("phase", "a table of power = PUs for TripleA's bid phase", pus, {})
        where = f"{section.file}: {section.key}"
        return BidSpec(
            amount=amount,
            placements=self.parse_placements(section, "place") if section.has("place") else (),
            allocate=tuple((self.names.power(p, where=f"{where}.allocate"), n) for p, n in allocate.items()),
            removals=self.parse_placements(section, "remove") if section.has("remove") else (),
            phase=tuple((self.names.power(p, where=f"{where}.phase"), n) for p, n in phase.items()),
        )

    def apply_bid(self, bid: BidSpec) -> Outcome:
        outcome = apply_bid(self.state, bid)
        self.game.board.push_all(list(outcome.changes))
        return outcome


def apply_draft(
    draft: Draft,
    game: Game | None = None,
    *,
    game_spec: str | None = None,
    maps_dir: Path | str | None = None,
    ruleset: Ruleset | None = None,
    profile: Profile | None = None,
    write_notes: bool = True,
) -> DraftResult:
    """Check the whole draft and apply it to ``game``'s board (loaded from the draft if not given).

    Raises ``RuleViolation`` at the first pick that breaks a rule; the game's
    board is then left as the earlier picks made it.
    """
    from kremlin_triplea.report.notes import game_name, notes_html

    from kremlin_triplea.rules.house_rules import apply_house_rules, house_rule_changes, read_choices

    game = game or open_game(draft, game_spec, maps_dir)
    house = [read_choices(name, draft.house_rule_choices.get(name)) for name in draft.house_rules]
    if draft.ruleset is None:
        return apply_house_rules(game, house, draft.choices, write_notes=write_notes)  # type: ignore[return-value]
    run = DraftRun(draft, game, ruleset=ruleset, profile=profile)
    run.apply_picks()
    run.check_complete()
    bid_spec = run.parse_bid()
    bid = run.apply_bid(bid_spec) if bid_spec is not None else None
    # The rule sets' game-file actions come last: they act on the board the picks and the bid made.
    own = RuleSet(run.ruleset.id, run.ruleset.title, run.ruleset.source, run.ruleset.path, run.ruleset.game_rules)
    rules, selections = house_rule_changes(game.board, run.profile, run.names, house, before=(own,), flags=draft.choices)
    game.board.push_all(list(rules.changes))
    result = DraftResult(game, run.ruleset, run.profile, tuple(run.applied), bid, bid_spec, run.warnings, run.state, rules, selections)
    if write_notes:
        board = game.board
        board.push(SetProperty("notes", notes_html(result) + board.properties.get("notes", "")))
        board.push(SetGameName(game_name(result)))
    return result


def draft_from_dict(data: dict[str, Any], path: str = "<draft>") -> Draft:
    """A draft from already parsed data (tests, the benchmark)."""
    return draft_from_data(Section(data, path))

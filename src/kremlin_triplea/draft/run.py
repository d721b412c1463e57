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

Every pick sees the board as changed by all earlier picks. The units the picks displaced (an enemy
territory's defenders, a neutral's ships) are placed after the picks, before the bid's units, where each
pick's entry says or at their one nearest place (000 A "Order of action"; :mod:`kremlin_triplea.draft.declare`).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import attrs

from kremlin_triplea.draft.choices import OptionChoices
from kremlin_triplea.draft.declare import declare, label
from kremlin_triplea.draft.invariants import board_problems, new_problems, touched_places
from kremlin_triplea.draft.kinds import KINDS, Displaced, DraftState, Outcome, Pick, displacing_kind
from kremlin_triplea.draft.kinds.bid import apply_bid
from kremlin_triplea.draft.picks import BidSpec, UnitPlacement
from kremlin_triplea.draft.rulesets import load_named_ruleset
from kremlin_triplea.errors import KremlinError, RuleViolation
from kremlin_triplea.game import Game, load
from kremlin_triplea.gamefile.locate import native_path, resolve_game
from kremlin_triplea.gamerules.actions import AppliedRules
from kremlin_triplea.gamerules.house import (
    HouseSelection,
    selection_lines,
)
from kremlin_triplea.model.changes import Change
from kremlin_triplea.rules.datafiles import check_file_kind, find_data_file, rule_file_kind
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.profile import Profile, fit_ruleset, profile_for_game
from kremlin_triplea.rules.ruleset import Option, Ruleset
from kremlin_triplea.rules.tomlfile import DataFileError, Section


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
    root: Section | None = attrs.field(default=None, eq=False, repr=False)  # the file as read: where each key is

    def where_of(self, key: str) -> str:
        """The draft file and the line of its top-level ``key`` (``draft.toml:14``)."""
        return self.root.where_of(key) if self.root is not None else self.path

    def locate(self, key: str) -> str:
        """Where the draft's top-level ``key`` is (``draft.toml:14: game``), for errors about its value."""
        return f"{self.where_of(key)}: {key}"


def read_draft(path: Path | str) -> Draft:
    # Counted: errors say "pick 1, place 2" and the file's line, as players read the draft.
    return draft_from_data(Section.read(Path(path), counted=True))


def _beside_draft(root: Section, name: str) -> str:
    """A rule file the draft names by a relative path (``my-rules.toml``) is looked for beside the draft first, like its game and profile."""
    path = Path(native_path(name, Path(root.file).parent))
    # Anything of that name beside the draft is the one meant: a folder there is refused as a folder, not looked for elsewhere.
    if path.suffix == ".toml" and not path.is_absolute() and os.path.lexists(Path(root.file).parent / path):
        return str(Path(root.file).parent / path)
    return name


def draft_from_data(root: Section) -> Draft:
    check_file_kind(root.data, root.file, "draft")
    root.only("ruleset", "game", "first", "picks_per_side", "pick", "bid", "house_rules", "choices", "house_rule_choices", "profile")
    profile = root.text("profile", None)
    if profile is not None:
        profile = native_path(profile, Path(root.file).parent)
    if profile is not None and not Path(profile).is_absolute():
        profile = str(Path(root.file).parent / profile)
    if profile is not None and Path(profile).is_dir():
        raise DataFileError(f"profile: {profile}: a folder, not a map profile; name the profile's .toml file", where=root.where_of("profile"))
    if profile is not None and not Path(profile).is_file():
        raise DataFileError(f"profile: {profile}: no such file (a map profile is looked for beside the draft)", where=root.where_of("profile"))
    written = root.texts("house_rules", [])
    for key in ("house_rules", "choices"):  # a set listed twice was applied twice (its rules twice in the notes)
        listed = root.texts(key, [])
        repeated = next((name for position, name in enumerate(listed) if name in listed[:position]), None)
        if repeated is not None:
            raise DataFileError(f"{key}: {repeated} again; list each once", where=root.where_of(key))
    beside = {name: _beside_draft(root, name) for name in written}
    house_rules = tuple(beside[name] for name in written)
    for name in house_rules:  # an unknown set, or a ruleset listed as one, is refused where the draft names it
        if rule_file_kind(find_data_file("rulesets", name, where=root.locate("house_rules"))) != "house":
            raise DataFileError(
                f"house_rules: {name} is a Kremlin ruleset (it has bonus options), not a house-rule set; a draft names it as `ruleset`",
                where=root.where_of("house_rules"),
            )
    house_choices = root.table("house_rule_choices", None)
    per_set = {}
    for name in house_choices.data if house_choices is not None else ():
        if name not in beside:
            raise house_choices.fail(name, f"choices for a set the draft lists in house_rules ({', '.join(written) or 'none'})", name)
        per_set[beside[name]] = house_choices.table(name)
    if not root.has("ruleset"):
        # House rules only: no Kremlin ruleset, so no picks and no bid.
        if not house_rules:
            raise root.fail("ruleset", "a Kremlin ruleset, or house_rules for a draft of house rules only")
        for key in ("first", "picks_per_side", "pick", "bid"):
            if root.has(key):
                raise root.fail(key, "nothing: a draft of house rules only has no picks and no bid")
        return Draft(
            path=root.file,
            ruleset=None,
            game=root.text("game", None),
            first="",
            picks_per_side=None,
            picks=(),
            bid=None,
            house_rules=house_rules,
            choices=tuple(root.texts("choices", [])),
            house_rule_choices=per_set,
            profile=profile,
            root=root,
        )
    return Draft(
        path=root.file,
        ruleset=_beside_draft(root, root.text("ruleset")),
        game=root.text("game", None),
        first=root.text("first"),
        picks_per_side=root.integer("picks_per_side", None),
        picks=tuple(root.tables("pick", [])),
        bid=root.table("bid", None),
        house_rules=house_rules,
        choices=tuple(root.texts("choices", [])),
        house_rule_choices=per_set,
        profile=profile,
        root=root,
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
    players: dict[str, str] = attrs.field(factory=dict, eq=False)  # side -> player, as the picks' notes record them
    choices: tuple[str, ...] = ()  # the draft's choices (e.g. "unrestricted_russia")
    # Where the displaced units went, declared after the bid and placed before its units (000 A).
    declarations: tuple[tuple[Displaced, Outcome], ...] = ()

    @property
    def changes(self) -> list[Change]:
        """Every primitive change of the picks, the declarations and the bid, in order (notes and name excluded)."""
        found = [change for applied in self.picks for change in applied.outcome.changes]
        found += [change for _, outcome in self.declarations for change in outcome.changes]
        return found + (list(self.bid.changes) if self.bid is not None else [])

    def declaration_lines(self) -> list[str]:
        """Where each displaced group went, named by the pick that displaced it."""
        return [f"pick {displaced.pick}: {line}" for displaced, outcome in self.declarations for line in outcome.lines]

    def summary(self) -> list[str]:
        lines = [f"{self.game.board.game_name}: ruleset {self.ruleset.id}, map profile {self.profile.map}"]
        for applied in self.picks:
            lines.append(applied.pick.label + ":")
            lines += [f"  {line}" for line in applied.outcome.lines]
        if self.declarations:
            # Each group named as its own kind names it ("retreat", "navy"), not by the two kinds of 000.
            groups = dict.fromkeys(displacing_kind(displaced).displaced_words(displaced).name for displaced, _ in self.declarations)
            lines.append(f"declared after the bid ({', '.join(groups)}; in the picks' order):")
            lines += [f"  {line}" for line in self.declaration_lines()]
        if self.bid is not None:
            lines.append("bid:")
            lines += [f"  {line}" for line in self.bid.lines]
        if self.house:
            lines += selection_lines(self.house)
        if self.rules is not None and self.rules.game_lines:
            lines.append("written into the game:")
            lines += [f"  {line}" for line in self.rules.game_lines]
        if self.rules is not None and self.rules.how_triplea_plays():
            lines.append("how TripleA plays them:")
            lines += [f"  {line}" for line in self.rules.how_triplea_plays()]
        if self.rules is not None and self.rules.kept_by_players():
            lines.append(f"{self.rules.kept_by_players()} rules the players keep themselves, in whole or in part: quoted whole in the game notes")
        return lines


# How a draft file records who made a pick (the draft assistant writes ``note = "picked by Ann"``).
PICKED_BY = "picked by "


def players_from_picks(picks: Iterable[Section]) -> dict[str, str]:
    """Each side's player, as the draft's picks record them (``note = "picked by Ann"``)."""
    players: dict[str, str] = {}
    for pick in picks:
        note, side = pick.data.get("note"), pick.data.get("side")
        if isinstance(note, str) and isinstance(side, str) and note.startswith(PICKED_BY):
            players.setdefault(side, note.removeprefix(PICKED_BY).strip())
    return players


def open_game(draft: Draft, game: str | None = None, maps_dir: Path | str | None = None) -> Game:
    return load(game_path(draft, game, maps_dir))


def game_path(draft: Draft, game: str | None = None, maps_dir: Path | str | None = None) -> Path:
    """The base game's file: ``game`` (--game) or the draft's own, a path beside the draft first (apply checks it before loading)."""
    spec = game or draft.game
    if spec is None:
        raise DataFileError("game: missing; name the game in the draft or with --game", where=draft.path)
    asked = spec
    candidate = Path(native_path(spec, Path(draft.path).parent))
    if not candidate.is_absolute() and (Path(draft.path).parent / candidate).is_file():
        spec = str(Path(draft.path).parent / candidate)
    try:
        return resolve_game(spec, maps_dir)
    except KremlinError as error:
        if game is None and error.where == asked:  # the draft's own `game` is unknown or missing: say where it is written
            error.where = f"{draft.locate('game')}: {asked}"
        raise


class LegalPicks:
    """The legal next picks of a draft, like python-chess's ``LegalMoveGenerator``.

    Iterating yields, option by option, the picks :meth:`DraftRun.option_picks` yields: each kind's targets
    (:meth:`~kremlin_triplea.draft.kinds.base.OptionKind.picks`) that the draft accepts whole, as python-chess keeps
    the pseudo-legal moves that leave no king in check. So every pick yielded is one ``is_legal`` accepts, and
    ``count()`` counts exactly those. ``in`` checks any pick with the rules, so a pick the enumeration does not list
    (another companion unit, another navy zone) is still answered.
    """

    def __init__(self, run: DraftRun) -> None:
        self.run = run

    def __iter__(self) -> Iterator[Pick]:
        run = self.run
        index = len(run.applied) + 1
        if index > run.total_picks:
            return
        side = run.side_to_pick(index)
        for option in run.ruleset.options:
            for _, pick in run.option_picks(option, side):
                yield pick

    def __contains__(self, pick: object) -> bool:
        return isinstance(pick, Pick) and self.run.is_legal(pick)

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def count(self) -> int:
        return sum(1 for _ in self)


# The draft file's keys for a pick's target, one per kind of option.


class DraftRun:
    """A draft's board and the checks of its steps: picks pushed one at a time, the displaced groups declared, the bid.

    Drafts are driven through :class:`kremlin_triplea.session.Session`, which builds one and pushes each step onto
    it (a draft file's steps too: there is no replay of a file here); the draft layer's own readers (``legal_choices``)
    only ask it.
    """

    def __init__(self, draft: Draft, game: Game, *, ruleset: Ruleset | None = None, profile: Profile | None = None) -> None:
        self.draft = draft
        self.game = game
        if draft.ruleset is None and ruleset is None:
            raise DataFileError("a draft of house rules only has no picks: nothing to choose or check pick by pick", where=draft.path)
        self.ruleset = ruleset or load_named_ruleset(draft.ruleset, where=draft.locate("ruleset"))
        game.check_rules_can_apply()
        if profile is None:
            profile = profile_for_game(game, draft.profile)  # which checks that the profile it finds fits the game
        else:
            profile.check_fits(game)
        self.profile = profile
        # Names the profile leaves [unmatched]: the neutrals, restrictions and exclusions they are in do not apply here.
        self.ruleset, left_out = fit_ruleset(self.ruleset, self.profile, game.board)
        warnings = self.profile.check_base_file(game) + list(left_out)
        if self.profile.rulesets and self.ruleset.id not in self.profile.rulesets:
            warnings.append(f"the map profile {self.profile.path} was written for the rulesets {', '.join(self.profile.rulesets)}, not {self.ruleset.id}")
        self.warnings = tuple(warnings)
        self.names = Names(game.board, self.profile, self.ruleset.sides)
        self.state = DraftState(game.board, self.ruleset, self.profile, self.names)
        picks = self.ruleset.picks
        self.first = self.names.side(draft.first, where=draft.locate("first"))
        self.second = next(s for s in self.ruleset.sides if s != self.first)
        self.picks_per_side = picks.default if draft.picks_per_side is None else draft.picks_per_side
        if not picks.min <= self.picks_per_side <= (picks.max or self.picks_per_side):
            allowed = f"{picks.min} to {picks.max}" if picks.max else f"at least {picks.min}"
            raise RuleViolation(
                "picks_per_side",
                f"{self.picks_per_side} picks per side; the rules allow {allowed}",
                rule=picks.rule,
                source=picks.source,
                where=draft.where_of("picks_per_side"),
            )
        self.applied: list[AppliedPick] = []
        self.declared: list[tuple[Displaced, Outcome]] = []

    @property
    def total_picks(self) -> int:
        return 2 * self.picks_per_side

    def side_to_pick(self, index: int) -> str:
        """The side making pick ``index`` (1-based): they alternate, ``first`` starting."""
        return self.first if index % 2 == 1 else self.second

    def parse_pick(self, index: int, section: Section) -> Pick:
        """The draft file's ``[[pick]]`` number ``index`` as a :class:`Pick`, its turn checked (not yet its target)."""
        target_keys = [kind.target_key for kind in KINDS.values()]
        section.only("side", "option", *target_keys, "note")
        where = f"{section.where}: {section.key}"
        if index > self.total_picks:
            self.turn_problem(index, self.side_to_pick(index), None, where=section.where)
        side = self.names.side(section.text("side"), where=where)
        self.turn_problem(index, side, None, where=section.where)
        raw_option = section.get("option", "an option number or id", lambda v: isinstance(v, (int, str)) and not isinstance(v, bool))
        option = self.ruleset.option(raw_option, where=section.locate("option"))
        self.turn_problem(index, side, option, where=section.where)
        kind = KINDS[option.kind]
        for other in target_keys:
            if other != kind.target_key and section.has(other):
                raise section.fail(other, f"`{kind.target_key}` for option {option.number} ({option.kind}), not `{other}`")
        return Pick(index=index, side=side, option=option, target=kind.parse_target(section, self.names, self.ruleset))

    def pick_from_toml(self, data: dict[str, Any]) -> Pick:
        """A ``[[pick]]`` table (as :meth:`Pick.to_toml` writes it) as the next pick of this draft."""
        index = len(self.applied) + 1
        return self.parse_pick(index, Section(data, self.draft.path, f"pick {index}"))

    def turn_problem(self, index: int, side: str, option: Option | None, *, where: str | None = None) -> None:
        """Raise ``RuleViolation`` if ``side`` may not make pick ``index`` (with ``option``): the order and no-repeat rules."""
        picks = self.ruleset.picks
        label = f"pick {index}"
        if index > self.total_picks:
            raise RuleViolation(label, f"the draft has more than {self.picks_per_side} picks per side", rule=picks.rule, source=picks.source, where=where)
        expected = self.side_to_pick(index)
        if side != expected:
            raise RuleViolation(
                f"{label} ({side})",
                f"it is the {expected}' turn to pick ({self.first} pick first, then the sides alternate)",
                rule=picks.alternate_rule,
                source=picks.source,
                where=where,
            )
        if option is not None and self.state.already_used(side, option.number):
            raise RuleViolation(
                f"{label} ({side}, option {option.number} {option.title})",
                f"the {side} already took option {option.number}" + (f" in this set of {picks.no_repeat_per} picks" if picks.no_repeat_per else ""),
                rule=option.quotes.get("one_per_side", picks.no_repeat_rule),
                source=picks.no_repeat_source if "one_per_side" not in option.quotes else option.source,
                where=where,
            )

    # -- the next pick, as python-chess has the next move --------------------------------

    def option_choices(self, option: Option, side: str) -> OptionChoices:
        """Every target of ``option`` for ``side`` now, as its kind lists them (its own checks, not yet the whole pick's)."""
        if self.state.already_used(side, option.number):
            return OptionChoices(option, unavailable=f"the {side} already took option {option.number}")
        powers = [p for p in self.state.side_powers[side] if self.state.power_problem(option, side, p) is None]
        return KINDS[option.kind].choices(self.state, option, side, powers)

    def offered_choices(self, option: Option, side: str) -> OptionChoices:
        """:meth:`option_choices` as ``legal`` offers them: unavailable, with why, when the draft would accept none of
        the kind's targets as the next pick (the board invariants refuse every one, say)."""
        choices = self.option_choices(option, side)
        if not choices.available or not self._on_turn(side):
            return choices
        refused = None
        for _, pick in KINDS[option.kind].picks(self.state, choices, side, len(self.applied) + 1):
            refused = self.violation(pick)
            if refused is None:
                return choices
        why = f"each of its targets is refused: {refused.why}" if refused is not None else "it has no target to pick"
        return attrs.evolve(choices, unavailable=why)

    def option_picks(self, option: Option, side: str) -> Iterator[tuple[str, Pick]]:
        """(description, pick) for every pick of ``option`` that ``side`` may make next: the kind's targets the
        draft accepts whole (:meth:`violation`), so what is offered is exactly what ``apply`` takes."""
        choices = self.option_choices(option, side)
        if not choices.available or not self._on_turn(side):
            return
        for description, pick in KINDS[option.kind].picks(self.state, choices, side, len(self.applied) + 1):
            if self.violation(pick) is None:
                yield description, pick

    def _on_turn(self, side: str) -> bool:
        """Whether ``side`` makes the next pick (only then can a pick of it be checked whole)."""
        index = len(self.applied) + 1
        return index <= self.total_picks and self.side_to_pick(index) == side

    @property
    def legal_picks(self) -> LegalPicks:
        """The legal next picks: iterate them, ask ``pick in run.legal_picks``, or ``count()`` them."""
        return LegalPicks(self)

    def violation(self, pick: Pick) -> RuleViolation | None:
        """Why ``pick`` may not be the next pick (the rule, its source and the reason), or None."""
        try:
            self._check_turn(pick)
            outcome = KINDS[pick.option.kind].apply(self.state, pick)
            self._push_keeping_invariants(pick.label, pick.option.rule, pick.option.source, outcome)
            for _ in outcome.changes:
                self.game.board.pop()
        except RuleViolation as error:
            return error
        return None

    def is_legal(self, pick: Pick) -> bool:
        return self.violation(pick) is None

    def push(self, pick: Pick) -> Outcome:
        """Make ``pick`` the next pick (checked as a whole: turn, option, target): refused exactly when
        :meth:`is_legal` is false, since both ask :meth:`_check_turn` and the kind's ``apply`` on this board."""
        self._check_turn(pick)
        return self.apply_pick(pick)

    def _check_turn(self, pick: Pick) -> None:
        """Raise ``RuleViolation`` unless ``pick`` is numbered as the next pick and its side may make it with its option.

        A pick numbered otherwise would be labelled, and its locks recorded, under a pick that is not the next one."""
        if pick.index != len(self.applied) + 1:
            picks = self.ruleset.picks
            raise RuleViolation(pick.label, f"the next pick is pick {len(self.applied) + 1}", rule=picks.alternate_rule, source=picks.source)
        self.turn_problem(pick.index, pick.side, pick.option)

    def pop(self) -> AppliedPick:
        """Take back the last pick: its changes, its locks and its option units (and every declaration, made after it)."""
        self.take_back_declarations()
        applied = self.applied.pop()
        for _ in applied.outcome.changes:
            self.game.board.pop()
        self.state.forget(applied.pick.side, applied.pick.index, applied.outcome)
        self.state.used[applied.pick.side].pop()
        return applied

    def parse_placements(self, section: Section, key: str) -> tuple[UnitPlacement, ...]:
        return UnitPlacement.list_from_toml(section, key, self.names)

    def apply_pick(self, pick: Pick) -> Outcome:
        """Check ``pick`` on the current board and push its changes (all or nothing)."""
        outcome = KINDS[pick.option.kind].apply(self.state, pick)
        self._push_keeping_invariants(pick.label, pick.option.rule, pick.option.source, outcome)
        self.state.record(pick.side, pick.index, outcome)
        self.state.used[pick.side].append(pick.option.number)
        self.applied.append(AppliedPick(pick, outcome))
        return outcome

    def check_complete(self) -> None:
        picks = self.ruleset.picks
        done = len(self.applied)
        if done != self.total_picks:
            next_side = self.side_to_pick(done + 1)
            raise RuleViolation(
                "draft",
                f"{done} picks made; {self.picks_per_side} per side means {self.total_picks} (next: the {next_side})",
                rule=picks.alternate_rule,
                source=picks.source,
                where=self.draft.path,
            )

    # -- after the bid: where the displaced units go (000 A "Order of action" 1) ----------

    def pending_declarations(self) -> list[Displaced]:
        """The displaced units still to be placed, in the order of the picks that displaced them."""
        return self.state.displaced[len(self.declared) :]

    def declare_next(self, to: str | None) -> Outcome:
        """Place the first pending group at ``to`` (None: its one nearest place), on the board as it stands."""
        displaced = self.pending_declarations()[0]
        outcome = declare(self.state, displaced, to)
        self._push_keeping_invariants(label(displaced), displaced.rule, displaced.source, outcome)
        self.state.record(displaced.side, displaced.pick, outcome)
        self.declared.append((displaced, outcome))
        return outcome

    def take_back_declarations(self) -> None:
        while self.declared:
            self.pop_declaration()

    def pop_declaration(self) -> tuple[Displaced, Outcome]:
        """Take back the last declaration: its group is pending again."""
        displaced, outcome = self.declared.pop()
        for _ in outcome.changes:
            self.game.board.pop()
        self.state.forget(displaced.side, displaced.pick, outcome)
        return displaced, outcome

    def parse_bid(self, section: Section) -> BidSpec:
        """``section`` (a ``[bid]`` table: the draft file's, or one the players enter) as a :class:`BidSpec`, its names resolved."""
        placing = self.ruleset.bid.placing_side.lower()
        section.only(placing, "place", "allocate", "remove", "phase")
        amount = section.integer(placing)
        pus = lambda v: isinstance(v, dict) and all(isinstance(n, int) and not isinstance(n, bool) for n in v.values())  # noqa: E731
        allocate = section.get("allocate", "a table of power = PUs", pus, {})
        phase = section.get("phase", "a table of power = PUs for TripleA's bid phase", pus, {})
        where = f"{section.where}: {section.key}"
        return BidSpec(
            amount=amount,
            placements=self.parse_placements(section, "place") if section.has("place") else (),
            allocate=tuple((self.names.power(p, where=f"{where}.allocate"), n) for p, n in allocate.items()),
            removals=self.parse_placements(section, "remove") if section.has("remove") else (),
            phase=tuple((self.names.power(p, where=f"{where}.phase"), n) for p, n in phase.items()),
        )

    def apply_bid(self, bid: BidSpec) -> Outcome:
        outcome = apply_bid(self.state, bid)
        rules = self.ruleset.bid
        self._push_keeping_invariants(f"bid ({rules.placing_side} {bid.amount})", rules.placement_rule, rules.source, outcome)
        return outcome

    def take_back_bid(self, outcome: Outcome) -> None:
        """Take the bid's changes (what :meth:`apply_bid` returned, the last pushed) off the board."""
        for _ in outcome.changes:
            self.game.board.pop()

    def _push_keeping_invariants(self, label: str, rule: str, source: str, outcome: Outcome) -> None:
        """Push ``outcome``'s changes, or refuse them (changing nothing) if they leave a board no game starts from."""
        board = self.game.board
        places = touched_places(outcome.changes)
        before = board_problems(board, self.state.factories, places)
        board.push_all(list(outcome.changes))
        broken = new_problems(before, board, self.state.factories, places)
        if broken:
            for _ in outcome.changes:
                board.pop()
            raise RuleViolation(label, f"it would leave a board no game can start from: {'; '.join(broken)}", rule=rule, source=source)


@contextlib.contextmanager
def located(where: str) -> Iterator[None]:
    """A rule a step of the draft breaks is reported at the draft's line for it (the rule itself knows no file)."""
    try:
        yield
    except RuleViolation as violation:
        if violation.where is None:
            violation.where = where
        raise


def draft_from_dict(data: dict[str, Any], path: str = "<draft>") -> Draft:
    """A draft from already parsed data (tests, the benchmark)."""
    return draft_from_data(Section(data, path))

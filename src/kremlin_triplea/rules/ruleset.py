"""A ruleset file (rulesets/<id>.toml) read into frozen values.

The ruleset holds what the rule text says, in the rule text's own names:
the options and their parameters, the neutral table, pick counts, the bid.
Names are translated for a game file by the map profile; mechanisms live in
:mod:`kremlin_triplea.draft.kinds`. A malformed file fails with the file, the
key and what was expected.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import attrs

from kremlin_triplea.errors import UnknownNameError, close_matches
from kremlin_triplea.rules.datafiles import check_file_kind, data_file_kind, data_folders, find_data_file
from kremlin_triplea.rules.game_rules import GameRule, RuleSet, read_game_rules
from kremlin_triplea.rules.options import COMMON_QUOTES, OPTION_KEYS, OptionParams
from kremlin_triplea.rules.scenarios import Scenario, find_scenario, read_scenarios
from kremlin_triplea.rules.tomlfile import DataFileError, KeyLines, Section, read_toml, read_toml_text


@attrs.frozen
class Option:
    number: int
    id: str
    title: str
    kind: str
    source: str
    rule: str
    params: OptionParams  # of the kind's own class (draft/kinds/<kind>.py)
    quotes: dict[str, str] = attrs.field(factory=dict, eq=False)

    def quote(self, check: str) -> str:
        """The sentence of the rule a check enforces (the whole rule if none is given)."""
        return self.quotes.get(check, self.rule)

    @property
    def label(self) -> str:
        return f"option {self.number} ({self.title})"


@attrs.frozen
class Neutral:
    name: str  # rule-text name
    ipc: int | None  # None: the rule text gives no IPC value
    army: tuple[tuple[str, int], ...]
    note: str = ""
    group: str | None = None  # e.g. "major" / "minor" (001, 002)

    @property
    def value_words(self) -> str:
        return neutral_value_words(self.ipc, self.group)


def neutral_value_words(ipc: int | None, group: str | None) -> str:
    """What the rule text makes a neutral worth, as a player reads it: its IPCs, else its group (001/002 give no IPCs)."""
    if ipc is not None:
        return f"{ipc} IPC"
    return f"{group} neutral" if group else "no IPC value in the rule text"


@attrs.frozen
class PowerRestriction:
    """Special rules for one power (China): which options it may take, and how."""

    power: str  # rule-text name
    source: str
    rule: str
    options: frozenset[int]
    neutrals: tuple[str, ...]
    takeover_only_where_may_enter: bool
    placements_only_on_own_territory: bool
    may_also_enter: tuple[str, ...]
    may_also_enter_rule: str


@attrs.frozen
class PickRules:
    default: int
    min: int
    max: int | None  # None: as many as the players agree (001)
    source: str
    rule: str
    alternate_rule: str
    no_repeat_rule: str
    no_repeat_source: str
    first_rule: str = ""  # who picks first: the players decide, the draft says `first`
    no_repeat_per: int | None = None  # the no-repeat rule holds within each set of this many picks of a side


@attrs.frozen
class LockRules:
    source: str
    rule: str
    lock_retreat_destinations: bool
    reason: str


@attrs.frozen
class BidRules:
    source: str
    rule: str
    placing_side: str
    receiving_side: str
    placement_rule: str
    amount_rule: str
    negative_rule: str
    order_rule: str = ""  # who bids first: informational, the draft states the result
    negative: str = "allocate_pus"  # or "remove_units": the placing side removes units worth the bid
    removable_units: tuple[str, ...] = ()  # rule-text unit names a negative bid may remove
    removable_rule: str = ""
    keep_option_units: bool = False  # units from bonus options may not be removed
    keep_option_units_rule: str = ""
    remove_value: str = "at_most_bid"  # or "round_down_to_unit" (002)
    remove_value_rule: str = ""
    remove_value_source: str = ""  # where remove_value_rule stands, when another text decides it (001 read with 002)
    positive: str = "declared"  # or "declared_or_bid_phase": TripleA's own bid phase may place it
    positive_rule: str = ""


@attrs.frozen
class Ruleset:
    id: str
    title: str
    source: str
    path: str
    sides: tuple[str, str]
    picks: PickRules
    locks: LockRules
    options: tuple[Option, ...]
    neutrals: dict[str, Neutral] = attrs.field(eq=False)
    restrictions: dict[str, PowerRestriction] = attrs.field(eq=False)
    bid: BidRules
    scenarios: tuple[Scenario, ...] = ()
    game_rules: tuple[GameRule, ...] = ()  # [[game_rule]]: rules that are not options (rules/game_rules.py)
    # The games the rule text was written for, as MAP/GAME, its own first: a draft's default game.
    games: tuple[str, ...] = ()

    def option(self, key: int | str, *, where: str | None = None) -> Option:
        """An option by its number in the rule text or by its id, e.g. 1 or "infantry"; ``where`` locates the key asking."""
        for option in self.options:
            if key == option.number or (isinstance(key, str) and key.strip().lower() in (option.id, str(option.number))):
                return option
        known = [str(o.number) for o in self.options] + [o.id for o in self.options]
        raise UnknownNameError("option", str(key), known, within=f"ruleset {self.id}", show_all=True, where=where)

    def scenario(self, key: str, *, where: str | None = None) -> Scenario:
        """A scenario by its title as the rule text gives it (any case) or its id."""
        return find_scenario(self.scenarios, key, within=f"ruleset {self.id}", where=where)

    @property
    def rule_set(self) -> RuleSet:
        """The ruleset's own rules that are not options (its ``[[game_rule]]``s), as a rule set written into the game."""
        return RuleSet(self.id, self.title, self.source, self.path, self.game_rules)


def read_ruleset(path: Path | str, params_by_kind: Mapping[str, type[OptionParams]], text: str | None = None) -> Ruleset:
    """The ruleset file at ``path`` (``text``: its text, already read), its options' parameters read by the classes of ``params_by_kind``.

    The draft's ``load_ruleset`` passes the registered option kinds; this
    layer does not know them (see :mod:`kremlin_triplea.rules.options`).
    """
    path = Path(path)
    text = read_toml_text(path) if text is None else text
    data = read_toml(path, text)
    if data_file_kind(data) in ("profile", "draft"):
        check_file_kind(data, path, "ruleset")
    if "option" not in data:  # a house-rule set (rule_file_kind: a ruleset is the file with bonus options)
        raise DataFileError(
            f'{path.stem} is a house-rule set, not a Kremlin ruleset: list it in a draft as house_rules = ["{path.stem}"] '
            f"or write it into a game with `kremlin-triplea house GAME -r {path.stem}`",
            where=str(path),
        )
    root = Section(data, str(path), lines=KeyLines.of_text(text))
    root.only("id", "title", "source", "sides", "picks", "locks", "option", "neutral", "restriction", "bid", "scenario", "game_rule", "games")
    sides = root.texts("sides")
    if len(sides) != 2:
        raise root.fail("sides", "two side names (the first places the bid)", sides)
    options = tuple(_option(section, params_by_kind) for section in root.tables("option"))
    numbers = [o.number for o in options]
    ids = [o.id for o in options]
    for index, option in enumerate(options):
        if numbers.count(option.number) > 1 or ids.count(option.id) > 1:
            raise root.fail(index, "a unique option number and id", f"{option.number}/{option.id}")
    neutrals = _neutrals(root)
    restrictions = _restrictions(root, numbers, neutrals)
    pick_rules = _pick_rules(root)
    locks = root.table("locks")
    locks.only("source", "rule", "lock_retreat_destinations", "reason")
    bid = root.table("bid")
    bid.only(
        "source",
        "rule",
        "placing_side",
        "receiving_side",
        "placement_rule",
        "amount_rule",
        "negative_rule",
        "order_rule",
        "negative",
        "removable_units",
        "removable_rule",
        "keep_option_units",
        "keep_option_units_rule",
        "remove_value",
        "remove_value_rule",
        "remove_value_source",
        "positive",
        "positive_rule",
    )
    ruleset = Ruleset(
        id=root.text("id"),
        title=root.text("title"),
        source=root.text("source"),
        path=str(path),
        sides=(sides[0], sides[1]),
        picks=pick_rules,
        locks=_lock_rules(locks),
        options=options,
        neutrals=neutrals,
        restrictions=restrictions,
        bid=_bid_rules(bid),
        scenarios=read_scenarios(root, (sides[0], sides[1])),
        game_rules=read_game_rules(root, "game_rule", root.text("id")),
        games=tuple(root.texts("games", [])),
    )
    for option, section in zip(options, root.tables("option")):
        option.params.check_in(ruleset, root, section)
    return ruleset


def _neutrals(root: Section) -> dict[str, Neutral]:
    """The ``[[neutral]]`` tables by name (a ruleset without a neutral option has none)."""
    neutrals = {}
    for section in root.tables("neutral", []):
        section.only("name", "ipc", "army", "note", "group")
        neutral = Neutral(
            name=section.text("name"),
            ipc=section.integer("ipc", None),
            army=tuple(section.counts("army").items()),
            note=section.text("note", ""),
            group=section.text("group", None),
        )
        neutrals[neutral.name] = neutral
    return neutrals


def _restrictions(root: Section, numbers: list[int], neutrals: dict[str, Neutral]) -> dict[str, PowerRestriction]:
    """The ``[[restriction]]`` tables by power; each names options and neutrals of this ruleset only."""
    restrictions = {}
    for section in root.tables("restriction", []):
        section.only(
            "power",
            "source",
            "rule",
            "options",
            "neutrals",
            "takeover_only_where_may_enter",
            "placements_only_on_own_territory",
            "may_also_enter",
            "may_also_enter_rule",
        )
        allowed = section.get("options", "a list of option numbers", lambda v: isinstance(v, list) and all(isinstance(n, int) for n in v))
        for number in allowed:
            if number not in numbers:
                raise section.fail("options", f"option numbers of this ruleset ({', '.join(map(str, numbers))})", number)
        for name in section.texts("neutrals", []):
            if name not in neutrals:
                raise section.fail("neutrals", f"neutrals of the [[neutral]] table ({', '.join(neutrals)})", name)
        restriction = PowerRestriction(
            power=section.text("power"),
            source=section.text("source"),
            rule=section.text("rule"),
            options=frozenset(allowed),
            neutrals=tuple(section.texts("neutrals", [])),
            takeover_only_where_may_enter=section.boolean("takeover_only_where_may_enter", False),
            placements_only_on_own_territory=section.boolean("placements_only_on_own_territory", False),
            may_also_enter=tuple(section.texts("may_also_enter", [])),
            may_also_enter_rule=section.text("may_also_enter_rule", ""),
        )
        restrictions[restriction.power] = restriction
    return restrictions


def _pick_rules(root: Section) -> PickRules:
    """The ``[picks]`` table: how many options a side picks, and how picks may repeat."""
    picks = root.table("picks")
    picks.only("default", "min", "max", "source", "rule", "alternate_rule", "no_repeat_rule", "no_repeat_source", "first_rule", "no_repeat_per")
    pick_rules = PickRules(
        default=picks.integer("default"),
        min=picks.integer("min"),
        max=picks.integer("max", None),
        source=picks.text("source"),
        rule=picks.text("rule"),
        alternate_rule=picks.text("alternate_rule"),
        no_repeat_rule=picks.text("no_repeat_rule"),
        no_repeat_source=picks.text("no_repeat_source", picks.text("source")),
        first_rule=picks.text("first_rule", ""),
        no_repeat_per=picks.integer("no_repeat_per", None),
    )
    if pick_rules.no_repeat_per is not None and pick_rules.no_repeat_per < 1:
        raise picks.fail("no_repeat_per", "a positive whole number", pick_rules.no_repeat_per)
    if not 1 <= pick_rules.min <= pick_rules.default <= (pick_rules.max or pick_rules.default):
        raise picks.fail("default", "min <= default <= max, all at least 1", f"{pick_rules.min}/{pick_rules.default}/{pick_rules.max}")
    return pick_rules


def _lock_rules(locks: Section) -> LockRules:
    """The ``[locks]`` table's values (its keys checked by the caller, in the file's order of checks)."""
    return LockRules(
        source=locks.text("source"),
        rule=locks.text("rule"),
        lock_retreat_destinations=locks.boolean("lock_retreat_destinations", False),
        reason=locks.text("reason", ""),
    )


def _bid_rules(bid: Section) -> BidRules:
    """The ``[bid]`` table's values (its keys checked by the caller, in the file's order of checks)."""
    return BidRules(
        source=bid.text("source"),
        rule=bid.text("rule"),
        placing_side=bid.text("placing_side"),
        receiving_side=bid.text("receiving_side"),
        placement_rule=bid.text("placement_rule"),
        amount_rule=bid.text("amount_rule"),
        negative_rule=bid.text("negative_rule"),
        order_rule=bid.text("order_rule", ""),
        negative=bid.choice("negative", ("allocate_pus", "remove_units"), "allocate_pus or remove_units", "allocate_pus"),
        removable_units=tuple(bid.texts("removable_units", [])),
        removable_rule=bid.text("removable_rule", ""),
        keep_option_units=bid.boolean("keep_option_units", False),
        keep_option_units_rule=bid.text("keep_option_units_rule", ""),
        remove_value=bid.choice("remove_value", ("at_most_bid", "round_down_to_unit"), "at_most_bid or round_down_to_unit", "at_most_bid"),
        remove_value_rule=bid.text("remove_value_rule", ""),
        remove_value_source=bid.text("remove_value_source", ""),
        positive=bid.choice("positive", ("declared", "declared_or_bid_phase"), "declared or declared_or_bid_phase", "declared"),
        positive_rule=bid.text("positive_rule", ""),
    )


def _option(section: Section, params_by_kind: Mapping[str, type[OptionParams]]) -> Option:
    kind = section.choice("kind", sorted(params_by_kind))
    params_class = params_by_kind[kind]
    section.only(*OPTION_KEYS, *params_class.KEYS)
    params = params_class.from_toml(section)
    quotes = _quotes(section, params_class)
    number = section.integer("number")
    if number < 1:
        raise section.fail("number", "a positive whole number", number)
    return Option(
        number=number,
        id=section.text("id").strip().lower(),
        title=section.text("title"),
        kind=kind,
        source=section.text("source"),
        rule=section.text("rule"),
        params=params,
        quotes=quotes,
    )


def _quotes(section: Section, params_class: type[OptionParams]) -> dict[str, str]:
    """The option's ``[option.quotes]``: each key a check its kind quotes, each value the rule's words for it.

    A key that names no check (``own_teritory``) would never be asked, so its refusals quoted the whole rule."""
    table = section.table("quotes", None)
    if table is None:
        return {}
    checks = sorted(params_class.QUOTES | COMMON_QUOTES)
    for key in table.data:
        if key not in checks:
            close = close_matches(key, checks)
            hint = f"did you mean {' or '.join(close)}? " if close else ""
            raise DataFileError(
                f"quotes.{key}: not a check a {params_class.KIND} option quotes; {hint}its checks: {', '.join(checks)}", where=table.where_of(key)
            )
        table.text(key)  # the words, a string
    return dict(table.data)


__all__ = ["DataFileError", "Neutral", "Option", "Ruleset", "data_folders", "find_data_file", "read_ruleset"]

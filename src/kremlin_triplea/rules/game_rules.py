"""Rules written into the game: a rule set's rules that are not bonus options.

Design
------
Every rule of a rule document is one entry, in the document's order, quoting
its words, with who enforces it (``enforced_by``):

``tool``
    checked at draft time by this program (``checked_by`` says where);
``game``
    written into the game file, so TripleA enforces it: a list of ``change``
    entries, each a primitive game-file action implemented once here
    (``built_in`` instead when TripleA already does it; ``differs`` when
    TripleA's version is not exactly the text — the notes repeat that);
``players``
    TripleA cannot express it: the game's notes list it under "Rules the
    players enforce themselves" (``why`` says why the game cannot).

The entries live in a Kremlin ruleset as ``[[game_rule]]`` (its section D),
or in a house-rules file as ``[[rule]]`` (rulesets/house-*.toml, whole files of
such entries). A draft may add house-rule sets (``house_rules = [...]``); the
actions of every set are collected, conflicts between sets (two sets changing
the same thing differently) are refused with one error naming both sources,
and the rest applied in a fixed order: the draft's ruleset, then the house
sets in the draft's order, each in file order.

Change kinds (``kind = ...``), names in the rule text's words, translated by the
map profile; map facts (which sea zones make a strait, where a turn step goes)
come from the profile with their reasons:

=================  =========================================================
set_property       ``name``, ``value`` (true/false, a number, a text); a
                   property the game lacks is declared with that type
canal              ``strait`` (profile ``[straits.<strait>]``: sea-zone pairs),
                   ``land`` (rule-text territories; else the profile's),
                   ``ships`` = "all" (air passes) or "surface" (air and
                   submarines pass), ``control`` = "all_of" or "any_of"
victory_city       ``from`` loses its victory city, ``to`` gains it
turn_step          ``id``, ``power``, ``move`` = "non_combat", ``rounds`` = 1
                   (TripleA maxRunCount), ``position`` (profile
                   ``[turn_step_positions.<position>]``: the step it follows)
grant_tech         ``power``, ``tech`` (TripleA's technology name)
frontier_cost      ``power``, ``costs`` = { unit = PUs }: that power's own prices
attachment_option  ``attachment`` (its name), ``attach_to`` (power or
                   territory), ``option``, and ``value`` (a text), ``add``
                   (territories joined to a ``:`` list) or ``remove = true``
place_units        ``power``, ``units``, ``at``
move_units         ``power``, ``units``, ``from``, ``to``
=================  =========================================================

A ``change`` or a rule may carry ``when``/``unless`` (a choice the draft
makes, e.g. "neutral_territories") and a rule ``maps`` (the map names it is
for). The API for other rule sets: :func:`game_rule_changes`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from kremlin_triplea.model.changes import (
    AddXml,
    Change,
    GrantTech,
    PlaceUnits,
    RemoveUnits,
    SetAttachmentOption,
    SetProductionCost,
    SetProperty,
    SetTerritory,
)
from kremlin_triplea.errors import UnknownNameError
from kremlin_triplea.rules.house_kinds import HOUSE_CHANGE_KINDS
from kremlin_triplea.rules.tomlfile import DataFileError, Section, read_toml

if TYPE_CHECKING:
    from kremlin_triplea.model.board import Board
    from kremlin_triplea.rules.names import Names
    from kremlin_triplea.rules.profile import Profile

ENFORCED_BY = ("tool", "game", "players")
RULE_KEYS = (
    "id", "title", "source", "rule", "enforced_by", "change", "checked_by", "built_in", "differs", "why",
    "maps", "when", "unless", "choice", "written_by", "note",
)


@attrs.frozen
class GameRule:
    set_id: str  # the rule set it belongs to
    id: str
    title: str
    source: str
    rule: str
    enforced_by: str
    changes: tuple[Section, ...] = attrs.field(eq=False, default=())
    checked_by: str = ""
    built_in: str = ""
    differs: str = ""
    why: str = ""
    note: str = ""
    maps: tuple[str, ...] = ()
    when: str | None = None
    unless: str | None = None

    @property
    def label(self) -> str:
        return f"{self.set_id} rule {self.id!r} ({self.source})"

    def applies(self, map_name: str, choices: frozenset[str]) -> bool:
        return (not self.maps or map_name in self.maps) and _chosen(self.when, self.unless, choices)


@attrs.frozen
class RuleSet:
    """A file of rules: a house-rules set (``[[rule]]``), or a Kremlin ruleset's ``[[game_rule]]``s."""

    id: str
    title: str
    source: str
    path: str
    rules: tuple[GameRule, ...]
    maps: tuple[str, ...] = ()


def read_game_rules(root: Section, key: str, set_id: str) -> tuple[GameRule, ...]:
    rules = []
    for section in root.tables(key, []):
        section.only(*RULE_KEYS)
        enforced_by = section.get("enforced_by", f"one of {', '.join(ENFORCED_BY)}", lambda v: v in ENFORCED_BY)
        changes = tuple(section.tables("change", []))
        for change in changes:
            kind = change.get("kind", f"one of {', '.join(CHANGE_KINDS)}", lambda v: v in CHANGE_KINDS)
            change.only("kind", "when", "unless", *CHANGE_KINDS[kind][0])
        if enforced_by == "game" and not changes and not section.has("built_in") and not section.has("written_by"):
            raise section.fail("change", "game-file changes (or `built_in`: how TripleA already enforces it) for a rule enforced by the game")
        if enforced_by != "game" and changes:
            raise section.fail("change", f"no game-file changes: the rule is enforced by the {enforced_by}")
        if enforced_by == "players" and not section.has("why"):
            raise section.fail("why", "why the game cannot enforce it, for a rule the players enforce")
        rules.append(
            GameRule(
                set_id=set_id,
                id=section.text("id"),
                title=section.text("title"),
                source=section.text("source"),
                rule=section.text("rule"),
                enforced_by=enforced_by,
                changes=changes,
                checked_by=section.text("checked_by", ""),
                built_in=section.text("built_in", ""),
                differs=section.text("differs", ""),
                why=section.text("why", ""),
                note=section.text("note", ""),
                maps=tuple(section.texts("maps", [])),
                when=section.text("when", None),
                unless=section.text("unless", None),
            )
        )
    ids = [r.id for r in rules]
    for index, rule in enumerate(rules):
        if ids.count(rule.id) > 1:
            raise root.fail(f"{key}[{index}]", "a rule id used once", rule.id)
    return tuple(rules)


def load_rule_set(path: Path | str) -> RuleSet:
    """A house-rules file (``[[rule]]`` entries) or a Kremlin ruleset (its ``[[game_rule]]`` entries)."""
    from kremlin_triplea.rules.ruleset import load_ruleset

    path = Path(path)
    data = read_toml(path)
    if "option" in data:  # a Kremlin ruleset: its bonus options are the draft's business
        ruleset = load_ruleset(path)
        return RuleSet(ruleset.id, ruleset.title, ruleset.source, str(path), ruleset.game_rules)
    root = Section(data, str(path))
    # National advantages and neutral tables of house sets are read by their own mechanism (house rules, issue 6).
    root.only("id", "title", "source", "maps", "rule", "choices", "advantages", "advantage", "neutral")
    set_id = root.text("id")
    return RuleSet(set_id, root.text("title"), root.text("source"), str(path), read_game_rules(root, "rule", set_id), tuple(root.texts("maps", [])))


def load_named_rule_set(name: str) -> RuleSet:
    from kremlin_triplea.rules.ruleset import find_data_file

    return load_rule_set(find_data_file("rulesets", name))


# -- applying ------------------------------------------------------------------


@attrs.frozen
class Planned:
    """One action's effect: what it changes (``key``, compared across sets), to what, and the changes."""

    key: tuple[str, ...]
    value: object
    changes: tuple[Change, ...]
    line: str


@attrs.frozen
class AppliedRules:
    """Every rule of the sets, sorted by who enforces it, and the changes written into the game."""

    sets: tuple[RuleSet, ...]
    changes: tuple[Change, ...]
    game_lines: tuple[str, ...]  # what was written into the game, per rule
    players: tuple[GameRule, ...]  # the players' honour list
    tool: tuple[GameRule, ...]
    game: tuple[GameRule, ...]
    skipped: tuple[str, ...]  # rules that do not apply to this map or these choices, and why


class _Context:
    def __init__(self, board: Board, profile: Profile, names: Names, rule: GameRule) -> None:
        self.board = board
        self.profile = profile
        self.names = names
        self.rule = rule
        self.where = f"{rule.label}"

    def fail(self, why: str) -> DataFileError:
        return DataFileError(f"{self.rule.label}: {why}", where=None)

    def power(self, name: str) -> str:
        return self.names.power(name, where=self.where)

    def place(self, name: str) -> str:
        return self.names.place(name, where=self.where)

    def unit(self, name: str) -> str:
        return self.names.unit(name, where=self.where)


def game_rule_changes(
    board: Board,
    rule_sets: Sequence[RuleSet],
    profile: Profile,
    names: Names,
    choices: Iterable[str] = (),
) -> AppliedRules:
    """Collect every set's game-file actions for ``board``, refuse conflicts between sets, and return them in order.

    The board is not changed; push ``result.changes``. ``choices`` are the draft's
    choices that rules' ``when``/``unless`` name.
    """
    chosen = frozenset(choices)
    claimed: dict[tuple[str, ...], tuple[object, GameRule]] = {}
    changes: list[Change] = []
    lines: list[str] = []
    players: list[GameRule] = []
    tool: list[GameRule] = []
    game: list[GameRule] = []
    skipped: list[str] = []
    for rule_set in rule_sets:
        for rule in rule_set.rules:
            if not rule.applies(profile.map, chosen):
                skipped.append(f"{rule.label}: not for this game ({_why_skipped(rule, profile.map, chosen)})")
                continue
            {"players": players, "tool": tool, "game": game}[rule.enforced_by].append(rule)
            if rule.enforced_by != "game":
                continue
            context = _Context(board, profile, names, rule)
            if rule.built_in and not rule.changes:
                lines.append(f"{rule.title}: already in the game ({rule.built_in})")
            for change in rule.changes:
                if not _chosen(change.data.get("when"), change.data.get("unless"), chosen):
                    continue
                planned = CHANGE_KINDS[change.data["kind"]][1](context, change)
                for item in planned:
                    if item.key in claimed:
                        value, other = claimed[item.key]
                        if value != item.value:
                            raise DataFileError(
                                f"conflicting rules: {other.label} and {rule.label} both set {' '.join(item.key[1:])} ({item.key[0]}), "
                                f"to {value!r} and to {item.value!r}; drop one of the two sets or rules"
                            )
                        if other.set_id != rule.set_id or other.id != rule.id:
                            if item.line:
                                lines.append(f"{rule.title}: {item.line} (already done by {other.label})")
                            continue
                    claimed.setdefault(item.key, (item.value, rule))
                    changes.extend(item.changes)
                    if item.line:
                        lines.append(f"{rule.title}: {item.line}")
    return AppliedRules(tuple(rule_sets), tuple(changes), tuple(lines), tuple(players), tuple(tool), tuple(game), tuple(skipped))


def _chosen(when: str | None, unless: str | None, choices: frozenset[str]) -> bool:
    return (when is None or when in choices) and (unless is None or unless not in choices)


def _why_skipped(rule: GameRule, map_name: str, choices: frozenset[str]) -> str:
    if rule.maps and map_name not in rule.maps:
        return f"maps {', '.join(rule.maps)}"
    if rule.when is not None and rule.when not in choices:
        return f"only with the choice {rule.when!r}"
    return f"not with the choice {rule.unless!r}"


# -- the change kinds: (allowed keys, implementation) --------------------------


def _set_property(ctx: _Context, change: Section) -> list[Planned]:
    name = change.text("name")
    raw = change.get("value", "true/false, a whole number or a text", lambda v: isinstance(v, (bool, int, str)))
    value = ("true" if raw else "false") if isinstance(raw, bool) else str(raw)
    old = ctx.board.properties.get(name)
    was = f"was {old!r}" if old is not None else "not in the game before: declared"
    return [Planned(("property", name), value, (SetProperty(name, value),), f"game option {name!r} = {value} ({was})")]


def _canal(ctx: _Context, change: Section) -> list[Planned]:
    key = change.text("strait")
    strait = ctx.profile.straits.get(key)
    if strait is None:
        raise ctx.fail(f"the map profile {ctx.profile.path} has no [straits.{key}] (known: {', '.join(sorted(ctx.profile.straits)) or 'none'})")
    land_names = change.texts("land", None) or list(strait.land)
    sides = f"; its sides: {strait.land_reason}" if not change.has("land") and strait.land_reason else ""
    if not land_names:
        raise ctx.fail(f"which land territories control the strait {key!r}: give `land` in the rule or in the profile's [straits.{key}]")
    land = [ctx.names.territory(n, where=ctx.where) for n in land_names]
    ships = change.get("ships", '"all" or "surface"', lambda v: v in ("all", "surface"), "all")
    control = change.get("control", '"all_of" or "any_of"', lambda v: v in ("all_of", "any_of"), "all_of")
    catalog = ctx.board.catalog
    passing = sorted(u for u in catalog.unit_types if catalog.unit_type(u).domain == "air")
    if ships == "surface":
        # "Submarines" in the rule text: the map's unit for that word (profile [units]).
        passing.append(ctx.unit("submarine"))
    groups = [land] if control == "all_of" else [[t] for t in land]
    changes: list[Change] = []
    number = 0
    for a, b in strait.sea_zone_pairs:
        for group in groups:
            number += 1
            canal_name = f"Kremlin {strait.name} {number}"
            for zone in (a, b):
                ctx.board.node(zone)
                changes.append(AddXml("attachmentList", _canal_xml(f"canalAttachmentKremlin{_camel(strait.name)}{number}", zone, canal_name, group, passing),
                                      description=f"canal {canal_name!r} on {zone}: ships pass {a}<->{b} only if allied with the owner of {' and '.join(group)}"))
    who = " and ".join(land) if control == "all_of" else " or ".join(land)
    pairs = ", ".join(f"{a}<->{b}" for a, b in strait.sea_zone_pairs)
    passes = "air units" + (" and submarines" if ships == "surface" else "")
    line = f"canal {strait.name} ({pairs}): ships pass only for the side that owns {who}; {passes} pass freely (profile: {strait.reason}{sides})"
    return [Planned(("canal", key), (tuple(land), ships, control), tuple(changes), line)]


def _canal_xml(name: str, zone: str, canal_name: str, land: list[str], passing: list[str]) -> str:
    options = [("canalName", canal_name), ("landTerritories", ":".join(land))]
    if passing:
        options.append(("excludedUnits", ":".join(passing)))
    body = "".join(f'<option name="{_attr(k)}" value="{_attr(v)}"/>' for k, v in options)
    return f'<attachment name="{_attr(name)}" attachTo="{_attr(zone)}" javaClass="games.strategy.triplea.attachments.CanalAttachment" type="territory">{body}</attachment>'


def _victory_city(ctx: _Context, change: Section) -> list[Planned]:
    source = ctx.names.territory(change.text("from"), where=ctx.where)
    target = ctx.names.territory(change.text("to"), where=ctx.where)
    count = ctx.board.node(source)["victory_city"]
    if not count:
        raise ctx.fail(f"{ctx.names.shown(source)} is not a victory city in {ctx.board.game_name}")
    changes = (SetTerritory(source, "victory_city", 0), SetTerritory(target, "victory_city", count))
    line = f"the victory city of {ctx.names.shown(source)} moves to {ctx.names.shown(target)}"
    return [Planned(("victory_city", source), 0, changes[:1], line), Planned(("victory_city", target), count, changes[1:], "")]


def _turn_step(ctx: _Context, change: Section) -> list[Planned]:
    step_id = change.text("id")
    power = ctx.power(change.text("power"))
    change.get("move", '"non_combat"', lambda v: v == "non_combat")
    rounds = change.integer("rounds", None)
    position = change.text("position")
    placed = ctx.profile.turn_step_positions.get(position)
    if placed is None:
        raise ctx.fail(f"the map profile {ctx.profile.path} has no [turn_step_positions.{position}]")
    # TripleA treats a move step whose name ends in "NonCombatMove" as non-combat
    # (GameStepPropertiesHelper.isNonCombatDelegate); the property says it outright.
    name = f"kremlin{_camel(step_id)}{power}NonCombatMove"
    runs = f' maxRunCount="{rounds}"' if rounds is not None else ""
    xml = (f'<step name="{_attr(name)}" delegate="move" player="{_attr(power)}" display="{_attr(ctx.rule.title)}"{runs}>'
           '<stepProperty name="nonCombatMove" value="true"/></step>')
    when = f"in the first {rounds} round(s) only" if rounds is not None else "every round"
    line = f"a non-combat move step for {power} ({name}) after {placed.after}, {when} (profile: {placed.reason})"
    return [Planned(("turn_step", step_id), (power, position, rounds), (AddXml("sequence", xml, after=placed.after, description=line),), line)]


def _grant_tech(ctx: _Context, change: Section) -> list[Planned]:
    power = ctx.power(change.text("power"))
    tech = change.text("tech")
    return [Planned(("tech", power, tech), True, (GrantTech(power, tech),), f"{power} start with {tech}")]


def _frontier_cost(ctx: _Context, change: Section) -> list[Planned]:
    power = ctx.power(change.text("power"))
    costs = change.counts("costs")
    planned = []
    for name, cost in costs.items():
        unit = ctx.unit(name)
        old = ctx.board.catalog.cost(unit, power)
        if old is None:
            raise ctx.fail(f"{power} cannot buy {unit} in {ctx.board.game_name}, so it has no price to change")
        planned.append(Planned(("cost", power, unit), cost, (SetProductionCost(power, unit, cost),), f"{power} pay {cost} PUs for {unit} (was {old})"))
    return planned


def _attachment_option(ctx: _Context, change: Section) -> list[Planned]:
    attachment = change.text("attachment")
    target = change.text("attach_to")
    try:
        attach_to = ctx.names.power(target)
    except UnknownNameError:
        attach_to = ctx.place(target)
    option = change.text("option")
    given = [k for k in ("value", "add", "remove") if change.has(k)]
    if len(given) != 1:
        raise change.fail("value", "exactly one of value, add, remove")
    if given[0] == "remove":
        value = None
        line = f"{attachment} of {attach_to}: {option} removed"
    elif given[0] == "add":
        added = [ctx.names.territory(t, where=ctx.where) for t in change.texts("add")]
        value = ("+", tuple(added))
        line = f"{attachment} of {attach_to}: {option} also lists {', '.join(added)}"
    else:
        value = change.text("value")
        line = f"{attachment} of {attach_to}: {option} = {value}"
    return [Planned(("attachment", attachment, attach_to, option), value, (SetAttachmentOption(attachment, attach_to, option, value),), line)]


def _place_units(ctx: _Context, change: Section) -> list[Planned]:
    power, at = ctx.power(change.text("power")), ctx.place(change.text("at"))
    units = [(ctx.unit(u), n) for u, n in change.counts("units").items()]
    what = ", ".join(f"{n} {u}" for u, n in units)
    return [Planned(("units", ctx.rule.set_id, ctx.rule.id, at), tuple(units), tuple(PlaceUnits(at, power, u, n) for u, n in units), f"{power} start with {what} more in {ctx.names.shown(at)}")]


def _move_units(ctx: _Context, change: Section) -> list[Planned]:
    power = ctx.power(change.text("power"))
    source, target = ctx.place(change.text("from")), ctx.place(change.text("to"))
    units = [(ctx.unit(u), n) for u, n in change.counts("units").items()]
    for unit, count in units:
        if ctx.board.units(source)[(power, unit)] < count:
            raise ctx.fail(f"{ctx.board.game_name} has {ctx.board.units(source)[(power, unit)]} {power} {unit} in {source}, the rule moves {count}")
    what = ", ".join(f"{n} {u}" for u, n in units)
    made: list[Change] = [RemoveUnits(source, power, u, n) for u, n in units] + [PlaceUnits(target, power, u, n) for u, n in units]
    return [Planned(("units", ctx.rule.set_id, ctx.rule.id, source, target), tuple(units), tuple(made), f"{power} start with {what} in {ctx.names.shown(target)} instead of {ctx.names.shown(source)}")]


CHANGE_KINDS: dict[str, tuple[tuple[str, ...], Any]] = {
    "set_property": (("name", "value"), _set_property),
    "canal": (("strait", "land", "ships", "control"), _canal),
    "victory_city": (("from", "to"), _victory_city),
    "turn_step": (("id", "power", "move", "rounds", "position"), _turn_step),
    "grant_tech": (("power", "tech"), _grant_tech),
    "frontier_cost": (("power", "costs"), _frontier_cost),
    "attachment_option": (("attachment", "attach_to", "option", "value", "add", "remove"), _attachment_option),
    "place_units": (("power", "units", "at"), _place_units),
    "move_units": (("power", "units", "from", "to"), _move_units),
    # The house-rule sets' own kinds (objectives, research price, PUs, triggers, neutral armies...).
    **HOUSE_CHANGE_KINDS,
}


def _camel(text: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", text) if part)


def _attr(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")

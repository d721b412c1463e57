"""Game-file actions: each change kind of a rule set carried out once, and the rule sets applied to a board.

The rule data (:mod:`kremlin_triplea.rules.game_rules`) say what to write; here each
change kind (``CHANGE_KINDS`` there) has one action (``CHANGE_ACTIONS``) that turns it into board changes,
and :func:`game_rule_changes` collects every set's actions, refusing conflicts.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import attrs

from kremlin_triplea.errors import KremlinError, UnknownNameError, possessive
from kremlin_triplea.gamerules.context import CHANGE_ACTIONS, ActionContext, CannotWrite, Planned
from kremlin_triplea.gamerules.house_actions import listed_technology, priced
from kremlin_triplea.gamerules.triggers import xml_attr
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
from kremlin_triplea.rules.game_rules import CHANGE_KINDS, GameRule, RuleSet, is_chosen
from kremlin_triplea.rules.house_rules import load_named_house_set
from kremlin_triplea.rules.tomlfile import DataFileError, Section

if TYPE_CHECKING:
    from kremlin_triplea.model.board import Board
    from kremlin_triplea.rules.names import Names
    from kremlin_triplea.rules.profile import Profile, Strait


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
    # Rules enforced by the game of which a change cannot be written into this game, and why: the players enforce them.
    unwritten: tuple[tuple[GameRule, str], ...] = ()
    # ``changes`` as written, step by step: the rule and its [[change]] table that planned each group of them,
    # so that the board's invariants are checked rule by rule and a refusal names the rule (gamerules/gate.py).
    steps: tuple[tuple[GameRule, Section, tuple[Change, ...]], ...] = ()

    def warnings(self) -> tuple[str, ...]:
        """One warning per change this game cannot express (``apply`` prints them; the notes list the rules for the players)."""
        return tuple(f"{why}: not written into the game; the players enforce {rule.title!r} (listed in the game notes)" for rule, why in self.unwritten)

    def kept_by_players(self) -> int:
        """How many rules the players keep, in whole or in part: their own, the part TripleA leaves of the game's,
        and those this game cannot express (the notes quote each whole). One count for every summary."""
        partly = {id(rule) for rule in self.game if rule.players_keep} | {id(rule) for rule, _ in self.unwritten}
        return len(self.players) + len(partly)

    def how_triplea_plays(self) -> list[str]:
        """Where TripleA's version of a rule it enforces differs from the rule text (for the host: ``apply`` prints it)."""
        return [f"{rule.title}: {rule.differs}" for rule in self.game if rule.differs]


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
    claimed: dict[tuple[str, ...], tuple[object, GameRule, str]] = {}
    lines: list[str] = []
    players: list[GameRule] = []
    tool: list[GameRule] = []
    game: list[GameRule] = []
    skipped: list[str] = []
    unwritten: list[tuple[GameRule, str]] = []
    steps: list[tuple[GameRule, Section, tuple[Change, ...]]] = []
    for rule_set in rule_sets:
        for rule in rule_set.rules:
            if not rule.applies(profile.map, chosen):
                skipped.append(f"{rule.label}: not for this game ({_why_skipped(rule, profile.map, chosen)})")
                continue
            {"players": players, "tool": tool, "game": game}[rule.enforced_by].append(rule)
            if rule.enforced_by != "game":
                continue
            context = ActionContext(board, profile, names, rule, claimed)
            if rule.built_in and not rule.changes:
                lines.append(f"{rule.title}: already in the game ({rule.built_in})")
            before = len(unwritten)
            tried = _plan_changes(context, chosen, claimed, steps, lines, unwritten)
            if tried and len(unwritten) - before == tried:
                game.pop()  # nothing of it is in the game: the players enforce it all
    changes = [change for _, _, made in steps for change in made]
    return AppliedRules(
        tuple(rule_sets), tuple(changes), tuple(lines), tuple(players), tuple(tool), tuple(game), tuple(skipped), tuple(unwritten), tuple(steps)
    )


def _plan_changes(
    context: ActionContext,
    chosen: frozenset[str],
    claimed: dict[tuple[str, ...], tuple[object, GameRule, str]],
    steps: list[tuple[GameRule, Section, tuple[Change, ...]]],
    lines: list[str],
    unwritten: list[tuple[GameRule, str]],
) -> int:
    """Plan one rule's chosen changes into ``steps`` and ``lines``, or into ``unwritten``; how many were chosen."""
    rule = context.rule
    tried = 0
    for change in rule.changes:
        if not is_chosen(change.data.get("when"), change.data.get("unless"), chosen):
            continue
        tried += 1
        try:
            planned = CHANGE_ACTIONS[change.data["kind"]](context, change)
        except (CannotWrite, UnknownNameError) as error:
            # What the map lacks (a strait, a power, a victory city) costs this change, not the draft.
            unwritten.append((rule, _cannot_reason(error, rule)))
            continue
        for item in planned:
            if item.key in claimed:
                value, other, other_line = claimed[item.key]
                if value != item.value:
                    raise DataFileError(_conflict(item, other, other_line, rule), where=None)
                if (other.set_id != rule.set_id or other.id != rule.id) and item.line:
                    lines.append(f"{rule.title}: {item.line} (already done by {other.label})")
                # Planned already, by another rule or by another change of this one (the technology
                # section that each of HR5's technologies needs): written once.
                continue
            claimed.setdefault(item.key, (item.value, rule, item.line))
            steps.append((rule, change, item.changes))
            if item.line:
                lines.append(f"{rule.title}: {item.line}")
    return tried


def _cannot_reason(error: KremlinError, rule: GameRule) -> str:
    """The error's words, led by the rule's label once (an unknown name's message does not carry it)."""
    text = str(error)
    return text if text.startswith(rule.label) else f"{rule.label}: {text}"


def _conflict(item: Planned, first: GameRule, first_line: str, second: GameRule) -> str:
    """Two rules that write the same thing differently, in the players' words, and the switch that settles it."""
    what = {"canal": "the {} strait", "property": "the game option {!r}", "tech": "{} technology {}", "cost": "{} price of {}"}.get(
        item.key[0], item.key[0] + " {}"
    )
    args = [possessive(str(a)) if n == 0 and item.key[0] in ("tech", "cost") else a for n, a in enumerate(item.key[1:])]  # the Germans' technology
    thing = what.format(*args) if what.count("{}") + what.count("{!r}") == len(item.key) - 1 else f"{item.key[0]} {' '.join(map(str, item.key[1:]))}"
    switches = [
        f"`{r.when} = false` under `[house_rule_choices.{r.set_id}]` (command line: --switch {r.when}=off) to keep {o.title} ({o.set_id})"
        for r, o in ((second, first), (first, second))
        if _house_switch(r)
    ]
    # A Kremlin ruleset's rule that gives way to a house set's when the draft says so (its `unless`).
    switches += [
        f"list `{choice}` in the draft's `choices` to keep {o.title} ({o.set_id})"
        for r, o in ((first, second), (second, first))
        if r.unless and not _house_switch(r)
        for choice in _draft_choices(r.unless, o)
    ]
    settle = ("to keep only one, set " + ", or ".join(switches)) if switches else "drop one of the two rule sets"
    return (
        f"conflicting rules: {first.title} ({first.label}) and {second.title} ({second.label}) both write {thing}, differently: "
        f"{first_line or first.title}; but {item.line or second.title}. {settle[:1].upper()}{settle[1:]}"
    )


def _draft_choices(condition: str, other: GameRule) -> list[str]:
    """The draft's choices a ruleset rule's ``unless`` names, leaving out the other set's own switches (``winning``)."""
    try:
        switches = set(load_named_house_set(other.file or other.set_id).choices)
    except DataFileError:
        switches = set()
    return [term for term in (t.strip() for t in condition.split(" and ")) if not term.startswith("not ") and term not in switches]


def _house_switch(rule: GameRule) -> bool:
    """Whether the rule is turned on by a switch of its house-rule set (its [choices] table)."""
    if not rule.when or "=" in rule.when:
        return False
    try:
        return rule.when in load_named_house_set(rule.file or rule.set_id).choices
    except DataFileError:
        return False  # not a house-rule set (a Kremlin ruleset)


def _why_skipped(rule: GameRule, map_name: str, choices: frozenset[str]) -> str:
    if rule.maps and map_name not in rule.maps:
        return f"maps {', '.join(rule.maps)}"
    if rule.when is not None and rule.when not in choices:
        return f"only with the choice {rule.when!r}"
    return f"not with the choice {rule.unless!r}"


# -- the change kinds: (allowed keys, implementation) --------------------------


@CHANGE_ACTIONS.register("set_property")
def _set_property(ctx: ActionContext, change: Section) -> list[Planned]:
    name = change.text("name")
    raw = change.get("value", "true/false, a whole number or a text", lambda v: isinstance(v, (bool, int, str)))
    value = ("true" if raw else "false") if isinstance(raw, bool) else str(raw)
    old = ctx.board.properties.get(name)
    was = f"was {old!r}" if old is not None else "not in the game before: declared"
    # A property the game gives under an older name 2.7 reads as this one (an editable one there wins over ours):
    # set to the same value, or 2.7 plays Warlords' "Battleships repair at end of round" = true over ours.
    legacy = LEGACY_PROPERTY_NAMES.get(name, ())
    aliases = {k for k in ctx.board.properties if k.lower() in legacy} if legacy else set()
    changes = (SetProperty(name, value), *(SetProperty(alias, value) for alias in sorted(aliases)))
    also = f"; also under its older name{'s' if len(aliases) > 1 else ''} {', '.join(map(repr, sorted(aliases)))}" if aliases else ""
    return [Planned(("property", name), value, changes, f"game option {name!r} = {value} ({was}{also})")]


#: 2.7's GameParser reads these older property names as the newer one (LegacyPropertyMapper.mapPropertyName), lower case.
LEGACY_PROPERTY_NAMES = {
    "Units Repair Hits End Turn": ("battleships repair at end of round", "units repair at end of round"),
    "Units Repair Hits Start Turn": ("battleships repair at beginning of round", "units repair at beginning of round"),
}


@CHANGE_ACTIONS.register("canal")
def _canal(ctx: ActionContext, change: Section) -> list[Planned]:
    key = change.text("strait")
    strait = ctx.profile.straits.get(key)
    if strait is None:
        raise ctx.cannot(f"the map profile {ctx.profile.path} has no [straits.{key}] (known: {', '.join(sorted(ctx.profile.straits)) or 'none'})")
    land_names = change.texts("land", None) or list(strait.land)
    sides = f"; its sides: {strait.land_reason}" if not change.has("land") and strait.land_reason else ""
    if not land_names:
        raise ctx.cannot(f"which land territories control the strait {key!r}: give `land` in the rule or in the profile's [straits.{key}]")
    land = tuple(ctx.names.territory(n, where=ctx.where) for n in land_names)
    ships = change.choice("ships", ("all", "surface"), '"all" or "surface"', "all")
    control = change.choice("control", ("all_of", "any_of"), '"all_of" or "any_of"', "all_of")
    catalog = ctx.board.catalog
    passing = sorted(u for u in catalog.unit_types if catalog.unit_type(u).domain == "air")
    if ships == "surface":
        # "Submarines" in the rule text: the map's unit for that word (profile [units]).
        passing.append(ctx.unit("submarine"))
    for pair in strait.sea_zone_pairs:
        for zone in pair:
            ctx.board.node(zone)  # each a place of this game
    return [_canal_planned(key, strait, land, ships, control, tuple(passing), sides)]


@functools.lru_cache(maxsize=64)
def _canal_planned(key: str, strait: Strait, land: tuple[str, ...], ships: str, control: str, passing: tuple[str, ...], sides: str) -> Planned:
    """The canal attachments of a strait, from values alone: worked out once for the same strait, land and units
    passing (the matrix plans a ruleset's rules again after every pick it tries, and a strait's XML never changes)."""
    groups = [list(land)] if control == "all_of" else [[t] for t in land]
    changes: list[Change] = []
    number = 0
    for a, b in strait.sea_zone_pairs:
        for group in groups:
            number += 1
            canal_name = f"Kremlin {strait.name} {number}"
            for zone in (a, b):
                changes.append(
                    AddXml(
                        "attachmentList",
                        _canal_xml(f"canalAttachmentKremlin{_camel(strait.name)}{number}", zone, canal_name, group, list(passing)),
                        description=f"canal {canal_name!r} on {zone}: ships pass {a}<->{b} only if allied with the owner of {' and '.join(group)}",
                    )
                )
    who = " and ".join(land) if control == "all_of" else " or ".join(land)
    pairs = ", ".join(f"{a}<->{b}" for a, b in strait.sea_zone_pairs)
    passes = "air units" + (" and submarines" if ships == "surface" else "")
    line = f"the {strait.name.replace('_', ' ')} strait ({pairs}): ships pass only for the side that owns {who}; {passes} pass freely (profile: {strait.reason}{sides})"
    return Planned(("canal", key), (land, ships, control), tuple(changes), line)


def _canal_xml(name: str, zone: str, canal_name: str, land: list[str], passing: list[str]) -> str:
    options = [("canalName", canal_name), ("landTerritories", ":".join(land))]
    if passing:
        options.append(("excludedUnits", ":".join(passing)))
    body = "".join(f'<option name="{xml_attr(k)}" value="{xml_attr(v)}"/>' for k, v in options)
    return f'<attachment name="{xml_attr(name)}" attachTo="{xml_attr(zone)}" javaClass="games.strategy.triplea.attachments.CanalAttachment" type="territory">{body}</attachment>'


@CHANGE_ACTIONS.register("victory_city")
def _victory_city(ctx: ActionContext, change: Section) -> list[Planned]:
    source = ctx.names.territory(change.text("from"), where=ctx.where)
    target = ctx.names.territory(change.text("to"), where=ctx.where)
    count = ctx.board.node(source)["victory_city"]
    if not count:
        raise ctx.cannot(f"{ctx.names.shown(source)} is not a victory city in {ctx.board.game_name}")
    changes = (SetTerritory(source, "victory_city", 0), SetTerritory(target, "victory_city", count))
    line = f"the victory city of {ctx.names.shown(source)} moves to {ctx.names.shown(target)}"
    return [Planned(("victory_city", source), 0, changes[:1], line), Planned(("victory_city", target), count, changes[1:], "")]


@CHANGE_ACTIONS.register("turn_step")
def _turn_step(ctx: ActionContext, change: Section) -> list[Planned]:
    step_id = change.text("id")
    power = ctx.power(change.text("power"))
    change.get("move", '"non_combat"', lambda v: v == "non_combat")
    rounds = change.integer("rounds", None)
    position = change.text("position")
    placed = ctx.profile.turn_step_positions.get(position)
    if placed is None:
        raise ctx.cannot(f"the map profile {ctx.profile.path} has no [turn_step_positions.{position}]")
    # TripleA treats a move step whose name ends in "NonCombatMove" as non-combat
    # (GameStepPropertiesHelper.isNonCombatDelegate); the property says it outright.
    name = f"kremlin{_camel(step_id)}{power}NonCombatMove"
    runs = f' maxRunCount="{rounds}"' if rounds is not None else ""
    xml = (
        f'<step name="{xml_attr(name)}" delegate="move" player="{xml_attr(power)}" display="{xml_attr(ctx.rule.title)}"{runs}>'
        '<stepProperty name="nonCombatMove" value="true"/></step>'
    )
    when = f"in the first {rounds} round(s) only" if rounds is not None else "every round"
    line = f"a non-combat move step for {power} ({name}) after {placed.after}, {when} (profile: {placed.reason})"
    return [Planned(("turn_step", step_id), (power, position, rounds), (AddXml("sequence", xml, after=placed.after, description=line),), line)]


@CHANGE_ACTIONS.register("grant_tech")
def _grant_tech(ctx: ActionContext, change: Section) -> list[Planned]:
    power = ctx.power(change.text("power"))
    tech = change.text("tech")
    return [*listed_technology(ctx, tech), Planned(("tech", power, tech), True, (GrantTech(power, tech),), f"{power} start with {tech}")]


@CHANGE_ACTIONS.register("frontier_cost")
def _frontier_cost(ctx: ActionContext, change: Section) -> list[Planned]:
    power = ctx.power(change.text("power"))
    costs = change.counts("costs")
    planned = []
    for name, cost in costs.items():
        unit = ctx.unit(name)
        old = ctx.board.catalog.cost(unit, power)
        if old is None:
            raise ctx.cannot(f"{power} cannot buy {unit} in {ctx.board.game_name}, so it has no price to change")
        # The rule's price replaces the game's; a technology that swaps frontiers keeps its own
        # saving on it (the twin frontier's price moves by as much), so the power keeps the technology.
        new, twins, with_tech = priced(ctx, power, unit, lambda was, old=old, cost=cost: max(was + cost - old, 0))
        planned.append(
            Planned(
                ("cost", power, unit), (new, twins), (SetProductionCost(power, unit, new, twins),), f"{power} pay {new} PUs for {unit} (was {old}{with_tech})"
            )
        )
    return planned


@CHANGE_ACTIONS.register("attachment_option")
def _attachment_option(ctx: ActionContext, change: Section) -> list[Planned]:
    attachment = change.text("attachment")
    target = change.text("attach_to")
    if change.text("attachment") == "unitAttachment":
        attach_to = ctx.unit(target)  # a unit type's options (classic fighters made interceptors: 003 Strategic Bombings)
    else:
        try:
            attach_to = ctx.names.power(target)
        except UnknownNameError:
            attach_to = ctx.place(target)
    option = change.text("option")
    given = [k for k in ("value", "add", "remove") if change.has(k)]
    if len(given) != 1:
        raise change.fail("value", "exactly one of value, add, remove")
    if (attach_to, attachment) not in ctx.board.catalog.attachments:
        raise ctx.cannot(f"{ctx.board.game_name} has no {attachment} on {attach_to} whose {option} the rule would set")
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


@CHANGE_ACTIONS.register("place_units")
def _place_units(ctx: ActionContext, change: Section) -> list[Planned]:
    power, at = ctx.power(change.text("power")), ctx.place(change.text("at"))
    units = [(ctx.unit(u, power=power), n) for u, n in change.counts("units").items()]
    what = ", ".join(f"{n} {u}" for u, n in units)
    return [
        Planned(
            ("units", ctx.rule.set_id, ctx.rule.id, at),
            tuple(units),
            tuple(PlaceUnits(at, power, u, n) for u, n in units),
            f"{power} start with {what} more in {ctx.names.shown(at)}",
        )
    ]


@CHANGE_ACTIONS.register("move_units")
def _move_units(ctx: ActionContext, change: Section) -> list[Planned]:
    power = ctx.power(change.text("power"))
    source, target = ctx.place(change.text("from")), ctx.place(change.text("to"))
    units = [(ctx.unit(u, power=power), n) for u, n in change.counts("units").items()]
    for unit, count in units:
        if ctx.board.units(source)[(power, unit)] < count:
            raise ctx.cannot(f"{ctx.board.game_name} has {ctx.board.units(source)[(power, unit)]} {power} {unit} in {source}, the rule moves {count}")
    what = ", ".join(f"{n} {u}" for u, n in units)
    made: list[Change] = [RemoveUnits(source, power, u, n) for u, n in units] + [PlaceUnits(target, power, u, n) for u, n in units]
    return [
        Planned(
            ("units", ctx.rule.set_id, ctx.rule.id, source, target),
            tuple(units),
            tuple(made),
            f"{power} start with {what} in {ctx.names.shown(target)} instead of {ctx.names.shown(source)}",
        )
    ]


assert set(CHANGE_ACTIONS) == set(CHANGE_KINDS), "every change kind of the rule data has exactly one action"


def _camel(text: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", text) if part)

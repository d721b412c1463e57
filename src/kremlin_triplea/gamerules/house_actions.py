"""Game-file actions the house-rule sets need beyond the shared ones of :mod:`game_rules`.

Each is one change kind of ``rules.game_rules.CHANGE_KINDS``, implemented once and registered in
``CHANGE_ACTIONS`` as the shared ones of :mod:`actions` are: it reads one ``change``
entry of a rule and returns what it plans, so conflicts between sets are found
on the same keys (``("cost", power, unit)``, ``("property", name)`` ...).

=================  =========================================================
tech_cost          ``power``, ``cost``: the price of one research die/token
                   (TripleA techAttachment ``techCost``)
price_change       ``power``, ``units`` ("sea", "air", "sea and air"),
                   ``change`` (PUs) or ``percent`` with ``round`` = "up":
                   that power's own prices for those units
set_pus            ``power``, ``change``: starting PUs up or down
trigger_pus        ``power``, ``amount``, ``after_step``: PUs paid once by a
                   TripleA trigger after that step in round 1
trigger_units      ``power``, ``units``, ``at``, ``before_step``, ``uses`` (1):
                   units placed for free by a trigger as that step starts,
                   the first time(s) the power's side controls ``at``
power_tech         ``power``, ``name``, ``movement_bonus`` / ``attack_bonus`` /
                   ``defense_bonus`` = { unit = n }, ``abilities`` = { unit =
                   "canBlitz" }: a technology only that power owns, granted by
                   a trigger as the game's first step starts; the game's built-in
                   technologies are written out first (for files without a
                   <technology> section, as every game of these sets is)
tech_ability       ``tech``, ``air_attack_bonus`` / ``air_defense_bonus`` = { unit = n }:
                   a built-in technology's air battle bonuses (004 HR5's Radar, Jet
                   Power, Heavy Bomber), TripleA's own effect of it written beside them
unit_support       ``power``, ``attach_to``, ``units``, ``side``, ``bonus``, ``number``: a
                   support rule of that power only (004's Wolf Packs)
objective          ``power``, ``amends`` (the game's objective), ``value``,
                   ``condition`` entries (TripleA RulesAttachment options on
                   their ``players``): the objective is paid only if the
                   game's objective and the conditions all hold
technology_prices  ``tech``, ``percent``, ``round`` = "up": the prices a technology that
                   swaps frontiers gives (003's Industrial Technology), for every power
neutral_armies     the set's neutral table: production and unowned armies
give_neutral       ``power``, ``neutral``, ``pay``, ``army`` ("new", or
                   "neutral's" when the neutral rule already placed it): a
                   neutral of the table joins the power with its army
=================  =========================================================
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kremlin_triplea.errors import possessive
from kremlin_triplea.gamerules.context import CHANGE_ACTIONS, ActionContext, Planned
from kremlin_triplea.gamerules.triggers import RULES_CLASS, USE_TRIGGERS, attachment_xml, condition, round_one_condition, trigger, xml_attr
from kremlin_triplea.model.changes import (
    AddPUs,
    AddXml,
    Change,
    CopyAttachment,
    PlaceUnits,
    RemoveUnits,
    SetAttachmentOption,
    SetFrontierPrice,
    SetOwner,
    SetProductionCost,
    SetTerritory,
)
from kremlin_triplea.rules.house_rules import neutral_table

if TYPE_CHECKING:
    from kremlin_triplea.model.board import Board
    from kremlin_triplea.rules.game_rules import GameRule
    from kremlin_triplea.rules.tomlfile import Section

# The RulesAttachment options an objective's condition may use (RulesAttachment.java, TripleA 1.9).
CONDITION_OPTIONS = (
    "alliedOwnershipTerritories",
    "directOwnershipTerritories",
    "alliedExclusionTerritories",
    "directExclusionTerritories",
    "enemyExclusionTerritories",
    "enemySurfaceExclusionTerritories",
    "directPresenceTerritories",
    "alliedPresenceTerritories",
)
TERRITORY_GROUPS = ("controlled", "controlledNoWater", "original", "originalNoWater", "all", "map", "enemy")


def _planned(key: tuple[str, ...], value: object, changes: list[Change] | tuple[Change, ...], line: str) -> Planned:
    return Planned(key, value, tuple(changes), line)


def _tag(ctx: ActionContext) -> str:
    return rule_tag(ctx.rule)


def rule_tag(rule: GameRule) -> str:
    """A name part unique to the rule: attachments the tool adds say which rule made them (``KremlinHr8SovietObjective``)."""
    return "Kremlin" + "".join(p[:1].upper() + p[1:] for p in re.split(r"[^A-Za-z0-9]+", rule.id) if p)


def _use_triggers(ctx: ActionContext) -> Planned:
    # Triggers only run with 'Use Triggers' on (Properties.getTriggers; AA50 and Revised lack it).
    return _planned(("property", "Use Triggers"), "true", [USE_TRIGGERS], "game option 'Use Triggers' = true (the rule's trigger needs it)")


def _round_one(ctx: ActionContext, power: str) -> tuple[str, AddXml]:
    name = f"conditionAttachment{_tag(ctx)}Round1{power}"
    return name, round_one_condition(name, power)


@CHANGE_ACTIONS.register("tech_cost")
def tech_cost(ctx: ActionContext, change: Section) -> list[Planned]:
    power = ctx.power(change.text("power"))
    cost = change.integer("cost")
    line = f"{power} pay {cost} PUs per research die (TripleA techCost; 5 before)"
    return [_planned(("tech_cost", power), cost, [SetAttachmentOption("techAttachment", power, "techCost", str(cost))], line)]


def _units_of(ctx: ActionContext, which: str) -> list[str]:
    domains = {"sea": {"sea"}, "air": {"air"}, "sea and air": {"sea", "air"}}.get(which)
    if domains is None:
        raise ctx.fail(f'`units` is "sea", "air" or "sea and air", not {which!r}')
    catalog = ctx.board.catalog
    return sorted(u for u, t in catalog.unit_types.items() if t.domain in domains)


@CHANGE_ACTIONS.register("price_change")
def price_change(ctx: ActionContext, change: Section) -> list[Planned]:
    power = ctx.power(change.text("power"))
    which = change.text("units")
    step = change.integer("change", None)
    percent = change.integer("percent", None)
    if (step is None) == (percent is None):
        raise ctx.fail("give exactly one of `change` (PUs) and `percent`")
    if percent is not None:
        change.get("round", '"up"', lambda v: v == "up")
    planned = []
    catalog = ctx.board.catalog

    def lowered(old: int) -> int:
        return max(old + step if step is not None else math.ceil(old * (100 + percent) / 100), 0)

    for unit in _units_of(ctx, which):
        old = catalog.costs.get((power, unit))
        if old is None:
            continue  # not in this power's frontier (classic.xml sells no destroyers): no price to lower
        # The power's own frontier gets its own twin for every technology that swaps frontiers, the
        # change made there too: 003 "cumulative with Industrial Technology", and 004's War Economy
        # keeps its discount with Improved Shipyards on AA50.
        new, twins, with_tech = priced(ctx, power, unit, lowered)
        planned.append(
            _planned(
                ("cost", power, unit),
                (new, twins),
                [SetProductionCost(power, unit, new, twins)],
                f"{power} pay {new} PUs for {unit} (was {old}{with_tech})",
            )
        )
    if not planned:
        raise ctx.cannot(f"{power} can buy no {which} units in {ctx.board.game_name}")
    return planned


@CHANGE_ACTIONS.register("set_pus")
def set_pus(ctx: ActionContext, change: Section) -> list[Planned]:
    power = ctx.power(change.text("power"))
    delta = change.integer("change")
    # The key is the rule's own: two rules adding PUs add up, they do not conflict.
    return [
        _planned(
            ("pus", ctx.rule.set_id, ctx.rule.id, power),
            delta,
            [AddPUs(power, delta)],
            f"{power} start with {delta:+d} PUs ({ctx.board.pus.get(power, 0)} in the game)",
        )
    ]


@CHANGE_ACTIONS.register("trigger_pus")
def trigger_pus(ctx: ActionContext, change: Section) -> list[Planned]:
    power = ctx.power(change.text("power"))
    amount = change.integer("amount")
    step = change.text("after_step")
    held, round_one = _round_one(ctx, power)
    line = f"{power} receive {amount} PUs once, after {step} in round 1 (a TripleA trigger, uses=1)"
    pays = trigger(f"triggerAttachment{_tag(ctx)}{power}", power, [held], f"after:{step}", [("resource", "PUs"), ("resourceCount", str(amount))], line)
    changes = [round_one, pays]
    return [_use_triggers(ctx), _planned(("trigger", ctx.rule.set_id, ctx.rule.id, power), amount, changes, line)]


@CHANGE_ACTIONS.register("trigger_units")
def trigger_units(ctx: ActionContext, change: Section) -> list[Planned]:
    """Units placed for free by a trigger once the power's side controls ``at``, as the step ``before_step`` starts."""
    power = ctx.power(change.text("power"))
    at = ctx.names.territory(change.text("at"), where=ctx.where)
    units = [(ctx.unit(u, power=power), n) for u, n in change.counts("units").items()]
    step = change.text("before_step")
    uses = change.integer("uses", 1)
    tag = _tag(ctx)
    # alliedOwnershipTerritories on the power: the territory is held by it or an ally ("the Allies control").
    held = f"conditionAttachment{tag}{power}"
    controls = condition(held, power, [("players", power), ("alliedOwnershipTerritories", at)], f"condition: {possessive(power)} side controls {at}")
    what = ", ".join(f"{n} {u}" for u, n in units)
    line = (
        f"{power} receive {what} in {ctx.names.shown(at)} for free, as {step} starts, the first time their side "
        f"controls {ctx.names.shown(at)} then (a TripleA trigger, uses={uses})"
    )
    # A placement trigger with `when` fires as that step starts (BaseTripleADelegate.start), for its players.
    places = trigger(
        f"triggerAttachment{tag}{power}",
        power,
        [held],
        f"before:{step}",
        [("placement", f"{n}:{at}:{unit}") for unit, n in units],
        line,
        uses=uses,
    )
    changes: list[Change] = [controls, places]
    return [_use_triggers(ctx), _planned(("trigger", ctx.rule.set_id, ctx.rule.id, power), (at, tuple(units), step), changes, line)]


# TripleA's built-in technologies when a game file has no <technology> section
# (TechAdvance.createDefaultTechAdvances, TripleA 1.9): which list depends on
# the WW2V3 / WW2V2 properties, and WW2V3 splits research into two categories.
_AIR_AND_NAVAL = ("superSub", "jetPower", "shipyards", "aARadar", "longRangeAir", "heavyBomber")
_LAND_AND_PRODUCTION = ("improvedArtillerySupport", "rocket", "paratroopers", "increasedFactoryProduction", "warBonds", "mechanizedInfantry")
_BUILT_IN_TECHS = {
    "WW2V3": {"Air and Naval Advances": _AIR_AND_NAVAL, "Land and Production Advances": _LAND_AND_PRODUCTION},
    "WW2V2": {"Technology Advances": ("jetPower", "superSub", "longRangeAir", "rocket", "destroyerBombard", "heavyBomber")},
    "classic": {"Technology Advances": ("jetPower", "superSub", "longRangeAir", "rocket", "industrialTechnology", "heavyBomber")},
}


# The technologies whose TripleA advance swaps the owner's production frontier F for the frontier
# named F + a suffix (IndustrialTechnologyAdvance and ImprovedShipyardsAdvance.perform, TripleA 1.9
# and 2.7: "No tech named: <F><suffix> not adding tech" when the game lacks it).
FRONTIER_SWAPS = {"industrialTechnology": "IndustrialTechnology", "shipyards": "Shipyards"}


def game_technologies(board: Board) -> tuple[str, ...]:
    """The technologies the game defines: its <technology> section (an empty one defines none), else TripleA's built-in
    list for its rules."""
    if board.catalog.technologies is not None:
        return board.catalog.technologies
    return tuple(t for names in _BUILT_IN_TECHS[_tech_model(board)].values() for t in names)


def _tech_model(board: Board) -> str:
    props = board.properties
    return "WW2V3" if props.get("WW2V3") == "true" else "WW2V2" if props.get("WW2V2") == "true" else "classic"


def frontier_twins(ctx: ActionContext, power: str) -> dict[str, dict[str, int]]:
    """suffix -> the prices of the frontier a technology of the game moves ``power`` to.

    From the game's own data: each technology it defines that swaps frontiers, whose twin of the
    power's frontier the game has (AA50: Improved Shipyards' productionShipyards; classic and
    Revised: Industrial Technology's productionIndustrialTechnology), at the prices an earlier
    rule writes there (003's Industrial Technology) or else the game's.
    """
    frontiers = ctx.board.catalog.frontiers
    frontier = ctx.board.catalog.player_frontiers.get(power)
    if frontier is None:
        return {}
    found = {}
    for suffix in _swap_suffixes(ctx.board):
        twin = f"{frontier}{suffix}"
        if twin in frontiers:
            found[suffix] = {unit: _written_price(ctx, twin, unit, cost) for unit, cost in frontiers[twin].items()}
    return found


def _swap_suffixes(board: Board) -> list[str]:
    return [FRONTIER_SWAPS[t] for t in game_technologies(board) if t in FRONTIER_SWAPS]


def _written_price(ctx: ActionContext, frontier: str, unit: str, cost: int) -> int:
    written = ctx.written(("frontier_price", frontier, unit))
    return written if isinstance(written, int) else cost


def priced(ctx: ActionContext, power: str, unit: str, new_price: Callable[[int], int]) -> tuple[int, tuple[tuple[str, int | None], ...], str]:
    """``power``'s new price of ``unit`` and of it in every twin frontier (``new_price`` of the old one),
    with the words saying what changed in the twins."""
    old = ctx.board.catalog.cost(unit, power)
    if old is None:
        raise ctx.cannot(f"{power} cannot buy {unit} in {ctx.board.game_name}, so it has no price to change")
    twins = []
    words = []
    for suffix, prices in frontier_twins(ctx, power).items():
        twin_old = prices.get(unit)
        twin_new = None if twin_old is None else new_price(twin_old)
        twins.append((suffix, twin_new))
        if twin_new is not None:
            words.append(f"; {twin_new} in the {suffix} frontier (was {twin_old})")
    return new_price(old), tuple(twins), "".join(words)


@CHANGE_ACTIONS.register("technology_prices")
def technology_prices(ctx: ActionContext, change: Section) -> list[Planned]:
    """The prices a technology that swaps frontiers gives, for every power: each unit of the frontier it
    moves a power to costs the unit's price before it, changed by ``percent`` (rounded up)."""
    tech = change.text("tech")
    suffix = FRONTIER_SWAPS.get(tech)
    if suffix is None or tech not in game_technologies(ctx.board):
        swapping = [t for t in game_technologies(ctx.board) if t in FRONTIER_SWAPS]
        raise ctx.cannot(f"{tech!r} is no technology of {ctx.board.game_name} that moves a power to other prices (those are: {', '.join(swapping) or 'none'})")
    percent = change.integer("percent")
    change.get("round", '"up"', lambda v: v == "up")
    frontiers = ctx.board.catalog.frontiers
    planned = []
    for frontier in sorted(set(ctx.board.catalog.player_frontiers.values())):
        twin = f"{frontier}{suffix}"
        if twin not in frontiers:
            raise ctx.cannot(f"{ctx.board.game_name} has no frontier {twin!r}, where {tech} moves the powers buying from {frontier!r}")
        for unit, was in sorted(frontiers[twin].items()):
            base = frontiers[frontier].get(unit)
            if base is None:
                continue  # sold only with the technology: no price before it to take the percentage of
            cost = math.ceil(base * (100 + percent) / 100)
            line = f"{unit} costs {cost} PUs with {tech} ({base} {percent:+d}%, rounded up; TripleA's {twin} had {was})"
            planned.append(_planned(("frontier_price", twin, unit), cost, [SetFrontierPrice(twin, unit, cost)], line))
    return planned


def _technology_section(ctx: ActionContext) -> list[Planned]:
    """The game's <technology> section written out as TripleA builds it, so a custom technology can join it; nothing
    for a game with its own list, which a technology joins as it is (a second list would be the only one TripleA
    keeps: it reads the last of a section given twice, and the game's own technologies would be unknown).

    The games these sets were written for have no such section; writing TripleA's own
    list and research categories keeps research exactly as it was.
    """
    if ctx.board.catalog.technologies is not None:
        return []
    model = _tech_model(ctx.board)
    categories = _BUILT_IN_TECHS[model]
    techs = [t for names in categories.values() for t in names]
    changes: list[Change] = [
        AddXml(
            "technology",
            "<technologies>" + "".join(f'<techname name="{t}"/>' for t in techs) + "</technologies>",
            description=f"TripleA's built-in technologies ({model}), written out",
        )
    ]
    for player in ctx.board.catalog.turn_order():
        body = "".join(f'<category name="{xml_attr(c)}">' + "".join(f'<tech name="{t}"/>' for t in names) + "</category>" for c, names in categories.items())
        changes.append(
            AddXml(
                "technology",
                f'<playerTech player="{xml_attr(player)}">{body}</playerTech>',
                description=f"{possessive(player)} research categories, as TripleA's own",
            )
        )
    return [_planned(("technology_section",), model, changes, f"the game's technologies written out as TripleA's built-in {model} list (research unchanged)")]


def listed_technology(ctx: ActionContext, tech: str) -> list[Planned]:
    """A built-in technology the game's technologies leave out (004 Radar on Revised: WW2V2 has no aARadar) joins
    them, so that granting it means something; it joins no research category, so research stays as it was. Nothing
    for a technology the game already lists.

    A game with its own <technologies> list gets the one name added to that list: a second list would be the only
    one TripleA keeps (it reads the last of a section given twice), and the game's own technologies (Pacific 1940's
    Airborne_Forces) would be unknown to its research categories. A game without one gets TripleA's built-in list
    written out first, as TripleA builds it."""
    if tech in game_technologies(ctx.board):
        return []
    line = f"technology {tech!r} added to the game's technologies (they do not list it; no research category)"
    return [
        *_technology_section(ctx),
        _planned(("technology", tech), True, [AddXml("technologies", f'<techname name="{xml_attr(tech)}"/>', description=line)], line),
    ]


# The first step of every game the house sets are for (world_war_ii_classic, classic_variations,
# world_war_ii_revised, world_war_ii_v3): the initialization delegate's. The engine tests check the
# technologies it grants are owned after it.
FIRST_STEP = "gameInitDelegate"


@CHANGE_ACTIONS.register("power_tech")
def power_tech(ctx: ActionContext, change: Section) -> list[Planned]:
    power = ctx.power(change.text("power"))
    name = change.text("name")
    options: list[tuple[str, str]] = []
    # radarBonus: what an AA gun adds to its roll against planes (TechTracker.getRadarBonus, a sum over the power's
    # technologies in 1.9 and 2.7), without the built-in Radar's other effects (004 HR5 gives a defender with Radar
    # fighters at +1).
    bonuses = (("movement_bonus", "movementBonus"), ("attack_bonus", "attackBonus"), ("defense_bonus", "defenseBonus"), ("radar_bonus", "radarBonus"))
    for key, option in bonuses:
        for unit, bonus in change.counts(key, {}).items():
            options.append((option, f"{bonus}:{ctx.unit(unit)}"))
    for unit, ability in change.get("abilities", "a table of unit = ability", lambda v: isinstance(v, dict), {}).items():
        options.append(("unitAbilitiesGained", f"{ctx.unit(unit)}:{ability}"))
    if not options:
        raise ctx.fail("a power technology changes something: give movement_bonus, attack_bonus, defense_bonus, radar_bonus or abilities")
    held, round_one = _round_one(ctx, power)
    what = ", ".join(f"{k} {v}" for k, v in options)
    # game.dtd makes a techname an XML ID: no spaces. "Fast Carriers" -> "fastCarriers".
    words = re.split(r"[^A-Za-z0-9]+", name)
    tech = words[0].lower() + "".join(w[:1].upper() + w[1:] for w in words[1:] if w)
    line = f"{power} own the technology {tech!r} ({name}) from the game's first step ({what}; a TripleA trigger before {FIRST_STEP}, uses=1)"
    changes: list[Change] = [
        # A technology with no built-in meaning (no `tech`): its techAbilityAttachment says what it does.
        AddXml("technologies", f'<techname name="{tech}"/>', description=f"technology {tech!r}"),
        AddXml(
            "attachmentList",
            attachment_xml("techAbilityAttachment", tech, "games.strategy.triplea.attachments.TechAbilityAttachment", "technology", options),
            description=f"what {name!r} does: {what}",
        ),
        round_one,
        # "Your battleships attack and defend on a 5" holds from the start: the trigger fires as the
        # game's first step starts (BaseTripleADelegate.start fires "before:<step>" triggers of every
        # player, tech triggers included), not at the power's own research step, which on Revised
        # comes after the UK's first turn.
        trigger(f"triggerAttachment{_tag(ctx)}{power}", power, [held], f"before:{FIRST_STEP}", [("tech", tech)], line),
    ]
    return [*_technology_section(ctx), _use_triggers(ctx), _planned(("tech", power, tech), True, changes, line)]


def _property(ctx: ActionContext, name: str, default: str) -> str:
    """A game option as the written game will hold it: an earlier rule's value (HR4's), else the game's."""
    written = ctx.written(("property", name))
    return str(written) if written is not None else ctx.board.properties.get(name, default)


def _default_tech_ability(ctx: ActionContext, tech: str) -> dict[str, dict[str, int]]:
    """What TripleA gives the built-in ``tech`` when no techAbilityAttachment names it
    (TechAbilityAttachment.setDefaultTechnologyAttachments, 1.9 and 2.7): option -> unit -> value.
    An attachment written for the technology replaces that, so it repeats it."""
    catalog = ctx.board.catalog
    bomber = ctx.unit("bomber")  # the strategic bomber of every map these sets are for
    jets = [u for u, t in catalog.unit_types.items() if t.domain == "air" and u != bomber]
    if tech == "jetPower":
        if _property(ctx, "WW2V3 Tech Model", "false") == "true":
            return {"attackBonus": dict.fromkeys(jets, 1), "airAttackBonus": dict.fromkeys(jets, 1)}
        return {"defenseBonus": dict.fromkeys(jets, 1), "airDefenseBonus": dict.fromkeys(jets, 1)}
    if tech == "aARadar":
        return {"radarBonus": {ctx.unit("aa gun"): 1}}
    if tech == "heavyBomber":
        # The bonus over the bomber's own single roll (the games give it no attackRolls), from the
        # options the written game holds: HR4 turns LHTR on and sets 2 dice.
        bonus = int(_property(ctx, "Heavy Bomber Dice Rolls", "3")) - 1
        found = {"attackRollsBonus": {bomber: bonus}}
        if _property(ctx, "LHTR Heavy Bombers", "false") == "true":
            found |= {"defenseRollsBonus": {bomber: bonus}, "bombingBonus": {bomber: 1}}
        return found
    raise ctx.fail(f"{tech!r}: TripleA's own effect of this technology is not known here (jetPower, aARadar, heavyBomber are)")


@CHANGE_ACTIONS.register("tech_ability")
def tech_ability(ctx: ActionContext, change: Section) -> list[Planned]:
    """A built-in technology's air battle values (TechAbilityAttachment airAttackBonus / airDefenseBonus),
    beside everything else TripleA gives it."""
    tech = change.text("tech")
    options = _default_tech_ability(ctx, tech)
    for key, option in (("air_attack_bonus", "airAttackBonus"), ("air_defense_bonus", "airDefenseBonus")):
        for unit, bonus in change.counts(key, {}).items():
            options.setdefault(option, {})[ctx.unit(unit)] = bonus
    pairs = [(option, f"{value}:{unit}") for option, units in options.items() for unit, value in units.items()]
    what = ", ".join(f"{k} {v}" for k, v in pairs)
    line = f"technology {tech}: {what} (TripleA's own values of it kept)"
    attachment = attachment_xml("techAbilityAttachment", tech, "games.strategy.triplea.attachments.TechAbilityAttachment", "technology", pairs)
    planned = [*_technology_section(ctx), *listed_technology(ctx, tech)]
    planned.append(_planned(("tech_ability", tech), tuple(pairs), [AddXml("attachmentList", attachment, description=line)], line))
    return planned


@CHANGE_ACTIONS.register("unit_support")
def unit_support(ctx: ActionContext, change: Section) -> list[Planned]:
    """A TripleA support rule (UnitSupportAttachment): each ``attach_to`` unit of ``power`` gives ``bonus`` to
    ``number`` of the ``units`` on ``side`` ("offence" / "defence"), in the rolls' strength."""
    power = ctx.power(change.text("power"))
    giver = ctx.unit(change.text("attach_to"))
    units = [ctx.unit(u) for u in change.texts("units")]
    side = change.choice("side", ("offence", "defence"), '"offence" or "defence"')
    bonus, number = change.integer("bonus"), change.integer("number")
    name = f"supportAttachment{_tag(ctx)}"  # TripleA reads a unit type's attachments named supportAttachment*
    options = [
        ("unitType", ":".join(units)),
        ("faction", "allied"),
        ("side", side),
        ("dice", "strength"),
        ("bonus", str(bonus)),
        ("number", str(number)),
        ("bonusType", _tag(ctx)),
        ("players", power),
    ]
    line = f"{possessive(power)} {giver} each give {bonus:+d} to {number} of its {', '.join(units)} on {side} (a TripleA support rule)"
    xml = attachment_xml(name, giver, "games.strategy.triplea.attachments.UnitSupportAttachment", "unitType", options)
    return [_planned(("support", name), tuple(options), [AddXml("attachmentList", xml, description=line)], line)]


@CHANGE_ACTIONS.register("objective")
def objective(ctx: ActionContext, change: Section) -> list[Planned]:
    power = ctx.power(change.text("power"))
    amends = change.text("amends")
    value = change.integer("value")
    tag = _tag(ctx)
    # TripleA (1.9 AbstractConditionsAttachment.setConditions; 2.7 the same, as a stream over the
    # player list) resolves a name in `conditions` to the first player in the player list that has
    # an attachment of that name. Every AA50 power has an `objectiveAttachment1`, so naming it would
    # check another power's objective: the game's objective is copied under a name of this rule's own.
    base = f"conditionAttachment{tag}{_camel_name(amends)}"
    changes: list[Change] = [CopyAttachment(amends, power, base, without=("objectiveValue",))]
    names = [base]
    for index, entry in enumerate(change.tables("condition"), 1):
        entry.only("players", *CONDITION_OPTIONS)
        players = [ctx.power(p) for p in entry.texts("players")]
        options = [("players", ":".join(players))]
        for option in CONDITION_OPTIONS:
            if entry.has(option):
                options.append((option, _territories(ctx, entry.text(option))))
        name = f"conditionAttachment{tag}{index}"
        names.append(name)
        changes.append(condition(name, power, options, f"condition {name} for {power}: " + ", ".join(f"{k}={v}" for k, v in options)))
    # TripleA reads a condition where it is referenced, so the objective that
    # requires them follows them all: it requires the game's objective (its copy)
    # and the rule's conditions, and the game's own objective pays nothing any more.
    new = f"objectiveAttachment{tag}"
    changes.append(
        AddXml(
            "attachmentList",
            attachment_xml(new, power, RULES_CLASS, "player", [("objectiveValue", str(value)), ("conditions", ":".join(names))]),
            description=f"objective {new} for {power}",
        )
    )
    changes.append(SetAttachmentOption(amends, power, "objectiveValue", "0"))
    line = (
        f"the {power} objective {amends} (copied as {base}) now also requires: "
        + "; ".join(str(c) for c in changes if isinstance(c, AddXml) and "condition " in str(c))
        + f" (pays {value} as {new})"
    )
    return [_planned(("objective", power, amends), (value, tuple(str(c) for c in changes)), changes, line)]


def _camel_name(name: str) -> str:
    return name[:1].upper() + name[1:]


def _territories(ctx: ActionContext, text: str) -> str:
    if text in TERRITORY_GROUPS:
        return text
    match = re.fullmatch(r"original territories of (.+)", text)
    if match:
        # Computed from the board: the territories whose original owner is that power.
        power = ctx.power(match.group(1))
        found = sorted(t for t, d in ctx.board.nodes.items() if not d["water"] and d["original_owner"] == power)
        if not found:
            raise ctx.cannot(f"{ctx.board.game_name} has no territory originally owned by {power}")
        return ":".join(found)
    return ":".join(ctx.names.territory(t.strip(), where=ctx.where) for t in text.split(":"))


def _neutral_table(ctx: ActionContext) -> list[dict[str, Any]]:

    return neutral_table(ctx.rule.set_id, ctx.rule.file)


@CHANGE_ACTIONS.register("neutral_armies")
def neutral_armies(ctx: ActionContext, change: Section) -> list[Planned]:
    planned = []
    for neutral in _neutral_table(ctx):
        territory = ctx.names.territory(neutral["name"], where=ctx.where)
        node = ctx.board.node(territory)
        if node["owner"] is not None:
            # Not neutral any more (a Kremlin pick took it, 001 option 2, with its own army): the rule is for
            # "neutral territories", so it has nothing to place there; the notes say so.
            line = f"{territory}: not neutral in {ctx.board.game_name} (it belongs to {node['owner']}): no neutral army or production written there"
            planned.append(_planned(("neutral", territory), None, [], line))
            continue
        made: list[Change] = [SetTerritory(territory, "production", neutral["ipc"])]
        placed = []
        for unit_name, count in neutral["army"].items():
            unit = ctx.unit(unit_name)
            where = territory if ctx.board.catalog.unit_type(unit).domain != "sea" else _neutral_coast(ctx, neutral["name"], territory)
            made.append(PlaceUnits(where, None, unit, count))
            placed.append(f"{count} {unit}" + ("" if where == territory else f" in {where}"))
        line = f"{territory}: production {neutral['ipc']}, defended by {', '.join(placed)} (unowned)"
        planned.append(_planned(("neutral", territory), (neutral["ipc"], tuple(sorted(neutral["army"].items()))), made, line))
    return planned


def _neutral_coast(ctx: ActionContext, rule_name: str, territory: str) -> str:
    coasts = ctx.profile.neutral_coasts.get(rule_name) or ctx.profile.neutral_coasts.get(territory)
    if not coasts:
        raise ctx.cannot(f"this map gives {rule_name} no sea zone for its ships to start in (the map profile's [neutral_coasts] lists none)")
    # "placed in sea-zones not containing enemy ships if possible": every power is a neutral's enemy.
    for zone in coasts:
        if not any(owner is not None and ctx.board.catalog.unit_type(u).domain == "sea" for (owner, u), n in ctx.board.units(zone).items() if n):
            return zone
    return coasts[0]


@CHANGE_ACTIONS.register("give_neutral")
def give_neutral(ctx: ActionContext, change: Section) -> list[Planned]:
    power = ctx.power(change.text("power"))
    wanted = change.text("neutral")
    neutral = next((n for n in _neutral_table(ctx) if n["name"].lower() == wanted.lower()), None)
    if neutral is None:
        raise ctx.fail(f"{wanted!r} is not in the set's neutral table")
    # "new": the table's army appears for the power; "neutral's": the neutral
    # rule has already put the army there, unowned, and it changes sides.
    army = change.choice("army", ("new", "neutral's"), '"new" or "neutral\'s"')
    territory = ctx.names.territory(neutral["name"], where=ctx.where)
    made: list[Change] = [SetOwner(territory, power, captured=False), SetTerritory(territory, "production", neutral["ipc"])]
    for unit_name, count in neutral["army"].items():
        unit = ctx.unit(unit_name)
        where = territory if ctx.board.catalog.unit_type(unit).domain != "sea" else _neutral_coast(ctx, neutral["name"], territory)
        if army == "neutral's":
            made.append(RemoveUnits(where, None, unit, count))
        made.append(PlaceUnits(where, power, unit, count))
    line = f"{territory} joins {power} with its army ({', '.join(f'{n} {u}' for u, n in neutral['army'].items())})"
    planned = [_planned(("neutral_owner", territory), power, made, line)]
    if change.get("pay", "true or false", lambda v: isinstance(v, bool), False):
        planned.append(
            _planned(
                ("pus", ctx.rule.set_id, ctx.rule.id, power),
                -neutral["ipc"],
                [AddPUs(power, -neutral["ipc"])],
                f"{power} pay {neutral['ipc']} PUs for the alliance",
            )
        )
    return planned

"""A ruleset or a house-rule set as readable text (``kremlin-triplea options``)."""

from __future__ import annotations

import textwrap

from kremlin_triplea.rules.house_rules import HouseSet
from kremlin_triplea.rules.ruleset import Ruleset


def ruleset_text(ruleset: Ruleset) -> str:
    wrap = textwrap.TextWrapper(width=100, initial_indent="    ", subsequent_indent="    ")
    picks = ruleset.picks
    lines = [
        f"{ruleset.title} [{ruleset.id}]",
        f"source: {ruleset.source}",
        "",
        f"Picks: {picks.default} per side by default, {f'{picks.min} to {picks.max}' if picks.max else f'at least {picks.min}'} by agreement; sides alternate"
        + (f"; no option twice per side within a set of {picks.no_repeat_per} picks" if picks.no_repeat_per else "; no option twice per side")
        + f". ({picks.source})",
        f"Locks: {ruleset.locks.rule} ({ruleset.locks.source})",
        "",
    ]
    for option in ruleset.options:
        lines.append(f"{option.number}. {option.title}  (id: {option.id}; {option.source})")
        lines += wrap.wrap(option.rule)
        lines += [f"    {line}" for line in option.params.describe(ruleset)]
        lines.append("")
    for restriction in ruleset.restrictions.values():
        lines.append(f"{restriction.power}: options {', '.join(map(str, sorted(restriction.options)))} only ({restriction.source})")
        lines += wrap.wrap(restriction.rule)
        lines.append("")
    bid = ruleset.bid
    lines.append(f"Bid ({bid.source}):")
    for text in dict.fromkeys((bid.rule, bid.order_rule, bid.placement_rule, bid.amount_rule, bid.negative_rule, bid.positive_rule)):
        lines += wrap.wrap(text)
    if bid.negative == "remove_units":
        rounding = (
            "rounded away from zero to the next value they can make"
            if bid.remove_value == "round_down_to_unit"
            else "at most the bid, as near as they can make"
        )
        lines.append(
            f"    negative bid: the {bid.placing_side} remove {' and '.join(bid.removable_units)} worth the bid ({rounding})"
            + ("; never units from bonus options" if bid.keep_option_units else "")
            + " - the draft lists them: remove = [...]"
        )
        for text in (bid.removable_rule, bid.keep_option_units_rule, bid.remove_value_rule):
            if text not in (bid.negative_rule, bid.amount_rule):
                lines += wrap.wrap(text)
    if bid.positive == "declared_or_bid_phase":
        lines.append("    positive bid: declared (place = [...]) or left to TripleA's bid phase (phase = { Germans = ..., ... })")
    return "\n".join(lines) + "\n"


def house_set_text(house: HouseSet) -> str:
    """A house-rule set as readable text: its switches, its advantages per power, its rules (``kremlin-triplea options``)."""
    wrap = textwrap.TextWrapper(width=100, initial_indent="      ", subsequent_indent="      ")
    rules = house.rules
    lines = [f'{rules.title} [{rules.id}] (a house-rule set: add it to a draft with house_rules = ["{rules.id}"], or `kremlin-triplea house`)']
    lines.append(f"source: {rules.source}" + (f"; maps: {', '.join(rules.maps)}" if rules.maps else ""))
    lines.append("")
    if house.choices:
        lines.append(f"Switches (a draft's [house_rule_choices.{rules.id}] NAME = true/false; `house --switch NAME=on|off`):")
        for name, default in house.choices.items():
            governed = [r.title for r in rules.rules if name in (r.when, r.unless)]
            lines.append(f"  {name} (default {'on' if default else 'off'})" + (f": {'; '.join(governed)}" if governed else ""))
        lines.append("")
    if house.advantages:
        lines.append(f"Advantages, one per power ({house.advantages_source}): chosen by id or number, or drawn with a seed")
        if house.advantages_rule:
            lines += wrap.wrap(house.advantages_rule)
        for power in house.powers:
            lines.append(f"  {power}:")
            for advantage in house.advantages_of(power):
                choice = f" [chooses: {', '.join(advantage.choices)}]" if advantage.choices else ""
                lines.append(f"    {advantage.number}. {advantage.id}: {advantage.title}{choice} (enforced by the {advantage.rule.enforced_by})")
                lines += wrap.wrap(advantage.rule.rule)
        lines.append("")
    lines.append(f"Rules ({len(rules.rules)}):")
    for rule in rules.rules:
        condition = f" [when {rule.when}]" if rule.when else f" [unless {rule.unless}]" if rule.unless else ""
        lines.append(f"  {rule.title}{condition} (enforced by the {rule.enforced_by}; {rule.source})")
    return "\n".join(lines) + "\n"

"""A ruleset as readable text (``kremlin-triplea options``)."""

from __future__ import annotations

import textwrap

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

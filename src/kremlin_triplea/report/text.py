"""A ruleset as readable text (``kremlin-triplea options``)."""

from __future__ import annotations

import textwrap

from kremlin_triplea.rules.options import NeutralTakeoverParams, PlacementParams, TerritoryTakeoverParams
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
        params = option.params
        if isinstance(params, PlacementParams):
            sets = " | ".join(" + ".join(s) for s in params.unit_sets)
            lines.append(f"    units: {sets}; where: {' or '.join(params.at)}" + (f"; checks: {', '.join(params.require)}" if params.require else ""))
            for power, unit, place in params.exclude:
                lines.append(f"    except: no {power} {unit} in {place}")
        elif isinstance(params, NeutralTakeoverParams):
            if params.per_group:
                lines.append(f"    take {' and '.join(f'{n} {group}' for group, n in params.per_group)} neutral(s):")
            else:
                lines.append(f"    take {params.count} neutrals worth at most {params.max_total_ipc} IPCs together:")
            for neutral in ruleset.neutrals.values():
                army = ", ".join(f"{n} {u}" for u, n in neutral.army)
                value = f"{neutral.ipc} IPC" if neutral.ipc is not None else str(neutral.group)
                lines.append(f"      {neutral.name}: {value}, {army}" + (f" ({neutral.note})" if neutral.note else ""))
            if params.production == "unchanged":
                lines.append(f"    production of a taken neutral: unchanged ({params.production_reason})")
        elif isinstance(params, TerritoryTakeoverParams):
            units = ", ".join(f"{n} {u}" for u, n in params.units)
            lines.append(f"    places {units}; not where there is a {', '.join(params.forbidden_units)}")
        elif option.kind == "scenario":
            for scenario in ruleset.scenarios:
                who = scenario.side + (f", {scenario.power}" if scenario.power else "")
                lines.append(f"    {who}: scenario = {scenario.title!r} (id {scenario.id}; {scenario.source})")
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
        rounding = "rounded away from zero to the next value they can make" if bid.remove_value == "round_down_to_unit" else "at most the bid, as near as they can make"
        lines.append(f"    negative bid: the {bid.placing_side} remove {' and '.join(bid.removable_units)} worth the bid ({rounding})"
                     + ("; never units from bonus options" if bid.keep_option_units else "") + " - the draft lists them: remove = [...]")
        for text in (bid.removable_rule, bid.keep_option_units_rule, bid.remove_value_rule):
            if text not in (bid.negative_rule, bid.amount_rule):
                lines += wrap.wrap(text)
    if bid.positive == "declared_or_bid_phase":
        lines.append("    positive bid: declared (place = [...]) or left to TripleA's bid phase (phase = { Germans = ..., ... })")
    return "\n".join(lines) + "\n"

"""A ruleset as readable text (``kremlin-triplea options``)."""

from __future__ import annotations

import textwrap

from kremlin_triplea.rules.ruleset import NeutralTakeoverParams, PlacementParams, Ruleset, TerritoryTakeoverParams


def ruleset_text(ruleset: Ruleset) -> str:
    wrap = textwrap.TextWrapper(width=100, initial_indent="    ", subsequent_indent="    ")
    picks = ruleset.picks
    lines = [
        f"{ruleset.title} [{ruleset.id}]",
        f"source: {ruleset.source}",
        "",
        f"Picks: {picks.default} per side by default, {picks.min} to {picks.max} by agreement; sides alternate. ({picks.source})",
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
        elif isinstance(params, NeutralTakeoverParams):
            lines.append(f"    take {params.count} neutrals worth at most {params.max_total_ipc} IPCs together:")
            for neutral in ruleset.neutrals.values():
                army = ", ".join(f"{n} {u}" for u, n in neutral.army)
                lines.append(f"      {neutral.name}: {neutral.ipc} IPC, {army}" + (f" ({neutral.note})" if neutral.note else ""))
        elif isinstance(params, TerritoryTakeoverParams):
            units = ", ".join(f"{n} {u}" for u, n in params.units)
            lines.append(f"    places {units}; not where there is a {', '.join(params.forbidden_units)}")
        lines.append("")
    for restriction in ruleset.restrictions.values():
        lines.append(f"{restriction.power}: options {', '.join(map(str, sorted(restriction.options)))} only ({restriction.source})")
        lines += wrap.wrap(restriction.rule)
        lines.append("")
    bid = ruleset.bid
    lines.append(f"Bid ({bid.source}):")
    for text in (bid.rule, bid.placement_rule, bid.amount_rule, bid.negative_rule):
        lines += wrap.wrap(text)
    return "\n".join(lines) + "\n"

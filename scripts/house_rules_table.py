"""Print the rule-by-rule tables of docs/house-rules.md from rulesets/house-*.toml (run from the repository root)."""

from pathlib import Path

import tomllib


def how(change):
    k = change["kind"]
    if k == "canal":
        return f"canal `{change['strait']}` (map profile `[straits.{change['strait']}]`), land {', '.join(change['land'])}, {'surface ships' if change['ships'] == 'surface' else 'all sea units'} stopped, {change['control'].replace('_', ' ')}"
    if k == "set_property":
        return (
            f"property `{change['name']}` = {str(change['value']).lower()}"
            + (f" (when `{change['when']}`)" if "when" in change else "")
            + (f" (unless `{change['unless']}`)" if "unless" in change else "")
        )
    if k == "move_units":
        return f"setup: {', '.join(f'{n} {u}' for u, n in change['units'].items())} {change['from']} → {change['to']}" + (
            f" (switch `{change['when']}`)" if "when" in change else ""
        )
    if k == "place_units":
        at = change["at"] if isinstance(change["at"], str) else ", ".join(change["at"])
        return f"units: {', '.join(f'{n} {u}' for u, n in change['units'].items())} at {at}"
    if k == "tech_cost":
        return f"techAttachment `techCost` = {change['cost']}"
    if k == "grant_tech":
        return f"starting technology `{change['tech']}`"
    if k == "technology_prices":
        return f"the frontier `{change['tech']}` moves every power to: each price {change['percent']}% (rounded up)"
    if k == "price_change":
        return f"own production frontier: {change['units']} units " + (
            f"{change['change']:+d} PUs" if "change" in change else f"{change['percent']}% (rounded up)"
        )
    if k == "set_pus":
        return f"starting PUs {change['change']:+d}"
    if k == "trigger_pus":
        return f"trigger (uses=1, round 1) after `{change['after_step']}`: +{change['amount']} PUs; property `Use Triggers`"
    if k == "trigger_units":
        return f"trigger (uses={change.get('uses', 1)}) before `{change['before_step']}` if {change['power']}'s side controls {change['at']}: {', '.join(f'{n} {u}' for u, n in change['units'].items())} there; property `Use Triggers`"
    if k == "attachment_option":
        return f"`{change['option']}` = {change['value']} on the {change['attach_to']}'s `{change['attachment']}`"
    if k == "power_tech":
        bonus = "; ".join(
            f"{key.replace('_', ' ')} {', '.join(f'{u} {v:+d}' if isinstance(v, int) else f'{u} {v}' for u, v in change[key].items())}"
            for key in ("movement_bonus", "attack_bonus", "defense_bonus", "radar_bonus", "abilities")
            if key in change
        )
        return f"technology of {change['power']} only ({bonus}), granted by a trigger as the game's first step starts"
    if k == "objective":
        conds = "; ".join(", ".join(f"{a}={b}" for a, b in c.items()) for c in change["condition"])
        return f"objective `{change['amends']}` amended: new objective (value {change['value']}) = `{change['amends']}` AND condition [{conds}]"
    if k == "neutral_armies":
        return "neutral table: production = IPC value, army as unowned units, ships on a coast without ships"
    if k == "give_neutral":
        return (
            f"neutral joins {change['power']} with its army ({change['army']}), pays its IPC value"
            + (f" (when `{change['when']}`)" if "when" in change else "")
            + (f" (unless `{change['unless']}`)" if "unless" in change else "")
        )
    return k


def row(entry, where_title):
    verdict = {"game": "**engine** (written into the game)", "players": "players (in the notes)", "tool": "checked by the tool"}[entry["enforced_by"]]
    if entry["enforced_by"] == "game":
        if entry.get("change"):
            detail = "; ".join(how(c) for c in entry["change"])
        elif entry.get("built_in"):
            detail = "TripleA already does it: " + entry["built_in"]
        else:
            detail = f"by rule `{entry['written_by']}`"
        if entry.get("differs"):
            detail += f". *Differs (in the notes):* {entry['differs']}"
        if entry.get("players_keep"):
            when = "before play" if entry.get("before_play") else "during play"
            detail += f". *The players keep ({when}, quoted whole in the notes):* {entry['players_keep']}"
    else:
        detail = entry["why"] + (" (before play)" if entry.get("before_play") else "")
    cond = []
    if entry.get("when"):
        cond.append(f"switch `{entry['when']}`")
    if entry.get("unless"):
        cond.append(f"unless `{entry['unless']}`")
    if entry.get("maps"):
        cond.append("maps " + ", ".join(entry["maps"]))
    if entry.get("choice"):
        ch = entry["choice"] if isinstance(entry["choice"], str) else ", ".join(entry["choice"])
        cond.append(f"choice `{ch}`")
    title = where_title(entry)
    return f"| {title} | {verdict} | {detail.replace('|', '/')}{(' — ' + '; '.join(cond)) if cond else ''} |"


out = []
for set_id, seed in (("house-revised", "004_e624f6d1018dbbc1.txt"), ("house-classic", "003_ecae7919a6bcb85e.txt")):
    data = tomllib.loads(Path(f"rulesets/{set_id}.toml").read_text())
    out.append(f"### `{set_id}` ({seed})\n")
    out.append("| rule (source section) | enforced by | how / why TripleA cannot |")
    out.append("|---|---|---|")
    for e in data["rule"]:
        out.append(row(e, lambda e: f"{e['title']} (`{e['id']}`)"))
    out.append("")
    out.append(f"Player advantages ({data['advantages']['source']}):\n")
    out.append("| advantage | enforced by | how / why TripleA cannot |")
    out.append("|---|---|---|")
    for a in data["advantage"]:
        out.append(row(a, lambda a: f"{a['power']} {a['number']}. {a['title']} (`{a['id']}`)"))
    out.append("")
print("\n".join(out))

"""What ``kremlin-triplea show`` prints: a game's setup, readable or as JSON."""

from __future__ import annotations

from collections import Counter
from typing import Any

from kremlin_triplea.model.board import Board

# Game options a host checks before a Kremlin game, in the order shown.
OPTIONS_THAT_MATTER = (
    "Low Luck",
    "Two hit battleship",
    "Tech Development",
    "National Objectives",
    "Economic Victory",
    "Axis Economic Victory",
    "Allies Economic Victory",
    "Projection of Power",
    "Honorable Surrender",
    "Total Victory",
    "Movement By Territory Restricted",
    "Neutrals Are Impassable",
    "neutralCharge",
    "Use Triggers",
)


def summary_data(board: Board, game_name: str) -> dict[str, Any]:
    """The JSON form: players, territories with units, properties."""
    catalog = board.catalog
    players = {
        name: {"alliance": catalog.alliance_of(name), "alliances": list(catalog.players[name].alliances), "pus": board.pus.get(name, 0)}
        for name in catalog.turn_order()
    }
    territories = {}
    for name, data in sorted(board.nodes.items()):
        territories[name] = {
            "water": data["water"],
            "owner": data["owner"],
            "original_owner": data["original_owner"],
            "production": data["production"],
            "impassable": data["impassable"],
            "capital": data["capital"],
            "victory_city": data["victory_city"],
            "units": [
                {"owner": owner, "type": unit_type, "count": count}
                for (owner, unit_type), count in sorted(data["units"].items(), key=lambda kv: (kv[0][0] or "", kv[0][1]))
                if count
            ],
        }
    return {
        "game": game_name,
        "players": players,
        "territories": territories,
        "properties": dict(sorted(board.properties.items())),
    }


def summary_text(board: Board, game_name: str) -> str:
    catalog = board.catalog
    nodes = board.nodes
    lines = [game_name, ""]
    for alliance in catalog.alliances() or ["(no alliance)"]:
        members = catalog.alliance_members(alliance) if catalog.alliances() else catalog.turn_order()
        lines.append(f"{alliance}:")
        lines.append(f"  {'power':<14}{'PUs':>5}{'terr.':>7}{'prod.':>7}{'units':>7}  capital")
        for power in members:
            owned = [t for t, d in nodes.items() if d["owner"] == power and not d["water"]]
            production = sum(nodes[t]["production"] for t in owned)
            units = sum(c for _, d in nodes.items() for (o, _), c in d["units"].items() if o == power)
            capital = ", ".join(sorted(t for t, d in nodes.items() if d["capital"] == power)) or "-"
            lines.append(f"  {power:<14}{board.pus.get(power, 0):>5}{len(owned):>7}{production:>7}{units:>7}  {capital}")
        lines.append("")
    lines.append("Units by power:")
    for power in catalog.turn_order():
        totals: Counter[str] = Counter()
        for _, data in nodes.items():
            for (owner, unit_type), count in data["units"].items():
                if owner == power:
                    totals[unit_type] += count
        listed = ", ".join(f"{count} {unit}" for unit, count in sorted(totals.items()))
        lines.append(f"  {power}: {listed or 'none'}")
    neutrals = sorted(t for t, d in nodes.items() if not d["water"] and d["owner"] is None)
    lines.append("")
    lines.append(f"Neutral and unowned territories ({len(neutrals)}):")
    for territory in neutrals:
        data = nodes[territory]
        notes = [f"{data['production']} IPC"]
        if data["impassable"]:
            notes.append("impassable")
        if data["capital"]:
            notes.append(f"capital of {data['capital']}")
        army = ", ".join(f"{c} {u}" for (o, u), c in sorted(data["units"].items(), key=lambda kv: kv[0][1]) if c)
        if army:
            notes.append(army)
        lines.append(f"  {territory} ({'; '.join(notes)})")
    lines.append("")
    lines.append("Game options:")
    for name in OPTIONS_THAT_MATTER:
        if name in board.properties:
            lines.append(f"  {name}: {board.properties[name]}")
    bids = {name: value for name, value in board.properties.items() if name.endswith(" bid")}
    if bids:
        lines.append("  bids: " + ", ".join(f"{name[:-4]} {value}" for name, value in sorted(bids.items())))
    return "\n".join(lines) + "\n"

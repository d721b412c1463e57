"""What the house-rule tests share (tests/test_house_rules*.py): the games each set targets, and a Kremlin draft to
combine with the sets."""

from __future__ import annotations

from pathlib import Path

from support.paths import AA50_1941, AA50_1942, MAPS_DIR

# The games each set is written for (seeds/README.md).
TARGETS: dict[str, tuple[Path, ...]] = {
    # 003_ecae7919a6bcb85e.txt: "classic games (classic.xml, classic_3rd_edition.xml, kremlin.xml)"
    "house-classic": (
        MAPS_DIR / "world_war_ii_classic" / "map" / "games" / "classic.xml",
        MAPS_DIR / "world_war_ii_classic" / "map" / "games" / "classic_3rd_edition.xml",
        MAPS_DIR / "classic_variations" / "map" / "games" / "kremlin.xml",
    ),
    # 004_e624f6d1018dbbc1.txt: "world_war_ii_revised (ww2v2.xml, lhtr.xml) and world_war_ii_v3"
    "house-revised": (
        MAPS_DIR / "world_war_ii_revised" / "map" / "games" / "ww2v2.xml",
        MAPS_DIR / "world_war_ii_revised" / "map" / "games" / "lhtr.xml",
        AA50_1941,
        AA50_1942,
    ),
}

KREMLIN_PICKS = [
    {"side": "Axis", "option": 1, "place": [{"power": "Germans", "unit": "infantry", "count": 3, "at": "Germany"}]},
    {"side": "Allies", "option": 1, "place": [{"power": "Americans", "unit": "infantry", "count": 3, "at": "Eastern United States"}]},
    {"side": "Axis", "option": 6, "place": [{"power": "Germans", "unit": "fighter", "at": "Germany"}]},
    {"side": "Allies", "option": 6, "place": [{"power": "Americans", "unit": "fighter", "at": "Eastern United States"}]},
    {"side": "Axis", "option": 7, "place": [{"power": "Germans", "unit": "bomber", "at": "Germany"}]},
    {"side": "Allies", "option": 7, "place": [{"power": "Americans", "unit": "bomber", "at": "Eastern United States"}]},
    {"side": "Axis", "option": 2, "place": [{"power": "Germans", "unit": "artillery", "at": "Germany"}, {"power": "Germans", "unit": "tank", "at": "Germany"}]},
    {
        "side": "Allies",
        "option": 2,
        "place": [
            {"power": "Americans", "unit": "artillery", "at": "Eastern United States"},
            {"power": "Americans", "unit": "tank", "at": "Eastern United States"},
        ],
    },
]


def kremlin_draft(**extra) -> dict:
    """An AA50 1941 draft of 8 placements and no bid, with ``extra`` keys (``house``, ``game`` ...)."""
    return {"ruleset": "kremlin-aa50", "first": "Axis", "picks_per_side": 4, "pick": KREMLIN_PICKS, "bid": {"axis": 0}, **extra}


def duplicates(game_bytes: bytes) -> list[str]:
    """What a written game declares twice that TripleA keeps one of (validate's warnings): attachments of one name on one
    thing, game options (properties) of one name."""
    import re

    from lxml import etree

    from kremlin_triplea.check.game_index import TRIPLEA_2, GameIndex
    from kremlin_triplea.check.name_checks import duplicate_attachments

    root = etree.fromstring(game_bytes)
    # Without the line of the first one: a game written from another holds its own duplicates at other lines.
    found = [re.sub(r" \(first on line \d+\)", "", message) for _, message in duplicate_attachments(GameIndex.of(root, TRIPLEA_2))]
    names = [p.get("name") for p in root.iterfind("propertyList/property")]
    found += [f"game option {name!r} declared {names.count(name)} times" for name in sorted(set(names)) if names.count(name) > 1]
    return found

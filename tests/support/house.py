"""A Kremlin draft for the tests that combine a draft with house-rule sets (tests/test_house_rules*.py)."""

from __future__ import annotations

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

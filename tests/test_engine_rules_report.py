"""The engine harness's rules report (EngineRules.java) on base games whose rules are known from their XML."""

from __future__ import annotations

import pytest

from support.paths import AA50_1941, MAPS_DIR

pytestmark = pytest.mark.engine

CLASSIC = MAPS_DIR / "world_war_ii_classic" / "map" / "games" / "classic.xml"


@pytest.fixture(scope="module")
def readings(engine_readings):
    classic, aa50 = engine_readings.read([CLASSIC, AA50_1941])
    assert classic.ok and aa50.ok
    return classic.rules, aa50.rules


def test_canals_and_who_may_cross_them(readings) -> None:
    classic, _ = readings
    suez = {k: v for k, v in classic["canals"].items() if v["canal"] == "Suez Canal"}
    assert sorted(v["sea_zone"] for v in suez.values()) == ["East Mediteranean Sea Zone", "Red Sea Zone"]
    assert all(v["land"] == ["Anglo Sudan Egypt", "Syria Jordan"] and v["excluded"] == ["bomber", "fighter"] for v in suez.values())
    crossing = classic["crossings"]["East Mediteranean Sea Zone|Red Sea Zone"]
    # Both shores British at the start: the Allies sail through, the Axis only fly.
    assert crossing["British"]["battleship"] and crossing["Americans"]["submarine"]
    assert not crossing["Germans"]["battleship"] and not crossing["Japanese"]["submarine"]
    assert crossing["Germans"]["fighter"]


def test_objectives_triggers_prices_and_research(readings) -> None:
    classic, aa50 = readings
    trigger = classic["players"]["Russians"]["triggers"]["triggerAttachmentRussians_Can_Move"]
    assert trigger["uses"] == 1 and trigger["when"] == ["after:russianBattle"]
    soviet = aa50["players"]["Russians"]["conditions"]["objectiveAttachment1"]
    assert soviet["objective_value"] == 5
    # The engine keeps an option's count as the list's first item.
    assert soviet["allied_ownership"] == ["1", "Archangel"] and soviet["allied_exclusion"] == ["controlled"]
    germans = aa50["players"]["Germans"]
    assert germans["prices"]["infantry"] == 3 and germans["prices"]["battleship"] == 20
    assert germans["tech_cost"] == 5 and germans["techs"] == []
    assert germans["units"]["carrier"]["movement"] == 2

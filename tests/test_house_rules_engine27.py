"""HR8-HR10 (004_e624f6d1018dbbc1.txt) objective conditions as TripleA 2.7 resolves them (its headless jar,
/work/shared/triplea-engine-2.7; one JVM).

2.7, like 1.9, resolves a name in an objective's ``conditions`` to the first player in the player list holding
an attachment of that name: the form the issue found wrong (naming ``objectiveAttachment1``, which every AA50
power has) checks the German objective on 1941 and the Japanese one on 1942. The sets' uniquely named
conditions resolve to the power itself in 2.7 too.
"""

from __future__ import annotations

import pytest

from kremlin_triplea.engine.savegame import objective_conditions_with_triplea2
from kremlin_triplea.game import load
from kremlin_triplea.gamerules.house import apply_house_rules
from kremlin_triplea.rules.house_rules import HouseChoices
from support.paths import AA50_1941, AA50_1942, SHARED

pytestmark = [pytest.mark.engine, pytest.mark.slow]

TRIPLEA_27 = SHARED / "triplea-engine-2.7"
OBJECTIVES = {
    "Russians": "objectiveAttachmentKremlinHr8SovietObjective",
    "Japanese": "objectiveAttachmentKremlinHr9JapaneseObjective",
    "Germans": "objectiveAttachmentKremlinHr10GermanObjective",
}
FIRST_PLAYER = {"1941": "Germans", "1942": "Japanese"}  # the first <player> of each game file


def test_hr8_to_hr10_conditions_resolve_to_their_own_power_in_triplea_27(tmp_path) -> None:
    files = []
    for year, path in (("1941", AA50_1941), ("1942", AA50_1942)):
        game = load(path)
        apply_house_rules(game, [HouseChoices("house-revised")])
        written = game.save(tmp_path / f"{year}.xml")
        # The form: the new objective names the game's objectiveAttachment1 directly.
        text = written.read_text(encoding="utf-8")
        old_form = text.replace('value="conditionAttachmentKremlinHr8SovietObjectiveObjectiveAttachment1:', 'value="objectiveAttachment1:', 1)
        assert old_form != text
        (tmp_path / f"{year}-old-form.xml").write_text(old_form, encoding="utf-8")
        files += [written, tmp_path / f"{year}-old-form.xml"]
    readings = objective_conditions_with_triplea2(files, triplea=TRIPLEA_27)
    for year, ours, old in zip(("1941", "1942"), readings[0::2], readings[1::2]):
        for power, objective in OBJECTIVES.items():
            conditions = ours[power][objective]
            assert len(conditions) == 2 and set(conditions.values()) == {power}, (year, power, conditions)
        # The old form: 2.7 takes the first player's objectiveAttachment1, not the Soviet one.
        assert old["Russians"][OBJECTIVES["Russians"]]["objectiveAttachment1"] == FIRST_PLAYER[year], year

"""validate's 1.9 table is Debian's TripleA 1.9's own (issue 44): the attachment setters its jar declares.

scripts/derive_engine19_tables.py reads them by reflection in 1.9's JVM; a change of the script or of the jar that
changes the table fails here until it is written again.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kremlin_triplea.check.engine19_options import setters_19

ROOT = Path(__file__).resolve().parent.parent
JAR = Path("/usr/share/games/triplea/bin/triplea.jar")


@pytest.mark.engine
def test_the_19_table_is_what_debians_jar_gives(tmp_path: Path) -> None:
    out = tmp_path / "triplea19.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    subprocess.run([sys.executable, str(ROOT / "scripts" / "derive_engine19_tables.py"), str(JAR), "--out", str(out)], check=True, env=env, timeout=300)
    packaged = (ROOT / "src" / "kremlin_triplea" / "check" / "tables" / "triplea19.json").read_text(encoding="utf-8")
    assert out.read_text(encoding="utf-8") == packaged


def test_the_19_table_holds_what_19_names() -> None:
    # Spot checks against TripleA 1.9.0.7044's sources: UnitAttachment.setCanBlitz, DefaultAttachment.setName
    # inherited, TriggerAttachment's conditions from AbstractConditionsAttachment; nothing for a class 1.9 lacks.
    assert {"CanBlitz", "TransportCapacity", "Name"} <= setters_19("UnitAttachment")
    assert {"Conditions", "When", "Uses"} <= setters_19("TriggerAttachment")
    assert "CanBlits" not in setters_19("UnitAttachment")
    assert setters_19("UnitAtachment") == frozenset()

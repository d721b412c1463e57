"""validate's tables are TripleA 2.7's own (issue 44): derived from the shared 2.7 jar, they are what the package holds.

scripts/derive_engine_tables.py reads the engine's classes through JPype; a change of the script or of the engine
that changes a table fails here until the tables are written again.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kremlin_triplea.check import engine_tables
from kremlin_triplea.check.game_index import DECLARATIONS
from support.paths import SHARED

ROOT = Path(__file__).resolve().parent.parent
JAR = SHARED / "triplea-engine-2.7" / "triplea-2.7.15472-headless.jar"


@pytest.mark.engine
def test_the_tables_are_what_the_27_jar_gives(tmp_path: Path) -> None:
    out = tmp_path / "triplea2.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "derive_engine_tables.py"), str(JAR), "--out", str(out)], check=True, env=env, timeout=1200
    )  # ~1.5 CPU-minutes: 92 s of CPU under a load of 7 (89 user, 3 system), of it ~4 s the parser's probes of a probe game
    # (scripts/engine_parser_probe.py); 274 s before the option probes ran in batches inside the JVM (scripts/engine_probe.py)
    packaged = (ROOT / "src" / "kremlin_triplea" / "check" / "tables" / "triplea2.json").read_text(encoding="utf-8")
    assert out.read_text(encoding="utf-8") == packaged


def test_the_declarations_are_what_2x_makes_named_things_of() -> None:
    """game_index.DECLARATIONS (the words a message names each kind by) holds each element 2.x makes a named thing
    of (the tables' read_unasked ``named``, derived), but for relationship types and technologies, which 2.x also
    has built in (the checks look them up with the tables' own), and the delegates, which are named otherwise."""
    named = set(engine_tables.triplea2()["read_unasked"]["named"])
    assert named - set(DECLARATIONS.values()) == {"relationshipTypes/relationshipType", "technology/technologies/techname"}
    assert set(DECLARATIONS.values()) - named == {"gamePlay/delegate"}


def test_the_tables_hold_what_the_engine_names() -> None:
    # Spot checks of the tables' shape against 2.7.15472's sources (XmlGameElementMapper, UnitAttachment, Properties).
    assert engine_tables.attachment_class("games.strategy.triplea.attachments.UnitAttachment") == "UnitAttachment"
    assert engine_tables.attachment_class("games.strategy.triplea.attachments.UnitAtachment") is None
    assert engine_tables.is_delegate("games.strategy.triplea.delegate.BattleDelegate") and engine_tables.is_delegate("BattleDelegate")
    assert not engine_tables.is_delegate("foo.BattleDelegate")
    assert engine_tables.option_kind("UnitAttachment", "canBlitz") == "boolean"
    assert engine_tables.option_kind("UnitAttachment", "transportCapacity") == "int"
    assert engine_tables.option_kind("UnitAttachment", "canBlits") is None
    assert engine_tables.game_property_type("Low Luck") == "boolean"

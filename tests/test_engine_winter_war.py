"""001 "USSR crushes Finland in Winter War" in the real engine (issue 16's engine finding).

"Remaining German forces are retreated to Sweden." Sweden is a neutral on the classic maps; German units left
standing in it made TripleA 1.9 and 2.7 hand Sweden to Germany in the first round (2.7 logging "Germans attacks a
Neutral territory, and should have had to pay"). The reading decided (docs/kremlin-draft.md, "Scenarios on the
board as it stands"): they are interned. Here the engine plays the written game's first round.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kremlin_triplea.engine import read_with_engine
from kremlin_triplea.engine.play import play_with_engine
from support.classic import TARGETS, pick, run_for

pytestmark = pytest.mark.engine


def test_winter_war_leaves_sweden_neutral_and_empty_through_the_first_round(tmp_path: Path) -> None:
    written = []
    for game in TARGETS["kremlin-classic"]:
        run = run_for("kremlin-classic", game, "Allies")
        outcome = pick(run, "Allies", 9, scenario="USSR crushes Finland in Winter War")
        assert any("interned" in line for line in outcome.lines)
        path = tmp_path / f"winter-war-{game.name}"
        path.write_bytes(run.game.to_bytes())
        written.append(path)
    for path, reading in zip(written, read_with_engine(written)):
        assert reading.ok, reading.error
        sweden = reading.territories["Sweden"]
        assert (sweden.owner, dict(sweden.units)) == (None, {}), path.name
    for path, report in zip(written, play_with_engine(written, rounds=1, seed=1)):
        assert report.ok, report.error
        assert report.exceptions == ()
        assert report.final is not None and report.final.territories["Sweden"].owner is None, path.name

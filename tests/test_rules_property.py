"""Random legal drafts, drawn from the legal-choice enumeration, always apply, read back, validate, and agree with TripleA.

The drafts are built pick by pick from ``legal_choices``: whatever it lists must
be accepted by ``apply``. The written game must read back to the same board,
pass ``validate``, and (one batch, one JVM) be read by the real TripleA engine
with the same owners, units and PUs.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kremlin_triplea.draft.run import draft_from_dict, read_draft
from kremlin_triplea.game import Game
from kremlin_triplea.gamefile.document import XmlDocument
from kremlin_triplea.model.board import Board
from kremlin_triplea.report.notes import add_notes
from kremlin_triplea.session import apply_draft
from support import drafts
from support.aa50 import GAMES, fresh_game
from support.drafts import Choose, board_view
from support.engine import position_disagreements

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "kremlin-aa50-1941.toml"


def random_draft(choose: Choose, year: str, first: str, per_side: int) -> dict[str, Any]:
    return drafts.random_draft(choose, "kremlin-aa50", GAMES[year], first, per_side)


def apply_and_write(data: dict[str, Any], year: str) -> tuple[Game, bytes]:
    result = add_notes(apply_draft(draft_from_dict(data), fresh_game(GAMES[year])))
    return result.game, result.game.to_bytes()


@pytest.mark.slow
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_random_legal_drafts_apply_read_back_and_validate(data: st.DataObject) -> None:
    from kremlin_triplea.check.validate import find_dtd, validate_tree

    year = data.draw(st.sampled_from(sorted(GAMES)))
    first = data.draw(st.sampled_from(["Axis", "Allies"]))
    per_side = data.draw(st.integers(min_value=4, max_value=6))
    draft = random_draft(lambda seq: data.draw(st.sampled_from(list(seq))), year, first, per_side)
    game, written = apply_and_write(draft, year)
    again = Game(XmlDocument(written, source="written.xml"))
    assert board_view(again) == board_view(game)
    assert validate_tree(again.document.root, "written.xml", dtd=find_dtd()) == []


@pytest.mark.engine
def test_real_engine_reads_random_legal_drafts_as_written(tmp_path: Path) -> None:
    """One JVM for the whole batch: owners, units, PUs and the game name as our board has them."""
    from kremlin_triplea.engine import read_with_engine

    expected: dict[Path, Board] = {}
    for seed in range(6):
        rng = random.Random(seed)
        year = sorted(GAMES)[seed % 2]
        draft = random_draft(lambda seq, rng=rng: rng.choice(list(seq)), year, rng.choice(["Axis", "Allies"]), rng.choice([4, 5, 6]))
        game, written = apply_and_write(draft, year)
        path = tmp_path / f"draft-{seed}-{year}.xml"
        path.write_bytes(written)
        expected[path] = game.board.copy()  # the game object is reused for the next draft of that year
    # The example draft too: a takeover, Mongolia's capital marker moved, a factory, a bid.
    example = apply_draft(read_draft(EXAMPLE), fresh_game(GAMES["1941"]))
    path = tmp_path / "example.xml"
    path.write_bytes(example.game.to_bytes())
    expected[path] = example.game.board.copy()
    readings = read_with_engine(list(expected))
    for (path, board), reading in zip(expected.items(), readings):
        assert reading.ok, f"{path}: {reading.error}"
        assert reading.dtd_errors == ()
        assert reading.game_name == board.game_name
        assert position_disagreements(board, reading) == {}
        assert dict(reading.pus) == dict(board.pus)


@pytest.mark.parametrize("seed", range(3))
def test_generated_drafts_are_complete_and_cite_every_pick_in_the_notes(seed: int) -> None:
    rng = random.Random(100 + seed)
    draft = random_draft(lambda seq: rng.choice(list(seq)), "1941", "Axis", 4)
    game, _ = apply_and_write(draft, "1941")
    notes = game.board.properties["notes"]
    assert notes.index("<h2>Kremlin draft: ") < notes.index("<hr/>")  # on top of the map's own notes
    picks = notes[notes.index("<ol>") : notes.index("</ol>")]  # the picks' list; the rules' lists follow it
    assert picks.count("<li>") == 8
    assert "<h3>The bid: " in notes or "<p>No bid.</p>" in notes

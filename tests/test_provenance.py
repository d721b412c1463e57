"""A written game records its base game in its notes (gamefile/provenance.py), for render and verify."""

from __future__ import annotations

from pathlib import Path

import pytest

from kremlin_triplea.draft.run import read_draft
from kremlin_triplea.errors import InputError
from kremlin_triplea.gamefile.provenance import BaseRecord, find_recorded_base, recorded_base
from kremlin_triplea.report.notes import add_notes
from kremlin_triplea.session import apply_draft
from support.paths import AA50_1941, MAPS_DIR

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "kremlin-aa50-1941.toml"


def test_a_written_game_records_its_base_and_the_record_finds_it(tmp_path: Path) -> None:
    result = add_notes(apply_draft(read_draft(EXAMPLE), maps_dir=MAPS_DIR))
    notes = result.game.board.properties["notes"]
    record = recorded_base(notes)
    assert record == BaseRecord("world_war_ii_v3", "WW2v3-1941.xml", "World War II v3 1941")
    assert notes.startswith("<!-- ")  # a comment: TripleA's notes viewer shows none of it
    written = result.game.save(tmp_path / "out.xml")
    assert find_recorded_base(record, written, MAPS_DIR).samefile(AA50_1941)


def test_the_record_survives_names_with_double_hyphens() -> None:
    record = BaseRecord("map--x", "a.xml", "Game -- 2")
    comment = record.comment()
    assert "--" not in comment.removeprefix("<!--").removesuffix("-->\n")
    assert recorded_base("<p>notes</p>" + comment) == record


def test_a_missing_base_says_how_to_name_it(tmp_path: Path) -> None:
    written = tmp_path / "out.xml"
    written.write_text("<game/>")
    with pytest.raises(InputError, match="name it with --base"):
        find_recorded_base(BaseRecord("no_such_map", "x.xml"), written, MAPS_DIR)

"""The engine's readings shared by the test run (support.engine.SharedReadings, conftest.py's engine_readings) are
asked of the engine again whenever what a reading depends on differs: the file's bytes, its path, the options.

The engine here is a stand-in that counts what it is asked (this test is about what the tests share, not about
TripleA); tests/test_engine_harness.py and the other engine tests use the real one through the same class.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

import support.engine
from kremlin_triplea.engine import EngineReading
from support.engine import SharedReadings


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[tuple[list[Path], bool]]:
    """Every batch the stand-in engine is asked to read, and with which rules option."""
    jar = tmp_path / "engine" / "triplea.jar"
    jar.parent.mkdir()
    jar.write_bytes(b"a jar")
    batches: list[tuple[list[Path], bool]] = []

    def read_with_engine(paths, *, rules=True):
        batches.append((list(paths), rules))
        return [EngineReading(Path(p), True, None, Path(p).read_text(), {}, {}, {}, (), rules={"asked": rules} if rules else {}) for p in paths]

    monkeypatch.setattr(support.engine, "find_engine", lambda: SimpleNamespace(jar=jar))
    monkeypatch.setattr(support.engine, "read_with_engine", read_with_engine)
    return batches


def test_a_file_is_read_once_per_bytes_and_options_by_every_worker(tmp_path: Path, asked: list) -> None:
    game, other = tmp_path / "game.xml", tmp_path / "other.xml"
    game.write_text("first", encoding="utf-8")
    other.write_text("other", encoding="utf-8")
    folder = tmp_path / "shared"

    first = SharedReadings(folder)
    assert [r.game_name for r in first.read([game, other])] == ["first", "other"]
    assert [r.game_name for r in first.read([other, game])] == ["other", "first"]  # in the order asked, not read again
    assert [r.game_name for r in SharedReadings(folder).read([game])] == ["first"]  # another worker: the stored reading
    assert asked == [([game, other], True)]

    (without,) = first.read([game], rules=False)  # another option: another reading
    assert without.rules == {} and asked[-1] == ([game], False)

    game.write_text("second", encoding="utf-8")  # written anew: read anew, by this worker and by another
    assert first.read([game])[0].game_name == SharedReadings(folder).read([game])[0].game_name == "second"
    assert asked[-1] == ([game], True) and len(asked) == 3

    copy = tmp_path / "copy.xml"  # the same bytes elsewhere: its own reading, which names it
    copy.write_text("second", encoding="utf-8")
    (reading,) = first.read([copy])
    assert reading.file == copy and asked[-1] == ([copy], True)

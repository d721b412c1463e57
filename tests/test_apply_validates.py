"""apply never writes a game TripleA refuses (issue 33 item 3): the base game is checked first and refused in
validate's words, and the game made is checked before any copy of it is kept. So does `house`, the other
command that writes a game from a base game."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kremlin_triplea.cli.main import main
from kremlin_triplea.game import Game
from support.paths import AA50_1942, EXAMPLES_DIR, MAPS_DIR

REFUSES = "TripleA refuses to load the game"
TEXT = AA50_1942.read_text(encoding="utf-8")
CONNECTION = '<connection t1="5 Sea Zone" t2="6 Sea Zone"/>'
GERMANY = '<territory name="Germany"/>'
PLACEMENT = '<unitPlacement unitType="infantry" territory="Baltic States" quantity="3" owner="Germans"/>'

#: The bases the issue names (PUs beyond a Java int, a connection to an undeclared territory, a duplicate
#: territory) and a unit quantity Integer.parseInt refuses: TripleA 2.7 refuses each (test_validate_engines).
#: Each: what is replaced, by what, and what validate says on the last line holding the replacement's last line.
BROKEN_BASES = {
    "PUs of 4294967296": ('resource="PUs" quantity="37"/>', 'resource="PUs" quantity="4294967296"/>', "<resourceGiven> quantity 4294967296 is beyond"),
    "a connection to an undeclared territory": (CONNECTION, '<connection t1="5 Sea Zone" t2="Atlantis"/>', "connection t2: unknown territory 'Atlantis'"),
    "a duplicate territory": (GERMANY, f"{GERMANY}\n    {GERMANY}", "duplicate territory 'Germany'"),
    "a unit quantity 'one'": (PLACEMENT, PLACEMENT.replace('quantity="3"', 'quantity="one"'), "<unitPlacement> quantity 'one' is not a whole number"),
}


def _draft(tmp_path: Path, base: str) -> Path:
    """The house-rules example (no picks, so any AA50 1942 base will do) on the game ``base`` beside it."""
    (tmp_path / "base.xml").write_text(base, encoding="utf-8")
    text = (EXAMPLES_DIR / "house-revised-1942.toml").read_text(encoding="utf-8")
    draft = tmp_path / "draft.toml"
    draft.write_text(text.replace('game = "world_war_ii_v3/WW2v3-1942.xml"', 'game = "base.xml"'), encoding="utf-8")
    return draft


def _apply(draft: Path, out: Path):
    return CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "apply", str(draft), "-o", str(out)])


def _house(base: Path, out: Path):
    return CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "house", str(base), "-r", "house-revised", "-o", str(out)])


def _run(command: str, tmp_path: Path, base: str, out: Path):
    draft = _draft(tmp_path, base)
    return _apply(draft, out) if command == "apply" else _house(tmp_path / "base.xml", out)


@pytest.mark.parametrize("command", ["apply", "house"])
@pytest.mark.parametrize(("old", "new", "said"), BROKEN_BASES.values(), ids=BROKEN_BASES.keys())
def test_a_base_game_triplea_refuses_is_refused_in_validates_words(tmp_path: Path, command: str, old: str, new: str, said: str) -> None:
    assert old in TEXT
    base = TEXT.replace(old, new, 1)
    line = max(n for n, text in enumerate(base.splitlines(), 1) if new.splitlines()[-1].strip() in text)
    out = tmp_path / "out.xml"
    result = _run(command, tmp_path, base, out)
    assert result.exit_code == 2, result.output
    message = result.output.strip().splitlines()[-1]
    assert message.startswith(f"kremlin-triplea: error: {tmp_path / 'base.xml'}:{line}: the base game is not one TripleA loads: {said}")
    assert message.endswith(REFUSES)
    assert not out.exists()
    assert (tmp_path / "base.xml").read_text(encoding="utf-8") == base


@pytest.mark.parametrize("command", ["apply", "house"])
def test_a_base_game_edited_between_two_runs_is_judged_as_it_is_now(tmp_path: Path, command: str) -> None:
    """A base game's verdict is kept for its bytes (the room and the matrix apply many drafts on one game): the same
    file, broken after a run that took it, is refused on the next run, and mended, taken again."""
    old, new, said = BROKEN_BASES["a duplicate territory"]
    for base, status in ((TEXT, 0), (TEXT.replace(old, new, 1), 2), (TEXT, 0)):
        out = tmp_path / "out.xml"
        out.unlink(missing_ok=True)
        result = _run(command, tmp_path, base, out)
        assert result.exit_code == status, result.output
        refused = f"the base game is not one TripleA loads: {said}"
        assert (refused in result.output) == (status == 2) and out.is_file() == (status == 0)


def test_a_base_game_with_only_warnings_is_applied(tmp_path: Path) -> None:
    # A connection given twice: both engines keep a set of neighbours (a warning, not an error).
    out = tmp_path / "out.xml"
    result = _apply(_draft(tmp_path, TEXT.replace(CONNECTION, f"{CONNECTION}\n    {CONNECTION}", 1)), out)
    assert result.exit_code == 0, result.output
    assert out.is_file()


@pytest.mark.parametrize("command", ["apply", "house"])
def test_a_made_game_triplea_would_refuse_is_never_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    # Stand in for a writer defect: the game made gives Germany a second territory element.
    made = Game.to_bytes

    def broken(self, board=None) -> bytes:
        return made(self, board).replace(GERMANY.encode(), f"{GERMANY}\n    {GERMANY}".encode(), 1)

    monkeypatch.setattr(Game, "to_bytes", broken)
    out = tmp_path / "out.xml"
    result = _run(command, tmp_path, TEXT, out)
    assert result.exit_code == 2, result.output
    assert "the game made is not one TripleA loads: duplicate territory 'Germany'" in result.output
    assert sorted(path.name for path in tmp_path.iterdir()) == ["base.xml", "draft.toml"]

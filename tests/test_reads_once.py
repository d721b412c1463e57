"""``apply`` reads each input file once (issue 45, "each fact once").

The draft file was read twice on every apply: parsed, then read again to find its keys' lines, which the error
messages need only on an error. Counted with Python's audit hook (the ``open`` event) in a fresh process, so no
file read by an earlier test in this process hides a second read.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from support.paths import EXAMPLES_DIR, MAPS_DIR

# Runs the command as the console script does, with every open of a file outside Python's own counted.
_COUNTING = """
import collections, json, os, sys
opened = collections.Counter()
def hook(event, args):
    if event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        opened[os.path.realpath(os.fsdecode(args[0]))] += 1
sys.addaudithook(hook)
from kremlin_triplea.cli.main import main
try:
    main(sys.argv[2:], standalone_mode=False)
finally:
    with open(sys.argv[1], "w") as out:
        json.dump(opened, out)
"""


@pytest.mark.parametrize("example", ["kremlin-aa50-1941.toml", "kremlin-aa50-1942.toml", "kremlin-classic-kremlin.toml", "kremlin-daak-classic.toml"])
def test_apply_reads_each_input_file_once(tmp_path: Path, example: str) -> None:
    draft = EXAMPLES_DIR / example
    counts = tmp_path / "opened.json"
    words = ["--maps-dir", str(MAPS_DIR), "apply", str(draft), "-o", str(tmp_path / "game.xml")]
    done = subprocess.run([sys.executable, "-c", _COUNTING, str(counts), *words], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    opened = {Path(path): count for path, count in json.loads(counts.read_text()).items()}
    inputs = {path: count for path, count in opened.items() if path.suffix in (".toml", ".xml", ".yml") and path.parent != tmp_path}
    assert draft.resolve() in inputs and any(path.suffix == ".xml" for path in inputs)  # the draft and its game, at least
    assert {path: count for path, count in inputs.items() if count != 1} == {}


def test_apply_works_out_where_each_displaced_group_may_go_once_per_board_position(monkeypatch: pytest.MonkeyPatch) -> None:
    """000 A "Order of action" 1: each displaced group (option 10's defenders, option 3's ships) goes to one of its
    nearest places on the board as it stands after the bid. Issue 45: ``apply`` worked that out three times per group
    (whether the file's place still holds, whether the group must be asked, and placing it) on the same board."""
    from kremlin_triplea.draft.kinds import KINDS
    from kremlin_triplea.draft.run import read_draft
    from kremlin_triplea.session import apply_draft

    asked: dict[tuple, int] = {}
    for kind in KINDS.values():
        if kind.displaces:
            original = type(kind).destinations

            def counted(self, state, displaced, original=original):  # noqa: ANN001 - wraps the kind's own hook
                key = (displaced, state.board.position[0], id(state.board.position[1]))
                asked[key] = asked.get(key, 0) + 1
                return original(self, state, displaced)

            monkeypatch.setattr(type(kind), "destinations", counted)
    result = apply_draft(read_draft(EXAMPLES_DIR / "kremlin-aa50-1941.toml"), maps_dir=MAPS_DIR)
    assert len(result.declarations) >= 2  # Archangel's defenders and Venezuela's ships (the example's options 10 and 3)
    assert asked and max(asked.values()) == 1, asked

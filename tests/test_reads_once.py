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

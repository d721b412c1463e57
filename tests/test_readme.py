"""The README's Python example runs as written and prints what its comments say."""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_python_example_runs(tmp_path: Path, monkeypatch) -> None:
    code = re.search(r"```python\n(.*?)```", README.read_text(), re.S).group(1)
    code = code.replace('"/tmp/kremlin-example.xml"', repr(str(tmp_path / "example.xml")))
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "README.md", "exec"), {})
    lines = printed.getvalue().splitlines()
    assert lines[1:] == ["31", "True", "('15 Sea Zone', '16 Sea Zone')"]
    assert (tmp_path / "example.xml").is_file()
    assert os.path.getsize(tmp_path / "example.xml") > 100_000


def test_quick_start_main_command_generates_the_example_game(tmp_path: Path) -> None:
    import shlex
    import subprocess
    import sys

    block = re.search(r"## Quick start.*?```sh\n(.*?)```", README.read_text(), re.S).group(1)
    main_command = block.splitlines()[0].split("&&", 1)[1].strip()
    words = shlex.split(main_command)
    assert words[0] == "kremlin-triplea"
    out = tmp_path / "game.xml"
    words = [str(out) if w.startswith("/tmp/") else w for w in words[1:]]
    repo = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-m", "kremlin_triplea", *words], cwd=repo, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"wrote {out}" in done.stdout
    from kremlin_triplea import load

    assert load(out).board.owner("Archangel") == "Germans"

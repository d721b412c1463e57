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

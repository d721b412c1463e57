"""The engine runner's side of the child process (engine/jvm_bridge.run_child), with a stand-in child: no JVM.

Issue 32 item 2: on Windows the JVM and the engine write standard error in the ANSI code page, so a user folder such
as ``C:\\Users\\José`` reaches the runner as bytes that are not UTF-8; issue 27 item 3: a failing child is one line.
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from kremlin_triplea.engine.errors import EngineFailed
from kremlin_triplea.engine.jvm_bridge import run_child

USER_FOLDER = "C:\\Users\\José\\TripleA"

# A child that answers as an adapter does (the runtime line, then one JSON line per request), first writing to standard
# error what a Windows JVM writes about the user's folder: cp1252, not UTF-8; a request {"fail": true} ends it instead.
CHILD = textwrap.dedent(
    """
    import json, sys
    order = json.load(sys.stdin)
    sys.stderr.buffer.write("logged: cannot open C:\\\\Users\\\\José\\\\TripleA\\n".encode("cp1252"))
    sys.stderr.flush()
    if order["requests"][0].get("fail"):
        sys.stderr.buffer.write("Traceback (most recent call last):\\n  ...\\nException: gave up in José's folder\\n".encode("cp1252"))
        sys.exit(1)
    print(json.dumps({"java_version": "17", "java_home": "jre"}))
    for request in order["requests"]:
        print(json.dumps({"path": request["path"], "classpath": order["classpath"]}))
    """
)


@pytest.fixture
def child(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "stand_in_engine.py").write_text(CHILD, encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in (str(tmp_path), os.environ.get("PYTHONPATH", "")) if p))
    return "stand_in_engine"


def _run(module: str, request: dict, classpath: Path) -> tuple:
    return run_child(module, libjvm=Path("libjvm.so"), classpath=[classpath], requests=[request], timeout=60, doing="testing", describe="TripleA (stand-in)")


def test_non_utf8_output_of_the_child_and_non_ascii_paths_do_not_end_the_run(child: str, tmp_path: Path) -> None:
    jar = tmp_path / "José" / "TripleA" / "bin" / "game-headed-2.7+15472.jar"
    runtime, (answer,) = _run(child, {"path": USER_FOLDER}, jar)
    assert runtime["java_version"] == "17"
    # The paths reach the child and come back whole, whatever the code pages.
    assert answer == {"path": USER_FOLDER, "classpath": [str(jar)]}


def test_a_child_that_fails_is_one_line_with_its_last_words(child: str, tmp_path: Path) -> None:
    with pytest.raises(EngineFailed) as failed:
        _run(child, {"path": USER_FOLDER, "fail": True}, tmp_path / "engine.jar")
    message = str(failed.value)
    assert "\n" not in message
    assert message.startswith("TripleA (stand-in) (JVM libjvm.so) exited with status 1 testing: ")
    # The last line the child wrote, its undecodable byte replaced rather than ending the run in a traceback.
    assert message.endswith("Exception: gave up in Jos\ufffd's folder")
    # The child's whole account stays with the error, for --debug's traceback.
    if hasattr(failed.value, "__notes__"):
        assert "Traceback (most recent call last):" in failed.value.__notes__[0]

"""TripleA 2.7's verdict on game files (scripts/judge_with_triplea27.py: refuses, misreads or reads), one JVM a call."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SCRIPT = ROOT / "scripts" / "judge_with_triplea27.py"
ANSWER = "verdict: "


def judged_by_27(paths: Sequence[Path], *, timeout: float = 1800) -> list[dict[str, str]]:
    """2.7's answer for each of ``paths``, in order: ``verdict`` and ``why``."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    given = "".join(f"{Path(p).resolve()}\n" for p in paths)
    done = subprocess.run([sys.executable, str(SCRIPT)], input=given, capture_output=True, text=True, env=env, timeout=timeout, check=True)
    answers = [json.loads(line[len(ANSWER) :]) for line in done.stdout.splitlines() if line.startswith(ANSWER)]
    assert len(answers) == len(paths), done.stderr[-2000:]
    return answers


class Judge27:
    """One 2.7 JVM answering file after file (scripts/judge_with_triplea27.py kept running): ``judge(path)``."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        self._process = subprocess.Popen(
            [sys.executable, str(SCRIPT)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env
        )

    def judge(self, path: Path) -> dict[str, str]:
        self.send(path)
        return self.receive()

    def send(self, path: Path) -> None:
        """Ask for ``path``'s verdict; the JVM starts on it while the caller goes on (:meth:`receive` gives it)."""
        assert self._process.stdin is not None
        self._process.stdin.write(f"{Path(path).resolve()}\n")
        self._process.stdin.flush()

    def receive(self) -> dict[str, str]:
        """The verdict on the earliest path sent and not yet received."""
        assert self._process.stdout is not None
        for line in self._process.stdout:
            if line.startswith(ANSWER):
                return json.loads(line[len(ANSWER) :])
        raise RuntimeError(f"the 2.7 judge ended (exit {self._process.wait()})")

    def close(self) -> None:
        if self._process.stdin is not None:
            self._process.stdin.close()
        self._process.wait(timeout=60)

    def __enter__(self) -> Judge27:
        return self

    def __exit__(self, *_) -> None:
        self.close()

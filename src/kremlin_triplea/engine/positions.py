"""Positions set up in the real TripleA engine, and what the engine's rules make of them.

Driven by ``EnginePositions.java`` beside this file (compiled with the other harness sources). A
:class:`Position` is a game file and a list of commands (see the Java class: ``owner``, ``add``,
``remove``, ``damage``, ``step``, ``objectives``, ``frontier``, ``grant``, ``canal``, ``move``,
``place``, ``aafire``, ``takeover``, ``unit``, ``units``, ``techs``, ``techcost``, ``pus``, ``rule``);
every position starts from the game as its file holds it, and all positions of a batch run in one JVM.

This is how the house-rule sets are proven by behaviour (tests/test_house_rules_positions.py): an
objective that holds or fails where its rule says, what a power is paid at the end of its turn, a
frontier before and after Industrial Technology, who may pass a strait, move, place or be fired at, a
unit's values, the end of a round that must (or must not) end the game. :func:`objective_conditions_27`
asks TripleA 2.7 how it resolves the objectives' condition names.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs

from kremlin_triplea.engine import (
    JVM_START_SECONDS,
    TRIPLEA2_LIBRARIES,
    EngineFailed,
    EngineUnavailable,
    _compiled_harness,
    _resolved,
    _run_engine,
    _tail,
    run_java,
    triplea2_classpath,
)

__all__ = ["POSITIONS_CLASS", "Position", "objective_conditions_27", "run_positions"]

POSITIONS_CLASS = "EnginePositions"

#: A position takes well under a second; this bounds a whole batch generously.
SECONDS_PER_POSITION = 20


@attrs.frozen
class Position:
    """A game and the commands that set up a position in it and ask about it, in order."""

    game: Path
    commands: tuple[tuple[str, ...], ...]
    #: What the test calls it, for failure messages.
    label: str = ""


def run_positions(positions: Sequence[Position], *, strict: bool = True) -> list[list[dict[str, Any]]]:
    """The engine's answer to every command of every position (one JVM).

    A failing command raises EngineFailed; with ``strict`` false its answer stays ``{"error": ...}`` instead,
    so that one bad position of a batch does not hide what the others found.
    """
    lines: list[str] = []
    for position in positions:
        (game,) = _resolved([Path(position.game)])
        lines.append(_line(("game", str(game))))
        lines += [_line(command) for command in position.commands]
    if not lines:
        return []
    # The runner feeds its "files" to the program one a line: here, the commands.
    done = _run_engine(
        POSITIONS_CLASS,
        lines,
        {},
        timeout=JVM_START_SECONDS + SECONDS_PER_POSITION * len(positions),  # type: ignore[arg-type]
        doing="setting up positions in",
    )
    answers = done.stdout.splitlines()
    if done.returncode != 0 or len(answers) != len(lines):
        raise EngineFailed(f"the TripleA engine exited with status {done.returncode} after {len(answers)} of {len(lines)} command(s): {_tail(done.stderr)}")
    results: list[list[dict[str, Any]]] = []
    at = 0
    for position in positions:
        got = [json.loads(answer) for answer in answers[at : at + 1 + len(position.commands)]]
        at += 1 + len(position.commands)
        for command, answer in zip((("game", str(position.game)), *position.commands), got):
            if "error" in answer and strict:
                raise EngineFailed(f"{position.label or position.game}: {' '.join(command)}: {answer['error']}")
        if "error" in got[0]:
            # The game did not load: the commands ran on the previous position's game and mean nothing.
            got = [got[0]] * len(got)
        results.append(got[1:])
    return results


def _line(command: tuple[str, ...]) -> str:
    for field in command:
        if "\t" in field or "\n" in field or "\r" in field:
            raise ValueError(f"a position command field cannot hold a tab or line break: {field!r}")
    return "\t".join(command)


CONDITIONS_27_CLASS = "EnginePositions$Conditions27"


def objective_conditions_27(games: Iterable[Path], jar: Path, libraries: Path = Path("/usr/share/java")) -> list[dict[str, Any]]:
    """How TripleA 2.7 (its headless ``jar``) resolves the condition names of every rules attachment:
    per game, player -> attachment -> condition name -> the player whose attachment it turned out to be."""
    files = _resolved([Path(g) for g in games])
    classpath = triplea2_classpath(jar, libraries)
    missing = [str(p) for p in [jar, *(libraries / f"{name}.jar" for name in TRIPLEA2_LIBRARIES)] if not p.is_file()]
    if missing:
        raise EngineUnavailable(f"TripleA 2.7 cannot run: missing {', '.join(missing)}")
    java, _, classes = _compiled_harness()
    done = run_java(
        java,
        [*classpath, classes],
        CONDITIONS_27_CLASS,
        "".join(f"{f}\n" for f in files),
        timeout=JVM_START_SECONDS + SECONDS_PER_POSITION * len(files),
        doing=f"reading {len(files)} file(s) with TripleA 2.7",
    )
    answers = done.stdout.splitlines()
    if done.returncode != 0 or len(answers) != len(files):
        raise EngineFailed(f"TripleA 2.7 exited with status {done.returncode} after {len(answers)} of {len(files)} file(s): {_tail(done.stderr)}")
    results = [json.loads(a) for a in answers]
    for file, result in zip(files, results):
        if "error" in result:
            raise EngineFailed(f"{file}: TripleA 2.7: {result['error']}")
    return results

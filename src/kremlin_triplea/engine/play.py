"""Play game files in the real TripleA engine, every power played by its AI, to show that they play.

Driven from Python through JPype (:mod:`kremlin_triplea.engine.triplea19_play`, a child process with
one JVM; only a Java runtime is needed, no compiler). A game starts as
the engine's own local launcher starts one (the loader makes the players, a ``ServerGame`` runs them
headless) and stops when the round after the last one asked for begins. Any exception in the engine
fails the game: those it throws, and those it only prints, logs or lets end a thread.

Several games play one after another in one JVM. A game still running at its time-out is reported
as failed and its JVM abandoned; the games left play in a fresh one.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import attrs

from kremlin_triplea.engine import (
    JVM_START_SECONDS,
    EngineFailed,
    EngineTerritory,
    absolute_paths,
    engine_territories,
    find_engine,
)
from kremlin_triplea.engine.jvm_bridge import run_child, runtime_library

__all__ = [
    "FAST_AI",
    "GAME_TIMEOUT_SECONDS",
    "EngineState",
    "PlayReport",
    "play_with_engine",
]

#: The engine's player type for its fast AI (TripleA.FAST_COMPUTER_PLAYER_TYPE in 1.9). "Hard (AI)"
#: hangs on games whose data the engine cannot clone; "Easy (AI)" and "Does Nothing (AI)" also exist.
FAST_AI = "Fast (AI)"

#: One round of the biggest games the project targets takes about 10 s.
GAME_TIMEOUT_SECONDS = 300.0

# Stopping a game and leaving the JVM, on top of the games' own time.
_SLACK_SECONDS = 60


@attrs.frozen
class EngineState:
    """Owners, units and PUs as the engine holds them (the same shapes as an EngineReading's)."""

    territories: Mapping[str, EngineTerritory]
    pus: Mapping[str, int]
    #: The rules as they stand when play stopped (EngineReading.rules' shape): a trigger's technology, say.
    rules: Mapping[str, Any] = attrs.field(factory=dict)


@attrs.frozen
class PlayReport:
    """How one game went; ``ok`` means it played with no engine exception (and did not time out)."""

    #: The path as the caller gave it.
    file: Path
    ok: bool
    #: Why not ok: the file did not read, the engine threw, reported an exception, or the game timed out.
    error: str | None
    #: Rounds completed; fewer than asked when the game failed, or when the engine declared a victory.
    rounds_played: int
    #: The steps the engine started, in order (steps already run their maximum number of times are skipped).
    steps: tuple[str, ...]
    #: Every engine exception, one line each: thrown, printed, logged, or uncaught in some thread.
    exceptions: tuple[str, ...]
    #: The game when play stopped; None when it did not load or timed out.
    final: EngineState | None
    #: The engine itself ended the game (a victory) before the rounds asked for were played.
    game_over: bool
    timed_out: bool


def play_with_engine(
    paths: Iterable[str | os.PathLike[str]],
    rounds: int = 1,
    timeout: float = GAME_TIMEOUT_SECONDS,
    *,
    player_type: str = FAST_AI,
    seed: int | None = None,
    triplea: Path | str | None = None,
) -> list[PlayReport]:
    """Play ``rounds`` rounds of every game, in order, with every power played by ``player_type``.

    ``timeout`` is in seconds per game. ``seed`` makes the dice repeatable, not the AI. Raises
    EngineUnavailable when TripleA, java or javac is missing, EngineFailed when a JVM crashes.
    """
    if rounds < 1:
        raise ValueError(f"rounds must be at least 1, not {rounds}")
    if not timeout > 0:
        raise ValueError(f"timeout must be positive, not {timeout}")
    given = [Path(p) for p in paths]
    files = absolute_paths(given)
    # Playing runs through JPype (engine/triplea19_play.py): no compiler is needed, only the Java runtime.
    installation = find_engine(triplea)
    reports: list[PlayReport] = []
    while len(reports) < len(files):
        left = files[len(reports) :]
        _, answers = run_child(
            "kremlin_triplea.engine.triplea19_play",
            libjvm=runtime_library(installation),
            classpath=[installation.jar],
            requests=[{"play": str(file), "rounds": rounds, "timeout": timeout, "player_type": player_type, "seed": seed} for file in left],
            timeout=JVM_START_SECONDS + _SLACK_SECONDS + timeout * len(left),
            doing=f"playing {len(left)} game(s)",
            describe=installation.describe(),
            # TripleA 1.9 reads game_engine.properties from its working folder.
            cwd=installation.jar.parent,
        )
        # After a game that timed out, and only then, the child skips the rest, leaving them to a fresh JVM.
        batch = [_report(answer) for answer in answers if not answer.get("skipped")]
        skipped = len(answers) - len(batch)
        if any("skipped" in answer for answer in answers[: len(batch)]) or (skipped and not batch[-1].timed_out):
            raise EngineFailed(f"the engine player skipped games without one timing out: {answers}")
        for report, file in zip(batch, left):
            if report.file != file:
                raise EngineFailed(f"the engine player answered for {report.file} instead of {file}")
        reports.extend(batch)
    return [attrs.evolve(report, file=path) for report, path in zip(reports, given)]


def _report(raw: dict[str, Any]) -> PlayReport:
    final = raw["final"]
    return PlayReport(
        file=Path(raw["file"]),
        ok=raw["ok"],
        error=raw["error"],
        rounds_played=raw["rounds_played"],
        steps=tuple(raw["steps"]),
        exceptions=tuple(raw["exceptions"]),
        final=None if final is None else EngineState(territories=engine_territories(final["territories"]), pus=final["pus"], rules=final.get("rules") or {}),
        game_over=raw["game_over"],
        timed_out=raw["timed_out"],
    )

"""Positions set up in the real TripleA engine, and what the engine's rules make of them.

Driven from Python through JPype (:mod:`kremlin_triplea.engine.triplea19_positions`, a child process with one JVM;
only a Java runtime is needed, no compiler). A :class:`Position` is a game file and a list of commands (that
module's table: ``owner``, ``add``, ``remove``, ``damage``, ``step``, ``objectives``, ``frontier``, ``grant``,
``canal``, ``move``, ``place``, ``aafire``, ``takeover``, ``power``, ``unit``, ``units``, ``techs``, ``technologies``, ``property``, ``techcost``, ``pus``,
``rule``); every position starts from the game as its file holds it, and all positions of a batch run in one JVM.

This is how the house-rule sets are proven by behaviour (tests/test_house_rules_positions.py): an
objective that holds or fails where its rule says, what a power is paid at the end of its turn, a
frontier before and after Industrial Technology, who may pass a strait, move, place or be fired at, a
unit's values, the end of a round that must (or must not) end the game. How TripleA 2.x resolves the
objectives' condition names is asked of 2.x itself
(:func:`kremlin_triplea.engine.savegame.objective_conditions_with_triplea2`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from kremlin_triplea.engine import JVM_START_SECONDS, EngineFailed, absolute_paths, find_engine
from kremlin_triplea.engine.jvm_bridge import run_child, runtime_library

__all__ = ["Position", "run_positions"]

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
    commands: list[tuple[str, ...]] = []
    for position in positions:
        (game,) = absolute_paths([Path(position.game)])
        commands.append(("game", str(game)))
        commands += [_checked(command) for command in position.commands]
    if not commands:
        return []
    installation = find_engine()
    _, got_all = run_child(
        "kremlin_triplea.engine.triplea19_positions",
        libjvm=runtime_library(installation),
        classpath=[installation.jar],
        requests=[{"command": list(command)} for command in commands],
        timeout=JVM_START_SECONDS + SECONDS_PER_POSITION * len(positions),
        doing=f"setting up {len(positions)} position(s)",
        describe=installation.describe(),
        # TripleA 1.9 reads game_engine.properties from its working folder.
        cwd=installation.jar.parent,
    )
    results: list[list[dict[str, Any]]] = []
    at = 0
    for position in positions:
        got = list(got_all[at : at + 1 + len(position.commands)])
        at += 1 + len(position.commands)
        for command, answer in zip((("game", str(position.game)), *position.commands), got):
            if "error" in answer and strict:
                raise EngineFailed(f"{position.label or position.game}: {' '.join(command)}: {answer['error']}")
        if "error" in got[0]:
            # The game did not load: the commands ran on the previous position's game and mean nothing.
            got = [got[0]] * len(got)
        results.append(got[1:])
    return results


def _checked(command: tuple[str, ...]) -> tuple[str, ...]:
    for field in command:
        if not isinstance(field, str):
            raise ValueError(f"a position command field must be text: {field!r}")
    return tuple(command)

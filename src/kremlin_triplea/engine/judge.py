"""TripleA 2.x's own verdict on a game file, beside ``validate``'s (``validate --engine``, issue 44 item 4).

The player's TripleA 2.x (found as ``verify`` and ``save`` find it: ``--triplea``, ``$KREMLIN_TRIPLEA``, where its
installers put it) parses the file as its game selector does (``GameParser.parse``), checks it as the selector does
(``GameParsingValidation``) and calls every game-property getter play calls, in one JVM
(:mod:`kremlin_triplea.engine.triplea2_bridge`'s ``judge`` request). Its verdict is ``refuses``, ``misreads`` or
``reads``, with the engine's own reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import attrs

from kremlin_triplea.engine import triplea2_bridge
from kremlin_triplea.engine.errors import EngineFailed, EngineUnavailable
from kremlin_triplea.gamefile.installation import INSTALL_VARIABLE, Installation, find_installation

__all__ = ["REFUSES", "MISREADS", "READS", "EngineVerdict", "find_triplea2", "judge_with_triplea2"]

REFUSES, MISREADS, READS = "refuses", "misreads", "reads"

#: Starting the JVM and the engine, then each game parsed, validated and its properties read.
SECONDS = 180
SECONDS_A_GAME = 30


@attrs.frozen
class EngineVerdict:
    verdict: str = attrs.field(validator=attrs.validators.in_((REFUSES, MISREADS, READS)))
    why: str  # the engine's reason ("" when it reads the game)
    engine: str  # which TripleA, on which Java runtime

    def __str__(self) -> str:
        return f"{self.engine}: {self.verdict}" + (f": {self.why}" if self.why else "")


def find_triplea2(explicit: Path | str | None = None) -> Installation:
    """The TripleA 2.x that judges: the one named (``--triplea``, ``$KREMLIN_TRIPLEA``), else the newest 2.x found.
    Without one, the error says where it looked and how to point at one."""
    search = find_installation(explicit)
    found = search.found
    if found is None:
        raise EngineUnavailable(search.not_found_message())
    if found.major != 2:
        raise EngineUnavailable(
            f"no TripleA 2.x found (only TripleA {found.version or '(version unknown)'} at {found.folder}, whose parser is not 2.x's); "
            f"looked in: {'; '.join(search.looked_in)}. "
            f"Point at a TripleA 2.x with --triplea DIR (its folder or its jar) or ${INSTALL_VARIABLE}=DIR"
        )
    return found


def judge_with_triplea2(games: Sequence[Path], *, installation: Installation) -> list[EngineVerdict]:
    """``installation``'s verdict on each of ``games``, in one JVM."""
    requests = [{"judge": str(Path(game).resolve())} for game in games]
    done = triplea2_bridge.run(installation, requests, timeout=SECONDS + SECONDS_A_GAME * len(requests), doing=f"judging {len(requests)} game(s)")
    engine = f"{installation.describe()} on {done.runtime}"
    verdicts = []
    for game, answer in zip(games, done.answers):
        if "verdict" not in answer:
            raise EngineFailed(f"{engine} failed judging {game}: {answer.get('error', answer)}")
        # The engine's reason may span lines (a StAX error's "\nMessage: ..."): one line, as every message here.
        verdicts.append(EngineVerdict(answer["verdict"], " ".join(answer["why"].split()), engine))
    return verdicts

"""A stand-in for TripleA 2.x's save-and-load-back, for tests of where a savegame lands (not of what the engine reads).

``kremlin_triplea.engine.savegame`` asks the installation's TripleA to save a game to a path and answers with its
reading of the save. The stand-in writes :data:`SAVE_BYTES` there and answers with the game file's own owners, units
and PUs, so the save is accepted, or with a validation error when told to refuse; ``pause`` makes it say "paused" on
stderr and wait after writing (a kill lands while the save is being checked). Real saves are tested with the real
TripleA 2.7 in tests/test_savegame.py.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

#: Not a real save: bytes a text-mode read would change (CRLF, a Ctrl-Z), after a gzip header as a .tsvg has.
SAVE_BYTES = b"\x1f\x8b\x08\x00 fake savegame\r\n\x1a after a Ctrl-Z\r\n" + bytes(range(256))


class FakeTripleA2:
    def __init__(self) -> None:
        self.refuse: str | None = None  # a validation error to answer with
        self.pause = False
        self.during: Any = None  # called while the engine runs (another program acting meanwhile)
        self.saves: list[Path] = []

    def installation(self, triplea: object) -> SimpleNamespace:
        return SimpleNamespace(describe=lambda: "TripleA 2.7 (stand-in)", major=2)

    def run(self, installation: object, requests: list[dict]) -> SimpleNamespace:
        from kremlin_triplea.game import load

        (request,) = requests
        to = Path(request["to"])
        to.write_bytes(SAVE_BYTES)
        self.saves.append(to)
        if self.pause:
            sys.stderr.write(f"paused {to}\n")
            sys.stderr.flush()
            time.sleep(60)
        if self.during is not None:
            self.during()
        board = load(request["save"]).board
        territories = {
            name: {"owner": data["owner"], "units": [[owner, unit, n] for (owner, unit), n in data["units"].items() if n]} for name, data in board.nodes.items()
        }
        answer = {
            "game_name": board.game_name,
            "round": 1,
            "validation": [self.refuse] if self.refuse else [],
            "territories": territories,
            "pus": dict(board.pus),
            "properties": {},
        }
        return SimpleNamespace(runtime="Java (stand-in)", answers=(answer,))


def install_fake(patch: Any) -> FakeTripleA2:
    """Put the stand-in in place through ``patch(target, name, value)`` (pytest's monkeypatch.setattr, or setattr)."""
    from kremlin_triplea.engine import savegame

    fake = FakeTripleA2()
    patch(savegame, "_installation", fake.installation)
    patch(savegame, "_run", fake.run)
    return fake

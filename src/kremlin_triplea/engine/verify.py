"""Proof that a written game is what we meant and that TripleA plays it.

``verify_with_engine`` reads the file with our reader and with the real engine
(owners, units, PUs, properties, game name must agree), then lets the engine's
Fast AI play every power for some rounds; any engine exception fails it.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from kremlin_triplea.engine import compare, read_with_engine
from kremlin_triplea.engine.play import FAST_AI, PlayReport, play_with_engine


@attrs.frozen
class Verification:
    file: Path
    disagreements: tuple[str, ...]  # where the engine reads the file differently from us
    play: PlayReport | None
    canals: tuple[str, ...] = ()  # the canals the engine knows, when the harness reports them
    # The rules as the engine understands them (EngineReading.rules): canals, who may cross each, ...
    engine_rules: dict = attrs.field(factory=dict, eq=False)

    @property
    def ok(self) -> bool:
        return not self.disagreements and self.play is not None and self.play.ok


def disagreements(path: Path, reading) -> list[str]:
    """Owners, units, PUs, properties and game name as our reader and the engine's reading have them."""
    from kremlin_triplea.game import load

    if not reading.ok:
        return [f"the engine cannot read the file: {reading.error}"]
    return [f"DTD: {error}" for error in reading.dtd_errors] + [str(d) for d in compare.disagreements(load(path).board, reading)]


def verify_with_engine(paths: list[Path], rounds: int = 1, *, seed: int | None = 1) -> list[Verification]:
    """Read all files in one JVM, then play them in another; one Verification per file."""
    readings = read_with_engine(paths)
    plays = play_with_engine(paths, rounds=rounds, player_type=FAST_AI, seed=seed)
    results = []
    for path, reading, play in zip(paths, readings, plays):
        known = (getattr(reading, "rules", None) or {}).get("canals") or {}
        canals = tuple(sorted({f"{c['canal']} ({'/'.join(c['land'])})" for c in known.values()}))
        rules = dict(getattr(reading, "rules", None) or {})
        results.append(Verification(Path(path), tuple(disagreements(Path(path), reading)), play, canals, rules))
    return results

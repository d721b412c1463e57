"""Proof that a written game is what we meant and that TripleA plays it.

``verify_with_engine`` reads the file with our reader and with the real engine
(owners, units, PUs, properties, game name must agree), then lets the engine's
Fast AI play every power for some rounds; any engine exception fails it.

The engine is the TripleA installation found (``--triplea``, then where TripleA installs), driven through JPype in
a Java runtime (no compiler): 1.9 by its reading and playing adapters (:mod:`kremlin_triplea.engine.play`), 2.x by
:mod:`kremlin_triplea.engine.triplea2_bridge` in the installation's own runtime, where the 2.x game selector's
objections (``GameParsingValidation``) count as disagreements too.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from kremlin_triplea.engine import compare, find_any_engine, find_engine, read_with_engine, triplea2_bridge
from kremlin_triplea.engine.play import FAST_AI, GAME_TIMEOUT_SECONDS, PlayReport, play_with_engine
from kremlin_triplea.gamefile.installation import Installation


@attrs.frozen
class Verification:
    file: Path
    disagreements: tuple[str, ...]  # where the engine reads the file differently from us
    play: PlayReport | None
    canals: tuple[str, ...] = ()  # the canals the engine knows, when its reading reports them
    # The rules as the engine understands them (EngineReading.rules): canals, who may cross each, ...
    engine_rules: dict = attrs.field(factory=dict, eq=False)
    engine: str = ""  # which TripleA, version and (2.x) Java runtime read and played it

    @property
    def ok(self) -> bool:
        return not self.disagreements and self.play is not None and self.play.ok


def disagreements(path: Path, reading) -> list[str]:
    """Owners, units, PUs, properties and game name as our reader and the engine's reading have them."""
    from kremlin_triplea.game import load

    if not reading.ok:
        return [f"the engine cannot read the file: {reading.error}"]
    return [f"DTD: {error}" for error in reading.dtd_errors] + [str(d) for d in compare.disagreements(load(path).board, reading)]


def verify_with_engine(paths: list[Path], rounds: int = 1, *, seed: int | None = 1, triplea: Path | str | None = None) -> list[Verification]:
    """Read all files in one JVM, then play them in another (2.x: the same); one Verification per file.

    ``triplea`` is the TripleA installation to run (``--triplea``), else the one found."""
    installation = find_any_engine(triplea)
    if installation.major == 2:
        return _verify_with_triplea2(installation, paths, rounds, seed)
    readings = read_with_engine(paths, triplea=triplea)
    engine = readings[0].engine if readings else find_engine(triplea).describe()
    plays = play_with_engine(paths, rounds=rounds, player_type=FAST_AI, seed=seed, triplea=triplea)
    results = []
    for path, reading, play in zip(paths, readings, plays):
        known = (getattr(reading, "rules", None) or {}).get("canals") or {}
        canals = tuple(sorted({f"{c['canal']} ({'/'.join(c['land'])})" for c in known.values()}))
        rules = dict(getattr(reading, "rules", None) or {})
        results.append(Verification(Path(path), tuple(disagreements(Path(path), reading)), play, canals, rules, engine))
    return results


def _verify_with_triplea2(installation: Installation, paths: list[Path], rounds: int, seed: int | None) -> list[Verification]:
    """Each file read, checked as the 2.x game selector checks it, and played by TripleA 2.x's Fast AI, in one JVM."""
    from kremlin_triplea.game import load

    files = [str(Path(p).resolve()) for p in paths]
    requests = [{"read": f} for f in files] + [{"play": f, "rounds": rounds, "seed": seed} for f in files]
    done = triplea2_bridge.run(installation, requests, timeout=GAME_TIMEOUT_SECONDS * (1 + len(files) * rounds), doing=f"verifying {len(files)} file(s)")
    engine = f"{installation.describe()} on {done.runtime}"
    results = []
    for path, read, played in zip(paths, done.answers[: len(files)], done.answers[len(files) :]):
        if "error" in read:
            found = [f"the engine cannot read the file: {read['error']}"]
        else:
            reading = triplea2_bridge.reading(read)
            found = [f"the TripleA 2.x game selector refuses the game: {error}" for error in reading.validation]
            found += [str(d) for d in compare.disagreements(load(Path(path)).board, reading, triplea2=True)]
        exceptions = tuple(played["exceptions"])
        play = PlayReport(
            file=Path(path),
            ok=not exceptions and (played["rounds_played"] == rounds or played["game_over"]),
            error=exceptions[0] if exceptions else None,
            rounds_played=played["rounds_played"],
            steps=tuple(played["steps"]),
            exceptions=exceptions,
            final=None,
            game_over=played["game_over"],
            timed_out=False,
        )
        results.append(Verification(Path(path), tuple(found), play, engine=engine))
    return results

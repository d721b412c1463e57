"""Read game files with the real TripleA engine, to check our reader and writer against it.

The engine is TripleA 1.9 as packaged by Debian (``apt-get install -y triplea``) or a TripleA 2.x installation.
A user's TripleA ships a Java runtime but no compiler, so the engine is driven from Python through JPype, which
loads the runtime's JVM into a child process (:mod:`kremlin_triplea.engine.jvm_bridge`); each version has its
adapters: 1.9 reads (:mod:`~kremlin_triplea.engine.triplea19_bridge`), plays
(:mod:`~kremlin_triplea.engine.triplea19_play`) and sets up positions
(:mod:`~kremlin_triplea.engine.triplea19_positions`); 2.x reads, saves and plays
(:mod:`~kremlin_triplea.engine.triplea2_bridge`). A whole batch of files runs in one JVM.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import attrs

from kremlin_triplea.engine.errors import EngineFailed, EngineUnavailable
from kremlin_triplea.engine.jvm_bridge import TRIPLEA2_LIBRARIES, run_child, runtime_library, triplea2_classpath
from kremlin_triplea.gamefile.installation import Installation, find_installation

__all__ = [
    "EngineFailed",
    "EngineReading",
    "EngineTerritory",
    "EngineUnavailable",
    "engine_available",
    "find_engine",
    "find_any_engine",
    "find_triplea_jar",
    "read_with_engine",
    "read_with_engine_of_record",
    "TRIPLEA2_LIBRARIES",  # TripleA 2.x's classpath lives with the JVM child (jvm_bridge); named here for callers
    "triplea2_classpath",
]

DEFAULT_JAR = Path("/usr/share/games/triplea/bin/triplea.jar")
#: TripleA 1.9 and the Java runtime it depends on (JPype comes with this package's Python dependencies).
INSTALL_HINT = "install TripleA with: apt-get install -y triplea"

# A file that keeps the engine busy this long is reported as timed out, and the batch goes on.
FILE_TIMEOUT_SECONDS = 60
JVM_START_SECONDS = 120


@attrs.frozen
class EngineTerritory:
    water: bool | None  # None: the engine's reading does not say (TripleA 2.x's)
    owner: str | None
    #: Unit counts keyed by (owner, unit type); owner None is TripleA's neutral player.
    units: Mapping[tuple[str | None, str], int]


@attrs.frozen
class EngineReading:
    """What the engine made of one file; when ``ok`` is false only ``error`` and ``dtd_errors`` say much."""

    #: The path as the caller gave it.
    file: Path
    ok: bool
    error: str | None
    game_name: str | None
    territories: Mapping[str, EngineTerritory]
    pus: Mapping[str, int]
    #: Every game property as a string, constant and editable alike.
    properties: Mapping[str, str]
    #: DTD violations; the engine only prints them and still accepts the file.
    dtd_errors: tuple[str, ...]
    #: The rules as the engine understands them (triplea19_bridge.rules): ``canals``, ``crossings``
    #: ("zone|zone" -> power -> unit type -> may cross), ``players`` (techs, tech_cost, prices,
    #: units with their techs, conditions, triggers).
    rules: Mapping[str, Any] = attrs.field(factory=dict)
    #: TripleA 2.x's reading, whose differences by design compare.disagreements leaves out.
    triplea2: bool = False
    #: Which TripleA read it (and, for 2.x, on which Java runtime).
    engine: str = ""


def find_any_engine(explicit: Path | str | None = None) -> Installation:
    """The TripleA installation, 1.9 or 2.x, that engine runs use: ``explicit`` (``--triplea``), else the one
    :mod:`kremlin_triplea.gamefile.installation` finds. A command that takes ``--triplea`` passes it down to here."""
    search = find_installation(explicit)
    if search.found is None:
        raise EngineUnavailable(f"{search.not_found_message()}; on Debian: {INSTALL_HINT}")
    return search.found


def find_engine(explicit: Path | str | None = None) -> Installation:
    """The TripleA 1.9 installation the 1.9 adapters (reading with the rules report, playing, positions) run in.

    They call TripleA 1.9's classes (Debian's package), whose API 2.x changed: another engine is refused, saying
    which was found (TripleA 2.x runs through :mod:`kremlin_triplea.engine.triplea2_bridge`).
    """
    found = find_any_engine(explicit)
    if found.major is not None and found.major != 1:
        raise EngineUnavailable(f"found {found.describe()}, but the engine checks drive TripleA 1.9's classes (Debian's package) only; {INSTALL_HINT}")
    return found


def find_triplea_jar(explicit: Path | str | None = None) -> Path:
    """The jar of the TripleA the engine runs from, else where Debian's ``triplea`` package puts it (which may not exist)."""
    search = find_installation(explicit)
    return search.found.jar if search.found is not None else DEFAULT_JAR


def engine_available() -> bool:
    """Whether the engine of record (:func:`read_with_engine_of_record`) can read games here: a TripleA jar, a Java
    runtime's JVM library and JPype."""
    try:
        runtime_library(find_any_engine())
    except EngineUnavailable:
        return False
    return importlib.util.find_spec("jpype") is not None


def read_with_engine_of_record(paths: Iterable[str | os.PathLike[str]]) -> list[EngineReading]:
    """Every file read in one JVM by the TripleA that judges games: the player's newest 2.x, else TripleA 1.9
    (:func:`find_any_engine`; each reading names it). A 2.x reading is not ``ok`` when the 2.x game selector would
    refuse the game (``GameParsingValidation``), which is how players would find it."""
    given = [Path(p) for p in paths]
    installation = find_any_engine()
    if (installation.major or 0) < 2:
        # Judging a game needs what the engine reads, not its rules report (1.9's costly canal crossings).
        return read_with_engine(given, rules=False)
    from kremlin_triplea.engine import triplea2_bridge

    requests = [{"read": str(file)} for file in absolute_paths(given)]
    if not requests:
        return []
    done = triplea2_bridge.run(
        installation, requests, timeout=JVM_START_SECONDS + FILE_TIMEOUT_SECONDS * len(requests), doing=f"reading {len(requests)} file(s)"
    )
    engine = f"{installation.describe()} on {done.runtime}"
    return [_triplea2_reading(path, answer, engine) for path, answer in zip(given, done.answers)]


def _triplea2_reading(path: Path, answer: Mapping[str, Any], engine: str) -> EngineReading:
    if "error" in answer:
        return EngineReading(path, False, answer["error"], None, {}, {}, {}, (), triplea2=True, engine=engine)
    refused = [f"the TripleA 2.x game selector refuses the game: {error}" for error in answer["validation"]]
    territories = {
        name: EngineTerritory(water=None, owner=t["owner"], units={(owner, kind): n for owner, kind, n in t["units"]})
        for name, t in answer["territories"].items()
    }
    return EngineReading(
        file=path,
        ok=not refused,
        error="; ".join(refused) or None,
        game_name=answer["game_name"],
        territories=territories,
        pus=answer["pus"],
        properties=answer["properties"],
        dtd_errors=(),
        triplea2=True,
        engine=engine,
    )


def read_with_engine(paths: Iterable[str | os.PathLike[str]], *, triplea: Path | str | None = None, rules: bool = True) -> list[EngineReading]:
    """Read every file in one JVM of TripleA 1.9, with its rules report unless ``rules`` is false (``rules`` is then
    empty: the report asks the engine's move validator about every canal, power and ship type, a minute on a map with
    many canals); the readings come back in the order of ``paths``.

    What judges a game is :func:`read_with_engine_of_record` (the player's 2.x when there is one)."""
    given = [Path(p) for p in paths]
    files = absolute_paths(given)
    if not files:
        return []
    # Reading runs through JPype (engine/triplea19_bridge.py): no compiler is needed, only the Java runtime.
    installation = find_engine(triplea)
    libjvm = runtime_library(installation)
    runtime, answers = run_child(
        "kremlin_triplea.engine.triplea19_bridge",
        libjvm=libjvm,
        classpath=[installation.jar],
        requests=[{"read": str(file), "timeout": FILE_TIMEOUT_SECONDS, "rules": rules} for file in files],
        timeout=JVM_START_SECONDS + FILE_TIMEOUT_SECONDS * len(files),
        doing=f"reading {len(files)} file(s)",
        describe=installation.describe(),
        # TripleA 1.9 reads game_engine.properties from its working folder.
        cwd=installation.jar.parent,
    )
    engine = f"{installation.describe()} on Java {runtime['java_version']} ({libjvm})"
    readings = []
    for path, file, answer in zip(given, files, answers):
        reading = _reading(answer)
        if reading.file != file:
            raise EngineFailed(f"the engine answered for {reading.file} instead of {file}")
        readings.append(attrs.evolve(reading, file=path, engine=engine))
    return readings


def absolute_paths(paths: Iterable[Path]) -> list[Path]:
    """Absolute paths, because the engine runs in its own folder (the requests are JSON: any file name will do)."""
    return [p.resolve() for p in paths]


def engine_territories(raw: Mapping[str, Any] | None) -> dict[str, EngineTerritory]:
    return {
        name: EngineTerritory(
            water=t["water"],
            owner=t["owner"],
            units={(u["owner"], u["type"]): u["count"] for u in t["units"]},
        )
        for name, t in (raw or {}).items()
    }


def _reading(raw: dict[str, Any]) -> EngineReading:
    return EngineReading(
        file=Path(raw["file"]),
        ok=raw["ok"],
        error=raw["error"],
        game_name=raw["game_name"],
        territories=engine_territories(raw["territories"]),
        pus=raw["pus"] or {},
        properties=raw["properties"] or {},
        dtd_errors=tuple(raw["dtd_errors"]),
        rules=raw.get("rules") or {},
    )

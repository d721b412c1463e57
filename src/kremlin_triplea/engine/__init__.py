"""Read game files with the real TripleA engine, to check our reader and writer against it.

The engine is TripleA 1.9 as packaged by Debian (``apt-get install -y triplea``). A user's TripleA ships
a Java runtime but no compiler, so reading is driven from Python through JPype
(:mod:`kremlin_triplea.engine.triplea19_bridge`, over the runner shared with TripleA 2.x,
:mod:`kremlin_triplea.engine.jvm_bridge`): a whole batch of files is read in one child process and JVM.
Playing and the house-rule positions are still driven by the Java programs beside this file
(``EnginePlayer.java``, ``EnginePositions.java``, compiled once per source, jar and JDK into a cache folder).
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import importlib.util
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from kremlin_triplea.engine.errors import EngineFailed, EngineUnavailable
from kremlin_triplea.engine.jvm_bridge import run_child, runtime_library
from kremlin_triplea.errors import KremlinError
from kremlin_triplea.gamefile.installation import Installation, find_installation

__all__ = [
    "EngineFailed",
    "EngineReading",
    "EngineTerritory",
    "EngineUnavailable",
    "engine_available",
    "find_engine",
    "find_any_engine",
    "using_triplea",
    "find_triplea_jar",
    "read_with_engine",
]

DEFAULT_JAR = Path("/usr/share/games/triplea/bin/triplea.jar")
HARNESS_SOURCE = Path(__file__).with_name("EngineHarness.java")
HARNESS_CLASS = "EngineHarness"
#: Compiled together: the player shares the reader's JSON and game-state code.
HARNESS_SOURCES = (
    HARNESS_SOURCE,
    Path(__file__).with_name("EnginePlayer.java"),
    Path(__file__).with_name("EngineRules.java"),
    Path(__file__).with_name("EnginePositions.java"),
)
INSTALL_HINT = "install TripleA and a JDK with: apt-get install -y triplea default-jdk-headless"

# A file that keeps the engine busy this long is reported as timed out, and the batch goes on.
FILE_TIMEOUT_SECONDS = 60
JVM_START_SECONDS = 120


@attrs.frozen
class EngineTerritory:
    water: bool
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
    #: The rules as the engine understands them (EngineRules.java): ``canals``, ``crossings``
    #: ("zone|zone" -> power -> unit type -> may cross), ``players`` (techs, tech_cost, prices,
    #: units with their techs, conditions, triggers).
    rules: Mapping[str, Any] = attrs.field(factory=dict)


#: The installation the command line named (``--triplea``) for the engine runs of this call, if any.
_NAMED: contextvars.ContextVar[Path | None] = contextvars.ContextVar("kremlin_triplea_named_installation", default=None)


@contextlib.contextmanager
def using_triplea(folder: Path | str | None) -> Iterator[None]:
    """Within the block, the engine runs from ``folder`` (``--triplea``); None keeps the usual lookup."""
    token = _NAMED.set(Path(folder) if folder is not None else None)
    try:
        yield
    finally:
        _NAMED.reset(token)


def find_any_engine(explicit: Path | str | None = None) -> Installation:
    """The TripleA installation, 1.9 or 2.x, that engine runs use (:mod:`kremlin_triplea.gamefile.installation` finds it)."""
    search = find_installation(explicit or _NAMED.get())
    if search.found is None:
        raise EngineUnavailable(f"{search.not_found_message()}; on Debian: {INSTALL_HINT}")
    return search.found


def find_engine(explicit: Path | str | None = None) -> Installation:
    """The TripleA 1.9 installation the harness runs from.

    The harness is compiled against TripleA 1.9's classes (Debian's package): another engine is refused, saying
    which was found, rather than failing to compile (TripleA 2.x runs through :mod:`kremlin_triplea.engine.triplea2_bridge`).
    """
    found = find_any_engine(explicit)
    if found.major is not None and found.major != 1:
        raise EngineUnavailable(f"found {found.describe()}, but the engine checks drive TripleA 1.9's classes (Debian's package) only; {INSTALL_HINT}")
    return found


def find_triplea_jar() -> Path:
    """The jar of the TripleA the engine runs from, else where Debian's ``triplea`` package puts it (which may not exist)."""
    search = find_installation(_NAMED.get())
    return search.found.jar if search.found is not None else DEFAULT_JAR


def engine_available() -> bool:
    """Whether TripleA 1.9 can read games here: its jar, a Java runtime's JVM library and JPype."""
    try:
        runtime_library(find_engine())
    except EngineUnavailable:
        return False
    return importlib.util.find_spec("jpype") is not None


def read_with_engine(paths: Iterable[str | os.PathLike[str]]) -> list[EngineReading]:
    """Read every file in one JVM; the readings come back in the order of ``paths``."""
    given = [Path(p) for p in paths]
    files = _resolved(given)
    if not files:
        return []
    # Reading runs through JPype (engine/triplea19_bridge.py): no compiler is needed, only the Java runtime.
    installation = find_engine()
    _, answers = run_child(
        "kremlin_triplea.engine.triplea19_bridge",
        libjvm=runtime_library(installation),
        classpath=[installation.jar],
        requests=[{"read": str(file), "timeout": FILE_TIMEOUT_SECONDS} for file in files],
        timeout=JVM_START_SECONDS + FILE_TIMEOUT_SECONDS * len(files),
        doing=f"reading {len(files)} file(s)",
        describe=installation.describe(),
        # TripleA 1.9 reads game_engine.properties from its working folder.
        cwd=installation.jar.parent,
    )
    readings = []
    for path, file, answer in zip(given, files, answers):
        reading = _reading(answer)
        if reading.file != file:
            raise EngineFailed(f"the engine harness answered for {reading.file} instead of {file}")
        readings.append(attrs.evolve(reading, file=path))
    return readings


def _resolved(paths: Iterable[Path]) -> list[Path]:
    """Absolute paths, because the engine runs in its own folder; the harnesses take one a line."""
    files = [p.resolve() for p in paths]
    for file in files:
        if "\n" in str(file) or "\r" in str(file):
            raise KremlinError("the engine harness cannot read a path with a line break", where=str(file))
    return files


def _run_engine(main_class: str, files: list[Path], properties: Mapping[str, str], *, timeout: float, doing: str) -> subprocess.CompletedProcess[str]:
    """Run one harness class over ``files`` (given on standard input) in one JVM, in a scratch home folder."""
    java, jar, classes = _compiled_harness()
    # The engine reads game_engine.properties from its working directory.
    return run_java(
        java,
        [jar, classes],
        main_class,
        "".join(f"{file}\n" for file in files),
        properties=properties,
        cwd=jar.parent,
        timeout=timeout,
        doing=f"{doing} {len(files)} file(s)",
    )


#: The Debian packages' jars TripleA 2.7's headless jar (../shared/triplea-engine-2.7) needs to parse, save, load
#: and play games (its README); a player's own 2.x installation carries its libraries inside its jar.
TRIPLEA2_LIBRARIES = (
    "guava",
    "gson",
    "commons-io",
    "commons-math3",
    "commons-text",
    "commons-lang3",
    "slf4j-api",
    "logback-classic",
    "logback-core",
    "httpclient",
    "httpcore",
    "httpmime",
    "snakeyaml",
    "jakarta-mail",
    "jakarta-activation",
)


def triplea2_classpath(jar: Path, libraries: Path = Path("/usr/share/java")) -> list[Path]:
    """``jar`` (a TripleA 2.x jar) and those of :data:`TRIPLEA2_LIBRARIES` installed in ``libraries``."""
    return [jar, *(p for p in (libraries / f"{name}.jar" for name in TRIPLEA2_LIBRARIES) if p.is_file())]


def run_java(
    java: Path | str,
    classpath: Sequence[Path],
    main_class: str,
    stdin: str,
    *,
    timeout: float,
    doing: str,
    properties: Mapping[str, str] = {},
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """One headless TripleA JVM (1.9 or 2.x) running ``main_class`` with ``stdin``, in a scratch home folder."""
    with tempfile.TemporaryDirectory(prefix="kremlin-triplea-home-") as home:
        command = [
            str(java),
            "-Djava.awt.headless=true",
            "-Dtriplea.headless=true",
            # The engine writes settings, preferences and autosaves below the home folder; keep the user's untouched.
            f"-Duser.home={home}",
            f"-Djava.util.prefs.userRoot={home}/.java",
            *(f"-D{name}={value}" for name, value in properties.items()),
            "-cp",
            os.pathsep.join(map(str, classpath)),
            main_class,
        ]
        try:
            return subprocess.run(
                command,
                input=stdin,
                capture_output=True,
                text=True,
                encoding="utf-8",
                cwd=cwd,
                # Java turns path strings into bytes by the locale; a C locale would lose non-ASCII names.
                env={**os.environ, "LC_ALL": "C.UTF-8"},
                timeout=timeout,
            )
        except subprocess.TimeoutExpired as e:
            raise EngineFailed(f"the TripleA engine did not finish {doing} in {timeout:.0f} s") from e


def _territories(raw: Mapping[str, Any] | None) -> dict[str, EngineTerritory]:
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
        territories=_territories(raw["territories"]),
        pus=raw["pus"] or {},
        properties=raw["properties"] or {},
        dtd_errors=tuple(raw["dtd_errors"]),
        rules=raw.get("rules") or {},
    )


def _tools() -> tuple[Path, Path, Path]:
    """java, javac and the jar, or EngineUnavailable saying which is missing."""
    jar = find_engine().jar
    java_home = os.environ.get("JAVA_HOME")
    found = shutil.which("java", path=str(Path(java_home) / "bin")) if java_home else None
    found = found or shutil.which("java")
    if not found:
        raise EngineUnavailable(f"java is not installed; {INSTALL_HINT}")
    java = Path(found).resolve()
    # javac from the same JDK as java, so the classes it writes are ones that java can load.
    javac = java.with_name("javac")
    if not javac.is_file():
        raise EngineUnavailable(f"javac is not installed beside {java} (a JRE is not enough); {INSTALL_HINT}")
    return java, javac, jar


def _compiled_harness() -> tuple[Path, Path, Path]:
    """java, the jar, and the folder holding the compiled harness, compiling it if need be."""
    java, javac, jar = _tools()
    return java, jar, compiled_classes(javac, HARNESS_SOURCES, [jar])


def compiled_classes(javac: Path | str, sources: Sequence[Path], classpath: Sequence[Path]) -> Path:
    """``sources`` compiled against ``classpath``, once: a cache folder keyed by the sources, the jars and the JDK."""
    key = hashlib.sha256()
    for source in sources:
        key.update(source.read_bytes() + b"\0")
    # A new jar or JDK gets freshly compiled classes.
    for used in (*classpath, Path(javac)):
        stat = used.stat()
        key.update(f"{used}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    root = Path(os.environ.get("KREMLIN_TRIPLEA_CACHE") or Path.home() / ".cache" / "kremlin-triplea" / "engine")
    classes = root / key.hexdigest()[:16]

    def complete() -> bool:
        return all((classes / f"{source.stem}.class").is_file() for source in sources)

    if complete():
        return classes
    root.mkdir(parents=True, exist_ok=True)
    # Compile beside the final folder and rename it into place, so that a concurrent or interrupted
    # run never sees half the classes.
    building = Path(tempfile.mkdtemp(prefix=".building-", dir=root))
    try:
        command = [str(javac), "-nowarn", "-encoding", "UTF-8", "-d", str(building)]
        if classpath:
            command += ["-cp", os.pathsep.join(map(str, classpath))]
        done = subprocess.run([*command, *map(str, sources)], capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            against = f" against {os.pathsep.join(map(str, classpath))}" if classpath else ""
            raise EngineUnavailable(f"{', '.join(s.name for s in sources)} does not compile{against}: {_tail(done.stderr)}")
        building.chmod(0o755)  # mkdtemp's 0700 would shut out other users of a shared cache
        try:
            building.rename(classes)
        except OSError:
            if not complete():
                raise
    finally:
        shutil.rmtree(building, ignore_errors=True)
    return classes


def _tail(text: str, lines: int = 20) -> str:
    return "\n".join(text.strip().splitlines()[-lines:]) or "(no output)"

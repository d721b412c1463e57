"""One runner for TripleA engines driven from Python through JPype, whatever their version (issue 16).

A user's TripleA installation ships a Java runtime but no compiler, so the engine is not driven by Java source
compiled here: JPype loads a Java runtime's JVM library (``libjvm.so``, ``libjvm.dylib``, ``jvm.dll``) into a
Python process and calls the engine's classes directly. A process starts at most one JVM, with a class path fixed
at its start, so each batch runs in a child Python process (``python -m`` a version's adapter module) with that
installation's jar on its class path; the caller (:func:`run_child`) stays free of any JVM.

What is shared by every version lives here; a version's adapter (:mod:`kremlin_triplea.engine.triplea2_bridge`
for TripleA 2.x) only says which requests it answers and how:

- the order: the child reads one JSON object on standard input: the JVM library, the class path, a scratch home
  folder (``-Duser.home``; the engine writes settings, preferences and autosaves there, never in the user's own)
  and the requests;
- the answers: one JSON line each on standard output, first the Java runtime the child runs on, then one answer
  per request, in order; everything else written to standard output (engine logs, the JVM's own) goes to
  standard error;
- the working folder: the one the adapter names (TripleA 1.9 reads ``game_engine.properties`` from the working
  folder, so it runs in its jar's folder);
- errors: an engine exception answers ``{"error": "Class: message"}`` (its root cause) and the batch goes on.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import kremlin_triplea
from kremlin_triplea.engine.errors import EngineFailed, EngineUnavailable
from kremlin_triplea.gamefile.installation import Installation, jar_problem, system_jvm_library
from kremlin_triplea.gamefile.safe import scratch_folder

__all__ = ["Refused", "java_string", "root_cause", "run_child", "runtime_library", "serve"]


def runtime_library(installation: Installation) -> Path:
    """The JVM library the engine runs in: the installation's own runtime, else the system's Java.

    The system's Java is ``$JAVA_HOME``'s, else (macOS) the one ``/usr/libexec/java_home`` names, else the one
    ``java`` on the path stands for (:func:`~kremlin_triplea.gamefile.installation.system_jvm_library`).
    EngineUnavailable names what was looked at when none has a JVM library, or what is wrong with the installation's jar.
    """
    problem = jar_problem(installation.jar)
    if problem is not None:
        raise EngineUnavailable(f"{problem} ({installation.describe()})", where=str(installation.jar))
    if installation.java is not None:
        bundled = installation.libjvm
        if bundled is None:
            raise EngineUnavailable(f"{installation.describe()} ships {installation.java}, but no JVM library (lib/server/libjvm.*) beside it")
        return bundled
    found, looked = system_jvm_library()
    if found is not None:
        return found
    raise EngineUnavailable(
        f"{installation.describe()} ships no Java runtime, and no system Java has a JVM library (looked at: {', '.join(looked) or 'no java installed'})"
    )


def run_child(
    module: str,
    *,
    libjvm: Path,
    classpath: Sequence[Path],
    requests: Sequence[Mapping[str, Any]],
    timeout: float,
    doing: str,
    describe: str,
    cwd: Path | None = None,
) -> tuple[dict[str, Any], tuple[dict[str, Any], ...]]:
    """The ``requests`` answered by the adapter ``module`` in one child process (one JVM): the runtime line and
    one answer per request. ``describe`` names the installation in errors."""
    if importlib.util.find_spec("jpype") is None:
        raise EngineUnavailable("the Python package JPype1 is not installed (pip install JPype1); it runs TripleA from Python")
    # The child must import this very package (a checkout's src/ as well as an installed copy).
    package_root = str(Path(kremlin_triplea.__file__).resolve().parents[1])
    python_path = os.pathsep.join(p for p in (package_root, os.environ.get("PYTHONPATH", "")) if p)
    with scratch_folder("engine") as home_folder:
        home = str(home_folder)
        order = {"libjvm": str(libjvm), "classpath": [str(p) for p in classpath], "home": home, "requests": list(requests)}
        try:
            done = subprocess.run(
                [sys.executable, "-m", module],
                input=json.dumps(order),
                capture_output=True,
                text=True,
                encoding="utf-8",
                # The answers are JSON, ASCII; what the JVM and the engine write to standard error is in the system's
                # code page on Windows (a user folder such as C:\Users\José), so it must not end the run.
                errors="replace",
                cwd=str(cwd) if cwd is not None else None,
                # Java turns path strings into bytes by the locale; a C locale would lose non-ASCII names.
                env={**os.environ, "PYTHONPATH": python_path, "LC_ALL": "C.UTF-8"},
                timeout=timeout,
            )
        except subprocess.TimeoutExpired as e:
            raise EngineFailed(f"{describe} did not finish {doing} in {timeout:.0f} s") from e
    lines = done.stdout.splitlines()
    if done.returncode != 0 or len(lines) != 1 + len(requests):
        # One line, the child's last words (the exception that ended it), as every error of this program is.
        last = next((line.strip() for line in reversed(done.stderr.splitlines()) if line.strip()), "(no output)")
        failed = EngineFailed(f"{describe} (JVM {libjvm}) exited with status {done.returncode} {doing}: {last}")
        if hasattr(failed, "add_note"):  # Python 3.11+: the child's whole account, shown with --debug's traceback
            failed.add_note("the engine's standard error:\n" + "\n".join(done.stderr.strip().splitlines()[-40:]))
        raise failed
    runtime, *answers = (json.loads(line) for line in lines)
    return runtime, tuple(answers)


# ---------------------------------------------------------------------------------------------------------------
# The child process: everything below runs inside the JVM's process and imports JPype.


class Refused(Exception):
    """The engine answered "nothing" (an empty Optional, a null) where a game or save was expected."""


def root_cause(error: BaseException) -> str:
    """A Java exception's root cause as ``Class: message``; any other exception as its text."""
    from jpype import JException

    if not isinstance(error, JException):
        return str(error)
    root = error
    while root.getCause() is not None and not root.getCause().equals(root):
        root = root.getCause()
    return f"{root.getClass().getName()}: {root.getMessage()}"


def java_string(value) -> str:
    """``value`` as Java writes it (String.valueOf): JPype would show a boxed Boolean as Python's "False"."""
    return "null" if value is None else str(value.toString())


def serve(adapter: Callable[[Path], Callable[[Mapping[str, Any]], dict[str, Any]]], *, jvm_options: Sequence[str] = ()) -> None:
    """The child's main: start the JVM the order names, then answer its requests with ``adapter(home)`` (called
    once the JVM runs; it returns the function answering one request) and exit without waiting for engine threads."""
    order = json.load(sys.stdin)
    # The engine logs to standard output (logback's console appender), and so might the JVM itself: the answers
    # keep a copy of standard output of their own, and everything else written there goes to standard error.
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    sys.stdout.flush()
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    import jpype

    home = Path(order["home"])
    jpype.startJVM(
        order["libjvm"],
        "-Djava.awt.headless=true",
        # The engine's headless switch: without it the engine waits for a UI that never comes.
        "-Dtriplea.headless=true",
        # The engine writes settings, preferences and autosaves below the home folder; keep the user's untouched.
        f"-Duser.home={home}",
        f"-Djava.util.prefs.userRoot={home / '.java'}",
        # One engine run reads a game or plays a round in one thread: the default collector (G1 on a machine of two
        # cores or more) keeps threads of its own busy beside it, the serial one does not (about a sixth less CPU for
        # a Fast-AI round, measured). Memory per object, and so what fits in the heap, is the same.
        "-XX:+UseSerialGC",
        *jvm_options,
        classpath=order["classpath"],
        convertStrings=False,
    )
    system = jpype.JClass("java.lang.System")
    system.setOut(system.err)  # where standard output is a Windows handle rather than descriptor 1
    answers.write(json.dumps({"java_version": str(system.getProperty("java.version")), "java_home": str(system.getProperty("java.home"))}) + "\n")
    answer = adapter(home)
    for request in order["requests"]:
        try:
            reply = answer(request)
        except (jpype.JException, Refused) as e:
            reply = {"error": root_cause(e)}
        answers.write(json.dumps(reply) + "\n")
        answers.flush()
    answers.close()
    # A played game may leave engine threads running that would keep the JVM, and so this process, alive.
    system.err.flush()
    os._exit(0)


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


def java_implementation(cls: type, interface: str) -> type:
    """``cls`` as a Java implementation of ``interface``, in the JVM's child: its public methods (its bases' too), each
    marked as overriding the interface's of that name.

    JPype checks an implementation against the interface by the methods its class itself defines, not those it
    inherits, so they are all set on one class; ``cls`` is written as plain Python, readable without a JVM."""
    import inspect

    from jpype import JImplements, JOverride

    methods = {}
    for klass in reversed(cls.__mro__):
        methods.update({name: JOverride(value) for name, value in vars(klass).items() if inspect.isfunction(value) and not name.startswith("_")})
    return JImplements(interface)(type(cls.__name__, (cls,), methods))


class SeededDice:
    """TripleA's ``IRandomSource`` (1.9's and 2.x's alike): dice that roll the same for the same seed (TripleA's
    PlainRandomSource cannot be seeded); the AIs still choose freely. ``java_implementation(SeededDice,
    SeededDice.INTERFACE)`` makes it Java, in the child."""

    INTERFACE = "games.strategy.engine.random.IRandomSource"

    def __init__(self, seed: int) -> None:
        import random
        import threading

        self._random = random.Random(seed)
        self._lock = threading.Lock()  # the engine rolls from its game thread and from AI threads

    def getRandom(self, most, *rest):  # the interface's name: getRandom(max, annotation) and getRandom(max, count, annotation)
        from jpype import JArray, JInt

        with self._lock:
            if len(rest) == 1:
                return self._random.randrange(int(most))
            return JArray(JInt)([self._random.randrange(int(most)) for _ in range(int(rest[0]))])


def triplea2_classpath(jar: Path, libraries: Path = Path("/usr/share/java")) -> list[Path]:
    """``jar`` (a TripleA 2.x jar) and those of :data:`TRIPLEA2_LIBRARIES` installed in ``libraries``."""
    return [jar, *(p for p in (libraries / f"{name}.jar" for name in TRIPLEA2_LIBRARIES) if p.is_file())]

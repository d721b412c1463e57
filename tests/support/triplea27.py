"""A TripleA 2.7 installation as a player has it: the engine's jar and a Java runtime without a compiler (issues 16, 33).

Laid out as TripleA's Linux installer lays it out (``bin/<jar>`` and ``jre/``), with ../shared/triplea-engine-2.7's
jar as its engine and a ``jre`` made of the system Java without its tools: ``bin`` holds ``java`` only. The jar is
the client's by default (what players install: game-headed's shadow jar, built without the game-headless module,
so without the headless server's ``org/triplea/game/server/`` classes), or the headless bot's.
"""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import tempfile
import zipfile
from pathlib import Path

import kremlin_triplea
from support.paths import SHARED

JAR_27 = SHARED / "triplea-engine-2.7" / "triplea-2.7.15472-headless.jar"
VERSION_27 = "2.7.15472"
#: The client's jar as the 2.7 installers ship it: game-headed's shadow jar, "$group-$name-$version" in TripleA's
#: Groovy build (game-app/game-headed/build.gradle: archivesBaseName), "$name-$version" in its Kotlin build, the
#: version being the product version + build number.
CLIENT_JAR_NAMES = ("triplea-game-headed-2.7+15472.jar", "game-headed-2.7+15472.jar")
CLIENT_VERSION_27 = "2.7+15472"
BOT_JAR_NAME = f"triplea-game-headless-{VERSION_27}.jar"
#: The headless server (the bot): the game-headless module, which the client's jar does not hold.
HEADLESS_SERVER_PACKAGE = "org/triplea/game/server/"


def system_java_home() -> Path:
    java = shutil.which("java")
    assert java, "the test needs a system Java runtime (Debian's triplea package, which scripts/test installs, brings one)"
    return Path(java).resolve().parent.parent


def system_java_version() -> str:
    """The system runtime's version as its own ``release`` file states it."""
    release = (system_java_home() / "release").read_text(encoding="utf-8")
    return release.split('JAVA_VERSION="', 1)[1].split('"', 1)[0]


def installation_without_compiler(folder: Path, jar_name: str = CLIENT_JAR_NAMES[0]) -> Path:
    """``folder`` made a TripleA 2.7 installation whose runtime is the system Java minus its tools (a JDK's javac, say):
    the client's (``jar_name`` one of :data:`CLIENT_JAR_NAMES`) or the bot's (:data:`BOT_JAR_NAME`)."""
    (folder / "bin").mkdir(parents=True)
    if jar_name == BOT_JAR_NAME:
        (folder / "bin" / jar_name).symlink_to(JAR_27)
    else:
        client_jar(folder / "bin" / jar_name)
    jdk = system_java_home()
    jre = folder / "jre"
    (jre / "bin").mkdir(parents=True)
    (jre / "bin" / "java").symlink_to(jdk / "bin" / "java")
    for entry in jdk.iterdir():
        if entry.name != "bin":
            (jre / entry.name).symlink_to(entry)
    return folder


def client_jar(path: Path) -> Path:
    """The 2.7 engine's jar without the headless server's classes, at ``path``: what a player's client jar holds of it."""
    shutil.copyfile(_client_jar_once(), path)
    return path


@functools.cache
def _client_jar_once() -> Path:
    """The client's jar made once a process: compressing the engine's classes anew takes a second, and a run makes a
    dozen installations. Each installation has a copy of its own, as a player's would."""
    folder = Path(tempfile.mkdtemp(prefix="kremlin-triplea-client-jar-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    path = folder / "client.jar"
    with zipfile.ZipFile(JAR_27) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for entry in source.infolist():
            if not entry.filename.startswith(HEADLESS_SERVER_PACKAGE):
                target.writestr(entry, source.read(entry))
    return path


def environment_without_java(folder: Path) -> dict[str, str]:
    """An environment whose PATH is one empty folder (``folder/path``): no javac, no java, no $JAVA_HOME. Commands
    run with ``sys.executable`` itself (a link to it elsewhere would lose a virtualenv: Python finds its
    ``pyvenv.cfg`` beside the path it was started by); the package under test is importable as in this process."""
    tools = folder / "path"
    tools.mkdir()
    drop = {"JAVA_HOME", "KREMLIN_TRIPLEA", "KREMLIN_TRIPLEA_JAR"}
    environment = {k: v for k, v in os.environ.items() if k not in drop}
    package_root = str(Path(kremlin_triplea.__file__).resolve().parents[1])
    return environment | {"PATH": str(tools), "HOME": str(folder / "home"), "PYTHONPATH": package_root}

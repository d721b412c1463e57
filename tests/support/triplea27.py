"""A TripleA 2.7 installation as a player has it: the engine's jar and a Java runtime without a compiler (issue 16).

Laid out as TripleA's Linux installer lays it out (``bin/triplea-game-headless-<version>.jar`` and ``jre/``), with
../shared/triplea-engine-2.7's jar as its engine and a ``jre`` made of the system Java without its tools: ``bin``
holds ``java`` only.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import kremlin_triplea
from support.paths import SHARED

JAR_27 = SHARED / "triplea-engine-2.7" / "triplea-2.7.15472-headless.jar"
VERSION_27 = "2.7.15472"


def system_java_home() -> Path:
    java = shutil.which("java")
    assert java, "the test needs a system Java runtime (Debian's triplea package, which scripts/test installs, brings one)"
    return Path(java).resolve().parent.parent


def system_java_version() -> str:
    """The system runtime's version as its own ``release`` file states it."""
    release = (system_java_home() / "release").read_text(encoding="utf-8")
    return release.split('JAVA_VERSION="', 1)[1].split('"', 1)[0]


def installation_without_compiler(folder: Path) -> Path:
    """``folder`` made a TripleA 2.7 installation whose runtime is the system Java minus its tools (a JDK's javac, say)."""
    (folder / "bin").mkdir(parents=True)
    (folder / "bin" / f"triplea-game-headless-{VERSION_27}.jar").symlink_to(JAR_27)
    jdk = system_java_home()
    jre = folder / "jre"
    (jre / "bin").mkdir(parents=True)
    (jre / "bin" / "java").symlink_to(jdk / "bin" / "java")
    for entry in jdk.iterdir():
        if entry.name != "bin":
            (jre / entry.name).symlink_to(entry)
    return folder


def environment_without_java(folder: Path) -> dict[str, str]:
    """An environment whose PATH holds python3 only (in ``folder/path``): no javac, no java, no $JAVA_HOME. The
    package under test is importable as in this process."""
    tools = folder / "path"
    tools.mkdir()
    (tools / "python3").symlink_to(sys.executable)
    drop = {"JAVA_HOME", "KREMLIN_TRIPLEA", "KREMLIN_TRIPLEA_JAR"}
    environment = {k: v for k, v in os.environ.items() if k not in drop}
    package_root = str(Path(kremlin_triplea.__file__).resolve().parents[1])
    return environment | {"PATH": str(tools), "HOME": str(folder / "home"), "PYTHONPATH": package_root}

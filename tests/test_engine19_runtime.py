"""TripleA 1.9 is read, played and questioned with a Java runtime alone: no compiler anywhere (issue 16).

Debian's ``triplea`` package brings a Java runtime, not a JDK. The commands here run with a ``java`` on their path
whose folder holds no ``javac`` (a copy of the launcher in a runtime tree without the JDK's tools), no ``$JAVA_HOME``
and no other Java, so nothing can compile: the engine is driven through JPype.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from kremlin_triplea.cli.main import main
from support.paths import EXAMPLES_DIR, MAPS_DIR
from support.triplea27 import environment_without_java, system_java_home, system_java_version

pytestmark = [pytest.mark.engine, pytest.mark.slow]


def runtime_without_compiler(folder: Path) -> Path:
    """A Java runtime made of the system JDK without its tools: ``bin`` holds a copy of ``java`` only."""
    jdk = system_java_home()
    (folder / "bin").mkdir(parents=True)
    shutil.copy2(jdk / "bin" / "java", folder / "bin" / "java")
    for entry in jdk.iterdir():
        if entry.name != "bin":
            (folder / entry.name).symlink_to(entry)
    return folder / "bin" / "java"


def test_verify_engine_reads_and_plays_with_triplea_19_and_a_runtime_without_compiler(tmp_path: Path) -> None:
    environment = environment_without_java(tmp_path)
    java = runtime_without_compiler(tmp_path / "jre")
    (Path(environment["PATH"]) / "java").symlink_to(java)
    found = shutil.which("java", path=environment["PATH"])
    assert found is not None and not (Path(found).resolve().parent / "javac").exists()
    assert shutil.which("javac", path=environment["PATH"]) is None
    game = tmp_path / "kremlin.xml"
    # Any game we write shows it; a Classic-based one's Fast-AI round costs 1.9 half of an AA50-based one's.
    made = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "apply", str(EXAMPLES_DIR / "kremlin-classic-kremlin.toml"), "-o", str(game)])
    assert made.exit_code == 0, made.output

    done = subprocess.run(
        [sys.executable, "-m", "kremlin_triplea", "--maps-dir", str(MAPS_DIR), "verify", str(game), "--engine"],
        capture_output=True,
        text=True,
        env=environment,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # Debian's package, found where it installs, used because no TripleA 2.x is installed, and saying so and on which Java.
    java = Path(found).resolve()
    assert (
        f"engine: TripleA 1.9.0.0.dev at /usr/share/games/triplea (Debian package; no TripleA 2.x found) on Java {system_java_version()} "
        f"({java.parent.parent / 'lib' / 'server' / 'libjvm.so'})"
    ) in done.stdout
    assert "the engine reads the same owners, units, PUs, properties and game name" in done.stdout
    assert "Fast AI played: 1 of 1 round(s)" in done.stdout

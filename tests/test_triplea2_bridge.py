"""A player's TripleA 2.7 ships a Java runtime but no compiler: savegames are written with that runtime alone (issue 16).

The installation here is laid out as TripleA's Linux installer lays it out (``bin/triplea-game-headless-<version>.jar``
and ``jre/``), with ../shared/triplea-engine-2.7's jar as its engine and a ``jre`` made of the system JDK without
its tools: ``bin`` holds ``java`` only. The command runs with no ``javac`` and no ``java`` on its path and no
``$JAVA_HOME``, so the only JVM it can find is the installation's.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import kremlin_triplea
from kremlin_triplea.cli.main import main
from kremlin_triplea.gamefile.installation import installation_at, jvm_library
from support.paths import EXAMPLES_DIR, MAPS_DIR, SHARED

pytestmark = pytest.mark.engine

JAR_27 = SHARED / "triplea-engine-2.7" / "triplea-2.7.15472-headless.jar"


def _system_java_home() -> Path:
    java = shutil.which("java")
    assert java, "the test needs a system JDK (scripts/test installs it)"
    return Path(java).resolve().parent.parent


def _installation_without_compiler(folder: Path) -> Path:
    """A TripleA 2.7 installation as the Linux installer writes it, whose runtime is the system JDK minus its tools."""
    (folder / "bin").mkdir(parents=True)
    (folder / "bin" / "triplea-game-headless-2.7.15472.jar").symlink_to(JAR_27)
    jdk = _system_java_home()
    jre = folder / "jre"
    (jre / "bin").mkdir(parents=True)
    (jre / "bin" / "java").symlink_to(jdk / "bin" / "java")
    for entry in jdk.iterdir():
        if entry.name != "bin":
            (jre / entry.name).symlink_to(entry)
    return folder


def _environment_without_java(tmp_path: Path) -> dict[str, str]:
    """PATH holds python3 only: no javac, no java. The package under test is importable as in this process."""
    tools = tmp_path / "path"
    tools.mkdir()
    (tools / "python3").symlink_to(sys.executable)
    drop = {"JAVA_HOME", "KREMLIN_TRIPLEA", "KREMLIN_TRIPLEA_JAR"}
    environment = {k: v for k, v in os.environ.items() if k not in drop}
    package_root = str(Path(kremlin_triplea.__file__).resolve().parents[1])
    return environment | {"PATH": str(tools), "HOME": str(tmp_path / "home"), "PYTHONPATH": package_root}


def test_the_fake_installation_is_found_as_triplea_27_with_its_own_runtime(tmp_path: Path) -> None:
    folder = _installation_without_compiler(tmp_path / "triplea")
    found = installation_at(folder, "--triplea")
    assert found is not None and found.version == "2.7.15472" and found.major == 2
    assert found.java == folder / "jre" / "bin" / "java"
    assert found.libjvm == folder / "jre" / "lib" / "server" / "libjvm.so"
    assert not list((folder / "jre").glob("bin/javac*"))


def test_jvm_library_follows_a_linked_launcher_to_its_runtime() -> None:
    jdk = _system_java_home()
    assert jvm_library(jdk / "bin" / "java") == jdk / "lib" / "server" / "libjvm.so"
    assert jvm_library(Path("/no/such/jre/bin/java")) is None


@pytest.mark.slow
def test_save_with_a_triplea_27_installation_needs_no_compiler(tmp_path: Path) -> None:
    folder = _installation_without_compiler(tmp_path / "triplea")
    environment = _environment_without_java(tmp_path)
    python = str(tmp_path / "path" / "python3")
    assert shutil.which("javac", path=environment["PATH"]) is None and shutil.which("java", path=environment["PATH"]) is None
    game, save = tmp_path / "kremlin.xml", tmp_path / "kremlin.tsvg"
    made = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "apply", str(EXAMPLES_DIR / "kremlin-aa50-1941.toml"), "-o", str(game)])
    assert made.exit_code == 0, made.output

    done = subprocess.run(
        [python, "-m", "kremlin_triplea", "save", str(game), "-o", str(save), "--triplea", str(folder)],
        capture_output=True,
        text=True,
        env=environment,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # The engine, its version and the runtime it ran on are named; the runtime's version is what its release file says.
    release = (_system_java_home() / "release").read_text(encoding="utf-8")
    java_version = release.split('JAVA_VERSION="', 1)[1].split('"', 1)[0]
    libjvm = folder / "jre" / "lib" / "server" / "libjvm.so"
    assert f"wrote {save} with TripleA 2.7.15472 at {folder} (--triplea) on Java {java_version} ({libjvm})" in done.stdout
    # Written only once TripleA loaded it back with the game's owners, units, PUs, name and round 1.
    assert "it loads back as the game was written" in done.stdout
    with gzip.open(save) as data:  # a 2.x savegame: gzipped Java serialization
        assert data.read(2) == b"\xac\xed"

    # The save plays a Fast-AI round in the same runtime, still without any compiler or system Java.
    played = subprocess.run(
        [
            python,
            "-c",
            "import json, sys; from kremlin_triplea.engine.savegame import play_round; "
            "(r,) = play_round([sys.argv[1]], triplea=sys.argv[2]); print(json.dumps([r.round, r.error, list(r.steps)]))",
            str(save),
            str(folder),
        ],
        capture_output=True,
        text=True,
        env=environment,
        timeout=600,
    )
    assert played.returncode == 0, played.stderr
    reached, error, steps = json.loads(played.stdout)
    assert error is None and reached == 2
    assert steps[-1] == "endRoundStep" and any(step.endswith("CombatMove") for step in steps)

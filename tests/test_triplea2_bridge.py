"""A player's TripleA 2.7 ships a Java runtime but no compiler: savegames are written, and games verified, with that
runtime alone (issue 16), and with the client's jar, which lacks the headless server's classes (issue 33).

The installation (support.triplea27) is laid out as TripleA's Linux installer lays it out, its ``jre`` without a
compiler, its jar the client's (under the names of TripleA's two builds) or the headless bot's. The commands run with no ``javac`` and no ``java`` on their path and no ``$JAVA_HOME``, so the only JVM
they can find is the installation's.
"""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from kremlin_triplea.cli.main import main
from kremlin_triplea.gamefile.installation import installation_at, jvm_library
from support.paths import EXAMPLES_DIR, MAPS_DIR
from support.triplea27 import (
    BOT_JAR_NAME,
    CLIENT_JAR_NAMES,
    CLIENT_VERSION_27,
    HEADLESS_SERVER_PACKAGE,
    VERSION_27,
    environment_without_java,
    installation_without_compiler,
    system_java_home,
    system_java_version,
)

pytestmark = pytest.mark.engine

#: The example the tests that play a round write: any game we write shows what they show, and TripleA 2.7's Fast-AI
#: round of a Classic-based game costs less than an AA50-based one's.
CLASSIC_EXAMPLE = "kremlin-classic-kremlin"


@pytest.mark.parametrize(("jar_name", "version"), [*((name, CLIENT_VERSION_27) for name in CLIENT_JAR_NAMES), (BOT_JAR_NAME, VERSION_27)])
def test_the_fake_installation_is_found_as_triplea_27_with_its_own_runtime(tmp_path: Path, jar_name: str, version: str) -> None:
    folder = installation_without_compiler(tmp_path / "triplea", jar_name)
    found = installation_at(folder, "--triplea")
    assert found is not None and found.jar == folder / "bin" / jar_name and found.version == version and found.major == 2
    with zipfile.ZipFile(found.jar) as jar:
        server_classes = [name for name in jar.namelist() if name.startswith(HEADLESS_SERVER_PACKAGE)]
    # The client's jar is built without the game-headless module; the bot's is that module.
    assert bool(server_classes) == (jar_name == BOT_JAR_NAME)
    assert found.java == folder / "jre" / "bin" / "java"
    assert found.libjvm == folder / "jre" / "lib" / "server" / "libjvm.so"
    assert not list((folder / "jre").glob("bin/javac*"))


def test_jvm_library_follows_a_linked_launcher_to_its_runtime() -> None:
    jdk = system_java_home()
    assert jvm_library(jdk / "bin" / "java") == jdk / "lib" / "server" / "libjvm.so"
    assert jvm_library(Path("/no/such/jre/bin/java")) is None


@pytest.mark.slow
def test_save_with_a_triplea_27_client_installation_needs_no_compiler(tmp_path: Path) -> None:
    environment = environment_without_java(tmp_path)
    # Where the 2.x Linux installer puts it for a user (~/TripleA; issue 33), found without --triplea, before Debian's 1.9.
    folder = installation_without_compiler(Path(environment["HOME"]) / "TripleA", CLIENT_JAR_NAMES[1])
    python = sys.executable
    assert shutil.which("javac", path=environment["PATH"]) is None and shutil.which("java", path=environment["PATH"]) is None
    game, save = _kremlin_game(tmp_path, CLASSIC_EXAMPLE), tmp_path / "kremlin.tsvg"

    done = subprocess.run(
        [python, "-m", "kremlin_triplea", "save", str(game), "-o", str(save)],
        capture_output=True,
        text=True,
        env=environment,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # The engine, its version and the runtime it ran on are named; the runtime's version is what its release file says.
    java_version = system_java_version()
    libjvm = folder / "jre" / "lib" / "server" / "libjvm.so"
    assert f"wrote {save} with TripleA {CLIENT_VERSION_27} at {folder} (~/TripleA) on Java {java_version} ({libjvm})" in done.stdout
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


def _kremlin_game(folder: Path, example: str = "kremlin-aa50-1941") -> Path:
    game = folder / "kremlin.xml"
    made = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "apply", str(EXAMPLES_DIR / f"{example}.toml"), "-o", str(game)])
    assert made.exit_code == 0, made.output
    return game


@pytest.mark.slow
def test_verify_engine_with_a_triplea_27_client_installation_reads_validates_and_plays_in_its_runtime(tmp_path: Path) -> None:
    # In a user folder whose name is not ASCII (issue 32: C:\Users\José): the installation and the game alike.
    user = tmp_path / "José"
    folder = installation_without_compiler(user / "TripleA", CLIENT_JAR_NAMES[0])
    environment = environment_without_java(tmp_path)
    game = _kremlin_game(user, CLASSIC_EXAMPLE)
    done = subprocess.run(
        [sys.executable, "-m", "kremlin_triplea", "--maps-dir", str(MAPS_DIR), "verify", str(game), "--engine", "--triplea", str(folder)],
        capture_output=True,
        text=True,
        env=environment,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    libjvm = folder / "jre" / "lib" / "server" / "libjvm.so"
    assert f"engine: TripleA {CLIENT_VERSION_27} at {folder} (--triplea) on Java {system_java_version()} ({libjvm})" in done.stdout
    assert "the engine reads the same owners, units, PUs, properties and game name" in done.stdout
    assert "Fast AI played: 1 of 1 round(s)" in done.stdout


@pytest.mark.slow
def test_verify_engine_with_triplea_27_fails_a_game_it_cannot_read(tmp_path: Path) -> None:
    folder = installation_without_compiler(tmp_path / "triplea")
    text = _kremlin_game(tmp_path).read_text(encoding="utf-8")
    broken = tmp_path / "broken.xml"
    broken.write_text(text.replace('owner="Germans"/>', 'owner="Germens"/>', 1), encoding="utf-8")
    result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "verify", str(broken), "--engine", "--triplea", str(folder)])
    assert result.exit_code == 1, result.output
    assert f"engine: TripleA {CLIENT_VERSION_27}" in result.output
    assert "the engine cannot read the file: " in result.output and "Germens" in result.output


@pytest.mark.slow
def test_an_error_the_engine_only_logs_fails_the_round(tmp_path: Path) -> None:
    """TripleA 2.7 reports some faults only in its log and plays on; the bridge reports them as the round's exceptions.

    The position is the one issue 16 found: German units left standing in neutral Sweden (Classic: Kremlin), which
    2.7 fights in the first round, logging "Germans attacks a Neutral territory, and should have had to pay ...
    This is a bug." The same game without them plays its round with nothing logged.
    """
    from kremlin_triplea.engine.triplea2_bridge import run

    # The headless bot's jar, whose launch action the bridge does not use either: both jars play.
    installation = installation_at(installation_without_compiler(tmp_path / "triplea", BOT_JAR_NAME), "--triplea")
    assert installation is not None
    base = (MAPS_DIR / "classic_variations" / "map" / "games" / "kremlin.xml").read_text(encoding="utf-8")
    marker = "<initialize>"
    assert base.count(marker) == 1 and "<unitInitialize>" in base
    clean, bugged = tmp_path / "clean.xml", tmp_path / "germans-in-sweden.xml"
    clean.write_text(base, encoding="utf-8")
    bugged.write_text(
        base.replace(
            "<unitInitialize>",
            '<unitInitialize>\n      <unitPlacement unitType="infantry" territory="Sweden" quantity="2" owner="Germans"/>'
            '\n      <unitPlacement unitType="fighter" territory="Sweden" quantity="1" owner="Germans"/>',
            1,
        ),
        encoding="utf-8",
    )
    answers = run(installation, [{"play": str(clean), "seed": 1}, {"play": str(bugged), "seed": 1}], timeout=600, doing="playing").answers
    assert answers[0]["error"] is None and answers[0]["exceptions"] == [], answers[0]
    logged = [e for e in answers[1]["exceptions"] if e.startswith("logged: ")]
    assert any("BattleTracker" in e and "attacks a Neutral territory" in e and "This is a bug" in e for e in logged), answers[1]


@pytest.mark.slow
def test_the_engine_of_record_is_the_players_27_for_matrix_engine_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 33 item 5: what judges a game is the player's 2.x, where 1.9's adapters would refuse it."""
    from kremlin_triplea import load
    from kremlin_triplea.engine import compare, read_with_engine_of_record
    from kremlin_triplea.model.changes import PlaceUnits

    folder = installation_without_compiler(tmp_path / "TripleA", CLIENT_JAR_NAMES[1])
    monkeypatch.setenv("KREMLIN_TRIPLEA", str(folder))
    game = _kremlin_game(tmp_path)
    broken = tmp_path / "broken.xml"
    broken.write_text(game.read_text(encoding="utf-8").replace('owner="Germans"/>', 'owner="Germens"/>', 1), encoding="utf-8")
    read, refused = read_with_engine_of_record([game, broken])
    assert read.ok and read.triplea2 and read.engine.startswith(f"TripleA {CLIENT_VERSION_27} at {folder} ($KREMLIN_TRIPLEA) on Java ")
    assert compare.disagreements(load(game).board, read) == []
    # The reading is the engine's own: a board that differs from the file is caught.
    changed = load(game)
    changed.board.push(PlaceUnits("Finland", "Germans", "infantry", 3))
    assert [str(d).split(":")[0] for d in compare.disagreements(changed.board, read)] == ["Finland"]
    assert not refused.ok and "Germens" in refused.error

    done = CliRunner().invoke(
        main,
        ["--maps-dir", str(MAPS_DIR), "matrix", "--ruleset", "kremlin-aa50", "--samples", "0", "--game", "world_war_ii_v3/WW2v3-1941.xml", "--engine"],
    )
    assert done.exit_code == 0, done.output
    assert f"engine: TripleA {CLIENT_VERSION_27} at {folder} ($KREMLIN_TRIPLEA)" in done.stderr
    assert "0 failed cells" in done.stdout and "; the engine read " in done.stdout

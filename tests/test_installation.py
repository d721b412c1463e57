"""Finding the user's TripleA (issue 16, issue 11's one lookup): fake installation trees laid out as on each OS."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from kremlin_triplea.cli.main import main
from kremlin_triplea.gamefile.installation import find_installation, installation_at
from support.paths import AA50_1941
from support.triplea27 import JAR_27


def fake_jar(path: Path, manifest_version: str | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        manifest = "Manifest-Version: 1.0\n" + (f"TripleA-Version: {manifest_version}\n" if manifest_version else "")
        archive.writestr("META-INF/MANIFEST.MF", manifest)
    return path


def test_linux_installer_folder_in_the_home_with_its_bundled_java(tmp_path: Path) -> None:
    home = tmp_path / "home"
    jar = fake_jar(home / "triplea" / "bin" / "triplea-game-headed-2.7.15472.jar")
    java = home / "triplea" / "jre" / "bin" / "java"
    java.parent.mkdir(parents=True)
    java.write_text("")
    search = find_installation(home=home, environ={}, platform="linux", debian=tmp_path / "no-debian-package")
    found = search.found
    assert found is not None and (found.jar, found.version, found.major, found.java) == (jar, "2.7.15472", 2, java)
    # The player's own TripleA is tried first on Linux; the lookup says where it looked, in order.
    assert search.looked_in == (f"{home / 'TripleA'} (~/TripleA)", f"{home / 'triplea'} (~/triplea)")


@pytest.mark.parametrize(
    "jar_name",
    # TripleA's game-app/game-headed build: the client's shadow jar is "$group-$name-<version>" in the Groovy build
    # (build.gradle: archivesBaseName = "$group-$name") and "$name-<version>" in the Kotlin one, its archiveVersion the
    # product version + build number; the install4j installers copy it into bin/ (build.install4j: mountPoint "bin").
    ["triplea-game-headed-2.7+15472.jar", "game-headed-2.7+15472.jar"],
)
def test_the_2x_linux_installers_folder_with_the_client_jar_under_both_names(tmp_path: Path, jar_name: str) -> None:
    # Issue 33: the 2.x Linux installer (install4j, shortName "TripleA") installs in ~/TripleA; Debian's 1.9 is there too.
    home = tmp_path / "home"
    jar = fake_jar(home / "TripleA" / "bin" / jar_name)
    debian = fake_jar(tmp_path / "debian" / "bin" / "triplea.jar", "1.9.0.0.dev")
    found = find_installation(home=home, environ={}, platform="linux", debian=debian.parent.parent).found
    assert found is not None and (found.folder, found.jar, found.version, found.major, found.found_by) == (home / "TripleA", jar, "2.7+15472", 2, "~/TripleA")


def test_the_headless_bot_jar_under_both_names(tmp_path: Path) -> None:
    for name in ("triplea-game-headless-2.7+15472.jar", "game-headless-2.7+15472.jar"):
        jar = fake_jar(tmp_path / name.removesuffix(".jar") / "bin" / name)
        found = installation_at(jar.parent.parent)
        assert found is not None and (found.jar, found.version) == (jar, "2.7+15472")


def test_windows_program_files(tmp_path: Path) -> None:
    program_files = tmp_path / "Program Files"
    jar = fake_jar(program_files / "TripleA" / "bin" / "triplea-game-headed-2.6.14500.jar")
    found = find_installation(home=tmp_path / "home", environ={"ProgramFiles": str(program_files)}, platform="win32").found
    assert found is not None and (found.folder, found.jar, found.version) == (program_files / "TripleA", jar, "2.6.14500")
    assert found.found_by == "%ProgramFiles%\\TripleA"


def test_macos_application_bundle(tmp_path: Path) -> None:
    home = tmp_path / "home"
    app = home / "Applications" / "TripleA.app"
    jar = fake_jar(app / "Contents" / "java" / "app" / "triplea-game-headed-2.7.1.jar")
    search = find_installation(home=home, environ={}, platform="darwin")
    assert search.found is not None and search.found.jar == jar and search.found.version == "2.7.1"
    assert "/Applications/TripleA.app (/Applications/TripleA.app)" in search.looked_in


def test_the_players_own_triplea_before_debians_package_on_linux(tmp_path: Path) -> None:
    # Issue 16: "verify --engine uses the user's installed TripleA by default", and a host's save must be written by
    # the host's own TripleA (2.x); Debian's package is TripleA 1.9.
    debian = fake_jar(tmp_path / "debian" / "bin" / "triplea.jar", "1.9.0.0.dev")
    own = fake_jar(tmp_path / "home" / "triplea" / "bin" / "triplea-game-2.7.15472.jar")
    found = find_installation(home=tmp_path / "home", environ={}, platform="linux", debian=tmp_path / "debian").found
    assert found is not None and (found.jar, found.version, found.found_by) == (own, "2.7.15472", "~/triplea")
    # Without one, Debian's package, with the version of its manifest.
    search = find_installation(home=tmp_path / "nobody", environ={}, platform="linux", debian=tmp_path / "debian")
    assert search.found is not None and (search.found.jar, search.found.version, search.found.found_by) == (debian, "1.9.0.0.dev", "Debian package")
    nobody = tmp_path / "nobody"
    assert search.looked_in == (f"{nobody / 'TripleA'} (~/TripleA)", f"{nobody / 'triplea'} (~/triplea)", f"{tmp_path / 'debian'} (Debian package)")


def test_a_debian_style_jar_reads_its_version_from_the_manifest(tmp_path: Path) -> None:
    jar = fake_jar(tmp_path / "triplea" / "bin" / "triplea.jar", "1.9.0.0.dev")
    found = installation_at(tmp_path / "triplea")
    assert found is not None and (found.jar, found.version, found.major) == (jar, "1.9.0.0.dev", 1)


def test_the_newest_of_several_versions_in_the_home_folder(tmp_path: Path) -> None:
    home = tmp_path / "home"
    fake_jar(home / "triplea" / "2.5" / "bin" / "triplea-game-2.5.22294.jar")
    newest = fake_jar(home / "triplea" / "2.7" / "bin" / "triplea-game-2.7.15472.jar")
    found = find_installation(home=home, environ={}, platform="linux", debian=tmp_path / "no-debian-package").found
    assert found is not None and found.jar == newest and found.found_by == "~/triplea/2.7"


def test_a_named_folder_wins_and_is_never_replaced_by_another(tmp_path: Path) -> None:
    jar = fake_jar(tmp_path / "mine" / "bin" / "triplea-game-2.7.15472.jar")
    assert find_installation(tmp_path / "mine").found.jar == jar
    assert find_installation(environ={"KREMLIN_TRIPLEA": str(tmp_path / "mine")}).found.jar == jar
    search = find_installation(tmp_path / "nothing-here", environ={})
    assert search.found is None and search.looked_in == (f"{tmp_path / 'nothing-here'} (--triplea)",)
    message = search.not_found_message()
    assert "--triplea DIR" in message and "$KREMLIN_TRIPLEA" in message
    for where in ("~/TripleA", "C:\\Program Files\\TripleA", "/Applications/TripleA.app"):
        assert where in message


def test_verify_engine_without_triplea_says_where_it_looked_and_how_to_point_at_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KREMLIN_TRIPLEA", str(tmp_path / "no-triplea"))
    game = Path(__file__).resolve().parents[2] / "shared" / "triplea-maps" / "downloadedMaps" / "world_war_ii_v3" / "map" / "games" / "WW2v3-1941.xml"
    result = CliRunner().invoke(main, ["verify", str(game), "--engine"])
    assert result.exit_code == 2, result.output
    assert "no TripleA installation found; looked in: " in result.output and "no-triplea" in result.output
    assert "--triplea DIR" in result.output and "Traceback" not in result.output


@pytest.mark.engine
def test_verify_engine_says_which_triplea_it_used(tmp_path: Path) -> None:
    game = Path(__file__).resolve().parents[2] / "shared" / "triplea-maps" / "downloadedMaps" / "world_war_ii_v3" / "map" / "games" / "WW2v3-1941.xml"
    result = CliRunner().invoke(main, ["verify", str(game), "--engine", "--triplea", "/usr/share/games/triplea"])
    assert result.exit_code == 0, result.output
    assert "engine: TripleA 1.9.0.0.dev at /usr/share/games/triplea (--triplea)" in result.output


def _truncated_jar(jar: Path) -> None:
    # A download cut short: the zip's central directory, at its end, is missing.
    jar.write_bytes(JAR_27.read_bytes()[: JAR_27.stat().st_size // 2])


def _foreign_jar(jar: Path) -> None:
    with zipfile.ZipFile(jar, "w") as archive:
        archive.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n")
        archive.writestr("org/example/Other.class", b"\xca\xfe\xba\xbe")


def _not_a_zip(jar: Path) -> None:
    jar.write_text("<html>404 Not Found</html>", encoding="utf-8")


@pytest.mark.parametrize("command", ["verify", "save"])
@pytest.mark.parametrize(
    ("spoil", "said"),
    [
        (_truncated_jar, "not a readable jar (damaged or truncated?)"),
        (_not_a_zip, "not a readable jar (damaged or truncated?)"),
        (_foreign_jar, "not a TripleA jar: it holds no games.strategy.engine.framework.GameDataManager"),
    ],
)
def test_a_damaged_or_foreign_jar_is_one_line_naming_it_and_exit_2(tmp_path: Path, command: str, spoil, said: str) -> None:
    # Issue 27 item 3, issue 33: was a 20-line traceback from the engine's child process (and save named the game).
    jar = tmp_path / "TripleA" / "bin" / "triplea-game-headed-2.7+15472.jar"
    jar.parent.mkdir(parents=True)
    spoil(jar)
    before = jar.read_bytes()
    words = ["verify", str(AA50_1941), "--engine"] if command == "verify" else ["save", str(AA50_1941), "-o", str(tmp_path / "out.tsvg")]
    result = CliRunner().invoke(main, [*words, "--triplea", str(tmp_path / "TripleA")])
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"kremlin-triplea: error: {jar}: {said}") and line.endswith(f"(TripleA 2.7+15472 at {tmp_path / 'TripleA'} (--triplea))")
    assert "Traceback" not in result.output and jar.read_bytes() == before and not (tmp_path / "out.tsvg").exists()

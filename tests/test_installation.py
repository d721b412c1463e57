"""Finding the user's TripleA (issue 16, issue 11's one lookup): fake installation trees laid out as on each OS."""

from __future__ import annotations

import plistlib
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from kremlin_triplea.cli.main import main
from kremlin_triplea.gamefile.installation import _java_value, find_installation, installation_at, maps_folder_override, system_jvm_library
from support.paths import AA50_1941, MAPS_DIR
from support.triplea27 import JAR_27, system_java_version


def fake_jar(path: Path, manifest_version: str | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        manifest = "Manifest-Version: 1.0\n" + (f"TripleA-Version: {manifest_version}\n" if manifest_version else "")
        archive.writestr("META-INF/MANIFEST.MF", manifest)
    return path


def look(tmp_path: Path, platform: str, environ: dict[str, str] | None = None, *, home: str = "home"):
    """The lookup on ``platform`` with every place it knows inside ``tmp_path``: the home folder, the system's
    root (/opt, /Applications), Debian's package folder."""
    return find_installation(home=tmp_path / home, environ=environ or {}, platform=platform, debian=tmp_path / "debian", root=tmp_path / "root")


def runtime(folder: Path, library: str) -> Path:
    """A fake Java runtime in ``folder``: its launcher ``bin/java`` and its JVM library (``library``, relative)."""
    for relative in ("bin/java", library):
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).write_text("")
    return folder / "bin" / "java"


def test_linux_installer_folder_in_the_home_with_its_bundled_java(tmp_path: Path) -> None:
    home = tmp_path / "home"
    jar = fake_jar(home / "triplea" / "bin" / "triplea-game-headed-2.7.15472.jar")
    java = runtime(home / "triplea" / "jre", "lib/server/libjvm.so")
    search = look(tmp_path, "linux")
    found = search.found
    assert found is not None and (found.jar, found.version, found.major, found.java) == (jar, "2.7.15472", 2, java)
    assert found.libjvm == home / "triplea" / "jre" / "lib" / "server" / "libjvm.so"
    # The lookup says where it looked, in order: the player's own TripleA before Debian's package.
    assert search.looked_in == (
        f"{home / 'TripleA'} (~/TripleA)",
        f"{home / 'triplea'} (~/triplea)",
        f"{tmp_path / 'root' / 'opt' / 'TripleA'} (/opt/TripleA)",
        f"{tmp_path / 'debian'} (Debian package)",
    )


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
    fake_jar(tmp_path / "debian" / "bin" / "triplea.jar", "1.9.0.0.dev")
    found = look(tmp_path, "linux").found
    assert found is not None and (found.folder, found.jar, found.version, found.major, found.found_by) == (home / "TripleA", jar, "2.7+15472", 2, "~/TripleA")


def test_the_headless_bot_jar_under_both_names(tmp_path: Path) -> None:
    for name in ("triplea-game-headless-2.7+15472.jar", "game-headless-2.7+15472.jar"):
        jar = fake_jar(tmp_path / name.removesuffix(".jar") / "bin" / name)
        found = installation_at(jar.parent.parent)
        assert found is not None and (found.jar, found.version) == (jar, "2.7+15472")


def test_linux_installer_run_as_root_installs_in_opt(tmp_path: Path) -> None:
    jar = fake_jar(tmp_path / "root" / "opt" / "TripleA" / "bin" / "triplea-game-headed-2.7+15472.jar")
    found = look(tmp_path, "linux").found
    assert found is not None and (found.jar, found.found_by) == (jar, "/opt/TripleA")


def test_the_newest_2x_wherever_it_is_and_debians_19_only_without_one(tmp_path: Path) -> None:
    # Issue 33 item 5: the engine of record is the player's newest 2.x; 1.9 when no 2.x is found, and it says so.
    fake_jar(tmp_path / "debian" / "bin" / "triplea.jar", "1.9.0.0.dev")
    fake_jar(tmp_path / "home" / "TripleA" / "bin" / "triplea-game-headed-2.6+14500.jar")
    newest = fake_jar(tmp_path / "root" / "opt" / "TripleA" / "bin" / "game-headed-2.7+15472.jar")
    found = look(tmp_path, "linux").found
    assert found is not None and (found.jar, found.version, found.found_by) == (newest, "2.7+15472", "/opt/TripleA")
    newest.unlink()
    search = look(tmp_path, "linux", home="nobody")
    assert search.found is not None and (search.found.jar, search.found.version) == (tmp_path / "debian" / "bin" / "triplea.jar", "1.9.0.0.dev")
    assert search.found.describe() == f"TripleA 1.9.0.0.dev at {tmp_path / 'debian'} (Debian package; no TripleA 2.x found)"


def test_a_later_calendar_versioned_triplea_is_named_by_its_version_and_not_taken_for_2x(tmp_path: Path) -> None:
    # TripleA's builds after 2.7 are versioned "<year>-<month>.<product version>.<build>" (game-app/game-headed's
    # releaseVersion); the bridges drive 1.9's and 2.x's classes only, so such an installation is not the 2.x sought.
    later = fake_jar(tmp_path / "home" / "TripleA" / "bin" / "game-headed-2026-06.16.15630.jar")
    assert installation_at(later.parent.parent).version == "2026-06.16.15630"
    own = fake_jar(tmp_path / "root" / "opt" / "TripleA" / "bin" / "triplea-game-headed-2.7+15472.jar")
    found = look(tmp_path, "linux").found
    assert found is not None and found.jar == own
    own.unlink()
    found = look(tmp_path, "linux").found
    assert found is not None and (found.jar, found.found_by) == (later, "~/TripleA; no TripleA 2.x found")


def test_the_newest_of_several_versions_in_the_home_folder(tmp_path: Path) -> None:
    home = tmp_path / "home"
    fake_jar(home / "triplea" / "2.5" / "bin" / "triplea-game-2.5.22294.jar")
    newest = fake_jar(home / "triplea" / "2.7" / "bin" / "triplea-game-2.7.15472.jar")
    found = look(tmp_path, "linux").found
    assert found is not None and found.jar == newest and found.found_by == "~/triplea/2.7"


@pytest.mark.parametrize(
    ("variable", "below", "how"),
    # install4j installs for all users in Program Files, for one user in %LOCALAPPDATA%\Programs.
    [("ProgramFiles", "", "%ProgramFiles%\\TripleA"), ("LOCALAPPDATA", "Programs", "%LOCALAPPDATA%\\Programs\\TripleA")],
)
def test_windows_installers_folders_with_the_bundled_java(tmp_path: Path, variable: str, below: str, how: str) -> None:
    base = tmp_path / "C" / variable
    folder = base / below / "TripleA"
    jar = fake_jar(folder / "bin" / "triplea-game-headed-2.7+15472.jar")
    java = runtime(folder / "jre", "bin/server/jvm.dll")
    java.rename(java.with_name("java.exe"))
    found = look(tmp_path, "win32", {variable: str(base)}).found
    assert found is not None and (found.folder, found.jar, found.version, found.found_by) == (folder, jar, "2.7+15472", how)
    assert (found.java, found.libjvm) == (folder / "jre" / "bin" / "java.exe", folder / "jre" / "bin" / "server" / "jvm.dll")


@pytest.mark.parametrize(("applications", "how"), [("root/Applications", "/Applications"), ("home/Applications", "~/Applications")])
def test_macos_app_bundle_with_its_own_java(tmp_path: Path, applications: str, how: str) -> None:
    # Issue 32: install4j's macOS archive puts the installation in TripleA.app/Contents/Resources/app (its "content
    # folder") and its Java in .install4j/jre.bundle there, a runtime laid out as a bundle (Contents/Home).
    app = tmp_path / applications / "TripleA.app"
    content = app / "Contents" / "Resources" / "app"
    jar = fake_jar(content / "bin" / "triplea-game-headed-2.7+15472.jar")
    home = content / ".install4j" / "jre.bundle" / "Contents" / "Home"
    java = runtime(home, "lib/server/libjvm.dylib")
    search = look(tmp_path, "darwin")
    found = search.found
    assert found is not None and (found.folder, found.jar, found.version, found.found_by) == (app, jar, "2.7+15472", f"{how}/TripleA.app")
    assert (found.java, found.libjvm) == (java, home / "lib" / "server" / "libjvm.dylib")
    assert f"{tmp_path / 'root' / 'Applications' / 'TripleA.app'} (/Applications/TripleA.app)" in search.looked_in
    # The jar named by itself finds the same Java.
    assert installation_at(jar).java == java


def test_macos_system_java_is_the_one_java_home_names_not_the_usr_bin_stub(tmp_path: Path) -> None:
    # Issue 32: /usr/bin/java is Apple's stub, with no JVM library; /usr/libexec/java_home names the installed JDK.
    stub = tmp_path / "usr" / "bin" / "java"
    stub.parent.mkdir(parents=True)
    stub.write_text("#!/bin/sh\n")
    stub.chmod(0o755)
    jdk = tmp_path / "Library" / "Java" / "JavaVirtualMachines" / "temurin-17.jdk" / "Contents" / "Home"
    runtime(jdk, "lib/server/libjvm.dylib")
    tool = tmp_path / "usr" / "libexec" / "java_home"
    tool.parent.mkdir(parents=True)
    tool.write_text(f"#!/bin/sh\necho '{jdk}'\n")
    tool.chmod(0o755)
    environ = {"PATH": str(stub.parent)}
    assert system_jvm_library(environ=environ, platform="darwin", java_home_tool=tool) == (jdk / "lib" / "server" / "libjvm.dylib", (f"{tool} ({jdk})",))
    # No JDK installed: java_home fails, and the stub is no runtime; both are named.
    tool.write_text("#!/bin/sh\necho 'Unable to locate a Java Runtime.' >&2\nexit 1\n")
    assert system_jvm_library(environ=environ, platform="darwin", java_home_tool=tool) == (None, (f"{tool} (no Java installed)", str(stub)))
    # $JAVA_HOME still comes first.
    other = runtime(tmp_path / "other-jdk", "lib/server/libjvm.so").parent.parent
    found, _ = system_jvm_library(environ={**environ, "JAVA_HOME": str(other)}, platform="darwin", java_home_tool=tool)
    assert found == other / "lib" / "server" / "libjvm.so"


def test_a_debian_style_jar_reads_its_version_from_the_manifest(tmp_path: Path) -> None:
    jar = fake_jar(tmp_path / "triplea" / "bin" / "triplea.jar", "1.9.0.0.dev")
    found = installation_at(tmp_path / "triplea")
    assert found is not None and (found.jar, found.version, found.major) == (jar, "1.9.0.0.dev", 1)


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
    # Any game the engine reads and plays shows it; Classic's Fast-AI round costs half of AA50's.
    game = MAPS_DIR / "world_war_ii_classic" / "map" / "games" / "classic.xml"
    result = CliRunner().invoke(main, ["verify", str(game), "--engine", "--triplea", "/usr/share/games/triplea"])
    assert result.exit_code == 0, result.output
    # Asked for by name, 1.9 is used, and said so with the Java it ran on.
    assert f"engine: TripleA 1.9.0.0.dev at /usr/share/games/triplea (--triplea) on Java {system_java_version()} (" in result.output


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


# TripleA 2.x's maps folder set in its settings: ClientSetting.mapFolderOverride, "MAP_FOLDER_OVERRIDE" in the Java
# Preferences user node of games.strategy.triplea.settings, stored by each platform's Java as below (issue 32 item 3).


def _maps_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "José's Maps"
    folder.mkdir()
    return folder


def test_the_maps_folder_set_in_triplea_on_linux(tmp_path: Path) -> None:
    folder = _maps_folder(tmp_path)
    node = tmp_path / "home" / ".java" / ".userPrefs" / "games" / "strategy" / "triplea" / "settings"
    node.mkdir(parents=True)
    # As java.util.prefs.FileSystemPreferences writes a node (XmlSupport.exportMap).
    (node / "prefs.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
        '<!DOCTYPE map SYSTEM "http://java.sun.com/dtd/preferences.dtd">\n'
        '<map MAP_XML_VERSION="1.0">\n'
        '  <entry key="MAP_EDGE_SCROLL_SPEED" value="40"/>\n'
        f'  <entry key="MAP_FOLDER_OVERRIDE" value="{folder}"/>\n'
        "</map>\n",
        encoding="utf-8",
    )
    assert maps_folder_override(home=tmp_path / "home", platform="linux") == folder
    # TripleA drops a folder that does not exist (ClientFileSystemHelper.getUserMapsFolder), and so does the lookup.
    folder.rmdir()
    assert maps_folder_override(home=tmp_path / "home", platform="linux") is None
    assert maps_folder_override(home=tmp_path / "nobody", platform="linux") is None


def test_the_maps_folder_set_in_triplea_on_macos(tmp_path: Path) -> None:
    folder = _maps_folder(tmp_path)
    plist = tmp_path / "home" / "Library" / "Preferences" / "games.strategy.triplea.plist"
    plist.parent.mkdir(parents=True)
    # MacOSXPreferencesFile: a file per first three components, a dictionary per further one, keys ending in "/".
    tree = {"/games/strategy/triplea/": {"settings/": {"MAP_FOLDER_OVERRIDE": str(folder), "MAP_ZOOM_FACTOR": "10"}}}
    plist.write_bytes(plistlib.dumps(tree, fmt=plistlib.FMT_BINARY))
    assert maps_folder_override(home=tmp_path / "home", platform="darwin") == folder


def _as_java_writes_to_the_registry(c: str) -> str:
    """One character of a value as WindowsPreferences.toWindowsValueString writes it."""
    if not " " <= c <= "\x7f":
        return f"/u{ord(c):04x}"
    return {"\\": "//", "/": "\\"}.get(c, f"/{c}" if "A" <= c <= "Z" else c)


def test_the_maps_folder_set_in_triplea_on_windows(tmp_path: Path) -> None:
    folder = _maps_folder(tmp_path)
    encoded = "".join(_as_java_writes_to_the_registry(c) for c in str(folder))
    registry = {("Software\\JavaSoft\\Prefs\\games\\strategy\\triplea\\settings", "/M/A/P_/F/O/L/D/E/R_/O/V/E/R/R/I/D/E"): encoded}
    assert maps_folder_override(home=tmp_path / "home", platform="win32", registry=lambda key, name: registry.get((key, name))) == folder
    assert maps_folder_override(home=tmp_path / "home", platform="win32", registry=lambda key, name: None) is None


def test_java_registry_values_decode_as_java_reads_them() -> None:
    # WindowsPreferences.toWindowsValueString("C:\\Users\\José\\TripleA") as Java writes it.
    assert _java_value("/C:///Users///Jos/u00e9///Triple/A") == "C:\\Users\\José\\TripleA"

"""Where the user's TripleA is: the one place that knows how TripleA is installed on Linux, Windows and macOS.

Looked for in order: ``--triplea DIR`` (or the jar itself), ``$KREMLIN_TRIPLEA``, ``$KREMLIN_TRIPLEA_JAR``
(older name, a jar), TripleA's own installers' folders (Linux ``~/TripleA``, ``~/triplea`` and versioned folders inside them,
Windows ``Program Files\\TripleA``, macOS ``/Applications/TripleA.app``), then Debian's package
(``/usr/share/games/triplea``, TripleA 1.9). An installation is a folder holding the game's jar (``triplea*.jar``, ``game-headed*.jar``, ``game-headless*.jar``) in
``bin/`` (Debian, Linux, Windows) or in the app bundle's ``Contents/Java`` / ``Contents/Resources/app/bin``
(macOS); the engine version comes from the jar's manifest (``TripleA-Version``) or from its file name.
The Java runtime it ships (``jre/bin/java``), if any, is reported beside it, with the JVM library in it
(``libjvm``) that the engine bridge loads: a runtime has no compiler, so the engine is driven through that library.
"""

from __future__ import annotations

import os
import re
import sys
import zipfile
from collections.abc import Mapping
from pathlib import Path

import attrs

#: $KREMLIN_TRIPLEA: a TripleA installation folder (or its jar).
INSTALL_VARIABLE = "KREMLIN_TRIPLEA"
#: $KREMLIN_TRIPLEA_JAR: the jar itself (kept for the test harness and older set-ups).
JAR_VARIABLE = "KREMLIN_TRIPLEA_JAR"
DEBIAN_FOLDER = Path("/usr/share/games/triplea")

# Where the game's jar lies inside an installation folder, by layout.
_JAR_FOLDERS = ("bin", "lib", ".", "Contents/Java", "Contents/java/app", "Contents/Resources/app/bin", "Contents/app")
#: The game's jar, by build: Debian's ``triplea.jar``; the 2.x client (game-headed's shadow jar), named
#: ``triplea-game-headed-2.7+NNNNN.jar`` by the Groovy build and ``game-headed-2.7+NNNNN.jar`` by the Kotlin one;
#: the headless bot's ``triplea-game-headless-...`` / ``game-headless-...`` (TripleA's game-app/game-headed/build.gradle*).
_JAR_PATTERNS = ("triplea*.jar", "game-headed*.jar", "game-headless*.jar")
# "2.7.15472", "2.7+15472" (the shadow jar's archiveVersion: product version + build number).
_VERSION_IN_NAME = re.compile(r"(\d+\.\d+(?:[.+]\d+)*)")


@attrs.frozen
class Installation:
    """One TripleA installation: its folder, the engine's jar, the version, how it was found and the Java it ships."""

    folder: Path
    jar: Path
    version: str | None
    found_by: str  # "--triplea", "$KREMLIN_TRIPLEA", "Debian package", "~/triplea", ...
    java: Path | None = None  # the runtime bundled with it (jre/bin/java[.exe]); None: the system's

    @property
    def libjvm(self) -> Path | None:
        """The JVM library of the runtime bundled with it, which a program loads in-process (JPype); None: no runtime."""
        return jvm_library(self.java) if self.java is not None else None

    @property
    def major(self) -> int | None:
        """1 for TripleA 1.9, 2 for 2.x: the engine's API differs between them."""
        match = re.match(r"(\d+)", self.version or "")
        return int(match.group(1)) if match else None

    def describe(self) -> str:
        return f"TripleA {self.version or '(version unknown)'} at {self.folder} ({self.found_by})"


@attrs.frozen
class Search:
    """The outcome of a lookup: the installation found (or None) and every place looked at, in order."""

    found: Installation | None
    looked_in: tuple[str, ...]

    def not_found_message(self) -> str:
        return (
            "no TripleA installation found; looked in: "
            + "; ".join(self.looked_in)
            + f". Point at one with --triplea DIR or ${INSTALL_VARIABLE}=DIR (Linux: ~/TripleA, ~/triplea or /usr/share/games/triplea; "
            "Windows: C:\\Program Files\\TripleA; macOS: /Applications/TripleA.app)"
        )


def candidate_folders(
    *, home: Path | None = None, environ: Mapping[str, str] | None = None, platform: str | None = None, debian: Path = DEBIAN_FOLDER
) -> list[tuple[str, Path]]:
    """(how, folder or jar) in the order they are tried, for this operating system (``platform`` as ``sys.platform``)."""
    environ = os.environ if environ is None else environ
    home = Path.home() if home is None else home
    platform = sys.platform if platform is None else platform
    found: list[tuple[str, Path]] = []
    for variable in (INSTALL_VARIABLE, JAR_VARIABLE):
        if environ.get(variable, "").strip():
            found.append((f"${variable}", Path(environ[variable].strip()).expanduser()))
    if platform.startswith("win"):
        for variable in ("ProgramFiles", "ProgramFiles(x86)", "LOCALAPPDATA"):
            if environ.get(variable):
                base = Path(environ[variable])
                found.append((f"%{variable}%\\TripleA", base / "TripleA"))
                found += [(f"%{variable}%\\{p.name}", p) for p in _versioned(base, "TripleA*")]
        found.append(("~\\triplea", home / "triplea"))
    elif platform == "darwin":
        for apps in (Path("/Applications"), home / "Applications"):
            found.append((f"{apps}/TripleA.app", apps / "TripleA.app"))
            found += [(f"{apps}/{p.name}", p) for p in _versioned(apps, "TripleA*.app")]
    else:
        # The player's own TripleA (2.x, what players run and what writes the saves their bots load) before Debian's
        # package, which is TripleA 1.9. The 2.x installer (install4j, shortName "TripleA") installs a user's copy in
        # ~/TripleA and root's in /opt/TripleA; ~/triplea is the portable zip's usual place.
        for name in ("TripleA", "triplea"):
            found.append((f"~/{name}", home / name))
            found += [(f"~/{name}/{p.name}", p) for p in _versioned(home / name, "*")]
        found.append(("Debian package", debian))
    return found


def find_installation(
    explicit: Path | str | None = None,
    *,
    home: Path | None = None,
    environ: Mapping[str, str] | None = None,
    platform: str | None = None,
    debian: Path = DEBIAN_FOLDER,
) -> Search:
    """The first TripleA installation among ``explicit`` (``--triplea``) and :func:`candidate_folders`."""
    tried: list[str] = []
    candidates = ([("--triplea", Path(explicit).expanduser())] if explicit else []) + candidate_folders(
        home=home, environ=environ, platform=platform, debian=debian
    )
    for how, place in candidates:
        installation = installation_at(place, how)
        tried.append(f"{place} ({how})")
        if installation is not None:
            return Search(installation, tuple(tried))
        if how in ("--triplea", f"${INSTALL_VARIABLE}", f"${JAR_VARIABLE}"):
            # Named by the user: not silently replaced by another installation.
            return Search(None, tuple(tried))
    return Search(None, tuple(tried))


def installation_at(place: Path, how: str = "given") -> Installation | None:
    """The installation in folder ``place`` (or with ``place`` as its jar); None if it holds no TripleA jar."""
    if place.is_file() and place.suffix == ".jar":
        return Installation(_installation_folder(place), place, _version(place), how, _bundled_java(_installation_folder(place)))
    if not place.is_dir():
        return None
    for sub in _JAR_FOLDERS:
        folder = place / sub
        if not folder.is_dir():
            continue
        jars = sorted({p for pattern in _JAR_PATTERNS for p in folder.glob(pattern) if p.is_file()})
        if jars:
            jar = max(jars, key=lambda p: (_version_key(_version(p)), p.name))  # the newest when several
            return Installation(place, jar, _version(jar), how, _bundled_java(place))
    return None


def _versioned(folder: Path, pattern: str) -> list[Path]:
    try:
        return sorted((p for p in folder.glob(pattern) if p.is_dir()), key=lambda p: p.name, reverse=True)
    except OSError:
        return []


def _installation_folder(jar: Path) -> Path:
    return jar.parent.parent if jar.parent.name in ("bin", "lib") else jar.parent


def _bundled_java(folder: Path) -> Path | None:
    for relative in ("jre/bin/java", "jre/bin/java.exe", "Contents/PlugIns/jre/Contents/Home/bin/java", "Contents/Resources/jre/bin/java"):
        if (folder / relative).is_file():
            return folder / relative
    return None


#: Where a Java 11+ runtime keeps its JVM library, relative to its home (the folder holding ``bin/java``):
#: Linux, macOS, Windows.
_JVM_LIBRARIES = ("lib/server/libjvm.so", "lib/server/libjvm.dylib", "bin/server/jvm.dll")


def jvm_library(java: Path) -> Path | None:
    """The JVM library of the runtime whose launcher is ``java``; None if that runtime has none.

    The launcher's own folder is tried before its resolved one: a bundled ``jre`` whose ``bin/java`` is a link
    is still the runtime named, and ``/usr/bin/java`` resolves to the runtime it stands for.
    """
    for launcher in dict.fromkeys((java, java.resolve())):
        home = launcher.parent.parent
        for relative in _JVM_LIBRARIES:
            if (home / relative).is_file():
                return home / relative
    return None


#: A class every TripleA engine's jar holds, 1.9 and 2.x alike (the engine's save and load).
ENGINE_CLASS = "games/strategy/engine/framework/GameDataManager.class"


def jar_problem(jar: Path) -> str | None:
    """Why ``jar`` cannot be a TripleA engine (unreadable, damaged, not a jar, no engine in it); None if it may be.

    Checked before a JVM is started on it: a JVM on a damaged or foreign jar fails far from the cause.
    """
    try:
        with zipfile.ZipFile(jar) as archive:
            names = set(archive.namelist())
    except OSError as error:
        return f"cannot read the jar: {error.strerror or error}"
    except (zipfile.BadZipFile, EOFError, ValueError) as error:
        return f"not a readable jar (damaged or truncated?): {error}"
    if ENGINE_CLASS not in names:
        return f"not a TripleA jar: it holds no {ENGINE_CLASS.removesuffix('.class').replace('/', '.')}"
    return None


def _version(jar: Path) -> str | None:
    """``TripleA-Version`` of the jar's manifest (1.9: "1.9.0.0.dev"), else the version in its file name."""
    try:
        with zipfile.ZipFile(jar) as archive:
            manifest = archive.read("META-INF/MANIFEST.MF").decode("utf-8", "replace")
    except (OSError, KeyError, zipfile.BadZipFile):
        manifest = ""
    match = re.search(r"^(?:TripleA-Version|Implementation-Version|Engine-Version):\s*(\S+)", manifest, re.MULTILINE)
    if match:
        return match.group(1)
    named = _VERSION_IN_NAME.search(jar.name)
    return named.group(1) if named else None


def _version_key(version: str | None) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version or ""))

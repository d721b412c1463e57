"""Where the user's TripleA is: the one place that knows how TripleA is installed on Linux, Windows and macOS.

The installation named by the user is used, or none: ``--triplea DIR`` (or the jar itself), ``$KREMLIN_TRIPLEA``,
``$KREMLIN_TRIPLEA_JAR`` (older name, a jar). Otherwise the newest TripleA 2.x (what players run, and what judges a
game) among the folders TripleA's 2.x installers (install4j) use: Linux ``~/TripleA``, ``/opt/TripleA`` and
``~/triplea`` (the portable zip's usual place), Windows ``%ProgramFiles%\\TripleA`` and
``%LOCALAPPDATA%\\Programs\\TripleA``, macOS ``/Applications/TripleA.app`` and ``~/Applications/TripleA.app``, with
versioned folders beside or inside them; else Debian's package (``/usr/share/games/triplea``, TripleA 1.9), which then
says that no 2.x was found. An installation is a folder holding the game's jar (``triplea*.jar``, the 2.x client's
``game-headed*.jar``, the bot's ``game-headless*.jar``) in ``bin/`` (or the app bundle's ``Contents/Resources/app/bin``
on macOS); the engine version comes from the jar's manifest (``TripleA-Version``) or from its file name.
The Java runtime it ships (install4j's ``jre``, or ``.install4j/jre.bundle`` in a macOS app), if any, is reported
beside it, with the JVM library in it (``libjvm``) that the engine bridge loads: a runtime has no compiler, so the
engine is driven through that library; without one, the system's Java (:func:`system_jvm_library`).
TripleA 2.x's own maps-folder setting is read by :func:`maps_folder_override`.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable, Mapping
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
# "2.7.15472", "2.7+15472" (the shadow jar's archiveVersion: product version + build number), and the calendar
# versions TripleA's builds took after 2.7 ("2026-06.16.15630": year-month, product version, build number).
_VERSION_IN_NAME = re.compile(r"(\d{4}-\d{2}\.\d+(?:\.\d+)*|\d+\.\d+(?:[.+]\d+)*)")


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
    *,
    home: Path | None = None,
    environ: Mapping[str, str] | None = None,
    platform: str | None = None,
    debian: Path = DEBIAN_FOLDER,
    root: Path = Path("/"),
) -> list[tuple[str, Path]]:
    """(how, folder or jar) in the order they are looked at, for this operating system (``platform`` as
    ``sys.platform``); ``root`` is where the system-wide folders (/opt, /Applications) are.

    TripleA 2.x's installers are install4j's (game-app/game-headed/build.install4j, shortName "TripleA"): for all
    users in Program Files (Windows), /Applications (macOS) or /opt (Linux); for one user in %LOCALAPPDATA%\\Programs,
    ~/Applications or the home folder.
    """
    environ = os.environ if environ is None else environ
    home = Path.home() if home is None else home
    platform = sys.platform if platform is None else platform
    found: list[tuple[str, Path]] = []
    from kremlin_triplea.gamefile.userpath import expanded

    for variable in (INSTALL_VARIABLE, JAR_VARIABLE):
        if environ.get(variable, "").strip():
            found.append((f"${variable}", expanded(environ[variable].strip(), f"${variable}")))
    if platform.startswith("win"):
        bases = [(f"%{v}%", Path(environ[v])) for v in ("ProgramFiles", "ProgramFiles(x86)") if environ.get(v)]
        if environ.get("LOCALAPPDATA"):
            local = Path(environ["LOCALAPPDATA"])
            bases += [("%LOCALAPPDATA%\\Programs", local / "Programs"), ("%LOCALAPPDATA%", local)]
        for how, base in bases:
            found.append((f"{how}\\TripleA", base / "TripleA"))
            found += [(f"{how}\\{p.name}", p) for p in _versioned(base, "TripleA?*")]
        found += [(f"~\\{name}", home / name) for name in ("TripleA", "triplea")]
    elif platform == "darwin":
        for apps, how in ((root / "Applications", "/Applications"), (home / "Applications", "~/Applications")):
            found.append((f"{how}/TripleA.app", apps / "TripleA.app"))
            found += [(f"{how}/{p.name}", p) for p in _versioned(apps, "TripleA?*.app")]
    else:
        for folder, how in ((home / "TripleA", "~/TripleA"), (home / "triplea", "~/triplea"), (root / "opt" / "TripleA", "/opt/TripleA")):
            found.append((how, folder))
            found += [(f"{how}/{p.name}", p) for p in _versioned(folder, "*")]
        found.append(("Debian package", debian))
    return found


#: How the user names an installation: that one is used, or none (never silently another).
_NAMED_BY_USER = ("--triplea", f"${INSTALL_VARIABLE}", f"${JAR_VARIABLE}")


def find_installation(
    explicit: Path | str | None = None,
    *,
    home: Path | None = None,
    environ: Mapping[str, str] | None = None,
    platform: str | None = None,
    debian: Path = DEBIAN_FOLDER,
    root: Path = Path("/"),
) -> Search:
    """The installation the user names (``explicit``: ``--triplea``, else ``$KREMLIN_TRIPLEA``), else the newest
    TripleA 2.x among :func:`candidate_folders` (what players run and what judges a game), else the first other one
    (Debian's 1.9), whose ``found_by`` then says that no 2.x was found."""
    from kremlin_triplea.gamefile.userpath import expanded

    tried: list[str] = []
    candidates = ([("--triplea", expanded(explicit, "--triplea"))] if explicit else []) + candidate_folders(
        home=home, environ=environ, platform=platform, debian=debian, root=root
    )
    found: list[Installation] = []
    for how, place in candidates:
        installation = installation_at(place, how)
        tried.append(f"{place} ({how})")
        if how in _NAMED_BY_USER:
            return Search(installation, tuple(tried))
        if installation is not None and installation.jar not in {f.jar for f in found}:
            found.append(installation)
    # Only 2.x: the bridge drives 2.x's classes, and a later TripleA's are not known to be the same.
    newest = max((i for i in found if i.major == 2), key=lambda i: _version_key(i.version), default=None)
    if newest is None and found:
        return Search(attrs.evolve(found[0], found_by=f"{found[0].found_by}; no TripleA 2.x found"), tuple(tried))
    return Search(newest, tuple(tried))


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
    """The folders in ``folder`` matching ``pattern`` that name a version (a digit in the name: "2.7", "TripleA 2.6"),
    not an installation's own parts (bin, jre, assets)."""
    try:
        return sorted((p for p in folder.glob(pattern) if p.is_dir() and re.search(r"\d", p.name)), key=lambda p: p.name, reverse=True)
    except OSError:
        return []


def _installation_folder(jar: Path) -> Path:
    return jar.parent.parent if jar.parent.name in ("bin", "lib") else jar.parent


#: Where an installation keeps the Java runtime it ships: install4j's bundled JRE is ``jre`` in the installation
#: folder on Windows and Linux, and ``.install4j/jre.bundle`` in the content folder of a macOS app
#: (``TripleA.app/Contents/Resources/app``), a runtime laid out as a macOS bundle (``Contents/Home``).
_BUNDLED_JAVA = (
    "jre/bin/java",
    "jre/bin/java.exe",
    ".install4j/jre.bundle/Contents/Home/bin/java",
    "Contents/Resources/app/.install4j/jre.bundle/Contents/Home/bin/java",
    "Contents/PlugIns/jre/Contents/Home/bin/java",
    "Contents/Resources/jre/bin/java",
)


def _bundled_java(folder: Path) -> Path | None:
    for relative in _BUNDLED_JAVA:
        if (folder / relative).is_file():
            return folder / relative
    return None


#: macOS's own tool that names the home of the Java installed (``/usr/bin/java`` is a stub with no JVM library).
MACOS_JAVA_HOME_TOOL = Path("/usr/libexec/java_home")


def system_jvm_library(
    *, environ: Mapping[str, str] | None = None, platform: str | None = None, java_home_tool: Path = MACOS_JAVA_HOME_TOOL
) -> tuple[Path | None, tuple[str, ...]]:
    """The JVM library of the system's Java and what was looked at: ``$JAVA_HOME``'s, then (macOS) the one
    ``/usr/libexec/java_home`` names, then the one ``java`` on the path stands for."""
    environ = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    looked: list[str] = []
    homes: list[tuple[str, Path]] = []
    if environ.get("JAVA_HOME", "").strip():
        homes.append((f"$JAVA_HOME={environ['JAVA_HOME'].strip()}", Path(environ["JAVA_HOME"].strip())))
    if platform == "darwin" and java_home_tool.is_file():
        named = _output_of([str(java_home_tool)])
        looked_at = f"{java_home_tool} ({named or 'no Java installed'})"
        if named:
            homes.append((looked_at, Path(named)))
        else:
            looked.append(looked_at)
    for how, home in homes:
        looked.append(how)
        found = jvm_library(home / "bin" / "java")
        if found is not None:
            return found, tuple(looked)
    on_path = shutil.which("java", path=environ.get("PATH"))
    if on_path:
        looked.append(on_path)
        found = jvm_library(Path(on_path))
        if found is not None:
            return found, tuple(looked)
    return None, tuple(looked)


def _output_of(command: list[str]) -> str | None:
    """The first line ``command`` prints, if it succeeds."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, errors="replace", timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    lines = done.stdout.strip().splitlines()
    return lines[0].strip() if done.returncode == 0 and lines else None


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
        stat = jar.stat()
    except OSError:
        manifest = ""
    else:
        manifest = _manifest(str(jar), stat.st_size, stat.st_mtime_ns)
    match = re.search(r"^(?:TripleA-Version|Implementation-Version|Engine-Version):\s*(\S+)", manifest, re.MULTILINE)
    if match:
        return match.group(1)
    named = _VERSION_IN_NAME.search(jar.name)
    return named.group(1) if named else None


@functools.lru_cache(maxsize=16)
def _manifest(jar: str, _size: int, _mtime_ns: int) -> str:
    """The jar's manifest, read once per jar as it is on disk (size and time in the key): opening a jar reads its
    whole table of contents (tens of thousands of entries for TripleA 1.9), and every validate looks for the
    installation whose game.dtd it judges with."""
    try:
        with zipfile.ZipFile(jar) as archive:
            return archive.read("META-INF/MANIFEST.MF").decode("utf-8", "replace")
    except (OSError, KeyError, zipfile.BadZipFile, EOFError, ValueError):
        return ""


def _version_key(version: str | None) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version or ""))


# -- TripleA 2.x's own settings -----------------------------------------------------------------------------------

#: TripleA 2.x keeps its settings in Java Preferences, in the user node of ClientSetting's package
#: (games.strategy.triplea.settings.ClientSetting: Preferences.userNodeForPackage); the maps folder a player chose in
#: its settings is MAP_FOLDER_OVERRIDE (ClientSetting.mapFolderOverride, which ClientFileSystemHelper.getUserMapsFolder
#: uses instead of <user folder>/downloadedMaps).
SETTINGS_NODE = ("games", "strategy", "triplea", "settings")
MAP_FOLDER_SETTING = "MAP_FOLDER_OVERRIDE"


def maps_folder_override(
    *,
    home: Path | None = None,
    platform: str | None = None,
    registry: Callable[[str, str], str | None] | None = None,
) -> Path | None:
    """The maps folder set in TripleA 2.x's settings, if one is set and TripleA would use it (it drops one that does not
    exist or that it cannot write to, as getUserMapsFolder does); None otherwise.

    Java keeps a user's preferences in ``~/.java/.userPrefs/<node>/prefs.xml`` (Linux), in
    ``~/Library/Preferences/games.strategy.triplea.plist`` (macOS: a node's file is named by its first three
    components) and under ``HKEY_CURRENT_USER\\Software\\JavaSoft\\Prefs\\<node>`` (Windows, names and values in
    Java's registry encoding); ``registry(key, value_name)`` reads the registry (tests pass a fake).
    """
    home = Path.home() if home is None else home
    platform = sys.platform if platform is None else platform
    if platform.startswith("win"):
        read = registry or _read_registry
        encoded = read("Software\\JavaSoft\\Prefs\\" + "\\".join(SETTINGS_NODE), _windows_name(MAP_FOLDER_SETTING))
        value = _java_value(encoded) if encoded is not None else None
    elif platform == "darwin":
        value = _macos_preference(home / "Library" / "Preferences" / f"{'.'.join(SETTINGS_NODE[:3])}.plist")
    else:
        value = _unix_preference(home / ".java" / ".userPrefs" / Path(*SETTINGS_NODE) / "prefs.xml")
    if not value:
        return None
    folder = Path(value)
    return folder if folder.is_dir() and os.access(folder, os.W_OK) else None


def _unix_preference(prefs_xml: Path) -> str | None:
    """MAP_FOLDER_SETTING of a FileSystemPreferences node file (``<map><entry key=... value=.../></map>``)."""
    from kremlin_triplea.errors import KremlinError
    from kremlin_triplea.gamefile.safe import parse_xml

    try:
        tree = parse_xml(prefs_xml.read_bytes(), where=str(prefs_xml))
    except (OSError, KremlinError):  # none, or one Java itself would not read
        return None
    return next((entry.get("value") for entry in tree.getroot().iter("entry") if entry.get("key") == MAP_FOLDER_SETTING), None)


def _macos_preference(plist: Path) -> str | None:
    """MAP_FOLDER_SETTING in a MacOSXPreferences file: key "/games/strategy/triplea/", then a dictionary per further
    component ("settings/"), holding the node's keys."""
    import plistlib

    try:
        with plist.open("rb") as file:
            tree = plistlib.load(file)
        node = tree["/" + "/".join(SETTINGS_NODE[:3]) + "/"]
        for part in SETTINGS_NODE[3:]:
            node = node[part + "/"]
        value = node.get(MAP_FOLDER_SETTING)
    except (OSError, plistlib.InvalidFileException, ValueError, KeyError, TypeError, AttributeError):
        return None
    return value if isinstance(value, str) else None


def _read_registry(key: str, name: str) -> str | None:
    try:
        import winreg  # type: ignore[import-not-found]  # Windows only
    except ImportError:
        return None
    try:
        with winreg.OpenKey(winreg.HKEY_CURRENT_USER, key) as opened:
            value, _ = winreg.QueryValueEx(opened, name)
    except OSError:
        return None
    return value if isinstance(value, str) else None


def _windows_name(java_name: str) -> str:
    """A preference's name as Java writes it in the registry (WindowsPreferences.toWindowsName, simple encoding):
    a capital letter is preceded by "/", "\\" becomes "//" and "/" becomes "\\"."""
    return "".join("//" if c == "\\" else "\\" if c == "/" else f"/{c}" if "A" <= c <= "Z" else c for c in java_name)


def _java_value(windows: str) -> str:
    """A preference's value as Java reads it back from the registry (WindowsPreferences.toJavaValueString): "/u" and
    four hex digits is that character, "/" before a capital letter is dropped, "//" is "\\" and "\\" is "/"."""
    out: list[str] = []
    i = 0
    while i < len(windows):
        c, following = windows[i], windows[i + 1 : i + 2]
        if c == "/" and following == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", windows[i + 2 : i + 6]):
            out.append(chr(int(windows[i + 2 : i + 6], 16)))
            i += 6
            continue
        if c == "/" and following and ("A" <= following <= "Z" or following == "/"):
            out.append("\\" if following == "/" else following)
            i += 2
            continue
        out.append("/" if c == "\\" else c)
        i += 1
    return "".join(out)

"""TripleA's game.dtd: where to find it (``--dtd``, $KREMLIN_TRIPLEA_DTD, an installed TripleA's jar) and the notes
a game gets for breaking it (1.9 prints those and loads the game anyway; 2.x does not read the DTD).
"""

from __future__ import annotations

import copy
import functools
import hashlib
import os
import re
import sys
import tempfile
import zipfile
from pathlib import Path

from lxml import etree

from kremlin_triplea.errors import InputError
from kremlin_triplea.gamefile.installation import find_installation
from kremlin_triplea.gamefile.safe import read_bytes, write_atomically

#: Environment variable naming TripleA's game.dtd (or a TripleA jar holding it).
DTD_VARIABLE = "KREMLIN_TRIPLEA_DTD"

#: The jar member the engine validates game files against.
JAR_DTD_MEMBER = "games/strategy/engine/xml/game.dtd"


# The DTD's words for what the 2.x variables note already says.
_VARIABLE_DTD_MESSAGES = re.compile(
    r"No declaration for (element (variableList|variable|element)|attribute (name of element (variable|element)|foreach of element attachment))$"
    r"|Element game content does not follow the DTD, expecting .*, got \(.*variableList"
)


# DTD errors the checks above already report on the same line, better: names, and flags that are not true/false.
_SAID_BETTER = {etree.ErrorTypes.DTD_UNKNOWN_ID, etree.ErrorTypes.DTD_ID_REDEFINED, etree.ErrorTypes.DTD_ATTRIBUTE_VALUE}


def dtd_notes(root: etree._Element, dtd: Path, reported_lines: set[int | None]) -> list[tuple[int, str, str]]:
    """Each way the document breaks ``dtd``, once, as (first line, message with how many places, libxml2's error type).

    TripleA 1.9 validates every game file against its DTD, prints the errors
    and loads the game anyway; 2.x reads no DTD. What the 2.x variables note
    says (``triplea19_refusals``) is left out, and so is an unknown or
    repeated name or a value outside a list where a check reported that line.
    """
    schema = _load_dtd(dtd)
    if schema.validate(root.getroottree()):
        return []
    stripped = _without_stray_text(root, schema)
    if stripped is not None and schema.validate(stripped.getroottree()):
        return []  # only text the engine ignores (its other errors are reported from the copy, by the same lines)
    kinds: dict[str, list[int]] = {}
    types: dict[str, str] = {}
    for error in schema.error_log:
        if _VARIABLE_DTD_MESSAGES.search(error.message) or (error.type in _SAID_BETTER and error.line in reported_lines):
            continue
        kinds.setdefault(error.message, []).append(error.line)
        types.setdefault(error.message, error.type_name)
    return [
        (
            lines[0],
            f"does not follow game.dtd (TripleA 1.9 prints this and loads the game): {message}" + (f" ({len(lines)} places)" if len(lines) > 1 else ""),
            types[message],
        )
        for message, lines in kinds.items()
    ]


def _without_stray_text(root: etree._Element, schema: etree.DTD) -> etree._Element | None:
    """A copy of the document without the text the DTD allows no text in (None if it has none).

    Text between the elements of ``<unitInitialize>`` and the like breaks the DTD, but 2.7 reads the game as if
    it were not there (its parser maps elements only) and 1.9 only prints the error; a map that has it is played
    as it is, and an error it had before an edit is no error of the edit (the DTD's message lists every child,
    so it differs once a unit is placed).
    """
    no_text = {e.name for e in schema.elements() if e.type in ("element", "empty")}

    def stray(text: str | None) -> bool:
        return bool(text and text.strip())

    if not any(e.tag in no_text and (stray(e.text) or any(stray(c.tail) for c in e)) for e in root.iter(tag=etree.Element)):
        return None
    copied = copy.deepcopy(root)
    for element in copied.iter(tag=etree.Element):
        if element.tag in no_text:
            if stray(element.text):
                element.text = None
            for child in element:
                if stray(child.tail):
                    child.tail = None
    return copied


def _load_dtd(path: Path) -> etree.DTD:
    try:
        stat = path.stat()
    except OSError as error:
        raise InputError(f"cannot read the DTD: {error.strerror}", where=str(path)) from None
    return _parse_dtd(str(path), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=8)
def _parse_dtd(path: str, _mtime_ns: int, _size: int) -> etree.DTD:
    try:
        return etree.DTD(path)
    except (etree.DTDParseError, OSError) as error:
        raise InputError(f"cannot read the DTD: {error}", where=path) from None


def find_dtd(explicit: Path | None = None, *, game_file: Path | None = None) -> Path | None:
    """TripleA's game.dtd, or None if there is none to be found.

    In order: ``explicit`` (``--dtd``), the file named by $KREMLIN_TRIPLEA_DTD,
    the installed TripleA's (extracted from its jar into a cache folder), then
    a ``game.dtd`` beside ``game_file`` or in its map folder. The installed
    engine's DTD comes before copies shipped with maps because it is the one
    TripleA validates against. ``explicit`` and the variable may also name a
    TripleA jar.
    """
    for given, where in ((explicit, None), (_env_path(), f"${DTD_VARIABLE}")):
        if given is not None:
            if not given.is_file():
                raise InputError("no such DTD file", where=f"{where}={given}" if where else str(given))
            return _dtd_from_jar(given) if given.suffix == ".jar" else given
    installed = find_installation().found
    if installed is not None:
        found = _dtd_from_jar(installed.jar, required=False)
        if found is not None:
            return found
    if game_file is not None:
        games_folder = game_file.resolve().parent
        for folder in (games_folder, games_folder.parent):
            if (folder / "game.dtd").is_file():
                return folder / "game.dtd"
    return None


def _env_path() -> Path | None:
    value = os.environ.get(DTD_VARIABLE, "").strip()
    return Path(value) if value else None


def source_path(root: etree._Element, file: str) -> Path | None:
    """The game file on disk, if the tree was read from one or ``file`` names one."""
    for candidate in (root.getroottree().docinfo.URL, file):
        if candidate and not candidate.startswith(("http:", "https:", "ftp:")):
            path = Path(candidate.removeprefix("file://"))
            if path.is_file():
                return path
    return None


def _dtd_from_jar(jar: Path, *, required: bool = True) -> Path | None:
    """The jar's game.dtd, copied into the cache folder (the engine reads it from there)."""
    stat = jar.stat()
    try:
        data = _read_jar_dtd(str(jar), stat.st_mtime_ns, stat.st_size)
    except InputError:
        if required:
            raise
        return None
    name = f"game-{hashlib.sha256(data).hexdigest()[:16]}.dtd"
    # The cache is only a convenience: a folder that cannot be written (a read-only home, a file where the folder
    # goes) gives way to the system's temporary folder, then to none (the DTD is then not read from the jar).
    for folder in (cache_folder(), Path(tempfile.gettempdir()) / f"kremlin-triplea-{os.getuid() if hasattr(os, 'getuid') else 'user'}"):
        target = folder / name
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if hasattr(os, "getuid") and os.stat(folder).st_uid != os.getuid():
                continue  # another user's folder (the temporary folder is shared): nothing of it is used
            if target.is_file() and read_bytes(target, what="DTD") == data:
                return target
            write_atomically(target, data, overwrite=True)
            return target
        except (OSError, InputError):
            continue
    if required:
        raise InputError(f"cannot keep its game.dtd in {cache_folder()} nor in the system's temporary folder", where=str(jar))
    return None


@functools.lru_cache(maxsize=8)
def _read_jar_dtd(jar: str, _mtime_ns: int, _size: int) -> bytes:
    """The bytes of the jar's game.dtd: JAR_DTD_MEMBER, else any non-empty game.dtd in it."""
    try:
        with zipfile.ZipFile(jar) as archive:
            members = [m for m in archive.infolist() if m.filename.endswith("game.dtd") and 0 < m.file_size < 2**20]
            members.sort(key=lambda m: (m.filename != JAR_DTD_MEMBER, m.filename))
            if not members:
                raise InputError("holds no game.dtd", where=jar)
            return archive.read(members[0])
    except (OSError, zipfile.BadZipFile) as error:
        raise InputError(f"cannot read the jar: {error}", where=jar) from None


def cache_folder() -> Path:
    """Where the platform keeps a user's caches (issue 32): %LOCALAPPDATA% on Windows, ~/Library/Caches on macOS,
    $XDG_CACHE_HOME (else ~/.cache) elsewhere."""
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        base = Path(os.environ["LOCALAPPDATA"])
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "kremlin-triplea"

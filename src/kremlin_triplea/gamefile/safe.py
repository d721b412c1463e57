"""Read untrusted files and write outputs without ever losing or clobbering a host's file.

Reading: only regular files are read (a FIFO or a device would block or never
end), within a size limit, and XML is parsed without touching the network or
expanding entities. TripleA game files never declare entities, so a file that
does is refused outright; that closes entity-expansion bombs and
external-entity reads without relying on parser limits.

Writing: :func:`write_atomically` is the one way this program writes a file
a user can see. It writes a temporary file beside the target, fsyncs it and
renames it into place, so the target is either the old file or the whole new
one; it writes only to a regular file or a new path, never over an input of
the command, never over an existing file unless told to, and keeps the
permissions of a file it replaces. :class:`Outputs` writes several files
all or none. Intermediate files (a savegame before it is checked) go to a
:func:`scratch_folder`, which the next run removes if a kill left it behind.

Files are opened in binary mode everywhere: on Windows a descriptor opened
without ``O_BINARY`` turns CRLF into LF and ends the file at a Ctrl-Z byte.
"""

from __future__ import annotations

import bisect
import contextlib
import errno
import os
import re
import shutil
import stat
import tempfile
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from lxml import etree

from kremlin_triplea.errors import InputError
from kremlin_triplea.gamefile.entities import entities_refused

#: The largest published game file we know of is 3.3 MB; 64 MiB leaves room
#: for any real map and refuses a file that could only be an attack or a mistake.
MAX_FILE_BYTES = 64 * 1024 * 1024

#: What :func:`read_bytes` reads unless told: a TripleA game file, which TripleA itself reads without the bounds below.
GAME_FILE = "game file"

#: Why this tool refuses, within bounds no real game comes near, a file TripleA's parser (the JDK's) would still load:
#: bigger than MAX_FILE_BYTES, nested deeper or with a longer value than libxml2's safe limits (lxml without
#: huge_tree), or declaring entities. TripleA 2.7 loads each (tests/test_validate_output.py asks it).
SAFE_BOUNDS_WHY = "the largest published game is 3.3 MB and none nests more than 5 deep; the bound keeps a hostile file from exhausting memory or time"

#: Temporary files are named ``.<target name>.kremlin-<pid>-<random>.tmp``: the
#: pid lets a later run beside them tell a dead writer's leftovers from a live one's.
_TEMP_MARK = ".kremlin-"
_TEMP_NAME = re.compile(r"^\..+\.kremlin-(?P<pid>\d+)-[A-Za-z0-9_]+\.tmp$")

#: Opens a file byte for byte: Windows' C library reads a descriptor opened without it as text (CRLF -> LF, Ctrl-Z ends it).
BINARY = getattr(os, "O_BINARY", 0)

#: How long to wait, try after try, when replacing a file fails with PermissionError: on Windows that is
#: a sharing violation while another program (antivirus, indexer, OneDrive) holds the file for a moment.
#: Elsewhere the error is the file system's answer, and waiting would not change it.
REPLACE_RETRY_SECONDS: tuple[float, ...] = (0.05, 0.1, 0.2, 0.4, 0.8, 1.6) if os.name == "nt" else ()


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _os_error_text(error: OSError) -> str:
    return error.strerror or str(error)


def read_bytes(path: Path, *, max_bytes: int = MAX_FILE_BYTES, what: str = GAME_FILE) -> bytes:
    """The file's bytes, refusing missing, unreadable, special and oversized files.

    The file is opened without blocking and checked to be a regular file before
    a byte is read, so a FIFO or a device given as input is refused, not waited on.
    """
    where = str(path)
    try:
        descriptor = os.open(path, os.O_RDONLY | BINARY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        if os.path.islink(path):
            raise InputError(f"is a symbolic link to {os.readlink(path)!r}, which does not exist", where=where) from None
        raise InputError("no such file", where=where) from None
    except OSError as error:
        if error.errno == errno.EISDIR:
            raise InputError(f"is a folder, not a {what}", where=where) from None
        raise InputError(f"cannot read: {_os_error_text(error)}", where=where) from None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise InputError(f"is {_kind(info.st_mode)}, not a {what}; only regular files are read", where=where)
        if info.st_size > max_bytes:
            raise InputError(f"file is {info.st_size:,} bytes; {_size_limit(what, max_bytes)}", where=where)
        chunks, total = [], 0
        while True:
            chunk = os.read(descriptor, 1 << 20)
            if not chunk:
                break
            total += len(chunk)
            if total > max_bytes:
                raise InputError(f"file grew past {max_bytes:,} bytes while being read; {_size_limit(what, max_bytes)}", where=where)
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as error:
        raise InputError(f"cannot read: {_os_error_text(error)}", where=where) from None
    finally:
        os.close(descriptor)


def _size_limit(what: str, max_bytes: int) -> str:
    """Why a file is not read for its size: for a game file, that TripleA would load it and why this tool does not."""
    if what == GAME_FILE:
        return f"TripleA would load it, but this tool reads no {what} beyond {max_bytes:,} bytes ({SAFE_BOUNDS_WHY})"
    return f"the limit for a {what} is {max_bytes:,} bytes"


def read_text(path: Path, *, max_bytes: int = 16 * 1024 * 1024, what: str = "file") -> str:
    """A UTF-8 text file's content; a byte that is not UTF-8 is reported with its line."""
    data = read_bytes(path, max_bytes=max_bytes, what=what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise InputError(f"is not UTF-8 text (byte 0x{data[error.start]:02x} at line {line}); save it as UTF-8", where=f"{path}:{line}") from None


def _parser() -> etree.XMLParser:
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        strip_cdata=False,
        remove_blank_text=False,
        remove_comments=False,
        remove_pis=False,
    )


def parse_xml(data: bytes, *, where: str) -> etree._ElementTree:
    """Parse ``data`` safely; ``where`` names the source in error messages."""
    beyond = _beyond_parser_limits(data)  # before the parse: what TripleA refuses costs no more than a glance
    if beyond is not None:
        message, line = beyond
        raise InputError(message, where=f"{where}:{line}")
    try:
        tree = etree.ElementTree(etree.fromstring(data, _parser()))
    except etree.XMLSyntaxError as error:
        line = error.lineno or error.position[0]
        # libxml2 ends some messages with a newline ("Char 0x0 out of allowed range\n" for a NUL byte): one line.
        message = " ".join((error.msg or str(error)).split())
        if "entity amplification" in message or "entity reference loop" in message:
            raise InputError(entities_refused(data), where=f"{where}:{line}") from None
        raise InputError(_beyond_safe_limits(message) or f"malformed XML: {message}", where=f"{where}:{line}") from None
    internal = tree.docinfo.internalDTD
    if internal is not None and any(True for _ in internal.iterentities()):
        raise InputError(entities_refused(data), where=where)
    # With an external DOCTYPE (``SYSTEM "game.dtd"``) that is not loaded, libxml2 keeps an
    # undeclared reference such as &nbsp; as a node that every reader would silently drop.
    # TripleA's parser refuses the file ("The entity "nbsp" was referenced, but not declared").
    # In an attribute value libxml2 drops it without a word. TripleA's parser refuses the file
    # ("The entity "nbsp" was referenced, but not declared"), so it is refused here too.
    undeclared = _undeclared_entity(data)
    if undeclared is not None:
        name, line = undeclared
        raise InputError(
            f"the entity &{name}; is not declared, and TripleA's parser refuses the file; write the character itself or a character reference such as &#160;",
            where=f"{where}:{line}",
        )
    return tree


#: The limits TripleA's XML parser (the JDK's StAX parser, with its secure-processing defaults) puts on a game:
#: more attributes in one element (jdk.xml.elementAttributeLimit) or a longer element or attribute name
#: (jdk.xml.maxXMLNameLimit) and TripleA 2.7 refuses the file ("JAXP00010002: Element "info" has more than "10,000"
#: attributes"; "JAXP00010005: The length of entity "[xml]" is "1,001""), so it is refused here before any work.
MAX_ATTRIBUTES = 10_000
MAX_NAME_LENGTH = 1_000
#: A start tag that breaks a limit is longer than a name can be: it shows as a '<' followed by that many bytes
#: without another '<' (which no tag holds), so only such places are looked at, each once (_long_runs).
#: A run of MAX_NAME_LENGTH + 1 bytes holds a whole block of this many bytes counted from the file's start, wherever it
#: begins: only the blocks without a '<' are looked into.
_BLOCK = (MAX_NAME_LENGTH + 1) // 2
_START_TAG = re.compile(rb"""<([^\s/>!?][^\s/>]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*/?>""")
_ATTRIBUTE_NAME = re.compile(rb"""\s([^\s=/>]+)\s*=\s*(?:"[^"]*"|'[^']*')""")


#: libxml2's words when a file breaks its safe limits (lxml without huge_tree; see SAFE_BOUNDS_WHY), and what it broke.
_SAFE_LIMITS = (
    (re.compile(r"Excessive depth in document: (\d+)"), "elements are nested more than {0} deep"),
    (
        re.compile(r"Text node too long|Buffer size limit exceeded|Comment too big|too long|too big", re.IGNORECASE),
        "a text, comment or value is longer than 10,000,000 characters",
    ),
)


def _beyond_safe_limits(message: str) -> str | None:
    """libxml2's refusal of a file for its safe limits, said as such (None for XML that is malformed)."""
    for pattern, said in _SAFE_LIMITS:
        found = pattern.search(message)
        if found is not None:
            return f"{said.format(*found.groups())}: TripleA would load it, but this tool does not read beyond libxml2's safe bounds ({SAFE_BOUNDS_WHY})"
    return None


def _long_runs(data: bytes) -> Iterator[int]:
    """Each '<' followed by more than MAX_NAME_LENGTH bytes without another, in order: only such a '<' can begin a
    name or a start tag beyond TripleA's limits. Such a run holds a whole block of :data:`_BLOCK` bytes, so only the
    blocks without a '<' are looked into, each by a search in C: a regular expression stepping through every byte
    after every '<' was a tenth of lxml's parse of the file (issue 45 item 6). A run is looked at once, from its
    first such block, and the search goes on after its end: asking every block of an 11 MB value where its run
    began was 22,000 searches back through megabytes (5 s)."""
    block = 0
    while block + _BLOCK <= len(data):
        if data.find(b"<", block, block + _BLOCK) >= 0:
            block += _BLOCK
            continue
        start = data.rfind(b"<", 0, block)  # the '<' the block's run follows (none: the file's start, no tag)
        following = data.find(b"<", block + _BLOCK)
        end = len(data) if following < 0 else following
        if start >= 0 and end > start + MAX_NAME_LENGTH + 1:
            yield start
        block = (end // _BLOCK + 1) * _BLOCK  # the block holding the run's end has a '<'


def _beyond_parser_limits(data: bytes) -> tuple[str, int] | None:
    """What in a parsed file TripleA's parser refuses (:data:`MAX_ATTRIBUTES`, :data:`MAX_NAME_LENGTH`), and its line;
    in time linear in the file."""
    for start in _long_runs(data):
        tag = _START_TAG.match(data, start)
        if tag is None:  # a comment, CDATA, an end tag or text after a short tag
            continue
        line = data.count(b"\n", 0, start) + 1
        name = tag.group(1).decode("utf-8", "replace")
        names = _ATTRIBUTE_NAME.findall(tag.group(2))
        shown = name if len(name) <= 40 else f"{name[:40]}..."
        if len(name) > MAX_NAME_LENGTH:
            return f"an element's name is {len(name):,} characters ({shown}); TripleA's XML parser refuses names longer than {MAX_NAME_LENGTH:,}", line
        if len(names) > MAX_ATTRIBUTES:
            return f"<{shown}> has {len(names):,} attributes; TripleA's XML parser refuses more than {MAX_ATTRIBUTES:,} in one element", line
        longest = max((n.decode("utf-8", "replace") for n in names), key=len, default="")
        if len(longest) > MAX_NAME_LENGTH:
            return (
                f"<{shown}> has an attribute name of {len(longest):,} characters ({longest[:40]}...); TripleA's XML parser refuses names longer than {MAX_NAME_LENGTH:,}",
                line,
            )
    return None


# A reference to an entity other than XML's five (those are skipped by the expression itself: a game's notes hold
# thousands of &lt; and &amp;, each one a step of Python when matched and skipped here).
_ENTITY_REFERENCE = re.compile(rb"&(?!(?:amp|lt|gt|quot|apos);)([A-Za-z_:][A-Za-z0-9_.:-]*);")
_NOT_MARKUP = re.compile(rb"<!--.*?-->|<!\[CDATA\[.*?\]\]>", re.DOTALL)


def _undeclared_entity(data: bytes) -> tuple[str, int] | None:
    """The first reference to an entity other than XML's five (none is declared: see parse_xml), and its line."""
    if b"&" not in data:
        return None
    starts: list[int] | None = None
    ends: list[int] = []
    for match in _ENTITY_REFERENCE.finditer(data):
        if starts is None:  # the comments and CDATA sections, in order and apart: one is found by bisection
            spans = [c.span() for c in _NOT_MARKUP.finditer(data)]
            starts, ends = [start for start, _ in spans], [end for _, end in spans]
        before = bisect.bisect_left(starts, match.start()) - 1
        if before < 0 or match.start() >= ends[before]:
            return match.group(1).decode("ascii", "replace"), data.count(b"\n", 0, match.start()) + 1
    return None


# -- writing -----------------------------------------------------------------


def _describe_path(path: str | os.PathLike[str]) -> str:
    return os.fspath(path)


def check_output(
    path: str | os.PathLike[str],
    *,
    overwrite: bool = False,
    protect: Iterable[str | os.PathLike[str]] = (),
) -> Path:
    """The file that writing to ``path`` would replace or create, after checking it may be written.

    Refuses (``InputError``): a name ending in a path separator (a folder); a
    dangling or looping symbolic link; anything that is not a regular file
    (folder, device, FIFO, socket); an existing file without ``overwrite``; any
    of the ``protect``ed inputs, whatever ``overwrite`` says (also through
    links); and a folder that does not exist or cannot be written. A symbolic
    link to a regular file is written through: the link stays, its target changes.
    """
    text = _describe_path(path)
    if not text:
        raise InputError("the output name is empty")
    if text.endswith(("/", os.sep)) or text in (".", ".."):
        raise InputError("names a folder (it ends in a slash); name the output file", where=text)
    if os.path.islink(text):
        try:
            os.stat(text)
        except FileNotFoundError:
            raise InputError(f"is a symbolic link to {os.readlink(text)!r}, which does not exist; not followed", where=text) from None
        except OSError as error:
            raise InputError(f"is a symbolic link that cannot be followed: {_os_error_text(error)}", where=text) from None
        target = Path(os.path.realpath(text))
    else:
        target = Path(os.path.abspath(text))
    try:
        info: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise InputError(f"cannot write: {_os_error_text(error)}", where=text) from None
    if info is not None:
        if not stat.S_ISREG(info.st_mode):
            raise InputError(f"is {_kind(info.st_mode)}; output goes only to a regular file or a new name", where=text)
        for guarded in protect:
            try:
                same = os.path.samefile(guarded, target)
            except OSError:
                same = False
            if same:
                raise InputError(
                    f"refusing to overwrite the input file {os.fspath(guarded)} (inputs are never written over, even with --force); choose another output",
                    where=text,
                )
        if not overwrite:
            raise InputError("already exists; use --force to replace it", where=text)
    folder = target.parent
    if not folder.is_dir():
        raise InputError("the output folder does not exist", where=str(folder))
    _probe_folder(folder, where=text)
    return target


def _probe_folder(folder: Path, *, where: str) -> None:
    """Create and remove a file in ``folder``: the real answer (read-only, permission, quota), also for root."""
    try:
        handle, probe = tempfile.mkstemp(prefix=f".probe{_TEMP_MARK}{os.getpid()}-", suffix=".tmp", dir=folder)
    except OSError as error:
        raise InputError(f"cannot write in {folder}: {_os_error_text(error)}", where=where) from None
    os.close(handle)
    os.unlink(probe)


#: Earlier versions named a temporary file ``.<target name>.<8 random characters>.tmp``, without a pid.
_OLD_TEMP_NAME = re.compile(r"^\.(?P<target>.+)\.[a-z0-9_]{8}\.tmp$")
_OLD_TEMP_AGE_SECONDS = 600
#: Where no process can be asked whether it runs (Windows), a day-old temporary file is taken as left behind.
_WINDOWS_TEMP_AGE_SECONDS = 86400


def _older_than(path: Path, seconds: float, now: float) -> bool:
    try:
        return now - os.lstat(path).st_mtime > seconds
    except OSError:
        return False


def remove_stale_temporaries(folder: Path, target_name: str | None = None) -> list[Path]:
    """Remove this program's temporary files in ``folder`` whose writer is no longer running.

    A run killed mid-write (SIGKILL, power loss) leaves its temporary file; the
    next run that writes beside it removes it. Leftovers of earlier versions
    (no pid in the name) are removed for the file being written, once they are
    ten minutes old, and so are their ``.kremlin-save-*`` savegame folders.
    """
    removed = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    now = time.time()
    for name in names:
        if _OLD_SCRATCH_NAME.match(name) and _old_scratch(folder / name, now):
            shutil.rmtree(folder / name, ignore_errors=True)
            removed.append(folder / name)
            continue
        match = _TEMP_NAME.match(name)
        if match is not None:
            stale = not _alive(int(match.group("pid"))) or (os.name == "nt" and _older_than(folder / name, _WINDOWS_TEMP_AGE_SECONDS, now))
        else:
            old = _OLD_TEMP_NAME.match(name)
            stale = old is not None and old.group("target") == target_name
        if not stale:
            continue
        leftover = folder / name
        try:
            info = os.lstat(leftover)
            if stat.S_ISREG(info.st_mode) and (match is not None or now - info.st_mtime > _OLD_TEMP_AGE_SECONDS):
                os.unlink(leftover)
                removed.append(leftover)
        except OSError:
            pass
    return removed


#: A run's scratch folder in the system's temporary folder: ``kremlin-<what>-<pid>-<random>``.
_SCRATCH_NAME = re.compile(r"^kremlin-[a-z]+-(?P<pid>\d+)-[A-Za-z0-9_]+$")
#: Earlier versions kept a savegame being checked in ``.kremlin-save-<random>`` beside the output.
_OLD_SCRATCH_NAME = re.compile(r"^\.kremlin-save-[a-z0-9_]{8}$")


@contextlib.contextmanager
def scratch_folder(what: str) -> Iterator[Path]:
    """A private folder for a run's intermediate files (a savegame before it is checked), never among the user's.

    It is removed when the run ends; one that a kill -9 left behind is removed by the next run that makes one.
    """
    base = Path(tempfile.gettempdir())
    remove_stale_scratch(base)
    try:
        folder = Path(tempfile.mkdtemp(prefix=f"kremlin-{what}-{os.getpid()}-", dir=base))
    except OSError as error:
        raise InputError(
            f"cannot make a scratch folder in the system's temporary folder: {_os_error_text(error)} (TMPDIR names another)", where=str(base)
        ) from None
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def remove_stale_scratch(base: Path) -> list[Path]:
    """Remove the scratch folders in ``base`` of runs no longer running (ours only: not links, not another user's)."""
    removed = []
    try:
        names = os.listdir(base)
    except OSError:
        return removed
    now = time.time()
    for name in names:
        match = _SCRATCH_NAME.match(name)
        if match is None:
            continue
        folder = base / name
        if _alive(int(match.group("pid"))) and not (os.name == "nt" and _older_than(folder, _WINDOWS_TEMP_AGE_SECONDS, now)):
            continue
        if _own_folder(folder):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def _own_folder(folder: Path) -> bool:
    try:
        info = os.lstat(folder)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and (not hasattr(os, "getuid") or info.st_uid == os.getuid())


def _old_scratch(folder: Path, now: float) -> bool:
    """An earlier version's savegame scratch folder beside an output, left by a kill: only regular files, ten minutes old."""
    if not _own_folder(folder) or not _older_than(folder, _OLD_TEMP_AGE_SECONDS, now):
        return False
    try:
        return all(stat.S_ISREG(os.lstat(folder / name).st_mode) for name in os.listdir(folder))
    except OSError:
        return False


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    if os.name == "nt":
        # os.kill on Windows terminates the process whatever the signal: never used to ask.
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def _new_file_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_atomically(
    path: str | os.PathLike[str],
    data: bytes,
    *,
    overwrite: bool = False,
    protect: Iterable[str | os.PathLike[str]] = (),
) -> Path:
    """Write ``data`` to ``path`` whole or not at all; returns the file written.

    See :func:`check_output` for what is refused. The data goes to a temporary
    file beside the target (fsynced, with the replaced file's permissions or
    the umask's for a new file) that is renamed over the target; without
    ``overwrite`` a hard link makes the final step fail if the target appeared
    meanwhile. Any failure, including an interrupt (SIGINT, or SIGTERM turned
    into one by the CLI), removes the temporary file and leaves the target as
    it was. Write errors (disk full, read-only file system, permission denied,
    name too long) are ``InputError``s naming the file.
    """
    text = _describe_path(path)
    target = check_output(path, overwrite=overwrite, protect=protect)
    remove_stale_temporaries(target.parent, target.name)
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = _new_file_mode()
    except OSError as error:
        raise InputError(f"cannot write: {_os_error_text(error)}", where=text) from None
    temporary: str | None = None
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}{_TEMP_MARK}{os.getpid()}-", suffix=".tmp", dir=target.parent)
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            if hasattr(os, "fchmod"):
                os.fchmod(stream.fileno(), mode)
            os.fsync(stream.fileno())
        if not hasattr(os, "fchmod"):  # Windows before Python 3.13
            os.chmod(temporary, mode)
        if overwrite:
            replace(temporary, target)
        else:
            try:
                os.link(temporary, target)
            except FileExistsError:
                raise InputError("already exists; use --force to replace it", where=text) from None
            except OSError:
                # A file system without hard links (FAT, some network shares; errors vary by system):
                # check, then rename (a narrow race, never a partial file).
                if os.path.lexists(target):
                    raise InputError("already exists; use --force to replace it", where=text) from None
                replace(temporary, target)
        _sync_folder(target.parent)
    except OSError as error:
        raise InputError(f"cannot write: {_os_error_text(error)}", where=text) from None
    finally:
        if temporary is not None and os.path.lexists(temporary):
            try:
                os.unlink(temporary)
            except OSError:
                pass
    return target


class Outputs:
    """The outputs of one command, written all or none: see :func:`all_or_none`."""

    def __init__(self) -> None:
        self._written: list[tuple[Path, Path | None]] = []  # each file written, and the backup of the file it replaced

    def write(self, path: str | os.PathLike[str], data: bytes, *, overwrite: bool = False, protect: Iterable[str | os.PathLike[str]] = ()) -> Path:
        """:func:`write_atomically`, undone if the command fails later; never twice to one file."""
        protect = tuple(protect)
        target = check_output(path, overwrite=overwrite, protect=protect)
        for earlier, _ in self._written:
            if os.path.normcase(earlier) == os.path.normcase(target):
                raise InputError(f"is already an output of this command ({earlier}); name each output once", where=_describe_path(path))
        backup = _backup(target) if os.path.lexists(target) else None
        try:
            written = write_atomically(path, data, overwrite=overwrite, protect=protect)
        except BaseException:
            _discard(backup)
            raise
        self._written.append((written, backup))
        return written

    def undo(self) -> None:
        """Put back what was there: a replaced file's old content, no file where there was none."""
        for target, backup in reversed(self._written):
            with contextlib.suppress(OSError):
                if backup is not None:
                    replace(backup, target)
                else:
                    os.unlink(target)
        self._written.clear()

    def keep(self) -> None:
        for _, backup in self._written:
            _discard(backup)
        self._written.clear()


@contextlib.contextmanager
def all_or_none() -> Iterator[Outputs]:
    """Write a command's outputs through the :class:`Outputs` given: if the block fails (an error, a refused
    savegame, an interrupt), every file it wrote is put back as it was. A replaced file is kept as a hard link
    (else a copy) named like a temporary file, so a kill -9 leaves nothing the next run does not remove."""
    outputs = Outputs()
    try:
        yield outputs
    except BaseException:
        outputs.undo()
        raise
    outputs.keep()


def _backup(target: Path) -> Path:
    handle, name = tempfile.mkstemp(prefix=f".{target.name}{_TEMP_MARK}{os.getpid()}-", suffix=".tmp", dir=target.parent)
    os.close(handle)
    backup = Path(name)
    try:
        os.unlink(backup)
        try:
            os.link(target, backup)
        except OSError:  # no hard links here (FAT, some shares): a copy, permissions included
            shutil.copy2(target, backup)
    except OSError as error:
        _discard(backup)
        raise InputError(f"cannot keep the old file while writing the new one: {_os_error_text(error)}", where=str(target)) from None
    return backup


def _discard(path: Path | None) -> None:
    if path is not None:
        with contextlib.suppress(OSError):
            os.unlink(path)


def replace(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
    """``os.replace``, tried again a few times over about three seconds while Windows reports a sharing violation."""
    for delay in REPLACE_RETRY_SECONDS:
        try:
            os.replace(source, target)
            return
        except PermissionError:
            time.sleep(delay)
    os.replace(source, target)


def remove(path: str | os.PathLike[str]) -> bool:
    """Remove a file this program wrote; whether it was there. Tried again while Windows reports a sharing
    violation (as :func:`replace`); a file that cannot be removed is an ``InputError`` naming it."""
    for delay in (*REPLACE_RETRY_SECONDS, None):
        try:
            os.unlink(path)
            return True
        except FileNotFoundError:
            return False
        except PermissionError:
            if delay is None:
                raise InputError("cannot remove: permission denied (is it open in another program?)", where=os.fspath(path)) from None
            time.sleep(delay)
        except OSError as error:
            raise InputError(f"cannot remove: {_os_error_text(error)}", where=os.fspath(path)) from None
    return False  # not reached: the last try returns or raises


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (best effort: not every system can open a folder)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY | BINARY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)

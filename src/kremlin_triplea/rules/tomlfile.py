"""Reading TOML data files with errors that name the file, the key and what was expected.

A draft's errors speak as players count (``pick 1, place 2: count``, not
``pick[0].place[1].count``) and give the line of the file the key is on
(``draft.toml:12``). Python's TOML reader keeps no positions, so ``KeyLines``
finds them with a small scanner of its own.
"""

from __future__ import annotations

import bisect
import functools
import re
import sys
from collections.abc import Callable, Hashable, Iterable
from pathlib import Path
from typing import Any, Generic, TypeVar

from kremlin_triplea.errors import KremlinError
from kremlin_triplea.gamefile.kept import Kept
from kremlin_triplea.gamefile.safe import read_text

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

T = TypeVar("T")


class DataFileError(KremlinError):
    """A ruleset, map profile or draft whose content is not what it must be."""


#: A draft, ruleset or profile is a few kilobytes; 4 MiB refuses only what cannot be one.
MAX_TOML_BYTES = 4 * 1024 * 1024


def read_toml_text(path: Path) -> str:
    """The file's text; a missing, special (FIFO, device), non-UTF-8 or oversized file is an ``InputError``."""
    return read_text(Path(path), max_bytes=MAX_TOML_BYTES, what="TOML file")


def read_toml(path: Path, text: str | None = None) -> dict[str, Any]:
    """The file's data (``text``: the file's text, already read); a missing, special (FIFO, device), non-UTF-8 or
    too deeply nested file is an ``InputError``."""
    text = read_toml_text(path) if text is None else text
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise DataFileError(f"not valid TOML: {error}", where=str(path)) from None
    except RecursionError:
        raise DataFileError("not valid TOML: arrays or tables nested too deeply", where=str(path)) from None


class ReadOnce(Generic[T]):
    """Frozen values read from data files, each kept for the exact text it was read from.

    Every command, and the draft room on every request, reads the same rulesets and map profiles several times
    (a draft, its ruleset, the profile apply finds, the matrix's every game); parsing TOML in pure Python is most
    of that. The file is still read each time (its text is the key), so an edited file is read again, and a file
    that is not readable is refused as before; only the parsing of a text already read is skipped. ``read`` must
    return a value nobody changes (attrs frozen), from the path, the text and ``extra`` (what else it is read
    with, part of the key); ``also`` names texts the value depends on besides the file's own
    (a profile's base), part of the key too.
    """

    def __init__(self, read: Callable[..., T], also: Callable[[Path, str], tuple[str, ...]] = lambda path, text: (), size: int = 64) -> None:
        self._read = read
        self._also = also
        self._values: Kept[T] = Kept(size)

    def __call__(self, path: Path | str, *extra: Hashable) -> T:
        path = Path(path)
        text = read_toml_text(path)
        also = self._also(path, text)
        # The texts ``also`` read are handed on (``also=``, when there are any), not read a second time.
        more = {"also": also} if also else {}
        return self._values.get((str(path), text, also, extra), lambda: self._read(path, text, *extra, **more))


_BARE_VALUE = re.compile(r"[^,\]}\n#]*")
Part = str | int  # a key, or an index into an array
Parts = tuple[Part, ...]


class KeyLines:
    """The line each key (and each table of an array) of a TOML text starts on.

    Records headers (``[a.b]``, ``[[pick]]``), ``key = value`` lines, and the
    keys and array items inside inline tables and arrays, which may span lines.
    Strings and comments are skipped. It reads valid TOML only (the file has
    been parsed already), and anything it does not follow just goes unrecorded.
    """

    _KEY = re.compile(r'\s*((?:[A-Za-z0-9_-]+|"[^"\n]*"|\'[^\'\n]*\')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"\n]*"|\'[^\'\n]*\'))*)\s*=')
    _HEADER = re.compile(r"\s*(\[\[?)\s*([^\]]+?)\s*\]\]?")

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines: dict[Parts, int] = {}
        self._arrays: dict[Parts, int] = {}  # array of tables -> items seen so far
        # Where each line ends: a key's line is found by bisection, not by counting the newlines before it again for
        # every key (a ruleset has thousands of keys; counting made the scan quadratic in the file's length).
        self._line_ends = [m.start() for m in re.finditer("\n", text)]
        self._scan()

    @classmethod
    def of_text(cls, text: str) -> KeyLines:
        """The lines of ``text`` (a file's, as it was read and parsed), scanned only when an error first asks for one.

        Rulesets and profiles are read by every command, and their lines matter only for a mistake in them. The
        text is the one parsed, never the file read again: one read, and the lines of what was read.
        """
        return _KeyLinesOfText(text)

    def line(self, parts: Parts) -> int | None:
        """The line of ``parts``, else of the nearest enclosing key recorded, else None."""
        for end in range(len(parts), 0, -1):
            if parts[:end] in self.lines:
                return self.lines[parts[:end]]
        return None

    @staticmethod
    def _split_key(key: str) -> Parts:
        return tuple(part.strip().strip("\"'") for part in re.findall(r'"[^"]*"|\'[^\']*\'|[^.]+', key))

    def _line_at(self, position: int) -> int:
        return bisect.bisect_left(self._line_ends, position) + 1  # the newlines before ``position``, plus one

    def _scan(self) -> None:
        text, position, table = self.text, 0, ()
        while position < len(text):
            position = self._skip_blank(position)
            if position >= len(text):
                break
            header = self._HEADER.match(text, position) if text[position] == "[" else None
            if header is not None:
                table = self._split_key(header.group(2))
                if header.group(1) == "[[":
                    index = self._arrays.get(table, 0)
                    self._arrays[table] = index + 1
                    table = (*table, index)
                self.lines.setdefault(table, self._line_at(position))
                position = header.end()
                continue
            key = self._KEY.match(text, position)
            if key is None:  # not something this scanner follows: go to the next line
                position = text.find("\n", position) + 1 or len(text)
                continue
            parts = (*table, *self._split_key(key.group(1)))
            self.lines.setdefault(parts, self._line_at(position))
            position = self._value(key.end(), parts)

    def _skip_blank(self, position: int) -> int:
        """Past spaces, newlines, commas and comments."""
        text = self.text
        while position < len(text):
            if text[position] in " \t\r\n,":
                position += 1
            elif text[position] == "#":
                position = text.find("\n", position) + 1 or len(text)
            else:
                break
        return position

    def _value(self, position: int, parts: Parts) -> int:
        """Past the value starting at ``position``, recording what an inline table or array holds."""
        text = self.text
        position = self._skip_blank(position)
        if position >= len(text):
            return position
        opening = text[position]
        if opening == "{":
            position += 1
            while True:
                position = self._skip_blank(position)
                if position >= len(text) or text[position] == "}":
                    return position + 1
                key = self._KEY.match(text, position)
                if key is None:
                    return len(text)
                inner = (*parts, *self._split_key(key.group(1)))
                self.lines.setdefault(inner, self._line_at(position))
                position = self._value(key.end(), inner)
        if opening == "[":
            position, index = position + 1, 0
            while True:
                position = self._skip_blank(position)
                if position >= len(text) or text[position] == "]":
                    return position + 1
                self.lines.setdefault((*parts, index), self._line_at(position))
                position = self._value(position, (*parts, index))
                index += 1
        for quote in ('"""', "'''", '"', "'"):
            if text.startswith(quote, position):
                end = position + len(quote)
                while True:
                    end = text.find(quote, end)
                    if end == -1:
                        return len(text)
                    if quote[0] == "'" or not self._escaped(end):
                        return end + len(quote)
                    end += 1
        match = _BARE_VALUE.match(text, position)  # a number, date, true or false
        return match.end() if match and match.end() > position else position + 1  # always forward

    def _escaped(self, position: int) -> bool:
        backslashes = 0
        while position - backslashes - 1 >= 0 and self.text[position - backslashes - 1] == "\\":
            backslashes += 1
        return backslashes % 2 == 1


class _KeyLinesOfText(KeyLines):
    def __init__(self, text: str) -> None:  # scanned on first use: see line()
        self.text = text
        self.scanned = False

    def line(self, parts: Parts) -> int | None:
        if not self.scanned:
            self.scanned = True
            self.lines = _lines_of_text(self.text)
        return super().line(parts)


@functools.lru_cache(maxsize=32)
def _lines_of_text(text: str) -> dict[Parts, int]:
    """The key lines of a text, scanned once: each command that meets a mistake in the same file (``options`` and
    then ``apply`` on a user's ruleset, every request of the room) would scan it again. Read, never changed."""
    return KeyLines(text).lines


class Section:
    """One table of a data file, remembering its key path for error messages.

    ``counted`` sections (a draft's) number the tables of an array as players
    do, from 1 (``pick 1, place 2``); ``lines`` gives the file line of a key.
    """

    def __init__(self, data: Any, file: str, key: str = "", *, parts: Parts = (), counted: bool = False, lines: KeyLines | None = None) -> None:
        self.file = file
        self.parts = parts
        self.counted = counted
        self.lines = lines
        if not isinstance(data, dict):
            raise DataFileError(f"{key or 'the file'}: expected a table, got {_describe(data)}", where=self.where)
        self.data = data
        self.key = key

    @classmethod
    def read(cls, path: Path, *, counted: bool = False) -> Section:
        """The file's top table, with each key's line known for error messages."""
        text = read_toml_text(path)
        return cls(read_toml(path, text), str(path), counted=counted, lines=KeyLines.of_text(text))

    @property
    def where(self) -> str:
        """The file, and the line this table starts on when known (``draft.toml:12``)."""
        return self._where(self.parts)

    def where_of(self, name: str | int) -> str:
        """The file, and the line key ``name`` of this table is on when known (``draft.toml:14``)."""
        return self._where((*self.parts, name))

    def locate(self, name: str | int) -> str:
        """Where key ``name`` of this table is, as errors name it (``draft.toml:14: game``, ``draft.toml:40: pick 3, option``)."""
        return f"{self.where_of(name)}: {self._path(name)}"

    def _where(self, parts: Parts) -> str:
        line = self.lines.line(parts) if self.lines is not None else None
        return self.file if line is None else f"{self.file}:{line}"

    def _path(self, name: str | int) -> str:
        if self.counted:
            if isinstance(name, int):
                return f"{self.key} {name + 1}"
            return f"{self.key}, {name}" if self.key else name
        if isinstance(name, int):
            return f"{self.key}[{name}]"
        return f"{self.key}.{name}" if self.key else name

    def _child(self, data: Any, name: str | int, parts: Parts) -> Section:
        return Section(data, self.file, self._path(name), parts=parts, counted=self.counted, lines=self.lines)

    def fail(self, name: str | int, expected: str, got: Any = None) -> DataFileError:
        detail = f", got {_describe(got)}" if got is not None else ""
        return DataFileError(f"{self._path(name)}: expected {expected}{detail}", where=self._where((*self.parts, name)))

    def has(self, name: str) -> bool:
        return name in self.data

    def get(self, name: str, expected: str, check: Callable[[Any], bool], default: Any = ...) -> Any:
        if name not in self.data:
            if default is ...:
                raise DataFileError(f"{self._path(name)}: missing; expected {expected}", where=self.where)
            return default
        value = self.data[name]
        if not check(value):
            raise self.fail(name, expected, value)
        return value

    def choice(self, name: str, allowed: Iterable[str], expected: str | None = None, default: Any = ...) -> str:
        """A text that is one of ``allowed`` (a table or a list written there is refused like any other wrong value)."""
        allowed = tuple(allowed)
        return self.get(name, expected or f"one of {', '.join(allowed)}", lambda v: isinstance(v, str) and v in allowed, default)

    def text(self, name: str, default: Any = ...) -> str:
        return self.get(name, "a text", lambda v: isinstance(v, str) and v.strip() != "", default)

    def integer(self, name: str, default: Any = ...) -> int:
        value = self.get(name, "a whole number", lambda v: isinstance(v, int) and not isinstance(v, bool), default)
        if isinstance(value, int) and not -(2**31) <= value < 2**31:
            # Counts, bids and PUs end up in the game, which TripleA reads as Java ints.
            raise self.fail(name, f"a whole number within TripleA's limits ({-(2**31):,} to {2**31 - 1:,})", value)
        return value

    def boolean(self, name: str, default: Any = ...) -> bool:
        return self.get(name, "true or false", lambda v: isinstance(v, bool), default)

    def texts(self, name: str, default: Any = ...) -> list[str]:
        return self.get(name, "a list of texts", lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v), default)

    def table(self, name: str, default: Any = ...) -> Section:
        value = self.get(name, "a table", lambda v: isinstance(v, dict), default)
        return value if isinstance(value, Section) or value is None else self._child(value, name, (*self.parts, name))

    def tables(self, name: str, default: Any = ...) -> list[Section]:
        value = self.get(name, "a list of tables", lambda v: isinstance(v, list) and all(isinstance(x, dict) for x in v), default)
        array = self._child({}, name, (*self.parts, name))
        return [array._child(item, i, (*self.parts, name, i)) for i, item in enumerate(value)]

    def counts(self, name: str, default: Any = ...) -> dict[str, int]:
        """A table of name = positive whole number."""
        return self.get(
            name,
            "a table of unit = positive whole number",
            lambda v: isinstance(v, dict) and all(isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in v.values()),
            default,
        )

    def only(self, *allowed: str) -> None:
        """Reject keys this table does not know (a typo must not be ignored silently)."""
        for name in self.data:
            if name not in allowed:
                raise DataFileError(f"{self._path(name)}: unknown key; expected one of {', '.join(allowed)}", where=self._where((*self.parts, name)))


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, list):
        odd = next((item for item in value if not isinstance(item, str)), None)  # what makes a list of texts wrong
        return f"a list holding {_describe(odd)}" if odd is not None else "a list"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__

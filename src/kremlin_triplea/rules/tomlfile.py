"""Reading TOML data files with errors that name the file, the key and what was expected."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from kremlin_triplea.errors import KremlinError
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


def read_toml(path: Path) -> dict[str, Any]:
    """The file's data; a missing, special (FIFO, device), non-UTF-8 or too deeply nested file is an ``InputError``."""
    text = read_text(Path(path), max_bytes=MAX_TOML_BYTES, what="TOML file")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise DataFileError(f"not valid TOML: {error}", where=str(path)) from None
    except RecursionError:
        raise DataFileError("not valid TOML: arrays or tables nested too deeply", where=str(path)) from None


class Section:
    """One table of a data file, remembering its key path for error messages."""

    def __init__(self, data: Any, file: str, key: str = "") -> None:
        if not isinstance(data, dict):
            raise DataFileError(f"{key or 'the file'}: expected a table, got {_describe(data)}", where=file)
        self.data = data
        self.file = file
        self.key = key

    def _path(self, name: str | int) -> str:
        if isinstance(name, int):
            return f"{self.key}[{name}]"
        return f"{self.key}.{name}" if self.key else name

    def fail(self, name: str | int, expected: str, got: Any = None) -> DataFileError:
        detail = f", got {_describe(got)}" if got is not None else ""
        return DataFileError(f"{self._path(name)}: expected {expected}{detail}", where=self.file)

    def has(self, name: str) -> bool:
        return name in self.data

    def get(self, name: str, expected: str, check: Callable[[Any], bool], default: Any = ...) -> Any:
        if name not in self.data:
            if default is ...:
                raise DataFileError(f"{self._path(name)}: missing; expected {expected}", where=self.file)
            return default
        value = self.data[name]
        if not check(value):
            raise self.fail(name, expected, value)
        return value

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
        return value if isinstance(value, Section) or value is None else Section(value, self.file, self._path(name))

    def tables(self, name: str, default: Any = ...) -> list[Section]:
        value = self.get(name, "a list of tables", lambda v: isinstance(v, list) and all(isinstance(x, dict) for x in v), default)
        return [Section(item, self.file, self._path(name) + f"[{i}]") for i, item in enumerate(value)]

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
                raise DataFileError(f"{self._path(name)}: unknown key; expected one of {', '.join(allowed)}", where=self.file)


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__

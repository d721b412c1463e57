"""The engine in the tests: comparing its reading with our board, and its readings shared by the whole test session."""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
from collections.abc import Iterable
from pathlib import Path

import attrs
from filelock import FileLock

from kremlin_triplea.engine import EngineReading, find_engine, read_with_engine
from kremlin_triplea.engine.compare import disagreements


def position_disagreements(board, reading) -> dict:
    """Places where the engine's reading and our board differ in owner or units: (ours, engine's)."""
    return {d.key[1]: (d.ours, d.theirs) for d in disagreements(board, reading, properties=False) if d.key[0] == "place"}


class SharedReadings:
    """TripleA 1.9's readings (:func:`read_with_engine`), each made once for the whole test session.

    A reading is a pure function of the file (its path and bytes), the engine and the options (``rules``), so a test
    may have the reading another test asked for: the key is all of them, the bytes by their hash, so a file written
    anew is read anew. pytest-xdist gives each worker its own session, so the readings are kept as files in a
    folder every worker shares (the xdist base temporary folder), one lock per reading: two workers asking for the
    same game wait for one JVM instead of starting two. Games not yet read are read together in one JVM."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self._kept: dict[str, EngineReading] = {}
        jar = find_engine().jar.resolve()
        stat = jar.stat()
        self._engine = f"{jar}|{stat.st_size}|{stat.st_mtime_ns}"

    def read(self, paths: Iterable[str | os.PathLike[str]], *, rules: bool = True) -> list[EngineReading]:
        """The readings of ``paths`` in their order, as ``read_with_engine(paths, rules=rules)`` gives them."""
        given = [Path(p) for p in paths]
        keys = [self._key(path, rules) for path in given]
        missing = {key: path for key, path in zip(keys, given) if key not in self._kept}
        if missing:
            with contextlib.ExitStack() as held:
                # Locks taken in one order by every worker: two workers each waiting for the other's is impossible.
                for key in sorted(missing):
                    held.enter_context(FileLock(self.folder / f"{key}.lock"))
                for key in list(missing):
                    stored = self.folder / f"{key}.pickle"
                    if stored.exists():
                        self._kept[key] = pickle.loads(stored.read_bytes())
                        del missing[key]
                for key, reading in zip(missing, read_with_engine(list(missing.values()), rules=rules)):
                    self._store(key, reading)
        return [attrs.evolve(self._kept[key], file=path) for key, path in zip(keys, given)]

    def _key(self, path: Path, rules: bool) -> str:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        return hashlib.sha256(f"{path.resolve()}|{digest}|{self._engine}|rules={rules}".encode()).hexdigest()

    def _store(self, key: str, reading: EngineReading) -> None:
        self._kept[key] = reading
        partial = self.folder / f"{key}.pickle.{os.getpid()}"
        partial.write_bytes(pickle.dumps(reading))
        partial.replace(self.folder / f"{key}.pickle")

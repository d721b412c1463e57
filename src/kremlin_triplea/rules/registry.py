"""One shape for every extension point: a ``Registry`` of named entries (issue 30).

The option kinds (draft/kinds: ``KINDS``, an ``OptionKind`` per ruleset ``kind``), the change kinds a game rule may
write (rules/game_rules.py: ``CHANGE_KINDS``, the keys each takes) and the actions that write them
(gamerules/context.py: ``CHANGE_ACTIONS``, from gamerules/actions.py and gamerules/house_actions.py) are each one
registry: entries added by name (``add``, or the ``register`` decorator beside the entry's code), found by name with
the close names offered when one is unknown, and listed in the order they were added (the order the modules define
them, so every listing is the same from run to run).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

from kremlin_triplea.errors import close_matches

T = TypeVar("T")


class UnknownEntry(KeyError):
    """A name no entry of the registry has; its message offers the close names."""

    def __str__(self) -> str:  # KeyError would print the message quoted
        return str(self.args[0])


class Registry(Generic[T]):
    """The entries of one extension point, by name, in the order they were added."""

    def __init__(self, what: str) -> None:
        self.what = what  # what an entry is, for messages ("option kind")
        self._entries: dict[str, T] = {}

    def add(self, name: str, entry: T) -> T:
        """Add ``entry`` as ``name`` (a name is added once: two entries of one name would hide one of them)."""
        if name in self._entries:
            raise ValueError(f"{self.what} {name!r} registered twice")
        self._entries[name] = entry
        return entry

    def register(self, name: str) -> Callable[[T], T]:
        """Decorator: the function or class below is the entry ``name``."""
        return lambda entry: self.add(name, entry)

    def remove(self, name: str) -> None:
        """Forget ``name`` (a test's own entry, once the test is done)."""
        del self._entries[self.known(name)]

    def known(self, name: str) -> str:
        """``name`` if an entry has it; else ``UnknownEntry`` saying so, with the close names."""
        if name not in self._entries:
            close = close_matches(name, self._entries, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else f" (known: {', '.join(self._entries) or 'none'})"
            raise UnknownEntry(f"unknown {self.what} {name!r}{hint}")
        return name

    def __getitem__(self, name: str) -> T:
        return self._entries[self.known(name)]

    def get(self, name: str, default: T | None = None) -> T | None:
        return self._entries.get(name, default)

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._entries))

    def __len__(self) -> int:
        return len(self._entries)

    def names(self) -> list[str]:
        return list(self._entries)

    def values(self) -> list[T]:
        return list(self._entries.values())

    def items(self) -> list[tuple[str, T]]:
        return list(self._entries.items())

    def __repr__(self) -> str:
        return f"Registry({self.what!r}: {', '.join(self._entries)})"

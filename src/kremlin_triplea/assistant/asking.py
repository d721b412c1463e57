"""What the terminal draft's questions are made of: the choices an answer may name, the terminal, and the players' commands.

:class:`~kremlin_triplea.assistant.session.Conversation` asks through these; they know nothing of drafts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import attrs

from kremlin_triplea.errors import KremlinError, close_matches

COMMANDS = ("undo", "back", "values", "locks", "board", "help", "?", "quit")


@attrs.frozen(eq=False)  # values may be unhashable (a Counter of units): compare by identity
class Choice:
    """One answer a question accepts: typed as any of ``names`` (any case)."""

    value: Any
    names: tuple[str, ...]
    label: str = ""

    @property
    def shown(self) -> str:
        return self.label or self.names[0]


class Terminal(Protocol):
    def say(self, text: str = "") -> None: ...

    def ask(self, question: str, words: Sequence[str], default: str | None = None) -> str:
        """One line from the players; ``words`` are offered for completion. EOFError/KeyboardInterrupt end the session."""
        ...


class UndoRequested(Exception):
    """The players typed ``undo`` before answering anything of this pick: take back the last pick."""


class CancelRequested(Exception):
    """The players typed ``undo`` in the middle of a pick (or the bid): drop its answers, ask it from the start."""


class BackRequested(Exception):
    """The players typed ``back``: ask the pick's (or the bid's) previous question again."""


class Replaying:
    """The players' terminal, answering the first questions from ``answers`` silently (``back``)."""

    def __init__(self, terminal: Terminal, answers: Sequence[str]) -> None:
        self.terminal = terminal
        self.answers = list(answers)

    def say(self, text: str = "") -> None:
        if not self.answers:
            self.terminal.say(text)

    def ask(self, question: str, words: Sequence[str], default: str | None = None) -> str:
        if self.answers:
            return self.answers.pop(0)
        return self.terminal.ask(question, words, default)


class QuitRequested(Exception):
    pass


def match_choice(answer: str, choices: Sequence[Choice]) -> tuple[Choice | None, str]:
    """The choice ``answer`` names: exactly, else the only one it starts or is part of. Else why not."""
    text = answer.strip().casefold()
    if not text:
        return None, "type one of the choices (Tab completes, 'help' lists them)"
    for test in (lambda n: n == text, lambda n: n.startswith(text), lambda n: text in n):
        found = list(dict.fromkeys(c for c in choices if any(test(n.casefold()) for n in c.names)))
        if len(found) == 1:
            return found[0], ""
        if len(found) > 1:
            listed = ", ".join(c.names[0] for c in found[:8]) + (", ..." if len(found) > 8 else "")
            return None, f"{answer.strip()!r} could be {listed}: type more of the name"
    close = close_matches(answer.strip(), [n for c in choices for n in c.names])
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else " ('help' lists the choices)"
    return None, f"no choice {answer.strip()!r} here{hint}"


def resolved_choice(answer: str, choices: Sequence[Choice], resolve: Callable[[str], Any]) -> Choice | None:
    """The choice whose value ``resolve`` makes of ``answer`` (a name the draft file accepts), or None."""
    try:
        name = resolve(answer.strip())
    except KremlinError:
        return None
    return next((c for c in choices if c.value == name), None)

"""The players' terminal: prompt_toolkit with completion when it is one, plain lines otherwise."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from kremlin_triplea.errors import close_matches


def _with_default(question: str, default: str | None) -> str:
    if not default:
        return question
    stem = question.rstrip().removesuffix(">").rstrip()
    return f"{stem} [{default}]> "


class PlainTerminal:
    """Lines in, lines out: for pipes and scripts."""

    def say(self, text: str = "") -> None:
        print(text, flush=True)

    def ask(self, question: str, words: Sequence[str], default: str | None = None) -> str:
        print(_with_default(question, default), end="", flush=True)
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n")


class PromptTerminal:
    """prompt_toolkit: Tab completes a choice from any part of its name, or from a close spelling."""

    def __init__(self) -> None:
        from prompt_toolkit import PromptSession

        self.prompt = PromptSession()

    def say(self, text: str = "") -> None:
        print(text, flush=True)

    def ask(self, question: str, words: Sequence[str], default: str | None = None) -> str:
        return self.prompt.prompt(_with_default(question, default), completer=_choice_completer(words), complete_while_typing=False)


def _choice_completer(words: Sequence[str]):
    from prompt_toolkit.completion import Completer, Completion

    class ChoiceCompleter(Completer):
        """Whole-line matches (names have spaces): prefix first, then anywhere in the name, then close spellings."""

        def get_completions(self, document, complete_event):  # noqa: ANN001 - prompt_toolkit's protocol
            typed = document.text_before_cursor
            text = typed.strip().casefold()
            starts = [w for w in words if w.casefold().startswith(text)]
            inside = [w for w in words if text in w.casefold() and w not in starts]
            close = close_matches(typed.strip(), words) if text and not starts and not inside else []
            for word in dict.fromkeys(starts + inside + close):
                yield Completion(word, start_position=-len(typed))

    return ChoiceCompleter()


def terminal_for_stdin():
    if sys.stdin.isatty() and sys.stdout.isatty():
        return PromptTerminal()
    return PlainTerminal()

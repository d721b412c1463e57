"""A ruleset file read with the option kinds the draft knows.

The reader (:func:`kremlin_triplea.rules.ruleset.read_ruleset`) sits below the
draft and does not know the kinds; this is where the registry of
:mod:`kremlin_triplea.draft.kinds` is handed to it. Every command reads
rulesets through here.
"""

from __future__ import annotations

from pathlib import Path

from kremlin_triplea.draft.kinds import params_by_kind
from kremlin_triplea.rules.ruleset import Ruleset, find_data_file, read_ruleset
from kremlin_triplea.rules.tomlfile import ReadOnce


def load_ruleset(path: Path | str) -> Ruleset:
    """The ruleset file at ``path``; a malformed option fails with the file, the key and what was expected.

    Read once per text and set of kinds (a kind registered later, a test's own, reads the file again)."""
    return _read_ruleset(path, tuple(params_by_kind().items()))


_read_ruleset = ReadOnce(lambda path, text, kinds: read_ruleset(path, dict(kinds), text))


def load_named_ruleset(name: str, *, where: str | None = None) -> Ruleset:
    """A ruleset by its id (``kremlin-aa50``), looked up in the data folders (rulesets/ and the built-in ones).

    ``where`` names the file and key that asked for it (``draft.toml:13: ruleset``), for the error when it is unknown.
    """
    return load_ruleset(find_data_file("rulesets", name, where=where))

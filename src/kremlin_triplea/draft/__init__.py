"""A Kremlin draft: picks applied in order to a board, the legal choices for the next pick, the bid.

:mod:`run` reads a host's draft file and checks each step on the board (the session layer, :mod:`kremlin_triplea.session`, drives every draft: a file is opened by pushing its steps); :mod:`kinds` implements each
kind of option once; :mod:`legal` lists every legal choice for the next pick
with the same checks.
"""

from __future__ import annotations

from kremlin_triplea.draft.legal import NextPick, legal_choices
from kremlin_triplea.draft.rulesets import load_named_ruleset, load_ruleset
from kremlin_triplea.draft.run import Draft, DraftResult, DraftRun, read_draft

__all__ = [
    "Draft",
    "DraftResult",
    "DraftRun",
    "NextPick",
    "legal_choices",
    "load_named_ruleset",
    "load_ruleset",
    "read_draft",
]

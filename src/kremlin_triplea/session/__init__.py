"""A draft in progress as one object (python-chess's Board for a Kremlin draft): steps pushed, checked, popped.

Below the terminal draft (assistant), the draft room (web), the matrix (tools) and ``value``/``apply``: each of
them drives a draft through :class:`Session`. Above :mod:`kremlin_triplea.draft`, whose ``DraftRun`` it builds on.
"""

from __future__ import annotations

from kremlin_triplea.draft.run import located
from kremlin_triplea.session.apply import apply_draft
from kremlin_triplea.session.asking import variant_titles
from kremlin_triplea.session.core import Session, open_session
from kremlin_triplea.session.steps import Agreement, Bid, Declaration, HouseRuleChoice, Step

__all__ = ["apply_draft", "Agreement", "Bid", "Declaration", "HouseRuleChoice", "Session", "Step", "located", "open_session", "variant_titles"]

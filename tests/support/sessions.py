"""Drafts of the rules tests driven as every draft is: a :class:`~kremlin_triplea.session.Session`, steps pushed.

``session_for`` opens a draft of no picks yet on a pristine game; ``pick`` pushes the next pick written in the
draft file's words; ``declare`` and ``bid`` end the picks there (:meth:`Session.end_picks`: a few picks examined on
their own) and push the declarations and the bid, in the rules' order of action (000 A).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kremlin_triplea.draft.kinds import Outcome
from kremlin_triplea.draft.run import draft_from_dict
from kremlin_triplea.session import Session
from support.games import fresh_game


def session_for(path: Path, first: str, *, ruleset: str = "kremlin-aa50", picks_per_side: int | None = None) -> Session:
    """A new draft of ``ruleset`` on the game at ``path`` (its board pristine), ``first`` to pick."""
    data: dict[str, Any] = {"ruleset": ruleset, "first": first}
    if picks_per_side is not None:
        data["picks_per_side"] = picks_per_side
    return Session(draft_from_dict(data), fresh_game(path))


def pick(session: Session, side: str, option: int | str, **spec: Any) -> Outcome:
    """Push the next pick, written as a ``[[pick]]`` table is (``place=[...]``, ``take=[...]``, ``takeover={...}``)."""
    outcome = session.push(session.pick_from_toml({"side": side, "option": option, **spec}))
    assert outcome is not None
    return outcome


def declare(session: Session) -> None:
    """End the picks where they are and declare every displaced group as its pick's entry says (000 A "Order of action" 1)."""
    session.end_picks()
    session.declare_all()


def bid(session: Session, **spec: Any) -> Outcome:
    """End the picks, declare the displaced groups, then push the bid (``[bid]``'s keys): 000 A "Order of action" 1, 2."""
    declare(session)
    outcome = session.push(session.bid_from_toml(spec))
    assert outcome is not None
    return outcome


__all__ = ["bid", "declare", "pick", "session_for"]

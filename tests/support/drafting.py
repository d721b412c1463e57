"""Driving the terminal draft (assistant.session.Conversation) with scripted answers, as players type them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kremlin_triplea.assistant.asking import QuitRequested
from kremlin_triplea.assistant.session import Conversation
from kremlin_triplea.draft.kinds.placement import PlacementChoices
from kremlin_triplea.session import Session, open_session
from support.paths import MAPS_DIR

AA50 = "world_war_ii_v3/WW2v3-1941.xml"


class Script:
    """The players: answer each question with the next line of the script; at its end, stop (as Ctrl-D does)."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.said: list[str] = []
        self.asked: list[str] = []

    def say(self, text: str = "") -> None:
        self.said.append(text)

    def ask(self, question: str, words, default=None) -> str:
        self.asked.append(question)
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)

    @property
    def text(self) -> str:
        return "\n".join(self.said)


def draft(
    tmp_path: Path, picks: list[dict[str, Any]], *, ruleset: str = "kremlin-aa50", game: str = AA50, first: str = "Axis", per_side: int = 4, **more: Any
) -> Session:
    data = {"ruleset": ruleset, "game": game, "first": first, "picks_per_side": per_side, "pick": [dict(p) for p in picks], **more}
    session = open_session(tmp_path / "draft.toml", data, MAPS_DIR)
    session.save()  # as `kremlin-triplea draft` does before the first question
    return session


def talk(session, script: Script) -> Conversation:
    conversation = Conversation(session, script)
    with pytest.raises((EOFError, QuitRequested)):
        conversation.run()
    return conversation


def placement_picks(session: Session, count: int) -> None:
    """Make ``count`` picks, each the first legal target of the first placement option the side may take (no takeovers: no retreats)."""
    for _ in range(count):
        next_pick = session.next_pick()
        choices = next(c for c in next_pick.options if c.available and isinstance(c, PlacementChoices))
        if choices.sets:
            entry = choices.sets[0]
            place = [{"power": entry.power, "unit": u, "count": 1, "at": entry.places[0]} for u in entry.units]
        else:
            units = sorted({u.unit for u in choices.units})
            first = {u: next(c for c in choices.units if c.unit == u) for u in units}
            place = [{"power": c.power, "unit": u, "count": 1, "at": c.places[0]} for u, c in first.items()]
        session.push(session.pick_from_toml({"side": next_pick.side, "option": choices.option.number, "place": place}))
        session.save()

"""The bid as a conversation (issue 43): a short message with each proposal and each refusal, a counter-proposal in
one step, and a refused proposal given back to its proposer as they sent it (to change, not to type again).

Kept by the room with the proposal it talks about: the room records what was sent and said in the action that
proposes or answers, and writes it into the room file in the same write as the proposal, so a restarted server
shows the same messages and gives back the same refused form (it lost them until issue 43's leftovers).
"""

from __future__ import annotations

import threading
from typing import Any

#: The form field of the message sent with a bid or an answer, and its longest length (a sentence, not a letter).
MESSAGE_FIELD = "message"
MAX_MESSAGE = 200


def message_of(form: dict[str, str]) -> str:
    """The message, taken out of ``form`` (the room's bid reading never sees it): one line, at most ``MAX_MESSAGE``."""
    return " ".join(form.pop(MESSAGE_FIELD, "").split())[:MAX_MESSAGE]


class BidTalk:
    """What each side last proposed (the form as sent) and said, and what the other side said when it refused."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.sent: dict[str, dict[str, str]] = {}  # side -> its last proposal's form
        self.said: dict[str, str] = {}  # side -> the message with its last proposal or refusal
        self.refused: dict[str, dict[str, str]] = {}  # side -> its proposal the other side refused

    def proposed(self, side: str, form: dict[str, str], message: str) -> None:
        with self._lock:
            self.sent[side] = {k: v for k, v in form.items() if k != "seq"}
            self.said[side] = message
            self.refused.pop(side, None)

    def answered(self, by: str, proposer: str, agreed: bool, message: str) -> None:
        with self._lock:
            self.said[by] = message
            if not agreed and proposer in self.sent:
                self.refused[proposer] = self.sent[proposer]

    def data(self) -> dict[str, Any] | None:
        """What the room file keeps (``[bid_talk]``); None when nothing was said or sent."""
        with self._lock:
            data = {"sent": self.sent, "said": self.said, "refused": self.refused}
            return {key: dict(value) for key, value in data.items() if value} or None

    @classmethod
    def from_data(cls, data: Any, sides: tuple[str, ...]) -> BidTalk:
        """The talk as the room file keeps it: each side's entries of the right shape (an older file, a hand edit: left out)."""
        talk = cls()
        if not isinstance(data, dict):
            return talk

        def forms(value: Any) -> dict[str, dict[str, str]]:
            if not isinstance(value, dict):
                return {}
            return {
                side: dict(form) for side, form in value.items() if side in sides and isinstance(form, dict) and all(isinstance(v, str) for v in form.values())
            }

        talk.sent, talk.refused = forms(data.get("sent")), forms(data.get("refused"))
        said = data.get("said")
        talk.said = {side: text[:MAX_MESSAGE] for side, text in said.items() if side in sides and isinstance(text, str)} if isinstance(said, dict) else {}
        return talk

    def form_for(self, side: str) -> dict[str, str] | None:
        """The proposal of ``side`` the other side refused, as it was sent: its bid form is filled with it."""
        return self.refused.get(side)

    def sent_by(self, side: str) -> dict[str, str] | None:
        return self.sent.get(side)

"""The bid as a conversation (issue 43): a short message with each proposal and each refusal, a counter-proposal in
one step, and a refused proposal given back to its proposer as they sent it (to change, not to type again).

Kept by the running server beside the room (what each side last sent and said); the room file keeps the proposal
itself, so a restart loses only the messages and the refused bid's form, never a bid.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from kremlin_triplea.web.room import Refused

if TYPE_CHECKING:
    from kremlin_triplea.web.room import Room

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

    def form_for(self, side: str) -> dict[str, str] | None:
        """The proposal of ``side`` the other side refused, as it was sent: its bid form is filled with it."""
        return self.refused.get(side)

    def sent_by(self, side: str) -> dict[str, str] | None:
        return self.sent.get(side)


class BidActions:
    """The room's bid actions with their messages: each reads its message out of the form, has the room do the
    action, then records what was sent and said (an action the room refuses records nothing)."""

    def __init__(self, room: Room, talk: BidTalk) -> None:
        self.room = room
        self.talk = talk

    def propose(self, role: str, form: dict[str, str]) -> str:
        message = message_of(form)
        sent = dict(form)
        self.room.bid(role, form)
        self.talk.proposed(role, sent, message)
        return "the bid is entered: the other side agrees or refuses"

    def answer(self, role: str, form: dict[str, str]) -> str:
        message = message_of(form)
        proposal = self.room.bid_proposal
        said = self.room.answer_bid(role, form)
        if proposal is not None:
            self.talk.answered(role, proposal.side, form.get("agree") == "yes", message)
        return said

    def counter(self, role: str, form: dict[str, str]) -> str:
        """The other side's bid refused and this one proposed, in one step (issue 43: a counter-offer)."""
        message = message_of(form)
        self.answer(role, {"seq": form.get("seq", ""), "agree": "no", "message": message})
        try:
            self.propose(role, {**form, "seq": str(self.room.seq), "message": message})
        except Refused as error:
            raise Refused(f"their bid is refused; yours was not proposed: {error}") from None
        return "their bid is refused and yours proposed: the other side agrees or refuses"

"""The room's bid actions as the server routes them: each takes its message out of the form (web/bid_talk.py) and
has the room do the action with it; the counter-proposal is a refusal and a proposal in one step (issue 43)."""

from __future__ import annotations

from kremlin_triplea.web.bid_talk import message_of
from kremlin_triplea.web.room import Refused, Room


class BidActions:
    """The room's bid actions with their messages: each reads its message out of the form and has the room do the
    action with it (the room records what was sent and said; an action it refuses records nothing)."""

    def __init__(self, room: Room) -> None:
        self.room = room

    def propose(self, role: str, form: dict[str, str]) -> str:
        self.room.bid(role, form, message_of(form))
        return "the bid is entered: the other side agrees or refuses"

    def answer(self, role: str, form: dict[str, str]) -> str:
        return self.room.answer_bid(role, form, message_of(form))

    def counter(self, role: str, form: dict[str, str]) -> str:
        """The other side's bid refused and this one proposed, in one step (issue 43: a counter-offer)."""
        message = message_of(form)
        self.answer(role, {"seq": form.get("seq", ""), "agree": "no", "message": message})
        try:
            self.propose(role, {**form, "seq": str(self.room.seq), "message": message})
        except Refused as error:
            raise Refused(f"their bid is refused; yours was not proposed: {error}") from None
        return "their bid is refused and yours proposed: the other side agrees or refuses"

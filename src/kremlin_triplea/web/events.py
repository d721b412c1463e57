"""What happened in the room, newest first, the latest change marked (issue 43): for players and spectators alike.

Told from the room's own state (the picks, the bid agreed or proposed, the declarations, the undo asked, the last
answer), so every page, a spectator's, a reload's or one after a restart, tells the same story.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from kremlin_triplea.report.value import describe_pick

if TYPE_CHECKING:
    from kremlin_triplea.web.room import Room


def bid_text(bid: dict) -> str:
    """A bid in one line of words: "Axis 12 PUs: 1 Germans infantry at Poland, ..."."""
    sides = [f"{side.capitalize()} {amount:+d} PUs" for side, amount in bid.items() if isinstance(amount, int)]
    rows = [
        f"{'remove ' if kind == 'remove' else ''}{r.get('count', 1)} {r['power']} {r['unit']} at {r['at']}"
        for kind in ("place", "remove")
        for r in bid.get(kind, [])
    ]
    shares = [f"{power} receives {share}" for power, share in bid.get("allocate", {}).items()]
    shares += [f"{power} spends {share} in TripleA's bid phase" for power, share in bid.get("phase", {}).items()]
    return ", ".join(sides) + (": " + ", ".join(rows + shares) if rows or shares else "")


def room_events(room: Room) -> list[str]:
    """The room's story so far, oldest first: its last line is the latest change."""
    session = room.session
    told = []
    for value in room.pick_values:
        first, *rest = describe_pick(value)
        told.append(first[0].upper() + first[1:] + (": " + "; ".join(line.strip() for line in rest) if rest else ""))
    if session.bid is not None:
        told.append("The bid is agreed: " + bid_text(session.bid_table) + ".")
    told += [f"Declared: {line.strip()}" for line in session.declaration_lines()]
    proposal = room.bid_proposal
    answer = room.answer
    if answer is not None and answer.to == "bid":
        told.append(f"The {answer.by} {'agreed to' if answer.agreed else 'refused'} the {answer.side}' bid.")
    if proposal is not None:
        told.append(f"The {proposal.side} propose a bid: {bid_text(proposal.bid)}.")
    if answer is not None and answer.to == "undo":
        told.append(f"The {answer.by} {'agreed to undo' if answer.agreed else 'refused to undo'} {answer.what}.")
    if room.undo_request is not None:
        told.append(f"The {room.undo_request.side} ask to take back {room.last_action()}.")
    if room.complete:
        told.append("The draft is complete.")
    return told


def events_block(room: Room) -> str:
    """The latest change, marked (for the eye and for screen readers), then the whole story, newest first."""
    told = room_events(room)
    if not told:
        return "<section id='events'><p id='latest'>Nothing has happened yet: the first pick is next.</p></section>"
    older = "".join(f"<li>{escape(line)}</li>" for line in reversed(told[:-1]))
    return (
        f"<section id='events' aria-live='polite'><p id='latest' class='latest'><b>Latest:</b> {escape(told[-1])}</p>"
        + (f"<details id='history'><summary>What happened before ({len(told) - 1})</summary><ol reversed>{older}</ol></details>" if older else "")
        + "</section>"
    )

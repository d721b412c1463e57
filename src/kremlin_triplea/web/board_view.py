"""The board as the room's page shows it (issue 43): zoom buttons, the panel a tapped place opens, and what the
panel says of each place (owner, value, units, lock), in words players read.

The page's script (static/room.js) zooms and pans the picture and fills a field only when the player taps one of
the offers the panel makes: the fields of the form in hand whose legal choices hold the place.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from kremlin_triplea.web.words import unit_words

if TYPE_CHECKING:
    from kremlin_triplea.web.room import Room


def places_info(room: Room) -> dict[str, dict[str, list[str]]]:
    """Each place's lines for the panel a tap on it opens: owner and value, units, lock."""
    state = room.session.state
    info = {}
    for place, data in state.board.nodes.items():
        owner = data["owner"] or ("nobody (sea zone)" if data["water"] else "neutral")
        lines = [f"Owner: {owner}" + ("" if data["water"] else f"; worth {data['production']} IPCs")]
        units = [f"{n} {o} {unit_words(u)}" for (o, u), n in sorted(data["units"].items(), key=lambda i: (str(i[0][0] or ""), i[0][1])) if n and o is not None]
        lines.append("Units: " + (", ".join(units) if units else "none"))
        locked = state.locks.get(place)
        lines.append(f"Locked by the {locked[0]}' pick {locked[1]}" if locked else "Not locked")
        info[place] = {"lines": lines}
    return info


def board_block(board: str) -> str:
    """The board's part of the page: the zoom buttons, the panel a tapped place opens, and the picture (``board``:
    the address the script fetches it from; kept by the script across live updates, with its zoom)."""
    return (
        "<div id='board'><p class='row zoom'>"
        "<button type='button' data-zoom='out' aria-label='Zoom out'>−</button>"
        "<button type='button' data-zoom='in' aria-label='Zoom in'>+</button>"
        "<button type='button' data-zoom='fit' id='zoom-fit'>Whole map</button> <span id='zoom-level' aria-live='polite'></span>"
        "<small>Tap a territory or sea zone: what is there, and the picks it offers.</small></p>"
        "<section id='place-panel' data-keep aria-live='polite' hidden></section>"
        f"<div class='map' data-keep data-board='{escape(board)}'><p><a href='{escape(board)}'>The board</a> (the page puts it here)</p></div></div>"
    )

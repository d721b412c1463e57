"""The board as the room shows it: ``render``'s picture of the picks so far, inline."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from kremlin_triplea.errors import KremlinError
from kremlin_triplea.report.render import (
    Legend,
    find_map_folder,
    read_map_art,
    render_svg,
)
from kremlin_triplea.report.value import DraftValue

if TYPE_CHECKING:
    from kremlin_triplea.web.room import Room


def board_svg(room: Room) -> str:
    """The board with the picks so far; where the map's pictures are not installed (a game file kept outside its
    map's folder, say), a line saying so: the draft itself needs only the game file."""
    session = room.session
    game = session.game
    values = DraftValue(tuple(session.state.side_powers), room.pick_values, None)
    legend = Legend(f"{game.board.game_name}: {session.ruleset.title}", tuple((s, tuple(lines)) for s, lines in values.by_side()))
    try:
        art = room.map_art or read_map_art(find_map_folder(game.board, game.source, session.maps_dir))
    except KremlinError as error:
        return f"<p class='no-picture'>No picture of the board: {escape(error.message)}. The draft goes on without it.</p>"
    room.map_art = art
    svg = render_svg(game.board, art, game.initial, legend)
    return svg.split("?>", 1)[1] if svg.startswith("<?xml") else svg  # inline: no XML declaration

"""The board as the room shows it: ``render``'s picture of the picks so far, inline."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from kremlin_triplea.errors import KremlinError
from kremlin_triplea.report.render import (
    Legend,
    MapArt,
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
    svg = svg.split("?>", 1)[1] if svg.startswith("<?xml") else svg  # inline: no XML declaration
    return svg.replace('<g id="legend"', names_layer(art, session.state.board.nodes) + '<g id="legend"', 1)


#: The places' names, in the map's units: 11 px and more on the screen once the map is shown at 0.55 of its size and
#: up (the page's script shows the layer from there; a phone starts there, issue 43: "labels about 3 px, no names").
NAME_FONT = 20


def names_layer(art: MapArt, places) -> str:
    """Each place's name at its centre (the map's centers.txt), outlined so it reads on any owner's colour."""
    out = [f'<g id="names" font-size="{NAME_FONT}" text-anchor="middle" fill="#111" stroke="#fff" stroke-width="4" paint-order="stroke">']
    for place in sorted(places):
        if place in art.centers:
            x, y = art.centers[place]
            out.append(f'<text x="{x}" y="{y + NAME_FONT // 3}">{escape(place)}</text>')
    out.append("</g>")
    return "".join(out)

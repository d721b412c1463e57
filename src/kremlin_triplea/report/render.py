"""A picture of a game's setup, drawn from the map folder's own geometry.

TripleA maps describe every territory and sea zone as polygons in pixels
(``polygons.txt``: ``Name  <  (x,y) (x,y) ...  >  <  ...  >``), a point inside
each (``centers.txt``: ``Name  (x,y)``) and the players' colours
(``map.properties``: ``color.<Player>=rrggbb``). The SVG is written by hand
from those: every element in a fixed order, every number an integer, so the
same game gives the same bytes. PNG goes through cairosvg, imported only then.

Territories are filled with their owner's colour; the places a draft changed
(compared with a base game) are outlined and labelled with what changed; a
legend lists the owners' colours and, given a draft's values, its picks by side.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

import attrs

from kremlin_triplea.errors import InputError
from kremlin_triplea.gamefile.safe import write_atomically
from kremlin_triplea.gamefile.locate import default_maps_dir, installed_maps
from kremlin_triplea.model.board import Board
from kremlin_triplea.model.diff import PlaceDifference, board_difference

# For owners the map gives no colour: distinct, readable under black text.
PALETTE = ("#8c6bb1", "#41ae76", "#ef6548", "#4292c6", "#cc4c02", "#807dba", "#66a61e", "#e7298a")
WATER = "#a9cce3"
UNOWNED_LAND = "#e0d2b4"
OUTLINE = "#ff00cc"  # nothing on a TripleA map uses it, so a changed place stands out
UNIT_FONT = 22
LEGEND_FONT = 26


@attrs.frozen
class MapArt:
    """What a map folder says about drawing its board."""

    folder: Path
    polygons: dict[str, tuple[tuple[tuple[int, int], ...], ...]]
    centers: dict[str, tuple[int, int]]
    colors: dict[str, str]  # "color.<key>" of map.properties, as "#rrggbb"
    width: int
    height: int


def read_properties(path: Path) -> dict[str, str]:
    """A Java .properties file's ``key=value`` lines (the last of a repeated key wins, as in Java)."""
    found: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        line = line.strip()
        if not line or line[0] in "#!":
            continue
        match = re.match(r"([^=:\s]+)\s*[=:\s]\s*(.*)$", line)
        if match:
            found[match.group(1)] = match.group(2).strip()
    return found


_POINT = re.compile(r"\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)")


def read_map_art(folder: Path) -> MapArt:
    polygons_file, centers_file = folder / "polygons.txt", folder / "centers.txt"
    for needed in (polygons_file, centers_file):
        if not needed.is_file():
            raise InputError("the map folder has no " + needed.name + " (name the folder holding it with --map-dir)", where=str(folder))
    polygons: dict[str, tuple[tuple[tuple[int, int], ...], ...]] = {}
    for number, line in enumerate(polygons_file.read_text(encoding="utf-8", errors="replace").splitlines(), start=1):
        if not line.strip():
            continue
        name, bracket, rest = line.partition("<")
        if not bracket:
            raise InputError("expected 'Name  <  (x,y) ... >'", where=f"{polygons_file}:{number}")
        shapes = []
        for chunk in ("<" + rest).split("<")[1:]:
            points = tuple((int(x), int(y)) for x, y in _POINT.findall(chunk))
            if len(points) >= 3:
                shapes.append(points)
        polygons[name.strip()] = tuple(shapes)
    centers: dict[str, tuple[int, int]] = {}
    for number, line in enumerate(centers_file.read_text(encoding="utf-8", errors="replace").splitlines(), start=1):
        if not line.strip():
            continue
        match = _POINT.search(line)
        if match is None:
            raise InputError("expected 'Name  (x,y)'", where=f"{centers_file}:{number}")
        centers[line[: match.start()].strip()] = (int(match.group(1)), int(match.group(2)))
    properties_file = folder / "map.properties"
    properties = read_properties(properties_file) if properties_file.is_file() else {}
    colors = {
        key.removeprefix("color."): "#" + value.lower()
        for key, value in properties.items()
        if key.startswith("color.") and re.fullmatch(r"[0-9a-fA-F]{6}", value)
    }
    xs = [x for shapes in polygons.values() for shape in shapes for x, _ in shape] or [0]
    ys = [y for shapes in polygons.values() for shape in shapes for _, y in shape] or [0]
    width = _int_property(properties, "map.width", max(xs) + 1)
    height = _int_property(properties, "map.height", max(ys) + 1)
    return MapArt(folder, polygons, centers, colors, width, height)


def _int_property(properties: dict[str, str], key: str, default: int) -> int:
    try:
        return int(properties[key])
    except (KeyError, ValueError):
        return default


def find_map_folder(board: Board, game_path: Path | str | None = None, maps_dir: Path | str | None = None) -> Path:
    """The folder with the map's polygons: beside the game file if it sits in a map, else by the game's ``mapName``."""
    if game_path is not None:
        games = Path(game_path).resolve().parent
        if games.name == "games" and (games.parent / "polygons.txt").is_file():
            return games.parent
    map_name = board.properties.get("mapName")
    if not map_name:
        raise InputError("the game names no map (property mapName); name the map folder with --map-dir")

    for installed in installed_maps(default_maps_dir(maps_dir)):
        if map_name in (installed.name, installed.folder.name):
            for candidate in (installed.folder / "map", installed.folder):
                if (candidate / "polygons.txt").is_file():
                    return candidate
    raise InputError(f"map {map_name!r} is not installed in {default_maps_dir(maps_dir)}; name its folder with --map-dir")


# -- what changed ------------------------------------------------------------

def _lines(change: PlaceDifference) -> list[str]:
    out = [f"{n:+d} {owner or 'neutral'} {unit}" for owner, unit, n in change.units]
    for field, before, after in change.fields:
        out.append(f"{field.replace('_', ' ')}: {_shown(before)} -> {_shown(after)}")
    return out


def _shown(value: object) -> str:
    return "none" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


def changed_places(base: Board, board: Board) -> dict[str, PlaceDifference]:
    """Every territory and sea zone that differs between ``base`` and ``board``, by name."""
    return board_difference(base, board).places


# -- drawing -----------------------------------------------------------------


@attrs.frozen
class Legend:
    """Lines under the map: a title, then per side its lines (picks and values)."""

    title: str
    sides: tuple[tuple[str, tuple[str, ...]], ...]


def owner_colors(board: Board, art: MapArt) -> dict[str, str]:
    """Each player's colour: the map's own, else the palette in turn order."""
    colors = {}
    spare = iter(PALETTE * 4)
    for player in board.catalog.turn_order():
        colors[player] = art.colors.get(player) or next(spare)
    return colors


def fill_of(board: Board, art: MapArt, colors: dict[str, str], place: str) -> str:
    data = board.nodes[place]
    if data["water"]:
        return WATER
    if data["owner"] is not None:
        return colors[data["owner"]]
    if data["impassable"] and "Impassable" in art.colors:
        return art.colors["Impassable"]
    return art.colors.get("Neutral", UNOWNED_LAND)


def _path(shapes: Sequence[Sequence[tuple[int, int]]]) -> str:
    return " ".join("M" + " L".join(f"{x},{y}" for x, y in shape) + " Z" for shape in shapes)


def render_svg(board: Board, art: MapArt, base: Board | None = None, legend: Legend | None = None) -> str:
    """The board as SVG: owners' colours, the places changed since ``base`` outlined and labelled."""
    colors = owner_colors(board, art)
    changes = changed_places(base, board) if base is not None else {}
    owners_shown = board.catalog.turn_order()
    legend_lines = 2 + (max((len(lines) for _, lines in legend.sides), default=0) + 2 if legend is not None else 0)
    band = legend_lines * (LEGEND_FONT + 8) + 20
    width, height = art.width, art.height + band
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, sans-serif">',
        f"<title>{escape(board.game_name)}</title>",
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
        '<g id="territories" stroke="#333333" stroke-width="1">',
    ]
    for place in sorted(art.polygons):
        if place not in board.nodes or not art.polygons[place]:
            continue
        owner = board.nodes[place]["owner"]
        out.append(
            f'<path data-name={quoteattr(place)} data-owner={quoteattr(owner or "")} '
            f'fill="{fill_of(board, art, colors, place)}" d="{_path(art.polygons[place])}"/>'
        )
    out.append("</g>")
    out.append(f'<g id="changed" fill="none" stroke="{OUTLINE}" stroke-width="6" stroke-linejoin="round">')
    for place in changes:
        if art.polygons.get(place):
            out.append(f'<path data-name={quoteattr(place)} d="{_path(art.polygons[place])}"/>')
    out.append("</g>")
    out.append(f'<g id="unit-changes" font-size="{UNIT_FONT}">')
    placed: list[tuple[int, int, int, int]] = []
    for place, change in changes.items():
        if place not in art.centers:
            continue
        lines = _lines(change)
        box_width = max(len(line) for line in lines) * UNIT_FONT * 6 // 10 + 12
        box_height = len(lines) * (UNIT_FONT + 4) + 8
        x, top = _label_position(art.centers[place], box_width, box_height, art.width, placed)
        placed.append((x, top, box_width, box_height))
        out.append(f"<g data-name={quoteattr(place)}>")
        out.append(f'<rect x="{x}" y="{top}" width="{box_width}" height="{box_height}" fill="#ffffff" fill-opacity="0.85" stroke="{OUTLINE}" stroke-width="2"/>')
        for number, line in enumerate(lines):
            color = "#006400" if line.startswith("+") else "#b00000" if line.startswith("-") else "#000000"
            out.append(f'<text x="{x + 6}" y="{top + UNIT_FONT + number * (UNIT_FONT + 4)}" fill="{color}">{escape(line)}</text>')
        out.append("</g>")
    out.append("</g>")
    out += _legend(board, colors, owners_shown, legend, art.height + 20, width)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _label_position(center: tuple[int, int], width: int, height: int, map_width: int, placed: list[tuple[int, int, int, int]]) -> tuple[int, int]:
    """Beside the centre (where TripleA draws the units), inside the map, moved down past earlier labels."""
    x = center[0] + 14
    if x + width > map_width:
        x = max(0, center[0] - 14 - width)
    top = center[1] - UNIT_FONT
    moved = True
    while moved:
        moved = False
        for left, upper, w, h in placed:
            if x < left + w and left < x + width and top < upper + h and upper < top + height:
                top = upper + h + 4
                moved = True
    return x, top


def _legend(board: Board, colors: dict[str, str], owners: list[str], legend: Legend | None, top: int, width: int) -> list[str]:
    step = LEGEND_FONT + 8
    out = [f'<g id="legend" font-size="{LEGEND_FONT}">']
    x = 20
    for owner in owners:
        out.append(f'<rect x="{x}" y="{top}" width="{LEGEND_FONT}" height="{LEGEND_FONT}" fill="{colors[owner]}" stroke="#333333" data-owner={quoteattr(owner)}/>')
        out.append(f'<text x="{x + LEGEND_FONT + 8}" y="{top + LEGEND_FONT - 4}">{escape(owner)}</text>')
        x += LEGEND_FONT + 24 + len(owner) * LEGEND_FONT * 6 // 10
    out.append(f'<rect x="{x}" y="{top}" width="{LEGEND_FONT}" height="{LEGEND_FONT}" fill="none" stroke="{OUTLINE}" stroke-width="4"/>')
    out.append(f'<text x="{x + LEGEND_FONT + 8}" y="{top + LEGEND_FONT - 4}">changed</text>')
    if legend is not None:
        y = top + 2 * step
        out.append(f'<text x="20" y="{y}" font-weight="bold">{escape(legend.title)}</text>')
        column = (width - 40) // max(len(legend.sides), 1)
        for index, (side, lines) in enumerate(legend.sides):
            left = 20 + index * column
            out.append(f'<g data-side={quoteattr(side)}>')
            out.append(f'<text x="{left}" y="{y + step}" font-weight="bold">{escape(side)}</text>')
            for number, line in enumerate(lines):
                out.append(f'<text x="{left}" y="{y + (number + 2) * step}">{escape(line)}</text>')
            out.append("</g>")
    out.append("</g>")
    return out


def write_picture(svg: str, path: Path, *, overwrite: bool = False, scale: float = 0.5) -> Path:
    """Write ``svg`` to ``path`` as SVG, or as PNG (at ``scale``) when it ends in .png."""

    suffix = path.suffix.lower()
    if suffix == ".svg":
        data = svg.encode("utf-8")
    elif suffix == ".png":
        try:
            import cairosvg
        except (ImportError, OSError) as error:
            raise InputError(f"PNG needs cairosvg and the cairo library ({error}); write .svg instead", where=str(path)) from None
        data = _palette_png(cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale))
    else:
        raise InputError("the picture's name must end in .svg or .png", where=str(path))
    return write_atomically(path, data, overwrite=overwrite)


def _palette_png(data: bytes) -> bytes:
    """The PNG with at most 64 colours: a map is flat fills and text, and the file shrinks about fourfold."""
    from io import BytesIO

    from PIL import Image  # cairosvg's own dependency

    image = Image.open(BytesIO(data)).convert("RGB").quantize(64)
    out = BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()

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

import itertools
import math
import operator
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

import attrs

from kremlin_triplea.errors import InputError
from kremlin_triplea.gamefile.locate import default_maps_dir, installed_maps, maps_without_yml
from kremlin_triplea.gamefile.safe import read_bytes, write_atomically
from kremlin_triplea.model.board import Board
from kremlin_triplea.model.diff import PlaceDifference, board_difference

# For owners the map gives no colour: distinct, readable under black text.
PALETTE = ("#8c6bb1", "#41ae76", "#ef6548", "#4292c6", "#cc4c02", "#807dba", "#66a61e", "#e7298a")
WATER = "#a9cce3"
UNOWNED_LAND = "#e0d2b4"
OUTLINE = "#ff00cc"  # nothing on a TripleA map uses it, so a changed place stands out
UNIT_FONT = 22
LEGEND_FONT = 26
OCCUPANCY_CELL = 8  # pixels: the grid a label's place is looked for on (see Occupancy)


@attrs.frozen
class MapArt:
    """What a map folder says about drawing its board."""

    folder: Path
    polygons: dict[str, tuple[tuple[tuple[int, int], ...], ...]]
    centers: dict[str, tuple[int, int]]
    colors: dict[str, str]  # "color.<key>" of map.properties, as "#rrggbb"
    width: int
    height: int
    # What is worked out from a place's polygons alone, kept with the art it came from (so never shared with
    # another map): the draft room draws the same map at every step, and these were most of the time it took.
    _paths: dict[str, str] = attrs.field(factory=dict, init=False, eq=False, repr=False)
    _spans: dict[tuple[str, int], tuple[tuple[int, int, int], ...]] = attrs.field(factory=dict, init=False, eq=False, repr=False)

    def path_data(self, place: str) -> str:
        """The SVG path data of ``place``'s polygons."""
        found = self._paths.get(place)
        if found is None:
            found = self._paths[place] = _path(self.polygons.get(place, ()))
        return found

    def spans(self, place: str, cell: int) -> tuple[tuple[int, int, int], ...]:
        """(row, first column, last column) of the grid cells of size ``cell`` whose centres ``place``'s polygons cover."""
        found = self._spans.get((place, cell))
        if found is None:
            found = self._spans[place, cell] = tuple(
                span for shape in self.polygons.get(place, ()) for span in _covered_cells(shape, cell, self.width, self.height)
            )
        return found


def _map_text(path: Path) -> str:
    """A text file of the map folder, read as every input is (a FIFO, a device or a huge file refused in one line)."""
    return read_bytes(path, what="map file").decode("utf-8", errors="replace")


def read_properties(path: Path) -> dict[str, str]:
    """A Java .properties file's ``key=value`` lines (the last of a repeated key wins, as in Java)."""
    found: dict[str, str] = {}
    for line in _map_text(path).splitlines():
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
    for number, line in enumerate(_map_text(polygons_file).splitlines(), start=1):
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
    for number, line in enumerate(_map_text(centers_file).splitlines(), start=1):
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
    width = _int_property(properties, "map.width", max(xs) + 1, properties_file)
    height = _int_property(properties, "map.height", max(ys) + 1, properties_file)
    return MapArt(folder, polygons, centers, colors, width, height)


#: The widest and highest map drawn, in pixels: the labels' grid takes memory in proportion to the map's area, and
#: TripleA's maps are a few thousand pixels a side (3,773 x 2,000 for AA50's); a side of 10^12 exhausted memory.
MAX_MAP_SIDE = 16_384


def _int_property(properties: dict[str, str], key: str, default: int, where: Path) -> int:
    try:
        value = int(properties[key])
    except (KeyError, ValueError):
        return default
    if not 0 < value <= MAX_MAP_SIDE:
        raise InputError(f"{key} is {value:,} pixels; a map is drawn from 1 to {MAX_MAP_SIDE:,} pixels a side", where=str(where))
    return value


def find_map_folder(board: Board, game_path: Path | str | None = None, maps_dir: Path | str | None = None, *, base_path: Path | str | None = None) -> Path:
    """The folder with the map's polygons.

    Beside the game file if it sits in a map, else beside its base game's file
    (a written game draws as its base does), else by the game's ``mapName``
    among the installed maps.
    """
    for path in (game_path, base_path):
        if path is not None:
            games = Path(path).resolve().parent
            if games.name == "games" and (games.parent / "polygons.txt").is_file():
                return games.parent
    map_name = board.properties.get("mapName")
    if not map_name:
        raise InputError("the game names no map (property mapName); name the map folder with --map-dir")

    folder = default_maps_dir(maps_dir)
    for installed in [*installed_maps(folder), *maps_without_yml(folder)]:
        if map_name in (installed.name, installed.folder.name):
            for candidate in (installed.folder / "map", installed.folder):
                if (candidate / "polygons.txt").is_file():
                    return candidate
    raise InputError(f"map {map_name!r} is not installed in {default_maps_dir(maps_dir)}; name its folder with --map-dir")


# -- what changed ------------------------------------------------------------


def label_lines(change: PlaceDifference) -> list[str]:
    """A changed place's label: units added and removed, then its fields in plain words."""
    out = [f"{n:+d} {owner or 'neutral'} {unit}" for owner, unit, n in change.units]
    return out + [_in_words(field, before, after) for field, before, after in change.fields]


def _in_words(field: str, before: object, after: object) -> str:
    """One territory field's change as a player says it ("now Germans (was Russians)")."""
    if field == "owner":
        return f"now {after or 'neutral'} (was {before or 'neutral'})"
    if field == "original_owner":
        return f"original owner {after or 'none'} (was {before or 'none'})"
    if field == "production":
        return f"produces {after} IPCs (was {before})"
    if field == "impassable":
        return "cannot be entered" if after else "can be entered"
    if field == "capital":
        return f"capital of {after}" if after else f"no longer the capital of {before}"
    if field == "victory_city":
        if not after:
            return "no longer a victory city"
        return "victory city" if after == 1 else f"victory city (counts {after})"
    return f"{field.replace('_', ' ')}: {_shown(before)} -> {_shown(after)}"


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
    # An owner the game does not declare (TripleA refuses such a file; `validate` says where) is still drawn.
    undeclared = sorted({d["owner"] for d in board.nodes.values() if d["owner"] is not None} - set(board.catalog.turn_order()))
    for player in [*board.catalog.turn_order(), *undeclared]:
        colors[player] = art.colors.get(player) or next(spare)
    return colors


#: The least CIE76 colour difference (ΔE*ab) between the neutrals' fill and any player's or the
#: water's colour. About 2 is barely noticeable side by side; the colours issue 14 found confusable
#: are 20 (Classic: neutral tan cc9933 against British brown 996600) and 32 (AA50: impassable tan
#: d8ba7c against Japanese yellow e6b937) apart.
MIN_NEUTRAL_DISTANCE = 35.0

#: Light fills for neutral land, tried in order when the map's own is too close to a player's.
#: Pale cream f0f0c0 is at least 38 from every colour of the AA50 and Classic maps and the water.
NEUTRAL_CANDIDATES = ("#f0f0c0", "#f5f5dc", "#ffffff", UNOWNED_LAND)


def color_distance(first: str, second: str) -> float:
    """CIE76 ΔE*ab between two "#rrggbb" colours (sRGB, D65 white)."""
    return sum((a - b) ** 2 for a, b in zip(_lab(first), _lab(second))) ** 0.5


def _lab(color: str) -> tuple[float, float, float]:
    channels = [int(color.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def neutral_fill(art: MapArt, colors: dict[str, str]) -> str:
    """The fill of land no player owns: the map's own neutral colour if it stands apart from every
    player's and the water's, else the first candidate that does (else the one farthest from them)."""
    others = [*colors.values(), WATER]
    own = [art.colors[key] for key in ("Neutral", "Impassable") if key in art.colors]
    candidates = [*own, *NEUTRAL_CANDIDATES]

    def nearest(color: str) -> float:
        return min(color_distance(color, other) for other in others)

    for candidate in candidates:
        if nearest(candidate) >= MIN_NEUTRAL_DISTANCE:
            return candidate
    return max(candidates, key=nearest)


IMPASSABLE_PATTERN = "cannot-enter"  # the hatching over neutral land that cannot be entered


def fill_of(board: Board, colors: dict[str, str], neutral: str, place: str) -> str:
    data = board.nodes[place]
    if data["water"]:
        return WATER
    if data["owner"] is not None:
        return colors[data["owner"]]
    return f"url(#{IMPASSABLE_PATTERN})" if data["impassable"] else neutral


def _path(shapes: Sequence[Sequence[tuple[int, int]]]) -> str:
    """Each shape from its first point by steps to the next ("M 10,20 l 3,-1 ..."): a map's points lie a few pixels
    apart, so the picture is half the size it is with every point written out, and a third once compressed (AA50's
    board: 585 KB, 187 KB compressed; now 293 KB, 61 KB): the draft room sends it to every spectator at every step."""
    out = []
    for shape in shapes:
        x0, y0 = shape[0]
        out.append(f"M{x0},{y0}l" + " ".join([f"{x - px},{y - py}" for (px, py), (x, y) in zip(shape, shape[1:])]) + "z")
    return " ".join(out)


def render_svg(board: Board, art: MapArt, base: Board | None = None, legend: Legend | None = None) -> str:
    """The board as SVG: owners' colours, the places changed since ``base`` outlined and labelled."""
    colors = owner_colors(board, art)
    neutral = neutral_fill(art, colors)
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
        f'<defs><pattern id="{IMPASSABLE_PATTERN}" width="16" height="16" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        f'<rect width="16" height="16" fill="{neutral}"/><rect width="5" height="16" fill="#555555"/></pattern></defs>',
        '<g id="territories" stroke="#333333" stroke-width="1">',
    ]
    for place in sorted(art.polygons):
        if place not in board.nodes or not art.polygons[place]:
            continue
        owner = board.nodes[place]["owner"]
        out.append(
            f"<path data-name={quoteattr(place)} data-owner={quoteattr(owner or '')} "
            f'fill="{fill_of(board, colors, neutral, place)}" d="{art.path_data(place)}"/>'
        )
    out.append("</g>")
    out.append(f'<g id="changed" fill="none" stroke="{OUTLINE}" stroke-width="6" stroke-linejoin="round">')
    for place in changes:
        if art.polygons.get(place):
            out.append(f'<path data-name={quoteattr(place)} d="{art.path_data(place)}"/>')
    out.append("</g>")
    labelled = [place for place in changes if place in art.centers]
    sizes = {place: _label_size(label_lines(changes[place])) for place in labelled}
    boxes = place_labels(
        [(art.centers[place], sizes[place]) for place in labelled],
        Occupancy.of([span for place in changes for span in art.spans(place, OCCUPANCY_CELL)], art.width, art.height, OCCUPANCY_CELL),
        art.width,
        art.height,
    )
    # Every leader line before any label, so no line crosses a label drawn before it.
    out.append(f'<g id="leaders" stroke="{OUTLINE}" stroke-width="3" fill="{OUTLINE}">')
    for place, box in zip(labelled, boxes):
        (cx, cy), (ex, ey) = art.centers[place], _nearest_on_box(art.centers[place], box)
        out.append(f'<line data-name={quoteattr(place)} x1="{cx}" y1="{cy}" x2="{ex}" y2="{ey}"/>')
        out.append(f'<circle cx="{cx}" cy="{cy}" r="5"/>')
    out.append("</g>")
    out.append(f'<g id="unit-changes" font-size="{UNIT_FONT}">')
    for place, (x, top, box_width, box_height) in zip(labelled, boxes):
        lines = label_lines(changes[place])
        out.append(f"<g data-name={quoteattr(place)}>")
        out.append(f'<rect x="{x}" y="{top}" width="{box_width}" height="{box_height}" fill="#ffffff" fill-opacity="0.9" stroke="{OUTLINE}" stroke-width="2"/>')
        for number, line in enumerate(lines):
            color = "#006400" if line.startswith("+") else "#b00000" if line.startswith("-") else "#000000"
            out.append(f'<text x="{x + 6}" y="{top + UNIT_FONT + number * (UNIT_FONT + 4)}" fill="{color}">{escape(line)}</text>')
        out.append("</g>")
    out.append("</g>")
    unowned = [data for data in board.nodes.values() if not data["water"] and data["owner"] is None]
    swatches = [(owner, colors[owner]) for owner in owners_shown]
    if any(not data["impassable"] for data in unowned):
        swatches.append(("neutral", neutral))
    if any(data["impassable"] for data in unowned):
        swatches.append(("neutral, cannot be entered", f"url(#{IMPASSABLE_PATTERN})"))
    out += _legend(swatches, legend, art.height + 20, width)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _label_size(lines: list[str]) -> tuple[int, int]:
    """A label box's (width, height) for its lines (DejaVu Sans averages about 0.6 em a character)."""
    return max(len(line) for line in lines) * UNIT_FONT * 6 // 10 + 12, len(lines) * (UNIT_FONT + 4) + 8


Box = tuple[int, int, int, int]  # x, top, width, height


@attrs.frozen
class Occupancy:
    """Which cells of a grid over the map some polygons cover, with sums for counting any box's cells at once.

    Each cell is marked if a polygon covers its centre, and so are its
    neighbours: a box clear of marked cells stays clear of the polygons.
    """

    cell: int
    columns: int
    rows: int
    sums: tuple[tuple[int, ...], ...]  # sums[r][c]: marked cells above and left of (r, c)

    @classmethod
    def of(cls, spans: Iterable[tuple[int, int, int]], width: int, height: int, cell: int = 8) -> Occupancy:
        """The grid marked along ``spans`` (``_covered_cells``' rows of covered cells), each with the rows above and below it."""
        columns, rows = width // cell + 1, height // cell + 1
        marked = [bytearray(columns) for _ in range(rows)]
        for row, first, end in spans:
            for near in range(max(row - 1, 0), min(row + 2, rows)):
                marked[near][first:end] = b"\x01" * (end - first)
        sums = [[0] * (columns + 1)]
        for line in marked:  # each row's running count added to the sums above it (C loops: the map has some 100,000 cells)
            sums.append(list(map(operator.add, sums[-1], itertools.accumulate(line, initial=0))))
        return cls(cell, columns, rows, tuple(tuple(line) for line in sums))

    def covered(self, box: Box) -> int:
        """How many marked cells ``box`` touches."""
        x, top, width, height = box
        left, right = max(x // self.cell, 0), min((x + width - 1) // self.cell + 1, self.columns)
        upper, lower = max(top // self.cell, 0), min((top + height - 1) // self.cell + 1, self.rows)
        if left >= right or upper >= lower:
            return 0
        s = self.sums
        return s[lower][right] - s[upper][right] - s[lower][left] + s[upper][left]


#: How far (pixels between the centre and the box) a label may move from its territory's centre, nearest first.
LABEL_DISTANCES = (24, 48, 80, 120, 170, 230, 300, 380, 470, 570, 680, 800)
LABEL_DIRECTIONS = 16


def place_labels(labels: list[tuple[tuple[int, int], tuple[int, int]]], occupied: Occupancy, width: int, height: int) -> list[Box]:
    """A box for each (centre, (width, height)), in order: inside the map, clear of the boxes placed
    before it and of ``occupied`` (the changed places), as near its centre as that allows.

    Where no spot within ``LABEL_DISTANCES`` is clear of ``occupied``, the one covering least of it
    is taken; labels never overlap one another.
    """

    placed: list[Box] = []
    for (cx, cy), (box_width, box_height) in labels:
        best: tuple[int, Box] | None = None
        for distance in LABEL_DISTANCES:
            for step in range(LABEL_DIRECTIONS):
                angle = 2 * math.pi * step / LABEL_DIRECTIONS
                dx, dy = math.cos(angle), math.sin(angle)
                x = round(cx + dx * (distance + box_width / 2) - box_width / 2)
                top = round(cy + dy * (distance + box_height / 2) - box_height / 2)
                box = (min(max(x, 0), max(width - box_width, 0)), min(max(top, 0), max(height - box_height, 0)), box_width, box_height)
                if any(_overlap(box, other) for other in placed):
                    continue
                cost = occupied.covered(box)
                if best is None or cost < best[0]:
                    best = (cost, box)
                if cost == 0:
                    break
            if best is not None and best[0] == 0:
                break
        if best is None:  # crowded everywhere near: below every label so far
            best = (0, (min(max(cx, 0), max(width - box_width, 0)), max(b[1] + b[3] for b in placed) + 4, box_width, box_height))
        placed.append(best[1])
    return placed


def _covered_cells(shape: Sequence[tuple[int, int]], cell: int, width: int, height: int) -> list[tuple[int, int, int]]:
    """(row, first column, end column) along each grid row whose centre line crosses ``shape``: the cells it covers,
    widened by one cell on either side (``Occupancy.of`` adds the rows above and below)."""
    columns, rows = width // cell + 1, height // cell + 1
    ys = [y for _, y in shape]
    top, bottom = max(min(ys) // cell, 0), min(max(ys) // cell + 1, rows)
    # Each edge adds its crossing to the rows whose centre line y = row*cell + cell/2 it crosses (low <= y < high),
    # found by integer arithmetic: a shape's edges are walked once, not once per row.
    crossings_of: dict[int, list[float]] = {}
    for (x1, y1), (x2, y2) in zip(shape, [*shape[1:], shape[0]]):
        low, high = (y1, y2) if y1 < y2 else (y2, y1)
        for row in range(max(-((cell - 2 * low) // (2 * cell)), top), min(-((cell - 2 * high) // (2 * cell)), bottom)):
            y = row * cell + cell / 2
            crossings_of.setdefault(row, []).append(x1 + (y - y1) * (x2 - x1) / (y2 - y1))
    found = []
    for row in sorted(crossings_of):
        crossings = sorted(crossings_of[row])
        for start, end in zip(crossings[::2], crossings[1::2]):
            first, last = max(int(start // cell), 0), min(int(end // cell), columns - 1)
            if max(first - 1, 0) < min(last + 2, columns):
                found.append((row, max(first - 1, 0), min(last + 2, columns)))
    return found


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def _nearest_on_box(point: tuple[int, int], box: Box) -> tuple[int, int]:
    """The point of ``box``'s edge nearest ``point`` (where the leader line meets the label)."""
    x, top, width, height = box
    px, py = min(max(point[0], x), x + width), min(max(point[1], top), top + height)
    if (px, py) != point:
        return px, py
    edges = [(point[0] - x, (x, py)), (x + width - point[0], (x + width, py)), (point[1] - top, (px, top)), (top + height - point[1], (px, top + height))]
    return min(edges)[1]


def _legend(swatches: list[tuple[str, str]], legend: Legend | None, top: int, width: int) -> list[str]:
    """Each owner's colour (and the neutrals'), the outline of a change, then the draft's picks by side."""
    step = LEGEND_FONT + 8
    out = [f'<g id="legend" font-size="{LEGEND_FONT}">']
    x = 20
    for owner, fill in swatches:
        out.append(f'<rect x="{x}" y="{top}" width="{LEGEND_FONT}" height="{LEGEND_FONT}" fill="{fill}" stroke="#333333" data-owner={quoteattr(owner)}/>')
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
            out.append(f"<g data-side={quoteattr(side)}>")
            out.append(f'<text x="{left}" y="{y + step}" font-weight="bold">{escape(side)}</text>')
            for number, line in enumerate(lines):
                out.append(f'<text x="{left}" y="{y + (number + 2) * step}">{escape(line)}</text>')
            out.append("</g>")
    out.append("</g>")
    return out


def write_picture(svg: str, path: Path, *, overwrite: bool = False, scale: float = 0.5) -> Path:
    """Write ``svg`` to ``path`` as SVG, or as PNG (at ``scale``) when it ends in .png."""

    if not 0.05 <= scale <= 4:  # also false for NaN: cairo cannot round a NaN size, nor draw a picture of no pixels
        raise InputError(f"the scale {scale} is not a number from 0.05 to 4", where=str(path))
    suffix = path.suffix.lower()
    if suffix == ".svg":
        data = svg.encode("utf-8")
    elif suffix == ".png":
        try:
            import cairosvg
        except (ImportError, OSError) as error:
            raise InputError(
                f"PNG needs cairosvg and the cairo library ({error}): install the tool with its png extra, python3 -m pip install '.[png]'"
                ' (Windows: py -m pip install ".[png]"), or write .svg instead',
                where=str(path),
            ) from None
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

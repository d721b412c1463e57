"""The picture of a setup (render.py): read back from the SVG it writes."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from kremlin_triplea.cli.main import main
from kremlin_triplea.draft.run import read_draft
from kremlin_triplea.game import load
from kremlin_triplea.model.diff import PlaceDifference
from kremlin_triplea.report.render import MIN_NEUTRAL_DISTANCE, OCCUPANCY_CELL, PALETTE, MapArt, color_distance, label_lines, read_map_art, render_svg
from kremlin_triplea.rules.tomlfile import read_toml
from kremlin_triplea.session import apply_draft, open_session
from support.paths import AA50_1941, MAPS_DIR
from support.properties import examples

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "kremlin-aa50-1941.toml"
MAP_FOLDER = MAPS_DIR / "world_war_ii_v3" / "map"
SVG = "{http://www.w3.org/2000/svg}"


def run(*args: str):
    return CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), *args])


def map_colors() -> dict[str, str]:
    colors = {}
    for line in (MAP_FOLDER / "map.properties").read_text().splitlines():
        if line.startswith("color."):
            key, _, value = line.partition("=")
            colors[key[len("color.") :]] = "#" + value.strip().lower()
    return colors


def expected_changes(base, board) -> set[str]:
    """Places whose owner, territory fields or units differ."""
    changed = set()
    for place, new in board.graph.nodes(data=True):
        old = base.graph.nodes[place]
        if any(old[f] != new[f] for f in ("owner", "production", "impassable", "capital", "original_owner", "victory_city")):
            changed.add(place)
        if +old["units"] != +new["units"]:
            changed.add(place)
    return changed


def paths(tree, group: str) -> dict[str, etree._Element]:
    found = tree.find(f".//{SVG}g[@id='{group}']")
    return {p.get("data-name"): p for p in found.iter(f"{SVG}path")}


def test_the_drafts_picture_outlines_exactly_the_changed_places_and_colours_owners(tmp_path: Path) -> None:
    out = tmp_path / "draft.svg"
    result = run("render", str(EXAMPLE), "-o", str(out))
    assert result.exit_code == 0, result.output
    tree = etree.parse(str(out))
    applied = apply_draft(read_draft(EXAMPLE), maps_dir=MAPS_DIR)
    board, base = applied.game.board, applied.game.initial
    expected = expected_changes(base, board)
    assert {"Archangel", "Russia", "Northern South America", "44 Sea Zone"} <= expected
    assert set(paths(tree, "changed")) == expected
    colors = map_colors()
    territories = paths(tree, "territories")
    assert territories["Archangel"].get("fill") == colors["Germans"]  # taken over by pick 1
    assert territories["Northern South America"].get("fill") == colors["Americans"]  # Venezuela joined the USA
    for place, path in territories.items():
        owner = board.owner(place)
        if not board.is_water(place) and owner is not None:
            assert path.get("fill") == colors[owner], place
            assert path.get("data-owner") == owner
    labels = tree.find(f".//{SVG}g[@id='unit-changes']")
    archangel = next(g for g in labels if g.get("data-name") == "Archangel")
    texts = [t.text for t in archangel.iter(f"{SVG}text")]
    assert "+1 Germans artillery" in texts and "-2 Russians infantry" in texts
    assert "now Germans (was Russians)" in texts  # plain words, not "owner: Russians -> Germans"
    legend = {g.get("data-side"): [t.text for t in g.iter(f"{SVG}text")] for g in tree.iter(f"{SVG}g") if g.get("data-side")}
    assert set(legend) == {"Axis", "Allies"}
    assert sum(1 for t in legend["Axis"] if t.startswith("pick ")) == 5
    assert any(t.startswith("bid 11:") for t in legend["Axis"])


def test_a_written_game_against_its_base_shows_the_same_changes(tmp_path: Path) -> None:
    game = tmp_path / "kremlin.xml"
    assert run("apply", str(EXAMPLE), "-o", str(game)).exit_code == 0
    picture = tmp_path / "game.svg"
    result = run("render", str(game), "--base", "world_war_ii_v3/WW2v3-1941.xml", "-o", str(picture))
    assert result.exit_code == 0, result.output
    assert "world_war_ii_v3" in result.stdout  # the map folder was found from the game's mapName
    expected = expected_changes(load(AA50_1941).board, load(game).board)
    assert set(paths(etree.parse(str(picture)), "changed")) == expected
    # Without --base, the base its notes record (gamefile/provenance) is compared with.
    recorded = tmp_path / "recorded.svg"
    assert run("render", str(game), "-o", str(recorded)).exit_code == 0
    assert recorded.read_bytes() == picture.read_bytes()
    without_base = tmp_path / "plain.svg"
    assert run("render", str(game), "--no-base", "-o", str(without_base)).exit_code == 0
    assert paths(etree.parse(str(without_base)), "changed") == {}


def test_a_game_written_outside_its_map_finds_the_map_from_its_base(tmp_path: Path) -> None:
    game = tmp_path / "kremlin.xml"
    assert run("apply", str(EXAMPLE), "-o", str(game)).exit_code == 0
    picture = tmp_path / "game.svg"
    # No maps folder at all: the map is the one the base game's file lies in.
    result = CliRunner().invoke(main, ["--maps-dir", str(tmp_path / "none"), "render", str(game), "--base", str(AA50_1941), "-o", str(picture)])
    assert result.exit_code == 0, result.output
    assert str(MAP_FOLDER) in result.stdout


@pytest.mark.slow  # several seconds (2.8-9 s on a quiet 2-core machine): the full suite runs it
def test_the_same_inputs_give_the_same_bytes_and_png_works(tmp_path: Path) -> None:
    first, second, png = tmp_path / "a.svg", tmp_path / "b.svg", tmp_path / "c.png"
    for out in (first, second):
        assert run("render", str(EXAMPLE), "-o", str(out)).exit_code == 0
    assert first.read_bytes() == second.read_bytes()
    assert run("render", str(EXAMPLE), "-o", str(png), "--scale", "0.1").exit_code == 0
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    again = tmp_path / "d.png"
    assert run("render", str(EXAMPLE), "-o", str(again), "--scale", "0.1").exit_code == 0
    assert again.read_bytes() == png.read_bytes()


def test_owners_without_a_map_colour_take_distinct_palette_colours(tmp_path: Path) -> None:
    bare = tmp_path / "bare"
    bare.mkdir()
    for name in ("polygons.txt", "centers.txt"):
        shutil.copy(MAP_FOLDER / name, bare / name)
    board = load(AA50_1941).board
    svg = render_svg(board, read_map_art(bare))
    fills: dict[str, set[str]] = {}
    for path in paths(etree.fromstring(svg.encode()).getroottree(), "territories").values():
        if path.get("data-owner"):
            fills.setdefault(path.get("data-owner"), set()).add(path.get("fill"))
    assert all(len(f) == 1 for f in fills.values())
    used = [next(iter(f)) for f in fills.values()]
    assert len(set(used)) == len(used) and set(used) <= set(PALETTE)


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    result = run("render", str(AA50_1941), "-o", str(tmp_path / "x.gif"))
    assert result.exit_code == 2 and "must end in .svg or .png" in result.stderr
    result = run("render", str(AA50_1941), "--map-dir", str(tmp_path), "-o", str(tmp_path / "x.svg"))
    assert result.exit_code == 2 and "has no polygons.txt" in result.stderr
    assert "Traceback" not in result.output and not (tmp_path / "x.svg").exists()


def test_places_missing_from_the_map_art_are_named(tmp_path: Path) -> None:
    art = tmp_path / "art"
    art.mkdir()
    lines = (MAP_FOLDER / "polygons.txt").read_text().splitlines()
    (art / "polygons.txt").write_text("\n".join(line for line in lines if not line.startswith("Archangel ")) + "\n")
    shutil.copy(MAP_FOLDER / "centers.txt", art / "centers.txt")
    result = run("render", str(AA50_1941), "--map-dir", str(art), "-o", str(tmp_path / "x.svg"))
    assert result.exit_code == 0
    assert "1 place of the game has no polygon" in result.stderr and "Archangel" in result.stderr
    assert "Archangel" not in paths(etree.parse(str(tmp_path / "x.svg")), "territories")


def test_a_house_rules_draft_is_drawn_against_its_game(tmp_path: Path) -> None:
    draft = tmp_path / "house.toml"
    draft.write_text('house_rules = ["house-classic"]\ngame = "world_war_ii_classic/classic.xml"\n')
    out = tmp_path / "house.svg"
    result = run("render", str(draft), "-o", str(out))
    assert result.exit_code == 0, result.output
    applied = apply_draft(read_draft(draft), maps_dir=MAPS_DIR)
    expected = expected_changes(applied.game.initial, applied.game.board)
    assert expected and set(paths(etree.parse(str(out)), "changed")) == expected


# -- labels, colours and words (issue 14) ---------------------------------------


@pytest.fixture(scope="module")
def example_svg(tmp_path_factory: pytest.TempPathFactory):
    out = tmp_path_factory.mktemp("render") / "example.svg"
    result = run("render", str(EXAMPLE), "-o", str(out))
    assert result.exit_code == 0, result.output
    return etree.parse(str(out))


def centers_txt() -> dict[str, tuple[int, int]]:
    found = {}
    for line in (MAP_FOLDER / "centers.txt").read_text().splitlines():
        match = re.search(r"\((\d+),\s*(\d+)\)", line)
        if match:
            found[line[: match.start()].strip()] = (int(match.group(1)), int(match.group(2)))
    return found


def shapes_of(path: etree._Element) -> list[list[tuple[float, float]]]:
    """The polygons of an SVG path's data, as SVG reads them: M (a point), L (points), l (steps from the last point), Z or z (closed)."""
    shapes: list[list[tuple[float, float]]] = []
    command, at = "M", (0.0, 0.0)
    for token in re.findall(r"[MLlZz]|-?\d+(?:\.\d+)?,-?\d+(?:\.\d+)?", path.get("d")):
        if token in "MLlZz":
            command = token
            continue
        x, y = map(float, token.split(","))
        at = (at[0] + x, at[1] + y) if command == "l" else (x, y)
        if command == "M":
            shapes.append([])
            command = "L"  # points after a move's first are lines to them
        shapes[-1].append(at)
    return shapes


def label_boxes(tree) -> dict[str, tuple[float, float, float, float]]:
    labels = tree.find(f".//{SVG}g[@id='unit-changes']")
    return {g.get("data-name"): tuple(float(g.find(f"{SVG}rect").get(k)) for k in ("x", "y", "width", "height")) for g in labels}


def boxes_overlap(a, b) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def inside(point, shape) -> bool:
    x, y = point
    crossings = 0
    for (x1, y1), (x2, y2) in zip(shape, shape[1:] + shape[:1]):
        if (y1 <= y) != (y2 <= y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            crossings += 1
    return crossings % 2 == 1


def segments_cross(p1, p2, q1, q2) -> bool:
    def side(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    return side(p1, p2, q1) * side(p1, p2, q2) < 0 and side(q1, q2, p1) * side(q1, q2, p2) < 0


def box_touches_shape(box, shape) -> bool:
    x, y, w, h = box
    corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    if any(inside(c, shape) for c in corners) or any(x <= px <= x + w and y <= py <= y + h for px, py in shape):
        return True
    sides = list(zip(corners, corners[1:] + corners[:1]))
    return any(segments_cross(a, b, p, q) for a, b in sides for p, q in zip(shape, shape[1:] + shape[:1]))


@pytest.mark.slow
def test_labels_overlap_neither_one_another_nor_the_changed_places(example_svg) -> None:
    boxes = label_boxes(example_svg)
    assert len(boxes) > 20
    names = sorted(boxes)
    assert [(a, b) for i, a in enumerate(names) for b in names[i + 1 :] if boxes_overlap(boxes[a], boxes[b])] == []
    changed = {name: shapes_of(path) for name, path in paths(example_svg, "changed").items()}
    covering = [(label, place) for label, box in boxes.items() for place, shapes in changed.items() if any(box_touches_shape(box, s) for s in shapes)]
    assert covering == []
    width, height = (float(v) for v in example_svg.getroot().get("viewBox").split()[2:])
    assert all(0 <= x and x + w <= width and 0 <= y for x, y, w, _ in boxes.values())


def test_each_label_has_a_leader_line_from_its_territorys_centre_to_its_box(example_svg) -> None:
    centers = centers_txt()
    boxes = label_boxes(example_svg)
    leaders = {line.get("data-name"): line for line in example_svg.find(f".//{SVG}g[@id='leaders']").iter(f"{SVG}line")}
    assert set(leaders) == set(boxes)
    for place, line in leaders.items():
        start = (float(line.get("x1")), float(line.get("y1")))
        end = (float(line.get("x2")), float(line.get("y2")))
        assert start == centers[place], place  # where TripleA draws the place's units
        x, y, w, h = boxes[place]
        on_edge = (x <= end[0] <= x + w and y <= end[1] <= y + h) and (end[0] in (x, x + w) or end[1] in (y, y + h))
        assert on_edge, place


def test_changes_are_told_in_plain_words(example_svg) -> None:
    texts = [t.text for t in example_svg.find(f".//{SVG}g[@id='unit-changes']").iter(f"{SVG}text")]
    assert not [t for t in texts if "->" in t or re.search(r"\b(true|false)\b", t)]
    change = PlaceDifference("X", (("impassable", True, False), ("victory_city", 0, 1), ("owner", "Russians", "Germans")), ())
    assert label_lines(change) == ["can be entered", "victory city", "now Germans (was Russians)"]


def test_color_distance_is_cie76() -> None:
    # Published CIELAB values (D65): sRGB red is L* 53.24, a* 80.09, b* 67.20; white is L* 100.
    assert color_distance("#ff0000", "#000000") == pytest.approx((53.24**2 + 80.09**2 + 67.20**2) ** 0.5, abs=0.1)
    assert color_distance("#ffffff", "#000000") == pytest.approx(100, abs=0.1)


@pytest.mark.parametrize("game", ["world_war_ii_v3/WW2v3-1941.xml", "world_war_ii_classic/classic.xml"])
def test_neutrals_have_a_colour_of_their_own_and_a_legend_entry(tmp_path: Path, game: str) -> None:
    out = tmp_path / "board.svg"
    assert run("render", game, "-o", str(out)).exit_code == 0
    tree = etree.parse(str(out))
    board = load(game, maps_dir=MAPS_DIR).board
    legend = {r.get("data-owner"): r.get("fill") for r in tree.find(f".//{SVG}g[@id='legend']").iter(f"{SVG}rect") if r.get("data-owner")}
    owners = {owner: fill for owner, fill in legend.items() if owner in board.catalog.turn_order()}
    neutral_kinds = {"neutral", "neutral, cannot be entered"} & set(legend)
    assert neutral_kinds, legend
    territories = paths(tree, "territories")
    for place, path in territories.items():
        data = board.nodes[place]
        if not data["water"] and data["owner"] is None:
            assert path.get("fill") == legend["neutral, cannot be entered" if data["impassable"] else "neutral"], place
    neutral = tree.find(f".//{SVG}pattern/{SVG}rect").get("fill")  # the hatching's ground is the neutral colour
    assert "neutral" not in legend or legend["neutral"] == neutral
    nearest = min(color_distance(neutral, fill) for fill in owners.values())
    assert nearest >= MIN_NEUTRAL_DISTANCE
    # The pairs issue 14 found confusable: AA50's tan against Japanese yellow, Classic's tan against British brown.
    assert color_distance(neutral, owners["Japanese"]) > color_distance("#d8ba7c", "#e6b937")
    if "classic" in game:
        assert color_distance(neutral, owners["British"]) > color_distance("#cc9933", "#996600")


def test_a_recorded_base_that_cannot_be_found_is_a_warning(tmp_path: Path) -> None:
    game = tmp_path / "kremlin.xml"
    assert run("apply", str(EXAMPLE), "-o", str(game)).exit_code == 0
    moved = tmp_path / "moved.xml"
    moved.write_text(game.read_text(encoding="utf-8").replace('"map": "world_war_ii_v3"', '"map": "gone"'), encoding="utf-8")
    picture = tmp_path / "moved.svg"
    result = run("render", str(moved), "--map-dir", str(MAP_FOLDER), "-o", str(picture))
    assert result.exit_code == 0, result.output
    assert "cannot find the base game gone/WW2v3-1941.xml" in result.stderr and "drawn without comparing" in result.stderr
    assert paths(etree.parse(str(picture)), "changed") == {}


def test_render_reads_a_draft_with_the_profile_given(tmp_path: Path) -> None:
    # Issue 17: every command takes --profile FILE. The Classic profile (maps/world_war_ii_classic.toml) puts the
    # neutrals' ships in Classic's sea zones ([neutral_coasts]), which the AA50 board does not have: read with it,
    # the AA50 draft cannot be drawn, and the error names the entry.
    assert run("render", str(EXAMPLE), "-o", str(tmp_path / "own.svg")).exit_code == 0
    other = run("render", str(EXAMPLE), "-o", str(tmp_path / "other.svg"), "--profile", str(REPO / "maps" / "world_war_ii_classic.toml"))
    assert other.exit_code == 2 and "the map profile does not fit" in other.output and "neutral_coasts." in other.output, other.output
    assert not (tmp_path / "other.svg").exists()


def test_a_game_whose_owner_is_undeclared_is_drawn_with_a_warning(tmp_path: Path) -> None:
    """render is a read-only report: a file TripleA would refuse (an owner it does not declare) is still drawn, and said."""
    base = AA50_1941.read_text(encoding="utf-8")
    old = '<territoryOwner territory="France" owner="Germans"'
    assert old in base
    game = tmp_path / "game.xml"
    game.write_text(base.replace(old, '<territoryOwner territory="France" owner="Vichy"', 1), encoding="utf-8")
    out = tmp_path / "game.svg"
    result = run("render", str(game), "--map-dir", str(MAP_FOLDER), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert f"warning: {game}: France is owned by 'Vichy', which is not a player of the game" in result.stderr
    tree = etree.parse(str(out))
    france = paths(tree, "territories")["France"].get("fill")
    declared = {paths(tree, "territories")[p].get("fill") for p in ("Germany", "United Kingdom", "Russia", "Japan", "Eastern United States")}
    assert france.startswith("#") and france not in declared  # a colour of its own, not one of a player's


def test_the_map_of_a_written_game_is_found_in_a_map_folder_without_map_yml(tmp_path: Path) -> None:
    # A game written elsewhere is drawn with its map's art, found by the game's mapName among the maps, a map
    # without map.yml included (TripleA 2.7 reads such a folder too: gamefile/locate.py).
    from kremlin_triplea.report.render import find_map_folder

    maps = tmp_path / "maps"
    shutil.copytree(MAPS_DIR / "world_war_ii_v3", maps / "world_war_ii_v3", ignore=shutil.ignore_patterns("map.yml"))
    written = tmp_path / "written.xml"
    shutil.copy(AA50_1941, written)
    assert find_map_folder(load(written).board, written, maps) == maps / "world_war_ii_v3" / "map"


@pytest.mark.linux_only
def test_a_fifo_in_place_of_a_map_file_is_refused_in_one_line_not_waited_on(tmp_path: Path) -> None:
    """Issue 27, every input read as the safe reader reads it: render read polygons.txt, centers.txt and
    map.properties with read_text, so a FIFO there hung the command."""
    import os

    from kremlin_triplea.errors import InputError
    from kremlin_triplea.report.render import read_properties

    fifo = tmp_path / "map.properties"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="map.properties"):
        read_properties(fifo)


@pytest.mark.slow
def test_a_map_art_kept_across_steps_draws_each_step_as_a_fresh_read_of_the_map_does(tmp_path: Path) -> None:
    """The draft room keeps one MapArt and draws it at every step: what it keeps of a place's polygons must never
    change a picture, nor reach another map's art (here a copy of the map with its territories moved)."""
    data = {key: value for key, value in read_toml(EXAMPLE).items() if key != "bid"}  # the picks so far, as in the room
    base = load(AA50_1941).board
    kept = read_map_art(MAP_FOLDER)
    moved_folder = tmp_path / "moved"
    moved_folder.mkdir()
    shifted = re.sub(r"\((\d+),(\d+)\)", lambda m: f"({int(m.group(1)) + 40},{m.group(2)})", (MAP_FOLDER / "polygons.txt").read_text())
    (moved_folder / "polygons.txt").write_text(shifted)
    shutil.copy(MAP_FOLDER / "centers.txt", moved_folder / "centers.txt")
    moved_kept = read_map_art(moved_folder)
    drawn_moved = set()
    for picks in (0, 3, 6, 10):
        board = open_session(EXAMPLE, {**data, "pick": data["pick"][:picks]}, MAPS_DIR).game.board  # the room's board after so many picks
        assert render_svg(board, kept, base) == render_svg(board, read_map_art(MAP_FOLDER), base), picks
        moved = render_svg(board, moved_kept, base)
        assert moved == render_svg(board, read_map_art(moved_folder), base), picks
        drawn_moved.add(moved)
    assert len(drawn_moved) == 4  # each step's picture differs: the comparison above is of four pictures


def test_each_territory_is_drawn_along_the_points_polygons_txt_gives_it(example_svg) -> None:
    """The path data is written as steps from each shape's first point (a third the size once compressed): read back,
    every point is where the map's polygons.txt puts it."""
    expected = {}
    for line in (MAP_FOLDER / "polygons.txt").read_text().splitlines():
        name, _, rest = line.partition("<")
        if rest:
            shapes = [[(float(x), float(y)) for x, y in re.findall(r"\((-?\d+),(-?\d+)\)", chunk)] for chunk in rest.split("<")]
            expected[name.strip()] = [shape for shape in shapes if len(shape) >= 3]
    drawn = {name: shapes_of(path) for name, path in paths(example_svg, "territories").items()}
    assert len(drawn) > 100 and all(drawn[name] == expected[name] for name in drawn)


def _cells_by_scanning_every_row(shape: list[tuple[int, int]], cell: int, width: int, height: int) -> list[tuple[int, int, int]]:
    """The grid cells a shape covers found the plain way, as labels were placed before: along each grid row, the
    row's centre line crossed with every edge of the shape (even-odd), widened by a cell on either side."""
    columns, rows = width // cell + 1, height // cell + 1
    ys = [y for _, y in shape]
    found = []
    for row in range(max(min(ys) // cell, 0), min(max(ys) // cell + 1, rows)):
        y = row * cell + cell / 2
        crossings = sorted(x1 + (y - y1) * (x2 - x1) / (y2 - y1) for (x1, y1), (x2, y2) in zip(shape, [*shape[1:], shape[0]]) if (y1 <= y) != (y2 <= y))
        for start, end in zip(crossings[::2], crossings[1::2]):
            first, last = max(int(start // cell), 0), min(int(end // cell), columns - 1)
            if max(first - 1, 0) < min(last + 2, columns):
                found.append((row, max(first - 1, 0), min(last + 2, columns)))
    return found


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.tuples(st.integers(-30, 130), st.integers(-30, 130)), min_size=3, max_size=12), st.integers(1, 16))
def test_the_cells_a_place_covers_are_those_each_rows_centre_line_crosses(points: list[tuple[int, int]], cell: int) -> None:
    """The labels keep off the cells a place covers (MapArt.spans): the same cells as scanning every row against
    every edge, for any polygon (concave, crossing itself, beyond the map's edges) and any cell size."""
    art = MapArt(Path("."), {"P": (tuple(points),)}, {}, {}, 100, 100)
    assert list(art.spans("P", cell)) == _cells_by_scanning_every_row(points, cell, 100, 100)


def test_the_cells_each_place_of_the_map_covers_are_those_each_rows_centre_line_crosses() -> None:
    art = read_map_art(MAP_FOLDER)
    for place, shapes in art.polygons.items():  # at the size the labels are placed by
        expected = [span for shape in shapes for span in _cells_by_scanning_every_row(list(shape), OCCUPANCY_CELL, art.width, art.height)]
        assert list(art.spans(place, OCCUPANCY_CELL)) == expected, place

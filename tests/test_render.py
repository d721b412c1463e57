"""The picture of a setup (render.py): read back from the SVG it writes."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner
from lxml import etree

from support.paths import AA50_1941, MAPS_DIR
from kremlin_triplea.cli.main import main
from kremlin_triplea.game import load
from kremlin_triplea.report.render import PALETTE, read_map_art, render_svg
from kremlin_triplea.draft.run import apply_draft, read_draft

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
            colors[key[len("color."):]] = "#" + value.strip().lower()
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
    assert "owner: Russians -> Germans" in texts
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
    without_base = tmp_path / "plain.svg"
    assert run("render", str(game), "-o", str(without_base)).exit_code == 0
    assert paths(etree.parse(str(without_base)), "changed") == {}


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
    (art / "polygons.txt").write_text("\n".join(l for l in lines if not l.startswith("Archangel ")) + "\n")
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

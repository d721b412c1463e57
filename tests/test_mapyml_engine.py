"""Every name we write into a map.yml is the name TripleA 2.7 reads back from it (issue 40).

TripleA lists a map's games from its map.yml, read with SnakeYAML (``MapDescriptionYaml``, the engine's jar in
../shared/triplea-engine-2.7). A name written as a plain scalar that SnakeYAML reads as something else (``1e3`` is
a float to it, a string to PyYAML) makes TripleA refuse the whole file: the map disappears, its stock games with
it. The expectations are TripleA's own reading of the files we write, and for a map without map.yml, the names
TripleA itself lists when it writes one (``MapDescriptionYaml.generateForMap``).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from kremlin_triplea.errors import InputError
from kremlin_triplea.gamefile.install import host_game_name, install_game
from kremlin_triplea.gamefile.locate import map_folder_without_yml, read_map_folder
from kremlin_triplea.gamefile.mapyml import game_entry, yaml_scalar
from support.mapyml27 import TripleaMapYml
from support.properties import examples

pytestmark = pytest.mark.engine

GAME = b"<?xml version='1.0'?><game><info name='x'/></game>"
#: Names a resolver reads as something else than a string in YAML 1.1 or 1.2, or as syntax.
AWKWARD = ["1e3", "true", "no", "null", "~", "0x10", "0o17", "1_000", ".inf", "12:30", ": x", "# x", "- x", "? x", "[x]", "{x}", "@x", "`x",
           " x ", "x #y", "'x'", '"x"', "x: y", "&a", "*a", "!x", "%x", "|", ">", "Café 1942", "Ünïcode", "日本 1941", "x\u2028y", "x\x85y"]  # fmt: skip


@pytest.fixture(scope="module")
def triplea() -> Iterator[TripleaMapYml]:
    reader = TripleaMapYml()
    yield reader
    reader.close()


def visible(text: str) -> bool:
    """A name TripleA lists at all: not blank to Java (our test of that: a letter or digit in it)."""
    return any(c.isalnum() for c in text)


def installable(text: str) -> bool:
    """A name the host's rules take as it is (plain, in its normal form)."""
    try:
        return host_game_name(text) == text and visible(text)
    except InputError:
        return False


any_text = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=30).filter(visible)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(map_name=any_text, game_name=any_text, file_stem=any_text)
@example(map_name="1e3", game_name="true", file_stem="null")
def test_every_scalar_we_write_is_read_back_by_triplea_as_written(triplea: TripleaMapYml, map_name: str, game_name: str, file_stem: str) -> None:
    with tempfile.TemporaryDirectory() as temporary:
        map_yml = Path(temporary) / "map.yml"
        text = f"map_name: {yaml_scalar(map_name)}\ngames:\n- {game_entry(game_name, file_stem + '.xml')}\n"
        map_yml.write_bytes(text.encode("utf-8"))
        assert triplea.read(map_yml) == {"map_name": map_name, "games": [[game_name, file_stem + ".xml"]]}


def a_map(folder: Path, text: str) -> Path:
    (folder / "map" / "games").mkdir(parents=True)
    (folder / "map.yml").write_text(text, encoding="utf-8")
    return folder


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names=st.lists(st.one_of(st.sampled_from(AWKWARD), st.text(min_size=1, max_size=40)).filter(installable), min_size=1, max_size=6, unique_by=str.lower))
@example(names=[n for n in AWKWARD if installable(n)])
def test_installed_games_are_listed_by_triplea_under_the_names_installed(triplea: TripleaMapYml, names: list[str]) -> None:
    with tempfile.TemporaryDirectory() as temporary:
        folder = a_map(Path(temporary) / "amap", "map_name: amap\ngames:\n- game_name: Stock\n  file_name: stock.xml\n")
        files = [install_game(read_map_folder(folder), name, GAME).game_file.name for name in names]
        assert triplea.read(folder / "map.yml") == {"map_name": "amap", "games": [["Stock", "stock.xml"], *map(list, zip(names, files, strict=True))]}


STOCK_GAMES = {
    # file name: its bytes (the names expected are the ones TripleA lists, asked in the test)
    "entity.xml": b'<?xml version="1.0" encoding="UTF-8"?>\n<game><info name="Caf&#233; 1942 &amp; &#x263A;" version="1"/></game>\n',
    "latin1.xml": '<?xml version="1.0" encoding="ISO-8859-1"?>\n<game><info name="Côte d\'Ivoire 1941"/></game>\n'.encode("latin-1"),
    "spaced.xml": b'<?xml version="1.0"?>\n<game><info name="  two\tspaced\nlines  "/></game>\n',
    "utf16.xml": '<?xml version="1.0" encoding="UTF-16"?>\n<game><info name="Ωmega 1939"/></game>\n'.encode("utf-16"),
    "single.xml": b"<?xml version='1.0'?>\n<game><info version='2' name='1e3'/></game>\n",
}


@pytest.mark.parametrize("map_name", ["plain_map", "1e3"])
def test_a_map_without_map_yml_is_listed_as_triplea_lists_it(triplea: TripleaMapYml, tmp_path: Path, map_name: str) -> None:
    """Installing into a map TripleA has not listed yet writes the map.yml TripleA would have written (its names), plus ours."""
    ours, theirs = tmp_path / "ours" / map_name, tmp_path / "theirs" / map_name
    for folder in (ours, theirs):
        (folder / "map" / "games").mkdir(parents=True)
        for file_name, data in STOCK_GAMES.items():
            (folder / "map" / "games" / file_name).write_bytes(data)
    expected = triplea.generate(theirs)
    assert expected is not None and len(expected["games"]) == len(STOCK_GAMES)
    found = map_folder_without_yml(ours)
    assert found is not None
    assert sorted([g.game_name, g.path.name] for g in found.games) == sorted(expected["games"])
    installed = install_game(found, "Kremlin 1e3", GAME)
    listed = triplea.read(ours / "map.yml")
    assert listed is not None and listed["map_name"] == expected["map_name"]
    assert sorted(listed["games"]) == sorted([*expected["games"], ["Kremlin 1e3", installed.game_file.name]])
    shutil.rmtree(theirs)

"""The real TripleA engine (1.9), driven by kremlin_triplea.engine, reads what it should.

These tests need Debian's ``triplea`` package (which brings a Java runtime) and JPype; they are not skipped without
them (scripts/test installs both), they fail with EngineUnavailable's message saying how to install.
"""

from __future__ import annotations

import sys
from pathlib import Path

import attrs
import pytest

from kremlin_triplea.engine import EngineReading
from support.paths import AA50_1941, CORPUS_DIR, CORPUS_GAMES, PINNED_GAMES, game_id

pytestmark = pytest.mark.engine

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

UNREADABLE_LIST = Path(__file__).parent / "data" / "engine-1.9-unreadable.toml"
UNREADABLE: dict[str, str] = tomllib.loads(UNREADABLE_LIST.read_text(encoding="utf-8"))["unreadable"]


# One JVM per group of files: starting it and loading the engine costs most of the time. The readings are the run's
# (conftest.py's engine_readings): other modules read the same games.
@pytest.fixture(scope="module")
def pinned_readings(engine_readings) -> dict[Path, EngineReading]:
    return dict(zip(PINNED_GAMES, engine_readings.read(PINNED_GAMES)))


@pytest.fixture(scope="module")
def corpus_readings(engine_readings) -> dict[Path, EngineReading]:
    # Whether the engine reads each game, not its rules report (test_engine_rules_report, the pinned games'): asking
    # the move validator about dragon_war.xml's 142 bridges took longer than a file's time-out on a loaded machine.
    return dict(zip(CORPUS_GAMES, engine_readings.read(CORPUS_GAMES, rules=False)))


@pytest.mark.parametrize("path", PINNED_GAMES, ids=game_id)
def test_engine_reads_pinned_game_without_dtd_errors(path: Path, pinned_readings: dict[Path, EngineReading]) -> None:
    reading = pinned_readings[path]
    assert reading.file == path
    assert reading.ok, reading.error
    assert reading.error is None
    assert reading.dtd_errors == ()
    assert reading.game_name
    assert reading.territories and reading.pus and reading.properties
    assert reading.rules.keys() == {"canals", "crossings", "players"}, reading.rules  # the report, not its error


@pytest.mark.parametrize("path", CORPUS_GAMES, ids=game_id)
def test_engine_reads_corpus_game_or_it_is_listed(path: Path, corpus_readings: dict[Path, EngineReading]) -> None:
    reading = corpus_readings[path]
    expected = UNREADABLE.get(path.name)
    if expected is None:
        assert reading.ok, f"{path.name} does not read; list it in {UNREADABLE_LIST.name}: {reading.error!r}"
    else:
        assert not reading.ok, f"{path.name} reads now; take it out of {UNREADABLE_LIST.name}"
        assert reading.error == expected


def test_unreadable_list_names_only_corpus_files() -> None:
    assert sorted(set(UNREADABLE) - {p.name for p in CORPUS_GAMES}) == []
    assert all((CORPUS_DIR / name).is_file() for name in UNREADABLE)


def copy_with(tmp_path: Path, name: str, source: Path, old: str, new: str) -> Path:
    text = source.read_text(encoding="utf-8")
    assert text.count(old) >= 1, f"{old!r} is not in {source}"
    target = tmp_path / name
    target.write_text(text.replace(old, new, 1), encoding="utf-8")
    return target


GERMANY = '<territory name="Germany"/>'
#: AA50 1941 with a unit placement whose owner is not a player: the owner and whether the DTD notices.
UNKNOWN_OWNERS = [
    ("Nobody", True),  # the DTD's IDREF finds no such ID, but the engine only collects that error
    ("infantry", False),  # a unit type's name is an ID too, so the DTD is satisfied
]


@pytest.fixture(scope="module")
def altered(tmp_path_factory: pytest.TempPathFactory, engine_readings) -> dict[str, EngineReading]:
    """AA50 1941 and the copies of it the tests below alter, read in one JVM, not one for each test."""
    folder = tmp_path_factory.mktemp("altered")
    games = {
        "original": AA50_1941,
        "element": copy_with(folder, "element.xml", AA50_1941, "<map>", "<map>\n    <kremlinBogus/>"),
        "attribute": copy_with(folder, "attribute.xml", AA50_1941, GERMANY, GERMANY.replace("/>", ' kremlinBogus="1"/>')),
    }
    for owner, _ in UNKNOWN_OWNERS:
        placement = f'<unitPlacement unitType="artillery" territory="Germany" quantity="3" owner="{owner}"/>'
        games[owner] = copy_with(folder, f"owner-{owner}.xml", AA50_1941, "<unitInitialize>", f"<unitInitialize>\n      {placement}")
    return dict(zip(games, engine_readings.read(games.values())))


def test_harness_reports_dtd_errors_the_engine_ignores(altered: dict[str, EngineReading]) -> None:
    element, attribute = altered["element"], altered["attribute"]

    assert element.ok, element.error  # the engine accepts files that break its own DTD
    assert any("kremlinBogus" in error for error in element.dtd_errors), element.dtd_errors
    assert attribute.ok, attribute.error
    assert any('Attribute "kremlinBogus"' in error for error in attribute.dtd_errors), attribute.dtd_errors


@pytest.mark.parametrize(("owner", "dtd_notices"), UNKNOWN_OWNERS)
def test_unit_of_unknown_owner_becomes_neutral(altered: dict[str, EngineReading], owner: str, dtd_notices: bool) -> None:
    """An engine fact our validator must make up for: TripleA turns an unknown owner into "no owner"."""
    original, reading = altered["original"], altered[owner]

    assert reading.ok, reading.error
    assert original.territories["Germany"].units.get((None, "artillery"), 0) == 0
    assert reading.territories["Germany"].units[(None, "artillery")] == 3
    assert reading.territories["Germany"].owner == "Germans"
    assert any(owner in error for error in reading.dtd_errors) == dtd_notices, reading.dtd_errors


def test_a_reading_without_the_rules_report_reads_the_game_alike(pinned_readings: dict[Path, EngineReading], engine_readings) -> None:
    """rules=False (the engine of record's judging, the corpus readings) leaves out the report and nothing else."""
    classic = next(path for path in PINNED_GAMES if path.name == "classic.xml")
    (reading,) = engine_readings.read([classic], rules=False)
    with_rules = pinned_readings[classic]
    assert with_rules.rules["crossings"] and reading.rules == {}
    assert attrs.evolve(reading, rules=with_rules.rules) == with_rules

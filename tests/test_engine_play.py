"""The real TripleA engine (1.9) plays our games: a round with every power played by its Fast AI.

These tests need Debian's ``triplea`` package and a JDK; they are not skipped without them (CI
installs both), they fail with EngineUnavailable's message saying how to install. They take about a
minute on two cores, nearly all of it the AI playing (a round of AA50 takes about 10 s).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kremlin_triplea import load
from kremlin_triplea.engine.play import PlayReport, play_with_engine
from kremlin_triplea.model.changes import PlaceUnits
from support.paths import AA50_1941, AA50_1942, MAPS_DIR, game_id

pytestmark = pytest.mark.engine

CLASSIC = MAPS_DIR / "world_war_ii_classic" / "map" / "games" / "classic.xml"
KREMLIN = MAPS_DIR / "classic_variations" / "map" / "games" / "kremlin.xml"

#: Every base game the project targets.
BASE_GAMES = [
    AA50_1941,
    AA50_1942,
    CLASSIC,
    MAPS_DIR / "world_war_ii_classic" / "map" / "games" / "classic_3rd_edition.xml",
    KREMLIN,
    MAPS_DIR / "world_war_ii_revised" / "map" / "games" / "ww2v2.xml",
    MAPS_DIR / "world_war_ii_revised" / "map" / "games" / "lhtr.xml",
]


@pytest.fixture(scope="module")
def changed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """WW2v3 1941 with three more German infantry in Finland, written by us."""
    game = load(AA50_1941)
    game.board.push(PlaceUnits("Finland", "Germans", "infantry", 3))
    return game.save(tmp_path_factory.mktemp("changed") / "x.xml")


# One JVM for all: several games play one after another, and the JIT warms up once. The game we changed plays
# in the same JVM, after the base games.
@pytest.fixture(scope="module")
def base_reports(changed: Path) -> dict[Path, PlayReport]:
    games = [*BASE_GAMES, changed]
    return dict(zip(games, play_with_engine(games)))


def readings_before_play(engine_readings, changed: Path) -> list:
    """TripleA 1.9's readings of the base games and the changed game, in that order, in one JVM (or read already)."""
    return engine_readings.read([*BASE_GAMES, changed])


@pytest.mark.parametrize("path", BASE_GAMES, ids=game_id)
def test_base_game_plays_a_round_with_fast_ai(path: Path, base_reports: dict[Path, PlayReport]) -> None:
    report = base_reports[path]
    assert report.file == path
    assert report.ok, report.error
    assert (report.error, report.exceptions) == (None, ())
    assert report.rounds_played == 1
    assert not report.timed_out and not report.game_over
    assert report.final is not None
    # Every power had its turn, and the round was closed.
    assert sum(step.endswith("EndTurn") for step in report.steps) == len(report.final.pus)
    assert report.steps[-1] == "endRoundStep"


def test_the_ai_really_played(base_reports: dict[Path, PlayReport], engine_readings, changed: Path) -> None:
    """Not a round of passes: units were bought, placed and moved, and territories changed hands."""
    taken = []
    for path, before in zip(BASE_GAMES, readings_before_play(engine_readings, changed)):
        final = base_reports[path].final
        assert final is not None
        assert final.territories.keys() == before.territories.keys()
        moved = [name for name, t in before.territories.items() if final.territories[name].units != t.units]
        assert len(moved) >= 10, (path.name, moved)
        assert final.pus != before.pus, path.name
        taken += [name for name, t in before.territories.items() if final.territories[name].owner != t.owner]
    # Dice decide each attack, but not all of them in seven games.
    assert taken


def with_text(tmp_path: Path, name: str, source: Path, old: str, new: str) -> Path:
    text = source.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} is not in {source} exactly once"
    target = tmp_path / name
    target.write_text(text.replace(old, new), encoding="utf-8")
    return target


@pytest.fixture(scope="module")
def special(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Games the engine reads without a word: two break only in play, one is won in the first round."""
    folder = tmp_path_factory.mktemp("special")
    # A trigger that sets infantry's attack to a word when the Russians start to purchase: the engine
    # checks the value only when the trigger fires, and then only logs the failure and plays on.
    trigger = with_text(
        folder,
        "trigger.xml",
        KREMLIN,
        "  </attachmentList>",
        '    <attachment name="triggerAttachmentKremlinBroken" attachTo="Russians"'
        ' javaClass="games.strategy.triplea.attachments.TriggerAttachment" type="player">\n'
        '      <option name="conditions" value="conditionAttachmentTurn1"/>\n'
        '      <option name="when" value="before:russianPurchase"/>\n'
        '      <option name="unitType" value="infantry"/>\n'
        '      <option name="unitProperty" value="attack" count="strong"/>\n'
        "    </attachment>\n"
        "  </attachmentList>",
    )
    # A purchase step run by the move delegate: the delegate throws as the step starts.
    step = with_text(
        folder,
        "step.xml",
        CLASSIC,
        '<step name="russianPurchase" delegate="purchase"',
        '<step name="russianPurchase" delegate="move"',
    )
    # The Axis win by production at the end of the first round.
    victory = with_text(
        folder,
        "victory.xml",
        CLASSIC,
        '<property name="Axis Economic Victory" value="84" editable="true">\n      <number min="70" max="147"/>',
        '<property name="Axis Economic Victory" value="1" editable="true">\n      <number min="1" max="147"/>',
    )
    return {"trigger": trigger, "step": step, "victory": victory}


@pytest.fixture(scope="module")
def special_reports(special: dict[str, Path]) -> dict[str, PlayReport]:
    return dict(zip(special, play_with_engine(special.values())))


def test_special_games_read_without_complaint(special: dict[str, Path], engine_readings) -> None:
    for reading in engine_readings.read(special.values()):
        assert reading.ok, reading.error
        assert reading.dtd_errors == ()


def test_exception_the_engine_only_logs_fails_the_game(special_reports: dict[str, PlayReport]) -> None:
    report = special_reports["trigger"]
    assert not report.ok
    assert report.rounds_played == 1  # the engine itself carried on
    assert len(report.exceptions) == 1, report.exceptions
    (exception,) = report.exceptions
    assert exception.startswith("logged by games.strategy.engine.message.unifiedmessenger.UnifiedMessenger: ")
    assert "Could not set property:attack" in exception
    assert "strong is not a valid int value" in exception
    assert report.error == f"the engine reported 1 exception(s), the first {exception}"


def test_exception_the_engine_throws_fails_the_game(special_reports: dict[str, PlayReport]) -> None:
    report = special_reports["step"]
    assert not report.ok
    assert report.error == ("the engine failed in round 1: IllegalStateException: Cannot determine combat or not: russianPurchase")
    (exception,) = report.exceptions
    assert exception.startswith(
        "thrown by the game: java.lang.IllegalStateException: Cannot determine combat or not: russianPurchase"
        " (at games.strategy.triplea.delegate.GameStepPropertiesHelper.isCombatMove("
    )
    assert report.rounds_played == 0
    assert report.steps == ("gameInitDelegate", "russianTech", "russianTechActivation", "russianPurchase")
    assert report.final is not None and not report.timed_out


def test_a_victory_ends_the_game_and_it_stops_cleanly(special_reports: dict[str, PlayReport]) -> None:
    report = special_reports["victory"]
    assert report.ok, report.error
    assert report.game_over  # the engine stopped stepping; the harness then stopped the game
    assert report.rounds_played == 1 and report.steps[-1] == "endRoundStep"
    # Asked for two rounds, the game still ends after the first.
    (again,) = play_with_engine([report.file], rounds=2)
    assert again.ok and again.game_over and again.rounds_played == 1


def test_a_game_past_its_timeout_fails_and_the_rest_still_play(tmp_path: Path) -> None:
    missing = tmp_path / "missing.xml"
    slow, after = play_with_engine([AA50_1941, missing], timeout=1)

    assert slow.file == AA50_1941
    assert (slow.ok, slow.timed_out, slow.error) == (False, True, "timed out after 1 s")
    assert slow.final is None and slow.rounds_played == 0
    # The timed-out JVM is abandoned; the next file is played in a fresh one.
    assert after.file == missing and not after.timed_out
    assert not after.ok
    assert after.error is not None and after.error.startswith("the engine cannot read the game: FileNotFoundException")


def test_changed_game_reads_as_written_and_plays(changed: Path, base_reports: dict[Path, PlayReport], engine_readings) -> None:
    readings = readings_before_play(engine_readings, changed)
    original, reading = readings[BASE_GAMES.index(AA50_1941)], readings[-1]
    assert reading.ok, reading.error
    assert original.territories["Finland"].units[("Germans", "infantry")] == 2
    assert reading.territories["Finland"].units[("Germans", "infantry")] == 5
    assert {n: t for n, t in reading.territories.items() if n != "Finland"} == {n: t for n, t in original.territories.items() if n != "Finland"}

    report = base_reports[changed]
    assert report.file == changed
    assert report.ok, report.error
    assert report.exceptions == () and report.rounds_played == 1


def test_rounds_and_timeout_are_checked() -> None:
    with pytest.raises(ValueError, match="rounds must be at least 1"):
        play_with_engine([AA50_1941], rounds=0)
    with pytest.raises(ValueError, match="timeout must be positive"):
        play_with_engine([AA50_1941], timeout=0)

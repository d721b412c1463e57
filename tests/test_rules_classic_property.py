"""Random legal drafts of kremlin-classic (001) and kremlin-daak (002) on their games, and the real engine reading and playing them.

As tests/test_rules_property.py does for AA50: every choice comes from the
legal enumeration, so whatever it lists must be accepted; the written game must
read back to the same board and validate. One JVM reads the batch (the example
drafts and random ones) and one JVM plays a round of Fast AI on each example.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kremlin_triplea.draft.legal import legal_choices
from kremlin_triplea.draft.run import DraftRun, draft_from_dict, read_draft
from kremlin_triplea.game import Game
from kremlin_triplea.gamefile.document import XmlDocument
from kremlin_triplea.model.board import Board
from kremlin_triplea.report.notes import add_notes
from kremlin_triplea.session import apply_draft
from support.aa50 import fresh_game
from support.classic import RULESET_GAMES, game_id
from support.drafts import board_view, random_draft
from support.engine import position_disagreements
from support.paths import MAPS_DIR

EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "examples").glob("kremlin-classic-*.toml")) + sorted(
    (Path(__file__).resolve().parents[1] / "examples").glob("kremlin-daak-*.toml")
)


def apply_and_write(data: dict[str, Any], game: Path) -> tuple[Game, bytes]:
    result = add_notes(apply_draft(draft_from_dict(data), fresh_game(game)))
    return result.game, result.game.to_bytes()


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_random_legal_classic_drafts_apply_read_back_and_validate(data: st.DataObject) -> None:
    from kremlin_triplea.check.validate import find_dtd, validate_tree

    ruleset, game = data.draw(st.sampled_from(RULESET_GAMES))
    per_side = data.draw(st.integers(min_value=2, max_value=4))
    draft = random_draft(lambda seq: data.draw(st.sampled_from(list(seq))), ruleset, game, data.draw(st.sampled_from(["Axis", "Allies"])), per_side)
    written_game, written = apply_and_write(draft, game)
    again = Game(XmlDocument(written, source="written.xml"))
    assert board_view(again) == board_view(written_game)
    base_problems = {p.message for p in validate_tree(fresh_game(game).document.root, "base.xml", dtd=find_dtd())}
    assert [p for p in validate_tree(again.document.root, "written.xml", dtd=find_dtd()) if p.message not in base_problems] == []


def test_001_allows_an_option_again_in_the_second_set_of_nine_picks() -> None:
    # 001 2.: "...unless the players are choosing over nine picks whereupon the rule is in effect for the second set of nine picks"
    rng = random.Random(7)
    ruleset, game = RULESET_GAMES[0]
    run = DraftRun(draft_from_dict({"ruleset": ruleset, "first": "Axis", "picks_per_side": 10}), fresh_game(game))
    for _ in range(1, 19):
        next_pick = legal_choices(run)
        available = [o for o in next_pick.options if o.available]
        # The first nine picks of a side use nine different options, so every option is used once.
        assert {o.option.number for o in available} == set(range(1, 10)) - set(run.state.used[next_pick.side])
        option = rng.choice(available).option.number
        run.push(rng.choice([p for p in run.legal_picks if p.option.number == option]))
    assert sorted(run.state.used["Axis"]) == list(range(1, 10))
    tenth = legal_choices(run)
    assert tenth.side == "Axis" and not all(o.unavailable == "the Axis already took option 1" for o in tenth.options if o.option.number == 1)


@pytest.fixture(scope="module")
def written_batch(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, Board]:
    """The example drafts and one random draft per target game, written for the engine."""
    folder = tmp_path_factory.mktemp("classic")
    expected: dict[Path, Board] = {}
    for example in EXAMPLES:
        result = apply_draft(read_draft(example), maps_dir=MAPS_DIR)
        path = folder / f"{example.stem}.xml"
        path.write_bytes(result.game.to_bytes())
        expected[path] = result.game.board.copy()
    for seed, (ruleset, game) in enumerate(RULESET_GAMES):
        rng = random.Random(seed)
        draft = random_draft(lambda seq, rng=rng: rng.choice(list(seq)), ruleset, game, rng.choice(["Axis", "Allies"]), 4)
        written_game, written = apply_and_write(draft, game)
        path = folder / f"random-{seed}-{ruleset}-{Path(game).stem}.xml"
        path.write_bytes(written)
        expected[path] = written_game.board.copy()
    return expected


def test_examples_cover_each_target_game() -> None:
    games = {str(read_draft(e).game) for e in EXAMPLES}
    assert games == {game_id(g) for _, g in RULESET_GAMES}


@pytest.mark.engine
def test_real_engine_reads_the_classic_drafts_as_written(written_batch: dict[Path, Board]) -> None:
    """One JVM: owners, units, PUs, the game name and the bid properties as our board has them."""
    from kremlin_triplea.engine import read_with_engine

    readings = read_with_engine(list(written_batch))
    for (path, board), reading in zip(written_batch.items(), readings):
        assert reading.ok, f"{path}: {reading.error}"
        assert reading.dtd_errors == ()
        assert reading.game_name == board.game_name
        assert position_disagreements(board, reading) == {}
        assert dict(reading.pus) == dict(board.pus)
        for name in ("Germans bid", "Japanese bid", "Movement By Territory Restricted", "Two hit battleship", "Allies Economic Victory", "Low Luck"):
            assert reading.properties[name] == board.properties[name], (path, name)
        # The engine names techs for people ("Jet Power"); the techAttachment option is "jetPower".
        engine_names = {"Jet Power": "jetPower", "Super subs": "superSub", "Super Subs": "superSub"}
        for power in ("Germans", "Japanese"):
            assert sorted(engine_names.get(t, t) for t in reading.rules["players"][power]["techs"]) == sorted(board.techs.get(power, ())), path
    daak = next(p for p in written_batch if p.stem == "kremlin-daak-classic")
    assert (readings[list(written_batch).index(daak)].properties["Germans bid"], written_batch[daak].properties["Japanese bid"]) == ("6", "4")


@pytest.mark.engine
def test_fast_ai_plays_a_round_of_each_example(written_batch: dict[Path, Board]) -> None:
    from kremlin_triplea.engine.play import play_with_engine

    examples = [p for p in written_batch if not p.stem.startswith("random-")]
    for path, report in zip(examples, play_with_engine(examples)):
        assert report.ok, f"{path}: {report.error} {report.exceptions}"
        assert report.rounds_played == 1 and not report.timed_out
        assert report.exceptions == ()

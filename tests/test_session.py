"""The session layer: a draft in progress is one object, driven by pushing steps and popping them back.

What the rules say a step may do is the draft engine's (tests/test_rules_*.py); here: a pushed step changes the
board and the draft file exactly as far as a pop takes back, a refused step changes nothing, and a draft file
opened and written again from its steps is the same draft (it applies to the same game).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kremlin_triplea.draft.run import draft_from_dict, read_draft
from kremlin_triplea.errors import RuleViolation
from kremlin_triplea.session import Bid, Session, apply_draft
from support.aa50 import GAMES, fresh_game
from support.paths import EXAMPLES_DIR, MAPS_DIR

EXAMPLE = EXAMPLES_DIR / "kremlin-aa50-1941.toml"


def new_session(year: str, first: str, per_side: int) -> Session:
    data = {"ruleset": "kremlin-aa50", "game": str(GAMES[year]), "first": first, "picks_per_side": per_side}
    return Session(draft_from_dict(data, "draft.toml"), fresh_game(GAMES[year]))


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_random_legal_picks_pushed_then_popped_give_back_the_same_board_and_draft_file(data: st.DataObject) -> None:
    year = data.draw(st.sampled_from(sorted(GAMES)))
    session = new_session(year, data.draw(st.sampled_from(["Axis", "Allies"])), 4)
    before: list[tuple[bytes, dict]] = []
    for _ in range(data.draw(st.integers(min_value=1, max_value=5))):
        legal = list(session.legal_picks)
        before.append((session.game.to_bytes(), session.to_toml()))
        pick = data.draw(st.sampled_from(legal))
        assert session.is_legal(pick)
        session.push(pick)
        assert session.to_toml()["pick"][-1] == pick.to_toml()
    while before:
        board, toml = before.pop()
        session.pop()
        assert session.game.to_bytes() == board
        assert session.to_toml() == toml
    assert session.game.to_bytes() == fresh_game(GAMES[year]).to_bytes()


def test_a_refused_pick_changes_neither_the_board_nor_the_draft_file() -> None:
    session = new_session("1941", "Axis", 4)
    pick = next(iter(session.legal_picks))
    session.push(pick)
    board, toml = session.game.to_bytes(), session.to_toml()
    # 000 "Picks alternate": the Axis picked first, so the next pick is the Allies'; the Axis' pick again is refused.
    repeat = type(pick)(index=2, side="Axis", option=pick.option, target=pick.target)
    assert not session.is_legal(repeat)
    with pytest.raises(RuleViolation, match="Allies' turn"):
        session.push(repeat)
    assert session.game.to_bytes() == board
    assert session.to_toml() == toml


def test_a_draft_file_opened_and_written_from_its_steps_is_the_same_draft(tmp_path: Path) -> None:
    original = Session.open(EXAMPLE, maps_dir=MAPS_DIR)
    copy = tmp_path / "again.toml"
    original.save(copy)
    reopened = Session.open(copy, maps_dir=MAPS_DIR)
    assert reopened.to_toml() == original.to_toml()
    assert reopened.steps == original.steps
    # The same game as the draft engine's own applier makes of the file as the host wrote it.
    assert reopened.result().game.to_bytes() == apply_draft(read_draft(EXAMPLE), maps_dir=MAPS_DIR).game.to_bytes()


def test_the_bid_is_a_step_popped_like_a_pick() -> None:
    session = Session.open(EXAMPLE, maps_dir=MAPS_DIR)
    assert isinstance(session.steps[-1], Bid)
    with_bid = session.game.to_bytes()
    bid = session.pop()
    assert "bid" not in session.to_toml()
    session.push(bid)
    assert session.game.to_bytes() == with_bid

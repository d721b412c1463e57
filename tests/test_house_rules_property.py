"""Random Kremlin drafts, then every house set with every advantage, on every game both are for (issue 41).

Each example draws a whole Kremlin draft from the legal picks (support.drafts.random_draft), writes it as ``apply``
does, reads the written game back as ``house`` reads it, and applies each house set that game's map is for, with the
n-th advantage of every power (all of them over n) and the seed's places. A set is written, or refused in a sentence
naming a rule; written, the game breaks no board invariant the draft's game did not (model/invariants.py) and holds
no attachment or game option twice (validate's finding). The quick subset draws a quarter of the examples.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kremlin_triplea.draft.invariants import board_problems, new_problems
from kremlin_triplea.draft.rulesets import load_named_ruleset
from kremlin_triplea.draft.run import draft_from_dict
from kremlin_triplea.errors import KremlinError
from kremlin_triplea.game import load
from kremlin_triplea.gamerules.house import apply_house_rules
from kremlin_triplea.rules.house_rules import HouseChoices, load_named_house_set
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.profile import profile_for_game
from kremlin_triplea.session import apply_draft
from support.aa50 import GAMES, fresh_game
from support.classic import RULESET_GAMES
from support.drafts import random_draft
from support.house import TARGETS, duplicates
from support.properties import examples

# Every pinned game a Kremlin ruleset and a house set are both for.
PAIRS = [(ruleset, game) for ruleset, game in [("kremlin-aa50", GAMES["1941"]), ("kremlin-aa50", GAMES["1942"]), *RULESET_GAMES]]
SETS = {game: set_id for set_id, games in TARGETS.items() for game in games}
# 000 D(3) writes the straits 004 HR1-HR3 write otherwise: on a Kremlin AA50 game those switches are off, as the
# refusal tells the host (test_house_rules_gate.py checks the refusal itself).
AFTER_KREMLIN = {"kremlin-aa50": {"hr1_black_sea": False, "hr2_baltic": False, "hr3_gibraltar": False}}


def _house_after_draft(ruleset: str, game_path: Path, draft: dict, tmp_path: Path) -> tuple[int, int]:
    result = apply_draft(draft_from_dict(draft), fresh_game(game_path))
    written = tmp_path / "kremlin.xml"
    written.write_bytes(result.game.to_bytes())
    game = load(written)
    names = Names(game.board, profile_for_game(game), tuple(game.board.catalog.alliances()))
    factories = names.units_of_any_power("factory")
    base = board_problems(game.board, factories)
    already = duplicates(written.read_bytes())
    house = load_named_house_set(SETS[game_path])
    most = max(len(house.advantages_of(power)) for power in house.powers)
    made = refused = 0
    for n in range(most):
        chosen = {power: house.advantages_of(power)[n % len(house.advantages_of(power))].id for power in house.powers}
        twin = game.copy()
        choices = HouseChoices(house.id, switches=AFTER_KREMLIN.get(ruleset, {}), advantages=chosen, seed=n)
        try:
            apply_house_rules(twin, [choices])
        except KremlinError as error:
            # Refused in a sentence naming the set's rule or advantage, changing nothing.
            assert house.id in str(error) or any(r.title in str(error) for r in house.rules.rules) or "advantage" in str(error), str(error)
            assert twin.board.changes == []
            refused += 1
            continue
        assert new_problems(base, twin.board, factories) == [], chosen
        assert duplicates(twin.to_bytes()) == already, chosen
        made += 1
    return made, refused


def _draw_and_check(ruleset: str, game: Path, data: st.DataObject, tmp_path: Path) -> None:
    first = data.draw(st.sampled_from(["Axis", "Allies"]))
    picks = load_named_ruleset(ruleset).picks
    per_side = data.draw(st.integers(min_value=picks.min, max_value=min(picks.max or picks.min + 2, picks.min + 2)))
    draft = random_draft(lambda seq: data.draw(st.sampled_from(list(seq))), ruleset, game, first, per_side)
    made, _ = _house_after_draft(ruleset, game, draft, tmp_path)
    assert made  # not every advantage refused: the sets join the drafts


HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture]


@pytest.mark.parametrize(("ruleset", "game"), PAIRS, ids=lambda v: getattr(v, "name", v))
@settings(max_examples=1, deadline=None, suppress_health_check=HEALTH)
@given(data=st.data())
def test_a_random_draft_then_every_house_set_and_advantage_keep_the_board(ruleset: str, game: Path, data: st.DataObject, tmp_path: Path) -> None:
    _draw_and_check(ruleset, game, data, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "game"), PAIRS, ids=lambda v: getattr(v, "name", v))
@settings(max_examples=examples(12), deadline=None, suppress_health_check=HEALTH)
@given(data=st.data())
def test_random_drafts_then_every_house_set_and_advantage_keep_the_board(ruleset: str, game: Path, data: st.DataObject, tmp_path: Path) -> None:
    _draw_and_check(ruleset, game, data, tmp_path)

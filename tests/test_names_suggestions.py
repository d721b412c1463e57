"""A draft's unknown name: "did you mean" offers the game's own names only (issue 46: it offered rule-text
aliases, and for a numbered sea zone the map lacks, other sea zones by the spelling of their numbers)."""

from __future__ import annotations

import pytest

from kremlin_triplea.draft.rulesets import load_named_ruleset
from kremlin_triplea.draft.run import draft_from_dict
from kremlin_triplea.errors import UnknownNameError
from kremlin_triplea.game import load
from kremlin_triplea.session import Session
from support.paths import AA50_1941


@pytest.fixture(scope="module")
def names():
    ruleset = load_named_ruleset("kremlin-aa50")
    return Session(draft_from_dict({"ruleset": ruleset.id, "first": "Axis"}), load(AA50_1941), ruleset=ruleset).names


def test_a_misspelt_place_is_offered_the_game_s_name_not_the_rule_text_s(names) -> None:
    """maps/world_war_ii_v3.toml calls AA50's Western United States "Western USA" (the rule text's): both are
    accepted, and a misspelling of either is offered the game's name."""
    assert names.territory("Western USA") == names.territory("Western United States") == "Western United States"
    with pytest.raises(UnknownNameError) as error:
        names.territory("Westren USA")
    assert error.value.close and all(c in names.board.nodes for c in error.value.close), error.value.close
    assert "Western USA" not in error.value.close


def test_a_numbered_sea_zone_the_map_lacks_is_offered_no_other_numbered_sea_zone(names) -> None:
    """The rule text's numbers are its own map's: "Seazone 99" is not "9 Sea Zone" or "19 Sea Zone" by spelling."""
    with pytest.raises(UnknownNameError) as error:
        names.sea_zone("Seazone 99")
    assert not [c for c in error.value.close if any(ch.isdigit() for ch in c)], error.value.close

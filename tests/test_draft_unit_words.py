"""A draft names units by the rule text's words ("tank") as well as the game's: read through the placing power's
own unit table where the map profile gives it one (issue 46 item 7: the shared table's Tank, which the Germans of
Total World War cannot buy, was taken for the German player's "tank")."""

from __future__ import annotations

from pathlib import Path

import pytest
import tomllib

from kremlin_triplea.draft.rulesets import load_named_ruleset
from kremlin_triplea.draft.run import draft_from_dict
from kremlin_triplea.game import load
from kremlin_triplea.rules.profile import load_profile
from kremlin_triplea.rules.tomlfile import Section
from kremlin_triplea.session import Session
from kremlin_triplea.tools.place_evidence import shipped_known_places
from kremlin_triplea.tools.profiles import new_profile

TWW = Path(__file__).parent / "data" / "total_world_war" / "Total_World_War_Dec1941_3.0.xml"


@pytest.fixture(scope="module")
def drafted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    written = tmp_path_factory.mktemp("tww") / "tww.toml"
    written.write_text(
        new_profile(load(TWW), [load_named_ruleset("kremlin-aa50")], known=shipped_known_places(), key=str(TWW.resolve())).text, encoding="utf-8"
    )
    return written


def test_a_draft_s_rule_text_unit_word_is_the_placing_power_s_own_unit(drafted: Path) -> None:
    """A bid's placements (and a placement pick's, read by the same UnitPlacement.list_from_toml): "tank" for
    Germany is germanTank, the type its own table gives, not the shared Tank (the Americans' and others')."""
    own = tomllib.loads(drafted.read_text(encoding="utf-8"))["units_by_power"]
    assert own["Germany"]["tank"] == "germanTank"  # the profile's per-power table, as profile new drafts it
    game = load(TWW)
    assert "Tank" in game.board.catalog.unit_types  # the shared table's reading of the word
    ruleset = load_named_ruleset("kremlin-aa50")
    session = Session(draft_from_dict({"ruleset": ruleset.id, "first": "Axis"}), game, ruleset=ruleset, profile=load_profile(drafted))
    data = {"axis": 6, "place": [{"power": "Germany", "unit": "tank", "at": "Western Germany"}, {"power": "Italy", "unit": "tank", "at": "Northern Italy"}]}
    bid = session.run.parse_bid(Section(data, "draft.toml", "bid", counted=True))
    assert [(p.power, p.unit) for p in bid.placements] == [("Germany", "germanTank"), ("Italy", "italianTank")]

"""The room's new draft runs the house check the terminal and `apply` run (issue 41): one function,
:meth:`Session.house_problem`, the board's invariants included, not only the conflicts between the sets' rules.

A host's own set (a draft may name one beside it) gives the Soviets an infantry on Kazakh S.S.R. at set-up, as 003's
Far Eastern Advantage does ("one additional infantry on Kazakh"); 001 option 8's takeover made Kazakh Japanese first.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kremlin_triplea.cli.main import main
from kremlin_triplea.draft.run import draft_from_dict
from kremlin_triplea.errors import KremlinError, RuleViolation
from kremlin_triplea.session import Session, apply_draft
from kremlin_triplea.web.room import checked_draft
from support.aa50 import fresh_game
from support.paths import MAPS_DIR

CLASSIC_3RD = MAPS_DIR / "world_war_ii_classic" / "map" / "games" / "classic_3rd_edition.xml"

KAZAKH_INFANTRY = """id = "house-kazakh"
title = "A host's own set"
source = "the host"
maps = ["world_war_ii_classic"]

[[rule]]
id = "kazakh-infantry"
title = "Kazakh garrison"
source = "the host"
rule = "The Soviets start with one additional infantry on Kazakh."
enforced_by = "game"
[[rule.change]]
kind = "place_units"
power = "USSR"
units = { infantry = 1 }
at = "Kazakh S.S.R."
"""

# 001 option 8 "Takeover of enemy held territory": Japan takes Kazakh (as tests/test_house_rules_gate.py's drafts).
DRAFT = {
    "ruleset": "kremlin-classic",
    "game": str(CLASSIC_3RD),
    "first": "Axis",
    "picks_per_side": 2,
    "pick": [
        {"side": "Axis", "option": 8, "takeover": {"territory": "Kazakh S.S.R.", "by": "Japan"}},
        {"side": "Allies", "option": 1, "place": [{"power": "UK", "unit": "infantry", "count": 3, "at": "East Canada"}]},
    ],
    "house_rules": ["house-kazakh.toml"],
    "choices": ["house_victory"],
}


def test_the_room_refuses_a_new_draft_the_terminal_and_apply_refuse_in_the_same_words(tmp_path: Path) -> None:
    (tmp_path / "house-kazakh.toml").write_text(KAZAKH_INFANTRY, encoding="utf-8")
    path = tmp_path / "draft.toml"
    terminal = Session.from_draft(draft_from_dict(DRAFT, str(path))).house_problem({})  # what the terminal asks as each set is taken
    assert isinstance(terminal, RuleViolation)
    assert "Kazakh garrison" in str(terminal) and "Kazakh S.S.R. belongs to Japanese" in str(terminal)
    with pytest.raises(RuleViolation) as applied:  # apply, once the picks are all made
        finished = {**DRAFT, "pick": [*DRAFT["pick"], *_last_picks()]}
        apply_draft(draft_from_dict(finished, str(path)), fresh_game(CLASSIC_3RD))
    assert "Kazakh garrison" in str(applied.value)
    with pytest.raises(KremlinError) as room:
        checked_draft(path, DRAFT, MAPS_DIR)
    assert str(room.value) == str(terminal)
    assert not path.exists()


def test_the_room_takes_a_new_draft_the_terminal_takes(tmp_path: Path) -> None:
    (tmp_path / "house-kazakh.toml").write_text(KAZAKH_INFANTRY, encoding="utf-8")
    draft = {**DRAFT, "pick": DRAFT["pick"][1:] + [{"side": "Axis", "option": 4, "place": [{"power": "Germany", "unit": "fighter", "at": "Germany"}]}]}
    path = tmp_path / "draft.toml"
    draft["first"] = "Allies"
    assert Session.from_draft(draft_from_dict(draft, str(path))).house_problem({}) is None
    assert checked_draft(path, draft, MAPS_DIR).house_rules == ["house-kazakh.toml"]


def _last_picks() -> list[dict]:
    return [
        {"side": "Axis", "option": 4, "place": [{"power": "Germany", "unit": "fighter", "at": "Germany"}]},
        {"side": "Allies", "option": 4, "place": [{"power": "UK", "unit": "fighter", "at": "United Kingdom"}]},
    ]


BRITISH_IN_GERMANY = (
    KAZAKH_INFANTRY.replace("house-kazakh", "house-germany")
    .replace("Kazakh garrison", "British raid")
    .replace("The Soviets start with one additional infantry on Kazakh.", "The British start with one infantry in Germany.")
    .replace('power = "USSR"', 'power = "UK"')
    .replace('at = "Kazakh S.S.R."', 'at = "Germany"')
)


def test_serve_refuses_to_start_a_draft_whose_house_set_breaks_the_board(tmp_path: Path) -> None:
    # A host's set giving the British an infantry in Germany at set-up: no pick needed, the game given blocks it. (Before,
    # the room started the draft and only apply refused it, after every pick.)
    (tmp_path / "house-germany.toml").write_text(BRITISH_IN_GERMANY, encoding="utf-8")
    draft = tmp_path / "new.toml"
    args = ["--maps-dir", str(MAPS_DIR), "serve", str(draft), "--ruleset", "kremlin-classic", "--game", str(CLASSIC_3RD), "--first", "Axis"]
    result = CliRunner().invoke(main, [*args, "--house-rules", str(tmp_path / "house-germany.toml")])
    assert result.exit_code == 1, result.output
    assert "British raid" in result.output and "Germany belongs to Germans but holds units of British" in result.output
    assert "Traceback" not in result.output and not draft.exists()

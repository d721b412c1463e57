"""Random Kremlin drafts, then every house set with every advantage, on every game both are for (issue 41).

Each example draws a whole Kremlin draft from the legal picks (support.drafts.random_draft) and writes each house set
with the n-th advantage of every power (all of them over n) and the seed's places, in both ways a host writes them:
``house`` on the game ``apply`` wrote, read back as ``house`` reads it, and the set in the draft itself (its
``house_rules``), written by ``apply``. Every house set: on a map it was not written for, through the game's profile
listing it in `rulesets`, as a host opens a set to a map. A set is written, or refused in a sentence naming it or a
rule; written, the game read back from its bytes breaks no board invariant the draft's game did not
(model/invariants.py) and holds no attachment or game option twice (validate's finding). The quick subset writes the
game's own set through ``house``, one example per game; the slow tier every set both ways.
"""

from __future__ import annotations

import re
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
from kremlin_triplea.rules.datafiles import named_rule_files
from kremlin_triplea.rules.house_rules import HouseChoices, load_named_house_set
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.profile import Profile, load_profile, profile_for_game
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


#: The draft's choice settling a house set's conflict with a Kremlin ruleset, as the refusal names it: 003 Winning over
#: 001 header 4 / 002 I. (test_house_rules_gate.py checks the refusal and the choice).
DRAFT_CHOICES = {("kremlin-classic", "house-classic"): ["house_victory"], ("kremlin-daak", "house-classic"): ["house_victory"]}


def _listing(profile: Profile, set_id: str, folder: Path) -> Path:
    """The game's profile with the set in its `rulesets` (the line a host adds to open a set to the map), beside ``folder``."""
    text = Path(profile.path).read_text(encoding="utf-8")
    line = re.search(r"^rulesets = \[(.*)\]$", text, re.M)
    assert line is not None, profile.path
    if f'"{set_id}"' not in line.group(1):
        text = text.replace(line.group(0), f'rulesets = [{line.group(1)}, "{set_id}"]')
    listed = folder / f"{set_id}-{Path(profile.path).name}"
    listed.write_text(text, encoding="utf-8")
    return listed


def _keeps_the_board(written: bytes, folder: Path, base: set, already: list[str], chosen: dict) -> None:
    """The written game, read back from its bytes as TripleA and ``house`` read it: no invariant broken the draft's game
    did not break, nothing declared twice."""
    path = folder / "house.xml"
    path.write_bytes(written)
    game = load(path)
    names = Names(game.board, profile_for_game(game), tuple(game.board.catalog.alliances()))
    assert new_problems(base, game.board, names.units_of_any_power("factory")) == [], chosen
    assert duplicates(written) == already, chosen


def _refused_naming(house, error: KremlinError) -> None:
    assert house.id in str(error) or any(r.title in str(error) for r in house.rules.rules) or "advantage" in str(error), str(error)


def _house_after_draft(ruleset: str, game_path: Path, draft: dict, tmp_path: Path, sets: list[str], in_draft: bool) -> dict[str, int]:
    """How many of each set's advantage rounds were written (both ways when ``in_draft``); every one checked."""
    result = apply_draft(draft_from_dict(draft), fresh_game(game_path))
    written = tmp_path / "kremlin.xml"
    written.write_bytes(result.game.to_bytes())
    game = load(written)
    names = Names(game.board, profile_for_game(game), tuple(game.board.catalog.alliances()))
    base = board_problems(game.board, names.units_of_any_power("factory"))
    already = duplicates(written.read_bytes())
    made = dict.fromkeys(sets, 0)
    for set_id in sets:
        house = load_named_house_set(set_id)
        listed = _listing(profile_for_game(fresh_game(game_path)), set_id, tmp_path)
        most = max(len(house.advantages_of(power)) for power in house.powers)
        for n in range(most):
            chosen = {power: house.advantages_of(power)[n % len(house.advantages_of(power))].id for power in house.powers}
            switches = AFTER_KREMLIN.get(ruleset, {}) if set_id == "house-revised" else {}
            twin = game.copy()
            try:
                apply_house_rules(twin, [HouseChoices(house.id, switches=switches, advantages=chosen, seed=n)], profile=load_profile(listed))
            except KremlinError as error:
                _refused_naming(house, error)  # refused in a sentence naming the set's rule or advantage, changing nothing
                assert twin.board.changes == []
            else:
                _keeps_the_board(twin.to_bytes(), tmp_path, base, already, chosen)
                made[set_id] += 1
            if not in_draft:
                continue
            table = {**switches, "advantages": chosen, "seed": n}
            with_set = {**draft, "profile": str(listed), "house_rules": [set_id], "house_rule_choices": {set_id: table}}
            with_set["choices"] = DRAFT_CHOICES.get((ruleset, set_id), [])
            try:
                drafted = apply_draft(draft_from_dict(with_set, str(tmp_path / "draft.toml")), fresh_game(game_path))
            except KremlinError as error:
                _refused_naming(house, error)
            else:
                _keeps_the_board(drafted.game.to_bytes(), tmp_path, base, already, chosen)
                made[set_id] += 1
    return made


def _draw_and_check(ruleset: str, game: Path, data: st.DataObject, tmp_path: Path, *, every_set: bool) -> None:
    first = data.draw(st.sampled_from(["Axis", "Allies"]))
    picks = load_named_ruleset(ruleset).picks
    per_side = data.draw(st.integers(min_value=picks.min, max_value=min(picks.max or picks.min + 2, picks.min + 2)))
    draft = random_draft(lambda seq: data.draw(st.sampled_from(list(seq))), ruleset, game, first, per_side)
    sets = sorted(named_rule_files("house")) if every_set else [SETS[game]]
    made = _house_after_draft(ruleset, game, draft, tmp_path, sets, in_draft=every_set)
    assert made[SETS[game]]  # not every advantage refused: the set a game is for joins its drafts


HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture]


@pytest.mark.parametrize(("ruleset", "game"), PAIRS, ids=lambda v: getattr(v, "name", v))
@settings(max_examples=1, deadline=None, suppress_health_check=HEALTH)
@given(data=st.data())
def test_a_random_draft_then_every_house_set_and_advantage_keep_the_board(ruleset: str, game: Path, data: st.DataObject, tmp_path: Path) -> None:
    _draw_and_check(ruleset, game, data, tmp_path, every_set=False)


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "game"), PAIRS, ids=lambda v: getattr(v, "name", v))
@settings(max_examples=examples(12), deadline=None, suppress_health_check=HEALTH)
@given(data=st.data())
def test_random_drafts_then_every_house_set_and_advantage_keep_the_board(ruleset: str, game: Path, data: st.DataObject, tmp_path: Path) -> None:
    _draw_and_check(ruleset, game, data, tmp_path, every_set=True)

"""Sides by the game's own players: a player of neither side is nobody's enemy (issue 46, item 4).

000 option 10 takes over "enemy held" territory. A map's neutral players (iron_war.xml's True-Neutral, Pro-Axis-
Neutral and Pro-Allies-Neutral, of no alliance; Oztea 1939 Global's Neutral_True, Dutch, Mongolians, each of its own
alliance) are allied with neither the Axis nor the Allies, and were offered to both sides as enemies: hundreds of
takeovers of neutral countries, their capitals and their neutral-only units included.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kremlin_triplea.cli.main import main
from kremlin_triplea.draft.kinds.takeover import takeover_problem
from kremlin_triplea.draft.run import DraftRun, draft_from_dict
from kremlin_triplea.game import load
from kremlin_triplea.rules.profile import load_profile
from support.paths import CORPUS_DIR

GAMES = [CORPUS_DIR / "iron_war.xml", CORPUS_DIR / "Oztea_1939_Global.xml"]


@pytest.mark.parametrize("path", GAMES, ids=[p.name for p in GAMES])
def test_a_player_of_neither_side_is_not_enemy_held_for_a_takeover(tmp_path: Path, path: Path) -> None:
    written = tmp_path / f"{path.stem}.toml"
    made = CliRunner().invoke(main, ["profile", "new", str(path), "--ruleset", "kremlin-aa50", "-o", str(written)])
    assert made.exit_code == 0, made.output
    profile = load_profile(written)
    game = load(path)
    for side in ("Axis", "Allies"):
        run = DraftRun(draft_from_dict({"ruleset": "kremlin-aa50", "first": side}), game, profile=profile)
        sides = run.state.side_of
        neither = {d["owner"] for d in game.board.nodes.values() if d["owner"] is not None and d["owner"] not in sides}
        assert neither, "the game has players of neither side"
        option = run.ruleset.option(10)
        taken = [pick.target.territory for _, pick in run.option_picks(option, side)]  # type: ignore[attr-defined]
        assert taken, side
        assert not [t for t in taken if game.board.node(t)["owner"] not in sides], side
        # Asked for one, the takeover says why not.
        territory = next(t for t, d in game.board.nodes.items() if d["owner"] in neither and not d["water"] and not d["impassable"])
        taker = next(p for p in run.state.side_powers[side] if run.state.power_problem(option, side, p) is None)
        problem = takeover_problem(run.state, option, side, territory, taker)
        assert problem is not None and "a power of neither the Axis nor the Allies" in problem.why, problem

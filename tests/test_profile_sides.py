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
from kremlin_triplea.draft.run import draft_from_dict
from kremlin_triplea.game import load
from kremlin_triplea.rules.profile import load_profile
from kremlin_triplea.session import Session
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
        run = Session(draft_from_dict({"ruleset": "kremlin-aa50", "first": side}), game, profile=profile)
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


def test_a_neutral_player_s_country_is_a_neutral_to_take_and_its_garrison_joins_the_taker(tmp_path: Path) -> None:
    """000 option 3: "Take over two neutral powers ... you take over their armies as well." Oztea 1939 Global's Spain,
    Sweden, Turkey... are held by its Neutral_True player, with its infantry: they were "already taken over" (held by
    a player), so option 3 offered nothing; and a neutral taken over kept the map's garrison as neutral units inside
    the taker's territory. Now a player of neither side holds an untaken neutral, and after every legal takeover no
    unit of a player of neither side is left there: the taker holds the army of the ruleset's neutral table."""
    path = CORPUS_DIR / "Oztea_1939_Global.xml"
    written = tmp_path / "oztea.toml"
    made = CliRunner().invoke(main, ["profile", "new", str(path), "--ruleset", "kremlin-aa50", "-o", str(written)])
    assert made.exit_code == 0, made.output
    run = Session(draft_from_dict({"ruleset": "kremlin-aa50", "first": "Axis"}), load(path), profile=load_profile(written))
    board, sides = run.game.board, run.state.side_of
    garrisoned = {t for t in run.state.neutrals if any(n and o not in sides for (o, _), n in board.units(t).items())}
    assert garrisoned and all(board.node(t)["owner"] == "Neutral_True" for t in garrisoned)
    tried = 0
    for _, pick in run.option_picks(run.ruleset.option(3), "Axis"):
        run.push(pick)
        for take in pick.target.takes:  # type: ignore[attr-defined]
            units = {key: n for key, n in board.units(take.territory).items() if n}
            assert not [key for key in units if key[0] not in sides], (take.territory, units)
            army = run.state.own_units(run.state.neutrals[take.territory].army, take.by)
            on_land = [(u, n) for u, n in army if not board.catalog.unit_type(u).is_ship]
            assert all(units.get((take.by, u), 0) >= n for u, n in on_land), (take.territory, units, on_land)
            tried += take.territory in garrisoned
        run.pop()
    assert tried


def test_an_enemy_capital_is_never_a_takeover_target() -> None:
    """A capital in its enemy's hands is a board no game starts from (model/invariants.py), so option 10 never lists
    one (World_At_War's Dutch capital Suriname, without a factory, was listed and then refused by apply). On AA50 1941
    with Russia's factory taken away, Russia is still no German takeover."""
    from kremlin_triplea.model.changes import RemoveUnits
    from support.games import fresh_game
    from support.paths import AA50_1941

    run = Session(draft_from_dict({"ruleset": "kremlin-aa50", "first": "Axis"}), fresh_game(AA50_1941))
    board = run.game.board
    assert board.node("Russia")["capital"] == "Russians"
    for (owner, unit), n in list(board.units("Russia").items()):
        if n and unit == "factory":
            board.push(RemoveUnits("Russia", owner, unit, n))
    problem = takeover_problem(run.state, run.ruleset.option(10), "Axis", "Russia", "Germans")
    assert problem is not None and "Russia is the capital of Russians" in problem.why, problem


def test_a_neutral_holding_an_enemy_capital_is_taken_only_with_a_refuge_for_it() -> None:
    """AA50 parks the Chinese capital in neutral Mongolia; maps/world_war_ii_v3.toml's [capital_marker] sends it to its
    refuge when an Axis power takes Mongolia. A profile without that marker (one a host drafts) left the capital in
    the Axis taker's hands, a board no game starts from: such a takeover is not offered, saying why."""
    import attrs

    from kremlin_triplea.draft.kinds.neutral import neutral_problem
    from kremlin_triplea.rules.profile import profile_for_game
    from support.games import fresh_game
    from support.paths import AA50_1941

    full = profile_for_game(fresh_game(AA50_1941))
    assert full.capital_marker is not None and full.capital_marker.at == "Mongolia"
    for profile, refused in ((full, False), (attrs.evolve(full, capital_marker=None), True)):
        run = Session(draft_from_dict({"ruleset": "kremlin-aa50", "first": "Axis"}), fresh_game(AA50_1941), profile=profile)
        problem = neutral_problem(run.state, run.ruleset.option(3), "Axis", "Mongolia", "Japanese")
        assert (problem is not None and "Mongolia holds the capital of Chinese" in problem.why) == refused, problem

"""What each pick is worth (rules/value.py) and the value command."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from kremlin_triplea.cli.main import main
from kremlin_triplea.draft.kinds import Outcome
from kremlin_triplea.draft.run import read_draft
from kremlin_triplea.game import load
from kremlin_triplea.model.changes import RemoveUnits, SetPUs
from kremlin_triplea.report.value import Valuer, value_draft, value_result, value_session
from kremlin_triplea.session import Session, apply_draft, open_session
from support.aa50 import fresh_game, pick, run_for
from support.paths import AA50_1941, MAPS_DIR

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "kremlin-aa50-1941.toml"


def run(*args: str):
    return CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), *args])


def test_a_takeover_gains_its_units_and_production_and_takes_the_production_from_the_enemy() -> None:
    draft_run = run_for(AA50_1941, "Axis")
    board = draft_run.game.board
    catalog = board.catalog
    production = board.node("Archangel")["production"]
    defenders = sum(catalog.cost(u, o) * n for (o, u), n in board.units("Archangel").items())
    valuer = Valuer(board, draft_run.state.side_powers)
    outcome = pick(draft_run, "Axis", 10, takeover={"territory": "Archangel", "by": "Germans", "retreat": [{"to": "Russia"}]})
    value = valuer.value("pick 1", "Axis", outcome)
    axis, allies = value.gain("Axis"), value.gain("Allies")
    assert axis.units == catalog.cost("infantry", "Germans") + catalog.cost("artillery", "Germans")
    assert axis.production == production > 0
    assert allies.production == -production
    assert allies.units == 0  # they retreated: moved, not lost
    assert value.displaced == defenders > 0
    assert value.value == axis.total - allies.total


def test_destroyed_enemy_units_count_for_the_side_that_removed_them() -> None:
    game = fresh_game(AA50_1941)
    board = game.board
    draft_run = run_for(AA50_1941, "Axis")
    valuer = Valuer(board, draft_run.state.side_powers)
    (owner, unit), count = next(((o, u), n) for (o, u), n in board.units("Archangel").items())
    outcome = Outcome((RemoveUnits("Archangel", owner, unit, count), SetPUs("Germans", board.pus["Germans"] + 5)), frozenset(), ())
    board.push_all(list(outcome.changes))
    value = valuer.value("test", "Axis", outcome)
    assert value.gain("Allies").units == -count * board.catalog.cost(unit, owner)
    assert value.gain("Axis").pus == 5
    assert value.value == 5 + count * board.catalog.cost(unit, owner)
    assert value.displaced == 0 and value.unvalued == ()


def test_the_example_draft_running_totals_add_up_and_agree_with_the_replay(maps_dir: Path) -> None:
    values = value_draft(EXAMPLE, maps_dir=maps_dir)
    assert len(values.picks) == 10 and values.bid is not None
    assert values.running()[-1] == values.totals()
    for side in values.sides:
        assert values.totals()[side] == sum(p.value for p in values.picks if p.side == side)
    replayed = value_result(apply_draft(read_draft(EXAMPLE), maps_dir=maps_dir))
    assert replayed == values
    # The bid places units worth what the apply summary says it spent.
    assert values.bid.gain("Axis").units == 10 and values.bid.side == "Axis"
    # Mongolia's capital marker is bookkeeping the valuation does not price.
    assert any("capital" in line for line in values.picks[1].unvalued)


def test_values_are_read_off_the_sessions_own_board_and_leave_it_where_it_was(maps_dir: Path) -> None:
    session = Session.open(EXAMPLE, maps_dir=maps_dir)
    board = session.game.board
    changes = board.changes
    values = value_session(session)
    assert board.changes == changes and all(a is b for a, b in zip(board.changes, changes))
    assert values == value_draft(EXAMPLE, maps_dir=maps_dir)
    # The last pick taken back (with the bid and declarations after it): the others keep their values, as the board they left is the same.
    session.undo()
    fewer = value_session(session)
    assert fewer.picks == values.picks[:-1] and fewer.bid is None
    assert board.changes == [change for done in session.done for change in done.outcome.changes]  # the picks alone: the undo took the rest


def test_value_command_prints_each_pick_and_the_totals() -> None:
    result = run("value", str(EXAMPLE))
    assert result.exit_code == 0, result.stderr
    values = value_draft(EXAMPLE, maps_dir=MAPS_DIR)
    totals = values.totals()
    assert f"picks: Axis {totals['Axis']:+d}, Allies {totals['Allies']:+d}" in result.stdout
    assert result.stdout.count("running: ") == 10
    data = json.loads(run("value", str(EXAMPLE), "--json").stdout)
    assert [p["value"] for p in data["picks"]] == [p.value for p in values.picks]


def test_value_of_an_unfinished_draft_and_of_a_broken_one(tmp_path: Path) -> None:
    text = EXAMPLE.read_text()
    partial = tmp_path / "partial.toml"
    partial.write_text(text[: text.index('[[pick]]\nside = "Allies"\noption = 6')].replace('game = "world_war_ii_v3/WW2v3-1941.xml"', f'game = "{AA50_1941}"'))
    result = run("value", str(partial))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.count("running: ") == 5 and "bid" not in result.stdout
    broken = tmp_path / "broken.toml"
    broken.write_text(text.replace('at = "France"', 'at = "Russia"'))
    result = run("value", str(broken))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.stderr.count("\n") == 1


def test_the_written_game_notes_carry_the_values(tmp_path: Path) -> None:
    out = tmp_path / "kremlin.xml"
    assert run("apply", str(EXAMPLE), "-o", str(out)).exit_code == 0
    notes = load(out).board.properties["notes"]
    values = value_draft(EXAMPLE, maps_dir=MAPS_DIR)
    picks = notes[notes.index("<ol>") : notes.index("</ol>")]
    assert [f"(worth {value.value:+d} IPCs)" in item for value, item in zip(values.picks, picks.split("<li>")[1:])] == [True] * 10
    assert f"Axis {values.totals()['Axis']:+d} IPCs, Allies {values.totals()['Allies']:+d} IPCs" in notes


def test_a_files_bid_waits_for_the_picks_and_one_the_board_refuses_is_set_aside_where_apply_refuses_it(tmp_path: Path) -> None:
    """000 C: the bid comes after the picks; the Germans place only on German-owned territories (Russia is not)."""
    text = EXAMPLE.read_text().replace('game = "world_war_ii_v3/WW2v3-1941.xml"', f'game = "{AA50_1941}"')
    bid = text[text.index("[bid]") :]
    early = tmp_path / "early.toml"
    early.write_text(text[: text.index('[[pick]]\nside = "Allies"\noption = 6')] + bid)
    result = run("value", str(early))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.count("running: ") == 5 and "bid" not in result.stdout
    assert run("legal", str(early)).exit_code == 0
    assert open_session(early).bid_dropped is not None

    refused = tmp_path / "refused.toml"
    refused.write_text(text.replace('at = "Morocco Algeria"', 'at = "Russia"'))
    result = run("value", str(refused))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.stderr.count("\n") == 1 and "bid" in result.stderr
    assert run("apply", str(refused), "-o", str(tmp_path / "out.xml")).exit_code == 1
    session = open_session(refused)
    assert session.bid is None and session.bid_dropped is not None and session.picks_done
    assert len(session.picks) == 10 and not session.declaration_lines()  # the declarations wait for the players, as with no bid

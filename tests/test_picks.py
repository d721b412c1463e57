"""Picks as values (issue 11): the draft's legal picks like python-chess's legal moves — iterate, ``in``,
``count()``, ``is_legal`` with the violation, ``push``/``pop`` — and a pick that round-trips through the draft file.

Rules quoted from 000_bc04a4edf7f7d2ab.txt (Kremlin AA50).
"""

from __future__ import annotations

import itertools

import attrs
import pytest

from kremlin_triplea.draft.kinds.placement import Placements
from kremlin_triplea.draft.picks import Pick, UnitPlacement
from kremlin_triplea.draft.run import DraftRun
from support.aa50 import GAMES, SEED, delta, run_for


def first_picks(run: DraftRun, per_option: int = 3) -> list[Pick]:
    """A few legal picks of every option available now (the enumeration is long: sample it per option)."""
    by_option: dict[int, list[Pick]] = {}
    for pick in run.legal_picks:
        found = by_option.setdefault(pick.option.number, [])
        if len(found) < per_option:
            found.append(pick)
    return [p for picks in by_option.values() for p in picks]


def test_every_enumerated_pick_is_legal_in_the_enumeration_and_counted() -> None:
    run = run_for(GAMES["1941"], "Axis")
    picks = first_picks(run)
    options = {p.option.number for p in picks}
    # 000: option 11 is the what-if scenario; 1-10 are the bonus options: every one has a legal target on the base game.
    assert options == set(range(1, 12))
    assert all(run.is_legal(p) and p in run.legal_picks for p in picks)
    # Each legal pick is yielded once: the count is of distinct picks, and more than the sample.
    every = list(run.legal_picks)
    assert run.legal_picks.count() == len(set(every)) == len(every) > len(picks)


def test_a_pick_round_trips_through_the_draft_files_toml() -> None:
    run = run_for(GAMES["1942"], "Allies")
    for pick in first_picks(run, per_option=2):
        assert run.pick_from_toml(pick.to_toml()) == pick


def test_push_then_pop_leaves_the_board_and_the_locks_as_they_were() -> None:
    run = run_for(GAMES["1941"], "Axis")
    before = run.game.board.copy()
    for pick in first_picks(run, per_option=1):
        run.push(pick)
        assert delta(before, run.game.board), pick.label
        locks, option_units = dict(run.state.locks), +run.state.option_units
        assert locks, f"{pick.label} locks the places it affected (000 B: locks)"
        run.pop()
        assert delta(before, run.game.board) == {}, pick.label
        assert run.state.locks == {} and +run.state.option_units == type(option_units)()
        assert run.run.applied == [] and run.state.used == {"Axis": [], "Allies": []}


def test_is_legal_answers_with_the_rule_that_refuses_the_pick() -> None:
    run = run_for(GAMES["1941"], "Axis")
    option = run.run.ruleset.option(1)
    # 000 option 1: "Place three infantry on any territory not adjacent to one containing enemy units.
    # Infantry must be placed on its own territory". Karelia S.S.R. is Russian.
    pick = Pick(1, "Axis", option, Placements((UnitPlacement("Germans", "infantry", 3, "Karelia S.S.R."),)))
    violation = run.run.violation(pick)
    assert not run.is_legal(pick) and pick not in run.legal_picks
    assert violation is not None and SEED in str(violation) and "own territory" in str(violation)


def test_a_pick_out_of_turn_is_refused_with_the_order_rule() -> None:
    run = run_for(GAMES["1941"], "Axis")
    legal = next(iter(run.legal_picks))
    allied_option = attrs.evolve(legal, side="Allies")
    assert "turn" in str(run.run.violation(allied_option))
    later = attrs.evolve(legal, index=2)
    assert "the next pick is pick 1" in str(run.run.violation(later))
    with pytest.raises(Exception, match="turn"):
        run.push(allied_option)


@pytest.mark.parametrize("year", sorted(GAMES))
def test_after_a_pick_of_each_side_the_enumeration_follows_the_board(year: str) -> None:
    """An option taken once may not be taken again by the same side (000 B: "The same option may not be selected twice by the same player")."""
    run = run_for(GAMES[year], "Axis")
    axis = next(iter(run.legal_picks))
    run.push(axis)
    allies = next(iter(run.legal_picks))
    assert allies.side == "Allies" and allies.index == 2
    run.push(allies)
    third = list(itertools.islice(run.legal_picks, 200))
    assert third and all(p.side == "Axis" and p.option.number != axis.option.number for p in third)

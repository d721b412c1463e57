"""Random legal drafts, drawn from the legal-choice enumeration, always apply, read back, validate, and agree with TripleA.

The drafts are built pick by pick from ``legal_choices``: whatever it lists must
be accepted by ``apply``. The written game must read back to the same board,
pass ``validate``, and (one batch, one JVM) be read by the real TripleA engine
with the same owners, units and PUs.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest

from conftest import position_disagreements
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kremlin_triplea.model.board import Board
from kremlin_triplea.game import Game
from kremlin_triplea.gamefile.document import XmlDocument
from kremlin_triplea.draft.run import DraftRun, apply_draft, draft_from_dict, read_draft
from kremlin_triplea.draft.kinds import bid_placement_problem, unit_sets
from kremlin_triplea.draft.legal import OptionChoices, bid_choices, legal_choices
from rules_support import GAMES, fresh_game

T = TypeVar("T")
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "kremlin-aa50-1941.toml"
Choose = Callable[[Sequence[T]], T]


def random_draft(choose: Choose, year: str, first: str, per_side: int) -> dict[str, Any]:
    """A complete draft (the TOML's data) whose every choice comes from the legal enumeration."""
    data: dict[str, Any] = {"ruleset": "kremlin-aa50", "game": str(GAMES[year]), "first": first, "picks_per_side": per_side, "pick": []}
    run = DraftRun(draft_from_dict(dict(data)), fresh_game(GAMES[year]))
    for index in range(1, 2 * per_side + 1):
        next_pick = legal_choices(run)
        available = [o for o in next_pick.options if o.available]
        choices = choose(available)
        entry = {"side": next_pick.side, "option": choices.option.number, **_spec(choose, run, choices)}
        section = draft_from_dict({"ruleset": "kremlin-aa50", "first": first, "pick": [entry]}).picks[0]
        run.apply_pick(run.parse_pick(index, section))
        data["pick"].append(entry)
    data["bid"] = _bid(choose, run)
    return data


def _spec(choose: Choose, run: DraftRun, choices: OptionChoices) -> dict[str, Any]:
    option = choices.option
    if option.kind == "placement":
        if choices.sets:
            chosen = choose(choices.sets)
            at = choose(chosen.places)
            counts: dict[str, int] = {}
            for unit in chosen.units:
                counts[unit] = counts.get(unit, 0) + 1
            return {"place": [{"power": chosen.power, "unit": u, "count": n, "at": at} for u, n in counts.items()]}
        possible = [s for s in unit_sets(run.state, option) if all(any(c.unit == u for c in choices.units) for u in s)]
        units = choose(possible)
        place = []
        for unit in units.elements():
            candidate = choose([c for c in choices.units if c.unit == unit])
            place.append({"power": candidate.power, "unit": unit, "at": choose(candidate.places)})
        return {"place": place}
    if option.kind == "neutral_takeover":
        pair = choose(choices.neutral_pairs)
        take = []
        for territory in pair:
            neutral = next(n for n in choices.neutrals if n.territory == territory)
            power, zones = choose(neutral.takers)
            entry = {"neutral": neutral.name, "by": power}
            if zones:
                entry["navy_at"] = choose(zones)
            take.append(entry)
        return {"take": take}
    if option.kind == "scenario":
        return {"scenario": choose(choices.scenarios)}
    takeover = choose(choices.takeovers)
    retreat = [
        {"to": choose(r.destinations), "power": r.owner, "unit": r.unit}
        for r in takeover.retreats
        if len(r.destinations) > 1
    ]
    return {"takeover": {"territory": takeover.territory, "by": takeover.power, "retreat": retreat}}


def _bid(choose: Choose, run: DraftRun) -> dict[str, Any]:
    amount = choose(range(-12, 13))
    if amount < 0:
        allies = list(run.state.side_powers["Allies"])
        allocate: dict[str, int] = {}
        for _ in range(-amount):
            power = choose(allies)
            allocate[power] = allocate.get(power, 0) + 1
        return {"axis": amount, "allocate": allocate}
    if amount == 0:
        return {"axis": 0}
    choices = bid_choices(run.state)
    facts = run.state.facts()
    catalog = run.game.board.catalog
    place = []
    left = amount
    for _ in range(choose(range(0, 3))):
        power, places = choose(choices.places)
        affordable = [u for u in catalog.unit_types if (catalog.cost(u, power) or 99) <= left]
        if not affordable:
            break
        unit = choose(affordable)
        fitting = [p for p in places if bid_placement_problem(run.state, facts, power, unit, p) is None]
        if not fitting:
            continue
        place.append({"power": power, "unit": unit, "count": 1, "at": choose(fitting)})
        left -= catalog.cost(unit, power) or 0
    return {"axis": amount, "place": place}


def apply_and_write(data: dict[str, Any], year: str) -> tuple[Game, bytes]:
    result = apply_draft(draft_from_dict(data), fresh_game(GAMES[year]))
    return result.game, result.game.to_bytes()


def board_view(game: Game) -> dict[str, Any]:
    board = game.board
    nodes = {name: {**data, "units": {k: n for k, n in data["units"].items() if n}} for name, data in board.graph.nodes(data=True)}
    return {"nodes": nodes, "pus": dict(board.pus), "properties": dict(board.properties), "name": board.game_name}


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_random_legal_drafts_apply_read_back_and_validate(data: st.DataObject) -> None:
    from kremlin_triplea.check.validate import find_dtd, validate_tree

    year = data.draw(st.sampled_from(sorted(GAMES)))
    first = data.draw(st.sampled_from(["Axis", "Allies"]))
    per_side = data.draw(st.integers(min_value=4, max_value=6))
    draft = random_draft(lambda seq: data.draw(st.sampled_from(list(seq))), year, first, per_side)
    game, written = apply_and_write(draft, year)
    again = Game(XmlDocument(written, source="written.xml"))
    assert board_view(again) == board_view(game)
    assert validate_tree(again.document.root, "written.xml", dtd=find_dtd()) == []


@pytest.mark.engine
def test_real_engine_reads_random_legal_drafts_as_written(tmp_path: Path) -> None:
    """One JVM for the whole batch: owners, units, PUs and the game name as our board has them."""
    from kremlin_triplea.engine import read_with_engine

    expected: dict[Path, Board] = {}
    for seed in range(6):
        rng = random.Random(seed)
        year = sorted(GAMES)[seed % 2]
        draft = random_draft(lambda seq: rng.choice(list(seq)), year, rng.choice(["Axis", "Allies"]), rng.choice([4, 5, 6]))
        game, written = apply_and_write(draft, year)
        path = tmp_path / f"draft-{seed}-{year}.xml"
        path.write_bytes(written)
        expected[path] = game.board.copy()  # the game object is reused for the next draft of that year
    # The example draft too: a takeover, Mongolia's capital marker moved, a factory, a bid.
    example = apply_draft(read_draft(EXAMPLE), fresh_game(GAMES["1941"]))
    path = tmp_path / "example.xml"
    path.write_bytes(example.game.to_bytes())
    expected[path] = example.game.board.copy()
    readings = read_with_engine(list(expected))
    for (path, board), reading in zip(expected.items(), readings):
        assert reading.ok, f"{path}: {reading.error}"
        assert reading.dtd_errors == ()
        assert reading.game_name == board.game_name
        assert position_disagreements(board, reading) == {}
        assert dict(reading.pus) == dict(board.pus)


@pytest.mark.parametrize("seed", range(3))
def test_generated_drafts_are_complete_and_cite_every_pick_in_the_notes(seed: int) -> None:
    rng = random.Random(100 + seed)
    draft = random_draft(lambda seq: rng.choice(list(seq)), "1941", "Axis", 4)
    game, _ = apply_and_write(draft, "1941")
    notes = game.board.properties["notes"]
    assert notes.index("<h2>Kremlin draft: ") < notes.index("<hr/>")  # on top of the map's own notes
    picks = notes[notes.index("<ol>"):notes.index("</ol>")]  # the picks' list; the rules' lists follow it
    assert picks.count("<li>") == 8
    assert "<h3>The bid: " in notes or "<p>No bid.</p>" in notes

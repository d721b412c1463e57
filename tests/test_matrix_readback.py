"""The matrix's read-back (tools/matrix_readback.py): a written file's problems laid at the picks whose XML holds
them, at one validation a file however many of its picks fail (issue 46 item 8)."""

from __future__ import annotations

import pytest
from lxml import etree

import kremlin_triplea.game as game_module
from kremlin_triplea.draft.rulesets import load_named_ruleset
from kremlin_triplea.model.diff import board_difference
from kremlin_triplea.tools.matrix import run_matrix
from kremlin_triplea.tools.matrix_report import APPLIED, FAILED
from support.paths import AA50_1941, MAPS_DIR

GAME = "world_war_ii_v3/WW2v3-1941.xml"


def aa50_with(*numbers: int):
    import attrs

    ruleset = load_named_ruleset("kremlin-aa50")
    return attrs.evolve(ruleset, options=tuple(o for o in ruleset.options if o.number in numbers))


def _every_changed_place_invalid(monkeypatch: pytest.MonkeyPatch) -> None:
    """A writer that also places a unit of a player the game lacks in every place it changes: TripleA 2.7 makes such
    units neutral, and validation refuses it (an error at that unitPlacement's line)."""
    original = game_module.write_board

    def also_unknown_owner(xml, before, after):
        original(xml, before, after)
        for territory in board_difference(before, after).places:
            unit = etree.Element("unitPlacement", unitType="infantry", territory=territory, quantity="1", owner="Nobody")
            xml.document.append(xml.initialize.find("unitInitialize"), unit)

    monkeypatch.setattr(game_module, "write_board", also_unknown_owner)


@pytest.mark.slow  # keeps the quick subset under a minute; CI runs it
def test_a_game_whose_every_pick_fails_costs_the_files_of_a_game_whose_none_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before, a failing file was halved down to single states, each a whole validation: twice as many files as
    place states, where a clean game takes a file per ~400."""
    ruleset = aa50_with(1, 4, 10)
    clean = run_matrix([ruleset], [AA50_1941], maps_dir=MAPS_DIR, samples=0, include_covered=False)
    assert clean.failed == []
    _every_changed_place_invalid(monkeypatch)
    broken = run_matrix([ruleset], [AA50_1941], maps_dir=MAPS_DIR, samples=0, include_covered=False)
    rows = ("1 Infantry Placement", "4 Transport/Submarine Placement", "10 Takeover of enemy held territory", "bid (units)")
    for row in rows:
        cell = broken.cells[("kremlin-aa50", row, GAME)]
        assert cell.status == FAILED and cell.errors, row
        assert all("does not validate" in e and "unknown player 'Nobody'" in e for e in cell.errors if "reads back" not in e), row
    # One more file than the clean run: the ruleset's game rules written alone, to tell their problems from the picks'.
    assert broken.figures["files_written"] <= clean.figures["files_written"] + 1


@pytest.mark.slow
def test_a_problem_is_laid_at_the_picks_whose_place_holds_it_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the picks that change Archangel (placing there, taking it, or a neighbour whose army retreats there)
    fail, with the problem at Archangel's line; every other pick in the same files applies."""
    from kremlin_triplea.game import load

    original = game_module.write_board

    def archangel_invalid(xml, before, after):
        original(xml, before, after)
        if "Archangel" in board_difference(before, after).places:
            unit = etree.Element("unitPlacement", unitType="infantry", territory="Archangel", quantity="1", owner="Nobody")
            xml.document.append(xml.initialize.find("unitInitialize"), unit)

    monkeypatch.setattr(game_module, "write_board", archangel_invalid)
    report = run_matrix([aa50_with(1, 10)], [AA50_1941], maps_dir=MAPS_DIR, samples=0, include_covered=False)
    near = {"Archangel", *load(AA50_1941).board.graph.neighbors("Archangel")}
    placements = report.cells[("kremlin-aa50", "1 Infantry Placement", GAME)]
    takeovers = report.cells[("kremlin-aa50", "10 Takeover of enemy held territory", GAME)]
    assert placements.status == takeovers.status == FAILED
    assert placements.errors and all(" in Archangel: " in e for e in placements.errors), placements.errors
    taken = {e.split(" take ", 1)[1].split(":", 1)[0] for e in takeovers.errors}
    assert "Archangel" in taken and taken <= near, taken
    assert all("unknown player 'Nobody'" in e or "reads back differently: Archangel" in e for e in takeovers.errors + placements.errors)


@pytest.mark.slow
def test_a_game_dtd_note_fails_no_pick(monkeypatch: pytest.MonkeyPatch) -> None:
    """A note is what TripleA 1.9 prints and loads anyway, or what only the other engine cannot read
    (check/validate.py): the docs say it never fails a game, and the matrix failed every pick for one."""
    original = game_module.write_board

    def undeclared_attribute(xml, before, after):
        original(xml, before, after)
        for territory in board_difference(before, after).places:
            for owner in xml.territory_owners():
                if owner.get("territory") == territory:
                    xml.document.set_attribute(owner, "since", "1941")

    monkeypatch.setattr(game_module, "write_board", undeclared_attribute)
    report = run_matrix([aa50_with(10)], [AA50_1941], maps_dir=MAPS_DIR, samples=0, include_covered=False)
    assert report.failed == []
    assert report.cells[("kremlin-aa50", "10 Takeover of enemy held territory", GAME)].status == APPLIED

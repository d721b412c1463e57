"""A new kind of option is one module plus data (issue 11).

The kind below is made up for this test, not a seed's rule: "a war chest", one
power of the side starts with more PUs. It is defined here, in one module,
exactly as a kind in ``draft/kinds/`` is (parameters, target, mechanism,
``@register``), and a ruleset that offers it is data in a temporary folder.
Without a line changed anywhere else, every command takes it: ``options``
describes it, ``legal`` lists its targets, ``apply`` writes its PUs into the
game, the matrix applies it, a power restriction of the ruleset holds for it,
and the terminal draft and the draft room offer its legal picks.
"""

from __future__ import annotations

import re
import shutil
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest
import tomli_w
from click.testing import CliRunner
from lxml import etree

with warnings.catch_warnings():  # starlette's TestClient warns that it will move to httpx2; it works with httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from kremlin_triplea.cli.main import main
from kremlin_triplea.draft.choices import OptionChoices
from kremlin_triplea.draft.kinds import KINDS, OptionKind, Pick, PickTarget, register, unregister
from kremlin_triplea.draft.rulesets import load_ruleset
from kremlin_triplea.draft.run import DraftRun, draft_from_dict
from kremlin_triplea.draft.state import DraftState, Outcome
from kremlin_triplea.model.changes import SetPUs
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.options import OptionParams
from kremlin_triplea.rules.ruleset import Option, Ruleset
from kremlin_triplea.rules.tomlfile import DataFileError, Section, read_toml
from kremlin_triplea.tools.matrix import APPLIED, run_matrix
from support.aa50 import fresh_game
from support.drafting import Script, draft, talk
from support.paths import AA50_1941, MAPS_DIR

REPO = Path(__file__).resolve().parents[1]
GAME = "world_war_ii_v3/WW2v3-1941.xml"


# -- the new kind: one module's worth ----------------------------------------


@attrs.frozen
class WarChestParams(OptionParams):
    KIND: ClassVar[str] = "war_chest"
    KEYS: ClassVar[tuple[str, ...]] = ("pus",)

    pus: int

    @classmethod
    def from_toml(cls, section: Section) -> WarChestParams:
        pus = section.integer("pus")
        if pus < 1:
            raise section.fail("pus", "a positive whole number", pus)
        return cls(pus)

    def describe(self, ruleset: Any) -> list[str]:
        return [f"{self.pus} PUs to one power of the side"]


@attrs.frozen
class WarChestTarget(PickTarget):
    KEY: ClassVar[str] = "chest_for"

    power: str

    def to_toml(self) -> str:
        return self.power


@attrs.frozen
class WarChestChoices(OptionChoices):
    powers: tuple[str, ...] = ()


class WarChest(OptionKind):
    name = "war_chest"
    params = WarChestParams
    target = WarChestTarget

    def parse_target(self, section: Section, names: Names, ruleset: Ruleset) -> WarChestTarget:
        return WarChestTarget(names.power(section.text(WarChestTarget.KEY), where=f"{section.where}: {section.key}"))

    def choices(self, state: DraftState, option: Option, side: str, powers: list[str]) -> OptionChoices:
        allowed = tuple(p for p in powers if state.power_problem(option, side, p) is None)
        return WarChestChoices(option, unavailable=None if allowed else "no power may take it", powers=allowed)

    def describe_choices(self, choices: OptionChoices) -> list[str]:
        assert isinstance(choices, WarChestChoices)
        return [f"  {power} +{choices.option.params.pus} PUs" for power in choices.powers]

    def picks(self, state: DraftState, choices: OptionChoices, side: str, index: int) -> Iterator[tuple[str, Pick]]:
        assert isinstance(choices, WarChestChoices)
        for power in choices.powers:
            yield f"{power} war chest", Pick(index, side, choices.option, WarChestTarget(power))

    def apply(self, state: DraftState, pick: Pick) -> Outcome:
        assert isinstance(pick.target, WarChestTarget)
        power, pus = pick.target.power, pick.option.params.pus
        problem = state.power_problem(pick.option, pick.side, power)
        if problem is not None:
            raise problem.violation(pick.label)
        before = state.board.pus.get(power, 0)
        return Outcome((SetPUs(power, before + pus),), frozenset(), (f"{power} start with {pus} more PUs",))


# -- the data ------------------------------------------------------------------

WAR_CHEST = """
[[option]]
number = 12
id = "war-chest"
title = "War chest"
kind = "war_chest"
source = "tests/test_option_kinds.py (made up for the test)"
rule = "One power of the side starts with 12 more PUs."
pus = 12
"""


@pytest.fixture
def war_chest() -> Iterator[None]:
    register(WarChest)
    try:
        yield
    finally:
        unregister(WarChest.name)


@pytest.fixture
def ruleset_file(tmp_path: Path) -> Path:
    path = tmp_path / "kremlin-aa50-war-chest.toml"
    shutil.copy(REPO / "rulesets" / "kremlin-aa50.toml", path)
    path.write_text(path.read_text() + WAR_CHEST)
    return path


def chest_draft(ruleset_file: Path) -> dict[str, Any]:
    """Four picks a side: the Axis take the war chest for the Germans first, then each side its first legal pick of another option."""
    data: dict[str, Any] = {"ruleset": str(ruleset_file), "game": GAME, "first": "Axis", "picks_per_side": 4, "pick": []}
    run = DraftRun(draft_from_dict(dict(data)), fresh_game(AA50_1941))
    for index in range(8):
        if index == 0:
            chosen = next(p for p in run.legal_picks if p.option.kind == "war_chest" and p.target.power == "Germans")
        else:  # placements only: nothing displaced, so nothing to declare after the bid
            chosen = next(p for p in run.legal_picks if p.option.kind == "placement")
        run.push(chosen)
        data["pick"].append(chosen.to_toml())
    data["bid"] = {"axis": 0}
    return data


def starting_pus(xml: bytes, player: str) -> int:
    tree = etree.fromstring(xml)
    (given,) = tree.xpath("/game/initialize/resourceInitialize/resourceGiven[@player=$p and @resource='PUs']", p=player)
    return int(given.get("quantity"))


def test_the_ruleset_reader_reads_a_registered_kinds_parameters_and_refuses_them_unregistered(war_chest, ruleset_file: Path) -> None:
    option = load_ruleset(ruleset_file).option("war-chest")
    assert option.params == WarChestParams(12)
    ruleset_file.write_text(ruleset_file.read_text().replace("pus = 12", "pus = -3"))
    with pytest.raises(DataFileError, match=r"option\[\d+\]\.pus: expected a positive whole number, got -3"):
        load_ruleset(ruleset_file)
    unregister(WarChest.name)
    try:
        with pytest.raises(DataFileError, match=r"kind: expected one of neutral_takeover, placement, scenario, territory_takeover, got 'war_chest'"):
            load_ruleset(ruleset_file)
    finally:
        register(WarChest)


def test_options_describes_it_and_legal_lists_its_targets(war_chest, ruleset_file: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["options", "--ruleset", str(ruleset_file)])
    assert result.exit_code == 0, result.output
    assert "12 PUs to one power of the side" in result.output
    draft_file = tmp_path / "draft.toml"
    draft_file.write_text(tomli_w.dumps({"ruleset": str(ruleset_file), "game": GAME, "first": "Axis", "picks_per_side": 4, "pick": []}))
    result = CliRunner().invoke(main, ["legal", str(draft_file), "--maps-dir", str(MAPS_DIR)])
    assert result.exit_code == 0, result.output
    listed = result.output[result.output.index("Option 12 (war-chest) War chest:") :]
    assert "  Germans +12 PUs" in listed and "  Italians +12 PUs" in listed and "Russians" not in listed.split("Option", 2)[1]


def test_apply_writes_its_pus_into_the_game_and_the_matrix_applies_it(war_chest, ruleset_file: Path, tmp_path: Path) -> None:
    draft_file = tmp_path / "draft.toml"
    draft_file.write_text(tomli_w.dumps(chest_draft(ruleset_file)))
    out = tmp_path / "out.xml"
    result = CliRunner().invoke(main, ["apply", str(draft_file), "-o", str(out), "--maps-dir", str(MAPS_DIR)])
    assert result.exit_code == 0, result.output
    # The rule: "starts with 12 more PUs" than the published game gives the Germans.
    assert starting_pus(out.read_bytes(), "Germans") == starting_pus(AA50_1941.read_bytes(), "Germans") + 12

    report = run_matrix([load_ruleset(ruleset_file)], [AA50_1941], maps_dir=MAPS_DIR, samples=0, include_covered=False)
    cell = report.cells[("kremlin-aa50", "12 War chest", "world_war_ii_v3/WW2v3-1941.xml")]
    assert cell.status == APPLIED, cell.errors


def test_a_power_restriction_of_the_ruleset_holds_for_it(war_chest, ruleset_file: Path, tmp_path: Path) -> None:
    """000 D) Rules Clarifications (5) Special China Rules: China may take only the options listed there; 12 is not among them."""
    data = {"ruleset": str(ruleset_file), "game": GAME, "first": "Allies", "picks_per_side": 4}
    data["pick"] = [{"side": "Allies", "option": 12, "chest_for": "China"}]
    draft_file = tmp_path / "draft.toml"
    draft_file.write_text(tomli_w.dumps(data))
    result = CliRunner().invoke(main, ["apply", str(draft_file), "-o", str(tmp_path / "out.xml"), "--maps-dir", str(MAPS_DIR)])
    assert result.exit_code == 1 and "option 12 may not be taken for Chinese" in result.output and "Special China Rules" in result.output


def test_the_terminal_draft_offers_its_legal_picks(war_chest, ruleset_file: Path, tmp_path: Path) -> None:
    session = draft(tmp_path, [], ruleset=str(ruleset_file))
    script = Script("12", "Italians war")
    talk(session, script)
    assert "  Germans war chest" in script.text and "  Italians war chest" in script.text
    assert session.to_toml()["pick"] == [{"side": "Axis", "option": 12, "chest_for": "Italians"}]


def test_the_draft_room_offers_its_legal_picks(war_chest, ruleset_file: Path, tmp_path: Path) -> None:
    from kremlin_triplea.web.app import create_app
    from kremlin_triplea.web.room import Room, new_draft

    path = tmp_path / "room.toml"
    new_draft(path, {"ruleset": str(ruleset_file), "game": GAME, "first": "Axis", "picks_per_side": 4, "pick": []}, MAPS_DIR)
    room = Room(path, MAPS_DIR)
    client = TestClient(create_app(room, svg_for=lambda room: "<svg></svg>"))
    page = client.get(f"/room/{room.keys['Axis']}", params={"option": "12"}).text
    assert re.search(r"<select name='target'><option value='Germans war chest'>", page), page[-3000:]
    form = {"seq": str(room.seq), "option": "12", "target": "Italians war chest"}
    response = client.post(f"/room/{room.keys['Axis']}/pick", data=form, follow_redirects=False)
    assert response.status_code in (200, 303), response.text[-2000:]
    assert read_toml(path)["pick"] == [{"side": "Axis", "option": 12, "chest_for": "Italians"}]
    assert "war_chest" in KINDS


def test_a_placement_exception_at_a_place_the_map_lacks_excepts_nothing_there_and_says_so() -> None:
    """001, 2. option 3: "Exception- Germany may not place a transport in the Baltic Sea." A map without it drops only the exception."""
    from kremlin_triplea.draft.kinds import PlacementParams
    from kremlin_triplea.draft.rulesets import load_named_ruleset
    from kremlin_triplea.rules.profile import fit_ruleset, load_named_profile

    ruleset = load_named_ruleset("kremlin-classic")
    assert ruleset.option(3).params.exclude == (("Germany", "transport", "Baltic Sea"),)
    profile = attrs.evolve(load_named_profile("world_war_ii_classic"), unmatched={"Baltic Sea": "not on this map (a test's profile)"})
    fitted, notes = fit_ruleset(ruleset, profile)
    params = fitted.option(3).params
    assert isinstance(params, PlacementParams) and params.exclude == () and params.unit_sets == ruleset.option(3).params.unit_sets
    assert "option 3: the exclusions at Baltic Sea do not apply: not on this map" in notes


def test_a_kind_is_registered_once_with_its_own_parameters_and_its_own_draft_key() -> None:
    from kremlin_triplea.draft.kinds.neutral import NeutralTakes

    class Twice(WarChest):
        name = "placement"

    class Mismatched(WarChest):
        params = WarChestParams
        name = "war_chest_two"

    class SameKey(WarChest):
        target = NeutralTakes

    with pytest.raises(ValueError, match="'placement' registered twice"):
        register(Twice)
    with pytest.raises(ValueError, match="'war_chest_two' reads the parameters of 'war_chest'"):
        register(Mismatched)
    with pytest.raises(ValueError, match="another kind's picks name their target `take`"):
        register(SameKey)
    assert "war_chest" not in KINDS and "war_chest_two" not in KINDS

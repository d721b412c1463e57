"""A new kind of option is one module plus data (issues 11 and 30).

The kinds below are made up for this test, not a seed's rules. "A war chest" (one
power of the side starts with more PUs) has no form of its own; "scorched earth"
(a power empties one of its territories, its units leaving for the nearest
territory of their side, declared after the bid; a TripleA trigger, written with
gamerules' public helpers, compensates it) has a form of two fields and
displaced units. Each is defined here, in this module only, exactly as a kind in
``draft/kinds/`` is (parameters, target, mechanism, form, displaced units,
``@register``), and a ruleset that offers it is data in a temporary folder.
Without a line changed anywhere else, every command takes them: ``options``
describes them, ``legal`` lists their targets, ``apply`` writes them into the
game, the matrix applies them, a power restriction of the ruleset holds, the
terminal draft asks their questions and the draft room shows and reads their forms.
"""

from __future__ import annotations

import re
import shutil
import warnings
from collections.abc import Iterator
from html import unescape
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

from kremlin_triplea.assistant.session import Conversation
from kremlin_triplea.cli.main import main
from kremlin_triplea.draft.choices import OptionChoices
from kremlin_triplea.draft.form import Answers, Field, Form, answers_of, place_answers
from kremlin_triplea.draft.kinds import KINDS, DisplacedWords, OptionKind, Pick, PickTarget, register, unregister
from kremlin_triplea.draft.rulesets import load_ruleset
from kremlin_triplea.draft.run import DraftRun, draft_from_dict
from kremlin_triplea.draft.state import Displaced, DraftState, Outcome, Problem
from kremlin_triplea.gamerules.triggers import USE_TRIGGERS, round_one_condition, trigger
from kremlin_triplea.model.changes import Change, RemoveUnits, SetPUs, SetTerritory
from kremlin_triplea.model.queries import Nearest, nearest
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.options import OptionParams
from kremlin_triplea.rules.ruleset import Option, Ruleset
from kremlin_triplea.rules.tomlfile import DataFileError, Section, read_toml
from kremlin_triplea.tools.matrix import run_matrix
from kremlin_triplea.tools.matrix_report import APPLIED
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


@pytest.mark.slow  # several seconds (2.8-9 s on a quiet 2-core machine): the full suite runs it
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


def test_a_placement_exception_at_a_place_the_map_lacks_is_kept_and_says_how_it_holds() -> None:
    """001, 2. option 3: "Exception- Germany may not place a transport in the Baltic Sea." A map profile that leaves
    the Baltic Sea unmatched keeps the exception (issue 46: dropping it offered German transports in the Baltic):
    it holds wherever the Baltic may be, and the fitting says so."""
    from kremlin_triplea.draft.kinds.placement import PlacementParams
    from kremlin_triplea.draft.rulesets import load_named_ruleset
    from kremlin_triplea.rules.profile import fit_ruleset, load_named_profile

    ruleset = load_named_ruleset("kremlin-classic")
    assert ruleset.option(3).params.exclude == (("Germany", "transport", "Baltic Sea"),)
    profile = attrs.evolve(load_named_profile("world_war_ii_classic"), unmatched={"Baltic Sea": "not on this map (a test's profile)"})
    fitted, notes = fit_ruleset(ruleset, profile)
    params = fitted.option(3).params
    assert isinstance(params, PlacementParams) and params.exclude == ruleset.option(3).params.exclude
    assert any(n.startswith("option 3 (Transport/Submarine Placement), its exception kept in part") and "this map names no Baltic Sea" in n for n in notes), (
        notes
    )


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

    class SameDisplaced(ScorchedEarth):
        name = "scorched_earth"
        displaces = ("retreat",)  # as option 10's defenders are

    with pytest.raises(ValueError, match="the kind 'territory_takeover' already displaces units as retreat"):
        register(SameDisplaced)
    assert "war_chest" not in KINDS and "war_chest_two" not in KINDS


# -- a kind with a form of its own and displaced units: one module's worth -----------------------


@attrs.frozen
class ScorchedEarthParams(OptionParams):
    KIND: ClassVar[str] = "scorched_earth"
    KEYS: ClassVar[tuple[str, ...]] = ("production", "compensation", "paid_before")

    production: int  # what the emptied territory produces afterwards
    compensation: int  # PUs the power receives once, from a TripleA trigger
    paid_before: str  # the game step the trigger fires before

    @classmethod
    def from_toml(cls, section: Section) -> ScorchedEarthParams:
        return cls(section.integer("production"), section.integer("compensation"), section.text("paid_before"))

    def describe(self, ruleset: Any) -> list[str]:
        return [f"a power of the side empties one of its territories, which then produces {self.production}; the power receives {self.compensation} PUs"]


@attrs.frozen
class Evacuation(PickTarget):
    KEY: ClassVar[str] = "evacuate"

    power: str
    territory: str
    to: str | None = None  # where its units go: declared after the bid, or stated here

    def to_toml(self) -> dict[str, str]:
        return {"power": self.power, "territory": self.territory} | ({"to": self.to} if self.to else {})


@attrs.frozen
class ScorchedEarthChoices(OptionChoices):
    territories: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (power, the territories it may empty)


def evacuation_problem(state: DraftState, option: Option, side: str, power: str, territory: str) -> Problem | None:
    problem = state.power_problem(option, side, power)
    if problem is not None:
        return problem
    data = state.board.node(territory)
    if data["water"] or data["owner"] != power:
        return Problem(option.quote("its territories"), option.source, f"{state.names.shown(territory)} is not a territory of the {power}")
    if not movable_units(state, power, territory):
        return Problem(option.quote("its units"), option.source, f"no {power} units in {state.names.shown(territory)} can leave it")
    return state.lock_problem(side, territory)


def movable_units(state: DraftState, power: str, territory: str) -> list[tuple[str, int]]:
    catalog = state.board.catalog
    return sorted((u, n) for (o, u), n in state.board.units(territory).items() if n and o == power and catalog.unit_type(u).movement)


class ScorchedEarth(OptionKind):
    name = "scorched_earth"
    params = ScorchedEarthParams
    target = Evacuation
    displaces = ("evacuation",)

    def parse_target(self, section: Section, names: Names, ruleset: Ruleset) -> Evacuation:
        spec = section.table(Evacuation.KEY)
        spec.only("power", "territory", "to")
        where = f"{spec.where}: {spec.key}"
        to = spec.text("to", None)
        return Evacuation(
            names.power(spec.text("power"), where=where), names.territory(spec.text("territory"), where=where), names.territory(to) if to else None
        )

    def choices(self, state: DraftState, option: Option, side: str, powers: list[str]) -> OptionChoices:
        land = sorted(t for t, d in state.board.nodes.items() if not d["water"])
        found = tuple((p, tuple(t for t in land if evacuation_problem(state, option, side, p, t) is None)) for p in powers)
        found = tuple((p, ts) for p, ts in found if ts)
        return ScorchedEarthChoices(option, unavailable=None if found else "no territory can be emptied", territories=found)

    def describe_choices(self, choices: OptionChoices) -> list[str]:
        assert isinstance(choices, ScorchedEarthChoices)
        return [f"  {power} empty {', '.join(places)}" for power, places in choices.territories]

    def picks(self, state: DraftState, choices: OptionChoices, side: str, index: int) -> Iterator[tuple[str, Pick]]:
        assert isinstance(choices, ScorchedEarthChoices)
        for power, places in choices.territories:
            for place in places:
                yield f"{power} empty {place}", Pick(index, side, choices.option, Evacuation(power, place))

    def form(self, state: DraftState, choices: OptionChoices, side: str, index: int) -> Form:
        """Two fields: the power, then the territory (in the terminal, one of that power's)."""
        assert isinstance(choices, ScorchedEarthChoices)
        by_power = dict(choices.territories)
        every = sorted({t for places in by_power.values() for t in places})

        def territories_of(answers: Answers) -> Field:
            places = by_power[answers["power"]]
            return Field("territory", "empty which territory", place_answers(state, places), place=True, resolve=state.names.place, refuse=refused(answers))

        def refused(answers: Answers):
            return lambda place: evacuation_problem(state, choices.option, side, answers["power"], place)

        fields = (
            Field("power", "power", answers_of(list(by_power)), resolve=state.names.power),
            Field("territory", "empties", place_answers(state, every), place=True, narrowed=territories_of),
        )
        return Form(fields, lambda answers: {"power": answers.get("power", ""), "territory": answers.get("territory", "")})

    def apply(self, state: DraftState, pick: Pick) -> Outcome:
        target, option = pick.target, pick.option
        assert isinstance(target, Evacuation)
        problem = evacuation_problem(state, option, pick.side, target.power, target.territory)
        if problem is not None:
            raise problem.violation(pick.label)
        (unit, count), *more = movable_units(state, target.power, target.territory)
        leaving = Displaced(
            pick.index, pick.label, "evacuation", target.territory, target.power, unit, count, pick.side, option.quote("nearest"), option.source, tuple(more)
        )
        params = option.params
        changes: list[Change] = [RemoveUnits(target.territory, target.power, u, n) for u, n in leaving.units()]
        changes.append(SetTerritory(target.territory, "production", params.production))
        # "receives 3 PUs as the game starts": TripleA pays it, with gamerules' public trigger helpers.
        paid = f"{target.power} receive {params.compensation} PUs as the game starts (a TripleA trigger)"
        condition = f"conditionAttachmentScorchedEarth{target.power}"
        pus = [("resource", "PUs"), ("resourceCount", str(params.compensation))]
        changes += [
            round_one_condition(condition, target.power),
            trigger(f"triggerAttachmentScorchedEarth{target.power}", target.power, [condition], f"before:{params.paid_before}", pus, paid),
            USE_TRIGGERS,
        ]
        return Outcome(tuple(changes), frozenset({target.territory}), (f"{target.power} empty {target.territory}", paid), displaced=(leaving,))

    # Its displaced units: where they may go, where the pick sends them, how the draft file records it.

    def destinations(self, state: DraftState, displaced: Displaced) -> Nearest:
        board = state.board

        def theirs(place: str) -> bool:
            data = board.nodes[place]
            return not data["water"] and data["owner"] is not None and board.catalog.allied(displaced.owner, data["owner"])

        return nearest(board, displaced.origin, theirs, via="land")

    def declared(self, pick: Pick, displaced: Displaced) -> str | None:
        return pick.target.to if isinstance(pick.target, Evacuation) else None

    def write_declaration(self, entry: dict[str, Any], displaced: Displaced, to: str, names: Names) -> None:
        entry["evacuate"]["to"] = to

    def displaced_words(self, displaced: Displaced) -> DisplacedWords:
        return DisplacedWords("evacuation", "evacuate to", "territories of their side", "cannot leave (no territory of their side can be reached)", moved=True)


SCORCHED_EARTH = """
[[option]]
number = 13
id = "scorched-earth"
title = "Scorched earth"
kind = "scorched_earth"
source = "tests/test_option_kinds.py (made up for the test)"
rule = "One power of the side empties one of its territories: its units there leave for the nearest territory of their side (declared after the bid) and the territory produces only 1 IPC; the power receives 3 PUs as the game starts."
production = 1
compensation = 3
paid_before = "gameInitDelegate"  # the first step of WW2v3-1941.xml
"""
POLAND_UNITS = {"infantry": 4, "artillery": 1, "armour": 2, "fighter": 1}  # the Germans' in AA50 1941 (checked below)
NEAREST_TO_POLAND = {"Bulgaria Romania", "Czechoslovakia Hungary", "Germany"}  # its German neighbours, one step away


@pytest.fixture
def scorched_earth(tmp_path: Path) -> Iterator[Path]:
    register(ScorchedEarth)
    path = tmp_path / "kremlin-aa50-scorched-earth.toml"
    shutil.copy(REPO / "rulesets" / "kremlin-aa50.toml", path)
    path.write_text(path.read_text() + SCORCHED_EARTH)
    try:
        yield path
    finally:
        unregister(ScorchedEarth.name)


def evacuation_draft(ruleset_file: Path, to: str | None = None) -> dict[str, Any]:
    """The Axis empty Poland for the Germans first; then each side its first legal placement (nothing else displaced)."""
    data: dict[str, Any] = {"ruleset": str(ruleset_file), "game": GAME, "first": "Axis", "picks_per_side": 4, "pick": []}
    run = DraftRun(draft_from_dict(dict(data)), fresh_game(AA50_1941))
    first = {"side": "Axis", "option": 13, "evacuate": {"power": "Germans", "territory": "Poland"} | ({"to": to} if to else {})}
    data["pick"].append(first)
    run.push(next(p for p in run.legal_picks if p.option.kind == "scorched_earth" and p.target.territory == "Poland"))
    for _ in range(7):
        chosen = next(p for p in run.legal_picks if p.option.kind == "placement")
        run.push(chosen)
        data["pick"].append(chosen.to_toml())
    return data


def units_at(xml: bytes, territory: str, owner: str) -> dict[str, int]:
    tree = etree.fromstring(xml)
    found: dict[str, int] = {}
    for unit in tree.xpath("/game/initialize/unitInitialize/unitPlacement[@territory=$t and @owner=$o]", t=territory, o=owner):
        found[unit.get("unitType")] = found.get(unit.get("unitType"), 0) + int(unit.get("quantity"))
    return found


def production_of(xml: bytes, territory: str) -> int:
    """The territory's production as TripleA reads it: its attachment's option, 0 without one (TerritoryAttachment's default)."""
    tree = etree.fromstring(xml)
    found = tree.xpath("/game/attachmentList/attachment[@attachTo=$t and @name='territoryAttachment']/option[@name='production']", t=territory)
    return int(found[0].get("value")) if found else 0


@pytest.mark.slow
def test_a_kind_with_a_form_and_displaced_units_is_listed_and_applied_its_units_where_the_draft_declares(scorched_earth: Path, tmp_path: Path) -> None:
    base = AA50_1941.read_bytes()
    assert units_at(base, "Poland", "Germans") == POLAND_UNITS and production_of(base, "Poland") == 3
    draft_file = tmp_path / "draft.toml"
    draft_file.write_text(tomli_w.dumps({"ruleset": str(scorched_earth), "game": GAME, "first": "Axis", "picks_per_side": 4, "pick": []}))
    result = CliRunner().invoke(main, ["legal", str(draft_file), "--maps-dir", str(MAPS_DIR)])
    assert result.exit_code == 0, result.output
    listed = result.output[result.output.index("Option 13 (scorched-earth) Scorched earth:") :].split("Option", 2)[1]
    assert "Germans empty" in listed and "Poland" in listed and "Russians" not in listed

    # "its units there leave for the nearest territory of their side": Germany is one of the three nearest.
    data = evacuation_draft(scorched_earth, to="Germany") | {"bid": {"axis": 0}}
    draft_file.write_text(tomli_w.dumps(data))
    out = tmp_path / "out.xml"
    result = CliRunner().invoke(main, ["apply", str(draft_file), "-o", str(out), "--maps-dir", str(MAPS_DIR)])
    assert result.exit_code == 0, result.output
    written = out.read_bytes()
    assert units_at(written, "Poland", "Germans") == {}
    assert production_of(written, "Poland") == 1  # "the territory produces only 1 IPC"
    # "the power receives 3 PUs as the game starts": a trigger TripleA runs (Use Triggers on) before the first step.
    tree = etree.fromstring(written)
    assert tree.xpath("/game/propertyList/property[@name='Use Triggers']/@value") == ["true"]
    (paid,) = tree.xpath("/game/attachmentList/attachment[@javaClass='games.strategy.triplea.attachments.TriggerAttachment' and @attachTo='Germans']")
    options = {o.get("name"): o.get("value") for o in paid.iterchildren("option")}
    assert options["resource"] == "PUs" and options["resourceCount"] == "3" and options["when"] == "before:gameInitDelegate"
    assert tree.xpath("/game/attachmentList/attachment[@name=$c]/option[@name='rounds']/@value", c=options["conditions"]) == ["1"]
    before, after = units_at(base, "Germany", "Germans"), units_at(written, "Germany", "Germans")
    assert {u: after.get(u, 0) - before.get(u, 0) for u in after} == {u: POLAND_UNITS.get(u, 0) for u in after}

    # A destination that is not among the nearest is refused with the rule, and nothing is written.
    draft_file.write_text(tomli_w.dumps(evacuation_draft(scorched_earth, to="France") | {"bid": {"axis": 0}}))
    refused = tmp_path / "refused.xml"
    result = CliRunner().invoke(main, ["apply", str(draft_file), "-o", str(refused), "--maps-dir", str(MAPS_DIR)])
    assert result.exit_code == 1, result.output
    assert "they cannot go to France; the nearest territories of their side are" in result.output and "nearest territory of their side" in result.output
    assert not refused.exists()

    # The matrix lists and applies it as any other kind (its own row only: AA50's other options are other tests').
    ruleset = load_ruleset(scorched_earth)
    only_13 = attrs.evolve(ruleset, options=tuple(o for o in ruleset.options if o.number == 13))
    report = run_matrix([only_13], [AA50_1941], maps_dir=MAPS_DIR, samples=0, include_covered=False)
    cell = report.cells[("kremlin-aa50", "13 Scorched earth", "world_war_ii_v3/WW2v3-1941.xml")]
    assert cell.status == APPLIED and cell.applied > 1, cell.errors


def test_the_terminal_asks_its_two_fields_then_where_its_units_go_after_the_bid(scorched_earth: Path, tmp_path: Path) -> None:
    session = draft(tmp_path, [], ruleset=str(scorched_earth))
    script = Script("13", "Germans", "Atlantis", "Poland")
    talk(session, script)
    assert script.asked[:4] == ["Axis, option> ", "power> ", "empty which territory> ", "empty which territory> "]
    assert session.to_toml()["pick"] == [{"side": "Axis", "option": 13, "evacuate": {"power": "Germans", "territory": "Poland"}}]

    (tmp_path / "finished").mkdir()
    finished = draft(tmp_path / "finished", evacuation_draft(scorched_earth)["pick"], ruleset=str(scorched_earth))
    script = Script("0", "France", "Germany")
    Conversation(finished, script).run()
    assert script.asked == ["bid> ", "evacuate to> ", "evacuate to> "]
    assert "no choice 'France' here" in script.text
    assert finished.to_toml()["pick"][0]["evacuate"] == {"power": "Germans", "territory": "Poland", "to": "Germany"}
    assert finished.to_toml()["bid"] == {"axis": 0}


def test_the_draft_room_shows_its_form_reads_it_and_asks_where_its_units_go(scorched_earth: Path, tmp_path: Path) -> None:
    from kremlin_triplea.web.app import create_app
    from kremlin_triplea.web.room import Room, new_draft

    path = tmp_path / "room.toml"
    new_draft(path, {"ruleset": str(scorched_earth), "game": GAME, "first": "Axis", "picks_per_side": 4, "pick": []}, MAPS_DIR)
    room = Room(path, MAPS_DIR)
    client = TestClient(create_app(room, svg_for=lambda room: "<svg></svg>"))
    axis = room.keys["Axis"]
    page = client.get(f"/room/{axis}", params={"option": "13"}).text
    assert "<select name='power'>" in page and "<input name='territory' class='target'" in page
    assert "its units there leave for the nearest territory of their side" in page  # the rule text beside the form
    sent = {"seq": str(room.seq), "option": "13", "power": "Germans", "territory": "Baltic States"}
    refused = client.post(f"/room/{axis}/pick", data=sent, follow_redirects=False)
    assert refused.status_code == 422 and "Baltic States is not a territory of the Germans" in unescape(refused.text)
    assert "name='territory' class='target at-fault' aria-invalid='true' value='Baltic States'" in refused.text  # kept, and marked
    sent["territory"] = "Poland"
    assert client.post(f"/room/{axis}/pick", data=sent, follow_redirects=False).status_code == 303
    assert read_toml(path)["pick"] == [{"side": "Axis", "option": 13, "evacuate": {"power": "Germans", "territory": "Poland"}}]

    path = tmp_path / "declare.toml"
    new_draft(
        path, {"ruleset": str(scorched_earth), "game": GAME, "first": "Axis", "picks_per_side": 4, "pick": evacuation_draft(scorched_earth)["pick"]}, MAPS_DIR
    )
    room = Room(path, MAPS_DIR)
    client = TestClient(create_app(room, svg_for=lambda room: "<svg></svg>"))
    assert client.post(f"/room/{room.keys['Axis']}/bid", data={"seq": str(room.seq), "amount": "0"}, follow_redirects=False).status_code == 303
    assert client.post(f"/room/{room.keys['Allies']}/bid/answer", data={"seq": str(room.seq), "agree": "yes"}, follow_redirects=False).status_code == 303
    page = unescape(client.get(f"/room/{room.keys['Axis']}").text)
    assert "evacuate to one of" in page and all(place in page for place in NEAREST_TO_POLAND)
    assert client.post(f"/room/{room.keys['Axis']}/declare", data={"seq": str(room.seq), "to": "Germany"}, follow_redirects=False).status_code == 303
    assert read_toml(path)["pick"][0]["evacuate"] == {"power": "Germans", "territory": "Poland", "to": "Germany"}

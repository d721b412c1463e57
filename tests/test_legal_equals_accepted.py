"""The legal picks are exactly the picks a draft accepts (issue 28's last items, issue 30 item 2).

Like python-chess's ``Board.legal_moves``: whatever ``legal`` and ``run.legal_picks`` offer, ``apply`` and
``run.is_legal`` accept, and an option with nothing to offer says it is not available, and why. Rules quoted from
000_bc04a4edf7f7d2ab.txt (Kremlin AA50); what a map has is read from its game file, never from our own output.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest
import tomli_w
import tomllib
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from kremlin_triplea.cli.main import main
from kremlin_triplea.draft.choices import OptionChoices
from kremlin_triplea.draft.kinds import KINDS, OptionKind, Pick, PickTarget, register, unregister
from kremlin_triplea.draft.kinds.bid import removable_units
from kremlin_triplea.draft.kinds.takeover import takeover_problem
from kremlin_triplea.draft.rulesets import load_named_ruleset, load_ruleset
from kremlin_triplea.draft.run import DraftRun, draft_from_dict
from kremlin_triplea.draft.state import DraftState, Outcome
from kremlin_triplea.model.changes import PlaceUnits
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.options import OptionParams
from kremlin_triplea.rules.profile import fit_ruleset, load_profile
from kremlin_triplea.rules.ruleset import Option, Ruleset
from kremlin_triplea.rules.tomlfile import Section
from support.aa50 import fresh_game
from support.classic import CLASSIC_2ND, KREMLIN
from support.paths import AA50_1941, MAPS_DIR
from support.properties import examples
from support.units import units_players_can_have

REPO = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data"
V4 = DATA / "world_war_ii_v4" / "WW2v4.xml"
V5 = DATA / "world_war_ii_v5_1942" / "WW2v5_1942_2nd.xml"
V6 = DATA / "world_war_ii_v6_1941" / "WW2v6_1941.xml"
TWW = DATA / "total_world_war" / "Total_World_War_Dec1941_3.0.xml"
REVISED = MAPS_DIR / "world_war_ii_revised" / "map" / "games" / "ww2v2.xml"

# The pinned games with the rulesets written for them (their own profiles), and games the tool has no profile
# for, read with the profile a host drafts (``profile new``) and kremlin-aa50 fitted to it, as apply does.
PINNED = [("kremlin-aa50", AA50_1941), ("kremlin-classic", KREMLIN), ("kremlin-daak", CLASSIC_2ND)]
DRAFTED = [REVISED, V4, V5, V6, TWW]


def _profile(tmp_path: Path, game: Path) -> Path:
    """The profile a host drafts for a map the tool has never seen (``profile new``, its guesses as written)."""
    written = tmp_path / f"{game.stem}.toml"
    made = CliRunner().invoke(main, ["profile", "new", str(game), "--ruleset", "kremlin-aa50", "-o", str(written)])
    assert made.exit_code == 0, made.output
    return written


def _artillery_types(game: Path) -> list[str]:
    """The game file's unit types with ``artillery=true`` (what the rule text's "artillery" is, by TripleA's role)."""
    root = etree.parse(str(game)).getroot()
    return [
        a.get("attachTo")
        for a in root.iter("attachment")
        if a.get("name") == "unitAttachment" and any(o.get("name") == "artillery" and o.get("value") == "true" for o in a.iter("option"))
    ]


def test_a_takeover_placing_artillery_is_not_offered_where_the_map_has_none_and_apply_refuses_it_in_one_line(tmp_path: Path) -> None:
    """000 option 10: "Take over an enemy territory ... place 1 infantry and 1 artillery". WW2v6 1941 has no
    artillery: ``legal`` listed takeovers that ``apply`` refused with "unknown unit 'artillery'"."""
    assert _artillery_types(V6) == []
    profile = _profile(tmp_path, V6)
    draft = tmp_path / "draft.toml"
    data = {"ruleset": "kremlin-aa50", "game": str(V6), "profile": str(profile), "first": "Axis"}
    draft.write_text(tomli_w.dumps(data), encoding="utf-8")
    listed = CliRunner().invoke(main, ["legal", str(draft)])
    assert listed.exit_code == 0, listed.output
    (line,) = [line for line in listed.output.splitlines() if line.startswith("Option 10 ")]
    assert "not available" in line and "artillery" in line, line
    # 000 option 3: "you take over their armies as well": a neutral whose army has artillery (the ruleset's neutral
    # table, from the rule text) cannot join anyone here, so it is not listed; the others are.
    armies = {n["name"]: n["army"] for n in tomllib.loads((REPO / "rulesets" / "kremlin-aa50.toml").read_text(encoding="utf-8"))["neutral"]}
    block = listed.output.split("Option 3 ", 1)[1].split("\nOption ", 1)[0]
    shown = {name for name in armies if f"  {name} [" in block}
    assert shown and all("artillery" not in armies[name] for name in shown), block
    territories = {t.get("name") for t in etree.parse(str(V6)).getroot().iter("territory")}
    assert {"Sweden", "Turkey"} <= territories and all("artillery" in armies[n] for n in ("Sweden", "Turkey"))
    assert {"Sweden", "Turkey"}.isdisjoint(shown)
    # The takeover written by hand is refused as a rule the map cannot meet (exit 1), in one line, no traceback.
    data["pick"] = [{"side": "Axis", "option": 10, "takeover": {"territory": "Karelia", "by": "Germans"}}]
    draft.write_text(tomli_w.dumps(data), encoding="utf-8")
    applied = CliRunner().invoke(main, ["apply", str(draft), "-o", str(tmp_path / "out.xml")])
    assert applied.exit_code == 1, applied.output
    assert "artillery" in applied.output and "Traceback" not in applied.output
    assert not (tmp_path / "out.xml").exists()


# -- the property: at random points of random drafts, what is offered is what is accepted ----------------------


def check_offered_is_accepted(run: DraftRun, exact_kinds: frozenset[str]) -> set[str]:
    """Assert that ``run.legal_picks`` are exactly the picks the draft accepts now; return the kinds that offered one.

    ``exact_kinds``: the kinds whose own lists (what ``legal`` prints) must already be exact, with no target the
    draft then refuses (the kinds of ``draft/kinds/``); any other kind's refused targets are left out by the run.
    """
    index = len(run.applied) + 1
    side = run.side_to_pick(index)
    before = run.game.board.position
    yielded = list(run.legal_picks)
    assert len(set(yielded)) == len(yielded)
    offering = set()
    accepted_in_order: list[Pick] = []
    for option in run.ruleset.options:
        shown = run.offered_choices(option, side)  # what `legal` prints
        choices = run.option_choices(option, side)
        candidates = [pick for _, pick in KINDS[option.kind].picks(run.state, choices, side, index)] if choices.available else []
        verdicts = {pick: run.violation(pick) for pick in candidates}  # each candidate judged once, as `apply` judges it
        accepted = [pick for pick in candidates if verdicts[pick] is None]
        # An option is available exactly when it has a pick the draft accepts; else it says why not.
        assert shown.available == bool(accepted), (option.label, shown.unavailable)
        assert shown.available or shown.unavailable
        if option.kind in exact_kinds:
            assert len(accepted) == len(candidates), [(p.label, verdicts[p].why) for p in candidates if p not in accepted][:3]
        # ``in`` is the draft's own verdict: the first accepted target is in the legal picks, the first refused one not.
        assert all(pick in run.legal_picks for pick in accepted[:1])
        assert not any(pick in run.legal_picks for pick in candidates if verdicts[pick] is not None)
        accepted_in_order += accepted
        if accepted:
            offering.add(option.kind)
    # What the legal picks list is exactly what the draft accepts: every option's accepted targets, in the kinds' order.
    assert yielded == accepted_in_order
    assert run.game.board.position == before  # checking a pick leaves the board as it was
    return offering


def walk(run: DraftRun, rng: random.Random, depth: int) -> None:
    """Push ``depth`` picks drawn at random: an option among those with a legal pick, then one of its picks."""
    for _ in range(min(depth, run.total_picks)):
        side = run.side_to_pick(len(run.applied) + 1)
        options = list(run.ruleset.options)
        rng.shuffle(options)
        for option in options:
            picks = [pick for _, pick in run.option_picks(option, side)]
            if picks:
                run.push(rng.choice(picks))
                break
        else:
            return


@pytest.fixture(scope="module")
def drafted_profiles(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, Path]:
    folder = tmp_path_factory.mktemp("profiles")
    return {game: _profile(folder, game) for game in DRAFTED}


_GAMES: dict[Path, Any] = {}


def _run(ruleset: str, game: Path, first: str, profile: Path | None) -> DraftRun:
    if profile is None:
        return DraftRun(draft_from_dict({"ruleset": ruleset, "first": first}), fresh_game(game))
    if game not in _GAMES:
        read = load_profile(profile)
        _GAMES[game] = (read, fit_ruleset(load_named_ruleset(ruleset), read)[0])
    read, fitted = _GAMES[game]
    return DraftRun(draft_from_dict({"ruleset": ruleset, "first": first}), fresh_game(game), ruleset=fitted, profile=read)


BUILT_IN = frozenset(KINDS)  # the kinds of draft/kinds/, registered on import (a test's own kind comes later)


def test_every_registered_kind_is_offered_by_a_ruleset_the_property_runs_on() -> None:
    """The property below covers every kind the registry holds: each is the kind of an option of a ruleset it runs."""
    offered = {option.kind for name, _ in PINNED for option in load_named_ruleset(name).options}
    assert offered == set(KINDS)


@settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.sampled_from(PINNED), st.sampled_from(["Axis", "Allies"]), st.integers(0, 9), st.integers(0, 2**32 - 1))
def test_on_the_pinned_games_the_legal_picks_are_exactly_the_accepted_ones(game: tuple[str, Path], first: str, depth: int, seed: int) -> None:
    ruleset, path = game
    run = _run(ruleset, path, first, None)
    walk(run, random.Random(seed), depth)
    if len(run.applied) < run.total_picks:
        check_offered_is_accepted(run, BUILT_IN)


@pytest.mark.slow
@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.sampled_from(DRAFTED), st.sampled_from(["Axis", "Allies"]), st.integers(0, 7), st.integers(0, 2**32 - 1))
def test_on_maps_the_tool_never_saw_the_legal_picks_are_exactly_the_accepted_ones(
    drafted_profiles: dict[Path, Path], game: Path, first: str, depth: int, seed: int
) -> None:
    run = _run("kremlin-aa50", game, first, drafted_profiles[game])
    walk(run, random.Random(seed), depth)
    if len(run.applied) < run.total_picks:
        check_offered_is_accepted(run, BUILT_IN)


# -- a kind defined here only, whose own list includes targets the draft refuses ---------------------------------
# Made up for the test, not a seed's rule: "one power of the side places a battleship in a sea zone". Its list of
# targets is naive (every sea zone, or only those holding enemy units) and its apply places the ship wherever it
# is told; the draft's board invariants (draft/invariants.py: no sea zone holds units of two powers at war) refuse
# the zones with enemies, so the run must leave those out, and say the option is unavailable when none is left.


@attrs.frozen
class BatteryParams(OptionParams):
    KIND: ClassVar[str] = "test_battery"
    KEYS: ClassVar[tuple[str, ...]] = ("zones",)

    zones: str  # "any" sea zone, or only those with "enemy" units

    @classmethod
    def from_toml(cls, section: Section) -> BatteryParams:
        return cls(section.text("zones"))


@attrs.frozen
class BatteryTarget(PickTarget):
    KEY: ClassVar[str] = "battery"

    power: str
    zone: str

    def to_toml(self) -> dict[str, str]:
        return {"power": self.power, "zone": self.zone}


@attrs.frozen
class BatteryChoices(OptionChoices):
    targets: tuple[tuple[str, str], ...] = ()


def _enemies_in(state: DraftState, zone: str, power: str) -> bool:
    catalog = state.board.catalog
    return any(n and owner is not None and not catalog.allied(owner, power) for (owner, _), n in state.board.units(zone).items())


class Battery(OptionKind):
    name = "test_battery"
    params = BatteryParams
    target = BatteryTarget

    def parse_target(self, section: Section, names: Names, ruleset: Ruleset) -> BatteryTarget:
        spec = section.table(BatteryTarget.KEY)
        return BatteryTarget(names.power(spec.text("power")), names.sea_zone(spec.text("zone")))

    def choices(self, state: DraftState, option: Option, side: str, powers: list[str]) -> OptionChoices:
        zones = [z for z, d in state.board.nodes.items() if d["water"]]
        only_enemy = option.params.zones == "enemy"  # type: ignore[union-attr]
        targets = tuple((p, z) for p in powers for z in zones if not only_enemy or _enemies_in(state, z, p))
        return BatteryChoices(option, unavailable=None if targets else "no sea zone", targets=targets)

    def describe_choices(self, choices: OptionChoices) -> list[str]:
        assert isinstance(choices, BatteryChoices)
        return [f"  {power} battleship in {zone}" for power, zone in choices.targets]

    def picks(self, state: DraftState, choices: OptionChoices, side: str, index: int) -> Iterator[tuple[str, Pick]]:
        assert isinstance(choices, BatteryChoices)
        for power, zone in choices.targets:
            yield f"{power} battleship in {zone}", Pick(index, side, choices.option, BatteryTarget(power, zone))

    def apply(self, state: DraftState, pick: Pick) -> Outcome:
        target = pick.target
        assert isinstance(target, BatteryTarget)
        problem = state.power_problem(pick.option, pick.side, target.power)
        if problem is not None:
            raise problem.violation(pick.label)
        ship = PlaceUnits(target.zone, target.power, state.names.unit("battleship"), 1)
        return Outcome((ship,), frozenset({target.zone}), (f"{target.power} place a battleship in {target.zone}",))


BATTERY = """
[[option]]
number = 12
id = "battery-anywhere"
title = "Battleship anywhere"
kind = "test_battery"
source = "tests/test_legal_equals_accepted.py (made up for the test)"
rule = "One power of the side places a battleship in any sea zone."
zones = "any"

[[option]]
number = 13
id = "battery-among-enemies"
title = "Battleship among enemies"
kind = "test_battery"
source = "tests/test_legal_equals_accepted.py (made up for the test)"
rule = "One power of the side places a battleship in a sea zone holding enemy units."
zones = "enemy"
"""


@pytest.fixture
def battery_ruleset(tmp_path: Path) -> Iterator[Path]:
    register(Battery)
    try:
        path = tmp_path / "kremlin-aa50-battery.toml"
        shutil.copy(REPO / "rulesets" / "kremlin-aa50.toml", path)
        path.write_text(path.read_text() + BATTERY)
        yield path
    finally:
        unregister(Battery.name)


def _battery_run(path: Path, first: str) -> DraftRun:
    return DraftRun(draft_from_dict({"ruleset": str(path), "first": first}), fresh_game(AA50_1941), ruleset=load_ruleset(path))


def test_a_kind_s_targets_the_board_invariants_refuse_are_not_offered(battery_ruleset: Path) -> None:
    run = _battery_run(battery_ruleset, "Axis")
    anywhere, among_enemies = run.ruleset.option(12), run.ruleset.option(13)
    listed = [pick for _, pick in KINDS["test_battery"].picks(run.state, run.option_choices(anywhere, "Axis"), "Axis", 1)]
    refused = [pick for pick in listed if not run.is_legal(pick)]
    # The base game has Allied ships at sea: a German battleship there is a board no game starts from.
    assert refused and all("at war" in run.violation(pick).why for pick in refused)
    offered = [pick for pick in run.legal_picks if pick.option == anywhere]
    assert offered == [pick for pick in listed if pick not in refused]
    assert all(pick in run.legal_picks for pick in offered) and not any(pick in run.legal_picks for pick in refused)
    # Every zone the second option lists holds enemies: none is offered, and the option says why.
    shown = run.offered_choices(among_enemies, "Axis")
    assert not shown.available and "each of its targets is refused" in shown.unavailable and "at war" in shown.unavailable
    assert not any(pick.option == among_enemies for pick in run.legal_picks)


def test_legal_says_the_option_whose_every_target_is_refused_is_not_available_and_apply_refuses_it(battery_ruleset: Path, tmp_path: Path) -> None:
    run = _battery_run(battery_ruleset, "Axis")
    target = next(p for _, p in KINDS["test_battery"].picks(run.state, run.option_choices(run.ruleset.option(13), "Axis"), "Axis", 1))
    draft = tmp_path / "draft.toml"
    data: dict[str, Any] = {"ruleset": str(battery_ruleset), "game": "world_war_ii_v3/WW2v3-1941.xml", "first": "Axis"}
    draft.write_text(tomli_w.dumps(data), encoding="utf-8")
    listed = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "legal", str(draft)])
    assert listed.exit_code == 0, listed.output
    (line,) = [line for line in listed.output.splitlines() if line.startswith("Option 13 ")]
    assert "not available" in line and "at war" in line, line
    data["pick"] = [{"side": "Axis", "option": 13, "battery": target.target.to_toml()}]
    draft.write_text(tomli_w.dumps(data), encoding="utf-8")
    applied = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "apply", str(draft), "-o", str(tmp_path / "out.xml")])
    assert applied.exit_code == 1 and "at war" in applied.output, applied.output
    assert not (tmp_path / "out.xml").exists()


@pytest.mark.slow
@settings(max_examples=examples(8), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.sampled_from(["Axis", "Allies"]), st.integers(0, 7), st.integers(0, 2**32 - 1))
def test_with_a_test_kind_registered_the_legal_picks_are_exactly_the_accepted_ones(battery_ruleset: Path, first: str, depth: int, seed: int) -> None:
    run = _battery_run(battery_ruleset, first)
    assert "test_battery" in KINDS and {o.kind for o in run.ruleset.options} == set(KINDS)
    walk(run, random.Random(seed), depth)
    if len(run.applied) < run.total_picks:
        check_offered_is_accepted(run, BUILT_IN)


# -- issue 28 (a): no power is given a unit type it cannot have, whatever kind of option gives it ---------------


def _created(outcome: Outcome) -> set[tuple[str, str]]:
    """(owner, unit type) of the units a pick brings into the game: placed, not moved or changing hands (a retreat, a
    factory captured is the same unit, taken off and put back)."""
    taken = {change.unit_type for change in outcome.changes if not isinstance(change, PlaceUnits) and hasattr(change, "unit_type")}
    return {(c.owner, c.unit_type) for c in outcome.changes if isinstance(c, PlaceUnits) and c not in outcome.moved and c.unit_type not in taken}


@pytest.mark.slow
def test_on_total_world_war_every_unit_any_legal_pick_gives_a_power_is_one_the_game_file_lets_it_have(tmp_path: Path) -> None:
    """Total World War gives each major power its own types (germanTank, russianInfantry...); its stand-ins
    (DanubeAxis, Finland: the Germans' minor frontier) buy German types and none of the shared Infantry or
    Artillery. A placement, a neutral's army, a takeover's garrison (000 option 10: "place 1 infantry and 1
    artillery") or a scenario's units must be the receiving power's own, or the option is not offered to it."""
    has = units_players_can_have(TWW)
    assert "Infantry" not in has["DanubeAxis"] and "germanInfantry" in has["DanubeAxis"] and "Artillery" not in has["DanubeAxis"]
    written = _profile(tmp_path, TWW)
    data = tomllib.loads(written.read_text(encoding="utf-8"))
    # A host's review of the drafted profile: the map's artillery for Germany and Russia is their own.
    data["units_by_power"]["Germany"]["artillery"] = "germanArtillery"
    data["units_by_power"]["Russia"]["artillery"] = "russianArtillery"
    written.write_text(tomli_w.dumps(data), encoding="utf-8")
    profile = load_profile(written)
    ruleset, _ = fit_ruleset(load_named_ruleset("kremlin-aa50"), profile)
    kinds, takers, wrong, offered = set(), set(), set(), set()
    for first in ("Axis", "Allies"):
        run = DraftRun(draft_from_dict({"ruleset": ruleset.id, "first": first}), fresh_game(TWW), ruleset=ruleset, profile=profile)
        offered |= {option.kind for option in ruleset.options if run.offered_choices(option, first).available}
        for _ in range(2):  # on the base game, and after a pick
            for pick in list(run.legal_picks):
                outcome = run.push(pick)
                run.pop()
                kinds.add(pick.option.kind)
                wrong |= {(owner, unit, pick.option.kind) for owner, unit in _created(outcome) if unit not in has[owner]}
                if pick.option.kind == "territory_takeover":
                    takers.add(pick.target.by)  # type: ignore[union-attr]
            walk(run, random.Random(28), 1)
    assert wrong == set(), sorted(wrong)[:10]
    # Every kind an option of which is offered on this map was walked. (The scenarios name places Total World War
    # numbers otherwise, its 12 Sea Zone is not AA50's: the drafted profile leaves them unmatched, so none is offered.)
    assert offered <= kinds and len(offered) >= 3, (offered, kinds)
    assert {"Germany", "Russia"} <= takers and not takers & {"DanubeAxis", "Finland"}
    # Asked for a stand-in, the takeover says why not: it can have none of the shared units.
    option = ruleset.option(10)
    run = DraftRun(draft_from_dict({"ruleset": ruleset.id, "first": "Axis"}), fresh_game(TWW), ruleset=ruleset, profile=profile)
    russian = next(t for t, d in run.game.board.nodes.items() if d["owner"] == "Russia" and not d["water"] and not d["impassable"])
    problem = takeover_problem(run.state, option, "Axis", russian, "DanubeAxis")
    assert problem is not None and "DanubeAxis cannot have" in problem.why, problem


@pytest.mark.slow
def test_a_negative_bid_on_total_world_war_removes_each_power_s_own_infantry_and_armour(tmp_path: Path) -> None:
    """001 1.7 (kremlin-classic): "Only armor and infantry units may be removed from the board in a negative bid."
    On Total World War those are each power's own (germanInfantry, germanTank); the shared Infantry and Tank are
    nobody's, so the bid could remove nothing."""
    root = etree.parse(str(TWW)).getroot()
    held = {(u.get("owner"), u.get("unitType")) for u in root.iter("unitPlacement") if u.get("owner")}
    assert {("Germany", "germanInfantry"), ("Germany", "germanTank")} <= held and not {o for o, u in held if u in ("Infantry", "Tank")}
    written = tmp_path / "tww-classic.toml"
    made = CliRunner().invoke(main, ["profile", "new", str(TWW), "--ruleset", "kremlin-classic", "-o", str(written)])
    assert made.exit_code == 0, made.output
    profile = load_profile(written)
    ruleset, _ = fit_ruleset(load_named_ruleset("kremlin-classic"), profile)
    run = DraftRun(draft_from_dict({"ruleset": ruleset.id, "first": "Axis"}), fresh_game(TWW), ruleset=ruleset, profile=profile)
    removable = {(power, unit) for power, unit, _ in removable_units(run.state)}
    assert {("Germany", "germanInfantry"), ("Germany", "germanTank")} <= removable
    assert removable <= held  # only units the set-up has, of the bidding side's powers
    assert {power for power, _ in removable} <= set(run.state.side_powers[ruleset.bid.placing_side])


@pytest.mark.slow
def test_on_a_map_of_per_power_factories_a_factory_option_never_adds_a_second_factory(tmp_path: Path) -> None:
    """000 option 8 places a factory "in a territory that does not have one". Total World War's factories are each
    power's (germanFactory, russianFactory: constructionType fProduction in the game file); a host's profile names
    them per power, and no shared one: a territory holding any power's factory takes no second."""
    root = etree.parse(str(TWW)).getroot()
    kinds = {
        a.get("attachTo")
        for a in root.iter("attachment")
        if a.get("name") == "unitAttachment" and any(o.get("name") == "constructionType" and o.get("value") == "fProduction" for o in a.iter("option"))
    }
    with_factory = {u.get("territory") for u in root.iter("unitPlacement") if u.get("unitType") in kinds}
    assert {"germanFactory", "russianFactory"} <= kinds and "Western Germany" in with_factory
    written = _profile(tmp_path, TWW)
    data = tomllib.loads(written.read_text(encoding="utf-8"))
    del data["unmatched"]["factory"]
    for power, own in (("Germany", "germanFactory"), ("Russia", "russianFactory"), ("Britain", "britishFactory"), ("Japan", "japaneseFactory")):
        data["units_by_power"][power]["factory"] = own
    written.write_text(tomli_w.dumps(data), encoding="utf-8")
    profile = load_profile(written)
    ruleset, _ = fit_ruleset(load_named_ruleset("kremlin-aa50"), profile)
    for first in ("Axis", "Allies"):
        run = DraftRun(draft_from_dict({"ruleset": ruleset.id, "first": first}), fresh_game(TWW), ruleset=ruleset, profile=profile)
        placed = [(e.power, e.unit, e.at) for p in run.legal_picks if p.option.number == 8 for e in p.target.units if e.unit in kinds]  # type: ignore[union-attr]
        assert placed, first
        assert not [entry for entry in placed if entry[2] in with_factory], placed[:5]

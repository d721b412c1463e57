"""Scenarios computed from the board as it stands when picked (issue 12), in the seeds' own terms.

A scenario meets a board already changed by earlier picks of both sides. Its steps say what the rule texts say
("all US infantry in China ... destroyed", "German forces in Algeria are retreated to Libya", "Germany ... gains
control of Argentina's army"), so each computes its effect at the moment it is applied. Each example of the issue
is drafted here with expectations from the seeds' sentences; a property test draws whole drafts from the legal
enumeration with a scenario in them and checks the board a game must start from.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import support.classic as classic_support
from kremlin_triplea.draft.kinds.placement import Placements
from kremlin_triplea.draft.kinds.takeover import TakeoverSpec
from kremlin_triplea.draft.picks import Pick
from kremlin_triplea.draft.run import draft_from_dict
from kremlin_triplea.errors import RuleViolation
from kremlin_triplea.model.board import Board
from kremlin_triplea.session import Session
from support import sessions
from support.aa50 import GAMES, delta, fresh_game
from support.classic import KREMLIN, RULESET_GAMES, SEED_001, SEED_002, game_id
from support.drafts import draw_pick
from support.properties import examples
from support.sessions import session_for

G, J, B, R, A = "Germans", "Japanese", "British", "Russians", "Americans"
EACH_CLASSIC = pytest.mark.parametrize(("ruleset", "game"), RULESET_GAMES, ids=[f"{r}-{game_id(g)}" for r, g in RULESET_GAMES])
SEED_OF = {"kremlin-classic": SEED_001, "kremlin-daak": SEED_002}
GERMAN_INFANTRY = {"power": "Germany", "unit": "infantry", "count": 3, "at": "Germany"}  # a pick elsewhere, to pass the turn
AMERICAN_INFANTRY = {"power": "USA", "unit": "infantry", "count": 3, "at": "Eastern USA"}


def draft(ruleset: str, game: Path, picks: list[tuple[str, int, dict[str, Any]]], *, declare: bool = True) -> tuple[Session, list]:
    """Apply ``picks`` (side, option, spec) in order, then (``declare``) the declarations after the bid; the picks' outcomes."""
    session = session_for(game, picks[0][0], ruleset=ruleset, picks_per_side=4)
    outcomes = [sessions.pick(session, side, option, **spec) for side, option, spec in picks]
    if declare:
        sessions.declare(session)
    return session, outcomes


def start_problems(board: Board, factory: str = "factory") -> list[str]:
    """What no game can start from, by the seeds and the board: computed here, independently of the draft's own checks.

    Units of powers at war in one territory or sea zone (001 options 3 and 7: ships "not in the same seazone with
    enemy units"); an owned territory holding units of its owner's enemies (a captured territory holding its former
    owner's units); units in a neutral; more than one factory a territory.
    """
    catalog = board.catalog
    found = []
    for place, data in board.nodes.items():
        owners = sorted({o for (o, _), n in data["units"].items() if n and o is not None})
        if any(not catalog.allied(a, b) for a in owners for b in owners):
            found.append(f"{place} holds units of powers at war: {owners}")
        if not data["water"]:
            if data["owner"] is None and owners:
                found.append(f"neutral {place} holds units of {owners}")
            elif data["owner"] is not None and any(not catalog.allied(o, data["owner"]) for o in owners):
                found.append(f"{place} of {data['owner']} holds units of {owners}")
        if sum(n for (_, u), n in data["units"].items() if u == factory) > 1:
            found.append(f"{place} holds more than one factory")
    return found


# -- the issue's examples ---------------------------------------------------------------------------------------


@EACH_CLASSIC
def test_west_african_landings_after_the_allies_took_libya(ruleset: str, game: Path) -> None:
    # Option 8: "retreat any enemy forces to the nearest enemy territory. (The player who wins the retreating side
    # decides where to retreat those units after the bidding process is complete ...)": Libya's Germans leave it at the
    # pick and retreat after the bid (000 A "Order of action" 1). Meanwhile "USA places two infantry in Algeria ...
    # German forces in Algeria are retreated to Libya" concerns the German infantry that is in Algeria: Libya is British
    # now, so it is interned. After the bid Algeria is American, so Libya's Germans go elsewhere: where the Axis say.
    session, outcomes = draft(
        ruleset,
        game,
        [
            ("Allies", 8, {"takeover": {"territory": "Libya", "by": "UK", "retreat": [{"to": "Ukraine S.S.R."}]}}),
            ("Axis", 1, {"place": [GERMAN_INFANTRY]}),
            ("Allies", 9, {"scenario": "Early West African landings"}),
        ],
    )
    changed = delta(session.game.initial, session.game.board)
    assert changed["Algeria"] == {"owner": (G, A), "units": {(G, "infantry"): -1, (A, "infantry"): 2}}
    assert changed["Libya"] == {"owner": (G, B), "units": {(G, "infantry"): -1, (G, "armour"): -1, (B, "infantry"): 2}}
    assert "1 infantry of the Germans in Algeria cannot retreat into Libya (held by British): interned, out of the game" in outcomes[2].lines
    assert changed["Ukraine S.S.R."] == {"units": {(G, "infantry"): 1, (G, "armour"): 1}}
    assert start_problems(session.game.board) == []


@EACH_CLASSIC
def test_west_african_landings_alone_retreat_the_german_infantry_to_libya(ruleset: str, game: Path) -> None:
    session, _ = draft(ruleset, game, [("Allies", 9, {"scenario": "Early West African landings"})])
    changed = delta(session.game.initial, session.game.board)
    assert changed["Algeria"] == {"owner": (G, A), "units": {(G, "infantry"): -1, (A, "infantry"): 2}}
    assert changed["Libya"] == {"units": {(G, "infantry"): 1}}


@pytest.mark.parametrize("scenario_first", [True, False], ids=["winter-war-first", "sweden-first"])
def test_winter_war_and_the_ussr_taking_sweden_in_either_order(scenario_first: bool) -> None:
    # 001: "Remove two German infantry and tank from Finland/Norway. Remaining German forces are retreated to Sweden."
    # Sweden is neutral, or Russian after option 2: either way no German unit may stand there, so they are interned.
    winter_war = ("Allies", 9, {"scenario": "USSR crushes Finland in Winter War"})
    sweden = ("Allies", 2, {"take": [{"neutral": "Sweden", "by": "USSR"}, {"neutral": "Afghanistan", "by": "UK"}]})
    first, last = (winter_war, sweden) if scenario_first else (sweden, winter_war)
    session, _ = draft("kremlin-classic", KREMLIN, [first, ("Axis", 1, {"place": [GERMAN_INFANTRY]}), last])
    changed = delta(session.game.initial, session.game.board)
    # Finland/Norway holds 3 German infantry, 1 armour, 1 fighter on the classic board (test_rules_classic.py).
    assert changed["Finland Norway"] == {"owner": (G, R), "units": {(G, "infantry"): -3, (G, "armour"): -1, (G, "fighter"): -1, (R, "infantry"): 1}}
    assert changed["Sweden"]["units"] == {(R, "infantry"): 2}  # "Sweden(2 inf, 1 submarine)": the army alone
    assert start_problems(session.game.board) == []


@EACH_CLASSIC
def test_sinkiang_taken_then_china_joins_japan(ruleset: str, game: Path) -> None:
    # A same-side takeover before the side's scenario is allowed: "A territory or sea zone affected by a bonus option
    # may be affected by other bonus options from that same side." Sinkiang's 2 US infantry leave it at the pick and
    # retreat after the bid (option 8: "... decides where to retreat those units after the bidding process is
    # complete"); "All US infantry in China and Sinkiang are destroyed...Japan adds one infantry to each of these
    # territories" destroys the infantry that is there. After the bid China is Japanese: a retreat into it is refused,
    # and the Allies choose among the nearest territories of their side then.
    picks = [
        ("Axis", 8, {"takeover": {"territory": "Sinkiang", "by": "Japan", "retreat": [{"to": "China"}]}}),
        ("Allies", 1, {"place": [AMERICAN_INFANTRY]}),
        ("Axis", 9, {"scenario": "China joins Japan!!!"}),
    ]
    with pytest.raises(RuleViolation, match="retreat of 2 Americans infantry from Sinkiang: they cannot go to China"):
        draft(ruleset, game, picks)
    picks[0] = ("Axis", 8, {"takeover": {"territory": "Sinkiang", "by": "Japan", "retreat": [{"to": "Novosibirsk"}]}})
    session, outcomes = draft(ruleset, game, picks)
    changed = delta(session.game.initial, session.game.board)
    assert changed["China"] == {"owner": (A, J), "units": {(A, "infantry"): -2, (A, "fighter"): -1, (J, "infantry"): 1}}
    assert changed["Sinkiang"] == {"owner": (A, J), "units": {(A, "infantry"): -2, (J, "infantry"): 3}}
    assert changed["Karelia S.S.R."] == {"units": {(A, "fighter"): 1}}  # "US fighter stationed in China is retreated to Karelia"
    assert changed["Novosibirsk"] == {"units": {(A, "infantry"): 2}}
    assert "destroy 2 Americans infantry in China" in outcomes[2].lines
    assert not any("scenario_decision" in line for o in outcomes for line in o.lines)
    assert start_problems(session.game.board) == []


@EACH_CLASSIC
def test_china_joins_japan_is_offered_after_the_same_sides_takeover(ruleset: str, game: Path) -> None:
    session, _ = draft(
        ruleset,
        game,
        [
            ("Axis", 8, {"takeover": {"territory": "Sinkiang", "by": "Japan", "retreat": [{"to": "China"}]}}),
            ("Allies", 1, {"place": [AMERICAN_INFANTRY]}),
        ],
    )
    scenarios = next(c for c in session.next_pick().options if c.option.kind == "scenario")
    assert "China joins Japan!!!" in scenarios.scenarios


@EACH_CLASSIC
def test_germany_takes_argentina_then_south_american_powers(ruleset: str, game: Path) -> None:
    # "Germany also gains control of Argentina's army(2 infantry, 1 transport)": the army Germany took with option 2.
    # It exists once: the scenario adds the 2 infantry in Brazil and the battleship in Drake Passage, nothing more.
    session, outcomes = draft(
        ruleset,
        game,
        [
            ("Axis", 2, {"take": [{"neutral": "Argentina", "by": "Germany", "navy_at": "Drake Passage"}, {"neutral": "Eire", "by": "Germany"}]}),
            ("Allies", 1, {"place": [AMERICAN_INFANTRY]}),
            ("Axis", 9, {"scenario": "South American Powers join the Axis"}),
        ],
    )
    changed = delta(session.game.initial, session.game.board)
    assert changed["Argentina-Chile"]["units"] == {(G, "infantry"): 2}
    assert changed["South Argentina Sea Zone"] == {"units": {(G, "transport"): 1, (G, "battleship"): 1}}
    assert changed["Brazil"] == {"owner": (A, G), "units": {(G, "infantry"): 2}}
    assert any("the army exists once" in line for line in outcomes[2].lines)


@EACH_CLASSIC
def test_south_american_powers_then_argentina_is_not_taken_again(ruleset: str, game: Path) -> None:
    session, _ = draft(
        ruleset,
        game,
        [
            ("Axis", 9, {"scenario": "South American Powers join the Axis"}),
            ("Allies", 1, {"place": [AMERICAN_INFANTRY]}),
        ],
    )
    with pytest.raises(RuleViolation) as error:
        sessions.pick(session, "Axis", 2, take=[{"neutral": "Argentina", "by": "Germany", "navy_at": "Drake Passage"}, {"neutral": "Eire", "by": "Germany"}])
    assert "has already been taken over (owner Germans)" in str(error.value)
    changed = delta(session.game.initial, session.game.board)
    assert changed["Argentina-Chile"]["units"] == {(G, "infantry"): 2}
    assert changed["South Argentina Sea Zone"] == {"units": {(G, "transport"): 1, (G, "battleship"): 1}}


@EACH_CLASSIC
def test_a_factory_by_option_then_uk_fortifies_south_africa_is_refused(ruleset: str, game: Path) -> None:
    # "UK places ... three infantry, an armor, factory, and aa gun in South Africa": one factory per territory, as
    # option 6 holds it, so a second factory is refused with the reason, and legal does not offer the scenario.
    session, _ = draft(
        ruleset,
        game,
        [
            ("Allies", 6, {"place": [{"power": "UK", "unit": "factory", "at": "South Africa"}, {"power": "UK", "unit": "aa gun", "at": "South Africa"}]}),
            ("Axis", 1, {"place": [GERMAN_INFANTRY]}),
        ],
    )
    scenarios = next(c for c in session.next_pick().options if c.option.kind == "scenario")
    assert "UK fortifies South Africa" not in scenarios.scenarios
    with pytest.raises(RuleViolation) as error:
        sessions.pick(session, "Allies", 9, scenario="UK fortifies South Africa")
    message = str(error.value)
    assert "South Africa already has a factory (an earlier pick placed it) and the game allows one factory per territory" in message
    assert SEED_OF[ruleset] in message and "factory, and aa gun in South Africa" in message


def test_uk_fortifies_australia_after_a_factory_by_option_is_refused() -> None:
    session, _ = draft(
        "kremlin-classic",
        KREMLIN,
        [
            ("Allies", 6, {"place": [{"power": "UK", "unit": "factory", "at": "Australia"}, {"power": "UK", "unit": "aa gun", "at": "Australia"}]}),
            ("Axis", 1, {"place": [GERMAN_INFANTRY]}),
        ],
    )
    with pytest.raises(RuleViolation, match="Australia already has a factory"):
        sessions.pick(session, "Allies", 9, scenario="UK fortifies Australia")


def test_a_capture_destroys_enemy_units_an_earlier_pick_retreated_there() -> None:
    # "Germany takes Syria/Iraq with one infantry(UK unit destroyed)": units of any Allied power in Syria/Iraq when
    # the scenario is picked are the defenders it defeats; none are left in German Syria/Iraq.
    session = session_for(KREMLIN, "Axis", ruleset="kremlin-classic", picks_per_side=4)
    board = session.game.board
    board.nodes["Syria Jordan"]["units"][(A, "infantry")] += 1  # as a retreat into it would leave them
    sessions.pick(session, "Axis", 9, scenario="Germany launches a parachute assault on Syria/Iraq")
    assert {o for (o, _), n in board.units("Syria Jordan").items() if n} == {G}


SYRIA_IRAQ = "Germany launches a parachute assault on Syria/Iraq"
AMERICAN_BOMBER = {"place": [{"power": "USA", "unit": "bomber", "count": 1, "at": "Eastern USA"}]}


def _german_subs_in_the_arabian_sea(ruleset: str, game: Path) -> Session:
    # The issue's draft: take Egypt (option 8), then two German submarines in the sea zone Egypt now borders (option 3:
    # "placed adjacent to its own territory"); on the classic boards 001's Arabian Sea is the Red Sea Zone (map profile).
    session = session_for(game, "Axis", ruleset=ruleset, picks_per_side=4)
    sessions.pick(session, "Axis", 8, takeover={"territory": "Egypt", "by": "Germany"})
    sessions.pick(session, "Allies", 1, place=[AMERICAN_INFANTRY])
    sessions.pick(session, "Axis", 3, place=[{"power": "Germany", "unit": "submarine", "count": 2, "at": "Arabian Sea"}])
    sessions.pick(session, "Allies", 5, **AMERICAN_BOMBER)
    return session


@pytest.mark.parametrize("game", classic_support.TARGETS["kremlin-classic"], ids=game_id)
def test_a_retreat_at_sea_into_enemy_ships_is_refused_and_not_offered(game: Path) -> None:
    # 001 GERMAN SCENARIOS: "UK submarine in the East Mediterranean is retreated to the Arabian Sea." The text allows
    # that one sea zone; with German submarines in it the British submarine would end among enemies, which 001 options
    # 3 and 7 forbid for ships ("not in the same seazone with enemy units"): the scenario cannot be carried out.
    session = _german_subs_in_the_arabian_sea("kremlin-classic", game)
    board = session.game.board
    assert board.units("East Mediteranean Sea Zone")[(B, "submarine")] == 1
    scenario_choices = next(c for c in session.next_pick().options if c.option.kind == "scenario")
    assert SYRIA_IRAQ not in scenario_choices.scenarios
    assert "Italian navy does better than historically" in scenario_choices.scenarios  # the other Axis scenarios still are
    with pytest.raises(RuleViolation, match=r"retreats 1 submarine of the British to Red Sea Zone \(Arabian Sea\) and nowhere else"):
        sessions.pick(session, "Axis", 9, scenario=SYRIA_IRAQ)
    assert board.units("Red Sea Zone")[(B, "submarine")] == 0  # refused whole: nothing of it stays on the board
    assert start_problems(board) == []


def test_a_side_with_no_scenario_left_is_told_why() -> None:
    # With the parachute assault as the Axis' only scenario (the others left out of the ruleset here), the issue's
    # board leaves the option with none: its line says why, not that the other side affected a place (it did not).
    import attrs

    full = _german_subs_in_the_arabian_sea("kremlin-classic", KREMLIN)
    ruleset = attrs.evolve(full.ruleset, scenarios=tuple(s for s in full.ruleset.scenarios if s.side == "Allies" or s.title == SYRIA_IRAQ))
    session = Session(full.draft, fresh_game(KREMLIN), ruleset=ruleset)
    for made in full.picks:
        session.push(attrs.evolve(made, option=next(o for o in ruleset.options if o.number == made.option.number)))
    choices = next(c for c in session.next_pick().options if c.option.kind == "scenario")
    assert choices.scenarios == ()
    assert choices.unavailable == (
        f"no scenario of the Axis can be carried out now: {SYRIA_IRAQ!r}: the scenario retreats 1 submarine of the British to "
        "Red Sea Zone (Arabian Sea) and nowhere else, but Red Sea Zone (Arabian Sea) now holds units of Germans (earlier picks), "
        "at war with them; no game starts with enemies in one sea zone"
    )


def test_the_issues_draft_at_the_command_line(tmp_path: Path) -> None:
    # The issue: `legal` offered the scenario after these picks and `apply` wrote the British submarine among the
    # German ones. Now `legal` leaves it out and `apply` refuses it (a rule violation: exit 1), writing nothing.
    from click.testing import CliRunner

    from kremlin_triplea.cli.main import main
    from support.paths import MAPS_DIR

    picks = [
        '[[pick]]\nside = "Axis"\noption = 8\ntakeover = { territory = "Egypt", by = "Germany" }',
        '[[pick]]\nside = "Allies"\noption = 1\nplace = [{ power = "USA", unit = "infantry", count = 3, at = "Eastern USA" }]',
        '[[pick]]\nside = "Axis"\noption = 3\nplace = [{ power = "Germany", unit = "submarine", count = 2, at = "Arabian Sea" }]',
        '[[pick]]\nside = "Allies"\noption = 5\nplace = [{ power = "USA", unit = "bomber", count = 1, at = "Eastern USA" }]',
    ]
    head = 'ruleset = "kremlin-classic"\ngame = "classic_variations/kremlin.xml"\nfirst = "Axis"\npicks_per_side = 4\n'
    draft = tmp_path / "draft.toml"
    draft.write_text(head + "\n".join(picks) + "\n")
    legal = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "legal", str(draft)])
    assert legal.exit_code == 0, legal.output
    assert "Italian navy does better than historically" in legal.output and SYRIA_IRAQ not in legal.output
    draft.write_text(head + "\n".join([*picks, f'[[pick]]\nside = "Axis"\noption = 9\nscenario = "{SYRIA_IRAQ}"']) + "\n")
    applied = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "apply", str(draft), "-o", str(tmp_path / "out.xml")])
    assert applied.exit_code == 1 and applied.stderr.count("\n") == 1
    assert "retreats 1 submarine of the British to Red Sea Zone (Arabian Sea) and nowhere else" in applied.stderr
    assert not (tmp_path / "out.xml").exists()


@pytest.mark.parametrize("game", classic_support.TARGETS["kremlin-classic"], ids=game_id)
def test_the_same_retreat_at_sea_without_enemy_ships_is_made(game: Path) -> None:
    session = session_for(game, "Axis", ruleset="kremlin-classic", picks_per_side=4)
    scenario_choices = next(c for c in session.next_pick().options if c.option.kind == "scenario")
    assert SYRIA_IRAQ in scenario_choices.scenarios
    sessions.pick(session, "Axis", 9, scenario=SYRIA_IRAQ)
    changed = delta(session.game.initial, session.game.board)
    assert changed["East Mediteranean Sea Zone"]["units"] == {(B, "submarine"): -1}
    assert changed["Red Sea Zone"]["units"] == {(B, "submarine"): 1}


@EACH_CLASSIC
def test_ships_a_scenario_places_among_enemy_ships_are_refused_and_not_offered(ruleset: str, game: Path) -> None:
    # 001/002 South American Powers: "the BB Graf Spee still roams the South Atlantic(place battleship in Drake
    # Passage)". Locks keep the Allies' picks out of Drake Passage; British ships standing there by other means
    # (pushed here onto the board) make the same board no game starts from, so the scenario is refused, not offered.
    from kremlin_triplea.model.changes import PlaceUnits

    session = session_for(game, "Axis", ruleset=ruleset, picks_per_side=4)
    drake = session.state.names.place("Drake Passage")
    session.game.board.push(PlaceUnits(drake, B, "battleship", 1))
    title = "South American Powers join the Axis"
    assert title not in next(c for c in session.next_pick().options if c.option.kind == "scenario").scenarios
    with pytest.raises(
        RuleViolation, match=r"the scenario places 1 (battleship|transport) of the Germans in .*Drake Passage.* and nowhere else, but .* holds units of British"
    ):
        sessions.pick(session, "Axis", 9, scenario=title)


def test_aa50_scenario_steps_count_what_is_there() -> None:
    # 000 Allied scenario 2: "Place one Russian infantry and one tank in Finland, German units destroyed."
    session = session_for(GAMES["1941"], "Allies")
    before = {k: n for k, n in session.game.board.units("Finland").items() if k[0] == G}
    outcome = sessions.pick(session, "Allies", 11, scenario="USSR crushes Finland in Winter War")
    assert before and not any(o == G for (o, _), n in session.game.board.units("Finland").items() if n)
    assert any(line.startswith("destroy ") for line in outcome.lines)


# -- drafts drawn from the legal enumeration, with scenarios ------------------------------------------------------

TARGETS = [("kremlin-aa50", GAMES["1941"]), ("kremlin-aa50", GAMES["1942"]), *RULESET_GAMES]


def drawn_draft(choose, ruleset: str, game: Path, per_side: int) -> Session:
    """A draft whose every pick comes from the legal enumeration, a scenario whenever one is offered and drawn."""
    first = choose(["Axis", "Allies"])
    session = Session(draft_from_dict({"ruleset": ruleset, "first": first, "picks_per_side": per_side}), fresh_game(game))
    base = set(start_problems(session.game.board))
    for _ in range(session.total_picks):
        pick = draw_pick(session, choose, prefer=lambda options: [o for o in options if o.kind == "scenario"])
        if pick is None:
            break
        outcome = session.push(pick)  # listed, so accepted
        assert not any("scenario_decision" in line for line in outcome.lines), pick.label
        assert set(start_problems(session.game.board)) <= base, (pick.label, start_problems(session.game.board))
    return session


def _chooser(data: st.DataObject):
    def choose(items: Sequence):
        return data.draw(st.sampled_from(list(items)))

    return choose


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_a_small_drawn_classic_draft_with_scenarios_starts_a_game(data: st.DataObject) -> None:
    drawn_draft(_chooser(data), "kremlin-classic", KREMLIN, per_side=3)


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "game"), TARGETS, ids=lambda v: getattr(v, "name", v))
def test_drawn_drafts_with_scenarios_start_a_game(ruleset: str, game: Path) -> None:
    @settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        drawn_draft(_chooser(data), ruleset, game, per_side=4)

    check()


def sea_destinations(session: Session) -> set[str]:
    """The sea zones the ruleset's scenarios move or retreat units into, in the game's names."""
    zones = set()
    for scenario in session.ruleset.scenarios:
        steps, _, _ = scenario.for_edition(session.state.edition)
        for step in steps:
            if step.kind in ("move", "retreat") and step.to not in session.state.profile.absent_places:
                to = session.state.names.place(step.to)
                if session.game.board.is_water(to):
                    zones.add(to)
    return zones


def _moves_at_sea(pick: Pick, session: Session) -> bool:
    if pick.option.kind != "scenario":
        return False
    steps, _, _ = pick.target.scenario.for_edition(session.state.edition)  # type: ignore[attr-defined]
    return any(step.kind in ("move", "retreat") and session.state.names.place(step.to) in sea_destinations(session) for step in steps)


def sea_drawn_draft(choose, ruleset: str, game: Path, per_side: int) -> Session:
    """A draft drawn from the legal enumeration, leaning on ships placed where scenarios move units at sea.

    Each pick is drawn from one of: ships placed in (or takeovers beside) a sea zone some scenario moves or retreats
    units into, a scenario that moves or retreats units at sea, or any legal pick. Every pick listed must be accepted
    and leave no sea zone (nor territory) with units of powers at war; units a scenario moved at sea stand among no
    enemies.
    """
    session = Session(draft_from_dict({"ruleset": ruleset, "first": choose(["Axis", "Allies"]), "picks_per_side": per_side}), fresh_game(game))
    board = session.game.board
    zones = sea_destinations(session)
    shores = {n for zone in zones for n in board.neighbours(zone)}
    base = set(start_problems(board))
    for _ in range(session.total_picks):
        legal = list(session.legal_picks)
        if not legal:
            break
        kinds = {
            "ships": [p for p in legal if isinstance(p.target, Placements) and any(u.at in zones for u in p.target.units)],
            "shore": [p for p in legal if isinstance(p.target, TakeoverSpec) and p.target.territory in shores],
            "scenario": [p for p in legal if _moves_at_sea(p, session)],
            "any": legal,
        }
        pick = choose(kinds[choose([k for k, picks in kinds.items() if picks])])
        outcome = session.push(pick)  # listed, so accepted
        assert set(start_problems(board)) <= base, (pick.label, start_problems(board))
        for change in outcome.moved:
            if board.is_water(change.territory):
                there = {o for (o, _), n in board.units(change.territory).items() if n and o is not None}
                assert all(board.catalog.allied(change.owner, o) for o in there), (pick.label, change, there)
    return session


@pytest.mark.slow
@settings(max_examples=examples(8), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_ships_placed_and_scenarios_moving_units_at_sea_keep_the_invariants(data: st.DataObject) -> None:
    sea_drawn_draft(_chooser(data), "kremlin-classic", KREMLIN, per_side=3)


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "game"), TARGETS, ids=lambda v: getattr(v, "name", v))
def test_many_drafts_mixing_ships_and_scenarios_at_sea_keep_the_invariants(ruleset: str, game: Path) -> None:
    @settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        sea_drawn_draft(_chooser(data), ruleset, game, per_side=4)

    check()


@pytest.mark.parametrize("ruleset", ["kremlin-classic", "kremlin-daak"])
def test_a_scenarios_retreat_destination_locks_nothing_in_either_order(ruleset: str) -> None:
    # 001/002 "USA takes the initiative in the Pacific": "...the Japanese fighter on the Philippines which is
    # retreated to Japan". Where units retreat to is the retreating side's ground, as for option 8's retreats
    # ([locks] lock_retreat_destinations = false); whether Japan is "affected" must not depend on who picked first.
    game = KREMLIN if ruleset == "kremlin-classic" else RULESET_GAMES[-1][1]
    japanese_infantry = {"place": [{"power": "Japan", "unit": "infantry", "count": 3, "at": "Japan"}]}
    session = session_for(game, "Allies", ruleset=ruleset)
    sessions.pick(session, "Allies", 9, scenario="USA takes the initiative in the Pacific")
    sessions.pick(session, "Axis", 1, **japanese_infantry)
    session = session_for(game, "Axis", ruleset=ruleset)
    sessions.pick(session, "Axis", 1, **japanese_infantry)
    sessions.pick(session, "Allies", 9, scenario="USA takes the initiative in the Pacific")

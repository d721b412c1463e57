"""The session layer: a draft in progress is one object, driven by pushing steps and popping them back.

What the rules say a step may do is the draft engine's (tests/test_rules_*.py); here: a pushed step changes the
board and the draft file exactly as far as a pop takes back, a refused step changes nothing, and a draft file
opened and written again from its steps is the same draft (it applies to the same game).
"""

from __future__ import annotations

import copy
from pathlib import Path

import attrs
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from kremlin_triplea.draft.kinds import Pick
from kremlin_triplea.draft.run import draft_from_dict, read_draft
from kremlin_triplea.errors import KremlinError, RuleViolation
from kremlin_triplea.game import Game
from kremlin_triplea.rules.tomlfile import read_toml
from kremlin_triplea.session import Agreement, Bid, Declaration, HouseRuleChoice, Session, apply_draft
from support import drafts
from support.aa50 import GAMES, fresh_game
from support.paths import EXAMPLES_DIR, MAPS_DIR
from support.properties import examples

EXAMPLE = EXAMPLES_DIR / "kremlin-aa50-1941.toml"
# Shrinking a whole random draft takes longer than the draft: a failure is reported as drawn.
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)


def base(year: str) -> Game:
    """A game of its own with the file's position (the file is parsed once per test session)."""
    return fresh_game(GAMES[year]).copy()


def new_session(year: str, first: str, per_side: int) -> Session:
    data = {"ruleset": "kremlin-aa50", "game": str(GAMES[year]), "first": first, "picks_per_side": per_side}
    return Session(draft_from_dict(data, "draft.toml"), fresh_game(GAMES[year]))


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_random_legal_picks_pushed_then_popped_give_back_the_same_board_and_draft_file(data: st.DataObject) -> None:
    year = data.draw(st.sampled_from(sorted(GAMES)))
    session = new_session(year, data.draw(st.sampled_from(["Axis", "Allies"])), 4)
    before: list[tuple[bytes, dict]] = []
    for _ in range(data.draw(st.integers(min_value=1, max_value=5))):
        legal = list(session.legal_picks)
        before.append((session.game.to_bytes(), session.to_toml()))
        pick = data.draw(st.sampled_from(legal))
        assert session.is_legal(pick)
        session.push(pick)
        assert session.to_toml()["pick"][-1] == pick.to_toml()
    while before:
        board, toml = before.pop()
        session.pop()
        assert session.game.to_bytes() == board
        assert session.to_toml() == toml
    assert session.game.to_bytes() == fresh_game(GAMES[year]).to_bytes()


def test_a_refused_pick_changes_neither_the_board_nor_the_draft_file() -> None:
    session = new_session("1941", "Axis", 4)
    pick = next(iter(session.legal_picks))
    session.push(pick)
    board, toml = session.game.to_bytes(), session.to_toml()
    # 000 "Picks alternate": the Axis picked first, so the next pick is the Allies'; the Axis' pick again is refused.
    repeat = type(pick)(index=2, side="Axis", option=pick.option, target=pick.target)
    assert not session.is_legal(repeat)
    with pytest.raises(RuleViolation, match="Allies' turn"):
        session.push(repeat)
    assert session.game.to_bytes() == board
    assert session.to_toml() == toml


def test_a_pick_numbered_other_than_the_next_is_refused_by_push_as_by_is_legal() -> None:
    """000 A: picks alternate and are numbered as made. A legal first pick renumbered 3 is not pick 3 (the next is
    pick 1): ``push`` took it, labelled it "pick 3" and recorded its locks under pick 3 (issue 45)."""
    session = new_session("1941", "Axis", 4)
    pick = next(iter(session.legal_picks))
    board, toml = session.game.to_bytes(), session.to_toml()
    renumbered = attrs.evolve(pick, index=3)
    assert not session.is_legal(renumbered)
    with pytest.raises(RuleViolation, match="the next pick is pick 1"):
        session.push(renumbered)
    assert session.game.to_bytes() == board
    assert session.to_toml() == toml
    assert session.next_pick().index == 1


def _candidate_picks(session: Session, draw: st.DataObject) -> list[Pick]:
    """Picks a caller might push next: legal ones, the same renumbered or given to the other side, and the other
    side's pseudo-legal picks of a drawn option (its kind's targets, judged for nothing)."""
    legal = list(session.legal_picks)
    side = session.turn
    other = next(s for s in session.ruleset.sides if s != side)
    candidates = [draw.draw(st.sampled_from(legal))] if legal else []
    if candidates:
        shifted = draw.draw(st.sampled_from([-1, 1, 2]))
        candidates += [attrs.evolve(candidates[0], index=candidates[0].index + shifted), attrs.evolve(candidates[0], side=other)]
    option = draw.draw(st.sampled_from(session.ruleset.options))
    choices = session.listed_choices(option, other)
    if choices.available:
        offered = [pick for _, pick in session.candidate_picks(choices, other)]
        candidates += [draw.draw(st.sampled_from(offered))] if offered else []
    return candidates


@pytest.mark.slow  # keeps the quick subset under a minute; CI runs it
@settings(max_examples=examples(10), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_push_takes_a_pick_exactly_when_is_legal_says_it_is_legal(data: st.DataObject) -> None:
    """Like python-chess's ``Board.push`` after ``is_legal``: over random drafts and random candidate picks, ``push``
    succeeds iff ``is_legal`` (issue 45), and a refused push leaves the board and the draft file as they were."""
    year = data.draw(st.sampled_from(sorted(GAMES)))
    session = new_session(year, data.draw(st.sampled_from(["Axis", "Allies"])), 4)
    for _ in range(data.draw(st.integers(min_value=1, max_value=6))):
        candidates = _candidate_picks(session, data)
        legal = [pick for pick in candidates if session.is_legal(pick)]
        for pick in candidates:
            if pick in legal:
                continue
            board, toml = session.game.to_bytes(), session.to_toml()
            with pytest.raises(RuleViolation):
                session.push(pick)
            assert (session.game.to_bytes(), session.to_toml()) == (board, toml)
        if not legal:
            break
        session.push(data.draw(st.sampled_from(legal)))


def test_a_draft_file_opened_and_written_from_its_steps_is_the_same_draft(tmp_path: Path) -> None:
    original = Session.open(EXAMPLE, maps_dir=MAPS_DIR)
    copy = tmp_path / "again.toml"
    original.save(copy)
    reopened = Session.open(copy, maps_dir=MAPS_DIR)
    assert reopened.to_toml() == original.to_toml()
    assert reopened.steps == original.steps
    # The same game as the draft engine's own applier makes of the file as the host wrote it.
    assert reopened.result().game.to_bytes() == apply_draft(read_draft(EXAMPLE), maps_dir=MAPS_DIR).game.to_bytes()


def test_the_bid_is_a_step_popped_like_a_pick() -> None:
    session = Session.open(EXAMPLE, maps_dir=MAPS_DIR)
    assert isinstance(session.steps[-1], Bid)
    with_bid = session.game.to_bytes()
    bid = session.pop()
    assert "bid" not in session.to_toml()
    session.push(bid)
    assert session.game.to_bytes() == with_bid


@pytest.mark.slow
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large], phases=NO_SHRINK)
@given(st.data())
def test_a_random_legal_draft_opened_written_from_its_steps_and_opened_again_is_the_same_draft(data: st.DataObject) -> None:
    year = data.draw(st.sampled_from(sorted(GAMES)))
    written = drafts.random_draft(
        lambda seq: data.draw(st.sampled_from(list(seq))), "kremlin-aa50", GAMES[year], data.draw(st.sampled_from(["Axis", "Allies"])), 4
    )
    session = Session.from_draft(draft_from_dict(written, "draft.toml"), base(year))
    again = Session.from_draft(draft_from_dict(session.to_toml(), "draft.toml"), base(year))
    assert again.steps == session.steps and again.to_toml() == session.to_toml()
    # Every step popped, last first: the base game again, and a draft file with no steps.
    while session.steps:
        session.pop()
    assert session.game.to_bytes() == base(year).to_bytes()
    assert session.to_toml() == {k: v for k, v in written.items() if k not in ("pick", "bid")} | {"pick": []}
    # The steps written from the session apply, as apply applies the host's own file, to the same game.
    assert again.result().game.to_bytes() == apply_draft(draft_from_dict(written, "draft.toml"), base(year)).game.to_bytes()


def without_declarations(picks: list[dict]) -> list[dict]:
    """The example's picks with the places their displaced units go left open (the players declare them after the bid)."""
    open_picks = copy.deepcopy(picks)
    for entry in open_picks:
        entry.get("takeover", {}).pop("retreat", None)
        for take in entry.get("take", []):
            take.pop("navy_at", None)
    return open_picks


def example_data() -> dict:
    data = read_toml(EXAMPLE)
    return {**data, "game": str(GAMES["1941"])}


def test_the_bid_agreed_before_the_declarations_goes_on_the_board_after_them_as_apply_places_it() -> None:
    """000 A "Order of action": the displaced units are placed before the bid's units, whichever the players settle first."""
    data = example_data()
    bid = data.pop("bid")
    opened = {**data, "pick": without_declarations(data["pick"])}
    room_order = Session.from_draft(draft_from_dict(opened, "draft.toml"), base("1941"))
    room_order.push(room_order.bid_from_toml(bid))  # agreed first (the draft room), checked with each open group at its first place
    assert room_order.bid_outcome is None  # not on the board while a group waits for its side
    answers = []
    while (waiting := room_order.open_declaration()) is not None:
        displaced, found, _ = waiting
        answers.append(found.matches[-1])  # not the first place: the check's place is not the one kept
        room_order.declare(Declaration(displaced, found.matches[-1]))
    assert room_order.bid_outcome is not None
    terminal_order = Session.from_draft(draft_from_dict(opened, "draft.toml"), base("1941"))
    for to in answers:
        displaced, _, _ = terminal_order.open_declaration()
        terminal_order.push(Declaration(displaced, to))
    assert terminal_order.open_declaration() is None
    terminal_order.push(terminal_order.bid_from_toml(bid))  # the terminal asks the bid's units after the declarations
    assert room_order.game.to_bytes() == terminal_order.game.to_bytes()
    assert room_order.to_toml() == terminal_order.to_toml()
    # Both are the draft file apply reads: the same game as apply makes of it.
    applied = apply_draft(draft_from_dict(room_order.to_toml(), "draft.toml"), base("1941"))
    assert room_order.result().game.to_bytes() == applied.game.to_bytes()


def test_withdrawing_the_bid_keeps_the_declarations_made_after_it() -> None:
    data = example_data()
    bid = data.pop("bid")
    opened = {**data, "pick": without_declarations(data["pick"])}
    session = Session.from_draft(draft_from_dict(opened, "draft.toml"), base("1941"))
    session.push(session.bid_from_toml(bid))
    while (waiting := session.open_declaration()) is not None:
        session.declare(Declaration(waiting[0], waiting[1].matches[0]))
    declared = session.to_toml()["pick"]
    session.withdraw_bid()
    assert session.bid is None and "bid" not in session.to_toml()
    assert session.to_toml()["pick"] == declared
    alone = Session.from_draft(draft_from_dict({**opened, "pick": declared}, "draft.toml"), base("1941"))
    alone.declare_as_written()
    assert session.game.to_bytes() == alone.game.to_bytes()


def test_undo_takes_back_the_last_pick_and_every_step_after_it(tmp_path) -> None:
    session = Session.open(EXAMPLE, maps_dir=MAPS_DIR)
    picks = len(session.picks)
    taken = session.undo()
    assert isinstance(taken[0], Bid) and isinstance(taken[-1], Pick) and taken[-1].index == picks
    assert len(session.picks) == picks - 1 and session.bid is None
    assert session.undone_lines() == [
        f"pick {picks} (the {taken[-1].side}' option {taken[-1].option.number}) was undone: {EXAMPLE} no longer has it",
        f"the bid was undone with pick {picks}: {EXAMPLE} no longer has it",
    ]
    # The board is the one the file without its last pick and its bid gives.
    data = example_data()
    shorter = {k: v for k, v in data.items() if k != "bid"} | {"pick": data["pick"][:-1]}
    assert session.game.to_bytes() == Session.from_draft(draft_from_dict(shorter, "draft.toml"), base("1941")).game.to_bytes()


def test_a_house_rule_set_that_conflicts_with_the_rulesets_own_rules_is_refused_and_changes_nothing() -> None:
    """004's House Rules 1-3 close the straits 000 D(3) closes, differently: apply refuses the pair (as new_draft does)."""
    session = Session.open(EXAMPLE, maps_dir=MAPS_DIR)
    board, toml, steps = session.game.to_bytes(), session.to_toml(), list(session.steps)
    with pytest.raises(KremlinError, match="conflicting rules"):
        session.push(HouseRuleChoice.of("house-revised"))
    assert (session.game.to_bytes(), session.to_toml(), session.steps) == (board, toml, steps)
    straits = {"hr1_black_sea": False, "hr2_baltic": False, "hr3_gibraltar": False}
    session.push(HouseRuleChoice.of("house-revised", straits))
    assert session.to_toml()["house_rules"] == ["house-revised"] and session.to_toml()["house_rule_choices"] == {"house-revised": straits}
    session.pop()
    assert session.to_toml() == toml


def test_a_sides_house_rule_answer_is_a_step_the_draft_file_keeps_only_as_its_table_and_undo_takes_back() -> None:
    """004: each power gains an advantage, chosen by its side after the bid; an answer of "none" changes no table."""
    session = Session.open(EXAMPLE, maps_dir=MAPS_DIR)
    straits = {"hr1_black_sea": False, "hr2_baltic": False, "hr3_gibraltar": False}
    session.push(HouseRuleChoice.of("house-revised", straits))
    written = session.to_toml()
    session.push(HouseRuleChoice.of("house-revised", straits, by="Allies"))  # the Allies give their powers none
    assert session.house_answered == {"Allies"} and session.to_toml() == written
    session.push(HouseRuleChoice.of("house-revised", {**straits, "advantages": {"Germany": "u-boat-interdiction"}}, by="Axis"))
    assert session.house_answered == {"Allies", "Axis"}
    assert session.house_rule_choices["house-revised"]["advantages"] == {"Germany": "u-boat-interdiction"}
    session.withdraw_bid()  # the answers do not depend on the bid: they stay
    assert session.house_answered == {"Allies", "Axis"}
    session.undo()  # the last pick and every step after it: the answers were given on the board it left
    assert session.house_answered == set() and "house_rules" not in session.to_toml()


def test_writing_a_game_adds_its_notes_once_whoever_writes_it(tmp_path) -> None:
    from kremlin_triplea.report.notes import add_notes
    from kremlin_triplea.tools.outputs import write_apply_outputs, written_game

    result = Session.open(EXAMPLE, maps_dir=MAPS_DIR).result()
    bare = result.game.to_bytes()
    data = written_game(result)
    assert data != bare and b"Kremlin" in data
    changes = len(result.game.board.changes)
    add_notes(result)  # a second writer: nothing more
    assert len(result.game.board.changes) == changes and written_game(result) == data
    # apply's writer, given the bare result, writes the same game as the command that writes it with its notes.
    fresh = Session.open(EXAMPLE, maps_dir=MAPS_DIR).result()
    write_apply_outputs(
        fresh, maps_dir=MAPS_DIR, output=tmp_path / "game.xml", savegame=None, install=False, install_name=None, force=False, triplea=None, inputs=(EXAMPLE,)
    )
    assert (tmp_path / "game.xml").read_bytes() == data


def test_a_proposed_bid_counts_once_the_other_side_agrees_and_is_refused_at_once_if_it_would_not_apply() -> None:
    """000 C: "Players can bid once or go back and forth auction style": one side proposes, the other agrees."""
    data = example_data()
    table = data.pop("bid")
    together = Session.from_draft(draft_from_dict(data, "draft.toml"), base("1941"))
    session = Session.from_draft(draft_from_dict(data, "draft.toml"), base("1941"))
    before, toml = session.game.to_bytes(), session.to_toml()
    proposed = Bid(session.bid_from_toml(table).spec, by="Axis")
    session.push(proposed)
    assert session.proposal == proposed and session.bid is None
    assert session.game.to_bytes() == before and session.to_toml() == toml  # not in the file, not on the board
    with pytest.raises(RuleViolation, match="the other side agrees"):
        session.push(Agreement("Axis"))
    session.push(Agreement("Allies"))
    together.push(together.bid_from_toml(table))
    assert session.proposal is None and session.bid == together.bid
    assert session.game.to_bytes() == together.game.to_bytes() and session.to_toml() == together.to_toml()
    session.pop()
    assert session.proposal == proposed and session.game.to_bytes() == before
    session.pop()
    # 000 C: "German units may be placed only on German-owned territories": proposed in Russia, refused, nothing kept.
    wrong = {"axis": 3, "place": [{"power": "Germans", "unit": "infantry", "count": 1, "at": "Russia"}]}
    with pytest.raises(RuleViolation, match="German-owned"):
        session.push(Bid(session.bid_from_toml(wrong).spec, by="Axis"))
    assert session.proposal is None and session.steps == together.steps[:-1] and session.game.to_bytes() == before


def test_a_declaration_before_the_picks_are_made_is_refused_and_changes_nothing() -> None:
    """000 A "Order of action" 1: the displaced units are declared after the picks, in the order of the picks."""
    data = example_data()
    first = {k: v for k, v in data.items() if k != "bid"} | {"pick": without_declarations(data["pick"][:1])}  # option 10: Archangel taken
    session = Session.from_draft(draft_from_dict(first, "draft.toml"), base("1941"))
    (displaced,) = session.run.pending_declarations()
    board, steps = session.game.to_bytes(), list(session.steps)
    with pytest.raises(RuleViolation, match="once the picks are made"):
        session.push(Declaration(displaced, "Russia"))
    assert session.game.to_bytes() == board and session.steps == steps


def test_picks_ended_early_are_declared_and_bid_on_but_not_applied() -> None:
    """end_picks: one pick examined on its own has its displaced units declared and a bid made at once (000 A
    "Order of action" 1, 2); apply's count of picks still refuses the draft, and a pick after those steps is refused."""
    data = example_data()
    first = {k: v for k, v in data.items() if k != "bid"} | {"pick": data["pick"][:1]}  # option 10: Archangel taken, retreat to Russia
    session = Session.from_draft(draft_from_dict(first, "draft.toml"), base("1941"))
    initial = session.game.initial
    defenders = initial.units("Archangel")[("Russians", "infantry")]
    assert defenders > 0 and not session.picks_done
    session.end_picks()
    assert session.picks_done
    session.declare_all()
    assert session.game.board.units("Russia")[("Russians", "infantry")] == initial.units("Russia")[("Russians", "infantry")] + defenders
    session.push(session.bid_from_toml({"axis": 3, "place": [{"power": "Germans", "unit": "infantry", "at": "Germany"}]}))
    assert session.game.board.units("Germany")[("Germans", "infantry")] == initial.units("Germany")[("Germans", "infantry")] + 1
    with pytest.raises(RuleViolation, match=r"1 picks made; 5 per side means 10"):
        session.result()
    # The picks go on only once the steps after them are popped.
    session.pop(), session.pop()
    allies = next(iter(session.legal_picks))
    session.push(session.bid_from_toml({"axis": 0}))
    with pytest.raises(RuleViolation, match="the picks were ended"):
        session.push(allies)
    session.pop()
    session.push(allies)
    assert not session.picks_done and len(session.picks) == 2


def test_a_refused_declaration_names_its_group_alike_whichever_check_refuses_it() -> None:
    """Archangel's retreat (000 option 10) refused three ways: before the picks end (000 A "Order of action" 1), to a
    place not among its nearest, and with no place though several tie. Each message names the group the same way."""
    data = example_data()
    first = {k: v for k, v in data.items() if k != "bid"} | {"pick": without_declarations(data["pick"][:1])}
    session = Session.from_draft(draft_from_dict(first, "draft.toml"), base("1941"))
    (displaced,) = session.run.pending_declarations()
    refusals = []
    for end, to in ((False, "Russia"), (True, "Germany"), (True, None)):
        if end:
            session.end_picks()
        with pytest.raises(RuleViolation) as refused:
            session.push(Declaration(displaced, to))
        refusals.append(refused.value)
    assert [r.pick for r in refusals] == [f"{displaced.label}, retreat of {displaced.describe()}"] * 3
    whys = [r.why for r in refusals]
    assert "once the picks are made" in whys[0] and "cannot go to Germany" in whys[1] and "must say which" in whys[2]


def _position(session: Session) -> tuple[bytes, dict, list]:
    return session.game.to_bytes(), session.to_toml(), session.steps


def test_result_leaves_the_session_as_it_was_and_gives_the_same_game_each_time() -> None:
    """Issue 45: ``result()`` changed the board (the declarations and the house rules pushed onto the session's own),
    so the room applied the draft again from disk to download it, and a third time to install it."""
    session = Session.open(EXAMPLE, maps_dir=MAPS_DIR)
    before = _position(session)
    first = session.result()
    assert _position(session) == before
    second = session.result()
    assert first.game.to_bytes() == second.game.to_bytes() == apply_draft(read_draft(EXAMPLE), maps_dir=MAPS_DIR).game.to_bytes()
    assert first.game.board is not session.game.board
    session.pop()  # the session goes on as before: its last step taken back
    assert len(session.steps) == len(before[2]) - 1


@pytest.mark.slow  # keeps the quick subset under a minute; CI runs it
@settings(max_examples=examples(8), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_a_copy_is_the_same_position_and_goes_its_own_way(data: st.DataObject) -> None:
    """python-chess's ``Board.copy``: the copy has the same board, draft file and steps; a step pushed on either
    leaves the other as it was."""
    year = data.draw(st.sampled_from(sorted(GAMES)))
    session = new_session(year, data.draw(st.sampled_from(["Axis", "Allies"])), 4)
    for _ in range(data.draw(st.integers(min_value=0, max_value=5))):
        session.push(data.draw(st.sampled_from(list(session.legal_picks))))
    twin = session.copy()
    assert _position(twin) == _position(session)
    before = _position(session)
    legal = list(twin.legal_picks)
    twin.push(data.draw(st.sampled_from(legal)))
    assert _position(session) == before
    assert len(twin.picks) == len(session.picks) + 1
    session.push(legal[0])  # and a step pushed on the original leaves the copy as it was
    assert twin.steps[:-1] == session.steps[:-1] and len(twin.picks) == len(session.picks)


def test_turn_and_ply_say_whose_pick_is_next_as_000_a_alternates_them() -> None:
    """000 A: "Picks alternate", the first side starting; callers ask the session, not ``side_to_pick(len(...) + 1)``."""
    session = new_session("1941", "Allies", 4)
    seen = []
    while session.ply is not None:
        seen.append((session.ply, session.turn))
        assert session.next_pick().index == session.ply and session.next_pick().side == session.turn
        session.push(next(iter(session.legal_picks)))
    assert seen == [(n, "Allies" if n % 2 else "Axis") for n in range(1, 9)]
    assert session.turn is None

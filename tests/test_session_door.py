"""The Session is the only door (issue 45): a user interface drafts through the session's questions and answers.

The terminal and the room ask which option, then its kind's form field by field, and hand the answers back; here a
whole draft of each ruleset is made that way only (no kind looked up, no draft-file table written), answered at
random as a player might, and every pick the answers make is pushed exactly when ``is_legal`` says so. Rules:
000_bc04a4edf7f7d2ab.txt (kremlin-aa50), 001_e336cdee7ef3c243.txt (kremlin-classic), 002_1340f5a289b0c2db.txt
(kremlin-daak), each on its own game.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from kremlin_triplea.draft.form import Unanswered
from kremlin_triplea.draft.run import draft_from_dict
from kremlin_triplea.errors import KremlinError, RuleViolation
from kremlin_triplea.session import Declaration, Session
from support.aa50 import AA50_1941, fresh_game
from support.classic import CLASSIC_2ND, KREMLIN

GAMES = [("kremlin-aa50", AA50_1941), ("kremlin-classic", KREMLIN), ("kremlin-daak", CLASSIC_2ND)]


def _answer(form, rng: random.Random) -> dict[str, str]:
    """Each field answered in turn as the terminal asks it (narrowed by the answers before it), a choice at random."""
    answers: dict[str, str] = {}
    for field in form.fields:
        asked = field.narrowed(answers) if field.narrowed is not None else field
        if asked is None or not field.terminal:
            continue
        if asked.number is not None:
            answers[field.key] = str(rng.randint(*asked.number))
        elif asked.choices:
            answers[field.key] = rng.choice(asked.choices).value
    return answers


@pytest.mark.parametrize(("ruleset", "game"), GAMES, ids=[r for r, _ in GAMES])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_draft_made_through_the_sessions_questions_is_one_apply_accepts(ruleset: str, game: Path, seed: int) -> None:
    rng = random.Random(seed)
    session = Session(draft_from_dict({"ruleset": ruleset, "game": str(game), "first": "Axis", "picks_per_side": 4}, "draft.toml"), fresh_game(game))
    assert (session.ply, session.turn) == (1, "Axis")
    tries = 0
    while session.turn is not None and tries < 200:
        tries += 1
        offered = [choices for choices in session.next_pick().options if choices.available]
        chosen = rng.choice(offered)
        assert session.option_choices(chosen.option).available
        form = session.pick_form(chosen)
        try:
            pick = session.pick_from_answers(chosen.option, _answer(form, rng), form=form)
        except (Unanswered, KremlinError):
            continue  # an answer the kind's form cannot read (a second unit row left empty): asked again, as the UIs do
        legal = session.is_legal(pick)
        try:
            session.push(pick)
        except RuleViolation:
            assert not legal
        else:
            assert legal
    assert session.turn is None, f"the picks were not made in {tries} tries"
    while (waiting := session.open_declaration()) is not None:  # 000 A: each displaced group's side says where it goes
        displaced, found, _ = waiting
        session.declare(Declaration(displaced, rng.choice(found.matches)))
    assert session.result().game.to_bytes()  # the picks made through the door: a draft whose picks apply accepts


def test_a_step_tried_on_its_own_is_taken_back_with_the_end_of_the_picks() -> None:
    """The matrix tries each first pick on its own, its displaced units declared (the picks ended there), then goes on
    from the same draft at its start: ``trying`` takes back every step and the end, the board as it was."""
    game = fresh_game(AA50_1941)
    session = Session(draft_from_dict({"ruleset": "kremlin-aa50", "game": str(AA50_1941), "first": "Axis"}, "draft.toml"), game)
    before = list(game.board.changes)
    # Option 10, a takeover (000 B 10): the enemy's units there are displaced and declared once the picks end.
    description, pick = next(iter(session.option_picks(10)))
    with session.trying():
        session.push(pick)
        session.end_picks()
        while (waiting := session.open_declaration()) is not None:
            session.declare(Declaration(waiting[0], waiting[1].matches[0]))
        assert session.ply is None and session.picks_done and len(game.board.changes) > len(before)
    assert session.steps == [] and game.board.changes == before
    assert (session.ply, session.turn, session.picks_done) == (1, "Axis", False)
    assert session.push(pick) is not None  # the same first pick, pushed again on the board it was tried on


def test_the_picks_a_kind_lists_and_those_the_draft_takes_whole() -> None:
    """``candidate_picks`` lists every target of the kind's choices (the matrix judges that listing); ``option_picks``
    is those the draft takes whole, each one ``is_legal`` says is (000 B 10, a takeover, for the Allies first)."""
    session = Session(draft_from_dict({"ruleset": "kremlin-aa50", "game": str(AA50_1941), "first": "Allies"}, "draft.toml"), fresh_game(AA50_1941))
    listed = [pick for _, pick in session.candidate_picks(session.listed_choices(10))]
    legal = [pick for _, pick in session.option_picks(10)]
    assert legal and legal == [pick for pick in listed if session.is_legal(pick)]
    assert all(pick.index == session.ply == 1 and pick.side == session.turn == "Allies" for pick in listed)
    assert session.picks_per_side * 2 == session.total_picks

"""The matrix calls an option available exactly when `legal` offers a pick of it (issue 46 item 5): an option
offering alternatives ("two transports, two submarines, or a submarine and a transport", 000 option 4; "Carrier OR
Battleship") was n/a in the matrix when the map lacked one alternative's unit, while `legal` offered and `apply`
accepted the other."""

from __future__ import annotations

from pathlib import Path

import pytest

from kremlin_triplea.draft.rulesets import load_named_ruleset
from kremlin_triplea.errors import KremlinError
from kremlin_triplea.game import load
from kremlin_triplea.rules.profile import load_profile
from kremlin_triplea.session import variant_titles
from kremlin_triplea.tools.matrix import _draft_start, run_matrix
from kremlin_triplea.tools.place_evidence import known_places
from kremlin_triplea.tools.profiles import new_profile
from support.paths import CORPUS_GAMES, MAPS_DIR, each_game

RULESETS = ("kremlin-aa50", "kremlin-classic", "kremlin-daak")
HELD_OUT = sorted((Path(__file__).parent / "data").glob("*/*.xml"))


@pytest.fixture(scope="module")
def known() -> dict:
    return known_places(MAPS_DIR)


def legal_availability(game, ruleset, profile) -> dict[int, bool] | None:
    """Option number -> whether `legal` offers a pick of it as the first pick of either side (its choices, each
    judged whole by the draft: Session.option_choices, as draft/legal.py lists them); None when a side of the
    ruleset has no player in the game."""
    found: dict[int, bool] = {}
    for side in ruleset.sides:
        game.reset()
        session = _draft_start(ruleset, profile, game, side)
        if not all(session.state.side_powers.values()):
            game.reset()
            return None
        for option in session.ruleset.options:
            if variant_titles(ruleset, option):  # a row per scenario: the scenario rows' own business
                continue
            try:
                offered = session.option_choices(option, side).available
            except KremlinError:  # a name the map lacks: nothing offered (the matrix says why)
                offered = False
            found[option.number] = found.get(option.number, False) or offered
    game.reset()
    return found


@pytest.mark.slow  # keeps the quick subset under a minute; CI runs it
@pytest.mark.parametrize("path", each_game(CORPUS_GAMES) + [pytest.param(p, id=f"tests/data/{p.name}") for p in HELD_OUT])
def test_the_matrix_and_legal_give_the_same_availability(path: Path, known: dict, tmp_path: Path) -> None:
    rulesets = [load_named_ruleset(name) for name in RULESETS]
    game = load(path)
    drafted = tmp_path / f"{path.stem}.toml"
    drafted.write_text(new_profile(game, rulesets, known=known, key=str(path)).text, encoding="utf-8")
    profile = load_profile(drafted)
    report = run_matrix(rulesets, [path], maps_dir=MAPS_DIR, samples=0, include_covered=False, given_profiles=[profile], list_only=True)
    for ruleset in rulesets:
        try:
            legal = legal_availability(game, ruleset, profile)
        except KremlinError as error:  # no draft of this ruleset starts here: every row of the matrix is n/a
            rows = [c for (r, _, _), c in report.cells.items() if r == ruleset.id]
            assert rows and all(c.applied == 0 for c in rows), error
            continue
        if legal is None:  # no draft of it can be played here: the matrix says which side the game lacks
            rows = [c for (r, _, _), c in report.cells.items() if r == ruleset.id]
            assert rows and all(c.applied == 0 and any("has no alliance" in why for why in c.reasons) for c in rows)
            continue
        rows = {int(row.split()[0]): c for (r, row, _), c in report.cells.items() if r == ruleset.id and row[0].isdigit() and ":" not in row}
        for number, offered in legal.items():
            cell = rows[number]
            assert (cell.applied > 0) == offered, (ruleset.id, cell.row, "legal offers it" if offered else "legal offers none", cell.reasons, cell.errors)


@pytest.mark.slow
def test_an_option_offering_alternatives_is_played_with_the_alternatives_the_map_has() -> None:
    """WW2v6 1941 has no cruiser: 000 option 3's neutral army is offered by `legal` there, and the whole matrix (not
    only its list) plays it (it called the option n/a: "needs the unit 'cruiser'")."""
    path = HELD_OUT[[p.name for p in HELD_OUT].index("WW2v6_1941.xml")]
    ruleset = load_named_ruleset("kremlin-aa50")
    game = load(path)
    drafted_known = known_places(MAPS_DIR)
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        drafted = Path(folder) / "v6.toml"
        drafted.write_text(new_profile(game, [ruleset], known=drafted_known, key=str(path)).text, encoding="utf-8")
        profile = load_profile(drafted)
    assert "cruiser" in profile.unmatched
    assert legal_availability(game, ruleset, profile)[3]
    report = run_matrix([ruleset], [path], maps_dir=MAPS_DIR, samples=0, include_covered=False, given_profiles=[profile])
    cell = report.cells[("kremlin-aa50", "3 Neutral Territories", report.games[0])]
    assert cell.applied > 0 and not cell.errors, (cell.reasons, cell.errors)

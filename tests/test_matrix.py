"""The option matrix: every option of every ruleset on every pinned game, and what it reports when something breaks."""

from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from lxml import etree

from kremlin_triplea.check.incremental import Validator
from kremlin_triplea.check.validate import validate_tree
from kremlin_triplea.cli.main import main
from kremlin_triplea.draft.kinds import Outcome
from kremlin_triplea.draft.kinds.placement import Placement
from kremlin_triplea.draft.kinds.takeover import TerritoryTakeover
from kremlin_triplea.draft.rulesets import load_named_ruleset, load_ruleset
from kremlin_triplea.model.changes import PlaceUnits, SetOwner
from kremlin_triplea.session import variant_titles
from kremlin_triplea.tools import matrix
from kremlin_triplea.tools.matrix import all_house_sets, all_rulesets, run_matrix
from kremlin_triplea.tools.matrix_report import APPLIED, FAILED, NOT_APPLICABLE
from support.paths import AA50_1941, CORPUS_DIR, MAPS_DIR, PINNED_GAMES

CLASSIC = MAPS_DIR / "world_war_ii_classic" / "map" / "games" / "classic.xml"
KREMLIN = MAPS_DIR / "classic_variations" / "map" / "games" / "kremlin.xml"
CONGO = "duplicate connection 'Congo Sea Zone' - 'South Brazil Sea Zone' (first on line"


@pytest.fixture(scope="module")
def pinned_report() -> matrix.Report:
    rulesets, broken = all_rulesets()
    house_sets, broken_houses = all_house_sets()
    return run_matrix(rulesets, PINNED_GAMES, maps_dir=MAPS_DIR, samples=1, broken_rulesets=broken + broken_houses, house_sets=house_sets)


#: The games the quick tests below look at: AA50's two (its profile), Classic without an AA50 profile, and the
#: games of the house-rule sets' maps (one of them a variant without Germans).
QUICK_GAMES = [
    MAPS_DIR / "world_war_ii_v3" / "map" / "games" / "WW2v3-1941.xml",
    MAPS_DIR / "world_war_ii_v3" / "map" / "games" / "WW2v3-1942.xml",
    CLASSIC,
    MAPS_DIR / "classic_variations" / "map" / "games" / "kremlin.xml",
    MAPS_DIR / "world_war_ii_revised" / "map" / "games" / "lhtr.xml",
    MAPS_DIR / "classic_variations" / "map" / "games" / "iron_blitz_1945A.xml",
]


@pytest.fixture(scope="module")
def quick_report() -> matrix.Report:
    """The AA50 ruleset and the house-rule sets on :data:`QUICK_GAMES` only (the whole matrix is the slow test's)."""
    house_sets, broken = all_house_sets()
    assert broken == []
    return run_matrix([load_named_ruleset("kremlin-aa50")], QUICK_GAMES, maps_dir=MAPS_DIR, samples=1, include_covered=False, house_sets=house_sets)


@pytest.mark.slow
def test_every_pinned_game_takes_every_applicable_option_without_failure(pinned_report: matrix.Report) -> None:
    failures = {f"{c.ruleset} {c.row} on {c.game}": c.errors[:3] for c in pinned_report.failed}
    assert failures == {}
    assert len(pinned_report.games) >= len(PINNED_GAMES)


@pytest.mark.slow  # keeps the quick subset under a minute; CI runs it
def test_house_rule_sets_apply_to_the_games_of_their_maps(quick_report: matrix.Report) -> None:
    for game in ("world_war_ii_classic/classic.xml", "classic_variations/kremlin.xml"):
        assert quick_report.cells[("house-classic", "house rules (defaults)", game)].status == APPLIED
    assert quick_report.cells[("house-revised", "house rules (defaults)", "world_war_ii_revised/lhtr.xml")].status == APPLIED
    # The 1945A variant has no Germans: the set, which gives Germany an advantage, is not for it.
    variant = quick_report.cells[("house-classic", "house rules (defaults)", "classic_variations/iron_blitz_1945A.xml")]
    assert variant.status == NOT_APPLICABLE and "Germany" in variant.reasons[0]


@pytest.mark.slow
def test_aa50_options_all_apply_on_both_aa50_games(quick_report: matrix.Report) -> None:
    aa50 = load_named_ruleset("kremlin-aa50")
    for game in ("world_war_ii_v3/WW2v3-1941.xml", "world_war_ii_v3/WW2v3-1942.xml"):
        for option in aa50.options:
            if variant_titles(aa50, option):  # a row per scenario: each applies, or says why not (another pick locked it, ...)
                rows = {t: quick_report.cells[("kremlin-aa50", f"{option.number} {option.title}: {t}", game)] for t in variant_titles(aa50, option)}
                assert all(c.status == APPLIED or (c.status == NOT_APPLICABLE and c.reasons) for c in rows.values()), rows
                assert sum(c.status == APPLIED for c in rows.values()) >= len(rows) // 2
                continue
            cell = quick_report.cells[("kremlin-aa50", f"{option.number} {option.title}", game)]
            assert cell.status == APPLIED, (game, option.number, cell.reasons)
        assert quick_report.cells[("kremlin-aa50", "random drafts", game)].applied == 1


@pytest.mark.slow
def test_a_game_apply_refuses_for_a_ruleset_is_not_applicable_in_every_row_for_apply_s_reason(quick_report: matrix.Report, tmp_path: Path) -> None:
    """Classic's profile is written for kremlin-classic and kremlin-daak and does not name AA50's China: apply refuses
    an AA50 draft on classic.xml (exit 2), and the matrix refuses it the same, every row, in apply's words (it used to
    re-derive neutrals from the map and drop the China restriction, checking rules apply never plays)."""
    draft = tmp_path / "aa50-on-classic.toml"
    draft.write_text('ruleset = "kremlin-aa50"\ngame = "world_war_ii_classic/classic.xml"\nfirst = "Axis"\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "apply", str(draft), "-o", str(tmp_path / "out.xml")])
    assert result.exit_code == 2 and "unknown power 'China'" in result.output, result.output
    refusal = result.output.strip().removeprefix("kremlin-triplea: error: ")
    game = "world_war_ii_classic/classic.xml"
    cells = {row: c for (ruleset, row, g), c in quick_report.cells.items() if ruleset == "kremlin-aa50" and g == game}
    assert {row: c.status for row, c in cells.items()} == dict.fromkeys(cells, NOT_APPLICABLE)
    assert {"5 Destroyer/Cruiser Placement", "3 Neutral Territories", "random drafts"} <= set(cells)
    assert all(c.reasons == [f"apply refuses this game: {refusal}"] for c in cells.values()), cells["1 Infantry Placement"].reasons
    assert not any("neutrals found on the map" in note for note in quick_report.notes[game])


def aa50_with(*numbers: int):
    """kremlin-aa50 with only options ``numbers``: a test of how the matrix judges a pick needs the options it looks at
    (and one the fault leaves alone), not the whole ruleset's thousands of picks."""
    import attrs

    ruleset = load_named_ruleset("kremlin-aa50")
    return attrs.evolve(ruleset, options=tuple(o for o in ruleset.options if o.number in numbers))


def _break_placements(monkeypatch: pytest.MonkeyPatch) -> None:
    """Option 1 also gives 1 Sea Zone an owner: a sea zone without a territory attachment, which TripleA misreads and
    only validation catches (the invariants of draft/invariants.py look at units)."""
    original = Placement.apply

    def broken(self, state, pick):
        outcome = original(self, state, pick)
        if pick.option.number != 1:
            return outcome
        extra = SetOwner("1 Sea Zone", "Germans")
        return Outcome((*outcome.changes, extra), outcome.affected, outcome.lines)

    monkeypatch.setattr(Placement, "apply", broken)


@pytest.mark.slow
def test_a_pick_whose_game_does_not_validate_fails_its_own_cell_only(monkeypatch: pytest.MonkeyPatch) -> None:
    _break_placements(monkeypatch)
    report = run_matrix([aa50_with(1, 3, 10)], [AA50_1941], maps_dir=MAPS_DIR, samples=0, include_covered=False)
    game = "world_war_ii_v3/WW2v3-1941.xml"
    status = {row: report.cells[("kremlin-aa50", row, game)].status for _, row in report.rows}
    assert status["1 Infantry Placement"] == FAILED
    assert "does not validate" in report.cells[("kremlin-aa50", "1 Infantry Placement", game)].errors[0]
    assert "has an owner but no territoryAttachment" in report.cells[("kremlin-aa50", "1 Infantry Placement", game)].errors[0]
    assert status["10 Takeover of enemy held territory"] == APPLIED
    assert status["3 Neutral Territories"] == APPLIED
    assert status["bid (units)"] == APPLIED


@pytest.mark.slow
def test_a_legal_choice_the_option_refuses_is_a_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    from kremlin_triplea.errors import RuleViolation

    original = TerritoryTakeover.apply

    def refuses_archangel(self, state, pick):
        if pick.target.territory == "Archangel":
            raise RuleViolation(pick.label, "Archangel refused on purpose", rule="a test's rule", source="the test")
        return original(self, state, pick)

    monkeypatch.setattr(TerritoryTakeover, "apply", refuses_archangel)
    report = run_matrix([aa50_with(10)], [AA50_1941], maps_dir=MAPS_DIR, samples=0, include_covered=False)
    cell = report.cells[("kremlin-aa50", "10 Takeover of enemy held territory", "world_war_ii_v3/WW2v3-1941.xml")]
    assert cell.status == FAILED
    assert cell.errors and all("take Archangel" in e and "listed as legal but refused" in e and "on purpose" in e for e in cell.errors)


@pytest.mark.slow
def test_written_games_that_read_back_differently_are_blamed_on_the_pick_that_touched_the_place(monkeypatch: pytest.MonkeyPatch) -> None:
    import kremlin_triplea.game as game_module

    original = game_module.write_board

    def forgets_france(xml, before, after):
        after = after.copy()
        after.node("France")["units"] = before.node("France")["units"].copy()
        original(xml, before, after)

    monkeypatch.setattr(game_module, "write_board", forgets_france)
    report = run_matrix([aa50_with(4, 10)], [AA50_1941], maps_dir=MAPS_DIR, samples=0, include_covered=False)
    errors = [e for c in report.failed for e in c.errors]
    assert errors and all("reads back differently: France: expected" in e for e in errors)
    assert report.cells[("kremlin-aa50", "4 Transport/Submarine Placement", "world_war_ii_v3/WW2v3-1941.xml")].status == APPLIED


@pytest.mark.slow  # several seconds (2.8-9 s on a quiet 2-core machine): the full suite runs it
def test_cli_matrix_writes_json_and_junit_and_exits_0(tmp_path: Path) -> None:
    out_json, out_junit = tmp_path / "m.json", tmp_path / "m.xml"
    result = CliRunner().invoke(
        main,
        [
            "--maps-dir",
            str(MAPS_DIR),
            "matrix",
            "--ruleset",
            "kremlin-aa50",
            "--game",
            str(CLASSIC),
            "--with-covered",
            "--samples",
            "1",
            "--json",
            str(out_json),
            "--junit",
            str(out_junit),
        ],
        env={"CI": "true"},
    )
    assert result.exit_code == 0, result.output
    assert "world_war_ii_classic/classic.xml" in result.output and "\r" not in result.output
    # apply refuses AA50 on classic.xml (its profile lacks China): one line says so for every row.
    refused = [line for line in result.output.splitlines() if "on world_war_ii_classic/classic.xml" in line]
    aa50 = load_named_ruleset("kremlin-aa50")
    rows = sum(len(variant_titles(aa50, o)) or 1 for o in aa50.options) + 3  # a row per scenario, + the two bid rows and the drafts
    assert len(refused) == 1 and f"kremlin-aa50 on world_war_ii_classic/classic.xml (all {rows} rows): apply refuses this game: " in refused[0], refused
    data = json.loads(out_json.read_text())
    statuses = {(c["option"], c["game"]): c["status"] for c in data["cells"]}
    assert statuses[("1 Infantry Placement", "world_war_ii_v3/WW2v3-1941.xml")] == "applied"
    assert statuses[("5 Destroyer/Cruiser Placement", "world_war_ii_classic/classic.xml")] == "not applicable"
    assert data["failed"] == 0
    suites = etree.parse(str(out_junit)).getroot()
    classic = next(s for s in suites if s.get("name") == "world_war_ii_classic/classic.xml")
    skipped = [c.get("name") for c in classic if c.find("skipped") is not None]
    assert "5 Destroyer/Cruiser Placement" in skipped
    assert classic.get("failures") == "0"


@pytest.mark.slow
def test_cli_matrix_exits_1_and_names_the_failure(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _break_placements(monkeypatch)
    junit = tmp_path / "m.xml"
    result = CliRunner().invoke(
        main, ["--maps-dir", str(MAPS_DIR), "matrix", "--ruleset", "kremlin-aa50", "--samples", "0", "--junit", str(junit)], env={"CI": "true"}
    )
    assert result.exit_code == 1
    assert "Failures:" in result.output and "1 Infantry Placement" in result.output
    failures = etree.parse(str(junit)).getroot().findall(".//failure")
    assert failures and "does not validate" in failures[0].get("message")


@pytest.mark.engine
def test_the_engine_reads_every_written_game_of_the_aa50_matrix_as_we_wrote_it() -> None:
    """One JVM for every file the AA50 matrix writes on both AA50 games."""
    report = run_matrix([load_named_ruleset("kremlin-aa50")], [], maps_dir=MAPS_DIR, samples=1, engine=True)
    assert {f"{c.row} on {c.game}": c.errors[:2] for c in report.failed} == {}
    assert report.figures["engine_files"] == report.figures["files_written"] > 10


@pytest.mark.engine
def test_an_engine_disagreement_is_blamed_on_the_picks_that_changed_the_place(monkeypatch: pytest.MonkeyPatch) -> None:
    """Files where a pick changed Karelia are tampered with after our own checks: the engine reads another owner there."""
    original = matrix.Checker._keep

    def tampered(self, written, board, blame):
        if written is not None and blame(("place", "Karelia S.S.R.")):
            written = written.replace(b'territory="Karelia S.S.R." owner="Russians"', b'territory="Karelia S.S.R." owner="Germans"')
        original(self, written, board, blame)

    monkeypatch.setattr(matrix.Checker, "_keep", tampered)
    report = run_matrix([load_named_ruleset("kremlin-aa50")], [AA50_1941], maps_dir=MAPS_DIR, samples=0, engine=True, include_covered=False)
    errors = [e for c in report.failed for e in c.errors]
    assert errors and all("the engine reads Karelia S.S.R. as ('Germans'" in e for e in errors)
    assert report.cells[("kremlin-aa50", "4 Transport/Submarine Placement", "world_war_ii_v3/WW2v3-1941.xml")].status == APPLIED


def _matrix_games(tmp_path: Path, *args: str) -> list[str]:
    """The games `matrix --ruleset R` runs, R a ruleset of kremlin-aa50's id: which games run is the point, not the
    options, so R is the guide's three-option example (docs/maps-and-rulesets.md) under that id, not AA50's own
    thousands of picks. The map profile that pins AA50's games is written for that id, so it covers R too."""
    import re

    guide = (Path(__file__).resolve().parents[1] / "docs" / "maps-and-rulesets.md").read_text(encoding="utf-8")
    example = re.search(r'```toml\n(id = "tiny-kremlin".*?)```', guide, re.S)
    assert example is not None
    ruleset = tmp_path / "kremlin-aa50.toml"
    ruleset.write_text(example.group(1).replace('id = "tiny-kremlin"', 'id = "kremlin-aa50"', 1), encoding="utf-8")
    result = CliRunner().invoke(
        main, ["--maps-dir", str(MAPS_DIR), "matrix", "--ruleset", str(ruleset), "--samples", "0", "--json", "-", *args], env={"CI": "true"}
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.output)["games"]


@pytest.mark.slow
def test_cli_matrix_game_runs_only_that_game(tmp_path: Path) -> None:
    # kremlin-aa50's profile pins WW2v3-1941 and WW2v3-1942; naming one runs only it (issue 14).
    assert _matrix_games(tmp_path, "--game", "world_war_ii_v3/WW2v3-1941.xml") == ["world_war_ii_v3/WW2v3-1941.xml"]


@pytest.mark.slow
def test_cli_matrix_with_covered_adds_the_pinned_games(tmp_path: Path) -> None:
    games = _matrix_games(tmp_path, "--game", "world_war_ii_v3/WW2v3-1941.xml", "--with-covered")
    assert sorted(games) == ["world_war_ii_v3/WW2v3-1941.xml", "world_war_ii_v3/WW2v3-1942.xml"]


def _apply_path_pick_counts(ruleset_file: Path, game_path: Path, options: tuple[int, ...]) -> dict[int, int]:
    """How many picks a session made from a draft file's data (as ``apply`` opens one) lists per option, both sides."""
    from kremlin_triplea.draft.run import draft_from_dict
    from kremlin_triplea.game import load
    from kremlin_triplea.session import Session

    game = load(game_path)
    counts = dict.fromkeys(options, 0)
    for side in ("Axis", "Allies"):
        game.reset()
        session = Session.from_draft(draft_from_dict({"ruleset": str(ruleset_file), "game": str(game_path), "first": side}), game=game)
        for number in options:
            choices = session.listed_choices(number, side)
            if choices.available:
                counts[number] += sum(1 for _ in session.candidate_picks(choices, side))
    return counts


@pytest.mark.slow  # several seconds (2.8-9 s on a quiet 2-core machine): the full suite runs it
def test_the_matrix_fits_a_ruleset_to_the_map_as_apply_does(tmp_path: Path) -> None:
    """Issue 28: a ruleset the map profile does not list (kremlin-aa50's rules under another id) was fitted another
    way by the matrix (neutrals re-derived from the map, the China restriction dropped): 105 neutral picks and 236
    takeovers on WW2v3-1941 against apply's 79 and 222. Both now read the map with the profile apply finds."""
    from kremlin_triplea.rules.datafiles import find_data_file

    text = find_data_file("rulesets", "kremlin-aa50").read_text(encoding="utf-8")
    renamed = tmp_path / "my-aa50.toml"
    renamed.write_text(text.replace('id = "kremlin-aa50"', 'id = "my-aa50"', 1), encoding="utf-8")
    game = "world_war_ii_v3/WW2v3-1941.xml"
    rows = {3: "3 Neutral Territories", 10: "10 Takeover of enemy held territory"}
    expected = _apply_path_pick_counts(renamed, AA50_1941, tuple(rows))
    notes = {}
    for ruleset in (load_ruleset(renamed), load_named_ruleset("kremlin-aa50")):
        report = run_matrix([ruleset], [AA50_1941], maps_dir=MAPS_DIR, samples=0, include_covered=False)
        found = {number: report.cells[(ruleset.id, row, game)].applied for number, row in rows.items()}
        assert found == expected, ruleset.id
        notes[ruleset.id] = report.notes[game]
    # The matrix says what apply warns: the profile was not written for the renamed ruleset.
    assert any("written for the rulesets kremlin-aa50, not my-aa50" in note for note in notes["my-aa50"])
    assert not any("neutrals found on the map" in note for note in notes["my-aa50"])


@pytest.mark.slow
@pytest.mark.parametrize(
    ("ruleset", "game"),
    [("kremlin-aa50", AA50_1941), ("kremlin-daak", CLASSIC), ("kremlin-classic", MAPS_DIR / "classic_variations" / "map" / "games" / "kremlin.xml")],
)
def test_a_random_draft_of_the_matrix_is_checked_as_the_file_apply_writes_for_it(
    ruleset: str, game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 28: the matrix checked drafts without the ruleset's game rules. Each random draft is now a draft file's
    data applied as apply applies it: the game it checks is, byte for byte, the one `apply` writes from that file."""
    import tomli_w

    drafts, checked = [], []
    original_apply, original_check = matrix.apply_draft, matrix.Checker.check_whole
    monkeypatch.setattr(matrix, "apply_draft", lambda draft, *a, **k: drafts.append(draft.root.data) or original_apply(draft, *a, **k))

    def check_whole(self, game, board, item, name):
        checked.append(game.to_bytes(board))
        original_check(self, game, board, item, name)

    monkeypatch.setattr(matrix.Checker, "check_whole", check_whole)
    # Only the random drafts are looked at here: each option's own rows (every legal first pick, the other tests'
    # business) are left out. The drafts do not depend on them: the same seed draws the same drafts.
    monkeypatch.setattr(matrix, "_option_rows", lambda *args: None)
    report = run_matrix([load_named_ruleset(ruleset)], [game], maps_dir=MAPS_DIR, samples=2, seed=3, include_covered=False)
    assert report.failed == [] and len(drafts) == len(checked) == 2
    for number, (data, written) in enumerate(zip(drafts, checked)):
        draft = tmp_path / f"draft{number}.toml"
        draft.write_text(tomli_w.dumps({**data, "game": str(game)}), encoding="utf-8")
        out = tmp_path / f"out{number}.xml"
        result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "apply", str(draft), "-o", str(out)])
        assert result.exit_code == 0, result.output
        assert out.read_bytes() == written
    # The ruleset's section D is in them (apply's summary lists what it writes into the game).
    assert "written into the game:" in result.output


def _section_d_marks(root: etree._Element, base: etree._Element) -> tuple[set, set, set]:
    """What a written game adds to its base that section D writes: canals (name, sea zone), turn steps, victory cities."""
    from collections import Counter

    canal = "//attachment[@javaClass='games.strategy.triplea.attachments.CanalAttachment']"

    def canals(tree):
        return Counter((c.get("name"), c.get("attachTo")) for c in tree.xpath(canal))

    def steps(tree):
        return {s.get("name") for s in tree.xpath("//sequence/step")}

    def victory(tree):
        return {
            (a.get("attachTo"), o.get("value")) for a in tree.xpath("//attachment[@name='territoryAttachment']") for o in a if o.get("name") == "victoryCity"
        }

    return set(canals(root) - canals(base)), steps(root) - steps(base), victory(root) - victory(base)


@pytest.mark.slow  # several seconds (2.8-9 s on a quiet 2-core machine): the full suite runs it
def test_every_single_pick_is_checked_with_the_ruleset_s_game_rules_written_as_apply_writes_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28: the matrix never wrote section D. Each file it checks for the single picks on WW2v3-1941 now holds the
    canals, the turn step and the victory city that `apply` writes for the example draft (000 D(3), D(4), D(5))."""
    out = tmp_path / "example.xml"
    example = Path(__file__).resolve().parents[1] / "examples" / "kremlin-aa50-1941.toml"
    result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "apply", str(example), "-o", str(out)])
    assert result.exit_code == 0, result.output
    base = etree.parse(str(AA50_1941)).getroot()
    canals, steps, victory = _section_d_marks(etree.parse(str(out)).getroot(), base)
    assert canals and steps and victory  # apply writes all three kinds
    written = []
    original = matrix.Checker.write_and_read

    def recording(self, game, board, name):
        found = original(self, game, board, name)
        written.append(found.written)
        return found

    monkeypatch.setattr(matrix.Checker, "write_and_read", recording)
    report = run_matrix([load_named_ruleset("kremlin-aa50")], [AA50_1941], maps_dir=MAPS_DIR, samples=0, include_covered=False)
    assert report.failed == [] and len(written) > 3
    for data in written:
        found = _section_d_marks(etree.fromstring(data), base)
        assert canals <= found[0] and steps <= found[1] and victory <= found[2]


@pytest.mark.engine
@pytest.mark.slow
def test_random_drafts_on_every_game_the_matrix_calls_clean_apply_and_triplea_27_reads_them_back(tmp_path: Path, pinned_report: matrix.Report) -> None:
    """Issue 28: what the matrix calls clean is what apply plays. For every ruleset and pinned game the whole matrix
    passes, random whole drafts drawn from apply's own legal picks (support.drafts) are applied through the CLI, and
    TripleA 2.7 (the 2.x bridge, one JVM) parses each written game and reads the owners, units and PUs we read.
    The matrix is the pinned games' (the fixture the test of its every cell shares): run again, it would be the
    same one, for a minute of CPU."""
    import random

    import tomli_w

    from kremlin_triplea.engine import compare
    from kremlin_triplea.engine.triplea2_bridge import reading, run
    from kremlin_triplea.game import load
    from kremlin_triplea.gamefile.installation import installation_at
    from kremlin_triplea.gamefile.locate import resolve_game
    from support.drafts import random_draft
    from support.triplea27 import installation_without_compiler

    rulesets, broken = all_rulesets()
    assert broken == []
    report = pinned_report
    # The games a ruleset's own map profiles pin (the pinned report has every ruleset on every pinned game as well).
    profiles = matrix.all_profiles()[0]
    covered = {(r.id, spec.label) for r in rulesets for spec in matrix.covered_games(r, profiles, MAPS_DIR)}
    clean = [
        (ruleset, game)
        for (ruleset, row, game), cell in report.cells.items()
        if (ruleset, game) in covered
        and row == "random drafts"
        and cell.status == APPLIED
        and not any(c.errors for (r, _, g), c in report.cells.items() if (r, g) == (ruleset, game))
    ]
    assert len(clean) >= 5, clean  # AA50's two games, Classic's three, DAAK's two
    by_id = {r.id: r for r in rulesets}
    rng = random.Random(28)
    written = []
    for ruleset, label in clean:
        game = resolve_game(label, MAPS_DIR)
        for number in range(2):
            data = random_draft(rng.choice, ruleset, game, rng.choice(by_id[ruleset].sides), by_id[ruleset].picks.default)
            draft, out = tmp_path / f"{ruleset}-{game.stem}-{number}.toml", tmp_path / f"{ruleset}-{game.stem}-{number}.xml"
            draft.write_text(tomli_w.dumps(data), encoding="utf-8")
            result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "apply", str(draft), "-o", str(out)])
            assert result.exit_code == 0, (draft.read_text(), result.output)
            written.append(out)
    installation = installation_at(installation_without_compiler(tmp_path / "triplea"), "--triplea")
    assert installation is not None and installation.major == 2
    answers = run(installation, [{"read": str(path)} for path in written], timeout=1800, doing="reading").answers
    for path, answer in zip(written, answers):
        assert answer.get("error") is None, (path.name, answer.get("error"))
        assert compare.disagreements(load(path).board, reading(answer), properties=False, triplea2=True) == [], path.name


def _option_1_also_places(monkeypatch: pytest.MonkeyPatch, extra: PlaceUnits) -> None:
    """Make option 1's placement kind also place ``extra`` (a second factory): a pick apply refuses for its board."""
    original = Placement.apply

    def also(self, state, pick):
        outcome = original(self, state, pick)
        if pick.option.number != 1:
            return outcome
        return Outcome((*outcome.changes, extra), outcome.affected, outcome.lines)

    monkeypatch.setattr(Placement, "apply", also)


def test_a_listed_pick_apply_refuses_for_the_board_it_leaves_is_a_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    """apply refuses a pick that leaves a board no game starts from (draft/invariants.py: "no territory holds more
    than one factory"); the matrix, which counted such a pick as applied, now fails it as apply refuses it."""

    _option_1_also_places(monkeypatch, PlaceUnits("Germany", "Germans", "factory", 1))
    report = run_matrix([aa50_with(1, 2)], [AA50_1941], maps_dir=MAPS_DIR, samples=0, include_covered=False)
    cell = report.cells[("kremlin-aa50", "1 Infantry Placement", "world_war_ii_v3/WW2v3-1941.xml")]
    assert cell.status == FAILED and cell.applied == 0
    assert all("apply refuses it: it would leave a board no game can start from: Germany holds more than one factory" in e for e in cell.errors)
    assert report.cells[("kremlin-aa50", "2 Artillery/Tank Placement", "world_war_ii_v3/WW2v3-1941.xml")].status == APPLIED


@pytest.mark.slow
def test_a_second_factory_of_another_power_s_type_is_refused_by_the_matrix_as_by_apply(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same on a map where each power has its own factory type (Total World War): "one factory a territory"
    counts every power's type in the matrix as apply counts it (the matrix counted one type, so a russianFactory
    beside Eastern Germany's germanFactory passed there and was refused by apply)."""
    from kremlin_triplea.rules.profile import load_profile

    tww = Path(__file__).resolve().parent / "data" / "total_world_war" / "Total_World_War_Dec1941_3.0.xml"
    profile = tmp_path / "tww.toml"
    made = CliRunner().invoke(main, ["profile", "new", str(tww), "--ruleset", "kremlin-aa50", "-o", str(profile)])
    assert made.exit_code == 0, made.output
    # Its factories cannot be bought, so `profile new` leaves "factory" unmatched; a host names them (one per power).
    text = "\n".join(line for line in profile.read_text(encoding="utf-8").splitlines() if not line.startswith('"factory" = "unit:'))
    text = text.replace("[units]   #", '[units]\n"factory" = "germanFactory"\n#', 1)
    text = text.replace('[units_by_power."Russia"]', '[units_by_power."Russia"]\n"factory" = "russianFactory"', 1)
    profile.write_text(text + "\n", encoding="utf-8")
    _option_1_also_places(monkeypatch, PlaceUnits("Eastern Germany", "Germany", "russianFactory", 1))
    aa50 = aa50_with(1)  # the cell in question; the rest of the ruleset is other tests' (and 90 s here)
    report = run_matrix([aa50], [tww], maps_dir=MAPS_DIR, samples=0, include_covered=False, given_profiles=[load_profile(profile)])
    cell = next(c for (_, row, _), c in report.cells.items() if row.startswith("1 "))
    assert cell.status == FAILED and cell.applied == 0, (cell.status, cell.reasons[:2])
    assert all("Eastern Germany holds more than one factory" in e for e in cell.errors), cell.errors[:2]


@pytest.mark.slow
def test_whole_drafts_are_sampled_from_the_options_a_map_has(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """World War II Revised has no cruiser: AA50's options that place one are not applicable, but a host still drafts
    from the others, and so does the matrix (it sampled no draft at all on such a map)."""
    from kremlin_triplea.game import load
    from kremlin_triplea.rules.profile import load_profile
    from kremlin_triplea.tools.place_evidence import known_places
    from kremlin_triplea.tools.profiles import new_profile

    revised = CORPUS_DIR / "ww2v2.xml"  # no shipped profile pins the corpus copy
    aa50 = load_named_ruleset("kremlin-aa50")
    profile = tmp_path / "revised.toml"
    profile.write_text(new_profile(load(revised), [aa50], known=known_places(MAPS_DIR), key=str(revised)).text, encoding="utf-8")
    drafts = []
    original = matrix.apply_draft
    monkeypatch.setattr(matrix, "apply_draft", lambda draft, *a, **k: drafts.append(draft.root.data) or original(draft, *a, **k))
    report = run_matrix([aa50], [revised], maps_dir=MAPS_DIR, samples=2, include_covered=False, given_profiles=[load_profile(profile)])
    assert report.failed == []
    blocked = {
        number
        for (_, row, _), c in report.cells.items()
        if c.status == NOT_APPLICABLE and "has a cruiser on this map (the map has no cruiser" in " ".join(c.reasons)
        for number in [int(row.split()[0])]
    }
    # 000 option 5 is "one destroyer and one cruiser"; option 9 "a Carrier OR a Battleship" needs no cruiser (issue 46:
    # the matrix called an option with an alternative the map has n/a, where legal offers it).
    assert blocked == {5} and report.cells[("kremlin-aa50", "9 Carrier OR Battleship Placement", "ww2v2.xml")].status == APPLIED
    assert report.cells[("kremlin-aa50", "random drafts", "ww2v2.xml")].applied == 2
    assert len(drafts) == 2 and all(pick["option"] not in blocked for draft in drafts for pick in draft["pick"])


def test_profile_new_parses_its_game_once_though_its_matrix_reads_it_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`profile new` reads its game, and its matrix of what the map lacks reads it again: `load` keeps the games it
    read by path and bytes, so the file is parsed once (a copy here, a path no other test loads)."""
    import shutil

    import kremlin_triplea.game as game_module

    game = tmp_path / "aa50.xml"
    shutil.copy(AA50_1941, game)
    parsed: list[str] = []
    original = game_module.XmlDocument
    monkeypatch.setattr(game_module, "XmlDocument", lambda data, *, source: parsed.append(source) or original(data, source=source))
    result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "profile", "new", str(game.resolve()), "--ruleset", "kremlin-aa50"])
    assert result.exit_code == 0, result.output
    assert "What the map lacks" in result.output and parsed == [str(game.resolve())]


def test_the_matrix_collects_garbage_rarely_while_it_runs_and_as_before_after(monkeypatch: pytest.MonkeyPatch) -> None:
    """Collections at least a hundred times rarer than Python's default (every 700 new objects) during the matrix;
    the collector's thresholds are the caller's again after it, also when it fails."""
    before = gc.get_threshold()
    during: list[int] = []
    report = run_matrix(
        [aa50_with(1)], [AA50_1941], maps_dir=MAPS_DIR, samples=0, include_covered=False, progress=lambda *_: during.append(gc.get_threshold()[0])
    )
    assert report.failed == []
    assert during and all(threshold >= 100 * 700 for threshold in during)
    assert gc.get_threshold() == before
    monkeypatch.setattr(matrix, "_run_one", lambda *args: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        run_matrix([aa50_with(1)], [AA50_1941], maps_dir=MAPS_DIR, samples=0, include_covered=False)
    assert gc.get_threshold() == before


@pytest.mark.slow
def test_every_file_the_matrix_writes_is_judged_as_validate_tree_judges_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The matrix validates the rest of its files once per text of it (check/incremental.py): on every file it
    writes for a real game's picks, bids and drafts, its verdict is validate_tree's, and the rest was reused.
    The game has a warning of its rest (a connection given twice, cited with its line) in every verdict."""
    judged: list[tuple[list, list, int]] = []
    validate = Validator.validate

    def judged_both_ways(self: Validator, source: bytes, root: etree._Element, file: str) -> list:
        verdict = validate(self, source, root, file)
        judged.append((verdict, validate_tree(root, file, dtd=self.dtd), self.reused))
        return verdict

    monkeypatch.setattr(Validator, "validate", judged_both_ways)
    report = run_matrix([load_named_ruleset("kremlin-classic")], [KREMLIN], maps_dir=MAPS_DIR, samples=1, include_covered=False)
    assert report.failed == []
    assert len(judged) == report.figures["files_written"] > 10
    for verdict, whole, _ in judged:
        assert verdict == whole
        assert any(CONGO in p.message and p.line is not None for p in verdict)
    assert judged[-1][2] > len(judged) // 2


def test_a_game_whose_attributes_2x_reads_under_other_names_reuses_its_rest_and_is_judged_as_validate_tree_judges_it() -> None:
    """A game 2.x reads with attributes under other names (every attachment's legacy ``attatchTo``, as G40CanadianMod
    writes some of its own) was validated whole for every file the matrix wrote: 170 validations of 0.5 s on
    G40CanadianMod. The rest's findings come from the tree 2.x reads, element for element the file's, so they are
    reused; each verdict is still validate_tree's."""
    source = KREMLIN.read_bytes().replace(b" attachTo=", b" attatchTo=")
    russia = b'<unitPlacement unitType="infantry" territory="Russia" quantity="'
    assert source.count(b" attatchTo=") > 90 and russia in source
    validator = Validator()
    for text in (source, source.replace(russia, russia + b"1", 1), source):
        root = etree.fromstring(text)
        assert validator.validate(text, root, "kremlin.xml") == validate_tree(root, "kremlin.xml")
    assert validator.reused == 2


def _unit_words(ruleset) -> list[str]:
    return sorted({name for option in ruleset.options for table, name in option.params.rule_names(ruleset) if table == "units"})


@pytest.mark.slow  # keeps the quick subset under a minute; CI runs it
@pytest.mark.parametrize("ruleset_id", ["kremlin-aa50", "kremlin-classic", "kremlin-daak"])
def test_with_each_unit_unmatched_in_turn_the_matrix_says_what_legal_says(ruleset_id: str) -> None:
    """Issue 46: "two transports, two submarines, or a submarine and a transport" (001/002 option 3) is available on a
    map without transports, as legal offers it; the matrix called it n/a. Each unit word of the ruleset's options is
    left unmatched in turn, and every option row is applicable exactly when a side has a legal pick of it."""
    import attrs

    from kremlin_triplea.draft.run import draft_from_dict
    from kremlin_triplea.rules.profile import profile_for_game
    from kremlin_triplea.session import Session
    from support.classic import CLASSIC_2ND, KREMLIN
    from support.games import fresh_game

    game_path = {"kremlin-aa50": AA50_1941, "kremlin-classic": KREMLIN, "kremlin-daak": CLASSIC_2ND}[ruleset_id]
    ruleset = load_named_ruleset(ruleset_id)
    full = profile_for_game(fresh_game(game_path))
    for word in _unit_words(ruleset):
        unit = {k.lower(): v for k, v in full.units.items()}.get(word.lower(), word)
        units = {k: v for k, v in full.units.items() if v != unit}
        gone = {word, *(k for k in full.units if k not in units)}  # the word and its aliases ("tank", "armor")
        profile = attrs.evolve(full, units=units, unmatched={**full.unmatched, **{w: f"unit: no unit type is a {w} (a test)" for w in gone}})
        report = run_matrix([ruleset], [game_path], maps_dir=MAPS_DIR, include_covered=False, given_profiles=[profile], list_only=True)
        for option in ruleset.options:
            if variant_titles(ruleset, option):  # a row per scenario: the scenario rows' own business
                continue
            offered = False
            for side in ruleset.sides:
                session = Session(draft_from_dict({"ruleset": ruleset_id, "first": side}), fresh_game(game_path), profile=profile)
                offered = offered or any(True for _ in session.option_picks(option.number, side))
            cell = next(c for (r, row, _), c in report.cells.items() if r == ruleset_id and row.startswith(f"{option.number} "))
            assert (cell.status == APPLIED) == offered, (word, option.number, cell.status, cell.reasons[:2])

"""`profile new` and `profile check` take house sets as they take Kremlin rulesets (issue 41): a profile lists a house set in
`rulesets`, `profile new --ruleset house-...` drafts the names it uses, and `profile check` accepts a listed set exactly
when `house` writes it into each pinned game of the profile.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from kremlin_triplea.cli.main import main
from kremlin_triplea.errors import KremlinError
from kremlin_triplea.game import load
from kremlin_triplea.gamerules.house import apply_house_rules
from kremlin_triplea.rules.datafiles import data_folders, named_rule_files
from kremlin_triplea.rules.house_rules import HouseChoices, load_house_set
from kremlin_triplea.rules.profile import load_profile
from kremlin_triplea.tools.profile_check import check_profile
from support.paths import MAPS_DIR

HOUSE_SETS = sorted(named_rule_files("house"))
PROFILES = sorted(p for folder in data_folders("maps") for p in folder.glob("*.toml"))


def _listing(profile: Path, house: str, folder: Path) -> Path:
    """``profile`` with ``house`` added to its `rulesets` (a line the host adds), beside it in ``folder``."""
    text = profile.read_text(encoding="utf-8")
    line = re.search(r"^rulesets = \[(.*)\]$", text, re.M)
    assert line is not None, profile
    if f'"{house}"' not in line.group(1):
        text = text.replace(line.group(0), f'rulesets = [{line.group(1)}, "{house}"]')
    listed = folder / profile.name
    listed.write_text(text, encoding="utf-8")
    return listed


@pytest.mark.parametrize("house", HOUSE_SETS)
@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.stem)
def test_profile_check_accepts_a_listed_house_set_exactly_where_house_applies_it(profile: Path, house: str, tmp_path: Path) -> None:
    listed = _listing(profile, house, tmp_path)
    problems = check_profile(listed, MAPS_DIR)
    loaded = load_profile(listed)
    for base in loaded.games:
        try:
            apply_house_rules(load(loaded.game_key(base), maps_dir=MAPS_DIR), [HouseChoices(house)], profile=loaded)
            refused = None
        except KremlinError as error:
            refused = str(error)
        found = [p for p in problems if f"game {base.key}:" in p or "game " not in p]
        if refused is None:
            assert found == [], (base.key, found)
        else:
            assert found, (base.key, refused)
            assert any(refused in p for p in found), (base.key, refused, found)


DATA = Path(__file__).resolve().parent / "data"
# Every real map of tests/data (tests/data/PROVENANCE.md): WW2v4 in the quick subset, the others slow.
QUICK = DATA / "world_war_ii_v4" / "WW2v4.xml"
UNSEEN = [QUICK] + [pytest.param(game, marks=pytest.mark.slow) for game in sorted(DATA.glob("*/*.xml")) if game != QUICK]


@pytest.mark.parametrize("house", HOUSE_SETS)
@pytest.mark.parametrize("game", UNSEEN, ids=lambda p: p.parent.name)
def test_profile_new_drafts_a_house_set_and_check_accepts_it_exactly_where_house_writes_it(game: Path, house: str, tmp_path: Path) -> None:
    drafted = tmp_path / f"{game.stem}.toml"
    made = CliRunner().invoke(main, ["profile", "new", str(game), "--ruleset", house, "-o", str(drafted)])
    assert made.exit_code == 0, made.output
    profile = load_profile(drafted)
    assert profile.rulesets == (house,)
    # Every power the set gives an advantage to is the game's, mapped, or said to be missing.
    players = {p.lower() for p in load(game).catalog.players}
    for power in load_house_set(named_rule_files("house")[house]).powers:
        assert power.lower() in players or power in profile.powers or power in profile.unmatched, power
    checked = CliRunner().invoke(main, ["profile", "check", str(drafted)])
    written = CliRunner().invoke(main, ["house", str(game), "-r", house, "--profile", str(drafted), "-o", str(tmp_path / "out.xml")])
    assert written.exit_code in (0, 1, 2) and checked.exit_code in (0, 1), (written.output, checked.output)
    assert (checked.exit_code == 0) == (written.exit_code == 0), (checked.output, written.output)
    if written.exit_code != 0:  # the check names the refusal `house` gives
        refusal = written.output.strip().splitlines()[-1].removeprefix("kremlin-triplea: error: ")
        assert refusal[:80] in checked.output, (refusal, checked.output)


def test_a_house_set_name_nobody_installed_is_refused_by_profile_new_and_profile_check(tmp_path: Path) -> None:
    game = DATA / "world_war_ii_v4" / "WW2v4.xml"
    made = CliRunner().invoke(main, ["profile", "new", str(game), "--ruleset", "house-revisd"])
    assert made.exit_code == 2 and "did you mean 'house-revised'" in made.output and "Traceback" not in made.output
    drafted = tmp_path / "v4.toml"
    assert CliRunner().invoke(main, ["profile", "new", str(game), "--ruleset", "house-revised", "-o", str(drafted)]).exit_code == 0
    drafted.write_text(drafted.read_text(encoding="utf-8").replace('rulesets = ["house-revised"]', 'rulesets = ["house-revisd"]'), encoding="utf-8")
    checked = CliRunner().invoke(main, ["profile", "check", str(drafted)])
    assert checked.exit_code == 1 and "did you mean 'house-revised'" in checked.output


def test_profile_new_for_a_kremlin_ruleset_and_a_house_set_says_what_house_leaves_to_the_players(tmp_path: Path) -> None:
    game = DATA / "world_war_ii_v4" / "WW2v4.xml"
    drafted = tmp_path / "v4.toml"
    made = CliRunner().invoke(main, ["profile", "new", str(game), "--ruleset", "kremlin-aa50", "--ruleset", "house-classic", "-o", str(drafted)])
    assert made.exit_code == 0, made.output
    text = drafted.read_text(encoding="utf-8")
    said = text[text.index("# house-classic:") :]
    result = apply_house_rules(load(game), [HouseChoices("house-classic")], profile=load_profile(drafted))
    assert result.rules.unwritten  # 003's Industrial Technology: WW2v4 has Improved Shipyards instead
    for rule, _ in result.rules.unwritten:
        assert f"#   {rule.title} ({rule.source}): not written into the game, the players keep it" in said, rule.id
    assert CliRunner().invoke(main, ["profile", "check", str(drafted)]).exit_code == 0


@pytest.mark.parametrize("house", HOUSE_SETS)
def test_every_rule_text_name_a_house_set_asks_a_profile_for_is_one_profile_new_drafts(house: str, monkeypatch) -> None:
    """The names `house` resolves through the profile on the set's own games (every advantage, drawn places), less the
    games' own names, are all among those `profile new` drafts for the set: a map that names them otherwise is asked."""
    from kremlin_triplea.rules.names import Names
    from kremlin_triplea.tools.rule_names import rule_names
    from support.house import TARGETS

    asked: dict[str, set[str]] = {"powers": set(), "places": set(), "units": set()}
    for method, table in (("power", "powers"), ("place", "places"), ("territory", "places"), ("unit", "units")):
        original = getattr(Names, method)

        def spy(self, name, *args, _original=original, _table=table, **kwargs):
            asked[_table].add(name)
            return _original(self, name, *args, **kwargs)

        monkeypatch.setattr(Names, method, spy)
    rule_set = load_house_set(named_rule_files("house")[house])
    own: set[str] = set()
    for game in TARGETS[house]:
        loaded = load(game)
        own |= set(loaded.catalog.players) | set(loaded.board.nodes) | set(loaded.catalog.unit_types)
        for n in range(max(len(rule_set.advantages_of(p)) for p in rule_set.powers)):
            chosen = {p: rule_set.advantages_of(p)[n % len(rule_set.advantages_of(p))].id for p in rule_set.powers}
            try:
                apply_house_rules(load(game), [HouseChoices(house, advantages=chosen, seed=n)])
            except KremlinError:
                continue  # an advantage this game refuses: its names were asked all the same
    drafted = rule_names(rule_set)
    for table, names in (("powers", drafted.powers), ("places", drafted.places), ("units", drafted.units)):
        missing = sorted(name for name in asked[table] - own - set(names) if not name.startswith("{"))
        assert not missing, (table, missing)
    assert asked["units"] and asked["powers"]


@pytest.mark.slow  # a matrix walk of the game (8 s on an idle machine)
def test_the_matrix_applies_a_house_set_on_a_game_whose_given_profile_lists_it(tmp_path: Path) -> None:
    from kremlin_triplea.draft.rulesets import load_named_ruleset
    from kremlin_triplea.tools.matrix import game_label, run_matrix

    game = QUICK
    drafted = tmp_path / "v4.toml"
    made = CliRunner().invoke(main, ["profile", "new", str(game), "--ruleset", "kremlin-aa50", "--ruleset", "house-classic", "-o", str(drafted)])
    assert made.exit_code == 0, made.output
    house = load_house_set(named_rule_files("house")["house-classic"])
    report = run_matrix(
        [load_named_ruleset("kremlin-aa50")], [game], samples=0, include_covered=False, house_sets=[house], given_profiles=[load_profile(drafted)]
    )
    cells = {row: cell for (set_id, row, label), cell in report.cells.items() if set_id == "house-classic" and label == game_label(game.resolve())}
    assert set(cells) == {"house rules (defaults)", "house rules (every switch flipped)"}
    assert all(cell.applied == 1 and not cell.errors for cell in cells.values()), {row: cell.errors for row, cell in cells.items()}


@pytest.mark.parametrize("house", ["house-classic", "house-revised"])
def test_a_game_with_its_own_technologies_keeps_its_one_list_and_every_technology_its_research_names(house: str, tmp_path: Path) -> None:
    """Pacific 1940 lists its own technologies (Airborne_Forces, Improved_Mech_Inf among them). A set that grants or
    adds a technology wrote TripleA's built-in list as a second <technologies> beside it; TripleA reads the last of a
    section given twice, so 2.7 refused the game ("Could not find technology: Airborne_Forces")."""
    from lxml import etree

    game = DATA / "world_war_ii_pacific" / "ww2pac40_2nd_edition.xml"
    drafted, out = tmp_path / "pacific.toml", tmp_path / "out.xml"
    assert CliRunner().invoke(main, ["profile", "new", str(game), "--ruleset", house, "-o", str(drafted)]).exit_code == 0
    written = CliRunner().invoke(main, ["house", str(game), "-r", house, "--profile", str(drafted), "-o", str(out)])
    assert written.exit_code == 0, written.output
    before, after = etree.parse(str(game)).getroot(), etree.parse(str(out)).getroot()
    assert len(after.findall("technology/technologies")) == 1
    declared = {t.get("name") for t in after.iterfind("technology/technologies/techname")}
    assert {t.get("name") for t in before.iterfind("technology/technologies/techname")} <= declared
    assert {t.get("name") for t in after.iterfind("technology/playerTech/category/tech")} <= declared

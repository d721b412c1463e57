"""Unit roles, profiles derived from a map, `profile new` and `profile check`, and the guide's example ruleset."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
import tomllib
from click.testing import CliRunner

from kremlin_triplea.cli.main import main
from kremlin_triplea.draft.rulesets import load_named_ruleset, load_ruleset
from kremlin_triplea.game import load
from kremlin_triplea.rules.roles import ROLE_OF_WORD, ROLES, match_role, match_unit_word, unit_facts
from kremlin_triplea.rules.ruleset import find_data_file
from kremlin_triplea.tools.profile_check import check_profile, review_marks
from kremlin_triplea.tools.rule_names import rule_names
from support.paths import AA50_1941, CORPUS_DIR, MAPS_DIR
from support.units import units_players_can_have

CLASSIC = MAPS_DIR / "world_war_ii_classic" / "map" / "games" / "classic.xml"
NAPOLEONIC = CORPUS_DIR / "Napoleonic_Empires.xml"
REPO = Path(__file__).resolve().parents[1]


def test_roles_find_each_aa50_unit_under_its_own_name() -> None:
    """Where the names are known, the roles alone pick the very same unit types."""
    game = load(AA50_1941)
    facts = unit_facts(game)
    expected = {
        "infantry": "infantry",
        "artillery": "artillery",
        "armour": "armour",
        "fighter": "fighter",
        "bomber": "bomber",
        "transport": "transport",
        "submarine": "submarine",
        "destroyer": "destroyer",
        "cruiser": "cruiser",
        "carrier": "carrier",
        "battleship": "battleship",
        "factory": "factory",
        "aa": "aaGun",
    }
    assert {role: match_role(role, facts).unit for role in ROLES} == expected


def test_classic_has_no_cruiser_and_its_one_hit_battleship_is_still_the_battleship() -> None:
    facts = unit_facts(load(CLASSIC))
    assert match_role("battleship", facts).unit == "battleship"
    cruiser = match_role("cruiser", facts)
    assert cruiser.unit is None and "no unit type is" in cruiser.reason


def test_roles_on_a_map_whose_unit_names_differ() -> None:
    game = load(NAPOLEONIC)
    facts = unit_facts(game)
    assert match_unit_word("infantry", game, facts).unit == "Fusiliers"  # the cheapest line infantry that moves
    # canBlitz, not artillery, nearest the rule text's tank (moves 2, attacks 3): not the Hussars (attack 1) nor a general
    assert match_unit_word("tank", game, facts).unit == "Cuirassiers"
    assert match_unit_word("sub", game, facts).unit == "Corvette"  # isSub
    assert match_unit_word("battleship", game, facts).unit == "Battleship"  # two hits
    assert match_unit_word("fighter", game, facts).unit is None
    assert match_unit_word("industrial complex", game, facts).unit == "Encampment"  # an immobile factory, not the General
    assert set(ROLE_OF_WORD.values()) == set(ROLES)


def test_profile_new_fills_best_matches_marked_for_review(tmp_path: Path) -> None:
    out = tmp_path / "classic.toml"
    result = CliRunner().invoke(
        main, ["--maps-dir", str(MAPS_DIR), "profile", "new", "world_war_ii_classic/classic.xml", "--ruleset", "kremlin-aa50", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    text = out.read_text()
    data = tomllib.loads(text)
    assert data["game"][0]["key"] == "world_war_ii_classic/classic.xml"
    assert data["units"]["tank"] == "armour" and data["units"]["aa gun"] == "aaGun"
    # Classic has no cruiser (seed-to-triplea-names.md): left unmatched, saying what needs it.
    assert "cruiser" not in data["units"] and data["unmatched"]["cruiser"].startswith("unit: no unit type is")
    assert "kremlin-aa50 option 5" in data["unmatched"]["cruiser"]
    # 000's Argentina is classic's 'Argentina-Chile' (maps/world_war_ii_classic.toml, which classic_variations
    # extends): the evidence is the reason, the guess is marked in a comment.
    assert data["places"]["Argentina"] == "Argentina-Chile"
    assert "calls it 'Argentina-Chile'" in data["place_reasons"]["Argentina"] and "REVIEW" not in data["place_reasons"]["Argentina"]
    assert re.search(r'^"tank" = "armour"\s+# REVIEW', text, re.M) and re.search(r'^"Argentina" = "Argentina-Chile"\s+# REVIEW', text, re.M)
    # REVIEW marks are comments: unreviewed, the profile reads and passes the check, the marks counted apart.
    assert check_profile(out, MAPS_DIR) == []
    assert len(review_marks(out)) >= 3


def test_profile_check_passes_the_aa50_profile() -> None:
    result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "profile", "check", "world_war_ii_v3"])
    assert result.exit_code == 0, result.output


def test_profile_check_reports_a_changed_file_a_missing_name_and_a_place_without_reason(tmp_path: Path) -> None:
    profile = tmp_path / "world_war_ii_v3.toml"
    text = find_data_file("maps", "world_war_ii_v3").read_text()
    text = text.replace("393c16d5367838a7033692006dc816f1d6b601d62fef7192e4919c82f88dbe02", "0" * 64)
    text = text.replace('Peru = "Peruvian Central"', 'Peru = "Peruvian Centrl"')
    text = text.replace("[places]\n", '[places]\n"Far Away" = "Eire"\n', 1)
    profile.write_text(text)
    result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "profile", "check", str(profile)])
    assert result.exit_code == 1
    assert "sha256 is 393c16d5" in result.output
    assert "places.Peru = 'Peruvian Centrl': no territory of that name (close: Peruvian Central)" in result.output
    assert "places.Far Away = 'Eire' has no reason in [place_reasons]" in result.output


def test_rule_names_cover_every_unit_word_of_the_aa50_ruleset() -> None:
    names = rule_names(load_named_ruleset("kremlin-aa50"))
    assert {"infantry", "artillery", "tank", "fighter", "bomber", "transport", "submarine", "destroyer", "cruiser", "carrier", "battleship", "factory"} <= set(
        names.units
    )
    assert "China" in names.powers and "Venezuela" in names.places


@pytest.mark.slow
def test_the_guides_example_ruleset_loads_and_every_option_applies(tmp_path: Path) -> None:
    from kremlin_triplea.tools.matrix import run_matrix
    from kremlin_triplea.tools.matrix_report import APPLIED

    guide = (REPO / "docs" / "maps-and-rulesets.md").read_text()
    example = re.search(r'```toml\n(id = "tiny-kremlin".*?)```', guide, re.S)
    assert example is not None
    path = tmp_path / "tiny-kremlin.toml"
    path.write_text(example.group(1))
    ruleset = load_ruleset(path)
    report = run_matrix([ruleset], [AA50_1941], maps_dir=MAPS_DIR, samples=1)
    assert report.failed == []
    assert {row: c.status for (_, row, _), c in report.cells.items()} == {
        "1 Infantry": APPLIED,
        "2 Submarine or Destroyer": APPLIED,
        "3 Takeover": APPLIED,
        "bid (units)": APPLIED,
        "bid (negative)": APPLIED,
        "random drafts": APPLIED,
    }


@pytest.mark.parametrize("name", ["Smalls_1939.xml", "Tutorial.xml"])
def test_a_corpus_map_without_a_profile_is_refused_by_the_matrix_as_apply_refuses_it(name: str) -> None:
    """Issue 28: the matrix plays what apply plays. Apply refuses a game no map profile is written for, so every row
    is not applicable for that reason, naming the `profile new` command that starts one (no rules derived from the map)."""
    from kremlin_triplea.tools.matrix import run_matrix
    from kremlin_triplea.tools.matrix_report import NOT_APPLICABLE

    report = run_matrix([load_named_ruleset("kremlin-aa50")], [CORPUS_DIR / name], maps_dir=MAPS_DIR, samples=0, include_covered=False)
    cells = {row: c for (_, row, game), c in report.cells.items() if game == name}
    assert {"1 Infantry Placement", "10 Takeover of enemy held territory", "random drafts"} <= set(cells)
    assert {c.status for c in cells.values()} == {NOT_APPLICABLE}
    assert all(c.reasons[0].startswith("apply refuses this game: ") and "start one with: kremlin-triplea" in c.reasons[0] for c in cells.values())


# -- issue 28 item 3: each power's own unit types -----------------------------------------
# Total World War gives every power its own unit types. Expectations are read from the game file itself
# (its unitAttachments, productionFrontiers, playerProductions and unitPlacements), here with lxml directly.

TWW = REPO / "tests" / "data" / "total_world_war" / "Total_World_War_Dec1941_3.0.xml"


@functools.cache
def _tww_facts() -> tuple[dict[str, dict[str, str]], dict[str, set[str]]]:
    """Each unit type's unitAttachment options, and each player's units: its frontier's and its set-up's (read once:
    the tests only read them)."""
    from lxml import etree

    root = etree.parse(str(TWW)).getroot()
    options = {
        a.get("attachTo"): {o.get("name"): o.get("value") for o in a.iter("option")} for a in root.iter("attachment") if a.get("name") == "unitAttachment"
    }
    return options, units_players_can_have(TWW)


@pytest.fixture(scope="module")
def tww_profile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`profile new` of Total World War for kremlin-aa50, written once for the tests that read it: none changes it
    (a test's variants of it are files of their own beside it, so the game's key, relative to the folder, holds)."""
    written = tmp_path_factory.mktemp("tww") / "tww.toml"
    result = CliRunner().invoke(main, ["profile", "new", str(TWW), "--ruleset", "kremlin-aa50", "-o", str(written)])
    assert result.exit_code == 0, result.output
    return written


def _true(options: dict[str, str], name: str) -> bool:
    return options.get(name, "").lower() == "true"


@pytest.mark.slow
def test_each_power_gets_a_unit_of_the_words_role_that_it_can_have(tww_profile: Path) -> None:
    """The issue's case: armor, AA gun, bomber and battleship were another power's for everyone."""
    options, has = _tww_facts()
    out = tww_profile
    data = tomllib.loads(out.read_text())
    general, own = data["units"], data["units_by_power"]
    for player in ("Germany", "Russia", "Japan", "Britain", "Italy", "Usa"):
        units = {**general, **own.get(player, {})}
        for word in ("armor", "aa gun", "bomber", "battleship", "infantry", "transport", "submarine"):
            assert units[word] in has[player], (player, word, units[word])
        assert _true(options[units["armor"]], "canBlitz")
        assert _true(options[units["battleship"]], "isSea") and int(options[units["battleship"]].get("hitPoints", "1")) >= 2
        bomber = options[units["bomber"]]
        # A rocket (movement 0, isSuicide) is not a bomber, nor is a tactical bomber that scrambles.
        assert _true(bomber, "isStrategicBomber") and int(bomber["movement"]) > 0 and not _true(bomber, "isSuicide") and not _true(bomber, "canScramble")
        aa = options[units["aa gun"]]
        assert "AntiAir" in aa.get("typeAA", "")  # the AntiTankGun fires its "AA" shots at tanks
    assert own["Germany"]["armor"] != own["Usa"].get("armor", general["armor"])


def test_a_flagpole_nobody_can_buy_or_build_is_not_a_factory() -> None:
    # The Flagpole can produce units, but no production rule sells it and constructionsPerTerrPerTypePerTurn is 0.
    options, has = _tww_facts()
    assert _true(options["Flagpole"], "canProduceUnits") and options["Flagpole"]["constructionsPerTerrPerTypePerTurn"] == "0"
    match = match_unit_word("factory", load(TWW))
    assert match.unit is None and "buy or build" in match.reason


def test_names_give_a_power_its_own_unit(tww_profile: Path) -> None:
    from kremlin_triplea.rules.names import Names
    from kremlin_triplea.rules.profile import load_profile

    options, has = _tww_facts()
    game = load(TWW)
    sides = tuple(game.board.catalog.alliances())
    written = tww_profile
    names = Names(game.board, load_profile(written), sides)
    for player in ("Germany", "Usa", "Japan"):
        battleship = names.unit("battleship", power=player)
        assert battleship in has[player] and int(options[battleship].get("hitPoints", "1")) >= 2
    assert names.unit("battleship", power="Germany") != names.unit("battleship", power="Usa")
    assert names.unit("battleship") == tomllib.loads(written.read_text())["units"]["battleship"]  # no power: as before


def test_profile_check_refuses_a_unit_of_the_wrong_role_or_another_powers(tww_profile: Path) -> None:
    written = tww_profile
    assert check_profile(written) == []
    text = written.read_text()
    single = written.with_name("refused-single.toml")
    single.write_text(re.sub(r"\n\[units_by_power\.[^\n]*\n(?:[^\n\[]*\n)*", "\n", text))
    problems = "\n".join(check_profile(single))
    assert "units.battleship" in problems and '[units_by_power."Germany"]' in problems
    wrong = written.with_name("refused-wrong.toml")
    data = tomllib.loads(text)
    rocket = "germanRocket"  # movement 0, isSuicide: the game's V-weapon
    american = data["units"]["bomber"]  # the bomber for every power: the Americans'
    assert american not in _tww_facts()[1]["Germany"]
    text = re.sub(r'(?m)^("bomber" = )"[^"]*"', rf'\1"{rocket}"', text, count=1)  # [units] comes first
    text = text.replace('[units_by_power."Germany"]', f'[units_by_power."Germany"]\n"bomber" = "{american}"', 1)
    text = re.sub(r'(?m)^"bomber" = "germanStrategicBomber".*\n', "", text)
    wrong.write_text(text)
    problems = check_profile(wrong)
    assert any(p.endswith(f"units.bomber = '{rocket}': {rocket} does not play the bomber role: it is not {ROLES['bomber'].described}") for p in problems), (
        problems
    )
    assert any(f"units_by_power.Germany.bomber = '{american}': Germany cannot have {american}" in p for p in problems), problems


def test_a_rule_placing_units_for_a_power_places_its_own(tww_profile: Path, tmp_path: Path) -> None:
    """A house rule's place_units (house-classic's "Non-purged Armor": units = { tank = 3 }) on a map whose
    powers have their own types: the Germans get a tank they can have, not the one [units] gives every power."""
    from kremlin_triplea.gamerules.actions import game_rule_changes
    from kremlin_triplea.model.changes import PlaceUnits
    from kremlin_triplea.rules.house_rules import load_house_set
    from kremlin_triplea.rules.names import Names
    from kremlin_triplea.rules.profile import load_profile

    options, has = _tww_facts()
    written = tww_profile
    rules = tmp_path / "panzers.toml"
    rules.write_text(
        'id = "panzers"\ntitle = "Panzers"\nsource = "a test"\nmaps = ["total_world_war"]\n\n'
        '[[rule]]\nid = "panzers"\ntitle = "Panzers"\nsource = "a test"\nrule = "Germany gains 2 armor in Austria."\n'
        'enforced_by = "game"\n[[rule.change]]\nkind = "place_units"\npower = "Germany"\nunits = { armor = 2 }\nat = "Austria"\n'
    )
    game = load(TWW)
    profile = load_profile(written)
    names = Names(game.board, profile, tuple(game.board.catalog.alliances()))
    applied = game_rule_changes(game.board, [load_house_set(rules).rules], profile, names)
    (placed,) = applied.changes
    assert isinstance(placed, PlaceUnits) and placed.owner == "Germany" and placed.count == 2
    assert placed.unit_type in has["Germany"] and _true(options[placed.unit_type], "canBlitz")
    assert placed.unit_type != profile.units["armor"]


# -- issue 28 item 5: the command lines the docs and the tool recommend use flags --help shows ----------------


def _recommended_command_lines() -> list[tuple[str, str]]:
    """Every ``kremlin-triplea ...`` line in the docs, the README and the package's own messages."""
    files = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md")), *sorted((REPO / "src").rglob("*.py"))]
    found = []
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            for match in re.finditer(r"kremlin-triplea((?: +[^ `\"'#]+)+)", line):
                found.append((f"{path.relative_to(REPO)}: {line.strip()}", match.group(1)))
    return found


def _visible_flags(command) -> set[str]:
    return {opt for param in command.params if not getattr(param, "hidden", False) for opt in (*param.opts, *param.secondary_opts)}


def test_every_flag_the_docs_and_messages_recommend_is_shown_by_help() -> None:
    """The issue's case: the docs and `profile new` recommended `matrix --only-given`, a flag --help hides."""
    import click

    checked = 0
    for where, words in _recommended_command_lines():
        tokens = words.split()
        command, flags = main, set(_visible_flags(main))
        for token in tokens:
            sub = command.get_command(click.Context(command), token) if isinstance(command, click.Group) else None
            if sub is not None:
                command = sub
                flags |= _visible_flags(command)
        if command is main:
            continue  # prose ("kremlin-triplea did not install it"), not a command line
        for token in tokens:
            flag = re.match(r"^\[?(--[a-z][a-z-]*)", token)
            if flag and flag.group(1) != "--help":
                assert flag.group(1) in flags, f"{where}: {flag.group(1)} is not an option --help shows for it"
                checked += 1
    assert checked > 20  # the scan finds the command lines it is about


# -- issue 28 item 5: alliances named otherwise --------------------------------------------


def test_a_side_the_game_names_otherwise_is_given_by_the_profile(tww_profile: Path) -> None:
    """Total World War's Axis is the alliances Axis-Germany, Axis-Italy and Axis-Japan: no alliance is "Axis"."""
    from lxml import etree

    from kremlin_triplea.draft.state import DraftState
    from kremlin_triplea.rules.names import Names
    from kremlin_triplea.rules.profile import fit_ruleset, load_profile

    root = etree.parse(str(TWW)).getroot()
    in_alliance: dict[str, set[str]] = {}
    for entry in root.iter("alliance"):
        in_alliance.setdefault(entry.get("alliance"), set()).add(entry.get("player"))
    assert "Axis" not in in_alliance and "Allies" not in in_alliance
    axis = in_alliance["Axis-Germany"] | in_alliance["Axis-Italy"] | in_alliance["Axis-Japan"]
    written = tww_profile
    profile = load_profile(written)
    assert sorted(profile.sides["Axis"]) == ["Axis-Germany", "Axis-Italy", "Axis-Japan"]
    game = load(TWW)
    ruleset, _ = fit_ruleset(load_named_ruleset("kremlin-aa50"), profile)  # as the matrix does: what the map lacks left out
    state = DraftState(game.board, ruleset, profile, Names(game.board, profile, ruleset.sides))
    assert set(state.side_powers["Axis"]) == axis
    assert "Germany" in state.side_powers["Axis"] and "Usa" in state.side_powers["Allies"]
    # Without [sides] the check says which side the game does not have.
    bare = written.with_name("side-bare.toml")
    bare.write_text(re.sub(r'(?m)^"(Axis|Allies)" = \[.*\n', "", written.read_text()))
    problems = check_profile(bare)
    assert any("names the side 'Axis': the game has no alliance of that name, and [sides] does not say which" in p for p in problems), problems
    assert check_profile(written) == []


# -- issue 28 item 5: owners as TripleA reads them --------------------------------------------
# TripleA's null player is named "Neutral" (Constants.PLAYER_NAME_NEUTRAL); PlayerList.getPlayerId returns it for
# that name in 1.9 and 2.7, and 2.7's GameParser.parseUnitPlacement gives a blank owner to it too.


def _with_null_player_owners(tmp_path: Path) -> Path:
    """WW2v3 1941 with the unowned Spain written as owned by "Neutral", and units of "Neutral" and of a blank owner."""
    text = AA50_1941.read_text(encoding="utf-8")
    text = text.replace("</ownerInitialize>", '    <territoryOwner territory="Spain" owner="Neutral"/>\n        </ownerInitialize>', 1)
    text = text.replace(
        "</unitInitialize>",
        '    <unitPlacement unitType="infantry" territory="Spain" quantity="2" owner="Neutral"/>\n'
        '            <unitPlacement unitType="infantry" territory="Sahara" quantity="1" owner=" "/>\n        </unitInitialize>',
        1,
    )
    path = tmp_path / "WW2v3-1941-neutral.xml"
    path.write_text(text, encoding="utf-8")
    return path


def test_owners_named_as_the_null_player_are_read_as_no_owner_and_written_back_so(tmp_path: Path) -> None:
    path = _with_null_player_owners(tmp_path)
    game = load(path)
    board = game.board
    assert board.unknown_names() == []  # was: "Spain is owned by 'Neutral', which is not a player of the game"
    assert board.node("Spain")["owner"] is None and board.node("Spain")["original_owner"] is None
    assert board.units("Spain")[(None, "infantry")] == 2
    assert board.units("Sahara")[(None, "infantry")] == 1
    # The writer finds those units under the same owner: taking one away changes that placement, adds none.
    game.xml.set_unit_count("Spain", None, "infantry", 1)
    placements = [e for e in game.xml.unit_placements() if e.get("territory") == "Spain"]
    assert [(e.get("owner"), e.get("quantity")) for e in placements] == [("Neutral", "1")]


@pytest.mark.engine
@pytest.mark.slow
def test_both_engines_read_null_player_owners_as_we_do(tmp_path: Path) -> None:
    from kremlin_triplea.engine import read_with_engine
    from kremlin_triplea.engine.compare import disagreements
    from kremlin_triplea.engine.savegame import read_with_triplea2
    from support.paths import SHARED

    path = _with_null_player_owners(tmp_path)
    board = load(path).board
    (new,) = read_with_triplea2([path], triplea=SHARED / "triplea-engine-2.7")
    (old,) = read_with_engine([path])
    assert new.error is None and old.ok, (new.error, old.error)
    assert [str(d) for d in disagreements(board, new, properties=False)] == []
    assert [str(d) for d in disagreements(board, old, properties=False)] == []


# -- issue 28 item 5: stray text where TripleA's DTD allows none ----------------------------------


def test_stray_text_the_engine_ignores_is_no_dtd_error_before_or_after_an_edit(tmp_path: Path) -> None:
    """The issue's case: text inside <unitInitialize> made every written game fail validation (the DTD's
    message lists the element's children, so it changed with each unit placed)."""
    from kremlin_triplea.check.validate import added_problems, validate_tree
    from kremlin_triplea.gamefile.document import XmlDocument
    from kremlin_triplea.model.changes import PlaceUnits

    text = AA50_1941.read_text(encoding="utf-8").replace("<unitInitialize>", "<unitInitialize>\n   stray words\n", 1)
    path = tmp_path / "WW2v3-1941.xml"
    path.write_text(text, encoding="utf-8")
    dtd = CORPUS_DIR / "game.dtd"
    before = validate_tree(XmlDocument.read(path).root, str(path), dtd=dtd)
    assert [p for p in before if "game.dtd" in p.message] == []
    game = load(path)
    game.board.push(PlaceUnits("Germany", "Germans", "infantry", 1))
    written = tmp_path / "written.xml"
    written.write_bytes(game.to_bytes())
    after = validate_tree(XmlDocument.read(written).root, str(written), dtd=dtd)
    assert added_problems(before, after) == []
    # A real DTD error next to the stray text is still reported, at its line.
    broken = tmp_path / "broken.xml"
    broken.write_text(text.replace("<unitInitialize>", "<unitInitialize><bogus/>", 1), encoding="utf-8")
    problems = [p for p in validate_tree(XmlDocument.read(broken).root, str(broken), dtd=dtd) if "game.dtd" in p.message]
    assert problems and all("bogus" in p.message for p in problems), problems


def test_a_factory_that_fires_only_at_its_own_bombers_is_not_an_aa_gun() -> None:
    # World War II Global's factories carry isAAforBombingThisUnitOnly (they shoot at the bombers raiding them);
    # its aaGun fires in combat (isAAforCombatOnly).
    from lxml import etree

    path = CORPUS_DIR / "G40CanadianMod.xml"
    root = etree.parse(str(path)).getroot()
    options = {
        a.get("attachTo"): {o.get("name"): o.get("value") for o in a.iter("option")} for a in root.iter("attachment") if a.get("name") == "unitAttachment"
    }
    assert _true(options["factory_minor"], "isFactory") and _true(options["factory_minor"], "isAAforBombingThisUnitOnly")
    assert _true(options["aaGun"], "isAAforCombatOnly")
    match = match_unit_word("aa gun", load(path))
    assert match.unit == "aaGun" and "factory_minor" not in match.candidates and "factory_major" not in match.candidates


@pytest.mark.slow
def test_the_matrix_takes_a_side_as_the_profile_s_sides_name_it(tww_profile: Path) -> None:
    """Issue 28 item 5: with [sides], Total World War's "Axis-Germany", "Axis-Italy" and "Axis-Japan" are the Axis in
    the matrix as in a draft (the matrix still reported every option n/a: "the game has no alliance Axis")."""
    from kremlin_triplea.rules.profile import load_profile
    from kremlin_triplea.tools.matrix import run_matrix

    written = tww_profile
    report = run_matrix(
        [load_named_ruleset("kremlin-aa50")], [TWW], maps_dir=MAPS_DIR, samples=0, include_covered=False, given_profiles=[load_profile(written)], list_only=True
    )
    reasons = [r for c in report.cells.values() for r in c.reasons]
    assert not [r for r in reasons if "has no alliance" in r], reasons[:3]


@pytest.mark.slow
def test_the_matrix_takes_the_sides_of_the_profile_apply_finds(tmp_path: Path) -> None:
    """The same with no profile given: the matrix reads the game with the profile apply finds (``profiles/<map>.toml``
    beside the maps folder, where `profile new` is told to write it), [sides] included (it used [sides] only from a
    profile given to it, and called every option n/a while apply played the draft)."""
    from kremlin_triplea.tools.matrix import run_matrix

    maps = tmp_path / "maps"
    game = maps / "total_world_war" / "map" / "games" / TWW.name
    game.parent.mkdir(parents=True)
    game.write_bytes(TWW.read_bytes())
    written = tmp_path / "profiles" / "total_world_war.toml"
    written.parent.mkdir()
    result = CliRunner().invoke(main, ["profile", "new", str(game), "--ruleset", "kremlin-aa50", "-o", str(written)])
    assert result.exit_code == 0, result.output
    report = run_matrix([load_named_ruleset("kremlin-aa50")], [game], maps_dir=maps, samples=0, include_covered=False, list_only=True)
    reasons = [r for c in report.cells.values() for r in c.reasons]
    assert not [r for r in reasons if "has no alliance" in r], reasons[:3]
    assert any(c.applied for c in report.cells.values())


@pytest.mark.slow
def test_every_placement_a_draft_offers_on_total_world_war_is_a_unit_its_power_can_have(tww_profile: Path) -> None:
    """Issue 28 item 3 for the placement options (000 options 1, 2, 4, 5, 6, 7): each entry of every legal placement
    pick for a power with its own unit types is one it can have (its frontier or its set-up, read from the game
    file), never another power's (a German armor was the shared table's tank)."""
    from kremlin_triplea.draft.kinds.placement import Placements
    from kremlin_triplea.draft.picks import UnitPlacement
    from kremlin_triplea.draft.run import draft_from_dict
    from kremlin_triplea.rules.profile import fit_ruleset, load_profile
    from kremlin_triplea.session import Session

    _, has = _tww_facts()
    written = tww_profile
    profile = load_profile(written)
    ruleset, _ = fit_ruleset(load_named_ruleset("kremlin-aa50"), profile)
    for first in ("Axis", "Allies"):
        run = Session(draft_from_dict({"ruleset": ruleset.id, "first": first}), load(TWW), ruleset=ruleset, profile=profile)
        placed = [entry for pick in run.legal_picks if isinstance(pick.target, Placements) for entry in pick.target.units if isinstance(entry, UnitPlacement)]
        assert placed, first
        # The powers the profile gives their own units (a stand-in player such as DanubeAxis, with none of its own,
        # still falls back to the shared table: profile check names that, see the issue 28 note).
        own = set(tomllib.loads(written.read_text(encoding="utf-8")).get("units_by_power", {}))
        assert {"Germany", "Britain", "Japan"} <= own
        wrong = sorted({(e.power, e.unit) for e in placed if e.power in own and e.unit not in has[e.power]})
        assert wrong == [], wrong[:10]

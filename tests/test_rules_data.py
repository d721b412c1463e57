"""The ruleset and the map profile: well-formed, checked against the seed's numbers and the real game files."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kremlin_triplea.draft.rulesets import load_named_ruleset, load_ruleset
from kremlin_triplea.errors import UnknownNameError
from kremlin_triplea.game import load
from kremlin_triplea.model.queries import sea_neighbours
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.profile import load_named_profile
from kremlin_triplea.rules.tomlfile import DataFileError
from support.aa50 import GAMES, SEED, fresh_game
from support.lines import last_line_of

RULESET = load_named_ruleset("kremlin-aa50")
PROFILE = load_named_profile("world_war_ii_v3")
REPO = Path(__file__).resolve().parents[1]
BOTH = pytest.mark.parametrize("year", sorted(GAMES))


def test_options_one_to_eleven_each_cite_their_place_in_the_seed() -> None:
    assert [o.number for o in RULESET.options] == list(range(1, 12))
    for option in RULESET.options:
        assert option.source == f"{SEED}, option {option.number}"


def test_neutral_table_matches_the_seed() -> None:
    # 000_bc04a4edf7f7d2ab.txt, option 3
    table = {n.name: (n.ipc, dict(n.army)) for n in RULESET.neutrals.values()}
    assert table == {
        "Spain": (3, {"infantry": 3, "artillery": 1}),
        "Sweden": (3, {"infantry": 2, "artillery": 1, "destroyer": 1}),
        "Turkey": (3, {"infantry": 2, "artillery": 1, "destroyer": 1}),
        "Saudi Arabia": (3, {"infantry": 1}),
        "Venezuela": (2, {"infantry": 1, "destroyer": 1}),
        "Switzerland": (2, {"infantry": 1, "fighter": 1}),
        "Argentina": (2, {"infantry": 2, "transport": 1, "cruiser": 1}),
        "Mongolia": (2, {"infantry": 1, "armor": 1}),
        "Peru": (1, {"infantry": 1, "submarine": 1}),
        "South Eire": (1, {"infantry": 2}),
        "Afghanistan": (1, {"infantry": 1}),
        "Angola": (1, {"infantry": 1}),
        "Mozambique": (1, {"infantry": 1}),
    }


def test_pick_counts_and_china() -> None:
    assert (RULESET.picks.default, RULESET.picks.min, RULESET.picks.max) == (4, 4, 11)
    china = RULESET.restrictions["China"]
    assert china.options == {1, 2, 3, 6, 7, 10} and china.neutrals == ("Mongolia",)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("max = 11", 'max = "eleven"'), "picks.max: expected a whole number, got 'eleven'"),
        (
            ('kind = "territory_takeover"', 'kind = "coup"'),
            "option[9].kind: expected one of neutral_takeover, placement, scenario, territory_takeover, got 'coup'",
        ),
        (
            (
                'unit_sets = [["infantry", "infantry", "infantry"]]\nat = ["own_territory"]',
                'unit_sets = [["infantry", "infantry", "infantry"]]\nat = ["own_teritory"]',
            ),
            "option[0].at: expected places among own_territory",
        ),
        (
            (
                'unit_sets = [["infantry", "infantry", "infantry"]]\nat = ["own_territory"]',
                'unit_sets = [["infantry", "infantry", "infantry"]]\nat = []',
            ),
            "option[0].at: expected at least one place among own_territory",  # an option placing nowhere cannot be picked
        ),
        (
            ("ipc = 3\narmy = { infantry = 3, artillery = 1 }", "ipc = 3\narmy = { infantry = -3 }"),
            "neutral[0].army: expected a table of unit = positive whole number",
        ),
        (("options = [1, 2, 3, 6, 7, 10]", "options = [1, 2, 12]"), "restriction[0].options: expected option numbers of this ruleset"),
        (("[bid]\n", '[bid]\ncolour = "red"\n'), "unknown key"),
    ],
)
def test_malformed_ruleset_names_file_key_and_expectation(tmp_path: Path, edit: tuple[str, str], message: str) -> None:
    text = (REPO / "rulesets" / "kremlin-aa50.toml").read_text()
    assert edit[0] in text
    broken = tmp_path / "broken.toml"
    edited = text.replace(edit[0], edit[1], 1)
    broken.write_text(edited)
    with pytest.raises(DataFileError) as error:
        load_ruleset(broken)
    # A map maker finds the mistake by its line: the line the edit changed.
    changed = last_line_of(edited, edit[1])
    assert str(error.value).startswith(f"{broken}:{changed}: ")
    assert message in str(error.value)


def test_invalid_toml_is_reported_with_the_file(tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text("id = \n")
    with pytest.raises(DataFileError, match="not valid TOML"):
        load_ruleset(broken)


# -- the map profile against the game files -------------------------------------


@BOTH
def test_profile_pins_the_base_files(year: str) -> None:
    assert PROFILE.check_base_file(fresh_game(GAMES[year])) == []


def test_profile_warns_when_the_installed_file_differs(tmp_path: Path) -> None:
    copy = tmp_path / "WW2v3-1941.xml"
    copy.write_bytes(GAMES["1941"].read_bytes().replace(b"<info name=", b"<!-- edited -->\n  <info name=", 1))
    warnings = PROFILE.check_base_file(load(copy))
    assert len(warnings) == 1 and "differs from the WW2v3-1941.xml the map profile" in warnings[0]


@BOTH
def test_every_rule_name_in_the_profile_names_something_in_the_game(year: str) -> None:
    board = fresh_game(GAMES[year]).board
    assert set(PROFILE.powers.values()) <= set(board.catalog.players)
    assert set(PROFILE.units.values()) <= set(board.catalog.unit_types)
    assert set(PROFILE.places.values()) <= set(board.graph.nodes)
    for rule_name in PROFILE.places:
        assert rule_name in PROFILE.place_reasons, f"{rule_name}: every alias carries a reason"


@BOTH
def test_every_neutral_of_the_ruleset_is_an_impassable_territory(year: str) -> None:
    board = fresh_game(GAMES[year]).board
    names = Names(board, PROFILE, RULESET.sides)
    for neutral in RULESET.neutrals.values():
        node = board.node(names.territory(neutral.name))
        assert node["impassable"] and node["production"] == 0 and not node["units"]
        # Only Saudi Arabia has an owner, and the profile explains it.
        assert node["owner"] is None or (neutral.name, node["owner"]) == ("Saudi Arabia", "British")
    assert "saudi_arabia" in PROFILE.special_reasons


@BOTH
def test_neutral_coasts_are_the_sea_zones_each_neutral_borders(year: str) -> None:
    board = fresh_game(GAMES[year]).board
    names = Names(board, PROFILE, RULESET.sides)
    for neutral in RULESET.neutrals.values():
        territory = names.territory(neutral.name)
        has_navy = any(board.catalog.unit_type(names.unit(u)).is_ship for u, _ in neutral.army)
        if has_navy:
            assert tuple(sea_neighbours(board, territory)) == PROFILE.neutral_coasts[neutral.name]
        else:
            assert neutral.name not in PROFILE.neutral_coasts


@BOTH
def test_capital_marker_and_its_refuge(year: str) -> None:
    board = fresh_game(GAMES[year]).board
    marker = PROFILE.capital_marker
    assert marker is not None
    assert board.node(marker.at)["capital"] == marker.power
    refuge = board.node(marker.refuge)
    assert refuge["owner"] is None and refuge["impassable"] and refuge["capital"] is None
    assert marker.refuge not in {Names(board, PROFILE, RULESET.sides).territory(n.name) for n in RULESET.neutrals.values()}


@BOTH
def test_chinese_may_enter_list_is_the_games_own(year: str) -> None:
    game = fresh_game(GAMES[year])
    attachment = next(game.xml.attachments(kind="player", attach_to="Chinese", name="rulesAttachment"))
    listed = next(o.get("value") for o in attachment.iterchildren("option") if o.get("name") == "movementRestrictionTerritories")
    assert tuple(listed.split(":")) == PROFILE.powers_may_enter["Chinese"]


@BOTH
def test_factory_output_is_enforced_by_the_game(year: str) -> None:
    # WW2V3 rules: a factory produces up to its territory's production, which the profile relies on.
    board = fresh_game(GAMES[year]).board
    assert board.properties["WW2V3"] == "true"
    assert PROFILE.factory_output_enforced_by_game


# -- names ---------------------------------------------------------------------


@BOTH
def test_names_either_way_any_case(year: str) -> None:
    names = Names(fresh_game(GAMES[year]).board, PROFILE, RULESET.sides)
    assert names.power("uk") == names.power("British") == "British"
    assert names.power("USSR") == "Russians"
    assert names.unit("Armor") == names.unit("tank") == names.unit("armour") == "armour"
    assert names.unit("AA gun") == "aaGun"
    assert names.territory("venezuela") == "Northern South America"
    assert names.territory("South Eire") == "Eire"
    assert names.territory("Argentina") == "Argentina Chile"
    assert names.territory("Peru") == "Peruvian Central"
    assert names.sea_zone("Seazone 12") == names.sea_zone("sz 12") == names.sea_zone("12 sea zone") == "12 Sea Zone"
    assert names.place("Seazone 35(Bay of Bengal)") == "35 Sea Zone"
    assert names.side("axis") == "Axis"


def test_unknown_name_lists_close_matches_and_accepted_names() -> None:
    names = Names(fresh_game(GAMES["1941"]).board, PROFILE, RULESET.sides)
    with pytest.raises(UnknownNameError) as error:
        names.territory("Archangl")
    assert "did you mean 'Archangel'" in str(error.value)
    with pytest.raises(UnknownNameError) as error:
        names.power("Frenchmen")
    assert "known:" in str(error.value) and "British" in str(error.value) and "UK" in str(error.value)


def test_ruleset_and_profile_are_found_without_the_repository(tmp_path: Path) -> None:
    from kremlin_triplea.rules import ruleset as ruleset_module

    folders = ruleset_module.data_folders("rulesets")
    assert folders and any((f / "kremlin-aa50.toml").is_file() for f in folders)
    shutil.copy(REPO / "rulesets" / "kremlin-aa50.toml", tmp_path / "mine.toml")
    assert load_ruleset(tmp_path / "mine.toml").id == "kremlin-aa50"


def test_every_quoted_rule_is_the_seeds_own_words() -> None:
    """Each quote (fragments joined by " ... ") appears word for word in the seed."""
    seed = " ".join((Path(__file__).resolve().parents[2] / "shared" / "seeds" / SEED).read_text().split())
    quoted = [o.rule for o in RULESET.options] + [q for o in RULESET.options for q in o.quotes.values()]
    quoted += [r.rule for r in RULESET.restrictions.values()] + [r.may_also_enter_rule for r in RULESET.restrictions.values()]
    bid, picks = RULESET.bid, RULESET.picks
    quoted += [bid.rule, bid.placement_rule, bid.amount_rule, bid.negative_rule, picks.rule, picks.alternate_rule, picks.no_repeat_rule, RULESET.locks.rule]
    quoted += [s.rule for s in RULESET.scenarios] + [v.rule for s in RULESET.scenarios for v in s.variants]
    for text in quoted:
        for fragment in " ".join(text.split()).split(" ... "):
            assert fragment in seed, fragment


def test_a_game_without_a_map_profile_is_refused_by_name() -> None:
    from kremlin_triplea.rules.profile import profile_for_game
    from support.paths import PINNED_GAMES

    other = next(p for p in PINNED_GAMES if "world_war_ii_v3" not in str(p))
    with pytest.raises(UnknownNameError, match="unknown map profile") as error:
        profile_for_game(load(other))
    assert "world_war_ii_v3" in str(error.value)


def test_a_house_rule_set_named_as_a_ruleset_is_refused_with_where_it_belongs() -> None:
    """One place decides the kind of a rule file (rules/datafiles.rule_file_kind): a Kremlin ruleset has bonus options."""
    from kremlin_triplea.draft.rulesets import load_named_ruleset
    from kremlin_triplea.errors import KremlinError
    from kremlin_triplea.rules.datafiles import named_rule_files
    from kremlin_triplea.rules.tomlfile import read_toml

    # Derived from the shipped files (a Kremlin ruleset has [[option]] tables), so adding a ruleset keeps this true.
    shipped = {path.stem: "option" in read_toml(path) for path in (Path(__file__).resolve().parents[1] / "rulesets").glob("*.toml")}
    assert set(named_rule_files("ruleset")) == {name for name, has_options in shipped.items() if has_options}
    assert set(named_rule_files("house")) == {name for name, has_options in shipped.items() if not has_options}
    assert "house-revised" in named_rule_files("house")
    with pytest.raises(KremlinError, match=r'house-revised is a house-rule set.*house_rules = \["house-revised"\]'):
        load_named_ruleset("house-revised")

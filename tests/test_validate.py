"""validate: what makes TripleA fail or silently misread a game file.

Each check is shown on a copy of the real WW2v3-1942.xml with one small text
edit, which must produce exactly the expected problem at the right line.
"""

from __future__ import annotations

import copy
import functools
import re
import shutil
import zipfile
from pathlib import Path

import pytest
import tomllib
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from kremlin_triplea.check import dtd as game_dtd
from kremlin_triplea.check import validate
from kremlin_triplea.check.dtd import find_dtd
from kremlin_triplea.check.incremental import Validator
from kremlin_triplea.check.javaread import java_int
from kremlin_triplea.check.validate import Problem, validate_tree
from kremlin_triplea.errors import InputError
from kremlin_triplea.gamefile.installation import find_installation
from support.lines import line_of
from support.paths import AA50_1942, ALL_GAMES, CORPUS_DIR, MAPS_DIR, PINNED_GAMES, QUICK_CORPUS, each_game, game_id
from support.properties import examples

CORPUS_DTD = CORPUS_DIR / "game.dtd"
TEXT = AA50_1942.read_text(encoding="utf-8")
REFUSES = "TripleA refuses to load the game"


def parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, strip_cdata=False)


def parse(path: Path) -> etree._Element:
    return etree.parse(str(path), parser()).getroot()


@pytest.fixture(scope="module")
def dtd(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The installed TripleA's DTD (cached in a temporary folder), else the corpus copy."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        patch.delenv(game_dtd.DTD_VARIABLE, raising=False)
        return find_dtd() or CORPUS_DTD


def mutate(tmp_path: Path, old: str, new: str) -> tuple[Path, str]:
    """A copy of WW2v3-1942.xml with the first ``old`` replaced by ``new``."""
    assert old in TEXT, old
    text = TEXT.replace(old, new, 1)
    path = tmp_path / "WW2v3-1942.xml"
    path.write_text(text, encoding="utf-8")
    return path, text


def problems_after(tmp_path: Path, dtd: Path, old: str, new: str) -> tuple[list[tuple[int | None, str]], str]:
    path, text = mutate(tmp_path, old, new)
    return [(p.line, p.message) for p in validate_tree(parse(path), path.name, dtd=dtd)], text


# --------------------------------------------------------------------------
# Real games
# --------------------------------------------------------------------------

CONGO = "duplicate connection 'Congo Sea Zone' - 'South Brazil Sea Zone' (first on line {})"

#: Real problems in the pinned games. The Classic map family connects South
#: Brazil Sea Zone and Congo Sea Zone twice, once each way round (harmless to
#: the engine, but redundant), and four_if_by_sea.xml repeats its four canal
#: attachments verbatim under a second "<!-- canals -->" comment.
KNOWN_PINNED = {
    "classic_variations/map/games/WorldWar3-1955.xml": [(200, CONGO.format(176))],
    "classic_variations/map/games/anzio.xml": [(205, CONGO.format(181))],
    "classic_variations/map/games/battleship_row.xml": [(201, CONGO.format(177))],
    "classic_variations/map/games/four_if_by_sea.xml": [(201, CONGO.format(177))]
    + [
        (line, f"duplicate attachment 'canalAttachment' on territory {zone!r} (first on line {first}); an exact copy; TripleA reads only one")
        for line, zone, first in [
            (989, "East Mediteranean Sea Zone", 972),
            (993, "Red Sea Zone", 976),
            (997, "Carribean Sea Zone", 980),
            (1001, "West Panama Sea Zone", 984),
        ]
    ],
    "classic_variations/map/games/gold.xml": [(204, CONGO.format(180))],
    **{
        f"classic_variations/map/games/{name}.xml": [(205, CONGO.format(181))]
        for name in [
            "iron_blitz_1939A",
            "iron_blitz_1939B",
            "iron_blitz_1939C",
            "iron_blitz_1942A",
            "iron_blitz_1945A",
            "iron_blitz_1945B",
            "iron_blitz_Cold_War",
            "kremlin",
            "omaha",
            "sword",
            "utah",
        ]
    },
    "classic_variations/map/games/iron_blitz_2nd_Edition.xml": [(204, CONGO.format(180))],
    "world_war_ii_classic/map/games/classic.xml": [(204, CONGO.format(180))],
    "world_war_ii_classic/map/games/classic_3rd_edition.xml": [(205, CONGO.format(181))],
    "world_war_ii_classic/map/games/iron_blitz.xml": [(205, CONGO.format(181))],
}


@pytest.mark.parametrize("path", PINNED_GAMES, ids=game_id)
def test_pinned_games_have_only_their_known_problems(path: Path, dtd: Path) -> None:
    key = path.relative_to(MAPS_DIR).as_posix()
    problems = validate_tree(parse(path), key, dtd=dtd)
    assert [(p.line, p.message) for p in problems] == KNOWN_PINNED.get(key, [])


def test_known_pinned_problems_name_real_games() -> None:
    assert set(KNOWN_PINNED) <= {p.relative_to(MAPS_DIR).as_posix() for p in PINNED_GAMES}


@functools.cache
def _real_game_verdict(path: Path, dtd: Path) -> list[Problem]:
    """A real game's problems for TripleA 2.x, worked out once: several tests read (never change) the same verdict."""
    return validate_tree(parse(path), path.name, dtd=dtd)


@pytest.mark.parametrize("path", each_game(ALL_GAMES))
def test_every_real_game_validates_without_crashing(path: Path, dtd: Path) -> None:
    problems = _real_game_verdict(path, dtd)
    assert isinstance(problems, list)
    assert all(isinstance(p, Problem) for p in problems)
    assert [p.line or 0 for p in problems] == sorted(p.line or 0 for p in problems)


ENGINE_1_9_UNREADABLE = set(tomllib.loads((Path(__file__).parent / "data" / "engine-1.9-unreadable.toml").read_text(encoding="utf-8"))["unreadable"])
LOADABLE_GAMES = [p for p in ALL_GAMES if not (p.parent == CORPUS_DIR and p.name in ENGINE_1_9_UNREADABLE)]


@pytest.mark.parametrize("path", each_game(ALL_GAMES))
def test_every_real_game_is_one_triplea_2_loads(path: Path, dtd: Path) -> None:
    # TripleA 2.7 parses every stock and corpus game (test_validate_engines asks it, and checks that what it
    # misreads is exactly what validate calls an error): validate refuses none of them.
    problems = _real_game_verdict(path, dtd)
    assert [p for p in validate.errors(problems) if p.message.endswith(REFUSES)] == []


@pytest.mark.parametrize("path", each_game(LOADABLE_GAMES))
def test_every_game_triplea_19_loads_has_no_19_refusal(path: Path, dtd: Path) -> None:
    # Every stock game, and every corpus game TripleA 1.9 reads (tests/data/engine-1.9-unreadable.toml lists
    # those it does not): judged for 1.9, nothing in it is a refusal.
    problems = validate_tree(parse(path), path.name, dtd=dtd, engine=validate.TRIPLEA_19)
    assert [p for p in validate.errors(problems) if p.message.endswith(REFUSES) or "1.9 cannot" in p.message] == []


@pytest.mark.parametrize("path", each_game([p for p in ALL_GAMES if p not in LOADABLE_GAMES]))
def test_a_game_triplea_19_refuses_is_not_a_2x_error_for_being_2x(path: Path, dtd: Path) -> None:
    # What 1.9 lacks is a note under the default judge, never an error.
    problems = _real_game_verdict(path, dtd)
    assert [p for p in validate.errors(problems) if "1.9" in p.message or "game.dtd" in p.message] == []


def test_the_loadable_games_include_every_stock_game_and_most_of_the_corpus() -> None:
    assert set(PINNED_GAMES) <= set(LOADABLE_GAMES)
    assert len(ENGINE_1_9_UNREADABLE) < len(LOADABLE_GAMES) - len(PINNED_GAMES)
    assert ENGINE_1_9_UNREADABLE <= {p.name for p in ALL_GAMES}


# --------------------------------------------------------------------------
# Unknown names
# --------------------------------------------------------------------------

UNKNOWN_NAME_CASES = {
    "connection territory": (
        '<connection t1="1 Sea Zone" t2="2 Sea Zone"/>',
        '<connection t1="1 Sea Zone" t2="2 Sea Zonne"/>',
        f"connection t2: unknown territory '2 Sea Zonne' (did you mean '2 Sea Zone'?); {REFUSES}",
    ),
    "territoryOwner territory": (
        '<territoryOwner territory="Germany" owner="Germans"/>',
        '<territoryOwner territory="Germanyy" owner="Germans"/>',
        f"territoryOwner territory: unknown territory 'Germanyy' (did you mean 'Germany'?); {REFUSES}",
    ),
    # The engine looks territory owners up strictly: unlike units, it refuses the game.
    "territoryOwner owner": (
        '<territoryOwner territory="Germany" owner="Germans"/>',
        '<territoryOwner territory="Germany" owner="Germanz"/>',
        f"territoryOwner owner: unknown player 'Germanz' (did you mean 'Germans'?); {REFUSES}",
    ),
    "unitPlacement territory": (
        '<unitPlacement unitType="submarine" territory="7 Sea Zone"',
        '<unitPlacement unitType="submarine" territory="77 Sea Zone"',
        f"unitPlacement territory: unknown territory '77 Sea Zone' (did you mean '7 Sea Zone'?); {REFUSES}",
    ),
    "unitPlacement unit type": (
        '<unitPlacement unitType="submarine" territory="7 Sea Zone"',
        '<unitPlacement unitType="submarin" territory="7 Sea Zone"',
        f"unitPlacement unitType: unknown unit type 'submarin' (did you mean 'submarine'?); {REFUSES}",
    ),
    "unitPlacement owner": (
        '<unitPlacement unitType="submarine" territory="7 Sea Zone" quantity="1" owner="Germans"/>',
        '<unitPlacement unitType="submarine" territory="7 Sea Zone" quantity="1" owner="Germanz"/>',
        "unitPlacement owner: unknown player 'Germanz' (did you mean 'Germans'?); TripleA silently makes these units neutral (owned by no player)",
    ),
    "production rule result": (
        '<result resourceOrUnit="infantry" quantity="1"/>',
        '<result resourceOrUnit="infantri" quantity="1"/>',
        f"result resourceOrUnit: unknown resource or unit type 'infantri' (did you mean 'infantry'?); {REFUSES}",
    ),
    "production rule cost": (
        '<cost resource="PUs" quantity="3"/>',
        '<cost resource="PU" quantity="3"/>',
        f"cost resource: unknown resource 'PU' (did you mean 'PUs'?); {REFUSES}",
    ),
    "frontier rule": (
        '<frontierRules name="buyInfantry"/>',
        '<frontierRules name="buyInfanty"/>',
        f"frontierRules name: unknown production rule 'buyInfanty' (did you mean 'buyInfantry'?); {REFUSES}",
    ),
    "playerProduction player": (
        '<playerProduction player="Germans" frontier="production"/>',
        '<playerProduction player="Germanz" frontier="production"/>',
        f"playerProduction player: unknown player 'Germanz' (did you mean 'Germans'?); {REFUSES}",
    ),
    "playerRepair player": (
        '<playerRepair player="Germans" frontier="repair"/>',
        '<playerRepair player="Germanz" frontier="repair"/>',
        f"playerRepair player: unknown player 'Germanz' (did you mean 'Germans'?); {REFUSES}",
    ),
    "alliance player": (
        '<alliance player="Germans" alliance="Axis"/>',
        '<alliance player="Germanz" alliance="Axis"/>',
        f"alliance player: unknown player 'Germanz' (did you mean 'Germans'?); {REFUSES}",
    ),
    "resourceGiven player": (
        '<resourceGiven player="Germans" resource="PUs" quantity="37"/>',
        '<resourceGiven player="Germanz" resource="PUs" quantity="37"/>',
        f"resourceGiven player: unknown player 'Germanz' (did you mean 'Germans'?); {REFUSES}",
    ),
    "resourceGiven resource": (
        '<resourceGiven player="Germans" resource="PUs" quantity="37"/>',
        '<resourceGiven player="Germans" resource="IPCs" quantity="37"/>',
        f"resourceGiven resource: unknown resource 'IPCs'; {REFUSES}",
    ),
    "step player": (
        '<step name="germanBid" delegate="bid" player="Germans"',
        '<step name="germanBid" delegate="bid" player="Germanz"',
        f"step player: unknown player 'Germanz' (did you mean 'Germans'?); {REFUSES}",
    ),
    "step delegate": (
        '<step name="germanBid" delegate="bid"',
        '<step name="germanBid" delegate="bidd"',
        f"step delegate: unknown delegate 'bidd' (did you mean 'bid'?); {REFUSES}",
    ),
    "attachment on a territory": (
        '<attachment name="canalAttachment" attachTo="15 Sea Zone"',
        '<attachment name="canalAttachment" attachTo="15 Sea Zon"',
        f"attachment 'canalAttachment' attachTo: unknown territory '15 Sea Zon' (did you mean '15 Sea Zone'?); {REFUSES}",
    ),
    "attachment on a player": (
        '<attachment name="objectiveAttachment1" attachTo="Germans"',
        '<attachment name="objectiveAttachment1" attachTo="Germanz"',
        f"attachment 'objectiveAttachment1' attachTo: unknown player 'Germanz' (did you mean 'Germans'?); {REFUSES}",
    ),
    "canal land territories": (
        '<option name="landTerritories" value="Egypt:Trans-Jordan"/>',
        '<option name="landTerritories" value="Egypt:Transjordan"/>',
        f"CanalAttachment option landTerritories: unknown territory 'Transjordan' (did you mean 'Trans-Jordan'?); {REFUSES}",
    ),
    "movement restriction territories": (
        '<option name="movementRestrictionTerritories" value="Chinghai:Ningxia:',
        '<option name="movementRestrictionTerritories" value="Chinghai:Ningxa:',
        f"RulesAttachment option movementRestrictionTerritories: unknown territory 'Ningxa' (did you mean 'Ningxia'?); {REFUSES}",
    ),
    # The count (count="6") reaches the engine as a leading "6:" and is not a territory.
    "objective territories": (
        'value="France:Northwestern Europe:Germany:Poland',
        'value="Frence:Northwestern Europe:Germany:Poland',
        f"RulesAttachment option alliedOwnershipTerritories: unknown territory 'Frence' (did you mean 'France'?); {REFUSES}",
    ),
    "capital": (
        '<option name="capital" value="Germans"/>',
        '<option name="capital" value="Germanz"/>',
        f"TerritoryAttachment option capital: unknown player 'Germanz' (did you mean 'Germans'?); {REFUSES}",
    ),
    "original owner": (
        '<option name="originalOwner" value="Russians"/>',
        '<option name="originalOwner" value="Soviets"/>',
        f"TerritoryAttachment option originalOwner: unknown player 'Soviets'; {REFUSES}",
    ),
    "bid property": (
        '<property name="Germans bid"',
        '<property name="Germanz bid"',
        "property 'Germanz bid': unknown player 'Germanz' (did you mean 'Germans'?); TripleA never uses this bid",
    ),
}


@pytest.mark.parametrize("old, new, message", UNKNOWN_NAME_CASES.values(), ids=UNKNOWN_NAME_CASES.keys())
def test_unknown_name(tmp_path: Path, dtd: Path, old: str, new: str, message: str) -> None:
    problems, text = problems_after(tmp_path, dtd, old, new)
    assert problems == [(line_of(text, new), message)]


def test_the_engines_neutral_player_is_a_known_player(tmp_path: Path) -> None:
    old = '<option name="originalOwner" value="Russians"/>'
    path, _ = mutate(tmp_path, old, old.replace("Russians", "Neutral"))
    assert validate_tree(parse(path), path.name, dtd=CORPUS_DTD) == []


def test_rule_keywords_end_a_territory_list(tmp_path: Path) -> None:
    # As in the engine, a keyword such as "controlled" ends the list of names.
    old = 'value="France:Northwestern Europe:Germany:Poland'
    path, _ = mutate(tmp_path, old, 'value="France:controlled:Nowhere:Germany:Poland')
    assert validate_tree(parse(path), path.name, dtd=CORPUS_DTD) == []


# --------------------------------------------------------------------------
# Duplicates
# --------------------------------------------------------------------------

GERMANY = '<territory name="Germany"/>'
BUY_INFANTRY = """<productionRule name="buyInfantry">
      <cost resource="PUs" quantity="3"/>
      <result resourceOrUnit="infantry" quantity="1"/>
    </productionRule>"""
SUEZ = """<attachment name="canalAttachment" attachTo="15 Sea Zone" \
javaClass="games.strategy.triplea.attachments.CanalAttachment" type="territory">
      <option name="canalName" value="Suez Canal"/>
      <option name="landTerritories" value="Egypt:Trans-Jordan"/>
    </attachment>"""
KEEPS_LAST = "TripleA silently keeps only the last one"


EXACT_COPY = "an exact copy; TripleA reads only one"


def doubled(element: str, copy: str | None = None) -> str:
    return f"{element}\n    {copy if copy is not None else element}"


DUPLICATE_CASES = {
    "territory": (GERMANY, doubled(GERMANY), 1, f"duplicate territory 'Germany' (first on line {{first}}); {REFUSES}"),
    "player": (
        '<player name="Germans" optional="false"/>',
        doubled('<player name="Germans" optional="false"/>', '<player name="Germans" optional="true"/>'),
        1,
        f"duplicate player 'Germans' (first on line {{first}}); {KEEPS_LAST}",
    ),
    "player copied exactly": (
        '<player name="Germans" optional="false"/>',
        doubled('<player name="Germans" optional="false"/>'),
        1,
        f"duplicate player 'Germans' (first on line {{first}}); {EXACT_COPY}",
    ),
    "unit type": (
        '<unit name="fighter"/>',
        doubled('<unit name="fighter"/>'),
        1,
        f"duplicate unit type 'fighter' (first on line {{first}}); {EXACT_COPY}",
    ),
    "resource": (
        '<resource name="PUs"/>',
        doubled('<resource name="PUs"/>'),
        1,
        f"duplicate resource 'PUs' (first on line {{first}}); {EXACT_COPY}",
    ),
    "production rule": (
        BUY_INFANTRY,
        doubled(BUY_INFANTRY, BUY_INFANTRY.replace('quantity="3"', 'quantity="2"', 1)),
        4,
        f"duplicate production rule 'buyInfantry' (first on line {{first}}); {KEEPS_LAST}",
    ),
    "production rule copied exactly": (
        BUY_INFANTRY,
        doubled(BUY_INFANTRY),
        4,
        f"duplicate production rule 'buyInfantry' (first on line {{first}}); {EXACT_COPY}",
    ),
    "production frontier": (
        '<playerProduction player="Germans"',
        '<productionFrontier name="production">\n      <frontierRules name="buyInfantry"/>\n    </productionFrontier>\n    <playerProduction player="Germans"',
        None,
        f"duplicate production frontier 'production' (first on line {{first}}); {KEEPS_LAST}",
    ),
    "connection, the other way round": (
        '<connection t1="1 Sea Zone" t2="2 Sea Zone"/>',
        doubled('<connection t1="1 Sea Zone" t2="2 Sea Zone"/>', '<connection t1="2 Sea Zone" t2="1 Sea Zone"/>'),
        1,
        "duplicate connection '2 Sea Zone' - '1 Sea Zone' (first on line {first})",
    ),
    "attachment with other options": (
        SUEZ,
        doubled(SUEZ, SUEZ.replace("Egypt:Trans-Jordan", "Egypt")),
        4,
        f"duplicate attachment 'canalAttachment' on territory '15 Sea Zone' (first on line {{first}}); {KEEPS_LAST}, losing the first one's options",
    ),
    "attachment copied exactly": (
        SUEZ,
        doubled(SUEZ),
        4,
        "duplicate attachment 'canalAttachment' on territory '15 Sea Zone' (first on line {first}); an exact copy; TripleA reads only one",
    ),
}


@pytest.mark.parametrize("old, new, lines, message", DUPLICATE_CASES.values(), ids=DUPLICATE_CASES.keys())
def test_duplicate(tmp_path: Path, dtd: Path, old: str, new: str, lines: int | None, message: str) -> None:
    """``new`` repeats an element of ``lines`` lines right after it, or (None) inserts a second one."""
    problems, text = problems_after(tmp_path, dtd, old, new)
    if lines is None:
        first, second = line_of(text, '<productionFrontier name="production">'), line_of(text, new)
    else:
        first = line_of(text, new)
        second = first + lines
    assert problems == [(second, message.format(first=first))]


# --------------------------------------------------------------------------
# Missing attachments, land units at sea
# --------------------------------------------------------------------------


def test_owned_territory_without_territory_attachment(tmp_path: Path, dtd: Path) -> None:
    pattern = r'<attachment name="territoryAttachment" attachTo="Germany".*?</attachment>\n\s*'
    block = re.search(pattern, TEXT, re.DOTALL)
    assert block
    problems, text = problems_after(tmp_path, dtd, block.group(0), "")
    line = line_of(text, '<territoryOwner territory="Germany"')
    assert problems == [
        (
            line,
            "territory 'Germany' has an owner but no territoryAttachment; TripleA then gives it no production, original owner or capital",
        )
    ]


def test_unit_type_without_unit_attachment(tmp_path: Path, dtd: Path) -> None:
    problems, text = problems_after(
        tmp_path,
        dtd,
        '<attachment name="unitAttachment" attachTo="artillery"',
        '<attachment name="unitAttachmentX" attachTo="artillery"',
    )
    line = line_of(text, '<unit name="artillery"/>')
    assert problems == [(line, f"unit type 'artillery' has no unitAttachment; {REFUSES}")]


SUB_IN_7 = '<unitPlacement unitType="submarine" territory="7 Sea Zone" quantity="1" owner="Germans"/>'


def test_land_unit_in_a_sea_zone_without_a_transport(tmp_path: Path, dtd: Path) -> None:
    # 7 Sea Zone holds only a German submarine: infantry there has nothing to stand on.
    new = '<unitPlacement unitType="infantry" territory="7 Sea Zone" quantity="1" owner="Germans"/>'
    problems, text = problems_after(tmp_path, dtd, SUB_IN_7, new)
    assert problems == [
        (
            line_of(text, new),
            "land unit 'infantry' (owned by Germans) placed in sea zone '7 Sea Zone', where its side has no ship "
            "with transportCapacity; TripleA then has land units at sea",
        )
    ]


@pytest.mark.parametrize("owner", ["Germans", "Italians"])
def test_land_unit_on_its_sides_transport_is_fine(tmp_path: Path, owner: str) -> None:
    # 5 Sea Zone holds a German transport, which carries German and allied (Italian) units.
    new = f'{SUB_IN_7}\n      <unitPlacement unitType="infantry" territory="5 Sea Zone" quantity="2" owner="{owner}"/>'
    path, _ = mutate(tmp_path, SUB_IN_7, new)
    assert validate_tree(parse(path), path.name, dtd=CORPUS_DTD) == []


def test_land_unit_on_an_enemy_transport_is_reported(tmp_path: Path) -> None:
    new = f'{SUB_IN_7}\n      <unitPlacement unitType="infantry" territory="5 Sea Zone" quantity="2" owner="Russians"/>'
    path, text = mutate(tmp_path, SUB_IN_7, new)
    problems = validate_tree(parse(path), path.name, dtd=CORPUS_DTD)
    assert [(p.line, p.message.split(",")[0]) for p in problems] == [
        (line_of(text, new) + 1, "land unit 'infantry' (owned by Russians) placed in sea zone '5 Sea Zone'")
    ]


# Transport capacity, as the engine loads land units at sea when the game starts
# (InitializationDelegate.initTransportedLandUnits: placement order, first transport with room).
# WW2v3-1942.xml: a transport carries 5 (transportCapacity), infantry costs 2, artillery and armour 3.
TRANSPORT_IN_5 = '<unitPlacement unitType="transport" territory="5 Sea Zone" quantity="1" owner="Germans"/>'


def land_units_in_5(tmp_path: Path, *placements: tuple[str, int]) -> tuple[list[Problem], str]:
    lines = "".join(f'\n      <unitPlacement unitType="{unit}" territory="5 Sea Zone" quantity="{count}" owner="Germans"/>' for unit, count in placements)
    path, text = mutate(tmp_path, TRANSPORT_IN_5, TRANSPORT_IN_5 + lines)
    return validate_tree(parse(path), path.name, dtd=CORPUS_DTD), text


@pytest.mark.parametrize(
    "placements",
    [[("infantry", 2)], [("infantry", 1), ("artillery", 1)], [("armour", 1), ("infantry", 1)]],
    ids=["2 infantry", "infantry and artillery", "armour and infantry"],
)
def test_land_units_a_transport_can_carry_are_fine(tmp_path: Path, placements: list[tuple[str, int]]) -> None:
    problems, _ = land_units_in_5(tmp_path, *placements)
    assert problems == []


@pytest.mark.parametrize(
    "placements, overflowing",
    [
        ([("infantry", 4)], "infantry"),  # the example: 4 infantry on one transport
        ([("infantry", 3)], "infantry"),
        ([("artillery", 1), ("armour", 1)], "armour"),
        ([("infantry", 1), ("armour", 1), ("infantry", 1)], "infantry"),
    ],
    ids=["4 infantry", "3 infantry", "artillery and armour", "infantry, armour, infantry"],
)
def test_land_units_beyond_a_transports_capacity_are_an_error(tmp_path: Path, placements: list[tuple[str, int]], overflowing: str) -> None:
    problems, text = land_units_in_5(tmp_path, *placements)
    first_line = line_of(text, TRANSPORT_IN_5) + 1
    overflow_line = first_line + max(i for i, (unit, _) in enumerate(placements) if unit == overflowing)
    assert [(p.line, p.severity) for p in problems] == [(overflow_line, "error")]
    assert f"do not fit on its transports: {overflowing!r}" in problems[0].message
    assert "Cannot load all land units in sea transports" in problems[0].message


def test_a_second_transport_adds_its_capacity(tmp_path: Path) -> None:
    problems, _ = land_units_in_5(tmp_path, ("transport", 1), ("infantry", 4))
    assert problems == []


def test_a_billion_transports_and_infantry_are_loaded_as_counted_not_one_by_one(tmp_path: Path) -> None:
    """A quantity is a number in the file: the check loads whole transports at a time (a fuzzed file with quantity
    99999999999 once kept validate, and every command reading the game, busy for ever). 5 * 10**8 more transports
    of 5 carry two infantry each (cost 2): 10**9 + 2 infantry fit with the first, one more does not (and the sea
    zone's units stay below what a Java list holds, which 2.7 cannot load beyond). So many units are more than a
    player's TripleA has memory for (units_beyond_a_players_memory), which the test is not about: that one refusal
    is left aside."""
    problems, _ = land_units_in_5(tmp_path, ("transport", 5 * 10**8), ("infantry", 10**9 + 2))
    problems = [p for p in problems if "memory a player's TripleA has" not in p.message]
    assert problems == []
    problems, text = land_units_in_5(tmp_path, ("transport", 5 * 10**8), ("infantry", 10**9 + 2), ("infantry", 1))
    problems = [p for p in problems if "memory a player's TripleA has" not in p.message]
    assert [(p.line, p.severity) for p in problems] == [(line_of(text, TRANSPORT_IN_5) + 3, "error")]
    assert "do not fit on its transports: 'infantry'" in problems[0].message


@settings(max_examples=examples(200), deadline=None)
@given(
    transports=st.lists(st.tuples(st.integers(0, 6), st.integers(0, 4)), min_size=1, max_size=4),
    loads=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 9)), max_size=4),
)
def test_whole_transports_at_a_time_load_as_the_engine_loads_one_unit_at_a_time(transports, loads) -> None:
    """InitializationDelegate.initTransportedLandUnits puts each land unit, in turn, on the first transport with
    room for it: the runs of equal transports the check keeps must end with the same room left, and refuse the same
    load."""
    from kremlin_triplea.check.number_checks import _load_first_fit

    one_by_one = [capacity for capacity, count in transports for _ in range(count)]
    runs = [[capacity, count] for capacity, count in transports if count]
    for cost, units in loads:
        fits = True
        for _ in range(units):
            spot = next((i for i, left in enumerate(one_by_one) if left >= cost), None)
            if spot is None:
                fits = False
                break
            one_by_one[spot] -= cost
        assert _load_first_fit(runs, cost, units) == fits
        if not fits:
            break
        assert [left for left, count in runs for _ in range(count)] == one_by_one


def test_a_land_unit_without_transport_cost_at_sea_is_an_error(tmp_path: Path) -> None:
    # factory has no transportCost in WW2v3-1942.xml: the engine cannot load it ("Non transportable unit in sea").
    problems, text = land_units_in_5(tmp_path, ("factory", 1))
    assert [(p.line, p.severity) for p in problems] == [(line_of(text, TRANSPORT_IN_5) + 1, "error")]
    assert "no transportCost" in problems[0].message


# --------------------------------------------------------------------------
# Errors and warnings
# --------------------------------------------------------------------------


def test_duplicate_connections_and_attachments_are_warnings(tmp_path: Path) -> None:
    # TripleA keeps a set of neighbours and the last attachment of a name: it reads both as meant.
    connection = '<connection t1="5 Sea Zone" t2="6 Sea Zone"/>'
    attachment = re.search(r'<attachment name="territoryAttachment" attachTo="Germany".*?</attachment>', TEXT, re.DOTALL)
    assert attachment
    text = TEXT.replace(connection, f'{connection}\n    <connection t1="6 Sea Zone" t2="5 Sea Zone"/>', 1)
    text = text.replace(attachment.group(0), attachment.group(0) * 2, 1)
    path = tmp_path / "WW2v3-1942.xml"
    path.write_text(text, encoding="utf-8")
    problems = validate_tree(parse(path), path.name, dtd=CORPUS_DTD)
    assert [(p.severity, p.message.split(" ")[1]) for p in problems] == [("warning", "connection"), ("warning", "attachment")]
    assert validate.errors(problems) == [] and validate.errors(problems, strict=True) == problems
    assert all(": warning: duplicate " in str(p) for p in problems)


def test_an_unknown_name_is_an_error(tmp_path: Path) -> None:
    path, _ = mutate(tmp_path, 'owner="Germans"/>', 'owner="Germens"/>')
    problems = validate_tree(parse(path), path.name, dtd=CORPUS_DTD)
    assert problems and all(p.severity == "error" for p in problems)


def test_added_problems_are_matched_without_line_numbers() -> None:
    base = [Problem("a.xml", 10, "duplicate connection 'A' - 'B' (first on line 3)", "warning")]
    written = [
        Problem("b.xml", 12, "duplicate connection 'A' - 'B' (first on line 4)", "warning"),
        Problem("b.xml", 13, "duplicate connection 'A' - 'B' (first on line 4)", "warning"),
    ]
    assert validate.added_problems(base, written) == written[1:]


# --------------------------------------------------------------------------
# The DTD
# --------------------------------------------------------------------------


def test_dtd_errors_are_reported_with_their_line(tmp_path: Path, dtd: Path) -> None:
    problems, text = problems_after(tmp_path, dtd, GERMANY, '<territory name="Germany" colour="grey"/>')
    assert len(problems) == 1
    line, message = problems[0]
    assert line == line_of(text, '<territory name="Germany"')
    assert message.startswith("does not follow game.dtd (TripleA 1.9 prints this and loads the game): ")
    assert "colour" in message


def test_dtd_findings_are_notes_one_per_kind(tmp_path: Path, dtd: Path) -> None:
    # Two steps of one name: 1.9's DTD makes step names IDs, and both engines run both steps.
    step = '<step name="germanBid" delegate="bid" player="Germans" maxRunCount="1"/>'
    path, text = mutate(tmp_path, step, "\n".join([step] * 3))
    problems = validate_tree(parse(path), path.name, dtd=dtd)
    first = line_of(text, step)
    assert [(p.line, p.severity, p.message) for p in problems] == [
        (first + 1, "note", "does not follow game.dtd (TripleA 1.9 prints this and loads the game): ID germanBid already defined (2 places)")
    ]
    assert validate.errors(problems, strict=True) == []


def test_a_flag_the_engine_refuses_is_reported_once_not_again_by_the_dtd(tmp_path: Path, dtd: Path) -> None:
    problems, text = problems_after(tmp_path, dtd, GERMANY, '<territory name="Germany" water="maybe"/>')
    assert problems == [(line_of(text, '<territory name="Germany"'), f"<territory> water 'maybe' is neither true nor false; {REFUSES}")]


def test_dtd_name_errors_are_not_reported_twice(tmp_path: Path, dtd: Path) -> None:
    # The DTD also flags the unknown player (an IDREF); the name check says it better, once.
    problems, _ = problems_after(tmp_path, dtd, '<alliance player="Germans"', '<alliance player="Germanz"')
    assert len(problems) == 1 and "unknown player 'Germanz'" in problems[0][1]


def test_without_a_dtd_the_game_is_judged_without_its_notes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KREMLIN_TRIPLEA", str(tmp_path / "no-triplea-here"))  # named, so no other is looked for
    monkeypatch.delenv(game_dtd.DTD_VARIABLE, raising=False)
    assert validate_tree(parse(AA50_1942), "game.xml") == []


def test_an_unreadable_dtd_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such DTD file"):
        validate_tree(parse(AA50_1942), "game.xml", dtd=tmp_path / "missing.dtd")
    (tmp_path / "broken.dtd").write_text("<!ELEMENT game (")
    with pytest.raises(InputError, match="cannot read the DTD"):
        validate_tree(parse(AA50_1942), "game.xml", dtd=tmp_path / "broken.dtd")


def test_problems_are_sorted_by_line_and_print_as_file_line_message(tmp_path: Path, dtd: Path) -> None:
    text = TEXT.replace('<property name="Germans bid"', '<property name="Germanz bid"', 1)
    text = text.replace('t2="2 Sea Zone"/>', 't2="2 Sea Zonne"/>', 1)
    path = tmp_path / "game.xml"
    path.write_text(text, encoding="utf-8")
    problems = validate_tree(parse(path), "game.xml", dtd=dtd)
    assert [p.line for p in problems] == sorted(p.line for p in problems)
    assert str(problems[0]) == (
        f"game.xml:{line_of(text, '2 Sea Zonne')}: connection t2: unknown territory '2 Sea Zonne' (did you mean '2 Sea Zone'?); {REFUSES}"
    )


# --------------------------------------------------------------------------
# Finding the DTD
# --------------------------------------------------------------------------


@pytest.fixture
def no_installation(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("KREMLIN_TRIPLEA", str(tmp_path / "no-triplea-here"))  # named, so no other is looked for
    monkeypatch.delenv(game_dtd.DTD_VARIABLE, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def test_find_dtd_takes_an_explicit_path_first(no_installation: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(game_dtd.DTD_VARIABLE, "/nonexistent/game.dtd")
    assert find_dtd(CORPUS_DTD) == CORPUS_DTD


def test_find_dtd_refuses_a_missing_explicit_path(no_installation: None, tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such DTD file"):
        find_dtd(tmp_path / "missing.dtd")


def test_find_dtd_reads_the_environment_variable(no_installation: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(game_dtd.DTD_VARIABLE, str(CORPUS_DTD))
    assert find_dtd() == CORPUS_DTD
    monkeypatch.setenv(game_dtd.DTD_VARIABLE, "/nonexistent/game.dtd")
    with pytest.raises(InputError, match=game_dtd.DTD_VARIABLE):
        find_dtd()


def test_find_dtd_extracts_the_dtd_from_a_jar(no_installation: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    jar = tmp_path / "triplea.jar"
    with zipfile.ZipFile(jar, "w") as archive:
        archive.writestr("tools/image/game.dtd", "")  # TripleA 1.9's jar has an empty one too
        archive.writestr(game_dtd.JAR_DTD_MEMBER, CORPUS_DTD.read_bytes())
    monkeypatch.setenv("KREMLIN_TRIPLEA", str(jar))
    found = find_dtd()
    assert found is not None and found.read_bytes() == CORPUS_DTD.read_bytes()
    assert found.is_relative_to(tmp_path / "cache")
    assert find_dtd(jar) == found  # --dtd may name the jar too
    assert validate_tree(parse(AA50_1942), "game.xml", dtd=jar) == []


def test_find_dtd_looks_beside_the_game_and_in_its_map_folder(no_installation: None, tmp_path: Path) -> None:
    games = tmp_path / "some_map" / "games"
    games.mkdir(parents=True)
    game = games / "game.xml"
    game.write_text("<game/>")
    assert find_dtd(game_file=game) is None
    shutil.copy(CORPUS_DTD, tmp_path / "some_map" / "game.dtd")
    assert find_dtd(game_file=game) == tmp_path / "some_map" / "game.dtd"
    shutil.copy(CORPUS_DTD, games / "game.dtd")
    assert find_dtd(game_file=game) == games / "game.dtd"


def test_validate_tree_finds_the_dtd_beside_the_game_file(no_installation: None, tmp_path: Path) -> None:
    path, _ = mutate(tmp_path, GERMANY, GERMANY)
    shutil.copy(CORPUS_DTD, tmp_path / "game.dtd")
    assert validate_tree(parse(path), str(path)) == []


def test_find_dtd_prefers_the_installed_engines_dtd(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # CI installs Debian's TripleA (scripts/test): it is found without being named.
    monkeypatch.delenv(game_dtd.DTD_VARIABLE, raising=False)
    monkeypatch.delenv("KREMLIN_TRIPLEA", raising=False)
    installed = find_installation().found
    assert installed is not None, find_installation().not_found_message()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    found = find_dtd(game_file=CORPUS_DIR / "kremlin.xml")  # the corpus folder has its own game.dtd
    assert found is not None and found.is_relative_to(tmp_path)
    with zipfile.ZipFile(installed.jar) as jar:
        assert found.read_bytes() == jar.read(game_dtd.JAR_DTD_MEMBER)


# --------------------------------------------------------------------------
# Numbers and flags, read as TripleA 2.7 reads them
# --------------------------------------------------------------------------

#: Java's Integer.parseInt (which Integer.valueOf calls), from its Javadoc: an optional
#: '+' or '-', then decimal digits (Character.digit: any Unicode decimal digit), nothing
#: else, within -2**31 .. 2**31-1; anything else throws NumberFormatException.
PARSE_INT = {
    "0": 0,
    "2": 2,
    "+5": 5,
    "-5": -5,
    "007": 7,
    "2147483647": 2147483647,
    "-2147483648": -2147483648,
    "\u0663": 3,  # ARABIC-INDIC DIGIT THREE: Character.digit('\u0663', 10) == 3
    "2147483648": None,
    "4294967296": None,
    "-2147483649": None,
    " 2 ": None,
    "2 ": None,
    "2\n": None,
    "one": None,
    "": None,
    "+": None,
    "-": None,
    "1_000": None,
    "1.0": None,
    "0x10": None,
    "1e3": None,
    "--5": None,
}


@pytest.mark.parametrize(("text", "expected"), PARSE_INT.items(), ids=repr)
def test_java_int_reads_as_integer_parse_int(text: str, expected: int | None) -> None:
    assert java_int(text) == expected


#: The int and Integer attribute fields of TripleA 2.7's org.triplea.map.data.elements classes
#: (DiceSides.value, GamePlay.Sequence.Step.maxRunCount, GamePlay.Offset.round, Initialize.UnitInitialize
#: .UnitPlacement.quantity/hitsTaken/unitDamage, .HeldUnits.quantity, ResourceInitialize.ResourceGiven.quantity,
#: RelationshipInitialize.Relationship.roundValue, Production.Rule.Cost/Result.quantity, PropertyList.Property
#: .min/max and its XmlNumberTag.min/max): AttributeValueCasting.castToInt reads each with Integer.valueOf.
ENGINE_INT_ATTRIBUTES = [
    ("diceSides", "value"),
    ("gamePlay/sequence/step", "maxRunCount"),
    ("gamePlay/offset", "round"),
    ("initialize/unitInitialize/unitPlacement", "quantity"),
    ("initialize/unitInitialize/unitPlacement", "hitsTaken"),
    ("initialize/unitInitialize/unitPlacement", "unitDamage"),
    ("initialize/unitInitialize/heldUnits", "quantity"),
    ("initialize/resourceInitialize/resourceGiven", "quantity"),
    ("initialize/relationshipInitialize/relationship", "roundValue"),
    ("production/productionRule/cost", "quantity"),
    ("production/productionRule/result", "quantity"),
    ("production/repairRule/cost", "quantity"),
    ("production/repairRule/result", "quantity"),
    ("propertyList/property", "min"),
    ("propertyList/property", "max"),
    ("propertyList/property/number", "min"),
    ("propertyList/property/number", "max"),
]

#: The Boolean attribute fields of the same classes (Map.Territory.water, PlayerList.Player.optional/canBeDisabled/
#: isHidden, PropertyList.Property.editable): castToBoolean accepts "true" and "false" in any case, nothing else.
ENGINE_BOOLEAN_ATTRIBUTES = [
    ("map/territory", "water"),
    ("playerList/player", "optional"),
    ("playerList/player", "canBeDisabled"),
    ("playerList/player", "isHidden"),
    ("propertyList/property", "editable"),
]


#: What validate says of a number Integer.parseInt refuses (javaread.why_not_java_int).
UNREADABLE = ("is not a whole number", "(a Java int)", "with spaces around it")


def _with_attribute(path: str, attribute: str, value: str) -> etree._Element:
    """WW2v3-1942 with ``attribute`` set to ``value`` on the first element at ``path`` (made if the game has none)."""
    root = copy.deepcopy(_aa50_1942())
    parent = root
    for tag in path.split("/"):
        child = parent.find(tag)
        parent = child if child is not None else etree.SubElement(parent, tag)
    parent.set(attribute, value)
    return parent


@functools.cache
def _aa50_1942() -> etree._Element:
    """WW2v3-1942 parsed once; each test edits its own copy."""
    return parse(AA50_1942)


def _findings_on(element: etree._Element, attribute: str) -> list[Problem]:
    """What validate says of ``attribute`` of ``element``: its verdict (the DTD's notes speak of the file's form, not of what the engine reads)."""
    problems = validate_tree(element.getroottree().getroot(), "game.xml", read_dtd=False)
    return [p for p in problems if p.message.startswith(f"<{element.tag}> {attribute} ")]


def _set_apart(attributes: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    """``attributes`` in groups that one validate can judge together: a finding names its element's tag and the
    attribute (``<cost> quantity ...``), so no two attributes of a group share both (a production and a repair
    rule's ``<cost> quantity`` go to different groups)."""
    groups: list[list[tuple[str, str]]] = []
    for path, attribute in attributes:
        said = (path.rsplit("/", 1)[-1], attribute)
        group = next((g for g in groups if said not in {(p.rsplit("/", 1)[-1], a) for p, a in g}), None)
        if group is None:
            groups.append(group := [])
        group.append((path, attribute))
    return groups


def _findings_on_each(group: list[tuple[str, str]], value: str) -> dict[tuple[str, str], list[Problem]]:
    """What validate says of each attribute of ``group``, all set to ``value`` in one copy of WW2v3-1942."""
    root = copy.deepcopy(_aa50_1942())
    elements = {}
    for path, attribute in group:
        parent = root
        for tag in path.split("/"):
            child = parent.find(tag)
            parent = child if child is not None else etree.SubElement(parent, tag)
        parent.set(attribute, value)
        elements[path, attribute] = parent
    problems = validate_tree(root, "game.xml", read_dtd=False)
    return {
        (path, attribute): [p for p in problems if p.message.startswith(f"<{element.tag}> {attribute} ")] for (path, attribute), element in elements.items()
    }


#: Each attribute's refusal is judged on its own; the attributes of a group share one validate of the game.
INT_GROUPS = _set_apart(ENGINE_INT_ATTRIBUTES)
BOOLEAN_GROUPS = _set_apart(ENGINE_BOOLEAN_ATTRIBUTES)


def _group_id(group: list[tuple[str, str]]) -> str:
    return "+".join(f"{p.rsplit('/', 1)[-1]}@{a}" for p, a in group)


def test_the_groups_hold_every_attribute_once() -> None:
    for attributes, groups in ((ENGINE_INT_ATTRIBUTES, INT_GROUPS), (ENGINE_BOOLEAN_ATTRIBUTES, BOOLEAN_GROUPS)):
        assert sorted(a for g in groups for a in g) == sorted(attributes)
        assert all(len({(p.rsplit("/", 1)[-1], a) for p, a in g}) == len(g) for g in groups)


@pytest.mark.parametrize("group", INT_GROUPS, ids=_group_id)
@pytest.mark.parametrize("text", [t for t, value in PARSE_INT.items() if value is None], ids=repr)
def test_a_number_integer_parse_int_refuses_is_a_refusal(group: list[tuple[str, str]], text: str) -> None:
    shown = text if re.fullmatch(r"[+-]?\d+", text) else repr(text)  # messages quote what is not a number
    for (path, attribute), found in _findings_on_each(group, text).items():
        assert [(p.severity, p.message.startswith(f"<{path.rsplit('/', 1)[-1]}> {attribute} {shown} is "), p.message.endswith(REFUSES)) for p in found] == [
            ("error", True, True)
        ], (path, attribute)


@pytest.mark.parametrize("group", INT_GROUPS, ids=_group_id)
def test_a_number_integer_parse_int_reads_is_no_refusal(group: list[tuple[str, str]]) -> None:
    for text in ("+1", "\u0663", "2147483647"):
        # (The engine may still refuse the number it read, as too many hits: that is not reading it.)
        for (path, attribute), found in _findings_on_each(group, text).items():
            assert [p for p in found if any(why in p.message for why in UNREADABLE)] == [], (path, attribute, text)


@pytest.mark.parametrize("group", BOOLEAN_GROUPS, ids=_group_id)
def test_a_flag_other_than_true_or_false_is_a_refusal(group: list[tuple[str, str]]) -> None:
    for text in ("TRUE", "False", "true"):
        assert all(found == [] for found in _findings_on_each(group, text).values()), text
    for text in ("yes", "1", " true", ""):
        for (path, attribute), found in _findings_on_each(group, text).items():
            assert [(p.severity, p.message) for p in found] == [
                ("error", f"<{path.rsplit('/', 1)[-1]}> {attribute} {text!r} is neither true nor false; {REFUSES}")
            ]


@pytest.mark.parametrize("path", ["initialize/unitInitialize/unitPlacement", "initialize/unitInitialize/heldUnits"])
def test_a_negative_unit_quantity_is_an_error(path: str) -> None:
    # GameParser.parseUnitPlacement / parseHeldUnits hand the quantity to UnitType.create, which makes
    # units while i < quantity: -5 makes none, silently.
    found = _findings_on(_with_attribute(path, "quantity", "-5"), "quantity")
    tag = path.rsplit("/", 1)[-1]
    assert [(p.severity, p.message) for p in found] == [("error", f"<{tag}> quantity -5 is negative; TripleA silently creates no units")]
    assert _findings_on(_with_attribute(path, "quantity", "0"), "quantity") == []


def test_a_negative_resource_quantity_is_a_refusal() -> None:
    # GameParser.parseResourceInitialization -> ResourceCollection.addResource: "quantity must be positive" below 0.
    found = _findings_on(_with_attribute("initialize/resourceInitialize/resourceGiven", "quantity", "-5"), "quantity")
    assert [(p.severity, p.message) for p in found] == [("error", f'<resourceGiven> quantity -5 is negative ("quantity must be positive"); {REFUSES}')]
    assert _findings_on(_with_attribute("initialize/resourceInitialize/resourceGiven", "quantity", "0"), "quantity") == []


def _placement_of(unit_type: str, **attributes: str) -> etree._Element:
    element = _with_attribute("initialize/unitInitialize/unitPlacement", "unitType", unit_type)
    for name, value in attributes.items():
        element.set(name, value)
    return element


def test_unit_damage_below_zero_is_a_refusal() -> None:
    # GameParser.parseUnitPlacement: "unitDamage is -1, but cannot be less than zero".
    assert [p.message for p in _findings_on(_placement_of("infantry", unitDamage="-1"), "unitDamage")] == [
        f"<unitPlacement> unitDamage -1 is below zero; {REFUSES}"
    ]
    assert _findings_on(_placement_of("factory", unitDamage="3"), "unitDamage") == []


@pytest.mark.parametrize(
    ("unit_type", "hits", "refused"),
    [
        # WW2v3-1942: infantry has no hitPoints option (1), battleship has hitPoints 2.
        ("infantry", "0", False),
        ("infantry", "1", True),
        ("battleship", "1", False),
        ("battleship", "2", True),
        ("battleship", "-1", True),
    ],
)
def test_hits_taken_must_leave_the_unit_a_hit_point(unit_type: str, hits: str, refused: bool) -> None:
    # GameParser.parseUnitPlacement: hitsTaken "cannot be less than zero or greater than ... (one less than total hitPoints)".
    found = _findings_on(_placement_of(unit_type, hitsTaken=hits), "hitsTaken")
    assert [p.message.endswith(REFUSES) for p in found] == ([True] if refused else [])


def test_the_last_of_hit_points_and_is_two_hit_sets_the_hit_points() -> None:
    root = parse(AA50_1942)
    attachment = root.find("attachmentList/attachment[@attachTo='battleship'][@name='unitAttachment']")
    attachment.append(etree.fromstring('<option name="hitPoints" value="3"/>'))
    placement = root.find("initialize/unitInitialize/unitPlacement")
    placement.set("unitType", "battleship")
    placement.set("hitsTaken", "2")
    assert _findings_on(placement, "hitsTaken") == []
    attachment.append(etree.fromstring('<option name="isTwoHit" value="true"/>'))
    assert len(_findings_on(placement, "hitsTaken")) == 1


# --------------------------------------------------------------------------
# The judge: TripleA 2.x by default, 1.9 on request
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("platform", "variables", "expected"),
    [
        ("win32", {"LOCALAPPDATA": "C:/Users/u/AppData/Local"}, Path("C:/Users/u/AppData/Local/kremlin-triplea")),
        ("darwin", {}, Path.home() / "Library" / "Caches" / "kremlin-triplea"),
        ("linux", {"XDG_CACHE_HOME": "/var/cache/u"}, Path("/var/cache/u/kremlin-triplea")),
        ("linux", {}, Path.home() / ".cache" / "kremlin-triplea"),
    ],
)
def test_the_dtd_cache_is_where_the_platform_keeps_caches(monkeypatch: pytest.MonkeyPatch, platform: str, variables: dict[str, str], expected: Path) -> None:
    # Issue 32: %LOCALAPPDATA% on Windows, ~/Library/Caches on macOS, $XDG_CACHE_HOME or ~/.cache elsewhere.
    monkeypatch.setattr(game_dtd.sys, "platform", platform)
    for name in ("LOCALAPPDATA", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    assert game_dtd.cache_folder() == expected


def _judged(tmp_path: Path, old: str, new: str, engine: str) -> list[tuple[str, str]]:
    path, _ = mutate(tmp_path, old, new)
    return [(p.severity, p.message) for p in validate_tree(parse(path), path.name, dtd=CORPUS_DTD, engine=engine) if p.severity != "note" or "1.9" in p.message]


TRIPLEA = '<triplea minimumVersion="1.7"/>'
STEP = '<step name="germanBid" delegate="bid" player="Germans" maxRunCount="1"/>'


@pytest.mark.parametrize(
    ("old", "new", "for_2", "for_19"),
    [
        # GameParser 2.7: Version(major.minor) above 2.7, or unreadable, refuses; 1.9 compares major.minor.point with 1.9.0.
        (
            TRIPLEA,
            '<triplea minimumVersion="2.8"/>',
            [
                ("error", f"<triplea> minimumVersion 2.8 is above TripleA 2.7 (it needs a newer TripleA); {REFUSES}"),
                ("note", "TripleA 1.9 cannot read this: it requires TripleA 2.8 (minimumVersion)"),
            ],
            "error",
        ),
        (TRIPLEA, '<triplea minimumVersion="2.6"/>', [("note", "TripleA 1.9 cannot read this: it requires TripleA 2.6 (minimumVersion)")], "error"),
        (TRIPLEA, '<triplea minimumVersion="1.9.1"/>', [("note", "TripleA 1.9 cannot read this: it requires TripleA 1.9.1 (minimumVersion)")], "error"),
        (TRIPLEA, '<triplea minimumVersion="1.9"/>', [], None),
        # 1.9 refuses a maxRunCount of 0 ("maxRunCount must be positive"); 2.7 sets it only when above 0.
        (
            STEP,
            STEP.replace('maxRunCount="1"', 'maxRunCount="0"'),
            [("note", 'TripleA 1.9 cannot read this: step maxRunCount 0 ("maxRunCount must be positive"; 2.x ignores it)')],
            "error",
        ),
        # 2.7 refuses a step of an unknown player; 1.9 runs it with no player.
        (STEP, STEP.replace('player="Germans"', 'player="Nobody"'), [("error", f"step player: unknown player 'Nobody'; {REFUSES}")], "warning"),
        # 2.7 refuses a flag neither true nor false; 1.9 reads it as false.
        (
            '<player name="Germans" optional="false"/>',
            '<player name="Germans" optional="no"/>',
            [("error", f"<player> optional 'no' is neither true nor false; {REFUSES}")],
            "warning",
        ),
        # 1.9 reads a blank unitDamage as 0; 2.7's Integer.valueOf("") throws.
        (
            'unitType="infantry" territory="Baltic States" quantity="3"',
            'unitType="infantry" territory="Baltic States" quantity="3" unitDamage=""',
            [("error", f"<unitPlacement> unitDamage '' is not a whole number; {REFUSES}")],
            None,
        ),
    ],
)
def test_what_each_engine_refuses(tmp_path: Path, old: str, new: str, for_2: list[tuple[str, str]], for_19: str | None) -> None:
    assert _judged(tmp_path, old, new, validate.TRIPLEA_2) == for_2
    judged_19 = _judged(tmp_path, old, new, validate.TRIPLEA_19)
    assert [severity for severity, _ in judged_19] == ([for_19] if for_19 else [])


def test_neutral_goes_to_no_player_even_where_a_player_has_that_name(tmp_path: Path) -> None:
    # PlayerList.getPlayerId answers its no-player for "Neutral" before the declared players: a warning.
    text = TEXT.replace(
        '<player name="Germans" optional="false"/>', '<player name="Germans" optional="false"/>\n    <player name="Neutral" optional="true"/>', 1
    )
    text = text.replace('<territoryOwner territory="Germany" owner="Germans"/>', '<territoryOwner territory="Germany" owner="Neutral"/>', 1)
    path = tmp_path / "game.xml"
    path.write_text(text, encoding="utf-8")
    problems = validate_tree(parse(path), path.name, dtd=CORPUS_DTD)
    declared = line_of(text, '<player name="Neutral"')
    assert [(p.severity, p.message) for p in problems] == [
        (
            "warning",
            f"territoryOwner owner: 'Neutral' is TripleA's name for no player, so this goes to no player, not to the player 'Neutral' declared on line {declared}",
        )
    ]


def test_the_validate_command_judges_for_the_engine_asked(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from kremlin_triplea.cli.main import main

    game = CORPUS_DIR / "Invasion_USA.xml"
    for_2 = CliRunner().invoke(main, ["validate", "--dtd", str(CORPUS_DTD), str(game)])
    assert for_2.exit_code == 0, for_2.output
    assert f"{game}:33: note: TripleA 1.9 cannot read this: uses 2.x variables" in for_2.output
    assert f"{game}: valid for TripleA 2.x (" in for_2.output
    for_19 = CliRunner().invoke(main, ["validate", "--for", "1.9", str(game)])
    assert for_19.exit_code == 1
    assert f"{game}:33: TripleA 1.9 cannot read this: uses 2.x variables" in for_19.output
    assert f"in {game} for TripleA 1.9" in for_19.output


# --------------------------------------------------------------------------
# Option and property numbers
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        # UnitAttachment.setMovement/setAttack: getInt -> Integer.parseInt ("Attachments: two is not a valid int value").
        ('<option name="movement" value="1"/>', '<option name="movement" value="two"/>', "UnitAttachment option movement: 'two' is not a whole number"),
        (
            '<option name="attack" value="1"/>',
            '<option name="attack" value=" 1"/>',
            "UnitAttachment option attack: ' 1' is a number with spaces around it, which Java's Integer.parseInt refuses",
        ),
        # Decapitalized as GameParser.setOptions looks it up.
        ('<option name="movement" value="1"/>', '<option name="Movement" value="1.5"/>', "UnitAttachment option Movement: '1.5' is not a whole number"),
        # AbstractRulesAttachment.setObjectiveValue, inherited by RulesAttachment.
        (
            '<option name="objectiveValue" value="5"/>',
            '<option name="objectiveValue" value="five"/>',
            "RulesAttachment option objectiveValue: 'five' is not a whole number",
        ),
    ],
)
def test_an_int_option_integer_parse_int_refuses_is_a_refusal(tmp_path: Path, old: str, new: str, said: str) -> None:
    problems, text = problems_after(tmp_path, CORPUS_DTD, old, new)
    assert (line_of(text, new), f"{said}; {REFUSES}") in problems


def test_a_flag_option_getbool_refuses_is_a_refusal_and_not_judged_as_a_number(tmp_path: Path) -> None:
    # 2.7 refuses canBlitz="sure" (DefaultAttachment.getBool: "Attachments: sure is not a valid boolean"; the engine's
    # verdict is checked in tests/test_validate_27_classes.py); it is a flag, not a number.
    new = '<option name="movement" value="1"/>\n      <option name="canBlitz" value="sure"/>'
    problems, text = problems_after(tmp_path, CORPUS_DTD, '<option name="movement" value="1"/>', new)
    assert [(line, message) for line, message in problems if "canBlitz" in message] == [
        (line_of(text, new) + 1, f"UnitAttachment option canBlitz: 'sure' is neither true nor false; {REFUSES}")
    ]


def test_a_property_number_beyond_an_int_is_read_as_text(tmp_path: Path) -> None:
    # 2.7 PropertyValueTypeInference: Ints.tryParse fails, the value stays a String; 2.7 reads the game, and its
    # Properties.getFactoriesPerCountry then throws ClassCastException (2.7's verdict "misreads",
    # tests/test_validate_27_classes.py): an error for 2.x. 1.9 reads it as text too: a warning.
    old, new = '<property name="maxFactoriesPerTerritory" value="1"/>', '<property name="maxFactoriesPerTerritory" value="4294967296"/>'
    path, text = mutate(tmp_path, old, new)
    judged = {
        engine: [(p.line, p.severity, p.message) for p in validate_tree(parse(path), path.name, dtd=CORPUS_DTD, engine=engine)] for engine in validate.ENGINES
    }
    line = line_of(text, new)
    assert judged == {
        validate.TRIPLEA_2: [
            (
                line,
                "error",
                "property 'maxFactoriesPerTerritory' value '4294967296' is read by TripleA 2.x as text, where it reads a whole number: "
                "the game fails when it asks (ClassCastException)",
            )
        ],
        validate.TRIPLEA_19: [
            (line, "warning", "property 'maxFactoriesPerTerritory' value 4294967296 is beyond a Java int; TripleA reads it as text, not a number")
        ],
    }


def test_an_editable_number_1_9_cannot_parse_is_a_1_9_refusal(tmp_path: Path) -> None:
    # 1.9 GameParser.parseEditableProperty: Integer.parseInt of a <number> property's value.
    path, text = mutate(
        tmp_path, '<property name="Italians bid" value="0" editable="true">', '<property name="Italians bid" value="4294967296" editable="true">'
    )
    for_19 = [(p.severity, p.message) for p in validate_tree(parse(path), path.name, dtd=CORPUS_DTD, engine=validate.TRIPLEA_19)]
    assert for_19 == [("error", f"editable number property 'Italians bid' value 4294967296 is beyond TripleA's limit of 2,147,483,647 (a Java int); {REFUSES}")]
    assert [p.severity for p in validate_tree(parse(path), path.name, dtd=CORPUS_DTD)] == ["warning"]


def test_a_unit_placement_without_quantity(tmp_path: Path) -> None:
    # 2.7: UnitPlacement.quantity is an int field, 0 when absent; 1.9: Integer.parseInt(getAttribute("quantity")) of "".
    old = '<unitPlacement unitType="infantry" territory="Baltic States" quantity="3" owner="Germans"/>'
    path, text = mutate(tmp_path, old, old.replace(' quantity="3"', ""))
    judged = {engine: [(p.severity, p.message) for p in validate_tree(parse(path), path.name, read_dtd=False, engine=engine)] for engine in validate.ENGINES}
    assert judged == {
        validate.TRIPLEA_2: [("error", "<unitPlacement> has no quantity; TripleA 2.7 reads 0 and silently creates no units")],
        validate.TRIPLEA_19: [("error", f"<unitPlacement> has no quantity; {REFUSES}")],
    }


def test_the_int_options_cover_every_class_the_engine_parses_them_for() -> None:
    from kremlin_triplea.check.engine_options import int_options

    assert {"movement", "attack", "defense", "transportCapacity", "hitPoints"} <= int_options("UnitAttachment")
    assert {"objectiveValue", "uses", "chanceIncrementOnFailure"} <= int_options("RulesAttachment")
    assert {"uses", "resourceCount"} <= int_options("TriggerAttachment")
    assert {"production", "victoryCity"} <= int_options("TerritoryAttachment")
    assert int_options("CanalAttachment") == frozenset()


ENGINE_1_9_MESSAGES = tomllib.loads((Path(__file__).parent / "data" / "engine-1.9-unreadable.toml").read_text(encoding="utf-8"))["unreadable"]
LACKING_AN_OPTION = {name: message.rsplit("Setter: ", 1)[1] for name, message in ENGINE_1_9_MESSAGES.items() if "Setter: " in message}


@pytest.mark.parametrize(
    ("name", "option"),
    # As every test over the corpus (support.paths.each_game): the quick subset reads its games, the full suite all.
    [pytest.param(name, option, id=name, marks=() if CORPUS_DIR / name in QUICK_CORPUS else pytest.mark.slow) for name, option in LACKING_AN_OPTION.items()],
)
def test_an_option_1_9_lacks_is_its_refusal_and_a_note_for_2x(name: str, option: str) -> None:
    # The option 1.9 named when it refused the game (tests/data/engine-1.9-unreadable.toml, Debian's 1.9's own words).
    root = parse(CORPUS_DIR / name)
    said = f"has no option {option!r}"
    for_19 = [p for p in validate_tree(root, name, read_dtd=False, engine=validate.TRIPLEA_19) if said in p.message]
    assert for_19 and all(p.severity == "error" and p.message.startswith("TripleA 1.9 cannot read this: ") for p in for_19)
    assert [p.severity for p in validate_tree(root, name, read_dtd=False) if said in p.message] == ["note"] * len(for_19)


@pytest.mark.slow  # several seconds (2.8-9 s on a quiet 2-core machine): the full suite runs it
def test_the_option_table_of_1_9_knows_every_option_of_the_games_it_reads() -> None:
    for path in LOADABLE_GAMES:
        problems = validate_tree(parse(path), path.name, read_dtd=False, engine=validate.TRIPLEA_19)
        assert [p.message for p in problems if "has no option" in p.message] == [], path.name


# --------------------------------------------------------------------------
# The matrix's validator: the rest of a file validated once per text of it
# --------------------------------------------------------------------------

#: Edits of the starting state (<initialize>, <propertyList>) that keep every line where it was.
STATE_EDITS = {
    "owner": ('<territoryOwner territory="Germany" owner="Germans"/>', '<territoryOwner territory="Germany" owner="Russians"/>'),
    "units": ('<unitPlacement unitType="infantry" territory="Germany" quantity="4"', '<unitPlacement unitType="infantry" territory="Germany" quantity="x"'),
    "PUs": ('<resourceGiven player="Germans" resource="PUs" quantity="37"/>', '<resourceGiven player="Germans" resource="PUs" quantity="99999999999"/>'),
}


#: An <option> where TripleA never reads one: the checks of options then look at the whole file.
OPTION_IN_INITIALIZE = (STATE_EDITS["owner"][0], STATE_EDITS["owner"][0] + '<option name="x" value="99999999999"/>')


@pytest.mark.slow  # keeps the quick subset under a minute; CI runs it
def test_the_matrix_validator_judges_every_version_of_a_game_as_validate_tree_does(dtd: Path) -> None:
    """One Validator judges the game, then each mutation of the name and duplicate cases and each edit of its
    starting state, each followed by the game again: a finding kept from an earlier file where the file's own
    differ would show here. The rest of the file is validated again exactly when it changed."""
    rest_edits = [(old, new) for old, new, *_ in DUPLICATE_CASES.values()]
    edits = [(old, new) for old, new, *_ in UNKNOWN_NAME_CASES.values()] + rest_edits + [*STATE_EDITS.values(), OPTION_IN_INITIALIZE]
    validator = Validator(dtd)
    reused = {}
    judged: dict[str, list[Problem]] = {}  # validate_tree's verdict of each text (the game itself comes after every edit)
    for old, new in [(TEXT, TEXT)] + edits:
        for text in (TEXT.replace(old, new, 1), TEXT):
            data = text.encode("utf-8")
            if text not in judged:
                judged[text] = validate_tree(etree.fromstring(data, parser()), "WW2v3-1942.xml", dtd=dtd)
            before = validator.reused
            assert validator.validate(data, etree.fromstring(data, parser()), "WW2v3-1942.xml") == judged[text], new
            reused.setdefault((old, new), validator.reused > before)
    assert all(reused[edit] for edit in STATE_EDITS.values())
    assert not any(reused[edit] for edit in [*rest_edits, OPTION_IN_INITIALIZE])


@pytest.mark.slow  # a second or more: keeps the quick subset under a minute; CI runs it
def test_the_matrix_validator_reads_the_starting_state_as_2x_reads_it_while_its_rest_is_reused() -> None:
    """A later file's starting state is read section by section (check/reading27.sections_as_27), its rest not
    looked at again: an attribute 2.x reads under another name, or empty and so as none, in the starting state (a
    placement's empty owner: the units go to no player; a territory's: none, refused; a property's empty value) is
    judged as validate_tree
    judges it, and so is a rest 2.x reads under other names (every attachment's legacy ``attatchTo``)."""
    source = TEXT.replace(" attachTo=", " attatchTo=")
    placement = re.search(r'<unitPlacement [^>]*owner="([^"]+)"', source).group(0)
    owner = re.search(r'<territoryOwner [^>]*owner="([^"]+)"', source).group(0)
    low_luck = re.search(r'<property name="Low Luck" value="[^"]*"', source).group(0)
    texts = [
        source,
        source.replace(placement, placement[: placement.rindex('owner="')] + 'owner=""', 1),
        source.replace(owner, owner[: owner.rindex('owner="')] + 'owner=""', 1),
        source.replace(low_luck, '<property name="Low Luck" value=""', 1),
        source,
    ]
    validator = Validator()
    for text in texts:
        data = text.encode("utf-8")
        assert validator.validate(data, etree.fromstring(data, parser()), "WW2v3-1942.xml") == validate_tree(
            etree.fromstring(data, parser()), "WW2v3-1942.xml"
        ), text[:0]
    assert validator.reused == len(texts) - 1


def test_the_matrix_validator_judges_a_units_rules_by_the_files_own_properties() -> None:
    """UnitAttachment.validate reads a game property (a sea transport may have no attack where Transport Casualties
    Restricted is true): files whose attachments are the same and whose properties differ are each judged by their
    own, as validate_tree judges them (the properties were left out of the rest the unit rules were judged on once)."""
    transport = '<option name="transportCapacity" value="5"/>\n      <option name="attack" value="0"/>'
    armed = TEXT.replace(transport, transport.replace('"0"', '"1"'), 1)
    restricted = '<property name="Transport Casualties Restricted" value="true"'
    assert armed != TEXT and restricted in armed
    validator = Validator()
    verdicts = []
    for text in (armed.replace(restricted, restricted.replace("true", "false"), 1), armed):
        data = text.encode("utf-8")
        verdict = validator.validate(data, etree.fromstring(data, parser()), "WW2v3-1942.xml")
        assert verdict == validate_tree(etree.fromstring(data, parser()), "WW2v3-1942.xml")
        verdicts.append(any("Transport Casualties Restricted" in p.message for p in verdict))
    assert verdicts == [False, True]


def test_the_matrix_validator_judges_a_games_technologies_by_the_files_own_properties() -> None:
    """A game without <technology> has the technologies its WW2V2 and WW2V3 properties make: a trigger's ``tech``
    naming warBonds (a WW2V3 one) is taken where WW2V3 is true and refused where it is not, in files whose rest is the
    same, each as validate_tree judges it (the options' check ran once on the rest, without the properties)."""
    from support.classic import KREMLIN

    trigger = (
        '<attachment name="triggerAttachmentWarBonds" attachTo="Russians" javaClass="games.strategy.triplea.attachments.TriggerAttachment" type="player">'
        '<option name="tech" value="warBonds"/></attachment>\n  </attachmentList>'
    )
    text = KREMLIN.read_text(encoding="utf-8").replace("  </attachmentList>", trigger, 1)
    assert "<technology" not in text and trigger in text
    validator = Validator()
    refused = []
    for flag in ("true", "false"):
        data = text.replace("<propertyList>", f'<propertyList>\n    <property name="WW2V3" value="{flag}" editable="false"><boolean/></property>', 1).encode(
            "utf-8"
        )
        verdict = validator.validate(data, etree.fromstring(data, parser()), "kremlin.xml")
        assert verdict == validate_tree(etree.fromstring(data, parser()), "kremlin.xml")
        refused.append(any("option tech" in p.message and "warBonds" in p.message for p in verdict))
    assert refused == [False, True] and validator.reused == 1


@pytest.mark.slow  # a second or more: keeps the quick subset under a minute; CI runs it
def test_an_options_verdict_kept_from_another_file_is_kept_only_where_all_it_depends_on_is_the_same() -> None:
    """options_the_engine_cannot_set keeps each option's verdict across files by the names the game declares and the
    attachments made before the option: a rules attachment a trigger's ``conditions`` names, renamed, or a unit type
    a trigger's ``placement`` names, renamed, is refused in the file that renames it and taken again in
    the file as it was, judged one after the other in one process."""
    text = (CORPUS_DIR / "dragon_war.xml").read_text(encoding="utf-8")
    renamed_rules = text.replace('<attachment name="conditionAttachmentPrologue"', '<attachment name="conditionAttachmentPrologue2"', 1)
    renamed_unit = text.replace('<unit name="Wizard"/>', '<unit name="Wizard2"/>', 1)
    assert renamed_rules != text and renamed_unit != text

    def refused_options(source: str) -> list[str]:
        found = validate_tree(etree.fromstring(source.encode("utf-8"), parser()), "dragon_war.xml", read_dtd=False)
        return [p.message for p in found if p.is_error and p.kind.startswith("options_the_engine_cannot_set")]

    for _ in range(2):
        assert refused_options(text) == []
        assert any("option conditions" in m and "conditionAttachmentPrologue" in m for m in refused_options(renamed_rules))
        assert any("option placement" in m and "'Wizard'" in m for m in refused_options(renamed_unit))


def test_the_matrix_validator_judges_a_utf16_game_whole(dtd: Path) -> None:
    """In UTF-16 a byte 10 is not a line break: the lines of the rest cannot be cut from the bytes, so nothing is kept."""
    data = TEXT.replace("UTF-8", "UTF-16", 1).encode("utf-16")
    validator = Validator(dtd)
    for _ in range(2):
        root = etree.fromstring(data, parser())
        assert validator.validate(data, root, "WW2v3-1942.xml") == validate_tree(root, "WW2v3-1942.xml", dtd=dtd)
    assert validator.reused == 0

"""validate's verdict is the engine's (issue 33): every real game and a mutation set made from real games,
validated by the tool and parsed by TripleA 2.7 (one JVM) and 1.9 (one JVM, for the files no other test of the run
had it read: the readings are shared, tests/support/engine.py), with zero disagreements.

An engine's verdict on a file is "refuses" (it does not parse it, or the 2.x game selector's
GameParsingValidation objects), "misreads" (it parses it but its board, the owners, units and PUs, differs
from the board the tool reads, or 2.7 holds a game property it cannot cast to the type it reads it as:
scripts/judge_with_triplea27.py) or "reads". The tool's verdict is "error" when validate reports an error for
that engine, else "valid". They agree when "error" goes with "refuses" or "misreads" and "valid" with
"reads". 1.9 is held to this for the files it parses; what it cannot read is validate's 1.9 note, not an error.
"""

from __future__ import annotations

import collections
import copy
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import attrs
import pytest
from lxml import etree

from kremlin_triplea.check.game_index import NEUTRAL
from kremlin_triplea.check.validate import TRIPLEA_2, TRIPLEA_19, validate_tree
from kremlin_triplea.engine.compare import disagreements
from kremlin_triplea.engine.savegame import read_with_triplea2
from kremlin_triplea.errors import InputError
from kremlin_triplea.game import load
from support.judge27 import judged_by_27
from support.paths import AA50_1942, ALL_GAMES, CORPUS_DIR, SHARED

pytestmark = [pytest.mark.engine, pytest.mark.slow]

TRIPLEA_27 = SHARED / "triplea-engine-2.7"
WITH_VARIABLES = CORPUS_DIR / "Invasion_USA.xml"  # variableList, foreach, @...@ and $...$ throughout


def _parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, strip_cdata=False)


def _first(root: etree._Element, path: str) -> etree._Element:
    found = root.find(path)
    assert found is not None, path
    return found


def _set(path: str, attribute: str, value: str) -> Callable[[etree._Element], None]:
    def edit(root: etree._Element) -> None:
        _first(root, path).set(attribute, value)

    return edit


def _add(path: str, xml: str) -> Callable[[etree._Element], None]:
    def edit(root: etree._Element) -> None:
        _first(root, path).append(etree.fromstring(xml))

    return edit


def _remove(path: str) -> Callable[[etree._Element], None]:
    def edit(root: etree._Element) -> None:
        element = _first(root, path)
        element.getparent().remove(element)

    return edit


def _twice(path: str) -> Callable[[etree._Element], None]:
    def edit(root: etree._Element) -> None:
        element = _first(root, path)
        element.addnext(copy.deepcopy(element))

    return edit


def _with(element: etree._Element, child: str, attribute: str, value: str) -> etree._Element:
    _first(element, child).set(attribute, value)
    return element


def _remove_attachment(attach_to: str, name: str) -> Callable[[etree._Element], None]:
    return _remove(f"attachmentList/attachment[@attachTo='{attach_to}'][@name='{name}']")


PLACEMENT = "initialize/unitInitialize/unitPlacement"
RESOURCE = "initialize/resourceInitialize/resourceGiven"
OWNER = "initialize/ownerInitialize/territoryOwner"
COST = "production/productionRule/cost"
RESULT = "production/productionRule/result"
NUMBER_PROPERTY = "propertyList/property[@editable='true'][number]"

#: What is changed in a real game, by kind: numbers, names, references, structure.
MUTATIONS: dict[str, Callable[[etree._Element], None]] = {
    **{f"numbers: unitPlacement quantity {v!r}": _set(PLACEMENT, "quantity", v) for v in ("one", " 2 ", "-5", "4294967296", "+3", "007", "", "2.0")},
    **{f"numbers: resourceGiven quantity {v!r}": _set(RESOURCE, "quantity", v) for v in ("4294967296", "-5", " 7", "x", "+12")},
    **{f"numbers: productionRule cost {v!r}": _set(COST, "quantity", v) for v in ("ten", "-1", "2147483648")},
    **{f"numbers: productionRule result {v!r}": _set(RESULT, "quantity", v) for v in ("1 ", "0")},
    "numbers: unitPlacement without quantity": lambda root: _first(root, PLACEMENT).attrib.pop("quantity"),
    **{f"numbers: editable property value {v!r}": _set(NUMBER_PROPERTY, "value", v) for v in ("4294967296", "+5")},
    "numbers: property value '4294967296'": _set("propertyList/property[@name='maxFactoriesPerTerritory']", "value", "4294967296"),
    **{
        f"numbers: unitAttachment movement {v!r}": _set("attachmentList/attachment[@name='unitAttachment']/option[@name='movement']", "value", v)
        for v in ("4294967296", " 2", "two")
    },
    "numbers: unitPlacement hitsTaken 'x'": _set(PLACEMENT, "hitsTaken", "x"),
    "numbers: unitPlacement unitDamage '-1'": _set(PLACEMENT, "unitDamage", "-1"),
    "numbers: step maxRunCount '1.5'": _set("gamePlay/sequence/step", "maxRunCount", "1.5"),
    "numbers: number property max 'lots'": _set(f"{NUMBER_PROPERTY}/number", "max", "lots"),
    "numbers: diceSides 'twelve'": lambda root: _first(root, "map").addprevious(etree.fromstring('<diceSides value="twelve"/>')),
    **{f"numbers: territory water {v!r}": _set("map/territory", "water", v) for v in ("maybe", "TRUE")},
    "numbers: property editable 'yes'": _set("propertyList/property", "editable", "yes"),
    "names: territoryOwner owner unknown": _set(OWNER, "owner", "Nobody"),
    "names: territoryOwner territory unknown": _set(OWNER, "territory", "Atlantis"),
    "names: unitPlacement unitType unknown": _set(PLACEMENT, "unitType", "dragon"),
    "names: unitPlacement territory unknown": _set(PLACEMENT, "territory", "Atlantis"),
    "names: unitPlacement owner unknown": _set(PLACEMENT, "owner", "Nobody"),
    "names: resourceGiven resource unknown": _set(RESOURCE, "resource", "Gold"),
    "names: duplicate territory": _twice("map/territory"),
    "names: duplicate player": _twice("playerList/player"),
    "names: duplicate unit type": _twice("unitList/unit"),
    "names: duplicate connection": _twice("map/connection"),
    "references: connection to an undeclared territory": _set("map/connection", "t2", "Atlantis"),
    "references: alliance of an unknown player": _set("playerList/alliance", "player", "Nobody"),
    "references: step with an unknown delegate": _set("gamePlay/sequence/step", "delegate", "nothing"),
    "references: frontier with an unknown rule": _set("production/productionFrontier/frontierRules", "name", "buyNothing"),
    "references: playerProduction of an unknown frontier": _set("production/playerProduction", "frontier", "nowhere"),
    "references: attachment to an unknown territory": _set("attachmentList/attachment[@type='territory']", "attachTo", "Atlantis"),
    "numbers: unitPlacement hitsTaken '1' on a one-hit unit": _set(PLACEMENT, "hitsTaken", "1"),
    "numbers: unitPlacement unitDamage ''": _set(PLACEMENT, "unitDamage", ""),
    "numbers: step maxRunCount '0'": _set("gamePlay/sequence/step", "maxRunCount", "0"),
    **{f"numbers: minimumVersion {v!r}": _set("triplea", "minimumVersion", v) for v in ("2.8", "2.6", "1.9.1", "two")},
    "names: step of an unknown player": _set("gamePlay/sequence/step[@player]", "player", "Nobody"),
    "names: territoryOwner owner 'Neutral'": _set(OWNER, "owner", "Neutral"),
    "names: player copied with other attributes": lambda root: _first(root, "playerList/player").addnext(
        etree.fromstring(f'<player name="{_first(root, "playerList/player").get("name")}" optional="true"/>')
    ),
    "names: production rule copied with another cost": lambda root: _first(root, "production/productionRule").addnext(
        _with(copy.deepcopy(_first(root, "production/productionRule")), "cost", "quantity", "1")
    ),
    "references: connection without t2": lambda root: _first(root, "map/connection").attrib.pop("t2"),
    "references: territoryOwner without owner": lambda root: _first(root, OWNER).attrib.pop("owner"),
    "structure: no loader": _remove("loader"),
    "structure: an owned territory without territoryAttachment": lambda root: _remove_attachment(_first(root, OWNER).get("territory"), "territoryAttachment")(
        root
    ),
    "structure: unit type without unitAttachment": lambda root: _remove_attachment(_first(root, "unitList/unit").get("name"), "unitAttachment")(root),
    "structure: an element neither engine knows": _add("map", '<territory name="Atlantis" color="blue"/>'),
    "structure: no map": _remove("map"),
}

#: Mutations of the game with variables: the names a foreach makes.
VARIABLE_MUTATIONS: dict[str, Callable[[etree._Element], None]] = {
    "variables: foreach of an undeclared variable": _set("attachmentList/attachment[@foreach]", "foreach", "$Nobody$"),
    "variables: a variable naming an unknown player": _set("variableList/variable[@name='AllPlayers']/element", "name", "Nobody"),
    "variables: an option of a variable naming an unknown territory": _set("variableList/variable[@name='InvaderCapitals']/element", "name", "Atlantis"),
    "variables: foreach variables of different lengths": _set(
        "attachmentList/attachment[@foreach='$InvadingPlayers$:$InvaderCapitals$']", "foreach", "$InvadingPlayers$:$AllPlayers$"
    ),
}


@attrs.frozen
class Case:
    path: Path
    kind: str  # "game" or the mutation's name


def _mutated(base: Path, mutations: dict[str, Callable[[etree._Element], None]], folder: Path) -> list[Case]:
    cases = []
    for index, (name, mutate) in enumerate(mutations.items()):
        tree = etree.parse(str(base), _parser())
        mutate(tree.getroot())
        path = folder / f"{index:03d}-{base.stem}.xml"
        tree.write(str(path), encoding="utf-8", xml_declaration=True)
        cases.append(Case(path, name))
    return cases


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> list[Case]:
    folder = tmp_path_factory.mktemp("mutations")
    return [
        *(Case(path, "game") for path in ALL_GAMES),
        *_mutated(AA50_1942, MUTATIONS, folder),
        *_mutated(WITH_VARIABLES, VARIABLE_MUTATIONS, folder),
    ]


def _tool(path: Path) -> tuple[list[str], list[str], object | None]:
    """validate's errors judged for 2.x and for 1.9, and the board the tool reads (None if it refuses the file)."""
    root = etree.parse(str(path), _parser()).getroot()
    judged = [[p.message for p in validate_tree(root, path.name, engine=engine) if p.is_error] for engine in (TRIPLEA_2, TRIPLEA_19)]
    try:
        board = load(path).board
    except InputError:
        board = None
    return judged[0], judged[1], _as_the_engines_name_owners(board)


def _as_the_engines_name_owners(board):
    """The tool's board with the owner "Neutral" read as no owner, as both engines read it (PlayerList.getPlayerId
    looks it up as their no-player first). The board reader keeps the name as written: a reader's difference in how
    a no-owner is named, not one in what the file says, and validate warns where a declared player of that name loses out."""
    if board is None:
        return None
    nodes = {}
    for name, node in board.nodes.items():
        units = collections.Counter()
        for (owner, unit_type), count in node["units"].items():
            units[(None if owner == NEUTRAL else owner, unit_type)] += count
        nodes[name] = {**node, "owner": None if node["owner"] == NEUTRAL else node["owner"], "units": dict(units)}
    return SimpleNamespace(nodes=nodes, pus=board.pus, properties=board.properties, game_name=board.game_name)


def _engine_verdict(reading, board, *, refused: bool, triplea2: bool) -> str:
    if refused:
        return "refuses"
    if board is None or disagreements(board, reading, properties=False, triplea2=triplea2):
        return "misreads"
    return "reads"


def test_validate_agrees_with_both_engines_on_every_game_and_mutation(cases: list[Case], engine_readings) -> None:
    paths = [case.path for case in cases]
    readings_27 = read_with_triplea2(paths, triplea=TRIPLEA_27)
    casts_27 = [answer["verdict"] == "misreads" for answer in judged_by_27(paths)]  # a property 2.7 cannot cast
    readings_19 = engine_readings.read(paths, rules=False)  # what 1.9 reads, not its rules report
    table: collections.Counter[tuple[str, str, str, str]] = collections.Counter()
    wrong = []
    for case, new, old, cast in zip(cases, readings_27, readings_19, casts_27):
        errors, errors_19, board = _tool(case.path)
        tool, tool_19 = ("error" if found else "valid" for found in (errors, errors_19))
        source = "game" if case.kind == "game" else "mutation"
        refused_27 = new.error is not None or bool(new.validation)
        verdict_27 = "misreads" if cast and not refused_27 else _engine_verdict(new, board, refused=refused_27, triplea2=True)
        table[source, "2.7", verdict_27, tool] += 1
        if (tool == "error") != (verdict_27 != "reads"):
            wrong.append(f"2.7 {verdict_27}, validate {tool}: {case.kind} {case.path.name}: {errors[:2] or new.error or new.validation}")
        verdict_19 = _engine_verdict(old, board, refused=not old.ok, triplea2=False)
        table[source, "1.9", verdict_19, tool_19] += 1
        if old.ok and (tool_19 == "error") != (verdict_19 != "reads"):
            wrong.append(f"1.9 {verdict_19}, validate --engine 1.9 {tool_19}: {case.kind} {case.path.name}: {errors_19[:2]}")
    print("\nfiles | engine | engine's verdict | validate's verdict | count")
    for (source, engine, verdict, tool), count in sorted(table.items()):
        print(f"{source} | {engine} | {verdict} | {tool} | {count}")
    assert wrong == []

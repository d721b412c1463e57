"""Rules written into the game (rules/game_rules.py): 000's section D and the rules that are not options.

Each game-file action's exact effect on the written game, composition of
several rule sets (conflicts refused naming both), and the notes' list of what
players enforce themselves.
"""

from __future__ import annotations

from collections import Counter
from html import escape
from pathlib import Path

import pytest
import tomli_w
import tomllib
from click.testing import CliRunner
from lxml import etree

from kremlin_triplea.cli.main import main
from kremlin_triplea.draft.rulesets import load_named_ruleset
from kremlin_triplea.draft.run import draft_from_dict
from kremlin_triplea.game import load
from kremlin_triplea.gamerules.actions import game_rule_changes
from kremlin_triplea.report.notes import add_notes
from kremlin_triplea.rules.game_rules import RuleSet, read_game_rules
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.profile import load_named_profile
from kremlin_triplea.rules.tomlfile import DataFileError, Section
from kremlin_triplea.session import apply_draft
from support.aa50 import GAMES, SEED, fresh_game
from support.paths import EXAMPLES_DIR, MAPS_DIR

RULESET = load_named_ruleset("kremlin-aa50")
PROFILE = load_named_profile("world_war_ii_v3")
SEED_TEXT = " ".join((Path(__file__).resolve().parents[2] / "shared" / "seeds" / SEED).read_text().split())
BOTH = pytest.mark.parametrize("year", sorted(GAMES))


def aa50_set() -> RuleSet:
    return RuleSet(RULESET.id, RULESET.title, RULESET.source, RULESET.path, RULESET.game_rules)


def rule_set(set_id: str, rules: list[dict]) -> RuleSet:
    return RuleSet(set_id, set_id, "test", "<test>", read_game_rules(Section({"rule": rules}, "<test>"), "rule", set_id))


def written(year: str, sets: list[RuleSet], choices: tuple[str, ...] = ()) -> etree._Element:
    """The game file with only ``sets``' rules applied, parsed back."""
    game = fresh_game(GAMES[year])
    applied = game_rule_changes(game.board, sets, PROFILE, Names(game.board, PROFILE, RULESET.sides), choices)
    game.board.push_all(list(applied.changes))
    return etree.fromstring(game.to_bytes())


def test_every_rule_of_section_d_and_the_rest_is_listed_with_who_enforces_it() -> None:
    by = {r.id: r.enforced_by for r in RULESET.game_rules}
    assert by["d1-tech"] == by["d2-no-gambit"] == by["d4-victory-count"] == "players"
    assert by["d3-straits"] == by["d4-victory-city"] == by["d5-china-first-move"] == by["d5-china-stacking"] == "game"
    assert by["d5-burma-road-upgrade"] == by["d5-burma-road-infantry"] == by["d5-china-planes"] == "players"
    assert by["clarification-locks"] == by["c-bid-placement"] == by["d5-china-options"] == "tool"
    for rule in RULESET.game_rules:
        assert rule.source.startswith(SEED)
        assert " ".join(rule.rule.split()) in SEED_TEXT, rule.rule
        assert {"tool": rule.checked_by, "players": rule.why, "game": rule.changes or rule.built_in}[rule.enforced_by]


@BOTH
def test_straits_become_canals_on_the_profiles_sea_zones(year: str) -> None:
    root = written(year, [aa50_set()])
    canals = {}
    for attachment in root.iter("attachment"):
        if attachment.get("name", "").startswith("canalAttachmentKremlin"):
            options = {o.get("name"): o.get("value") for o in attachment.iter("option")}
            canals.setdefault(options["canalName"], []).append((attachment.get("attachTo"), options["landTerritories"], options["excludedUnits"]))
    assert canals == {
        "Kremlin gibraltar 1": [("12 Sea Zone", "Gibraltar:Morocco Algeria", "bomber:fighter")]
        + [("13 Sea Zone", "Gibraltar:Morocco Algeria", "bomber:fighter")],
        "Kremlin baltic 1": [("5 Sea Zone", "Northwestern Europe:Norway", "bomber:fighter"), ("6 Sea Zone", "Northwestern Europe:Norway", "bomber:fighter")],
        "Kremlin black_sea 1": [("14 Sea Zone", "Turkey", "bomber:fighter"), ("16 Sea Zone", "Turkey", "bomber:fighter")],
        "Kremlin black_sea 2": [("15 Sea Zone", "Turkey", "bomber:fighter"), ("16 Sea Zone", "Turkey", "bomber:fighter")],
    }
    # Each sea zone's canal attachments have distinct names (TripleA keys attachments by name).
    names = [(a.get("attachTo"), a.get("name")) for a in root.iter("attachment") if a.get("name", "").startswith("canalAttachment")]
    assert len(names) == len(set(names))


@BOTH
def test_the_victory_city_moves_from_ottawa_to_capetown(year: str) -> None:
    game = fresh_game(GAMES[year])
    applied = game_rule_changes(game.board, [aa50_set()], PROFILE, Names(game.board, PROFILE, RULESET.sides))
    game.board.push_all(list(applied.changes))
    assert (game.initial.node("Eastern Canada")["victory_city"], game.initial.node("Union of South Africa")["victory_city"]) == (1, 0)
    assert (game.board.node("Eastern Canada")["victory_city"], game.board.node("Union of South Africa")["victory_city"]) == (0, 1)
    reread = load_bytes(game.to_bytes())
    assert (reread.board.node("Eastern Canada")["victory_city"], reread.board.node("Union of South Africa")["victory_city"]) == (0, 1)


def load_bytes(data: bytes, tmp: Path = Path("/tmp")):
    import tempfile

    with tempfile.NamedTemporaryFile(suffix=".xml", dir=tmp, delete=False) as stream:
        stream.write(data)
    try:
        return load(stream.name)
    finally:
        Path(stream.name).unlink()


@BOTH
def test_china_moves_first_in_round_one_only_with_a_non_combat_step(year: str) -> None:
    root = written(year, [aa50_set()])
    steps = [s for s in root.find("gamePlay").find("sequence") if isinstance(s.tag, str)]
    names = [s.get("name") for s in steps]
    index = names.index("kremlinChinaFirstMoveChineseNonCombatMove")
    assert names[index - 1] == "americanBidPlace"
    assert names[index + 1] in ("germanTech", "japaneseTech")  # the first power's first step
    step = steps[index]
    assert (step.get("delegate"), step.get("player"), step.get("maxRunCount")) == ("move", "Chinese", "1")
    assert [(p.get("name"), p.get("value")) for p in step] == [("nonCombatMove", "true")]


@BOTH
def test_chinese_movement_list_and_stacking_limit(year: str) -> None:
    root = written(year, [aa50_set()])
    chinese = next(a for a in root.iter("attachment") if a.get("attachTo") == "Chinese" and a.get("name") == "rulesAttachment")
    options = {o.get("name"): o.get("value") for o in chinese.iter("option")}
    assert options["movementRestrictionTerritories"] == (
        "Chinghai:Ningxia:Sikang:Yunnan:Hupeh:Fukien:Suiyuan:Manchuria:Kiangsu:Kwangtung:Burma:French Indo-China Thailand:Mongolia"
    )
    assert "placementPerTerritory" not in options
    assert options["productionPerXTerritories"] == "2"  # D(5) "one infantry for every two territories": already there


def test_rule_sets_compose_and_a_conflict_names_both_sources() -> None:
    low = rule_set(
        "house-a",
        [
            {
                "id": "ll",
                "title": "Low luck",
                "source": "a.txt",
                "rule": "low luck",
                "enforced_by": "game",
                "change": [{"kind": "set_property", "name": "Low Luck", "value": True}],
            }
        ],
    )
    same = rule_set(
        "house-b",
        [
            {
                "id": "ll2",
                "title": "Low luck too",
                "source": "b.txt",
                "rule": "low luck",
                "enforced_by": "game",
                "change": [{"kind": "set_property", "name": "Low Luck", "value": True}],
            }
        ],
    )
    dice = rule_set(
        "house-c",
        [
            {
                "id": "dice",
                "title": "Dice",
                "source": "c.txt",
                "rule": "real dice",
                "enforced_by": "game",
                "change": [{"kind": "set_property", "name": "Low Luck", "value": False}],
            }
        ],
    )
    root = written("1941", [aa50_set(), low, same])
    assert [p.get("value") for p in root.iter("property") if p.get("name") == "Low Luck"] == ["true"]
    with pytest.raises(DataFileError) as error:
        written("1941", [aa50_set(), low, dice])
    message = str(error.value)
    assert "house-a rule 'll' (a.txt)" in message and "house-c rule 'dice' (c.txt)" in message
    # Both values, in the players' words (issue 13), and no switch to offer: these rules have none.
    assert "game option 'Low Luck' = true" in message and "game option 'Low Luck' = false" in message
    assert "drop one of the two rule sets" in message.lower()


def test_a_property_the_game_lacks_is_declared_with_its_type() -> None:
    economic = rule_set(
        "house-e",
        [
            {
                "id": "ev",
                "title": "Economic victory",
                "source": "e.txt",
                "rule": "win at 84",
                "enforced_by": "game",
                "change": [
                    {"kind": "set_property", "name": "Economic Victory", "value": True},
                    {"kind": "set_property", "name": "Axis Economic Victory", "value": 84},
                ],
            }
        ],
    )
    root = written("1941", [economic])
    found = {p.get("name"): (p.get("value"), [c.tag for c in p]) for p in root.iter("property") if "Economic" in p.get("name")}
    assert found == {"Economic Victory": ("true", ["boolean"]), "Axis Economic Victory": ("84", ["number"])}


def test_a_frontier_cost_gives_one_power_its_own_price() -> None:
    cheap = rule_set(
        "house-f",
        [
            {
                "id": "cheap",
                "title": "Cheap infantry",
                "source": "f.txt",
                "rule": "Russian infantry cost 2",
                "enforced_by": "game",
                "change": [{"kind": "frontier_cost", "power": "USSR", "costs": {"infantry": 2}}],
            }
        ],
    )
    game = fresh_game(GAMES["1941"])
    applied = game_rule_changes(game.board, [cheap], PROFILE, Names(game.board, PROFILE, RULESET.sides))
    game.board.push_all(list(applied.changes))
    reread = load_bytes(game.to_bytes())
    assert reread.catalog.cost("infantry", "Russians") == 2
    assert reread.catalog.cost("infantry", "Germans") == reread.catalog.cost("infantry", "British") == 3
    assert applied.game_lines == ("Cheap infantry: Russians pay 2 PUs for infantry (was 3)",)


def test_when_and_maps_select_rules() -> None:
    rules = rule_set(
        "house-w",
        [
            {
                "id": "only-classic",
                "title": "Classic only",
                "source": "w.txt",
                "rule": "x",
                "enforced_by": "game",
                "maps": ["world_war_ii_classic"],
                "change": [{"kind": "set_property", "name": "Low Luck", "value": True}],
            },
            {
                "id": "chosen",
                "title": "Chosen",
                "source": "w.txt",
                "rule": "y",
                "enforced_by": "game",
                "change": [{"kind": "set_property", "name": "Kamikaze Airplanes", "value": True, "when": "kamikaze"}],
            },
        ],
    )
    game = fresh_game(GAMES["1941"])
    names = Names(game.board, PROFILE, RULESET.sides)
    assert game_rule_changes(game.board, [rules], PROFILE, names).changes == ()
    chosen = game_rule_changes(game.board, [rules], PROFILE, names, ["kamikaze"])
    assert [str(c) for c in chosen.changes] == ["set game option 'Kamikaze Airplanes' to 'true'"]
    assert chosen.skipped == ("house-w rule 'only-classic' (w.txt): not for this game (maps world_war_ii_classic)",)


def test_malformed_rules_are_refused_with_file_and_key() -> None:
    with pytest.raises(DataFileError, match=r"rule\[0\]\.change\[0\]\.kind: expected one of set_property"):
        rule_set("x", [{"id": "a", "title": "a", "source": "s", "rule": "r", "enforced_by": "game", "change": [{"kind": "teleport"}]}])
    with pytest.raises(DataFileError, match=r"rule\[0\]\.why: expected why the game cannot enforce it"):
        rule_set("x", [{"id": "a", "title": "a", "source": "s", "rule": "r", "enforced_by": "players"}])
    with pytest.raises(DataFileError, match=r"rule\[0\]\.change: expected game-file changes"):
        rule_set("x", [{"id": "a", "title": "a", "source": "s", "rule": "r", "enforced_by": "game"}])


def notes_section(notes: str, heading: str) -> str:
    """The notes from ``<h3>heading</h3>`` to the next heading or the end of the Kremlin notes."""
    start = notes.index(f"<h3>{heading}</h3>") + len(heading) + 9
    return notes[start : min(i for i in (notes.find("<h3>", start), notes.index("<hr/>")) if i != -1)]


def test_the_notes_list_what_the_players_enforce_and_what_the_game_does() -> None:
    data = {
        "ruleset": "kremlin-aa50",
        "first": "Axis",
        "picks_per_side": 4,
        "pick": [
            {"side": "Axis", "option": 11, "scenario": "Carrier force at Pearl Harbor"},
            {"side": "Allies", "option": 11, "scenario": "No Russian Purge"},
            {"side": "Axis", "option": 7, "place": [{"power": "Germans", "unit": "bomber", "at": "Germany"}]},
            {"side": "Allies", "option": 7, "place": [{"power": "Americans", "unit": "bomber", "at": "Eastern United States"}]},
            {"side": "Axis", "option": 6, "place": [{"power": "Germans", "unit": "fighter", "at": "Germany"}]},
            {"side": "Allies", "option": 6, "place": [{"power": "Americans", "unit": "fighter", "at": "Eastern United States"}]},
            {"side": "Axis", "option": 1, "place": [{"power": "Germans", "unit": "infantry", "count": 3, "at": "Germany"}]},
            {"side": "Allies", "option": 1, "place": [{"power": "Americans", "unit": "infantry", "count": 3, "at": "Eastern United States"}]},
        ],
        "bid": {"axis": 0},
    }
    result = add_notes(apply_draft(draft_from_dict(data), fresh_game(GAMES["1941"])))
    notes = result.game.board.properties["notes"]
    honour = notes_section(notes, "You enforce")
    enforced = notes_section(notes, "TripleA enforces")
    for rule in RULESET.game_rules:
        if rule.enforced_by == "players":
            assert escape(rule.rule) in honour, rule.title  # quoted whole
        elif rule.enforced_by == "game":
            assert escape(rule.title) in enforced and escape(rule.rule) not in honour
    # The scenario's own rule text (000_bc04a4edf7f7d2ab.txt, option 11, Axis scenario), quoted whole.
    assert escape("the fighter is caught on the carrier if Japan attacks Pearl Harbor Round 1 and may not defend") in honour
    # How TripleA's version differs is the host's: apply prints it.
    assert "Straits" in "\n".join(result.summary()[result.summary().index("how TripleA plays them:") :])


def _profile_without(tmp_path: Path, **tables: str) -> Path:
    """The world_war_ii_v3 profile less the named entries (``straits="gibraltar"``): a map that lacks them."""
    data = tomllib.loads(Path(PROFILE.path).read_text(encoding="utf-8"))
    for table, key in tables.items():
        del data[table][key]
    path = tmp_path / "world_war_ii_v3.toml"
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    return path


def test_a_game_rule_the_map_cannot_express_is_the_players_with_a_warning_not_a_refusal(tmp_path: Path) -> None:
    """Issue 28: apply refused a whole draft for 'the map profile has no [straits.gibraltar]'. 000 D(3) names three
    straits (Gibraltar, Baltic, Dardanelles) and D(5) China's first move; on a map without Gibraltar's strait and
    without a place for China's step, the other two canals are written, the rest is the players', with a warning each."""
    straits = RULESET.rule_set.rules[[r.id for r in RULESET.rule_set.rules].index("d3-straits")]
    china = RULESET.rule_set.rules[[r.id for r in RULESET.rule_set.rules].index("d5-china-first-move")]
    for quoted in ("Straight of Gibraltar, Baltic Straight, and the Dardanelles Straight", "China makes a restricted first move"):
        assert quoted in SEED_TEXT  # the rules as 000_bc04a4edf7f7d2ab.txt D(3) and D(5) word them
    profile = _profile_without(tmp_path, straits="gibraltar", turn_step_positions="before_first_turn")
    draft = tomllib.loads((EXAMPLES_DIR / "kremlin-aa50-1941.toml").read_text(encoding="utf-8"))
    draft["profile"] = str(profile)
    draft_path = tmp_path / "draft.toml"
    draft_path.write_text(tomli_w.dumps(draft), encoding="utf-8")
    out = tmp_path / "out.xml"
    result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "apply", str(draft_path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.stderr.splitlines() if "not written into the game" in line]
    assert len(warnings) == 2, result.stderr
    assert "[straits.gibraltar]" in warnings[0] and "d3-straits" in warnings[0] and "'Straits'" in warnings[0]
    assert "[turn_step_positions.before_first_turn]" in warnings[1] and "China's restricted first move" in warnings[1]
    root = etree.parse(str(out)).getroot()
    base = etree.parse(str(GAMES["1941"])).getroot()
    canal = "//attachment[@javaClass='games.strategy.triplea.attachments.CanalAttachment']"
    added = Counter((c.get("name"), c.get("attachTo")) for c in root.xpath(canal)) - Counter((c.get("name"), c.get("attachTo")) for c in base.xpath(canal))
    zones = {zone for _, zone in added}
    # The Baltic's and the Dardanelles' sea zones (the profile's [straits.baltic], [straits.black_sea]), not Gibraltar's.
    assert zones == {"5 Sea Zone", "6 Sea Zone", "14 Sea Zone", "15 Sea Zone", "16 Sea Zone"}
    assert not root.xpath("//sequence/step[contains(@name, 'China')]")
    notes = root.xpath("//property[@name='notes']/value")[0].text
    you_enforce = notes[notes.index("<h3>You enforce</h3>") :]
    enforced = notes[notes.index("<h3>TripleA enforces</h3>") : notes.index("<h3>You enforce</h3>")]
    assert escape(straits.rule) in you_enforce and "[straits.gibraltar]" in you_enforce
    assert escape(china.rule) in you_enforce
    # Two of the three straits are still TripleA's; China's step is not in the game at all.
    assert "Straits" in enforced and china.title not in enforced


def test_a_game_rule_s_own_mistake_still_refuses_the_draft() -> None:
    """A rule that asks for nothing the game lacks but is malformed (a canal with ships = "boats") is the rule file's
    error, not the map's: it is refused, unlike a missing strait."""
    game = fresh_game(GAMES["1941"])
    broken = rule_set(
        "test",
        [{"id": "x", "title": "x", "source": "s", "rule": "r", "enforced_by": "game", "change": [{"kind": "canal", "strait": "baltic", "ships": "boats"}]}],
    )
    with pytest.raises(DataFileError, match="ships"):
        game_rule_changes(game.board, [broken], PROFILE, Names(game.board, PROFILE, RULESET.sides))


def _without_baltic_shores(profile):
    import attrs

    return attrs.evolve(profile, straits={**profile.straits, "baltic": attrs.evolve(profile.straits["baltic"], land=())})


#: Each way a change can ask for what the AA50 map (or its profile) does not have; (change, profile edit, words of why).
LACKING = {
    "a strait the profile lacks": ({"kind": "canal", "strait": "kattegat"}, None, "no [straits.kattegat]"),
    "a strait without its shores": ({"kind": "canal", "strait": "baltic"}, _without_baltic_shores, "which land territories control the strait"),
    "a victory city the game lacks": ({"kind": "victory_city", "from": "Egypt", "to": "Ottawa"}, None, "is not a victory city"),
    "a turn step position the profile lacks": (
        {"kind": "turn_step", "id": "x", "power": "Germans", "move": "non_combat", "position": "after_the_war"},
        None,
        "[turn_step_positions.after_the_war]",
    ),
    "units that are not there": (
        {"kind": "move_units", "power": "Germans", "units": {"infantry": 99}, "from": "Germany", "to": "Poland"},
        None,
        "the rule moves 99",
    ),
    "a power the game lacks": ({"kind": "grant_tech", "power": "Martians", "tech": "jetPower"}, None, "Martians"),
    "an attachment the game lacks": (
        {"kind": "attachment_option", "attachment": "rulesAttachment", "attach_to": "Germans", "option": "placementPerTerritory", "value": "3"},
        None,
        "has no rulesAttachment on Germans",
    ),
    "a place the game lacks": ({"kind": "place_units", "power": "Germans", "units": {"infantry": 1}, "at": "Atlantis"}, None, "Atlantis"),
}


@pytest.mark.parametrize("case", sorted(LACKING))
def test_every_change_the_map_cannot_express_is_left_to_the_players_not_refused(case: str) -> None:
    """The class of issue 28's missing strait: whatever a change needs that the game lacks costs that change only."""
    change, edit, why = LACKING[case]
    profile = edit(PROFILE) if edit is not None else PROFILE
    game = fresh_game(GAMES["1941"])
    keeps = {"kind": "set_property", "name": "Kremlin test", "value": True}
    rules = rule_set("test", [{"id": "x", "title": "Lacking", "source": "s", "rule": "r", "enforced_by": "game", "change": [keeps, change]}])
    applied = game_rule_changes(game.board, [rules], profile, Names(game.board, profile, RULESET.sides))
    assert [(rule.id, why in text) for rule, text in applied.unwritten] == [("x", True)], applied.unwritten
    assert [c.name for c in applied.changes] == ["Kremlin test"]  # the rule's other change is written
    assert [r.id for r in applied.game] == ["x"] and len(applied.warnings()) == 1
    alone = rule_set("test", [{"id": "y", "title": "Lacking", "source": "s", "rule": "r", "enforced_by": "game", "change": [change]}])
    applied = game_rule_changes(game.board, [alone], profile, Names(game.board, profile, RULESET.sides))
    assert applied.changes == () and applied.game == ()  # nothing of it in the game: it is not listed as TripleA's

"""Every rule the notes say "TripleA enforces" holds in the game written (issue 46, item 2).

Each rule set is written into every game it fits (every pinned and corpus game a map profile covers), its notes
added as ``apply`` adds them, and each rule the notes list under "TripleA enforces" checked against the written
XML by what TripleA 2.7 reads (an oracle per claim here, from the engine's source, not from the tool's checks).
"""

from __future__ import annotations

import re
from functools import cache
from html import unescape
from pathlib import Path

import pytest
from lxml import etree

from kremlin_triplea.draft.rulesets import load_named_ruleset
from kremlin_triplea.errors import KremlinError
from kremlin_triplea.game import Game, load
from kremlin_triplea.gamerules.actions import game_rule_changes
from kremlin_triplea.gamerules.house import HouseChoices, HouseResult, apply_house_rules
from kremlin_triplea.report.notes import add_notes
from kremlin_triplea.rules.game_rules import GameRule
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.profile import Profile, profile_for_game
from support.paths import ALL_GAMES, CORPUS_DIR, QUICK_CORPUS, game_id

REPO = Path(__file__).resolve().parents[1]
KREMLIN_RULESETS = ("kremlin-aa50", "kremlin-classic", "kremlin-daak")
HOUSE_SETS = ("house-classic", "house-revised")


def _options(root: etree._Element, attachment: str, attach_to: str) -> dict[str, str]:
    return {
        o.get("name"): o.get("value")
        for a in root.iter("attachment")
        if a.get("name") == attachment and a.get("attachTo") == attach_to
        for o in a.iter("option")
    }


def _per_territories(root: etree._Element, player: str) -> str | None:
    """The player's productionPerXTerritories as 2.7's GameParser hands it to the attachment ("count:value")."""
    for a in root.iter("attachment"):
        if a.get("name") == "rulesAttachment" and a.get("attachTo") == player:
            for o in a.iter("option"):
                if o.get("name") == "productionPerXTerritories":
                    return o.get("value") if o.get("count") is None else f"{o.get('count')}:{o.get('value')}"
    return None


def _property(root: etree._Element, name: str) -> str | None:
    return next((p.get("value") for p in root.iter("property") if p.get("name") == name), None)


def _player(profile: Profile, rule_power: str) -> str:
    return profile.powers.get(rule_power, rule_power)


def _engine(root: etree._Element, profile: Profile) -> bool:
    return True


def _props(**wanted: str):
    return lambda root, profile: all(_property(root, name.replace("_", " ")) == value for name, value in wanted.items())


# The built-in claims (a rule with no change: "already in the game"), each as TripleA 2.7 decides it.
BUILT_IN = {
    # BattleTracker.takeOver: any game's captor takes a captured capital's PUs and liberates an ally's territory;
    # ProductionPanel/EndTurnDelegate count a territory's production as its owner's income.
    "capturing-a-capital": _engine,
    "hr7-liberation": _engine,
    "b-neutral-income": _engine,
    "v-starting-income": _engine,
    # TechAdvance.findAdvance: a technology the game does not list cannot be had.
    "dev-super-subs": lambda root, profile: any(t.get("name") == "superSub" for t in root.iter("techname")),
    "dev-long-range-aircraft": lambda root, profile: any(t.get("name") == "longRangeAir" for t in root.iter("techname")),
    # A canal at the Sweden strait would stop ships (CanalAttachment): none there.
    "straits-sweden": lambda root, profile: (
        not any(
            a.get("name", "").startswith("canalAttachment") and "Sweden" in (o.get("value") or "").split(":")
            for a in root.iter("attachment")
            for o in a.iter("option")
            if o.get("name") == "landTerritories"
        )
    ),
    # NoPuPurchaseDelegate: productionPerXTerritories on the Chinese rulesAttachment.
    # (GameParser reads value="infantry" count="2" as "2:infantry": one infantry per two territories.)
    "d5-china-income": lambda root, profile: _per_territories(root, _player(profile, "China")) in ("2", "2:infantry"),
    # classic_3rd_edition.xml against classic.xml (world_war_ii_classic): what the 3rd edition sets otherwise.
    "h1-third-edition": _props(Attacker_Retreat_Planes="true", Multiple_AA_Per_Territory="true", Submarines_Defending_May_Submerge_Or_Retreat="true"),
    "i-second-edition": _props(
        Attacker_Retreat_Planes="false", Multiple_AA_Per_Territory="false", Submarines_Defending_May_Submerge_Or_Retreat="false", Two_hit_battleship="false"
    ),
    # The map profile records, per map, whether its game limits a factory to its territory's production, and the
    # '<power> bid' properties its bid phase reads (checked by hand, with reasons, in maps/*.toml).
    "b-factory-output": lambda root, profile: profile.factory_output_enforced_by_game,
    "iii-undeclared-bid": lambda root, profile: profile.bid_property is not None,
}


def _property_effects(rule: GameRule, root: etree._Element, profile: Profile) -> list[str]:
    """What a property the rule sets needs of the game for TripleA to act on it, where it does not."""
    wrong = []
    for change in rule.changes:
        data = change.data
        if data.get("kind") != "set_property" or data.get("value") is not True or _property(root, data["name"]) != "true":
            continue
        if data["name"] == "Two hit battleship":
            # InitializationDelegate.initTwoHitBattleship: only the unit type named exactly "battleship".
            types = {u.get("name") for u in root.iter("unit")}
            battleship = profile.units.get("battleship", "battleship")
            if "battleship" not in types and _options(root, "unitAttachment", battleship).get("hitPoints") != "2":
                wrong.append("no unit type named 'battleship' and no 2-hit battleship")
        if data["name"] == "Movement By Territory Restricted":
            # MoveValidator: a player is restricted only by its rulesAttachment's movementRestrictionTerritories.
            if "movementRestrictionTerritories" not in _options(root, "rulesAttachment", _player(profile, "Russia")):
                wrong.append("the Russians have no movementRestrictionTerritories")
    return wrong


@cache
def _games_with_profiles() -> list[Path]:
    found = []
    for path in ALL_GAMES:
        try:
            profile_for_game(load(path))
        except KremlinError:
            continue
        found.append(path)
    return found


def _written(game: Game, rule_set: str) -> HouseResult | None:
    """``rule_set`` written into ``game`` with its profile, or None where it does not fit the game."""
    try:
        if rule_set in HOUSE_SETS:
            return apply_house_rules(game, [HouseChoices(rule_set)])
        profile = profile_for_game(game)
        names = Names(game.board, profile, ("Axis", "Allies"))
        applied = game_rule_changes(game.board, [load_named_ruleset(rule_set).rule_set], profile, names)
    except KremlinError:
        return None
    game.board.push_all(list(applied.changes))
    return HouseResult(game, profile, applied, ())


def _enforced(notes: str) -> list[str]:
    ours = notes[: notes.index("<hr/>")]
    if "<h3>TripleA enforces</h3>" not in ours:
        return []
    section = ours[ours.index("<h3>TripleA enforces</h3>") :]
    section = section[: section.find("<h3>", 5)] if section.find("<h3>", 5) != -1 else section
    return [unescape(item) for item in re.findall(r"<li>(.*?)</li>", section, re.DOTALL)]


def _params() -> list:
    games = [p for p in ALL_GAMES if p.parent != CORPUS_DIR or p in QUICK_CORPUS]
    slow = [p for p in ALL_GAMES if p not in games]
    return [pytest.param(p, id=game_id(p)) for p in games] + [pytest.param(p, id=game_id(p), marks=pytest.mark.slow) for p in slow]


@pytest.mark.slow  # keeps the quick subset under a minute; CI runs it
@pytest.mark.parametrize("path", _params())
def test_every_claim_the_notes_make_holds_in_the_written_game(path: Path) -> None:
    try:
        profile_for_game(load(path))
    except KremlinError:
        return  # no map profile covers this game: no rule set is written into it (profile new is the way there)
    written_any = False
    for rule_set in (*KREMLIN_RULESETS, *HOUSE_SETS):
        result = _written(load(path), rule_set)
        if result is None:
            continue
        written_any = True
        rules = result.rules
        notes = add_notes(result).game.board.properties["notes"]
        root = etree.fromstring(result.game.to_bytes(), etree.XMLParser(huge_tree=True))
        listed = _enforced(notes)
        wrong = []
        for rule in rules.game:
            if not any(line == rule.title or line.startswith(f"{rule.title}:") or line.startswith(f"{rule.title} In TripleA") for line in listed):
                continue  # not claimed: the players keep it (or it is not for this game)
            if rule.built_in and not rule.changes:
                assert rule.id in BUILT_IN, f"{rule_set} {rule.id}: a built-in claim this test has no check for"
                if not BUILT_IN[rule.id](root, result.profile):
                    wrong.append(f"{rule.id}: claimed 'already in the game', the game does not have it")
            wrong += [f"{rule.id}: {why}" for why in _property_effects(rule, root, result.profile)]
        assert wrong == [], f"{rule_set} on {game_id(path)}: {wrong}"
    assert written_any, game_id(path)


def test_the_claims_the_issue_found_false_are_the_players(tmp_path: Path) -> None:
    """kremlin-classic on world_war_ii_classic/classic.xml (a 2nd-edition game): "Standard Third Edition rules" is not
    "already in the game"; the notes quote it for the players, saying which property is otherwise."""
    classic = next(p for p in ALL_GAMES if p.parts[-4:] == ("world_war_ii_classic", "map", "games", "classic.xml"))
    result = _written(load(classic), "kremlin-classic")
    assert result is not None
    notes = add_notes(result).game.board.properties["notes"]
    assert not any(line.startswith("Standard Third Edition rules") for line in _enforced(notes))
    yours = unescape(notes[notes.index("<h3>You enforce</h3>") : notes.index("<hr/>")])
    assert "Standard Third Edition rules (not in this game: this game's property 'Attacker Retreat Planes' is 'false', not True" in yours


DATA = Path(__file__).resolve().parent / "data"
# Maps the tool has never seen (tests/data/PROVENANCE.md), read with the profile a host drafts (``profile new``).
DRAFTED = [DATA / "world_war_ii_v4" / "WW2v4.xml", DATA / "total_world_war" / "Total_World_War_Dec1941_3.0.xml"]


@pytest.mark.slow
@pytest.mark.parametrize("path", DRAFTED, ids=[p.parent.name for p in DRAFTED])
@pytest.mark.parametrize("rule_set", KREMLIN_RULESETS)
def test_on_a_map_never_seen_every_claim_holds_in_the_written_game(tmp_path: Path, path: Path, rule_set: str) -> None:
    """The issue's cases: "Restricted Russia" where no player has a movement list (World War II v4), "2-hit
    battleships" where no unit type is named exactly 'battleship' (Total World War's per-power types)."""
    from click.testing import CliRunner

    from kremlin_triplea.cli.main import main
    from kremlin_triplea.rules.profile import load_profile

    written = tmp_path / f"{path.stem}.toml"
    made = CliRunner().invoke(main, ["profile", "new", str(path), "--ruleset", rule_set, "-o", str(written)])
    assert made.exit_code == 0, made.output
    profile = load_profile(written)
    game = load(path)
    names = Names(game.board, profile, tuple(game.board.catalog.alliances()))
    try:
        applied = game_rule_changes(game.board, [load_named_ruleset(rule_set).rule_set], profile, names)
    except KremlinError as error:
        pytest.fail(f"{rule_set} could not be written into {path.name}: {error}")
    game.board.push_all(list(applied.changes))
    result = HouseResult(game, profile, applied, ())
    notes = add_notes(result).game.board.properties["notes"]
    root = etree.fromstring(result.game.to_bytes(), etree.XMLParser(huge_tree=True))
    listed = _enforced(notes)
    wrong = []
    for rule in applied.game:
        if not any(line == rule.title or line.startswith((f"{rule.title}:", f"{rule.title} In TripleA")) for line in listed):
            continue
        if rule.built_in and not rule.changes and not BUILT_IN[rule.id](root, profile):
            wrong.append(f"{rule.id}: claimed 'already in the game', the game does not have it")
        wrong += [f"{rule.id}: {why}" for why in _property_effects(rule, root, profile)]
    assert wrong == [], wrong


def test_two_hit_battleships_are_the_players_where_no_unit_type_is_named_battleship(tmp_path: Path) -> None:
    """001 header 3, "2-hit battleships", sets TripleA's "Two hit battleship", which gives two hits only to the unit type
    named exactly "battleship" (InitializationDelegate.initTwoHitBattleship, 2.7). On classic.xml with its battleship
    named "Battleship" (hitPoints 1) the notes do not say TripleA enforces it; the players keep it, told why."""
    classic = next(p for p in ALL_GAMES if p.parts[-4:] == ("world_war_ii_classic", "map", "games", "classic.xml"))
    renamed = tmp_path / "classic-renamed.xml"
    text = re.sub(r'"battleship"', '"Battleship"', classic.read_text(encoding="utf-8"))
    renamed.write_text(re.sub(r'<info name="[^"]*"', '<info name="Classic, its battleship renamed"', text, count=1), encoding="utf-8")
    root = etree.parse(str(renamed)).getroot()
    assert "battleship" not in {u.get("name") for u in root.iter("unit")} and "Battleship" in {u.get("name") for u in root.iter("unit")}
    result = _written(load(renamed), "kremlin-classic")
    assert result is not None and any(r.id == "h3-two-hit-battleships" for r in result.rules.game)
    notes = add_notes(result).game.board.properties["notes"]
    assert not any(line.startswith("2-hit battleships") for line in _enforced(notes))
    yours = unescape(notes[notes.index("<h3>You enforce</h3>") : notes.index("<hr/>")])
    assert "2-hit battleships (not in this game: TripleA gives two hits only to a unit type named exactly 'battleship'" in yours


def test_a_claim_the_game_does_not_hold_is_not_said_to_the_host_either() -> None:
    """The checked rules (what add_notes returns) no longer tell the host "Standard Third Edition rules: already in the
    game" on classic.xml, a 2nd-edition game; the warnings say the players keep it."""
    classic = next(p for p in ALL_GAMES if p.parts[-4:] == ("world_war_ii_classic", "map", "games", "classic.xml"))
    result = _written(load(classic), "kremlin-classic")
    assert result is not None and any(line.startswith("Standard Third Edition rules: already in the game") for line in result.rules.game_lines)
    checked = add_notes(result).rules
    assert not any(line.startswith("Standard Third Edition rules: already in the game") for line in checked.game_lines)
    assert any("'Standard Third Edition rules'" in line and "the players enforce" in line for line in checked.warnings())

"""A neutral's ships at sea, as TripleA 1.9 and 2.7 play them (issue 41 item 5; one JVM per engine).

003 NEUTRAL TERRITORIES, Note: "Transports should be placed in sea-zones not containing enemy ships if possible. If this
is not possible the transports are placed anyway (they were there all along but were neutral and so not important).
Thus any amphibious assault on a neutral must eliminate the transport first. If a transport must be placed in a sea zone
with an enemy ship it must stay and fight ..." The note makes the transport every power's enemy; the set writes it
unowned (the DTD's "owned by no one"), and TripleA's null player is at war with every power: both engines stop a ship
sailing past it ("Enemy units on path"), as the notes say (test_house_rules_notes.py).

The other way, for a rule text whose neutrals' ships block nobody (003's do not say so), proven here in both engines:
the same ships owned by a hidden player whose relationship to every power has the "neutral" archetype stop nobody.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from kremlin_triplea.engine.positions import Position, run_positions
from kremlin_triplea.engine.triplea27_positions import run_positions27
from kremlin_triplea.game import Game, load
from kremlin_triplea.gamefile.installation import find_installation
from kremlin_triplea.gamerules.house import apply_house_rules
from kremlin_triplea.rules.house_rules import HouseChoices
from support.house import TARGETS
from support.paths import SHARED

pytestmark = [pytest.mark.engine, pytest.mark.slow]

#: The hidden player of the probe (a name no pinned game has).
AT_PEACE = "Kremlin_Neutral_Ships"


def _neutral_ships(written: Game, base: Game) -> dict[str, list[str]]:
    """Sea zone -> the unowned ships the set put there (the written game's against its base game's)."""
    found: dict[str, list[str]] = {}
    for zone, data in written.board.nodes.items():
        if not data["water"]:
            continue
        was = base.board.units(zone)
        found.update({zone: [unit for (owner, unit), n in data["units"].items() if owner is None and n > was[(None, unit)]]})
    return {zone: units for zone, units in found.items() if units}


def _past(game: Game, zone: str) -> tuple[tuple[str, ...], ...]:
    """The commands of a position: ``zone`` left to the neutral's ships alone (what else the set-up has there taken
    away, so that only they can stand in the way), a power's battleship beside it, then its non-combat moves into the
    zone and, where the zone has another sea zone beside it, through it: as the players would sail past."""
    # A power TripleA lets sail anywhere (classic's Russians may only enter their movementRestrictionTerritories).
    restricted = {a.get("attachTo") for a in game.xml.attachments() if any(o.get("name") == "movementRestrictionTerritories" for o in a)}
    step = next(s for s in game.xml.steps() if (s.get("name") or "").endswith("NonCombatMove") and s.get("player") not in restricted | {None})
    name, player = step.get("name"), step.get("player")
    others = [("remove", zone, owner, unit, str(n)) for (owner, unit), n in game.board.units(zone).items() if owner is not None and n]
    beside = sorted(z for z in game.board.neighbours(zone) if game.board.is_water(z))
    start = beside[0]
    moves = [("move", name, player, "battleship", start, zone)]
    if len(beside) > 1:
        moves.append(("move", name, player, "battleship", start, zone, beside[-1]))
    return (*others, ("add", start, player, "battleship", "1"), ("units", zone), *moves)


def _at_peace(written: Path, folder: Path) -> Path:
    """The written game with its unowned ships given to a hidden player at peace with every power."""
    tree = etree.parse(str(written))
    root = tree.getroot()
    players = root.find("playerList")
    names = [p.get("name") for p in players.iterfind("player")]
    players.findall("player")[-1].addnext(
        etree.Element("player", name=AT_PEACE, optional="true", canBeDisabled="true", defaultType="DoesNothing", isHidden="true")
    )
    types = root.find("relationshipTypes")
    if types is None:
        types = etree.Element("relationshipTypes")
        (root.find("unitList") if root.find("unitList") is not None else players).addnext(types)
    types.append(etree.Element("relationshipType", name="Kremlin_At_Peace"))
    attachment = etree.SubElement(
        root.find("attachmentList"),
        "attachment",
        name="relationshipTypeAttachment",
        attachTo="Kremlin_At_Peace",
        javaClass="games.strategy.triplea.attachments.RelationshipTypeAttachment",
        type="relationship",
    )
    etree.SubElement(attachment, "option", name="archeType", value="neutral")
    initialize = root.find("initialize")
    relations = initialize.find("relationshipInitialize")
    if relations is None:
        relations = etree.SubElement(initialize, "relationshipInitialize")
    for name in names:
        etree.SubElement(relations, "relationship", type="Kremlin_At_Peace", player1=AT_PEACE, player2=name, roundValue="1")
    sea = {t.get("name") for t in root.iterfind("map/territory") if t.get("water") == "true"}
    for placement in initialize.iterfind("unitInitialize/unitPlacement"):
        if placement.get("owner") is None and placement.get("territory") in sea:
            placement.set("owner", AT_PEACE)
    path = folder / f"{written.stem}-at-peace.xml"
    tree.write(str(path), xml_declaration=True, encoding="UTF-8", doctype=tree.docinfo.doctype)
    return path


@pytest.fixture(scope="module")
def probes(tmp_path_factory) -> list[tuple[str, list[tuple[str, list[dict], list[dict]]], list[tuple[tuple[str, str, str], list[dict]]]]]:
    """Per engine: per sea zone with a neutral's ships, the answers in the game as written and in the game at peace; per
    power whose ships share such a zone, its battle step run in the game as written."""
    folder = tmp_path_factory.mktemp("neutral-ships")
    positions, asked, fights = [], [], []
    for base_path in TARGETS["house-classic"]:
        written = load(base_path)
        apply_house_rules(written, [HouseChoices("house-classic")])
        path = written.save(folder / base_path.name)
        peace = _at_peace(path, folder)
        for zone in sorted(_neutral_ships(written, load(base_path))):
            commands = _past(written, zone)
            positions += [Position(path, commands, label=f"{path.name} {zone}"), Position(peace, commands, label=f"{peace.name} {zone}")]
            asked.append(f"{base_path.name}: {zone}")
            # "must stay and fight": each power whose ships share the zone, at its combat.
            for power in sorted({owner for (owner, _), n in written.board.units(zone).items() if owner is not None and n}):
                battle = next(s.get("name") for s in written.xml.steps() if s.get("delegate") == "battle" and s.get("player") == power)
                fights.append((f"{base_path.name}: {zone}", power, zone))
                positions.append(Position(path, (("step", battle),), label=f"{path.name} {power} fights in {zone}"))
    assert asked, "house-classic writes a neutral's ships into its games (NEUTRAL TERRITORIES' transports)"
    found = find_installation(SHARED / "triplea-engine-2.7").found
    assert found is not None and found.major == 2, "the pinned TripleA 2.7 engine is missing from ../shared"
    answers = {"1.9": run_positions(positions, strict=False), "2.7": run_positions27(found, positions)}
    found_answers = []
    for engine, got in answers.items():
        moves = [answer for answer, position in zip(got, positions) if " fights in " not in position.label]
        battles = [answer for answer, position in zip(got, positions) if " fights in " in position.label]
        found_answers.append((engine, [(where, moves[2 * i], moves[2 * i + 1]) for i, where in enumerate(asked)], list(zip(fights, battles))))
    return found_answers


def _moves(answers: list[dict]) -> tuple[dict, list[dict]]:
    """The zone's units once left to the neutral's ships, and the answers to the moves past them."""
    at = next(i for i, a in enumerate(answers) if "units" in a)
    return answers[at], answers[at + 1 :]


def test_every_neutral_ship_the_set_writes_stops_a_ship_sailing_past_in_both_engines(probes) -> None:
    # What the notes say TripleA does with a neutral's transport: every power's enemy, as the rule's note makes it.
    for engine, moves, _ in probes:
        for where, written, _ in moves:
            units, (into, *through) = _moves(written)
            assert units["units"] and all(key.startswith("|") for key in units["units"]), (engine, where, units)  # unowned, alone
            assert into["valid"] is False, (engine, where, into)  # ending a non-combat move there would be a battle
            assert all(t == {"valid": False, "why": "Enemy units on path"} for t in through), (engine, where, through)


def test_ships_of_a_hidden_player_at_peace_with_every_power_stop_nobody_in_both_engines(probes) -> None:
    # How a neutral's ships that block nobody would be written: not 003's (they fight), so no set writes this yet.
    for engine, moves, _ in probes:
        for where, _, peace in moves:
            units, answers = _moves(peace)
            assert units["units"] and all(key.startswith(f"{AT_PEACE}|") for key in units["units"]), (engine, where, units)
            assert all(m == {"valid": True, "why": None} for m in answers), (engine, where, answers)
        assert any(len(_moves(peace)[1]) == 2 for _, _, peace in moves)  # sailed through a zone, not only into one


def test_a_neutral_transport_beside_enemy_ships_stays_and_fights_them_at_their_combat_in_both_engines(probes) -> None:
    # "If a transport must be placed in a sea zone with an enemy ship it must stay and fight or withdraw only 1 space":
    # TripleA plays the staying and the fight (the notes' players-keep line leaves the withdrawal to the players).
    for engine, _, battles in probes:
        assert battles, engine  # Sweden's transport goes to the Baltic, where the Germans have ships
        for (where, power, zone), (answer,) in battles:
            assert f"{power} creates battle in territory {zone}" in answer["history"], (engine, where, answer)
            assert any(line.startswith("Neutral defend with") for line in answer["history"]), (engine, where, answer)

"""Positions set up in TripleA 1.9 from Python through JPype, and what the engine's rules make of them (issue 16).

The child process ``python -m kremlin_triplea.engine.triplea19_positions``, run in the jar's folder by
:func:`kremlin_triplea.engine.positions.run_positions` over the shared runner
(:mod:`kremlin_triplea.engine.jvm_bridge`). A user's TripleA ships a Java runtime but no compiler, so the engine's
classes are called directly rather than through Java source compiled here.

Each request is one command, a list of strings; each is answered with one JSON object (``{"error": "COMMAND:
description"}`` when it failed, and the batch goes on). The game of the last ``game`` command stays loaded:

==========  ===============================  ==================================================================
command     fields                           answer
==========  ===============================  ==================================================================
game        FILE                             start a position: the game as the file holds it (parsed afresh)
owner       TERRITORY PLAYER                 give the territory to PLAYER ("" = TripleA's neutral player)
add         TERRITORY PLAYER TYPE COUNT      place units ("" = neutral owner)
remove      TERRITORY PLAYER TYPE COUNT      take units away
step        STEP                             run that step of the sequence (its delegate's start and end) as the
                                             game does: ``pus_before``, ``pus_after``, ``history``, ``game_over``,
                                             ``winners``
objectives  PLAYER                           every national objective of PLAYER: ``value``, whether it ``holds``
                                             now, and whose attachment each of its ``conditions`` is
frontier    PLAYER                           PLAYER's production frontier: ``frontier`` and ``prices``
grant       PLAYER TECH                      PLAYER gets the technology (TechTracker.addAdvance, as research does)
canal       FROM TO PLAYER TYPE              whether one such unit may sail FROM -> TO (``passes``, ``why``)
unit        PLAYER TYPE                      the unit type's values for PLAYER, with its techs
techs       PLAYER                           the technologies PLAYER owns
technologies                                 every technology the game defines (its property names)
property    NAME                             a game option's value as the engine holds it
units       TERRITORY                        ``owner``, ``units`` ("owner|type" -> count) and ``damaged`` (hits)
damage      TERRITORY PLAYER TYPE HITS       one such unit takes HITS hits, as a battle records them
pus         PLAYER                           PLAYER's PUs
rule        GETTER                           a game option as the engine's delegates read it: the static
                                             ``games.strategy.triplea.Properties.GETTER(GameData)``
techcost    PLAYER                           the price of one research die or token for PLAYER
move        STEP PLAYER TYPE T1 T2 ...       during STEP, whether one of PLAYER's TYPE units in T1 may move
                                             T1 -> T2 -> ... (MoveValidator.validateMove): ``valid``, ``why``
place       STEP PLAYER TYPE TERRITORY       during STEP (a place step), whether a new such unit may be placed
                                             there (AbstractPlaceDelegate.canUnitsBePlaced): ``placed``, ``why``
airbattle   TERRITORY ATTACKER [battle]      whether a raid by ATTACKER (with "battle": an attack) may be met by
                                             defenders in an air battle
aafire      STEP PLAYER TYPE T1 T2 ...       during STEP (a combat move), the territories whose AA guns fire at one
                                             such unit flying T1 -> T2 -> ... (``fire``)
power       TERRITORY PLAYER SIDE            what each of PLAYER's units there rolls at in a battle against the others,
                                             SIDE "attacking" or "defending" (support included): ``power`` type -> list
takeover    TERRITORY PLAYER                 PLAYER conquers the territory as a won battle does (BattleTracker.takeOver:
                                             capital loot, liberation): ``owner`` afterwards and ``history``
==========  ===============================  ==================================================================

A delegate run by ``step`` (and every question that needs one) gets a bridge that performs its changes on the game,
records its history lines and answers for every player as a player who does nothing would (false, 0, null); its
dice are ``java.util.Random(1)``'s.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kremlin_triplea.engine.delegate_bridge import BridgeNames, DelegateBridge, java_bridge
from kremlin_triplea.engine.jvm_bridge import serve
from kremlin_triplea.engine.triplea19_bridge import java_class
from kremlin_triplea.engine.triplea19_play import describe


def _name(player) -> str:
    return "" if player.isNull() else str(player.getName())


class _Positions:
    """The 1.9 adapter's state: the game of the position being built."""

    def __init__(self) -> None:
        self.data = None

    # -- looking things up ---------------------------------------------------------------------------------------

    def territory(self, name: str):
        found = self.data.getMap().getTerritory(name)
        if found is None:
            raise ValueError(f"no territory {name}")
        return found

    def player(self, name: str):
        if not name:
            return java_class("games.strategy.engine.data.PlayerID").NULL_PLAYERID
        found = self.data.getPlayerList().getPlayerId(name)
        if found is None:
            raise ValueError(f"no player {name}")
        return found

    def unit_type(self, name: str):
        found = self.data.getUnitTypeList().getUnitType(name)
        if found is None:
            raise ValueError(f"no unit type {name}")
        return found

    def change(self, change) -> dict[str, Any]:
        self.data.performChange(change)
        return {}

    def bridge(self):
        return _Bridge(self.data, step=self.data.getSequence().getStep())

    def go_to(self, name: str) -> None:
        """Makes STEP the game's current step, without running it (GameSequence.setStepIndex, package-private)."""
        sequence = self.data.getSequence()
        index = next((i for i in range(sequence.size()) if str(sequence.getStep(i).getName()) == name), None)
        if index is None:
            raise ValueError(f"the game has no step {name}")
        set_step_index = sequence.getClass().getDeclaredMethod("setStepIndex", java_class("java.lang.Integer").TYPE)
        set_step_index.setAccessible(True)
        set_step_index.invoke(sequence, java_class("java.lang.Integer").valueOf(index))

    def pus(self) -> dict[str, int]:
        pu = self.data.getResourceList().getResource("PUs")
        return {str(p.getName()): int(p.getResources().getQuantity(pu)) for p in self.data.getPlayerList().getPlayers()}

    # -- the commands --------------------------------------------------------------------------------------------

    def answer(self, command: Sequence[str]) -> dict[str, Any]:
        from jpype import JException

        try:
            return self.run(list(command))
        except (JException, ValueError, IndexError) as e:
            return {"error": f"{command[0] if command else ''}: {describe(e) if isinstance(e, JException) else f'{type(e).__name__}: {e}'}"}

    def run(self, c: list[str]) -> dict[str, Any]:
        change_factory = java_class("games.strategy.engine.data.changefactory.ChangeFactory")
        kind = c[0]
        if kind == "game":
            return self.game(c[1])
        if kind == "owner":
            return self.change(change_factory.changeOwner(self.territory(c[1]), self.player(c[2])))
        if kind == "add":
            units = self.unit_type(c[3]).create(int(c[4]), self.player(c[2]))
            return self.change(change_factory.addUnits(self.territory(c[1]), units))
        if kind == "remove":
            return self.remove(self.territory(c[1]), self.player(c[2]), self.unit_type(c[3]), int(c[4]))
        if kind == "step":
            return self.step(c[1])
        if kind == "objectives":
            return self.objectives(self.player(c[1]))
        if kind == "frontier":
            return self.frontier(self.player(c[1]))
        if kind == "grant":
            return self.grant(self.player(c[1]), c[2])
        if kind == "canal":
            units = self.unit_type(c[4]).create(1, self.player(c[3]), True)
            route = java_class("games.strategy.engine.data.Route")(self.territory(c[1]), self.territory(c[2]))
            refused = java_class("games.strategy.triplea.delegate.MoveValidator").validateCanal(route, units, self.player(c[3]), self.data)
            return {"passes": refused is None, "why": None if refused is None else str(refused)}
        if kind == "unit":
            return self.unit(self.player(c[1]), self.unit_type(c[2]))
        if kind == "techs":
            advances = java_class("games.strategy.triplea.delegate.TechTracker").getCurrentTechAdvances(self.player(c[1]), self.data)
            return {"techs": sorted({str(a.getProperty()) for a in advances})}
        if kind == "property":
            return {"value": _plain(self.data.getProperties().get(c[1]))}
        if kind == "technologies":
            advances = java_class("games.strategy.triplea.delegate.TechAdvance").getTechAdvances(self.data)
            return {"technologies": sorted({str(a.getProperty()) for a in advances})}
        if kind == "units":
            return self.units(self.territory(c[1]))
        if kind == "damage":
            return self.damage(self.territory(c[1]), self.player(c[2]), self.unit_type(c[3]), int(c[4]))
        if kind == "pus":
            return {"pus": int(self.player(c[1]).getResources().getQuantity(self.data.getResourceList().getResource("PUs")))}
        if kind == "rule":
            getter = java_class("games.strategy.triplea.Properties").class_.getMethod(c[1], java_class("games.strategy.engine.data.GameData").class_)
            return {"value": _plain(getter.invoke(None, self.data))}
        if kind == "techcost":
            return {"cost": int(java_class("games.strategy.triplea.attachments.TechAttachment").get(self.player(c[1])).getTechCost())}
        if kind == "move":
            return self.move(c)
        if kind == "place":
            return self.place(c[1], self.player(c[2]), self.unit_type(c[3]), self.territory(c[4]))
        if kind == "airbattle":
            return self.air_battle(self.territory(c[1]), self.player(c[2]), raid=c[3:] != ["battle"])
        if kind == "aafire":
            return self.aa_fire(c)
        if kind == "takeover":
            return self.takeover(self.territory(c[1]), self.player(c[2]))
        if kind == "power":
            return self.power(self.territory(c[1]), self.player(c[2]), c[3] == "defending")
        raise ValueError(f"unknown command {kind}")

    def game(self, file: str) -> dict[str, Any]:
        # Every position starts from the game as written. A copy of a parsed game (GameDataUtils.cloneGameData) would
        # be quicker, but the copy of a classic game fails in 1.9 (UnitType.hashCode during deserialization, before
        # the type has its name): the file is parsed afresh for each position.
        parser = java_class("games.strategy.engine.data.GameParser")(Path(file).name)
        stream = java_class("java.io.FileInputStream")(file)
        try:
            self.data = parser.parse(stream, java_class("java.util.concurrent.atomic.AtomicReference")(), False)
        finally:
            stream.close()
        return {}

    def remove(self, territory, owner, unit_type, count: int) -> dict[str, Any]:
        found = [u for u in territory.getUnits().getUnits() if u.getType().equals(unit_type) and u.getOwner().equals(owner)][:count]
        if len(found) < count:
            raise ValueError(f"{territory.getName()} holds {len(found)} {unit_type.getName()} of {owner.getName()}, not {count}")
        units = java_class("java.util.ArrayList")()
        for unit in found:
            units.add(unit)
        return self.change(java_class("games.strategy.engine.data.changefactory.ChangeFactory").removeUnits(territory, units))

    def step(self, name: str) -> dict[str, Any]:
        """Runs one step of the sequence as the game would: its delegate's start and end, for its player."""
        self.go_to(name)
        bridge = _Bridge(self.data, step=self.data.getSequence().getStep())
        before = self.pus()
        delegate = self.data.getSequence().getStep().getDelegate()
        delegate.setDelegateBridgeAndPlayer(bridge)
        delegate.start()
        delegate.end()
        winners: list[str] = []
        over = False
        if isinstance(delegate, java_class("games.strategy.triplea.delegate.EndRoundDelegate")) and delegate.getWinners() is not None:
            over = True
            winners = sorted({str(w.getName()) for w in delegate.getWinners()})
        return {"game_over": over or bridge.stopped, "history": list(bridge.history), "pus_after": self.pus(), "pus_before": before, "winners": winners}

    def objectives(self, player) -> dict[str, Any]:
        """The power's national objectives (RulesAttachment.getNationalObjectives), tested as its end of turn tests them."""
        conditions = java_class("games.strategy.triplea.attachments.AbstractConditionsAttachment")
        objectives = java_class("games.strategy.triplea.attachments.RulesAttachment").getNationalObjectives(player)
        every = conditions.getAllConditionsRecursive(java_class("java.util.HashSet")(objectives), None)
        tested = conditions.testAllConditionsRecursive(every, None, self.bridge())
        out = {}
        for objective in objectives:
            out[str(objective.getName())] = {
                # Whose attachment each named condition turned out to be: TripleA looks names up across players.
                "conditions": {str(c.getName()): str(c.getAttachedTo().getName()) for c in objective.getConditions()},
                "holds": bool(objective.isSatisfied(tested)),
                "value": int(objective.getObjectiveValue()),
            }
        return out

    def frontier(self, player) -> dict[str, Any]:
        pu = self.data.getResourceList().getResource("PUs")
        prices = {}
        for rule in player.getProductionFrontier().getRules():
            for result in rule.getResults().keySet():
                prices[str(result.getName())] = int(rule.getCosts().getInt(pu))
        return {"frontier": str(player.getProductionFrontier().getName()), "prices": prices}

    def grant(self, player, name: str) -> dict[str, Any]:
        tech_advance = java_class("games.strategy.triplea.delegate.TechAdvance")
        for advance in tech_advance.getTechAdvances(self.data):
            if str(advance.getProperty()) == name or str(advance.getName()) == name:
                java_class("games.strategy.triplea.delegate.TechTracker").addAdvance(player, self.bridge(), advance)
                return {}
        raise ValueError(f"the game has no technology {name}")

    def unit(self, player, unit_type) -> dict[str, Any]:
        ua = java_class("games.strategy.triplea.attachments.UnitAttachment").get(unit_type)
        return {
            "aa_attack": int(ua.getAttackAA(player)),
            "air_attack": int(ua.getAirAttack(player)),
            "air_defense": int(ua.getAirDefense(player)),
            "attack": int(ua.getAttack(player)),
            "attack_rolls": int(ua.getAttackRolls(player)),
            "blitz": bool(ua.getCanBlitz(player)),
            "can_air_battle": bool(ua.getCanAirBattle()),
            "can_escort": bool(ua.getCanEscort()),
            "can_intercept": bool(ua.getCanIntercept()),
            "defense": int(ua.getDefense(player)),
            "defense_rolls": int(ua.getDefenseRolls(player)),
            "hit_points": int(ua.getHitPoints()),
            "is_air": bool(ua.getIsAir()),
            "is_sea": bool(ua.getIsSea()),
            "movement": int(ua.getMovement(player)),
        }

    def units(self, territory) -> dict[str, Any]:
        """The units in a territory, counted by "owner|type" (owner "" for TripleA's neutral player), and its owner."""
        counts: dict[str, int] = {}
        damaged: dict[str, int] = {}
        for unit in territory.getUnits().getUnits():
            key = f"{_name(unit.getOwner())}|{unit.getType().getName()}"
            counts[key] = counts.get(key, 0) + 1
            if unit.getHits() > 0:
                damaged[key] = damaged.get(key, 0) + int(unit.getHits())
        return {"damaged": dict(sorted(damaged.items())), "owner": _name(territory.getOwner()), "units": dict(sorted(counts.items()))}

    def damage(self, territory, owner, unit_type, hits: int) -> dict[str, Any]:
        for unit in territory.getUnits().getUnits():
            if unit.getType().equals(unit_type) and unit.getOwner().equals(owner):
                taken = java_class("games.strategy.util.IntegerMap")()
                taken.put(unit, hits)
                return self.change(java_class("games.strategy.engine.data.changefactory.ChangeFactory").unitsHit(taken))
        raise ValueError(f"{territory.getName()} holds no {unit_type.getName()} of {owner.getName()}")

    def move(self, c: list[str]) -> dict[str, Any]:
        """Whether the engine's move validator allows the move (the units must be in the first territory)."""
        self.go_to(c[1])
        player, unit_type = self.player(c[2]), self.unit_type(c[3])
        path = [self.territory(name) for name in c[4:]]
        mover = next((u for u in path[0].getUnits().getUnits() if u.getType().equals(unit_type) and u.getOwner().equals(player)), None)
        if mover is None:
            raise ValueError(f"{path[0].getName()} holds no {unit_type.getName()} of {player.getName()}")
        units = java_class("java.util.ArrayList")()
        units.add(mover)
        route = java_class("games.strategy.engine.data.Route")(_java_list(path))
        non_combat = str(self.data.getSequence().getStep().getName()).endswith("NonCombatMove")
        result = java_class("games.strategy.triplea.delegate.MoveValidator").validateMove(
            units,
            route,
            player,
            java_class("java.util.ArrayList")(),
            java_class("java.util.HashMap")(),
            non_combat,
            java_class("java.util.ArrayList")(),
            self.data,
        )
        error = result.getError()
        return {"valid": bool(result.isMoveValid()), "why": None if error is None else str(error)}

    def place(self, step: str, player, unit_type, where) -> dict[str, Any]:
        """Whether the engine's place delegate would let the player place a new unit there."""
        self.go_to(step)
        delegate = self.data.getSequence().getStep().getDelegate()
        if not isinstance(delegate, java_class("games.strategy.triplea.delegate.AbstractPlaceDelegate")):
            raise ValueError(f"{step} is not a place step")
        delegate.setDelegateBridgeAndPlayer(self.bridge())
        refused = delegate.canUnitsBePlaced(where, unit_type.create(1, player, True), player)
        return {"placed": refused is None, "why": None if refused is None else str(refused)}

    def air_battle(self, territory, attacker, raid: bool = True) -> dict[str, Any]:
        """Whether the engine would fight an air battle before ATTACKER's raid on the territory, or before an
        attack on it (``raid`` false): whether it has defenders for one (package-private)."""
        could = java_class("games.strategy.triplea.delegate.AirBattle").class_.getDeclaredMethod(
            "territoryCouldPossiblyHaveAirBattleDefenders",
            java_class("games.strategy.engine.data.Territory").class_,
            java_class("games.strategy.engine.data.PlayerID").class_,
            java_class("games.strategy.engine.data.GameData").class_,
            java_class("java.lang.Boolean").TYPE,
        )
        could.setAccessible(True)
        flag = java_class("java.lang.Boolean").TRUE if raid else java_class("java.lang.Boolean").FALSE
        return {"air_battle": bool(could.invoke(None, territory, attacker, self.data, flag))}

    def aa_fire(self, c: list[str]) -> dict[str, Any]:
        """Where the engine's move code would fire AA at a plane flying the route (it fires as the move is made)."""
        self.go_to(c[1])
        player = self.player(c[2])
        route = java_class("games.strategy.engine.data.Route")(_java_list([self.territory(name) for name in c[4:]]))
        units = self.unit_type(c[3]).create(1, player, True)
        util = java_class("games.strategy.triplea.delegate.AAInMoveUtil").class_
        make = util.getDeclaredConstructor()
        make.setAccessible(True)
        aa = make.newInstance()
        aa.initialize(self.bridge())
        where = util.getDeclaredMethod(
            "getTerritoriesWhereAaWillFire", java_class("games.strategy.engine.data.Route").class_, java_class("java.util.Collection").class_
        )
        where.setAccessible(True)
        return {"fire": sorted({str(t.getName()) for t in where.invoke(aa, route, units)})}

    def takeover(self, territory, player) -> dict[str, Any]:
        """The player wins a battle for the territory: what the engine does then (owner, capital loot, liberation)."""
        bridge = self.bridge()
        tracker = java_class("games.strategy.triplea.delegate.DelegateFinder").battleDelegate(self.data).getBattleTracker()
        tracker.takeOver(territory, player, bridge, None, None)
        return {"history": list(bridge.history), "owner": _name(territory.getOwner())}

    def power(self, territory, player, defending: bool) -> dict[str, Any]:
        """What each of PLAYER's units in the territory rolls at in a battle there against the other side's units
        (DiceRoll.getUnitPowerAndRollsForNormalBattles: values, technologies and support), by "type" -> powers."""
        units = [u for u in territory.getUnits().getUnits() if u.getOwner().equals(player)]
        enemies = [u for u in territory.getUnits().getUnits() if not self.data.getRelationshipTracker().isAllied(u.getOwner(), player)]
        effects = java_class("games.strategy.triplea.delegate.TerritoryEffectHelper").getEffects(territory)
        got = java_class("games.strategy.triplea.delegate.DiceRoll").getUnitPowerAndRollsForNormalBattles(
            _java_list(units), _java_list(enemies), defending, False, self.data, territory, effects, False, _java_list([])
        )
        found: dict[str, list[int]] = {}
        for unit in units:
            found.setdefault(str(unit.getType().getName()), []).append(int(got.get(unit).getFirst()))
        return {"power": {k: sorted(v) for k, v in sorted(found.items())}}


def _plain(value):
    """A Java boolean or number as JSON has it (the getters answer booleans and ints)."""
    if isinstance(value, java_class("java.lang.Boolean")):
        return bool(value.booleanValue())
    if isinstance(value, java_class("java.lang.Number")):
        return int(value.longValue()) if not isinstance(value, (java_class("java.lang.Double"), java_class("java.lang.Float"))) else float(value.doubleValue())
    return None if value is None else str(value.toString())


def _java_list(items):
    listed = java_class("java.util.ArrayList")()
    for item in items:
        listed.add(item)
    return listed


_Bridge: Any = None


class _Bridge19(DelegateBridge):
    """1.9's bridge: its delegates ask it for the step being played, and the step's player."""

    names = BridgeNames(
        remote_player="games.strategy.triplea.player.ITripleAPlayer",
        display="games.strategy.triplea.ui.display.ITripleADisplay",
        sound="games.strategy.sound.ISound",
    )

    def getPlayerId(self):
        player = self.step.getPlayerId()
        return java_class("games.strategy.engine.data.PlayerID").NULL_PLAYERID if player is None else player

    def getStepName(self):
        return self.step.getName()

    def getStepProperties(self):
        return self.step.getProperties()


def _adapter(home: Path):
    global _Bridge
    _Bridge = java_bridge(_Bridge19)
    positions = _Positions()
    return lambda request: positions.answer(request["command"])


def main() -> None:
    serve(_adapter)


if __name__ == "__main__":
    sys.exit(main())

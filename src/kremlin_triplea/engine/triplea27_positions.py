"""Positions set up in TripleA 2.7 from Python through JPype: the questions of
:mod:`kremlin_triplea.engine.triplea19_positions` that need no battle, asked of 2.x (issue 29).

The house-rule sets are proven in TripleA 1.9 position by position; what a rule writes (a game option, a unit's
values, a price list, a technology and what it does, a starting unit, a research price) is asked of 2.7 too, in
the same words and with answers of the same shape, so one check reads both engines. The child process
``python -m kremlin_triplea.engine.triplea27_positions`` (the shared runner, :mod:`kremlin_triplea.engine.jvm_bridge`),
one JVM for a batch; every position starts from the game as its file holds it:

==============  =====================  ==============================================================
command         fields                 answer
==============  =====================  ==============================================================
game            FILE                   start a position: the game parsed as 2.x's game selector does
grant           PLAYER TECH            PLAYER gets the technology (TechTracker.addAdvance)
frontier        PLAYER                 ``frontier`` and ``prices``
unit            PLAYER TYPE            the unit type's values for PLAYER, with its techs
techs           PLAYER                 the technologies PLAYER owns
technologies                           every technology the game defines
property        NAME                   a game option's value as the engine holds it
techcost        PLAYER                 the price of one research die or token
pus             PLAYER                 PLAYER's PUs
units           TERRITORY              ``owner``, ``units`` ("owner|type" -> count)
owner           TERRITORY PLAYER       give the territory to PLAYER ("" = the neutral player)
add / remove    TERRITORY PLAYER TYPE N  place or take away units
canal           FROM TO PLAYER TYPE    whether one such unit may sail FROM -> TO (MoveValidator.validateCanal)
airbattle       TERRITORY ATTACKER     whether a raid (with "battle": an attack) may meet defenders in an air battle
objectives      PLAYER                 every national objective: ``value``, ``holds``, whose each condition is
rule            GETTER                 a game option as the delegates read it: ``Properties.GETTER``, named as in
                                       1.9 (2.x's getLhtrHeavyBombers answers 1.9's getLHTR_Heavy_Bombers)
takeover        TERRITORY PLAYER       PLAYER conquers it as a won battle does (BattleTracker.takeOver): ``owner``
damage          TERRITORY PLAYER TYPE HITS  one such unit takes HITS hits
place           STEP PLAYER TYPE T     during STEP, whether a new such unit may be placed in T: ``placed``, ``why``
placeable       STEP PLAYER TYPE T N   during STEP, how many of N new such units the engine lets PLAYER place in T
                                       (AbstractPlaceDelegate.getMaxUnitsToBePlaced): ``placeable``
move            STEP PLAYER TYPE T1 T2 ...  during STEP, whether one unit in T1 may move the route: ``valid``, ``why``
aafire          STEP PLAYER TYPE T1 ...  during STEP, the territories whose AA fires at one such plane: ``fire``
power           TERRITORY PLAYER SIDE  what each of PLAYER's units there rolls at against the others, SIDE
                                       "attacking" or "defending" (CombatValueBuilder, support included)
step            STEP                   run that step's delegate (start and end) for its player, as the game does:
                                       ``pus_before``, ``pus_after``, ``history``, ``game_over``, ``winners``
attachment      TYPE NAME ATTACHMENT OPTION  the option as the engine holds it (DefaultAttachment.getRawPropertyString)
                                       of the attachment of the player, unitType or territory NAME (TYPE as the
                                       game file's ``attachment`` says): ``attached``, ``value`` (None: unset)
sequence                               every step of the game's sequence: ``name``, ``delegate``, ``player``,
                                       ``non_combat``, ``max_run_count`` (-1: every round)
play            ROUNDS SEED            the position's game played ROUNDS rounds with every power a Fast AI, the
                                       dice seeded (:mod:`kremlin_triplea.engine.triplea2_bridge`'s ``play``
                                       answer); the position's game is then the played one
==============  =====================  ==============================================================

A failed command answers ``{"error": ...}`` and the batch goes on.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kremlin_triplea.engine import JVM_START_SECONDS, EngineFailed, absolute_paths, triplea2_bridge, triplea2_classpath
from kremlin_triplea.engine.delegate_bridge import BridgeNames, DelegateBridge, java_bridge
from kremlin_triplea.engine.jvm_bridge import Refused, run_child, runtime_library, serve
from kremlin_triplea.engine.play import GAME_TIMEOUT_SECONDS
from kremlin_triplea.engine.positions import SECONDS_PER_POSITION, Position
from kremlin_triplea.gamefile.installation import Installation

COMMANDS = (
    "grant",
    "frontier",
    "unit",
    "techs",
    "technologies",
    "property",
    "techcost",
    "pus",
    "units",
    "owner",
    "add",
    "remove",
    "canal",
    "airbattle",
    "objectives",
    "rule",
    "step",
    "takeover",
    "damage",
    "place",
    "placeable",
    "move",
    "aafire",
    "power",
    "attachment",
    "sequence",
    "play",
)


def run_positions27(installation: Installation, positions: Sequence[Position]) -> list[list[dict[str, Any]]]:
    """2.7's answer to every command of every position (one JVM); a command it does not know is refused here."""
    commands: list[tuple[str, ...]] = []
    for position in positions:
        (game,) = absolute_paths([Path(position.game)])
        commands.append(("game", str(game)))
        for command in position.commands:
            if command[0] not in COMMANDS:
                raise ValueError(f"{position.label}: TripleA 2.7 positions answer {', '.join(COMMANDS)}, not {command[0]}")
            commands.append(tuple(command))
    if not commands:
        return []
    _, got_all = run_child(
        __name__,
        libjvm=runtime_library(installation),
        classpath=triplea2_classpath(installation.jar),
        requests=[{"command": list(c)} for c in commands],
        # A round of Fast-AI play takes as long as a game's (play.GAME_TIMEOUT_SECONDS), a question a few seconds.
        timeout=JVM_START_SECONDS + SECONDS_PER_POSITION * len(positions) + sum(GAME_TIMEOUT_SECONDS * int(c[1]) for c in commands if c[0] == "play"),
        doing=f"setting up {len(positions)} position(s)",
        describe=installation.describe(),
    )
    results, at = [], 0
    for position in positions:
        got = list(got_all[at : at + 1 + len(position.commands)])
        at += 1 + len(position.commands)
        if "error" in got[0]:
            raise EngineFailed(f"{position.label or position.game}: {got[0]['error']}")
        results.append(got[1:])
    return results


# ---------------------------------------------------------------------------------------------------------------
# The child process: everything below runs inside the JVM's process and imports JPype.


def _java_list(items):
    listed = _class("java.util.ArrayList")()
    for item in items:
        listed.add(item)
    return listed


def _class(name: str):
    from jpype import JClass

    return JClass(name)


def _plain(value):
    if value is None:
        return None
    if isinstance(value, _class("java.lang.Boolean")):
        return bool(value.booleanValue())
    if isinstance(value, _class("java.lang.Number")):
        return int(value.intValue())
    return str(value)


def _held(value):
    """An attachment's value as JSON: a list (array, collection) of names or values, an IntegerMap a name -> count
    mapping, a named game object its name, a Boolean or Number as such, anything else its text (None: unset)."""
    if value is None:
        return None
    if isinstance(value, _class("org.triplea.java.collections.IntegerMap")):
        return {_held(key): int(value.getInt(key)) for key in value.keySet()}
    if isinstance(value, _class("java.util.Map")):
        return {str(_held(key)): _held(item) for key, item in value.entrySet()}
    if isinstance(value, _class("java.util.Collection")) or str(value.getClass().getName()).startswith("["):
        return [_held(item) for item in value]
    if isinstance(value, (_class("games.strategy.engine.data.Named"), _class("games.strategy.engine.data.IAttachment"))):
        return str(value.getName())
    if isinstance(value, _class("org.triplea.util.Tuple")):  # a trigger's "when": before/after and a step, as written
        return f"{_held(value.getFirst())}:{_held(value.getSecond())}"
    return _plain(value)


class _Positions:
    def __init__(self, player) -> None:
        self.data = None
        self._player_engine = player  # triplea2_bridge's engine: plays a game with Fast AIs

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        command = list(request["command"])
        kind = command[0]
        if kind == "game":
            parsed = _class("games.strategy.engine.data.gameparser.GameParser").parse(_class("java.io.File")(command[1]).toPath(), False)
            if not parsed.isPresent():
                self.data = None
                raise Refused(f"TripleA 2.7 does not parse {command[1]}")
            self.data = parsed.get()
            return {}
        if self.data is None:
            raise Refused("no game loaded")
        try:
            return getattr(self, f"_{kind}")(*command[1:])
        except (AttributeError, TypeError) as e:  # a 2.x method this adapter calls wrongly: the answer says so
            raise Refused(f"{kind}: {type(e).__name__}: {e}") from e

    def _player(self, name: str):
        found = self.data.getPlayerList().getPlayerId(name)
        if found is None:
            raise Refused(f"no player {name}")
        return found

    def _grant(self, player: str, name: str) -> dict[str, Any]:
        who = self._player(player)
        for advance in _class("games.strategy.triplea.delegate.TechAdvance").getTechAdvances(self.data.getTechnologyFrontier(), None):
            if str(advance.getProperty()) == name or str(advance.getName()) == name:
                _class("games.strategy.triplea.delegate.TechTracker").addAdvance(who, _Bridge(self.data, who), advance)
                return {}
        raise Refused(f"the game has no technology {name}")

    def _frontier(self, player: str) -> dict[str, Any]:
        frontier = self._player(player).getProductionFrontier()
        pus = self.data.getResourceList().getResourceOrThrow("PUs")
        prices = {}
        for rule in frontier.getRules():
            for result in rule.getResults().keySet():
                prices[str(result.getName())] = int(rule.getCosts().getInt(pus))
        return {"frontier": str(frontier.getName()), "prices": prices}

    def _unit(self, player: str, unit_type: str) -> dict[str, Any]:
        who = self._player(player)
        found = self.data.getUnitTypeList().getUnitType(unit_type)
        if not found.isPresent():
            raise Refused(f"no unit type {unit_type}")
        ua = found.get().getUnitAttachment()
        return {
            "aa_attack": int(ua.getAttackAa(who)),
            "air_attack": int(ua.getAirAttack(who)),
            "air_defense": int(ua.getAirDefense(who)),
            "attack": int(ua.getAttack(who)),
            "attack_rolls": int(ua.getAttackRolls(who)),
            "blitz": bool(ua.getCanBlitz(who)),
            # 2.7's fluent getters (lombok @Accessors(fluent = true)) where 1.9 had getCan...
            "can_air_battle": bool(ua.canAirBattle()),
            "can_escort": bool(ua.canEscort()),
            "can_intercept": bool(ua.canIntercept()),
            "defense": int(ua.getDefense(who)),
            "defense_rolls": int(ua.getDefenseRolls(who)),
            "hit_points": int(ua.getHitPoints()),
            "is_air": bool(ua.isAir()),
            "is_sea": bool(ua.isSea()),
            "movement": int(ua.getMovement(who)),
        }

    def _territory(self, name: str):
        found = self.data.getMap().getTerritoryOrNull(name)
        if found is None:
            raise Refused(f"no territory {name}")
        return found

    def _someone(self, name: str):
        return self.data.getPlayerList().getNullPlayer() if not name else self._player(name)

    def _type(self, name: str):
        found = self.data.getUnitTypeList().getUnitType(name)
        if not found.isPresent():
            raise Refused(f"no unit type {name}")
        return found.get()

    def _owner(self, territory: str, player: str) -> dict[str, Any]:
        factory = _class("games.strategy.engine.data.changefactory.ChangeFactory")
        self.data.performChange(factory.changeOwner(self._territory(territory), self._someone(player)))
        return {}

    def _add(self, territory: str, player: str, unit_type: str, count: str) -> dict[str, Any]:
        units = self._type(unit_type).create(int(count), self._someone(player))
        factory = _class("games.strategy.engine.data.changefactory.ChangeFactory")
        self.data.performChange(factory.addUnits(self._territory(territory), units))
        return {}

    def _remove(self, territory: str, player: str, unit_type: str, count: str) -> dict[str, Any]:
        where, owner, kind = self._territory(territory), self._someone(player), self._type(unit_type)
        found = [u for u in where.getUnits() if u.getType().equals(kind) and u.getOwner().equals(owner)][: int(count)]
        if len(found) < int(count):
            raise Refused(f"{territory} holds {len(found)} {unit_type} of {player}, not {count}")
        listed = _class("java.util.ArrayList")()
        for unit in found:
            listed.add(unit)
        factory = _class("games.strategy.engine.data.changefactory.ChangeFactory")
        self.data.performChange(factory.removeUnits(where, listed))
        return {}

    def _canal(self, start: str, end: str, player: str, unit_type: str) -> dict[str, Any]:
        who = self._player(player)
        units = self._type(unit_type).create(1, who)
        route = _class("games.strategy.engine.data.Route")(self._territory(start), self._territory(end))
        validator = _class("games.strategy.triplea.delegate.move.validation.MoveValidator")(self.data, False)
        refused = validator.validateCanal(route, units, who)
        return {"passes": refused is None, "why": None if refused is None else str(refused)}

    def _airbattle(self, territory: str, attacker: str, *battle: str) -> dict[str, Any]:
        could = _class("games.strategy.triplea.delegate.battle.AirBattle").territoryCouldPossiblyHaveAirBattleDefenders(
            self._territory(territory), self._player(attacker), self.data, list(battle) != ["battle"]
        )
        return {"air_battle": bool(could)}

    def _objectives(self, player: str) -> dict[str, Any]:
        conditions = _class("games.strategy.triplea.attachments.AbstractConditionsAttachment")
        objectives = _class("games.strategy.triplea.attachments.RulesAttachment").getNationalObjectives(self._player(player))
        every = conditions.getAllConditionsRecursive(_class("java.util.HashSet")(objectives), None)
        tested = conditions.testAllConditionsRecursive(every, None, _Bridge(self.data, self._player(player)))
        found = {}
        for objective in objectives:
            found[str(objective.getName())] = {
                "conditions": {str(c.getName()): str(c.getAttachedTo().getName()) for c in objective.getConditions()},
                "holds": bool(objective.isSatisfied(tested)),
                "value": int(objective.getObjectiveValue()),
            }
        return found

    def _rule(self, getter: str) -> dict[str, Any]:
        # 2.x renamed some getters (getLHTR_Heavy_Bombers -> getLhtrHeavyBombers): matched without case and
        # underscores, or by the 2.x name of a getter of the same property.
        wanted = _RENAMED.get(getter, getter).replace("_", "").lower()
        for method in _class("games.strategy.triplea.Properties").class_.getMethods():
            if str(method.getName()).replace("_", "").lower() == wanted and method.getParameterCount() == 1:
                return {"value": _plain(method.invoke(None, self.data.getProperties()))}
        raise Refused(f"TripleA 2.7 has no Properties.{getter}")

    def _step(self, name: str) -> dict[str, Any]:
        """Runs one step of the sequence as the game would: its delegate's start and end, for its player."""
        step = self._go_to(name)
        player = step.getPlayerId() or self.data.getPlayerList().getNullPlayer()
        bridge = _Bridge(self.data, player, step)
        before = self._all_pus()
        delegate = step.getDelegate()
        delegate.setDelegateBridgeAndPlayer(bridge)
        delegate.start()
        delegate.end()
        winners: list[str] = []
        over = bridge.stopped
        if isinstance(delegate, _class("games.strategy.triplea.delegate.EndRoundDelegate")) and delegate.getWinners():
            over = True
            winners = sorted({str(w.getName()) for w in delegate.getWinners()})
        return {"game_over": over, "history": list(bridge.history), "pus_after": self._all_pus(), "pus_before": before, "winners": winners}

    def _go_to(self, name: str):
        sequence = self.data.getSequence()
        index = next((i for i in range(sequence.size()) if str(sequence.getStep(i).getName()) == name), None)
        if index is None:
            raise Refused(f"the game has no step {name}")
        set_index = sequence.getClass().getDeclaredMethod("setStepIndex", _class("java.lang.Integer").TYPE)
        set_index.setAccessible(True)
        set_index.invoke(sequence, _class("java.lang.Integer").valueOf(index))
        return sequence.getStep()

    def _takeover(self, territory: str, player: str) -> dict[str, Any]:
        who, where = self._player(player), self._territory(territory)
        bridge = _Bridge(self.data, who)
        self.data.getBattleDelegate().getBattleTracker().takeOver(where, who, bridge, None, None)
        owner = where.getOwner()
        return {"history": list(bridge.history), "owner": "" if owner is None or owner.isNull() else str(owner.getName())}

    def _damage(self, territory: str, player: str, unit_type: str, hits: str) -> dict[str, Any]:
        where, owner, kind = self._territory(territory), self._someone(player), self._type(unit_type)
        for unit in where.getUnits():
            if unit.getType().equals(kind) and unit.getOwner().equals(owner):
                taken = _class("org.triplea.java.collections.IntegerMap")()
                taken.put(unit, int(hits))
                listed = _class("java.util.ArrayList")()
                listed.add(where)
                self.data.performChange(_class("games.strategy.engine.data.changefactory.ChangeFactory").unitsHit(taken, listed))
                return {}
        raise Refused(f"{territory} holds no {unit_type} of {player}")

    def _place(self, step: str, player: str, unit_type: str, territory: str) -> dict[str, Any]:
        delegate = self._go_to(step).getDelegate()
        if not isinstance(delegate, _class("games.strategy.triplea.delegate.AbstractPlaceDelegate")):
            raise Refused(f"{step} is not a place step")
        who = self._player(player)
        delegate.setDelegateBridgeAndPlayer(_Bridge(self.data, who))
        refused = delegate.canUnitsBePlaced(self._territory(territory), self._type(unit_type).create(1, who), who)
        return {"placed": not refused.isPresent(), "why": str(refused.get()) if refused.isPresent() else None}

    def _placeable(self, step: str, player: str, unit_type: str, territory: str, count: str) -> dict[str, Any]:
        delegate = self._go_to(step).getDelegate()
        if not isinstance(delegate, _class("games.strategy.triplea.delegate.AbstractPlaceDelegate")):
            raise Refused(f"{step} is not a place step")
        who = self._player(player)
        delegate.setDelegateBridgeAndPlayer(_Bridge(self.data, who))
        most = _class("games.strategy.triplea.delegate.AbstractPlaceDelegate").class_.getDeclaredMethod(
            "getMaxUnitsToBePlaced",
            _class("java.util.Collection").class_,
            _class("games.strategy.engine.data.Territory").class_,
            _class("games.strategy.engine.data.GamePlayer").class_,
        )
        most.setAccessible(True)
        return {"placeable": int(most.invoke(delegate, self._type(unit_type).create(int(count), who), self._territory(territory), who))}

    def _move(self, step: str, player: str, unit_type: str, *path: str) -> dict[str, Any]:
        self._go_to(step)
        who, kind = self._player(player), self._type(unit_type)
        places = [self._territory(name) for name in path]
        mover = next((u for u in places[0].getUnits() if u.getType().equals(kind) and u.getOwner().equals(who)), None)
        if mover is None:
            raise Refused(f"{path[0]} holds no {unit_type} of {player}")
        units = _class("java.util.ArrayList")()
        units.add(mover)
        route = _class("games.strategy.engine.data.Route")(_java_list(places))
        non_combat = str(self.data.getSequence().getStep().getName()).endswith("NonCombatMove")
        validator = _class("games.strategy.triplea.delegate.move.validation.MoveValidator")(self.data, non_combat)
        result = validator.validateMove(_class("games.strategy.engine.data.MoveDescription")(units, route), who)
        error = result.getError()
        return {"valid": bool(result.isMoveValid()), "why": None if error is None else str(error)}

    def _aafire(self, step: str, player: str, unit_type: str, *path: str) -> dict[str, Any]:
        self._go_to(step)
        who = self._player(player)
        route = _class("games.strategy.engine.data.Route")(_java_list([self._territory(name) for name in path]))
        units = self._type(unit_type).create(1, who)
        util = _class("games.strategy.triplea.delegate.AaInMoveUtil").class_
        make = util.getDeclaredConstructor()
        make.setAccessible(True)
        aa = make.newInstance()
        aa.initialize(_Bridge(self.data, who))
        where = util.getDeclaredMethod(
            "getTerritoriesWhereAaWillFire", _class("games.strategy.engine.data.Route").class_, _class("java.util.Collection").class_
        )
        where.setAccessible(True)
        return {"fire": sorted({str(t.getName()) for t in where.invoke(aa, route, units)})}

    def _power(self, territory: str, player: str, side: str) -> dict[str, Any]:
        where, who = self._territory(territory), self._player(player)
        units = [u for u in where.getUnits() if u.getOwner().equals(who)]
        enemies = [u for u in where.getUnits() if not self.data.getRelationshipTracker().isAllied(u.getOwner(), who)]
        sides = _class("games.strategy.triplea.delegate.battle.BattleState$Side")
        value = (
            _class("games.strategy.triplea.delegate.power.calculator.CombatValueBuilder")
            .mainCombatValue()
            .enemyUnits(_java_list(enemies))
            .friendlyUnits(_java_list(units))
            .side(sides.DEFENSE if side == "defending" else sides.OFFENSE)
            .gameSequence(self.data.getSequence())
            .supportAttachments(self.data.getUnitTypeList().getSupportRules())
            .lhtrHeavyBombers(_class("games.strategy.triplea.Properties").getLhtrHeavyBombers(self.data.getProperties()))
            .gameDiceSides(self.data.getDiceSides())
            .territoryEffects(_class("games.strategy.triplea.delegate.TerritoryEffectHelper").getEffects(where))
            .build()
        )
        rolls = _class("games.strategy.triplea.delegate.power.calculator.PowerStrengthAndRolls").build(_java_list(units), value)
        found: dict[str, list[int]] = {}
        for unit in units:
            found.setdefault(str(unit.getType().getName()), []).append(int(rolls.getStrength(unit)))
        return {"power": {k: sorted(v) for k, v in sorted(found.items())}}

    def _attachment(self, kind: str, name: str, attachment: str, option: str) -> dict[str, Any]:
        owners = {"player": self._player, "unitType": self._type, "territory": self._territory}
        if kind not in owners:
            raise Refused(f"attachments of a {kind} are not asked here (only {', '.join(owners)})")
        found = owners[kind](name).getAttachment(attachment)
        if found is None:
            return {"attached": False, "value": None}
        held = found.getProperty(option)
        if not held.isPresent():
            raise Refused(f"2.7's {found.getClass().getSimpleName()} has no option {option}")
        return {"attached": True, "value": _held(held.get().getValue())}

    def _sequence(self) -> dict[str, Any]:
        steps = []
        for step in self.data.getSequence():
            player = step.getPlayerId()
            steps.append(
                {
                    "name": str(step.getName()),
                    "delegate": str(step.getDelegateName()),
                    "delegate_class": str(step.getDelegate().getClass().getSimpleName()),
                    "player": None if player is None or player.isNull() else str(player.getName()),
                    "non_combat": bool(step.isNonCombat()),
                    "max_run_count": int(step.getMaxRunCount()),
                }
            )
        return {"steps": steps}

    def _play(self, rounds: str, seed: str) -> dict[str, Any]:
        return self._player_engine.play_game(lambda: self.data, rounds=int(rounds), seed=int(seed))

    def _all_pus(self) -> dict[str, int]:
        return {str(p.getName()): int(p.getResources().getQuantity("PUs")) for p in self.data.getPlayerList().getPlayers()}

    def _techs(self, player: str) -> dict[str, Any]:
        advances = _class("games.strategy.triplea.delegate.TechTracker").getCurrentTechAdvances(self._player(player), self.data.getTechnologyFrontier())
        return {"techs": sorted({str(a.getProperty()) for a in advances})}

    def _technologies(self) -> dict[str, Any]:
        advances = _class("games.strategy.triplea.delegate.TechAdvance").getTechAdvances(self.data.getTechnologyFrontier(), None)
        return {"technologies": sorted({str(a.getProperty()) for a in advances})}

    def _property(self, name: str) -> dict[str, Any]:
        return {"value": _plain(self.data.getProperties().get(name))}

    def _techcost(self, player: str) -> dict[str, Any]:
        return {"cost": int(self._player(player).getTechAttachment().getTechCost())}

    def _pus(self, player: str) -> dict[str, Any]:
        return {"pus": int(self._player(player).getResources().getQuantity("PUs"))}

    def _units(self, territory: str) -> dict[str, Any]:
        found = self.data.getMap().getTerritoryOrNull(territory)
        if found is None:
            raise Refused(f"no territory {territory}")
        counts: dict[str, int] = {}
        damaged: dict[str, int] = {}
        for unit in found.getUnits():
            owner = unit.getOwner()
            key = f"{'' if owner is None or owner.isNull() else owner.getName()}|{unit.getType().getName()}"
            counts[key] = counts.get(key, 0) + 1
            if unit.getHits() > 0:
                damaged[key] = damaged.get(key, 0) + int(unit.getHits())
        owner = found.getOwner()
        return {"owner": "" if owner is None or owner.isNull() else str(owner.getName()), "units": counts, "damaged": damaged}


#: 1.9 getters 2.x renamed beyond case and underscores: the same game option
#: ("Naval Bombard Casualties Return Fire", Constants in both).
_RENAMED = {"getNavalBombardCasualtiesReturnFireRestricted": "getNavalBombardCasualtiesReturnFire"}

_Bridge: Any = None


class _Bridge27(DelegateBridge):
    """2.7's bridge: its delegates ask it for the player, the costs of units (TUV) and resources; messages go nowhere."""

    names = BridgeNames(remote_player="games.strategy.engine.player.Player", display="games.strategy.engine.display.IDisplay", sound="org.triplea.sound.ISound")

    def getGamePlayer(self):
        return self.player

    def sendMessage(self, message) -> None:
        pass

    def getCostsForTuv(self, *player):
        return _class("games.strategy.triplea.util.TuvCostsCalculator")().getCostsForTuv(player[0] if player else self.player)

    def getResourceLoader(self):
        return _class("java.util.Optional").empty()


def _adapter(home: Path):
    global _Bridge
    _Bridge = java_bridge(_Bridge27)
    # Some delegates read client settings (the end of a round, for one): a scratch preferences node, as TripleA's
    # own tests set it.
    setting = _class("games.strategy.triplea.settings.ClientSetting")
    setting.setPreferences(_class("java.util.prefs.Preferences").userRoot().node("kremlin-triplea-positions27"))
    return _Positions(triplea2_bridge.engine(home)).answer


def main() -> None:
    serve(_adapter)


if __name__ == "__main__":
    main()

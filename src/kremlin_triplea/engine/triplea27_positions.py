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
==============  =====================  ==============================================================

A failed command answers ``{"error": ...}`` and the batch goes on.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kremlin_triplea.engine import JVM_START_SECONDS, EngineFailed, absolute_paths, triplea2_classpath
from kremlin_triplea.engine.jvm_bridge import Refused, run_child, runtime_library, serve
from kremlin_triplea.engine.positions import SECONDS_PER_POSITION, Position
from kremlin_triplea.gamefile.installation import Installation

COMMANDS = ("grant", "frontier", "unit", "techs", "technologies", "property", "techcost", "pus", "units")


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
        timeout=JVM_START_SECONDS + SECONDS_PER_POSITION * len(positions),
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


class _Positions:
    def __init__(self) -> None:
        self.data = None

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
        for unit in found.getUnits():
            owner = unit.getOwner()
            key = f"{'' if owner is None or owner.isNull() else owner.getName()}|{unit.getType().getName()}"
            counts[key] = counts.get(key, 0) + 1
        owner = found.getOwner()
        return {"owner": "" if owner is None or owner.isNull() else str(owner.getName()), "units": counts}


_Bridge: Any = None


def _interfaces():
    from jpype import JImplements, JOverride

    @JImplements("games.strategy.engine.delegate.IDelegateBridge")
    class Bridge:
        """What granting a technology needs of a delegate's bridge: the game, and its changes performed on it."""

        def __init__(self, data, player) -> None:
            self._data, self._player = data, player

        # The interface's names, from here on; a technology's grant uses getData and addChange only.
        @JOverride
        def getData(self):
            return self._data

        @JOverride
        def addChange(self, change) -> None:
            self._data.performChange(change)

        @JOverride
        def getGamePlayer(self):
            return self._player

        @JOverride
        def getRemotePlayer(self, *player):
            raise Refused("no remote player in a position")

        @JOverride
        def getRandom(self, *args):
            raise Refused("no dice in a position")

        @JOverride
        def getHistoryWriter(self):
            raise Refused("no history in a position")

        @JOverride
        def getDisplayChannelBroadcaster(self):
            raise Refused("no display in a position")

        @JOverride
        def getSoundChannelBroadcaster(self):
            raise Refused("no sound in a position")

        @JOverride
        def stopGameSequence(self, status, title) -> None:
            pass

        @JOverride
        def leaveDelegateExecution(self) -> None:
            pass

        @JOverride
        def enterDelegateExecution(self) -> None:
            pass

        @JOverride
        def sendMessage(self, message) -> None:
            pass

        @JOverride
        def getResourceLoader(self):
            return _class("java.util.Optional").empty()

    return Bridge


def _adapter(home: Path):
    global _Bridge
    _Bridge = _interfaces()
    return _Positions().answer


def main() -> None:
    serve(_adapter)


if __name__ == "__main__":
    main()

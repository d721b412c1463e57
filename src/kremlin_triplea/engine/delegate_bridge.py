"""The bridge a TripleA delegate talks to the game through, written once for 1.9 and 2.7 (runs in the JVM's child).

A delegate run outside a game (a step of a position, a technology granted, a placement asked) needs an
``IDelegateBridge``: changes performed on the game, history lines kept, dice from ``java.util.Random(1)``, and every
player, display and sound channel a stand-in that does nothing. Both versions' interfaces have that shape under
different names and with a few methods of their own, so a version's bridge is ``DelegateBridge`` subclassed with its
``names`` and those methods (triplea19_positions, triplea27_positions), made a Java class by ``java_bridge``
(jvm_bridge's ``java_implementation``, as 2.x's launch action is).

JPype is imported inside the functions: this module is imported only where the JVM runs, but is read (and its
classes defined) without it.
"""

from __future__ import annotations

import functools

import attrs

from kremlin_triplea.engine.jvm_bridge import java_implementation


@attrs.frozen
class BridgeNames:
    """What one TripleA version calls the interfaces the bridge hands out."""

    remote_player: str
    display: str
    sound: str


def java_class(name: str):
    """The engine's (or the JDK's) class ``name``."""
    from jpype import JClass

    return JClass(name)


def boxed_default(return_type):
    """What a player who does nothing answers, boxed as java.lang.reflect.Proxy unboxes it: false, 0, null."""
    name = str(return_type.getName())
    boxes = {"int": "Integer", "long": "Long", "short": "Short", "byte": "Byte", "double": "Double", "float": "Float"}
    if name == "boolean":
        return java_class("java.lang.Boolean").FALSE
    if name in boxes:
        return java_class(f"java.lang.{boxes[name]}").valueOf(java_class("java.lang.String")("0"))
    if name == "char":
        return java_class("java.lang.Character").valueOf("\0")
    return None


@functools.cache
def _nothing_handler() -> type:
    from jpype import JImplements, JOverride

    @JImplements("java.lang.reflect.InvocationHandler")
    class Nothing:
        """A player, display or sound channel that does nothing and answers "no" (false, 0, null)."""

        def __init__(self, what: str) -> None:
            self._what = what

        @JOverride
        def invoke(self, proxy, method, args):  # the interface's name
            if str(method.getName()) == "toString":
                return java_class("java.lang.String")(f"nothing {self._what}")
            return boxed_default(method.getReturnType())

    return Nothing


def nothing(interface: str):
    """A stand-in for the Java ``interface`` that does nothing and answers "no"."""
    cls = java_class(interface).class_
    interfaces = java_class("java.lang.Class")[:]([cls])
    return java_class("java.lang.reflect.Proxy").newProxyInstance(cls.getClassLoader(), interfaces, _nothing_handler()(cls.getSimpleName()))


@functools.cache
def _history_writer() -> type:
    from jpype import JImplements, JOverride

    @JImplements("games.strategy.engine.history.IDelegateHistoryWriter")
    class History:
        def __init__(self, lines: list[str]) -> None:
            self._lines = lines

        @JOverride
        def startEvent(self, text, *details) -> None:  # the interface's name
            self._lines.append(str(text))

        @JOverride
        def addChildToEvent(self, text, *details) -> None:  # the interface's name
            self._lines.append(str(text))

    return History


class DelegateBridge:
    """The methods both versions' ``IDelegateBridge`` have; a version's subclass sets ``names`` and adds its own.

    Every public method is named as the interface's (camelCase): ``java_bridge`` marks each as implementing it.
    """

    names: BridgeNames

    def __init__(self, data, player=None, step=None) -> None:
        self.data, self.player, self.step = data, player, step
        self.history: list[str] = []
        self.stopped = False
        self._random = java_class("java.util.Random")(1)

    def getData(self):
        return self.data

    def addChange(self, change) -> None:
        self.data.performChange(change)

    def getRemotePlayer(self, *player):
        return nothing(self.names.remote_player)

    def getRandom(self, most, *rest):
        from jpype import JArray, JInt

        if len(rest) == 3:  # getRandom(max, player, diceType, annotation)
            return self._random.nextInt(most)
        return JArray(JInt)([self._random.nextInt(most) for _ in range(int(rest[0]))])

    def getHistoryWriter(self):
        return _history_writer()(self.history)

    def getDisplayChannelBroadcaster(self):
        return nothing(self.names.display)

    def getSoundChannelBroadcaster(self):
        return nothing(self.names.sound)

    def stopGameSequence(self, *status_and_title) -> None:  # 2.7 says why; 1.9 does not
        self.stopped = True

    def leaveDelegateExecution(self) -> None:
        pass

    def enterDelegateExecution(self) -> None:
        pass


def java_bridge(bridge: type[DelegateBridge]) -> type:
    """``bridge`` as a Java ``IDelegateBridge`` (once the JVM runs)."""
    return java_implementation(bridge, "games.strategy.engine.delegate.IDelegateBridge")

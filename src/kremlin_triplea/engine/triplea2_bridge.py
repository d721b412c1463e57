"""TripleA 2.x driven from Python through JPype, in the JVM of the user's own TripleA installation (issue 16).

A TripleA 2.x installation ships a Java runtime but no compiler, so the engine is not driven by Java source
compiled here: JPype loads that runtime's JVM library (``libjvm.so``, ``libjvm.dylib``, ``jvm.dll``) into a
Python process and calls the engine's classes directly. This module is the 2.x adapter over the shared runner
(:mod:`kremlin_triplea.engine.jvm_bridge`: the child process ``python -m kremlin_triplea.engine.triplea2_bridge``,
the JSON order and answers, the JVM's start, root-cause errors); the caller (:func:`run`) stays free of any JVM.
A request is one of

- ``{"read": GAME}``: the game parsed as the 2.x game selector parses it (``GameParser.parse``), checked as the
  selector checks it (``GameParsingValidation``): ``validation`` and the game's state (:func:`_state`);
- ``{"save": GAME, "to": TSVG, "bot_maps": DIR or null}``: the same parse and check, then the game written with
  ``GameDataManager.saveGame``, loaded back with ``GameDataManager.loadGame``: ``validation``, the loaded save's
  state and, given a maps folder, a 2.7 bot's acceptance of the save (``bot``: ``has_game``, ``map_installed``);
- ``{"play": TSVG or GAME, "rounds": N, "seed": S or null}``: the save loaded (or the game parsed) and N rounds
  (default 1) played with every power a Fast AI (TripleA's own smoke-test recipe, ../shared/triplea-engine-2.7/README.md
  "Running AI players"), the dice seeded with S if given: ``steps``, ``round`` reached, ``rounds_played``,
  ``game_over`` (the engine declared a victory), ``error`` (the first exception thrown by a step) and ``exceptions``
  (that one, every exception left uncaught in an engine thread, such as an AI's, and every error the engine only
  logged, such as BattleTracker's "... This is a bug.", as ``logged: LOGGER: MESSAGE``);
- ``{"judge": GAME}``: the engine's verdict on a game file (``validate --engine``): ``verdict`` ``refuses`` (the game
  selector does not parse it, or ``GameParsingValidation`` objects: ``why`` is the engine's reason, its first
  objection), ``misreads`` (it parses, but a game property holds a value its reader cannot cast: each of
  ``Properties``' getters is called on the parsed game, as play would; ``why`` the getter and the exception) or
  ``reads``;
- ``{"conditions": GAME}``: how the engine resolved the condition names of each rules attachment (``conditions``:
  player -> attachment -> condition name -> the player whose attachment it turned out to be).

An engine exception answers ``{"error": "Class: message"}`` (its root cause) and the batch goes on.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import attrs

from kremlin_triplea.engine.jvm_bridge import Refused as _Refused
from kremlin_triplea.engine.jvm_bridge import SeededDice, java_implementation, run_child, runtime_library, serve, triplea2_classpath
from kremlin_triplea.engine.jvm_bridge import java_string as _java_string
from kremlin_triplea.engine.jvm_bridge import root_cause as _root_cause
from kremlin_triplea.gamefile.installation import Installation

__all__ = ["Answers", "reading", "runtime_library", "run"]


@attrs.frozen
class Answers:
    """What one child process answered: the runtime it ran on and one answer per request."""

    runtime: str  # "Java 17.0.15 (/path/to/libjvm.so)"
    answers: tuple[dict[str, Any], ...]


def run(installation: Installation, requests: Sequence[Mapping[str, Any]], *, timeout: float, doing: str) -> Answers:
    """The ``requests`` answered by ``installation``'s TripleA 2.x in one child process (one JVM)."""
    libjvm = runtime_library(installation)
    runtime, answers = run_child(
        __name__,
        libjvm=libjvm,
        classpath=triplea2_classpath(installation.jar),
        requests=requests,
        timeout=timeout,
        doing=doing,
        describe=installation.describe(),
    )
    return Answers(f"Java {runtime['java_version']} ({libjvm})", answers)


def reading(answer: Mapping[str, Any]) -> SimpleNamespace:
    """A read or save answer in the shape :func:`kremlin_triplea.engine.compare.disagreements` takes: ``game_name``,
    ``round``, ``validation``, ``territories`` (name -> owner, units by (owner, type)), ``pus``, ``properties``."""
    territories = {name: SimpleNamespace(owner=t["owner"], units={(o, u): n for o, u, n in t["units"]}) for name, t in answer["territories"].items()}
    return SimpleNamespace(
        error=None,
        game_name=answer["game_name"],
        round=answer["round"],
        validation=tuple(answer["validation"]),
        territories=territories,
        pus=answer["pus"],
        properties=answer["properties"],
    )


# ---------------------------------------------------------------------------------------------------------------
# The child process: everything below runs inside the JVM's process and imports JPype.


#: The interface implementations of :func:`_interfaces`, set once the JVM runs.
_SeededDice: Any = None
_UncaughtExceptions: Any = None
_LocalLaunch: Any = None


class _Engine:
    """The TripleA 2.x classes the requests use, looked up once the JVM runs."""

    def __init__(self, home: Path) -> None:
        from jpype import JClass

        self._home = home
        self.File = JClass("java.io.File")
        self.Files = JClass("java.nio.file.Files")
        self.GameParser = JClass("games.strategy.engine.data.gameparser.GameParser")
        self.GameParsingValidation = JClass("games.strategy.engine.data.gameparser.GameParsingValidation")
        self.GameDataManager = JClass("games.strategy.engine.framework.GameDataManager")
        self._ai_ready = False

    def path(self, name: str):
        return self.File(name).toPath()

    def answer(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """One request answered (an engine exception is answered by :func:`~kremlin_triplea.engine.jvm_bridge.serve`)."""
        if "play" in request:
            return self.play(request["play"], rounds=int(request.get("rounds", 1)), seed=request.get("seed"))
        if "save" in request:
            return self.save(request["save"], request["to"], request.get("bot_maps"))
        if "conditions" in request:
            return self.conditions(request["conditions"])
        if "judge" in request:
            return self.judge(request["judge"])
        return self.read(request["read"])

    def parse(self, game: str) -> tuple[Any, list[str]]:
        """The game as the 2.x game selector parses it, and what the selector would refuse it for."""
        logged = self._logged_errors()  # 2.x logs why it does not parse a game, and answers only "empty"
        parsed = self.GameParser.parse(self.path(game), False)
        why = logged()
        if not parsed.isPresent():
            reason = why[0].split(": ", 2)[-1].removeprefix(f"Could not parse:{game}, ") if why else "no reason logged"
            raise _Refused(f"TripleA does not parse {game}: {reason}")
        data = parsed.get()
        return data, [str(error) for error in self.GameParsingValidation(data).validate()]

    def read(self, game: str) -> dict[str, Any]:
        data, validation = self.parse(game)
        return {"validation": validation, **_state(data)}

    def judge(self, game: str) -> dict[str, str]:
        """2.x's verdict on ``game``: whether the game selector refuses it, play misreads a property of it, or it reads."""
        from jpype import JClass, JException

        try:
            data, validation = self.parse(game)
        except _Refused as refused:
            return {"verdict": "refuses", "why": str(refused)}
        except JException as error:
            return {"verdict": "refuses", "why": _root_cause(error)}
        if validation:
            return {"verdict": "refuses", "why": f"GameParsingValidation: {validation[0]}"}
        # A property of the wrong type (Low Luck="yes") is kept as text and fails the getter play calls on it.
        modifier = JClass("java.lang.reflect.Modifier")
        for getter in JClass("games.strategy.triplea.Properties").class_.getDeclaredMethods():
            parameters = getter.getParameterTypes()
            if len(parameters) != 1 or str(parameters[0].getSimpleName()) != "GameProperties":
                continue
            if not (modifier.isStatic(getter.getModifiers()) and modifier.isPublic(getter.getModifiers())):
                continue
            try:
                getter.invoke(None, data.getProperties())
            except JException as error:
                return {"verdict": "misreads", "why": f"Properties.{getter.getName()}: {_root_cause(error)}"}
        return {"verdict": "reads", "why": ""}

    def conditions(self, game: str) -> dict[str, Any]:
        """How the engine resolved the condition names of every rules attachment: player -> attachment -> condition
        name -> the player whose attachment it is (a name is looked up across players, so it may not be the owner's)."""
        data = self.parse(game)[0]
        found: dict[str, Any] = {}
        for player in data.getPlayerList().getPlayers():
            attachments = {}
            for name, attachment in player.getAttachments().items():
                if str(attachment.getClass().getSimpleName()) == "RulesAttachment":
                    attachments[str(name)] = {str(c.getName()): str(c.getAttachedTo().getName()) for c in attachment.getConditions()}
            found[str(player.getName())] = attachments
        return {"conditions": found}

    def save(self, game: str, to: str, bot_maps: str | None) -> dict[str, Any]:
        data, validation = self.parse(game)
        target = self.path(to)
        stream = self.Files.newOutputStream(target)
        try:
            self.GameDataManager.saveGame(stream, data)
        finally:
            stream.close()
        loaded = self.GameDataManager.loadGame(target)
        if not loaded.isPresent():
            raise _Refused("TripleA does not load the save it wrote")
        loaded = loaded.get()
        answer = {"validation": validation, **_state(loaded)}
        if bot_maps:
            answer["bot"] = self.bot_check(loaded, bot_maps)
        return answer

    def bot_check(self, loaded, maps: str) -> dict[str, bool]:
        """A 2.7 bot's check on an uploaded save (HeadlessGameServer.checkGameIsAvailableOnServer): the save's game
        name is one of the installed maps' games (InstalledMapsListing.hasGame), and its map is installed."""
        from jpype import JClass

        listing = JClass("games.strategy.engine.framework.map.file.system.loader.InstalledMapsListing").parseMapFiles(self.path(maps))
        return {"has_game": bool(listing.hasGame(loaded.getGameName())), "map_installed": bool(listing.isMapInstalled(loaded.getMapName()))}

    def _logged_errors(self):
        """From now on, the errors the engine logs (slf4j -> logback, as 2.x logs); the result drains them.

        The engine reports some faults only in its log and plays on (a battle it cannot fight, a bug it notices):
        a round that "played" is not clean if the engine logged an error meanwhile. An installation whose
        logging is not logback records nothing here.
        """
        from jpype import JClass, JException

        try:
            factory = JClass("org.slf4j.LoggerFactory")
            appender = JClass("ch.qos.logback.core.read.ListAppender")()
            appender.setContext(factory.getILoggerFactory())
            appender.start()
            root = factory.getLogger("ROOT")
            root.addAppender(appender)
            error_level = JClass("ch.qos.logback.classic.Level").ERROR
        except (JException, TypeError, AttributeError):
            return list

        def drain() -> list[str]:
            root.detachAppender(appender)
            events = [event for event in appender.list if event.getLevel().isGreaterOrEqual(error_level)]
            return [f"logged: {event.getLoggerName()}: {event.getFormattedMessage()}" for event in events]

        return drain

    def _prepare_ai(self) -> None:
        """Once per JVM, the settings TripleA's smoke test makes before AIs play: no pauses, no map images,
        a scratch root and save folder."""
        if self._ai_ready:
            return
        from jpype import JClass

        root = self._home / "triplea-root"
        (root / "assets").mkdir(parents=True)
        (root / ".triplea-root").touch()
        JClass("games.strategy.engine.ClientFileSystemHelper").setCodeSourceFolder(self.path(str(root)))
        setting = JClass("games.strategy.triplea.settings.ClientSetting")
        setting.setPreferences(JClass("java.util.prefs.Preferences").userRoot().node("kremlin-triplea-play27"))
        # setValue takes the setting's type parameter (erased to Object): a Python int would arrive as a Long.
        no_pause = JClass("java.lang.Integer").valueOf(0)
        setting.aiMovePauseDuration.setValue(no_pause)
        setting.aiCombatStepPauseDuration.setValue(no_pause)
        setting.saveGamesFolderPath.setValue(self.path(str(root / "saves")))
        self._ai_ready = True

    def play(self, file: str, *, rounds: int = 1, seed: int | None = None) -> dict[str, Any]:
        """``rounds`` rounds of ``file`` (a save, or a game file) with every power a Fast AI."""
        return self.play_game(lambda: self._loaded(file), rounds=rounds, seed=seed)

    def _loaded(self, file: str):
        if file.endswith((".tsvg", ".tsvg.gz")):
            loaded = self.GameDataManager.loadGame(self.path(file))
            if not loaded.isPresent():
                raise _Refused(f"TripleA 2.x does not load {file}")
            return loaded.get()
        return self.parse(file)[0]

    def play_game(self, game: Callable[[], Any], *, rounds: int = 1, seed: int | None = None) -> dict[str, Any]:
        """``rounds`` rounds of the game ``game()`` gives (its GameData, read once the engine's errors are watched)
        with every power a Fast AI: the answer of a ``play`` request."""
        from jpype import JClass, JException

        began = time.monotonic()
        self._prepare_ai()
        steps: list[str] = []
        start = reached = 0
        over, error = False, None
        uncaught = _UncaughtExceptions.install()
        logged = self._logged_errors()
        try:
            data = game()
            hash_map = JClass("java.util.HashMap")
            fast_ai = JClass("games.strategy.engine.framework.startup.ui.PlayerTypes").FAST_AI
            types = hash_map()
            for player in data.getPlayerList().getPlayers():
                types.put(player.getName(), fast_ai)
            players = data.getGameLoader().newPlayers(types)
            launch = _LocalLaunch()
            messengers = JClass("games.strategy.net.Messengers")(JClass("games.strategy.net.LocalNoOpMessenger")())
            no_op_sender = JClass("games.strategy.net.websocket.ClientNetworkBridge").NO_OP_SENDER
            game = JClass("games.strategy.engine.framework.ServerGame")(data, players, hash_map(), messengers, no_op_sender, launch)
            game.setDelegateAutosavesEnabled(False)
            game.setRandomSource(_SeededDice(seed) if seed is not None else JClass("games.strategy.engine.random.PlainRandomSource")())
            data.getGameLoader().startGame(game, players, launch, None)
            game.setUpGameForRunningSteps()
            sequence = data.getSequence()
            start = reached = int(sequence.getRound())
            while not game.isGameOver() and sequence.getRound() < start + rounds:
                steps.append(str(sequence.getStep().getName()))
                game.runNextStep()
            reached, over = int(sequence.getRound()), bool(game.isGameOver())
            game.stopGame()
        except (JException, _Refused) as e:
            error = _root_cause(e)
        exceptions = ([error] if error else []) + uncaught.drain() + logged()
        seconds = round(time.monotonic() - began, 1)
        return {
            "steps": steps,
            "round": reached,
            "rounds_played": reached - start,
            "game_over": over,
            "error": error,
            "exceptions": exceptions,
            "seconds": seconds,
        }


def _interfaces():
    """The Java interfaces implemented in Python; defined once the JVM runs (JPype checks them against the class)."""
    import threading

    from jpype import JImplements, JOverride

    @JImplements("java.lang.Thread$UncaughtExceptionHandler")
    class UncaughtExceptions:
        """Every exception that ends an engine thread (an AI's, say), which the step that started it never sees."""

        _installed = None

        def __init__(self) -> None:
            self._seen: list[str] = []
            self._lock = threading.Lock()

        @classmethod
        def install(cls) -> UncaughtExceptions:
            if cls._installed is None:
                cls._installed = cls()
                from jpype import JClass

                JClass("java.lang.Thread").setDefaultUncaughtExceptionHandler(cls._installed)
            cls._installed.drain()
            return cls._installed

        @JOverride
        def uncaughtException(self, thread, error) -> None:  # the interface's name
            with self._lock:
                self._seen.append(f"in thread {thread.getName()}: {_root_cause(error)}")

        def drain(self) -> list[str]:
            with self._lock:
                seen, self._seen = self._seen, []
            return seen

    return java_implementation(SeededDice, SeededDice.INTERFACE), UncaughtExceptions, _local_launch()


def _local_launch():
    """The launch action of a game played here, with no UI, map images, sound, chat or network.

    TripleA's own is HeadlessLaunchAction, but that belongs to the headless server (the bot's game-headless module),
    which the client players install does not hold; this does what it does for a local game (its startGame with map
    resources skipped, as TripleA's smoke test sets it), from classes every 2.x jar has (game-core).
    """
    return java_implementation(_HeadlessLaunch, "games.strategy.engine.framework.startup.launcher.LaunchAction")


def _jclass(name: str):
    from jpype import JClass

    return JClass(name)


class _HeadlessLaunch:
    """LaunchAction's methods, named as the interface's (``_local_launch`` makes the Java class)."""

    def startGame(self, local_players, game, players, chat) -> None:
        game.setResourceLoader(_jclass("games.strategy.triplea.ResourceLoader")(_jclass("java.util.List").of()))
        game.setDisplay(_jclass("games.strategy.triplea.ui.display.HeadlessDisplay")())
        game.setSoundChannel(_jclass("org.triplea.sound.HeadlessSoundChannel")())

    def getAutoSaveFileUtils(self):
        return _jclass("games.strategy.engine.framework.HeadlessAutoSaveFileUtils")()

    def getAutoSaveFile(self):
        return self.getAutoSaveFileUtils().getHeadlessAutoSaveFile()

    def getPlayerTypes(self):
        return _jclass("games.strategy.engine.framework.startup.ui.PlayerTypes").getBuiltInPlayerTypes()

    def getDefaultLocalPlayerType(self):
        return _jclass("games.strategy.engine.framework.startup.ui.PlayerTypes").WEAK_AI

    def promptGameStop(self, status, title, map_location) -> bool:
        return True

    def shouldMinimizeExpensiveAiUse(self) -> bool:
        return True

    def createThreadMessaging(self):
        return _jclass("games.strategy.engine.framework.startup.WatcherThreadMessaging$HeadlessWatcherThreadMessaging")()

    def getFallbackConnection(self, cancel_action):
        return _jclass("java.util.Optional").empty()

    def handleGameInterruption(self, game_selector_model, server_model) -> None:
        pass

    def onGameInterrupt(self) -> None:
        pass

    def onEnd(self, message) -> None:
        pass

    def onLaunch(self, server_game) -> None:
        pass

    def handleError(self, error) -> None:
        # Logged, as TripleA's own does: a play answers the errors the engine logs among its exceptions.
        _jclass("org.slf4j.LoggerFactory").getLogger("LaunchAction").error(error)

    def createChatModel(self, chat_name, messengers, client_network_bridge):
        raise _jclass("java.lang.UnsupportedOperationException")("a local game has no chat")

    def getStartupRemote(self, server_model_view):
        raise _jclass("java.lang.UnsupportedOperationException")("a local game has no network")


def _state(data) -> dict[str, Any]:
    """Game name, round, step, every territory's owner and units (by owner and type), every player's PUs."""
    sequence = data.getSequence()
    territories = {}
    for territory in data.getMap().getTerritories():
        units: dict[tuple[str | None, str], int] = {}
        for unit in territory.getUnits():
            key = (_player_name(unit.getOwner()), str(unit.getType().getName()))
            units[key] = units.get(key, 0) + 1
        counted = [[owner, kind, n] for (owner, kind), n in sorted(units.items(), key=lambda item: (item[0][0] or "", item[0][1]))]
        territories[str(territory.getName())] = {"owner": _player_name(territory.getOwner()), "units": counted}
    pus = {str(player.getName()): int(player.getResources().getQuantity("PUs")) for player in data.getPlayerList().getPlayers()}
    # Constant and editable properties, editable winning as in GameProperties.get (as the 1.9 harness reports them).
    game_properties = data.getProperties()
    properties = {str(name): _java_string(value) for name, value in game_properties.getConstantPropertiesByName().items()}
    properties.update({str(p.getName()): _java_string(p.getValue()) for p in game_properties.getEditableProperties()})
    return {
        "game_name": str(data.getGameName()),
        "round": int(sequence.getRound()),
        "step": str(sequence.getStep().getName()),
        "territories": territories,
        "pus": pus,
        "properties": properties,
    }


def _player_name(player) -> str | None:
    """A player's name; None for TripleA's neutral player (as the 1.9 harness reports owner None)."""
    return None if player is None or player.isNull() else str(player.getName())


def engine(home: Path) -> _Engine:
    """The 2.x engine, once the JVM runs (its interfaces implemented in Python), its scratch files below ``home``."""
    global _SeededDice, _UncaughtExceptions, _LocalLaunch
    if _SeededDice is None:
        _SeededDice, _UncaughtExceptions, _LocalLaunch = _interfaces()
    return _Engine(home)


def _adapter(home: Path):
    """The request answerer, once the JVM runs."""
    return engine(home).answer


def main() -> None:
    serve(_adapter)


if __name__ == "__main__":
    main()

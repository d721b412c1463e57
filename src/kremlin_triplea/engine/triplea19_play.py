"""TripleA 1.9 plays games from Python through JPype, every power its own AI (issue 16: no compiler needed).

The child process ``python -m kremlin_triplea.engine.triplea19_play``, run in the jar's folder by
:func:`kremlin_triplea.engine.play.play_with_engine` over the shared runner
(:mod:`kremlin_triplea.engine.jvm_bridge`). A request ``{"play": FILE, "rounds": N, "timeout": SECONDS,
"player_type": "Fast (AI)", "seed": N or null}`` is answered in the keys :class:`~kremlin_triplea.engine.play.PlayReport`
takes: ``file``, ``ok``, ``error``, ``rounds_played``, ``steps``, ``exceptions``, ``final`` (pus, territories and
the rules report as they stand when play stopped), ``game_over``, ``timed_out``.

A game starts as the engine's own LocalLauncher starts one: the game loader makes the players, a ``ServerGame``
on a ``HeadlessServerMessenger`` runs them, and the loader's headless ``startGame`` adds the display, sound
channel and edit delegate. The game runs in a thread of its own and stops as the step that begins the first round
past the limit is announced (the step listener throws), before that step's delegate starts.

The engine swallows many errors: it prints their stack traces, logs them, or lets them end a thread. All three
make the game fail here. JPype implements Java interfaces but cannot extend classes, so the three are caught
through interfaces and plain JDK classes: System.out and System.err print into a buffer that is read for stack
traces (and then passed on to standard error), a ``java.util.logging`` handler's ``Filter`` sees every record,
and a default uncaught-exception handler sees the rest.

A game still running at its time-out is reported timed out; it cannot be stopped safely, so every request after
it is answered ``{"skipped": true}`` and the caller plays those in a fresh child.
"""

from __future__ import annotations

import re
import sys
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kremlin_triplea.engine.jvm_bridge import SeededDice, java_implementation, serve
from kremlin_triplea.engine.triplea19_bridge import java_class, pus_of, root_message, rules, territory_of

#: TripleA.FAST_COMPUTER_PLAYER_TYPE in 1.9.
FAST_AI = "Fast (AI)"
POLL_SECONDS = 0.05
#: What the step listener throws to stop the engine before the first step past the last round starts.
ROUND_LIMIT = "kremlin round limit"

# A line that starts a printed stack trace (Throwable.toString: the class name, then ": message" if any), and
# the lines printStackTrace writes after it.
_THROWABLE_LINE = re.compile(r"^(?:Caused by: )?((?:[A-Za-z_$][\w$]*\.)+[A-Za-z_$][\w$]*)(?::\s?(.*))?$")
_FRAME_LINE = re.compile(r"^\s+at (.+)$")


def describe(thrown) -> str:
    """One line: the exception and its causes, and where the first of them was thrown (the 1.9 player's form)."""
    parts = []
    each = thrown
    for _ in range(10):
        if each is None:
            break
        message = each.getMessage()
        text = str(each.getClass().getName())
        if message is not None and str(message).strip():
            text += ": " + str(message).strip().splitlines()[0]
        parts.append(text)
        cause = each.getCause()
        each = None if cause is None or cause.equals(each) else cause
    trace = thrown.getStackTrace()
    where = f" (at {trace[0].toString()})" if len(trace) > 0 else ""
    return "; caused by ".join(parts) + where


def printed_traces(text: str) -> list[str]:
    """Every stack trace printed in ``text`` (printStackTrace's layout), described as :func:`describe` does."""
    lines = text.splitlines()
    found = []
    at = 0
    while at < len(lines):
        head = _THROWABLE_LINE.match(lines[at])
        if head is None or lines[at].startswith("Caused by: ") or at + 1 >= len(lines) or not _FRAME_LINE.match(lines[at + 1]):
            at += 1
            continue
        parts = [head.group(1) + (f": {head.group(2).strip()}" if head.group(2) and head.group(2).strip() else "")]
        first_frame = _FRAME_LINE.match(lines[at + 1]).group(1)
        at += 1
        while at < len(lines) and (_FRAME_LINE.match(lines[at]) or lines[at].lstrip().startswith(("... ", "Caused by: ", "Suppressed: "))):
            cause = _THROWABLE_LINE.match(lines[at]) if lines[at].startswith("Caused by: ") else None
            if cause is not None:
                parts.append(cause.group(1) + (f": {cause.group(2).strip()}" if cause.group(2) and cause.group(2).strip() else ""))
            at += 1
        found.append("; caused by ".join(parts[:10]) + f" (at {first_frame})")
    return found


class _Play:
    """One game, run in its own thread; the main thread watches it and reports it."""

    def __init__(self, file: str, *, rounds: int, player_type: str, seed: int | None) -> None:
        self.file, self.rounds, self.player_type, self.seed = file, rounds, player_type, seed
        self.exceptions: list[str] = []
        self.steps: list[str] = []
        self.lock = threading.Lock()
        self.game = None
        self.game_over = False
        self.error: str | None = None
        self.rounds_played = 0
        self.final: dict[str, Any] | None = None

    def note(self, exception: str) -> None:
        with self.lock:
            self.exceptions.append(exception)

    def run(self) -> None:
        from jpype import JException

        # A thread Python starts has no context class loader; the engine makes its remote proxies with it.
        engine_classes = java_class("games.strategy.engine.framework.ServerGame").class_.getClassLoader()
        java_class("java.lang.Thread").currentThread().setContextClassLoader(engine_classes)
        parser = java_class("games.strategy.engine.data.GameParser")(Path(self.file).name)
        try:
            stream = java_class("java.io.FileInputStream")(self.file)
            try:
                data = parser.parse(stream, java_class("java.util.concurrent.atomic.AtomicReference")(), False)
            finally:
                stream.close()
        except JException as e:
            self.error = f"the engine cannot read the game: {root_message(e)}"
            return
        first_round = int(data.getSequence().getRound())
        reached_limit = False
        try:
            hash_map = java_class("java.util.HashMap")
            types = hash_map()
            for player in data.getPlayerList().getPlayers():
                types.put(player.getName(), self.player_type)
            listing = java_class("games.strategy.engine.framework.message.PlayerListing")(
                None,
                data.getPlayerList().getPlayersEnabledListing(),
                types,
                data.getGameVersion(),
                data.getGameName(),
                str(first_round),
                None,
                None,
            )
            data.doPreGameStartDataModifications(listing)
            _provide_map_folder(data)
            players = data.getGameLoader().createPlayers(types)
            messengers = java_class("games.strategy.net.Messengers")(java_class("games.strategy.net.HeadlessServerMessenger")())
            game = java_class("games.strategy.engine.framework.ServerGame")(data, players, hash_map(), messengers)
            if self.seed is not None:
                game.setRandomSource(_SeededDice(self.seed))
            game.addGameStepListener(_RoundLimit(self, first_round + self.rounds))
            data.getGameLoader().startGame(game, players, True)
            self.game = game
            try:
                game.startGame()
            except JException as e:
                if str(e.getMessage()) != ROUND_LIMIT:
                    raise
                reached_limit = True
        except JException as e:
            self.note(f"thrown by the game: {describe(e)}")
            self.error = f"the engine failed in round {data.getSequence().getRound()}: {root_message(e)}"
        self.rounds_played = self.rounds if reached_limit else max(0, int(data.getSequence().getRound()) - first_round)
        try:
            self.final = {"pus": pus_of(data), "territories": {str(t.getName()): territory_of(t) for t in data.getMap().getTerritories()}, "rules": rules(data)}
        except JException as e:
            self.note(f"kremlin harness describing the game: {describe(e)}")
        game = self.game
        if game is not None and not game.isGameOver():
            # Tells the players and delegates the game is over; nothing of the next round has started.
            game.stopGame()

    def report(self, *, timed_out: bool, timeout: float) -> dict[str, Any]:
        with self.lock:
            exceptions, steps = list(self.exceptions), list(self.steps)
        error = f"timed out after {timeout:g} s" if timed_out else self.error
        if error is None and exceptions:
            error = f"the engine reported {len(exceptions)} exception(s), the first {exceptions[0]}"
        return {
            "error": error,
            "exceptions": exceptions,
            "file": self.file,
            "final": None if timed_out else self.final,
            "game_over": self.game_over,
            "ok": error is None,
            "rounds_played": 0 if timed_out else self.rounds_played,
            "steps": steps,
            "timed_out": timed_out,
        }


def _provide_map_folder(data) -> None:
    """The headless game loader looks the map up among the downloaded maps and, not finding it, asks the user (a
    dialog) to download it. Headless play needs none of the map's files: an empty folder of the map's name, in the
    scratch home folder, satisfies it."""
    map_name = data.getProperties().get(java_class("games.strategy.triplea.Constants").MAP_NAME)
    if map_name is not None and isinstance(map_name, java_class("java.lang.String")) and str(map_name).strip():
        folder = Path(str(java_class("games.strategy.engine.ClientFileSystemHelper").getUserMapsFolder().getPath())) / str(map_name)
        folder.mkdir(parents=True, exist_ok=True)


class _Player:
    """The 1.9 adapter's state: the error hooks, installed once, and the game they charge."""

    def __init__(self) -> None:
        system = java_class("java.lang.System")
        self.stderr = java_class("java.io.PrintStream")(java_class("java.io.FileOutputStream")(java_class("java.io.FileDescriptor").err), True, "UTF-8")
        # Everything the engine prints lands in this buffer; after each game it is read for stack traces and passed
        # on to standard error. ClientLogger keeps System.out and System.err in static fields when it is first
        # loaded, so they are replaced before any engine class is.
        self.printed = java_class("java.io.ByteArrayOutputStream")()
        printing = java_class("java.io.PrintStream")(self.printed, True, "UTF-8")
        system.setOut(printing)
        system.setErr(printing)
        self.current: _Play | None = None
        java_class("java.lang.Thread").setDefaultUncaughtExceptionHandler(_Uncaught(self))
        # The engine logs through java.util.logging. Its records go straight to standard error, not into the buffer
        # (where a logged stack trace would be counted a second time); the handler's filter sees every one first.
        root = java_class("java.util.logging.Logger").getLogger("")
        for console in root.getHandlers():
            root.removeHandler(console)
        self.logging = java_class("java.util.logging.StreamHandler")(self.stderr, java_class("java.util.logging.SimpleFormatter")())
        self.logging.setFilter(_Logged(self))
        root.addHandler(self.logging)
        # The AI sleeps this long after each move so that a human can follow; the home folder is a scratch one.
        java_class("games.strategy.triplea.settings.ClientSetting").AI_PAUSE_DURATION.save("0")
        self.stuck = False

    def take_printed(self) -> str:
        """What the engine printed since the last call (also written to standard error)."""
        self.logging.flush()
        raw = self.printed.toByteArray()
        self.printed.reset()
        self.stderr.write(raw, 0, len(raw))
        self.stderr.flush()
        return bytes(raw).decode("utf-8", "replace")

    def answer(self, request: Mapping[str, Any]) -> dict[str, Any]:
        if self.stuck:
            return {"skipped": True}
        play = _Play(request["play"], rounds=int(request.get("rounds", 1)), player_type=str(request.get("player_type", FAST_AI)), seed=request.get("seed"))
        timeout = float(request.get("timeout", 300))
        self.take_printed()
        self.current = play
        started = time.monotonic()
        thread = threading.Thread(target=play.run, name="kremlin-engine-game", daemon=True)
        thread.start()
        timed_out = False
        while thread.is_alive():
            thread.join(POLL_SECONDS)
            if not thread.is_alive():
                break
            if time.monotonic() - started > timeout:
                timed_out = True
                break
            # A victory makes the engine stop stepping and wait, in startGame, to be stopped.
            game = play.game
            if game is not None and not game.isGameSequenceRunning() and not play.game_over:
                play.game_over = True
                game.stopGame()
        for trace in printed_traces(self.take_printed()):
            play.note(f"printed: {trace}")
        self.current = None
        sys.stderr.write(f"kremlin-engine-player: {(time.monotonic() - started) * 1000:.0f} ms: {play.file}\n")
        if timed_out:
            self.stuck = True
        return play.report(timed_out=timed_out, timeout=timeout)

    def charge(self, exception: str) -> None:
        """Charges an error the engine did not let through to the game being played (if any: one may come late)."""
        play = self.current
        if play is not None:
            play.note(exception)


def _interfaces():
    """The Java interfaces implemented in Python; defined once the JVM runs (JPype checks them against the class)."""
    from jpype import JImplements, JOverride

    @JImplements("games.strategy.engine.data.events.GameStepListener")
    class RoundLimit:
        """Records each step the engine starts, and stops the engine as the first round past the limit begins."""

        def __init__(self, play: _Play, stop_round: int) -> None:
            self._play, self._stop_round = play, stop_round

        @JOverride
        def gameStepChanged(self, step_name, delegate_name, player, round_number, display_name) -> None:  # the interface's name
            if int(round_number) >= self._stop_round:
                raise java_class("java.lang.RuntimeException")(ROUND_LIMIT)
            with self._play.lock:
                self._play.steps.append(str(step_name))

    @JImplements("java.lang.Thread$UncaughtExceptionHandler")
    class Uncaught:
        def __init__(self, player: _Player) -> None:
            self._player = player

        @JOverride
        def uncaughtException(self, thread, thrown) -> None:  # the interface's name
            self._player.charge(f"uncaught in thread {thread.getName()}: {describe(thrown)}")

    @JImplements("java.util.logging.Filter")
    class Logged:
        """Sees every log record (as a handler's filter): warnings that carry a Throwable, and severe ones, fail the game."""

        def __init__(self, player: _Player) -> None:
            self._player = player
            self._warning = java_class("java.util.logging.Level").WARNING.intValue()
            self._severe = java_class("java.util.logging.Level").SEVERE.intValue()

        @JOverride
        def isLoggable(self, record) -> bool:  # the interface's name
            level = int(record.getLevel().intValue())
            thrown = record.getThrown()
            if thrown is not None and level >= self._warning:
                self._player.charge(f"logged by {record.getLoggerName()}: {describe(thrown)}")
            elif level >= self._severe:
                self._player.charge(f"logged by {record.getLoggerName()}: {record.getMessage()}")
            return True

    return java_implementation(SeededDice, SeededDice.INTERFACE), RoundLimit, Uncaught, Logged


_SeededDice = _RoundLimit = _Uncaught = _Logged = None  # type: ignore[assignment]


def _adapter(home: Path):
    global _SeededDice, _RoundLimit, _Uncaught, _Logged
    _SeededDice, _RoundLimit, _Uncaught, _Logged = _interfaces()
    return _Player().answer


def main() -> None:
    serve(_adapter)


if __name__ == "__main__":
    sys.exit(main())

"""Savegames (``.tsvg``) written by the user's own TripleA 2.x, checked by loading them back (issue 16).

A savegame is Java serialization of the engine's classes, so only the TripleA that will load it may write it
(a host's save is written by the host's TripleA). ``EngineSave27.java`` runs with that installation's jar: it
parses the game as the 2.x game selector does, checks it as the selector does (``GameParsingValidation``),
saves it (``GameDataManager.saveGame``) and loads the save back (``GameDataManager.loadGame``); here the loaded
save is compared with the game we wrote (owners, units, PUs, game name, round 1).

TripleA 1.9 is refused: its saves of Classic-based games do not load in 1.9 on Java 17 (issue 16), and a 1.9
save is of no use to players who run 2.x. The helper class is compiled here with ``javac`` (a JDK); it uses
reflection and java.* only, so it compiles without any TripleA classes.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from types import SimpleNamespace

import attrs

from kremlin_triplea.engine import EngineFailed, EngineUnavailable, compare, compiled_classes, run_java, triplea2_classpath
from kremlin_triplea.errors import KremlinError
from kremlin_triplea.gamefile.installation import Installation, find_installation
from kremlin_triplea.gamefile.safe import check_output

SOURCE = Path(__file__).with_name("EngineSave27.java")
MAIN_CLASS = "EngineSave27"
#: Compiled against the 2.x jar itself (it drives the engine's game loop, not only its reader).
PLAY_SOURCE = Path(__file__).parent / "play27" / "EnginePlay27.java"
PLAY_CLASS = "EnginePlay27"
SECONDS = 180


class SaveRefused(KremlinError):
    """TripleA refuses the game, or its save loads back different from the game written: nothing is written."""

    exit_code = 1


@attrs.frozen
class SaveReport:
    game: Path
    save: Path
    engine: str  # which TripleA wrote it
    validation: tuple[str, ...]  # what the 2.x game selector would refuse the game for
    disagreements: tuple[str, ...]  # where the loaded save differs from the game we wrote

    @property
    def ok(self) -> bool:
        return not self.validation and not self.disagreements


def write_savegame(game_xml: Path | str, out: Path | str, *, triplea: Path | str | None = None, overwrite: bool = False) -> SaveReport:
    """Write ``out`` (a ``.tsvg``) from ``game_xml`` with TripleA 2.x, and load it back to compare; atomic."""
    from kremlin_triplea.game import load

    game_xml, out = Path(game_xml), Path(out)
    target = check_output(out, overwrite=overwrite, protect=(game_xml,))
    installation = _installation(triplea)
    board = load(game_xml).board
    with tempfile.TemporaryDirectory(prefix=".kremlin-save-", dir=target.parent) as folder:
        partial = Path(folder) / target.name
        (answer,) = _run(installation, [(game_xml.resolve(), partial)])
        if "error" in answer:
            raise EngineFailed(f"{installation.describe()} cannot save {game_xml}: {answer['error']}")
        found = [str(d) for d in compare.disagreements(board, _reading(answer), properties=False)]
        if answer["game_name"] != board.game_name:
            found.append(f"game name: ours {board.game_name!r}, the save's {answer['game_name']!r}")
        if answer["round"] != 1:
            found.append(f"round: the save starts in round {answer['round']}, not 1")
        report = SaveReport(game_xml, target, installation.describe(), tuple(answer["validation"]), tuple(found))
        if report.ok:
            os.replace(partial, target)
    return report


def bot_accepts(save_from: Path | str, maps_dir: Path | str, *, triplea: Path | str | None = None) -> dict[str, bool]:
    """Whether a 2.7 bot with the maps of ``maps_dir`` installed accepts a save of the game ``save_from``, as its
    HeadlessGameServer checks an uploaded save: ``has_game`` (the save's game name is an installed game) and
    ``map_installed`` (its map is installed). The save is written to a scratch folder and thrown away."""
    installation = _installation(triplea)
    with tempfile.TemporaryDirectory(prefix="kremlin-bot-") as folder:
        # The bot would write a map.yml into a map folder lacking one: it reads a scratch copy of what it looks
        # at (each map's map.yml and game files), never the user's folder.
        maps = Path(folder) / "downloadedMaps"
        for child in sorted(Path(maps_dir).iterdir()):
            if child.is_dir() and (child / "map.yml").is_file():
                (maps / child.name).mkdir(parents=True)
                shutil.copyfile(child / "map.yml", maps / child.name / "map.yml")
                for games in (child / "map" / "games", child / "games"):
                    if games.is_dir():
                        shutil.copytree(games, maps / child.name / games.relative_to(child), ignore=shutil.ignore_patterns("*.png", "*.jpg"))
        (answer,) = _run(installation, [(Path(save_from).resolve(), Path(folder) / "bot.tsvg", maps)])
    if "error" in answer:
        raise EngineFailed(f"{installation.describe()} cannot save {save_from}: {answer['error']}")
    return dict(answer["bot"])


@attrs.frozen
class RoundPlayed:
    save: Path
    steps: tuple[str, ...]
    round: int  # the round the game reached (2 after a whole first round)
    error: str | None  # the first exception the engine threw

    @property
    def ok(self) -> bool:
        return self.error is None and self.round == 2 and bool(self.steps)


def play_round(saves: list[Path], *, triplea: Path | str | None = None) -> list[RoundPlayed]:
    """Load each savegame in TripleA 2.x and play its first round with every power a Fast AI (one JVM)."""
    installation = _installation(triplea)
    classpath = triplea2_classpath(installation.jar)
    classes = compiled_classes(_javac(), [PLAY_SOURCE], classpath)
    stdin = "".join(f"{Path(s).resolve()}\n" for s in saves)
    done = run_java(_java(installation), [*classpath, classes], PLAY_CLASS, stdin, timeout=300 + 120 * len(saves), doing=f"playing {len(saves)} save(s)")
    lines = done.stdout.splitlines()
    if done.returncode != 0 or len(lines) != len(saves):
        raise EngineFailed(f"{installation.describe()} exited with status {done.returncode}: {done.stderr.strip()[-800:]}")
    answers = [json.loads(line) for line in lines]
    return [RoundPlayed(Path(s), tuple(a["steps"]), a["round"], a["error"]) for s, a in zip(saves, answers)]


def read_with_triplea2(games: list[Path], *, triplea: Path | str | None = None) -> list[SimpleNamespace]:
    """TripleA 2.x's reading of each game, one JVM: ``game_name``, ``round``, ``validation`` (the 2.x game selector's
    objections), ``territories`` (name -> owner, units by (owner, type)) and ``pus``; or ``error``."""
    installation = _installation(triplea)
    answers = _run(installation, [(Path(g).resolve(), None) for g in games])
    return [SimpleNamespace(error=a["error"]) if "error" in a else _reading(a) for a in answers]


def _reading(answer: dict) -> SimpleNamespace:
    territories = {name: SimpleNamespace(owner=t["owner"], units={(o, u): n for o, u, n in t["units"]}) for name, t in answer["territories"].items()}
    return SimpleNamespace(
        error=None,
        game_name=answer["game_name"],
        round=answer["round"],
        validation=tuple(answer["validation"]),
        territories=territories,
        pus=answer["pus"],
    )


def _installation(triplea: Path | str | None) -> Installation:
    search = find_installation(triplea)
    found = search.found
    if found is None:
        raise EngineUnavailable(search.not_found_message())
    if found.major != 2:
        raise EngineUnavailable(
            f"found {found.describe()}: savegames are written with TripleA 2.x, the TripleA players run (1.9's saves of "
            "Classic-based games do not load in 1.9 on Java 17); name a 2.x installation with --triplea DIR"
        )
    return found


def _run(installation: Installation, pairs: list[tuple[Path, ...]]) -> list[dict]:
    classes = compiled_classes(_javac(), [SOURCE], [])  # reflection and java.* only: no TripleA classes needed
    stdin = "".join("\t".join(str(field or "") for field in pair) + "\n" for pair in pairs)
    classpath = [*triplea2_classpath(installation.jar), classes]
    done = run_java(_java(installation), classpath, MAIN_CLASS, stdin, timeout=SECONDS + 20 * len(pairs), doing=f"{len(pairs)} game(s)")
    lines = done.stdout.splitlines()
    if done.returncode != 0 or len(lines) != len(pairs):
        raise EngineFailed(f"{installation.describe()} exited with status {done.returncode}: {done.stderr.strip()[-800:]}")
    return [json.loads(line) for line in lines]


def _java(installation: Installation) -> str:
    java = str(installation.java) if installation.java is not None else shutil.which("java")
    if not java:
        raise EngineUnavailable("java is not installed, and the TripleA installation ships none")
    return java


def _javac() -> str:
    javac = shutil.which("javac")
    if not javac:
        raise EngineUnavailable("javac is not installed (a JDK is needed to compile the TripleA 2.x helpers)")
    return javac

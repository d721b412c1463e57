"""Savegames (``.tsvg``) written by the user's own TripleA 2.x, checked by loading them back (issue 16).

A savegame is Java serialization of the engine's classes, so only the TripleA that will load it may write it
(a host's save is written by the host's TripleA). That installation's engine runs in its own Java runtime through
:mod:`kremlin_triplea.engine.triplea2_bridge` (JPype; no compiler needed): it parses the game as the 2.x game
selector does, checks it as the selector does (``GameParsingValidation``), saves it (``GameDataManager.saveGame``)
and loads the save back (``GameDataManager.loadGame``); here the loaded save is compared with the game we wrote
(owners, units, PUs, game name, round 1).

TripleA 1.9 is refused: its saves of Classic-based games do not load in 1.9 on Java 17 (issue 16), and a 1.9
save is of no use to players who run 2.x.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import attrs

from kremlin_triplea.engine import EngineFailed, EngineUnavailable, compare, triplea2_bridge
from kremlin_triplea.errors import KremlinError
from kremlin_triplea.gamefile.installation import Installation, find_installation
from kremlin_triplea.gamefile.safe import check_output, read_bytes, scratch_folder, write_atomically

#: Starting the JVM and the engine, then each game parsed, saved and loaded back / each save's round played.
SECONDS = 180
SECONDS_A_GAME = 20
SECONDS_A_ROUND = 120


class SaveRefused(KremlinError):
    """TripleA refuses the game, or its save loads back different from the game written: nothing is written."""

    exit_code = 1


@attrs.frozen
class SaveReport:
    game: Path
    save: Path
    engine: str  # which TripleA wrote it, on which Java runtime
    validation: tuple[str, ...]  # what the 2.x game selector would refuse the game for
    disagreements: tuple[str, ...]  # where the loaded save differs from the game we wrote

    @property
    def ok(self) -> bool:
        return not self.validation and not self.disagreements

    def refusal(self, savegame: Path) -> SaveRefused:
        """Why ``savegame`` is not written: what TripleA refuses, or where the save reads back differently (the first five)."""
        problems = [f"TripleA refuses the game: {e}" for e in self.validation] + [f"the save reads back differently: {d}" for d in self.disagreements]
        return SaveRefused(f"{self.engine}: " + "; ".join(problems[:5]) + f"; {savegame} not written", where=str(self.game))


def write_savegame(
    game_xml: Path | str, out: Path | str, *, triplea: Path | str | None = None, overwrite: bool = False, protect: tuple[Path, ...] = ()
) -> SaveReport:
    """Write ``out`` (a ``.tsvg``) from ``game_xml`` with TripleA 2.x, and load it back to compare; ``out`` is written
    (by :func:`~kremlin_triplea.gamefile.safe.write_atomically`, like every output) only if it loads back as written,
    never over ``game_xml`` nor any of ``protect`` (the command's other inputs)."""
    game_xml, out = Path(game_xml), Path(out)
    protect = (game_xml, *protect)
    target = check_output(out, overwrite=overwrite, protect=protect)
    with scratch_folder("save") as folder:
        report, data = check_savegame(game_xml, folder / target.name, triplea=triplea)
        if report.ok:
            write_atomically(out, data, overwrite=overwrite, protect=protect)
    return attrs.evolve(report, save=target)


def check_savegame(game_xml: Path, partial: Path, *, triplea: Path | str | None = None) -> tuple[SaveReport, bytes]:
    """TripleA 2.x's save of ``game_xml`` written to ``partial`` (a scratch file), loaded back and compared; its bytes."""
    from kremlin_triplea.game import load

    installation = _installation(triplea)
    board = load(game_xml).board
    done = _run(installation, [{"save": str(game_xml.resolve()), "to": str(partial)}])
    (answer,) = done.answers
    if "error" in answer:
        raise EngineFailed(f"{installation.describe()} cannot save {game_xml}: {answer['error']}")
    found = [str(d) for d in compare.disagreements(board, triplea2_bridge.reading(answer), properties=False)]
    if answer["game_name"] != board.game_name:
        found.append(f"game name: ours {board.game_name!r}, the save's {answer['game_name']!r}")
    if answer["round"] != 1:
        found.append(f"round: the save starts in round {answer['round']}, not 1")
    report = SaveReport(game_xml, partial, f"{installation.describe()} on {done.runtime}", tuple(answer["validation"]), tuple(found))
    return report, (read_bytes(partial, what="savegame") if report.ok else b"")


def checked_savegame(game_xml: Path, savegame: Path, *, triplea: Path | str | None = None) -> tuple[bytes, str]:
    """The bytes of ``game_xml``'s savegame, written by TripleA 2.x in a scratch folder and loaded back as written,
    and which TripleA wrote it; ``SaveRefused`` otherwise. The caller writes them, with its other outputs."""
    with scratch_folder("save") as folder:
        report, data = check_savegame(game_xml, folder / Path(savegame).name, triplea=triplea)
    if not report.ok:
        raise report.refusal(savegame)
    return data, report.engine


def bot_accepts(save_from: Path | str, maps_dir: Path | str, *, triplea: Path | str | None = None) -> dict[str, bool]:
    """Whether a 2.7 bot with the maps of ``maps_dir`` installed accepts a save of the game ``save_from``, as its
    HeadlessGameServer checks an uploaded save: ``has_game`` (the save's game name is an installed game) and
    ``map_installed`` (its map is installed). The save is written to a scratch folder and thrown away."""
    installation = _installation(triplea)
    with scratch_folder("bot") as folder:
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
        request = {"save": str(Path(save_from).resolve()), "to": str(Path(folder) / "bot.tsvg"), "bot_maps": str(maps)}
        (answer,) = _run(installation, [request]).answers
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
    requests = [{"play": str(Path(s).resolve())} for s in saves]
    answers = triplea2_bridge.run(installation, requests, timeout=SECONDS + SECONDS_A_ROUND * len(saves), doing=f"playing {len(saves)} save(s)").answers
    return [RoundPlayed(Path(s), tuple(a["steps"]), a["round"], a["error"]) for s, a in zip(saves, answers)]


def read_with_triplea2(games: list[Path], *, triplea: Path | str | None = None) -> list[SimpleNamespace]:
    """TripleA 2.x's reading of each game, one JVM: ``game_name``, ``round``, ``validation`` (the 2.x game selector's
    objections), ``territories`` (name -> owner, units by (owner, type)) and ``pus``; or ``error``."""
    installation = _installation(triplea)
    answers = _run(installation, [{"read": str(Path(g).resolve())} for g in games]).answers
    return [SimpleNamespace(error=a["error"]) if "error" in a else triplea2_bridge.reading(a) for a in answers]


def objective_conditions_with_triplea2(games: list[Path], *, triplea: Path | str | None = None) -> list[dict[str, Any]]:
    """How TripleA 2.x resolves the condition names of every rules attachment, per game: player -> attachment ->
    condition name -> the player whose attachment it turned out to be (a name is looked up across players)."""
    installation = _installation(triplea)
    answers = _run(installation, [{"conditions": str(Path(g).resolve())} for g in games]).answers
    for game, answer in zip(games, answers):
        if "error" in answer:
            raise EngineFailed(f"{game}: {installation.describe()}: {answer['error']}")
    return [answer["conditions"] for answer in answers]


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


def _run(installation: Installation, requests: list[dict]) -> triplea2_bridge.Answers:
    return triplea2_bridge.run(installation, requests, timeout=SECONDS + SECONDS_A_GAME * len(requests), doing=f"on {len(requests)} game(s)")

#!/usr/bin/env python3
"""Benchmark reading and writing a game, against the real engine reading the same file.

Prints:
  - in-process read + build the board graph + write of WW2v3-1942.xml, median
    (target <= 8 ms, issue 11), unchanged and with three changes, and lxml's bare parse of the same bytes beside
    them: the ratio of read + board + write with the changes to that parse (target <= 2, issue 45 item 6). Times
    are CPU times of this process (time.process_time), medians of many runs: the machine is shared, and wall
    time measures the other processes as much as this one. The parse is timed in each run beside the path, and
    the ratio is the median of the runs' own ratios, so a busy moment slows both sides of one ratio;
  - whole-process `kremlin-triplea show` beside the engine (TripleA 1.9 through JPype) reading the
    same file, medians and their ratio (target <= 0.5);
  - peak memory (max RSS) of `show` (target <= 150 MB);
  - in-process validate of the parsed game, median (target <= 100 ms).

Another game gets three changes of its own kind (an owner, units, a player's PUs: see ``three_changes``).
``--in-process`` prints the in-process figures only (no child processes, no JVM); ``--stages`` adds where the changed
path's time goes, each stage as a multiple of the parse timed beside it (medians of each run's own).

Usage: python3 scripts/bench_io.py [GAME.xml] [--runs N] [--in-process] [--stages]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kremlin_triplea.model.board import Board
    from kremlin_triplea.model.changes import Change

REPO = Path(__file__).resolve().parents[1]
DEFAULT_GAME = REPO.parent / "shared" / "triplea-maps" / "downloadedMaps" / "world_war_ii_v3" / "map" / "games" / "WW2v3-1942.xml"


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def three_changes(game_file: Path, board: Board) -> list[Change]:
    """The changes made before writing: WW2v3-1942's own three (the figures of issues 11 and 45 are of these), else
    the same three kinds made from the game itself: the first owned land territory handed to the next player in
    turn order, three units of the first land unit type placed there for its owner, and that owner's PUs set to 30."""
    from kremlin_triplea.model.changes import PlaceUnits, SetOwner, SetPUs

    if game_file.resolve() == DEFAULT_GAME.resolve():
        return [PlaceUnits("Finland", "Germans", "infantry", 3), SetOwner("Archangel", "Germans"), SetPUs("Russians", 30)]
    players = board.catalog.turn_order()
    territory, data = next((name, data) for name, data in board.nodes.items() if not data["water"] and data["owner"] in players)
    unit = next(name for name, unit in board.catalog.unit_types.items() if unit.domain == "land")
    owner = data["owner"]
    taker = players[(players.index(owner) + 1) % len(players)]
    return [PlaceUnits(territory, owner, unit, 3), SetOwner(territory, taker), SetPUs(owner, 30)]


def in_process(game_file: Path, runs: int) -> tuple[float, float, float, float]:
    """Medians of read + graph + write unchanged, with three changes, and of lxml's bare parse of the same bytes;
    and the median of each run's ratio of the changed path to the parse timed beside it."""
    from lxml import etree

    from kremlin_triplea.game import Game
    from kremlin_triplea.gamefile.document import XmlDocument

    data = game_file.read_bytes()
    first = Game(XmlDocument.read(game_file))
    first.to_bytes()  # imports and first-use work: not measured
    changes = three_changes(game_file, first.board)
    unchanged, changed, parse, ratios = [], [], [], []
    for _ in range(runs):
        start = time.process_time()
        etree.fromstring(data)  # lxml's own parse of the file's bytes, nothing else: the floor
        parse.append(time.process_time() - start)
        start = time.process_time()
        game = Game(XmlDocument.read(game_file))
        _ = game.board.graph  # the networkx graph is built on first use: build it
        game.to_bytes()
        unchanged.append(time.process_time() - start)
        start = time.process_time()
        game = Game(XmlDocument.read(game_file))
        _ = game.board.graph
        game.board.push_all(changes)
        game.to_bytes()
        changed.append(time.process_time() - start)
        ratios.append(changed[-1] / max(parse[-1], 1e-9))
    return median_ms(unchanged), median_ms(changed), median_ms(parse), statistics.median(ratios)


def through_load(game_file: Path, runs: int) -> tuple[float, float]:
    """The changed path of :func:`in_process` through ``read_game`` (what ``load()`` and the room use), the medians of
    each run's ratio to lxml's parse timed beside it: on a miss (the file not read before: parsed, kept, and written in
    a fork, since the kept tree is shared between threads) and on a hit (the kept tree written in a fork)."""
    from lxml import etree

    from kremlin_triplea import game as games

    data = game_file.read_bytes()
    changes = three_changes(game_file, games.read_game(game_file).board)
    ratios: dict[bool, list[float]] = {True: [], False: []}
    for run in range(runs):
        miss = run % 2 == 0
        if miss:
            games._GAMES_READ = type(games._GAMES_READ)(4)
        start = time.process_time()
        etree.fromstring(data)
        parse = max(time.process_time() - start, 1e-9)
        start = time.process_time()
        game = games.read_game(game_file)
        _ = game.board.graph
        game.board.push_all(changes)
        game.to_bytes()
        ratios[miss].append((time.process_time() - start) / parse)
    return statistics.median(ratios[True]), statistics.median(ratios[False])


def stages(game_file: Path, runs: int) -> dict[str, float]:
    """The changed path of :func:`in_process` cut into its stages as Game and its writer run them, each the median of
    its runs' ratios to lxml's parse of the same bytes timed in the same run."""
    from kremlin_triplea.game import Game
    from kremlin_triplea.gamefile.document import XmlDocument

    changes = three_changes(game_file, Game(XmlDocument.read(game_file)).board)
    ratios: dict[str, list[float]] = {}
    for _ in range(runs):
        times = _stage_times(game_file, changes)
        parse = max(times[_FLOOR], 1e-9)
        for name, seconds in times.items():
            ratios.setdefault(name, []).append(seconds / parse)
    return {name: statistics.median(values) for name, values in ratios.items()}


_FLOOR = "lxml's parse (the floor)"


def _stage_times(game_file: Path, changes: list[Change]) -> dict[str, float]:
    """One run of the changed path, stage by stage (CPU seconds), lxml's parse of the same bytes first."""
    from lxml import etree

    from kremlin_triplea.gamefile.document import XmlDocument
    from kremlin_triplea.gamefile.safe import read_bytes
    from kremlin_triplea.gamefile.tripleaxml import GameXml
    from kremlin_triplea.model.codec import read_board, write_board

    times: dict[str, float] = {}
    clock = time.process_time()

    def lap(name: str) -> None:
        nonlocal clock
        now = time.process_time()
        times[name] = now - clock
        clock = now

    data = game_file.read_bytes()
    clock = time.process_time()
    etree.fromstring(data)
    lap(_FLOOR)
    document = XmlDocument(read_bytes(game_file), source=str(game_file))
    lap("read the file, parse and check it")
    initial = read_board(GameXml(document))
    lap("read the board (read_board)")
    board = initial.copy()
    _ = board.graph
    board.push_all(changes)
    lap("the position: copy, graph, three changes")
    with document.edits() as edited:  # the document itself, its edits undone at the end (a fork, were it shared)
        lap("locate the tags in the bytes")
        write_board(GameXml(edited), initial, board)
        lap("write the changes (write_board)")
        edited.to_bytes()
        lap("write the bytes (to_bytes)")
    lap("undo the edits")
    return times


def run_timed(command: list[str], cwd: Path | None = None) -> tuple[float, int]:
    """Wall time in seconds and max RSS in KiB of one child process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(command)}\n{process.stderr.read().decode() if process.stderr else ''}")
    return elapsed, usage.ru_maxrss


def validate_ms(game_file: Path, runs: int, read_dtd: bool = False) -> float:
    """validate's whole verdict on the parsed game, without its DTD notes (the figure a timed test used to assert),
    or with them (``read_dtd``: the installed TripleA's game.dtd looked for, as `validate` and `apply` do)."""
    from kremlin_triplea.check.validate import validate_tree
    from kremlin_triplea.gamefile.safe import parse_xml, read_bytes

    root = parse_xml(read_bytes(game_file), where=str(game_file)).getroot()
    validate_tree(root, game_file.name, read_dtd=read_dtd)  # warm-up
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        validate_tree(root, game_file.name, read_dtd=read_dtd)
        samples.append(time.perf_counter() - start)
    return median_ms(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", type=Path, default=DEFAULT_GAME)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--in-process", action="store_true", help="the in-process figures only (no child processes, no JVM)")
    parser.add_argument("--stages", action="store_true", help="also where the changed path's time goes, as multiples of the parse")
    args = parser.parse_args()
    game_file: Path = args.game

    unchanged_ms, changed_ms, parse_ms, ratio = in_process(game_file, args.runs)
    print(f"game: {game_file} (CPU times, medians of {args.runs} runs)")
    print(f"in-process read + graph + write, unchanged:     {unchanged_ms:7.2f} ms (target <= 8 ms)")
    print(f"in-process read + graph + write, three changes: {changed_ms:7.2f} ms")
    print(f"lxml's parse of the same bytes alone:           {parse_ms:7.2f} ms")
    print(f"ratio read + graph + write (changed) / parse:   {ratio:7.2f} (target <= 2; median of each run's own)")
    miss, hit = through_load(game_file, args.runs)
    print(f"the same through load() / parse: a miss {miss:5.2f}, a hit {hit:5.2f} (the kept tree is shared: written in a fork)")
    if args.stages:
        found = stages(game_file, args.runs)
        for name, multiple in found.items():
            print(f"  {name + ':':46s} {multiple:5.2f} x the parse")
        print(f"  {'the stages after the floor together:':46s} {sum(found.values()) - 1:5.2f}")
    if args.in_process:
        return
    print(f"in-process validate (as TripleA 2.x reads):     {validate_ms(game_file, args.runs):7.2f} ms median of {args.runs} (target <= 100 ms)")
    print(f"in-process validate with the installed DTD:     {validate_ms(game_file, args.runs, read_dtd=True):7.2f} ms median of {args.runs}")

    show = [sys.executable, "-m", "kremlin_triplea", "show", str(game_file)]
    show_runs = [run_timed(show) for _ in range(7)]
    show_seconds = statistics.median(t for t, _ in show_runs)
    show_peak_mb = max(rss for _, rss in show_runs) / 1024
    print(f"whole-process `kremlin-triplea show`:           {show_seconds * 1000:7.0f} ms median of {len(show_runs)}")
    print(f"peak memory of `show`:                          {show_peak_mb:7.1f} MB (target <= 150 MB)")

    from kremlin_triplea.engine import read_with_engine

    read_with_engine([game_file])  # warms the file cache and the JVM's class data: not measured
    engine_runs = []
    for _ in range(5):
        start = time.perf_counter()
        read_with_engine([game_file])  # one JVM start, one GameParser read
        engine_runs.append(time.perf_counter() - start)
    engine_seconds = statistics.median(engine_runs)
    print(f"real engine (TripleA 1.9 GameParser) reading it: {engine_seconds * 1000:6.0f} ms median of {len(engine_runs)}")
    print(f"ratio show / engine:                            {show_seconds / engine_seconds:7.2f} (target <= 0.5)")


if __name__ == "__main__":
    main()

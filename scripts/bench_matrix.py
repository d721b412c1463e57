#!/usr/bin/env python3
"""Benchmark the option matrix and the figures of issue 7, and print them.

1. The whole matrix over every pinned game, without the engine (target <= 20 s, issue 11),
   and, with --engine, the same batched through one JVM (the figure is reported).
2. Applying one legal pick to a board in memory: push its changes, pop them
   (target: median <= 1 ms), over every legal target of WW2v3-1941.
3. Whole-process `kremlin-triplea apply` of the example draft beside the real
   engine merely reading the same base file, in one run (target: ratio <= 0.4, issue 11).
4. Import time of the package (target <= 150 ms), beside `python -c pass`.
5. How the matrix time grows with the number of territories: the generic
   options (no map profile) of kremlin-aa50 on corpus maps of different sizes.
6. The matrix per game, each in a process of its own: wall and CPU time and peak resident memory, for a pinned game,
   a held-out game (tests/data) with the profile `profile new` drafts, and the pinned game again with every written
   file invalid in every place it changes (every cell fails): the read-back must stay linear in cells whatever fails
   (issue 46).

Usage: python scripts/bench_matrix.py [--engine] [--skip-scaling] [--maps-dir DIR] [--only-per-game]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
sys.path.insert(0, str(REPO / "src"))

from kremlin_triplea.tools.matrix import all_house_sets, all_rulesets, run_matrix  # noqa: E402

SCALING_GAMES = ("PactOfSteelChina.xml", "Tutorial.xml", "Smalls_1939.xml", "Global_War.xml", "World_At_War.xml")  # Axis and Allies, 149-538 territories


#: Child processes run as an installed copy does: with compiled bytecode (pip compiles it when installing), kept
#: outside the checkout. PYTHONDONTWRITEBYTECODE in the caller's environment would time compiling every module.
BYTECODE = tempfile.mkdtemp(prefix="kremlin-bench-pycache-")
CHILD_ENV = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "PYTHONPYCACHEPREFIX": BYTECODE}


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO, env=CHILD_ENV)
    return time.perf_counter() - start


def whole_matrix(maps_dir: Path, engine: bool) -> None:
    rulesets, broken = all_rulesets()
    house_sets, broken_houses = all_house_sets()
    pinned = sorted(maps_dir.glob("*/map/games/*.xml"))
    start, cpu = time.perf_counter(), time.process_time()
    report = run_matrix(rulesets, pinned, maps_dir=maps_dir, engine=engine, samples=2, broken_rulesets=broken + broken_houses, house_sets=house_sets)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    applied = sum(c.applied for c in report.cells.values())
    print(
        f"matrix, {len(rulesets)} rulesets + {len(house_sets)} house-rule sets x {len(report.games)} pinned games: {applied} picks/bids/drafts applied, "
        f"{report.figures['files_written']:.0f} files written, {len(report.failed)} failed cells"
    )
    print(
        f"  without the engine: {report.figures['seconds_without_engine']:6.1f} s wall (target <= 20 s, issue 11); this process's CPU {cpu:.1f} s (the machine is shared)"
    )
    if engine:
        print(f"  engine batch (one JVM, {report.figures['engine_files']:.0f} files): {report.figures['engine_seconds']:6.1f} s; whole run {seconds:6.1f} s")


def single_pick(maps_dir: Path) -> None:
    from kremlin_triplea.draft.run import draft_from_dict
    from kremlin_triplea.game import load
    from kremlin_triplea.session import Session

    game = load(maps_dir / "world_war_ii_v3" / "map" / "games" / "WW2v3-1941.xml")
    times = []
    for side in ("Axis", "Allies"):
        game.reset()
        session = Session(draft_from_dict({"ruleset": "kremlin-aa50", "first": side}), game)
        # Each first pick pushed on the session and taken back (its kind's apply and the draft's checks of the board it
        # leaves): what a pick costs the matrix and the room.
        for choices in session.next_pick().options:
            for _, pick in session.candidate_picks(choices, side):
                with session.trying():
                    start = time.perf_counter()
                    session.push(pick)
                    times.append(time.perf_counter() - start)
    times.sort()
    print(
        f"one legal pick applied in memory (WW2v3-1941, {len(times)} picks): median {statistics.median(times) * 1000:.3f} ms, "
        f"90th percentile {times[int(len(times) * 0.9)] * 1000:.3f} ms (target: median <= 1 ms)"
    )


def apply_against_engine(maps_dir: Path) -> None:
    from kremlin_triplea.engine import engine_available, read_with_engine

    base = maps_dir / "world_war_ii_v3" / "map" / "games" / "WW2v3-1941.xml"
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "out.xml"
        command = [sys.executable, "-m", "kremlin_triplea", "--maps-dir", str(maps_dir), "apply", "examples/kremlin-aa50-1941.toml", "-o", str(out), "--force"]
        timed(command)  # warm the file cache and compile the bytecode
        apply_runs = [timed(command) for _ in range(5)]
    apply_seconds = statistics.median(apply_runs)
    print(f"whole-process `kremlin-triplea apply` of the example draft: {apply_seconds * 1000:6.0f} ms median of 5")
    if not engine_available():
        print("  the TripleA engine is not installed: no ratio")
        return
    read_with_engine([base])  # compiles and caches the harness: not measured
    engine_runs = []
    for _ in range(3):
        start = time.perf_counter()
        read_with_engine([base])
        engine_runs.append(time.perf_counter() - start)
    engine_seconds = statistics.median(engine_runs)
    print(f"real engine reading the base file (one JVM):              {engine_seconds * 1000:6.0f} ms median of 3")
    print(f"ratio apply / engine: {apply_seconds / engine_seconds:.2f} (target <= 0.4, issue 11)")


def import_time() -> None:
    bare = statistics.median(timed([sys.executable, "-c", "pass"]) for _ in range(5))
    package = statistics.median(timed([sys.executable, "-c", "import kremlin_triplea"]) for _ in range(5))
    cli = statistics.median(timed([sys.executable, "-c", "import kremlin_triplea.cli.main"]) for _ in range(5))
    print(
        f"python -c pass: {bare * 1000:.0f} ms; import kremlin_triplea: {package * 1000:.0f} ms "
        f"({(package - bare) * 1000:.0f} ms over bare Python); import kremlin_triplea.cli.main: {cli * 1000:.0f} ms "
        f"({(cli - bare) * 1000:.0f} ms over bare) (target <= 150 ms)"
    )


def scaling(maps_dir: Path) -> None:
    from kremlin_triplea.draft.rulesets import load_named_ruleset
    from kremlin_triplea.game import load

    aa50 = load_named_ruleset("kremlin-aa50")
    games = [maps_dir / "world_war_ii_v3" / "map" / "games" / "WW2v3-1941.xml"]
    games += [SHARED / "triplea-xml-corpus" / name for name in SCALING_GAMES if (SHARED / "triplea-xml-corpus" / name).is_file()]
    import tempfile

    from kremlin_triplea.rules.profile import load_profile
    from kremlin_triplea.tools.place_evidence import known_places
    from kremlin_triplea.tools.profiles import new_profile

    # The matrix plays what apply plays, and apply needs a map profile: the corpus maps get the one `profile new` drafts.
    print("matrix time by map size (kremlin-aa50; corpus maps with the profile `profile new` drafts for them):")
    print(f"  {'game':<32} {'territories':>11} {'applied':>8} {'files':>6} {'seconds':>8} {'ms/territory':>13}")
    known = known_places(maps_dir)
    with tempfile.TemporaryDirectory(prefix="kremlin-bench-") as name:
        folder = Path(name)
        for path in games:
            territories = len(load(path).board.graph)
            profiles = []
            if path.parent.name != "games":
                drafted = folder / f"{path.stem}.toml"
                drafted.write_text(new_profile(load(path), [aa50], known=known, key=str(path)).text, encoding="utf-8")
                profiles.append(load_profile(drafted))
            start = time.perf_counter()
            report = run_matrix([aa50], [path], maps_dir=maps_dir, samples=1, include_covered=False, given_profiles=profiles)
            seconds = time.perf_counter() - start
            applied = sum(c.applied for c in report.cells.values())
            print(
                f"  {path.name:<32} {territories:>11} {applied:>8} {report.figures['files_written']:>6.0f} {seconds:>8.2f} {seconds * 1000 / territories:>13.1f}"
            )


PER_GAME_RULESETS = ("kremlin-aa50", "kremlin-classic")
HELD_OUT = REPO / "tests" / "data" / "world_war_ii_v4" / "WW2v4.xml"


def per_game(maps_dir: Path) -> None:
    print(f"the matrix per game ({' + '.join(PER_GAME_RULESETS)}, samples 1; each in a fresh process):")
    print(f"  {'game':<52} {'cells':>5} {'failed':>6} {'files':>6} {'wall s':>7} {'CPU s':>7} {'peak MB':>8}")
    pinned = maps_dir / "world_war_ii_v3" / "map" / "games" / "WW2v3-1941.xml"
    for path, all_fail in ((pinned, False), (HELD_OUT, False), (pinned, True), (HELD_OUT, True)):
        command = [sys.executable, __file__, "--maps-dir", str(maps_dir), "--one-game", str(path), *(["--all-fail"] if all_fail else [])]
        result = subprocess.run(command, check=True, capture_output=True, text=True, cwd=REPO, env=CHILD_ENV)
        print("  " + result.stdout.strip().splitlines()[-1])


def one_game(maps_dir: Path, path: Path, all_fail: bool) -> None:
    """The matrix on one game in this process (``per_game`` runs it in a child), and one line of figures."""
    import resource

    from kremlin_triplea.draft.rulesets import load_named_ruleset
    from kremlin_triplea.game import load
    from kremlin_triplea.rules.profile import load_profile
    from kremlin_triplea.tools.place_evidence import known_places
    from kremlin_triplea.tools.profiles import new_profile

    rulesets = [load_named_ruleset(name) for name in PER_GAME_RULESETS]
    if all_fail:
        every_written_place_invalid()
    with tempfile.TemporaryDirectory(prefix="kremlin-bench-") as name:
        profiles = []
        if not path.is_relative_to(maps_dir):
            drafted = Path(name) / f"{path.stem}.toml"
            drafted.write_text(new_profile(load(path), rulesets, known=known_places(maps_dir), key=str(path)).text, encoding="utf-8")
            profiles.append(load_profile(drafted))
        start, cpu = time.perf_counter(), time.process_time()
        report = run_matrix(rulesets, [path], maps_dir=maps_dir, samples=1, include_covered=False, given_profiles=profiles)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    label = f"{path.parents[2 if path.is_relative_to(maps_dir) else 0].name}/{path.name}" + (" (every file invalid)" if all_fail else "")
    print(f"{label:<52} {len(report.cells):>5} {len(report.failed):>6} {report.figures['files_written']:>6.0f} {seconds:>7.1f} {cpu:>7.1f} {peak:>8.0f}")


def every_written_place_invalid() -> None:
    """Make the writer also place a unit of a player the game lacks in every place it changes (an error of
    validation at that place's line, and a place that reads back differently): every cell fails."""
    from lxml import etree

    import kremlin_triplea.game as game_module
    from kremlin_triplea.model.diff import board_difference

    original = game_module.write_board

    def also_unknown_owner(xml, before, after):  # noqa: ANN001, ANN202 - write_board's own arguments
        original(xml, before, after)
        unit_type = next(iter(after.catalog.unit_types))
        for territory in board_difference(before, after).places:
            unit = etree.Element("unitPlacement", unitType=unit_type, territory=territory, quantity="1", owner="Nobody")
            xml.document.append(xml.initialize.find("unitInitialize"), unit)

    game_module.write_board = also_unknown_owner


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--maps-dir", type=Path, default=SHARED / "triplea-maps" / "downloadedMaps")
    parser.add_argument("--engine", action="store_true", help="also run the matrix with the engine batched")
    parser.add_argument("--skip-scaling", action="store_true")
    parser.add_argument("--only-per-game", action="store_true", help="only the matrix per game (6.)")
    parser.add_argument("--one-game", type=Path, help=argparse.SUPPRESS)  # per_game's child
    parser.add_argument("--all-fail", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one_game is not None:
        one_game(args.maps_dir, args.one_game.resolve(), args.all_fail)
        return
    if args.only_per_game:
        per_game(args.maps_dir)
        return
    import_time()
    single_pick(args.maps_dir)
    apply_against_engine(args.maps_dir)
    whole_matrix(args.maps_dir, engine=False)
    if args.engine:
        whole_matrix(args.maps_dir, engine=True)
    if not args.skip_scaling:
        scaling(args.maps_dir)
    per_game(args.maps_dir)


if __name__ == "__main__":
    main()

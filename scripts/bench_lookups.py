#!/usr/bin/env python3
"""Benchmark a name lookup that fails, as the game rules and the draft's checks make thousands of them, and print it.

A lookup that falls back on another (a power, else a place: gamerules/actions.py's attachment options) catches
UnknownNameError; only an error that is shown needs its "did you mean" (a comparison with every known name).
Prints, on WW2v3-1941.xml: a failed territory lookup caught, and the same error shown, medians in microseconds.

Usage: python3 scripts/bench_lookups.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GAME = REPO.parent / "shared" / "triplea-maps" / "downloadedMaps" / "world_war_ii_v3" / "map" / "games" / "WW2v3-1941.xml"
sys.path.insert(0, str(REPO / "src"))

from kremlin_triplea import load  # noqa: E402
from kremlin_triplea.errors import UnknownNameError  # noqa: E402
from kremlin_triplea.rules.names import Names  # noqa: E402
from kremlin_triplea.rules.profile import profile_for_game  # noqa: E402


def median_us(action, runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2000)
    runs = parser.parse_args().runs
    game = load(GAME)
    names = Names(game.board, profile_for_game(game), ("Axis", "Allies"))

    def caught() -> UnknownNameError:
        try:
            names.territory("Germans")  # a power's name where a territory is asked: the fallback's first try
        except UnknownNameError as error:
            return error
        raise AssertionError("Germans is not a territory")

    print(f"failed territory lookup, caught: median {median_us(caught, runs):.1f} us")
    print(f"the same, its message shown:     median {median_us(lambda: str(caught()), runs):.1f} us")


if __name__ == "__main__":
    main()

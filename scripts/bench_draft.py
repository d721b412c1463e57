#!/usr/bin/env python3
"""Benchmark the Kremlin draft machinery on WW2v3-1941.xml and print the figures.

1. An 8-pick draft plus a bid applied in-process (target: median <= 25 ms).
   The game file is parsed once; each run starts from a fresh copy of the
   initial board, checks every pick and the bid, and writes the notes.
2. Enumerating every legal choice of every option for every power from the
   initial board, both sides (target: <= 0.5 s).

Usage: python scripts/bench_draft.py [--maps-dir DIR] [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from kremlin_triplea.draft.rulesets import load_named_ruleset  # noqa: E402
from kremlin_triplea.draft.run import draft_from_dict  # noqa: E402
from kremlin_triplea.game import load  # noqa: E402
from kremlin_triplea.rules.profile import load_named_profile  # noqa: E402
from kremlin_triplea.session import Session, apply_draft  # noqa: E402

DRAFT = {
    "ruleset": "kremlin-aa50",
    "first": "Axis",
    "picks_per_side": 4,
    "pick": [
        {"side": "Axis", "option": 10, "takeover": {"territory": "Archangel", "by": "Germans", "retreat": [{"to": "Russia"}]}},
        {"side": "Allies", "option": 3, "take": [{"neutral": "Mongolia", "by": "China"}, {"neutral": "Venezuela", "by": "USA", "navy_at": "Seazone 19"}]},
        {"side": "Axis", "option": 1, "place": [{"power": "Germans", "unit": "infantry", "count": 3, "at": "France"}]},
        {
            "side": "Allies",
            "option": 2,
            "place": [{"power": "Russians", "unit": "artillery", "at": "Caucasus"}, {"power": "UK", "unit": "tank", "at": "India"}],
        },
        {
            "side": "Axis",
            "option": 8,
            "place": [{"power": "Germans", "unit": "factory", "at": "Archangel"}, {"power": "Germans", "unit": "aa gun", "at": "Archangel"}],
        },
        {"side": "Allies", "option": 6, "place": [{"power": "Americans", "unit": "fighter", "at": "44 Sea Zone"}]},
        {
            "side": "Axis",
            "option": 4,
            "place": [{"power": "Italians", "unit": "transport", "at": "14 Sea Zone"}, {"power": "Japanese", "unit": "submarine", "at": "Seazone 60"}],
        },
        {
            "side": "Allies",
            "option": 5,
            "place": [{"power": "British", "unit": "destroyer", "at": "2 Sea Zone"}, {"power": "British", "unit": "cruiser", "at": "35 Sea Zone"}],
        },
    ],
    "bid": {
        "axis": 11,
        "place": [{"power": "Germans", "unit": "artillery", "at": "Morocco Algeria"}, {"power": "Italians", "unit": "infantry", "count": 2, "at": "Italy"}],
    },
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--maps-dir", type=Path, default=REPO.parent / "shared" / "triplea-maps" / "downloadedMaps")
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()

    game = load("world_war_ii_v3/WW2v3-1941.xml", maps_dir=args.maps_dir)
    ruleset = load_named_ruleset("kremlin-aa50")
    profile = load_named_profile("world_war_ii_v3")

    apply_times, write_times = [], []
    for _ in range(args.runs):
        start = time.perf_counter()
        game.reset()
        apply_draft(draft_from_dict(DRAFT), game, ruleset=ruleset, profile=profile)
        middle = time.perf_counter()
        game.to_bytes()
        end = time.perf_counter()
        apply_times.append(middle - start)
        write_times.append(end - middle)

    enumerate_times = []
    for _ in range(max(5, args.runs // 10)):
        start = time.perf_counter()
        for first in ("Axis", "Allies"):  # each side's powers
            game.reset()
            Session(draft_from_dict({"ruleset": "kremlin-aa50", "first": first}), game, ruleset=ruleset, profile=profile).next_pick()
        enumerate_times.append(time.perf_counter() - start)

    apply_ms = statistics.median(apply_times) * 1000
    write_ms = statistics.median(write_times) * 1000
    enumerate_s = statistics.median(enumerate_times)
    print(
        f"8-pick draft + bid applied to WW2v3-1941.xml (in-process, {args.runs} runs): median {apply_ms:.1f} ms (target <= 25 ms) {'OK' if apply_ms <= 25 else 'SLOW'}"
    )
    print(f"  writing the game file afterwards (to_bytes): median {write_ms:.1f} ms")
    print(
        f"all legal choices of every option for every power, initial board, both sides: median {enumerate_s:.3f} s (target <= 0.5 s) {'OK' if enumerate_s <= 0.5 else 'SLOW'}"
    )


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Benchmark `kremlin-triplea apply` on synthetic games 1x, 10x and 50x the size of Global War (issue 15).

The synthetic game is the AA50 1941 game (so the example draft applies to
it) padded with harmless elements inside the two elements `apply` edits:
`<unitPlacement quantity="0">` rows in <unitInitialize> and unused
`<property>`s in <propertyList>, until the file is N times the size of
/work/shared/triplea-xml-corpus/Global_War.xml. A write that is quadratic in
the children of an edited element shows at once; the target is linear
growth and under 1 s per 10 MB.

Prints, per size: file size, wall time of the whole `apply` process (start-up
included), of its reading and rules, of its write (the changed game made and
written to disk), the write's seconds per 10 MB, and the peak memory (max RSS).

Usage: python3 scripts/bench_write.py [--sizes 1,10,50]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
GLOBAL_WAR = SHARED / "triplea-xml-corpus" / "Global_War.xml"
BASE = SHARED / "triplea-maps" / "downloadedMaps" / "world_war_ii_v3" / "map" / "games" / "WW2v3-1941.xml"
DRAFT = REPO / "examples" / "kremlin-aa50-1941.toml"


def synthetic_game(target_bytes: int) -> bytes:
    data = BASE.read_bytes()
    territories = re.findall(rb'<territory name="([^"]+)"', data)
    placement_rows, property_rows = [], []
    size, number = len(data), 0
    while size < target_bytes:
        territory = territories[number % len(territories)]
        row = b'        <unitPlacement unitType="infantry" territory="' + territory + b'" quantity="0" owner="Germans"/>\n'
        prop = b'        <property name="bench padding ' + str(number).encode() + b'" value="' + str(number).encode() + b'" editable="false"/>\n'
        placement_rows.append(row)
        property_rows.append(prop)
        size += len(row) + len(prop)
        number += 1
    data = data.replace(b"</unitInitialize>", b"".join(placement_rows) + b"    </unitInitialize>", 1)
    return data.replace(b"</propertyList>", b"".join(property_rows) + b"    </propertyList>", 1)


def run_apply(game: Path, out: Path) -> tuple[float, float, float, int]:
    """Wall seconds of one `apply` process, of its read + rules and of its write, and its peak RSS (bytes)."""
    command = [sys.executable, "-c", _CHILD, str(DRAFT), str(game), str(out)]
    start = time.perf_counter()
    completed = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO / "src")})
    seconds = time.perf_counter() - start
    if completed.returncode != 0:
        sys.exit(f"apply failed on {game}: {completed.stderr.strip().splitlines()[-1:]}")
    rules, write, peak = completed.stdout.split()[-3:]
    return seconds, float(rules), float(write), int(peak)


# What `apply -o OUT --force` does, timed in two parts; prints its own peak RSS last.
_CHILD = """
import resource, sys, time
from kremlin_triplea.draft.run import read_draft
from kremlin_triplea.session import apply_draft
start = time.perf_counter()
result = apply_draft(read_draft(sys.argv[1]), game_spec=sys.argv[2])
applied = time.perf_counter()
result.game.save(sys.argv[3], overwrite=True)
written = time.perf_counter()
print(applied - start, written - applied, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,10,50", help="multiples of Global War's size (default 1,10,50)")
    args = parser.parse_args()
    reference = GLOBAL_WAR.stat().st_size
    print(f"Global War: {reference:,} bytes; base game {BASE.name}, draft {DRAFT.name}")
    print(f"{'size':>6} {'bytes':>12} {'apply s':>8} {'rules s':>8} {'write s':>8} {'write s/10MB':>13} {'peak MB':>8}")
    with tempfile.TemporaryDirectory() as folder:
        for multiple in (int(m) for m in args.sizes.split(",")):
            game = Path(folder) / f"synthetic-{multiple}x.xml"
            game.write_bytes(synthetic_game(reference * multiple))
            seconds, rules, write, peak = run_apply(game, Path(folder) / "out.xml")
            size = game.stat().st_size
            print(f"{multiple:>5}x {size:>12,} {seconds:>8.2f} {rules:>8.2f} {write:>8.2f} {write / (size / 10e6):>13.2f} {peak / 1e6:>8.0f}")


if __name__ == "__main__":
    main()

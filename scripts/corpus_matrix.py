#!/usr/bin/env python3
"""`profile new` then `matrix --only-given` on every corpus game TripleA 1.9 reads, and print the figures (issue 17).

The test suite runs the same on every game (tests/test_profile_new.py); this prints the figures. Per game: the
cells applied / not applicable / failed, the files the matrix wrote, the CPU seconds (this process's, which other
work on the machine does not inflate) and the wall seconds; then the games that failed, with their first failures.

Usage: python3 scripts/corpus_matrix.py [--maps-dir DIR] [--corpus DIR] [--only NAME ...] [--samples N]
Exit 1 if any game fails, 2 if no game is found.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import tomllib

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--maps-dir", type=Path, default=SHARED / "triplea-maps" / "downloadedMaps")
    parser.add_argument("--corpus", type=Path, default=SHARED / "triplea-xml-corpus")
    parser.add_argument("--only", nargs="*", default=None, help="Only these game files (names in the corpus folder).")
    parser.add_argument("--samples", type=int, default=1)
    args = parser.parse_args()

    from kremlin_triplea.errors import KremlinError
    from kremlin_triplea.game import load
    from kremlin_triplea.rules.profile import load_profile
    from kremlin_triplea.tools.matrix import all_house_sets, all_rulesets, run_matrix
    from kremlin_triplea.tools.matrix_report import APPLIED, NOT_APPLICABLE
    from kremlin_triplea.tools.place_evidence import known_places
    from kremlin_triplea.tools.profiles import new_profile

    unreadable = set(tomllib.loads((REPO / "tests" / "data" / "engine-1.9-unreadable.toml").read_text(encoding="utf-8"))["unreadable"])
    games = [g for g in sorted(args.corpus.glob("*.xml")) if g.name not in unreadable and (args.only is None or g.name in args.only)]
    if not games:
        print(f"no corpus game found in {args.corpus}", file=sys.stderr)
        return 2
    rulesets, broken = all_rulesets()
    house_sets, broken_houses = all_house_sets()
    known = known_places(args.maps_dir)
    failed: dict[str, list[str]] = {}
    started, cpu_started = time.perf_counter(), time.process_time()
    print(f"{'game':40} {'applied':>7} {'n/a':>5} {'failed':>6} {'files':>5} {'cpu s':>7} {'seconds':>8}")
    with tempfile.TemporaryDirectory(prefix="kremlin-corpus-") as folder:
        for path in games:
            begun, cpu_begun = time.perf_counter(), time.process_time()
            try:
                profile = Path(folder) / f"{path.stem}.toml"
                profile.write_text(new_profile(load(path), rulesets, known=known, key=str(path)).text, encoding="utf-8")
                report = run_matrix(
                    rulesets,
                    [path],
                    maps_dir=args.maps_dir,
                    samples=args.samples,
                    include_covered=False,
                    broken_rulesets=broken + broken_houses,
                    house_sets=house_sets,
                    given_profiles=[load_profile(profile)],
                )
            except KremlinError as error:
                failed[path.name] = [f"(set-up) {error}"]
                print(f"{path.name:40} {'-':>7} {'-':>5} {'-':>6} {'-':>5} {time.process_time() - cpu_begun:7.1f} {time.perf_counter() - begun:8.1f}  {error}")
                continue
            cells = list(report.cells.values())
            applied = sum(c.status == APPLIED for c in cells)
            not_applicable = sum(c.status == NOT_APPLICABLE for c in cells)
            if report.failed:
                failed[path.name] = [f"{c.ruleset} {c.row}: {c.errors[0]}" for c in report.failed[:3]]
            files, cpu = report.figures["files_written"], time.process_time() - cpu_begun
            print(f"{path.name:40} {applied:7} {not_applicable:5} {len(report.failed):6} {files:5} {cpu:7.1f} {time.perf_counter() - begun:8.1f}")
    print(f"{len(games)} games, {len(failed)} with failures, {time.process_time() - cpu_started:.0f} CPU s, {time.perf_counter() - started:.0f} s")
    for name, errors in failed.items():
        print(f"  {name}:")
        for error in errors:
            print(f"    {error[:300]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

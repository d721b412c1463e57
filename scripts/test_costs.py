#!/usr/bin/env python3
"""Where the test suite's time goes: pytest's ``--durations=0`` report summed by test file, set-up apart from the calls.

A module-scoped fixture's cost (one JVM reading many games, say) is charged to the set-up of the first test that
uses it, so a file's set-up column is mostly its shared fixtures, and its call column the tests themselves.

Usage:
    python3 -m pytest -q -p no:cacheprovider -m "engine or slow" -n 2 --dist loadgroup --durations=0 > durations.txt
    python3 scripts/test_costs.py durations.txt [--top 20]
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path

#: One line of pytest's durations report: "12.34s call     tests/test_x.py::test_y[param]@group".
DURATION = re.compile(r"^(?P<seconds>\d+(?:\.\d+)?)s (?P<phase>setup|call|teardown)\s+(?P<test>\S+)")
PHASES = ("setup", "call", "teardown")


def read_durations(text: str) -> list[tuple[float, str, str]]:
    """(seconds, phase, test id) for every line of the report; the xdist group after '@' is left out."""
    found = []
    for line in text.splitlines():
        match = DURATION.match(line)
        if match:
            found.append((float(match["seconds"]), match["phase"], match["test"].split("@", 1)[0]))
    return found


def by_file(durations: list[tuple[float, str, str]]) -> dict[str, dict[str, float]]:
    """Seconds per phase and the number of calls, per test file."""
    files: dict[str, dict[str, float]] = defaultdict(lambda: dict.fromkeys((*PHASES, "tests"), 0.0))
    for seconds, phase, test in durations:
        row = files[test.split("::", 1)[0]]
        row[phase] += seconds
        row["tests"] += phase == "call"
    return dict(files)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path, help="pytest's output with --durations=0")
    parser.add_argument("--top", type=int, default=20, help="also list this many of the most costly set-ups and calls")
    args = parser.parse_args(argv)
    durations = read_durations(args.report.read_text(encoding="utf-8", errors="replace"))
    if not durations:
        print(f"{args.report}: no durations (run pytest with --durations=0)", file=sys.stderr)
        return 2
    files = by_file(durations)
    print(f"{'seconds':>8} {'setup':>8} {'call':>8} {'tests':>6}  file")
    for name, row in sorted(files.items(), key=lambda item: -sum(item[1][p] for p in PHASES)):
        print(f"{sum(row[p] for p in PHASES):8.1f} {row['setup']:8.1f} {row['call']:8.1f} {row['tests']:6.0f}  {name}")
    print(f"{sum(s for s, _, _ in durations):8.1f} in all (the sum over every worker)")
    if args.top:
        print(f"\nthe {args.top} most costly:")
        for seconds, phase, test in sorted(durations, reverse=True)[: args.top]:
            print(f"{seconds:8.1f} {phase:8} {test}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

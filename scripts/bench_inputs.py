#!/usr/bin/env python3
"""Benchmark: reading and editing a game is linear in the size of its elements (issue 40, "linear time on every input").

For 1,000, 10,000 and 100,000 attributes on one element, children of one element, and characters in one
attribute's name, prints the time to read the file (XmlDocument), edit one attribute of that element and of a
neighbour, and write it back, and the ratio to the size before: about 10 for each tenfold step is linear (a
quadratic path shows ~100). Before the edits were kept instead of the element's attributes read back, an element of
32,000 attributes took 56 s to edit through ``apply``.

Usage: python3 scripts/bench_inputs.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from kremlin_triplea.errors import KremlinError  # noqa: E402
from kremlin_triplea.gamefile.document import XmlDocument  # noqa: E402

SIZES = (1_000, 10_000, 100_000)


def game_with(kind: str, size: int) -> bytes:
    if kind == "attributes":
        big = "<big " + " ".join(f'a{i}="v{i}"' for i in range(size)) + "/>"
    elif kind == "children":
        big = "<big>" + "".join(f'<c n="{i}"/>' for i in range(size)) + "</big>"
    else:  # one attribute with a long name
        big = f'<big {"n" * size}="v"/>'
    return f'<?xml version="1.0"?>\n<game>\n  <info name="t" version="1"/>\n  {big}\n  <next v="0"/>\n</game>\n'.encode()


def edit_once(data: bytes) -> float:
    start = time.perf_counter()
    document = XmlDocument(data, source="bench")
    big, after = document.root[1], document.root[2]
    document.set_attribute(big, "edited", "1")
    document.set_attribute(after, "v", "1")
    document.to_bytes()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    for kind in ("attributes", "children", "name length"):
        before = None
        for size in SIZES:
            data = game_with(kind, size)
            try:
                seconds = statistics.median(edit_once(data) for _ in range(runs))
            except KremlinError as error:  # a name too long for the XML parser: refused in one line, as TripleA's is
                print(f"{kind:>11} {size:>7,}: refused: {error}")
                continue
            ratio = f"  x{seconds / before:5.1f} for x10" if before else ""
            print(f"{kind:>11} {size:>7,}: read + edit + write {seconds * 1000:9.1f} ms{ratio}")
            before = seconds


if __name__ == "__main__":
    main()

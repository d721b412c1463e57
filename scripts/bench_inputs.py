#!/usr/bin/env python3
"""Benchmark reading and editing games whose one element is huge: time must grow linearly with the input (issue 40).

For 1k, 10k and 100k of each of: attributes in one element, child elements of one element, characters in an
attribute name, characters in an attribute value, it times (median of --runs) reading AA50 1941 so changed
(XmlDocument, as every command does), changing that element's ``name`` and writing the game back, then loading it as
a game (the board) and writing it. A file beyond TripleA's own parser's bounds (more than 10,000 attributes in one
element, names of more than 1,000 characters) is refused: its line says how long the refusal took.

Usage: python3 scripts/bench_inputs.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
AA50_1941 = REPO.parent / "shared" / "triplea-maps" / "downloadedMaps" / "world_war_ii_v3" / "map" / "games" / "WW2v3-1941.xml"
SIZES = (1_000, 10_000, 100_000)


def attributes(count: int) -> bytes:
    extra = b"".join(b' x%d="v"' % i for i in range(count - 2))  # <info> has name and version already
    return AA50_1941.read_bytes().replace(b"<info ", b"<info" + extra + b" ", 1)


def children(count: int) -> bytes:
    extra = b"".join(b'\n        <property name="bench %d" value="1"/>' % i for i in range(count))
    return AA50_1941.read_bytes().replace(b"<propertyList>", b"<propertyList>" + extra, 1)


def name_length(count: int) -> bytes:
    return AA50_1941.read_bytes().replace(b"<info ", b'<info %s="1" ' % (b"n" * count), 1)


def value_length(count: int) -> bytes:
    return AA50_1941.read_bytes().replace(b"<info ", b'<info notes="%s" ' % (b"v" * count), 1)


def median_seconds(work: Callable[[], object], runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def edit_document(data: bytes) -> bytes:
    from kremlin_triplea.gamefile.document import XmlDocument

    document = XmlDocument(data, source="bench.xml")
    document.set_attribute(document.root.find("info"), "name", "Kremlin bench")
    return document.to_bytes()


def load_game(data: bytes) -> bytes:
    from kremlin_triplea.game import Game
    from kremlin_triplea.gamefile.document import XmlDocument
    from kremlin_triplea.model.changes import SetGameName

    game = Game(XmlDocument(data, source="bench.xml"))
    game.board.push(SetGameName("Kremlin bench"))
    return game.to_bytes()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    from kremlin_triplea.errors import InputError

    print(f"{'input':<32}{'size':>9}{'bytes':>12}{'read+edit+write':>18}{'load game+write':>18}")
    for label, make, sizes in (
        ("attributes in one element", attributes, SIZES),
        ("children of one element", children, SIZES),
        ("attribute name length", name_length, SIZES),
        # up to beyond libxml2's 10,000,000-character bound: the long-run search must stay linear there too
        ("attribute value length", value_length, (*SIZES, 1_000_000, 11_000_000)),
    ):
        for size in sizes:
            data = make(size)
            try:
                edit_document(data)
            except InputError as error:
                refused = median_seconds(lambda data=data: _refused(data), runs)
                print(f"{label:<32}{size:>9,}{len(data):>12,}   refused in {refused * 1000:.0f} ms: {error.message}")
                continue
            edit = median_seconds(lambda data=data: edit_document(data), runs)
            load = median_seconds(lambda data=data: load_game(data), runs)
            print(f"{label:<32}{size:>9,}{len(data):>12,}{edit * 1000:>15.0f} ms{load * 1000:>15.0f} ms")


def _refused(data: bytes) -> None:
    from kremlin_triplea.errors import InputError

    try:
        edit_document(data)
    except InputError:
        return
    raise AssertionError("the file was read")


if __name__ == "__main__":
    main()

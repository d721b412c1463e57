"""validate against TripleA 2.7 over many random edits of the pinned and corpus games (issue 44), with figures.

    python3 scripts/validate_differential.py [--count N] [--seed S] [--games pinned|all]

Each edit (tests/support/mutate_games.py) is judged by one 2.7 JVM (scripts/judge_with_triplea27.py) and by
validate; prints the count of each (2.7's verdict, validate's verdict), every disagreement (game, seed, edit, both
verdicts) and the time each took. Exit 1 when any disagrees.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]

from support.differential import DISAGREE, compared, tool_verdict  # noqa: E402
from support.judge27 import Judge27  # noqa: E402
from support.mutate_games import mutated  # noqa: E402
from support.paths import CORPUS_GAMES, PINNED_GAMES  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", choices=("pinned", "all"), default="pinned")
    args = parser.parse_args()
    games = PINNED_GAMES if args.games == "pinned" else PINNED_GAMES + CORPUS_GAMES
    rng = random.Random(args.seed)
    table: collections.Counter[tuple[str, str]] = collections.Counter()
    wrong = []
    engine_time = tool_time = 0.0
    with tempfile.TemporaryDirectory() as folder, Judge27() as judge:
        for n in range(args.count):
            mutation = mutated(rng.choice(games), rng.randrange(2**32))
            path = Path(folder) / f"{n}.xml"
            path.write_bytes(mutation.data)
            start = time.perf_counter()
            answer = judge.judge(path)
            engine_time += time.perf_counter() - start
            start = time.perf_counter()
            tool, errors = tool_verdict(path)
            tool_time += time.perf_counter() - start
            table[answer["verdict"], tool] += 1
            if compared(answer["verdict"], tool) == DISAGREE:
                wrong.append(
                    f"{mutation.base.name} seed {mutation.seed}: {mutation.what}: 2.7 {answer['verdict']} [{answer['why'][:160]}], validate {tool} {errors[:1]}"
                )
                print(wrong[-1], flush=True)
    print(f"\n{args.count:,} edits of {len(games)} games: 2.7 {engine_time:.0f} s, validate {tool_time:.0f} s")
    print("2.7's verdict | validate's | count")
    for (engine, tool), count in sorted(table.items()):
        print(f"{engine} | {tool} | {count}")
    print(f"disagreements: {len(wrong)}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())

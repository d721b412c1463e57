"""validate against TripleA 2.7 over many random edits of the pinned and corpus games (issue 44), with figures.

    python3 scripts/validate_differential.py [--count N] [--seed S] [--games pinned|all]

Each edit (tests/support/mutate_games.py) is judged by one 2.7 JVM (scripts/judge_with_triplea27.py) and by
validate; prints the count of each (2.7's verdict, validate's verdict), every disagreement (game, seed, edit, both
verdicts), a running count every ``--every`` edits, and the time each took (the JVM judges a batch while validate
does). The JVM has the memory of a player's TripleA (check/number_checks.py PLAYERS_HEAP). Exit 1 when any disagrees.
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]

from kremlin_triplea.check.number_checks import PLAYERS_HEAP  # noqa: E402
from support.differential import DISAGREE, compared, tool_verdict  # noqa: E402
from support.judge27 import Judge27  # noqa: E402
from support.mutate_games import mutated  # noqa: E402
from support.paths import CORPUS_GAMES, PINNED_GAMES  # noqa: E402

#: Edits judged at a time: the JVM judges them while validate does.
BATCH = 50


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", choices=("pinned", "all"), default="pinned")
    parser.add_argument("--every", type=int, default=1000, help="print the running count every this many edits")
    args = parser.parse_args()
    games = PINNED_GAMES if args.games == "pinned" else PINNED_GAMES + CORPUS_GAMES
    rng = random.Random(args.seed)
    table: collections.Counter[tuple[str, str]] = collections.Counter()
    wrong = []
    engine_time = tool_time = 0.0
    start_all = time.perf_counter()
    # 2.7 with the memory of a player's TripleA, which validate judges a game's units by (number_checks.PLAYERS_HEAP)
    os.environ["JAVA_TOOL_OPTIONS"] = f"-Xmx{PLAYERS_HEAP // 1024**2}m"
    with tempfile.TemporaryDirectory() as folder, Judge27() as judge:
        for first in range(0, args.count, BATCH):  # the JVM judges a batch while validate judges it
            batch = [mutated(rng.choice(games), rng.randrange(2**32)) for _ in range(min(BATCH, args.count - first))]
            paths = []
            for n, mutation in enumerate(batch, first):
                paths.append(Path(folder) / f"{n}.xml")
                paths[-1].write_bytes(mutation.data)
                judge.send(paths[-1])
            start = time.perf_counter()
            tools = [tool_verdict(path) for path in paths]
            tool_time += time.perf_counter() - start
            start = time.perf_counter()
            answers = [judge.receive() for _ in paths]
            engine_time += time.perf_counter() - start  # what the JVM took beyond validate's time
            for mutation, answer, (tool, errors) in zip(batch, answers, tools):
                table[answer["verdict"], tool] += 1
                if compared(answer["verdict"], tool, answer["why"], errors) == DISAGREE:
                    wrong.append(
                        f"{mutation.base.name} seed {mutation.seed}: {mutation.what}: 2.7 {answer['verdict']} [{answer['why'][:160]}], validate {tool} {errors[:1]}"
                    )
                    print(wrong[-1], flush=True)
            done = first + len(batch)
            if done % args.every == 0 and done < args.count:
                print(f"... {done:,} edits, {len(wrong)} disagreements, {time.perf_counter() - start_all:.0f} s", flush=True)
    print(
        f"\n{args.count:,} edits of {len(games)} games in {time.perf_counter() - start_all:.0f} s: validate {tool_time:.0f} s, 2.7 beyond it {engine_time:.0f} s"
    )
    print("2.7's verdict | validate's | count")
    for (engine, tool), count in sorted(table.items()):
        print(f"{engine} | {tool} | {count}")
    print(f"disagreements: {len(wrong)}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())

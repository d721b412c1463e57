#!/usr/bin/env python3
"""Kremlin on maps the tool has never seen: the per-map table of docs/unseen-maps.md (issue 28, item 6).

For each MAP/GAME of a TripleA maps folder, as a map maker or host meets it:

1. round trip: TripleA 2.7 parses the base game and reads the owners, units and PUs we read;
2. ``profile new`` drafts a profile where apply finds it (``profiles/<mapName>.toml`` beside the maps folder),
   then ``profile check`` checks it;
3. ``matrix --ruleset R --game MAP/GAME``: cells applied / not applicable / failed;
4. one whole draft drawn (seeded) from the legal picks is applied by ``apply`` and the written game is checked by
   ``verify --engine`` with TripleA 2.7, which plays one round with its Fast AI.

Every step runs the command line as a user does (``python3 -m kremlin_triplea``). The TripleA 2.7 installation is
the one the tests use (tests/support/triplea27.py: the pinned 2.7 jar and the system Java without a compiler).

Usage: python3 scripts/unseen_maps.py MAPS_DIR MAP/GAME ... [--ruleset kremlin-aa50] [--work DIR] [--seed N]
Prints the Markdown table; exit 0.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def cli(*args: str, timeout: float = 3600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kremlin_triplea", *args], capture_output=True, text=True, timeout=timeout, env=None)


def last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else ""


def round_trip(path: Path, installation) -> str:
    """Whether TripleA 2.7 reads the base game as we do (owners, units, PUs)."""
    from kremlin_triplea.engine import compare
    from kremlin_triplea.engine.triplea2_bridge import reading, run
    from kremlin_triplea.game import load

    (answer,) = run(installation, [{"read": str(path)}], timeout=1800, doing="reading").answers
    if answer.get("error"):
        return f"TripleA 2.7 does not read it: {answer['error']}"
    found = compare.disagreements(load(path).board, reading(answer), properties=False, triplea2=True)
    return "same owners, units, PUs" if not found else f"{len(found)} disagreements, e.g. {found[0]}"


def profile_steps(maps_dir: Path, spec: str, ruleset: str, profile: Path) -> tuple[str, str]:
    made = cli("--maps-dir", str(maps_dir), "profile", "new", spec, "--ruleset", ruleset, "-o", str(profile), "--force")
    if made.returncode != 0:
        return f"exit {made.returncode}: {last_line(made.stderr)}", "-"
    checked = cli("--maps-dir", str(maps_dir), "profile", "check", str(profile))
    review = sum("REVIEW" in line for line in profile.read_text(encoding="utf-8").splitlines())
    words = "passes" if checked.returncode == 0 else f"exit {checked.returncode}: {last_line(checked.stdout)}"
    return f"written ({review} lines marked REVIEW)", words


def matrix_step(maps_dir: Path, spec: str, ruleset: str) -> str:
    done = cli("--maps-dir", str(maps_dir), "matrix", "--ruleset", ruleset, "--game", spec, "--samples", "2", "--json", "-")
    if done.returncode not in (0, 1):
        return f"exit {done.returncode}: {last_line(done.stderr)}"
    cells = json.loads(done.stdout)["cells"]
    count = {status: sum(c["status"] == status for c in cells) for status in ("applied", "not applicable", "failed")}
    drafts = next((c for c in cells if c["option"] == "random drafts"), None)
    why = f"; random drafts: {drafts['reasons'][0][:120]}" if drafts and drafts["status"] != "applied" and drafts["reasons"] else ""
    return f"{count['applied']} applied, {count['not applicable']} n/a, {count['failed']} failed{why}"


def draft_step(maps_dir: Path, spec: str, ruleset: str, work: Path, seed: int, triplea: Path) -> tuple[str, str]:
    """A whole draft drawn from the legal picks, applied, verified with TripleA 2.7 (one Fast-AI round)."""
    import tomli_w

    from kremlin_triplea.draft.rulesets import load_named_ruleset
    from kremlin_triplea.draft.run import draft_from_dict
    from kremlin_triplea.errors import KremlinError
    from kremlin_triplea.game import load
    from kremlin_triplea.gamefile.locate import resolve_game
    from kremlin_triplea.session import Session
    from kremlin_triplea.tools.matrix import random_draft_data

    game = load(resolve_game(spec, maps_dir))
    rules = load_named_ruleset(ruleset)
    try:  # the sides are the game's alliances or the ones the profile's [sides] names (Total World War's "Axis-Germany")
        setup = Session(draft_from_dict({"ruleset": ruleset, "first": rules.sides[0]}), game, ruleset=rules).run
    except KremlinError as error:
        return f"apply refuses the game: {str(error)[:160]}", "-"
    alliances = game.catalog.alliances()
    absent = [side for side in rules.sides if not set(setup.profile.side_alliances(side)) & set(alliances)]
    if absent:
        return f"no draft: the game has no alliance {' or '.join(absent)}, nor [sides] naming one (its alliances: {', '.join(alliances)})", "-"
    made: list[str] = []
    try:
        data = random_draft_data(game, setup.ruleset, setup.profile, random.Random(seed), made)
    except KremlinError as error:
        return f"a legal pick was refused after {len(made)} picks: {str(error)[:160]}", "-"
    if data is None:
        return f"the legal picks run out after {len(made)} picks", "-"
    data = {**data, "ruleset": ruleset, "game": spec}
    name = spec.replace("/", "-").removesuffix(".xml")
    draft, out = work / f"{name}.toml", work / f"{name}-kremlin.xml"
    draft.write_text(tomli_w.dumps(data), encoding="utf-8")
    applied = cli("--maps-dir", str(maps_dir), "apply", str(draft), "-o", str(out), "--force")
    if applied.returncode != 0:
        return f"exit {applied.returncode}: {last_line(applied.stderr)[:200]}", "-"
    warned = sum("not written into the game" in line for line in applied.stderr.splitlines())
    verified = cli("--maps-dir", str(maps_dir), "verify", str(out), "--engine", "--triplea", str(triplea))
    played = next((line.strip() for line in verified.stdout.splitlines() if "Fast AI played" in line), last_line(verified.stdout + verified.stderr))
    return f"{len(made)} picks applied; {warned} game-rule changes left to the players", f"exit {verified.returncode}: {played[:160]}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("maps_dir", type=Path)
    parser.add_argument("games", nargs="+", help="MAP/GAME of the maps folder")
    parser.add_argument("--ruleset", default="kremlin-aa50")
    parser.add_argument("--work", type=Path, default=None, help="Where the drafts and written games go (default: a temporary folder).")
    parser.add_argument("--seed", type=int, default=28)
    args = parser.parse_args()
    sys.path.insert(0, str(REPO / "tests"))
    from kremlin_triplea.game import load
    from kremlin_triplea.gamefile.installation import installation_at
    from kremlin_triplea.gamefile.locate import resolve_game
    from support.triplea27 import installation_without_compiler

    work = args.work or Path(tempfile.mkdtemp(prefix="kremlin-unseen-"))
    folder = installation_without_compiler(work / "triplea-2.7") if not (work / "triplea-2.7").exists() else work / "triplea-2.7"
    installation = installation_at(folder, "--triplea")
    profiles = args.maps_dir.resolve().parent / "profiles"
    print(
        "| map / game | round trip (TripleA 2.7) | `profile new` | `profile check` | matrix (kremlin-aa50) | one whole draft: `apply` | `verify --engine` (TripleA 2.7, one AI round) | seconds |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for spec in args.games:
        started = time.perf_counter()
        path = resolve_game(spec, args.maps_dir)
        map_name = load(path).board.properties.get("mapName") or spec.split("/")[0]
        trip = round_trip(path, installation)
        new, check = profile_steps(args.maps_dir, spec, args.ruleset, profiles / f"{map_name}.toml")
        matrix = matrix_step(args.maps_dir, spec, args.ruleset)
        applied, verified = draft_step(args.maps_dir, spec, args.ruleset, work, args.seed, folder)
        cells = [spec, trip, new, check, matrix, applied, verified, f"{time.perf_counter() - started:.0f}"]
        print("| " + " | ".join(c.replace("|", "/") for c in cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

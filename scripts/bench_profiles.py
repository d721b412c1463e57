#!/usr/bin/env python3
"""How well `profile new` matches rule-text names on the four pinned maps, against their hand-written profiles.

For each game a shipped profile pins (maps/*.toml), a profile is drafted the way
`profile new` does it, but *without* the hand-written profile of that board as
evidence (every profile whose games have the same territories is left out), and
each rule-text name it needs is compared with the hand-written answer:

* correct / wrong: a match the new profile makes, right or not;
* missed: left unmatched though the hand-written profile (or the game, by the same name) has it;
* right to leave: left unmatched, and the hand-written profile has no counterpart either.

A name the hand-written profile neither lists nor the game has (the rulesets of
another map) counts in "right to leave" when left unmatched and in "unjudged"
when matched. Targets (issue 17): no wrong match; at least 90% of the names
that have a counterpart matched.

Usage: PYTHONPATH=src python3 scripts/bench_profiles.py [--maps-dir DIR]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from kremlin_triplea.errors import KremlinError
from kremlin_triplea.game import load
from kremlin_triplea.gamefile.locate import default_maps_dir
from kremlin_triplea.rules.profile import load_profile
from kremlin_triplea.rules.ruleset import data_folders
from kremlin_triplea.tools.matrix import all_rulesets
from kremlin_triplea.tools.place_evidence import shipped_known_places
from kremlin_triplea.tools.profiles import new_profile
from kremlin_triplea.tools.rule_names import numbered_in_game, rule_names


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--maps-dir", type=Path, default=None)
    parser.add_argument("--verbose", action="store_true", help="List every wrong and missed name.")
    args = parser.parse_args()
    maps_dir = default_maps_dir(args.maps_dir)
    rulesets = all_rulesets()[0]
    totals = {"correct": 0, "wrong": 0, "missed": 0, "right to leave": 0, "unjudged": 0}
    started = time.perf_counter()
    measured = 0
    paths = sorted({p.stem: p for folder in reversed(data_folders("maps")) for p in folder.glob("*.toml")}.values())
    print(f"{'game':45} {'names':>5} {'correct':>7} {'wrong':>5} {'missed':>6} {'leave':>5} {'unjudged':>8} {'matched':>8}")
    for path in paths:
        profile = load_profile(path)
        for base in profile.games:
            try:
                game = load(base.key, maps_dir=maps_dir)
            except KremlinError as error:
                print(f"{base.key}: not installed ({error})", file=sys.stderr)
                continue
            measured += 1
            board = game.board
            known = shipped_known_places(skip_board=frozenset(board.nodes))
            drafted = new_profile(game, rulesets, known=known)
            truth_places = {k.lower(): v for k, v in profile.places.items()}
            truth_powers = {k.lower(): v for k, v in profile.powers.items()}
            truth_units = {k.lower(): v for k, v in profile.units.items()}
            nodes = {n.lower(): n for n in board.nodes}
            players = {p.lower(): p for p in game.catalog.players}
            units = {u.lower(): u for u in game.catalog.unit_types}
            counts = dict.fromkeys(totals, 0)
            details = []
            # A numbered sea zone ("Seazone 12") is the profile's sea_zone_name only for the rule texts it was written for.
            own = {n for r in rulesets if r.id in profile.rulesets for n in rule_names(r).places}
            rows = [
                (
                    r,
                    m.name,
                    truth_places.get(r.lower()) or nodes.get(r.lower()) or (nodes.get((numbered_in_game(profile, r) or "").lower()) if r in own else None),
                )
                for r, m in drafted.places.items()
            ]
            rows += [(r, m, truth_powers.get(r.lower()) or players.get(r.lower())) for r, m in drafted.powers.items()]
            rows += [(r, m, truth_units.get(r.lower()) or units.get(r.lower())) for r, m in drafted.units.items()]
            for rule, made, truth in rows:
                if made is None:
                    outcome = "missed" if truth is not None else "right to leave"
                elif truth is None:
                    outcome = "unjudged"
                else:
                    outcome = "correct" if made == truth else "wrong"
                counts[outcome] += 1
                if outcome in ("wrong", "missed", "unjudged"):
                    details.append(f"    {outcome}: {rule!r} -> {made!r} (hand-written: {truth!r})")
            for k in totals:
                totals[k] += counts[k]
            judged = counts["correct"] + counts["wrong"] + counts["missed"]
            share = counts["correct"] / judged if judged else 1.0
            print(
                f"{base.key:45} {len(rows):5} {counts['correct']:7} {counts['wrong']:5} {counts['missed']:6} {counts['right to leave']:5} {counts['unjudged']:8} {share:8.0%}"
            )
            if args.verbose:
                print("\n".join(details))
    if not measured:
        # No figure rather than a hollow 100%: the pinned maps must be installed where --maps-dir says.
        print(f"no pinned game found in {maps_dir}: name the folder holding them with --maps-dir", file=sys.stderr)
        return 2
    judged = totals["correct"] + totals["wrong"] + totals["missed"]
    print(
        f"{'all':45} {sum(totals.values()):5} {totals['correct']:7} {totals['wrong']:5} {totals['missed']:6} {totals['right to leave']:5} {totals['unjudged']:8} {totals['correct'] / judged if judged else 1:8.0%}"
    )
    print(
        f"matches made that are right: {totals['correct']} of {totals['correct'] + totals['wrong']} (unjudged: {totals['unjudged']}); "
        f"names with a counterpart matched: {totals['correct']} of {judged}; {time.perf_counter() - started:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

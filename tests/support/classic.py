"""Helpers for the tests of the classic Kremlin rulesets (001 kremlin-classic, 002 kremlin-daak)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kremlin_triplea.draft.kinds import Outcome
from kremlin_triplea.draft.run import DraftRun, draft_from_dict
from support.aa50 import fresh_game
from support.paths import MAPS_DIR

KREMLIN = MAPS_DIR / "classic_variations" / "map" / "games" / "kremlin.xml"
CLASSIC_3RD = MAPS_DIR / "world_war_ii_classic" / "map" / "games" / "classic_3rd_edition.xml"
CLASSIC_2ND = MAPS_DIR / "world_war_ii_classic" / "map" / "games" / "classic.xml"

SEED_001 = "001_e336cdee7ef3c243.txt"
SEED_002 = "002_1340f5a289b0c2db.txt"

# Each ruleset with the games its seed targets (shared/seeds/README.md).
TARGETS: dict[str, tuple[Path, ...]] = {
    "kremlin-classic": (KREMLIN, CLASSIC_3RD),
    "kremlin-daak": (CLASSIC_2ND,),
}
RULESET_GAMES = [(ruleset, game) for ruleset, games in TARGETS.items() for game in games]


def game_id(path: Path) -> str:
    return f"{path.parents[2].name}/{path.name}"


def run_for(ruleset: str, path: Path, first: str, picks_per_side: int | None = None) -> DraftRun:
    data: dict[str, Any] = {"ruleset": ruleset, "first": first}
    if picks_per_side is not None:
        data["picks_per_side"] = picks_per_side
    return DraftRun(draft_from_dict(data), fresh_game(path))


def pick(run: DraftRun, side: str, option: int | str, **spec: Any) -> Outcome:
    """Apply one pick (the next in order) to the run's board."""
    section = draft_from_dict({"ruleset": run.ruleset.id, "first": side, "pick": [{"side": side, "option": option, **spec}]}).picks[0]
    return run.apply_pick(run.parse_pick(len(run.applied) + 1, section))

"""Helpers for the tests of the classic Kremlin rulesets (001 kremlin-classic, 002 kremlin-daak)."""

from __future__ import annotations

from pathlib import Path

from kremlin_triplea.session import Session
from support.games import fresh_game
from support.paths import MAPS_DIR
from support.sessions import pick, session_for

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


def run_for(ruleset: str, path: Path, first: str, picks_per_side: int | None = None) -> Session:
    """A new draft of ``ruleset`` on the game at ``path`` (its board pristine), ``first`` to pick: a session, as every draft is driven."""
    return session_for(path, first, ruleset=ruleset, picks_per_side=picks_per_side)


__all__ = ["CLASSIC_2ND", "CLASSIC_3RD", "KREMLIN", "RULESET_GAMES", "SEED_001", "SEED_002", "TARGETS", "fresh_game", "game_id", "pick", "run_for"]

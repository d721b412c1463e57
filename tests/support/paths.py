"""Where the shared, pinned real inputs are: ../shared beside the checkout."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[3] / "shared"
MAPS_DIR = SHARED / "triplea-maps" / "downloadedMaps"
CORPUS_DIR = SHARED / "triplea-xml-corpus"
EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "examples"

PINNED_GAMES = sorted(MAPS_DIR.glob("*/map/games/*.xml"))
CORPUS_GAMES = sorted(CORPUS_DIR.glob("*.xml"))
ALL_GAMES = PINNED_GAMES + CORPUS_GAMES

AA50_1941 = MAPS_DIR / "world_war_ii_v3" / "map" / "games" / "WW2v3-1941.xml"
AA50_1942 = MAPS_DIR / "world_war_ii_v3" / "map" / "games" / "WW2v3-1942.xml"

if not PINNED_GAMES:  # pragma: no cover - a broken checkout, not a skip
    raise RuntimeError(f"the pinned TripleA maps are missing: expected them in {MAPS_DIR}")


def game_id(path: Path) -> str:
    return path.relative_to(SHARED).as_posix()


#: The corpus games the quick subset (``-m "not engine and not slow"``) reads: every eighth. Tests over every real
#: game run the others too, marked ``slow``, so the full suite still reads every game and the quick subset stays
#: under a minute.
QUICK_CORPUS = frozenset(CORPUS_GAMES[::8])


def each_game(games: list[Path]) -> list:
    """``games`` as pytest parameters: pinned games and :data:`QUICK_CORPUS` quick, the rest of the corpus slow."""
    return [pytest.param(g, id=game_id(g), marks=() if g.parent != CORPUS_DIR or g in QUICK_CORPUS else pytest.mark.slow) for g in games]

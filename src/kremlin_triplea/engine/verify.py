"""Proof that a written game is what we meant and that TripleA plays it.

``verify_with_engine`` reads the file with our reader and with the real engine
(owners, units, PUs, properties, game name must agree), then lets the engine's
Fast AI play every power for some rounds; any engine exception fails it.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from kremlin_triplea.engine import read_with_engine
from kremlin_triplea.engine.play import FAST_AI, PlayReport, play_with_engine


@attrs.frozen
class Verification:
    file: Path
    disagreements: tuple[str, ...]  # where the engine reads the file differently from us
    play: PlayReport | None
    canals: tuple[str, ...] = ()  # the canals the engine knows, when the harness reports them
    # The rules as the engine understands them (EngineReading.rules): canals, who may cross each, ...
    engine_rules: dict = attrs.field(factory=dict, eq=False)

    @property
    def ok(self) -> bool:
        return not self.disagreements and self.play is not None and self.play.ok


def disagreements(path: Path, reading) -> list[str]:
    """Owners, units, PUs, properties and game name as our reader and the engine's reading have them."""
    from kremlin_triplea.game import load

    game = load(path)
    board = game.board
    found: list[str] = []
    if not reading.ok:
        return [f"the engine cannot read the file: {reading.error}"]
    found += [f"DTD: {error}" for error in reading.dtd_errors]
    if reading.game_name != game.name:
        found.append(f"game name: ours {game.name!r}, the engine's {reading.game_name!r}")
    for name, data in board.nodes.items():
        theirs = reading.territories.get(name)
        if theirs is None:
            found.append(f"{name}: unknown to the engine")
            continue
        if theirs.owner != data["owner"]:
            found.append(f"{name}: owner ours {data['owner']}, the engine's {theirs.owner}")
        ours = {key: n for key, n in data["units"].items() if n}
        if ours != dict(theirs.units):
            found.append(f"{name}: units ours {sorted(ours.items(), key=str)}, the engine's {sorted(theirs.units.items(), key=str)}")
    for player, view in game.players.items():
        if reading.pus.get(player) != view.pus:
            found.append(f"{player}: PUs ours {view.pus}, the engine's {reading.pus.get(player)}")
    for key, value in board.properties.items():
        # Notes are HTML the engine may reformat; colours it reads as numbers.
        if key == "notes" or key.startswith("color_"):
            continue
        theirs = reading.properties.get(key)
        if _normal(value) != _normal(theirs):
            found.append(f"property {key!r}: ours {value!r}, the engine's {theirs!r}")
    return found


def _normal(value: str | None) -> str:
    text = (value or "").strip()
    return text.lower() if text.lower() in ("true", "false") else text


def verify_with_engine(paths: list[Path], rounds: int = 1, *, seed: int | None = 1) -> list[Verification]:
    """Read all files in one JVM, then play them in another; one Verification per file."""
    readings = read_with_engine(paths)
    plays = play_with_engine(paths, rounds=rounds, player_type=FAST_AI, seed=seed)
    results = []
    for path, reading, play in zip(paths, readings, plays):
        known = (getattr(reading, "rules", None) or {}).get("canals") or {}
        canals = tuple(sorted({f"{c['canal']} ({'/'.join(c['land'])})" for c in known.values()}))
        rules = dict(getattr(reading, "rules", None) or {})
        results.append(Verification(Path(path), tuple(disagreements(Path(path), reading)), play, canals, rules))
    return results

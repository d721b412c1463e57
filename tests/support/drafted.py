"""The map profiles ``profile new`` drafts for games, each drafted once for the whole test session.

Several slow tests start from the profile a map maker's first command drafts for a corpus game (the corpus matrix,
the claims asked of TripleA 2.7): the same command on the same game, about a second each, for 73 games. A draft is a
pure function of the game, the pinned maps and the command (same inputs, same bytes), and its ``key`` names the game
relative to the profile's folder, so the drafts are kept in one folder every pytest-xdist worker shares (as
support.engine.SharedReadings keeps 1.9's readings), one lock per game: a worker asking for a game another is
drafting waits for that draft instead of making a second."""

from __future__ import annotations

import hashlib
from pathlib import Path

from click.testing import CliRunner
from filelock import FileLock

from kremlin_triplea.cli.main import main
from support.paths import MAPS_DIR


class SharedDrafts:
    """``profile new``'s draft for a game, made by the CLI as a map maker makes it: ``draft(game)`` is its path."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)

    def draft(self, game: Path) -> Path:
        # Named by the game's path and bytes: a game written anew under the same name is drafted anew.
        digest = hashlib.sha256(f"{Path(game).resolve()}\0".encode() + Path(game).read_bytes()).hexdigest()[:16]
        out = self.folder / f"{Path(game).stem}-{digest}.toml"
        with FileLock(self.folder / f"{out.name}.lock"):
            if not out.exists():
                made = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "profile", "new", str(game), "-o", str(out)])
                assert made.exit_code == 0, made.output
        return out

"""The read path of this checkout against another revision's, over every pinned and corpus game (issue 45 item 6).

    python3 scripts/read_path_differential.py [REVISION]   (default: main)

A change made for speed must read the same boards and write the same bytes. For each game both checkouts read it
(Game(XmlDocument.read)), make the same seeded random changes (owners, units, PUs) and write it; a digest of the
board read (places, adjacency, PUs, technologies, properties, name, catalog) and of the bytes written is compared.
Each side runs in its own process with PYTHONHASHSEED=0, so a set's order is the same on both. Prints each game
that differs and the count; exit 1 when any does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Run by each side's own interpreter: PYTHONPATH picks the checkout. Prints {game: [board digest, bytes digest]}.
_SIDE = """
import hashlib, json, sys
from pathlib import Path
from kremlin_triplea.errors import InputError
from kremlin_triplea.game import Game
from kremlin_triplea.gamefile.document import XmlDocument
sys.path.insert(0, sys.argv[1])  # this checkout's tests: the same random changes on both sides
from support.games import random_changes

CATALOG = ("unit_types", "resources", "costs", "frontiers", "player_frontiers", "technologies")

def digest(text):
    return hashlib.sha256(text if isinstance(text, bytes) else repr(text).encode()).hexdigest()

found = {}
for path in map(Path, json.load(sys.stdin)):
    try:
        game = Game(XmlDocument.read(path))
    except InputError as error:
        found[str(path)] = ["refused: " + str(error), ""]
        continue
    # Written before anything else is asked of the game: a board's parts read when first asked for stay unread
    random_changes(game, path.name)
    try:
        written = digest(game.to_bytes())
    except InputError as error:
        written = "refused: " + str(error)
    board = Game(XmlDocument.read(path)).initial
    nodes = sorted((name, sorted({**data, "units": sorted(data["units"].items(), key=repr)}.items(), key=repr)) for name, data in board.nodes.items())
    read = (nodes, sorted((k, sorted(v)) for k, v in board._adjacency.items()), sorted(board.pus.items()),
            sorted((k, sorted(v)) for k, v in board.techs.items()), sorted(board.properties.items()), board.game_name,
            # a set's repr follows the order its members were added in: compared sorted, as what it holds
            board.catalog.players, [getattr(board.catalog, part) for part in CATALOG], sorted(board.catalog.attachments, key=repr))
    found[str(path)] = [digest(read), written]
json.dump(found, sys.stdout)
"""


def side(source: Path, games: list[Path]) -> dict[str, list[str]]:
    environment = {**os.environ, "PYTHONPATH": str(source), "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        [sys.executable, "-c", _SIDE, str(ROOT / "tests")],
        input=json.dumps([str(g) for g in games]),
        capture_output=True,
        text=True,
        env=environment,
        check=True,
    )
    return json.loads(done.stdout)


def main() -> int:
    revision = sys.argv[1] if len(sys.argv) > 1 else "main"
    sys.path.insert(0, str(ROOT / "tests"))
    from support.paths import ALL_GAMES

    with tempfile.TemporaryDirectory() as folder:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision, "src"], capture_output=True, check=True).stdout
        archive_path = Path(folder) / "src.tar"
        archive_path.write_bytes(archive)
        with tarfile.open(archive_path) as tar:
            tar.extractall(folder, filter="data")
        theirs = side(Path(folder) / "src", ALL_GAMES)
    ours = side(ROOT / "src", ALL_GAMES)
    differing = sorted(game for game in ours if ours[game] != theirs.get(game))
    for game in differing:
        print(
            f"differs: {game}: board {'same' if ours[game][0] == theirs[game][0] else 'differs'}, written {'same' if ours[game][1] == theirs[game][1] else 'differs'}"
        )
    print(f"{len(ours)} games read, changed and written by this checkout and by {revision}: {len(differing)} differ")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())

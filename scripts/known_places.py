#!/usr/bin/env python3
"""Write maps/evidence/known-places.json: the pinned games' facts `profile new` reasons from (issue 28 items 2, 4).

`profile new` once read this evidence from the user's maps folder, so its answer
depended on which other maps the user had installed. It now reads this file,
which ships with the tool; run this script when a shipped profile or a pinned
game changes (tests/test_profile_new.py fails until the file matches them).

Usage: PYTHONPATH=src python3 scripts/known_places.py [--maps-dir DIR]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from kremlin_triplea.gamefile.locate import default_maps_dir
from kremlin_triplea.gamefile.safe import write_atomically
from kremlin_triplea.tools.place_evidence import KNOWN_PLACES_FILE, known_places, known_places_json, pinned_boards, strait_shapes

REPO = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--maps-dir", type=Path, default=None)
    args = parser.parse_args()
    maps_dir = default_maps_dir(args.maps_dir)
    text = known_places_json(known_places(maps_dir), pinned_boards(maps_dir), strait_shapes(maps_dir))
    written = write_atomically(REPO / "maps" / KNOWN_PLACES_FILE, text.encode("utf-8"), overwrite=True)
    print(f"wrote {written}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

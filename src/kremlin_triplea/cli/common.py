"""What every command module shares: the maps folder the group was given."""

from __future__ import annotations

from pathlib import Path

import click

from kremlin_triplea.gamefile.locate import default_maps_dir


def maps_dir(ctx: click.Context) -> Path:
    """The maps folder: ``--maps-dir``, else ``$KREMLIN_TRIPLEA_MAPS``, else TripleA's own."""
    root = ctx.find_root()
    return default_maps_dir((root.obj or {}).get("maps_dir"))

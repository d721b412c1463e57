"""The draft assistant's commands (issue 8): value, render, draft.

Kept out of cli.py so the shared command module only registers them.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from kremlin_triplea.cli import _maps_dir


@click.command("value")
@click.argument("draft", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--game", "game_spec", help="The base game (a path, or MAP/GAME); overrides the draft's `game`.")
@click.option("--json", "as_json", is_flag=True, help="Print the values as JSON.")
@click.pass_context
def value_command(ctx: click.Context, draft: Path, game_spec: str | None, as_json: bool) -> None:
    """What each pick of DRAFT is worth in IPCs, per side, with running totals.

    The draft may be unfinished: its picks so far are valued.
    """
    from kremlin_triplea.rules.value import value_draft

    values = value_draft(draft, game_spec=game_spec, maps_dir=_maps_dir(ctx))
    if as_json:
        click.echo(json.dumps(values.as_data(), indent=2))
        return
    for line in values.lines():
        click.echo(line)

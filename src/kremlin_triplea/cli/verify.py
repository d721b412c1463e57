"""``kremlin-triplea verify``: a written game checked by our validator and, with --engine, by TripleA itself."""

from __future__ import annotations

import sys
from pathlib import Path

import click


@click.command("verify")
@click.argument("game", type=click.Path(path_type=Path, dir_okay=False, exists=True))
@click.option("--engine", is_flag=True, help="Also load GAME in the real TripleA engine and play rounds with every power played by its Fast AI.")
@click.option("--rounds", default=1, show_default=True, type=click.IntRange(1, 10), help="Rounds the engine plays.")
def verify_command(game: Path, engine: bool, rounds: int) -> None:
    """Check GAME: what TripleA would refuse or misread; with --engine, that TripleA reads what we wrote and plays it.

    Exit 1 on any problem: a validation problem, a disagreement between our
    reading and the engine's (owners, units, PUs, properties, game name), or
    any engine exception while playing.
    """
    from kremlin_triplea.gamefile.document import XmlDocument
    from kremlin_triplea.check.validate import validate_tree

    problems = [str(p) for p in validate_tree(XmlDocument.read(game).root, str(game))]
    for problem in problems:
        click.echo(problem)
    click.echo(f"{game}: {'valid' if not problems else f'{len(problems)} problem(s)'} (our validator)")
    failed = bool(problems)
    if engine:
        from kremlin_triplea.engine.verify import verify_with_engine

        result = verify_with_engine([game], rounds=rounds)[0]
        for line in result.disagreements:
            click.echo(f"engine disagrees: {line}")
        if not result.disagreements:
            click.echo("the engine reads the same owners, units, PUs, properties and game name")
        if result.canals:
            click.echo(f"canals the engine knows: {', '.join(result.canals)}")
        play = result.play
        if play is not None:
            for line in play.exceptions:
                click.echo(f"engine exception: {line}")
            state = "played" if play.ok else f"FAILED ({play.error})"
            click.echo(f"Fast AI {state}: {play.rounds_played} of {rounds} round(s), {len(play.steps)} steps" + (" (the game ended in a victory)" if play.game_over else ""))
        failed = failed or not result.ok
    if failed:
        sys.exit(1)

"""``kremlin-triplea verify``: a written game checked by our validator and, with --engine, by TripleA itself."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from kremlin_triplea.cli.common import NativePath, warn
from kremlin_triplea.cli.common import maps_dir as _maps_dir


@click.command("verify")
@click.argument("game_spec", metavar="GAME")
@click.option("--engine", is_flag=True, help="Also load GAME in the real TripleA engine and play rounds with every power played by its Fast AI.")
@click.option("--rounds", default=1, show_default=True, type=click.IntRange(1, 10), help="Rounds the engine plays.")
@click.option(
    "--triplea",
    "triplea",
    type=NativePath(path_type=Path),
    help="The TripleA installation, 1.9 or 2.x (folder or jar), to use; default: $KREMLIN_TRIPLEA, else the newest 2.x where TripleA installs (~/TripleA, /opt/TripleA, Program Files\\TripleA, /Applications/TripleA.app, ...), else Debian's 1.9.",
)
@click.option("--all", "--verbose", "every", is_flag=True, help="List every finding, one a line, instead of one line per kind.")
@click.pass_context
def verify_command(ctx: click.Context, game_spec: str, engine: bool, rounds: int, triplea: Path | None, every: bool) -> None:
    """Check GAME: what TripleA would refuse or misread; with --engine, that TripleA reads what we wrote and plays it.

    GAME is a path or MAP/GAME. For a game this tool wrote, only what it adds
    to its base game's findings is reported (the base is recorded in its notes).
    Exit 1 on an error (warnings pass), a disagreement between our
    reading and the engine's (owners, units, PUs, properties, game name), or
    any engine exception while playing.
    """
    from kremlin_triplea.check.validate import errors
    from kremlin_triplea.gamefile.locate import resolve_game
    from kremlin_triplea.report.findings import report_lines

    game = resolve_game(game_spec, _maps_dir(ctx))
    problems, base = _findings(game, _maps_dir(ctx))
    for line in report_lines(problems, every=every):  # as validate says them: one line per kind
        click.echo(line)
    failed = bool(errors(problems))
    counted = f"{len(errors(problems))} error(s), {len(problems) - len(errors(problems))} warning(s)" if problems else "valid"
    click.echo(f"{game}: {counted} (our validator{f'; beyond those of its base game {base}' if base else ''})")
    if engine:
        from kremlin_triplea.engine.verify import verify_with_engine

        result = verify_with_engine([game], rounds=rounds, triplea=triplea)[0]
        click.echo(f"engine: {result.engine}")
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
            click.echo(
                f"Fast AI {state}: {play.rounds_played} of {rounds} round(s), {len(play.steps)} steps"
                + (" (the game ended in a victory)" if play.game_over else "")
            )
        failed = failed or not result.ok
    if failed:
        sys.exit(1)


def _findings(game: Path, maps_dir: Path) -> tuple[list, Path | None]:
    """Our validator's findings in ``game``, less its recorded base game's (and that base, if any)."""
    from kremlin_triplea.check.validate import added_problems, validate_tree
    from kremlin_triplea.errors import KremlinError
    from kremlin_triplea.game import Game
    from kremlin_triplea.gamefile.document import XmlDocument
    from kremlin_triplea.gamefile.provenance import find_recorded_base, recorded_base

    document = XmlDocument.read(game)
    problems = validate_tree(document.root, str(game))
    record = recorded_base(Game(document).board.properties.get("notes", ""))
    if record is None:
        return problems, None
    try:
        base = find_recorded_base(record, game, maps_dir)
    except KremlinError as error:  # still worth checking: every finding is then reported
        warn(f"{error}; every finding of the game is reported")
        return problems, None
    return added_problems(validate_tree(XmlDocument.read(base).root, str(base)), problems), base

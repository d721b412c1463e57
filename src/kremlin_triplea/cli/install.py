"""``installed`` and ``uninstall``: the games this tool put into TripleA's maps (issue 14, "A game list that stays clean")."""

from __future__ import annotations

import click

from kremlin_triplea.gamefile.locate import default_maps_dir


@click.command("installed")
@click.pass_context
def installed_command(ctx: click.Context) -> None:
    """List the games this tool installed: map, name, file, date."""
    from kremlin_triplea.errors import InputError
    from kremlin_triplea.gamefile.install import installed_games

    broken: list[InputError] = []
    games = installed_games(default_maps_dir(ctx.obj.get("maps_dir")), broken)
    for error in broken:
        click.echo(f"kremlin-triplea: warning: {error}", err=True)
    if not games:
        click.echo("no games installed by kremlin-triplea")
        return
    for game in games:
        missing = "" if game.game_file.is_file() else "  [file missing]"
        renamed = f"  [listed as {game.listed_as!r}]" if game.listed_as and game.listed_as != game.game_name else ""
        click.echo(f"{game.map_name}\t{game.game_name}\t{game.game_file}\t{game.date}{missing}{renamed}")


@click.command("uninstall")
@click.argument("name")
@click.pass_context
def uninstall_command(ctx: click.Context, name: str) -> None:
    """Remove NAME (or MAP/NAME), a game this tool installed: its file, notes and map.yml entry."""
    from kremlin_triplea.gamefile.install import uninstall_game

    game = uninstall_game(default_maps_dir(ctx.obj.get("maps_dir")), name)
    files = " and ".join(str(path) for path in game.removed)
    gone = [str(path) for path in (game.game_file, game.notes_file) if path is not None and path not in game.removed]
    what = (f"removed {files}" if files else "removed no file") + (f" ({' and '.join(gone)} already gone)" if gone else "")
    click.echo(f"uninstalled {game.game_name!r} from map {game.map_name}: {what}; {game.entry}")

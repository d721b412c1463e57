"""``kremlin-triplea save``: a game file turned into a savegame by the host's own TripleA 2.x (issue 16)."""

from __future__ import annotations

from pathlib import Path

import click

from kremlin_triplea.cli.common import NativePath, warn
from kremlin_triplea.cli.common import maps_dir as _maps_dir
from kremlin_triplea.cli.output import OUTPUT_PATH


@click.command("save")
@click.argument("game_spec", metavar="GAME")
@click.option("-o", "--output", type=OUTPUT_PATH, required=True, help="The savegame to write (.tsvg).")
@click.option("--triplea", type=NativePath(path_type=Path), help="The TripleA 2.x installation (folder or jar); default: the one found where TripleA installs.")
@click.option(
    "--base-name",
    is_flag=True,
    help="Name the save as its base game (e.g. 'World War II v3 1941'), so a lobby bot with that map installed accepts it; TripleA 2.7 then shows the base game's name and notes, so share the Kremlin notes with the players.",
)
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists.")
@click.pass_context
def save_command(ctx: click.Context, game_spec: str, output: Path, triplea: Path | None, base_name: bool, force: bool) -> None:
    """Write GAME (a path, or MAP/GAME) as a savegame TripleA 2.x loads, e.g. to upload to a lobby bot.

    The save is written by TripleA itself (a save loads only in a TripleA like the one that wrote it), loaded
    back and compared with GAME (owners, units, PUs, game name, round 1); exit 1 and nothing written otherwise.
    """
    from kremlin_triplea.gamefile.locate import resolve_game

    game = resolve_game(game_spec, _maps_dir(ctx))
    if not base_name:
        from kremlin_triplea.game import load

        write_checked_savegame(game, output, triplea, force)
        warning = lobby_warning(load(game).board.game_name, _maps_dir(ctx))
        if warning:
            warn(warning)
        return
    from kremlin_triplea.game import load
    from kremlin_triplea.gamefile.safe import scratch_folder
    from kremlin_triplea.model.changes import SetGameName

    loaded = load(game)
    base = recorded_base_game(loaded.board, game)
    # A 2.7 bot accepts an uploaded save only if its game name is listed in an installed map.yml
    # (InstalledMapsListing.hasGame): the base game's name is, the Kremlin game's own name is not.
    loaded.board.push(SetGameName(base.game))
    with scratch_folder("save") as folder:
        write_checked_savegame(loaded.save(folder / game.name), output, triplea, force, protect=(game,))
    click.echo(f"the save is named {base.game!r}, as its base game, for a lobby bot with map {base.map!r} installed")
    maps = _maps_dir(ctx)
    if maps.is_dir():
        from kremlin_triplea.engine.savegame import bot_accepts
        from kremlin_triplea.gamefile.installation import find_installation

        with scratch_folder("save") as folder:
            verdict = bot_accepts(loaded.save(folder / game.name), maps, triplea=triplea)
        engine = find_installation(triplea).found
        who = f"a TripleA {engine.version if engine else '2.x'} bot with the maps of {maps}"
        click.echo(f"{who} accepts it" if all(verdict.values()) else f"{who} would refuse it: {verdict}")


def write_checked_savegame(game: Path, savegame: Path, triplea: Path | None, force: bool, *, protect: tuple[Path, ...] = ()) -> None:
    """Write ``savegame`` from ``game`` with TripleA 2.x; refused (exit 1, nothing written) unless it loads back as written.

    Never over ``game`` nor ``protect`` (the input, when ``game`` is a renamed copy of it in a scratch folder).
    """
    from kremlin_triplea.engine.savegame import write_savegame

    report = write_savegame(game, savegame, triplea=triplea, overwrite=force, protect=protect)
    if not report.ok:
        raise report.refusal(savegame)
    click.echo(f"wrote {report.save} with {report.engine}; it loads back as the game was written")


def recorded_base_game(board, where: Path | str):  # noqa: ANN001, ANN201 - model.board.Board, gamefile.provenance.BaseRecord
    """The base game a written game's notes record (``--base-name``); refused for a game this tool did not write."""
    from kremlin_triplea.errors import InputError
    from kremlin_triplea.gamefile.provenance import recorded_base

    base = recorded_base(board.properties.get("notes", ""))
    if base is None or not base.game:
        raise InputError("--base-name: the game does not record its base game (only games this tool wrote do)", where=str(where))
    return base


def lobby_warning(game_name: str, maps_dir: Path) -> str | None:
    """One line when a lobby bot would not list a save of ``game_name``, with the fix; None when it would.

    A 2.7 bot accepts an uploaded save only if its game name is listed in one of its maps' map.yml
    (InstalledMapsListing.hasGame, ../shared/triplea-engine-2.7/README.md). A bot has the maps as TripleA publishes
    them: a name only the host's map.yml lists (a game this tool installed there) is not among them.
    """
    from kremlin_triplea.errors import InputError
    from kremlin_triplea.gamefile.install import installed_games
    from kremlin_triplea.gamefile.locate import installed_maps

    try:
        ours = {g.game_name for g in installed_games(maps_dir, broken=[])}
        published = {entry.game_name for folder in installed_maps(maps_dir) for entry in folder.games} - ours
    except InputError:  # no maps folder: no game name is known to be published
        published = set()
    if game_name in published:
        return None
    return (
        f"a lobby bot will not list this save: its game name {game_name!r} is none of a published map's games; to upload it to a bot, write it with --base-name"
    )

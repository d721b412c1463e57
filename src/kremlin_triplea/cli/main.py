"""The ``kremlin-triplea`` command line.

Each command is a thin layer over the library: it resolves names, calls one
library function and prints the result. User errors (``KremlinError``) are
printed as one line with a non-zero exit; tracebacks only with ``--debug``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from kremlin_triplea.errors import KremlinError
from kremlin_triplea.gamefile.locate import MAPS_DIR_VARIABLE, default_maps_dir, installed_maps

F = TypeVar("F", bound=Callable[..., Any])


class _Group(click.Group):
    """Turns a ``KremlinError`` into one line on stderr and its exit status."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KremlinError as error:
            if ctx.meta.get("debug"):
                raise
            click.echo(f"kremlin-triplea: error: {error}", err=True)
            sys.exit(error.exit_code)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--maps-dir",
    type=click.Path(path_type=Path, file_okay=False),
    envvar=MAPS_DIR_VARIABLE,
    help=f"TripleA's downloadedMaps folder (default: ${MAPS_DIR_VARIABLE}, else ~/Documents/triplea or ~/triplea).",
)
@click.option("--debug", is_flag=True, help="Show tracebacks.")
@click.version_option(package_name="kremlin-triplea")
@click.pass_context
def main(ctx: click.Context, maps_dir: Path | None, debug: bool) -> None:
    """Kremlin bonus options, scenarios, house rules and bids for TripleA games."""
    ctx.ensure_object(dict)
    ctx.obj["maps_dir"] = maps_dir
    ctx.meta["debug"] = debug


def _maps_dir(ctx: click.Context) -> Path:
    return default_maps_dir(ctx.obj.get("maps_dir"))


@main.command("maps")
@click.pass_context
def maps_command(ctx: click.Context) -> None:
    """List installed maps and their games."""
    folder = _maps_dir(ctx)
    maps = installed_maps(folder)
    if not maps:
        click.echo(f"no maps in {folder}")
        return
    for map_folder in maps:
        click.echo(f"{map_folder.name}  ({map_folder.folder})")
        for game in map_folder.games:
            missing = "" if game.path.is_file() else "  [file missing]"
            click.echo(f"  {game.key:<48} {game.game_name}{missing}")


@main.command("show")
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.pass_context
def show_command(ctx: click.Context, game: str, as_json: bool) -> None:
    """Summarise GAME: a path, or MAP/GAME from the maps folder."""
    from kremlin_triplea.game import load
    from kremlin_triplea.report.summary import summary_data, summary_text

    loaded = load(game, maps_dir=_maps_dir(ctx))
    if as_json:
        click.echo(json.dumps(summary_data(loaded.board, loaded.name), indent=2, sort_keys=False))
    else:
        click.echo(summary_text(loaded.board, loaded.name), nl=False)


@main.command("validate")
@click.argument("game")
@click.option("--dtd", type=click.Path(path_type=Path, dir_okay=False, exists=True), help="TripleA's game.dtd.")
@click.pass_context
def validate_command(ctx: click.Context, game: str, dtd: Path | None) -> None:
    """Report what would make TripleA fail or misread GAME (exit 1 if anything)."""
    from kremlin_triplea.gamefile.document import XmlDocument
    from kremlin_triplea.gamefile.locate import resolve_game
    from kremlin_triplea.check.validate import validate_tree

    path = resolve_game(game, _maps_dir(ctx))
    document = XmlDocument.read(path)
    problems = validate_tree(document.root, str(path), dtd=dtd)
    for problem in problems:
        click.echo(str(problem))
    if problems:
        click.echo(f"{len(problems)} problem{'s' if len(problems) != 1 else ''} in {path}", err=True)
        sys.exit(1)
    click.echo(f"{path}: valid")


@main.command("apply")
@click.argument("draft", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--game", "game_spec", help="The base game (a path, or MAP/GAME); overrides the draft's `game`.")
@click.option("-o", "--output", type=click.Path(path_type=Path, dir_okay=False), help="Where to write the game.")
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists.")
@click.option("--install", is_flag=True, help="Also install the game into its map in the TripleA maps folder (map.yml entry, .notes.html beside it).")
@click.pass_context
def apply_command(ctx: click.Context, draft: Path, game_spec: str | None, output: Path | None, force: bool, install: bool) -> None:
    """Check DRAFT pick by pick and write the game with all of it applied.

    On the first pick that breaks a rule, print the pick, the rule (quoted) and
    why, write nothing and exit 1.
    """
    from kremlin_triplea.errors import InputError
    from kremlin_triplea.draft.run import apply_draft, read_draft

    if output is None and not install:
        raise InputError("say where the game goes: -o FILE, --install, or both")
    result = apply_draft(read_draft(draft), game_spec=game_spec, maps_dir=_maps_dir(ctx))
    for warning in result.warnings:
        click.echo(f"kremlin-triplea: warning: {warning}", err=True)
    installed = None
    if install:
        from kremlin_triplea.gamefile.install import install_written_game

        # Installing first settles the game's name (unique in its map), so a file written with -o matches it.
        installed = install_written_game(result.game, _maps_dir(ctx))
    written = result.game.save(output, overwrite=force) if output is not None else None
    for line in result.summary():
        click.echo(line)
    if written is not None:
        click.echo(f"wrote {written}")
    if installed is not None:
        click.echo(f"installed {installed.game_name!r}: {installed.game_file} (notes {installed.notes_file}), listed in {installed.map_yml}")


@main.command("options")
@click.option("--ruleset", "ruleset_name", default="kremlin-aa50", show_default=True, help="A ruleset id (rulesets/<id>.toml) or a path.")
def options_command(ruleset_name: str) -> None:
    """List a ruleset's bonus options and their rules."""
    from kremlin_triplea.rules.ruleset import load_named_ruleset
    from kremlin_triplea.report.text import ruleset_text

    click.echo(ruleset_text(load_named_ruleset(ruleset_name)), nl=False)


@main.command("legal")
@click.argument("draft", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--game", "game_spec", help="The base game (a path, or MAP/GAME); overrides the draft's `game`.")
@click.pass_context
def legal_command(ctx: click.Context, draft: Path, game_spec: str | None) -> None:
    """Every legal choice for the next pick of DRAFT, given its picks so far."""
    from kremlin_triplea.draft.run import DraftRun, open_game, read_draft
    from kremlin_triplea.draft.legal import describe, legal_choices

    parsed = read_draft(draft)
    run = DraftRun(parsed, open_game(parsed, game_spec, _maps_dir(ctx)))
    for warning in run.warnings:
        click.echo(f"kremlin-triplea: warning: {warning}", err=True)
    run.apply_picks()
    for line in describe(legal_choices(run)):
        click.echo(line)


def _register_map_maker_commands() -> None:
    # Kept in their own module (issue 7): matrix, profile new, profile check.
    from kremlin_triplea.cli.matrix import matrix_command, profile_group

    main.add_command(matrix_command)
    main.add_command(profile_group)


_register_map_maker_commands()


def _register_assistant_commands() -> None:
    # Kept in their own module (issue 8): value, render, draft.
    from kremlin_triplea.cli.assistant import draft_command, render_command, value_command

    main.add_command(value_command)
    main.add_command(render_command)
    main.add_command(draft_command)


_register_assistant_commands()


def _register_verify_command() -> None:
    # Kept in its own module (issue 4): verify [--engine].
    from kremlin_triplea.cli.verify import verify_command

    main.add_command(verify_command)


_register_verify_command()


def _register_house_command() -> None:
    # Kept in its own module (issue 6): house.
    from kremlin_triplea.cli.house import house_command

    main.add_command(house_command)


_register_house_command()


def _register_serve_command() -> None:
    # Kept in its own module (issue 18): serve, the draft room in the browser.
    from kremlin_triplea.cli.serve import serve_command

    main.add_command(serve_command)


_register_serve_command()

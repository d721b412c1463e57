"""The ``kremlin-triplea`` command line.

Each command is a thin layer over the library: it resolves names, calls one
library function and prints the result. User errors (``KremlinError``) are
printed as one line with a non-zero exit; tracebacks only with ``--debug``.

Commands import the library inside their bodies (elsewhere only heavy or
optional parts are imported so: yaml for map.yml, the engine's child process):
``--help`` or a mistyped option answers without loading lxml, networkx and
the rules (``scripts/bench_matrix.py`` prints the import time of this module
against bare Python).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from kremlin_triplea.cli.common import maps_dir as _maps_dir
from kremlin_triplea.cli.common import profile_option
from kremlin_triplea.cli.output import OUTPUT_PATH
from kremlin_triplea.errors import KremlinError
from kremlin_triplea.gamefile.locate import MAPS_DIR_VARIABLE, scan_maps

F = TypeVar("F", bound=Callable[..., Any])


#: Commands defined in their own modules, imported when they run or are listed: `apply` does not pay for the
#: imports of the draft room, the assistant or the matrix (python-chess's variants, found through a registry).
LAZY_COMMANDS = {
    "draft": "kremlin_triplea.cli.assistant:draft_command",
    "save": "kremlin_triplea.cli.save:save_command",
    "house": "kremlin_triplea.cli.house:house_command",
    "installed": "kremlin_triplea.cli.install:installed_command",
    "matrix": "kremlin_triplea.cli.matrix:matrix_command",
    "profile": "kremlin_triplea.cli.matrix:profile_group",
    "render": "kremlin_triplea.cli.assistant:render_command",
    "serve": "kremlin_triplea.cli.serve:serve_command",
    "uninstall": "kremlin_triplea.cli.install:uninstall_command",
    "value": "kremlin_triplea.cli.assistant:value_command",
    "verify": "kremlin_triplea.cli.verify:verify_command",
}


class _Group(click.Group):
    """Turns a ``KremlinError`` into one line on stderr and its exit status; loads :data:`LAZY_COMMANDS` on use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *LAZY_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is None and cmd_name in LAZY_COMMANDS:
            module, name = LAZY_COMMANDS[cmd_name].split(":")
            command = getattr(importlib.import_module(module), name)
            self.add_command(command, cmd_name)
        return None if command is None else _with_global_options(command)

    def invoke(self, ctx: click.Context) -> Any:
        _terminate_like_interrupt()
        try:
            return super().invoke(ctx)
        except KremlinError as error:
            if ctx.meta.get("debug"):
                raise
            click.echo(f"kremlin-triplea: error: {error}", err=True)
            sys.exit(error.exit_code)
        except BrokenPipeError:
            # The reader of our output went away (`kremlin-triplea show ... | head`): stop quietly, as a shell tool
            # does on SIGPIPE, and keep Python from reporting the flush at exit. Output files are whole or untouched.
            with contextlib.suppress(OSError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(128 + signal.SIGPIPE)
        except OSError as error:
            # A file the library did not wrap (it should): still one line and the bad-input status, not a traceback.
            if ctx.meta.get("debug"):
                raise
            where = f"{error.filename}: " if error.filename else ""
            click.echo(f"kremlin-triplea: error: {where}{error.strerror or error}", err=True)
            sys.exit(2)
        except (KeyboardInterrupt, click.exceptions.Abort) as interrupt:
            # Temporary files were removed on the way out; outputs are whole or untouched.
            number = getattr(interrupt, "signal_number", signal.SIGINT)
            click.echo(f"kremlin-triplea: interrupted ({signal.Signals(number).name}); nothing was left half-written", err=True)
            sys.exit(128 + number)


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like SIGINT's KeyboardInterrupt so every write cleans up its temporary file."""

    signal_number = signal.SIGTERM


def _raise_terminated(_signal: int, _frame: object) -> None:
    raise Terminated()


def _terminate_like_interrupt() -> None:
    with contextlib.suppress(ValueError):  # only the main thread may set handlers (tests call the CLI from threads)
        signal.signal(signal.SIGTERM, _raise_terminated)


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


@main.command("maps")
@click.pass_context
def maps_command(ctx: click.Context) -> None:
    """List installed maps and their games."""
    folder = _maps_dir(ctx)
    maps, broken = scan_maps(folder)
    for error in broken:  # listed all the same: the others are fine
        click.echo(f"kremlin-triplea: warning: {error}; this map is left out", err=True)
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
@click.option("--strict", is_flag=True, help="Count warnings (what TripleA accepts and ignores) as errors.")
@click.option(
    "--engine",
    type=click.Choice(["2", "1.9"]),
    default="2",
    show_default=True,
    help="The TripleA that judges: 2 (as 2.7 parses) or 1.9. What only the other cannot read is a note.",
)
@click.pass_context
def validate_command(ctx: click.Context, game: str, dtd: Path | None, strict: bool, engine: str) -> None:
    """Report what would make TripleA refuse or misread GAME (exit 1 on an error).

    Warnings (what TripleA accepts and ignores: a connection or an attachment
    given twice) are shown but pass, unless --strict. Notes (what the other
    TripleA cannot read, each way GAME breaks game.dtd, one line per kind)
    never fail.
    """
    from kremlin_triplea.check.validate import errors, validate_tree
    from kremlin_triplea.gamefile.document import XmlDocument
    from kremlin_triplea.gamefile.locate import resolve_game

    path = resolve_game(game, _maps_dir(ctx))
    document = XmlDocument.read(path)
    problems = validate_tree(document.root, str(path), dtd=dtd, engine=engine)
    for problem in problems:
        click.echo(str(problem))
    failing = errors(problems, strict=strict)
    warnings = sum(p.severity == "warning" for p in problems)
    notes = sum(p.severity == "note" for p in problems)
    counted = ", ".join(_count(n, kind) for n, kind in ((warnings, "warning"), (notes, "note")) if n)
    judge = f"TripleA {engine}" if engine != "2" else "TripleA 2.x"
    if failing:
        strictly = " (--strict: warnings count as errors)" if strict and warnings else ""
        click.echo(
            f"{', '.join([_count(sum(p.is_error for p in problems), 'error'), *([counted] if counted else [])])}{strictly} in {path} for {judge}", err=True
        )
        sys.exit(1)
    click.echo(f"{path}: valid for {judge}" + (f" ({counted})" if warnings or notes else ""))


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


@main.command("apply")
@click.argument("draft", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--game", "game_spec", help="The base game (a path, or MAP/GAME); overrides the draft's `game`.")
@click.option("-o", "--output", type=OUTPUT_PATH, help="Where to write the game (a file name; never one of the inputs).")
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists, and with --install a game of the same name that this tool installed.")
@click.option("--install", is_flag=True, help="Also install the game into its map in the TripleA maps folder (map.yml entry, .notes.html beside it).")
@click.option("--name", "install_name", help='With --install: the name TripleA lists (default: "<ruleset> — <player> v <player> <date>").')
@click.option("--savegame", type=OUTPUT_PATH, help="Also write a savegame (.tsvg) with TripleA 2.x, loaded back to check it (see `save`).")
@click.option("--triplea", type=click.Path(path_type=Path), help="With --savegame: the TripleA 2.x installation (folder or jar) that writes it.")
@click.pass_context
@profile_option
def apply_command(
    ctx: click.Context,
    draft: Path,
    game_spec: str | None,
    output: Path | None,
    force: bool,
    install: bool,
    install_name: str | None,
    savegame: Path | None,
    triplea: Path | None,
) -> None:
    """Check DRAFT pick by pick and write the game with all of it applied.

    On the first pick that breaks a rule, print the pick, the rule (quoted) and
    why, write nothing and exit 1.
    """
    from kremlin_triplea.check.gate import check_base_game, check_written_game
    from kremlin_triplea.draft.run import apply_draft, game_path, read_draft
    from kremlin_triplea.errors import InputError
    from kremlin_triplea.game import Game
    from kremlin_triplea.gamefile.document import XmlDocument
    from kremlin_triplea.gamefile.safe import check_output
    from kremlin_triplea.report.notes import add_notes

    if output is None and not install and savegame is None:
        raise InputError("say where the game goes: -o FILE, --install, --savegame FILE, or several")
    if install_name is not None and not install:
        raise InputError("--name names the installed game: use it with --install")
    parsed = read_draft(draft)
    for path in (output, savegame):
        if path is not None:
            check_output(path, overwrite=force, protect=(draft,))  # before the work, and again before writing
    # A base game TripleA refuses or misreads is refused before any work, in validate's words.
    base = XmlDocument.read(game_path(parsed, game_spec, _maps_dir(ctx)))
    check_base_game(base.root, base.source)
    result = add_notes(apply_draft(parsed, Game(base), maps_dir=_maps_dir(ctx)))
    # And the game made is checked before any copy of it is kept (file, install or savegame).
    check_written_game(result.game.to_bytes(), output or result.game.source)
    for warning in result.warnings:
        click.echo(f"kremlin-triplea: warning: {warning}", err=True)
    inputs = _inputs_of(draft, result)
    installed = None
    if install:
        from kremlin_triplea.gamefile.install import check_install, uninstall_game
        from kremlin_triplea.report.notes import install_name as default_install_name

        name = install_name if install_name is not None else default_install_name(result)
        # Nothing is changed unless everything can be: the output and the install are checked before either is written.
        if output is not None:
            check_output(output, overwrite=force, protect=inputs)
        check_install(result.game.map_folder(_maps_dir(ctx)), name, force=force)
        installed = result.game.install(_maps_dir(ctx), name=name, force=force, protect=inputs)
    try:
        written = result.game.save(output, overwrite=force, protect=inputs) if output is not None else None
    except BaseException:
        if installed is not None and not installed.replaced:
            uninstall_game(_maps_dir(ctx), f"{installed.map_name}/{installed.game_name}")
        raise
    for line in result.summary():
        click.echo(line)
    if written is not None:
        click.echo(f"wrote {written}")
    if installed is not None:
        verb = "replaced" if installed.replaced else "installed"
        click.echo(f"{verb} {installed.game_name!r}: {installed.game_file} (notes {installed.notes_file}), listed in {installed.map_yml}")
    if savegame is not None:
        import tempfile

        with tempfile.TemporaryDirectory(prefix="kremlin-apply-") as folder:
            source = written or (installed.game_file if installed is not None else result.game.save(Path(folder) / "game.xml"))
            from kremlin_triplea.cli.save import write_checked_savegame

            write_checked_savegame(source, savegame, triplea, force)


def _inputs_of(draft: Path, result: Any) -> tuple[Path, ...]:
    """Every file the command read: none of them is ever written over."""
    paths = [draft, Path(result.game.source)]
    for part in ("ruleset", "profile"):
        path = getattr(getattr(result, part, None), "path", None)
        if path:
            paths.append(Path(path))
    return tuple(paths)


@main.command("options")
@click.option("--ruleset", "ruleset_name", default="kremlin-aa50", show_default=True, help="A ruleset or house-rule set id (rulesets/<id>.toml) or a path.")
def options_command(ruleset_name: str) -> None:
    """List a ruleset's bonus options and their rules, or a house-rule set's switches, advantages and rules."""
    from kremlin_triplea.draft.rulesets import load_named_ruleset
    from kremlin_triplea.report.text import house_set_text, ruleset_text
    from kremlin_triplea.rules.datafiles import check_file_kind, find_data_file, rule_file_kind
    from kremlin_triplea.rules.house_rules import load_house_set
    from kremlin_triplea.rules.tomlfile import read_toml

    path = find_data_file("rulesets", ruleset_name, where="--ruleset")
    check_file_kind(read_toml(path), path, "ruleset", "house")
    if rule_file_kind(path) == "house":
        click.echo(house_set_text(load_house_set(path)), nl=False)
        return
    click.echo(ruleset_text(load_named_ruleset(ruleset_name)), nl=False)


@main.command("legal")
@click.argument("draft", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--game", "game_spec", help="The base game (a path, or MAP/GAME); overrides the draft's `game`.")
@click.pass_context
@profile_option
def legal_command(ctx: click.Context, draft: Path, game_spec: str | None) -> None:
    """Every legal choice for the next pick of DRAFT, given its picks so far."""
    from kremlin_triplea.draft.legal import describe, legal_choices
    from kremlin_triplea.draft.run import DraftRun, open_game, read_draft

    parsed = read_draft(draft)
    run = DraftRun(parsed, open_game(parsed, game_spec, _maps_dir(ctx)))
    for warning in run.warnings:
        click.echo(f"kremlin-triplea: warning: {warning}", err=True)
    run.apply_picks()
    for line in describe(legal_choices(run)):
        click.echo(line)


# Commands kept in their own modules; they import cli.common, never this module.


def _set_maps_dir(ctx: click.Context, _param: click.Parameter, value: Path | None) -> None:
    if value is not None:
        ctx.find_root().obj["maps_dir"] = value


def _set_debug(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value:
        ctx.meta["debug"] = True  # meta is shared by every context of the invocation


def _with_global_options(command: click.Command) -> click.Command:
    """``command`` taking ``--maps-dir`` and ``--debug`` after its name too (``kremlin-triplea show --maps-dir D GAME``).

    Given there, they replace the ones given before the command name. Added
    when the command is looked up, so commands registered later get them too.
    """
    subcommands = list(command.commands.values()) if isinstance(command, click.Group) else []
    for each in [command, *subcommands]:
        names = {option for param in each.params for option in getattr(param, "opts", ())}
        if "--maps-dir" not in names:
            each.params.append(
                click.Option(
                    ["--maps-dir"],
                    type=click.Path(path_type=Path, file_okay=False),
                    expose_value=False,
                    is_eager=True,
                    callback=_set_maps_dir,
                    help="TripleA's downloadedMaps folder (as before the command name).",
                )
            )
        if "--debug" not in names:
            each.params.append(click.Option(["--debug"], is_flag=True, expose_value=False, is_eager=True, callback=_set_debug, help="Show tracebacks."))
        if isinstance(each, click.Group) and each is not command:
            _with_global_options(each)
    return command

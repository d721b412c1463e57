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
from typing import Any, NoReturn, TypeVar

import click

from kremlin_triplea.cli.common import EnvironmentOption, NativePath, one_line, profile_option, warn
from kremlin_triplea.cli.common import maps_dir as _maps_dir
from kremlin_triplea.cli.output import OUTPUT_PATH
from kremlin_triplea.errors import KremlinError
from kremlin_triplea.gamefile.locate import MAPS_DIR_VARIABLE, maps_without_yml, scan_maps

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
    "validate": "kremlin_triplea.cli.validate:validate_command",
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

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None, **extra: Any) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as error:  # a wrong option before the command's name (--maps-dir FILE)
            _usage_error(error)

    def invoke(self, ctx: click.Context) -> Any:
        _terminate_like_interrupt()
        _tolerant_console()
        try:
            return super().invoke(ctx)
        except click.UsageError as error:  # the command's own options and arguments, as parsed by click
            _usage_error(error)
        except KremlinError as error:
            if ctx.meta.get("debug"):
                raise
            click.echo(f"kremlin-triplea: error: {one_line(str(error))}", err=True)
            sys.exit(error.exit_code)
        except BrokenPipeError:
            # The reader of our output went away (`kremlin-triplea show ... | head`): stop quietly, as a shell tool
            # does on SIGPIPE, and keep Python from reporting the flush at exit. Output files are whole or untouched.
            with contextlib.suppress(OSError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(BROKEN_PIPE_STATUS)
        except OSError as error:
            # A file the library did not wrap (it should): still one line and the bad-input status, not a traceback.
            if ctx.meta.get("debug"):
                raise
            where = f"{error.filename}: " if error.filename else ""
            click.echo(f"kremlin-triplea: error: {one_line(f'{where}{error.strerror or error}')}", err=True)
            sys.exit(2)
        except (KeyboardInterrupt, click.exceptions.Abort) as interrupt:
            # Temporary files were removed on the way out; outputs are whole or untouched.
            number = getattr(interrupt, "signal_number", signal.SIGINT)
            click.echo(f"kremlin-triplea: interrupted ({signal.Signals(number).name}); nothing was left half-written", err=True)
            sys.exit(128 + number)


#: The status a shell gives a command its reader left (128 + SIGPIPE); Windows has no SIGPIPE, the number is POSIX's.
BROKEN_PIPE_STATUS = 128 + getattr(signal, "SIGPIPE", 13)


def _tolerant_console() -> None:
    """Never fail on a character the console cannot show: replace it (``?``) instead of a UnicodeEncodeError.

    Output goes out in the console's encoding. On Windows with output redirected or piped that is the ANSI code
    page (cp1252, cp932 in Japan), which has no "Ł" and, for cp932, no em-dash (in the default game names); a
    command that had already installed a game then ended in a traceback. UTF-8 consoles are unchanged, but for
    names that are not text at all (undecodable bytes in a file name), which are replaced too.
    """
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", "strict") in ("strict", "surrogateescape"):
            with contextlib.suppress(ValueError, OSError):  # a stream already written through may refuse
                reconfigure(errors="replace")


def _usage_error(error: click.UsageError) -> NoReturn:
    """A wrong option or argument: one line and exit 2, with the command to ask for help (click's own is three).

    A group named without a command is not a mistake to report in one line: click shows its help.
    """
    if isinstance(error, getattr(click.exceptions, "NoArgsIsHelpError", ())):  # click 8.2 on; 8.1 exits itself
        raise error
    command = error.ctx.command_path if error.ctx is not None else "kremlin-triplea"
    click.echo(f"kremlin-triplea: error: {one_line(error.format_message().rstrip('.'))} (see `{command} --help`)", err=True)
    sys.exit(error.exit_code)


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
    cls=EnvironmentOption,
    type=NativePath(path_type=Path, file_okay=False),
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
        warn(f"{error}; this map is left out")
    without_yml = maps_without_yml(folder)  # TripleA 2.7 lists them too, with the map.yml it writes for them
    if not maps and not without_yml:
        click.echo(f"no maps in {folder}")
        return
    for map_folder in [*maps, *without_yml]:
        note = "; no map.yml: its games as TripleA finds them" if map_folder in without_yml else ""
        click.echo(f"{map_folder.name}  ({map_folder.folder}{note})")
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


@main.command("apply")
@click.argument("draft", type=NativePath(path_type=Path, dir_okay=False))
@click.option("--game", "game_spec", help="The base game (a path, or MAP/GAME); overrides the draft's `game`.")
@click.option("-o", "--output", type=OUTPUT_PATH, help="Where to write the game (a file name; never one of the inputs).")
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists, and with --install a game of the same name that this tool installed.")
@click.option("--install", is_flag=True, help="Also install the game into its map in the TripleA maps folder (map.yml entry, .notes.html beside it).")
@click.option(
    "--name",
    "install_name",
    help='With --install: the name TripleA lists (default: "<base game> Kremlin - <player> v <player> <date>", the sides for players the draft does not name).',
)
@click.option("--savegame", type=OUTPUT_PATH, help="Also write a savegame (.tsvg) with TripleA 2.x, loaded back to check it (see `save`).")
@click.option("--triplea", type=NativePath(path_type=Path), help="With --savegame: the TripleA 2.x installation (folder or jar) that writes it.")
@click.option(
    "--base-name",
    is_flag=True,
    help="With --savegame: name the save as its base game, so a lobby bot with that map installed lists it (see `save --base-name`).",
)
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
    base_name: bool,
    profile,
) -> None:
    """Check DRAFT pick by pick and write the game with all of it applied.

    On the first pick that breaks a rule, print the pick, the rule (quoted) and
    why, write nothing and exit 1.
    """
    from kremlin_triplea.check.gate import check_base_game
    from kremlin_triplea.draft.run import game_path, read_draft
    from kremlin_triplea.errors import InputError
    from kremlin_triplea.game import Game
    from kremlin_triplea.gamefile.document import XmlDocument
    from kremlin_triplea.gamefile.safe import check_output
    from kremlin_triplea.session import apply_draft

    if output is None and not install and savegame is None:
        raise InputError("say where the game goes: -o FILE, --install, --savegame FILE, or several")
    if install_name is not None and not install:
        raise InputError("--name names the installed game: use it with --install")
    if base_name and savegame is None:
        raise InputError("--base-name names the savegame: use it with --savegame")
    parsed = read_draft(draft)
    for path in (output, savegame):
        if path is not None:
            check_output(path, overwrite=force, protect=(draft,))  # before the work, and again before writing
    # A base game TripleA refuses or misreads is refused before any work, in validate's words.
    base = XmlDocument.read(game_path(parsed, game_spec, _maps_dir(ctx)))
    check_base_game(base)
    result = apply_draft(parsed, Game(base), maps_dir=_maps_dir(ctx), profile=profile)  # the writer below adds the notes
    for warning in result.warnings:
        warn(warning)
    from kremlin_triplea.cli.save import lobby_warning, recorded_base_game
    from kremlin_triplea.report.notes import add_notes
    from kremlin_triplea.tools.outputs import write_apply_outputs

    save_name = recorded_base_game(add_notes(result).game.board, draft).game if base_name else None
    written = write_apply_outputs(
        result,
        maps_dir=_maps_dir(ctx),
        output=output,
        savegame=savegame,
        install=install,
        install_name=install_name,
        force=force,
        triplea=triplea,
        inputs=_inputs_of(draft, result),
        save_name=save_name,
    )
    for line in result.summary():
        click.echo(line)
    for line in written:
        click.echo(line)
    if savegame is not None:
        warning = lobby_warning(save_name or result.game.board.game_name, _maps_dir(ctx))
        if warning:
            warn(warning)


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
@click.argument("draft", type=NativePath(path_type=Path, dir_okay=False))
@click.option("--game", "game_spec", help="The base game (a path, or MAP/GAME); overrides the draft's `game`.")
@click.pass_context
@profile_option
def legal_command(ctx: click.Context, draft: Path, game_spec: str | None, profile) -> None:
    """Every legal choice for the next pick of DRAFT, given its picks so far."""
    from kremlin_triplea.check.gate import check_base_game
    from kremlin_triplea.draft.legal import describe
    from kremlin_triplea.session import Session

    # The draft's steps pushed onto a session as apply pushes them; the next pick is asked about, so a bid that
    # cannot be taken yet (or no longer) is set aside, not the answer.
    session = Session.open(draft, game_spec=game_spec, maps_dir=_maps_dir(ctx), profile=profile, set_bid_aside=True)
    check_base_game(session.game.document)  # no choice is legal on a base game apply refuses
    for warning in session.warnings:
        warn(warning)
    for line in describe(session.next_pick()):
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
                    type=NativePath(path_type=Path, file_okay=False),
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

"""The draft assistant's commands (issue 8): value, render, draft.

Kept out of cli.py so the shared command module only registers them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from kremlin_triplea.cli.common import FiniteFloatRange, NativePath, profile_option, warn
from kremlin_triplea.cli.common import maps_dir as _maps_dir
from kremlin_triplea.cli.output import OUTPUT_PATH

if TYPE_CHECKING:
    from kremlin_triplea.session import Session


@click.command("value")
@click.argument("draft", type=NativePath(path_type=Path, dir_okay=False))
@click.option("--game", "game_spec", help="The base game (a path, or MAP/GAME); overrides the draft's `game`.")
@click.option("--json", "as_json", is_flag=True, help="Print the values as JSON.")
@click.pass_context
@profile_option
def value_command(ctx: click.Context, draft: Path, game_spec: str | None, as_json: bool, profile) -> None:
    """What each pick of DRAFT is worth in IPCs, per side, with running totals.

    The draft may be unfinished: its picks so far are valued.
    """
    from kremlin_triplea.report.value import value_draft

    values = value_draft(draft, game_spec=game_spec, maps_dir=_maps_dir(ctx), profile=profile)
    if as_json:
        click.echo(json.dumps(values.as_data(), indent=2))
        return
    for line in values.lines():
        click.echo(line)


@click.command("render")
@click.argument("game")
@click.option(
    "--base",
    "base_spec",
    help="The game to compare with (a path, or MAP/GAME); what differs is outlined. Default: a draft's own game, or the base game a written game's notes record.",
)
@click.option("--no-base", is_flag=True, help="Compare with nothing: draw the board only.")
@click.option("--draft", "draft_path", type=NativePath(path_type=Path, dir_okay=False), help="A draft whose picks and values make the legend.")
@click.option(
    "--map-dir",
    type=NativePath(path_type=Path, file_okay=False, exists=True),
    help="The folder with the map's polygons.txt and centers.txt (default: found from the game's mapName).",
)
@click.option("-o", "--output", type=OUTPUT_PATH, required=True, help="FILE.svg or FILE.png.")
@click.option("--scale", type=FiniteFloatRange(0.05, 4), default=0.5, show_default=True, help="Size of a PNG relative to the map's pixels.")
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists.")
@click.pass_context
@profile_option
def render_command(
    ctx: click.Context,
    game: str,
    base_spec: str | None,
    no_base: bool,
    draft_path: Path | None,
    map_dir: Path | None,
    output: Path,
    scale: float,
    force: bool,
    profile,
) -> None:
    """Draw GAME's board: owners' colours, what changed since BASE outlined and labelled.

    GAME may also be a draft (.toml): it is applied in memory, compared with its
    own game, and its picks make the legend.
    """
    from kremlin_triplea.errors import KremlinError, and_more
    from kremlin_triplea.game import load
    from kremlin_triplea.gamefile.locate import resolve_game
    from kremlin_triplea.gamefile.provenance import find_recorded_base, recorded_base
    from kremlin_triplea.report.render import find_map_folder, read_map_art, render_svg, write_picture

    if no_base and base_spec is not None:
        raise click.UsageError("--base and --no-base contradict each other")
    maps_dir = _maps_dir(ctx)
    base_path = resolve_game(base_spec, maps_dir) if base_spec is not None else None
    if game.lower().endswith(".toml"):
        if draft_path is not None:
            raise click.UsageError("GAME is already a draft; --draft is for a written game")
        board, base_board, game_path, legend = _draft_boards(Path(game), maps_dir, profile)
    else:
        game_path = resolve_game(game, maps_dir)
        board = load(game_path).board
        base_board, legend = None, None
        if draft_path is not None:
            base_from_draft, _, legend = _draft_boards(draft_path, maps_dir, profile)[1:]
            base_board = base_from_draft if base_spec is None else None
        elif base_spec is None and not no_base:
            record = recorded_base(board.properties.get("notes", ""))
            if record is not None:
                try:
                    base_path = find_recorded_base(record, game_path, maps_dir)
                except KremlinError as error:  # the picture is still worth drawing
                    warn(f"{error}; drawn without comparing")
                else:
                    base_board = load(base_path).board
    if base_path is not None and base_spec is not None:
        base_board = load(base_path).board
    if no_base:
        base_board = None
    folder = map_dir or find_map_folder(board, game_path, maps_dir, base_path=base_path)
    art = read_map_art(folder)
    unknown = board.unknown_names()  # drawn all the same: the picture shows what the file holds
    if unknown:
        warn(f"{game_path}: {unknown[0]}{and_more(unknown, '`kremlin-triplea validate` gives their lines')}")
    unmapped = sorted(set(board.nodes) - set(art.polygons))
    if unmapped:
        shown = ", ".join(unmapped[:10]) + (", ..." if len(unmapped) > 10 else "")
        warn(
            f"{len(unmapped)} place{'s' if len(unmapped) != 1 else ''} of the game {'have' if len(unmapped) != 1 else 'has'} no polygon in {folder}, not drawn: {shown}"
        )
    written = write_picture(render_svg(board, art, base_board, legend), output, overwrite=force, scale=scale)
    outlined = "nothing outlined (no base game)" if base_board is None else f"changes since {base_path or 'the base'} outlined"
    click.echo(f"wrote {written} (map {folder}; {outlined})")


def _draft_boards(path: Path, maps_dir: Path, profile):
    """A draft applied in memory: (its board, its base game's board, the base game file, its legend)."""
    from kremlin_triplea.draft.run import read_draft
    from kremlin_triplea.report.render import Legend
    from kremlin_triplea.report.value import value_result
    from kremlin_triplea.session import apply_draft

    draft = read_draft(path)
    result = apply_draft(draft, maps_dir=maps_dir, profile=profile)
    if draft.ruleset is None:  # house rules only: changes to outline, no picks to list
        return result.game.board, result.game.initial, result.game.source, None
    values = value_result(result)
    legend = Legend(f"{result.game.board.game_name}: {result.ruleset.title} ({path.name})", tuple((s, tuple(lines)) for s, lines in values.by_side()))
    return result.game.board, result.game.initial, result.game.source, legend


@click.command("draft")
@click.argument("draft_file", type=NativePath(path_type=Path, dir_okay=False), required=False)
@click.option("--resume", "resume", type=NativePath(path_type=Path, dir_okay=False, exists=True), help="Continue the draft in this file.")
@click.option("-o", "--output", type=OUTPUT_PATH, help="Where to write the game at the end (default: the draft file's name with .xml).")
@click.option("--force", is_flag=True, help="Replace an existing DRAFT_FILE (a new draft) or OUTPUT.")
@click.option("--install", is_flag=True, help="Also install the game into its map in the TripleA maps folder, as apply --install does.")
@click.option("--yes", "agreed", is_flag=True, help="Write the game at the end without asking (the preview is still shown).")
@click.pass_context
@profile_option
def draft_command(
    ctx: click.Context, draft_file: Path | None, resume: Path | None, output: Path | None, force: bool, install: bool, agreed: bool, profile
) -> None:
    """Make a draft interactively: two players at one keyboard, or a host relaying picks.

    Each turn offers only the options still legal for the side, then only legal
    targets. DRAFT_FILE is written after every pick (continue it with
    --resume DRAFT_FILE); at the end the bid is asked, the game previewed
    (summary and picture) and written once the host agrees.
    Commands at any question: undo, back, values, locks, board, help [OPTION], quit.
    """
    from kremlin_triplea.assistant.asking import QuitRequested
    from kremlin_triplea.assistant.session import Conversation
    from kremlin_triplea.assistant.setup import ask_setup
    from kremlin_triplea.assistant.terminal import terminal_for_stdin
    from kremlin_triplea.check.gate import check_base_game
    from kremlin_triplea.errors import InputError
    from kremlin_triplea.session import open_session
    from kremlin_triplea.tools.outputs import apply_file, finish_draft

    if (draft_file is None) == (resume is None):
        raise click.UsageError("name a new draft file, or --resume an existing one")
    maps_dir = _maps_dir(ctx)
    terminal = terminal_for_stdin()
    conversation = Conversation(None, terminal, _board_picture)
    path = resume or draft_file
    assert path is not None
    if resume is None and path.exists() and not force:
        raise InputError("already exists; continue it with --resume, or replace it with --force", where=str(path))
    try:
        if resume is not None:
            session, whole = _resumed(resume, maps_dir, profile, terminal)  # its steps pushed, with the file's own error messages
            # A saved bid stays in the file: it is offered as the default when the bid is asked.
            had_bid = session.bid is not None or session.bid_dropped is not None
            terminal.say(f"Resuming {resume}: {len(session.picks)} of {session.total_picks} picks made" + (", and a bid." if had_bid else "."))
        else:
            data, players = ask_setup(conversation, maps_dir, profile)
            session = open_session(path, data, maps_dir, players, profile, file_header=DRAFT_FILE_HEADER)
        check_base_game(session.game.document)  # as apply refuses it, before the players draft on it
        if resume is None or whole:  # a draft resumed short of its picks is left as it is until a pick is made again
            session.save()
        conversation.session = session
        conversation.run()
        if resume is None:
            # After the picks and the bid, as the room asks them and apply writes them: a house advantage is then
            # judged on the board it is written on (taken first, a later pick could make its place the enemy's).
            conversation.ask_house_rules()
    except (KeyboardInterrupt, EOFError, QuitRequested):
        _stopped(conversation, path)
        ctx.exit(130)
    output = output or path.with_suffix(".xml")
    result = apply_file(session.path, maps_dir=maps_dir, profile=profile)  # the draft file as saved, applied as apply applies it
    for line in result.summary():
        click.echo(line)
    click.echo(f"the picture: {_result_picture(session, result)}")
    try:
        agreed_output = (output, force) if agreed else conversation.confirm_output(output, force, install)
    except (KeyboardInterrupt, EOFError, QuitRequested):
        agreed_output = None
    if agreed_output is None:
        click.echo(f"the game is not written; the draft {path} is complete: `kremlin-triplea apply {path} -o {output}` writes it")
        return
    # The game and the install are written all or none, as `apply -o --install` writes them.
    lines = finish_draft(session.path, agreed_output[0], maps_dir=maps_dir, overwrite=agreed_output[1], install=install, result=result)
    for line in lines[len(result.summary()) :]:  # the summary was shown with the preview
        click.echo(line)
    click.echo(f"wrote the draft {path} and the game {agreed_output[0]}")


def _resumed(path: Path, maps_dir: Path, profile, terminal):  # noqa: ANN001, ANN202 - Profile, Terminal, Session (imported lazily)
    """The draft at ``path`` resumed, and whether with all of its picks; if the rules refuse one of its picks (a hand-edited file), resumed up to the
    first refused pick, which is asked again: the refusal is said, and the picks from it on leave the file when the
    first pick is made again."""
    from kremlin_triplea.errors import KremlinError
    from kremlin_triplea.rules.tomlfile import read_toml
    from kremlin_triplea.session import open_session

    try:
        return open_session(path, None, maps_dir, profile=profile, file_header=DRAFT_FILE_HEADER), True
    except KremlinError as refused:
        data = read_toml(path)  # a file that does not parse is refused by its own error, as before
        picks = data.get("pick")
        if not isinstance(picks, list) or not picks:
            raise
        header = {k: v for k, v in data.items() if k not in ("pick", "bid")}
        try:
            session = open_session(path, {**header, "pick": []}, maps_dir, profile=profile, file_header=DRAFT_FILE_HEADER)
        except KremlinError:
            raise refused from None  # not a pick's fault: the file's header
        for count in range(1, len(picks) + 1):  # the first pick the rules refuse, counting as the players do
            try:
                session = open_session(path, {**header, "pick": picks[:count]}, maps_dir, profile=profile, file_header=DRAFT_FILE_HEADER)
            except KremlinError as error:
                terminal.say(str(error))
                later = f"picks {count} to {len(picks)}" if count < len(picks) else f"pick {count}"
                terminal.say(
                    f"Resuming {path} up to pick {count}, asked again; {later}" + (" and the bid" if "bid" in data else "") + " leave the file when it is made."
                )
                return session, False
        raise


#: The comment the terminal draft's file starts with.
DRAFT_FILE_HEADER = "# Written by `kremlin-triplea draft` after every pick; continue with --resume.\n"


def _stopped(conversation, path: Path) -> None:  # noqa: ANN001 - assistant.session.Conversation (imported lazily)
    session = conversation.session
    click.echo("")
    if session is None:
        click.echo("stopped before the draft was set up; nothing written")
        return
    for line in session.undone_lines():
        click.echo(line)
    click.echo(f"stopped; the draft so far is in {path} (continue: kremlin-triplea draft --resume {path})")


def _result_picture(session: Session, result) -> str:  # noqa: ANN001 - draft.run.DraftResult
    """Draw the game the draft makes (picks and bid) beside the draft file; returns where."""
    from kremlin_triplea.report.render import Legend, find_map_folder, read_map_art, render_svg, write_picture
    from kremlin_triplea.report.value import value_result

    game = result.game
    values = value_result(result)
    legend = Legend(f"{game.board.game_name}: {result.ruleset.title} ({session.path.name})", tuple((s, tuple(lines)) for s, lines in values.by_side()))
    art = read_map_art(find_map_folder(game.board, game.source, session.maps_dir))
    return str(write_picture(render_svg(game.board, art, game.initial, legend), session.path.with_suffix(".svg"), overwrite=True))


def _board_picture(session: Session) -> str:
    """Draw the board as the picks left it, beside the draft file; returns where."""
    from kremlin_triplea.report.render import Legend, find_map_folder, read_map_art, render_svg, write_picture
    from kremlin_triplea.report.value import value_session

    game = session.game
    values = value_session(session)
    legend = Legend(f"{game.board.game_name}: {session.ruleset.title} ({session.path.name})", tuple((s, tuple(lines)) for s, lines in values.by_side()))
    art = read_map_art(find_map_folder(game.board, game.source, session.maps_dir))
    return str(write_picture(render_svg(game.board, art, game.initial, legend), session.path.with_suffix(".svg"), overwrite=True))

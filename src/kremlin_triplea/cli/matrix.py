"""Commands for map makers and CI: ``matrix``, ``profile new``, ``profile check`` (registered in cli.py)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from kremlin_triplea.cli.common import NativePath
from kremlin_triplea.cli.common import maps_dir as _maps_dir
from kremlin_triplea.cli.output import OUTPUT_PATH
from kremlin_triplea.errors import InputError
from kremlin_triplea.gamefile.locate import installed_maps, resolve_game
from kremlin_triplea.gamefile.safe import write_atomically


def _quiet() -> bool:
    """CI logs and pipes get no progress bar."""
    return os.environ.get("CI", "").lower() in ("1", "true", "yes") or not sys.stderr.isatty()


def _user_folder_games(folder: Path) -> list[Path]:
    """Every game of a TripleA user folder (or of its downloadedMaps folder)."""
    maps_dir = folder / "downloadedMaps" if (folder / "downloadedMaps").is_dir() else folder
    if not maps_dir.is_dir():
        raise InputError("not a TripleA user folder or downloadedMaps folder", where=str(folder))
    games = [g.path for m in installed_maps(maps_dir) for g in m.games if g.path.is_file()]
    if not games:
        raise InputError("no games found in its maps", where=str(maps_dir))
    return games


def _include_covered(given_games: list[Path], with_covered: bool, only_given: bool) -> bool:
    """Run the games the profiles pin: with no game given, or when asked to besides the given ones."""
    if only_given and with_covered:
        raise click.UsageError("--only-given and --with-covered contradict each other")
    return with_covered or not given_games


@click.command("matrix")
@click.option("--ruleset", "ruleset_names", multiple=True, help="A ruleset id or path (repeatable; default: every installed ruleset and house-rule set).")
@click.option("--game", "game_specs", multiple=True, help="A further game: a path or MAP/GAME (repeatable).")
@click.option("--user-folder", type=NativePath(path_type=Path, file_okay=False, exists=True), help="Every game of this TripleA user folder too.")
@click.option(
    "--with-covered", is_flag=True, help="With --game or --user-folder: also every game the map profiles pin (without them, those are the games run)."
)
@click.option("--only-given", is_flag=True, hidden=True, help="Kept for old scripts: the games given are now the only ones run unless --with-covered.")
@click.option(
    "--profile",
    "profile_paths",
    multiple=True,
    type=NativePath(path_type=Path, dir_okay=False, exists=True),
    help="A map profile for the games given (repeatable); before the installed ones.",
)
@click.option("--engine", is_flag=True, help="Also check that the real TripleA engine reads every written game the same (one JVM).")
@click.option("--samples", default=2, show_default=True, type=click.IntRange(0, 100), help="Random whole drafts per ruleset and game.")
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of the random drafts.")
@click.option("--json", "json_path", type=NativePath(path_type=Path, dir_okay=False), help="Write the matrix as JSON here ('-': stdout, instead of the table).")
@click.option("--junit", "junit_path", type=NativePath(path_type=Path, dir_okay=False), help="Write the matrix as JUnit XML here.")
@click.pass_context
def matrix_command(ctx, ruleset_names, game_specs, user_folder, with_covered, only_given, profile_paths, engine, samples, seed, json_path, junit_path) -> None:
    """Apply every option of every ruleset to every game it claims (and the games given); exit 1 on any failure.

    Given games (--game, --user-folder) are the only ones run, unless
    --with-covered. Each legal target of each option, each bid target and a seeded sample of
    whole drafts is applied from the initial board; every result must validate
    and read back to the board meant (and, with --engine, be read the same by
    TripleA).
    """
    from kremlin_triplea.draft.rulesets import load_named_ruleset
    from kremlin_triplea.tools.matrix import all_house_sets, all_rulesets, run_matrix
    from kremlin_triplea.tools.matrix_report import json_data, junit_xml, progress_printer, text_table

    maps_dir = _maps_dir(ctx)
    rulesets, broken = ([load_named_ruleset(n) for n in ruleset_names], []) if ruleset_names else all_rulesets()
    house_sets, broken_houses = ([], []) if ruleset_names else all_house_sets()
    games = [resolve_game(spec, maps_dir) for spec in game_specs]
    if user_folder is not None:
        games += _user_folder_games(user_folder)
    if engine:
        from kremlin_triplea.engine import engine_available, find_any_engine

        if not engine_available():
            raise InputError("the TripleA engine is not installed (apt-get install -y triplea default-jdk-headless)", where="--engine")
        # Which TripleA judges the games (the player's newest 2.x, else 1.9); on stderr, as --json - is stdout's.
        click.echo(f"engine: {find_any_engine().describe()}", err=True)
    from kremlin_triplea.rules.profile import load_profile

    report = run_matrix(
        rulesets,
        games,
        maps_dir=maps_dir,
        engine=engine,
        samples=samples,
        seed=seed,
        broken_rulesets=broken + broken_houses,
        house_sets=house_sets,
        include_covered=_include_covered(games, with_covered, only_given),
        progress=None if _quiet() else progress_printer(),
        given_profiles=[load_profile(p) for p in profile_paths],
    )
    data = json_data(report)
    if json_path is not None and str(json_path) == "-":
        click.echo(json.dumps(data, indent=2))
    else:
        click.echo(text_table(report), nl=False)
        if json_path is not None:
            write_atomically(json_path, (json.dumps(data, indent=2) + "\n").encode("utf-8"), overwrite=True)
    if junit_path is not None:
        write_atomically(junit_path, junit_xml(report), overwrite=True)
    if report.failed:
        sys.exit(1)


@click.group("profile")
def profile_group() -> None:
    """Write and check map profiles (maps/<map>.toml)."""


@profile_group.command("new")
@click.argument("game")
@click.option("--ruleset", "ruleset_names", multiple=True, help="The rulesets the profile is for (repeatable; default: every installed ruleset).")
@click.option("-o", "--output", type=OUTPUT_PATH, help="Write it here (default: stdout).")
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists.")
@click.pass_context
def profile_new_command(ctx, game, ruleset_names, output, force) -> None:
    """Start a map profile for GAME: every rule-text name the rulesets use, best matches marked REVIEW."""
    from kremlin_triplea.game import load
    from kremlin_triplea.tools.matrix import all_rulesets
    from kremlin_triplea.tools.place_evidence import shipped_known_places
    from kremlin_triplea.tools.profiles import new_profile
    from kremlin_triplea.tools.rule_names import load_rules

    maps_dir = _maps_dir(ctx)
    path = resolve_game(game, maps_dir)
    loaded = load(path)
    # A Kremlin ruleset or a house-rule set, as the profile's `rulesets` lists either (an unknown name is refused).
    rulesets = [load_rules(n) for n in ruleset_names] if ruleset_names else all_rulesets()[0]
    key = _game_key(game.replace("\\", "/"), path, output, maps_dir)  # MAP\GAME as on Windows is recorded as MAP/GAME
    drafted = new_profile(loaded, rulesets, key=key, known=shipped_known_places())
    fit = [r for r in rulesets if not any(why.startswith(f"{r.id} does not fit") for why in drafted.unfit)]
    text = drafted.text + _lacking(drafted.text, loaded, path, fit, maps_dir)
    if output is None:
        click.echo(text, nl=False)
    else:
        output.parent.mkdir(parents=True, exist_ok=True)  # the profiles folder beside the maps folder, the first time
        written = write_atomically(output, text.encode("utf-8"), overwrite=force)
        click.echo(f"wrote {written}; review every line marked REVIEW, then run: kremlin-triplea profile check {output}")
    for why in drafted.unfit:  # said where the host reads it, the profile says it too
        click.echo(why, err=True)
    if drafted.unfit and not fit:
        click.echo(f"no ruleset fits {path.name}", err=True)


def _game_key(game: str, path: Path, output: Path | None, maps_dir: Path) -> str:
    """The new profile's ``[[game]] key``: never an absolute path, which works on the writer's machine only.

    A game named as ``<map>/<file>`` keeps that name; a file in a map of the maps folder gets it too; any
    other file is named by its path from the profile's folder (the current one when the profile goes to
    stdout), where ``profile check`` and the matrix look for it.
    """
    from kremlin_triplea.gamefile.locate import default_maps_dir
    from kremlin_triplea.rules.profile import map_folder_of

    if "/" in game and not Path(game).is_file():
        return game
    folder = map_folder_of(path)
    if folder is not None and folder.parent == default_maps_dir(maps_dir).resolve():
        return f"{folder.name}/{path.name}"
    base = output.parent if output is not None else Path.cwd()
    return Path(os.path.relpath(path.resolve(), base.resolve())).as_posix()


def _lacking(text: str, game, path: Path, rulesets: list, maps_dir: Path) -> str:
    """What the map lacks per ruleset, from a matrix run of the game with the drafted profile (no random drafts;
    the game is not parsed again: ``load`` keeps the games it read); per house set, from ``house`` on the game."""
    from kremlin_triplea.gamefile.safe import scratch_folder
    from kremlin_triplea.rules.profile import load_profile
    from kremlin_triplea.rules.ruleset import Ruleset
    from kremlin_triplea.tools.matrix import game_label, run_matrix
    from kremlin_triplea.tools.profile_check import lacking_text

    kremlin = [r for r in rulesets if isinstance(r, Ruleset)]
    with scratch_folder("profile") as folder:
        drafted = Path(folder) / "drafted.toml"
        drafted.write_text(text, encoding="utf-8")
        profile = load_profile(drafted)
        report = run_matrix(kremlin, [path], maps_dir=maps_dir, samples=0, include_covered=False, given_profiles=[profile], list_only=True)
        lacking = lacking_text(profile, report, rulesets, game_label(path.resolve()), game)
    # The draft is read from a scratch file whose name changes from run to run: the profile says "this profile" (the
    # same game gives the same bytes, wherever and whenever it is drafted).
    for name in {str(drafted.resolve()), str(drafted)}:
        lacking = lacking.replace(f"the map profile {name}", "this profile").replace(name, "this profile")
    # So is where the rulesets are installed: a refusal names its ruleset by its file's name, not by the folder the
    # tool happens to be in on the machine that drafted the profile (the profile is shared with other hosts).
    for ruleset in rulesets:
        file = getattr(ruleset, "path", None) or ruleset.rules.path
        for name in sorted({file, str(Path(file).resolve())}, key=len, reverse=True):
            lacking = lacking.replace(name, Path(file).name)
    return lacking


@profile_group.command("check")
@click.argument("profile", type=NativePath(path_type=Path, dir_okay=False))
@click.pass_context
def profile_check_command(ctx, profile) -> None:
    """Check PROFILE against its game files: names exist, hashes match, guessed entries have reasons (exit 1 if not)."""
    from kremlin_triplea.rules.ruleset import find_data_file
    from kremlin_triplea.tools.profile_check import check_profile

    path = find_data_file("maps", str(profile))
    problems = check_profile(path, _maps_dir(ctx))
    for problem in problems:
        click.echo(problem)
    if problems:
        click.echo(f"{len(problems)} problem{'s' if len(problems) != 1 else ''} in {path}", err=True)
        sys.exit(1)
    click.echo(f"{path}: every name exists in its games, every hash matches, every guessed place has a reason")
    from kremlin_triplea.tools.profile_check import review_marks

    marks = review_marks(path)
    if marks:  # guesses are comments, not errors: a note to finish the review
        click.echo(
            f"{len(marks)} lines still marked REVIEW (lines {', '.join(map(str, marks[:12]))}{', ...' if len(marks) > 12 else ''}): check them, then delete the marks"
        )

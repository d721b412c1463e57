"""``kremlin-triplea validate``: what would make TripleA refuse or misread a game, one line per kind of finding;
with --engine, TripleA 2.x's own verdict beside ours (issue 44 items 4 and 5)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import click

from kremlin_triplea.cli.common import NativePath
from kremlin_triplea.cli.common import maps_dir as _maps_dir
from kremlin_triplea.errors import InputError

#: Our verdict beside the engine's (engine/judge.py): TripleA refuses the game, misreads it (plays it otherwise than
#: the file says) or reads it.
REFUSES, MISREADS, READS = "refuses", "misreads", "reads"


@click.command("validate")
@click.argument("game")
@click.option("--dtd", type=NativePath(path_type=Path, dir_okay=False, exists=True), help="TripleA's game.dtd.")
@click.option("--strict", is_flag=True, help="Count warnings (what TripleA accepts and ignores) as errors.")
@click.option("--all", "--verbose", "every", is_flag=True, help="List every finding, one a line, instead of one line per kind.")
@click.option(
    "--for",
    "judge",
    type=click.Choice(["2", "1.9"]),
    default="2",
    show_default=True,
    help="The TripleA that judges: 2 (as 2.7 parses) or 1.9. What only the other cannot read is a note.",
)
@click.option(
    "--engine",
    is_flag=True,
    help="Also run TripleA 2.x's own parser and GameParsingValidation on GAME and print its verdict beside ours; "
    "exit 1 with a bug report line if they disagree.",
)
@click.option(
    "--triplea",
    type=NativePath(path_type=Path),
    help="With --engine: the TripleA 2.x installation (folder or jar); default: $KREMLIN_TRIPLEA, else the newest 2.x where TripleA installs.",
)
@click.pass_context
def validate_command(ctx: click.Context, game: str, dtd: Path | None, strict: bool, every: bool, judge: str, engine: bool, triplea: Path | None) -> None:
    """Report what would make TripleA refuse or misread GAME (exit 1 on an error).

    Prints one line per kind of finding: the first one as
    FILE:LINE: [warning: | note: ]MESSAGE, and when there are more of that
    kind, how many and the lines of the next few (--all lists every one),
    then a last line with the verdict and the counts. An error is what
    TripleA refuses or misreads. Warnings (what TripleA accepts and ignores:
    a connection or an attachment given twice) pass, unless --strict. Notes
    (what the other TripleA cannot read, each way GAME breaks game.dtd)
    never fail. A file this tool does not read for its own safety (beyond
    64 MiB, nested too deep, entities) is one line saying why, and whether
    TripleA would load it (exit 2). With --engine, a line with TripleA 2.x's
    verdict (reads, refuses or misreads, and its reason), and where it
    differs from ours a line reporting the disagreement as a bug.
    """
    from kremlin_triplea.check.validate import errors, validate_tree
    from kremlin_triplea.gamefile.document import XmlDocument
    from kremlin_triplea.gamefile.locate import resolve_game
    from kremlin_triplea.report.findings import report_lines

    if triplea is not None and not engine:
        raise InputError("--triplea names the TripleA that --engine runs: use it with --engine")
    if engine and judge != "2":
        raise InputError("--engine runs TripleA 2.x, whose verdict is beside ours for 2.x: use it without --for 1.9")
    path = resolve_game(game, _maps_dir(ctx))
    installation = _engine_installation(triplea) if engine else None  # before any work: where it looked, if none
    try:
        document = XmlDocument.read(path)
    except InputError as refused:
        if installation is not None:  # the engine's word on a file this tool does not read, beside our reason
            _engine_beside_our_refusal(path, str(refused), installation)
        raise
    problems = validate_tree(document.root, str(path), dtd=dtd, engine=judge)
    for line in report_lines(problems, every=every):
        click.echo(line)
    disagree = installation is not None and _engine_beside_ours(path, problems, installation)
    failing = errors(problems, strict=strict)
    warnings = sum(p.severity == "warning" for p in problems)
    notes = sum(p.severity == "note" for p in problems)
    counted = ", ".join(_count(n, kind) for n, kind in ((warnings, "warning"), (notes, "note")) if n)
    judged_by = f"TripleA {judge}" if judge != "2" else "TripleA 2.x"
    if failing:
        strictly = " (--strict: warnings count as errors)" if strict and warnings else ""
        click.echo(
            f"{', '.join([_count(sum(p.is_error for p in problems), 'error'), *([counted] if counted else [])])}{strictly} in {path} for {judged_by}",
            err=True,
        )
        sys.exit(1)
    click.echo(f"{path}: valid for {judged_by}" + (f" ({counted})" if warnings or notes else ""))
    if disagree:
        sys.exit(1)


def _engine_installation(triplea: Path | None):
    from kremlin_triplea.engine.judge import find_triplea2

    return find_triplea2(triplea)


def _engine_beside_ours(path: Path, problems, installation) -> bool:
    """Print TripleA 2.x's verdict on ``path``, and a bug report line if it is not ours; whether they disagree."""
    from kremlin_triplea.engine.judge import judge_with_triplea2

    theirs = judge_with_triplea2([path], installation=installation)[0]
    ours, errors = our_verdict(problems)
    click.echo(f"engine: {theirs}")
    agree = agrees(theirs.verdict, ours, theirs.why, errors)
    if agree is None:
        click.echo("engine: its parser and GameParsingValidation accept what validate says TripleA misreads; they do not check that reading")
    if agree is not False:
        return False
    said = ours + (f" ({errors[0]})" if errors else "")
    click.echo(
        f"{path}: validate and TripleA 2.x disagree, a bug of validate or of the engine (please report it with this file): "
        f"validate says TripleA {said}; {theirs.engine} {theirs.verdict}" + (f" ({theirs.why})" if theirs.why else ""),
        err=True,
    )
    return True


#: How a refusal to read a file says what TripleA would do with it (gamefile/safe.py, gamefile/entities.py).
_SAYS_TRIPLEA_LOADS = "TripleA would load it"
_SAYS_TRIPLEA_REFUSES = re.compile(r"TripleA's (?:XML )?parser (?:too )?refuses|TripleA's parser refuses that too")


def _engine_beside_our_refusal(path: Path, refused: str, installation) -> None:
    """Print TripleA 2.x's verdict on a file this tool does not read, and a bug report line where our refusal says
    whether TripleA loads it and the engine does otherwise."""
    from kremlin_triplea.engine.judge import judge_with_triplea2

    theirs = judge_with_triplea2([path], installation=installation)[0]
    click.echo(f"engine: {theirs}")
    if _SAYS_TRIPLEA_LOADS in refused and theirs.verdict == REFUSES:
        said = "TripleA would load it"
    elif _SAYS_TRIPLEA_REFUSES.search(refused) and theirs.verdict != REFUSES:
        said = "TripleA refuses it"
    else:
        return
    click.echo(
        f"{path}: validate and TripleA 2.x disagree, a bug of validate or of the engine (please report it with this file): "
        f"validate says {said} ({refused}); {theirs.engine} {theirs.verdict}" + (f" ({theirs.why})" if theirs.why else ""),
        err=True,
    )


def our_verdict(problems) -> tuple[str, list[str]]:
    """What validate says TripleA does with the game, and its errors: an error saying TripleA refuses it, others
    (what TripleA reads otherwise than the file says), none."""
    from kremlin_triplea.check.game_index import REFUSES as REFUSAL

    errors = [p.message for p in problems if p.is_error]
    if any(message.endswith(REFUSAL) for message in errors):
        return REFUSES, errors
    return (MISREADS if errors else READS), errors


def agrees(engine: str, ours: str, why: str = "", errors: list[str] | tuple[str, ...] = ()) -> bool | None:
    """Whether the engine's verdict and ours agree; None where the engine cannot tell (it reads a game validate says
    it misreads: a misreading the parser and the game selector do not show, such as units made neutral).

    A property 2.x cannot cast is a refusal where the engine reads it while loading the game, else a misreading (in
    play): validate tells which, so each must be said as the engine says it."""
    if engine in (REFUSES, MISREADS):
        return ours == engine
    if ours == MISREADS:
        return None
    return ours == READS


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"

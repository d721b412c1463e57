"""Refuse a game TripleA would refuse or misread, in validate's words (issue 33 item 3: apply never writes one).

A command that takes a base game checks it first, so a base TripleA cannot
load is refused before any work, naming the first error where validate shows
it; the game it made is checked before it is written, so nothing TripleA
would refuse is ever kept.
"""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from kremlin_triplea.check.validate import Problem, errors, validate_tree
from kremlin_triplea.errors import InputError, and_more
from kremlin_triplea.gamefile.document import XmlDocument
from kremlin_triplea.gamefile.kept import Kept

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=True)


def _refuse(problems: list[Problem], what: str, hint: str) -> None:
    if problems:
        first = problems[0]
        where = first.file if first.line is None else f"{first.file}:{first.line}"
        raise InputError(f"{what} is not one TripleA loads: {first.message}{and_more([str(p) for p in problems], hint)}", where=where)


def check_base_game(game: XmlDocument) -> None:
    """Refuse (``InputError``) a base game with a validate error; its first error, where validate shows it."""
    _refuse(list(_base_game_errors(game)), "the base game", f"`kremlin-triplea validate {game.source}` lists them")


#: The errors of the base games judged lately, by their bytes and name (validate's verdict depends on nothing else):
#: a process that applies many drafts on one base game (a host's script or bot calling the commands, the tests)
#: validates it once.
_BASE_GAME_ERRORS: Kept[tuple[Problem, ...]] = Kept(8)


def _base_game_errors(game: XmlDocument) -> tuple[Problem, ...]:
    if game.modified:  # not the file's bytes any longer: judged as it is now
        return _errors_now(game)
    return _BASE_GAME_ERRORS.get((game.original, game.source), lambda: _errors_now(game))


def _errors_now(game: XmlDocument) -> tuple[Problem, ...]:
    return tuple(errors(validate_tree(game.root, game.source, read_dtd=False)))


def check_written_game(data: bytes, file: Path | str) -> None:
    """Refuse (``InputError``) the bytes of a game about to be written to ``file`` if validate finds an error in them."""
    try:
        root = etree.fromstring(data, _PARSER)
    except etree.XMLSyntaxError as error:  # the writer's own bug: say so rather than keep the file
        raise InputError(f"the game made is not well-formed XML: {error}", where=str(file)) from None
    _refuse(errors(validate_tree(root, str(file), read_dtd=False)), "the game made", "nothing was written")

"""Find what makes TripleA refuse a game file, or silently read it wrong: the engine's verdict (issue 33).

``validate_tree`` judges a parsed ``<game>`` element for one engine, TripleA
2.x by default (as 2.7 parses: variables and ``foreach`` expanded first,
check/variables.py; every number read as Java's ``Integer.parseInt`` does,
check/javaread.py) or 1.9, and returns the problems sorted by line:

* an *error* is what the judge refuses ("Could not find player", "No
  territory called", a number parseInt refuses, ...) or reads other than the
  file says (a negative unit quantity makes no units, a ``unitPlacement``
  owner that is no player makes *neutral* units). Errors make the file invalid;
* a *warning* is what the judge reads and ignores: a connection given twice
  (a set of neighbours), a second player, unit type, rule, frontier or
  attachment of one name (the last wins), a ``"<player> bid"`` for no player;
* a *note* is what only the other engine cannot read (1.9 and 2.x
  variables, a ``<loader>``, options it lacks), and each kind of way the file
  breaks game.dtd, once (1.9 prints those and loads the game anyway).

What each engine does was read from its parser: 2.7.15472's
``GameParser``, ``org.triplea.map.data.elements`` and attachment classes, and
1.9's ``GameParser`` (tag 1.9.0.7044); tests/test_validate_engines.py holds
every real game and a mutation set against both engines. The checks are
precise rather than exhaustive: an option value is only checked where the
engine's reading of it is known exactly (``OPTION_REFERENCES``,
check/engine_options.py).

The checks live by what they read: names in check/name_checks.py, numbers,
flags and each engine's refusals in check/number_checks.py, the declared
names they share in check/game_index.py, and game.dtd in check/dtd.py.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

import attrs
from lxml import etree

from kremlin_triplea.check.dtd import dtd_notes, find_dtd, source_path
from kremlin_triplea.check.game_index import ENGINES, TRIPLEA_2, TRIPLEA_19, Finding, GameIndex
from kremlin_triplea.check.name_checks import (
    bids_for_unknown_players,
    connections_to_itself,
    duplicate_attachments,
    duplicate_connections,
    duplicate_declarations,
    duplicate_territories,
    owned_territories_without_territory_attachment,
    player_named_neutral,
    steps_without_player_19,
    unit_types_without_unit_attachment,
    unknown_attachment_targets,
    unknown_names_in_options,
    unknown_references,
)
from kremlin_triplea.check.number_checks import (
    editable_numbers_19,
    flags_19_reads_as_false,
    flags_the_engine_cannot_read,
    foreach_refusals,
    land_units_at_sea_without_transport,
    land_units_beyond_transport_capacity,
    minimum_version,
    missing_quantities,
    numbers_beyond_java_int,
    numbers_out_of_range,
    numbers_the_engine_cannot_read,
    option_numbers_the_engine_cannot_read,
    property_numbers_read_as_text,
    triplea19_refusals,
    unit_collections_beyond_java_lists,
    units_beyond_a_players_memory,
)
from kremlin_triplea.check.option_checks import attachments_the_engine_cannot_make, delegates_the_engine_cannot_make, options_the_engine_cannot_set
from kremlin_triplea.check.reading27 import read_as_27
from kremlin_triplea.check.structure_checks import (
    attributes_the_engine_requires,
    canals_the_engine_refuses,
    editable_numbers_out_of_range,
    nameless_declarations,
    properties_the_engine_cannot_cast,
    rules_in_a_frontier_twice,
    rules_without_cost_or_result,
    sea_transports_the_engine_refuses,
    sections_the_engine_requires,
    unit_attachments_the_engine_refuses,
    unknown_names_27,
    unknown_references_27,
)

# The verdict, and the engines and game.dtd a caller asks it for (at home in check/game_index.py and check/dtd.py).
__all__ = ["ENGINES", "TRIPLEA_2", "TRIPLEA_19", "Problem", "added_problems", "assemble", "errors", "find_dtd", "kind_of", "lined", "unlined", "validate_tree"]

ERROR = "error"
WARNING = "warning"
#: What another engine than the judge cannot read, or its DTD says: neither an error nor a warning.
NOTE = "note"


@attrs.frozen
class Problem:
    """One thing wrong with a game file, at a line of it when there is one."""

    file: str  # display name of the file
    line: int | None
    message: str
    severity: str = attrs.field(default=ERROR, validator=attrs.validators.in_((ERROR, WARNING, NOTE)))
    #: What kind of finding it is: the same for two findings that differ only in the names, numbers and lines they
    #: cite (the check that found it and its message's shape; game.dtd's error type), so a report can group them.
    kind: str = attrs.field(default="", eq=False)

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.message}" if self.is_error else f"{where}: {self.severity}: {self.message}"


def validate_tree(root: etree._Element, file: str, *, dtd: Path | None = None, engine: str = TRIPLEA_2, read_dtd: bool = True) -> list[Problem]:
    """Every problem in the game whose ``<game>`` element is ``root`` for ``engine``, by line.

    Errors are what ``engine`` refuses or misreads, warnings what it accepts
    and ignores. What the other engine cannot read is a note, one per kind
    (an error when it is the judge's own refusal); so is each kind of way the
    file breaks game.dtd, which TripleA 1.9 prints and loads the game anyway
    and 2.x does not read. ``dtd`` is that game.dtd (or a TripleA jar holding
    it); without it ``find_dtd`` looks for one, and with none found (or
    without ``read_dtd``: a caller that wants only the verdict) the DTD is
    left out.
    """
    if engine not in ENGINES:
        raise ValueError(f"engine {engine!r} is not one of {ENGINES}")
    # 2.x judges what its XML mapping reads (check/reading27.py), 1.9 the file's tree as it is.
    game = GameIndex.of(read_as_27(root) if engine == TRIPLEA_2 else root, engine)
    found = {check: lined(check(game)) for check in CHECKS}
    refusals = lined(triplea19_refusals(root))
    dtd = find_dtd(dtd, game_file=source_path(root, file)) if read_dtd else None
    return assemble(file, found, refusals, engine, root, dtd)


def assemble(
    file: str, found: dict[Callable, list[tuple[int | None, str]]], refusals: list[tuple[int | None, str]], engine: str, root: etree._Element, dtd: Path | None
) -> list[Problem]:
    """The problems of each check's findings (by line), TripleA 1.9's refusals and the DTD's notes, by line."""
    problems = [
        Problem(file, line, message, WARNING if check in WARNING_CHECKS else ERROR, kind_of(check.__name__, message))
        for check in CHECKS
        for line, message in found[check]
    ]
    problems += [Problem(file, line, message, ERROR if engine == TRIPLEA_19 else NOTE, kind_of("triplea19_refusals", message)) for line, message in refusals]
    if dtd is not None:
        reported = {p.line for p in problems}
        problems += [Problem(file, line, message, NOTE, f"game.dtd: {error_type}") for line, message, error_type in dtd_notes(root, dtd, reported)]
    return sorted(problems, key=lambda p: p.line or 0)


def errors(problems: Iterable[Problem], *, strict: bool = False) -> list[Problem]:
    """The problems that make the file invalid: its errors, and with ``strict`` its warnings too (never its notes)."""
    return [p for p in problems if p.is_error or (strict and p.severity == WARNING)]


def unlined(message: str) -> str:
    """A message without the line numbers it cites ("first on line 1007"), which edits move."""
    return re.sub(r"\bline \d+", "line N", message)


def added_problems(base: Iterable[Problem], problems: Iterable[Problem]) -> list[Problem]:
    """The ``problems`` of a written game that its base game does not have already.

    Problems are matched by message without line numbers (an edit moves lines),
    each base problem excusing one written one.
    """
    known = Counter(unlined(p.message) for p in base)
    fresh = []
    for problem in problems:
        message = unlined(problem.message)
        if known[message] > 0:
            known[message] -= 1
        else:
            fresh.append(problem)
    return fresh


#: What a message cites rather than says: a quoted name, a number (a line, a count, a value).
_CITED = re.compile(r"'[^']*'|\"[^\"]*\"|[-+]?\d+")


def kind_of(check: str, message: str) -> str:
    """The kind of a ``check``'s finding: the check and its message with the names and numbers it cites left out."""
    return f"{check}: {_CITED.sub('_', message)}"


def lined(findings: Iterable[Finding]) -> list[tuple[int | None, str]]:
    """A check's findings with each one's place as its line (an element's is where its start tag ends)."""
    return [(where.sourceline if isinstance(where, etree._Element) else where, message) for where, message in findings]


CHECKS: list[Callable[[GameIndex], Iterable[Finding]]] = [
    sections_the_engine_requires,
    minimum_version,
    foreach_refusals,
    duplicate_territories,
    duplicate_declarations,
    duplicate_attachments,
    duplicate_connections,
    connections_to_itself,
    unknown_references,
    player_named_neutral,
    steps_without_player_19,
    unknown_attachment_targets,
    attachments_the_engine_cannot_make,
    options_the_engine_cannot_set,
    delegates_the_engine_cannot_make,
    rules_without_cost_or_result,
    rules_in_a_frontier_twice,
    attributes_the_engine_requires,
    nameless_declarations,
    unknown_references_27,
    unknown_names_27,
    unit_attachments_the_engine_refuses,
    sea_transports_the_engine_refuses,
    canals_the_engine_refuses,
    properties_the_engine_cannot_cast,
    editable_numbers_out_of_range,
    unknown_names_in_options,
    bids_for_unknown_players,
    unit_types_without_unit_attachment,
    owned_territories_without_territory_attachment,
    land_units_at_sea_without_transport,
    numbers_beyond_java_int,
    option_numbers_the_engine_cannot_read,
    property_numbers_read_as_text,
    editable_numbers_19,
    missing_quantities,
    numbers_the_engine_cannot_read,
    flags_the_engine_cannot_read,
    flags_19_reads_as_false,
    numbers_out_of_range,
    unit_collections_beyond_java_lists,
    units_beyond_a_players_memory,
    land_units_beyond_transport_capacity,
]


#: The checks that read the game's starting state (``<initialize>``, ``<propertyList>``), which the option matrix
#: changes in every file it writes; the others are worked out once per text of the rest (check/incremental.py).
STATE_CHECKS = {
    unknown_references,
    unknown_references_27,
    sea_transports_the_engine_refuses,
    properties_the_engine_cannot_cast,
    editable_numbers_out_of_range,
    player_named_neutral,
    bids_for_unknown_players,
    owned_territories_without_territory_attachment,
    land_units_at_sea_without_transport,
    property_numbers_read_as_text,
    editable_numbers_19,
    missing_quantities,
    numbers_the_engine_cannot_read,
    flags_the_engine_cannot_read,
    flags_19_reads_as_false,
    numbers_out_of_range,
    unit_collections_beyond_java_lists,
    units_beyond_a_players_memory,
    land_units_beyond_transport_capacity,
}


#: The checks of the rest that read the game's technologies, which in a game without ``<technology>`` are those its
#: WW2V2 and WW2V3 properties make (option_checks.technologies): of the starting state in such a game.
READS_TECHNOLOGIES = {options_the_engine_cannot_set, unknown_names_27}


#: Checks whose findings TripleA reads as the map maker meant (see the module's docstring).
#: A bid property for no player is one: the engine never looks it up, and plays as without it.
WARNING_CHECKS = {
    property_numbers_read_as_text,
    owned_territories_without_territory_attachment,
    player_named_neutral,
    steps_without_player_19,
    duplicate_declarations,
    duplicate_attachments,
    duplicate_connections,
    bids_for_unknown_players,
    flags_19_reads_as_false,
}

"""The board invariants every written rule keeps (issue 41): the game rules and house rules pass the same gate as a draft's picks.

A Kremlin draft checks each pick, scenario, declaration and bid against :mod:`kremlin_triplea.model.invariants`
as it pushes it. The rules written after them (a Kremlin ruleset's game rules, a house set's rules and
advantages), in the same draft or by ``house`` on a game written before, are pushed here rule by rule,
through the same check: a rule whose set-up change would leave a board no game can start from (a Russian
infantry in a Kazakh a pick made Japanese, a British submarine beside a Japanese carrier) is refused, naming
the rule, what it would break, the earlier change that blocks it, and the choice that leaves it out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import attrs
from lxml import etree

from kremlin_triplea.errors import RuleViolation
from kremlin_triplea.gamerules.house_actions import rule_tag
from kremlin_triplea.model.changes import AddXml, CopyAttachment
from kremlin_triplea.model.invariants import board_problems, new_problems, touched_places
from kremlin_triplea.rules.house_rules import load_named_house_set
from kremlin_triplea.rules.tomlfile import DataFileError

if TYPE_CHECKING:
    from kremlin_triplea.gamefile.tripleaxml import GameXml
    from kremlin_triplea.gamerules.actions import AppliedRules
    from kremlin_triplea.model.board import Board
    from kremlin_triplea.model.changes import Change
    from kremlin_triplea.rules.game_rules import GameRule
    from kremlin_triplea.rules.house_rules import HouseSet
    from kremlin_triplea.rules.names import Names
    from kremlin_triplea.rules.tomlfile import Section

#: What made a place as it is, in the players' words ("pick 3 (Axis, option 8 Takeover ...)"), or None when not known.
Earlier = Callable[[str, "Change"], "str | None"]


def push_rules(board: Board, applied: AppliedRules, names: Names, earlier: Earlier | None = None) -> None:
    """Push ``applied``'s changes rule by rule, each step checked against the board invariants; refuse the first
    step that breaks one (:class:`RuleViolation`, exit 1), leaving the board as it was.

    ``earlier`` names the step of the draft that made a place as it is (a pick's label), for the refusal."""
    factories = names.units_of_any_power("factory")
    start = board.position[0]
    try:
        for rule, change, made in applied.steps:
            places = touched_places(made)
            before = {place: board_problems(board, factories, [place]) for place in places}
            history = board.changes
            board.push_all(list(made))
            broken = {place: new_problems(before[place], board, factories, [place]) for place in sorted(places)}
            broken = {place: found for place, found in broken.items() if found}
            if broken:
                for _ in made:  # the place as it was before the step, for the refusal's words
                    board.pop()
                raise _refusal(board, rule, change, broken, history, earlier)
    except BaseException:
        while board.position[0] > start:
            board.pop()
        raise


def check_rules(board: Board, applied: AppliedRules, names: Names, earlier: Earlier | None = None) -> None:
    """What :func:`push_rules` refuses, refused the same way; the board is left as it was either way
    (a set taken in the terminal or the room is checked as ``apply`` will write it)."""
    start = board.position[0]
    push_rules(board, applied, names, earlier)
    while board.position[0] > start:
        board.pop()


def _refusal(board: Board, rule: GameRule, change: Section, broken: dict[str, list[str]], history: list[Change], earlier: Earlier | None) -> RuleViolation:
    problems = "; ".join(problem for found in broken.values() for problem in found)
    blocks = "; ".join(_what_made(board, place, history, earlier) for place in broken)
    settle = _settles(rule, change)
    return RuleViolation(
        rule.title,
        f"it would leave a board no game can start from: {problems} (blocked by {blocks}); {settle}",
        rule=rule.rule,
        source=rule.source,
    )


def _what_made(board: Board, place: str, history: list[Change], earlier: Earlier | None) -> str:
    """The earlier change that made ``place`` as it is: the last one pushed there (named as the draft names it),
    else the game given (a game written before: its own notes say which pick)."""
    for change in reversed(history):
        if getattr(change, "territory", None) == place:
            named = earlier(place, change) if earlier is not None else None
            return named or f"an earlier change: {change}"
    return f"the game given: {_state(board, place, history)}"


def _state(board: Board, place: str, history: list[Change]) -> str:
    data = board.node(place)
    said = []
    if not data["water"] and data["owner"] != data["original_owner"]:
        said.append(f"{place} belongs to {data['owner'] or 'no power'} (originally {data['original_owner'] or 'neutral'})")
    elif not data["water"]:
        said.append(f"{place} belongs to {data['owner'] or 'no power'}")
    units = sorted({owner for (owner, _), n in data["units"].items() if n and owner is not None})
    if units:
        said.append(f"{place} holds units of {', '.join(units)}")
    return ", ".join(said) or place


def _settles(rule: GameRule, change: Section) -> str:
    """The choice that leaves the rule out: its house switch, or another advantage for the power."""
    house = _house_set(rule)
    if house is not None:
        for switch in (change.data.get("when"), rule.when):
            if isinstance(switch, str) and "=" not in switch and switch in house.choices:
                return f"to leave it out, set `{switch} = false` under `[house_rule_choices.{house.id}]` (command line: --switch {switch}=off)"
        for advantage in house.advantages:
            if advantage.rule.id == rule.id:
                return (
                    f"choose another {advantage.power} advantage: `advantages = {{ {advantage.power} = ... }}` under "
                    f"`[house_rule_choices.{house.id}]` (command line: --advantage {advantage.power}=...)"
                )
    return f"drop {rule.set_id}, or the earlier change"


def _house_set(rule: GameRule) -> HouseSet | None:
    try:
        return load_named_house_set(rule.file or rule.set_id)
    except DataFileError:
        return None  # a Kremlin ruleset's own game rule


def written_once(applied: AppliedRules, game: GameXml) -> AppliedRules:
    """``applied`` without what the game already holds as written (an attachment, a technology, a step of the same
    name and the same options: 000 D(3)'s Black Sea canal that 004 HR1 writes again); TripleA keeps only the last
    of two attachments of one name, so writing it again would silently replace the first (issue 41).

    One of the tool's own written otherwise (D(3)'s Baltic canal, which HR2 would rewrite for surface ships only) is
    refused, naming the choice that leaves the rule out. One of the map's own (WW2v6's Jet Power attachment, which
    004 HR5 would rewrite with its air bonuses) is kept, and the rule's step goes to the players with a warning,
    as what a map lacks does. The game may be one ``apply`` wrote, whose Kremlin ruleset's rules are its own now."""
    steps = []
    unwritten = list(applied.unwritten)
    said: list[str] = []  # what the game holds already, the same
    changed = False
    for rule, change, made in applied.steps:
        kept: list[Change] = []
        same: list[str] = []
        mapped: str | None = None
        for one in made:
            if isinstance(one, CopyAttachment) and list(game.attachments(attach_to=one.attach_to, name=one.name)):
                raise _twice(rule, f"attachment {one.name!r} on {one.attach_to}")
            found = _already(one, game, rule, change) if isinstance(one, AddXml) else False
            if found is True:
                same.append(f"{rule.title}: already in the game as written: {one.description or one.section}")
            elif isinstance(found, str):
                mapped = found
            else:
                kept.append(one)
        changed |= len(kept) != len(made)
        if mapped is not None:  # the whole step is the players'
            unwritten.append((rule, f"{rule.label}: {mapped}"))
            continue
        said += same
        steps.append((rule, change, tuple(kept)))
    if not changed:
        return applied
    changes = tuple(one for _, _, made in steps for one in made)
    return attrs.evolve(applied, changes=changes, steps=tuple(steps), game_lines=applied.game_lines + tuple(said), unwritten=tuple(unwritten))


def _already(change: AddXml, game: GameXml, rule: GameRule, table: Section) -> bool | str:
    """True when the game holds ``change``'s element already, the same; False when it holds none of its name; why
    not, when the map holds one of its own otherwise; refused when the tool wrote one otherwise (its names start Kremlin)."""
    element = etree.fromstring(change.xml)
    if change.section == "attachmentList":
        found = list(game.attachments(kind=element.get("type"), attach_to=element.get("attachTo"), name=element.get("name")))
        what = f"attachment {element.get('name')!r} on {element.get('attachTo')}"
    elif change.section == "technologies":
        listed = game.root.find("technology/technologies")
        found = [e for e in (listed if listed is not None else ()) if e.get("name") == element.get("name")]
        what = f"technology {element.get('name')!r}"
    elif change.section == "sequence":
        found = [e for e in game.steps() if e.get("name") == element.get("name")]
        what = f"turn step {element.get('name')!r}"
    else:
        return False
    if not found:
        return False
    if rule_tag(rule) in (element.get("name") or ""):
        raise _twice(rule, what)
    if all(_same(element, e) for e in found):
        return True
    if "Kremlin" not in (element.get("name") or "") and not (element.get("name") or "").startswith("kremlin"):
        return f"the game has its own {what}, other than the rule's; it is kept, and the players keep the rule"
    raise DataFileError(
        f"{rule.title} ({rule.label}) writes the {what}, which the game already holds with other options (written before it, by a "
        f"Kremlin ruleset's rule or another set); TripleA would keep only the last one: {_settles(rule, table)}",
        where=None,
    )


def _twice(rule: GameRule, what: str) -> DataFileError:
    """The game holds what only this rule writes: the set was written into it before (its PUs would be paid twice)."""
    return DataFileError(
        f"{rule.title} ({rule.label}) is in this game already (its {what}): the game was written with {rule.set_id} before; "
        f"write {rule.set_id} into the game it was made from instead",
        where=None,
    )


def _same(one: etree._Element, other: etree._Element) -> bool:
    return dict(one.attrib) == dict(other.attrib) and [(c.tag, dict(c.attrib)) for c in one] == [(c.tag, dict(c.attrib)) for c in other]

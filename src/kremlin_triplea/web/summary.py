"""The finished draft's summary as the players read it in the room (issue 43: "raw ids reach players").

``apply``'s summary is for the host: it names what was written into the game file (``rulesAttachment of Chinese:
movementRestrictionTerritories``, a step named ``americanBidPlace``, the map profile's tables), so that the host can
find it in TripleA's own files. The players need what they play by: what each pick, declaration and the bid did (the
same lines ``apply`` prints: each kind says them in players' words), the house-rule advantages taken, and each of the
ruleset's rules by its title and where the rule text says it, under who keeps it: TripleA, or the players themselves
(the game notes quote those whole).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kremlin_triplea.draft.run import DraftResult
    from kremlin_triplea.gamerules.house import HouseSelection
    from kremlin_triplea.rules.game_rules import GameRule


def players_summary(result: DraftResult) -> list[str]:
    """The summary's lines, as ``summary_html`` heads and lists them: a heading ending in ':' and its indented lines."""
    lines: list[str] = []  # the game and the ruleset head every page (the bar)
    for applied in result.picks:
        lines.append(applied.pick.label + ":")
        lines += [f"  {line}" for line in applied.outcome.lines]
    if result.declarations:
        lines.append("Declared after the bid, in the picks' order:")
        lines += [f"  {line}" for line in result.declaration_lines()]
    if result.bid is not None:
        lines.append("The bid:")
        lines += [f"  {line}" for line in result.bid.lines]
    lines += _house_lines(result.house)
    rules = result.rules
    if rules is None:
        return lines
    if rules.game:
        lines.append("Rules TripleA keeps (written into the game):")
        lines += [f"  {_rule(rule)}" + (f". As TripleA plays it: {rule.differs}" if rule.differs else "") for rule in rules.game]
    unwritten = {id(rule) for rule, _ in rules.unwritten}
    yours = [*rules.players, *(rule for rule in rules.game if rule.players_keep), *(rule for rule, _ in rules.unwritten)]
    if yours:
        lines.append("Rules you keep yourselves, in whole or in part (the game notes quote each whole):")
        lines += [f"  {_rule(rule)}" + ("; TripleA cannot play it on this map" if id(rule) in unwritten else "") for rule in dict.fromkeys(yours)]
    return lines


def _house_lines(selections: tuple[HouseSelection, ...]) -> list[str]:
    """Each house-rule set's advantages as taken: the power, the advantage's title, how it was chosen and its places."""
    lines: list[str] = []
    for selection in selections:
        lines.append(f"House rules: {selection.house.rules.title}:")
        if selection.seed is not None:
            lines.append(f"  advantages drawn at random (seed {selection.seed})")
        for chosen in selection.advantages:
            values = "".join(f"; {name.replace('_', ' ')}: {value}" for name, (value, _) in chosen.values.items())
            lines.append(f"  {chosen.advantage.power}: {chosen.advantage.rule.title} ({chosen.how}{values})")
        lines += [f"  {why}" for why in selection.unplaced]
    return lines


def _rule(rule: GameRule) -> str:
    return f"{rule.title} ({rule.source})"

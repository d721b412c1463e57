"""What the written game tells its players: its name, and notes listing the draft or the house rules.

TripleA shows the ``notes`` property (HTML) from the Game Notes menu, so the
ruleset, every pick and the bid are put at the top of the existing notes.
Applying a draft never writes notes; whoever writes the game calls :func:`add_notes`.
"""

from __future__ import annotations

from html import escape

from kremlin_triplea.draft.run import DraftResult
from kremlin_triplea.gamerules.house import HouseResult, selection_lines
from kremlin_triplea.model.changes import SetGameName, SetProperty
from kremlin_triplea.report.value import value_result


def game_name(result: DraftResult | HouseResult) -> str:
    if isinstance(result, HouseResult):
        return f"{result.game.initial.game_name} - {' + '.join(s.house.id for s in result.selections)}"
    return f"{result.game.initial.game_name} - Kremlin ({result.ruleset.id})"


def add_notes(result: DraftResult | HouseResult) -> DraftResult | HouseResult:
    """Put the notes of ``result`` at the top of its game's notes and give the game its new name."""
    board = result.game.board
    html = house_notes_html(result) if isinstance(result, HouseResult) else notes_html(result)
    board.push(SetProperty("notes", html + board.properties.get("notes", "")))
    board.push(SetGameName(game_name(result)))
    return result


def players_honour(result: DraftResult) -> list[str]:
    """The rules TripleA cannot enforce in this game, one line each: the rule sets' and the scenarios'."""
    lines = []
    if result.rules is not None:
        for rule in result.rules.players:
            lines.append(f"{rule.title}: \"{rule.rule}\" ({rule.source}). Why not in the game: {rule.why}")
        for rule in result.rules.game:
            if rule.differs:
                lines.append(f"{rule.title}: TripleA enforces it, but: {rule.differs} ({rule.source})")
    for applied in result.picks:
        lines += [line.removeprefix("players enforce: ") for line in applied.outcome.lines if line.startswith("players enforce: ")]
    return lines


def rules_html(result: DraftResult) -> list[str]:
    rules = result.rules
    parts = []
    if rules is not None:
        sets = ", ".join(f"{s.title} ({s.id}; source {s.source})" for s in rules.sets)
        parts.append(f"<p>Rule sets: {escape(sets)}.</p>")
        # House sets in a Kremlin draft: their switches, advantages and seed (enough to make the game again).
        house = selection_lines(getattr(result, "house", ()))
        if house:
            parts.append("<ul>" + "".join(f"<li>{escape(line)}</li>" for line in house) + "</ul>")
        if rules.game_lines:
            parts.append("<h3>Written into this game (TripleA enforces them)</h3>")
            parts.append("<ul>" + "".join(f"<li>{escape(line)}</li>" for line in rules.game_lines) + "</ul>")
        if rules.skipped:
            # Rules of the sets this game does not get (another map's, a switch off), and why.
            parts.append("<h3>Not applied to this game</h3>")
            parts.append("<ul>" + "".join(f"<li>{escape(line)}</li>" for line in rules.skipped) + "</ul>")
    honour = players_honour(result)
    if honour:
        parts.append("<h3>Rules the players must enforce themselves (TripleA cannot)</h3>")
        parts.append("<ul>" + "".join(f"<li>{escape(line)}</li>" for line in honour) + "</ul>")
    return parts


def notes_html(result: DraftResult) -> str:
    ruleset = result.ruleset
    values = value_result(result)
    parts = [
        "<h2>Kremlin draft</h2>",
        f"<p>Ruleset: {escape(ruleset.title)} ({escape(ruleset.id)}; source {escape(ruleset.source)}). "
        f"Map profile: {escape(result.profile.map)}.</p>",
        "<ol>",
    ]
    for applied, value in zip(result.picks, values.picks):
        pick = applied.pick
        details = "; ".join(escape(line) for line in applied.outcome.lines)
        parts.append(f"<li>{escape(pick.side)}: option {pick.option.number} {escape(pick.option.title)}: {details} "
                     f"(worth {value.value:+d} IPCs to the {escape(pick.side)})</li>")
    parts.append("</ol>")
    totals = values.totals()
    parts.append(f"<p>Picks valued in IPCs (units at cost, production, PUs; see kremlin-triplea value): "
                 f"{escape(', '.join(f'{side} {total:+d}' for side, total in totals.items()))}.</p>")
    if result.bid is not None and result.bid_spec is not None:
        parts.append(f"<p>Bid {result.bid_spec.amount}: {'; '.join(escape(line) for line in result.bid.lines)}</p>")
    else:
        parts.append("<p>No bid.</p>")
    parts += rules_html(result)
    parts.append("<hr/>")
    # A CDATA section cannot contain its own terminator.
    return "\n".join(parts).replace("]]>", "]]&gt;") + "\n"


def house_notes_html(result: HouseResult) -> str:
    parts = ["<h2>House rules</h2>", "<ul>" + "".join(f"<li>{escape(line)}</li>" for line in selection_lines(result.selections)) + "</ul>"]
    parts += rules_html(result)
    parts.append("<hr/>")
    return "\n".join(parts).replace("]]>", "]]&gt;") + "\n"

"""What the written game tells its players: its name, and notes written for them.

TripleA shows the ``notes`` property (HTML) in its game selector and from the
Game Notes menu, so the Kremlin notes go on top of the map's own: who plays
which side, the picks (what each changed and its value), the bid, then the
rules in two lists, "TripleA enforces" (one plain line each) and "You
enforce" (each rule quoted whole with its source), and, where the map's own
notes say something the ruleset overrides, which rule holds.

How the game file was changed (attachments, steps, profile decisions) is for
the host, not the players: ``apply`` prints it. TripleA's notes viewer is
Java's HTML 3.2 renderer, which draws a ``<details>`` element open, so none
of it goes into the notes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html import escape

import attrs

from kremlin_triplea.draft.kinds.scenario import ScenarioTarget
from kremlin_triplea.draft.run import DraftResult
from kremlin_triplea.game import record_base
from kremlin_triplea.gamefile.install import default_game_name
from kremlin_triplea.gamerules.actions import AppliedRules
from kremlin_triplea.gamerules.house import HouseResult, selection_lines
from kremlin_triplea.model.changes import SetGameName, SetProperty
from kremlin_triplea.report.claims import checked_rules
from kremlin_triplea.report.value import value_result
from kremlin_triplea.rules.game_rules import GameRule
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.profile import restrictions_kept_in_part

#: An outcome line a pick leaves for the players to keep.
PLAYERS_ENFORCE = "players enforce: "


def add_notes(result: DraftResult | HouseResult) -> DraftResult | HouseResult:
    """Put the players' notes on top of the game's notes, give the game its new name, and record its base game.

    Applying a draft or house rules never writes notes; the writers (:mod:`kremlin_triplea.tools.outputs`) call
    this. Once per game: a game already named (its notes added) is left as it is, so a second writer adds nothing.
    """
    board = result.game.board
    if any(isinstance(change, SetGameName) for change in board.changes):
        return result
    if result.rules is not None:
        # What the notes say TripleA enforces is checked against the game as written, not the ruleset's targets.
        names = result.state.names if isinstance(result, DraftResult) else Names(board, result.profile, ())
        result = attrs.evolve(result, rules=checked_rules(result.rules, result.game.to_bytes(), names))
    if isinstance(result, HouseResult):
        html = house_notes_html(result)
    else:
        html = notes_html(result, players=result.players)
    board.push(SetProperty("notes", html + board.properties.get("notes", "")))
    board.push(SetGameName(game_name(result)))
    record_base(result.game)  # render and verify compare the written game with it
    return result


def install_name(result: DraftResult | HouseResult) -> str:
    """The name a game is installed under unless the host names it (issue 14): "<base game> Kremlin - Ann v Bob 2026-11-22"."""
    if isinstance(result, HouseResult):
        return default_game_name(result.game.board.game_name, ())
    sides = result.ruleset.sides
    players = [result.players.get(side, side) for side in sides] if result.players else list(sides)
    return default_game_name(f"{result.game.initial.game_name} Kremlin", players)


def game_name(result: DraftResult | HouseResult) -> str:
    if isinstance(result, HouseResult):
        return f"{result.game.initial.game_name} - {' + '.join(s.house.id for s in result.selections)}"
    return f"{result.game.initial.game_name} - Kremlin ({result.ruleset.id})"


#: "Drake Passage is South Argentina Sea Zone in this game (why the profile chose it)": the why is the host's.
_NAME_TRANSLATION = re.compile(r"^(.+? in this game) \(.*\)$", re.DOTALL)
#: "(keeps the base game's behaviour: ...)": a decision of the map profile, for the host.
_PROFILE_DECISION = re.compile(r" \(keeps the base game's behaviour: [^()]*(\([^()]*\)[^()]*)*\)")


def for_players(line: str) -> str:
    """A pick's outcome line without the reasons the map profile gives for its choices (``apply`` prints those)."""
    line = _PROFILE_DECISION.sub("", line)
    match = _NAME_TRANSLATION.match(line)
    return match.group(1) if match else line


# -- the rules, by who enforces them ------------------------------------------


def first_sentence(text: str) -> str:
    """A rule text's first sentence (up to the first '.', '!' or '?' followed by a space), for one line."""
    match = re.match(r"(.+?[.!?])(\s|$)", text.strip(), re.DOTALL)
    return (match.group(1) if match else text).strip()


def triplea_enforces(rules: AppliedRules | None) -> list[str]:
    """One plain line per rule written into the game: its title and the rule's first sentence."""
    if rules is None:
        return []
    lines = []
    for rule in rules.game:
        sentence = first_sentence(rule.rule)
        line = rule.title if sentence.lower().rstrip(".") == rule.title.lower() else f"{rule.title}: {sentence}"
        # Where TripleA plays the rule a little differently, the players read how, beside the rule.
        lines.append(f"{line} In TripleA: {rule.differs}" if rule.differs else line)
    return lines


def you_enforce(result: DraftResult | object, *, before_play: bool = False) -> list[tuple[str, str, str]]:
    """The rules TripleA cannot enforce, or enforces only in part: (title, the rule quoted whole, its source).

    ``before_play``: the ones settled before the first turn (a purchase before the game, who goes first),
    else the ones the players keep during play.
    """
    found: list[tuple[str, str, str]] = []
    rules = getattr(result, "rules", None)
    if rules is not None:
        for rule in rules.players:
            if rule.before_play == before_play:
                found.append((rule.title, rule.rule, rule.source))
        # A rule TripleA plays in part: the players keep the rest, and read the whole rule for it.
        for rule in rules.game:
            if rule.players_keep and rule.before_play == before_play:
                found.append((f"{rule.title}: {rule.players_keep}", rule.rule, rule.source))
        # Rules meant for the game that this game cannot express (no such strait here): the players keep them, told why.
        unwritten: dict[GameRule, list[str]] = {}
        for rule, why in rules.unwritten:
            if rule.before_play == before_play:
                unwritten.setdefault(rule, []).append(why.removeprefix(f"{rule.label}: "))
        found += [(f"{rule.title} (not in this game: {'; '.join(whys)})", rule.rule, rule.source) for rule, whys in unwritten.items()]
    if before_play:
        return found
    # A restriction the map profile could not place whole holds for what matched (issue 46): the players read the
    # rule whole and how it holds here, since the map's names no longer show it.
    ruleset, profile = getattr(result, "ruleset", None), getattr(result, "profile", None)
    if ruleset is not None and profile is not None:
        found += [(f"{title}: {how}", rule, source) for title, how, rule, source in restrictions_kept_in_part(ruleset, profile, result.game.board)]
    for applied in getattr(result, "picks", ()):
        pick = applied.pick
        for line in applied.outcome.lines:
            if line.startswith(PLAYERS_ENFORCE):
                # A scenario's own rule, quoted whole; what to keep (the line) as its title.
                if isinstance(pick.target, ScenarioTarget):
                    scenario = pick.target.scenario
                    found.append((f"Pick {pick.index}: {line.removeprefix(PLAYERS_ENFORCE)}", scenario.rule, scenario.source))
                else:
                    found.append(
                        (f"Pick {pick.index}, option {pick.option.number} {pick.option.title}", line.removeprefix(PLAYERS_ENFORCE), pick.option.source)
                    )
    return found


# -- where the map's own notes say otherwise -----------------------------------


@attrs.frozen
class MapNoteConflict:
    """A statement of a map's own notes that a ruleset's rule overrides, and what holds instead."""

    said: re.Pattern[str]  # the map's statement, found in its notes
    rule_id: str  # the rule it meets (a game_rule id of the ruleset)
    holds: str  # what the players play by, in a sentence (when the rule is in the game)


MAP_NOTE_CONFLICTS = (
    # WW2v3-1941.xml / -1942.xml notes: "These infantry must be place in a territory with less than three
    # Chinese pieces." 000_bc04a4edf7f7d2ab.txt D) (5): "There are no stacking limits on Chinese eligible territory".
    MapNoteConflict(
        re.compile(r"less than three Chinese pieces", re.IGNORECASE),
        "d5-china-stacking",
        "the Kremlin rule holds: Chinese units have no stacking limit, and TripleA no longer applies the three-piece limit",
    ),
    # kremlin.xml notes: "Russia may not attack 1st round". 001_e336cdee7ef3c243.txt header 2:
    # "Restricted Russia...this option may be turned off if both players agree."
    MapNoteConflict(
        re.compile(r"Russia may not attack (1st|first) round", re.IGNORECASE),
        "h2-restricted-russia",
        "it holds as Restricted Russia, which TripleA enforces in this game (the players may agree to turn it off)",
    ),
    MapNoteConflict(
        re.compile(r"Russia may not attack (1st|first) round", re.IGNORECASE),
        "h2-unrestricted-russia",
        "the players turned Restricted Russia off, as the rule allows: Russia may attack in round 1",
    ),
    # kremlin.xml notes: "Only 2 tech rolls per nation per turn". 001_e336cdee7ef3c243.txt header 5:
    # "Only 2 tech rolls per side per round".
    MapNoteConflict(
        re.compile(r"2 tech rolls per nation", re.IGNORECASE),
        "h5-tech",
        "the Kremlin rule holds: 2 tech rolls per side (Axis or Allies) per round, not per nation",
    ),
)


def map_note_conflicts(map_notes: str, rules: AppliedRules | None) -> list[tuple[str, GameRule, str]]:
    """(what the map's notes say, the rule that meets it, what holds) for each statement the ruleset overrides."""
    if rules is None:
        return []
    by_id = {rule.id: rule for rule in (*rules.game, *rules.players, *rules.tool) if rule.id}
    found = []
    for conflict in MAP_NOTE_CONFLICTS:
        said = next((sentence for sentence in _sentences(map_notes) if conflict.said.search(sentence)), None)
        rule = by_id.get(conflict.rule_id)
        if said is None or rule is None:
            continue
        found.append((said, rule, conflict.holds))
    return found


def _sentences(html_text: str) -> list[str]:
    """The notes' text as sentences: lines (``<br>``, paragraphs, list items) split at each full stop."""
    text = re.sub(r"<\s*(br|/?p|/?li|/?div|/?h\d)\b[^>]*>", "\n", html_text, flags=re.IGNORECASE)
    text = re.sub(r"<[^>]+>", " ", text).replace("&amp;", "&").replace("&nbsp;", " ")
    sentences = []
    for line in text.splitlines():
        line = re.sub(r"\s+", " ", line).strip()
        sentences += [part.strip() for part in re.split(r"(?<=[.!?])\s+", line) if part.strip()]
    return sentences


# -- the HTML -----------------------------------------------------------------


def _list(items: Iterable[str]) -> str:
    return "<ul>" + "".join(f"<li>{item}</li>" for item in items) + "</ul>"


def _quoted(rules: list[tuple[str, str, str]]) -> str:
    return _list(f"<b>{escape(title)}</b>: &ldquo;{escape(rule)}&rdquo; ({escape(source)})" for title, rule, source in rules)


def rules_html(result: DraftResult | object, *, map_notes: str = "") -> list[str]:
    """The rules, by who enforces them, and which rule holds where the map's notes disagree."""
    rules = getattr(result, "rules", None)
    parts = []
    house = selection_lines(getattr(result, "house", ()))  # a Kremlin draft's house sets (a house-only game lists its own)
    if house:
        parts.append("<h3>House rules</h3>")
        parts.append(_list(escape(line) for line in house))
    enforced = triplea_enforces(rules)
    if enforced:
        parts.append("<h3>TripleA enforces</h3>")
        parts.append(_list(escape(line) for line in enforced))
    ruleset = getattr(result, "ruleset", None)
    kremlin = f"{ruleset.id} rule " if ruleset is not None else None
    # Rules of the house-rule sets this game does not get (another map's, a switch off), and why: the notes list
    # what was applied and say what was not (a Kremlin ruleset's own variants for other games are not the players' news).
    skipped = [line for line in (getattr(rules, "skipped", ()) if rules is not None else ()) if kremlin is None or not line.startswith(kremlin)]
    if skipped:
        parts.append("<h3>Not applied to this game</h3>")
        parts.append(_list(escape(line) for line in skipped))
    before = you_enforce(result, before_play=True)
    if before:
        parts.append("<h3>Before play</h3>")
        parts.append("<p>The players settle these before the first turn.</p>")
        parts.append(_quoted(before))
    honour = you_enforce(result)
    if honour:
        parts.append("<h3>You enforce</h3>")
        parts.append("<p>TripleA cannot enforce these rules; the players keep them.</p>")
        parts.append(_quoted(honour))
    conflicts = map_note_conflicts(map_notes, rules)
    if conflicts:
        parts.append("<h3>Where the map's notes below say otherwise</h3>")
        parts.append(
            _list(
                f"The map's notes say &ldquo;{escape(said)}&rdquo; The ruleset says &ldquo;{escape(rule.rule)}&rdquo; "
                f"({escape(rule.title)}, {escape(rule.source)}). So {escape(holds)}."
                for said, rule, holds in conflicts
            )
        )
    return parts


def notes_html(result: DraftResult, *, players: dict[str, str] | None = None) -> str:
    """The Kremlin notes for the players, put on top of the map's own notes.

    ``players``: each side's player, when the draft records them. The draft's choices (e.g. Restricted Russia
    off) decide which rules are in ``result.rules``.
    """
    ruleset = result.ruleset
    values = value_result(result)
    players = players or {}
    side_powers = result.state.side_powers
    parts = [f"<h2>Kremlin draft: {escape(ruleset.title)}</h2>"]
    sides = []
    for side in ruleset.sides:
        who = f" &ndash; {escape(players[side])}" if side in players else ""
        sides.append(f"<b>{escape(side)}</b> ({escape(', '.join(side_powers.get(side, ())))}){who}")
    first = f" The {escape(result.picks[0].pick.side)} picked first." if result.picks else ""
    parts.append(f"<p>{'; '.join(sides)}.{first} Rules: {escape(ruleset.source)}.</p>")

    parts.append("<h3>The picks</h3>")
    parts.append("<ol>")
    for applied, value in zip(result.picks, values.picks):
        pick, option = applied.pick, applied.pick.option
        lines = [*applied.outcome.lines, *(line for displaced, outcome in result.declarations if displaced.pick == pick.index for line in outcome.lines)]
        changed = "; ".join(escape(for_players(line)) for line in lines if not line.startswith(PLAYERS_ENFORCE))
        parts.append(f"<li><b>{escape(pick.side)}, option {option.number} {escape(option.title)}</b> (worth {value.value:+d} IPCs): {changed}</li>")
    parts.append("</ol>")
    totals = values.totals()
    parts.append(
        f"<p>The picks are worth {escape(', '.join(f'{side} {total:+d} IPCs' for side, total in totals.items()))} "
        "(units at their cost, production and PUs).</p>"
    )
    if result.bid is not None and result.bid_spec is not None:
        parts.append(f"<h3>The bid: {result.bid_spec.amount}</h3>")
        parts.append(_list(escape(line) for line in result.bid.lines))
    else:
        parts.append("<p>No bid.</p>")

    map_notes = result.game.initial.properties.get("notes", "")
    parts += rules_html(result, map_notes=map_notes)
    parts.append("<hr/>")
    # A CDATA section cannot contain its own terminator.
    return "\n".join(parts).replace("]]>", "]]&gt;") + "\n"


def house_notes_html(result: HouseResult) -> str:
    parts = ["<h2>House rules</h2>", "<ul>" + "".join(f"<li>{escape(line)}</li>" for line in selection_lines(result.selections)) + "</ul>"]
    parts += rules_html(result)
    parts.append("<hr/>")
    return "\n".join(parts).replace("]]>", "]]&gt;") + "\n"

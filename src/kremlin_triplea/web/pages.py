"""The room's pages, drawn on the server from the draft engine's legal choices.

The page lists only what ``draft.legal`` says is legal now; the server still
checks every request, so nothing here is a rule, only a menu.
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from kremlin_triplea.draft.choices import NextPick, OptionChoices
from kremlin_triplea.draft.declare import question
from kremlin_triplea.draft.form import Field, Form
from kremlin_triplea.gamerules.house import advantage_places
from kremlin_triplea.report.notes import install_name
from kremlin_triplea.report.value import DraftValue, describe_pick
from kremlin_triplea.rules.house_rules import load_named_house_set
from kremlin_triplea.web.bid_talk import BidTalk
from kremlin_triplea.web.bid_view import bid_answer_block, bid_block, bid_html
from kremlin_triplea.web.board_view import board_block, places_info
from kremlin_triplea.web.events import bid_text, events_block
from kremlin_triplea.web.explain import PREVIEW_FIELD, choice_effects, effects_html, pick_preview, preview_html
from kremlin_triplea.web.filled import Filled, datalist, options, seq_fields
from kremlin_triplea.web.room import SPECTATOR
from kremlin_triplea.web.summary import players_summary
from kremlin_triplea.web.words import Words

if TYPE_CHECKING:
    from kremlin_triplea.draft.kinds import Displaced
    from kremlin_triplea.model.queries import Nearest
    from kremlin_triplea.web.room import Room

STATIC = Path(__file__).parent / "static"
#: The page's script and style, put in every page (one request per page: a phone on a poor line waits for no other).
SCRIPT = (STATIC / "room.js").read_text(encoding="utf-8")
STYLE = (STATIC / "room.css").read_text(encoding="utf-8")


def page(title: str, body: str, words: Words | None = None) -> str:
    """A whole page; its text in players' words (``words``: the game's unit types; rule files by number always)."""
    body = (words or Words()).page(body)
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{escape(title)}</title>"
        f"<style>{STYLE}</style></head><body>{body}<script>{SCRIPT}</script></body></html>"
    )


def message_page(status: str, text: str) -> str:
    return page(status, f"<main class='message' style='padding: 0 .75em'><h1>{escape(status)}</h1><p class='refused'>{escape(text)}</p></main>")


def status_line(room: Room) -> str:
    """What the room waits for now, in one line (the bar at the top of the page keeps it in sight)."""
    session = room.session
    turn = room.turn()
    declaration = room.declaration()
    if room.complete:
        return "The draft is complete."
    if declaration is not None:
        return f"The bid is agreed. The {declaration[0].side} declare where {declaration[0].describe()} go (000 A, order of action)."
    if turn is None and session.bid is not None:
        return "The bid is agreed. House rules: each side chooses its powers' advantages."
    if turn is None and room.bid_proposal is not None:
        return f"All {session.total_picks} picks are made. The {room.bid_proposal.side} propose a bid; the other side agrees or refuses."
    if turn is None:
        return f"All {session.total_picks} picks are made: the bid."
    player = f" ({session.players[turn]})" if turn in session.players else ""
    return f"Pick {session.ply} of {session.total_picks}: the {turn} choose.{player}"


def pending_line(room: Room, role: str) -> str:
    """Whom the room waits for, from this page's side: you, or the other side (and for what)."""
    if room.complete:
        return ""
    if room.undo_request is not None:
        asked = room.undo_request.side
        return "Waiting for the other side to answer your undo." if asked == role else f"The {asked} ask to undo: {undo_target(room)}."
    waiting: list[str] = []
    declaration = room.declaration()
    if declaration is not None:
        waiting = [declaration[0].side]
    elif room.picks_done and room.session.bid is not None:
        waiting = room.house_pending()
    elif room.bid_proposal is not None:
        waiting = [side for side in room.sides if side != room.bid_proposal.side]
    elif room.turn() is not None:
        waiting = [room.turn() or ""]
    else:
        waiting = list(room.sides)  # either side enters the bid
    if role in waiting:
        return "Your move." if len(waiting) == 1 else "Your move (either side may enter it)."
    return "Waiting for the " + " and the ".join(waiting) + "."


def room_page(
    room: Room,
    role: str,
    key: str,
    *,
    option: str | None = None,
    query: dict[str, str] | None = None,
    error: str | None = None,
    note: str | None = None,
    board: str = "",
    talk: BidTalk | None = None,
) -> str:
    """``role``'s page of the room; ``board``: the address the page's script fetches the board from."""
    session = room.session
    player = session.players.get(role)
    who = "spectator (read-only)" if role == SPECTATOR else f"{player}, for the {role}" if player else f"the {role}"
    pending = pending_line(room, role)
    mine = pending.startswith("Your move")
    bar = (
        f"<header id='bar'><h1>Kremlin draft: {escape(session.ruleset.title)} · {escape(session.game.board.game_name)} · "
        f"you are <b id='role'>{escape(who)}</b></h1>"
        f"<p id='status'><b>{escape(status_line(room))}</b></p><p id='pending'>{escape(pending)}</p>"
        "<p id='connection' role='status' aria-live='assertive' hidden></p>"
        f"<p id='presence' data-keep data-presence='/room/{escape(key)}/presence'></p></header>"
    )
    out = [events_block(room), answer_notice(room, role)]
    if role != SPECTATOR:  # shown by the script where the browser can notify and has not been asked yet
        out.append("<p><button type='button' id='notify' hidden>Tell me when it is my move</button></p>")
    out.append(f"<p class='draft-file'>Draft file {escape(room.path.name)}</p>")
    if error:
        out.append(f"<p class='refused' role='alert' id='refused'>Refused: {escape(error)}</p>")
    if note:
        out.append(f"<p class='note' id='note'>{escape(note)}</p>")
    if session.house_rules:
        out.append(
            "<p id='house-rules'>House rules written into the game after the bid: "
            + escape(", ".join(load_named_house_set(set_id).rules.title for set_id in session.house_rules))
            + " (their choices as the draft file gives them; <code>apply</code> writes them).</p>"
        )
    undo = undo_block(room, role, key)
    if room.complete:  # the game first; taking back the bid is the exception, below it (issue 43)
        out.append(complete_block(room, role, key))
        if undo:
            out.append(f"<details id='undo-details'><summary>Take back the bid</summary>{undo}</details>")
    else:
        out.append(undo)
        out.append(action_block(room, role, key, option, Filled(query, error), talk or BidTalk()))
    out.append("<div class='columns'>" + picks_block(room) + locks_block(room) + "</div>")
    out.append(f"<script type='application/json' id='places'>{escape(json.dumps(places_info(room)), quote=False)}</script>")
    body = (
        f"<div id='room' data-seq='{room.seq}' data-events='/events/{escape(key)}' data-page='/room/{escape(key)}' data-your-move='{'yes' if mine else 'no'}'>"
        f"{bar}<div id='controls'>" + "".join(out) + "</div>" + board_block(board) + "</div>"
    )
    return page(
        f"{'Your move · ' if mine else ''}Kremlin draft — {who}", body, Words(session.state.board.catalog.unit_types, set_titles(room), room.installed.values())
    )


def set_titles(room: Room) -> dict[str, str]:
    """The rule sets the draft is played with, id -> title (the ruleset and the house-rule sets it takes)."""
    session = room.session
    return {session.ruleset.id: session.ruleset.title, **{set_id: load_named_house_set(set_id).rules.title for set_id in session.house_rules}}


def answer_notice(room: Room, role: str) -> str:
    """What the other side answered to this side's bid or undo: on each of this side's pages until the next action
    (the room records it, so a page opened later, or on another device, says it too)."""
    answer = room.answer
    if answer is None or answer.side != role:
        return ""
    if answer.to == "bid":
        said = "The other side agreed to your bid." if answer.agreed else "The other side refused your bid: propose another."
    else:
        said = f"The other side agreed: {answer.what} is undone." if answer.agreed else f"The other side refused to undo {answer.what}."
    return f"<p class='note' id='answer' role='status'>{escape(said)}</p>"


def action_block(room: Room, role: str, key: str, option: str | None, filled: Filled, talk: BidTalk) -> str:
    """The form this side fills in now, or what it waits for. While an undo waits for its answer the form stays as it
    was (what the player typed in it too: issue 43), only it cannot be sent until the undo is answered."""
    if role == SPECTATOR or room.complete:
        return ""
    if room.undo_request is not None:
        block = form_block(room, role, key, option, filled, talk)
        if "<form method='post'" not in block:
            return block
        first = "Answer the undo first" if role != room.undo_request.side else "Your undo waits for its answer"
        held = block.replace("<button type='submit'", "<button type='submit' disabled")
        return f"<p class='note' id='held-note'>{first}: this form waits, as you filled it.</p>{held}"  # no wrapper: the page keeps the form
    return form_block(room, role, key, option, filled, talk)


def form_block(room: Room, role: str, key: str, option: str | None, filled: Filled, talk: BidTalk) -> str:
    turn = room.turn()
    declaration = room.declaration()
    if turn == role:
        return pick_block(room, key, option, filled)
    if declaration is not None:
        return declaration_block(room, role, key, declaration, filled)
    if turn is None and room.session.bid is not None:
        return house_block(room, role, key, filled)
    if turn is None and room.bid_proposal is not None:
        return bid_answer_block(room, role, key, talk)
    if turn is None:
        return bid_block(room, role, key, filled, talk)
    return f"<p id='waiting'>Waiting for the {escape(turn)}.</p>"


def undo_target(room: Room) -> str:
    """The action an undo takes back, named: the bid, or the last pick with what it did."""
    session = room.session
    if session.bid is not None:
        return "the agreed bid (" + bid_text(session.bid_table) + ")"
    return room.last_action()


def pick_block(room: Room, key: str, option: str | None, filled: Filled) -> str:
    next_pick: NextPick = room.next_pick()
    available = [c for c in next_pick.options if c.available]
    out = ["<section id='pick'><h3>Your pick</h3>"]
    out.append(
        f"<form method='get' action='/room/{escape(key)}' id='choose-option' class='row'><label for='option-select'>Option</label>"
        f"<select name='option' id='option-select'>{options(((str(c.option.number), f'{c.option.number} {c.option.title}') for c in available), selected=option)}</select>"
        "<button type='submit'>Choose</button></form>"
    )
    unavailable = [c for c in next_pick.options if not c.available]
    if unavailable:
        out.append(
            "<details class='unavailable'><summary>Options not open to you now</summary><ul>"
            + "".join(f"<li>{c.option.number} {escape(c.option.title)}: {escape(c.unavailable or '')}</li>" for c in unavailable)
            + "</ul></details>"
        )
    chosen = next((c for c in available if option in (str(c.option.number), c.option.id)), None)
    if chosen is not None:
        out.append(option_form(room, key, chosen, filled))
    out.append("</section>")
    return "".join(out)


def option_form(room: Room, key: str, chosen: OptionChoices, filled: Filled) -> str:
    """The pick form of ``chosen``'s option, as its kind describes it, beside the option's rule text."""
    option = chosen.option
    form = room.pick_form(chosen, room.turn() or "")
    filled.typed.update(field.key.partition(".")[0] for field in form.fields if field.place)
    out = [
        f"<form method='post' action='/room/{escape(key)}/pick' id='pick-form'>{seq_fields(room)}",
        f"<input type='hidden' name='option' value='{option.number}'>",
        f"<h4>Option {option.number}: {escape(option.title)}</h4>",
        f"<blockquote class='rule-text' id='rule-text'>{escape(option.rule)}<footer>{escape(option.source)}</footer></blockquote>",
    ]
    out += [f"<p>{escape(note)}</p>" for note in form.notes]
    out.append(form_fields(form, filled))
    effects = choice_effects(room, chosen, room.turn() or "", form)
    out.append(effects_html(effects))
    if not effects:  # a pick whose effect depends on what is filled in: asked for, worked out on a copy
        asked = filled.get(PREVIEW_FIELD) == "1" and filled.error is None
        out.append(preview_html(key, pick_preview(room, chosen, room.turn() or "", form, filled.values) if asked else None))
    if form.preview is not None:
        out.append(f"<p><button type='submit' formmethod='get' formaction='/room/{escape(key)}' id='show-then'>{escape(form.preview)}</button></p>")
    for field in form.fields:
        if field.then is not None and filled.get(field.key):
            out += [f"<p class='then'>{escape(line)}.</p>" for line in field.then(filled.values)]
    if any(field.place for field in form.fields):
        # Typed fields: the legal choices now, to read beside them.
        lines = room.session.describe_choices(chosen)
        out.append("<details><summary>Legal choices now</summary><ul>" + "".join(f"<li>{escape(line.strip())}</li>" for line in lines) + "</ul></details>")
    out.append("<p><button type='submit' id='submit-pick'>Pick</button></p></form>")
    return "".join(out)


def form_fields(form: Form, filled: Filled) -> str:
    """The form's fields as HTML: a place typed with its choices offered, any other field a list; fields of one group together."""
    lists: dict[tuple[str, ...], str] = {}  # one datalist per distinct set of choices (the rows of a placement share one)
    groups: list[tuple[str, list[Field]]] = []
    for field in form.fields:
        if not field.page:
            continue
        if field.group and groups and groups[-1][0] == field.group:
            groups[-1][1].append(field)
        else:
            groups.append((field.group, [field]))
    out = []
    for group, fields in groups:
        inner = " ".join(field_html(field, filled, lists) for field in fields)
        out.append(f"<fieldset><legend>{escape(group)}</legend><div class='row'>{inner}</div></fieldset>" if group else f"<p>{inner}</p>")
    return "".join(datalist(ident, values) for values, ident in lists.items()) + "".join(out)


def field_html(field: Field, filled: Filled, lists: dict[tuple[str, ...], str]) -> str:
    label = escape(field.label)
    spoken = escape(" ".join(w for w in (field.group, field.label) if w).lower() or field.key)
    if field.place:
        values = tuple(a.value for a in field.choices)
        ident = lists.setdefault(values, f"choices-{len(lists) + 1}")
        typed = filled.text_input(field.key, "target", default=field.default or "", extra=f" list='{ident}' autocomplete='off' aria-label='{spoken}'")
        return f"{label} {typed}" if label else typed
    if label:
        return f"<label>{label} {filled.select(field.key, ((a.value, a.label) for a in field.choices), default=field.default)}</label>"
    # A field without a label of its own (a placement's power and unit) is named by its group for a screen reader.
    return filled.select(field.key, ((a.value, a.label) for a in field.choices), default=field.default, spoken=f"{spoken} {field.key.partition('.')[0]}")


def declaration_block(room: Room, role: str, key: str, declaration: tuple[Displaced, Nearest, str | None], filled: Filled) -> str:
    """Where one displaced group goes: its side chooses among its nearest places; the other side waits."""
    displaced, found, stale = declaration
    done = "".join(f"<li>{escape(line)}</li>" for line in room.session.declaration_lines())
    out = ["<section id='declare'><h3>Declarations</h3>", f"<ul id='declared'>{done}</ul>" if done else ""]
    if stale is not None:
        out.append(f"<p>The draft file's place for them no longer applies: {escape(stale)}</p>")
    if displaced.side != role:
        out.append(f"<p id='waiting'>Waiting for the {escape(displaced.side)} to declare where {escape(displaced.describe())} go.</p></section>")
        return "".join(out)
    what = question(displaced)
    out.append(
        f"<form method='post' action='/room/{escape(key)}/declare'>{seq_fields(room)}"
        f"<p>{escape(displaced.describe())} (pick {displaced.pick}): {what} one of {escape(', '.join(found.matches))} "
        f"<span class='rule'>({escape(displaced.source)}: {escape(displaced.rule)})</span></p>"
        + datalist("declare-places", found.matches)
        + "<p class='row'>"
        + filled.text_input("to", "target", extra=" list='declare-places' autocomplete='off' aria-label='to'")
        + "<button type='submit' id='declare-submit'>Declare</button></p></form></section>"
    )
    return "".join(out)


def house_block(room: Room, role: str, key: str, filled: Filled) -> str:
    """The advantages of the side's powers that the draft file leaves to choose (or a wait for the other side)."""
    if role not in room.house_pending():
        waiting = ", ".join(room.house_pending())
        return f"<p id='house-waiting'>Waiting for the {escape(waiting)} to choose their powers' advantages.</p>"
    session = room.session
    board, names = session.game.board, session.names
    out = [
        f"<section id='house'><h3>House rules: your powers' advantages</h3><form method='post' action='/room/{escape(key)}/house' id='house-form'>{seq_fields(room)}"
    ]
    for set_id, offered in room.house_choices_open()[role].items():
        house = load_named_house_set(set_id)
        out.append(f"<h4>{escape(house.rules.title)} ({escape(house.advantages_source)})</h4>")
        for power in dict.fromkeys(a.power for a in offered):
            mine = [a for a in offered if a.power == power]
            choices = [("none", "none"), *((a.id, f"{a.number}. {a.title}") for a in mine)]
            out.append(f"<fieldset><label>{escape(power)} {filled.select(f'advantage.{set_id}.{power}', choices)}</label>")
            for advantage in mine:
                for name in advantage.choices:
                    places = advantage_places(advantage, name, board, names)
                    out.append(
                        f" <label>{escape(advantage.title)}: {escape(name.replace('_', ' '))} "
                        + filled.select(f"value.{set_id}.{power}.{name}", ((p, p) for p in places), None, "", "target")
                        + "</label>"
                    )
            out.append(
                "<details><summary>the advantages' rules</summary><ul>"
                + "".join(f"<li><b>{escape(a.title)}</b> ({escape(a.rule.source)}): {escape(a.rule.rule)}</li>" for a in mine)
                + "</ul></details></fieldset>"
            )
    out.append("<p><button type='submit' id='submit-house'>Choose</button></p></form></section>")
    return "".join(out)


def undo_block(room: Room, role: str, key: str) -> str:
    """Ask to take back the last action, naming it; or, once asked, the other side's answer (or the wait for it)."""
    request = room.undo_request
    if request is not None:
        what = escape(undo_target(room))
        if role == request.side or role == SPECTATOR:
            return f"<p class='note' id='undo-waiting'>The {escape(request.side)} asked to take back {what}; waiting for the other side.</p>"
        return (
            f"<form method='post' action='/room/{escape(key)}/undo/answer' id='undo-answer'>{seq_fields(room)}"
            f"<p class='note'>The {escape(request.side)} ask to take back {what}.</p>"
            "<button name='agree' value='yes' id='undo-agree'>Agree</button> <button name='agree' value='no' id='undo-refuse'>Refuse</button></form>"
        )
    if role == SPECTATOR or not room.session.picks:
        return ""
    if room.session.bid is None and room.session.picks[-1].side != role:
        return ""
    return (
        f"<form method='post' action='/room/{escape(key)}/undo' id='undo'>{seq_fields(room)}"
        f"<p>Last action: {escape(undo_target(room))}.</p><p class='row'><button type='submit' id='undo-button'>Undo it</button> "
        "<small>(once the other side has seen it, they must agree)</small></p></form>"
    )


def picks_block(room: Room) -> str:
    session = room.session
    values = DraftValue(tuple(session.state.side_powers), tuple(room.pick_values), None)
    out = ["<section id='picks'><h3>Picks</h3>"]
    for side in session.state.side_powers:
        out.append(f"<h4>{escape(side)}</h4><ul>")
        for value, _pick in zip(room.pick_values, session.picks):
            if value.side == side:
                out.append("<li>" + "<br>".join(escape(line) for line in describe_pick(value)) + "</li>")
        out.append(f"</ul><p class='total'>total: {values.totals()[side]:+d} IPCs</p>")
    if session.bid is not None:
        out.append(bid_html(session.bid_table, "bid-entered"))
    out.append("</section>")
    return "".join(out)


def locks_block(room: Room) -> str:
    state = room.session.state
    if not state.locks:
        return "<section id='locks'><h3>Locks</h3><p>No place is locked yet.</p></section>"
    items = "".join(f"<li>{escape(state.names.shown(p))}: {escape(side)} pick {index}</li>" for p, (side, index) in sorted(state.locks.items()))
    return f"<section id='locks'><h3>Locks</h3><ul>{items}</ul></section>"


def summary_html(lines: list[str]) -> str:
    """The summary's lines (``players_summary``: a heading ending in ':' and its indented lines) as headed lists."""
    out: list[str] = []
    items: list[str] = []

    def close() -> None:
        if items:
            out.append("<ul>" + "".join(f"<li>{escape(item)}</li>" for item in items) + "</ul>")
            items.clear()

    for line in lines:
        if line.startswith(" "):
            items.append(line.strip())
            continue
        close()
        heading = line.rstrip()
        if heading.endswith(":"):
            out.append(f"<h4>{escape(heading[:-1])}</h4>")
        else:
            out.append(f"<p>{escape(heading)}</p>")
    close()
    return "".join(out)


def complete_block(room: Room, role: str, key: str) -> str:
    result = room.result()
    out = ["<section id='complete'><h3>The game</h3>"]
    if role != SPECTATOR:
        out.append(
            f"<p><a id='download' href='/room/{escape(key)}/game.xml'>Download the game XML</a> (what <code>apply</code> writes for this draft file)</p>"
        )
        for side, name in room.installed.items():
            out.append(f"<p class='installed'>The {escape(side)} installed it on the host's TripleA as <b>{escape(name)}</b>.</p>")
        if role not in room.installed:  # one install per side (Room.install)
            out.append(
                f"<form method='post' action='/room/{escape(key)}/install' id='install'>{seq_fields(room)}"
                f"<p class='row'><label for='install-name'>Name in TripleA</label><input name='name' id='install-name' value='{escape(install_name(result))}'></p>"
                "<button type='submit'>Install into TripleA on the serving machine</button></form>"
            )
    out.append("<h3>Summary</h3><div id='summary'>" + summary_html(players_summary(result)) + "</div></section>")
    return "".join(out)

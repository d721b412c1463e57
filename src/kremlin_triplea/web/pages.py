"""The room's pages, drawn on the server from the draft engine's legal choices.

The page lists only what ``draft.legal`` says is legal now; the server still
checks every request, so nothing here is a rule, only a menu.
"""

from __future__ import annotations

import json
from html import escape
from typing import TYPE_CHECKING

from kremlin_triplea.draft.choices import NextPick, OptionChoices
from kremlin_triplea.draft.declare import question
from kremlin_triplea.draft.form import Field, Form
from kremlin_triplea.draft.kinds import KINDS
from kremlin_triplea.draft.legal import bid_choices
from kremlin_triplea.gamerules.house import advantage_places
from kremlin_triplea.report.notes import install_name
from kremlin_triplea.report.value import DraftValue, describe_pick
from kremlin_triplea.rules.house_rules import load_named_house_set
from kremlin_triplea.web.forms import MAX_ROWS
from kremlin_triplea.web.room import SPECTATOR

if TYPE_CHECKING:
    from kremlin_triplea.draft.kinds import Displaced
    from kremlin_triplea.model.queries import Nearest
    from kremlin_triplea.web.room import Room

SCRIPT = """
(function () {
  var active = null;  // the target field a map click fills
  document.addEventListener('focusin', function (e) { if (e.target.classList && e.target.classList.contains('target')) active = e.target; });
  document.addEventListener('click', function (e) {
    var path = e.target.closest && e.target.closest('#board path[data-name]');
    if (!path) return;
    var field = active || document.querySelector('input.target');
    if (field) { field.value = path.getAttribute('data-name'); field.dispatchEvent(new Event('change')); }
  });
  document.addEventListener('mouseover', function (e) {
    var path = e.target.closest && e.target.closest('#board path[data-name]');
    var tip = document.getElementById('tip');
    if (!path || !tip) return;
    var info = JSON.parse(document.getElementById('places').textContent)[path.getAttribute('data-name')];
    tip.textContent = path.getAttribute('data-name') + (info ? ': ' + info : '');
  });
  // A second click while the first submission is on its way sends nothing (the server refuses it anyway).
  document.addEventListener('submit', function (e) {
    var button = e.submitter;
    if (button) setTimeout(function () { button.disabled = true; }, 0);
  });
  // The bid's running budget: the rows with a place, as the server counts them, against the amount.
  function budget() {
    var form = document.getElementById('bid-form');
    if (!form) return;
    var costs = JSON.parse(form.getAttribute('data-costs') || '{}'), spent = 0;
    form.querySelectorAll('#bid-rows tbody tr').forEach(function (row) {
      var power = row.querySelector('select[name^="power."]').value, unit = row.querySelector('select[name^="unit."]').value;
      var count = parseInt(row.querySelector('input[name^="count."]').value || '1', 10) || 0;
      var placed = row.querySelector('input[name^="at."]').value.trim() !== '';
      var cost = ((costs[power] || {})[unit] || 0) * count;
      row.querySelector('.row-cost').textContent = placed ? String(cost) : '';
      if (placed) spent += cost;
    });
    var amount = parseInt(form.querySelector('[name=amount]').value || '0', 10) || 0;
    var shown = document.getElementById('budget');
    shown.textContent = spent + ' of ' + Math.abs(amount) + ' PUs ' + (amount < 0 ? 'removed' : 'spent') + '.';
    shown.classList.toggle('over', spent > Math.abs(amount));
  }
  document.addEventListener('input', budget);
  document.addEventListener('change', budget);
  // The map at a size where its labels read as the page's text does (they are drawn for the full-size picture).
  function zoom() {
    var svg = document.querySelector('#board svg');
    var on = document.documentElement.classList.contains('map-zoom');
    if (svg) svg.style.width = on ? Math.round(svg.viewBox.baseVal.width * 0.6) + 'px' : '';
    var button = document.getElementById('zoom');
    if (button) { button.textContent = on ? 'Fit the map' : 'Larger map (readable labels)'; button.setAttribute('aria-pressed', on); }
  }
  document.addEventListener('click', function (e) {
    if (e.target.id !== 'zoom') return;
    document.documentElement.classList.toggle('map-zoom');
    zoom();
  });
  // The board comes apart from the page (drawn once a step for everyone): the page does not wait for it. The board
  // shown so far (kept) stays until the new one is in.
  function board(kept) {
    var map = document.querySelector('#board .map');
    if (!map) return;
    if (kept) { map.replaceChildren(kept); zoom(); }
    fetch(map.getAttribute('data-board'), {cache: 'no-store'}).then(function (r) { return r.text(); }).then(function (drawn) {
      if (!map.isConnected) return;  // a newer page is in: its own board is on its way
      map.innerHTML = drawn;
      zoom();
    });
  }
  budget();
  zoom();
  board(null);
  var room = document.getElementById('room');
  if (!room) return;
  // A refused form is drawn as the answer to its POST (/room/KEY/pick): the room's own address is the one to
  // fetch when the room changes, and the one a reload asks for (not the form sent again).
  var here = room.getAttribute('data-page');
  if (location.pathname !== here) history.replaceState(null, '', here);
  if (!window.EventSource) return;
  var source = new EventSource(room.getAttribute('data-events'));
  source.onmessage = function (e) {
    if (e.data === room.getAttribute('data-seq')) return;
    fetch(here, {cache: 'no-store'}).then(function (r) { return r.text(); }).then(function (html) {
      var fresh = new DOMParser().parseFromString(html, 'text/html').getElementById('room');
      if (!fresh) return;
      var kept = room.querySelector('#board .map svg');
      room.innerHTML = fresh.innerHTML;
      for (var i = 0; i < fresh.attributes.length; i++) room.setAttribute(fresh.attributes[i].name, fresh.attributes[i].value);
      budget();
      board(kept);
    });
  };
})();
"""

STYLE = """
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { font-family: DejaVu Sans, sans-serif; margin: 0; line-height: 1.4; color: #1d1d1d; background: #f7f6f2; }
/* One column on a phone (the forms, then the map), two from a laptop's width up: never wider than the window. */
#room { display: grid; grid-template-columns: minmax(0, 1fr); gap: 0 1.25em; padding: 0 .75em 1em; }
#controls, #board { min-width: 0; }
@media (min-width: 900px) {
  #room { grid-template-columns: minmax(21em, 1fr) minmax(0, 1fr); }
  #bar { grid-column: 1 / -1; }
  #board { position: sticky; top: 5.5em; align-self: start; }
}
/* Whose turn it is and what is pending stay in sight while the page scrolls. */
#bar { position: sticky; top: 0; z-index: 2; margin: 0 -.75em .5em; padding: .45em .75em; background: #24364b; color: #fff; }
#bar h1 { font-size: 95%; font-weight: normal; margin: 0; opacity: .85; }
#bar #status { font-size: 110%; margin: .15em 0 0; }
#bar #pending { margin: .1em 0 0; font-size: 90%; }
#bar #pending:empty { display: none; }
h2 { font-size: 120%; } h3 { font-size: 110%; margin: 1em 0 .4em; } h4 { margin: .8em 0 .3em; }
p, li, legend, label, summary { overflow-wrap: anywhere; }
td, th { overflow-wrap: break-word; }
input, select, button { font: inherit; max-width: 100%; }
input:not([type]), input[type=text], input[type=number] { padding: .25em .35em; }
select { min-width: 0; padding: .2em; }
button { padding: .35em .9em; min-height: 2.3em; cursor: pointer; }
fieldset { min-width: 0; margin: .5em 0; border: 1px solid #bbb; border-radius: 4px; }
.row { display: flex; flex-wrap: wrap; gap: .35em .5em; align-items: center; }
.row input.target, #install-name { flex: 1 1 9em; min-width: 0; }
.refused { background: #fdd; border: 1px solid #b00; padding: .5em; }
.note { background: #e6ecf7; border: 1px solid #9ab; padding: .5em; }
.at-fault { outline: 2px solid #b00; background: #fff3f3; }
.rule-text { margin: .5em 0; background: #fff; border-left: 3px solid #8a6d3b; padding: .3em .6em; font-size: 92%; }
.rule-text footer { color: #555; font-size: 90%; }
.columns { display: flex; gap: 0 2em; flex-wrap: wrap; }
.columns > section { flex: 1 1 14em; min-width: 0; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .2em .4em; border-bottom: 1px solid #ddd; vertical-align: top; }
td.number, th.number { text-align: right; white-space: nowrap; }
input[type=number] { width: 6em; }
#bid-rows { table-layout: fixed; }
#bid-rows select, #bid-rows input { width: 100%; }
#bid-rows th:nth-child(1), #bid-rows th:nth-child(2) { width: 24%; }
#bid-rows th:nth-child(3) { width: 4.5em; } #bid-rows th:nth-child(5) { width: 3em; }
#bid-rows td { vertical-align: middle; }
caption { text-align: left; font-weight: bold; padding: .3em 0; }
@media (min-width: 1280px) { #room { grid-template-columns: minmax(21em, 2fr) minmax(0, 3fr); } }
#board .map { overflow: auto; max-height: 88vh; background: #fff; border: 1px solid #ccc; }
#board svg { display: block; width: 100%; height: auto; }
.map-zoom #board svg { max-width: none; }
#budget.over { color: #b00; }
@media (max-width: 600px) {
  #bar h1 { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; font-size: 80%; }
}
/* The bid's table, in a narrow column (a phone's), as one card per row: power and unit, count and cost, then the place. */
#controls { container-type: inline-size; }
@container (max-width: 30em) {
  #bid-rows thead { display: none; }
  #bid-rows tr { display: grid; grid-template-columns: 1fr 1fr; gap: .3em; padding: .4em 0; border-bottom: 1px solid #ccc; }
  #bid-rows td { border: 0; padding: 0; }
  #bid-rows td[data-label='At'] { grid-column: 1 / -1; order: 1; }
  #bid-rows td select, #bid-rows td input { width: 100%; }
  #bid-rows td.row-cost { align-self: center; }
  #bid-rows td.row-cost:not(:empty)::before { content: 'PUs: '; }
  #bid-rows td[data-label='Count'] { display: flex; align-items: center; gap: .4em; }
  #bid-rows td[data-label='Count']::before { content: 'Count'; }
}
"""


def page(title: str, body: str) -> str:
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
    run = session.run
    turn = room.turn()
    declaration = room.declaration()
    if room.complete:
        return "The draft is complete."
    if declaration is not None:
        return f"The bid is agreed. The {declaration[0].side} declare where {declaration[0].describe()} go (000 A, order of action)."
    if turn is None and session.bid is not None:
        return "The bid is agreed. House rules: each side chooses its powers' advantages."
    if turn is None and room.bid_proposal is not None:
        return f"All {run.total_picks} picks are made. The {room.bid_proposal.side} propose a bid; the other side agrees or refuses."
    if turn is None:
        return f"All {run.total_picks} picks are made: the bid."
    player = f" ({session.players[turn]})" if turn in session.players else ""
    return f"Pick {len(run.applied) + 1} of {run.total_picks}: the {turn} choose.{player}"


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
) -> str:
    """``role``'s page of the room; ``board``: the address the page's script fetches the board from."""
    session = room.session
    player = session.players.get(role)
    who = "spectator (read-only)" if role == SPECTATOR else f"{player}, for the {role}" if player else f"the {role}"
    bar = (
        f"<header id='bar'><h1>Kremlin draft: {escape(session.run.ruleset.title)} · {escape(session.game.board.game_name)} · "
        f"you are <b id='role'>{escape(who)}</b></h1>"
        f"<p id='status'><b>{escape(status_line(room))}</b></p><p id='pending'>{escape(pending_line(room, role))}</p></header>"
    )
    out = [answer_notice(room, role), f"<p class='draft-file'>Draft file {escape(room.path.name)}</p>"]
    if error:
        out.append(f"<p class='refused' role='alert' id='refused'>Refused: {escape(error)}</p>")
    if note:
        out.append(f"<p class='note' id='note'>{escape(note)}</p>")
    if session.house_rules:
        out.append(
            "<p id='house-rules'>House rules written into the game after the bid: "
            + escape(", ".join(session.house_rules))
            + " (their choices as the draft file gives them; <code>apply</code> writes them).</p>"
        )
    out.append(undo_block(room, role, key))
    out.append(action_block(room, role, key, option, Filled(query, error)))
    if room.complete:
        out.append(complete_block(room, role, key))
    out.append("<div class='columns'>" + picks_block(room) + locks_block(room) + "</div>")
    out.append("<p id='tip'>Hover a territory for its owner, value and units; click it to fill the focused target.</p>")
    out.append(f"<script type='application/json' id='places'>{escape(json.dumps(places_info(room)), quote=False)}</script>")
    body = (
        f"<div id='room' data-seq='{room.seq}' data-events='/events/{escape(key)}' data-page='/room/{escape(key)}'>{bar}<div id='controls'>"
        + "".join(out)
        + f"</div><div id='board'><p><button type='button' id='zoom' aria-pressed='false'>Larger map (readable labels)</button></p><div class='map' data-board='{escape(board)}'><p><a href='{escape(board)}'>The board</a> (the page puts it here)</p></div></div></div>"
    )
    return page(f"Kremlin draft — {who}", body)


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


def action_block(room: Room, role: str, key: str, option: str | None, filled: Filled) -> str:
    """The form this side fills in now, or what it waits for."""
    if role == SPECTATOR or room.undo_request is not None or room.complete:
        return ""
    turn = room.turn()
    declaration = room.declaration()
    if turn == role:
        return pick_block(room, key, option, filled)
    if declaration is not None:
        return declaration_block(room, role, key, declaration, filled)
    if turn is None and room.session.bid is not None:
        return house_block(room, role, key, filled)
    if turn is None and room.bid_proposal is not None:
        return bid_answer_block(room, role, key)
    if turn is None:
        return bid_block(room, key, filled)
    return f"<p id='waiting'>Waiting for the {escape(turn)}.</p>"


def places_info(room: Room) -> dict[str, str]:
    """Each territory's owner, value and units: the tip shown when the pointer is over it."""
    return {
        place: f"{data['owner'] or 'neutral'}; {data['production']} IPC; "
        + (", ".join(f"{n} {o} {u}" for (o, u), n in sorted(data["units"].items(), key=lambda i: (str(i[0][0]), i[0][1])) if n) or "no units")
        for place, data in room.session.state.board.nodes.items()
    }


def undo_target(room: Room) -> str:
    """The action an undo takes back, named: the bid, or the last pick with what it did."""
    session = room.session
    if session.bid is not None:
        return "the agreed bid (" + bid_text(session.bid_table) + ")"
    return room.last_action()


# Fields whose typed text a refusal may quote (a place): the field whose text it quotes is marked. A pick form
# adds its kind's place fields (a neutral, a territory taken over).
TYPED_FIELDS = ("at", "to")


class Filled:
    """A form as its player last sent it: kept when the server refuses it, with the fields the refusal names marked."""

    def __init__(self, values: dict[str, str] | None = None, error: str | None = None) -> None:
        self.values = values or {}
        self.error = error
        self.typed = set(TYPED_FIELDS)  # the names (before any ".N") of fields typed as text

    @property
    def faults(self) -> set[str]:
        return fault_fields(self.error, self.values, self.typed)

    def get(self, name: str, default: str = "") -> str:
        return self.values.get(name, default)

    def field(self, name: str, *classes: str) -> str:
        """The name (and classes) of an input or select; a field at fault is marked for the eye and for screen readers."""
        wrong = name in self.faults
        names = " ".join((*classes, "at-fault") if wrong else classes)
        return f"name='{escape(name)}'" + (f" class='{names}'" if names else "") + (" aria-invalid='true'" if wrong else "")

    def text_input(self, name: str, *classes: str, default: str = "", extra: str = "") -> str:
        return f"<input {self.field(name, *classes)} value='{escape(self.get(name, default))}'{extra}>"

    def select(self, name: str, values, default: str | None = None) -> str:
        return f"<select {self.field(name)}>{_options(values, selected=self.get(name) or default)}</select>"


def fault_fields(error: str | None, values: dict[str, str], typed: set[str]) -> set[str]:
    """The fields a refusal is about: the one a malformed-form message starts with (``count.2: ...``), and the typed
    places whose text it quotes ("Sweden", "Mongolia": the neutrals worth more than four)."""
    if not error:
        return set()
    found = {error.split(":", 1)[0]} & set(values)
    told = error.lower()
    for name, value in values.items():
        text = value.strip().lower()
        if name.partition(".")[0] in typed and len(text) > 2 and text in told:
            found.add(name)
    return found


def _seq(room: Room) -> str:
    return f"<input type='hidden' name='seq' value='{room.seq}'>"


def _options(values, selected: str | None = None) -> str:
    return "".join(f"<option value='{escape(v)}'{' selected' if v == selected else ''}>{escape(label)}</option>" for v, label in values)


def _datalist(ident: str, places) -> str:
    return f"<datalist id='{ident}'>" + "".join(f"<option value='{escape(p)}'>" for p in places) + "</datalist>"


def pick_block(room: Room, key: str, option: str | None, filled: Filled) -> str:
    next_pick: NextPick = room.next_pick()
    available = [c for c in next_pick.options if c.available]
    out = ["<section id='pick'><h3>Your pick</h3>"]
    out.append(
        f"<form method='get' action='/room/{escape(key)}' id='choose-option' class='row'><label for='option-select'>Option</label>"
        f"<select name='option' id='option-select'>{_options(((str(c.option.number), f'{c.option.number} {c.option.title}') for c in available), selected=option)}</select>"
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
        f"<form method='post' action='/room/{escape(key)}/pick' id='pick-form'>{_seq(room)}",
        f"<input type='hidden' name='option' value='{option.number}'>",
        f"<h4>Option {option.number}: {escape(option.title)}</h4>",
        f"<blockquote class='rule-text' id='rule-text'>{escape(option.rule)}<footer>{escape(option.source)}</footer></blockquote>",
    ]
    out += [f"<p>{escape(note)}</p>" for note in form.notes]
    out.append(form_fields(form, filled))
    if form.preview is not None:
        out.append(f"<p><button type='submit' formmethod='get' formaction='/room/{escape(key)}' id='show-then'>{escape(form.preview)}</button></p>")
    for field in form.fields:
        if field.then is not None and filled.get(field.key):
            out += [f"<p class='then'>{escape(line)}.</p>" for line in field.then(filled.values)]
    if any(field.place for field in form.fields):
        # Typed fields: the legal choices now, to read beside them.
        lines = KINDS[option.kind].describe_choices(chosen)
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
    return "".join(_datalist(ident, values) for values, ident in lists.items()) + "".join(out)


def field_html(field: Field, filled: Filled, lists: dict[tuple[str, ...], str]) -> str:
    label = escape(field.label)
    if field.place:
        values = tuple(a.value for a in field.choices)
        ident = lists.setdefault(values, f"choices-{len(lists) + 1}")
        spoken = escape(" ".join(w for w in (field.group, field.label) if w).lower() or field.key)
        typed = filled.text_input(field.key, "target", default=field.default or "", extra=f" list='{ident}' autocomplete='off' aria-label='{spoken}'")
        return f"{label} {typed}" if label else typed
    select = filled.select(field.key, ((a.value, a.label) for a in field.choices), default=field.default)
    return f"<label>{label} {select}</label>" if label else select


BID_ROWS = 6  # rows of the bid's units shown at first (a refused bid with more keeps all of its rows)


def bid_costs(room: Room) -> dict[str, dict[str, int]]:
    """Power -> unit -> what it costs in a bid (the ruleset's bid costs on this board)."""
    return {power: dict(costs) for power, costs in bid_choices(room.session.state).costs}


def budget_text(filled: Filled, costs: dict[str, dict[str, int]]) -> str:
    """ "29 of 30 PUs spent": the rows with a place, as the server counts them (a row without one is left out)."""
    try:
        amount = int(filled.get("amount", "0") or "0")
    except ValueError:
        return "The amount is not a whole number."
    spent = 0
    for n in range(MAX_ROWS):
        if filled.get(f"at.{n}").strip():
            try:
                count = int(filled.get(f"count.{n}", "1") or "1")
            except ValueError:
                continue
            spent += costs.get(filled.get(f"power.{n}"), {}).get(filled.get(f"unit.{n}"), 0) * count
    verb = "removed" if amount < 0 else "spent"
    return f"{spent} of {abs(amount)} PUs {verb}."


AT_FIELD = " list='bid-places' autocomplete='off' placeholder='type, or click the map'"


def bid_rows(room: Room, filled: Filled, costs: dict[str, dict[str, int]]) -> str:
    powers = list(costs)
    units = sorted({u for unit_costs in costs.values() for u in unit_costs})
    default_unit = room.session.state.names.unit("infantry") if room.session.state.names.has_unit("infantry") else None
    shown = max([BID_ROWS, *(int(k.partition(".")[2]) + 1 for k in filled.values if k.startswith("at.") and k.partition(".")[2].isdigit())])
    rows = []
    for n in range(min(shown, MAX_ROWS)):
        rows.append(
            f"<tr><td data-label='Power'>{filled.select(f'power.{n}', ((p, p) for p in powers))}</td>"
            f"<td data-label='Unit'>{filled.select(f'unit.{n}', ((u, u) for u in units), default=default_unit)}</td>"
            f"<td data-label='Count'>{filled.text_input(f'count.{n}', default='1', extra=' type=number min=1 step=1 inputmode=numeric')}</td>"
            f"<td data-label='At'>{filled.text_input(f'at.{n}', 'target', extra=AT_FIELD)}</td>"
            "<td class='number row-cost' data-label='PUs'></td></tr>"
        )
    return (
        "<table id='bid-rows'><thead><tr><th>Power</th><th>Unit</th><th>Count</th><th>At</th><th class='number'>PUs</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )


def bid_block(room: Room, key: str, filled: Filled) -> str:
    state = room.session.state
    rules = state.ruleset.bid
    choices = bid_choices(state)
    costs = bid_costs(room)
    totals = DraftValue(tuple(state.side_powers), tuple(room.pick_values), None).totals()
    out = [
        "<section id='bid'><h3>The bid</h3>",
        f"<p>Picks so far: {escape(', '.join(f'{s} {v:+d}' for s, v in totals.items()))} IPCs. Positive: the {escape(rules.placing_side)} place units worth it; "
        f"negative: the {escape(rules.receiving_side)} receive the PUs"
        + (" (the Axis remove units worth it)" if rules.negative == "remove_units" else "")
        + ".</p>",
        f"<form method='post' action='/room/{escape(key)}/bid' id='bid-form' data-costs='{escape(json.dumps(costs))}'>{_seq(room)}"
        f"<p class='row'><label>Amount {filled.text_input('amount', default='0', extra=' type=number step=1 inputmode=numeric size=6')}</label>"
        f"<b id='budget' aria-live='polite'>{escape(budget_text(filled, costs))}</b></p>",
    ]
    out.append(_datalist("bid-places", sorted({p for _, places in choices.places for p in places})))
    out.append("<p>Units placed (positive bid) or removed (negative bid that removes units); a row without a place is left out:</p>")
    out.append(bid_rows(room, filled, costs))
    if rules.negative != "remove_units":
        out.append(
            "<p>Allocation of a negative bid:</p><p class='row'>"
            + "".join(
                f"<label>{escape(p)} {filled.text_input(f'allocate.{p}', default='0', extra=' type=number min=0 step=1 inputmode=numeric size=4')}</label> "
                for p in state.side_powers[rules.receiving_side]
            )
            + "</p>"
        )
    out.append("<p><button type='submit' id='submit-bid'>Propose the bid</button></p></form></section>")
    return "".join(out)


def bid_text(bid: dict) -> str:
    """A bid in one line of words: "Axis 12 PUs: 1 Germans infantry at Poland, ..."."""
    sides = [f"{side.capitalize()} {amount:+d} PUs" for side, amount in bid.items() if isinstance(amount, int)]
    rows = [
        f"{'remove ' if kind == 'remove' else ''}{r.get('count', 1)} {r['power']} {r['unit']} at {r['at']}"
        for kind in ("place", "remove")
        for r in bid.get(kind, [])
    ]
    shares = [f"{power} receives {share}" for power, share in bid.get("allocate", {}).items()]
    return ", ".join(sides) + (": " + ", ".join(rows + shares) if rows or shares else "")


def bid_html(bid: dict, ident: str) -> str:
    """A bid as a sentence for its amount and a table of its units (placed or removed) or of its allocation."""
    amounts = ", ".join(f"the {side.capitalize()} {amount:+d} PUs" for side, amount in bid.items() if isinstance(amount, int))
    out = [f"<div id='{ident}' class='bid-shown'><p>Bid: {escape(amounts)}</p>"]
    for kind, verb in (("place", "placed"), ("remove", "removed")):
        rows = bid.get(kind, [])
        if rows:
            out.append(
                f"<table><caption>Units {verb}</caption><tr><th>Power</th><th>Unit</th><th class='number'>Count</th><th>At</th></tr>"
                + "".join(
                    f"<tr><td>{escape(r['power'])}</td><td>{escape(r['unit'])}</td><td class='number'>{int(r.get('count', 1))}</td><td>{escape(r['at'])}</td></tr>"
                    for r in rows
                )
                + "</table>"
            )
    if bid.get("allocate"):
        out.append(
            "<table><caption>PUs received</caption><tr><th>Power</th><th class='number'>PUs</th></tr>"
            + "".join(f"<tr><td>{escape(power)}</td><td class='number'>{int(share)}</td></tr>" for power, share in bid["allocate"].items())
            + "</table>"
        )
    out.append("</div>")
    return "".join(out)


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
        f"<form method='post' action='/room/{escape(key)}/declare'>{_seq(room)}"
        f"<p>{escape(displaced.describe())} (pick {displaced.pick}): {what} one of {escape(', '.join(found.matches))} "
        f"<span class='rule'>({escape(displaced.source)}: {escape(displaced.rule)})</span></p>"
        + _datalist("declare-places", found.matches)
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
    board, names = session.game.board, session.run.names
    out = [
        f"<section id='house'><h3>House rules: your powers' advantages</h3><form method='post' action='/room/{escape(key)}/house' id='house-form'>{_seq(room)}"
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
                        f" <label>{escape(advantage.title)}: {escape(name)} "
                        + filled.select(f"value.{set_id}.{power}.{name}", ((p, p) for p in places))
                        + "</label>"
                    )
            out.append(
                "<details><summary>the advantages' rules</summary><ul>"
                + "".join(f"<li><b>{escape(a.title)}</b> ({escape(a.rule.source)}): {escape(a.rule.rule)}</li>" for a in mine)
                + "</ul></details></fieldset>"
            )
    out.append("<p><button type='submit' id='submit-house'>Choose</button></p></form></section>")
    return "".join(out)


def bid_answer_block(room: Room, role: str, key: str) -> str:
    """The bid one side entered: the other side agrees (the draft is complete) or refuses it."""
    proposal = room.bid_proposal
    assert proposal is not None
    shown = bid_html(proposal.bid, "bid-proposed")
    if role == proposal.side:
        return f"<section id='bid'><h3>The bid</h3><p id='bid-waiting'>Your bid waits for the other side to agree:</p>{shown}</section>"
    return (
        f"<section id='bid'><h3>The bid</h3><p>The {escape(proposal.side)} propose this bid:</p>{shown}"
        f"<form method='post' action='/room/{escape(key)}/bid/answer' id='bid-answer'>{_seq(room)}"
        "<button name='agree' value='yes' id='bid-agree'>Agree</button> <button name='agree' value='no' id='bid-refuse'>Refuse</button></form></section>"
    )


def undo_block(room: Room, role: str, key: str) -> str:
    """Ask to take back the last action, naming it; or, once asked, the other side's answer (or the wait for it)."""
    request = room.undo_request
    if request is not None:
        what = escape(undo_target(room))
        if role == request.side or role == SPECTATOR:
            return f"<p class='note' id='undo-waiting'>The {escape(request.side)} asked to take back {what}; waiting for the other side.</p>"
        return (
            f"<form method='post' action='/room/{escape(key)}/undo/answer' id='undo-answer'>{_seq(room)}"
            f"<p class='note'>The {escape(request.side)} ask to take back {what}.</p>"
            "<button name='agree' value='yes' id='undo-agree'>Agree</button> <button name='agree' value='no' id='undo-refuse'>Refuse</button></form>"
        )
    if role == SPECTATOR or not room.session.picks:
        return ""
    if room.session.bid is None and room.session.picks[-1].side != role:
        return ""
    return (
        f"<form method='post' action='/room/{escape(key)}/undo' id='undo'>{_seq(room)}"
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
    """The summary's lines (as ``apply`` prints them: a heading ending in ':' and its indented lines) as headed lists."""
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
                f"<form method='post' action='/room/{escape(key)}/install' id='install'>{_seq(room)}"
                f"<p class='row'><label for='install-name'>Name in TripleA</label><input name='name' id='install-name' value='{escape(install_name(result))}'></p>"
                "<button type='submit'>Install into TripleA on the serving machine</button></form>"
            )
    out.append("<h3>Summary</h3><div id='summary'>" + summary_html(result.summary()) + "</div></section>")
    return "".join(out)

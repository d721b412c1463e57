"""The room's pages, drawn on the server from the draft engine's legal choices.

The page lists only what ``draft.legal`` says is legal now; the server still
checks every request, so nothing here is a rule, only a menu.
"""

from __future__ import annotations

import json
from html import escape
from typing import TYPE_CHECKING

from kremlin_triplea.draft.choices import NextPick, OptionChoices
from kremlin_triplea.draft.legal import bid_choices
from kremlin_triplea.errors import KremlinError
from kremlin_triplea.gamerules.house import advantage_places
from kremlin_triplea.report.value import DraftValue, describe_pick
from kremlin_triplea.rules.house_rules import load_named_house_set
from kremlin_triplea.web.forms import FORM_KINDS
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
  var room = document.getElementById('room');
  if (!room || !window.EventSource) return;
  var source = new EventSource(room.getAttribute('data-events'));
  source.onmessage = function (e) {
    if (e.data === room.getAttribute('data-seq')) return;
    fetch(location.pathname, {cache: 'no-store'}).then(function (r) { return r.text(); }).then(function (html) {
      var fresh = new DOMParser().parseFromString(html, 'text/html').getElementById('room');
      if (fresh) { room.innerHTML = fresh.innerHTML; room.setAttribute('data-seq', fresh.getAttribute('data-seq')); }
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
  #room { grid-template-columns: minmax(21em, 2fr) minmax(0, 3fr); }
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
p, li, td, th, legend, label, summary { overflow-wrap: anywhere; }
input, select, button { font: inherit; max-width: 100%; }
input:not([type]), input[type=text], input[type=number] { padding: .25em .35em; }
select { min-width: 0; padding: .2em; }
button { padding: .35em .9em; min-height: 2.3em; cursor: pointer; }
fieldset { min-width: 0; margin: .5em 0; border: 1px solid #bbb; border-radius: 4px; }
.row { display: flex; flex-wrap: wrap; gap: .35em .5em; align-items: center; }
.row input.target { flex: 1 1 9em; min-width: 0; }
.refused { background: #fdd; border: 1px solid #b00; padding: .5em; }
.note { background: #e6ecf7; border: 1px solid #9ab; padding: .5em; }
.at-fault { outline: 2px solid #b00; background: #fff3f3; }
.rule-text { background: #fff; border-left: 3px solid #8a6d3b; padding: .3em .6em; font-size: 92%; }
.columns { display: flex; gap: 0 2em; flex-wrap: wrap; }
.columns > section { flex: 1 1 14em; min-width: 0; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .2em .4em; border-bottom: 1px solid #ddd; vertical-align: top; }
td.number, th.number { text-align: right; white-space: nowrap; }
caption { text-align: left; font-weight: bold; padding: .3em 0; }
#board svg { display: block; width: 100%; height: auto; max-height: 90vh; background: #fff; }
#board path[data-name]:hover { stroke: #000; stroke-width: 3; cursor: pointer; }
#tip { min-height: 1.2em; font-size: 90%; }
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
    if turn is None and "bid" in session.data:
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
    elif room.picks_done and "bid" in room.session.data:
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
    svg: str = "",
) -> str:
    session = room.session
    turn = room.turn()
    player = session.players.get(role)
    who = "spectator (read-only)" if role == SPECTATOR else f"{player}, for the {role}" if player else f"the {role}"
    bar = (
        f"<header id='bar'><h1>Kremlin draft: {escape(session.run.ruleset.title)} · {escape(session.game.board.game_name)} · "
        f"you are <b id='role'>{escape(who)}</b></h1>"
        f"<p id='status'><b>{escape(status_line(room))}</b></p><p id='pending'>{escape(pending_line(room, role))}</p></header>"
    )
    out = [f"<p class='draft-file'>Draft file {escape(room.path.name)}</p>"]
    if error:
        out.append(f"<p class='refused' id='refused'>Refused: {escape(error)}</p>")
    if note:
        out.append(f"<p class='note' id='note'>{escape(note)}</p>")
    if session.data.get("house_rules"):
        out.append(
            "<p id='house-rules'>House rules written into the game after the bid: "
            + escape(", ".join(session.data["house_rules"]))
            + " (their choices as the draft file gives them; <code>apply</code> writes them).</p>"
        )
    out.append(undo_block(room, role, key))
    out.append(action_block(room, role, key, option, query or {}))
    if room.complete:
        out.append(complete_block(room, role, key))
    out.append("<div class='columns'>" + picks_block(room) + locks_block(room) + "</div>")
    out.append("<p id='tip'>Hover a territory for its owner, value and units; click it to fill the focused target.</p>")
    out.append(f"<script type='application/json' id='places'>{escape(json.dumps(places_info(room)), quote=False)}</script>")
    body = (
        f"<div id='room' data-seq='{room.seq}' data-events='/events/{escape(key)}' data-turn='{escape(turn or '')}'>{bar}<div id='controls'>"
        + "".join(out)
        + f"</div><div id='board'>{svg}</div></div>"
    )
    return page(f"Kremlin draft — {who}", body)


def action_block(room: Room, role: str, key: str, option: str | None, query: dict[str, str]) -> str:
    """The form this side fills in now, or what it waits for."""
    if role == SPECTATOR or room.undo_request is not None or room.complete:
        return ""
    turn = room.turn()
    declaration = room.declaration()
    if turn == role:
        return pick_block(room, key, option, query)
    if declaration is not None:
        return declaration_block(room, role, key, declaration)
    if turn is None and "bid" in room.session.data:
        return house_block(room, role, key)
    if turn is None and room.bid_proposal is not None:
        return bid_answer_block(room, role, key)
    if turn is None:
        return bid_block(room, key, query)
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
    if "bid" in session.data:
        return "the agreed bid (" + bid_text(session.data["bid"]) + ")"
    if not session.picks:
        return "nothing"
    return f"pick {len(session.picks)} ({describe_pick(session.values[-1])[0]})"


def _seq(room: Room) -> str:
    return f"<input type='hidden' name='seq' value='{room.seq}'>"


def _options(values, selected: str | None = None) -> str:
    return "".join(f"<option value='{escape(v)}'{' selected' if v == selected else ''}>{escape(label)}</option>" for v, label in values)


def _datalist(ident: str, places) -> str:
    return f"<datalist id='{ident}'>" + "".join(f"<option value='{escape(p)}'>" for p in places) + "</datalist>"


def pick_block(room: Room, key: str, option: str | None, query: dict[str, str]) -> str:
    next_pick: NextPick = room.next_pick()
    available = [c for c in next_pick.options if c.available]
    out = ["<section id='pick'><h3>Your pick</h3>"]
    out.append(
        f"<form method='get' action='/room/{escape(key)}' id='choose-option'><label>Option "
        f"<select name='option'>{_options(((str(c.option.number), f'{c.option.number} {c.option.title}') for c in available), selected=option)}</select></label>"
        " <button type='submit'>Choose</button></form>"
    )
    unavailable = [c for c in next_pick.options if not c.available]
    if unavailable:
        out.append(
            "<ul class='unavailable'>"
            + "".join(f"<li>{c.option.number} {escape(c.option.title)}: {escape(c.unavailable or '')}</li>" for c in unavailable)
            + "</ul>"
        )
    chosen = next((c for c in available if option in (str(c.option.number), c.option.id)), None)
    if chosen is not None:
        out.append(option_form(room, key, chosen, query))
    out.append("</section>")
    return "".join(out)


def takeover_fields(room: Room, key: str, chosen: OptionChoices, query: dict[str, str]) -> str:
    """The territory and the power; once the page is asked for that takeover, the retreats the engine lists for it."""
    names = room.session.state.names
    out = [_datalist("legal-takeovers", sorted({t.territory for t in chosen.takeovers}))]
    powers = list(dict.fromkeys(t.power for t in chosen.takeovers))
    wanted = None
    try:
        wanted = (names.place(query["territory"]), names.power(query["by"])) if query.get("territory") and query.get("by") else None
    except KremlinError:  # a name the engine does not know: the form asks again, the pick itself is checked on submit
        wanted = None
    takeover = next((t for t in chosen.takeovers if (t.territory, t.power) == wanted), None)
    territory = escape(takeover.territory if takeover else query.get("territory", ""))
    out.append(
        f"<fieldset><legend>take over</legend><input class='target' name='territory' list='legal-takeovers' autocomplete='off' value='{territory}'> by "
        f"<select name='by'>{_options(((p, p) for p in powers), selected=takeover.power if takeover else None)}</select> "
        f"<button type='submit' formmethod='get' formaction='/room/{escape(key)}' id='show-retreats'>Show its retreats</button></fieldset>"
    )
    if takeover is not None:
        for r in takeover.retreats:
            side = room.session.state.side_of.get(r.owner, r.owner)
            now = " or ".join(r.destinations) or "nowhere (they would be removed)"
            out.append(
                f"<p class='retreat'>{r.count} {escape(r.owner)} {escape(r.unit)} leave {escape(takeover.territory)}: the {escape(side)} declare where they "
                f"retreat after the bid, on the board as it then stands (000 A; now: {escape(now)}).</p>"
            )
    out.append(
        "<details><summary>Legal takeovers</summary><ul>"
        + "".join(
            f"<li>{escape(t.power)} take {escape(t.territory)}"
            + escape("".join(f"; {r.count} {r.owner} {r.unit} -> {' or '.join(r.destinations) or 'removed'}" for r in t.retreats))
            + "</li>"
            for t in chosen.takeovers
        )
        + "</ul></details>"
    )
    return "".join(out)


def option_form(room: Room, key: str, chosen: OptionChoices, query: dict[str, str]) -> str:
    option = chosen.option
    kind = option.kind
    out = [
        f"<form method='post' action='/room/{escape(key)}/pick' id='pick-form'>{_seq(room)}",
        f"<input type='hidden' name='option' value='{option.number}'>",
        f"<h4>Option {option.number}: {escape(option.title)}</h4>",
    ]
    if kind == "placement":
        combos = [(u.power, u.unit, u.places) for u in chosen.units] or [(s.power, u, s.places) for s in chosen.sets for u in s.units]
        powers = list(dict.fromkeys(p for p, _, _ in combos))
        units = list(dict.fromkeys(u for _, u, _ in combos))
        size = max(len(s) for s in option.params.unit_sets)
        out.append("<p>Sets the rules allow: " + escape("; ".join(" + ".join(s) for s in option.params.unit_sets)) + "</p>")
        out.append(_datalist("legal-places", sorted({p for _, _, places in combos for p in places})))
        for n in range(size):
            out.append(
                f"<fieldset><legend>unit {n + 1}</legend><select name='power.{n}'>{_options((p, p) for p in powers)}</select> "
                f"<select name='unit.{n}'>{_options((u, u) for u in units)}</select> at "
                f"<input class='target' name='at.{n}' list='legal-places' autocomplete='off'></fieldset>"
            )
        out.append(
            "<details><summary>Legal places by power and unit</summary><ul>"
            + "".join(f"<li>{escape(p)} {escape(u)}: {escape(', '.join(places))}</li>" for p, u, places in combos)
            + "</ul></details>"
        )
    elif kind == "neutral_takeover":
        count = option.params.count
        out.append(_datalist("legal-neutrals", [n.territory for n in chosen.neutrals]))
        powers = list(dict.fromkeys(p for n in chosen.neutrals for p, _ in n.takers))
        zones = sorted({z for n in chosen.neutrals for _, zs in n.takers for z in zs})
        out.append(_datalist("legal-zones", zones))
        for n in range(count):
            out.append(
                f"<fieldset><legend>neutral {n + 1}</legend><input class='target' name='neutral.{n}' list='legal-neutrals' autocomplete='off'> joins "
                f"<select name='by.{n}'>{_options((p, p) for p in powers)}</select> navy to "
                "</fieldset>"
            )
        out.append(
            "<details><summary>Legal neutrals</summary><ul>"
            + "".join(
                f"<li>{escape(n.name)} [{escape(n.territory)}] {n.ipc if n.ipc is not None else n.group} IPC: by "
                + escape("; ".join(p + (f" (navy to {' or '.join(z)})" if z else "") for p, z in n.takers))
                + "</li>"
                for n in chosen.neutrals
            )
            + "</ul></details>"
        )
    elif kind == "territory_takeover":
        out.append(takeover_fields(room, key, chosen, query))
    elif kind not in FORM_KINDS:
        # A kind without a form of its own: one of its legal picks, as the kind describes them.
        side = room.turn() or ""
        listed = [description for description, _ in room.listed_picks(option, side)]
        out.append(f"<label>Choice <select name='target'>{_options((d, d) for d in listed)}</select></label>")
    else:
        out.append(f"<label>Scenario <select name='scenario'>{_options((t, t) for t in chosen.scenarios)}</select></label>")
    out.append("<p><button type='submit' id='submit-pick'>Pick</button></p></form>")
    return "".join(out)


def bid_block(room: Room, key: str, query: dict[str, str]) -> str:
    state = room.session.state
    rules = state.ruleset.bid
    choices = bid_choices(state)
    totals = DraftValue(tuple(state.side_powers), tuple(room.session.values), None).totals()
    out = [
        "<section id='bid'><h3>The bid</h3>",
        f"<p>Picks so far: {escape(', '.join(f'{s} {v:+d}' for s, v in totals.items()))} IPCs. Positive: the {escape(rules.placing_side)} place units worth it; "
        f"negative: the {escape(rules.receiving_side)} receive the PUs"
        + (" (the Axis remove units worth it)" if rules.negative == "remove_units" else "")
        + ".</p>",
        f"<form method='post' action='/room/{escape(key)}/bid' id='bid-form'>{_seq(room)}<label>Amount <input name='amount' value='0' size='6'></label>",
    ]
    powers = [p for p, _ in choices.places]
    units = sorted({u for _, costs in choices.costs for u, _ in costs})
    out.append(_datalist("bid-places", sorted({p for _, places in choices.places for p in places})))
    out.append("<p>Placements (positive bid) or removals (negative bid that removes units):</p>")
    for n in range(6):
        out.append(
            f"<fieldset><select name='power.{n}'>{_options((p, p) for p in powers)}</select> <select name='unit.{n}'>{_options((u, u) for u in units)}</select> "
            f"× <input name='count.{n}' value='1' size='3'> at <input class='target' name='at.{n}' list='bid-places' autocomplete='off'></fieldset>"
        )
    if rules.negative != "remove_units":
        out.append(
            "<p>Allocation of a negative bid:</p>"
            + "".join(f"<label>{escape(p)} <input name='allocate.{escape(p)}' value='0' size='4'></label> " for p in state.side_powers[rules.receiving_side])
        )
    out.append(
        "<details><summary>Costs</summary><ul>"
        + "".join(f"<li>{escape(p)}: {escape(', '.join(f'{u} {c}' for u, c in costs))}</li>" for p, costs in choices.costs)
        + "</ul></details>"
    )
    out.append("<p><button type='submit' id='submit-bid'>Enter the bid</button></p></form></section>")
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


def declaration_block(room: Room, role: str, key: str, declaration: tuple[Displaced, Nearest, str | None]) -> str:
    """Where one displaced group goes: its side chooses among its nearest places; the other side waits."""
    displaced, found, stale = declaration
    done = "".join(f"<li>{escape(line)}</li>" for line in room.session.declaration_lines())
    out = ["<section id='declare'><h3>Declarations</h3>", f"<ul id='declared'>{done}</ul>" if done else ""]
    if stale is not None:
        out.append(f"<p>The draft file's place for them no longer applies: {escape(stale)}</p>")
    if displaced.side != role:
        out.append(f"<p id='waiting'>Waiting for the {escape(displaced.side)} to declare where {escape(displaced.describe())} go.</p></section>")
        return "".join(out)
    what = "retreat to" if displaced.kind == "retreat" else "the navy goes to"
    out.append(
        f"<form method='post' action='/room/{escape(key)}/declare'>{_seq(room)}"
        f"<p>{escape(displaced.describe())} (pick {displaced.pick}): {what} one of {escape(', '.join(found.matches))} "
        f"<span class='rule'>({escape(displaced.source)}: {escape(displaced.rule)})</span></p>"
        + _datalist("declare-places", found.matches)
        + "<input class='target' name='to' list='declare-places' autocomplete='off'> <button type='submit' id='declare-submit'>Declare</button></form></section>"
    )
    return "".join(out)


def house_block(room: Room, role: str, key: str) -> str:
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
            out.append(f"<fieldset><label>{escape(power)} <select name='advantage.{escape(set_id)}.{escape(power)}'>{_options(choices)}</select></label>")
            for advantage in mine:
                for name in advantage.choices:
                    places = advantage_places(advantage, name, board, names)
                    out.append(
                        f" <label>{escape(advantage.title)}: {escape(name)} "
                        f"<select name='value.{escape(set_id)}.{escape(power)}.{escape(name)}'>{_options((p, p) for p in places)}</select></label>"
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
    request = room.undo_request
    if request is not None:
        if role == request.side or role == SPECTATOR:
            return f"<p class='note' id='undo-waiting'>The {escape(request.side)} asked to take back the last action; waiting for the other side.</p>"
        return (
            f"<form method='post' action='/room/{escape(key)}/undo/answer' id='undo-answer'>{_seq(room)}"
            f"<p class='note'>The {escape(request.side)} ask to take back the last action.</p>"
            "<button name='agree' value='yes' id='undo-agree'>Agree</button> <button name='agree' value='no' id='undo-refuse'>Refuse</button></form>"
        )
    if role == SPECTATOR or not room.session.picks:
        return ""
    last = "the bid" if "bid" in room.session.data else f"pick {len(room.session.picks)}"
    if "bid" not in room.session.data and room.session.picks[-1]["side"] != role:
        return ""
    return (
        f"<form method='post' action='/room/{escape(key)}/undo' id='undo'>{_seq(room)}"
        f"<button type='submit' id='undo-button'>Undo {escape(last)}</button> (once the other side has seen it, they must agree)</form>"
    )


def picks_block(room: Room) -> str:
    session = room.session
    values = DraftValue(tuple(session.state.side_powers), tuple(session.values), None)
    out = ["<section id='picks'><h3>Picks</h3>"]
    for side in session.state.side_powers:
        out.append(f"<h4>{escape(side)}</h4><ul>")
        for value, _pick in zip(session.values, session.picks):
            if value.side == side:
                out.append("<li>" + "<br>".join(escape(line) for line in describe_pick(value)) + "</li>")
        out.append(f"</ul><p class='total'>total: {values.totals()[side]:+d} IPCs</p>")
    if "bid" in session.data:
        out.append(bid_html(session.data["bid"], "bid-entered"))
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
    out = ["<section id='complete'><h3>Summary</h3><div id='summary'>" + summary_html(result.summary()) + "</div>"]
    if role != SPECTATOR:
        out.append(
            f"<p><a id='download' href='/room/{escape(key)}/game.xml'>Download the game XML</a> (what <code>apply</code> writes for this draft file)</p>"
        )
        out.append(
            f"<form method='post' action='/room/{escape(key)}/install' id='install'>{_seq(room)}<button type='submit'>Install into TripleA on the serving machine</button></form>"
        )
    out.append("</section>")
    return "".join(out)

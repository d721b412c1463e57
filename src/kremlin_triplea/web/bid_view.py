"""The bid's part of the room's page (issue 43: the bid as a conversation): the form that proposes one, a running
budget, the proposal as the other side reads it with its message, agree, refuse or counter-propose, and a refused
proposal given back to its proposer as sent."""

from __future__ import annotations

import json
from html import escape
from typing import TYPE_CHECKING

from kremlin_triplea.draft.legal import bid_choices
from kremlin_triplea.report.value import DraftValue
from kremlin_triplea.web.bid_talk import MAX_MESSAGE, MESSAGE_FIELD, BidTalk
from kremlin_triplea.web.filled import Filled, datalist, seq_fields
from kremlin_triplea.web.forms import MAX_ROWS

if TYPE_CHECKING:
    from kremlin_triplea.web.room import Room


BID_ROWS = 6  # rows of the bid's units shown at first (a refused bid with more keeps all of its rows)


def bid_costs(room: Room) -> dict[str, dict[str, int]]:
    """Power -> unit -> what it costs in a bid (the ruleset's bid costs on this board)."""
    return {power: dict(costs) for power, costs in bid_choices(room.session.state).costs}


def budget_text(filled: Filled, costs: dict[str, dict[str, int]]) -> str:
    """ "29 of 30 PUs spent": the rows with a place (a row without one is left out) and the bid phase's shares, as the
    server counts them."""
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
    for key in filled.values:  # what a positive bid leaves to TripleA's bid phase is spent too
        if key.startswith("phase.") and filled.get(key).strip().isdecimal():
            spent += int(filled.get(key))
    verb = "removed" if amount < 0 else "spent"
    return f"{spent} of {abs(amount)} PUs {verb}."


AT_FIELD = " list='bid-places' autocomplete='off' placeholder='type, or tap the map' aria-label='row {row} at'"
COUNT_FIELD = " type=number min=1 step=1 inputmode=numeric aria-label='row {row} count'"


def bid_rows(room: Room, filled: Filled, costs: dict[str, dict[str, int]], ident: str = "bid") -> str:
    powers = list(costs)
    units = sorted({u for unit_costs in costs.values() for u in unit_costs})
    default_unit = room.session.state.names.unit("infantry") if room.session.state.names.has_unit("infantry") else None
    shown = max([BID_ROWS, *(int(k.partition(".")[2]) + 1 for k in filled.values if k.startswith("at.") and k.partition(".")[2].isdigit())])
    rows = []
    for n in range(min(shown, MAX_ROWS)):
        rows.append(
            f"<tr><td data-label='Power'>{filled.select(f'power.{n}', ((p, p) for p in powers), spoken=f'row {n + 1} power')}</td>"
            f"<td data-label='Unit'>{filled.select(f'unit.{n}', ((u, u) for u in units), default=default_unit, spoken=f'row {n + 1} unit')}</td>"
            f"<td data-label='Count'>{filled.text_input(f'count.{n}', default='1', extra=COUNT_FIELD.format(row=n + 1))}</td>"
            f"<td data-label='At'>{filled.text_input(f'at.{n}', 'target', extra=AT_FIELD.format(row=n + 1))}</td>"
            "<td class='number row-cost' data-label='PUs'></td></tr>"
        )
    return (
        f"<table id='{ident}-rows' class='bid-rows'><thead><tr><th>Power</th><th>Unit</th><th>Count</th><th>At</th><th class='number'>PUs</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )


def bid_block(room: Room, role: str, key: str, filled: Filled, talk: BidTalk) -> str:
    """The form that proposes a bid; a proposal of this side the other refused comes back in it as it was sent."""
    state = room.session.state
    rules = state.ruleset.bid
    totals = DraftValue(tuple(state.side_powers), tuple(room.pick_values), None).totals()
    out = [
        "<section id='bid'><h3>The bid</h3>",
        f"<p>Picks so far: {escape(', '.join(f'{s} {v:+d}' for s, v in totals.items()))} IPCs. Positive: the {escape(rules.placing_side)} place units worth it; "
        f"negative: the {escape(rules.receiving_side)} receive the PUs"
        + (" (the Axis remove units worth it)" if rules.negative == "remove_units" else "")
        + ".</p>",
    ]
    refused = talk.form_for(role)
    if refused is not None and not filled.values:
        filled = Filled(refused)
        out.append("<p class='note' id='bid-again'>The other side refused this bid: here it is as you sent it, to change and propose again.</p>")
    answer = room.answer
    if answer is not None and answer.to == "bid" and not answer.agreed and talk.said.get(answer.by):
        out.append(f"<p id='bid-said'>The {escape(answer.by)} said: <q>{escape(talk.said[answer.by])}</q></p>")
    out.append(bid_form(room, key, filled, path="bid", ident="bid", button="Propose the bid"))
    out.append("</section>")
    return "".join(out)


def bid_form(room: Room, key: str, filled: Filled, *, path: str, ident: str, button: str) -> str:
    """A bid's form (``ident``: its fields' prefix: the bid, or a counter-proposal), with its message to the other side."""
    state = room.session.state
    rules = state.ruleset.bid
    costs = bid_costs(room)
    out = [
        f"<form method='post' action='/room/{escape(key)}/{path}' id='{ident}-form' data-costs='{escape(json.dumps(costs))}'>{seq_fields(room)}"
        f"<p class='row'><label>Amount {filled.text_input('amount', default='0', extra=' type=number step=1 inputmode=numeric size=6')}</label>"
        f"<b id='{'budget' if ident == 'bid' else ident + '-budget'}' class='budget' aria-live='polite'>{escape(budget_text(filled, costs))}</b></p>",
        datalist("bid-places", sorted({p for _, places in bid_choices(state).places for p in places})),
        "<p>Units placed (positive bid) or removed (negative bid that removes units); a row without a place is left out:</p>",
        bid_rows(room, filled, costs, ident),
    ]
    phase_powers = room.session.bid_phase_powers
    if phase_powers:  # 002 III: a positive bid need not be declared; what is not placed here is bought in TripleA's bid phase
        out.append(
            f"<p>Or left to TripleA's own bid phase, PUs per power (<q>{escape(rules.positive_rule)}</q>, {escape(rules.source)}):</p><p class='row'>"
            + "".join(
                f"<label>{escape(p)} {filled.text_input(f'phase.{p}', default='0', extra=' type=number min=0 step=1 inputmode=numeric size=4')}</label> "
                for p in phase_powers
            )
            + "</p>"
        )
    if rules.negative != "remove_units":
        out.append(
            "<p>Allocation of a negative bid:</p><p class='row'>"
            + "".join(
                f"<label>{escape(p)} {filled.text_input(f'allocate.{p}', default='0', extra=' type=number min=0 step=1 inputmode=numeric size=4')}</label> "
                for p in state.side_powers[rules.receiving_side]
            )
            + "</p>"
        )
    out.append(f"<p class='row'><label>Message to the other side (optional) {message_input(filled)}</label></p>")
    out.append(f"<p><button type='submit' id='submit-{ident}'>{escape(button)}</button></p></form>")
    return "".join(out)


def message_input(filled: Filled) -> str:
    return filled.text_input(MESSAGE_FIELD, "message", extra=f" maxlength={MAX_MESSAGE} autocomplete='off'")


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
    for kind, caption in (("allocate", "PUs received"), ("phase", "PUs spent in TripleA's bid phase")):
        if bid.get(kind):
            out.append(
                f"<table><caption>{caption}</caption><tr><th>Power</th><th class='number'>PUs</th></tr>"
                + "".join(f"<tr><td>{escape(power)}</td><td class='number'>{int(share)}</td></tr>" for power, share in bid[kind].items())
                + "</table>"
            )
    out.append("</div>")
    return "".join(out)


def bid_answer_block(room: Room, role: str, key: str, talk: BidTalk) -> str:
    """The bid one side entered, with its message: the other side agrees (the draft is complete), refuses it (with a
    message) or refuses it and proposes another in one step (the counter-proposal starts from the proposal)."""
    proposal = room.bid_proposal
    assert proposal is not None
    shown = bid_html(proposal.bid, "bid-proposed")
    said = talk.said.get(proposal.side) if talk.sent_by(proposal.side) is not None else None
    quoted = f"<p id='bid-message'>The {escape(proposal.side)} said: <q>{escape(said)}</q></p>" if said else ""
    if role == proposal.side:
        return f"<section id='bid'><h3>The bid</h3><p id='bid-waiting'>Your bid waits for the other side to agree:</p>{shown}{quoted}</section>"
    counter = Filled(talk.sent_by(proposal.side) or {})
    counter.values = {k: v for k, v in counter.values.items() if k != MESSAGE_FIELD}
    return (
        f"<section id='bid'><h3>The bid</h3><p>The {escape(proposal.side)} propose this bid:</p>{shown}{quoted}"
        f"<form method='post' action='/room/{escape(key)}/bid/answer' id='bid-answer'>{seq_fields(room)}"
        f"<p class='row'><label>Your answer's message (optional) {message_input(Filled())}</label></p>"
        "<p class='row'><button name='agree' value='yes' id='bid-agree'>Agree</button><button name='agree' value='no' id='bid-refuse'>Refuse</button></p></form>"
        "<details id='counter'><summary>Refuse it and propose another bid</summary>"
        + bid_form(room, key, counter, path="bid/counter", ident="counter", button="Refuse theirs and propose this one")
        + "</details></section>"
    )

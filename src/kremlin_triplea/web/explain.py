"""What each choice of an option would do on this board (issue 43: "scenario choices show titles only: no effects,
no reason why one is blocked").

Worked out by the code that applies a pick: each choice is pushed as the pick on a copy of the room's session
(``Session.copy``), its outcome's lines read, then popped; a choice the rules refuse says why. The room's own
session is never touched.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from kremlin_triplea.draft.form import Unanswered
from kremlin_triplea.errors import KremlinError
from kremlin_triplea.web.forms import FormError, pick_answers

if TYPE_CHECKING:
    from kremlin_triplea.draft.choices import OptionChoices
    from kremlin_triplea.draft.form import Form
    from kremlin_triplea.web.room import Room


def choice_effects(room: Room, chosen: OptionChoices, side: str, form: Form) -> list[tuple[str, list[str], str | None]]:
    """(label, what it does, why it is refused) for each choice of a form whose one field makes the whole pick (a
    scenario); nothing for a form with places or several fields (what it does depends on what is typed)."""
    fields = [field for field in form.fields if field.page]
    if len(fields) != 1 or fields[0].place or not fields[0].choices:
        return []
    field, option = fields[0], chosen.option
    twin = room.session.copy()
    told = []
    for answer in field.choices:
        try:
            outcome = twin.push(twin.pick_from_answers(option, {field.key: answer.value}, side=side, form=form))
        except (KremlinError, FormError, Unanswered) as error:
            told.append((answer.label, [], str(error)))
            continue
        told.append((answer.label, [line.strip() for line in (outcome.lines if outcome is not None else [])], None))
        twin.pop()
    return told


def effects_html(effects: list[tuple[str, list[str], str | None]]) -> str:
    if not effects:
        return ""
    items = []
    for label, lines, refused in effects:
        said = (
            f"<p class='refused-choice'>Not open: {escape(refused)}</p>"
            if refused
            else "<ul>" + "".join(f"<li>{escape(line)}</li>" for line in lines) + "</ul>"
        )
        items.append(f"<li><b>{escape(label)}</b>{said}</li>")
    return f"<details id='effects' open><summary>What each choice would do on this board</summary><ul class='effects'>{''.join(items)}</ul></details>"


#: The query flag of a pick form sent to be shown what it would do (not made).
PREVIEW_FIELD = "preview"


def pick_preview(room: Room, chosen: OptionChoices, side: str, form: Form, values: dict[str, str]) -> tuple[list[str], str | None]:
    """What the pick filled in as ``values`` would do on this board (its outcome's lines), or why the rules refuse it:
    pushed on a copy of the room's session, as the room would push it."""
    known = {field.key for field in form.fields}
    sent = {k: v for k, v in values.items() if k in known} | {"option": str(chosen.option.number)}
    try:
        answers = pick_answers(sent, form)
        twin = room.session.copy()
        outcome = twin.push(twin.pick_from_answers(chosen.option, answers, side=side, form=form))
    except (KremlinError, FormError, Unanswered) as error:
        return [], str(error)
    return [line.strip() for line in (outcome.lines if outcome is not None else [])], None


def preview_html(key: str, shown: tuple[list[str], str | None] | None) -> str:
    """The button that asks what the pick as filled would do, and, once asked, the answer (before it is made)."""
    button = (
        f"<p><button type='submit' formmethod='get' formaction='/room/{escape(key)}' name='{PREVIEW_FIELD}' value='1' id='preview-pick'>"
        "What would this pick do?</button></p>"
    )
    if shown is None:
        return button
    lines, refused = shown
    told = (
        f"<p class='refused'>The rules refuse it: {escape(refused)}</p>"
        if refused
        else "<ul>" + "".join(f"<li>{escape(line)}</li>" for line in lines) + "</ul>"
    )
    return button + f"<section id='preview' aria-live='polite'><h4>This pick would</h4>{told}<p>Nothing is made until you press Pick.</p></section>"

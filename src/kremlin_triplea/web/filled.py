"""A form as its player last sent it, and the small pieces every form of the room is made of."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from kremlin_triplea.web.actions import ACTION_FIELD

if TYPE_CHECKING:
    from kremlin_triplea.web.room import Room

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

    def select(self, name: str, values, default: str | None = None, spoken: str = "", *classes: str) -> str:
        """A list to choose from; ``classes`` 'target': its values are places, which a tap on the board may choose."""
        named = f" aria-label='{escape(spoken)}'" if spoken else ""
        return f"<select {self.field(name, *classes)}{named}>{options(values, selected=self.get(name) or default)}</select>"


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


def seq_fields(room: Room) -> str:
    """The step the form was drawn at, and the action's key (filled by the page's script when it sends the form)."""
    return f"<input type='hidden' name='seq' value='{room.seq}'><input type='hidden' name='{ACTION_FIELD}' value=''>"


def options(values, selected: str | None = None) -> str:
    return "".join(f"<option value='{escape(v)}'{' selected' if v == selected else ''}>{escape(label)}</option>" for v, label in values)


def datalist(ident: str, places) -> str:
    return f"<datalist id='{ident}'>" + "".join(f"<option value='{escape(p)}'>" for p in places) + "</datalist>"

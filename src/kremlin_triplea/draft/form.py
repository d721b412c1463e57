"""What a pick of one option asks the players, described once by its kind for the terminal and the draft room.

A kind's :meth:`~kremlin_triplea.draft.kinds.base.OptionKind.form` returns a :class:`Form`: its fields,
each with a label, the choices this board allows this side, a default, and the rule that says why a place
that is no choice is refused. The room shows every field at once; the terminal asks them one by one, each
narrowed by the answers before it (which powers may take a neutral depends on the neutral):

    answers = {}
    for field in form.fields:                     # the room shows those with ``page`` all at once
        asked = field.narrowed(answers) if field.narrowed else field
        if field.terminal and asked is not None:  # the terminal asks them one by one
            answers[field.key] = ask(asked)
    entry = {target_key: form.read(answers)}      # the pick's entry, in the draft file's keys

The terminal (:mod:`kremlin_triplea.assistant.session`) asks each field with completion, ``help`` and close
matches; the room (:mod:`kremlin_triplea.web.pages`) renders the fields as HTML, keeps what was typed after a
refusal and marks the field whose text the refusal quotes. Neither knows any kind.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from kremlin_triplea.draft.state import DraftState, Problem

Answers = Mapping[str, str]

# The names every pick's answers travel with besides its kind's fields (the room's page version and the option):
# a kind's field may not be called so, or its answer would be read as one of these.
PICK_FIELDS = ("seq", "option")


@attrs.frozen
class Answer:
    """One choice of a field: its value (what the pick's entry gets), the words that answer it, how it is listed."""

    value: str
    names: tuple[str, ...]  # typed as any of these (any case); the first is its name
    shown: str = ""

    @property
    def label(self) -> str:
        return self.shown or self.names[0]


def answers_of(values: Sequence[str]) -> tuple[Answer, ...]:
    """Choices named as they read (powers, titles)."""
    return tuple(Answer(v, (v,)) for v in values)


def place_answers(state: DraftState, places: Sequence[str]) -> tuple[Answer, ...]:
    """Places as choices: the game's name, and the rule text's names for it (Venezuela, Seazone 19) as answers too;
    labelled as a list shows them (a numbered sea zone with the coast it lies off)."""
    aliases: dict[str, list[str]] = {}
    for rule, game in state.profile.places.items():
        if rule != game:
            aliases.setdefault(game, []).append(rule)
    return tuple(Answer(place, (place, *sorted(aliases.get(place, ()))), state.names.listed(place)) for place in places)


class Unanswered(ValueError):
    """The answers lack what the pick needs ("choose where the units go"): the form is asked again."""


def answered(answers: Answers, key: str) -> str:
    """The answer to ``key``, which the pick needs (``key: missing`` if there is none)."""
    value = answers.get(key, "")
    if not value:
        raise Unanswered(f"{key}: missing")
    return value


@attrs.frozen(eq=False)  # holds functions: compared by identity
class Field:
    """One question of a form: as the room shows it, and (``narrowed``) as the terminal asks it after earlier answers."""

    key: str  # the answer's name: the room's form field, and where later fields and ``read`` find it
    label: str  # the question, as people read it ("take over", "joins")
    choices: tuple[Answer, ...]
    default: str | None = None  # the value taken when nothing is typed
    place: bool = False  # answers name places: typed with completion in the room; any name of the map accepted
    group: str = ""  # the room shows consecutive fields of one group together, under this heading ("Unit 1")
    # A word that is no choice's name but means one (a power as the draft file names it, "SZ 12"): its choice's
    # value, or raises KremlinError (UnknownNameError with close matches: the refusal guesses the first).
    resolve: Callable[[str], str] | None = None
    # Why the value a word resolves to (a place that is no choice) is against the rule: the words `apply` uses.
    refuse: Callable[[str], Problem | None] | None = None
    intro: tuple[str, ...] = ()  # said before the question ("unit 1 of 2: one infantry")
    # With one choice: taken without asking, and this said ("" says nothing); None: asked all the same.
    alone: str | None = None
    listed: bool = True  # the terminal lists the choices before asking (a long list is left to completion and help)
    # What the answers up to this field lead to, told once it is answered (where displaced units could go).
    then: Callable[[Answers], Sequence[str]] | None = None
    # The field as the terminal asks it after the earlier answers (narrowed choices, a question naming them);
    # None from it: not asked (a unit row the chosen set does not fill). Without it: asked as it is.
    narrowed: Callable[[Answers], Field | None] | None = None
    terminal: bool = True  # asked in the terminal
    page: bool = True  # shown in the room's form
    number: tuple[int, int] | None = None  # a whole number in this range (a row's count), not a choice

    def choice(self, value: str) -> Answer | None:
        return next((c for c in self.choices if c.value == value), None)


@attrs.frozen(eq=False)
class Form:
    """The fields of one option's pick for one side on this board, and how the answers read into its target."""

    fields: tuple[Field, ...] = attrs.field(validator=lambda _, __, fields: _check_field_keys(fields))
    # The answers (the room's fields as typed, the terminal's as chosen) as the draft file's value of the kind's
    # target key; raises Unanswered when they lack what the pick needs. Names are the draft engine's to resolve.
    read: Callable[[Answers], Any]
    notes: tuple[str, ...] = ()  # what the room says above the fields ("Sets the rules allow: ...")
    preview: str | None = None  # the room's button that shows what the answers lead to (the fields' ``then``)

    def field(self, key: str) -> Field | None:
        return next((f for f in self.fields if f.key == key), None)


def _check_field_keys(fields: Sequence[Field]) -> None:
    """A kind's form whose fields share a key, or take one of :data:`PICK_FIELDS`, is a mistake in the kind."""
    keys = [field.key for field in fields]
    clashing = sorted({key for key in keys if key in PICK_FIELDS or keys.count(key) > 1})
    if clashing:
        raise ValueError(f"form fields {', '.join(clashing)}: each field needs a key of its own, none of {', '.join(PICK_FIELDS)}")


def listed_form(listed: Sequence[tuple[str, Any]], label: str) -> Form:
    """One field: which of a kind's legal picks (by its description), read as that pick's target (kinds without a form)."""
    by_description = dict(listed)
    field = Field("target", "Choice", answers_of(list(by_description)), narrowed=lambda answers: attrs.evolve(field, label=label, narrowed=None))

    def read(answers: Answers) -> Any:
        chosen = answers.get("target", "")
        if chosen not in by_description:
            raise Unanswered(f"{chosen!r} is not one of the legal choices listed")
        return by_description[chosen]

    return Form((field,), read)

"""A submitted form read into its answers: a pick form's for its kind (``Session.pick_from_answers`` takes them), a
bid form's (``Session.bid_from_answers``).

Only shape is checked here (fields present, numbers numeric, sizes bounded);
names and rules are left to the draft engine, which resolves the names as the
draft file does (UK, tank, Seazone 19) and refuses illegal choices with the
rule and why, exactly as ``apply`` does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from kremlin_triplea.draft.form import PICK_FIELDS, Form

MAX_ROWS = 40  # rows of one kind in one form: more is a malformed request
MAX_FIELD = 200  # characters in one field


class FormError(ValueError):
    """The request is malformed (a 400): nothing is changed."""


def text(form: Mapping[str, str], key: str, *, required: bool = True) -> str:
    value = form.get(key, "")
    if not isinstance(value, str):
        raise FormError(f"{key}: expected text")
    value = value.strip()
    if len(value) > MAX_FIELD:
        raise FormError(f"{key}: longer than {MAX_FIELD} characters")
    if required and not value:
        raise FormError(f"{key}: missing")
    return value


def whole(form: Mapping[str, str], key: str, *, default: int | None = None, low: int = -100_000, high: int = 100_000) -> int:
    value = text(form, key, required=default is None)
    if not value:
        assert default is not None
        return default
    try:
        number = int(value)
    except ValueError:
        raise FormError(f"{key}: {value!r} is not a whole number") from None
    if not low <= number <= high:
        raise FormError(f"{key}: {number} is outside {low}..{high}")
    return number


def rows(form: Mapping[str, str], prefix: str) -> list[int]:
    """The row numbers N of fields ``prefix.N`` present in the form."""
    found = set()
    for key in form:
        head, dot, tail = key.partition(".")
        if head == prefix and dot:
            if not tail.isdecimal() or int(tail) >= MAX_ROWS:
                raise FormError(f"{key}: not a field of this form")
            found.add(int(tail))
    return sorted(found)


def unit_rows(form: Mapping[str, str], high: int) -> list[tuple[str, str, int, str]]:
    """Rows ``power.N unit.N count.N at.N`` as (power, unit, count, place) (rows without a place are left blank on
    purpose), merged by power, unit and place."""
    counted: Counter[tuple[str, str, str]] = Counter()
    for n in rows(form, "at"):
        at = text(form, f"at.{n}", required=False)
        if at:
            counted[(text(form, f"power.{n}"), text(form, f"unit.{n}"), at)] += whole(form, f"count.{n}", default=1, low=1, high=high)
    return [(power, unit, count, at) for (power, unit, at), count in counted.items()]


def option_of(form: Mapping[str, str]) -> str | int:
    raw = text(form, "option")
    return int(raw) if raw.isdecimal() else raw


def pick_answers(form: Mapping[str, str], pick_form: Form) -> dict[str, str]:
    """A submitted pick form's answers to its kind's fields (numbers checked; a field left empty is no answer), as
    ``Session.pick_from_answers`` takes them; a field the form has not is refused."""
    known = {field.key: field for field in pick_form.fields}
    for key in form:
        if key not in known and key not in PICK_FIELDS:
            raise FormError(f"{key}: not a field of this form")
    answers: dict[str, str] = {}
    for field in pick_form.fields:
        if field.number is not None:
            low, high = field.number
            value = str(whole(form, field.key, default=int(field.default or low), low=low, high=high))
        else:
            value = text(form, field.key, required=False)
        if value:
            answers[field.key] = value
    return answers


def bid_answers(form: Mapping[str, str]) -> tuple[int, list[tuple[str, str, int, str]], dict[str, int], dict[str, int]]:
    """A bid form's answers, as ``Session.bid_from_answers`` takes them: the amount, the unit rows (placed by a positive
    bid, removed by a negative one where the rules remove units), the PUs given to each power (``allocate.POWER``) and
    those each power spends in TripleA's bid phase (``phase.POWER``); the session takes what the rules' bid has."""
    amount = whole(form, "amount", low=-10_000, high=10_000)
    return amount, unit_rows(form, high=1000), shares(form, "allocate"), shares(form, "phase")


def shares(form: Mapping[str, str], prefix: str) -> dict[str, int]:
    """Fields ``prefix.POWER`` as power -> PUs (empty or 0: none)."""
    found: dict[str, int] = {}
    for key in form:
        head, dot, power = key.partition(".")
        if head == prefix and dot:
            share = whole(form, key, default=0, low=0, high=10_000)
            if share:
                found[power[:MAX_FIELD]] = share
    return found

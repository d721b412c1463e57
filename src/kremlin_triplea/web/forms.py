"""A submitted form turned into a ``[[pick]]`` or ``[bid]`` table of the draft file.

Only shape is checked here (fields present, numbers numeric, sizes bounded);
names and rules are left to the draft engine, which resolves the names as the
draft file does (UK, tank, Seazone 19) and refuses illegal choices with the
rule and why, exactly as ``apply`` does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from kremlin_triplea.draft.picks import Pick

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


def unit_rows(form: Mapping[str, str], high: int) -> list[dict[str, Any]]:
    """Rows ``power.N unit.N count.N at.N`` (rows without a place are left blank on purpose), merged by power, unit and place."""
    counted: Counter[tuple[str, str, str]] = Counter()
    for n in rows(form, "at"):
        at = text(form, f"at.{n}", required=False)
        if at:
            counted[(text(form, f"power.{n}"), text(form, f"unit.{n}"), at)] += whole(form, f"count.{n}", default=1, low=1, high=high)
    return [{"power": p, "unit": u, "count": c, "at": at} for (p, u, at), c in counted.items()]


def option_of(form: Mapping[str, str]) -> str | int:
    raw = text(form, "option")
    return int(raw) if raw.isdecimal() else raw


# The option kinds with a form of their own; a pick of any other kind is one of its legal picks, chosen by description.
FORM_KINDS = ("placement", "neutral_takeover", "territory_takeover", "scenario")


def pick_entry(form: Mapping[str, str], side: str, kind: str) -> dict[str, Any]:
    """The ``[[pick]]`` table of option kind ``kind`` (the draft file's own keys)."""
    entry: dict[str, Any] = {"side": side, "option": option_of(form)}
    if kind == "placement":
        entry["place"] = unit_rows(form, high=100)
        if not entry["place"]:
            raise FormError("choose where the units go")
    elif kind == "neutral_takeover":
        takes = []
        for n in rows(form, "neutral"):
            neutral = text(form, f"neutral.{n}", required=False)
            if neutral:
                # Its ships' sea zone is declared after the bid (000 A "Order of action" 1): /declare, not the pick.
                takes.append({"neutral": neutral, "by": text(form, f"by.{n}")})
        if not takes:
            raise FormError("choose the neutrals")
        entry["take"] = takes
    elif kind == "territory_takeover":
        # Where its defenders retreat is declared after the bid (000 A "Order of action" 1): /declare, not the pick.
        spec: dict[str, Any] = {"territory": text(form, "territory"), "by": text(form, "by")}
        entry["takeover"] = spec
    elif kind == "scenario":
        entry["scenario"] = text(form, "scenario")
    else:  # pragma: no cover - the room sends other kinds to listed_pick_entry
        raise FormError(f"option kind {kind!r} has no form of its own")
    return entry


def listed_pick_entry(form: Mapping[str, str], listed: Iterable[tuple[str, Pick]]) -> dict[str, Any]:
    """The ``[[pick]]`` table of the legal pick the form's ``target`` names by its description (kinds without a form)."""
    wanted = text(form, "target")
    for description, pick in listed:
        if description == wanted:
            return pick.to_toml()
    raise FormError(f"{wanted!r} is not one of the legal choices listed")


def bid_entry(form: Mapping[str, str], placing_side: str, negative: str) -> dict[str, Any]:
    """The ``[bid]`` table: the amount, and its placements, removals or allocation."""
    amount = whole(form, "amount", low=-10_000, high=10_000)
    bid: dict[str, Any] = {placing_side.lower(): amount}
    if amount > 0 or (amount < 0 and negative == "remove_units"):
        # Positive: the units placed for it; negative, on rulesets whose negative bid removes units: those removed.
        units = unit_rows(form, high=1000)
        if units:
            bid["place" if amount > 0 else "remove"] = units
    elif amount < 0:
        allocation = {}
        for key in form:
            head, dot, power = key.partition(".")
            if head == "allocate" and dot:
                share = whole(form, key, default=0, low=0, high=10_000)
                if share:
                    allocation[power[:MAX_FIELD]] = share
        if allocation:
            bid["allocate"] = allocation
    return bid

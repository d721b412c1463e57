"""One class per kind of option, found through a registry by the ruleset's ``kind = "..."``.

Like python-chess's variants, a kind is a small class with a few hooks:

``params``
    the class of the option's parameters (a :class:`~kremlin_triplea.rules.options.OptionParams`),
    read from the ruleset's ``[[option]]`` table when the ruleset is read;
``target``
    the class of what a pick names (a :class:`~kremlin_triplea.draft.picks.PickTarget`),
    written in the draft file under its ``KEY`` (``place``, ``take``, ...);
``parse_target``
    that key's TOML read into a ``target``, names translated and checked;
``choices``
    every legal target now (an :class:`~kremlin_triplea.draft.choices.OptionChoices`,
    or a subclass of it for a kind with targets of its own shape);
``describe_choices``
    those choices as lines for people (``legal``);
``picks``
    one :class:`~kremlin_triplea.draft.picks.Pick` per legal target, with a description
    (the matrix, property tests, and the assistant and draft room for kinds without a form of their own);
``apply``
    check a pick on the board as the earlier picks left it and return its changes,
    or raise ``RuleViolation`` quoting the rule.

``form``
    what the terminal and the draft room ask for a pick, field by field (a :class:`~kremlin_triplea.draft.form.Form`);
    by default one field: which of :meth:`picks`' legal picks;
``destinations``, ``declared``, ``write_declaration``, ``displaced_words``
    for a kind whose picks take units off the board (``Outcome.displaced``, named ``displaces``): where such a
    group may go after the bid, where the pick's own entry says it goes, how a declaration is written into that
    entry, and how messages name it (:mod:`kremlin_triplea.draft.declare` asks the kind). By default a kind
    displaces nothing.

``choices``, ``picks`` and ``apply`` ask the same checks, so a target listed as
legal is accepted when applied. Adding a kind is one module in this package that
defines its parameters, its target and a subclass with ``@register``, plus its data
in the rulesets: the package imports every module in it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import attrs

from kremlin_triplea.draft.choices import OptionChoices
from kremlin_triplea.draft.form import Form, listed_form
from kremlin_triplea.draft.picks import Pick, PickTarget
from kremlin_triplea.draft.state import Displaced, DraftState, Outcome
from kremlin_triplea.model.queries import Nearest
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.options import OptionParams
from kremlin_triplea.rules.registry import Registry
from kremlin_triplea.rules.ruleset import Option, Ruleset
from kremlin_triplea.rules.tomlfile import Section


@attrs.frozen
class DisplacedWords:
    """How messages name a kind's displaced group and what placing it means (draft/declare.py, the terminal, the room)."""

    name: str  # the group as a declaration's label names it: "retreat", "navy"
    question: str  # what its side is asked: "retreat to", "navy to"
    places: str  # what may receive it, plural: "territories of their side"
    lost: str  # what happens when nowhere can: "cannot retreat (no territory of their side can be reached)"
    # Placing it moves units that stood on the board before the pick (a retreat), so they are not units
    # "selected with a bonus option"; False: the pick brings them into the game (a neutral's ships).
    moved: bool = False


@attrs.frozen
class Variant:
    """One of the alternatives an option is made of, as a map maker's matrix shows them a row each (a scenario of the
    side): its title, the answers to the kind's form that pick it, and whether the kind offers it now."""

    title: str
    answers: Mapping[str, str]
    offered: bool


class OptionKind:
    """A kind of bonus option; subclasses implement the hooks (see the module's docstring)."""

    name: ClassVar[str]
    params: ClassVar[type[OptionParams]]
    target: ClassVar[type[PickTarget]]
    displaces: ClassVar[tuple[str, ...]] = ()  # the ``Displaced.kind`` of the groups its picks take off the board

    @property
    def target_key(self) -> str:
        """The draft file's key for what a pick of this kind names."""
        return self.target.KEY

    def parse_target(self, section: Section, names: Names, ruleset: Ruleset) -> PickTarget:
        raise NotImplementedError

    def choices(self, state: DraftState, option: Option, side: str, powers: list[str]) -> OptionChoices:
        raise NotImplementedError

    def describe_choices(self, choices: OptionChoices) -> list[str]:
        """The legal targets :meth:`choices` found, one line each, indented under the option's heading."""
        raise NotImplementedError

    def picks(self, state: DraftState, choices: OptionChoices, side: str, index: int) -> Iterator[tuple[str, Pick]]:
        """(description, pick) for every legal target of ``choices`` (what :meth:`choices` listed)."""
        raise NotImplementedError

    def apply(self, state: DraftState, pick: Pick) -> Outcome:
        raise NotImplementedError

    def help_lines(self, state: DraftState, option: Option, side: str | None) -> list[str]:
        """More for ``help OPTION`` than the rule text and parameters (a scenario option: the side's scenarios and their effects)."""
        return []

    def variant_titles(self, ruleset: Ruleset, option: Option) -> tuple[str, ...]:
        """The titles of the alternatives ``option`` is made of, for every side, known from the ruleset alone (the
        matrix's rows before any game is read); () for an option that is one row (its picks are its targets)."""
        return ()

    def variants(self, state: DraftState, choices: OptionChoices, side: str) -> tuple[Variant, ...]:
        """The side's alternatives of ``choices``' option, offered now or not, each with the answers to :meth:`form`
        that pick it: a matrix pushes each, and one not offered must be refused. () when :meth:`variant_titles` is."""
        return ()

    def form(self, state: DraftState, choices: OptionChoices, side: str, index: int) -> Form:
        """What the terminal and the draft room ask for a pick of ``choices``' option: by default, which of its legal picks."""
        listed = [(description, pick.target.to_toml()) for description, pick in self.picks(state, choices, side, index)]
        return listed_form(listed, choices.option.title)

    # -- units its picks displace, placed after the bid (000 A "Order of action" 1) --------

    def destinations(self, state: DraftState, displaced: Displaced) -> Nearest:
        """The nearest places ``displaced`` may go now (several: its side chooses; none: the units are lost)."""
        return Nearest(None, ())

    def declared(self, pick: Pick, displaced: Displaced) -> str | None:
        """Where ``pick``'s own entry in the draft file sends ``displaced``, if it says."""
        return None

    def write_declaration(self, entry: dict[str, Any], displaced: Displaced, to: str, names: Names) -> None:
        """Record in the pick's ``[[pick]]`` table (as the draft file has it) that ``displaced`` goes to ``to``."""
        raise NotImplementedError(f"option kind {self.name!r} displaces no units")

    def displaced_words(self, displaced: Displaced) -> DisplacedWords:
        raise NotImplementedError(f"option kind {self.name!r} displaces no units")

    def placed_line(self, state: DraftState, displaced: Displaced, place: str) -> str:
        """What placing ``displaced`` at ``place`` did, for people."""
        what = ", ".join(f"{n} {displaced.owner} {u}" for u, n in displaced.units())
        return f"{what} from {state.names.shown(displaced.origin)} to {state.names.shown(place)}"


#: The option kinds by the name a ruleset's ``kind`` gives (rules/registry.py: one shape for every extension point).
KINDS: Registry[OptionKind] = Registry("option kind")


def register(cls: type[OptionKind]) -> type[OptionKind]:
    """Class decorator: the ruleset's ``kind = cls.name`` is carried out by ``cls``."""
    if cls.name in KINDS:  # said first: a second kind of one name is the mistake, whatever else it gets wrong
        raise ValueError(f"option kind {cls.name!r} registered twice")
    if cls.params.KIND != cls.name:
        raise ValueError(f"option kind {cls.name!r} reads the parameters of {cls.params.KIND!r}")
    if any(kind.target_key == cls.target.KEY for kind in KINDS.values()):
        raise ValueError(f"option kind {cls.name!r}: another kind's picks name their target `{cls.target.KEY}`")
    for kind in KINDS.values():
        shared = set(kind.displaces) & set(cls.displaces)
        if shared:
            # A displaced group finds the kind that places it by its name (displacing_kind).
            raise ValueError(f"option kind {cls.name!r}: the kind {kind.name!r} already displaces units as {', '.join(sorted(shared))}")
    KINDS.add(cls.name, cls())
    return cls


def unregister(name: str) -> None:
    """Forget a kind registered with :func:`register` (a test's own kind, once the test is done)."""
    KINDS.remove(name)


def displacing_kind(displaced: Displaced) -> OptionKind:
    """The kind whose picks leave groups like ``displaced`` (its ``displaces``)."""
    for kind in KINDS.values():
        if displaced.kind in kind.displaces:
            return kind
    raise ValueError(f"no option kind displaces units as {displaced.kind!r}")


def params_by_kind() -> dict[str, type[OptionParams]]:
    """Each registered kind's parameters class: what the ruleset reader needs to read ``[[option]]`` tables."""
    return {name: kind.params for name, kind in KINDS.items()}

"""What a user interface asks the session for a pick: the options' choices, a kind's form, and a pick from its answers.

The terminal draft and the draft room ask the players the same questions: which option, then the fields of that
option's kind (:mod:`kremlin_triplea.draft.form`). They ask them through these methods of :class:`Session` and hand
back the answers, never a draft file's table or a kind of their own choosing: the session finds the kind, reads the
answers into its target and checks the pick as ``apply`` does (issue 45, "the Session is the only door").
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from kremlin_triplea.draft.choices import OptionChoices
from kremlin_triplea.draft.form import Answers, Form
from kremlin_triplea.draft.kinds import KINDS, Pick, Variant
from kremlin_triplea.errors import RuleViolation
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.profile import Profile
from kremlin_triplea.rules.ruleset import Option, Ruleset

if TYPE_CHECKING:
    from kremlin_triplea.draft.run import DraftRun


class Asking:
    """The questions of a pick, as :class:`~kremlin_triplea.session.core.Session` answers them (a part of it)."""

    run: DraftRun
    ply: int | None
    turn: str | None

    # -- what the draft is played with ----------------------------------------------

    @property
    def ruleset(self) -> Ruleset:
        return self.run.ruleset

    @property
    def profile(self) -> Profile:
        return self.run.profile

    @property
    def names(self) -> Names:
        """The map profile's names on this game: rule-text names to the game's, and the game's as shown to people."""
        return self.run.names

    @property
    def total_picks(self) -> int:
        return self.run.total_picks

    @property
    def picks_per_side(self) -> int:
        return self.run.picks_per_side

    @property
    def warnings(self) -> tuple[str, ...]:
        """What the ruleset cannot do on this map as written (unmatched names), for the host."""
        return tuple(self.run.warnings)

    # -- one option's pick, asked ----------------------------------------------------

    def option_choices(self, option: Option | int | str, side: str | None = None) -> OptionChoices:
        """Every target of ``option`` (the option, its number or id) for ``side`` (default: whose turn it is) now,
        unavailable with why when the draft would accept none of them as the next pick."""
        return self.run.offered_choices(self._option(option), self._side(side))

    def listed_choices(self, option: Option | int | str, side: str | None = None) -> OptionChoices:
        """Every target of ``option`` its kind lists for ``side`` (default: whose turn it is) now, before the draft checks
        any of them whole (:meth:`option_choices` says which it takes). For tools that judge the kind's listing (the
        matrix): a target listed that :meth:`push` refuses is a fault of the kind."""
        return self.run.option_choices(self._option(option), self._side(side))

    def pick_form(self, choices: OptionChoices, side: str | None = None) -> Form:
        """What to ask for a pick of ``choices``' option, field by field (its kind's form on this board)."""
        return KINDS[choices.option.kind].form(self.run.state, choices, self._side(side), self._ply())

    def option_picks(self, option: Option | int | str, side: str | None = None) -> Iterator[tuple[str, Pick]]:
        """(description, pick) for every legal next pick of ``option`` by ``side`` (default: whose turn it is): the
        targets its kind lists that :meth:`push` takes whole (python-chess's legal moves of one piece)."""
        return self.run.option_picks(self._option(option), self._side(side))

    def candidate_picks(self, choices: OptionChoices, side: str | None = None) -> Iterator[tuple[str, Pick]]:
        """(description, pick) for every target ``choices`` list, as the next pick, before the draft checks it whole
        (its kind's own checks only: python-chess's pseudo-legal moves). For tools that judge the listing itself
        (the matrix): :meth:`push` should take each; one it refuses is a fault of the kind's listing."""
        return KINDS[choices.option.kind].picks(self.run.state, choices, self._side(side), self._ply())

    def option_variants(self, choices: OptionChoices, side: str | None = None) -> tuple[Variant, ...]:
        """The alternatives ``choices``' option is made of for ``side`` (a scenario of the side), offered now or not, each
        with the answers to :meth:`pick_form` that pick it (:func:`variant_titles` says which options have them)."""
        return KINDS[choices.option.kind].variants(self.run.state, choices, self._side(side))

    def describe_choices(self, choices: OptionChoices) -> list[str]:
        """The legal targets of ``choices``, one line each (as ``legal`` lists them)."""
        return KINDS[choices.option.kind].describe_choices(choices)

    def option_help(self, option: Option | int | str, side: str | None = None) -> list[str]:
        """More about ``option`` than its rule text (a scenario option: the side's scenarios and their effects)."""
        return KINDS[self._option(option).kind].help_lines(self.run.state, self._option(option), side)

    def pick_from_answers(self, option: Option | int | str, answers: Answers, side: str | None = None, form: Form | None = None) -> Pick:
        """The next pick of ``option`` that ``answers`` (its form's fields, by key) make, its names resolved and its
        turn checked; push it to check it whole. Raises ``Unanswered`` when the answers lack what the pick needs,
        ``KremlinError`` (a name, a turn) as the draft file's pick would. ``form``: the form the answers are to (default:
        the one :meth:`pick_form` gives now)."""
        chosen = self._option(option)
        side = self._side(side)
        asked = form if form is not None else self.pick_form(self.run.option_choices(chosen, side), side)
        kind = KINDS[chosen.kind]
        return self.run.pick_from_toml({"side": side, "option": chosen.number, kind.target_key: asked.read(answers)})

    def _option(self, option: Option | int | str) -> Option:
        return option if isinstance(option, Option) else self.run.ruleset.option(option)

    def _side(self, side: str | None) -> str:
        if side is not None:
            return side
        if self.turn is None:
            picks = self.run.ruleset.picks
            raise RuleViolation("draft", f"all {self.run.total_picks} picks are made", rule=picks.alternate_rule, source=picks.source)
        return self.turn

    def _ply(self) -> int:
        return self.ply if self.ply is not None else self.run.total_picks + 1


def variant_titles(ruleset: Ruleset, option: Option) -> tuple[str, ...]:
    """The titles of the alternatives ``option`` is made of (its scenarios, every side's), known from the ruleset alone,
    before any game is read; () for an option whose picks are its targets."""
    return KINDS[option.kind].variant_titles(ruleset, option)

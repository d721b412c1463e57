"""The session's declarations: where each group a pick displaced goes, in the picks' order, after the picks
(000 A "Order of action" 1). A part of :class:`~kremlin_triplea.session.core.Session`."""

from __future__ import annotations

from pathlib import Path

from kremlin_triplea.draft.declare import declaration_problem, declared_in, destinations, label
from kremlin_triplea.draft.kinds import Displaced, Outcome
from kremlin_triplea.draft.run import (
    DraftRun,
    located,
)
from kremlin_triplea.errors import RuleViolation
from kremlin_triplea.model.queries import Nearest
from kremlin_triplea.session.steps import Declaration, Done


class Declaring:
    # The session's state these methods share (set by Session.__init__).
    run: DraftRun
    done: list[Done]
    path: Path
    bid_dropped: RuleViolation | None

    def _push_declaration(self, step: Declaration) -> Outcome:
        pending = self.run.pending_declarations()
        if not self.picks_done or not pending or pending[0] != step.displaced:
            # 000 A "Order of action" 1: declared after the picks, in the order of the picks that displaced them.
            why = "no declaration of these units is due now: they are declared once the picks are made, in the picks' order"
            raise RuleViolation(label(step.displaced), why, rule=step.displaced.rule, source=step.displaced.source)
        if step.to is not None:
            problem = declaration_problem(self.state, step.displaced, step.to)
            if problem is not None:
                raise problem.violation(label(step.displaced))
        outcome = self.run.declare_next(step.to)
        if self.bid is not None and not self.run.pending_declarations():
            try:
                self._put_bid_on()
            except RuleViolation:
                self.run.pop_declaration()
                raise
        self.done.append(Done(step, outcome))
        return outcome

    def _stated(self, displaced: Displaced) -> str | None:
        return declared_in(self.run.applied[displaced.pick - 1].pick, displaced)

    @property
    def pending_declarations(self) -> tuple[Displaced, ...]:
        """The displaced groups not yet declared, in the order they are declared (a question: nothing is pushed)."""
        return tuple(self.run.pending_declarations())

    def open_declaration(self) -> tuple[Displaced, Nearest, str | None] | None:
        """Push every waiting declaration that needs no answer; the first that does: (group, its places, why the file's place no longer applies).

        A group goes where its pick's entry says (if the board allows it), or to its one nearest place; a group
        with several nearest places waits for its side. None: no group waits. Only once the picks are made.
        """
        if not self.picks_done:
            return None
        for displaced in list(self.run.pending_declarations()):
            stated = self._stated(displaced)
            problem = declaration_problem(self.state, displaced, stated) if stated is not None else None
            found = destinations(self.state, displaced)
            if stated is not None and problem is None:
                self.declare(Declaration(displaced, stated, written=False))  # the pick's entry says it already
            elif found.tied:
                return displaced, found, problem.why if problem is not None else None
            else:
                self.declare(Declaration(displaced, None, written=False))
        return None

    def waiting_declaration(self) -> tuple[Displaced, Nearest, str | None] | None:
        """The first group still to declare, its places and why the file's place no longer applies, as
        :meth:`open_declaration` leaves it: a question, nothing is pushed (None: no group waits, or the picks are not done)."""
        pending = self.run.pending_declarations()
        if not pending or not self.picks_done:
            return None
        displaced = pending[0]
        stated = self._stated(displaced)
        problem = declaration_problem(self.state, displaced, stated) if stated is not None else None
        return displaced, destinations(self.state, displaced), problem.why if problem is not None else None

    def declare(self, step: Declaration) -> Outcome:
        """Push ``step`` as the players make it: a bid agreed before the declarations that no longer applies once the
        last group is placed is withdrawn (the declaration stands; :attr:`bid_dropped` says why), not the declaration refused."""
        try:
            return self.push(step)
        except RuleViolation as error:
            if self.bid is None or declaration_problem(self.state, step.displaced, step.to) is not None:
                raise
            self.withdraw_bid()
            self.bid_dropped = error
            return self.push(step)

    def declare_as_written(self) -> None:
        """Push the waiting declarations as the picks' entries state them (or to the one nearest place), as ``apply`` reads them.

        Stops at the first group the file leaves open among several places; a place the board no longer allows is refused at its pick's line.
        """
        for displaced in list(self.run.pending_declarations()):
            stated = self._stated(displaced)
            if stated is None and destinations(self.state, displaced).tied:
                return
            with located(self._where_of_pick(displaced.pick)):
                self.push(Declaration(displaced, stated, written=False))

    def declare_all(self) -> None:
        """Push every waiting declaration as written; a group the file leaves open among several places is refused (its side must say which)."""
        self.declare_as_written()
        for displaced in self.run.pending_declarations()[:1]:
            with located(self._where_of_pick(displaced.pick)):
                self.push(Declaration(displaced, None, written=False))

    def _where_of_pick(self, index: int) -> str:
        written = self.draft.picks  # a draft made in the draft room or the terminal may have no such table yet
        return written[index - 1].where if index <= len(written) else self.draft.path

    def declaration_lines(self) -> list[str]:
        """Where each displaced group went so far, named by the pick that displaced it."""
        return [f"pick {displaced.pick}: {line}" for displaced, outcome in self.run.declared for line in outcome.lines]

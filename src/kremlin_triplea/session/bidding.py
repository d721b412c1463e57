"""The session's bid: proposed, agreed or entered together, checked with the groups still to declare, and put on the
board once the last group is declared (000 A "Order of action" 2). A part of :class:`~kremlin_triplea.session.core.Session`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from kremlin_triplea.draft.declare import destinations
from kremlin_triplea.draft.kinds import Outcome
from kremlin_triplea.draft.picks import BidSpec, UnitPlacement
from kremlin_triplea.draft.run import (
    DraftRun,
    located,
)
from kremlin_triplea.errors import RuleViolation
from kremlin_triplea.rules.tomlfile import Section
from kremlin_triplea.session.steps import Agreement, Bid, Done, Step


class Bidding:
    # The session's state these methods share (set by Session.__init__).
    run: DraftRun
    done: list[Done]
    path: Path
    _bid_outcome: Outcome | None
    _picks_ended: bool
    bid_dropped: RuleViolation | None

    @property
    def bid(self) -> BidSpec | None:
        """The bid both sides agree to (entered together, or proposed and agreed), or None."""
        bid, agreed = self._bid_step()
        return bid.spec if bid is not None and agreed else None

    @property
    def proposal(self) -> Bid | None:
        """The bid one side proposed that the other has not agreed to yet, or None."""
        bid, agreed = self._bid_step()
        return bid if bid is not None and not agreed else None

    def _bid_step(self) -> tuple[Bid | None, bool]:
        """The bid step pushed (None: none), and whether it counts: entered by both sides, or the other's :class:`Agreement` pushed."""
        bid = next((done.step for done in self.done if isinstance(done.step, Bid)), None)
        agreed = bid is not None and (bid.by is None or any(isinstance(done.step, Agreement) for done in self.done))
        return bid, agreed

    def bid_from_toml(self, table: dict[str, Any]) -> Bid:
        """A ``[bid]`` table (the draft file's words) as a bid step, its names resolved."""
        return self.bid_from_section(Section(table, str(self.path), "bid"))

    @property
    def bid_phase_powers(self) -> list[str]:
        """The placing side's powers whose bid TripleA's own bid phase can take, if the ruleset lets a positive bid go
        there (002 III: "Players do not have to declare what they are buying") and the game has their bid property
        and their bid steps (a property no step reads would take the PUs and give them to nobody)."""
        state = self.run.state
        rules = state.ruleset.bid
        pattern = state.profile.bid_property
        if rules.positive != "declared_or_bid_phase" or pattern is None:
            return []
        players = state.board.catalog.players
        return [p for p in state.side_powers[rules.placing_side] if pattern.format(power=p) in state.board.properties and players[p].bid_phase]

    def bid_from_answers(
        self,
        amount: int,
        units: Sequence[tuple[str, str, int, str]] = (),
        allocate: Mapping[str, int] | None = None,
        phase: Mapping[str, int] | None = None,
        *,
        by: str | None = None,
    ) -> Bid:
        """The bid a form's answers make (the draft room's), ``by`` the side proposing it: ``amount`` for the placing side
        (000 C), ``units`` (power, unit, count, place) placed by a positive bid or removed by a negative one where the
        rules' negative bid removes units, ``allocate`` (power -> PUs) given by a negative one where it gives PUs, and
        ``phase`` (power -> PUs) a positive bid leaves to TripleA's bid phase. Each name is read as the draft file's
        are (the rule text's words, a typo with its close matches); push it to check it."""
        names = self.run.names
        rows = []
        for power, unit, count, at in units:
            owner = names.power(power)
            rows.append(UnitPlacement(owner, names.unit(unit, power=owner), count, names.place(at)))
        removes = self.run.ruleset.bid.negative == "remove_units"
        placements = tuple(rows) if amount > 0 else ()
        removals = tuple(rows) if amount < 0 and removes else ()
        given = tuple((names.power(power), pus) for power, pus in (allocate or {}).items()) if amount < 0 and not removes else ()
        left = tuple((names.power(power), pus) for power, pus in (phase or {}).items()) if amount > 0 else ()
        return Bid(BidSpec(amount, placements, given, removals, left), by=by)

    def bid_from_section(self, section: Section) -> Bid:
        """A draft file's ``[bid]`` table as a bid step (its errors at the table's lines)."""
        return Bid(self.run.parse_bid(section))

    @property
    def bid_table(self) -> dict[str, Any] | None:
        """The bid as the draft file writes it (``[bid]``), or None."""
        return self.bid.to_toml(self.run.ruleset.bid.placing_side) if self.bid is not None else None

    def take_dropped_bid(self) -> RuleViolation | None:
        """Why the last bid withdrawn (a declaration left it without a place) no longer applied, said once: returned
        and forgotten, so the players are told once and the bid is asked again."""
        dropped, self.bid_dropped = self.bid_dropped, None
        return dropped

    @property
    def bid_outcome(self) -> Outcome | None:
        """What the bid did on the board (None: no bid, or one waiting for the declarations)."""
        return self._bid_outcome

    def withdraw_bid(self) -> Bid | None:
        """Take back the bid alone, keeping the declarations made after it (they do not depend on it); the bid taken back."""
        if not any(isinstance(done.step, Bid) for done in self.done):
            return None
        later: list[Step] = []
        while not isinstance(self.done[-1].step, Bid):
            step = self.pop()
            if not isinstance(step, Agreement):  # agreed to the bid withdrawn: goes with it
                later.append(step)
        bid = self.pop()
        for step in reversed(later):
            self.push(step)
        assert isinstance(bid, Bid)
        return bid

    def _push_bid(self, step: Bid) -> Outcome | None:
        rules = self.run.ruleset.bid
        if self.bid is not None or self.proposal is not None:
            raise RuleViolation("bid", "the draft already has its bid", rule=rules.placement_rule, source=rules.source)
        if not self._picks_ended:
            self.run.check_complete()
        if step.by is not None:  # proposed: checked as it would apply, counted once the other side agrees
            self._push_bid(Bid(step.spec))
            self.pop()
            self.done.append(Done(step))
            return None
        if self.run.pending_declarations():
            self._check_bid_with_open_declarations(step.spec)
            self.done.append(Done(step))
            return None
        self.done.append(Done(step))
        try:
            return self._put_bid_on()
        except RuleViolation:
            self.done.pop()
            raise

    def _push_agreement(self, step: Agreement) -> Outcome | None:
        proposal = self.proposal
        if proposal is None or proposal.by == step.side:
            why = "no bid is waiting for the other side's agreement" if proposal is None else f"the {step.side} proposed it: the other side agrees"
            rules = self.run.ruleset.bid
            raise RuleViolation(f"bid agreement ({step.side})", why, rule=rules.rule, source=rules.source)
        self.done.append(Done(step))
        if self.run.pending_declarations():
            return None  # on the board once the last group is declared
        try:
            return self._put_bid_on()
        except RuleViolation:
            self.done.pop()
            raise

    def _check_bid_with_open_declarations(self, spec: BidSpec) -> None:
        """Apply ``spec`` after the waiting groups, each where the file says or at its first place, then take all back."""
        run = self.run
        placed = 0
        try:
            for displaced in list(run.pending_declarations()):
                stated = self._stated(displaced)
                if stated is None:
                    found = destinations(self.state, displaced)
                    stated = found.matches[0] if found.tied else None
                run.declare_next(stated)
                placed += 1
            run.take_back_bid(run.apply_bid(spec))
        finally:
            for _ in range(placed):
                run.pop_declaration()

    def _put_bid_on(self) -> Outcome:
        spec = self.bid
        assert spec is not None and self._bid_outcome is None
        self._bid_outcome = self.run.apply_bid(spec)
        return self._bid_outcome

    def _take_bid_off(self) -> None:
        if self._bid_outcome is not None:
            self.run.take_back_bid(self._bid_outcome)
            self._bid_outcome = None

    def _push_written_bid(self, section: Section, *, set_aside: bool) -> None:
        """The file's bid, after the declarations it states (000 A); set aside (:attr:`bid_dropped`) rather than refused if asked."""
        mark = len(self.done)
        try:
            self.run.check_complete()
            bid = self.bid_from_section(section)
            self.declare_as_written()
            with located(section.where):
                self.push(bid)
        except RuleViolation as error:
            if not set_aside:
                raise
            while len(self.done) > mark:  # the declarations pushed for it wait for the players, as without a bid
                self.pop()
            self.bid_dropped = error

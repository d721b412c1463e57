"""A draft in progress as one object: the picks, the bid and its agreement, the declarations and the house-rule choices as steps.

Like python-chess's ``Board``: :meth:`Session.push` checks a step and applies it (or raises the rule it breaks,
changing nothing), :meth:`Session.pop` takes back the last step of any kind, and :attr:`Session.legal_picks`
and :meth:`Session.is_legal` answer for the next pick. The draft file is written *from* the steps
(:meth:`Session.to_toml`), and a draft file is opened by pushing its steps (:meth:`Session.open`), so ``apply``,
the terminal draft, the draft room, the matrix and ``value`` all drive a draft the same way.

The board always holds the steps in the rules' order of action (000 A): the picks, then the declarations, then the
bid's units. The players agree on the bid before they declare (the draft room), so a bid pushed while groups wait
for their declaration is checked with each such group at its first place and is put on the board once the last
group is declared. A bid one side proposes counts once the other side's :class:`Agreement` is pushed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from kremlin_triplea.draft.choices import NextPick
from kremlin_triplea.draft.declare import declaration_problem, declared_in, destinations, label, write_declaration
from kremlin_triplea.draft.kinds import Displaced, DraftState, Outcome, Pick
from kremlin_triplea.draft.legal import legal_choices
from kremlin_triplea.draft.picks import BidSpec
from kremlin_triplea.draft.run import (
    PICKED_BY,
    Draft,
    DraftResult,
    DraftRun,
    LegalPicks,
    draft_from_dict,
    located,
    open_game,
    players_from_picks,
    read_draft,
)
from kremlin_triplea.errors import InputError, RuleViolation
from kremlin_triplea.game import Game
from kremlin_triplea.gamefile.safe import write_atomically
from kremlin_triplea.gamerules.gate import Earlier, check_rules, push_rules, written_once
from kremlin_triplea.gamerules.house import house_rule_changes
from kremlin_triplea.model.queries import Nearest
from kremlin_triplea.rules.house_rules import read_choices
from kremlin_triplea.rules.profile import Profile
from kremlin_triplea.rules.ruleset import Ruleset
from kremlin_triplea.rules.tomlfile import Section
from kremlin_triplea.session.asking import Asking
from kremlin_triplea.session.steps import Agreement, Bid, Declaration, HouseRuleChoice, Step

#: The draft file's keys the steps write; every other top-level key is the draft's header, kept as written.
_STEP_KEYS = ("pick", "bid", "house_rule_choices")


@attrs.define
class _Done:
    """A step pushed, with what it did: its outcome, a pick's note, the draft a house-rule choice replaced."""

    step: Step
    outcome: Outcome | None = None
    note: str | None = None
    draft_before: Draft | None = None


class Session(Asking):
    """A Kremlin draft being made: a :class:`DraftRun` and the steps pushed onto it."""

    def __init__(
        self,
        draft: Draft,
        game: Game,
        *,
        ruleset: Ruleset | None = None,
        profile: Profile | None = None,
        players: dict[str, str] | None = None,
        maps_dir: Path | str | None = None,
    ) -> None:
        self.run = DraftRun(draft, game, ruleset=ruleset, profile=profile)
        self.path = Path(draft.path)
        self.maps_dir = Path(maps_dir) if maps_dir is not None else None  # where the game was found: the writers look there too
        # The header as the file writes it (the game as the host named it, not as resolved).
        data = draft.root.data if draft.root is not None else {}
        self.header: dict[str, Any] = {k: v for k, v in data.items() if k not in _STEP_KEYS}
        self.players: dict[str, str] = dict(players or {})  # side -> the player picking for it ("picked by" in the notes)
        self.done: list[_Done] = []
        self._bid_outcome: Outcome | None = None  # the bid's changes, once on the board (after every declaration)
        # Picks (number, [[pick]] table) and the bid taken back by the players' undo: the file no longer has them.
        self.undone: list[tuple[int, dict[str, Any]]] = []
        self.undone_bid: int | None = None  # the pick whose undo took the bid with it
        self.bid_dropped: RuleViolation | None = None  # why the last bid withdrawn by :meth:`declare` no longer applied
        self.file_header = ""  # the comment the draft file starts with (who writes it)
        self._picks_ended = False  # :meth:`end_picks`: the picks made so far are the draft's, fewer than the rules' count

    # -- opening a draft file: its steps pushed in order -------------------------------

    @classmethod
    def open(
        cls,
        path: Path | str,
        *,
        game: Game | None = None,
        game_spec: str | None = None,
        maps_dir: Path | str | None = None,
        players: dict[str, str] | None = None,
        profile: Profile | None = None,
        set_bid_aside: bool = False,
    ) -> Session:
        """The draft file at ``path`` opened by pushing its steps (:meth:`from_draft`)."""
        draft = read_draft(path)
        return cls.from_draft(draft, game, game_spec=game_spec, maps_dir=maps_dir, players=players, profile=profile, set_bid_aside=set_bid_aside)

    @classmethod
    def from_draft(
        cls,
        draft: Draft,
        game: Game | None = None,
        *,
        game_spec: str | None = None,
        maps_dir: Path | str | None = None,
        ruleset: Ruleset | None = None,
        profile: Profile | None = None,
        players: dict[str, str] | None = None,
        set_bid_aside: bool = False,
    ) -> Session:
        """The draft's picks, declarations, bid and house-rule choices pushed in order, each refused at its line.

        Groups the file leaves open among several places stay open (:meth:`open_declaration`): the players
        declare them; :meth:`result` refuses a draft that still has one. ``set_bid_aside``: a bid the session
        cannot take (the picks unfinished, or the board no longer allows it) is not pushed and :attr:`bid_dropped`
        says why (a draft being made or examined: the bid is asked again, or waits for the picks), where ``apply``
        refuses the draft.
        """
        game = game or open_game(draft, game_spec, maps_dir)
        for name in draft.house_rules:  # each set's table checked first, at its lines in the file
            read_choices(name, draft.house_rule_choices.get(name))
        players = {**players_from_picks(draft.picks), **(players or {})}
        session = cls(draft, game, ruleset=ruleset, profile=profile, players=players, maps_dir=maps_dir)
        run = session.run
        for index, section in enumerate(draft.picks, start=1):
            with located(section.where):
                note = section.data.get("note")
                session.push(run.parse_pick(index, section), note=note if isinstance(note, str) else None)
        if draft.bid is not None:
            session._push_written_bid(draft.bid, set_aside=set_bid_aside)
        tables = draft.root.data.get("house_rule_choices", {}) if draft.root is not None else {}
        for set_id in draft.root.data.get("house_rules", []) if draft.root is not None else []:
            if set_id in tables:
                session.push(HouseRuleChoice.of(set_id, tables[set_id]))
        return session

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

    # -- what it is now ----------------------------------------------------------------

    @property
    def draft(self) -> Draft:
        return self.run.draft

    @property
    def game(self) -> Game:
        return self.run.game

    @property
    def state(self) -> DraftState:
        return self.run.state

    @property
    def steps(self) -> list[Step]:
        return [done.step for done in self.done]

    @property
    def picks(self) -> list[Pick]:
        return [done.step for done in self.done if isinstance(done.step, Pick)]

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

    @property
    def ply(self) -> int | None:
        """The number of the next pick, as players number them (1 first), or None once every pick is made."""
        number = len(self.run.applied) + 1
        return number if number <= self.run.total_picks and not self._picks_ended else None

    @property
    def turn(self) -> str | None:
        """The side making the next pick, or None once every pick is made (whose turn it is, asked once, here)."""
        number = self.ply
        return self.run.side_to_pick(number) if number is not None else None

    @property
    def picks_done(self) -> bool:
        """Whether the steps after the picks (the declarations, the bid) are due: every pick made, or :meth:`end_picks`."""
        return self._picks_ended or len(self.run.applied) >= self.run.total_picks

    def end_picks(self) -> None:
        """End the picks here, with fewer than the rules' count: the declarations and the bid are due at once.

        For examining a few picks on their own (the rules tests: what one pick leaves once its displaced units are
        declared, a bid on the board before the draft), as python-chess sets up a position to examine. Not a draft
        ``apply`` takes: :meth:`result` still refuses a draft of too few picks. A pick pushed straight after the end
        (before any declaration or bid) takes the end back; after one it is refused.
        """
        self._picks_ended = True

    @property
    def legal_picks(self) -> LegalPicks:
        return self.run.legal_picks

    def is_legal(self, pick: Pick) -> bool:
        """Whether :meth:`push` would take ``pick``: it refuses exactly the picks this says are not legal."""
        return self._picks_closed(pick) is None and self.run.is_legal(pick)

    def next_pick(self) -> NextPick:
        return legal_choices(self.run)

    def pick_from_toml(self, entry: dict[str, Any]) -> Pick:
        """A ``[[pick]]`` table (the draft file's words) as the next pick, its names resolved and its turn checked."""
        return self.run.pick_from_toml({k: v for k, v in entry.items() if k != "note"})

    def bid_from_toml(self, table: dict[str, Any]) -> Bid:
        """A ``[bid]`` table (the draft file's words) as a bid step, its names resolved."""
        return self.bid_from_section(Section(table, str(self.path), "bid"))

    def bid_from_section(self, section: Section) -> Bid:
        """A draft file's ``[bid]`` table as a bid step (its errors at the table's lines)."""
        return Bid(self.run.parse_bid(section))

    @property
    def bid_table(self) -> dict[str, Any] | None:
        """The bid as the draft file writes it (``[bid]``), or None."""
        return self.bid.to_toml(self.run.ruleset.bid.placing_side) if self.bid is not None else None

    @property
    def house_rules(self) -> list[str]:
        """The house-rule sets the draft takes, as the file names them."""
        return self._house_data()["house_rules"]

    @property
    def house_rule_choices(self) -> dict[str, dict[str, Any]]:
        """Each house-rule set's ``[house_rule_choices.<set>]`` table as the file writes it (the file's, then the steps')."""
        return {set_id: table for set_id, table in self._house_data()["house_rule_choices"].items() if table}

    @property
    def house_answered(self) -> set[str]:
        """The sides that have answered for their powers' house-rule advantages (a :class:`HouseRuleChoice` ``by`` them)."""
        return {done.step.by for done in self.done if isinstance(done.step, HouseRuleChoice) and done.step.by is not None}

    @property
    def bid_outcome(self) -> Outcome | None:
        """What the bid did on the board (None: no bid, or one waiting for the declarations)."""
        return self._bid_outcome

    # -- push and pop ----------------------------------------------------------------

    def push(self, step: Step, *, note: str | None = None) -> Outcome | None:
        """Check ``step`` and apply it; a refused step raises the rule it breaks and changes nothing.

        Returns what it did on the board (None: a house-rule choice, or a bid waiting for the declarations).
        """
        if isinstance(step, Pick):
            self._reopen_picks(step)
            outcome = self.run.push(step)
            if note is None and step.side in self.players:
                note = PICKED_BY + self.players[step.side]
            self.done.append(_Done(step, outcome, note))
            return outcome
        if isinstance(step, Declaration):
            return self._push_declaration(step)
        if isinstance(step, Bid):
            outcome = self._push_bid(step)
            self.bid_dropped = None
            return outcome
        if isinstance(step, Agreement):
            return self._push_agreement(step)
        return self._push_house(step)

    def _reopen_picks(self, pick: Pick) -> None:
        """A pick after :meth:`end_picks`: the picks go on if no step has followed them, else it is refused (000 A)."""
        if (closed := self._picks_closed(pick)) is not None:
            raise closed
        self._picks_ended = False

    def _picks_closed(self, pick: Pick) -> RuleViolation | None:
        """Why no pick may be pushed now (the picks were ended and a later step begun), or None."""
        if self._picks_ended and self.done and not isinstance(self.done[-1].step, Pick):
            picks = self.run.ruleset.picks
            why = "the picks were ended and the steps after them begun; pop those steps to go on picking"
            return RuleViolation(pick.label, why, rule=picks.alternate_rule, source=picks.source)
        return None

    def pop(self) -> Step:
        """Take back the last step (of any kind); IndexError if there is none."""
        done = self.done[-1]
        step = done.step
        if isinstance(step, Pick):
            self.run.pop()
        elif isinstance(step, Declaration):
            self._take_bid_off()
            self.run.pop_declaration()
        elif isinstance(step, (Bid, Agreement)):
            self._take_bid_off()
        else:
            assert done.draft_before is not None
            self.run.draft = done.draft_before
        self.done.pop()
        return step

    def undo(self) -> list[Step]:
        """Take back the last pick and every step after it (the players' ``undo``): the steps taken back, last first."""
        if not self.picks:
            return []
        entry = self.to_toml()["pick"][-1]
        taken: list[Step] = []
        while not taken or not isinstance(taken[-1], Pick):
            taken.append(self.pop())
        number = len(self.picks) + 1
        self.undone.append((number, entry))
        if any(isinstance(step, Bid) for step in taken):
            self.undone_bid = number  # the bid was made on the board the pick left
        return taken

    def undone_lines(self) -> list[str]:
        """What ``undo`` took out of the draft file and no step has replaced since: said when the players stop."""
        lines = [
            f"pick {number} (the {entry['side']}' option {entry['option']}) was undone: {self.path} no longer has it"
            for number, entry in self.undone
            if number > len(self.picks)
        ]
        if self.undone_bid is not None and self.bid is None:
            lines.append(f"the bid was undone with pick {self.undone_bid}: {self.path} no longer has it")
        return list(dict.fromkeys(lines))

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
        self.done.append(_Done(step, outcome))
        return outcome

    def _push_bid(self, step: Bid) -> Outcome | None:
        rules = self.run.ruleset.bid
        if self.bid is not None or self.proposal is not None:
            raise RuleViolation("bid", "the draft already has its bid", rule=rules.placement_rule, source=rules.source)
        if not self._picks_ended:
            self.run.check_complete()
        if step.by is not None:  # proposed: checked as it would apply, counted once the other side agrees
            self._push_bid(Bid(step.spec))
            self.pop()
            self.done.append(_Done(step))
            return None
        if self.run.pending_declarations():
            self._check_bid_with_open_declarations(step.spec)
            self.done.append(_Done(step))
            return None
        self.done.append(_Done(step))
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
        self.done.append(_Done(step))
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
            outcome = run.apply_bid(spec)
            for _ in outcome.changes:
                self.game.board.pop()
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
            for _ in self._bid_outcome.changes:
                self.game.board.pop()
            self._bid_outcome = None

    def _push_house(self, step: HouseRuleChoice) -> None:
        """The set taken (with its table), checked as ``apply`` writes it: after the ruleset's own rules, on this board."""
        before = self.run.draft
        data = self._house_data()
        if step.set_id not in data["house_rules"]:
            data["house_rules"].append(step.set_id)
        tables = data["house_rule_choices"]
        tables[step.set_id] = step.as_table()
        draft = draft_from_dict(
            {**self.header, "house_rules": data["house_rules"], "house_rule_choices": {k: v for k, v in tables.items() if v}},
            str(self.path),
        )
        run = self.run
        chosen = [read_choices(name, draft.house_rule_choices.get(name)) for name in draft.house_rules]
        applied, _ = house_rule_changes(self.game.board, run.profile, run.names, chosen, before=(run.ruleset.rule_set,), flags=draft.choices)
        check_rules(
            self.game.board, written_once(applied, self.game.xml), run.names, self._earlier()
        )  # as apply writes it: on this board, through the same gate
        run.draft = attrs.evolve(before, house_rules=draft.house_rules, house_rule_choices=draft.house_rule_choices)
        self.done.append(_Done(step, draft_before=before))
        return None

    def _earlier(self) -> Earlier:
        """The draft's step that made a change, as the players number it: for a rule the board's invariants refuse."""
        steps = [(applied.pick.label, applied.outcome) for applied in self.run.applied]
        steps += [(f"pick {displaced.pick}: {label(displaced)}", outcome) for displaced, outcome in self.run.declared]
        if self._bid_outcome is not None:
            steps.append(("the bid", self._bid_outcome))
        made = {id(change): name for name, outcome in steps for change in outcome.changes}
        return lambda place, change: made.get(id(change))

    def _house_data(self) -> dict[str, Any]:
        """The draft's house sets and their tables, as the file writes them (the header's, then the steps')."""
        names = list(self.header.get("house_rules", []))
        tables: dict[str, Any] = {}
        for done in self.done:
            if isinstance(done.step, HouseRuleChoice):
                if done.step.set_id not in names:
                    names.append(done.step.set_id)
                tables[done.step.set_id] = done.step.as_table()
        return {"house_rules": names, "house_rule_choices": tables}

    # -- the declarations (000 A "Order of action" 1) -----------------------------------------

    def _stated(self, displaced: Displaced) -> str | None:
        return declared_in(self.run.applied[displaced.pick - 1].pick, displaced)

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

    # -- the draft file, from the steps ----------------------------------------------------------

    def to_toml(self) -> dict[str, Any]:
        """The draft file's data: the header as written, then a ``[[pick]]`` per pick, the ``[bid]``, the house-rule choices."""
        data = dict(self.header)
        entries: list[dict[str, Any]] = []
        for done in self.done:
            step = done.step
            if isinstance(step, Pick):
                entry = step.to_toml()
                if done.note is not None:
                    entry["note"] = done.note
                entries.append(entry)
            elif isinstance(step, Declaration) and step.written and step.to is not None:
                write_declaration(entries[step.displaced.pick - 1], step.displaced, step.to, self.run.names)
        data["pick"] = entries
        if self.bid is not None:
            data["bid"] = self.bid.to_toml(self.run.ruleset.bid.placing_side)
        house = self._house_data()
        if house["house_rules"]:
            data["house_rules"] = house["house_rules"]
        tables = {k: v for k, v in house["house_rule_choices"].items() if v}
        if tables:
            data["house_rule_choices"] = tables
        return data

    def save(self, path: Path | None = None, *, header: str = "", overwrite: bool = True) -> None:
        """Write :meth:`to_toml` atomically (over the draft file by default: it is the session's own; a new draft: ``overwrite=False``)."""
        import tomli_w

        write_atomically(path or self.path, ((header or self.file_header) + tomli_w.dumps(self.to_toml())).encode("utf-8"), overwrite=overwrite)

    # -- the end --------------------------------------------------------------------------

    def copy(self) -> Session:
        """A session of its own in the same position (python-chess's ``Board.copy``): the same draft, and the same
        steps pushed in the same order on a copy of the file's board, so each is checked again as it was."""
        run = self.run
        game = self.game.copy()
        game.reset()
        twin = Session(self._draft_at_start(), game, ruleset=run.ruleset, profile=run.profile, players=self.players, maps_dir=self.maps_dir)
        twin.header, twin.file_header = dict(self.header), self.file_header
        for done in self.done:
            if self._picks_ended and not isinstance(done.step, Pick) and not twin._picks_ended:
                twin.end_picks()
            twin.push(done.step, note=done.note)
        if self._picks_ended and not twin._picks_ended:
            twin.end_picks()
        twin.undone, twin.undone_bid, twin.bid_dropped = list(self.undone), self.undone_bid, self.bid_dropped
        return twin

    def _draft_at_start(self) -> Draft:
        """The draft as it was before the first house-rule choice was pushed (each such step records the one before it)."""
        first = next((done.draft_before for done in self.done if done.draft_before is not None), None)
        return first if first is not None else self.draft

    def result(self) -> DraftResult:
        """The draft finished as ``apply`` finishes it: every pick made, every group declared, the house rules written.

        Raises the rule the draft breaks (too few picks, a group whose side has not said where it goes). Pure: the
        finishing is done on a :meth:`copy`, so this session stays as it was (the room keeps drafting, or asks again).
        """
        return self.copy()._finish()

    def _finish(self) -> DraftResult:
        """:meth:`result`, done on this session itself (the declarations pushed, the rule sets' changes on its board)."""
        run = self.run
        run.check_complete()
        self.declare_all()
        draft = self.draft
        chosen = [read_choices(name, draft.house_rule_choices.get(name)) for name in draft.house_rules]
        rules, selections = house_rule_changes(self.game.board, run.profile, run.names, chosen, before=(run.ruleset.rule_set,), flags=draft.choices)
        rules = written_once(rules, self.game.xml)
        push_rules(self.game.board, rules, run.names, self._earlier())
        return DraftResult(
            self.game,
            run.ruleset,
            run.profile,
            tuple(run.applied),
            self._bid_outcome,
            self.bid,
            run.warnings + rules.warnings(),
            run.state,
            rules,
            selections,
            _players(self.done),
            tuple(draft.choices),
            tuple(run.declared),
        )


def _players(done: list[_Done]) -> dict[str, str]:
    """Each side's player, as the picks' notes record them (the first note per side)."""
    players: dict[str, str] = {}
    for item in done:
        if isinstance(item.step, Pick) and item.note is not None and item.note.startswith(PICKED_BY):
            players.setdefault(item.step.side, item.note.removeprefix(PICKED_BY).strip())
    return players


def open_session(
    path: Path, data: dict[str, Any] | None = None, maps_dir: Path | None = None, players: dict[str, str] | None = None, profile: Profile | None = None
) -> Session:
    """The terminal draft's and the draft room's session: a new draft's header (``data``), or the draft file at ``path`` resumed.

    ``profile`` (``--profile``) reads the game with that map profile rather than the one the draft names or the lookup finds."""
    draft = read_draft(path) if data is None else draft_from_dict(data, str(path))
    if draft.ruleset is None:  # the terminal draft and the draft room are for picks; house rules alone need none
        raise InputError(f"a draft of house rules only has no picks to make: `kremlin-triplea apply {path} -o GAME.xml` writes it", where=str(path))
    # A saved bid that does not apply (the picks unfinished, or the board changed under it) is asked again, not the end of the draft.
    return Session.from_draft(draft, maps_dir=maps_dir, players=players, profile=profile, set_bid_aside=True)

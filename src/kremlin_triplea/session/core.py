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

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from kremlin_triplea.draft.choices import NextPick
from kremlin_triplea.draft.kinds import Displaced, DraftState, Outcome, Pick
from kremlin_triplea.draft.legal import legal_choices
from kremlin_triplea.draft.run import (
    PICKED_BY,
    AppliedPick,
    Draft,
    DraftResult,
    DraftRun,
    LegalPicks,
    draft_from_dict,
    read_draft,
)
from kremlin_triplea.errors import InputError, RuleViolation
from kremlin_triplea.game import Game
from kremlin_triplea.gamerules.gate import push_rules
from kremlin_triplea.rules.profile import Profile
from kremlin_triplea.rules.ruleset import Ruleset
from kremlin_triplea.session.asking import Asking
from kremlin_triplea.session.bidding import Bidding
from kremlin_triplea.session.declaring import Declaring
from kremlin_triplea.session.draftfile import DraftFile
from kremlin_triplea.session.house import HouseChoosing
from kremlin_triplea.session.steps import Agreement, Bid, Declaration, Done, Step

#: The draft file's keys the steps write; every other top-level key is the draft's header, kept as written.
_STEP_KEYS = ("pick", "bid", "house_rule_choices")


class Session(Asking, Bidding, Declaring, HouseChoosing, DraftFile):
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
        self.done: list[Done] = []
        self._bid_outcome: Outcome | None = None  # the bid's changes, once on the board (after every declaration)
        # Picks (number, [[pick]] table) and the bid taken back by the players' undo: the file no longer has them.
        self.undone: list[tuple[int, dict[str, Any]]] = []
        self.undone_bid: int | None = None  # the pick whose undo took the bid with it
        self.bid_dropped: RuleViolation | None = None  # why the last bid withdrawn by :meth:`declare` no longer applied
        self.file_header = ""  # the comment the draft file starts with (who writes it)
        self._picks_ended = False  # :meth:`end_picks`: the picks made so far are the draft's, fewer than the rules' count

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
    def applied(self) -> tuple[AppliedPick, ...]:
        """The picks on the board, each with what it changed, in the order they were made (``value`` reads them)."""
        return tuple(self.run.applied)

    @property
    def declared(self) -> tuple[tuple[Displaced, Outcome], ...]:
        """The groups of displaced units declared so far, each with what its declaration changed."""
        return tuple(self.run.declared)

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
            self.done.append(Done(step, outcome, note))
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

    @contextlib.contextmanager
    def trying(self) -> Iterator[Session]:
        """Every step pushed inside is taken back on leaving, and the end of the picks with them (python-chess's
        push then pop): for tools that examine one step on its own on this board (the matrix's single picks, each
        with its displaced groups declared, and its bids on the board of a draft at its start)."""
        mark, ended, dropped = len(self.done), self._picks_ended, self.bid_dropped
        try:
            yield self
        finally:
            while len(self.done) > mark:
                self.pop()
            self._picks_ended, self.bid_dropped = ended, dropped

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
        rules, selections = self.rules_to_write()
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


def _players(done: list[Done]) -> dict[str, str]:
    """Each side's player, as the picks' notes record them (the first note per side)."""
    players: dict[str, str] = {}
    for item in done:
        if isinstance(item.step, Pick) and item.note is not None and item.note.startswith(PICKED_BY):
            players.setdefault(item.step.side, item.note.removeprefix(PICKED_BY).strip())
    return players


def open_session(
    path: Path,
    data: dict[str, Any] | None = None,
    maps_dir: Path | None = None,
    players: dict[str, str] | None = None,
    profile: Profile | None = None,
    *,
    file_header: str = "",
) -> Session:
    """The terminal draft's and the draft room's session: a new draft's header (``data``), or the draft file at ``path`` resumed.

    ``profile`` (``--profile``) reads the game with that map profile rather than the one the draft names or the lookup finds.
    ``file_header``: the comment the draft file is written with (who writes it: the terminal, the room)."""
    draft = read_draft(path) if data is None else draft_from_dict(data, str(path))
    if draft.ruleset is None:  # the terminal draft and the draft room are for picks; house rules alone need none
        raise InputError(f"a draft of house rules only has no picks to make: `kremlin-triplea apply {path} -o GAME.xml` writes it", where=str(path))
    # A saved bid that does not apply (the picks unfinished, or the board changed under it) is asked again, not the end of the draft.
    return Session.from_draft(draft, maps_dir=maps_dir, players=players, profile=profile, set_bid_aside=True, file_header=file_header)

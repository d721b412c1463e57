"""One draft room: the draft session, who may act, and the order of accepted actions.

Every action, and every page drawn, holds the room's one lock; an action carries the
sequence number the player's page was drawn at: a second submission for the
same turn (double click, two tabs) finds the number moved on and changes
nothing. The draft is a :class:`~kremlin_triplea.session.Session`, as in the
terminal draft and ``apply``: every pick, the agreed bid, each declaration and
the house-rule choices are steps pushed onto it (checked as they are pushed),
undo pops them, and the draft file is written from the steps atomically after
every accepted action.

What the draft file cannot hold is kept in the room file (``NAME.room.toml``) as a plain save of the session's
own steps: the bid one side proposed (its :class:`~kremlin_triplea.session.Bid` ``by`` that side, until the other's
:class:`~kremlin_triplea.session.Agreement`) and which sides have answered the house rules (their
:class:`~kremlin_triplea.session.HouseRuleChoice` ``by`` them: a "none" leaves the draft file as it was), both
pushed again when the room opens. An undo asked of the other side is not a step: it is the room's question
about taking steps back, and whether it needs asking at all depends on what the other side's pages have shown
(a room fact, like who has seen what), not on the draft. It changes neither the board nor the draft file, no
rule checks it, and a step in the session would make every push and pop first ask whether a question waits;
so the room holds it (and its file keeps it across a restart), and the agreed undo is the session's ``undo``
(or ``withdraw_bid``), which pops.

The links' secrets live beside the draft (``NAME.room.toml``, created 0600), never in
the draft file, which stays exactly what ``apply`` reads.

An action is accepted only once the files holding it are on disk: one that fails
after it began changing the room (a disk full, a folder made read-only) puts back
the files it wrote, takes the room back to what the files hold, and says so.
"""

from __future__ import annotations

import re
import secrets
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import attrs

from kremlin_triplea.check.gate import check_base_game
from kremlin_triplea.draft.choices import NextPick, OptionChoices
from kremlin_triplea.draft.form import Form, Unanswered
from kremlin_triplea.draft.kinds import Displaced
from kremlin_triplea.draft.run import DraftResult, draft_from_dict
from kremlin_triplea.errors import InputError, KremlinError
from kremlin_triplea.gamefile.locate import default_maps_dir
from kremlin_triplea.gamefile.safe import read_bytes, write_atomically
from kremlin_triplea.model.queries import Nearest
from kremlin_triplea.report.notes import install_name
from kremlin_triplea.report.value import PickValue, describe_pick, value_session
from kremlin_triplea.rules.house_rules import Advantage, load_named_house_set
from kremlin_triplea.rules.profile import Profile
from kremlin_triplea.rules.tomlfile import read_toml
from kremlin_triplea.session import Agreement, Bid, Declaration, HouseRuleChoice, Session, open_session
from kremlin_triplea.tools.outputs import write_apply_outputs, written_game
from kremlin_triplea.web.bid_talk import BidTalk
from kremlin_triplea.web.forms import FormError, bid_answers, option_of, pick_answers
from kremlin_triplea.web.guard import DraftWatch
from kremlin_triplea.web.lock import ServeLock, lock_file  # noqa: F401  (the room's one-server lock, named here too)
from kremlin_triplea.web.room_file import SPECTATOR, keep_private, read_or_make_keys, room_file, save_room_state, write_private


class Forbidden(Exception):
    """A missing or wrong secret, a spectator acting, or a side acting out of turn (403)."""


class Conflict(Exception):
    """The page was drawn before another action was accepted (409): nothing changed."""


class Refused(Exception):
    """The draft engine refused the choice (422): the rule and why."""


class NotSaved(Exception):
    """A file holding the action could not be written (503): the room kept nothing of it."""


class Halted(Exception):
    """The draft file was changed outside the room while it served (503): the room stops and writes nothing."""


#: What the players are told once the draft file has been changed outside the room.
HALTED = "the host's draft file was changed outside the room: the room has stopped and changed nothing; the host serves it again to go on"


#: The comment the draft file starts with while the room writes it.
DRAFT_HEADER = "# Written by `kremlin-triplea serve` after every accepted action; `apply` reads it.\n"


@attrs.define
class BidProposal:
    """A bid one side entered (checked as ``apply`` checks it); the draft file gets it once the other side agrees.

    The rules have the players agree on the bid (000 C: "Players can bid once or
    go back and forth auction style"; 002 III), so neither side settles it alone.
    Kept in the room file beside the draft while it waits, so a restarted server still asks for the answer.
    """

    side: str
    bid: dict[str, Any]


@attrs.define
class Undo:
    """An undo asked by ``side``; the other side agrees or refuses."""

    side: str
    pick: int  # how many picks the draft had when asked (the pick to take back is the last one)


@attrs.frozen
class Answer:
    """The other side's answer to ``side``'s bid or undo: shown on ``side``'s pages (reloaded, on another device, after a
    restart: kept in the room file) until the next action is accepted."""

    side: str  # whose bid or undo was answered
    by: str
    to: str  # "bid" or "undo"
    agreed: bool
    what: str = ""  # the action an undo took back (or would have), named as it was when answered

    @classmethod
    def from_dict(cls, data: Any, sides: tuple[str, ...]) -> Answer | None:
        """The answer as the room file holds it; None for anything else (an older file, a hand edit)."""
        if not isinstance(data, dict) or data.get("side") not in sides or data.get("by") not in sides or data.get("to") not in ("bid", "undo"):
            return None
        if not isinstance(data.get("agreed"), bool) or not isinstance(data.get("what", ""), str):
            return None
        return cls(data["side"], data["by"], data["to"], data["agreed"], data.get("what", ""))


class Room:
    def __init__(self, draft_path: Path, maps_dir: Path | None = None, players: dict[str, str] | None = None, profile: Profile | None = None) -> None:
        self.path = Path(draft_path)
        self.profile = profile  # ``serve --profile``: the game read with it rather than the draft's or the lookup's
        self.session: Session = open_session(self.path, None, maps_dir, profile=profile, file_header=DRAFT_HEADER)
        check_base_game(self.session.game.document)  # as apply refuses it, before the players draft on it
        self.sides: tuple[str, ...] = tuple(self.session.state.side_powers)
        for side in players or {}:
            if side not in self.sides:
                raise InputError(f"--player {side}=...: no side {side!r}; the sides are {', '.join(self.sides)}")
        self.keys, names = read_or_make_keys(self.path, self.sides, players)
        # The session notes "picked by NAME" in each pick, as the terminal draft does.
        self.session.players.update(names)
        self.roles = {secret: role for role, secret in self.keys.items()}
        # Re-entrant: a page is drawn under it (app.show) and asks the room questions that take it too.
        # Reading needs it as much as acting: the open declaration is found by placing the earlier ones on the board.
        self.lock = threading.RLock()
        # Moves on with every accepted action; pages and forms carry it. It starts anywhere, so a page
        # drawn before a restart never matches one drawn after (its form gets 409, not a second pick).
        self.seq = secrets.randbelow(1 << 30)
        # Called (in the acting thread, holding the lock) after every accepted action: the server wakes its event streams.
        self.watchers: list[Callable[[], None]] = []
        self.seen: dict[str, int] = dict.fromkeys(self.sides, -1)  # the last seq each side's page showed
        self._seen_lock = threading.Lock()  # not the room's: a page kept from an earlier drawing is marked seen without waiting on an action
        self.pick_seq: int = -1  # the seq at which the last pick was accepted
        self._read_waiting()
        self._result: DraftResult | None = None
        self._values: tuple[int, tuple[PickValue, ...]] | None = None  # (seq, the picks' values) for the pages
        self._next: tuple[int, NextPick] | None = None  # (seq, the legal choices of the side to pick) for the pages
        self.map_art = None  # the map's art, read once for the pictures
        self.draft_watch = DraftWatch(self.path)  # the draft file as the room read it: a hand edit stops the room
        self.halted: str | None = None  # why the room stopped (the draft file changed outside it), for the host
        self.written: list[Callable[[], None]] = []  # called after each action, holding the lock (serve: lock the file as now written)

    def for_players(self, text: str) -> str:
        """``text`` as a remote player may read it: without the host's folders (the draft's, the maps', the home and
        working folders; a file in them is named by its name alone). Every message the room sends passes here."""
        folders: set[str] = set()
        for folder in (self.path.parent, self.session.maps_dir, Path.home(), Path.cwd()):
            if folder is None:
                continue
            for form in (Path(folder).absolute(), Path(folder).resolve()):
                if len(form.parts) > 1:  # not a bare root: "/" would take every slash
                    folders.add(str(form))
        for folder in sorted(folders, key=len, reverse=True):
            # The folder and the folders under it before a file's name; the folder alone (at a word's end) is named so.
            inside = re.escape(folder) + r"[\\/](?:[^\\/\s:'\"]+[\\/])*"
            text = re.sub(inside, "", text)
            text = re.sub(re.escape(folder) + r"(?![^\s:'\",;)])", "the host's folder", text)
        return text

    def refusal(self, error: KremlinError) -> Refused:
        """The draft's refusal of an action as its player is told it: the rule and why, or the name not known, without
        where the draft file would say it (``draft.toml: pick 2.take[0]``: the player filled the room's form, not the
        file) and without the host's folders."""
        return Refused(self.for_players(error.message))

    def _read_waiting(self) -> None:
        """What waits for an answer, as the room file holds it.

        What waits for the other side's answer is an accepted action too: kept in the room file, so a server
        stopped (even killed) and started again on the same draft asks the same question.
        """
        waiting = read_toml(room_file(self.path))
        self._undo_request: Undo | None = None
        proposal = waiting.get("bid_proposal")
        session = self.session
        if isinstance(proposal, dict) and proposal.get("side") in self.sides and isinstance(proposal.get("bid"), dict) and session.picks_done:
            if session.bid is None and session.proposal is None:
                try:
                    session.push(Bid(session.bid_from_toml(proposal["bid"]).spec, by=proposal["side"]))
                except KremlinError:
                    pass  # a proposal the draft no longer takes (the file edited since): the bid is entered again
        undo = waiting.get("undo_request")
        if isinstance(undo, dict) and undo.get("side") in self.sides and undo.get("pick") == len(self.session.picks):
            self._undo_request = Undo(undo["side"], undo["pick"])
        self._settle()  # a draft file whose bid is agreed: the groups that need no answer, as the room left them
        self._push_house_answers(waiting.get("house_answered"))
        installed = waiting.get("installed")
        # Side -> the name its one install from the room used (kept across a restart: a restart is no second allowance).
        self.installed: dict[str, str] = (
            {side: name for side, name in installed.items() if side in self.sides and isinstance(name, str)} if isinstance(installed, dict) else {}
        )
        self._answer: Answer | None = Answer.from_dict(waiting.get("answer"), self.sides)
        self.talk = BidTalk.from_data(waiting.get("bid_talk"), self.sides)  # the bid's messages, kept with the proposal

    def _push_house_answers(self, answered: Any) -> None:
        """The sides the room file says have chosen their powers' house-rule advantages, pushed again as their steps.

        The draft file holds the advantages chosen, not who answered (a "none" leaves no trace in it): the room
        file keeps the sides, and each answer is the side's :class:`HouseRuleChoice` on the draft's tables again.
        """
        if not isinstance(answered, list) or not (self.picks_done and self.session.bid is not None) or self.declaration() is not None:
            return  # nothing answered, or a room file from before the draft came this far (the file edited since)
        session = self.session
        for side in [side for side in self.sides if side in answered and side not in session.house_answered]:
            for set_id in self.house_choices_open().get(side, {}):
                try:
                    session.push(HouseRuleChoice.of(set_id, session.house_rule_choices.get(set_id), by=side))
                except KremlinError:
                    pass  # a table the draft no longer takes (the file edited since): the side chooses again

    @property
    def house_answered(self) -> set[str]:
        """The sides that have chosen their powers' house-rule advantages: their steps on the session."""
        return self.session.house_answered

    def _keep_house_answers(self) -> None:
        """Write who has answered the house rules into the room file: a restarted server pushes their answers again."""
        save_room_state(self.path, house_answered=sorted(self.house_answered) or None)

    def _state(self) -> tuple[Any, ...]:
        """What an action may change, to tell afterwards whether a failed one changed anything."""
        return self.session.to_toml(), self.bid_proposal, self._undo_request, set(self.house_answered), self._answer, self.talk.data()

    @contextmanager
    def _acting(self) -> Iterator[None]:
        """Hold the room for an action that keeps nothing unless the files holding it are written.

        A refusal raised before anything changed passes through as it is. A file that could not be written
        (an ``InputError`` from the writer), or any failure after the action began changing the room, puts
        back the files the action wrote, makes the room what the files hold, and is reported as ``NotSaved``.
        """
        with self.lock:
            self._stop_if_edited()
            before = self._state()
            files = self._file_bytes()
            try:
                yield
            except Exception as error:
                changed = self._state() != before
                if not changed and not isinstance(error, KremlinError):
                    raise  # a refusal (Forbidden, Conflict, Refused, FormError) before anything changed
                self._put_back(files)
                if changed:
                    self._reload()
                why = str(error) if isinstance(error, (KremlinError, Refused)) else f"{type(error).__name__}: {error}"
                raise NotSaved(f"not saved ({why}); nothing of it was kept: try again") from error
            finally:
                self.draft_watch.remember()  # what the action wrote (or put back) is the room's own
                for written in self.written:
                    written()

    def _stop_if_edited(self) -> None:
        """Refuse every action from the moment the draft file is found changed by someone else (held: the lock)."""
        if self.halted is None and self.draft_watch.edited():
            self.halted = (
                f"{self.path}: changed by another program while the room served it (not what the room last wrote): "
                "the room stopped rather than write over it; serve it again to go on from the file as it is now"
            )
        if self.halted is not None:
            raise Halted(HALTED)

    def watch(self) -> str | None:
        """Looked at by the server every second: whether the draft file was changed outside the room (then why the
        room stops), and the room file kept 0600. Skipped while an action holds the room (it looks when done)."""
        if not self.lock.acquire(blocking=False):
            return self.halted
        try:
            try:
                self._stop_if_edited()
            except Halted:
                pass
            if keep_private(room_file(self.path)):
                print(f"kremlin-triplea: {room_file(self.path)} had become readable by others: set back to 0600", file=sys.stderr, flush=True)
        finally:
            self.lock.release()
        return self.halted

    def _file_bytes(self) -> dict[Path, bytes | None]:
        """The draft file's and the room file's bytes (None: no such file)."""
        return {path: read_bytes(path, what="draft room file") if path.exists() else None for path in (self.path, room_file(self.path))}

    def _put_back(self, files: dict[Path, bytes | None]) -> None:
        """Write back the files an action changed before it failed (best effort: the disk may refuse this too)."""
        for path, data in self._file_bytes().items():
            if data == files[path] or files[path] is None:
                continue
            try:
                if path == self.path:
                    write_atomically(path, files[path], overwrite=True)
                else:
                    write_private(path, files[path])
            except KremlinError:
                pass  # the room becomes what the files now hold

    def _reload(self) -> None:
        """The room as its files hold it (after an action that could not be saved); open pages are drawn again."""
        players = self.session.players
        self.session = open_session(self.path, None, self.session.maps_dir, players, self.profile, file_header=DRAFT_HEADER)
        self._read_waiting()
        self._moved_on()

    @property
    def bid_proposal(self) -> BidProposal | None:
        """The bid one side proposed that waits for the other's answer: a step of the session, as the pages show it."""
        proposal = self.session.proposal
        if proposal is None or proposal.by is None:
            return None
        return BidProposal(proposal.by, proposal.spec.to_toml(self.session.ruleset.bid.placing_side))

    def _keep_proposal(self) -> None:
        """Write the waiting proposal (or its absence) and what was said about the bid into the room file, in one
        write: a restarted server pushes the proposal again and shows the same messages."""
        proposal = self.bid_proposal
        save_room_state(self.path, bid_proposal=attrs.asdict(proposal) if proposal is not None else None, bid_talk=self.talk.data())

    @property
    def answer(self) -> Answer | None:
        """The other side's answer to a bid or an undo, until the next action is accepted."""
        return self._answer

    @answer.setter
    def answer(self, answer: Answer | None) -> None:
        if answer != self._answer:
            save_room_state(self.path, answer=attrs.asdict(answer) if answer is not None else None)
            self._answer = answer

    @property
    def undo_request(self) -> Undo | None:
        return self._undo_request

    @undo_request.setter
    def undo_request(self, request: Undo | None) -> None:
        save_room_state(self.path, undo_request=attrs.asdict(request) if request is not None else None)
        self._undo_request = request

    # -- who ------------------------------------------------------------------

    def role(self, key: str | None) -> str:
        if not key or key not in self.roles:
            raise Forbidden("this link's secret is missing or wrong")
        return self.roles[key]

    # -- what -----------------------------------------------------------------

    @property
    def pick_values(self) -> tuple[PickValue, ...]:
        """What each pick so far is worth (000 C), for the pages: valued once per step."""
        if self._values is None or self._values[0] != self.seq:
            self._values = (self.seq, value_session(self.session).picks)
        return self._values[1]

    @property
    def picks_done(self) -> bool:
        return self.session.picks_done

    @property
    def complete(self) -> bool:
        with self.lock:
            return self.picks_done and self.session.bid is not None and self.declaration() is None and not self.house_pending()

    # -- after the bid: where the displaced units go (000 A "Order of action" 1) ----------

    def declaration(self) -> tuple[Displaced, Nearest, str | None] | None:
        """The next group whose side must say where it goes, once the bid is agreed (None: none is open). A question:
        the groups that need no answer were declared by the action that made them due (:meth:`_settle`)."""
        with self.lock:
            if not (self.picks_done and self.session.bid is not None):
                return None
            return self.session.waiting_declaration()

    def _settle(self) -> None:
        """Declare the groups that need no answer (one nearest place, or the place their pick's entry states), up to the
        first a side must answer: done by the action that makes them due (the bid agreed, a group declared) and when
        the room opens, before the draft file is written, never by a page asking what waits."""
        if self.picks_done and self.session.bid is not None:
            self.session.open_declaration()

    def declare(self, role: str, form: dict[str, str]) -> str:
        """The declaring side says where the open group goes; checked on the board the earlier declarations left."""
        with self._acting():
            self._check(role, form.get("seq"))
            step = self.declaration()
            if step is None:
                raise Conflict("no declaration is open")
            displaced, _, _ = step
            if displaced.side != role:
                raise Forbidden(f"the {displaced.side} declare where {displaced.describe()} go")
            wanted = form.get("to", "").strip()
            if not wanted:
                raise FormError("to: the place they go")
            session = self.session
            try:
                # Once every group is placed the bid's units follow them (000 A): a bid that no longer applies is withdrawn.
                session.declare(Declaration(displaced, session.state.names.place(wanted)))
            except KremlinError as error:
                raise self.refusal(error) from None
            line = f"{displaced.describe()} go to {wanted}"
            self._settle()  # the groups after it that need no answer
            session.save()
            self._accepted()
            if (error := session.take_dropped_bid()) is not None:
                return f"{line}; the bid no longer applies once the units are placed ({error}): enter the bid again"
            return line

    # -- house rules: each side chooses its powers' advantages --------------------

    def house_choices_open(self) -> dict[str, dict[str, list[Advantage]]]:
        """Side -> house set -> the advantages its powers may still be given in the room.

        A set the draft lists whose advantages the draft file leaves open (no
        ``seed``, the power not in ``advantages``) is chosen here, by the side
        the power belongs to ("each power gains an advantage": 003; 004).
        """
        names = self.session.names
        side_of = self.session.state.side_of
        tables = self.session.house_rule_choices
        found: dict[str, dict[str, list[Advantage]]] = {}
        for set_id in self.session.house_rules:
            house = load_named_house_set(set_id)
            table = tables.get(set_id, {})
            if not house.advantages or "seed" in table:
                continue
            for power in house.powers:
                if power in table.get("advantages", {}):
                    continue
                try:
                    side = side_of.get(names.power(power))
                except KremlinError:
                    continue  # a power of the set this game does not have
                if side is not None:
                    found.setdefault(side, {}).setdefault(set_id, []).extend(house.advantages_of(power))
        return found

    def house_pending(self) -> list[str]:
        """The sides that have not yet chosen their powers' advantages (the room file records who has)."""
        return [side for side in self.house_choices_open() if side not in self.house_answered]

    def choose_house(self, role: str, form: dict[str, str]) -> str:
        """A side's advantages for its powers (``advantage.SET.POWER`` = id or ``none``; ``value.SET.POWER.NAME`` what it leaves to choose)."""
        with self._acting():
            self._check(role, form.get("seq"))
            if not (self.picks_done and self.session.bid is not None) or self.declaration() is not None:
                raise Forbidden("the house rules come after the picks, the bid and the declarations")
            open_sets = self.house_choices_open().get(role, {})
            if role not in self.house_pending():
                raise Conflict(f"the {role} have no advantages to choose")
            session = self.session
            tables = session.house_rule_choices
            chosen_lines = []
            for set_id, offered in open_sets.items():
                table = tables.setdefault(set_id, {})
                advantages = dict(table.get("advantages", {}))
                for power in dict.fromkeys(a.power for a in offered):
                    wanted = form.get(f"advantage.{set_id}.{power}", "")
                    if wanted == "none":
                        continue
                    advantage = next((a for a in offered if a.power == power and a.id == wanted), None)
                    if advantage is None:
                        raise FormError(f"advantage.{set_id}.{power}: one of {', '.join(a.id for a in offered if a.power == power)}, or none")
                    advantages[power] = advantage.id
                    for name in advantage.choices:
                        value = form.get(f"value.{set_id}.{power}.{name}", "")
                        if not value:
                            raise FormError(f"value.{set_id}.{power}.{name}: {advantage.title} needs its {name}")
                        table[f"{power}.{name}"] = value
                    chosen_lines.append(f"{power}: {advantage.title}")
                if advantages:
                    table["advantages"] = advantages
            pushed = 0
            try:
                # Each set's choices pushed onto the finished draft, checked as apply writes them: refused here, nothing is written.
                for set_id in open_sets:  # the side's answer, "none" too: a step by it
                    session.push(HouseRuleChoice.of(set_id, tables[set_id], by=role))
                    pushed += 1
            except KremlinError as error:
                for _ in range(pushed):
                    session.pop()
                raise self.refusal(error) from None
            session.save()
            self._keep_house_answers()
            self._accepted()
            return "advantages chosen: " + ("; ".join(chosen_lines) or "none")

    def next_pick(self) -> NextPick:
        """The legal choices of the side to pick, worked out once a step: every page of that side shows them, and
        they cost tens of milliseconds on AA50 (each legal pick is checked whole)."""
        if self._next is None or self._next[0] != self.seq:
            self._next = (self.seq, self.session.next_pick())
        return self._next[1]

    def turn(self) -> str | None:
        """The side to act: the picking side, or None once the picks are done (either side enters the bid)."""
        if self.picks_done:
            return None
        return self.session.turn

    def mark_seen(self, role: str, seq: int | None = None) -> None:
        """``role``'s page showed the room at step ``seq`` (now, by default): an undo of what it showed needs their agreement."""
        with self._seen_lock:
            if role in self.seen:
                self.seen[role] = max(self.seen[role], self.seq if seq is None else seq)

    def result(self) -> DraftResult:
        """The finished draft as ``apply`` finishes the draft file: the room's session finished on a copy
        (``Session.result`` is pure), not the file applied again from disk."""

        if self._result is None:
            result = self.session.result()
            # As apply: the game is written with its notes, and checked before a copy of it leaves the room (download or install).
            written_game(result, self.path.with_suffix(".xml"))
            self._result = result
        return self._result

    def game_bytes(self) -> bytes:
        with self.lock:
            self._stop_if_edited()  # the game sent is the room's draft, not a file changed since
            return written_game(self.result(), self.path.with_suffix(".xml"))

    def install(self, side: str, name: str | None = None) -> str:
        """Install the finished game into TripleA's folder on the host's machine, as ``apply --install`` does, under
        ``name`` (default: apply's). The answer goes to a remote player: it names the game, never the host's paths or
        command-line flags; a name already taken is refused with what to do from the room.

        Once per side per draft (issue 40: either player could install into the host's TripleA as often as they
        liked, 30 installs in 19 s): a second is refused, saying the first; the other side's install under the same
        name is told it is there already, not refused as a bare clash. The host installs more with ``apply --install``.
        """
        from kremlin_triplea.gamefile.install import check_install

        with self.lock:
            self._stop_if_edited()  # the game installed is the room's draft, not a file changed since
            if side in self.installed:
                raise Refused(
                    f"the {side} installed this draft's game on the host's TripleA already, as {self.installed[side]!r}: one install per side; "
                    "choose it under that name in Select Game (the host may install more)"
                )
            # A result of its own: installing names the game, which the kept result (the download) must not take.
            result = self.session.result()
            chosen = (name or "").strip() or install_name(result)
            for other, named in self.installed.items():
                if named == chosen:
                    raise Refused(
                        f"the {other} installed this draft's game on the host's TripleA already, as {chosen!r}: choose it under that name in Select Game"
                    )
            maps_dir = default_maps_dir(self.session.maps_dir)
            try:
                # By the host's rules for a name (gamefile/gamenames.py): NFKC, plain, no look-alike of a game TripleA
                # lists for this map or any other; the name checked is the one installed.
                chosen = check_install(result.game.map_folder(maps_dir), chosen, force=False, maps_dir=maps_dir)
            except KremlinError as error:
                if error.where == "--name":  # the name's own fault, said without the command line's words
                    raise Refused(self.for_players(error.message)) from None
                raise Refused(f"TripleA already lists a game named {chosen!r} for this map, or cannot take that name: choose another name") from None
            write_apply_outputs(
                result,
                maps_dir=maps_dir,
                output=None,
                savegame=None,
                install=True,
                install_name=chosen,
                force=False,
                triplea=None,
                inputs=(self.path,),
            )
            self.installed[side] = chosen
            save_room_state(self.path, installed=dict(self.installed))
            self._moved_on()  # the other side's pages say so, and offer no second install of the same name
            return f"installed {chosen!r} on the host's TripleA: choose it under that name in Select Game"

    # -- acting -----------------------------------------------------------------

    def _check(self, role: str, seq_text: str | None) -> None:
        if role == SPECTATOR:
            raise Forbidden("spectators watch; they cannot change the draft")
        try:
            seq = int(seq_text or "")
        except ValueError:
            raise FormError("seq: missing or not a number") from None
        if seq != self.seq:
            raise Conflict("the draft moved on since this page was drawn: nothing was changed (the page now shows the room as it is)")

    def _accepted(self, answer: Answer | None = None) -> None:
        """An action is accepted: the answer it gave (to a bid or an undo) replaces the one shown until now."""
        self.answer = answer
        self._moved_on()

    def _moved_on(self) -> None:
        self.seq += 1
        self._result = None
        for watcher in self.watchers:
            watcher()

    def pick(self, role: str, form: dict[str, str]) -> list[str]:
        with self._acting():
            self._check(role, form.get("seq"))
            side = self.turn()
            if side is None:
                raise Forbidden("the picks are done")
            if role != side:
                raise Forbidden(f"it is the {side}' turn to pick")
            if self.undo_request is not None:
                raise Conflict("an undo is waiting for an answer")
            session = self.session
            try:
                option = session.ruleset.option(option_of(form))
            except KremlinError:  # the page offers the options by number; their ids are the ruleset file's
                numbers = [o.number for o in session.ruleset.options]
                raise FormError(f"option: {form.get('option', '')!r} is none of this ruleset's options ({min(numbers)} to {max(numbers)})") from None
            choices = session.listed_choices(option, side)
            if not choices.available:
                raise Refused(f"option {option.number} ({option.title}) is not available to the {side}: {choices.unavailable}")
            asked = self.pick_form(choices, side)
            try:
                outcome = session.push(session.pick_from_answers(option, pick_answers(form, asked), side, asked))  # checked whole as apply does
            except Unanswered as error:
                raise FormError(str(error)) from None
            except KremlinError as error:
                # A refused pick (a name, a rule) changed neither the board nor the file.
                raise self.refusal(error) from None
            session.save()
            lines = list(outcome.lines) if outcome is not None else []
            self.pick_seq = self.seq + 1
            self._accepted()
            return lines

    def pick_form(self, choices: OptionChoices, side: str) -> Form:
        """What a pick of ``choices``' option asks now, as its kind describes it (the page's fields, read back on submit)."""
        return self.session.pick_form(choices, side)

    def bid(self, role: str, form: dict[str, str], message: str = "") -> None:
        """``role`` proposes the bid of ``form``, saying ``message`` with it (web/bid_talk.py)."""
        with self._acting():
            self._check(role, form.get("seq"))
            if not self.picks_done:
                raise Forbidden("the bid comes after the picks")
            if self.session.bid is not None:
                raise Conflict("the bid is already entered")
            if self.bid_proposal is not None:
                raise Conflict(f"the {self.bid_proposal.side}' bid is waiting for an answer")
            amount, units, allocation, phase = bid_answers(form)
            try:
                # Pushed as this side's proposal, checked as it would apply: refused here, nothing is written. The
                # declarations come after the bid, so a group still open is placed at its first place for this check.
                self.session.push(self.session.bid_from_answers(amount, units, allocation, phase, by=role))
            except KremlinError as error:
                raise self.refusal(error) from None
            self.talk.proposed(role, form, message)
            self._keep_proposal()
            self._accepted()

    def answer_bid(self, role: str, form: dict[str, str], message: str = "") -> str:
        """The other side agrees to the bid (written to the draft file: the draft is complete) or refuses it (entered
        again), saying ``message`` with the answer."""
        with self._acting():
            self._check(role, form.get("seq"))
            proposal = self.bid_proposal
            if proposal is None:
                raise Conflict("no bid is waiting for an answer")
            if proposal.side == role:
                raise Forbidden("the other side answers a bid")
            agreed = form.get("agree") == "yes"
            if agreed:
                self.session.push(Agreement(role))  # the draft file gets the bid
                self._settle()  # the groups that need no answer go where they must, now that the bid is agreed
                self.session.save()
            else:
                self.session.pop()  # the proposal
            self.talk.answered(role, proposal.side, agreed, message)
            self._keep_proposal()
            self._accepted(Answer(proposal.side, role, "bid", agreed))
            if not agreed:
                return "the bid was refused: enter another"
            if self.complete:
                return "the bid is agreed: the draft is complete"
            return "the bid is agreed: the declarations come next"

    def ask_undo(self, role: str, form: dict[str, str]) -> str:
        """Take back the last action: at once if the other side has not seen it, else once they agree."""
        with self._acting():
            self._check(role, form.get("seq"))
            if not self.session.picks:
                raise Conflict("nothing to undo")
            if self.session.bid is not None:
                last_side = None  # the bid concerns both: the other always agrees
            else:
                last_side = self.session.picks[-1].side
                if last_side != role:
                    raise Forbidden(f"only the {last_side} may ask to take back their pick")
            other = next(s for s in self.sides if s != role)
            if last_side == role and self.seen[other] < self.pick_seq:
                self._undo()
                return "undone: the other side had not seen it"
            self.undo_request = Undo(role, len(self.session.picks))
            self._accepted()
            return f"asked the {other} to agree"

    def answer_undo(self, role: str, form: dict[str, str]) -> str:
        with self._acting():
            self._check(role, form.get("seq"))
            request = self.undo_request
            if request is None:
                raise Conflict("no undo is waiting")
            if request.side == role:
                raise Forbidden("the other side answers an undo")
            agree = form.get("agree") == "yes"
            self.undo_request = None
            answer = Answer(request.side, role, "undo", agree, self.last_action())
            if agree:
                self._undo(answer)
                return "undone"
            self._accepted(answer)
            return "the undo was refused"

    def last_action(self) -> str:
        """The action an undo takes back, named: the agreed bid, or the last pick with what it did."""
        if self.session.bid is not None:
            return "the agreed bid"
        if not self.session.picks:
            return "nothing"
        return describe_pick(self.pick_values[-1])[0]

    def _undo(self, answer: Answer | None = None) -> None:
        if self.session.proposal is not None:  # entered on the board being undone
            self.session.pop()
            self._keep_proposal()
        if self.session.bid is not None:
            self.session.withdraw_bid()  # the declarations made since stay
        else:
            self.session.undo()  # pops the last pick, and the house-rule answers given after it
        self.session.save()
        self._keep_house_answers()
        self.pick_seq = -1
        self._accepted(answer)


def new_draft(path: Path, data: dict[str, Any], maps_dir: Path | None = None) -> None:
    """Write a new draft file that ``serve`` then opens, from a session of its header (and any picks it has): the
    game, the sides, the number of picks and every pick are checked as ``apply`` checks them before anything is written."""
    checked_draft(path, data, maps_dir).save(overwrite=False)


def checked_draft(path: Path, data: dict[str, Any], maps_dir: Path | None = None) -> Session:
    """The session of a new draft file, checked (``new_draft``) and not yet written."""
    session = Session.from_draft(draft_from_dict(data, str(path)), maps_dir=maps_dir, file_header=DRAFT_HEADER)
    # The house-rule sets are refused now, not after the draft, by the check the terminal and apply make: the conflicts
    # with the ruleset's own rules (004's straits and 000 D(3)), each engine object written once, the board's invariants.
    problem = session.house_problem({})
    if problem is not None:
        raise problem
    return session

"""The session's draft file: opened by pushing its steps in order, and written from them (the header as written,
then a ``[[pick]]`` per pick, the ``[bid]`` and the house-rule choices). A part of
:class:`~kremlin_triplea.session.core.Session`."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

from kremlin_triplea.draft.declare import write_declaration
from kremlin_triplea.draft.kinds import Pick
from kremlin_triplea.draft.run import Draft, DraftRun, located, open_game, players_from_picks, read_draft
from kremlin_triplea.game import Game
from kremlin_triplea.gamefile.safe import write_atomically
from kremlin_triplea.rules.house_rules import read_choices
from kremlin_triplea.rules.profile import Profile
from kremlin_triplea.rules.ruleset import Ruleset
from kremlin_triplea.session.steps import Declaration, Done, HouseRuleChoice

#: The session class itself (Session, of which this is a part), as the classmethods below build it.
_Session = TypeVar("_Session", bound="DraftFile")


class DraftFile:
    # The session's state these methods share (set by Session.__init__).
    run: DraftRun
    done: list[Done]
    path: Path
    header: dict[str, Any]
    file_header: str
    undone: list[tuple[int, dict[str, Any]]]
    undone_bid: int | None

    # -- opening a draft file: its steps pushed in order -------------------------------

    @classmethod
    def open(
        cls: type[_Session],
        path: Path | str,
        *,
        game: Game | None = None,
        game_spec: str | None = None,
        maps_dir: Path | str | None = None,
        players: dict[str, str] | None = None,
        profile: Profile | None = None,
        set_bid_aside: bool = False,
    ) -> _Session:
        """The draft file at ``path`` opened by pushing its steps (:meth:`from_draft`)."""
        draft = read_draft(path)
        return cls.from_draft(draft, game, game_spec=game_spec, maps_dir=maps_dir, players=players, profile=profile, set_bid_aside=set_bid_aside)

    @classmethod
    def from_draft(
        cls: type[_Session],
        draft: Draft,
        game: Game | None = None,
        *,
        game_spec: str | None = None,
        maps_dir: Path | str | None = None,
        ruleset: Ruleset | None = None,
        profile: Profile | None = None,
        players: dict[str, str] | None = None,
        set_bid_aside: bool = False,
        file_header: str = "",
    ) -> _Session:
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
        session.file_header = file_header  # the comment the file is written with (who writes it)
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

"""The session's draft file, written from its steps: the header as written, then a ``[[pick]]`` per pick, the
``[bid]`` and the house-rule choices. A part of :class:`~kremlin_triplea.session.core.Session`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kremlin_triplea.draft.declare import write_declaration
from kremlin_triplea.draft.kinds import Pick
from kremlin_triplea.draft.run import (
    DraftRun,
)
from kremlin_triplea.gamefile.safe import write_atomically
from kremlin_triplea.session.steps import Declaration, Done


class DraftFile:
    # The session's state these methods share (set by Session.__init__).
    run: DraftRun
    done: list[Done]
    path: Path
    header: dict[str, Any]
    file_header: str
    undone: list[tuple[int, dict[str, Any]]]
    undone_bid: int | None

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

"""The session's house-rule sets: each set's table taken as a step, checked as ``apply`` writes it, after the
ruleset's own rules and through the board's invariants (issue 41). A part of :class:`~kremlin_triplea.session.core.Session`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from kremlin_triplea.draft.declare import label
from kremlin_triplea.draft.kinds import Outcome
from kremlin_triplea.draft.run import Draft, DraftRun, draft_from_dict
from kremlin_triplea.game import Game
from kremlin_triplea.gamerules.actions import AppliedRules
from kremlin_triplea.gamerules.gate import Earlier, check_rules, written_once
from kremlin_triplea.gamerules.house import HouseSelection, house_rule_changes
from kremlin_triplea.rules.house_rules import read_choices
from kremlin_triplea.session.steps import Done, HouseRuleChoice


class HouseChoosing:
    # The session's state these methods share (set by Session.__init__).
    run: DraftRun
    done: list[Done]
    path: Path
    game: Game
    header: dict[str, Any]
    _bid_outcome: Outcome | None

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
        applied, _ = self.rules_to_write(draft)
        check_rules(self.game.board, applied, run.names, self._earlier())  # as apply writes it: on this board, through the same gate
        run.draft = attrs.evolve(before, house_rules=draft.house_rules, house_rule_choices=draft.house_rule_choices)
        self.done.append(Done(step, draft_before=before))
        return None

    def rules_to_write(self, draft: Draft | None = None) -> tuple[AppliedRules, tuple[HouseSelection, ...]]:
        """The rules written after the draft's steps, planned on this board as ``apply`` writes them and not pushed:
        the ruleset's game rules, then the house sets' (``draft``'s sets and tables; default the session's), each
        engine object written once; and each set's advantages and switches as chosen or drawn."""
        draft = draft if draft is not None else self.run.draft
        run = self.run
        chosen = [read_choices(name, draft.house_rule_choices.get(name)) for name in draft.house_rules]
        rules, selections = house_rule_changes(self.game.board, run.profile, run.names, chosen, before=(run.ruleset.rule_set,), flags=draft.choices)
        return written_once(rules, self.game.xml), tuple(selections)

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

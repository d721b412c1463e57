"""A draft file applied as ``apply`` applies it: a session opened by pushing the file's steps, then finished.

A draft of house rules only has no picks, so no session: its sets are written into the game alone
(:func:`~kremlin_triplea.gamerules.house.apply_house_rules`), and the result says so by its type.
"""

from __future__ import annotations

from pathlib import Path

from kremlin_triplea.draft.run import Draft, DraftResult, open_game
from kremlin_triplea.game import Game
from kremlin_triplea.gamerules.house import HouseResult, apply_house_rules
from kremlin_triplea.rules.house_rules import read_choices
from kremlin_triplea.rules.profile import Profile
from kremlin_triplea.rules.ruleset import Ruleset
from kremlin_triplea.session.core import Session


def apply_draft(
    draft: Draft,
    game: Game | None = None,
    *,
    game_spec: str | None = None,
    maps_dir: Path | str | None = None,
    ruleset: Ruleset | None = None,
    profile: Profile | None = None,
) -> DraftResult | HouseResult:
    """Check the whole draft and apply it to ``game``'s board (loaded from the draft if not given).

    A Kremlin draft gives a :class:`DraftResult` (:meth:`Session.result`), a draft of house rules only a
    :class:`HouseResult`. Raises ``RuleViolation`` at the first step that breaks a rule, at its line. The game's
    notes and name are the writer's (:func:`kremlin_triplea.tools.outputs.write_apply_outputs` adds them).
    """
    if draft.ruleset is None:
        game = game or open_game(draft, game_spec, maps_dir)
        return apply_house_rules(game, [read_choices(name, draft.house_rule_choices.get(name)) for name in draft.house_rules], draft.choices)
    session = Session.from_draft(draft, game, game_spec=game_spec, maps_dir=maps_dir, ruleset=ruleset, profile=profile)
    return session._finish()  # the session is this call's own: finished in place, not on a copy (result() would replay it)

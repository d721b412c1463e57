"""Kremlin rules as data: rulesets, map profiles, scenarios and house-rule sets, read into frozen values.

``rulesets/*.toml`` say what the rule text says; ``maps/*.toml`` translate its
names for one TripleA map. Nothing here changes a board: the draft
(:mod:`kremlin_triplea.draft`) and the game rules (:mod:`kremlin_triplea.gamerules`)
apply these values.
"""

from __future__ import annotations

from kremlin_triplea.rules.profile import Profile, load_profile
from kremlin_triplea.rules.ruleset import Ruleset, read_ruleset

# Rulesets are read through kremlin_triplea.draft.load_ruleset, which knows the option kinds.
__all__ = ["Profile", "Ruleset", "load_profile", "read_ruleset"]

"""Kremlin rules as data: rulesets, map profiles, scenarios and house-rule sets, read into frozen values.

``rulesets/*.toml`` say what the rule text says; ``maps/*.toml`` translate its
names for one TripleA map. Nothing here changes a board: the draft
(:mod:`kremlin_triplea.draft`) and the game rules (:mod:`kremlin_triplea.gamerules`)
apply these values.
"""

from __future__ import annotations

from kremlin_triplea.rules.profile import Profile, load_profile
from kremlin_triplea.rules.ruleset import Ruleset, load_named_ruleset, load_ruleset

__all__ = ["Profile", "Ruleset", "load_named_ruleset", "load_profile", "load_ruleset"]

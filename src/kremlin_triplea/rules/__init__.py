"""Kremlin rules as data: rulesets, map profiles, drafts, and legal-choice enumeration.

``rulesets/*.toml`` say what the rule text says; ``maps/*.toml`` translate its
names for one TripleA map; :mod:`kinds` implements each kind of option once;
:mod:`draft` applies a host's draft pick by pick; :mod:`legal` lists every
legal choice for the next pick with the same checks.
"""

from __future__ import annotations

from kremlin_triplea.rules.draft import Draft, DraftResult, DraftRun, apply_draft, read_draft
from kremlin_triplea.rules.legal import NextPick, legal_choices, next_choices
from kremlin_triplea.rules.profile import Profile, load_profile
from kremlin_triplea.rules.ruleset import Ruleset, load_named_ruleset, load_ruleset

__all__ = ["Draft", "DraftResult", "DraftRun", "NextPick", "Profile", "legal_choices", "next_choices", "Ruleset", "apply_draft", "load_named_ruleset", "load_profile", "load_ruleset", "read_draft"]

"""Each kind of option, implemented once and driven by the ruleset's parameters.

A kind checks one pick against the board as the earlier picks left it and
returns the primitive changes it makes (``Outcome``), or raises
``RuleViolation`` naming the pick, quoting the rule and saying why. The same
checks drive the legal-choice enumeration in :mod:`kremlin_triplea.draft.legal`,
so a choice listed as legal never fails when applied.

``KINDS`` is the registry: a ruleset's option kind -> the :class:`~base.OptionKind`
that parses, enumerates, asks (its form), applies picks of it and places the units
they displace (each module registers its class). Every module of this package is
imported here, so a new kind's module is found without a line anywhere else.

What is re-exported below is the public API: the registry, the base class and
the values its hooks take and return. A kind's own parameters, targets and checks
are imported from its module (``kremlin_triplea.draft.kinds.placement``...), and
the bid's from ``kremlin_triplea.draft.kinds.bid``.
"""

from __future__ import annotations

import importlib
import pkgutil

from kremlin_triplea.draft.kinds.base import KINDS, DisplacedWords, OptionKind, Variant, displacing_kind, params_by_kind, register, unregister
from kremlin_triplea.draft.picks import Pick, PickTarget
from kremlin_triplea.draft.state import Displaced, DraftState, Facts, Outcome, Problem

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")

__all__ = [
    "KINDS",
    "Displaced",
    "DisplacedWords",
    "DraftState",
    "Facts",
    "OptionKind",
    "Outcome",
    "Pick",
    "Variant",
    "PickTarget",
    "Problem",
    "displacing_kind",
    "params_by_kind",
    "register",
    "unregister",
]

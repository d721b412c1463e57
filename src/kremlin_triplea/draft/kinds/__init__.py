"""Each kind of option, implemented once and driven by the ruleset's parameters.

A kind checks one pick against the board as the earlier picks left it and
returns the primitive changes it makes (``Outcome``), or raises
``RuleViolation`` naming the pick, quoting the rule and saying why. The same
checks (``placement_problem``, ``neutral_problem``, ``takeover_problem``...)
drive the legal-choice enumeration in :mod:`kremlin_triplea.draft.legal`, so a
choice listed as legal never fails when applied.

``KINDS`` is the registry: a ruleset's option kind -> the :class:`~base.OptionKind`
that parses, enumerates and applies picks of it (each module registers its class).
Every module of this package is imported here, so a new kind's module is found
without a line anywhere else (the names below are what other modules use).
"""

from __future__ import annotations

import importlib
import pkgutil

from kremlin_triplea.draft.kinds.base import KINDS, DisplacedWords, OptionKind, params_by_kind, register, unregister
from kremlin_triplea.draft.kinds.bid import achievable_values, apply_bid, bid_cost, bid_placement_problem, bid_receivers, removable_units, removal_target
from kremlin_triplea.draft.kinds.neutral import (
    NeutralTake,
    NeutralTakeoverParams,
    NeutralTakes,
    apply_neutral_takeover,
    navy_destinations,
    navy_problem,
    neutral_navy,
    neutral_problem,
    neutral_set_problem,
)
from kremlin_triplea.draft.kinds.placement import PlacementParams, Placements, apply_placement, placement_problem, unit_sets
from kremlin_triplea.draft.kinds.scenario import ScenarioParams, ScenarioTarget, apply_scenario
from kremlin_triplea.draft.kinds.takeover import (
    Retreat,
    TakeoverSpec,
    TerritoryTakeoverParams,
    apply_territory_takeover,
    new_owner_after_takeover,
    retreat_destinations,
    retreating_groups,
    takeover_problem,
)
from kremlin_triplea.draft.picks import BidSpec, Pick, PickTarget, UnitPlacement
from kremlin_triplea.draft.state import Displaced, DraftState, Facts, Outcome, Problem

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")

__all__ = [
    "KINDS",
    "DisplacedWords",
    "NeutralTakeoverParams",
    "NeutralTakes",
    "PickTarget",
    "PlacementParams",
    "Placements",
    "ScenarioParams",
    "ScenarioTarget",
    "TerritoryTakeoverParams",
    "params_by_kind",
    "unregister",
    "BidSpec",
    "OptionKind",
    "register",
    "Displaced",
    "DraftState",
    "Facts",
    "NeutralTake",
    "Outcome",
    "Pick",
    "Problem",
    "Retreat",
    "TakeoverSpec",
    "UnitPlacement",
    "achievable_values",
    "apply_bid",
    "apply_neutral_takeover",
    "apply_placement",
    "apply_scenario",
    "apply_territory_takeover",
    "bid_cost",
    "bid_placement_problem",
    "bid_receivers",
    "navy_destinations",
    "navy_problem",
    "neutral_navy",
    "neutral_problem",
    "neutral_set_problem",
    "new_owner_after_takeover",
    "placement_problem",
    "removal_target",
    "removable_units",
    "retreat_destinations",
    "retreating_groups",
    "takeover_problem",
    "unit_sets",
]

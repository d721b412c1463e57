"""Which attachment options TripleA 2.7 reads as Java ints, by attachment class.

Each is an option whose setter is ``x = getInt(value)`` (or whose property is
mapped with ``DefaultAttachment::getInt``) in 2.7.15472's
``games.strategy.triplea.attachments`` classes: ``Integer.parseInt`` refuses
anything else ("Attachments: two is not a valid int value") and the engine
refuses the game. Options that parse more than one number, or parse later, are
not listed. An attachment class has its own options and its parents'
(``PARENTS``).
"""

from __future__ import annotations

import functools

INT_OPTIONS: dict[str, frozenset[str]] = {
    "AbstractConditionsAttachment": frozenset(
        {
            "chanceDecrementOnSuccess",
            "chanceIncrementOnFailure",
        }
    ),
    "AbstractPlayerRulesAttachment": frozenset(
        {
            "maxPlacePerTerritory",
            "placementPerTerritory",
        }
    ),
    "AbstractRulesAttachment": frozenset(
        {
            "objectiveValue",
            "uses",
        }
    ),
    "AbstractTriggerAttachment": frozenset(
        {
            "uses",
        }
    ),
    "AbstractUserActionAttachment": frozenset(
        {
            "attemptsPerTurn",
        }
    ),
    "PlayerAttachment": frozenset(
        {
            "captureVps",
            "retainCapitalNumber",
            "retainCapitalProduceNumber",
            "vps",
        }
    ),
    "TechAttachment": frozenset(
        {
            "techCost",
        }
    ),
    "TerritoryAttachment": frozenset(
        {
            "production",
            "productionOnly",
            "unitProduction",
            "victoryCity",
        }
    ),
    "TriggerAttachment": frozenset(
        {
            "resourceCount",
        }
    ),
    "UnitAttachment": frozenset(
        {
            "airAttack",
            "airDefense",
            "attack",
            "attackAA",
            "attackAAmaxDieSides",
            "attackRolls",
            "blockade",
            "bombard",
            "bombingBonus",
            "bombingMaxDieSides",
            "canOnlyBePlacedInTerritoryValuedAtX",
            "canProduceXUnits",
            "carrierCapacity",
            "carrierCost",
            "constructionsPerTerrPerTypePerTurn",
            "defense",
            "defenseRolls",
            "hitPoints",
            "maxBuiltPerPlayer",
            "maxConstructionsPerTypePerTerr",
            "maxDamage",
            "maxInterceptCount",
            "maxOperationalDamage",
            "maxScrambleCount",
            "maxScrambleDistance",
            "movement",
            "offensiveAttackAA",
            "offensiveAttackAAmaxDieSides",
            "transportCapacity",
            "transportCost",
            "unitSupportCount",
            "whenCapturedSustainsDamage",
        }
    ),
}

#: Each attachment class's parent class, where the parent has options of its own above.
PARENTS = {
    "RulesAttachment": "AbstractPlayerRulesAttachment",
    "AbstractPlayerRulesAttachment": "AbstractRulesAttachment",
    "AbstractRulesAttachment": "AbstractConditionsAttachment",
    "TriggerAttachment": "AbstractTriggerAttachment",
    "AbstractTriggerAttachment": "AbstractConditionsAttachment",
    "UserActionAttachment": "AbstractUserActionAttachment",
    "PoliticalActionAttachment": "AbstractUserActionAttachment",
    "AbstractUserActionAttachment": "AbstractConditionsAttachment",
}


@functools.cache  # asked once per option element of a game; the tables never change
def int_options(java_class: str) -> frozenset[str]:
    """The options an attachment of ``java_class`` (its simple name) reads as Java ints."""
    return inherited(java_class, INT_OPTIONS, PARENTS)


def inherited(java_class: str, own: dict[str, frozenset[str]], parents: dict[str, str]) -> frozenset[str]:
    """What ``java_class`` has of a per-class table, with what its superclasses have (``parents``: class -> superclass)."""
    found: frozenset[str] = frozenset()
    while java_class:
        found |= own.get(java_class, frozenset())
        java_class = parents.get(java_class, "")
    return found

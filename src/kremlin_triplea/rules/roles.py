"""Unit types matched by their TripleA role, for maps whose unit names differ from the rule text's.

Rule texts say "infantry", "tank", "sub", "industrial complex"; a map may call
them ``Fusiliers``, ``Hussars``, ``Corvette``, ``Encampment``. What a unit *is*
shows in its ``unitAttachment`` options (``isSub``, ``canBlitz``,
``isStrategicBomber``, ``carrierCapacity``...), so each role below is a test on
those options plus a preference among the units that pass it. A map profile's
``[units]`` table always wins over a role match; ``profile new`` writes the role
matches into a new profile for a person to review.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from kremlin_triplea.game import Game
from kremlin_triplea.model.board import Board

#: Rule-text words for unit types, and the role each names.
ROLE_OF_WORD = {
    "infantry": "infantry",
    "artillery": "artillery",
    "tank": "armour",
    "tanks": "armour",
    "armor": "armour",
    "armour": "armour",
    "fighter": "fighter",
    "bomber": "bomber",
    "transport": "transport",
    "submarine": "submarine",
    "sub": "submarine",
    "destroyer": "destroyer",
    "cruiser": "cruiser",
    "carrier": "carrier",
    "aircraft carrier": "carrier",
    "battleship": "battleship",
    "factory": "factory",
    "industrial complex": "factory",
    "aa gun": "aa",
    "aagun": "aa",
    "aa": "aa",
}


@attrs.frozen
class UnitFacts:
    """A unit type's unitAttachment options, as the roles ask about them."""

    name: str
    options: dict[str, str] = attrs.field(eq=False)
    cost: int | None
    bought: bool = False  # a player's production frontier sells it

    def flag(self, option: str) -> bool:
        return self.options.get(option, "").lower() == "true"

    def number(self, option: str) -> int:
        try:
            return int(self.options.get(option, "0"))
        except ValueError:
            return 0

    @property
    def sea(self) -> bool:
        return self.flag("isSea")

    @property
    def air(self) -> bool:
        return self.flag("isAir")

    @property
    def land(self) -> bool:
        return not self.sea and not self.air

    @property
    def two_hit(self) -> bool:
        return self.flag("isTwoHit") or self.number("hitPoints") >= 2

    @property
    def factory(self) -> bool:
        return self.flag("isFactory") or self.flag("canProduceUnits")

    @property
    def aa(self) -> bool:
        return any(self.flag(f) for f in ("isAA", "isAAforCombatOnly", "isAAforBombingThisUnitOnly", "isAAforFlyOverOnly", "isRocket"))

    @property
    def infrastructure(self) -> bool:
        """A factory, a structure, or an AA gun: a unit that fires only as AA (attack 0). 1941 Global Command
        Decision's tanks and trained infantry also fire flak (isAAforCombatOnly): they are combat units, not AA guns."""
        return self.factory or self.flag("isInfrastructure") or (self.aa and self.number("attack") == 0)

    @property
    def moves(self) -> bool:
        """It moves (movement > 0): a trench, a fortification or a placeholder that never moves plays no unit's role."""
        return self.number("movement") > 0

    @property
    def fights(self) -> bool:
        """It attacks or defends (attack or defense > 0)."""
        return self.number("attack") > 0 or self.number("defense") > 0

    @property
    def sort_cost(self) -> int:
        return self.cost if self.cost is not None else 10**6


@attrs.frozen
class Role:
    name: str
    test: Callable[[UnitFacts], bool]
    described: str  # the test in words, for reasons and for "the map has no ..."
    prefer: Callable[[UnitFacts], tuple] = lambda u: (u.sort_cost,)
    preference: str = "the cheapest"


ROLES = {
    role.name: role
    for role in (
        Role(
            "infantry",
            lambda u: (
                u.land and u.moves and u.fights and not u.infrastructure and not u.flag("isConstruction") and not u.flag("canBlitz") and not u.flag("artillery")
            ),
            "a land unit that moves and fights, is not artillery, cannot blitz and is not infrastructure",
            lambda u: (not u.flag("isInfantry"), u.sort_cost),
            "isInfantry first, then the cheapest",
        ),
        Role(
            "artillery",
            lambda u: u.land and u.moves and u.flag("artillery") and not u.infrastructure,
            "a land unit that moves, with artillery=true",
            lambda u: (u.flag("canBlitz"), u.sort_cost),
            "one that cannot blitz, then the cheapest",
        ),
        Role(
            "armour",
            # The rule text's tank blitzes two territories and attacks at 3: a blitzer that moves one, or attacks at 1
            # (a cavalry, a commando, a tank hunter), is not one.
            lambda u: u.land and u.flag("canBlitz") and u.number("movement") >= 2 and u.number("attack") >= 2 and not u.infrastructure,
            "a land unit with canBlitz=true that moves 2 or more and attacks at 2 or more",
            # Nearest the rule text's tank (000's AA50 armour: moves 2, attacks 3), not the strongest: a map's unique
            # generals also blitz, and attack harder.
            lambda u: (u.flag("artillery"), abs(u.number("movement") - 2) + abs(u.number("attack") - 3), u.sort_cost),
            "one that is not artillery, then the nearest to moving 2 and attacking 3, then the cheapest",
        ),
        Role(
            "fighter",
            lambda u: u.air and u.moves and u.fights and not u.flag("isStrategicBomber") and not u.flag("isSuicide") and not u.flag("isKamikaze"),
            "an air unit that flies and fights, is not a strategic bomber and is not spent attacking (isSuicide, isKamikaze)",
            lambda u: (u.number("carrierCost") == 0, u.sort_cost),
            "one that lands on carriers, then the cheapest",
        ),
        # A rocket is a strategic bomber that cannot fly (movement 0) or dies bombing (isSuicide): not a bomber.
        # A tactical bomber also bombs, but it scrambles or lands on carriers (World War II Global's, Total World War's).
        Role(
            "bomber",
            lambda u: u.air and u.flag("isStrategicBomber") and u.number("movement") > 0 and not u.flag("isSuicide") and not u.flag("isKamikaze"),
            "an air unit with isStrategicBomber=true that flies (movement) and is not spent bombing (isSuicide)",
            lambda u: (u.number("carrierCost") > 0 or u.flag("canScramble"), u.sort_cost),
            "one that neither lands on carriers nor scrambles, then the cheapest",
        ),
        Role(
            "transport",
            # A warship that also carries troops (a destroyer that bombards) is not the rule text's transport: a pick of
            # transports would hand out warships. No such unit: the role is unmatched, never filled by the nearest.
            lambda u: (
                u.sea
                and u.moves
                and u.number("transportCapacity") > 0
                and u.number("carrierCapacity") == 0
                and not u.flag("isSub")
                and not u.flag("canBombard")
            ),
            "a sea unit that moves, with transportCapacity, no carrier capacity, and that does not bombard",
            lambda u: (u.flag("isCombatTransport") or u.flag("canBombard"), u.sort_cost),
            "a pure transport, then the cheapest",
        ),
        Role("submarine", lambda u: u.sea and u.moves and (u.flag("isSub") or u.flag("isSubmarine")), "a sea unit that moves, with isSub=true"),
        Role("destroyer", lambda u: u.sea and u.moves and u.flag("isDestroyer"), "a sea unit that moves, with isDestroyer=true"),
        Role(
            "cruiser",
            lambda u: u.sea and u.moves and u.flag("canBombard") and not u.two_hit and not u.flag("isDestroyer") and u.number("carrierCapacity") == 0,
            "a one-hit sea unit that moves and can bombard, is not a destroyer or carrier, and is not the battleship",
        ),
        Role("carrier", lambda u: u.sea and u.moves and u.number("carrierCapacity") > 0, "a sea unit that moves, with carrierCapacity"),
        # Classic maps' battleship takes one hit: then it is the dearest ship that bombards.
        Role(
            "battleship",
            lambda u: u.sea and u.moves and (u.two_hit or u.flag("canBombard")) and u.number("carrierCapacity") == 0,
            "a two-hit sea unit, or a sea unit that can bombard, that moves and is not a carrier",
            lambda u: (not u.two_hit, -u.sort_cost if u.cost is not None else 0),
            "two-hit first, then the most expensive",
        ),
        # Total World War's Flagpole produces, but no one can buy or build one: placing it is not building a factory.
        Role(
            "factory",
            lambda u: u.factory and (u.cost is not None or (u.flag("isConstruction") and u.number("constructionsPerTerrPerTypePerTurn") > 0)),
            "a unit with isFactory or canProduceUnits that a player can buy or build",
            lambda u: (u.number("movement") > 0, "transportCost" in u.options, u.sort_cost),
            "an immobile one, then the cheapest",
        ),
        # A structure that fires only at the bombers attacking it (a factory's, an airfield's isAAforBombingThisUnitOnly)
        # is not an AA gun: one fires in combat or at aircraft flying over. The rule text's AA gun is a land unit a
        # player buys or moves: a placeholder nobody buys and nothing moves (a damaged factory's) is not one.
        Role(
            "aa",
            lambda u: (
                u.land and not u.factory and (u.moves or u.bought) and any(u.flag(f) for f in ("isAA", "isAAforCombatOnly", "isAAforFlyOverOnly", "isRocket"))
            ),
            "a land unit that is not a factory, that moves or is bought, with isAA, isAAforCombatOnly, isAAforFlyOverOnly or isRocket",
        ),
    )
}


@attrs.frozen
class RoleMatch:
    role: str
    unit: str | None  # None: no unit of the map plays the role
    candidates: tuple[str, ...]
    reason: str


def unit_facts(game: Game) -> list[UnitFacts]:
    options = game.xml.unit_options()  # named as TripleA reads them: a map's "TransportCapacity" is transportCapacity
    catalog = game.catalog
    bought = {unit for _, unit in catalog.costs}
    return [UnitFacts(name, options.get(name, {}), catalog.unit_types[name].cost, name in bought) for name in catalog.unit_types]


def match_role(role_name: str, units: list[UnitFacts], among: frozenset[str] | None = None, whose: str = "") -> RoleMatch:
    """The unit of ``units`` playing the role; ``among``: only those (one power's), ``whose`` naming them."""
    role = ROLES[role_name]
    pool = [u for u in units if among is None or u.name in among]
    candidates = sorted((u for u in pool if role.test(u)), key=lambda u: (*role.prefer(u), u.name))
    if role_name == "cruiser":
        battleship = match_role("battleship", units, among).unit
        candidates = [u for u in candidates if u.name != battleship]
    if role_name == "aa":
        candidates = [u for u in candidates if _fires_at_aircraft(u, units)]
    if not candidates:
        return RoleMatch(role_name, None, (), f"no unit type{whose} is {role.described}")
    chosen = candidates[0]
    others = f" ({role.preference} of {', '.join(u.name for u in candidates)})" if len(candidates) > 1 else ""
    return RoleMatch(role_name, chosen.name, tuple(u.name for u in candidates), f"{chosen.name} is {role.described}{others}")


def role_of(word: str) -> str | None:
    """The role a rule-text unit word names ("armor": armour), None for a word no role stands for."""
    return ROLE_OF_WORD.get(word.strip().lower())


def _fires_at_aircraft(unit: UnitFacts, units: list[UnitFacts]) -> bool:
    """An AA gun fires at aircraft: Total World War's AntiTankGun fires "AA" shots at tanks (targetsAA)."""
    return "targetsAA" not in unit.options or bool(set(unit.options["targetsAA"].split(":")) & {u.name for u in units if u.air})


def plays_role(role_name: str, unit: str, units: list[UnitFacts]) -> bool:
    """Whether ``unit`` passes the role's test (a factory produces, a bomber bombs strategically...).

    Not which unit a map's role match prefers: a profile may choose any unit that plays the role.
    """
    facts = next((u for u in units if u.name == unit), None)
    if facts is None or not ROLES[role_name].test(facts):
        return False
    return role_name != "aa" or _fires_at_aircraft(facts, units)


def units_of_power(board: Board, power: str) -> frozenset[str]:
    """The unit types ``power`` can have: those its production frontier sells, and those it holds in the set-up.

    Empty for a power with neither (a map's neutral player): nothing says which units are its own.
    """
    bought = {unit for player, unit in board.catalog.costs if player == power}
    held = {unit for territory in board.nodes for owner, unit in board.units(territory) if owner == power}
    return frozenset(bought | held)


def match_unit_word(word: str, game: Game, units: list[UnitFacts] | None = None) -> RoleMatch | None:
    """The game's unit for a rule-text unit word, by role (None if the word names no known role)."""
    role = ROLE_OF_WORD.get(word.strip().lower())
    if role is None:
        return None
    return match_role(role, units if units is not None else unit_facts(game))

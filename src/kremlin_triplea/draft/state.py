"""The state a draft is applied to: the board as the picks so far left it, who locked which place, and facts about the position.

A kind of option checks a pick against this state and returns an ``Outcome``
(its changes and the places it affected), or a ``Problem`` (the rule's words,
its source and why).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable
from typing import Any, TypeVar

import attrs

from kremlin_triplea.errors import KremlinError, RuleViolation, UnknownNameError
from kremlin_triplea.model.board import Board
from kremlin_triplea.model.changes import Change, PlaceUnits
from kremlin_triplea.model.queries import owned_sea_zones
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.profile import Profile
from kremlin_triplea.rules.ruleset import Option, PowerRestriction, Ruleset

T = TypeVar("T")


@attrs.frozen
class Displaced:
    """Units a pick took off the board whose place is declared after the bid (000 A, "Order of action" 1).

    "Declare where to place or retreat troops affected by options in the order they were chosen": an enemy
    territory's defenders (option 10, ``kind = "retreat"``; their side declares) and a neutral's ships (option 3,
    ``kind = "navy"``; the taker's side declares). Until then they are on no territory: later picks neither see
    nor touch them, and where they go is judged on the board as it stands once the picks and the bid are made.
    """

    pick: int  # the pick that displaced them (declarations follow the picks' order)
    label: str  # that pick's label, for messages
    kind: str  # the name its kind displaces units as (``OptionKind.displaces``: "retreat", "navy", a new kind's own)
    origin: str  # the territory they left
    owner: str
    unit: str
    count: int
    side: str  # the side that declares where they go
    rule: str  # the rule's words for where they may go, and its source
    source: str
    # More units of ``owner`` that go wherever these go: a neutral's navy is one group ("place it in the nearest
    # friendly sea zone", 000 option 3), as the draft file's one ``navy_at`` per neutral says.
    with_units: tuple[tuple[str, int], ...] = ()

    def units(self) -> tuple[tuple[str, int], ...]:
        """(unit, count) of every unit in the group."""
        return ((self.unit, self.count), *self.with_units)

    def describe(self) -> str:
        return f"{', '.join(f'{n} {self.owner} {u}' for u, n in self.units())} from {self.origin}"


@attrs.frozen
class Outcome:
    """What one pick (or the bid) did."""

    changes: tuple[Change, ...]
    affected: frozenset[str]  # territories and sea zones it locks against the other side
    lines: tuple[str, ...]  # what happened, for people
    # Placements among ``changes`` that move units already on the board (retreats),
    # so they are not units "selected with a bonus option" (negative bids keep those).
    moved: tuple[Change, ...] = ()
    # Units taken off the board whose destination is declared after the bid (option 10's defenders, option 3's ships).
    displaced: tuple[Displaced, ...] = ()


@attrs.frozen
class Problem:
    """Why a choice breaks a rule: the rule's words, where they stand, and the reason."""

    rule: str
    source: str
    why: str

    def violation(self, label: str) -> RuleViolation:
        return RuleViolation(label, self.why, rule=self.rule, source=self.source)


# -- the state a draft is applied to ----------------------------------------


class DraftState:
    """The board as changed by the picks so far, plus who locked which place."""

    def __init__(self, board: Board, ruleset: Ruleset, profile: Profile, names: Names) -> None:
        self.board = board
        self.ruleset = ruleset
        self.profile = profile
        self.names = names
        catalog = board.catalog
        # A side's powers: the alliance of its name, or those the profile's [sides] gives it (issue 28).
        self.side_powers = {side: tuple(profile.side_members(side, catalog)) for side in ruleset.sides}
        self.side_of = {power: side for side, powers in self.side_powers.items() for power in powers}
        self.locks: dict[str, tuple[str, int]] = {}  # place -> (side, pick index) that first affected it
        self.option_units = Counter[tuple[str, str | None, str]]()  # (place, owner, unit) -> units the options put there
        self.used: dict[str, list[int]] = {side: [] for side in ruleset.sides}
        self.displaced: list[Displaced] = []  # off the board until declared after the bid, in the picks' order
        self._unmatched = {key.lower() for key in profile.unmatched}
        self._standing_for: dict[tuple[str, str], frozenset[str]] = {}
        # A restriction binds the player its power names; one whose power the profile leaves [unmatched] binds every
        # player no rule-text power names (it may be any of them): a restriction is never dropped (issue 46).
        self.restrictions: dict[str, PowerRestriction] = {}
        for p, r in ruleset.restrictions.items():
            for player in sorted(self.players_for(p, f"the {p} restriction ({r.source})")):
                self.restrictions.setdefault(player, r)
        self.neutrals = {_named(names.territory, n.name, ruleset, profile, f"the neutral {n.name}"): n for n in ruleset.neutrals.values()}
        # A map without a factory unit (the matrix runs rulesets on any map) still has options needing none.
        self.factory: str | None = names.unit("factory") if names.has_unit("factory") else None
        # Every power's factory type ("one factory per territory" counts a germanFactory beside a britishFactory).
        self.factories: frozenset[str] = names.units_of_any_power("factory")
        # Which base game this is (the profile's [[game]]): scenarios have per-edition clauses.
        base = next((g for g in profile.games if g.name == board.game_name), None)
        self.base_file: str | None = base.file if base is not None else None
        self.edition: str | None = base.edition if base is not None else None
        self.may_enter: dict[str, frozenset[str]] = {}
        self._remembered: tuple[tuple[int, object], dict[Hashable, Any]] | None = None
        for power, restriction in self.restrictions.items():
            listed = self.profile.powers_may_enter.get(power, ())
            # A place the rule lets the power enter that the map profile leaves [unmatched] is not entered: the rest holds.
            also = [t for t in restriction.may_also_enter if not self._territory_lacking(t)]
            self.may_enter[power] = frozenset(names.territory(t) for t in (*listed, *also))

    def _territory_lacking(self, name: str) -> bool:
        """Whether the map profile leaves the rule-text territory ``name`` [unmatched] and the game has none of that name."""
        if name.strip().lower() not in self._unmatched:
            return False
        try:
            self.names.territory(name)
        except UnknownNameError:
            return True
        return False

    def players_for(self, name: str, rule: str) -> frozenset[str]:
        """The players a rule-text power ``name`` of a restriction may be: its own, or, where the map profile leaves it
        [unmatched], every player no rule-text power names (restricting them all rather than none fails closed)."""
        return self._standing_for_name("powers", name, rule)

    def places_for(self, name: str, rule: str) -> frozenset[str]:
        """The places a rule-text place of a restriction may be: its own, or, where the map profile leaves it
        [unmatched], every place the profile gives no rule-text name."""
        return self._standing_for_name("places", name, rule)

    def _standing_for_name(self, table: str, name: str, rule: str) -> frozenset[str]:
        key = (table, name)
        if key not in self._standing_for:
            look_up = self.names.power if table == "powers" else self.names.place
            translated = getattr(self.profile, table)
            try:
                found = frozenset({look_up(name)})
            except UnknownNameError:
                if any(word.strip().lower() == name.strip().lower() for word in translated):
                    # The profile names it, but not in this game (Iron Blitz 1945A has no Germans; the map's other
                    # games do): no player of it can pick, no place of it can be picked; nothing to restrict.
                    found = frozenset()
                elif name.strip().lower() not in self._unmatched:
                    _named(look_up, name, self.ruleset, self.profile, rule)  # raises, naming the rule and the profile
                else:
                    found = self._unclaimed_players() if table == "powers" else self._unclaimed_places()
            self._standing_for[key] = found
        return self._standing_for[key]

    def _unclaimed_players(self) -> frozenset[str]:
        ruleset = self.ruleset
        words = {*self.profile.powers, *ruleset.restrictions, *(s.power for s in ruleset.scenarios if s.power)}
        words |= {name for option in ruleset.options for table, name in option.params.rule_names(ruleset) if table == "powers"}
        claimed = set()
        for word in words:
            try:
                claimed.add(self.names.power(word))
            except UnknownNameError:
                continue
        return frozenset(self.board.catalog.players) - claimed

    def _unclaimed_places(self) -> frozenset[str]:
        return frozenset(self.board.nodes) - set(self.profile.places.values())

    def facts(self) -> Facts:
        """Facts about the board as it is now, reused until a change is pushed or popped."""
        return self.at_position("facts", lambda: Facts(self.board))

    def at_position(self, key: Hashable, make: Callable[[], T]) -> T:
        """``make()``, worked out once for ``key`` in the board's present position (a value read from the board
        alone: where a displaced group may go is asked when it is offered, checked and placed)."""
        position = self.board.position
        kept = self._remembered
        if kept is None or kept[0][0] != position[0] or kept[0][1] is not position[1]:
            self._remembered = kept = (position, {})
        if key not in kept[1]:
            kept[1][key] = make()
        return kept[1][key]

    def lock_problem(self, side: str, place: str) -> Problem | None:
        holder = self.locks.get(place)
        if holder is None or holder[0] == side:
            return None
        return Problem(self.ruleset.locks.rule, self.ruleset.locks.source, f"{self.names.shown(place)} is locked by the {holder[0]}' pick {holder[1]}")

    def power_problem(self, option: Option, side: str, power: str) -> Problem | None:
        if self.side_of.get(power) != side:
            return Problem(option.rule, option.source, f"{power} is not a power of the {side} (they are {', '.join(self.side_powers[side])})")
        restriction = self.restrictions.get(power)
        if restriction is not None and option.number not in restriction.options:
            allowed = ", ".join(str(n) for n in sorted(restriction.options))
            return Problem(restriction.rule, restriction.source, f"option {option.number} may not be taken for {power} (only options {allowed})")
        return None

    def own_units(self, units: Iterable[tuple[str, int]], power: str) -> list[tuple[str, int]]:
        """``power``'s unit types for rule-text ``(word, count)`` pairs (:meth:`Names.own_unit`, issue 28).

        Ask :meth:`units_problem` first: a word the map gives ``power`` nothing for is an error here."""
        found = []
        for word, count in units:
            unit = self.names.own_unit(word, power)
            if unit is None:
                raise ValueError(f"{power} has no {word} on this map: ask units_problem first")
            found.append((unit, count))
        return found

    def units_problem(self, rule: str, source: str, power: str, words: Iterable[str]) -> Problem | None:
        """Why ``power`` cannot receive the rule text's ``words`` on this map (None: it can): never another power's type."""
        why = [reason for word in dict.fromkeys(words) if (reason := self.names.why_no_unit(word, power)) is not None]
        return Problem(rule, source, "; ".join(why)) if why else None

    def already_used(self, side: str, number: int) -> bool:
        """Whether ``side`` may not take option ``number`` again now (the no-repeat rule).

        With ``no_repeat_per`` (001: "the rule is in effect for the second set of
        nine picks and so on") only the side's picks of the current set count.
        """
        used = self.used[side]
        per = self.ruleset.picks.no_repeat_per
        if per is not None:
            used = used[len(used) // per * per :]
        return number in used

    def record(self, side: str, index: int, outcome: Outcome) -> None:
        self.displaced += outcome.displaced
        for place in outcome.affected:
            self.locks.setdefault(place, (side, index))
        for change in outcome.changes:
            if isinstance(change, PlaceUnits) and change not in outcome.moved:
                self.option_units[(change.territory, change.owner, change.unit_type)] += change.count

    def forget(self, side: str, index: int, outcome: Outcome) -> None:
        """Undo :meth:`record` of the last pick."""
        if outcome.displaced:
            del self.displaced[-len(outcome.displaced) :]
        for place in outcome.affected:
            if self.locks.get(place) == (side, index):
                del self.locks[place]
        for change in outcome.changes:
            if isinstance(change, PlaceUnits) and change not in outcome.moved:
                self.option_units[(change.territory, change.owner, change.unit_type)] -= change.count
        self.option_units = +self.option_units


class Facts:
    """Answers about one board position, computed once per question (the board must not change meanwhile)."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.catalog = board.catalog
        self._enemy_places: dict[str, dict[str, list[str]]] = {}
        self._owned_sea: dict[str, frozenset[str]] = {}
        self._friendly_ships: dict[str, frozenset[str]] = {}
        self._friendly_sea: dict[str, frozenset[str]] = {}

    def enemy_places(self, power: str) -> dict[str, list[str]]:
        """Place -> the enemies of ``power`` with units there."""
        if power not in self._enemy_places:
            found: dict[str, list[str]] = {}
            for place, data in self.board.nodes.items():
                owners = sorted({o for (o, _), n in data["units"].items() if n and o is not None and not self.catalog.allied(power, o)})
                if owners:
                    found[place] = owners
            self._enemy_places[power] = found
        return self._enemy_places[power]

    def owned_sea(self, power: str) -> frozenset[str]:
        if power not in self._owned_sea:
            self._owned_sea[power] = frozenset(owned_sea_zones(self.board, power))
        return self._owned_sea[power]

    def friendly_ship_zones(self, power: str) -> frozenset[str]:
        if power not in self._friendly_ships:
            zones = set()
            for place, data in self.board.nodes.items():
                if data["water"] and any(
                    n and o is not None and self.catalog.allied(power, o) and self.catalog.unit_type(u).is_ship for (o, u), n in data["units"].items()
                ):
                    zones.add(place)
            self._friendly_ships[power] = frozenset(zones)
        return self._friendly_ships[power]

    def friendly_sea(self, power: str) -> frozenset[str]:
        """Sea zones beside a territory of ``power`` or an ally, or holding allied ships (002's "friendly sea zones")."""
        if power not in self._friendly_sea:
            board = self.board
            beside_allies = {
                place
                for place, data in board.nodes.items()
                if data["water"]
                and any(
                    not board.nodes[n]["water"] and board.nodes[n]["owner"] is not None and self.catalog.allied(power, board.nodes[n]["owner"])
                    for n in board.neighbours(place)
                )
            }
            self._friendly_sea[power] = frozenset(beside_allies | self.friendly_ship_zones(power))
        return self._friendly_sea[power]

    def carrier_room(self, zone: str, power: str) -> tuple[int, int]:
        """(capacity of allied carriers, carrier space already taken by air units) in ``zone``."""
        capacity = used = 0
        for (owner, unit), count in self.board.units(zone).items():
            kind = self.catalog.unit_type(unit)
            if owner is not None and self.catalog.allied(power, owner):
                capacity += kind.carrier_capacity * count
            if kind.domain == "air":
                used += kind.carrier_cost * count
        return capacity, used


def describe_units(units: Counter[str]) -> str:
    """``Counter({"infantry": 2, "armour": 1})`` -> "1 armour and 2 infantry"."""
    return " and ".join(f"{n} {u}" for u, n in sorted(units.items()))


def describe_pairs(pairs: Iterable[tuple[str, int]]) -> str:
    return ", ".join(f"{n} {u}" for u, n in pairs) or "none"


def _named(look_up, name: str, ruleset, profile, rule: str) -> str:
    """A game name the ruleset's own tables need, or an error naming the rule, its source and the map profile that
    should translate it (a profile written for other rulesets does not know this one's names)."""
    try:
        return look_up(name)
    except UnknownNameError as error:
        written_for = f" (written for {', '.join(profile.rulesets)})" if profile.rulesets and ruleset.id not in profile.rulesets else ""
        raise KremlinError(
            f"{ruleset.id}, {rule}: {error.message}; the map profile{written_for} does not translate it "
            "(give the game's name in its tables, or list the name under [unmatched] so that what needs it is left out)",
            where=str(profile.path) if profile.path else error.where,
        ) from None

"""Names in a draft, written as the rule text has them or as the game file does.

``Names`` resolves powers, units, land territories, sea zones and sides
case-insensitively; a name it does not know fails with close matches and the
list of accepted names (game names and rule-text names alike).
"""

from __future__ import annotations

import difflib
import functools
import re
from collections import Counter

from kremlin_triplea.errors import UnknownNameError
from kremlin_triplea.model.board import Board
from kremlin_triplea.model.changes import PlaceUnits, RemoveUnits
from kremlin_triplea.rules.profile import Profile
from kremlin_triplea.rules.roles import ROLE_OF_WORD

# "Seazone 12", "Sea Zone 12", "SZ 12", "sz12", "Seazone 35(Bay of Bengal)"
NUMBERED_SEA_ZONE = re.compile(r"^\s*(?:sea\s*zone|sz)\s*(\d+)\b.*$", re.IGNORECASE)


class Names:
    def __init__(self, board: Board, profile: Profile, sides: tuple[str, ...]) -> None:
        self.board = board
        self.profile = profile
        catalog = board.catalog
        # Rule-text names as written in the profile, to list them when a name is unknown.
        self._rule_names = {**profile.powers, **profile.units, **profile.places}
        self._powers = _index(catalog.players, profile.powers)
        self._units = _index(catalog.unit_types, profile.units)
        # (word, power) -> own_unit's answer, and why_no_unit's: asked for every target the legal picks list.
        self._own_units: dict[tuple[str, str], str | None] = {}
        self._no_unit: dict[tuple[str, str], str | None] = {}
        # Each power's own unit types (profile [units_by_power]).
        self._power_units = {}
        for power, units in profile.units_by_power.items():
            player = self._powers.get(power.lower())
            if player is not None:
                self._power_units[player] = _index((), units, catalog.unit_types)
        land = [t for t, d in board.nodes.items() if not d["water"]]
        sea = [t for t, d in board.nodes.items() if d["water"]]
        land_set, sea_set = set(land), set(sea)
        self._land = _index(land, {k: v for k, v in profile.places.items() if v in land_set})
        self._sea = _index(sea, {k: v for k, v in profile.places.items() if v in sea_set})
        self._sides = {s.lower(): s for s in sides}
        # Game name -> rule-text name, to show a name as players read it.
        self._rule_name: dict[str, str] = {}
        for rule, game in profile.places.items():
            # The first alias listed is the rule text's usual name. A mere spelling
            # tells a reader nothing, and one profile serves several rule texts
            # (004's "Archangels" must not show in 000's messages), so it is never shown.
            if not _same_name_spelt_differently(rule, game):
                self._rule_name.setdefault(game, rule)

    def power(self, name: str, *, where: str | None = None) -> str:
        return self._resolve("power", name, self._powers, where)

    def unit(self, name: str, *, where: str | None = None, power: str | None = None) -> str:
        """The game's unit type for ``name``; with ``power``, that power's own where the profile names one in
        ``[units_by_power]`` (issue 28: one unit type for every power made the Germans' armor an American tank).

        ``profile new`` and a map without a profile fill that table by role from what each power can have;
        ``profile check`` says where a power is given a unit it cannot have.
        """
        if power is not None and isinstance(name, str):
            own_table = self._power_units.get(self.power(power, where=where), {})
            # The word itself, else another word of its role the profile names ("tank", "armour" for "armor").
            for word in _same_role(name):
                if word in own_table:
                    return own_table[word]
        if isinstance(name, str) and name.strip().lower() not in self._units:
            shared = next((self._units[word] for word in _same_role(name) if word in self._units), None)
            if shared is not None:
                return shared
        return self._resolve("unit", name, self._units, where)

    def own_unit(self, name: str, power: str) -> str | None:
        """The unit ``power`` has for the rule-text word ``name``, or None where the map gives it none.

        This is the one way a rule text's unit word becomes a unit type for a power (placements, a takeover's
        garrison, a neutral's army, a scenario's units): its own type where the profile gives it its own
        ([units_by_power]). On a map with per-power types the shared type only if ``power`` can have it (its
        frontier sells it, or it has one in the set-up), else None: Total World War's Germans have no carrier, and
        the shared table's "carrier" is the Americans'; DanubeAxis, a stand-in with no table of its own, gets none
        of the shared tanks it cannot buy. On a map of shared types, the shared type, as :meth:`unit`. A word with no
        shared type is None for a power with a table of its own that lacks it, and for every power where the
        profile lists it under [unmatched] (nothing on the map stands for it); otherwise it is an error of the
        profile or the ruleset, raised as :meth:`unit` raises it."""
        key = (name, power)
        if key not in self._own_units:
            self._own_units[key] = None if self.why_no_unit(name, power) is not None else self._own_or_shared(name, power)
        return self._own_units[key]

    def why_no_unit(self, name: str, power: str) -> str | None:
        """Why :meth:`own_unit` finds no ``name`` for ``power`` (None: it finds one), in words for players."""
        key = (name, power)
        if key not in self._no_unit:
            self._no_unit[key] = self._why_no_unit(name, power)
        return self._no_unit[key]

    def _why_no_unit(self, name: str, power: str) -> str | None:
        player = self.power(power)
        word = name.strip().lower()
        own = self._power_units.get(player, {})
        if word in own:
            return None
        if word not in self._units:
            if own:
                return f"{player} has no {name} of its own on this map and the map profile names no {name} for every power"
            if word not in {key.lower() for key in self.profile.unmatched}:
                self.unit(name)  # an unknown word: the profile or the ruleset is wrong, not the draft
            return f"the map has no {name} (map profile [unmatched])"
        if not self._power_units:
            return None  # a map of shared types: every power's unit is the shared one
        shared = self.unit(name)
        if (player, shared) in self.board.catalog.costs or (player, shared) in self._held_at_start:
            return None
        return f"{player} cannot have {shared}, the map's {name} (its frontier does not sell it, its set-up has none) and has no {name} of its own"

    def _own_or_shared(self, name: str, power: str) -> str:
        own = self._power_units.get(self.power(power), {}).get(name.strip().lower())
        return own if own is not None else self.unit(name)

    @functools.cached_property
    def _held_at_start(self) -> frozenset[tuple[str, str]]:
        """(player, unit type) of every unit of the base game's set-up: the board now, the draft's changes undone
        (asked after a pick placed units, it still answers what a power had before any pick)."""
        held = Counter[tuple[str, str]]()
        for data in self.board.nodes.values():
            held.update({key: n for key, n in data["units"].items() if n})
        for change in self.board.changes:
            if isinstance(change, (PlaceUnits, RemoveUnits)):
                held[(change.owner, change.unit_type)] += change.count if isinstance(change, RemoveUnits) else -change.count
        return frozenset(key for key, n in held.items() if n > 0)

    def units_of_any_power(self, name: str) -> frozenset[str]:
        """Every game unit type the word ``name`` stands for: the shared one, if the map has it, and each power's own
        (a territory "containing a factory" holds any power's factory: germanFactory, britishFactory, ...)."""
        word = name.strip().lower()
        found = {own[word] for own in self._power_units.values() if word in own}
        if word in self._units:
            found.add(self.unit(name))
        return frozenset(found)

    def has_unit(self, name: str) -> bool:
        return name.strip().lower() in self._units

    def territory(self, name: str, *, where: str | None = None) -> str:
        """A land territory."""
        return self._resolve("territory", name, self._land, where)

    def sea_zone(self, name: str, *, where: str | None = None) -> str:
        if isinstance(name, str) and name.strip().lower() in self._sea:
            # The game's own name wins: "SZ 3 Labrador Sea" is that zone, whatever the rule text calls zone 3.
            return self._sea[name.strip().lower()]
        match = NUMBERED_SEA_ZONE.match(name)
        if match:
            name = self.profile.sea_zone_name.format(n=match.group(1))
            # The number is the rule text's map's: no numbered sea zone here is offered for it by its spelling (one
            # of the same number, or one digit apart, is another sea).
            unnumbered = [zone for zone in set(self._sea.values()) if not re.search(r"\d", zone)]
            return self._resolve("sea zone", name, self._sea, where, suggest=unnumbered)
        return self._resolve("sea zone", name, self._sea, where)

    def place(self, name: str, *, where: str | None = None) -> str:
        """A land territory or a sea zone."""
        key = name.strip().lower()
        if key in self._land:
            return self._land[key]
        match = NUMBERED_SEA_ZONE.match(name)
        if key in self._sea or match:
            return self.sea_zone(name, where=where)
        known = {**self._land, **self._sea}
        raise UnknownNameError("territory or sea zone", name, known.values(), where=where, within=self.board.game_name)

    def side(self, name: str, *, where: str | None = None) -> str:
        return self._resolve("side", name, self._sides, where)

    def shown(self, game_name: str) -> str:
        """A place as the game names it, with the rule text's name when that differs."""
        rule = self._rule_name.get(game_name)
        return f"{game_name} ({rule})" if rule else game_name

    def listed(self, game_name: str) -> str:
        """A place as a choice list shows it: :meth:`shown`, and for a sea zone whose name is only a number ("5 Sea
        Zone"), the coast it lies off, which the board gives (its land neighbours, the most valuable first, at most
        two): a host looks for "off Norway", not for a number printed on the map's art."""
        shown = self.shown(game_name)
        if game_name not in self.board.nodes or not self.board.nodes[game_name]["water"] or _has_own_words(game_name):
            return shown
        coast = [p for p in self.board.neighbours(game_name) if not self.board.nodes[p]["water"]]
        if not coast:
            return shown
        coast.sort(key=lambda p: (-self.board.nodes[p]["production"], p))
        off = f"off {' and '.join(coast[:2])}"
        return f"{shown[:-1]}; {off})" if shown.endswith(")") else f"{shown} ({off})"

    def _resolve(self, kind: str, name: object, index: dict[str, str], where: str | None, suggest: list[str] | None = None) -> str:
        if not isinstance(name, str):
            raise UnknownNameError(kind, str(name), set(index.values()), where=where)
        try:
            return index[name.strip().lower()]
        except KeyError:
            game_names = set(index.values())
            accepted = game_names | {rule for rule in self._rule_names if rule.lower() in index and rule not in game_names}
            # Accepted and listed, a rule-text alias is never offered as "did you mean": the game's own name is.
            offered = game_names if suggest is None else suggest
            raise UnknownNameError(kind, name, accepted, where=where, within=self.board.game_name or None, suggest=offered) from None


#: Words every sea zone's name may carry that tell nothing of where it is.
_SEA_ZONE_WORDS = frozenset({"sea", "zone", "seazone", "sz"})


def _has_own_words(sea_zone: str) -> bool:
    """Whether a sea zone's name says where it is ("SZ 3 Labrador Sea", "Bay of Biscay"), not only its number."""
    return any(word not in _SEA_ZONE_WORDS for word in re.findall(r"[^\W\d_]+", sea_zone.lower()))


def _same_role(name: str) -> list[str]:
    """``name`` (lower case) and the other rule-text words of its role, ``name`` first ("tank": "tank", "tanks",
    "armor", "armour")."""
    word = name.strip().lower()
    role = ROLE_OF_WORD.get(word)
    return [word] + [w for w, r in ROLE_OF_WORD.items() if role is not None and r == role and w != word]


def _index(game_names, rule_names: dict[str, str], known=None) -> dict[str, str]:
    """Lower-cased name -> game name: the game's names, then the rule text's for those (or for ``known``)."""
    index = {name.lower(): name for name in game_names}
    known = set(index.values()) if known is None else set(known)
    for rule, game in rule_names.items():
        if game in known:
            index.setdefault(rule.lower(), game)
    return index


@functools.lru_cache(maxsize=16384)  # a profile's pairs, asked again by every Names made for its map
def _same_name_spelt_differently(a: str, b: str) -> bool:
    """Only punctuation, case or a letter or two apart ("Archangels", "Bulgaria/Romania")."""
    plain_a, plain_b = (re.sub(r"[^a-z0-9]", "", x.lower()) for x in (a, b))
    return difflib.SequenceMatcher(None, plain_a, plain_b).ratio() >= 0.9

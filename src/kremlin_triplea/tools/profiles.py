"""Map profiles for maps nobody wrote one for: derived from the map, drafted for review, checked.

* ``derived_setup`` gives a ruleset a map with no profile (or a profile written
  for another ruleset): unit words matched by role (:mod:`roles`), neutrals
  found on the map itself (unowned land with production 0, or impassable land,
  worth their production), and the rule-text names nothing on the map can
  stand for listed as what a profile must provide.
* ``new_profile_text`` writes a starting profile: every rule-text name the
  rulesets use, with the game's best match filled in and marked ``REVIEW``.
* ``check_profile`` verifies a profile against its game files.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import json
import re
from collections import Counter
from pathlib import Path

import attrs

from kremlin_triplea.draft.rulesets import load_named_ruleset, load_ruleset
from kremlin_triplea.errors import KremlinError
from kremlin_triplea.game import Game, load
from kremlin_triplea.rules.house_rules import load_house_set
from kremlin_triplea.rules.names import NUMBERED_SEA_ZONE
from kremlin_triplea.rules.profile import Profile, load_profile
from kremlin_triplea.rules.roles import ROLE_OF_WORD, ROLES, UnitFacts, match_role, match_unit_word, plays_role, role_of, unit_facts, units_of_power
from kremlin_triplea.rules.ruleset import Neutral, Ruleset, data_folders, find_data_file
from kremlin_triplea.rules.tomlfile import read_toml

REVIEW = "REVIEW"


@attrs.frozen
class RuleNames:
    """The rule-text names a ruleset uses, by kind, and which options need each."""

    powers: dict[str, tuple[str, ...]]  # name -> what needs it ("restriction", "option 3"...)
    units: dict[str, tuple[str, ...]]
    places: dict[str, tuple[str, ...]]


def rule_names(ruleset: Ruleset) -> RuleNames:
    powers: dict[str, list[str]] = {}
    units: dict[str, list[str]] = {}
    places: dict[str, list[str]] = {}

    def need(table: dict[str, list[str]], name: str, by: str) -> None:
        table.setdefault(name, [])
        if by not in table[name]:
            table[name].append(by)

    tables = {"powers": powers, "units": units, "places": places}
    for option in ruleset.options:
        for table, name in option.params.rule_names(ruleset):
            need(tables[table], name, f"option {option.number}")
    for scenario in getattr(ruleset, "scenarios", ()):
        by = f"scenario {scenario.title!r}"
        if scenario.power:
            need(powers, scenario.power, by)
        steps = list(scenario.steps) + [s for v in scenario.variants for s in v.steps]
        for place in (*scenario.involves, *(s.at for s in steps), *(s.to for s in steps if s.to)):
            need(places, numbered_sea_zone(place) or place, by)
        for step in steps:
            if step.power:
                need(powers, step.power, by)
            for unit, _ in step.units:
                need(units, unit, by)
    for restriction in ruleset.restrictions.values():
        by = f"the {restriction.power} restriction"
        need(powers, restriction.power, by)
        for place in restriction.may_also_enter:
            need(places, place, by)
    for rule in getattr(ruleset, "game_rules", ()):
        for table, name in game_rule_names(rule):
            need(tables[table], name, f"game rule {rule.id!r}")
    return RuleNames(
        {k: tuple(v) for k, v in sorted(powers.items())},
        {k: tuple(v) for k, v in sorted(units.items())},
        {k: tuple(v) for k, v in sorted(places.items())},
    )


#: The fields of a game rule's change that name a rule-text place, power or unit, by the change's kind
#: (gamerules/actions.py reads them with the profile's names).
_GAME_RULE_FIELDS: dict[str, tuple[tuple[str, str], ...]] = {
    "canal": (("places", "land"),),
    "victory_city": (("places", "from"), ("places", "to")),
    "turn_step": (("powers", "power"),),
    "grant_tech": (("powers", "power"),),
    "frontier_cost": (("powers", "power"), ("units", "costs")),
    "place_units": (("powers", "power"), ("places", "at"), ("units", "units")),
    "move_units": (("powers", "power"), ("places", "from"), ("places", "to"), ("units", "units")),
}
#: Attachments a game rule changes whose ``attach_to`` is a power.
_POWER_ATTACHMENTS = ("rulesAttachment", "playerAttachment", "techAttachment")


def game_rule_names(rule) -> list[tuple[str, str]]:
    """The (table, name) pairs a game rule names: the places, powers and units its changes need on a map.

    Only what is written in the rule text's names; a canal's sides left to the profile's ``[straits]`` and a turn
    step's position (``[turn_step_positions]``) are the profile's own entries.
    """
    found = []
    for change in rule.changes:
        data = change.data
        kind = data.get("kind")
        for table, field in _GAME_RULE_FIELDS.get(kind, ()):
            value = data.get(field)
            names = list(value) if isinstance(value, (list, dict)) else [value] if isinstance(value, str) else []
            found += [(table, n) for n in names if isinstance(n, str)]
        if kind == "attachment_option":
            if data.get("attachment") in _POWER_ATTACHMENTS and isinstance(data.get("attach_to"), str):
                found.append(("powers", data["attach_to"]))
            if str(data.get("option", "")).endswith("Territories") and isinstance(data.get("add"), list):
                found += [("places", n) for n in data["add"] if isinstance(n, str)]
    return found


def numbered_sea_zone(name: str) -> str | None:
    """A rule text's numbered sea zone ("Seazone 12", "SZ 12", "Sea Zone 12(...)") as "Seazone 12", else None.

    The numbers are those of the map the rule text was written for; a profile's
    ``sea_zone_name`` turns them into the game's names ("{n} Sea Zone" on AA50).
    """
    match = NUMBERED_SEA_ZONE.match(name)
    return f"Seazone {match.group(1)}" if match else None


def _numbered_in_game(profile: Profile, name: str) -> str | None:
    """The game's name for a numbered sea zone by the profile's ``sea_zone_name`` ("Seazone 12" -> "12 Sea Zone")."""
    match = NUMBERED_SEA_ZONE.match(name)
    return profile.sea_zone_name.format(n=match.group(1)) if match else None


# -- a ruleset on a map without a profile for it -------------------------------------


@attrs.frozen
class DerivedSetup:
    """A ruleset and a profile fitted to one game from the map itself."""

    ruleset: Ruleset
    profile: Profile
    notes: tuple[str, ...]  # what differs from a written profile, for people
    missing_units: dict[str, str]  # rule-text unit word -> why no unit of the map stands for it


@attrs.frozen
class PowerUnit:
    """A power's own unit type for a rule-text unit, where the unit for every power is not one it can have."""

    power: str  # the game's player
    word: str
    unit: str | None  # None: no unit type the power can have plays the role
    reason: str


def units_per_power(game: Game, general: dict[str, str | None], players: list[str], facts: list[UnitFacts] | None = None) -> list[PowerUnit]:
    """For each of ``players`` and rule-text unit word whose unit for every power (``general``) it cannot have, its own.

    A power can have the units of its production frontier and of its set-up
    (:func:`units_of_power`); its own unit is the one of the word's role among
    those. Players with neither (a map's neutral player) take the general unit.
    """
    facts = facts if facts is not None else unit_facts(game)
    found = []
    for player in players:
        can_have = units_of_power(game.board, player)
        if not can_have:
            continue
        for word, unit in general.items():
            if unit is None or unit in can_have:
                continue  # a unit no power has is [unmatched]
            role = role_of(word) or next((r for r in ROLES if plays_role(r, unit, facts)), None)
            if role is None:
                continue
            match = match_role(role, facts, can_have, f" {player} can have")
            reason = match.reason if match.unit is None else f"{player} cannot have {unit}; {match.reason}"
            found.append(PowerUnit(player, word, match.unit, reason))
    return found


def map_neutrals(game: Game) -> dict[str, Neutral]:
    """Neutrals found on the map: unowned land with production 0, or impassable land; worth their production.

    Their armies are whatever the map already puts there, so nothing is added.
    """
    found = {}
    for name, data in game.board.nodes.items():
        if data["water"]:
            continue
        if (data["owner"] is None and not data["production"]) or data["impassable"]:
            found[name] = Neutral(name=name, ipc=int(data["production"] or 0), army=(), note="found on the map: unowned with production 0, or impassable")
    return found


def derived_setup(game: Game, ruleset: Ruleset, base: Profile | None = None) -> DerivedSetup:
    names = rule_names(ruleset)
    game_units = {u.lower(): u for u in game.catalog.unit_types}
    facts = unit_facts(game)
    units: dict[str, str] = {}
    missing: dict[str, str] = {}
    known = dict(base.units) if base is not None else {}
    for word in names.units:
        if word.lower() in game_units or known.get(word) in game.catalog.unit_types:
            continue
        match = match_unit_word(word, game, facts)
        if match is not None and match.unit is not None:
            units[word] = match.unit
        else:
            missing[word] = match.reason if match is not None else f"{word!r} is not a unit word the roles know ({', '.join(sorted(ROLE_OF_WORD))})"
    if "factory" not in names.units:  # every draft state looks up the factory
        match = match_unit_word("factory", game, facts)
        if "factory" not in game_units and match is not None and match.unit is not None:
            units["factory"] = match.unit
    general = {w: game_units.get(w.lower()) or known.get(w) or units.get(w) for w in names.units}
    own: dict[str, dict[str, str]] = {}
    for found in units_per_power(game, general, list(game.catalog.players), facts):
        if found.unit is not None:
            own.setdefault(found.power, {})[found.word] = found.unit
    if base is not None:
        own = {p: {**own.get(p, {}), **base.units_by_power.get(p, {})} for p in {*own, *base.units_by_power}}
    notes = []
    players = {p.lower() for p in game.catalog.players}
    base_powers = {k.lower(): v for k, v in (base.powers if base else {}).items()}
    restrictions = {}
    land = {t.lower() for t, d in game.board.nodes.items() if not d["water"]}
    for power, restriction in ruleset.restrictions.items():
        unknown = [t for t in restriction.may_also_enter if t.lower() not in land]
        if power.lower() not in players and power.lower() not in base_powers:
            notes.append(f"the {power} restriction does not apply: the map has no power {power} (a profile's [powers] can name it)")
        elif unknown:
            notes.append(f"the {power} restriction does not apply: the map has no {', '.join(unknown)} (a profile's [places] can name them)")
        else:
            restrictions[power] = restriction
    neutrals = map_neutrals(game)
    notes.append(f"{len(neutrals)} neutrals found on the map (unowned land with production 0, or impassable land)")
    derived_ruleset = attrs.evolve(ruleset, neutrals=neutrals, restrictions=restrictions)
    map_name = game.board.properties.get("mapName") or Path(game.source).stem
    if base is not None:
        profile = attrs.evolve(
            base,
            units={**units, **base.units},
            units_by_power=own,
            rulesets=(ruleset.id,),
            neutral_coasts={},
            capital_marker=None,
            powers_may_enter={k: v for k, v in base.powers_may_enter.items() if k in {base.powers.get(p, p) for p in restrictions}},
        )
    else:
        profile = Profile(
            map=map_name,
            path=f"(derived from {Path(game.source).name}: no map profile)",
            rulesets=(ruleset.id,),
            sea_zone_name=guess_sea_zone_name(game),
            games=(),
            powers={},
            units=units,
            places={},
            place_reasons={},
            neutral_coasts={},
            capital_marker=None,
            powers_may_enter={},
            factory_output_enforced_by_game=False,
            factory_output_reason="no map profile: nobody has checked how this game limits a new factory's output",
            special_reasons={},
            units_by_power=own,
        )
    return DerivedSetup(derived_ruleset, profile, tuple(notes), missing)


def guess_sea_zone_name(game: Game) -> str:
    """The commonest pattern of the sea zones' names with their number as {n} ("{n} Sea Zone")."""
    patterns = Counter(re.sub(r"\d+", "{n}", name, count=1) for name, data in game.board.nodes.items() if data["water"] and re.search(r"\d", name))
    return patterns.most_common(1)[0][0] if patterns else "{n} Sea Zone"


# -- profile new: matching rule-text names to a map that knows what it matches ---------

# Players' names for the powers rule texts name: a rule text says "UK", the game's player is "British".
POWER_NAMES: tuple[frozenset[str], ...] = tuple(
    frozenset(group)
    for group in (
        {"uk", "u.k.", "united kingdom", "britain", "great britain", "england", "british", "english"},
        {"usa", "us", "u.s.", "u.s.a.", "united states", "america", "americans", "american"},
        {"ussr", "u.s.s.r.", "soviet", "soviets", "soviet union", "russia", "russians", "russian"},
        {"germany", "germans", "german"},
        {"japan", "japanese"},
        {"italy", "italians", "italian"},
        {"china", "chinese"},
        {"anzac", "australia", "australians", "australian"},
        {"france", "french"},
    )
)

_NAVAL_ROLES = {"transport", "submarine", "destroyer", "cruiser", "carrier", "battleship"}
_LAND_ROLES = {"infantry", "artillery", "armour", "factory", "aa"}
# Words that only a body of water is named with ("Drake Passage", "off Wake Island", "Hawaii Seazone").
_WATER_WORDS = re.compile(r"\b(sea|seas|seazone|ocean|passage|gulf|bay|channel|straits?|fleet|off|sz|mediterranean|atlantic|pacific|harbou?r)\b", re.IGNORECASE)
# "off Wake Island", "off the coast of French West Africa": the sea zone beside a land territory.
_OFF = re.compile(r"^\s*off\s+(?:the\s+)?(?:((?:north|south|east|west)(?:ern)?)\s+coast\s+of\s+|coast\s+of\s+)?(.+?)\s*$", re.IGNORECASE)
# Words a game adds to a sea zone's name that say nothing about which one it is.
_FILLER = {"sea", "zone", "seazone", "sz", "the", "of", "off", "s", "r", "coast", "nat", "l", "islands", "island", "is"}


@functools.lru_cache(maxsize=65536)
def _plain(name: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9]+", " ", name.lower()).split())


# Spellings of one word ("Western USA" is the game's "West US", "Eastern United States" the rule text's "Eastern USA").
_SAME_WORD = {"western": "west", "eastern": "east", "northern": "north", "southern": "south", "usa": "us", "ssr": ""}
# Words that only narrow a place down: "South Eire" is the game's "Eire", "Italian East Africa" its "Italian Africa".
_QUALIFIERS = {"north", "south", "east", "west", "central", "french", "british", "italian", "german", "japanese", "american", "soviet", "anglo"}


@functools.lru_cache(maxsize=65536)
def _tokens(name: str) -> tuple[str, ...]:
    plain = _plain(name).replace("united states", "us").replace("s s r", "ssr")
    words = tuple(t for t in (_SAME_WORD.get(t, t) for t in plain.split() if t not in _FILLER) if t)
    # "SZ 58 Bay of Bengal": the number is the map's own label; the words name the sea.
    named = tuple(t for t in words if not t.isdigit())
    return named or words


_DIRECTIONS = {"north", "south", "east", "west"}


def _opposed(a: str, b: str) -> bool:
    """Names that point different ways: "East Indies" is not "West Indies", however alike they are spelt."""
    da, db = set(_tokens(a)) & _DIRECTIONS, set(_tokens(b)) & _DIRECTIONS
    return bool(da and db and da != db)


@functools.lru_cache(maxsize=65536)
def _key(name: str) -> str:
    """A territory's words in any order: "Anglo Sudan Egypt" and "Anglo-Egypt Sudan" are one place."""
    return " ".join(sorted(set(_tokens(name)))) or _plain(name)


@attrs.frozen
class PlaceKind:
    """Whether a rule-text place is land or a sea zone, and what in the rule text says so."""

    kind: str | None  # "land", "sea", or None: the rule text does not say
    why: str


def place_kinds(rulesets: list[Ruleset]) -> dict[str, PlaceKind]:
    """Land or sea for each rule-text place, read from how the rule text uses it.

    A neutral, a place a power may enter or a place captured is land; a place
    where only ships are put or moved is a sea zone; so is a name only water
    is called by ("Drake Passage", "off Wake Island").
    """
    kinds: dict[str, PlaceKind] = {}

    def say(name: str, kind: str, why: str) -> None:
        kinds.setdefault(numbered_sea_zone(name) or name, PlaceKind(kind, why))

    for ruleset in rulesets:
        for neutral in ruleset.neutrals.values():
            say(neutral.name, "land", f"{ruleset.id} lists it as a neutral")
        for option in ruleset.options:
            for _, unit, place in getattr(option.params, "exclude", ()):
                if ROLE_OF_WORD.get(unit.lower()) in _NAVAL_ROLES:
                    say(place, "sea", f"{ruleset.id} option {option.number} keeps a {unit} out of it")
        for restriction in ruleset.restrictions.values():
            for place in restriction.may_also_enter:
                say(place, "land", f"{ruleset.id}: the {restriction.power} may enter it")
        for scenario in getattr(ruleset, "scenarios", ()):
            steps = list(scenario.steps) + [s for v in scenario.variants for s in v.steps]
            for step in steps:
                roles = {ROLE_OF_WORD.get(unit.lower()) for unit, _ in step.units} - {None}
                targets = [step.at] + ([step.to] if step.to else [])
                if step.kind == "capture":
                    say(step.at, "land", f"scenario {scenario.id!r} captures it")
                elif roles and roles <= _NAVAL_ROLES:
                    for place in targets:
                        say(place, "sea", f"scenario {scenario.id!r} puts only ships there ({', '.join(u for u, _ in step.units)})")
                elif roles & _LAND_ROLES:
                    for place in targets:
                        say(place, "land", f"scenario {scenario.id!r} puts land units there ({', '.join(u for u, _ in step.units)})")
    for ruleset in rulesets:
        for name in rule_names(ruleset).places:
            if name not in kinds:
                # A place the rule text only names: by its words. "Karelia" is land, though the map has a "Karelia Sea Zone".
                kinds[name] = PlaceKind("sea", "only water is named so") if _WATER_WORDS.search(name) else PlaceKind("land", "its name has no word for water")
    return kinds


@attrs.frozen
class KnownPlace:
    """A rule-text place on a map a hand-written profile covers: the evidence ``profile new`` reasons from."""

    rule: str
    map: str
    game_file: str
    name: str  # the game's name there
    water: bool
    neighbours: frozenset[str]
    land_neighbours: frozenset[str] = frozenset()  # plain names: comparable across maps whose sea zones are numbered differently
    owner_alliances: frozenset[str] | None = None  # its owner's alliances there; None: unowned (a neutral)
    board: frozenset[str] = frozenset()  # the plain names of every territory of that map
    production: int = 0  # what it is worth there

    def conflicts(self, board, name: str) -> str | None:
        """Why ``name`` on the new map cannot be this place: it is another territory there, or held by the other side."""
        if _key(name) in self.board and _key(name) != _key(self.name):
            return f"{self.map} has both {self.name!r} and {name!r}"
        owner = board.node(name)["owner"]
        if (owner is None) != (self.owner_alliances is None):
            return (
                f"{name} is {'unowned' if owner is None else 'owned'} here, {self.name} {'unowned' if self.owner_alliances is None else 'owned'} on {self.map}"
            )
        if owner is not None and self.owner_alliances and not (set(board.catalog.players[owner].alliances) & self.owner_alliances):
            return f"{name} is held by another alliance here than {self.name} on {self.map}"
        return None


def known_places(maps_dir: Path | str | None, *, skip_board: frozenset[str] | None = None) -> dict[str, list[KnownPlace]]:
    """Every rule-text place the installed hand-written profiles translate, on each game they pin and the user has.

    ``skip_board``: leave out games whose territories are exactly these (to
    measure matching on a pinned map without its own profile's answers).
    """

    found: dict[str, list[KnownPlace]] = {}
    paths = {p.stem: p for folder in reversed(data_folders("maps")) for p in folder.glob("*.toml")}
    seen_files: set[str] = set()
    for key in sorted(paths):
        try:
            profile = load_profile(paths[key])
        except KremlinError:
            continue
        rule_places: set[str] = set(profile.places)
        own: set[str] = set()  # the names of the profile's own rulesets: only for these is its sea_zone_name right
        for ruleset_id in profile.rulesets:
            try:
                own |= set(rule_names(load_named_ruleset(ruleset_id)).places)
            except KremlinError:
                continue
        rule_places |= own
        for base in profile.games:
            if base.sha256 in seen_files:
                continue
            try:
                game = load(profile.game_key(base), maps_dir=maps_dir)
            except KremlinError:
                continue
            seen_files.add(base.sha256)
            board = game.board
            if skip_board is not None and frozenset(board.nodes) == skip_board:
                continue
            lowered = {n.lower(): n for n in board.nodes}
            plain_board = frozenset(_key(n) for n in board.nodes)
            mapped = {k.lower(): v for k, v in profile.places.items()}
            for rule in sorted(rule_places):
                if rule in profile.absent_places:
                    continue
                name = mapped.get(rule.lower()) or lowered.get(rule.lower()) or (_numbered_in_game(profile, rule) if rule in own else None)
                if name is None or name not in board.nodes:
                    continue
                around = frozenset(board.neighbours(name))
                owner = board.node(name)["owner"]
                found.setdefault(rule.lower(), []).append(
                    KnownPlace(
                        rule,
                        profile.map,
                        base.file,
                        name,
                        board.is_water(name),
                        around,
                        frozenset(_key(n) for n in around if not board.is_water(n)),
                        None if owner is None else frozenset(board.catalog.players[owner].alliances),
                        plain_board,
                        int(board.node(name)["production"] or 0),
                    )
                )
    return found


#: Where the evidence ``profile new`` reasons from ships: the pinned games' facts for every place their
#: hand-written profiles translate, written by scripts/known_places.py (tests check it against the games).
KNOWN_PLACES_FILE = "evidence/known-places.json"


def known_places_json(known: dict[str, list[KnownPlace]], boards: dict[str, frozenset[str]], straits: list[StraitShape] = ()) -> str:
    """``known`` as the shipped evidence file: each pinned game's territories once, then one line per place,
    then one line per strait shape (``strait_shapes``).

    ``boards``: the pinned games' territory names, by map and game file (``pinned_boards``).
    """
    used = {f"{place.map}/{place.game_file}" for places in known.values() for place in places}
    games = [f"{json.dumps(game)}: {json.dumps(sorted(names))}" for game, names in sorted(boards.items()) if game in used]
    lines = ["{", '"games": {', ",\n".join(games), "},", '"places": [']
    rows = []
    for rule in sorted(known):
        for place in known[rule]:
            row = attrs.asdict(place, recurse=False)
            del row["board"]  # the game's, in "games"
            for field in ("neighbours", "land_neighbours", "owner_alliances"):
                row[field] = None if row[field] is None else sorted(row[field])
            rows.append(json.dumps(row, sort_keys=True))
    lines.append(",\n".join(rows))
    lines += ["],", '"straits": [', ",\n".join(json.dumps(attrs.asdict(shape), sort_keys=True) for shape in straits), "]", "}", ""]
    return "\n".join(lines)


@attrs.frozen
class StraitShape:
    """A strait as a hand-written profile gives it on its pinned game: its sides, its boundaries, and the inner
    sea they close (the zone in every boundary whose only ways out they are; None for Gibraltar's one boundary
    between two open seas) with that sea's land neighbours (plain names, comparable across maps)."""

    key: str
    map: str
    land: list[str]
    pairs: int
    inner_land: list[str] | None


def strait_shapes(maps_dir: Path | str | None) -> list[StraitShape]:
    """The shape of every strait with sides in the shipped profiles, on the first pinned game of each."""
    shapes = []
    for profile in _installed_profiles():
        for key, strait in sorted(profile.straits.items()):
            if not strait.land or not profile.games:
                continue
            try:
                board = load(profile.game_key(profile.games[0]), maps_dir=maps_dir).board
            except KremlinError:
                continue
            zones = [set(p) for p in strait.sea_zone_pairs]
            common, every = set.intersection(*zones), set.union(*zones)
            inner = next((z for z in sorted(common) if {n for n in board.neighbours(z) if board.is_water(n)} == every - {z}), None)
            land = None if inner is None else sorted({_key(n) for n in board.neighbours(inner) if not board.is_water(n)})
            shapes.append(StraitShape(key, profile.map, list(strait.land), len(strait.sea_zone_pairs), land))
    return shapes


@functools.cache
def shipped_strait_shapes() -> tuple[StraitShape, ...]:
    for folder in data_folders("maps"):
        path = folder / KNOWN_PLACES_FILE
        if path.is_file():
            data = json.loads(path.read_text(encoding="utf-8"))
            return tuple(StraitShape(**row) for row in data.get("straits", ()))
    return ()


@functools.cache
def _shipped_known_places() -> tuple[tuple[str, KnownPlace, frozenset[str]], ...]:
    for folder in data_folders("maps"):
        path = folder / KNOWN_PLACES_FILE
        if path.is_file():
            break
    else:
        return ()
    data = json.loads(path.read_text(encoding="utf-8"))
    boards = {file: frozenset(names) for file, names in data["games"].items()}
    found = []
    for row in data["places"]:
        names = boards[f"{row['map']}/{row['game_file']}"]
        place = KnownPlace(
            row["rule"],
            row["map"],
            row["game_file"],
            row["name"],
            row["water"],
            frozenset(row["neighbours"]),
            frozenset(row["land_neighbours"]),
            None if row["owner_alliances"] is None else frozenset(row["owner_alliances"]),
            frozenset(_key(n) for n in names),
            row["production"],
        )
        found.append((row["rule"].lower(), place, names))
    return tuple(found)


def shipped_known_places(*, skip_board: frozenset[str] | None = None) -> dict[str, list[KnownPlace]]:
    """The evidence ``profile new`` reasons from, as it ships with the tool: the same whichever maps are installed.

    ``known_places`` read it from the user's maps folder, so a user with the pinned
    maps got other matches than one without them (issue 28: "Australia" became
    Austria without them). ``skip_board`` as for ``known_places``.
    """
    found: dict[str, list[KnownPlace]] = {}
    for rule, place, names in _shipped_known_places():
        if skip_board is None or names != skip_board:
            found.setdefault(rule, []).append(place)
    return found


def pinned_boards(maps_dir: Path | str | None) -> dict[str, frozenset[str]]:
    """The territory names of every game a shipped profile pins and ``maps_dir`` has, by map and game file."""
    boards = {}
    for profile in _installed_profiles():
        for base in profile.games:
            try:
                boards.setdefault(f"{profile.map}/{base.file}", frozenset(load(profile.game_key(base), maps_dir=maps_dir).board.nodes))
            except KremlinError:
                continue
    return boards


@attrs.frozen
class PlaceMatch:
    """The game's territory for a rule-text place (None: left unmatched), with the evidence."""

    rule: str
    name: str | None
    evidence: str
    exact: bool = False


def match_places(game: Game, rulesets: list[Ruleset], known: dict[str, list[KnownPlace]]) -> dict[str, PlaceMatch]:
    """Each rule-text place of the rulesets, matched only to a territory of its own kind (land or sea).

    In order: the same name; the name a hand-written profile gives it on another
    map, if this map has a territory of that name and kind; the territory whose
    neighbours are those it has there; the same words (a sea zone's "Sea Zone"
    aside), when only one territory of its kind has them. Anything else stays
    unmatched: a wrong match would put units in the wrong place.
    """
    board = game.board
    kinds = place_kinds(rulesets)
    names: list[str] = []
    for ruleset in rulesets:
        names += [n for n in rule_names(ruleset).places if n not in names]
    matches = {}
    _AROUND.clear()  # ids of boards are reused once a board is gone
    for rule in names:
        evidence = known.get(rule.lower(), [])
        kind = kinds.get(rule, PlaceKind(None, ""))
        matches[rule] = _match_place(board, rule, kind, evidence)
    _match_by_removed_units(game, rulesets, matches)
    _match_numbered_by_rule_text(game, rulesets, matches)
    return matches


def _match_by_removed_units(game: Game, rulesets: list[Ruleset], matches: dict[str, PlaceMatch]) -> None:
    """An unmatched sea zone a scenario removes units from: the one sea zone beside the scenario's other places that holds them.

    001's 'Japan continues attacks into the Indian Ocean' removes a UK transport
    from the Bay of Bengal beside India: on classic only Indian Ocean Sea Zone
    touches India or Madagascar and holds a British transport.
    """
    board = game.board
    players = list(game.catalog.players)
    taken = {m.name for m in matches.values() if m.name is not None}
    for ruleset in rulesets:
        for scenario in getattr(ruleset, "scenarios", ()):
            land = {matches[p].name for p in scenario.involves if p in matches and matches[p].name and not board.is_water(matches[p].name)}
            for step in scenario.steps:
                match = matches.get(step.at)
                # "remove 1 UK transport" or "UK transport ... is destroyed" (at least one of each type named)
                wanted = step.units if step.kind == "remove" else tuple((t, 1) for t in step.types) if step.kind == "destroy" else ()
                if not wanted or match is None or match.name is not None or not step.power:
                    continue
                if not match.evidence.startswith("no sea zone"):
                    continue  # only a sea zone the rule text says is water, and that nothing else matched
                player = match_power(step.power, players, {})[0]
                units = {}
                for word, count in wanted:
                    unit = next((u for u in game.catalog.unit_types if u.lower() == word.lower()), None) or getattr(match_unit_word(word, game), "unit", None)
                    if unit is None or player is None:
                        units = {}
                        break
                    units[unit] = units.get(unit, 0) + count
                if not units or not land:
                    continue
                beside = sorted({z for t in land for z in board.neighbours(t) if board.is_water(z)} - taken)
                holding = [z for z in beside if all(board.node(z)["units"].get((player, u), 0) >= n for u, n in units.items())]
                if len(holding) == 1:
                    what = ", ".join(f"{n} {player} {u}" for u, n in units.items())
                    matches[step.at] = PlaceMatch(
                        step.at,
                        holding[0],
                        f"scenario {scenario.id!r} {'removes' if step.kind == 'remove' else 'destroys'} {what} there; {holding[0]} is the only sea zone beside {', '.join(sorted(land))} that holds them (and no other rule-text name takes)",
                    )
                    taken.add(holding[0])


#: In :func:`_step_units`' answer: a unit of any type.
ANY_UNIT = "*"


def _holds(units_there, player: str, units: dict[str, int]) -> bool:
    """Whether a territory's units (by (owner, type)) include ``units`` of ``player`` (ANY_UNIT: of any type)."""
    if ANY_UNIT in units:
        return sum(n for (owner, _), n in units_there.items() if owner == player) >= units[ANY_UNIT]
    return all(units_there.get((player, u), 0) >= n for u, n in units.items())


def _step_units(game: Game, step, players: list[str]) -> tuple[str | None, dict[str, int] | None]:
    """The player and the units (game unit type -> at least how many) a step needs where it acts (``step.at``):
    what it removes, destroys or moves away. (None, None) when it needs nothing there or its words name no unit."""
    if step.kind == "remove" or (step.kind == "move" and step.units):
        wanted = step.units
    elif step.kind == "destroy" and step.power:
        wanted = tuple((t, 1) for t in step.types)
    else:
        return None, None
    player = match_power(step.power, players, {})[0] if step.power else None
    if player is None:
        return None, None
    if not wanted:
        return player, {ANY_UNIT: 1}  # "UK naval forces in Seazone 12 are destroyed": some there
    units: dict[str, int] = {}
    for word, count in wanted:
        unit = next((u for u in game.catalog.unit_types if u.lower() == word.lower()), None) or getattr(match_unit_word(word, game), "unit", None)
        if unit is None:
            return None, None
        units[unit] = units.get(unit, 0) + count
    return player, units


def _match_numbered_by_rule_text(game: Game, rulesets: list[Ruleset], matches: dict[str, PlaceMatch]) -> None:
    """A rule text's numbered sea zone ("Seazone 12"), taken as this game's sea zone of that number only when what
    the rule text says around it holds here.

    The numbers are those of the rule text's own map, so the number alone proves nothing, and neither does one
    submarine where the rule text removes one (a World War I map's "Sea Zone 5 Arctic Ocean" holds a German
    submarine too). Taken are sea zones that hold the units a scenario removes, destroys or moves away there, of the
    power named, when the same scenario also confirms itself elsewhere: another of its numbered sea zones holds its
    units as well (000's "Remove one German submarine from each Seazone 5 and 7": AA50's 5 and 7 Sea Zone each
    hold one), or the sea zone touches the land the scenario names (Operation Felix: UK ships in 12 Sea Zone,
    beside Gibraltar). A sea zone the rule text takes nothing from is taken when two or more land places the
    scenario names are matched here and all touch it. Anything else stays unmatched.
    """
    board = game.board
    players = list(game.catalog.players)
    by_number: dict[str, list[str]] = {}
    for name in board.nodes:
        numbers = re.findall(r"\d+", name)
        if board.is_water(name) and len(numbers) == 1:
            by_number.setdefault(str(int(numbers[0])), []).append(name)
    taken = {m.name for m in matches.values() if m.name is not None}
    zone_of: dict[str, str] = {}
    for rule, match in matches.items():
        numbered = NUMBERED_SEA_ZONE.match(rule)
        zones = by_number.get(str(int(numbered.group(1))), []) if numbered and match.name is None else []
        if len(zones) == 1 and zones[0] not in taken:
            zone_of[rule] = zones[0]
    # Per step list of a scenario (an edition's variant is a list of its own): the numbered places whose units are
    # there, those whose units are not, and the matched land it names.
    held: dict[str, list[tuple[str, int, str]]] = {}  # place -> (scenario id, step list, the units found)
    lacking: dict[str, int] = {}
    land_with: dict[str, set[str]] = {}
    held_in: dict[tuple[str, int], set[str]] = {}
    for ruleset in rulesets:
        for scenario in getattr(ruleset, "scenarios", ()):
            lists = [(scenario.steps, scenario.involves)] + [(v.steps, v.involves or scenario.involves) for v in scenario.variants]
            for index, (steps, involves) in enumerate(lists):
                named = set(involves) | {step.at for step in steps} | {step.to for step in steps if step.to}
                land = {matches[p].name for p in named if p in matches and matches[p].name and not board.is_water(matches[p].name)}
                for rule in named & set(zone_of):
                    land_with.setdefault(rule, set()).update(land)
                    for step in steps:
                        player, units = _step_units(game, step, players) if step.at == rule else (None, None)
                        if units is None:
                            continue
                        if _holds(board.node(zone_of[rule])["units"], player, units):
                            what = ", ".join(f"{n} {player} {'unit' if u == ANY_UNIT else u}" for u, n in units.items())
                            held.setdefault(rule, []).append((scenario.id, index, what))
                            held_in.setdefault((scenario.id, index), set()).add(rule)
                        else:
                            lacking[rule] = lacking.get(rule, 0) + 1
    for rule, zone in sorted(zone_of.items()):
        land = sorted(land_with.get(rule, ()))
        touches = bool(land) and all(zone in board.neighbours(t) for t in land)
        if rule in held:
            # An edition's variant may find the units elsewhere (1941's Pearl Harbor fleet is in 44, 1942's in 53):
            # one step list they satisfy is evidence, a step that finds none here is not a contradiction.
            others = sorted({other for scenario_id, index, _ in held[rule] for other in held_in[(scenario_id, index)]} - {rule})
            if others:
                also = f"; so do {', '.join(zone_of[o] for o in others)} for {', '.join(others)} of the same scenario"
            elif touches:
                also = f", and it touches {', '.join(land)}, named with it"
            else:
                continue
            found = "; ".join(sorted({f"{scenario_id!r}: {what}" for scenario_id, _, what in held[rule]}))
            evidence = f"{zone} holds the units the rule text takes from {rule} ({found}){also}"
        elif rule not in lacking and touches and len(land) >= 2:
            evidence = f"{zone} touches {', '.join(land)}, the land the rule text names with {rule}"
        else:
            continue
        matches[rule] = PlaceMatch(rule, zone, f"numbered as in the rule text, and {evidence}")


def _of_kind(board, kind: str | None) -> list[str]:
    return sorted(n for n in board.nodes if kind is None or board.is_water(n) == (kind == "sea"))


def _closest(word: str, spelt: dict[str, str], cutoff: float) -> list[tuple[float, str]]:
    """(similarity, name) of the names whose spelling is at least ``cutoff`` like ``word``, best first."""
    matcher = difflib.SequenceMatcher(None, b=word)
    found = []
    for name, text in spelt.items():
        matcher.set_seq1(text)
        if matcher.real_quick_ratio() >= cutoff and matcher.quick_ratio() >= cutoff and (ratio := matcher.ratio()) >= cutoff:
            found.append((ratio, name))
    return sorted(found, key=lambda c: (-c[0], c[1]))


def _backed(board, name: str, evidence: list[KnownPlace]) -> bool:
    """A name-only match is kept unless a map a profile covers says otherwise.

    Refused when, on any such map, the place is a neutral and the candidate here
    is owned, the candidate is another territory there, or it is held by the
    other side; and when none of those maps shows it with a land neighbour the
    candidate has here.
    """
    land = [k for k in evidence if not k.water and not board.is_water(name)]
    if not land:
        return True
    if any(k.conflicts(board, name) is not None for k in land):
        return False
    around = _land_around(board, name)
    return any(k.land_neighbours & around for k in land) or not any(k.land_neighbours for k in land)


_AROUND: dict[tuple[int, str], frozenset[str]] = {}  # (id of the board, territory) -> its land neighbours' keys, for one match_places


def _land_around(board, name: str) -> frozenset[str]:
    key = (id(board), name)
    if key not in _AROUND:
        _AROUND[key] = frozenset(_key(n) for n in board.neighbours(name) if not board.is_water(n))
    return _AROUND[key]


def _match_place(board, rule: str, kind: PlaceKind, evidence: list[KnownPlace]) -> PlaceMatch:
    parts = [p for p in rule.split("/") if p.strip()]
    apart = [n for p in parts for n in board.nodes if not board.is_water(n) and _key(n) == _key(p)] if len(parts) > 1 else []
    if apart:
        # "Syria/Iraq" is one territory of the rule text's map; this game has its parts apart, and no one of them,
        # nor a third territory another map calls it by, is the whole of it.
        return PlaceMatch(rule, None, f"the rule text joins {' and '.join(parts)}; this game has {', '.join(sorted(apart))} apart")
    match = _first_match(board, rule, kind, evidence)
    if match.name is not None and len(parts) > 1 and _key(match.name) in {_key(p) for p in parts}:
        # "Finland/Norway" is one territory of the rule text's map; here they are apart, and either alone is half of it.
        return PlaceMatch(rule, None, f"the rule text joins {' and '.join(parts)}; {match.name} is only one of them here")
    return _with_worth(board, match, evidence)


def _with_worth(board, match: PlaceMatch, evidence: list[KnownPlace]) -> PlaceMatch:
    """A land match's evidence with what the territory is worth here and on the maps a profile covers, for the
    person reviewing it. Only shown, never decisive: maps value the same place differently (on the 90 corpus games,
    72 of 206 land matches by other words differ in production from the profiled maps, most of them right)."""
    land = sorted({k.production for k in evidence if not k.water})
    if match.name is None or match.exact or board.is_water(match.name) or not land:
        return match
    there = "/".join(map(str, land))
    return attrs.evolve(match, evidence=f"{match.evidence}; worth {int(board.node(match.name)['production'] or 0)} here, {there} on the profiled maps")


def _first_match(board, rule: str, kind: PlaceKind, evidence: list[KnownPlace]) -> PlaceMatch:
    what = {"sea": "sea zone", "land": "land territory", None: "territory"}[kind.kind]
    because = f" ({kind.why})" if kind.why else ""
    candidates = _of_kind(board, kind.kind)
    exact = [n for n in candidates if n.lower() == rule.lower()]
    if exact:
        return PlaceMatch(rule, exact[0], "the same name", exact=True)
    other = [n for n in board.nodes if n.lower() == rule.lower()]
    if other and kind.kind is not None:
        return PlaceMatch(
            rule,
            None,
            f"this game's {other[0]!r} is {'a sea zone' if board.is_water(other[0]) else 'land'}, but the rule text's is {'a sea zone' if kind.kind == 'sea' else 'land'}{because}",
        )
    plain = [n for n in candidates if _plain(n) == _plain(rule)]
    if len(plain) == 1:
        return PlaceMatch(rule, plain[0], f"the same name but for punctuation; a {what}{because}")
    off = _OFF.match(rule)
    if off and kind.kind != "land":
        # Only the one sea zone beside that land is sure; a coast ("East") is not a thing a map records.
        shore = [n for n in board.nodes if not board.is_water(n) and _plain(n) == _plain(off.group(2))]
        zones = sorted(z for z in board.neighbours(shore[0]) if board.is_water(z)) if len(shore) == 1 else []
        if len(zones) == 1 and not off.group(1):
            return PlaceMatch(rule, zones[0], f"the only sea zone touching {shore[0]}")
        where = f"{shore[0]} touches {len(zones)} sea zones ({', '.join(zones)})" if shore else f"no land territory is {off.group(2)!r}"
        return PlaceMatch(rule, None, f"{where}; which one is meant is for a person to say")
    # The name a hand-written profile gives it elsewhere, of the same kind here (a sea zone must share a coast).
    for known_place in evidence:
        same = [n for n in candidates if _key(n) == _key(known_place.name)]
        if len(same) == 1 and (kind.kind is not None or board.is_water(same[0]) == known_place.water):
            shared = known_place.land_neighbours & _land_around(board, same[0])
            if known_place.water and (len(shared) < 2 or len(shared) * 2 < len(known_place.land_neighbours | _land_around(board, same[0]))):
                continue  # a sea zone of the same name elsewhere is this one only if most of its coasts, two at least, agree
            if not known_place.water and known_place.conflicts(board, same[0]) is not None:
                continue  # classic's neutral Columbia (Venezuela) is not the Confederates' Columbia of a Civil War map
            return PlaceMatch(
                rule,
                same[0],
                f"{known_place.map} ({known_place.game_file}) calls it {known_place.name!r}; this game has a {'sea zone' if known_place.water else 'land territory'} of that name, with {len(shared)} of its {len(known_place.land_neighbours)} land neighbours there",
            )
    if kind.kind is None:
        kinds = {k.water for k in evidence}
        if len(kinds) == 1:
            kind = PlaceKind("sea" if kinds.pop() else "land", f"a {'sea zone' if evidence[0].water else 'land territory'} on {evidence[0].map}")
            what, because, candidates = ("sea zone" if kind.kind == "sea" else "land territory"), f" ({kind.why})", _of_kind(board, kind.kind)
    # The territory whose land neighbours are those it has on a map a profile covers.
    best: list[tuple[float, int, str, KnownPlace]] = []
    for known_place in evidence:
        for name in candidates:
            around = _land_around(board, name)
            shared = len(known_place.land_neighbours & around)
            if shared >= 2 and (known_place.water or known_place.conflicts(board, name) is None):
                best.append((shared / len(known_place.land_neighbours | around), shared, name, known_place))
    # A sea zone is known by its coasts only: nearly all of them, three at least, must agree (two coasts, Mexico
    # and West US, make classic's Gulf of Mexico and Revised's Pacific 54 Sea Zone look alike).
    best = [b for b in best if not b[3].water or (b[0] >= 0.7 and b[1] >= 3)]
    best.sort(key=lambda b: (-b[0], b[2]))
    if best and best[0][0] >= 0.5 and all(b[2] == best[0][2] or b[0] < best[0][0] for b in best[1:]):
        score, shared, name, known_place = best[0]
        return PlaceMatch(
            rule,
            name,
            f"on {known_place.map} it is {known_place.name!r}; {name} is the {what} sharing most of its land neighbours ({shared} of {len(known_place.land_neighbours)}: {', '.join(sorted(known_place.land_neighbours & _land_around(board, name))[:6])})",
        )
    words = _tokens(rule)
    pool = candidates if kind.kind is not None else sorted(board.nodes)
    if numbered_sea_zone(rule):
        # A number is the rule text's map's: this map's sea zone of that number may be anywhere.
        return PlaceMatch(rule, None, "a sea zone numbered as on the rule text's map; no map a profile covers shows it with coasts this game has")
    if words:
        # The same words, in one territory of its kind only (or of any kind, when only one has them).
        same = [n for n in pool if _key(n) == _key(rule)]
        if len(same) == 1 and _backed(board, same[0], evidence):
            return PlaceMatch(rule, same[0], f"the same words ({' '.join(words)}); the only {what} so named{because}")
        close = _closest(" ".join(words), {n: " ".join(_tokens(n)) for n in pool if _tokens(n) and not _opposed(rule, n)}, 0.8)
        if close and close[0][0] >= 0.85 and (len(close) == 1 or close[1][0] < close[0][0] - 0.05) and _backed(board, close[0][1], evidence):
            return PlaceMatch(
                rule,
                close[0][1],
                f"spelt almost the same ({close[0][0]:.2f}; next {close[1][0] if len(close) > 1 else 0:.2f}); the only {what} so close{because}",
            )
        wider = [n for n in pool if set(words) < set(_tokens(n))]
        if len(wider) > 1:
            # "Libya" here is Western and Eastern Libya, "South Africa" both South West Africa and the Union of South
            # Africa: the map divides the place, or several places carry its words; which is meant is not for a guess.
            return PlaceMatch(rule, None, f"{', '.join(sorted(wider))} all carry its words; which of them it is (or whether all) is for a person to say")
        # One name is the other with a word that only narrows it down ("South Eire" / "Eire").
        narrowed = [
            n
            for n in pool
            if _tokens(n)
            and set(_tokens(n)) != set(words)
            and (set(_tokens(n)) ^ set(words)) <= _QUALIFIERS
            and (set(_tokens(n)) < set(words) or set(words) < set(_tokens(n)))
        ]
        if len(narrowed) == 1 and kind.kind == "land" and _backed(board, narrowed[0], evidence):
            extra = " ".join(sorted(set(_tokens(narrowed[0])) ^ set(words)))
            return PlaceMatch(rule, narrowed[0], f"the same name but for {extra!r}; the only {what} so named{because}")
        # One name's words inside the other's, backed by a shared land neighbour on a map a profile covers.
        for known_place in evidence:
            inside = [
                n
                for n in candidates
                if _tokens(n)
                and (set(_tokens(n)) < set(words) or set(words) < set(_tokens(n)))
                and known_place.land_neighbours & _land_around(board, n)
                and (known_place.water or known_place.conflicts(board, n) is None)
            ]
            if len(inside) == 1:
                shared = known_place.land_neighbours & _land_around(board, inside[0])
                return PlaceMatch(
                    rule,
                    inside[0],
                    f"its words are part of {inside[0]!r}'s (or these of its), and on {known_place.map} it borders {', '.join(sorted(shared))} as {inside[0]} does here",
                )
    if kind.kind is None:
        return PlaceMatch(rule, None, "the rule text does not say whether it is land or sea, and no territory has its name")
    near = [n for _, n in _closest(_plain(rule), {n: _plain(n) for n in candidates}, 0.6)[:3]] or ["none"]
    return PlaceMatch(
        rule,
        None,
        f"no {what} has its name, or a name or neighbours a hand-written profile gives it{because}; closest by spelling, not taken: {', '.join(near)}",
    )


def match_power(word: str, players: list[str], known: dict[str, str]) -> tuple[str | None, str]:
    """The game's player for a rule-text power, through the names players use (UK -> British)."""
    lowered = {p.lower(): p for p in players}
    if word.lower() in lowered:
        return lowered[word.lower()], "the same name"
    if known.get(word.lower()) in players:
        return known[word.lower()], f"a hand-written profile calls {word} {known[word.lower()]!r}"
    for group in POWER_NAMES:
        if word.lower() in group:
            hits = sorted({lowered[n] for n in group if n in lowered})
            if len(hits) == 1:
                return hits[0], f"{word} and {hits[0]} name the same power"
    return None, f"no player is {word} ({', '.join(players)})"


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _needed(by: tuple[str, ...]) -> str:
    return ", ".join(by[:4]) + (f" and {len(by) - 4} more" if len(by) > 4 else "")


@attrs.frozen
class NewProfile:
    """A drafted profile: its text, and what was matched (for the benchmark and the tests)."""

    text: str
    places: dict[str, PlaceMatch]
    powers: dict[str, str | None]
    units: dict[str, str | None]


def new_profile(game: Game, rulesets: list[Ruleset], *, key: str | None = None, known: dict[str, list[KnownPlace]] | None = None) -> NewProfile:
    """A starting map profile for ``game``: every rule-text name the rulesets use.

    Matches carry their evidence as the place's reason; every guess is marked
    ``# REVIEW`` in a comment (the file reads and passes ``profile check`` as
    written). Names nothing on the map stands for are listed in ``[unmatched]``
    with what needs them.
    """
    board = game.board
    source = Path(game.source)
    map_name = board.properties.get("mapName") or (source.parents[2].name if len(source.parents) > 2 else source.stem)
    players = list(game.catalog.players)
    known = known if known is not None else {}
    need_powers: dict[str, tuple[str, ...]] = {}
    need_units: dict[str, tuple[str, ...]] = {}
    need_places: dict[str, tuple[str, ...]] = {}
    for ruleset in rulesets:
        found = rule_names(ruleset)
        for table, more in ((need_powers, found.powers), (need_units, found.units), (need_places, found.places)):
            for name, by in more.items():
                table[name] = tuple(dict.fromkeys((*table.get(name, ()), *(f"{ruleset.id} {b}" for b in by))))
    unmatched: dict[str, list[str]] = {}
    lines = [
        f"# Map profile for the TripleA map {map_name!r}, started by `kremlin-triplea profile new` from {source.name}.",
        "# Lines marked REVIEW are guesses, each with its evidence: check them against the map, correct them,",
        "# then run `kremlin-triplea profile check` on it and `kremlin-triplea matrix --game GAME --profile` with it.",
        "",
        f"map = {_q(map_name)}",
        f"rulesets = [{', '.join(_q(r.id) for r in rulesets)}]",
        "# The rule texts' numbered sea zones (\"Seazone 12\") are numbered as on their own maps, not this one's:",
        '# each is matched in [places] like any other place. Set a pattern such as "{n} Sea Zone" only if this map',
        f"# numbers its sea zones as the rule text's map does (this game's own pattern: {guess_sea_zone_name(game)!r}).",
        'sea_zone_name = "Seazone {n}"',
        "",
        "[[game]]",
        f"file = {_q(source.name)}",
        f"key = {_q(key or f'{map_name}/{source.name}')}",
        f"name = {_q(game.name)}",
        f"sha256 = {_q(hashlib.sha256(game.document.original).hexdigest())}",
        "differences = []",
        "",
        "[powers]   # rule-text power = the game's player",
    ]
    known_powers: dict[str, str] = {}
    for profile in _installed_profiles():
        known_powers.update({k.lower(): v for k, v in profile.powers.items()})
    power_matches: dict[str, str | None] = {}
    for word, by in need_powers.items():
        player, why = match_power(word, players, known_powers)
        power_matches[word] = player
        if player is None:
            unmatched.setdefault(word, []).append(f"power: {why}; needed by {_needed(by)}")
        elif player.lower() != word.lower():
            lines.append(f"{_q(word)} = {_q(player)}   # {REVIEW}: {why}")
    lines += _sides_lines(game, rulesets, unmatched)
    named = [p for p in players if p in power_matches.values()]
    unit_lines, unit_matches = _unit_lines(game, need_units, named, unmatched)
    lines += unit_lines
    places = match_places(game, rulesets, known)
    _victory_cities(game, rulesets, places)
    lines += ["", "[places]   # rule-text territory or sea zone = the game's, only of the same kind"]
    reasons = []
    for rule, match in places.items():
        if match.name is None:
            unmatched.setdefault(rule, []).append(f"place: {match.evidence}; needed by {_needed(need_places[rule])}")
        elif not match.exact:
            lines.append(f"{_q(rule)} = {_q(match.name)}   # {REVIEW}")
            reasons.append(f"{_q(rule)} = {_q(match.evidence)}")
    lines += ["", "[place_reasons]   # the evidence for each match: replace it with your reason once checked", *reasons, ""]
    land_of = {rule: m.name for rule, m in places.items() if m.name is not None and not board.is_water(m.name)}
    coasts: dict[str, list[str]] = {}
    for ruleset in rulesets:
        for neutral in ruleset.neutrals.values():
            navy = [u for u, _ in neutral.army if ROLE_OF_WORD.get(u.lower()) in _NAVAL_ROLES]
            territory = land_of.get(neutral.name)
            if navy and territory is not None and neutral.name not in coasts:
                zones = sorted(n for n in board.neighbours(territory) if board.is_water(n))
                if zones:
                    coasts[neutral.name] = zones
    lines.append("[neutral_coasts]   # where a neutral's ships may go first: the sea zones it borders")
    lines += [f"{_q(name)} = [{', '.join(_q(z) for z in zones)}]   # {REVIEW}" for name, zones in coasts.items()]
    lines.append("")
    entered: dict[str, list[str]] = {}
    for ruleset in rulesets:
        for restriction in ruleset.restrictions.values():
            player = power_matches.get(restriction.power) or match_power(restriction.power, players, known_powers)[0]
            if restriction.takeover_only_where_may_enter and player is not None and player not in entered:
                entered[player] = _movement_restriction(game, player)
    lines.append("[powers_may_enter]   # the game's movementRestrictionTerritories of each restricted power")
    lines += [f"{_q(player)} = [{', '.join(_q(t) for t in listed)}]   # {REVIEW}" for player, listed in entered.items()]
    lines.append("")
    lines += _strait_lines(game, rulesets, places, unmatched)
    lines += _step_position_lines(game, rulesets, unmatched)
    ww2v3 = board.properties.get("WW2V3", "").lower() == "true"
    lines += [
        "[factory_output]",
        f"enforced_by_game = {'true' if ww2v3 else 'false'}   # {REVIEW}",
        "reason = "
        + _q(
            "the game sets WW2V3, under which TripleA limits a factory to its territory production"
            if ww2v3
            else "the game does not set WW2V3: TripleA does not limit a new factory to its territory production"
        ),
        "",
        "[unmatched]   # rule-text names nothing on this map stands for: what needs them is not available here",
        *(f"{_q(name)} = {_q('; '.join(why))}" for name, why in unmatched.items()),
        "",
    ]
    return NewProfile("\n".join(lines), places, power_matches, unit_matches)


def match_side(side: str, alliances: list[str]) -> tuple[list[str], str]:
    """The game's alliances a rule-text side stands for, with why: those carrying its name as a word
    ("Axis-Germany", "Axis-Japan" for the Axis), when no alliance has its very name."""
    if side in alliances:
        return [side], "the same name"
    carrying = [a for a in alliances if side.lower() in re.split(r"[^a-z0-9]+", a.lower())]
    if carrying:
        return carrying, f"the game's alliances carrying the word {side!r}"
    return [], f"no alliance of the game is named {side!r} or carries that word (its alliances: {', '.join(alliances) or 'none'})"


def _sides_lines(game: Game, rulesets: list[Ruleset], unmatched: dict[str, list[str]]) -> list[str]:
    """``[sides]``: each rule-text side the game's alliances name otherwise; a side none stands for is unmatched."""
    alliances = game.catalog.alliances()
    lines = []
    for side in dict.fromkeys(s for r in rulesets for s in getattr(r, "sides", ())):
        found, why = match_side(side, alliances)
        if not found:
            unmatched.setdefault(side, []).append(f"side: {why}")
        elif found != [side]:
            lines.append(f"{_q(side)} = [{', '.join(_q(a) for a in found)}]   # {REVIEW}: {why}")
    return ["", "[sides]   # rule-text side = the game's alliances, where the game names them otherwise", *lines] if lines else []


def _unit_lines(
    game: Game, need_units: dict[str, tuple[str, ...]], players: list[str], unmatched: dict[str, list[str]]
) -> tuple[list[str], dict[str, str | None]]:
    """``[units]`` (each rule-text unit word by its role) and ``[units_by_power.*]`` for ``players``, and the
    unit each word stands for every power (None: unmatched, with why)."""
    lines = ["", "[units]   # rule-text unit = the game's unit type (matched by its TripleA role)"]
    facts = unit_facts(game)
    unit_types = {u.lower(): u for u in game.catalog.unit_types}
    unit_matches: dict[str, str | None] = {}
    for word, by in need_units.items():
        if word.lower() in unit_types:
            unit_matches[word] = unit_types[word.lower()]
            continue
        match = match_unit_word(word, game, facts)
        if match is None or match.unit is None:
            unit_matches[word] = None
            why = match.reason if match is not None else "not a unit word the roles know"
            unmatched.setdefault(word, []).append(f"unit: {why}; needed by {_needed(by)}")
        else:
            unit_matches[word] = match.unit
            lines.append(f"{_q(word)} = {_q(match.unit)}   # {REVIEW}: {match.reason}")
    return lines + _units_by_power_lines(game, unit_matches, players, facts), unit_matches


def _units_by_power_lines(game: Game, unit_matches: dict[str, str | None], players: list[str], facts: list[UnitFacts]) -> list[str]:
    """``[units_by_power.<player>]`` tables: each power's own unit where the unit for every power is not its.

    Only for ``players``, those the rule text's powers are: no rule gives units to another.
    """
    lines: list[str] = []
    by_player: dict[str, list[PowerUnit]] = {}
    for own in units_per_power(game, unit_matches, players, facts):
        by_player.setdefault(own.power, []).append(own)
    for player, owns in by_player.items():
        lines += ["", f"[units_by_power.{_q(player)}]   # {player}'s own unit types: it cannot have the unit [units] gives every power"]
        for own in owns:
            if own.unit is None:
                lines.append(f"# {_q(own.word)}: none; {own.reason} (a rule giving {player} one gives it the unit for every power)")
            else:
                lines.append(f"{_q(own.word)} = {_q(own.unit)}   # {REVIEW}: {own.reason}")
    return lines


def new_profile_text(game: Game, rulesets: list[Ruleset], *, key: str | None = None, known: dict[str, list[KnownPlace]] | None = None) -> str:
    return new_profile(game, rulesets, key=key, known=known).text


def _victory_cities(game: Game, rulesets: list[Ruleset], places: dict[str, PlaceMatch]) -> None:
    """A victory city a game rule moves ("Ottawa") must be one here: the match, else the one victory city of its
    owner among its land neighbours, else none (the rule cannot be written into this game)."""
    board = game.board
    for ruleset in rulesets:
        for rule in getattr(ruleset, "game_rules", ()):
            for change in rule.changes:
                name = change.data.get("from") if change.data.get("kind") == "victory_city" else None
                match = places.get(name) if isinstance(name, str) else None
                if match is None or match.name is None or board.node(match.name)["victory_city"]:
                    continue
                owner = board.node(match.name)["owner"]
                beside = [
                    n for n in board.neighbours(match.name) if not board.is_water(n) and board.node(n)["victory_city"] and board.node(n)["owner"] == owner
                ]
                if len(beside) == 1:
                    why = f"{match.name} ({match.evidence}) is not a victory city here; {beside[0]}, beside it and held by {owner}, is the one"
                    places[name] = PlaceMatch(name, beside[0], f"game rule {rule.id!r} moves the victory city of {name}: {why}")
                else:
                    held = f"{len(beside)} of {owner}'s victory cities border it" if beside else f"no victory city of {owner} borders it"
                    places[name] = PlaceMatch(
                        name, None, f"game rule {rule.id!r} moves the victory city of {name}, and {match.name} ({match.evidence}) is not one here; {held}"
                    )


#: The delegates of the steps a game runs once before the first power's turn (TripleA's set-up and bids).
_BEFORE_TURNS = ("initDelegate", "bid", "placeBid")


def _step_position_lines(game: Game, rulesets: list[Ruleset], unmatched: dict[str, list[str]]) -> list[str]:
    """``[turn_step_positions.<position>]`` for each position the rulesets' game rules put a step at.

    Only ``before_first_turn`` is known: after the last of the steps the game
    runs before anyone's turn (its set-up and bids), as on the pinned maps.
    """
    positions = {}
    for ruleset in rulesets:
        for rule in getattr(ruleset, "game_rules", ()):
            for change in rule.changes:
                if change.data.get("kind") == "turn_step" and isinstance(change.data.get("position"), str):
                    positions.setdefault(change.data["position"], f"{ruleset.id} game rule {rule.id!r}")
    steps = list(game.xml.steps())
    leading = []
    for step in steps:
        if step.get("delegate") not in _BEFORE_TURNS:
            break
        leading.append(step.get("name", ""))
    lines: list[str] = []
    for position, by in positions.items():
        if position != "before_first_turn" or not leading or len(leading) == len(steps):
            unmatched.setdefault(f"turn_step_positions.{position}", []).append(
                f"turn step position: the game runs no set-up or bid step before the first turn to follow; needed by {by}"
                if position == "before_first_turn"
                else f"turn step position: not one profile new knows; needed by {by}"
            )
            continue
        first = next(s for s in steps[len(leading) :])
        lines += [
            "",
            f"[turn_step_positions.{_q(position)}]",
            f"after = {_q(leading[-1])}   # {REVIEW}",
            "reason = "
            + _q(
                f"the game runs {', '.join(leading[:3])}{', ...' if len(leading) > 3 else ''} ({' / '.join(dict.fromkeys(s.get('delegate', '') for s in steps[: len(leading)]))} steps) "
                f"before the first turn's {first.get('name', '')}: a step placed after {leading[-1]} runs before anyone moves"
            ),
        ]
    return [*lines, ""] if lines else []


def _strait_lines(game: Game, rulesets: list[Ruleset], places: dict[str, PlaceMatch], unmatched: dict[str, list[str]]) -> list[str]:
    """``[straits.<key>]`` for each strait the rulesets' game rules need, drawn from the map's own geometry.

    A strait's sides are the land its hand-written profiles give it, found here
    through this profile's own place matches; its boundaries are the sea-zone
    pairs beside all of that land, shaped as there: one boundary, or every way
    out of an inner sea. A strait not found so is listed in ``[unmatched]``.
    """
    lines: list[str] = []
    for ruleset in rulesets:
        for key, rule in straits_needed(ruleset).items():
            if any(line.startswith(f"[straits.{_q(key)}]") for line in lines):
                continue
            found, why = _strait_here(game, key, places)
            if found is None:
                unmatched.setdefault(f"straits.{key}", []).append(f"strait: {why}; needed by {ruleset.id} game rule {rule}")
                continue
            pairs, land = found
            lines += [
                "",
                f"[straits.{_q(key)}]",
                f"sea_zones = [{', '.join(f'[{_q(a)}, {_q(b)}]' for a, b in pairs)}]   # {REVIEW}",
                f"reason = {_q(why)}",
                f"land = [{', '.join(_q(t) for t in land)}]   # {REVIEW}",
                f"land_reason = {_q('the sides the hand-written profiles give the strait, matched on this map as [places] says')}",
            ]
    return [*lines, ""] if lines else []


def _strait_here(game: Game, key: str, places: dict[str, PlaceMatch]) -> tuple[tuple[list[tuple[str, str]], list[str]] | None, str]:
    board = game.board
    tried = []
    profiles = {p.map: p for p in _installed_profiles()}
    for shape in shipped_strait_shapes():
        if shape.key != key or shape.map not in profiles:
            continue
        profile = profiles[shape.map]
        land = []
        for side in shape.land:
            rules = [r for r, g in profile.places.items() if g == side] + [side]
            here = next((places[r].name for r in rules if r in places and places[r].name is not None), None)
            if here is None:  # a side no rule text names (AA50's Morocco Algeria): the same words here, once
                same = [t for t in board.nodes if not board.is_water(t) and _key(t) == _key(side)]
                here = same[0] if len(same) == 1 else None
            if here is None or board.is_water(here):
                tried.append(f"{shape.map}'s side {side} has no match here")
                break
            land.append(here)
        else:
            pairs, how = _boundaries_beside(board, land, shape)
            if pairs:
                return (pairs, land), f"the sea-zone boundaries beside {', '.join(land)}: {how}, as the strait is on {shape.map}"
            tried.append(f"beside {', '.join(land)}: {how}")
    return None, "; ".join(tried) or f"no hand-written profile gives the strait {key!r} its sides"


def _boundaries_beside(board, land: list[str], shape: StraitShape) -> tuple[list[tuple[str, str]], str]:
    """The boundaries of a strait beside ``land``, shaped as ``shape``: every way out of the inner sea whose coasts
    are most those of the inner sea there (the Black Sea has one way out on one map, two on another), or the
    one boundary between two seas both beside all the land. With why, or why not."""
    touching = [z for z in board.nodes if board.is_water(z) and all(t in board.neighbours(z) for t in land)]
    if shape.inner_land is None:
        pairs = sorted({tuple(sorted((a, b))) for a in touching for b in board.neighbours(a) if b in touching and board.is_water(b)})
        if len(pairs) == 1:
            return pairs, "the one boundary between two sea zones both beside all of it"
        return [], f"{len(pairs)} boundaries between sea zones both beside all of it; which is the strait is for a person to say"
    there = set(shape.inner_land)
    scored = []
    for zone in touching:
        coast = {_key(n) for n in board.neighbours(zone) if not board.is_water(n)}
        scored.append((len(coast & there) / len(coast | there), zone))
    scored.sort(key=lambda s: (-s[0], s[1]))
    if not scored or scored[0][0] < 0.5 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return [], f"no one sea zone here has most of the inner sea's coasts ({', '.join(sorted(there))})"
    inner = scored[0][1]
    ways = [tuple(sorted((b, inner))) for b in sorted(board.neighbours(inner)) if board.is_water(b)]
    return ways, f"every way out of {inner}, the sea zone with most of the inner sea's coasts ({', '.join(sorted(there))})"


def straits_needed(ruleset: Ruleset) -> dict[str, str]:
    """The straits a ruleset's game rules need from a profile (``[straits.<key>]``), each with the rule that needs it."""
    needed = {}
    for rule in ruleset.game_rules:
        for change in rule.changes:
            if change.data.get("kind") == "canal" and "strait" in change.data:
                needed.setdefault(str(change.data["strait"]), f"{rule.id} ({rule.source})")
    return needed


def lacking_text(profile: Profile, report, rulesets: list[Ruleset], label: str) -> str:
    """Comment lines: per ruleset, what the map lacks and what is therefore not available, in the matrix's own words.

    ``report`` is a matrix report of the game with the profile (``run_matrix``):
    its not-applicable cells, its failures and its notes are copied as they are.
    """
    lines = [
        "",
        "# What the map lacks, per ruleset, and what is therefore not available, as",
        f"# `kremlin-triplea matrix --game GAME --profile` reports it for {label}:",
    ]
    missing = profile.unmatched
    for ruleset in rulesets:
        lines.append("#")
        lines.append(f"# {ruleset.id}:")
        names = rule_names(ruleset)
        for kind, table in (("power", names.powers), ("unit", names.units), ("place", names.places)):
            lacking = [n for n in table if f"{kind}: " in missing.get(n, "")]
            if lacking:
                lines.append(f"#   no {kind} for: {', '.join(lacking)}")
        neutrals = [n.name for n in ruleset.neutrals.values() if "place: " in missing.get(n.name, "")]
        if neutrals:
            lines.append(f"#   neutrals not on this map: {', '.join(neutrals)}")
        for key, rule in straits_needed(ruleset).items():
            if key not in profile.straits:
                lines.append(f"#   no strait {key!r} ([straits.{key}]): the game rule {rule} cannot be written into this game")
        for note in report.notes.get(label, []):
            if note.startswith(f"{ruleset.id}: "):
                lines.append(f"#   note: {note[len(ruleset.id) + 2 :]}")
        for (ruleset_id, row, game), cell in report.cells.items():
            if ruleset_id == ruleset.id and game == label and cell.status != "applied" and (cell.errors or cell.reasons):
                why = "; ".join(cell.errors or cell.reasons)
                lines.append(f"#   {row}: {'FAILS' if cell.errors else 'not available'}: {why}")
    return "\n".join(lines) + "\n"


def _installed_profiles() -> list[Profile]:

    paths = {p.stem: p for folder in reversed(data_folders("maps")) for p in folder.glob("*.toml")}
    found = []
    for key in sorted(paths):
        try:
            found.append(load_profile(paths[key]))
        except KremlinError:
            continue
    return found


def _movement_restriction(game: Game, player: str) -> list[str]:
    for attachment in game.xml.attachments(attach_to=player, name="rulesAttachment"):
        for option in attachment.iterchildren("option"):
            if option.get("name") == "movementRestrictionTerritories":
                return [t for t in option.get("value", "").split(":") if t]
    return []


# -- profile check -------------------------------------------------------------------


def check_profile(path: Path | str, maps_dir: Path | str | None = None) -> list[str]:
    """Problems with a map profile: names its games lack or of the wrong kind, changed files, entries without reasons.

    Names in ``[unmatched]`` are accepted: the profile says the map has nothing
    for them (what needs them is then not available). ``# REVIEW`` comments are
    not problems (see :func:`review_marks`); a reason still saying REVIEW is.
    """
    profile = load_profile(path)
    where = str(path)
    problems: list[str] = []
    rulesets = []
    for ruleset_id in profile.rulesets:
        try:
            rulesets.append(_load_rules(ruleset_id))
        except KremlinError as error:
            problems.append(f"{where}: rulesets: {error}")
    if not profile.games:
        problems.append(f"{where}: no [[game]] pinned")
    for rule, reason in profile.place_reasons.items():
        if REVIEW in reason:
            problems.append(f"{where}: place_reasons.{rule}: still marked {REVIEW}")
    if REVIEW in profile.factory_output_reason:
        problems.append(f"{where}: factory_output.reason: still marked {REVIEW}")
    for rule, game_name in profile.places.items():
        if rule.lower() != game_name.lower() and rule not in profile.place_reasons:
            problems.append(f"{where}: places.{rule} = {game_name!r} has no reason in [place_reasons]")
    for base in profile.games:
        try:
            game = load(profile.game_key(base), maps_dir=maps_dir)
        except KremlinError as error:
            problems.append(f"{where}: game {base.key}: {error}")
            continue
        digest = hashlib.sha256(game.document.original).hexdigest()
        if digest != base.sha256:
            problems.append(f"{where}: game {base.key}: sha256 is {digest}, the profile pins {base.sha256}")
        problems += [f"{where}: game {base.key}: {p}" for p in _missing_names(profile, game, rulesets)]
        problems += [f"{where}: game {base.key}: {p}" for p in unit_problems(profile, game, rulesets)]
    return problems


def unit_problems(profile: Profile, game: Game, rulesets: list) -> list[str]:
    """Unit mappings that do not play their word's role, or that a power is given but cannot have (issue 28).

    A factory must produce, a bomber bomb strategically... (:data:`ROLES`); a
    ``[units_by_power]`` entry must be a unit its power can have; and a power the
    rule text names must not be given another power's own unit through ``[units]``.
    """
    facts = unit_facts(game)
    types = set(game.catalog.unit_types)
    players = {p.lower(): p for p in game.catalog.players}
    problems = []

    def wrong_role(table: str, word: str, unit: str) -> None:
        role = role_of(word)
        if role is not None and unit in types and not plays_role(role, unit, facts):
            problems.append(f"{table}.{word} = {unit!r}: {unit} does not play the {role} role: it is not {ROLES[role].described}")

    for word, unit in profile.units.items():
        wrong_role("units", word, unit)
    can_have = {p: units_of_power(game.board, p) for p in game.catalog.players}
    for power, units in profile.units_by_power.items():
        player = players.get(power.lower()) or players.get({k.lower(): v for k, v in profile.powers.items()}.get(power.lower(), "").lower())
        for word, unit in units.items():
            wrong_role(f"units_by_power.{power}", word, unit)
            if player is not None and can_have[player] and unit in types and unit not in can_have[player]:
                problems.append(
                    f"units_by_power.{power}.{word} = {unit!r}: {player} cannot have {unit} (neither its production frontier nor its set-up has it)"
                )
    problems += _others_units(profile, game, rulesets, facts)
    return problems


def _others_units(profile: Profile, game: Game, rulesets: list, facts: list[UnitFacts]) -> list[str]:
    """A power the rule text names, given through ``[units]`` a unit it cannot have, where it has one of its own.

    A power with no unit of the role at all is not a mapping to correct: a rule
    giving it one fails by name when applied (``profile new`` notes it).
    """
    players = {p.lower(): p for p in game.catalog.players}
    types = {u.lower(): u for u in game.catalog.unit_types}
    mapped_powers = {k.lower(): v for k, v in profile.powers.items()}
    general: dict[str, str | None] = {}
    powers: dict[str, None] = {}
    for ruleset in rulesets:
        if isinstance(ruleset, Ruleset):
            needed = rule_names(ruleset)
            general.update({w: None for w in needed.units})
            powers.update(dict.fromkeys(needed.powers))
    units = {k.lower(): v for k, v in profile.units.items()}
    general = {w: units.get(w.lower()) or types.get(w.lower()) for w in [*general, *profile.units]}
    named = [p for p in (players.get(mapped_powers.get(w.lower(), w).lower()) for w in powers) if p is not None]
    own = {}
    for power, table in profile.units_by_power.items():
        player = players.get(power.lower()) or players.get(mapped_powers.get(power.lower(), "").lower())
        own.setdefault(player, set()).update(w.lower() for w in table)
    return [
        f"units.{found.word} = {general[found.word]!r}: {found.reason}; name {found.power}'s own in [units_by_power.{_q(found.power)}]"
        for found in units_per_power(game, general, list(dict.fromkeys(named)), facts)
        if found.unit is not None and found.word.lower() not in own.get(found.power, set())
    ]


def review_marks(path: Path | str) -> list[int]:
    """The lines of a profile file still carrying a ``# REVIEW`` comment: guesses nobody has confirmed yet."""
    return [n for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1) if re.search(r"#.*\bREVIEW\b", line)]


def _load_rules(ruleset_id: str):
    """A Kremlin ruleset, or a house-rule set (a file of ``[[rule]]``s) read as one."""

    path = find_data_file("rulesets", ruleset_id)
    if "rule" in read_toml(path):
        return load_house_set(path)
    return load_ruleset(path)


def _missing_names(profile: Profile, game: Game, rulesets: list[Ruleset]) -> list[str]:
    board = game.board
    players = set(game.catalog.players)
    unit_types = set(game.catalog.unit_types)
    land = {t for t, d in board.nodes.items() if not d["water"]}
    sea = set(board.nodes) - land
    problems = profile.names_missing_on(game)
    unmatched = {k.lower() for k in profile.unmatched}
    lowered = {
        "powers": {n.lower() for n in players} | {k.lower() for k in profile.powers} | unmatched,
        "units": {n.lower() for n in unit_types} | {k.lower() for k in profile.units} | unmatched,
        # Scenario places may be sea zones ("Drake Passage" = "South Argentina Sea Zone").
        "places": {n.lower() for n in land | sea}
        | {k.lower() for k in profile.places if profile.places[k] in land | sea}
        # [absent_places]: places the rule text names that the map does not have, each with its reason
        | {k.lower() for k in profile.absent_places}
        | unmatched,
    }
    kinds = place_kinds([r for r in rulesets if isinstance(r, Ruleset)])
    mapped = {k.lower(): v for k, v in profile.places.items()}
    for ruleset in rulesets:
        if not isinstance(ruleset, Ruleset):  # a house-rule set: the powers it gives advantages to
            for power in ruleset.powers:
                if power.lower() not in lowered["powers"]:
                    problems.append(f"house-rule set {ruleset.id} names the power {power!r} (its advantages): neither the game nor [powers] has it")
            continue
        needed = rule_names(ruleset)
        for key, rule in straits_needed(ruleset).items():
            if key not in profile.straits and f"straits.{key}" not in profile.unmatched:
                problems.append(f"ruleset {ruleset.id}'s game rule {rule} closes the strait {key!r}: neither [straits.{key}] nor [unmatched] has it")
        alliances = set(game.catalog.alliances())
        for side in ruleset.sides:
            if side not in alliances and side not in profile.sides and side.lower() not in unmatched:
                problems.append(f"ruleset {ruleset.id} names the side {side!r}: the game has no alliance of that name, and [sides] does not say which")
        for kind, table in (("powers", needed.powers), ("units", needed.units), ("places", needed.places)):
            for word, by in table.items():
                numbered = _numbered_in_game(profile, word) if kind == "places" else None
                if numbered is not None and numbered.lower() in lowered[kind]:
                    continue
                if word.lower() not in lowered[kind]:
                    problems.append(f"ruleset {ruleset.id} names the {kind[:-1]} {word!r} ({', '.join(by)}): neither the game nor [{kind}] has it")
        for word in needed.places:
            name = mapped.get(word.lower()) or {n.lower(): n for n in land | sea}.get(word.lower())
            numbered = _numbered_in_game(profile, word)
            if name is None and numbered is not None:
                name = mapped.get(numbered.lower()) or {n.lower(): n for n in land | sea}.get(numbered.lower())
            kind = kinds.get(word)
            if word.lower() in unmatched:
                continue  # the profile says the map has nothing for it (a same-named territory of the other kind)
            if name is not None and kind is not None and kind.kind is not None and (name in sea) != (kind.kind == "sea"):
                problems.append(
                    f"places.{word} = {name!r}: a {'sea zone' if name in sea else 'land territory'}, but {word} is {'a sea zone' if kind.kind == 'sea' else 'land'} ({kind.why})"
                )
    return problems


# -- a game without a profile ----------------------------------------------------------


def options_needing_profile(game: Game, ruleset: Ruleset) -> list[str]:
    """The options and scenarios of ``ruleset`` that name powers, units or places ``game`` has under no such name.

    Without a profile those names cannot be translated: each line says what
    needs which names.
    """
    names = rule_names(ruleset)
    players = {p.lower() for p in game.catalog.players}
    units = {u.lower() for u in game.catalog.unit_types}
    places = {t.lower() for t in game.board.nodes}
    lacking: dict[str, list[str]] = {}
    for known, table in ((players, names.powers), (units, names.units), (places, names.places)):
        for word, by in table.items():
            if word.lower() not in known:
                for user in by:
                    lacking.setdefault(user, []).append(word)
    return [f"{user} needs {', '.join(words)}" for user, words in sorted(lacking.items())]

"""Profile new's matching: each rule-text place, power and side to the game's best match, with why.

A place is matched by the evidence of the shipped profiles first (the same territory on another map, with the same
neighbours), then by its name; numbered sea zones by the units the rule text takes from them.
"""

from __future__ import annotations

import re

import attrs

from kremlin_triplea.game import Game
from kremlin_triplea.rules.names import NUMBERED_SEA_ZONE
from kremlin_triplea.rules.roles import ROLE_OF_WORD, match_unit_word
from kremlin_triplea.rules.ruleset import Ruleset
from kremlin_triplea.tools.place_evidence import KnownPlace
from kremlin_triplea.tools.place_words import carries_word, letters_only, place_key, place_tokens, plain_words
from kremlin_triplea.tools.rule_names import neutral_armies, numbered_sea_zone, rule_names
from kremlin_triplea.tools.territory_index import DIRECTIONS, TerritoryIndex, closest

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


#: The unit roles that move at sea: a rule-text place holding them is a sea zone.
NAVAL_ROLES = {"transport", "submarine", "destroyer", "cruiser", "carrier", "battleship"}


_LAND_ROLES = {"infantry", "artillery", "armour", "factory", "aa"}


# Words that only a body of water is named with ("Drake Passage", "off Wake Island", "Hawaii Seazone").
_WATER_WORDS = re.compile(r"\b(sea|seas|seazone|ocean|passage|gulf|bay|channel|straits?|fleet|off|sz|mediterranean|atlantic|pacific|harbou?r)\b", re.IGNORECASE)


# "off Wake Island", "off the coast of French West Africa": the sea zone beside a land territory.
_OFF = re.compile(r"^\s*off\s+(?:the\s+)?(?:((?:north|south|east|west)(?:ern)?)\s+coast\s+of\s+|coast\s+of\s+)?(.+?)\s*$", re.IGNORECASE)


# Words that only narrow a place down: "South Eire" is the game's "Eire", "Italian East Africa" its "Italian Africa".
_COMPASS = {"north", "south", "east", "west", "central"}
_QUALIFIERS = {*_COMPASS, "french", "british", "italian", "german", "japanese", "american", "soviet", "anglo"}


def _opposed(a: frozenset[str], b: frozenset[str]) -> bool:
    """Names whose directions (:data:`DIRECTIONS` among their words) differ: "East Indies" is not "West Indies", however
    alike they are spelt."""
    return bool(a and b and a != b)


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
        for neutral, _ in neutral_armies(ruleset):
            say(neutral, "land", f"{ruleset.id} lists it as a neutral")
        for option in getattr(ruleset, "options", ()):
            for _, unit, place in getattr(option.params, "exclude", ()):
                if ROLE_OF_WORD.get(unit.lower()) in NAVAL_ROLES:
                    say(place, "sea", f"{ruleset.id} option {option.number} keeps a {unit} out of it")
        for restriction in getattr(ruleset, "restrictions", {}).values():
            for place in restriction.may_also_enter:
                say(place, "land", f"{ruleset.id}: the {restriction.power} may enter it")
        for scenario in getattr(ruleset, "scenarios", ()):
            steps = list(scenario.steps) + [s for v in scenario.variants for s in v.steps]
            for step in steps:
                roles = {ROLE_OF_WORD.get(unit.lower()) for unit, _ in step.units} - {None}
                targets = [step.at] + ([step.to] if step.to else [])
                if step.kind == "capture":
                    say(step.at, "land", f"scenario {scenario.id!r} captures it")
                elif roles and roles <= NAVAL_ROLES:
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
    board = TerritoryIndex(game.board)
    kinds = place_kinds(rulesets)
    names: list[str] = []
    for ruleset in rulesets:
        names += [n for n in rule_names(ruleset).places if n not in names]
    matches = {}
    same = _same_board(game, known)
    for rule in names:
        evidence = known.get(rule.lower(), [])
        kind = kinds.get(rule, PlaceKind(None, ""))
        there = next((k for k in evidence if (k.map, k.game_file) == same), None) if same else None
        if there is not None:
            matches[rule] = PlaceMatch(
                rule,
                there.name,
                f"this board is that of {there.map} ({there.game_file}): the same territories, and the same connections around every place "
                f"its hand-written profile names; that profile calls it {there.name!r}",
                exact=there.name == rule,
            )
            continue
        matches[rule] = _match_place(board, rule, kind, evidence)
    _match_by_removed_units(game, rulesets, matches)
    _match_numbered_by_rule_text(game, rulesets, matches)
    return matches


def _same_board(game: Game, known: dict[str, list[KnownPlace]]) -> tuple[str, str] | None:
    """The pinned game (map, file) whose board this one is: the same territories (by their words), and each place
    its hand-written profile names here by the same name, of the same kind, with the same neighbours. Its
    profile's places are then this board's too; found by the evidence, it says nothing of the game's set-up."""
    keys = frozenset(place_key(n) for n in game.board.nodes)
    boards: dict[tuple[str, str], list[KnownPlace]] = {}
    for places in known.values():
        for place in places:
            if place.board == keys:
                boards.setdefault((place.map, place.game_file), []).append(place)
    board = game.board
    for pinned, places in sorted(boards.items()):
        if all(p.name in board.nodes and board.is_water(p.name) == p.water and frozenset(board.neighbours(p.name)) == p.neighbours for p in places):
            return pinned
    return None


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
    around = board.land_around(name)
    return any(k.land_neighbours & around for k in land) or not any(k.land_neighbours for k in land)


def _match_place(board, rule: str, kind: PlaceKind, evidence: list[KnownPlace]) -> PlaceMatch:
    parts = [p for p in rule.split("/") if p.strip()]
    apart = [n for p in parts for n in board.named("key", place_key(p), "land", board_order=True)] if len(parts) > 1 else []
    if apart:
        # "Syria/Iraq" is one territory of the rule text's map; this game has its parts apart, and no one of them,
        # nor a third territory another map calls it by, is the whole of it.
        return PlaceMatch(rule, None, f"the rule text joins {' and '.join(parts)}; this game has {', '.join(sorted(apart))} apart")
    match = _first_match(board, rule, kind, evidence)
    if match.name is not None and len(parts) > 1 and place_key(match.name) in {place_key(p) for p in parts}:
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
    """The game's territory for a rule-text place, by the surest evidence first: its own name, the one sea zone off a
    named coast, the name a hand-written profile gives it elsewhere, the land neighbours it has elsewhere, its words.
    Each step returns its match (or why there is none) when it decides, else None for the next step."""
    for step in (_by_name, _off_coast, _by_known_name):
        found = step(board, rule, kind, evidence)
        if found is not None:
            return found
    if kind.kind is None and len({k.water for k in evidence}) == 1:
        # The rule text does not say, but every map a profile covers has it of one kind.
        water = evidence[0].water
        kind = PlaceKind("sea" if water else "land", f"a {'sea zone' if water else 'land territory'} on {evidence[0].map}")
    for step in (_by_neighbours, _by_words):
        found = step(board, rule, kind, evidence)
        if found is not None:
            return found
    return _unmatched(board, rule, kind, evidence)


def _nation_kept(board, name: str, dropped: frozenset[str]) -> bool:
    """Whether a name that lacks the rule text's words ``dropped`` may still be the place: not when one of them is a
    nation's ("Italian East Africa" is not the British "East Africa", issue 46). Who holds it proves nothing either
    way (Italian East Africa is British-held in AA50's 1941): such a place is for a person to match."""
    return not any(word in group for word in dropped for group in POWER_NAMES)


def _a_part(rule_words: frozenset[str], name_words: frozenset[str]) -> bool:
    """Whether the game's name is the rule text's with a compass word added ("Central Mongolia" for "Mongolia"): the
    game divides the place, this territory is one part of it (Pacific 1940's Mongolia is six territories, one of them
    Central Mongolia), and which part or whether all is for a person to say. A nation's word added ("French
    Madagascar") names the whole colony; the rule text's name narrower than the game's ("South Eire" for "Eire") is
    a part of one territory."""
    return rule_words < name_words and bool((name_words - rule_words) & _COMPASS)


def _described(board, kind: PlaceKind) -> tuple[str, str, list[str]]:
    """What the place is said to be ("sea zone"), why (" (reason)" or ""), and the game's territories of that kind."""
    what = {"sea": "sea zone", "land": "land territory", None: "territory"}[kind.kind]
    return what, f" ({kind.why})" if kind.why else "", board.of_kind(kind.kind)


def _by_name(board, rule: str, kind: PlaceKind, evidence: list[KnownPlace]) -> PlaceMatch | None:
    what, because, candidates = _described(board, kind)
    exact = board.named("lower", rule.lower(), kind.kind)
    if exact:
        return PlaceMatch(rule, exact[0], "the same name", exact=True)
    other = board.named("lower", rule.lower(), board_order=True)
    if other and kind.kind is not None:
        return PlaceMatch(
            rule,
            None,
            f"this game's {other[0]!r} is {'a sea zone' if board.is_water(other[0]) else 'land'}, but the rule text's is {'a sea zone' if kind.kind == 'sea' else 'land'}{because}",
        )
    plain = board.named("plain", plain_words(rule), kind.kind)
    if len(plain) == 1:
        return PlaceMatch(rule, plain[0], f"the same name but for punctuation; a {what}{because}")
    # Spelt with the same letters, words run together or apart ("Capetown" / "Cape Town"); a rule text's "City,
    # Country" by its city, when a territory is that city (Total World War's Cape Town for "Capetown, South Africa",
    # which neighbour evidence made the Eastern South Africa beside it).
    # Not a numbered sea zone ("Seazone 12" is numbered as on the rule text's map), nor a name whose letters hide a
    # compass word ("E.Ire", East Ireland, is spelt "eire").
    if numbered_sea_zone(rule):
        return None
    for part, said in ((rule, "the same letters but for spaces and punctuation"), (rule.split(",")[0], "the city the rule text names first")):
        letters = board.named("letters", letters_only(part), kind.kind) if part.strip() and (part == rule or "," in rule) else []
        letters = [n for n in letters if board.directions[n] == frozenset(place_tokens(part)) & DIRECTIONS]
        if len(letters) == 1:
            return PlaceMatch(rule, letters[0], f"{said} ({letters[0]}); a {what}{because}")
    return None


def _off_coast(board, rule: str, kind: PlaceKind, evidence: list[KnownPlace]) -> PlaceMatch | None:
    off = _OFF.match(rule)
    if off and kind.kind != "land":
        # Only the one sea zone beside that land is sure; a coast ("East") is not a thing a map records.
        shore = board.named("plain", plain_words(off.group(2)), "land", board_order=True)
        zones = sorted(z for z in board.neighbours(shore[0]) if board.is_water(z)) if len(shore) == 1 else []
        if len(zones) == 1 and not off.group(1):
            return PlaceMatch(rule, zones[0], f"the only sea zone touching {shore[0]}")
        where = f"{shore[0]} touches {len(zones)} sea zones ({', '.join(zones)})" if shore else f"no land territory is {off.group(2)!r}"
        return PlaceMatch(rule, None, f"{where}; which one is meant is for a person to say")
    return None


def _by_known_name(board, rule: str, kind: PlaceKind, evidence: list[KnownPlace]) -> PlaceMatch | None:
    # The name a hand-written profile gives it elsewhere, of the same kind here (a sea zone must share a coast).
    for known_place in evidence:
        same = board.named("key", place_key(known_place.name), kind.kind)
        if len(same) == 1 and (kind.kind is not None or board.is_water(same[0]) == known_place.water):
            shared = known_place.land_neighbours & board.land_around(same[0])
            if known_place.water and not _coasts_agree(known_place, board, same[0]):
                continue  # a sea zone of the same name elsewhere is this one only if most of its coasts, two at least, agree
            if not known_place.water and known_place.conflicts(board, same[0]) is not None:
                continue  # classic's neutral Columbia (Venezuela) is not the Confederates' Columbia of a Civil War map
            return PlaceMatch(
                rule,
                same[0],
                f"{known_place.map} ({known_place.game_file}) calls it {known_place.name!r}; this game has a {'sea zone' if known_place.water else 'land territory'} of that name, with {len(shared)} of its {len(known_place.land_neighbours)} land neighbours there",
            )
    return None


def _coasts_agree(known_place: KnownPlace, board, name: str) -> bool:
    """Whether sea zone ``name`` here has most of the coasts ``known_place`` has on its map, two at least."""
    shared = known_place.land_neighbours & board.land_around(name)
    return len(shared) >= 2 and len(shared) * 2 >= len(known_place.land_neighbours | board.land_around(name))


def _by_neighbours(board, rule: str, kind: PlaceKind, evidence: list[KnownPlace]) -> PlaceMatch | None:
    what, _, candidates = _described(board, kind)
    # The territory whose land neighbours are those it has on a map a profile covers.
    best: list[tuple[float, int, str, KnownPlace]] = []
    for known_place in evidence:
        for name in candidates:
            around = board.land_around(name)
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
            f"on {known_place.map} it is {known_place.name!r}; {name} is the {what} sharing most of its land neighbours ({shared} of {len(known_place.land_neighbours)}: {', '.join(sorted(known_place.land_neighbours & board.land_around(name))[:6])})",
        )
    return None


def _by_words(board, rule: str, kind: PlaceKind, evidence: list[KnownPlace]) -> PlaceMatch | None:
    what, because, candidates = _described(board, kind)
    words = place_tokens(rule)
    word_set = frozenset(words)
    pool = candidates if kind.kind is not None else board.of_kind(None)
    tokens, token_set = board.tokens, board.token_set
    if numbered_sea_zone(rule):
        # A number is the rule text's map's: this map's sea zone of that number may be anywhere.
        return PlaceMatch(rule, None, "a sea zone numbered as on the rule text's map; no map a profile covers shows it with coasts this game has")
    if words:
        # The same words, in one territory of its kind only (or of any kind, when only one has them).
        same = board.named("key", place_key(rule), kind.kind)
        if len(same) == 1 and _backed(board, same[0], evidence):
            return PlaceMatch(rule, same[0], f"the same words ({' '.join(words)}); the only {what} so named{because}")
        pointing = word_set & DIRECTIONS
        close = closest(" ".join(words), {n: board.token_text[n] for n in pool if tokens[n] and not _opposed(pointing, board.directions[n])}, 0.8)
        if close and close[0][0] >= 0.85 and (len(close) == 1 or close[1][0] < close[0][0] - 0.05) and _backed(board, close[0][1], evidence):
            return PlaceMatch(
                rule,
                close[0][1],
                f"spelt almost the same ({close[0][0]:.2f}; next {close[1][0] if len(close) > 1 else 0:.2f}); the only {what} so close{because}",
            )
        wider = [n for n in pool if word_set < token_set[n]]
        if len(wider) > 1:
            # "Libya" here is Western and Eastern Libya, "South Africa" both South West Africa and the Union of South
            # Africa: the map divides the place, or several places carry its words; which is meant is not for a guess.
            return PlaceMatch(rule, None, f"{', '.join(sorted(wider))} all carry its words; which of them it is (or whether all) is for a person to say")
        # One name is the other with a word that only narrows it down ("South Eire" / "Eire").
        narrowed = [
            n
            for n in pool
            if tokens[n] and token_set[n] != word_set and (token_set[n] ^ word_set) <= _QUALIFIERS and (token_set[n] < word_set or word_set < token_set[n])
        ]
        narrowed = [n for n in narrowed if _nation_kept(board, n, word_set - token_set[n]) and not _a_part(word_set, token_set[n])]
        if len(narrowed) == 1 and kind.kind == "land" and _backed(board, narrowed[0], evidence):
            extra = " ".join(sorted(token_set[narrowed[0]] ^ word_set))
            return PlaceMatch(rule, narrowed[0], f"the same name but for {extra!r}; the only {what} so named{because}")
        # One name's words inside the other's, backed by a shared land neighbour on a map a profile covers; a sea
        # zone by most of its coasts, two at least, as for a name a profile gives it (one shared word and one shared
        # coast, Libya, made middle_east.xml's "Mediterranean sz 2" both the Central Mediterranean and the German fleet's).
        for known_place in evidence:
            inside = [
                n
                for n in candidates
                if tokens[n]
                and (token_set[n] < word_set or word_set < token_set[n])
                and not _a_part(word_set, token_set[n])
                and known_place.land_neighbours & board.land_around(n)
                and (_coasts_agree(known_place, board, n) if known_place.water else known_place.conflicts(board, n) is None)
            ]
            if len(inside) == 1:
                shared = known_place.land_neighbours & board.land_around(inside[0])
                return PlaceMatch(
                    rule,
                    inside[0],
                    f"its words are part of {inside[0]!r}'s (or these of its), and on {known_place.map} it borders {', '.join(sorted(shared))} as {inside[0]} does here",
                )
    return None


def _unmatched(board, rule: str, kind: PlaceKind, evidence: list[KnownPlace]) -> PlaceMatch:
    what, because, candidates = _described(board, kind)
    refused = _refused(board, rule, kind, evidence)
    if refused:
        # A territory has its words or the name a profile gives it, and was refused: say for what, not that none has.
        return PlaceMatch(rule, None, f"{'; '.join(refused)}; a {what}{because}")
    if kind.kind is None:
        return PlaceMatch(rule, None, "the rule text does not say whether it is land or sea, and no territory has its name")
    # A territory with its words refused for what the profiled maps show (its owner, another territory there): say so.
    for name in board.named("key", place_key(rule), kind.kind):
        refused = next((why for k in evidence if not k.water and (why := k.conflicts(board, name)) is not None), None)
        if refused is not None:
            return PlaceMatch(rule, None, f"{name} has its words, but not taken: {refused}")
    near = [n for _, n in closest(plain_words(rule), {n: plain_words(n) for n in candidates}, 0.6)[:3]] or ["none"]
    return PlaceMatch(
        rule,
        None,
        f"no {what} has its name, or a name or neighbours a hand-written profile gives it{because}; closest by spelling, not taken: {', '.join(near)}",
    )


def _refused(board, rule: str, kind: PlaceKind, evidence: list[KnownPlace]) -> list[str]:
    """Why each territory of its kind here that has the rule-text place's words, or the name a hand-written profile
    gives it, was not taken: its starting owner (unowned where the place is a neutral, the other side's) or, for a
    sea zone, its coasts."""
    named = dict.fromkeys(board.named("key", place_key(rule), kind.kind, board_order=True))
    for known_place in evidence:
        named.update(dict.fromkeys(board.named("key", place_key(known_place.name), kind.kind, board_order=True)))
    refused = []
    for name in named:
        for known_place in evidence:
            if known_place.water != board.is_water(name):
                continue
            if known_place.water:
                why = None if _coasts_agree(known_place, board, name) else f"its coasts are not those it has on {known_place.map}"
            else:
                why = known_place.conflicts(board, name)
            if why is not None:
                called = "has its words" if place_key(name) == place_key(rule) else f"is the name {known_place.map} gives it"
                refused.append(f"{name} {called} but is not taken: {why}")
                break
    return refused


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


def match_side(side: str, alliances: list[str]) -> tuple[list[str], str]:
    """The game's alliances a rule-text side stands for, with why: those carrying its name as a word
    ("Axis-Germany", "Axis-Japan" for the Axis), when no alliance has its very name."""
    if side in alliances:
        return [side], "the same name"
    carrying = [a for a in alliances if carries_word(a, side)]
    if carrying:
        return carrying, f"the game's alliances carrying the word {side!r}"
    return [], f"no alliance of the game is named {side!r} or carries that word (its alliances: {', '.join(alliances) or 'none'})"

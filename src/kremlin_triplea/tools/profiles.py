"""Profile new: a starting map profile for a game nobody wrote one for, drafted for review.

``new_profile_text`` writes every rule-text name the rulesets use with the game's best match filled in (from
:mod:`place_matching`) and marked ``REVIEW``; what nothing matches is left for the author with the options that
need it. Checking a profile is :mod:`profile_check`.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import attrs

from kremlin_triplea.errors import possessive
from kremlin_triplea.game import Game
from kremlin_triplea.rules.roles import ROLE_OF_WORD, UnitFacts, match_role, match_unit_word, unit_facts
from kremlin_triplea.rules.ruleset import Ruleset
from kremlin_triplea.tools.derived_setup import PowerUnit, guess_sea_zone_name, units_per_power
from kremlin_triplea.tools.place_evidence import KnownPlace, StraitShape, installed_profiles, shipped_strait_shapes
from kremlin_triplea.tools.place_matching import NAVAL_ROLES, PlaceMatch, match_places, match_power, match_side
from kremlin_triplea.tools.place_words import place_key
from kremlin_triplea.tools.rule_names import neutral_armies, rule_names, straits_needed, written_rules

REVIEW = "REVIEW"


def quoted(text: str) -> str:
    """A TOML basic string holding ``text`` (JSON's escaping is TOML's)."""
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
    #: Why each ruleset the profile does not list does not fit the game ("kremlin-aa50: its side 'Axis': ...").
    unfit: tuple[str, ...] = ()


def fitting_rulesets(game: Game, rulesets: list[Ruleset]) -> tuple[list[Ruleset], tuple[str, ...]]:
    """The rulesets each of whose sides an alliance of the game stands for, and why each other does not fit: a
    draft between sides the game does not have offers no pick (the 3-teams and Warlords games have no Axis)."""
    alliances = game.catalog.alliances()
    fit, unfit = [], []
    for ruleset in rulesets:
        lacking = [f"its side {side!r}: {why}" for side in getattr(ruleset, "sides", ()) for found, why in [match_side(side, alliances)] if not found]
        if lacking:
            unfit.append(f"{ruleset.id} does not fit this game: {'; '.join(lacking)}")
        else:
            fit.append(ruleset)
    return fit, tuple(unfit)


def new_profile(game: Game, rulesets: list[Ruleset], *, key: str | None = None, known: dict[str, list[KnownPlace]] | None = None) -> NewProfile:
    """A starting map profile for ``game``: every rule-text name the rulesets use.

    Matches carry their evidence as the place's reason; every guess is marked
    ``# REVIEW`` in a comment (the file reads and passes ``profile check`` as
    written). Names nothing on the map stands for are listed in ``[unmatched]``
    with what needs them.
    """
    players = list(game.catalog.players)
    need_powers, need_units, need_places = _needs(rulesets)
    unmatched: dict[str, list[str]] = {}  # rule-text name -> why nothing here stands for it, and what needs it
    known_powers: dict[str, str] = {}
    for profile in installed_profiles():
        known_powers.update({k.lower(): v for k, v in profile.powers.items()})
    fit, unfit = fitting_rulesets(game, rulesets)
    lines = _head_lines(game, fit, key, unfit)
    power_lines, power_matches = _power_lines(need_powers, players, known_powers, unmatched)
    lines += power_lines
    lines += _sides_lines(game, rulesets, unmatched)
    named = [p for p in players if p in power_matches.values()]
    unit_lines, unit_matches = _unit_lines(game, need_units, named, unmatched)
    lines += unit_lines
    places = match_places(game, rulesets, known if known is not None else {})
    _victory_cities(game, rulesets, places)
    lines += _place_lines(places, need_places, unmatched)
    lines += _neutral_coast_lines(game.board, rulesets, places)
    lines += _may_enter_lines(game, rulesets, power_matches, known_powers)
    lines += _strait_lines(game, rulesets, places, unmatched)
    lines += _step_position_lines(game, rulesets, unmatched)
    lines += _factory_output_lines(game)
    lines += [
        "[unmatched]   # rule-text names nothing on this map stands for: what needs them is not available here",
        *(f"{quoted(name)} = {quoted('; '.join(why))}" for name, why in unmatched.items()),
        "",
    ]
    return NewProfile("\n".join(lines), places, power_matches, unit_matches, unfit)


def _needs(rulesets: list[Ruleset]) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """The powers, units and places the rulesets name, each with what needs it ("kremlin-classic option 3")."""
    need_powers: dict[str, tuple[str, ...]] = {}
    need_units: dict[str, tuple[str, ...]] = {}
    need_places: dict[str, tuple[str, ...]] = {}
    for ruleset in rulesets:
        found = rule_names(ruleset)
        for table, more in ((need_powers, found.powers), (need_units, found.units), (need_places, found.places)):
            for name, by in more.items():
                table[name] = tuple(dict.fromkeys((*table.get(name, ()), *(f"{ruleset.id} {b}" for b in by))))
    return need_powers, need_units, need_places


def _head_lines(game: Game, rulesets: list[Ruleset], key: str | None, unfit: tuple[str, ...] = ()) -> list[str]:
    """The profile's opening: how to review it, the map, its rulesets, the sea zones' pattern and the game file."""
    source = Path(game.source)
    map_name = game.board.properties.get("mapName") or (source.parents[2].name if len(source.parents) > 2 else source.stem)
    return [
        f"# Map profile for the TripleA map {map_name!r}, started by `kremlin-triplea profile new` from {source.name}.",
        "# Lines marked REVIEW are guesses, each with its evidence: check them against the map, correct them,",
        "# then run `kremlin-triplea profile check` on it and `kremlin-triplea matrix --game GAME --profile` with it.",
        "",
        f"map = {quoted(map_name)}",
        f"rulesets = [{', '.join(quoted(r.id) for r in rulesets)}]" + ("   # no ruleset fits this game" if not rulesets and unfit else ""),
        *(f"# {why}" for why in unfit),
        "# The rule texts' numbered sea zones (\"Seazone 12\") are numbered as on their own maps, not this one's:",
        '# each is matched in [places] like any other place. Set a pattern such as "{n} Sea Zone" only if this map',
        f"# numbers its sea zones as the rule text's map does (this game's own pattern: {guess_sea_zone_name(game)!r}).",
        'sea_zone_name = "Seazone {n}"',
        "",
        "[[game]]",
        f"file = {quoted(source.name)}",
        f"key = {quoted(key or f'{map_name}/{source.name}')}",
        f"name = {quoted(game.name)}",
        f"sha256 = {quoted(hashlib.sha256(game.document.original).hexdigest())}",
        "differences = []",
        "",
    ]


def _power_lines(
    need_powers: dict[str, tuple[str, ...]], players: list[str], known_powers: dict[str, str], unmatched: dict[str, list[str]]
) -> tuple[list[str], dict[str, str | None]]:
    """``[powers]``: each rule-text power the game names otherwise; and every power's match (None: unmatched)."""
    lines = ["[powers]   # rule-text power = the game's player"]
    power_matches: dict[str, str | None] = {}
    for word, by in need_powers.items():
        player, why = match_power(word, players, known_powers)
        power_matches[word] = player
        if player is None:
            unmatched.setdefault(word, []).append(f"power: {why}; needed by {_needed(by)}")
        elif player.lower() != word.lower():
            lines.append(f"{quoted(word)} = {quoted(player)}   # {REVIEW}: {why}")
    return lines, power_matches


def _place_lines(places: dict[str, PlaceMatch], need_places: dict[str, tuple[str, ...]], unmatched: dict[str, list[str]]) -> list[str]:
    """``[places]`` and ``[place_reasons]``: each place matched by other than its own name, with the evidence."""
    lines = ["", "[places]   # rule-text territory or sea zone = the game's, only of the same kind"]
    reasons = []
    for rule, match in places.items():
        if match.name is None:
            unmatched.setdefault(rule, []).append(f"place: {match.evidence}; needed by {_needed(need_places[rule])}")
        elif not match.exact:
            lines.append(f"{quoted(rule)} = {quoted(match.name)}   # {REVIEW}")
            reasons.append(f"{quoted(rule)} = {quoted(match.evidence)}")
    return [*lines, "", "[place_reasons]   # the evidence for each match: replace it with your reason once checked", *reasons, ""]


def _neutral_coast_lines(board, rulesets: list[Ruleset], places: dict[str, PlaceMatch]) -> list[str]:
    """``[neutral_coasts]``: the sea zones beside each matched neutral that has ships."""
    land_of = {rule: m.name for rule, m in places.items() if m.name is not None and not board.is_water(m.name)}
    coasts: dict[str, list[str]] = {}
    for ruleset in rulesets:
        for neutral, army in neutral_armies(ruleset):
            navy = [u for u, _ in army if ROLE_OF_WORD.get(u.lower()) in NAVAL_ROLES]
            territory = land_of.get(neutral)
            if navy and territory is not None and neutral not in coasts:
                zones = sorted(n for n in board.neighbours(territory) if board.is_water(n))
                if zones:
                    coasts[neutral] = zones
    lines = ["[neutral_coasts]   # where a neutral's ships may go first: the sea zones it borders"]
    lines += [f"{quoted(name)} = [{', '.join(quoted(z) for z in zones)}]   # {REVIEW}" for name, zones in coasts.items()]
    return [*lines, ""]


def _may_enter_lines(game: Game, rulesets: list[Ruleset], power_matches: dict[str, str | None], known_powers: dict[str, str]) -> list[str]:
    """``[powers_may_enter]``: the game's movement restriction of each power a restriction limits to it."""
    players = list(game.catalog.players)
    entered: dict[str, list[str]] = {}
    for ruleset in rulesets:
        for restriction in getattr(ruleset, "restrictions", {}).values():
            player = power_matches.get(restriction.power) or match_power(restriction.power, players, known_powers)[0]
            if restriction.takeover_only_where_may_enter and player is not None and player not in entered:
                entered[player] = _movement_restriction(game, player)
    lines = ["[powers_may_enter]   # the game's movementRestrictionTerritories of each restricted power"]
    lines += [f"{quoted(player)} = [{', '.join(quoted(t) for t in listed)}]   # {REVIEW}" for player, listed in entered.items()]
    return [*lines, ""]


def _factory_output_lines(game: Game) -> list[str]:
    """``[factory_output]``: whether the game itself limits a new factory to its territory's production, as TripleA
    2.7 reckons a factory's output (UnitUtils.getHowMuchCanUnitProduce): its territory's production, unless the game
    damages units instead of territories, when it is the factory type's canProduceXUnits if it has one (Pacific and
    Global 1940's minor factory: 3, whatever its territory is worth)."""
    damaged_units = game.board.properties.get("Damage From Bombing Done To Units Instead Of Territories", "").lower() == "true"
    factory = match_role("factory", unit_facts(game)).unit
    produces = (game.xml.unit_options().get(factory, {}).get("canProduceXUnits", "-1") if factory else "-1").strip()
    if not damaged_units:
        enforced, reason = True, "TripleA limits a factory that was not there at the start to its territory's production"
    elif produces in ("", "-1"):
        enforced, reason = (
            True,
            f"TripleA limits a new factory to its territory's unit production (the game damages units, and {factory} has no canProduceXUnits)",
        )
    else:
        enforced, reason = (
            False,
            f"the game damages units instead of territories, and its factory {factory} produces {produces} units (canProduceXUnits) whatever its territory's production",
        )
    return ["[factory_output]", f"enforced_by_game = {'true' if enforced else 'false'}   # {REVIEW}", f"reason = {quoted(reason)}", ""]


def _sides_lines(game: Game, rulesets: list[Ruleset], unmatched: dict[str, list[str]]) -> list[str]:
    """``[sides]``: each rule-text side the game's alliances name otherwise; a side none stands for is unmatched."""
    alliances = game.catalog.alliances()
    lines = []
    for side in dict.fromkeys(s for r in rulesets for s in getattr(r, "sides", ())):
        found, why = match_side(side, alliances)
        if not found:
            unmatched.setdefault(side, []).append(f"side: {why}")
        elif found != [side]:
            lines.append(f"{quoted(side)} = [{', '.join(quoted(a) for a in found)}]   # {REVIEW}: {why}")
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
            lines.append(f"{quoted(word)} = {quoted(match.unit)}   # {REVIEW}: {match.reason}")
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
        lines += ["", f"[units_by_power.{quoted(player)}]   # {possessive(player)} own unit types: it cannot have the unit [units] gives every power"]
        for own in owns:
            if own.unit is None:
                lines.append(f"# {quoted(own.word)}: none; {own.reason} (a rule giving {player} one gives it the unit for every power)")
            else:
                lines.append(f"{quoted(own.word)} = {quoted(own.unit)}   # {REVIEW}: {own.reason}")
    return lines


def new_profile_text(game: Game, rulesets: list[Ruleset], *, key: str | None = None, known: dict[str, list[KnownPlace]] | None = None) -> str:
    return new_profile(game, rulesets, key=key, known=known).text


def _victory_cities(game: Game, rulesets: list[Ruleset], places: dict[str, PlaceMatch]) -> None:
    """A victory city a game rule moves ("Ottawa") must be one here: the match, else the one victory city of its
    owner among its land neighbours, else none (the rule cannot be written into this game)."""
    board = game.board
    for ruleset in rulesets:
        for rule in written_rules(ruleset):
            for change in rule.changes:
                name = change.data.get("from") if change.data.get("kind") == "victory_city" else None
                match = places.get(name) if isinstance(name, str) else None
                if match is None or match.name is None or board.node(match.name)["victory_city"]:
                    continue
                if match.exact:
                    # The map's own territory of that very name is not a victory city: a neighbour that is one is
                    # not the rule's city (issue 46: the victory city moved to the wrong territory).
                    places[name] = PlaceMatch(
                        name, None, f"game rule {rule.id!r} moves the victory city of {name}, and this game's {match.name} (its very name) is not one"
                    )
                    continue
                owner = board.node(match.name)["owner"]
                beside = [
                    n for n in board.neighbours(match.name) if not board.is_water(n) and board.node(n)["victory_city"] and board.node(n)["owner"] == owner
                ]
                if len(beside) == 1:
                    why = f"{match.name} ({match.evidence}) is not a victory city here; {beside[0]}, beside it and held by {owner}, is the one"
                    places[name] = PlaceMatch(name, beside[0], f"game rule {rule.id!r} moves the victory city of {name}: {why}")
                else:
                    held = f"{len(beside)} of {possessive(owner)} victory cities border it" if beside else f"no victory city of {owner} borders it"
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
        for rule in written_rules(ruleset):
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
            f"[turn_step_positions.{quoted(position)}]",
            f"after = {quoted(leading[-1])}   # {REVIEW}",
            "reason = "
            + quoted(
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
            if any(line.startswith(f"[straits.{quoted(key)}]") for line in lines):
                continue
            found, why = _strait_here(game, key, places)
            if found is None:
                unmatched.setdefault(f"straits.{key}", []).append(f"strait: {why}; needed by {ruleset.id} game rule {rule}")
                continue
            pairs, land = found
            lines += [
                "",
                f"[straits.{quoted(key)}]",
                f"sea_zones = [{', '.join(f'[{quoted(a)}, {quoted(b)}]' for a, b in pairs)}]   # {REVIEW}",
                f"reason = {quoted(why)}",
                f"land = [{', '.join(quoted(t) for t in land)}]   # {REVIEW}",
                f"land_reason = {quoted('the sides the hand-written profiles give the strait, matched on this map as [places] says')}",
            ]
    return [*lines, ""] if lines else []


def _strait_here(game: Game, key: str, places: dict[str, PlaceMatch]) -> tuple[tuple[list[tuple[str, str]], list[str]] | None, str]:
    board = game.board
    tried = []
    profiles = {p.map: p for p in installed_profiles()}
    for shape in shipped_strait_shapes():
        if shape.key != key or shape.map not in profiles:
            continue
        profile = profiles[shape.map]
        land = []
        for side in shape.land:
            rules = [r for r, g in profile.places.items() if g == side] + [side]
            here = next((places[r].name for r in rules if r in places and places[r].name is not None), None)
            if here is None:  # a side no rule text names (AA50's Morocco Algeria): the same words here, once
                same = [t for t in board.nodes if not board.is_water(t) and place_key(t) == place_key(side)]
                here = same[0] if len(same) == 1 else None
            if here is None or board.is_water(here):
                tried.append(f"{possessive(shape.map)} side {side} has no match here")
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
        coast = {place_key(n) for n in board.neighbours(zone) if not board.is_water(n)}
        scored.append((len(coast & there) / len(coast | there), zone))
    scored.sort(key=lambda s: (-s[0], s[1]))
    if not scored or scored[0][0] < 0.5 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return [], f"no one sea zone here has most of the inner sea's coasts ({', '.join(sorted(there))})"
    inner = scored[0][1]
    ways = [tuple(sorted((b, inner))) for b in sorted(board.neighbours(inner)) if board.is_water(b)]
    return ways, f"every way out of {inner}, the sea zone with most of the inner sea's coasts ({', '.join(sorted(there))})"


def _movement_restriction(game: Game, player: str) -> list[str]:
    for attachment in game.xml.attachments(attach_to=player, name="rulesAttachment"):
        for option in attachment.iterchildren("option"):
            if option.get("name") == "movementRestrictionTerritories":
                return [t for t in option.get("value", "").split(":") if t]
    return []

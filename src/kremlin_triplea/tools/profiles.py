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
import hashlib
import json
import re
from collections import Counter
from pathlib import Path

import attrs

from kremlin_triplea.errors import KremlinError
from kremlin_triplea.game import Game, load
from kremlin_triplea.rules.names import _SEA_ZONE
from kremlin_triplea.rules.profile import Profile, load_profile
from kremlin_triplea.rules.roles import ROLE_OF_WORD, match_unit_word, unit_facts
from kremlin_triplea.rules.options import PlacementParams, TerritoryTakeoverParams
from kremlin_triplea.rules.ruleset import Neutral, Ruleset, load_named_ruleset

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

    for option in ruleset.options:
        by = f"option {option.number}"
        params = option.params
        if isinstance(params, PlacementParams):
            for unit_set in params.unit_sets:
                for unit in unit_set:
                    need(units, unit, by)
            if "no_factory_there" in params.require:
                need(units, "factory", by)
        elif isinstance(params, TerritoryTakeoverParams):
            for unit, _ in params.units:
                need(units, unit, by)
            for unit in params.forbidden_units:
                need(units, unit, by)
        elif option.kind == "neutral_takeover":
            for neutral in ruleset.neutrals.values():
                need(places, neutral.name, by)
                for unit, _ in neutral.army:
                    need(units, unit, by)
    for scenario in getattr(ruleset, "scenarios", ()):
        by = f"scenario {scenario.title!r}"
        if scenario.power:
            need(powers, scenario.power, by)
        steps = list(scenario.steps) + [s for v in scenario.variants for s in v.steps]
        for place in (*scenario.involves, *(s.at for s in steps), *(s.to for s in steps if s.to)):
            if not _SEA_ZONE.match(place):  # sea zones are translated by sea_zone_name
                need(places, place, by)
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
    return RuleNames(
        {k: tuple(v) for k, v in sorted(powers.items())},
        {k: tuple(v) for k, v in sorted(units.items())},
        {k: tuple(v) for k, v in sorted(places.items())},
    )


# -- a ruleset on a map without a profile for it -------------------------------------


@attrs.frozen
class DerivedSetup:
    """A ruleset and a profile fitted to one game from the map itself."""

    ruleset: Ruleset
    profile: Profile
    notes: tuple[str, ...]  # what differs from a written profile, for people
    missing_units: dict[str, str]  # rule-text unit word -> why no unit of the map stands for it


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
            base, units={**units, **base.units}, rulesets=(ruleset.id,), neutral_coasts={}, capital_marker=None,
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
        )
    return DerivedSetup(derived_ruleset, profile, tuple(notes), missing)


def guess_sea_zone_name(game: Game) -> str:
    """The commonest pattern of the sea zones' names with their number as {n} ("{n} Sea Zone")."""
    patterns = Counter(
        re.sub(r"\d+", "{n}", name, count=1)
        for name, data in game.board.nodes.items()
        if data["water"] and re.search(r"\d", name)
    )
    return patterns.most_common(1)[0][0] if patterns else "{n} Sea Zone"


# -- profile new ---------------------------------------------------------------------


def _best_name(word: str, names: list[str]) -> tuple[str | None, float]:
    lowered = {n.lower(): n for n in names}
    if word.lower() in lowered:
        return lowered[word.lower()], 1.0
    scored = sorted(((difflib.SequenceMatcher(None, word.lower(), n.lower()).ratio(), n) for n in names), key=lambda x: (-x[0], x[1]))
    for score, name in scored:
        if word.lower() in name.lower() or name.lower() in word.lower():
            return name, max(score, 0.75)
    if scored and scored[0][0] >= 0.6:
        return scored[0][1], scored[0][0]
    return None, scored[0][0] if scored else 0.0


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def new_profile_text(game: Game, rulesets: list[Ruleset], *, key: str | None = None) -> str:
    """A starting map profile for ``game``: every rule-text name the rulesets use, guesses marked REVIEW."""
    board = game.board
    source = Path(game.source)
    map_name = board.properties.get("mapName") or (source.parents[2].name if len(source.parents) > 2 else source.stem)
    land = sorted(t for t, d in board.nodes.items() if not d["water"])
    players = list(game.catalog.players)
    powers: dict[str, tuple[str, ...]] = {}
    units: dict[str, tuple[str, ...]] = {}
    places: dict[str, tuple[str, ...]] = {}
    for ruleset in rulesets:
        found = rule_names(ruleset)
        for table, more in ((powers, found.powers), (units, found.units), (places, found.places)):
            for name, by in more.items():
                table[name] = tuple(dict.fromkeys((*table.get(name, ()), *(f"{ruleset.id} {b}" for b in by))))
    lines = [
        f"# Map profile for the TripleA map {map_name!r}, started by `kremlin-triplea profile new` from {source.name}.",
        "# Every line marked REVIEW is a guess: check it against the map, give each place a",
        "# reason in [place_reasons], delete the REVIEW marks, then run `kremlin-triplea profile check`.",
        "",
        f"map = {_q(map_name)}",
        f"rulesets = [{', '.join(_q(r.id) for r in rulesets)}]",
        f"sea_zone_name = {_q(guess_sea_zone_name(game))}   # {REVIEW}: the commonest sea zone name pattern",
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
    for word, by in powers.items():
        match, score = _best_name(word, players)
        if match is not None and match.lower() == word.lower():
            continue
        if match is None:
            lines.append(f"# {_q(word)} = ?   # {REVIEW}: no player is close; needed by {', '.join(by)}; players: {', '.join(players)}")
        else:
            lines.append(f"{_q(word)} = {_q(match)}   # {REVIEW}: closest player name ({score:.2f}); needed by {', '.join(by)}")
    lines += ["", "[units]   # rule-text unit = the game's unit type (matched by TripleA role)"]
    facts = unit_facts(game)
    for word, by in units.items():
        if word.lower() in {u.lower() for u in game.catalog.unit_types}:
            continue
        match = match_unit_word(word, game, facts)
        if match is None or match.unit is None:
            why = match.reason if match is not None else "not a unit word the roles know"
            lines.append(f"# {_q(word)} = ?   # {REVIEW}: {why}; needed by {', '.join(by)}")
        else:
            lines.append(f"{_q(word)} = {_q(match.unit)}   # {REVIEW}: {match.reason}")
    lines += ["", "[places]   # rule-text territory = the game's territory"]
    reasons = []
    for word, by in places.items():
        match, score = _best_name(word, land)
        if match is not None and match.lower() == word.lower():
            continue
        if match is None:
            lines.append(f"# {_q(word)} = ?   # {REVIEW}: no territory is close; needed by {', '.join(by)}")
        else:
            lines.append(f"{_q(word)} = {_q(match)}   # {REVIEW}: closest territory name ({score:.2f})")
            reasons.append(f"{_q(word)} = {_q(f'{REVIEW}: guessed by name ({score:.2f}); say why {match} is {word}')}")
    lines += ["", "[place_reasons]", *reasons, ""]
    coasts = []
    for ruleset in rulesets:
        for neutral in ruleset.neutrals.values():
            navy = [u for u, _ in neutral.army if (m := match_unit_word(u, game, facts)) is not None and m.role in ("transport", "submarine", "destroyer", "cruiser", "carrier", "battleship")]
            territory, _ = _best_name(neutral.name, land)
            if navy and territory is not None:
                zones = sorted(n for n in board.neighbours(territory) if board.is_water(n))
                coasts.append(f"{_q(neutral.name)} = [{', '.join(_q(z) for z in zones)}]   # {REVIEW}: the sea zones {territory} borders")
    lines += ["[neutral_coasts]   # where a neutral's ships may go first", *coasts, ""]
    entered = []
    for ruleset in rulesets:
        for restriction in ruleset.restrictions.values():
            if restriction.takeover_only_where_may_enter:
                player, _ = _best_name(restriction.power, players)
                listed = _movement_restriction(game, player) if player else []
                entered.append(f"{_q(player or restriction.power)} = [{', '.join(_q(t) for t in listed)}]   # {REVIEW}: the game's movementRestrictionTerritories")
    lines += ["[powers_may_enter]", *entered, ""]
    ww2v3 = board.properties.get("WW2V3", "").lower() == "true"
    lines += [
        "[factory_output]",
        f"enforced_by_game = {'true' if ww2v3 else 'false'}",
        f"reason = {_q(f'{REVIEW}: ' + ('the game sets WW2V3, under which TripleA limits a factory to its territory production' if ww2v3 else 'the game does not set WW2V3; check how it limits a new factory'))}",
        "",
    ]
    return "\n".join(lines)


def _movement_restriction(game: Game, player: str) -> list[str]:
    for attachment in game.xml.attachments(attach_to=player, name="rulesAttachment"):
        for option in attachment.iterchildren("option"):
            if option.get("name") == "movementRestrictionTerritories":
                return [t for t in option.get("value", "").split(":") if t]
    return []


# -- profile check -------------------------------------------------------------------


def check_profile(path: Path | str, maps_dir: Path | str | None = None) -> list[str]:
    """Problems with a map profile: names its games lack, changed files, entries without reasons."""
    profile = load_profile(path)
    where = str(path)
    problems: list[str] = []
    rulesets = []
    for ruleset_id in profile.rulesets:
        try:
            rulesets.append(load_named_ruleset(ruleset_id))
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
            game = load(base.key, maps_dir=maps_dir)
        except KremlinError as error:
            problems.append(f"{where}: game {base.key}: {error}")
            continue
        digest = hashlib.sha256(game.document.original).hexdigest()
        if digest != base.sha256:
            problems.append(f"{where}: game {base.key}: sha256 is {digest}, the profile pins {base.sha256}")
        problems += [f"{where}: game {base.key}: {p}" for p in _missing_names(profile, game, rulesets)]
    return problems


def _missing_names(profile: Profile, game: Game, rulesets: list[Ruleset]) -> list[str]:
    board = game.board
    players = set(game.catalog.players)
    unit_types = set(game.catalog.unit_types)
    land = {t for t, d in board.nodes.items() if not d["water"]}
    sea = set(board.nodes) - land
    problems = []

    def absent(table: str, rule: str, name: str, known: set[str], kind: str) -> None:
        if name not in known:
            close = difflib.get_close_matches(name, sorted(known), n=3)
            problems.append(f"{table}.{rule} = {name!r}: no {kind} of that name" + (f" (close: {', '.join(close)})" if close else ""))

    for rule, name in profile.powers.items():
        absent("powers", rule, name, players, "player")
    for rule, name in profile.units.items():
        absent("units", rule, name, unit_types, "unit type")
    for rule, name in profile.places.items():
        absent("places", rule, name, land | sea, "territory")
    for rule, zones in profile.neutral_coasts.items():
        for zone in zones:
            absent("neutral_coasts", rule, zone, sea, "sea zone")
    for power, places in profile.powers_may_enter.items():
        absent("powers_may_enter", power, power, players, "player")
        for place in places:
            absent("powers_may_enter", power, place, land, "territory")
    if profile.capital_marker is not None:
        absent("capital_marker", "at", profile.capital_marker.at, land, "territory")
        absent("capital_marker", "refuge", profile.capital_marker.refuge, land, "territory")
        absent("capital_marker", "power", profile.capital_marker.power, players, "player")
    lowered = {
        "powers": {n.lower() for n in players} | {k.lower() for k in profile.powers},
        "units": {n.lower() for n in unit_types} | {k.lower() for k in profile.units},
        "places": {n.lower() for n in land} | {k.lower() for k in profile.places if profile.places[k] in land}
        # [absent_places]: places the rule text names that the map does not have, each with its reason
        | {k.lower() for k in getattr(profile, "absent_places", {})},
    }
    for ruleset in rulesets:
        needed = rule_names(ruleset)
        for kind, table in (("powers", needed.powers), ("units", needed.units), ("places", needed.places)):
            for word, by in table.items():
                if word.lower() not in lowered[kind]:
                    problems.append(f"ruleset {ruleset.id} names the {kind[:-1]} {word!r} ({', '.join(by)}): neither the game nor [{kind}] has it")
    return problems

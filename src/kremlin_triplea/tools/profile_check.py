"""Profile check: a map profile against its game files (``check_profile``), the lines still to review, and what a
ruleset lacks on a game without a profile (``lacking_text``, ``options_needing_profile``).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from kremlin_triplea.errors import KremlinError, possessive
from kremlin_triplea.game import Game, load
from kremlin_triplea.gamerules.house import HouseResult, apply_house_rules
from kremlin_triplea.rules.house_rules import HouseChoices, HouseSet
from kremlin_triplea.rules.profile import Profile, load_profile
from kremlin_triplea.rules.roles import ROLES, UnitFacts, plays_role, role_of, unit_facts, units_of_power
from kremlin_triplea.rules.ruleset import Ruleset
from kremlin_triplea.tools.derived_setup import units_per_power
from kremlin_triplea.tools.place_matching import place_kinds
from kremlin_triplea.tools.profiles import REVIEW, quoted
from kremlin_triplea.tools.rule_names import load_rules, neutral_armies, numbered_in_game, rule_names, straits_needed


def lacking_text(profile: Profile, report, rulesets: list[Ruleset | HouseSet], label: str, loaded: Game | None = None) -> str:
    """Comment lines: per ruleset, what the map lacks and what is therefore not available, in the matrix's own words.

    ``report`` is a matrix report of the game with the profile (``run_matrix``):
    its not-applicable cells, its failures and its notes are copied as they are. A house set is written into
    ``loaded`` (the game read) as ``house`` writes it: what it leaves to the players, or why it is refused.
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
        neutrals = [name for name, _ in neutral_armies(ruleset) if "place: " in missing.get(name, "")]
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
        if isinstance(ruleset, HouseSet) and loaded is not None:
            lines += house_lacking_lines(profile, loaded, ruleset)
    return "\n".join(lines) + "\n"


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
            rulesets.append(load_rules(ruleset_id))
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
        problems += [f"{where}: game {base.key}: {p}" for p in house_problems(profile, game, rulesets)]
    return problems


def house_problems(profile: Profile, game: Game, rulesets: list) -> list[str]:
    """Why ``house`` would refuse each house set the profile lists on ``game`` (its own switches, no advantages):
    the very function ``house`` runs, on a copy, so that the two agree (issue 41). A set ``house`` writes with the
    profile passes; what the map lacks that the set leaves to the players is no problem."""
    problems = []
    for house in rulesets:
        if isinstance(house, HouseSet):
            try:
                house_on(game, house, profile)
            except KremlinError as error:
                problems.append(f"house-rule set {house.id}: `kremlin-triplea house` refuses it on this game: {error}")
    return problems


def house_on(game: Game, house: HouseSet, profile: Profile) -> HouseResult:
    """``house`` with the set's own switches and no advantages, on a copy of ``game`` read with ``profile``."""
    return apply_house_rules(game.copy(), [HouseChoices(house.id, file=house.rules.path)], profile=profile)


def house_lacking_lines(profile: Profile, game: Game, house: HouseSet) -> list[str]:
    """Comment lines: what ``house`` leaves to the players on ``game`` with ``profile``, or why it refuses the set."""
    try:
        result = house_on(game, house, profile)
    except KremlinError as error:
        return [f"#   FAILS: `kremlin-triplea house` refuses it: {error}"]
    lines = [f"#   {rule.title} ({rule.source}): not written into the game, the players keep it: {why}" for rule, why in result.rules.unwritten]
    return lines + [f"#   {line}" for line in result.rules.skipped]


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
        f"units.{found.word} = {general[found.word]!r}: {found.reason}; name {possessive(found.power)} own in [units_by_power.{quoted(found.power)}]"
        for found in units_per_power(game, general, list(dict.fromkeys(named)), facts)
        if found.unit is not None and found.word.lower() not in own.get(found.power, set())
    ]


def review_marks(path: Path | str) -> list[int]:
    """The lines of a profile file still carrying a ``# REVIEW`` comment: guesses nobody has confirmed yet."""
    return [n for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1) if re.search(r"#.*\bREVIEW\b", line)]


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
                problems.append(f"ruleset {possessive(ruleset.id)} game rule {rule} closes the strait {key!r}: neither [straits.{key}] nor [unmatched] has it")
        alliances = set(game.catalog.alliances())
        for side in ruleset.sides:
            if side not in alliances and side not in profile.sides and side.lower() not in unmatched:
                problems.append(f"ruleset {ruleset.id} names the side {side!r}: the game has no alliance of that name, and [sides] does not say which")
        for kind, table in (("powers", needed.powers), ("units", needed.units), ("places", needed.places)):
            for word, by in table.items():
                numbered = numbered_in_game(profile, word) if kind == "places" else None
                if numbered is not None and numbered.lower() in lowered[kind]:
                    continue
                if word.lower() not in lowered[kind]:
                    problems.append(f"ruleset {ruleset.id} names the {kind[:-1]} {word!r} ({', '.join(by)}): neither the game nor [{kind}] has it")
        for word in needed.places:
            name = mapped.get(word.lower()) or {n.lower(): n for n in land | sea}.get(word.lower())
            numbered = numbered_in_game(profile, word)
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

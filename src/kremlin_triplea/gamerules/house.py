"""House-rule sets applied to a game: the advantages chosen or drawn, the sets' rules written into the board.

The sets themselves (their rules, switches, advantages, neutral tables) are data,
read by :mod:`kremlin_triplea.rules.house_rules`.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from kremlin_triplea.errors import InputError, UnknownNameError
from kremlin_triplea.game import load
from kremlin_triplea.gamefile.provenance import find_recorded_base, recorded_base
from kremlin_triplea.gamerules.actions import AppliedRules, game_rule_changes
from kremlin_triplea.gamerules.gate import options_kept, push_rules, written_once
from kremlin_triplea.rules.datafiles import named_rule_files
from kremlin_triplea.rules.game_rules import GameRule, RuleSet
from kremlin_triplea.rules.house_rules import (
    Advantage,
    HouseChoices,
    HouseSet,
    load_named_house_set,
)
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.profile import Profile, profile_for_game
from kremlin_triplea.rules.tomlfile import DataFileError, Section

if TYPE_CHECKING:
    from kremlin_triplea.game import Game
    from kremlin_triplea.model.board import Board


@attrs.frozen
class ChosenAdvantage:
    advantage: Advantage
    how: str  # "chosen" or "drawn with seed N"
    values: dict[str, tuple[str, str]] = attrs.field(factory=dict, eq=False)  # choice -> (value, how it was made)


@attrs.frozen
class HouseSelection:
    """One set as a draft applies it: its rules for this game, the advantages chosen, the switches."""

    house: HouseSet
    rules: RuleSet  # the set's rules plus the chosen advantages, for game_rules
    switches: frozenset[str]  # the switches that are on
    advantages: tuple[ChosenAdvantage, ...]
    seed: int | None
    map: str = ""  # the map profile of the game it is applied to
    unplaced: tuple[str, ...] = ()  # the powers whose advantage was to be drawn but that none fits on this game, and why


def select(house: HouseSet, choices: HouseChoices, board: Board, names: Names) -> HouseSelection:
    """The set's rules with the advantages chosen or drawn; every choice checked."""
    rng = random.Random(choices.seed) if choices.seed is not None else None
    chosen: list[ChosenAdvantage] = []
    unplaced: list[str] = []
    unknown = sorted(set(choices.advantages) - set(house.powers))
    if unknown:
        raise DataFileError(f"{_at(choices)}{house.id} gives advantages to {', '.join(house.powers)}, not to {', '.join(unknown)}", where=None)
    for power in house.powers:
        offered = house.advantages_of(power)
        if power in choices.advantages:
            advantage, how = _named_advantage(house, power, choices.advantages[power], offered, choices.where), "chosen"
        elif rng is not None:
            # Drawn among those this board can take (an earlier pick may have made a place the advantage names an
            # enemy's); a chosen one that cannot be taken is refused below, saying why.
            placeable = [a for a in offered if _blocked(a, board, names) is None]
            if not placeable:  # none this game can take (a map the set was not written for): the notes say so
                unplaced.append(f"{power}: no advantage of {house.id} can be given on this game ({_blocked(offered[0], board, names)}, and so for each)")
                continue
            advantage, how = rng.choice(placeable), f"drawn with seed {choices.seed}"
        else:
            continue  # no advantages: the rule is optional
        blocked = _blocked(advantage, board, names)
        if blocked is not None:
            raise DataFileError(
                f"{_at(choices)}{house.id} {advantage.rule.title} ({advantage.rule.source}) cannot be given to {power} on this game: {blocked}; choose another advantage",
                where=None,
            )
        values: dict[str, tuple[str, str]] = {}
        for name in advantage.choices:
            candidates = advantage_places(advantage, name, board, names)
            if not candidates:
                raise DataFileError(
                    f"{_at(choices)}{house.id} {advantage.rule.title} ({advantage.rule.source}) cannot be given to "
                    f"{power} on this game: there is no place for its `{name}`; choose another advantage",
                    where=None,
                )
            # "UK.at" is the UK advantage's own; a bare "at" serves any power's.
            given = next((choices.values[k] for k in (f"{power}.{name}", name) if k in choices.values), None)
            if given is not None:
                value = given
                if _resolve(value, names) not in {_resolve(c, names) for c in candidates}:
                    why = _place_blocked(advantage, name, _resolve(value, names), board, names)
                    raise DataFileError(
                        f"{_at(choices)}{house.id} {advantage.rule.title}: {name} = {value!r} is not allowed "
                        f"({advantage.rule.source}: {advantage.rule.rule}){f': {why}' if why else ''}; choose one of {', '.join(candidates)}",
                        where=None,
                    )
                values[name] = (_resolve(value, names), "chosen")
            elif rng is not None:
                # Not where a factory it would add makes two ("can't have more than one industrial complex in a
                # territory"): a chosen one is refused by the board's invariants, naming what put the first there.
                free = [c for c in candidates if not _second_factory(advantage, name, _resolve(c, names), board, names)] or candidates
                values[name] = (rng.choice(free), f"drawn with seed {choices.seed}")
            else:
                raise DataFileError(
                    f"{_at(choices)}{house.id} {advantage.rule.title} needs `{name}` (one of {', '.join(candidates)}), or a `seed` to draw it", where=None
                )
        chosen.append(ChosenAdvantage(advantage, how, values))
    switches = frozenset(k for k, v in {**house.choices, **choices.switches}.items() if v)
    # What the advantages chose is a switch too, "name=value" ("neutral=Sweden"): a rule may depend on it
    # (003's W. Europe-Sweden strait closes only when Sweden is Germany's allied neutral).
    switches |= {f"{name}={value}" for c in chosen for name, (value, _) in c.values.items()}
    rules = house.rules.rules + tuple(_filled(c) for c in chosen)
    return HouseSelection(house, attrs.evolve(house.rules, rules=rules), switches, tuple(chosen), choices.seed, unplaced=tuple(unplaced))


def _at(choices: HouseChoices) -> str:
    """Where the choices were made, leading a refusal ("draft.toml: house_rule_choices.house-classic: "), if known."""
    return f"{choices.where}: " if choices.where else ""


def _named_advantage(house: HouseSet, power: str, wanted: str | int, offered: list[Advantage], where: str) -> Advantage:
    for advantage in offered:
        if wanted == advantage.number or (isinstance(wanted, str) and wanted.lower() in (advantage.id, advantage.title.lower())):
            return advantage
    raise UnknownNameError(
        f"{power} advantage", str(wanted), [a.id for a in offered], where=where or None, within=f"{house.id} ({house.advantages_source})", show_all=True
    )


def _filled(chosen: ChosenAdvantage) -> GameRule:
    """The advantage's rule with its choice written into its changes (``"{at}"`` -> the place)."""
    rule = chosen.advantage.rule
    if not chosen.values:
        return rule
    markers = {"{" + name + "}": value for name, (value, _) in chosen.values.items()}
    changes = tuple(Section({k: markers.get(v, v) if isinstance(v, str) else v for k, v in c.data.items()}, c.file, c.key) for c in rule.changes)
    note = "; ".join(f"{name} = {value} ({how})" for name, (value, how) in chosen.values.items())
    return attrs.evolve(rule, changes=changes, note=note)


def _resolve(name: str, names: Names) -> str:
    try:
        return names.place(name)
    except UnknownNameError:
        return name


def advantage_places(advantage: Advantage, choice: str, board: Board, names: Names) -> list[str]:
    """What the advantage's ``choice`` may be on this board: the rule's own list, or the places the board allows,
    less those an earlier change took from it (a neutral no longer neutral, a Dominion an enemy holds, a sea
    zone with an enemy's ships: the text's "Dominion territories", "U.K. territory", "neutral")."""
    return [p for p in _advantage_candidates(advantage, choice, board, names) if _place_blocked(advantage, choice, _resolve(p, names), board, names) is None]


def _place_blocked(advantage: Advantage, choice: str, place: str, board: Board, names: Names) -> str | None:
    """Why the advantage's ``choice`` may not be ``place`` on this board as it is, or None."""
    power = names.power(advantage.power)
    if place not in board.nodes:
        return None  # not a place: the list of candidates says what is allowed
    data = board.node(place)
    if choice == "neutral":
        return None if data["owner"] is None else f"{place} is not neutral in this game: it belongs to {data['owner']}"
    if not data["water"] and not board.catalog.allied(data["owner"], power):
        return f"{place} belongs to {data['owner'] or 'no power'} in this game, at war with {power}" if data["owner"] else f"{place} is neutral in this game"
    enemies = sorted({o for (o, _), n in data["units"].items() if n and o is not None and not board.catalog.allied(o, power)})
    if enemies:
        return f"{place} holds units of {', '.join(enemies)}, at war with {power}"
    return None


def _second_factory(advantage: Advantage, choice: str, place: str, board: Board, names: Names) -> bool:
    marker = "{" + choice + "}"
    factories = names.units_of_any_power("factory")
    adds = any(names.unit(u) in factories for c in advantage.rule.changes if marker in c.data.values() for u in c.data.get("units", {}))
    return adds and place in board.nodes and any(n and unit in factories for (_, unit), n in board.units(place).items())


def _blocked(advantage: Advantage, board: Board, names: Names) -> str | None:
    """Why the advantage's own places (not left to choose) cannot take its units on this board, or None:
    003's Far Eastern Advantage once a pick made Kazakh Japanese; or a name the map profile does not map."""
    try:
        return _places_blocked(advantage, board, names)
    except UnknownNameError as error:
        return f"the map profile maps no {error}".replace("no unknown ", "no ")


def _places_blocked(advantage: Advantage, board: Board, names: Names) -> str | None:
    for change in advantage.rule.changes:
        # 003's Economic Support takes 5 of the Americans' starting PUs: a game where they start with fewer (1941
        # Global Command Decision's start with none) cannot give it (the board refuses a negative treasury).
        if change.data.get("kind") == "set_pus" and int(change.data.get("change", 0)) < 0:
            power = names.power(change.data["power"])
            if board.pus.get(power, 0) + int(change.data["change"]) < 0:
                return f"{power} start with {board.pus.get(power, 0)} PUs here, and it takes {-int(change.data['change'])} of them"
        if change.data.get("kind") not in ("place_units", "move_units"):
            continue
        for key in ("at", "to"):
            place = change.data.get(key)
            if isinstance(place, str) and "{" not in place:
                why = _place_blocked(advantage, key, _resolve(place, names), board, names)
                if why is not None:
                    return why
    for choice in advantage.choices:
        if not advantage_places(advantage, choice, board, names):
            return f"there is no place for its `{choice}`"
    return None


def _advantage_candidates(advantage: Advantage, choice: str, board: Board, names: Names) -> list[str]:
    if choice == "neutral":
        return list(advantage.neutrals)
    marker = "{" + choice + "}"
    power = names.power(advantage.power)
    units = [u for c in advantage.rule.changes if marker in c.data.values() for u in c.data.get("units", {})]
    if units and all(board.catalog.unit_type(names.unit(u)).domain == "sea" for u in units):
        # A new ship: a sea zone beside the rule's places (those the power still holds), else beside one of the power's territories.
        if advantage.places:
            shores = [t for t in (names.place(p) for p in advantage.places) if board.node(t)["owner"] == power]
        else:
            shores = [t for t, d in board.nodes.items() if not d["water"] and d["owner"] == power]
        return sorted({z for t in shores for z in board.neighbours(t) if board.is_water(z)})
    if advantage.places:
        return list(advantage.places)
    factory = any(board.catalog.unit_type(names.unit(u)).infrastructure and names.unit(u) == names.unit("industrial complex") for u in units)
    found = []
    for territory, data in board.nodes.items():
        if data["water"] or data["owner"] != power or data["original_owner"] != power:
            continue
        if factory and ((data["production"] or 0) < 1 or board.units(territory)[(power, names.unit("industrial complex"))]):
            continue  # "an income value of at least 1"; "can't have more than one industrial complex in a territory"
        found.append(territory)
    return sorted(found)


# -- applying -------------------------------------------------------------------


def house_rule_changes(
    board: Board, profile: Profile, names: Names, chosen: list[HouseChoices], before: tuple[RuleSet, ...] = (), flags: tuple[str, ...] = ()
) -> tuple[AppliedRules, tuple[HouseSelection, ...]]:
    """The game-file changes of the house sets (after the ``before`` sets, e.g. a Kremlin ruleset's own rules).

    ``flags`` are switches turned on for every set (a draft's ``choices``).

    Conflicts between any two sets are refused by :func:`game_rules.game_rule_changes`, naming both.
    The board is not changed: push ``applied.changes``.
    """
    selections = tuple(attrs.evolve(select(load_named_house_set(c.set_file), c, board, names), map=profile.map) for c in chosen)
    for selection in selections:
        # A map the set was not written for takes it as a Kremlin ruleset's: through a profile that lists it in
        # `rulesets` and maps its names ("profile check" reads the same list); what the map lacks goes to the notes.
        if profile.map not in selection.house.rules.maps and selection.house.id not in profile.rulesets:
            raise DataFileError(
                f"{selection.house.id} is written for the maps {', '.join(selection.house.rules.maps)}, not {profile.map}: "
                f"list it in the map profile's `rulesets` ({profile.path}), map the names it uses there and run `kremlin-triplea profile check`",
                where=None,
            )
    sets = [*before, *(s.rules for s in selections)]
    _check_choices(flags, sets, selections)
    switches = frozenset(flags).union(*(s.switches for s in selections))
    applied = game_rule_changes(board, sets, profile, names, switches)
    return applied, selections


def _check_choices(flags: tuple[str, ...], sets: list[RuleSet], selections: tuple[HouseSelection, ...]) -> None:
    """Every choice of the draft is one a rule of its sets turns on or off (a choice no rule names changes nothing,
    and was a mistake the written game kept silent about)."""
    if not flags:  # the matrix asks after every pick, with none
        return
    named = {s for selection in selections for s in selection.house.choices}
    for rule_set in sets:
        for rule in rule_set.rules:
            conditions = [rule.when, rule.unless, *(c.data.get(k) for c in rule.changes for k in ("when", "unless"))]
            named |= {term.strip().removeprefix("not ").strip() for condition in conditions if isinstance(condition, str) for term in condition.split(" and ")}
    listed = {selection.house.id for selection in selections}
    for flag in flags:
        # A house set's switch is that set's, set under its own table: as a draft choice it would turn on what names
        # it in a ruleset's rules (001 header 4 gives way to 003 Winning) with no house set to hold instead.
        owner = next((set_id for set_id, switches in house_switches().items() if flag in switches and set_id not in listed), None)
        if owner is not None:
            raise DataFileError(
                f"choices: {flag!r} is a switch of {owner}: list {owner} in `house_rules` and set it under `[house_rule_choices.{owner}]`", where=None
            )
        if flag not in named:
            raise UnknownNameError(
                "choice", flag, sorted(n for n in named if "=" not in n), where="choices", within=", ".join(s.id for s in sets), show_all=True
            )


def house_switches() -> dict[str, frozenset[str]]:
    """Every installed house set's switches, by set: what a draft sets per set, never among its own ``choices``."""
    return {name: frozenset(load_named_house_set(name).choices) for name in named_rule_files("house")}


def selection_lines(selections: tuple[HouseSelection, ...]) -> list[str]:
    """What the notes and the summary say of each set's advantages: enough to make the same game again."""
    lines = []
    for selection in selections:
        house = selection.house
        # In the set's own order, as its [choices] table lists them; a switch that is on but whose rules
        # this game does not get says so, and why.
        switches = ", ".join(_switch_state(selection, k) for k in house.choices)
        lines.append(f"{house.id}: {switches or 'no switches'}" + (f"; random draws with seed {selection.seed}" if selection.seed is not None else ""))
        if not selection.advantages and house.advantages and not selection.unplaced:
            lines.append(f"{house.id}: no player advantages (optional: {house.advantages_source})")
        lines += [f"{house.id}: {why}" for why in selection.unplaced]
        for chosen in selection.advantages:
            rule = chosen.advantage.rule
            where = "written into the game" if rule.enforced_by == "game" else "kept by the players"
            extra = "".join(f"; {name} = {value} ({how})" for name, (value, how) in chosen.values.items())
            lines.append(f"{house.id}: {rule.title} ({chosen.how}{extra}): {where}")
    return lines


def _switch_state(selection: HouseSelection, switch: str) -> str:
    if switch not in selection.switches:
        return f"{switch} off"
    if not selection.map:
        return f"{switch} on"
    reasons = []
    for rule in selection.house.rules.rules:
        uses_rule = rule.when == switch
        uses_change = any(c.data.get("when") == switch for c in rule.changes)
        if not uses_rule and not uses_change:
            continue
        if rule.applies(selection.map, selection.switches):
            return f"{switch} on"
        if rule.maps and selection.map not in rule.maps:
            reasons.append(f"{rule.title} is written for the map {', '.join(rule.maps)}, not {selection.map}")
        elif rule.when and rule.when not in selection.switches:
            reasons.append(f"{rule.title} needs {rule.when} on")
    if not reasons:
        return f"{switch} on"
    return f"{switch} on but not applied ({'; '.join(dict.fromkeys(reasons))})"


@attrs.frozen
class HouseResult:
    """House-rule sets applied to a game without a Kremlin draft: no picks, no bid."""

    game: Game
    profile: Profile
    rules: AppliedRules
    selections: tuple[HouseSelection, ...]
    warnings: tuple[str, ...] = ()
    picks: tuple[()] = ()  # none: the notes' list of rules reads a draft's picks too

    def summary(self) -> list[str]:
        lines = [f"{self.game.board.game_name}: house rules {', '.join(s.house.id for s in self.selections)}, map profile {self.profile.map}"]
        lines += selection_lines(self.selections)
        if self.rules.game_lines:
            lines.append("written into the game:")
            lines += [f"  {line}" for line in self.rules.game_lines]
        kept = self.rules.kept_by_players()
        if kept:
            lines.append(f"{kept} rules the players keep themselves, in whole or in part: quoted whole in the game notes")
        return lines


def apply_house_rules(
    game: Game, chosen: list[HouseChoices], flags: tuple[str, ...] = (), profile: Profile | None = None, base: Game | None = None
) -> HouseResult:
    """Write the house sets into ``game`` (its board changes); the writer (:mod:`kremlin_triplea.tools.outputs`) adds notes and name.

    ``profile`` (``--profile``) reads the game with that map profile, else the lookup's (``profile_for_game``).
    ``base``: the game ``game`` was written from (:func:`written_from`), whose game options tell what its draft wrote."""
    if not chosen:
        raise DataFileError("no house-rule set to apply", where=None)
    game.check_rules_can_apply()
    if profile is None:
        profile = profile_for_game(game)
    else:
        profile.check_fits(game)
    names = Names(game.board, profile, tuple(game.board.catalog.alliances()))
    applied, selections = house_rule_changes(game.board, profile, names, chosen, flags=flags)
    applied = written_once(applied, game.xml)
    if base is not None:
        options_kept(applied, game.board.properties, base.board.properties)
    push_rules(game.board, applied, names)
    return HouseResult(game, profile, applied, selections, tuple(profile.check_base_file(game)) + applied.warnings())


def written_from(game: Game, maps_dir: Path | str | None) -> Game | None:
    """The base game a game this tool wrote was made from (its notes record it), or None for a game it did not write."""
    record = recorded_base(str(game.board.properties.get("notes", "")))
    if record is None:
        return None
    try:
        return load(find_recorded_base(record, Path(game.source), maps_dir))
    except InputError:
        raise InputError(
            f"its notes record the base game {record.spec}, which is not in the maps folder or beside it: the house sets are checked "
            "against the game options its draft wrote there; install that map, or give the maps folder (--maps-dir)",
            where=str(game.source),
        ) from None

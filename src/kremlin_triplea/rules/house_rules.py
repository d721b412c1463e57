"""House-rule sets (rulesets/house-*.toml): their choices, and the advantage each power gets.

A house-rule set is a file of rules (read by :mod:`game_rules`, which writes
them into the game and lists the rest in the notes) plus, here:

* ``[choices]``: the set's own switches with their defaults (003's neutral
  territories, 004's set-up move to Gibraltar); a rule or change carrying
  ``when``/``unless`` follows them;
* ``[advantages]`` and ``[[advantage]]``: one advantage per power, chosen by
  the draft (``advantages = { UK = "colonial-garrison" }``, by id or number)
  or drawn with ``seed`` — the notes record the seed, so the same inputs give
  the same game. An advantage is a rule like any other: written into the game
  where TripleA can express it, else in the notes;
* ``[[neutral]]``: a neutral-country table for the ``neutral_armies`` kind.

An advantage may leave something to choose (``choice = "at"``: where its
units go). The draft gives it (``at = "India"``), else it is drawn with the
seed from the legal places; either way the value is checked.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from kremlin_triplea.errors import UnknownNameError
from kremlin_triplea.rules.game_rules import GameRule, RuleSet, load_rule_set
from kremlin_triplea.rules.ruleset import find_data_file
from kremlin_triplea.rules.tomlfile import DataFileError, Section, read_toml

if TYPE_CHECKING:
    from kremlin_triplea.model.board import Board
    from kremlin_triplea.game import Game
    from kremlin_triplea.rules.game_rules import AppliedRules
    from kremlin_triplea.rules.names import Names
    from kremlin_triplea.rules.profile import Profile


@attrs.frozen
class Advantage:
    power: str  # rule-text name
    number: int
    id: str
    title: str
    rule: GameRule
    choices: tuple[str, ...] = ()  # what the advantage leaves to choose ("at"), each a "{name}" in its changes
    places: tuple[str, ...] = ()  # the rule's own list of places for "at"
    neutrals: tuple[str, ...] = ()  # the rule's own list of neutrals for "neutral"


@attrs.frozen
class HouseSet:
    rules: RuleSet
    choices: dict[str, bool] = attrs.field(eq=False)  # switch -> default
    advantages_source: str = ""
    advantages_rule: str = ""
    powers: tuple[str, ...] = ()
    advantages: tuple[Advantage, ...] = ()
    neutrals: tuple[dict[str, Any], ...] = ()

    @property
    def id(self) -> str:
        return self.rules.id

    def advantages_of(self, power: str) -> list[Advantage]:
        return [a for a in self.advantages if a.power == power]


def load_house_set(path: Path | str) -> HouseSet:
    path = Path(path)
    rules = load_rule_set(path)
    root = Section(read_toml(path), str(path))
    choices = root.get("choices", "a table of switch = true/false", lambda v: isinstance(v, dict) and all(isinstance(x, bool) for x in v.values()), {})
    advantages: list[Advantage] = []
    powers: tuple[str, ...] = ()
    source = rule_text = ""
    table = root.table("advantages", None)
    if table is not None:
        table.only("source", "rule", "draw_rule", "per_power", "powers")
        if table.integer("per_power") != 1:
            raise table.fail("per_power", "1 (one advantage per power)")
        powers, source, rule_text = tuple(table.texts("powers")), table.text("source"), table.text("rule", "")
        for index, section in enumerate(root.tables("advantage")):
            section.only("power", "number", "id", "title", "rule", "enforced_by", "change", "why", "differs", "choice", "places", "neutrals")
            power = section.get("power", f"one of {', '.join(powers)}", lambda v: v in powers)
            data = {k: v for k, v in section.data.items() if k not in ("power", "number", "choice", "places", "neutrals")}
            data["id"] = f"{power.lower()}-{section.text('id')}"
            data["title"] = f"{power} advantage {section.integer('number')}: {section.text('title')}"
            data["source"] = f"{source}, {power} {section.integer('number')}. {section.text('title')}"
            data["change"] = [one for change in data.get("change", []) for one in _each_place(change)]
            rule = _one_rule(data, path, f"advantage[{index}]", rules.id)
            choice = section.get("choice", "a name or a list of names", lambda v: isinstance(v, (str, list)), [])
            advantages.append(Advantage(power, section.integer("number"), section.text("id"), section.text("title"), rule,
                                        tuple([choice] if isinstance(choice, str) else choice),
                                        tuple(section.texts("places", [])), tuple(section.texts("neutrals", []))))
    neutrals = []
    for section in root.tables("neutral", []):
        section.only("name", "ipc", "army", "note")
        neutrals.append({"name": section.text("name"), "ipc": section.integer("ipc"), "army": section.counts("army")})
    return HouseSet(rules, choices, source, rule_text, powers, tuple(advantages), tuple(neutrals))


def _each_place(change: dict[str, Any]) -> list[dict[str, Any]]:
    """``at = [a, b]`` ("one more infantry on each of ...") is one placement per place."""
    if isinstance(change.get("at"), list):
        return [{**change, "at": place} for place in change["at"]]
    return [change]


def _one_rule(data: dict[str, Any], path: Path, key: str, set_id: str) -> GameRule:
    from kremlin_triplea.rules.game_rules import read_game_rules

    (rule,) = read_game_rules(Section({"rule": [data]}, str(path), key), "rule", set_id)
    return rule


@functools.cache
def load_named_house_set(name: str) -> HouseSet:
    return load_house_set(find_data_file("rulesets", name))


def neutral_table(set_id: str) -> list[dict[str, Any]]:
    """The neutral table of a house set (the ``neutral_armies`` and ``give_neutral`` kinds read it)."""
    table = list(load_named_house_set(set_id).neutrals)
    if not table:
        raise DataFileError(f"the rule set {set_id} has no [[neutral]] table", where=None)
    return table


# -- a draft's choices for one set ----------------------------------------------


@attrs.frozen
class HouseChoices:
    """What a draft (or the command line) chose for one house set."""

    set_id: str
    switches: dict[str, bool] = attrs.field(factory=dict, eq=False)
    advantages: dict[str, str | int] = attrs.field(factory=dict, eq=False)  # power -> id or number
    values: dict[str, str] = attrs.field(factory=dict, eq=False)  # an advantage's choice ("at", or "UK.at") -> value
    seed: int | None = None
    where: str = ""


def read_choices(set_id: str, section: Section | None) -> HouseChoices:
    """A draft's ``[house_rule_choices.<set>]`` table (or nothing: the set's defaults, no advantages)."""
    if section is None:
        return HouseChoices(set_id)
    house = load_named_house_set(set_id)
    switches, values = {}, {}
    for key, value in section.data.items():
        if key in ("advantages", "seed"):
            continue
        if key in house.choices:
            switches[key] = section.boolean(key)
        elif key in {c for a in house.advantages for c in a.choices} or key in {f"{a.power}.{c}" for a in house.advantages for c in a.choices}:
            values[key] = section.text(key)
        else:
            known = sorted(house.choices) + sorted({c for a in house.advantages for c in a.choices}) + ["advantages", "seed"]
            raise section.fail(key, f"one of {', '.join(known)}", key)
    advantages = section.get("advantages", "a table of power = advantage id or number",
                             lambda v: isinstance(v, dict) and all(isinstance(x, (str, int)) for x in v.values()), {})
    seed = section.integer("seed", None)
    return HouseChoices(set_id, switches, advantages, values, seed, section.file)


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


def select(house: HouseSet, choices: HouseChoices, board: Board, names: Names) -> HouseSelection:
    """The set's rules with the advantages chosen or drawn; every choice checked."""
    rng = random.Random(choices.seed) if choices.seed is not None else None
    chosen: list[ChosenAdvantage] = []
    unknown = sorted(set(choices.advantages) - set(house.powers))
    if unknown:
        raise DataFileError(f"{choices.where}: {house.id} gives advantages to {', '.join(house.powers)}, not to {', '.join(unknown)}", where=None)
    for power in house.powers:
        offered = house.advantages_of(power)
        if power in choices.advantages:
            advantage, how = _named_advantage(house, power, choices.advantages[power], offered, choices.where), "chosen"
        elif rng is not None:
            advantage, how = rng.choice(offered), f"drawn with seed {choices.seed}"
        else:
            continue  # no advantages: the rule is optional
        values: dict[str, tuple[str, str]] = {}
        for name in advantage.choices:
            candidates = _candidates(advantage, name, board, names)
            if not candidates:
                raise DataFileError(
                    f"{choices.where}: {house.id} {advantage.rule.title} ({advantage.rule.source}) cannot be given to "
                    f"{power} on this game: there is no place for its `{name}`; choose another advantage", where=None)
            # "UK.at" is the UK advantage's own; a bare "at" serves any power's.
            given = next((choices.values[k] for k in (f"{power}.{name}", name) if k in choices.values), None)
            if given is not None:
                value = given
                if _resolve(value, names) not in {_resolve(c, names) for c in candidates}:
                    raise DataFileError(
                        f"{choices.where}: {house.id} {advantage.rule.title}: {name} = {value!r} is not allowed "
                        f"({advantage.rule.source}: {advantage.rule.rule}); choose one of {', '.join(candidates)}", where=None)
                values[name] = (_resolve(value, names), "chosen")
            elif rng is not None:
                values[name] = (rng.choice(candidates), f"drawn with seed {choices.seed}")
            else:
                raise DataFileError(
                    f"{choices.where}: {house.id} {advantage.rule.title} needs `{name}` "
                    f"(one of {', '.join(candidates)}), or a `seed` to draw it", where=None)
        chosen.append(ChosenAdvantage(advantage, how, values))
    switches = frozenset(k for k, v in {**house.choices, **choices.switches}.items() if v)
    rules = house.rules.rules + tuple(_filled(c) for c in chosen)
    return HouseSelection(house, attrs.evolve(house.rules, rules=rules), switches, tuple(chosen), choices.seed)


def _named_advantage(house: HouseSet, power: str, wanted: str | int, offered: list[Advantage], where: str) -> Advantage:
    for advantage in offered:
        if wanted == advantage.number or (isinstance(wanted, str) and wanted.lower() in (advantage.id, advantage.title.lower())):
            return advantage
    raise UnknownNameError(f"{power} advantage", str(wanted), [a.id for a in offered], where=where or None,
                           within=f"{house.id} ({house.advantages_source})", show_all=True)


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


def _candidates(advantage: Advantage, choice: str, board: Board, names: Names) -> list[str]:
    """What the advantage's ``choice`` may be: the rule's own list, or the places the board allows."""
    if choice == "neutral":
        return list(advantage.neutrals)
    marker = "{" + choice + "}"
    power = names.power(advantage.power)
    units = [u for c in advantage.rule.changes if marker in c.data.values() for u in c.data.get("units", {})]
    if units and all(board.catalog.unit_type(names.unit(u)).domain == "sea" for u in units):
        # A new ship: a sea zone beside the rule's places, else beside one of the power's territories.
        shores = [names.place(p) for p in advantage.places] or [
            t for t, d in board.nodes.items() if not d["water"] and d["owner"] == power]
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


def house_rule_changes(board: Board, profile: Profile, names: Names, chosen: list[HouseChoices], before: tuple[RuleSet, ...] = (),
                       flags: tuple[str, ...] = ()) -> tuple[AppliedRules, tuple[HouseSelection, ...]]:
    """The game-file changes of the house sets (after the ``before`` sets, e.g. a Kremlin ruleset's own rules).

    ``flags`` are switches turned on for every set (a draft's ``choices``).

    Conflicts between any two sets are refused by :func:`game_rules.game_rule_changes`, naming both.
    The board is not changed: push ``applied.changes``.
    """
    from kremlin_triplea.rules.game_rules import game_rule_changes

    selections = tuple(select(load_named_house_set(c.set_id), c, board, names) for c in chosen)
    for selection in selections:
        if profile.map not in selection.house.rules.maps:
            raise DataFileError(f"{selection.house.id} is written for the maps {', '.join(selection.house.rules.maps)}, not {profile.map}", where=None)
    switches = frozenset(flags).union(*(s.switches for s in selections))
    applied = game_rule_changes(board, [*before, *(s.rules for s in selections)], profile, names, switches)
    return applied, selections


def selection_lines(selections: tuple[HouseSelection, ...]) -> list[str]:
    """What the notes and the summary say of each set's advantages: enough to make the same game again."""
    lines = []
    for selection in selections:
        house = selection.house
        # In the set's own order, as its [choices] table lists them.
        switches = ", ".join(f"{k} {'on' if k in selection.switches else 'off'}" for k in house.choices)
        lines.append(f"{house.id}: {switches or 'no switches'}" + (f"; random draws with seed {selection.seed}" if selection.seed is not None else ""))
        if not selection.advantages and house.advantages:
            lines.append(f"{house.id}: no player advantages (optional: {house.advantages_source})")
        for chosen in selection.advantages:
            rule = chosen.advantage.rule
            where = "written into the game" if rule.enforced_by == "game" else "kept by the players"
            extra = "".join(f"; {name} = {value} ({how})" for name, (value, how) in chosen.values.items())
            lines.append(f"{house.id}: {rule.title} ({chosen.how}{extra}): {where}")
    return lines


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
        if self.rules.players:
            lines.append(f"{len(self.rules.players)} rules the players enforce themselves: listed in the game notes")
        return lines


def apply_house_rules(game: Game, chosen: list[HouseChoices], flags: tuple[str, ...] = (), *, write_notes: bool = True) -> HouseResult:
    """Write the house sets into ``game`` (its board changes), with notes and a new game name."""
    from kremlin_triplea.model.changes import SetGameName, SetProperty
    from kremlin_triplea.rules.names import Names
    from kremlin_triplea.rules.profile import profile_for_game

    if not chosen:
        raise DataFileError("no house-rule set to apply", where=None)
    profile = profile_for_game(game)
    names = Names(game.board, profile, tuple(game.board.catalog.alliances()))
    applied, selections = house_rule_changes(game.board, profile, names, chosen, flags=flags)
    game.board.push_all(list(applied.changes))
    result = HouseResult(game, profile, applied, selections, tuple(profile.check_base_file(game)))
    if write_notes:
        game.board.push(SetProperty("notes", house_notes_html(result) + game.board.properties.get("notes", "")))
        game.board.push(SetGameName(f"{game.initial.game_name} - {' + '.join(s.house.id for s in selections)}"))
    return result


def house_notes_html(result: HouseResult) -> str:
    from html import escape

    from kremlin_triplea.report.notes import rules_html

    parts = ["<h2>House rules</h2>", "<ul>" + "".join(f"<li>{escape(line)}</li>" for line in selection_lines(result.selections)) + "</ul>"]
    parts += rules_html(result)
    parts.append("<hr/>")
    return "\n".join(parts).replace("]]>", "]]&gt;") + "\n"

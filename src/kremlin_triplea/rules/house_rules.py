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
from pathlib import Path
from typing import Any

import attrs

from kremlin_triplea.rules.game_rules import GameRule, RuleSet, load_rule_set, read_game_rules
from kremlin_triplea.rules.ruleset import find_data_file
from kremlin_triplea.rules.tomlfile import DataFileError, KeyLines, Section, read_toml, read_toml_text


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
    text = read_toml_text(path)
    root = Section(read_toml(path, text), str(path), lines=KeyLines.of_text(text))
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
            section.only(
                "power",
                "number",
                "id",
                "title",
                "rule",
                "enforced_by",
                "change",
                "why",
                "differs",
                "choice",
                "places",
                "neutrals",
                "players_keep",
                "before_play",
            )
            power = section.choice("power", powers)
            data = {k: v for k, v in section.data.items() if k not in ("power", "number", "choice", "places", "neutrals")}
            data["id"] = f"{power.lower()}-{section.text('id')}"
            data["title"] = f"{power} advantage {section.integer('number')}: {section.text('title')}"
            data["source"] = f"{source}, {power} {section.integer('number')}. {section.text('title')}"
            data["change"] = [one for change in data.get("change", []) for one in _each_place(change)]
            rule = _one_rule(data, path, f"advantage[{index}]", rules.id)
            choice = section.get(
                "choice", "a name or a list of names", lambda v: isinstance(v, str) or (isinstance(v, list) and all(isinstance(c, str) for c in v)), []
            )
            advantages.append(
                Advantage(
                    power,
                    section.integer("number"),
                    section.text("id"),
                    section.text("title"),
                    rule,
                    tuple([choice] if isinstance(choice, str) else choice),
                    tuple(section.texts("places", [])),
                    tuple(section.texts("neutrals", [])),
                )
            )
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
    (rule,) = read_game_rules(Section({"rule": [data]}, str(path), key), "rule", set_id)
    return rule


@functools.cache
def load_named_house_set(name: str) -> HouseSet:
    return load_house_set(find_data_file("rulesets", name))


def neutral_table(set_id: str, file: str = "") -> list[dict[str, Any]]:
    """The neutral table of a house set (the ``neutral_armies`` and ``give_neutral`` kinds read it), read from
    ``file`` when the rule knows it (a set given by path), else by its id."""
    table = list(load_named_house_set(file or set_id).neutrals)
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
    #: The set's file when it was given by path (``house -r ./my-set.toml``): read from there, not by its id.
    file: str = attrs.field(default="", eq=False)

    @property
    def set_file(self) -> str:
        """What names the set for reading it again: its file if known, else its id (rulesets/<id>.toml)."""
        return self.file or self.set_id


def read_choices(set_id: str, section: Section | None) -> HouseChoices:
    """A draft's ``[house_rule_choices.<set>]`` table (or nothing: the set's defaults, no advantages)."""
    if section is None:
        return HouseChoices(set_id)
    house = load_named_house_set(set_id)
    switches, values = {}, {}
    for key in section.data:
        if key in ("advantages", "seed"):
            continue
        if key in house.choices:
            switches[key] = section.boolean(key)
        elif key in {c for a in house.advantages for c in a.choices} or key in {f"{a.power}.{c}" for a in house.advantages for c in a.choices}:
            values[key] = section.text(key)
        else:
            known = sorted(house.choices) + sorted({c for a in house.advantages for c in a.choices}) + ["advantages", "seed"]
            raise section.fail(key, f"one of {', '.join(known)}", key)
    advantages = section.get(
        "advantages", "a table of power = advantage id or number", lambda v: isinstance(v, dict) and all(isinstance(x, (str, int)) for x in v.values()), {}
    )
    seed = section.integer("seed", None)
    return HouseChoices(set_id, switches, advantages, values, seed, section.file)

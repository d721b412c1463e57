"""Rules written into the game: a rule set's rules that are not bonus options.

Design
------
Every rule of a rule document is one entry, in the document's order, quoting
its words, with who enforces it (``enforced_by``):

``tool``
    checked at draft time by this program (``checked_by`` says where);
``game``
    written into the game file, so TripleA enforces it: a list of ``change``
    entries, each a primitive game-file action implemented once here
    (``built_in`` instead when TripleA already does it; ``differs`` when
    TripleA's version is not exactly the text — the notes repeat that);
``players``
    TripleA cannot express it: the game's notes list it under "Rules the
    players enforce themselves" (``why`` says why the game cannot).

The entries live in a Kremlin ruleset as ``[[game_rule]]`` (its section D),
or in a house-rules file as ``[[rule]]`` (rulesets/house-*.toml, whole files of
such entries). A draft may add house-rule sets (``house_rules = [...]``); the
actions of every set are collected, conflicts between sets (two sets changing
the same thing differently) are refused with one error naming both sources,
and the rest applied in a fixed order: the draft's ruleset, then the house
sets in the draft's order, each in file order.

Change kinds (``kind = ...``), names in the rule text's words, translated by the
map profile; map facts (which sea zones make a strait, where a turn step goes)
come from the profile with their reasons:

=================  =========================================================
set_property       ``name``, ``value`` (true/false, a number, a text); a
                   property the game lacks is declared with that type
canal              ``strait`` (profile ``[straits.<strait>]``: sea-zone pairs),
                   ``land`` (rule-text territories; else the profile's),
                   ``ships`` = "all" (air passes) or "surface" (air and
                   submarines pass), ``control`` = "all_of" or "any_of"
victory_city       ``from`` loses its victory city, ``to`` gains it
turn_step          ``id``, ``power``, ``move`` = "non_combat", ``rounds`` = 1
                   (TripleA maxRunCount), ``position`` (profile
                   ``[turn_step_positions.<position>]``: the step it follows)
grant_tech         ``power``, ``tech`` (TripleA's technology name)
frontier_cost      ``power``, ``costs`` = { unit = PUs }: that power's own prices
attachment_option  ``attachment`` (its name), ``attach_to`` (power or
                   territory), ``option``, and ``value`` (a text), ``add``
                   (territories joined to a ``:`` list) or ``remove = true``
place_units        ``power``, ``units``, ``at``
move_units         ``power``, ``units``, ``from``, ``to``
=================  =========================================================

A ``change`` or a rule may carry ``when``/``unless`` (a choice the draft
makes, e.g. "neutral_territories") and a rule ``maps`` (the map names it is
for). A rule the game enforces may say what the game at hand must have for
that to be true (``[[holds_if]]``, :data:`HOLDS_IF_KINDS`): the written game
is checked before the notes say "TripleA enforces" it (report/claims.py), and
a rule whose check fails is the players'. The API for other rule sets:
:func:`game_rule_changes`.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from kremlin_triplea.rules.datafiles import check_file_kind, data_file_kind, rule_file_kind
from kremlin_triplea.rules.registry import Registry
from kremlin_triplea.rules.tomlfile import DataFileError, KeyLines, Section, read_toml, read_toml_text

ENFORCED_BY = ("tool", "game", "players")
RULE_KEYS = (
    "id",
    "title",
    "source",
    "rule",
    "enforced_by",
    "change",
    "checked_by",
    "built_in",
    "differs",
    "why",
    "maps",
    "when",
    "unless",
    "choice",
    "written_by",
    "note",
    "players_keep",
    "before_play",
    "holds_if",
)

#: What a rule TripleA enforces needs of the game at hand (``[[game_rule.holds_if]]``), each kind with its keys:
#: the claim is checked against the game written (report/claims.py), and a rule whose check fails is the players'.
HOLDS_IF_KINDS = {
    "property": ("name", "value"),  # the game's property has this value
    "attachment_option": ("attachment", "power", "option", "value"),  # a power's attachment has the option (this value)
    "technology": ("name",),  # the game's technologies include it (TripleA's name, e.g. "superSub")
    "profile": ("table",),  # the map profile says the game does it: "factory_output" (enforced_by_game)
    "bid_phase": ("side",),  # each power of the side has TripleA's own bid phase: its bid property and bid steps
}

#: Each change kind a game rule may write, with the keys its ``[[change]]`` table takes; the action that carries it
#: out is registered under the same name in gamerules (``CHANGE_ACTIONS``: a test keeps the two in step).
CHANGE_KINDS: Registry[tuple[str, ...]] = Registry("change kind")
CHANGE_KINDS.add("set_property", ("name", "value"))
CHANGE_KINDS.add("canal", ("strait", "land", "ships", "control"))
CHANGE_KINDS.add("victory_city", ("from", "to"))
CHANGE_KINDS.add("turn_step", ("id", "power", "move", "rounds", "position"))
CHANGE_KINDS.add("grant_tech", ("power", "tech"))
CHANGE_KINDS.add("frontier_cost", ("power", "costs"))
CHANGE_KINDS.add("attachment_option", ("attachment", "attach_to", "option", "value", "add", "remove"))
CHANGE_KINDS.add("place_units", ("power", "units", "at"))
CHANGE_KINDS.add("move_units", ("power", "units", "from", "to"))
# The house-rule sets' own kinds (objectives, research price, PUs, triggers, neutral armies...).
CHANGE_KINDS.add("tech_cost", ("power", "cost"))
CHANGE_KINDS.add("price_change", ("power", "units", "change", "percent", "round"))
CHANGE_KINDS.add("technology_prices", ("tech", "percent", "round"))
CHANGE_KINDS.add("set_pus", ("power", "change"))
CHANGE_KINDS.add("trigger_pus", ("power", "amount", "after_step"))
CHANGE_KINDS.add("trigger_units", ("power", "units", "at", "before_step", "uses"))
CHANGE_KINDS.add("power_tech", ("power", "name", "movement_bonus", "attack_bonus", "defense_bonus", "radar_bonus", "abilities"))
CHANGE_KINDS.add("tech_ability", ("tech", "air_attack_bonus", "air_defense_bonus"))
CHANGE_KINDS.add("unit_support", ("power", "attach_to", "units", "side", "bonus", "number"))
CHANGE_KINDS.add("objective", ("power", "amends", "value", "condition"))
CHANGE_KINDS.add("neutral_armies", ())
CHANGE_KINDS.add("give_neutral", ("power", "neutral", "pay", "army"))


@attrs.frozen
class GameRule:
    set_id: str  # the rule set it belongs to
    id: str
    title: str
    source: str
    rule: str
    enforced_by: str
    changes: tuple[Section, ...] = attrs.field(eq=False, default=())
    checked_by: str = ""
    built_in: str = ""
    differs: str = ""
    why: str = ""
    note: str = ""
    maps: tuple[str, ...] = ()
    when: str | None = None
    unless: str | None = None
    #: Of a rule TripleA plays, the part the players keep themselves (the notes quote the rule whole for it).
    players_keep: str = ""
    #: The players' part is done before play starts (a purchase, who goes first), not during it.
    before_play: bool = False
    #: What the game at hand must have for TripleA to enforce the rule (HOLDS_IF_KINDS): a claim is checked, never assumed.
    holds_if: tuple[Section, ...] = attrs.field(eq=False, default=())
    #: The data file the rule was read from: its set is read again from there (a set given by path has no
    #: file under rulesets/ named by its id).
    file: str = attrs.field(default="", eq=False)

    @property
    def label(self) -> str:
        return f"{self.set_id} rule {self.id!r} ({self.source})"

    def applies(self, map_name: str, choices: frozenset[str]) -> bool:
        return (not self.maps or map_name in self.maps) and is_chosen(self.when, self.unless, choices)


@attrs.frozen
class RuleSet:
    """A file of rules: a house-rules set (``[[rule]]``), or a Kremlin ruleset's ``[[game_rule]]``s."""

    id: str
    title: str
    source: str
    path: str
    rules: tuple[GameRule, ...]
    maps: tuple[str, ...] = ()


def read_game_rules(root: Section, key: str, set_id: str) -> tuple[GameRule, ...]:
    rules = []
    for section in root.tables(key, []):
        section.only(*RULE_KEYS)
        enforced_by = section.choice("enforced_by", ENFORCED_BY)
        changes = tuple(section.tables("change", []))
        holds_if = tuple(section.tables("holds_if", []))
        for check in holds_if:
            kind = check.choice("kind", tuple(HOLDS_IF_KINDS))
            check.only("kind", *HOLDS_IF_KINDS[kind])
            for key in HOLDS_IF_KINDS[kind]:
                if key != "value":  # each where it stands (a missing key was a KeyError when the notes were written)
                    check.text(key)
                elif kind == "property" or "value" in check.data:  # an attachment option may be asked for alone
                    check.get("value", "a text, true/false or a whole number", lambda v: isinstance(v, (str, bool, int)))
            if kind == "profile":
                check.choice("table", ("factory_output",))
        if holds_if and enforced_by != "game":
            raise section.fail("holds_if", "what the game needs for a rule TripleA enforces (a rule the players keep needs nothing of it)")
        for change in changes:
            kind = change.choice("kind", CHANGE_KINDS)
            change.only("kind", "when", "unless", *CHANGE_KINDS[kind])
        if enforced_by == "game" and not changes and not section.has("built_in") and not section.has("written_by"):
            raise section.fail("change", "game-file changes (or `built_in`: how TripleA already enforces it) for a rule enforced by the game")
        if enforced_by != "game" and changes:
            raise section.fail("change", f"no game-file changes: the rule is enforced by the {enforced_by}")
        if enforced_by == "players" and not section.has("why"):
            raise section.fail("why", "why the game cannot enforce it, for a rule the players enforce")
        if section.has("players_keep") and enforced_by != "game":
            raise section.fail("players_keep", "what the players keep of a rule the game enforces (a players' rule is theirs whole)")
        if section.has("before_play") and enforced_by != "players" and not section.has("players_keep"):
            raise section.fail("before_play", "a rule the players keep, or `players_keep` saying which part of it")
        rules.append(
            GameRule(
                set_id=set_id,
                id=section.text("id"),
                title=section.text("title"),
                source=section.text("source"),
                rule=section.text("rule"),
                enforced_by=enforced_by,
                changes=changes,
                checked_by=section.text("checked_by", ""),
                built_in=section.text("built_in", ""),
                differs=section.text("differs", ""),
                why=section.text("why", ""),
                note=section.text("note", ""),
                maps=tuple(section.texts("maps", [])),
                when=section.text("when", None),
                unless=section.text("unless", None),
                players_keep=section.text("players_keep", ""),
                before_play=section.boolean("before_play", False),
                holds_if=holds_if,
                file=root.file,
            )
        )
    ids = [r.id for r in rules]
    for index, rule in enumerate(rules):
        if ids.count(rule.id) > 1:
            raise root.fail(f"{key}[{index}]", "a rule id used once", rule.id)
    return tuple(rules)


def load_rule_set(path: Path | str) -> RuleSet:
    """A house-rules file: its ``[[rule]]`` entries (a Kremlin ruleset's own rules are ``Ruleset.rule_set``)."""
    path = Path(path)
    text = read_toml_text(path)
    data = read_toml(path, text)
    if data_file_kind(data) in ("profile", "draft"):
        check_file_kind(data, path, "house")
    if rule_file_kind(path) != "house":
        raise DataFileError(f"{path} is a Kremlin ruleset (it has bonus options), not a house-rule set", where=None)
    root = Section(data, str(path), lines=KeyLines.of_text(text))
    # National advantages and neutral tables of house sets are read by their own mechanism (house rules, issue 6).
    root.only("id", "title", "source", "maps", "rule", "choices", "advantages", "advantage", "neutral")
    set_id = root.text("id")
    return RuleSet(set_id, root.text("title"), root.text("source"), str(path), read_game_rules(root, "rule", set_id), tuple(root.texts("maps", [])))


def is_chosen(when: str | None, unless: str | None, choices: frozenset[str]) -> bool:
    """Whether a rule or change with these ``when``/``unless`` switches is on for ``choices``.

    Each is a switch name or switches joined by " and ", any of them prefixed "not " (002's tech limits hold
    ``unless = "low_luck and not low_luck_with_tech"``: Low Luck drops tech unless the players keep it).
    """
    return (when is None or _holds(when, choices)) and (unless is None or not _holds(unless, choices))


def _holds(condition: str, choices: frozenset[str]) -> bool:
    return all((term.removeprefix("not ").strip() in choices) != term.startswith("not ") for term in (t.strip() for t in condition.split(" and ")))

"""Scenarios: a named what-if (Kremlin AA50 option 11, the classic rulesets' power scenarios) as data.

Design
------
A scenario is data in the ruleset (``[[scenario]]``), in the rule text's own names:

* ``id``, ``title`` (as the rule text gives it), ``side``, optionally ``power``
  (the classic rulesets group their scenarios by power), ``source`` and the
  quoted ``rule``;
* ``involves``: the territories and sea zones the scenario involves. It cannot
  be picked if the opposing side has already affected one of them, and picking
  it locks them (and every place a step touches) against the opposing side;
* ``steps``: steps in the rule text's own terms, applied in order, each
  computing its effect from the board as it stands when the scenario is picked
  (earlier picks of both sides may have moved, placed or captured things)::

      { place = "Gibraltar", power = "Germany", units = { infantry = 2 } }
      { remove = "United Kingdom", power = "UK", units = { fighter = 1, bomber = 1 } }  # at most these, as many as are there
      { move = "Seazone 44", to = "Seazone 53", power = "USA", units = { carrier = 1, fighter = 1 } }
      { destroy = "Seazone 12", power = "UK" }       # every unit of UK there; or side = "Allies"
      { destroy = "China", power = "USA", types = ["infantry"] }   # "All US infantry in China ... destroyed"
      { retreat = "Algeria", to = "Libya", power = "Germany" }    # "German forces in Algeria are retreated to Libya"
      { capture = "Gibraltar", by = "Germany" }      # keeps its original owner: liberation works
      { army = "Argentina", by = "Germany", navy_at = "Drake Passage" }  # "gains control of Argentina's army"

  ``destroy`` and ``retreat`` act on whatever units of the power (of ``types``
  if given) are there at that moment; ``capture`` takes the territory with
  what is there: units of powers at war with the taker still in it are
  destroyed (factories and AA guns change hands, as in TripleA), so a captured
  territory never holds its former owner's units; ``army`` gives the taker a
  neutral and its army from the ruleset's neutral table, once: if an earlier
  pick of the same side already took the neutral, its army exists already.

* ``[[scenario.variant]]``: the rule text's clauses for one edition of the game
  ("If this scenario is chosen in the 1942 version ..."), replacing ``steps``
  (and ``involves`` if given) when the map profile says the game is that edition;
* ``players_enforce``: what the scenario asks that the game cannot do (it goes to
  the game notes' players'-honour list); a variant has its own.

The map profile translates the names and records every mismatch between the
text and a game's setup as a ``[[scenario_decision]]`` (the report ``apply``
prints and its reason, optionally replacing the steps for that game). A step
that cannot apply (a unit to remove is not there) is an error naming the
scenario, the step and the game, never a silent skip; a place the text names
that the map does not have is listed in the profile's ``[absent_places]``.

A draft picks a scenario with ``option = 11, scenario = "Operation Felix"``
(the title, case-insensitive, or the id). One scenario per side: the option's
own no-repeat rule, quoted as the option's ``one_per_side`` quote.
"""

from __future__ import annotations

import attrs

from kremlin_triplea.errors import UnknownNameError
from kremlin_triplea.rules.tomlfile import Section

STEP_KINDS = ("place", "remove", "move", "retreat", "capture", "destroy", "army")


@attrs.frozen
class Step:
    """One primitive step, in rule-text names: ``kind`` is one of STEP_KINDS, ``at`` the place it acts on."""

    kind: str
    at: str
    power: str | None = None  # place/remove/move/retreat/destroy: whose units; capture/army: the new owner
    side: str | None = None  # destroy: every unit of this side
    units: tuple[tuple[str, int], ...] = ()  # place/remove/move: how many of each type
    to: str | None = None  # move/retreat: the destination; army: the sea zone for the neutral's ships
    types: tuple[str, ...] = ()  # destroy/retreat: only units of these types (none: every unit)


@attrs.frozen
class Variant:
    edition: str
    rule: str
    steps: tuple[Step, ...]
    involves: tuple[str, ...] | None = None
    players_enforce: str = ""


@attrs.frozen
class Scenario:
    id: str
    title: str
    side: str
    source: str
    rule: str
    involves: tuple[str, ...]
    steps: tuple[Step, ...]
    power: str | None = None
    number: int | None = None  # its number in the rule text's list for its side
    variants: tuple[Variant, ...] = ()
    players_enforce: str = ""

    def for_edition(self, edition: str | None) -> tuple[tuple[Step, ...], tuple[str, ...], Variant | None]:
        """The steps and involved places for a game of ``edition``, and the variant used (if any)."""
        for variant in self.variants:
            if edition is not None and variant.edition.lower() == edition.lower():
                return variant.steps, variant.involves if variant.involves is not None else self.involves, variant
        return self.steps, self.involves, None


@attrs.frozen
class ScenarioDecision:
    """A map profile's decision where the rule text and one game's setup disagree."""

    scenario: str
    games: tuple[str, ...]  # base game files or editions it applies to
    report: str
    reason: str
    steps: tuple[Step, ...] | None = None  # replaces the scenario's steps for these games

    def applies_to(self, file: str | None, edition: str | None) -> bool:
        keys = {k.lower() for k in self.games}
        return (file or "").lower() in keys or (edition or "").lower() in keys


# -- reading -------------------------------------------------------------------


def read_steps(section: Section, key: str) -> tuple[Step, ...]:
    steps = []
    for entry in section.tables(key):
        kinds = [k for k in STEP_KINDS if entry.has(k)]
        if len(kinds) != 1:
            raise entry.fail(kinds[1] if kinds else STEP_KINDS[0], f"exactly one of {', '.join(STEP_KINDS)} per step")
        kind = kinds[0]
        if kind in ("place", "remove"):
            entry.only(kind, "power", "units")
            steps.append(Step(kind, entry.text(kind), power=entry.text("power"), units=tuple(entry.counts("units").items())))
        elif kind == "move":
            entry.only(kind, "to", "power", "units")
            steps.append(Step(kind, entry.text(kind), power=entry.text("power"), units=tuple(entry.counts("units").items()), to=entry.text("to")))
        elif kind == "retreat":
            entry.only(kind, "to", "power", "types")
            steps.append(Step(kind, entry.text(kind), power=entry.text("power"), to=entry.text("to"), types=tuple(entry.texts("types", []))))
        elif kind == "capture":
            entry.only(kind, "by")
            steps.append(Step(kind, entry.text(kind), power=entry.text("by")))
        elif kind == "army":
            entry.only(kind, "by", "navy_at")
            steps.append(Step(kind, entry.text(kind), power=entry.text("by"), to=entry.text("navy_at", None)))
        else:
            entry.only(kind, "power", "side", "types")
            if entry.has("power") == entry.has("side"):
                raise entry.fail("power", "either `power` or `side` (whose units are destroyed)")
            steps.append(Step(kind, entry.text(kind), power=entry.text("power", None), side=entry.text("side", None), types=tuple(entry.texts("types", []))))
    return tuple(steps)


def read_scenarios(root: Section, sides: tuple[str, ...]) -> tuple[Scenario, ...]:
    scenarios = []
    for section in root.tables("scenario", []):
        section.only("id", "number", "title", "side", "power", "source", "rule", "involves", "steps", "variant", "players_enforce")
        side = section.text("side")
        if side not in sides:
            raise section.fail("side", f"one of {', '.join(sides)}", side)
        variants = []
        for entry in section.tables("variant", []):
            entry.only("edition", "rule", "steps", "involves", "players_enforce")
            involves = entry.texts("involves", None)
            variants.append(
                Variant(
                    entry.text("edition"),
                    entry.text("rule"),
                    read_steps(entry, "steps"),
                    tuple(involves) if involves is not None else None,
                    entry.text("players_enforce", ""),
                )
            )
        scenarios.append(
            Scenario(
                id=section.text("id").strip().lower(),
                title=section.text("title"),
                side=side,
                source=section.text("source"),
                rule=section.text("rule"),
                involves=tuple(section.texts("involves")),
                steps=read_steps(section, "steps"),
                power=section.text("power", None),
                number=section.integer("number", None),
                variants=tuple(variants),
                players_enforce=section.text("players_enforce", ""),
            )
        )
    seen: set[str] = set()
    for index, scenario in enumerate(scenarios):
        for key in (scenario.id, scenario.title.lower()):
            if key in seen:
                raise root.fail(f"scenario[{index}]", "a scenario id and title used by no other scenario", key)
            seen.add(key)
    return tuple(scenarios)


def read_decisions(root: Section) -> tuple[ScenarioDecision, ...]:
    decisions = []
    for section in root.tables("scenario_decision", []):
        section.only("scenario", "games", "report", "reason", "steps")
        decisions.append(
            ScenarioDecision(
                scenario=section.text("scenario").strip().lower(),
                games=tuple(section.texts("games")),
                report=section.text("report"),
                reason=section.text("reason"),
                steps=read_steps(section, "steps") if section.has("steps") else None,
            )
        )
    return tuple(decisions)


def find_scenario(scenarios: tuple[Scenario, ...], key: str, *, within: str, where: str | None = None) -> Scenario:
    """A scenario by its title as the rule text gives it (any case) or its id."""
    wanted = key.strip().lower()
    for scenario in scenarios:
        if wanted in (scenario.id, scenario.title.lower()):
            return scenario
    # Named by their titles, as the rule text and the players name them (an id is taken too, never offered: the room
    # showed "china-joins-japan, indian-ocean, ..." after the titles).
    raise UnknownNameError("scenario", key, [s.title for s in scenarios], where=where, within=within)

"""The terminal draft's house-rule questions, in one pass (issue 42).

Every answer is checked as it is given, as ``apply`` checks the draft's ``house_rules`` after the ruleset's own
rules: a switch that would write what the Kremlin ruleset (or a set already chosen) writes otherwise is preset off
with the conflict as its reason; a conflict an answer makes is said at once with its fix offered as a yes/no
question; ``change`` starts from the answers given; ``help NAME`` shows a switch's rules or an advantage's rule; a
seed's draws are shown when drawn.
"""

from __future__ import annotations

import textwrap
from typing import Any

from kremlin_triplea.assistant.asking import Choice
from kremlin_triplea.errors import KremlinError
from kremlin_triplea.gamerules.house import advantage_places, house_rule_changes, select
from kremlin_triplea.rules.datafiles import named_rule_files
from kremlin_triplea.rules.house_rules import Advantage, HouseSet, load_house_set, read_choices
from kremlin_triplea.rules.tomlfile import Section
from kremlin_triplea.session import HouseRuleChoice

#: The sentence the conflict ends with for the draft file and the command line (gamerules/actions.py ``_conflict``):
#: the terminal offers the fix as a question instead.
_FILE_FIXES = (". To keep only one, set ", ". Drop one of the two rule sets")


def conflict_words(problem: KremlinError, *, short: bool = False) -> str:
    """A conflict as the terminal says it: what conflicts, without the fix for the file and the command line;
    ``short``, only which rules write what (not how each writes it)."""
    text = str(problem)
    for fix in _FILE_FIXES:
        text = text.split(fix)[0]
    return text.split(", differently: ")[0] + " differently" if short and ", differently: " in text else text


def switch_title(house: HouseSet, switch: str) -> str:
    """A switch in the players' words: the titles of the rules it turns on."""
    titles = list(dict.fromkeys(r.title for r in house.rules.rules if r.when == switch))
    return "; ".join(titles) or switch.replace("_", " ")


def switch_help(house: HouseSet, switch: str) -> list[str]:
    wrap = textwrap.TextWrapper(width=100, subsequent_indent="  ")
    lines = [f"{house.id} switch {switch} (default {'on' if house.choices[switch] else 'off'}): turns on"]
    for rule in (r for r in house.rules.rules if r.when == switch):
        lines += [f"{rule.title} ({rule.source}; enforced by the {rule.enforced_by})", *wrap.wrap(f'"{rule.rule}"')]
    return lines


def advantage_help(advantage: Advantage) -> list[str]:
    wrap = textwrap.TextWrapper(width=100, subsequent_indent="  ")
    rule = advantage.rule
    return [f"{rule.title} ({rule.source}; enforced by the {rule.enforced_by})", *wrap.wrap(f'"{rule.rule}"')]


class HouseQuestions:
    """The house-rule sets for the session's map, asked of the players through ``conversation``."""

    def __init__(self, conversation: Any) -> None:  # assistant.session.Conversation, which asks through this class
        self.conversation = conversation
        self.session = conversation.session
        self.chosen: dict[str, dict[str, Any]] = {}  # the sets taken so far: set id -> its [house_rule_choices] table
        self.house: HouseSet | None = None  # the set being asked about, for ``help``
        self.power: str | None = None  # the power whose advantage is being asked, for ``help N``

    def say(self, text: str = "") -> None:
        self.conversation.say(text)

    # -- checks, as apply makes them ---------------------------------------------

    def problem(self, set_id: str, table: dict[str, Any]) -> KremlinError | None:
        """Why the sets taken and ``set_id`` with ``table`` would not apply after the ruleset's own rules; None if they would."""
        session = self.session
        run = session.run
        chosen = {**self.chosen, set_id: table}
        try:
            choices = [read_choices(n, Section(t, str(session.path), f"house_rule_choices.{n}")) for n, t in chosen.items()]
            house_rule_changes(session.game.board, run.profile, run.names, choices, before=(run.ruleset.rule_set,), flags=session.draft.choices)
        except KremlinError as error:
            return error
        return None

    def settling_switch(self, house: HouseSet, switches: dict[str, bool], extra: dict[str, Any], problem: KremlinError) -> str | None:
        """The first switch that is on whose turning off settles ``problem`` (found by trying, as apply would judge it)."""
        for switch, on in switches.items():
            if on:
                other = self.problem(house.id, table_of(house, {**switches, switch: False}, extra))
                if other is None or str(other) != str(problem):
                    return switch
        return None

    def same_without_advantages(self, house: HouseSet, switches: dict[str, bool], problem: KremlinError) -> bool:
        """Whether ``problem`` is the set's own, there without any advantage (no advantage settles it)."""
        without = self.problem(house.id, table_of(house, switches, {}))
        return without is not None and str(without) == str(problem)

    def help_lines(self, name: str) -> list[str] | None:
        """``help NAME`` while a set is asked about: a switch's rules, or an advantage (by number, the power's being asked)."""
        house = self.house
        if house is None:
            return None
        key = name.strip().casefold()
        for switch in house.choices:
            if key in (switch.casefold(), switch_title(house, switch).casefold()):
                return switch_help(house, switch)
        mine = house.advantages_of(self.power) if self.power is not None else []
        for advantage in [*mine, *house.advantages]:
            if key in (str(advantage.number), advantage.id.casefold(), advantage.title.casefold(), advantage.rule.id.casefold()):
                if key.isdigit() and advantage not in mine:
                    continue  # a number names the advantage of the power being asked
                return advantage_help(advantage)
        return None

    # -- the questions --------------------------------------------------------------

    def ask_sets(self) -> None:
        session = self.session
        sets = {name: load_house_set(path) for name, path in named_rule_files("house").items()}
        offered = {name: house for name, house in sets.items() if not house.rules.maps or session.profile.map in house.rules.maps}
        if not offered:
            return
        self.say("House-rule sets for this map (added to the game after the picks and the bid; 'help NAME' shows a switch's or an advantage's rule):")
        choose = self.conversation.choose
        while True:
            done = Choice(None, ("none", "done", "no"), "none" if not self.chosen else "done")
            left = [Choice(n, (n, h.rules.title), f"{n}  {h.rules.title} ({h.rules.source})") for n, h in offered.items() if n not in self.chosen]
            if not left:
                break
            set_id = choose("house rules> ", [done, *left], default=done)
            if set_id is None:
                break
            house = offered[set_id]
            self.house = house
            try:
                switches, extra = self.preset(house), {}
                while True:
                    switches, extra = self.ask_switches(house, switches), self.ask_advantages(house, switches, extra)
                    table = table_of(house, switches, extra)
                    problem = self.problem(set_id, table)
                    if problem is None:
                        self.chosen[set_id] = table
                        break
                    self.say(f"  {conflict_words(problem)}")
                    change = Choice(True, ("change",), "change (its switches and advantages, from the answers given)")
                    if not choose(f"{set_id}> ", [change, Choice(False, ("drop",), "drop (no house rules from it)")], default=change):
                        break
            finally:
                self.house = self.power = None
        if self.chosen:
            for set_id, table in self.chosen.items():
                session.push(HouseRuleChoice.of(set_id, table))
            session.save()

    def preset(self, house: HouseSet) -> dict[str, bool]:
        """The set's switches, those that would write what the ruleset (or a set taken) writes otherwise turned off, each with why."""
        switches = dict(house.choices)
        for _ in house.choices:
            problem = self.problem(house.id, table_of(house, switches, {}))
            switch = self.settling_switch(house, switches, {}, problem) if problem is not None else None
            if switch is None:
                break
            switches[switch] = False
            self.say(f"  {switch} ({switch_title(house, switch)}) is preset off: {conflict_words(problem, short=True)}")
        return switches

    def ask_switches(self, house: HouseSet, switches: dict[str, bool]) -> dict[str, bool]:
        if not house.choices:
            return switches
        switches = dict(switches)
        self.say(f"  {house.id} switches ({len(switches)}):")
        for switch, on in switches.items():
            self.say(f"    {switch} ({'on' if on else 'off'}): {switch_title(house, switch)}")
        while True:
            done = Choice(None, ("done",), "done")
            switch = self.conversation.choose(
                f"{house.id}: a switch to turn on or off (Enter: done)> ",
                [done, *(Choice(k, (k, switch_title(house, k)), f"{k} ({'on' if v else 'off'})") for k, v in switches.items())],
                default=done,
                list_them=False,
                counted=False,  # listed with their titles above
            )
            if switch is None:
                return switches
            switches[switch] = not switches[switch]
            self.say(f"  {switch}: {'on' if switches[switch] else 'off'}")
            problem = self.problem(house.id, table_of(house, switches, {}))
            if problem is None:
                continue
            self.say(f"  {conflict_words(problem)}")
            settling = self.settling_switch(house, switches, {}, problem)
            if settling is not None:
                off = Choice(True, ("yes", "y"), f"yes (turn {settling} off)")
                if self.conversation.choose(
                    f"turn {settling} ({switch_title(house, settling)}) off? (yes, no)> ", [off, Choice(False, ("no", "n"))], default=off, list_them=False
                ):
                    switches[settling] = False
                    self.say(f"  {settling}: off")

    def ask_advantages(self, house: HouseSet, switches: dict[str, bool], before: dict[str, Any]) -> dict[str, Any]:
        """The set's advantages: none, one chosen per power (each checked as it is chosen), or drawn with a seed (the draws shown)."""
        if not house.advantages:
            return {}
        choose = self.conversation.choose
        self.say(f"  {house.id} gives each of {', '.join(house.powers)} one advantage ({house.advantages_source})")
        options = [
            Choice("none", ("none",), "none (the advantages are optional)"),
            Choice("choose", ("choose",), "choose one per power"),
            Choice("seed", ("seed", "draw"), "seed (drawn at random with a seed)"),
        ]
        previous = "seed" if "seed" in before else "choose" if "advantages" in before else "none"
        how = choose(f"{house.id} advantages> ", options, default=next(c for c in options if c.value == previous))
        if how == "seed":
            return self.ask_seed(house, switches, before.get("seed"))
        if how == "none":
            return {}
        return self.ask_chosen(house, switches, before.get("advantages", {}))

    def ask_seed(self, house: HouseSet, switches: dict[str, bool], default: int | None) -> dict[str, Any]:
        session = self.session
        while True:
            seed = self.conversation.number("seed> ", 0, None, default)
            extra = {"seed": seed}
            table = table_of(house, switches, extra)
            selection = select(
                house, read_choices(house.id, Section(table, str(session.path), f"house_rule_choices.{house.id}")), session.game.board, session.names
            )
            for chosen in selection.advantages:
                values = ", ".join(f"{name.replace('_', ' ')} {value}" for name, (value, _) in chosen.values.items())
                self.say(f"  {chosen.advantage.power}: {chosen.advantage.title}" + (f" ({values})" if values else "") + f", {chosen.how}")
            problem = self.problem(house.id, table)
            if problem is None or self.same_without_advantages(house, switches, problem):
                return extra  # a conflict of the set's own rules no draw settles: said when the set's answers are done
            self.say(f"  {conflict_words(problem)}; another seed draws otherwise")
            default = None

    def ask_chosen(self, house: HouseSet, switches: dict[str, bool], before: dict[str, str]) -> dict[str, Any]:
        session = self.session
        board, names = session.game.board, session.names
        extra: dict[str, Any] = {"advantages": {}}
        try:
            for power in house.powers:
                self.power = power
                while True:
                    offered = [Choice(a, (str(a.number), a.id, a.title), f"{a.number}  {a.title}") for a in house.advantages_of(power)]
                    default = next((c for c in offered if c.value.id == before.get(power)), None)
                    advantage = self.conversation.choose(f"{power} advantage ('help N' shows advantage N's rule)> ", offered, default=default)
                    places = {name: advantage_places(advantage, name, board, names) for name in advantage.choices}
                    if not all(places.values()):
                        self.say(f"  {advantage.title} cannot be given to {power} on this game: no place for it; choose another")
                        continue
                    values = {
                        f"{power}.{name}": self.conversation.choose(
                            f"{power} {advantage.title}: {name.replace('_', ' ')}> ", [Choice(c, (c,)) for c in candidates], list_them=len(candidates) <= 30
                        )
                        for name, candidates in places.items()
                    }
                    trial = {**extra, "advantages": {**extra["advantages"], power: advantage.id}, **values}
                    problem = self.problem(house.id, table_of(house, switches, trial))
                    if problem is None or self.same_without_advantages(house, switches, problem):
                        extra = trial
                        break
                    self.say(f"  {conflict_words(problem)}; choose another")
        finally:
            self.power = None
        return extra


def table_of(house: HouseSet, switches: dict[str, bool], extra: dict[str, Any]) -> dict[str, Any]:
    """A set's ``[house_rule_choices.<set>]`` table: the switches changed from their defaults, then the advantages or the seed."""
    return {**{k: v for k, v in switches.items() if v != house.choices[k]}, **extra}

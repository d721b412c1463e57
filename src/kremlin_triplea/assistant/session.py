"""An interactive draft: the questions, asked only about legal choices.

Every question is built from the legal-choice enumeration (``rules.legal``)
that ``kremlin-triplea legal`` prints, and every answer becomes a step pushed
onto the draft's :class:`~kremlin_triplea.session.Session`, the object ``apply``
and the draft room drive drafts with too. A pick assembled here therefore passes
``apply``; the session still checks it as it is pushed, so a mismatch would show
at the pick, not at the end. ``undo`` pops.

The terminal is behind :class:`Terminal` (prompt_toolkit when it is one, plain
lines otherwise); this module only asks and says. The picks and the commands
(``help``, ``values``, ``locks``, ``board``) are asked here; the bid and the
declarations before it in ``bid.py``, the house rules in ``house.py``, the
ruleset and game in ``setup.py``.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from kremlin_triplea.assistant.asking import (
    COMMANDS,
    BackRequested,
    CancelRequested,
    Choice,
    QuitRequested,
    Replaying,
    Terminal,
    UndoRequested,
    match_choice,
    resolved_choice,
)
from kremlin_triplea.assistant.bid import BidQuestions
from kremlin_triplea.assistant.house import HouseQuestions
from kremlin_triplea.draft.choices import NextPick, OptionChoices
from kremlin_triplea.draft.form import Field, place_answers
from kremlin_triplea.draft.kinds import Pick, Problem
from kremlin_triplea.draft.kinds.scenario import scenario_lines
from kremlin_triplea.errors import KremlinError, UnknownNameError, close_matches
from kremlin_triplea.report.value import describe_pick, value_session
from kremlin_triplea.rules.datafiles import named_rule_files
from kremlin_triplea.rules.house_rules import load_house_set
from kremlin_triplea.rules.ruleset import Option, Ruleset
from kremlin_triplea.session import Bid, Session


class Conversation:
    """Asks the players, through ``terminal``, for every pick and the bid of ``session``."""

    def __init__(self, session: Session | None, terminal: Terminal, show_board: Callable[[Session], str] | None = None) -> None:
        self.session = session  # None while the draft is being set up
        self.terminal = terminal
        self.show_board = show_board
        self.answers: list[str] = []  # this pick's (or the bid's) answers so far, for ``back``
        self.option: Option | None = None  # the option being asked about, for ``?``
        self.side: str | None = None  # the side picking now
        self.house_questions: HouseQuestions | None = None  # while house rules are asked: what ``help`` names first

    # -- asking ------------------------------------------------------------

    def say(self, text: str = "") -> None:
        self.terminal.say(text)

    def in_steps(self, ask: Callable[[], Any]) -> Any:
        """Ask one pick's (or the bid's) questions with ``ask``: ``undo`` starts them again, ``back`` goes one question back.

        Going back replays the answers before the previous question without
        showing them again, so every later question is asked about the same
        board as before.
        """
        real = self.terminal
        replay: list[str] = []
        try:
            while True:
                self.answers = []
                self.terminal = Replaying(real, replay) if replay else real
                try:
                    return ask()
                except BackRequested:
                    replay = self.answers[:-1]
                    real.say("  back one question")
                except CancelRequested:
                    replay = []
                    real.say("  undone: the answers to these questions so far (the picks already made stay); asked again from the first")
                finally:
                    self.terminal = real
        finally:
            self.answers = []

    def choose(
        self,
        question: str,
        choices: Sequence[Choice],
        default: Choice | None = None,
        *,
        list_them: bool = True,
        counted: bool = True,
        resolve: Callable[[str], Any] | None = None,
        refuse: Callable[[str], str | None] | None = None,
    ) -> Any:
        """One of ``choices``.

        ``resolve`` also accepts names the draft file accepts (SZ 12, UK, tank:
        the game's :class:`Names`), giving the value of the choice they name. ``refuse`` says why an answer that names no
        choice is against the rules (the words ``apply`` uses), or None.
        """
        say = self.say
        if list_them:
            for choice in choices:
                say(f"  {choice.shown}")
        elif counted and len(choices) > 3:  # a long list left to completion: never hidden without a word
            say(f"  {len(choices)} choices, not listed here: 'help' lists them, Tab completes a name")
        words = [n for c in choices for n in c.names[:2]] + list(COMMANDS)
        while True:
            answer = self.terminal.ask(question, words, default.names[0] if default is not None else None)
            if self.is_command(answer, choices):
                continue
            if not answer.strip() and default is not None:
                self.answers.append(answer)
                return default.value
            found, why = match_choice(answer, choices)
            if found is None and resolve is not None:
                found = resolved_choice(answer, choices, resolve)
            if found is not None:
                if found.names[0].casefold() != answer.strip().casefold() and not answer.strip().isdigit():
                    say(f"  -> {found.names[0]}")
                self.answers.append(answer)
                return found.value
            refused = refuse(answer.strip()) if refuse is not None and answer.strip() else None
            say(f"  {refused or why}")

    def number(self, question: str, low: int, high: int | None, default: int | None = None) -> int:
        while True:
            answer = self.terminal.ask(question, list(COMMANDS), str(default) if default is not None else None)
            if self.is_command(answer, ()):
                continue
            text = answer.strip() or (str(default) if default is not None else "")
            try:
                value = int(text)
            except ValueError:
                self.say(f"  {answer.strip()!r} is not a whole number")
                continue
            if value < low or (high is not None and value > high):
                self.say(f"  {value} is outside {low}..{high if high is not None else ''}")
                continue
            self.answers.append(answer)
            return value

    def is_command(self, answer: str, choices: Sequence[Choice]) -> bool:
        """Carry out ``answer`` if it is a command (``help OPTION`` too) rather than a choice's name."""
        text = answer.strip()
        word, _, argument = text.partition(" ")
        word = word.lower()
        if word.startswith("?") and len(word) > 1:  # "?3"
            word, argument = "?", (word[1:] + " " + argument).strip()
        if word not in COMMANDS or any(text.casefold() == n.casefold() for c in choices for n in c.names):
            return False
        if argument and word not in ("help", "?"):
            return False
        self.command(word, choices, argument.strip())
        return True

    def command(self, command: str, choices: Sequence[Choice], argument: str = "") -> None:
        say = self.say
        if command == "quit":
            raise QuitRequested
        if command in ("help", "?"):
            self.say_help(choices, argument)
            return
        if self.session is None and command in ("undo", "back", "values", "locks", "board"):
            say("  no picks yet")
            return
        if command == "undo":
            raise CancelRequested if self.answers else UndoRequested
        if command == "back":
            if not self.answers:
                say("  this is the first question here ('undo' takes back the last pick)")
                return
            raise BackRequested
        if command == "values":
            self.say_values()
        elif command == "locks":
            self.say_locks()
        elif command == "board":
            if self.show_board is None:
                say("  no picture here")
            else:
                say(f"  the board: {self.show_board(self.session)}")

    def say_help(self, choices: Sequence[Choice], argument: str) -> None:
        """``help``/``?``: the choices and commands; with an option, the option's rule text; with a scenario, its effects."""
        say = self.say
        if argument:
            for line in self.rule_text(argument):
                say(f"  {line}")
            return
        if self.option is not None:
            for line in self.rule_text(str(self.option.number)):
                say(f"  {line}")
        say("  choices: " + (", ".join(c.shown for c in choices) if choices else "(a number)"))
        say(
            "  commands: undo (in a pick: start it again; at its first question: take back the last pick), back (the previous question),"
            " values, locks, board (draw the board), help OPTION or ? OPTION (its rule), quit (the draft file is kept)"
        )

    def rule_text(self, name: str) -> list[str]:
        """An option's rule text with its source (and its scenarios), or a scenario's rule and effects."""
        if self.session is None:
            return ["the rules are shown once the ruleset is chosen"]
        house_lines = self.house_questions.help_lines(name) if self.house_questions is not None else None
        if house_lines is not None:
            return house_lines
        ruleset = self.session.ruleset
        wrap = textwrap.TextWrapper(width=100, subsequent_indent="  ")
        option = _find_option(ruleset, name)
        if option is not None:
            lines = [f"option {option.number}. {option.title} ({option.source})"]
            lines += wrap.wrap(f'"{option.rule}"')
            lines += option.params.describe(ruleset)
            return lines + self.session.option_help(option, self.side)
        scenario = next((s for s in ruleset.scenarios if name.casefold() in (s.id.casefold(), s.title.casefold())), None)
        if scenario is not None:
            return scenario_lines(scenario, self.session.state.edition)
        key = name.strip().casefold()
        for house in (load_house_set(path) for path in named_rule_files("house").values()):
            for advantage in house.advantages:
                if key in (advantage.id.casefold(), advantage.title.casefold(), advantage.rule.id.casefold()):
                    return [
                        f"{advantage.rule.title} ({advantage.rule.source}; enforced by the {advantage.rule.enforced_by})",
                        *wrap.wrap(f'"{advantage.rule.rule}"'),
                    ]
        known = [str(o.number) for o in ruleset.options] + [o.id for o in ruleset.options] + [s.title for s in ruleset.scenarios]
        close = close_matches(name, known)
        return [f"no option or scenario {name!r} in {ruleset.id}" + (f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else "")]

    def say_values(self) -> None:
        session = self.session
        totals = dict.fromkeys(session.state.side_powers, 0)
        for value in value_session(session).picks:
            totals[value.side] += value.value
            for line in describe_pick(value):
                self.terminal.say(f"  {line}")
        self.terminal.say("  totals: " + ", ".join(f"{s} {v:+d}" for s, v in totals.items()))

    def say_locks(self) -> None:
        state = self.session.state
        if not state.locks:
            self.terminal.say("  no place is locked yet")
            return
        for side in state.side_powers:
            locked = sorted(p for p, (holder, _) in state.locks.items() if holder != side)
            if locked:
                self.terminal.say(
                    f"  locked for the {side}: " + ", ".join(f"{state.names.shown(p)} ({state.locks[p][0]} pick {state.locks[p][1]})" for p in locked)
                )

    # -- the draft ---------------------------------------------------------

    def run(self) -> None:
        """Ask every remaining pick, then the bid (undo at a pick's first question steps back across picks)."""
        while True:
            try:
                next_pick = self.session.next_pick()
                if next_pick.side is None:
                    self.in_steps(self.ask_bid)
                    return
                self.in_steps(lambda next_pick=next_pick: self.ask_pick(next_pick))
            except UndoRequested:
                taken = self.session.undo()  # the last pick, and every step after it (the bid made on its board)
                if not taken:
                    self.say("  nothing to undo")
                else:
                    self.session.save()
                    removed = taken[-1]
                    assert isinstance(removed, Pick)
                    self.say(
                        f"  undone: the {removed.side}' option {removed.option.number} (pick {removed.index})"
                        + (" and the bid" if any(isinstance(step, Bid) for step in taken) else "")
                        + f", removed from {self.session.path}"
                    )
            finally:
                self.option = self.side = None

    def ask_pick(self, next_pick: NextPick) -> None:
        say = self.say
        side = next_pick.side
        assert side is not None
        self.side, self.option = side, None
        say("")
        player = self.session.players.get(side)
        say(f"Pick {next_pick.index} of {next_pick.total}: " + (f"{player}, for the {side}." if player else f"the {side} choose."))
        self.say_locks()
        available = [c for c in next_pick.options if c.available]
        unavailable = {c.option.number: c for c in next_pick.options if not c.available}
        for choices in unavailable.values():
            say(f"  ({choices.option.number} {choices.option.title}: not available, {choices.unavailable})")
        say("  ('help N' shows option N's rule)")
        option_choices = [Choice(c, (str(c.option.number), c.option.id, c.option.title), f"{c.option.number}  {c.option.title}") for c in available]

        def refuse_option(answer: str) -> str | None:
            option = _find_option(self.session.ruleset, answer)
            if option is None or option.number not in unavailable:
                return None
            return f"option {option.number} ({option.title}) is not available to the {side}: {unavailable[option.number].unavailable}"

        chosen: OptionChoices = self.choose(f"{side}, option> ", option_choices, refuse=refuse_option)
        self.option = chosen.option
        session = self.session
        form = session.pick_form(chosen, side)
        answers: dict[str, str] = {}
        for field in form.fields:
            asked = field.narrowed(answers) if field.narrowed is not None else field
            if field.terminal and asked is not None:
                answers[field.key] = self.ask_field(asked, answers)
        try:
            outcome = session.push(session.pick_from_answers(chosen.option, answers, side, form=form))
        except KremlinError as error:  # would be a bug in the enumeration: say so, ask again
            say(f"  this pick was refused: {error}")
            return
        session.save()
        for line in outcome.lines if outcome is not None else ():
            say(f"  {line}")
        values = value_session(session).picks
        value = values[-1]
        totals = dict.fromkeys(session.state.side_powers, 0)
        for v in values:
            totals[v.side] += v.value
        say(f"  worth {value.value:+d} IPCs to the {side}; picks so far: " + ", ".join(f"{s} {t:+d}" for s, t in totals.items()))
        say(f"  saved {self.session.path}")

    # -- house rules -------------------------------------------------------

    def ask_house_rules(self) -> None:
        """The house-rule questions, where ``back`` and ``undo`` work as in a pick."""
        while True:
            try:
                return self.in_steps(self.ask_house_sets)
            except UndoRequested:
                self.say("  no pick is made yet: nothing to undo")

    def ask_house_sets(self) -> None:
        """House-rule sets for this map, in their own questions (assistant/house.py): each set's switches, then its
        advantages chosen per power or drawn with a seed, every answer checked as it is given.

        The sets are written into the game after the picks and the bid, as
        ``apply`` does with the draft's ``house_rules``.
        """
        questions = HouseQuestions(self)
        self.house_questions = questions
        try:
            questions.ask_sets()
        finally:
            self.house_questions = None

    # -- the end -------------------------------------------------------------

    def confirm_output(self, output: Path, force: bool, install: bool) -> tuple[Path, bool] | None:
        """The host's agreement to write the game: (where, whether to replace it), or None to leave it unwritten."""
        also = " and install it into TripleA's maps folder" if install else ""
        while True:
            taken = output.exists() and not force
            if taken:
                self.say(f"  {output} exists: type another file name, 'force' to replace it, or 'no'")
            else:
                self.say(f"  the game goes to {output}{also}")
            answer = self.terminal.ask(
                f"write the game? (yes, no{', force' if taken else ''}, or another file name)> ", ["yes", "no", "force"], "no" if taken else "yes"
            ).strip()
            word = answer.lower() or ("no" if taken else "yes")
            if word in ("no", "n", "quit"):
                return None
            if word == "force":
                return output, True
            if word in ("yes", "y"):
                if not taken:
                    return output, force
                continue
            if not answer.lower().endswith(".xml"):
                self.say(f"  {answer!r}: yes, no, force, or a file name ending in .xml")
                continue
            output = Path(answer).expanduser()

    # -- refusals in the words `apply` uses ----------------------------------

    def refusal(self, answer: str, problem_at: Callable[[str], Problem | None], label: str = "", resolve: Callable[[str], str] | None = None) -> str | None:
        """Why the place ``answer`` names (or, misspelt, most likely means) is refused; None if it names no place.

        ``resolve`` reads the answer instead of the map's place names (a field's own names)."""
        name_of = resolve or self.session.state.names.place
        try:
            place = name_of(answer)
            guessed = ""
        except UnknownNameError as error:
            if not error.close:
                return None
            try:
                place = name_of(error.close[0])
            except KremlinError:
                return None
            guessed = f"no choice {answer!r} here; did you mean {error.close[0]!r}? "
        except KremlinError:
            return None
        problem = problem_at(place)
        if problem is None:
            return None
        shown = f"{guessed}refused: " if guessed else "refused: "
        return shown + str(problem.violation(label or f"pick {self.session.ply}"))

    def ask_field(self, field: Field, answers: Mapping[str, str]) -> str:
        """One field of an option's form (its kind's), asked with completion, help and close matches; its value."""
        for line in field.intro:
            self.terminal.say(f"  {line}")
        choices = [Choice(a.value, a.names, a.shown) for a in field.choices]
        if field.alone is not None and len(choices) == 1:
            value = choices[0].value
            if field.alone:
                self.terminal.say(f"  {field.alone}")
        else:
            default = next((c for c in choices if c.value == field.default), None)
            refuse = field.refuse
            value = self.choose(
                f"{field.label}> ",
                choices,
                default=default,
                list_them=field.listed,
                resolve=field.resolve,
                refuse=(lambda answer: self.refusal(answer, refuse, resolve=field.resolve)) if refuse is not None else None,
            )
        if field.then is not None:
            for line in field.then({**answers, field.key: value}):
                self.terminal.say(f"  {line}")
        return value

    def resolve_place(self, name: str) -> str:
        return self.session.state.names.place(name)

    def place_choices(self, places: Sequence[str]) -> list[Choice]:
        """Places as answers: the game's names and the rule text's (Venezuela, Seazone 19)."""
        return [Choice(a.value, a.names, a.shown) for a in place_answers(self.session.state, places)]

    # -- the bid (assistant/bid.py) -------------------------------------------

    def ask_bid(self) -> None:
        BidQuestions(self).ask_bid()


def _find_option(ruleset: Ruleset, name: str) -> Option | None:
    key = name.strip().casefold()
    return next((o for o in ruleset.options if key in (str(o.number), o.id.casefold(), o.title.casefold())), None)

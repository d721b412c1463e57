"""What a host reads (issue 42): every prompt, summary, note and value line of a terminal draft of every ruleset on
every pinned game it fits, and every option's and scenario's help, read as a host reads them: no ``None``, no
Python repr, no snake_case names (file names, map folders and the switches a host types aside), no "Germans's"."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from kremlin_triplea.assistant.asking import COMMANDS
from kremlin_triplea.assistant.session import Conversation
from kremlin_triplea.assistant.setup import game_offers, installed_rulesets
from kremlin_triplea.draft.rulesets import load_named_ruleset
from kremlin_triplea.draft.run import read_draft
from kremlin_triplea.gamefile.locate import installed_maps
from kremlin_triplea.report.notes import add_notes
from kremlin_triplea.report.value import value_draft
from kremlin_triplea.rules.datafiles import named_rule_files
from kremlin_triplea.rules.house_rules import load_house_set
from kremlin_triplea.session import apply_draft, open_session
from support.drafting import Script
from support.paths import MAPS_DIR

DRAFTS = [(ruleset, offer.key) for ruleset in installed_rulesets() for offer in game_offers(load_named_ruleset(ruleset), MAPS_DIR).games]

#: Words a host types as they are, so they are shown as they are: the house sets' switches and the choices their
#: advantages leave (``UK.sea_at = ...`` in a draft, ``--choose UK.sea_at=...``), the maps' folders.
_HOUSE_SETS = [load_house_set(path) for path in named_rule_files("house").values()]
TYPED = (
    {switch for house in _HOUSE_SETS for switch in house.choices}
    | {choice for house in _HOUSE_SETS for advantage in house.advantages for choice in advantage.choices}
    | {m.name for m in installed_maps(MAPS_DIR)}
)

NONE = re.compile(r"\bNone\b")
REPR = re.compile(r"object at 0x|Counter\(|frozenset\(|\{'[^']*': |\['[^']*'[],]|\('[^']*', ")
POSSESSIVE = re.compile(r"\b\w+s's\b")  # "Germans's submarine"
SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
# File names and paths, and a data file's table named in brackets ("map profile [factory_output]"): the host opens them.
FILES = re.compile(r"\S*[/\\]\S*|\S+\.(?:xml|toml|txt|svg|tsvg|html)\b|\[[\w.-]+\]")


def unreadable(lines: list[str]) -> list[str]:
    """The lines a host should not have to read: a None, a repr, a snake_case name, "Germans's"."""
    found = []
    for line in lines:
        text = FILES.sub("", line)
        snakes = [w for w in SNAKE.findall(text) if w not in TYPED]
        if NONE.search(line) or REPR.search(text) or POSSESSIVE.search(line) or snakes:
            found.append(line)
    return found


class Host(Script):
    """Answers each question with one of the offered answers at random (the set-up questions by its own answers);
    records every prompt and every line said."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.random = random.Random(seed)

    def ask(self, question: str, words, default=None) -> str:
        self.asked.append(question)
        assert len(self.asked) < 600, f"the session keeps asking {question!r}"
        offered = [w for w in words if w not in COMMANDS]
        if not offered:  # a number: the bid, a count, a seed
            return "" if default is not None and question.startswith(("how many", "PUs")) else str(self.random.randint(-12, 12) if "bid" in question else 7)
        if question.startswith("house rules"):
            # The first set offered, then done: one set is enough to read its questions; two are the checks' business.
            sets = [w for w in offered if w.startswith("house-")]
            return sets[0] if sets and self.asked.count(question) == 1 else "done"
        return self.random.choice(offered)


@pytest.mark.parametrize(("ruleset", "game"), DRAFTS, ids=lambda v: v)
def test_every_line_a_host_reads_in_a_draft_reads_as_words(tmp_path: Path, ruleset: str, game: str) -> None:
    rules = load_named_ruleset(ruleset)
    path = tmp_path / "draft.toml"
    session = open_session(path, {"ruleset": ruleset, "game": game, "first": "Axis", "picks_per_side": rules.picks.min, "pick": []}, MAPS_DIR)
    session.save()
    host = Host(sum(map(ord, ruleset + game)))
    conversation = Conversation(session, host)
    conversation.ask_house_rules()
    conversation.run()
    for command in ("values", "locks"):
        conversation.command(command, ())
    for option in rules.options:
        host.said += conversation.rule_text(str(option.number))
    for scenario in rules.scenarios:
        host.said += conversation.rule_text(scenario.title)
    result = add_notes(apply_draft(read_draft(path), maps_dir=MAPS_DIR))
    notes = re.sub(r"<[^>]+>", " ", result.game.board.properties.get("notes", ""))
    lines = host.asked + host.said + list(result.summary()) + list(result.warnings) + list(value_draft(path, maps_dir=MAPS_DIR).lines())
    assert len(lines) > 50
    assert unreadable(lines) == [], "\n".join(unreadable(lines))
    assert unreadable(notes.splitlines()) == [], "\n".join(unreadable(notes.splitlines()))


@pytest.mark.parametrize("ruleset", installed_rulesets())
def test_the_bid_prompt_says_what_a_negative_bid_does_under_its_own_ruleset(tmp_path: Path, ruleset: str) -> None:
    rules = load_named_ruleset(ruleset)
    offer = game_offers(rules, MAPS_DIR).games[0]
    session = open_session(
        tmp_path / "draft.toml", {"ruleset": ruleset, "game": offer.key, "first": "Axis", "picks_per_side": rules.picks.min, "pick": []}, MAPS_DIR
    )
    host = Host(1)
    conversation = Conversation(session, host)
    conversation.run()  # every pick at random, then the bid
    (line,) = [line for line in host.said if line.startswith("The bid (")]
    bid = rules.bid
    if bid.negative == "remove_units":  # 001, 002: "the axis will take units from the board"
        assert f"negative, the {bid.placing_side} remove" in line and "receive the PUs" not in line
        assert (bid.removable_rule or bid.negative_rule) in line
    else:  # 000: "the allies would receive 11 ipc's"
        assert f"negative, the {bid.receiving_side} receive the PUs" in line and bid.negative_rule in line


def test_every_change_to_a_territory_reads_as_words() -> None:
    # What `value` lists as "not valued" and the summaries print: DAAK's Mongolia taken moves the Chinese capital
    # marker off it ("set capital of Mongolia to None", issue 42).
    from kremlin_triplea.model.changes import TERRITORY_FIELDS, SetTerritory

    lines = [str(SetTerritory("Mongolia", field, value)) for field in TERRITORY_FIELDS for value in (None, False, True, 0, 2, "Russians")]
    assert unreadable(lines) == [], lines
    assert str(SetTerritory("Mongolia", "capital", None)) == "Mongolia is no longer a capital"


def test_a_possessive_is_written_as_english_writes_it_everywhere() -> None:
    from kremlin_triplea.errors import possessive

    assert (possessive("Germans"), possessive("UK"), possessive("Sweden")) == ("Germans'", "UK's", "Sweden's")
    # The class: no message writes "{name}'s" itself ("Germans's submarine"); errors.possessive writes it.
    source = Path(__file__).resolve().parents[1] / "src" / "kremlin_triplea"
    written = [
        f"{p.relative_to(source)}:{n}"
        for p in sorted(source.rglob("*.py"))
        if p.name != "errors.py"  # possessive itself
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"(?<!!r)\}'s\b|\{\}'s\b", line)
    ]
    assert written == []

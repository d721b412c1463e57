"""Every house rule left to the players is quoted whole from its seed in the game's notes (issue 29).

The seeds are read here on their own terms, by their layout, not through the sets: 004's rules are
headed by lines of their own ("House Rule 7 Liberating territories and Capitals", "1. Russian Winter"
under "U.S.S.R. National Advantages"); 003's open with "Title:" ("Retreats:  At the end ..."), its
developments with "N.  Name:" and their Elite Forces choices with "<tab>Name - ", its advantages with
"N.      Title - " under "<Power> Advantages". A rule's complete text runs to the next heading.

Each entry of the notes' "You enforce" and "Before play" lists is a quote: one complete text of the seed,
or several joined by " [...] " (an advantage and the development it grants); the first is the one the
entry's source names. Fragments, and entries that point at text they do not hold ("the notes list
them"), fail.
"""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest

from kremlin_triplea.game import load
from kremlin_triplea.gamerules.house import apply_house_rules
from kremlin_triplea.report.notes import add_notes
from kremlin_triplea.rules.house_rules import HouseChoices, load_named_house_set
from support.house import TARGETS
from support.paths import AA50_1941, MAPS_DIR, SHARED

SEEDS = SHARED / "seeds"
SEED_003 = "003_ecae7919a6bcb85e.txt"
SEED_004 = "004_e624f6d1018dbbc1.txt"
CLASSIC = MAPS_DIR / "world_war_ii_classic" / "map" / "games" / "classic.xml"

# The powers' headings in each seed, by the names the sets' sources use.
POWER_GROUPS = {
    SEED_003: {
        "USSR": "U.S.S.R. Advantages",
        "Germany": "Germany Advantages",
        "UK": "United Kingdom Advantages",
        "Japan": "Japan Advantages",
        "USA": "United States Advantages",
    },
    SEED_004: {
        "USSR": "U.S.S.R. National Advantages",
        "Germany": "Germany National Advantages",
        "UK": "U.K. National Advantages",
        "Japan": "Japan National Advantages",
        "USA": "U.S. National Advantages",
    },
}


class Section:
    def __init__(self, group: str, head: str, first: str) -> None:
        self.group, self.head, self.lines = group, head, [first] if first else []

    @property
    def text(self) -> str:
        return " ".join(self.lines)


def sections_004() -> list[Section]:
    found: list[Section] = []
    group = ""
    for line in (SEEDS / SEED_004).read_text(encoding="utf-8").splitlines():
        text = line.strip()
        if not text:
            continue
        # A heading: a short line of its own that is no sentence, no list item and no footnote.
        if len(text) < 100 and not text.startswith(("*", "-")) and not text.endswith((".", ":", "!", "?", '"')):
            if text.endswith("Advantages") or text.startswith("Official optional"):
                group = text
            found.append(Section(group, text, ""))
        elif found:
            found[-1].lines.append(text)
    return found


_TITLE = re.compile(r"^([A-Z][A-Za-z.\-' ]{1,60}?):(\s+\S.*|\s*)$")
_ITEM = re.compile(r"^(\d+)\.\s+(.+?)(?::|\s-)\s+(.*)$")
_CHOICE = re.compile(r"^\t([A-Z][A-Za-z ()]+?) - (.*)$")
_POWER_GROUP = re.compile(r"^(U\.S\.S\.R\.|Germany|United Kingdom|Japan|United States) Advantages")


def sections_003() -> list[Section]:
    found: list[Section] = []
    group, numbered = "", False
    current: Section | None = None
    parent: Section | None = None  # the development whose Elite Forces choices are being read
    for line in (SEEDS / SEED_003).read_text(encoding="utf-8").splitlines():
        text = line.strip()
        if not text:
            continue
        new: Section | None = None
        if text.isupper() or text == "Optional Player Advantages" or _POWER_GROUP.match(text):
            group = _POWER_GROUP.match(text).group(0) if _POWER_GROUP.match(text) else text
            numbered, new = "Advantages" in text, Section(group, text, "")
        elif (match := _TITLE.match(line.rstrip())) and not line.startswith((" ", "\t")):
            if match.group(1) in ("Weapons Developments", "Development Descriptions", "Initial Conditions"):
                group, numbered = match.group(1), match.group(1) == "Development Descriptions"
            new = Section(group, match.group(1), text)
        elif numbered and (match := _ITEM.match(line)):
            new = Section(group, f"{match.group(1)}. {match.group(2).strip()}", text)
        elif group == "Development Descriptions" and (match := _CHOICE.match(line)) and current is not None:
            parent = parent or current
            new = Section(group, match.group(1), text)
            parent.lines.append(text)
        elif text.startswith("Country") and "IPC Value" in text:
            new = Section(group, "neutral table", text)
        if new is not None:
            if not (group == "Development Descriptions" and _CHOICE.match(line)):
                parent = None
            found.append(new)
            current = new
            continue
        assert current is not None, line
        current.lines.append(text)
        if parent is not None and parent is not current:
            parent.lines.append(text)
    return found


SECTIONS = {SEED_003: sections_003(), SEED_004: sections_004()}


def _bare(text: str) -> str:
    """The letters of a text: the seeds break lines (and words: "Strate\\ngic") anywhere."""
    return re.sub(r"\s+", "", text)


def complete(seed: str, quote: str) -> Section | None:
    """The seed's section whose complete text the quote is, if any: with or without its number and its name."""
    for section in SECTIONS[seed]:
        whole = _bare(section.text)
        unnumbered = re.sub(r"^\d+\.", "", whole)
        name = _bare(re.sub(r"^\d+\.\s*", "", section.head))
        forms = {whole, unnumbered}
        for separator in (":", "-"):
            if unnumbered.startswith(name + separator):
                forms.add(unnumbered[len(name) + 1 :])
        if _bare(quote) in forms:
            return section
    return None


def named(seed: str, source: str) -> Section:
    """The section a rule's source names ("004_..., Official optional ..., USSR 1. Russian Winter")."""
    where = source.split(", ")[-1]
    power = re.match(r"(USSR|Germany|UK|Japan|USA) (\d+\. .+)$", where)
    for section in SECTIONS[seed]:
        if power and section.group == POWER_GROUPS[seed][power.group(1)] and section.head.startswith(power.group(2)):
            return section
        if not power and section.head.startswith(where):
            return section
    raise AssertionError(f"{source}: no such heading in {seed}")


def test_the_seeds_are_read_into_their_rules() -> None:
    # A few complete texts, as the seeds hold them: the reader itself is right.
    assert named(SEED_004, f"{SEED_004}, House Rule 7 Liberating").text.endswith("(Note that this money is not transferred to the occupant.)")
    assert named(SEED_004, f"{SEED_004}, x, Germany 4. Wolf Packs").text.startswith("Your submarines attack on a 3")
    assert named(SEED_003, f"{SEED_003}, Development Descriptions").text == "Development Descriptions:"
    elite = named(SEED_003, f"{SEED_003}, 4. Elite Forces").text
    assert "Super Armor - Armor units attack at 4" in elite and "rather than 12." in elite
    assert named(SEED_003, f"{SEED_003}, Super Armor").text.endswith("defend at the usual 2.")
    assert named(SEED_003, f"{SEED_003}, Optional Player Advantages, UK 3. Naval Production").text.endswith("the end of the U.K. turn.")
    assert named(SEED_003, f"{SEED_003}, Weapons Developments").text.endswith("Improved Labs, Improved Agri, or Industrial Technology")


def _notes(path: Path, choices: HouseChoices) -> tuple[str, list]:
    """The notes of the game written with the set, and the set's rules it applied."""
    result = apply_house_rules(load(path), [choices])
    applied = [*result.rules.players, *result.rules.game]
    return add_notes(result).game.board.properties["notes"], applied


ENTRY = re.compile(r"<li><b>(?P<title>.*?)</b>: \u201c(?P<quote>.*?)\u201d \((?P<source>[^()]*(?:\([^()]*\)[^()]*)*)\)</li>", re.DOTALL)


def quoted_entries(notes: str, heading: str) -> list[tuple[str, str, str]]:
    start = notes.find(f"<h3>{heading}</h3>")
    if start == -1:
        return []
    end = notes.find("<h3>", start + 1)
    part = unescape(notes[start : end if end != -1 else len(notes)])
    return [(m["title"], m["quote"], m["source"]) for m in ENTRY.finditer(part)]


# One game per set with every power's n-th advantage, n = 1..6: every rule of the set is in one of them.
CASES = [("house-classic", CLASSIC, n) for n in range(1, 7)] + [("house-revised", AA50_1941, n) for n in range(1, 7)]


@pytest.mark.parametrize("set_id", ["house-classic", "house-revised"])
def test_no_rule_points_at_notes_instead_of_saying_what_differs(set_id: str) -> None:
    """A rule says what TripleA does differently, and what the players keep is a rule of the list, quoted whole."""
    house = load_named_house_set(set_id)
    for rule in [*house.rules.rules, *(a.rule for a in house.advantages)]:
        for text in (rule.differs, rule.why, rule.players_keep):
            assert not re.search(r"notes (list|say)|listed in the notes|are the players'|is the players'", text), f"{rule.id}: {text}"


@pytest.mark.parametrize(("set_id", "game", "number"), CASES, ids=[f"{s}:{g.name}:{n}" for s, g, n in CASES])
def test_every_rule_the_players_keep_is_quoted_whole(set_id: str, game: Path, number: int) -> None:
    house = load_named_house_set(set_id)
    notes, applied = _notes(game, HouseChoices(set_id, advantages=dict.fromkeys(house.powers, number), seed=number))
    before, during = quoted_entries(notes, "Before play"), quoted_entries(notes, "You enforce")
    entries = before + during
    # Every rule the players keep in whole or in part is listed, the ones settled before play apart.
    for rule in applied:
        if rule.enforced_by == "players" or rule.players_keep:
            place = before if rule.before_play else during
            listed = any(source == rule.source and title.startswith(rule.title) for title, _, source in place)
            assert listed, f"{rule.id} is not in {'Before play' if rule.before_play else 'You enforce'}"
    wrong = []
    for title, quote, source in entries:
        seed = source.split(", ")[0]
        if seed not in SECTIONS:
            continue
        parts = quote.split(" [...] ")
        wholes = [complete(seed, part) for part in parts]
        fragments = [part[:50] for part, whole in zip(parts, wholes) if whole is None]
        if fragments:
            wrong.append(f"{title}: not a complete rule of {seed}: {fragments}")
        elif wholes[0] is not named(seed, source):
            wrong.append(f"{title}: quotes {wholes[0].head!r}, its source names {named(seed, source).head!r}")
    assert not wrong, "\n".join(wrong)


def test_the_players_keep_line_of_003_winning_states_every_way_the_rule_ends_the_game() -> None:
    # 003 Winning: "The game is over if the Axis player can capture the Russian and British capitols or the American
    # capitol ... The Allies win if they capture both Axis capitols or if the Axis surrenders." TripleA ends it on its
    # own terms only in part, so the players' line says the rule's every way, Moscow and London together included.
    notes, applied = _notes(MAPS_DIR / "world_war_ii_classic" / "map" / "games" / "classic.xml", HouseChoices("house-classic"))
    (winning,) = [rule for rule in applied if rule.id == "winning"]
    for words in ("Moscow and London", "Washington", "Berlin and Tokyo", "surrender"):
        assert words in winning.players_keep, words
    assert "Moscow and London" in unescape(notes)


def test_every_neutral_ship_a_set_writes_is_said_to_be_every_powers_enemy_and_its_note_quoted_whole() -> None:
    # 003 NEUTRAL TERRITORIES, Note: the transports are "placed anyway (they were there all along but were neutral and
    # so not important). Thus any amphibious assault on a neutral must eliminate the transport first. If a transport
    # must be placed in a sea zone with an enemy ship it must stay and fight ...": every power's enemy, as TripleA makes
    # an unowned unit (it stops ships sailing past: test_house_rules_neutral_ships.py, 1.9 and 2.7). The class: every
    # game a set writes an unowned ship into says so in its notes, with the rule quoted whole and what the players keep.
    found = []
    for set_id, games in TARGETS.items():
        for path in games:
            base = load(path)
            result = apply_house_rules(load(path), [HouseChoices(set_id)])
            board = result.game.board
            neutral_ships = [
                zone
                for zone, data in board.nodes.items()
                if data["water"] and any(owner is None and n > base.board.units(zone)[(owner, unit)] for (owner, unit), n in data["units"].items())
            ]
            if not neutral_ships:
                continue
            found.append((set_id, path.name))
            notes = unescape(add_notes(result).game.board.properties["notes"])
            said = [r for r in result.rules.game if "every power's enemy" in r.differs and "sail through" in r.differs and r.players_keep]
            assert said, (set_id, path.name, neutral_ships)
            for rule in said:
                assert f"In TripleA: {rule.differs}" in notes and f"{rule.title}: {rule.players_keep}" in notes, (set_id, path.name)
                assert "Thus any amphibious assault on a neutral must eliminate the transport first" in rule.rule and rule.rule in notes
    assert found  # house-classic's neutral transports

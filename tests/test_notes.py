"""The notes players read (report/notes.py, issue 14): rules quoted from the seeds, no internal terms.

The expectations are sentences of the rule texts (../shared/seeds) and of the maps' own notes,
never the notes' own wording copied back.
"""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest

from kremlin_triplea.draft.run import apply_draft, draft_from_dict, read_draft
from kremlin_triplea.report.notes import add_notes
from kremlin_triplea.rules.tomlfile import read_toml
from support.paths import MAPS_DIR, SHARED

REPO = Path(__file__).resolve().parents[1]
SEEDS = SHARED / "seeds"
AA50 = REPO / "examples" / "kremlin-aa50-1941.toml"
CLASSIC = REPO / "examples" / "kremlin-classic-kremlin.toml"

#: Words of the game file's machinery that players should not meet in the notes.
INTERNAL = (
    "rulesAttachment",
    "placementPerTerritory",
    "map profile",
    "[factory_output]",
    "kremlinChinaFirstMove",
    "americanBidPlace",
    "attachment",
    "movementRestrictionTerritories",
    "profile:",
)


def seed_text(name: str) -> str:
    return re.sub(r"\s+", " ", (SEEDS / name).read_text(encoding="utf-8"))


def kremlin_notes(draft: Path | dict, **changes) -> str:
    parsed = read_draft(draft) if isinstance(draft, Path) else draft_from_dict(draft)
    notes = add_notes(apply_draft(parsed, maps_dir=MAPS_DIR)).game.board.properties["notes"]
    return notes[: notes.index("<hr/>")]


def section(notes: str, heading: str) -> str:
    start = notes.index(f"<h3>{heading}</h3>")
    following = notes.find("<h3>", start + 1)
    return unescape(notes[start : following if following != -1 else len(notes)])


def visible_text(html_text: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<!--.*?-->|<[^>]+>", " ", html_text, flags=re.DOTALL)))


@pytest.fixture(scope="module")
def aa50() -> str:
    return kremlin_notes(AA50)


@pytest.fixture(scope="module")
def classic() -> str:
    return kremlin_notes(CLASSIC)


def test_rules_tripleA_cannot_enforce_are_quoted_whole_from_the_rule_text(aa50: str, classic: str) -> None:
    ours, seed = section(aa50, "You enforce"), seed_text("000_bc04a4edf7f7d2ab.txt")
    for sentence in (
        "Chinese planes may attack axis ships adjacent to Chinese controlled territories.",
        "Players must agree before the game starts how many victory cities must be taken to win.",
    ):
        assert sentence in seed and f"\u201c{sentence}\u201d" in ours
    assert "000_bc04a4edf7f7d2ab.txt, D) Rules Clarifications (5) Special China Rules" in ours  # its source
    ours, seed = section(classic, "You enforce"), seed_text("001_e336cdee7ef3c243.txt")
    assert "A capital may not be attacked on round 1" in seed and "\u201cA capital may not be attacked on round 1\u201d" in ours


def test_rules_tripleA_enforces_are_one_line_each_and_not_among_the_players(aa50: str) -> None:
    enforced = section(aa50, "TripleA enforces")
    items = re.findall(r"<li>(.*?)</li>", enforced, re.DOTALL)
    assert len(items) >= 5 and all("\n" not in item for item in items)
    straits = next(item for item in items if item.startswith("Straits"))
    # 000 D (3), its first sentence: one line, not the whole rule with its list of straits.
    assert "No naval movement allowed through these areas unless one side owns both sides of the Straight" in straits
    assert "Gibraltar" not in straits
    assert "Chinese planes may attack" not in enforced


def test_no_internal_terms_in_what_players_see(aa50: str, classic: str) -> None:
    for notes in (aa50, classic):
        shown = visible_text(notes)
        assert [term for term in INTERNAL if term in shown] == []
        assert "confident alias" not in shown and "keeps the base game's behaviour" not in shown


def test_the_picks_the_players_and_the_bid(tmp_path: Path) -> None:
    data = read_toml(AA50)
    data["pick"][0]["note"] = "picked by Ann"
    data["pick"][1]["note"] = "picked by Bob"
    notes = kremlin_notes(data)
    players = visible_text(notes[: notes.index("<h3>")])
    sides = dict(re.findall(r"(Axis|Allies) \(([^)]*)\) – (?:Ann|Bob)", players))
    assert set(sides["Axis"].split(", ")) == {"Germans", "Italians", "Japanese"}  # the game's Axis alliance
    assert set(sides["Allies"].split(", ")) == {"Russians", "British", "Americans", "Chinese"}
    assert re.search(r"Axis \([^)]*\) – Ann; Allies \([^)]*\) – Bob", players)
    picks = re.findall(r"<li><b>(.*?)</b> \(worth ([+-]\d+) IPCs\)", notes)
    assert [title for title, _ in picks][:2] == ["Axis, option 10 Takeover of enemy held territory", "Allies, option 3 Neutral Territories"]
    assert len(picks) == 10
    assert "The bid: 11" in notes


def test_where_the_maps_notes_disagree_the_notes_say_which_rule_holds(aa50: str, classic: str) -> None:
    conflicts = section(aa50, "Where the map's notes below say otherwise")
    # WW2v3-1941.xml's notes against 000 D (5).
    assert "These infantry must be place in a territory with less than three Chinese pieces." in conflicts
    assert "There are no stacking limits on Chinese eligible territory may contain any number of Chinese units." in conflicts
    conflicts = section(classic, "Where the map's notes below say otherwise")
    # kremlin.xml's notes against 001 header 5 and header 2.
    assert "Only 2 tech rolls per nation per turn" in conflicts
    assert "Only 2 tech rolls per side per round" in conflicts
    assert "Russia may not attack 1st round" in conflicts
    assert "Restricted Russia...this option may be turned off if both players agree." in conflicts


def test_turning_restricted_russia_off_changes_which_rule_holds() -> None:
    data = read_toml(CLASSIC)
    restricted = section(kremlin_notes(data), "Where the map's notes below say otherwise")
    data["choices"] = ["unrestricted_russia"]
    unrestricted = section(kremlin_notes(data), "Where the map's notes below say otherwise")
    said = "Russia may not attack 1st round"
    row = lambda text: next(item for item in re.findall(r"<li>(.*?)</li>", text) if said in item)  # noqa: E731
    assert row(restricted) != row(unrestricted)


def test_the_notes_are_short_enough_to_read_at_a_glance(aa50: str) -> None:
    # Issue 14 counted about 1,570 words before; the example's notes list 10 picks, 8 rules TripleA enforces
    # and 9 the players keep, each quoted whole.
    assert len(visible_text(aa50).split()) < 1100

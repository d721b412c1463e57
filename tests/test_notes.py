"""The notes players read (report/notes.py, issue 14): rules quoted from the seeds, no internal terms.

The expectations are sentences of the rule texts (../shared/seeds) and of the maps' own notes,
never the notes' own wording copied back.
"""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest

from kremlin_triplea.draft.run import draft_from_dict, read_draft
from kremlin_triplea.report.notes import add_notes
from kremlin_triplea.rules.tomlfile import read_toml
from kremlin_triplea.session import apply_draft
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


def test_china_rules_the_game_plays_differently_or_not_at_all_are_said(aa50: str) -> None:
    # 000 D) (5): "Bonus Options 1, 2, 6, and 7 may be chosen for China...such units may not leave Chinese
    # controlled territory." TripleA restricts where all Chinese units go, not which may leave: the players keep it.
    sentence = "Bonus Options 1, 2, 6, and 7 may be chosen for China...such units may not leave Chinese controlled territory."
    assert sentence in seed_text("000_bc04a4edf7f7d2ab.txt") and f"\u201c{sentence}\u201d" in section(aa50, "You enforce")
    # "...at the rate of one infantry for every two territories controlled at the end of its combat phase": TripleA's
    # purchaseNoPU step counts when China's turn starts (NoPuPurchaseDelegate.start), first in China's turn.
    income = next(item for item in re.findall(r"<li>(.*?)</li>", section(aa50, "TripleA enforces")) if item.startswith("Chinese infantry per two"))
    assert "In TripleA:" in income and "counted at the start of China's turn" in income and "not at the end of its combat phase" in income


def test_the_steps_of_chinas_turn_count_before_its_combat() -> None:
    # The reading the note above rests on, from the game itself: China's purchaseNoPU step comes before its combat move.
    from lxml import etree

    for name in ("WW2v3-1941.xml", "WW2v3-1942.xml"):
        steps = etree.parse(str(MAPS_DIR / "world_war_ii_v3" / "map" / "games" / name)).xpath("//step[@player='Chinese']")
        order = [(s.get("name"), s.get("delegate")) for s in steps]
        purchase = next(i for i, (_, d) in enumerate(order) if d == "purchaseNoPU")
        combat = next(i for i, (n, _) in enumerate(order) if n == "chineseCombatMove")
        assert purchase < combat


def test_units_of_more_us_support_to_china_stay_in_china_for_the_players() -> None:
    # 000 option 11, Allied scenario 6: "these units are considered Chinese units and cannot leave China."
    data = read_toml(AA50)
    data["pick"] = [p for p in data["pick"] if p.get("option") != 11 or p["side"] != "Allies"]
    data["pick"].append({"side": "Allies", "option": 11, "scenario": "More US support to China"})
    data.pop("bid", None)
    data["picks_per_side"] = max(sum(1 for p in data["pick"] if p["side"] == side) for side in ("Axis", "Allies"))
    ours = section(kremlin_notes(data), "You enforce")
    assert "these units are considered Chinese units and cannot leave China." in ours


def test_with_restricted_russia_off_the_notes_do_not_say_the_game_enforces_it() -> None:
    # 001 header 2: "Restricted Russia...this option may be turned off if both players agree."
    data = read_toml(CLASSIC)
    data["choices"] = ["unrestricted_russia"]
    notes = kremlin_notes(data)
    enforced = section(notes, "TripleA enforces")
    assert "Restricted Russia turned off" in enforced
    assert not re.search(r"<li>Restricted Russia:", enforced) and "stops every Russian move" not in enforced
    data["choices"] = []
    assert re.search(r"<li>Restricted Russia:", section(kremlin_notes(data), "TripleA enforces"))


@pytest.mark.parametrize(("choices", "kept"), [([], True), (["low_luck"], False), (["low_luck", "low_luck_with_tech"], True)])
def test_002_tech_limits_stay_with_the_players_unless_low_luck_drops_tech(choices: list[str], kept: bool) -> None:
    # 002 V.: "LL is played without tech, which means that all above techrules are obsolete for LL ... A combination
    # of LL with tech and Kremlin is also possible": the tech limits (I. Reduced Weapons Development) then hold.
    data = read_toml(REPO / "examples" / "kremlin-daak-classic.toml")
    data["choices"] = choices
    ours = section(kremlin_notes(data), "You enforce")
    assert ("Reduced Weapons Development - No Tech until round 5." in ours) == kept

"""The interactive draft (assistant/): through a real pseudo-terminal, and with random legal answers."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from kremlin_triplea.assistant.asking import COMMANDS, Choice, match_choice
from kremlin_triplea.assistant.session import Conversation
from kremlin_triplea.draft.run import read_draft
from kremlin_triplea.errors import KremlinError
from kremlin_triplea.gamefile.install import INSTALL_MARK
from kremlin_triplea.session import Session, open_session
from kremlin_triplea.tools.outputs import finish_draft
from support.paths import MAPS_DIR
from support.properties import examples

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "kremlin-aa50-1941.toml"


def spawn(*args: str, maps_dir: Path = MAPS_DIR) -> pexpect.spawn:
    # The command as `python -m`, with this checkout's source first: the test needs no `kremlin-triplea` on PATH
    # (it used to exit at import without one, which broke collection for the whole run under pytest-xdist).
    env = dict(os.environ, TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1", COLUMNS="160", LINES="50", PYTHONPATH=str(REPO / "src"))
    command = ["-m", "kremlin_triplea", "--maps-dir", str(maps_dir), *args]
    child = pexpect.spawn(sys.executable, command, env=env, encoding="utf-8", timeout=60, dimensions=(50, 160))
    # pexpect sleeps 50 ms before each send by default, for programs that read the terminal only a moment after
    # printing their prompt. prompt_toolkit reads it (raw mode) before it draws the prompt each test expects first.
    child.delaybeforesend = None
    return child


def answer(child: pexpect.spawn, prompt: str, text: str) -> None:
    child.expect(prompt)
    child.sendline(text)


def test_a_new_draft_with_completion_a_misspelt_name_undo_and_ctrl_c(tmp_path: Path) -> None:
    draft = tmp_path / "draft.toml"
    child = spawn("draft", str(draft))
    answer(child, r"ruleset \[kremlin-aa50\]>", "")
    answer(child, r"game \[world_war_ii_v3/WW2v3-1941.xml\]>", "")
    child.expect("The lower ranked player gets to pick for either axis or allies")
    answer(child, "the first pick is for which side>", "ax")
    child.expect("-> Axis")
    answer(child, r"name of the player picking for the Axis \(Enter: none\)>", "Ann")
    answer(child, r"name of the player picking for the Allies \(Enter: none\)>", "Bob")
    answer(child, r"picks per side \(4\.\.11\) \[4\]>", "4")
    child.expect("Pick 1 of 8: Ann, for the Axis.")  # the house rules are asked after the picks and the bid
    answer(child, "Axis, option>", "10")
    child.expect("take over>")
    child.send("Archan\t")  # Tab completes the territory's name
    child.expect("Archangel")
    child.sendline("")
    answer(child, "by which power>", "Germans")
    # 000 option 10: the retreating side "decides where to retreat those units after the bidding process is complete".
    child.expect(r"2 Russians infantry leave Archangel: the Allies declare where they retreat after the bid \(now: Belorussia, Karelia S.S.R., Russia, Urals\)")
    child.expect("worth \\+11 IPCs to the Axis")
    child.expect("saved")
    assert len(read_draft(draft).picks) == 1
    child.expect("Pick 2 of 8: Bob, for the Allies.")
    child.expect(r"locked for the Allies: Archangel[^,\r\n]* \(Axis pick 1\)")
    answer(child, "Allies, option>", "3")
    answer(child, "neutral 1 of 2>", "Venzuela")
    child.expect("did you mean 'Venezuela'")
    answer(child, "neutral 1 of 2>", "Venezuela")
    answer(child, "Venezuela joins which power>", "Americans")
    child.expect("its navy goes to a nearest friendly sea zone .*: the Allies declare which after the bid")
    answer(child, "neutral 2 of 2>", "Mongolia")
    index = child.expect(["Mongolia joins which power>", "Mongolia joins Chinese"])
    if index == 0:
        child.sendline("Chinese")
    child.expect("saved")
    assert len(read_draft(draft).picks) == 2
    answer(child, "Axis, option>", "undo")
    child.expect("undone: the Allies' option 3")
    child.expect("Pick 2 of 8: Bob, for the Allies.")
    assert len(read_draft(draft).picks) == 1
    child.expect("Allies, option>")
    child.sendcontrol("c")
    child.expect("continue: kremlin-triplea draft --resume")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    # What Ctrl-C left is a valid draft: its pick applies and the Allies are next.
    left = read_draft(draft)
    assert len(left.picks) == 1
    assert left.picks[0].text("note") == "picked by Ann"
    assert Session.from_draft(left, maps_dir=MAPS_DIR).next_pick().side == "Allies"


@pytest.mark.slow  # several seconds (2.8-9 s on a quiet 2-core machine): the full suite runs it
def test_resume_to_the_end_writes_the_draft_and_installs_the_game_apply_writes(tmp_path: Path) -> None:
    maps = tmp_path / "maps"
    shutil.copytree(MAPS_DIR / "world_war_ii_v3", maps / "world_war_ii_v3")
    # The Archangel retreat left to be declared after the bid (000 A "Order of action" 1), as a draft file may.
    text = EXAMPLE.read_text().replace("picks_per_side = 5", "picks_per_side = 4").replace(', retreat = [{ to = "Russia" }]', "")
    draft = tmp_path / "draft.toml"
    draft.write_text(text[: text.index('[[pick]]\nside = "Allies"\noption = 9')])  # seven picks made
    game = tmp_path / "game.xml"
    child = spawn("draft", "--resume", str(draft), "-o", str(game), "--install", maps_dir=maps)
    child.expect("Resuming .*: 7 of 8 picks made.")
    child.expect("Pick 8 of 8: the Allies choose.")
    answer(child, "Allies, option>", "values")
    child.expect(r"totals: Axis \+54, Allies \+42")
    answer(child, "Allies, option>", "board")
    child.expect("the board: ")
    answer(child, "Allies, option>", "carrier or")  # part of the option's title
    answer(child, "units>", "battleship")
    answer(child, "battleship for which power>", "Americans")
    answer(child, "Americans battleship where>", "Seazone 10")  # the rule text's name
    answer(child, r"bid \[0\]>", "11")
    # The bid is made: the retreats are declared, in the picks' order, on the board as it stands (000 A).
    child.expect("2 Russians infantry from Archangel \\(pick 1\\) may go to Belorussia, Karelia S.S.R., Russia, Urals: the Allies choose")
    answer(child, "retreat to>", "Urals")
    child.expect("pick 1: 2 Russians infantry retreat from Archangel to Urals")
    child.expect("pick 2: navy 1 destroyer to 19 Sea Zone")
    answer(child, "bid for which power>", "Germans")
    answer(child, "Germans unit>", "artillery")
    answer(child, "Germans artillery where>", "Morocco Algeria")
    answer(child, r"how many \(up to 2\) \[1\]>", "")
    answer(child, "bid for which power>", "Italians")
    answer(child, "Italians unit>", "infantry")
    answer(child, "Italians infantry where>", "Italy")
    answer(child, r"how many \(up to 2\) \[1\]>", "2")
    child.expect("bid 11: units worth 10 PUs placed, 1 unspent")
    child.expect("the picture: ")
    child.expect(r"the game goes to .*game\.xml and install it into TripleA's maps folder")
    answer(child, r"write the game\? \(yes, no, or another file name\) \[yes\]>", "")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert draft.with_suffix(".svg").read_text().startswith("<?xml")
    written = read_draft(draft)
    assert len(written.picks) == 8 and written.bid is not None
    assert written.picks[0].table("takeover").data["retreat"] == [{"to": "Urals", "power": "Russians", "unit": "infantry"}]
    # The game the session wrote and installed is the one `apply --install -o` writes from the draft file.
    theirs = tmp_path / "apply-maps"
    shutil.copytree(MAPS_DIR / "world_war_ii_v3", theirs / "world_war_ii_v3")
    applied = tmp_path / "applied.xml"
    environment = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    command = [sys.executable, "-m", "kremlin_triplea", "--maps-dir", str(theirs), "apply", str(draft), "--install", "-o", str(applied)]
    subprocess.run(command, check=True, capture_output=True, env=environment)
    assert game.read_bytes() == applied.read_bytes()
    assert (maps / "world_war_ii_v3" / "map.yml").read_bytes() == (theirs / "world_war_ii_v3" / "map.yml").read_bytes()
    installed = maps / "world_war_ii_v3" / "map" / "games"
    # Installed, it ends with the install mark by which uninstall knows it (gamefile/install.py).
    assert [p for p in installed.glob("*.xml") if p.read_bytes() == game.read_bytes() + INSTALL_MARK.encode("ascii") + b"\n"]


def test_match_choice_exact_prefix_part_and_close_spelling() -> None:
    choices = [Choice("a", ("Archangel",)), Choice("b", ("Belorussia",)), Choice("r", ("Russia", "Moscow"))]
    assert match_choice("archangel", choices)[0].value == "a"
    assert match_choice("Bel", choices)[0].value == "b"
    assert match_choice("mosc", choices)[0].value == "r"
    assert match_choice("angel", choices)[0].value == "a"
    found, why = match_choice("Archangle", choices)
    assert found is None and "did you mean 'Archangel'" in why
    found, why = match_choice("r", [Choice(1, ("Russia",)), Choice(2, ("Rome",))])
    assert found is None and "could be Russia, Rome" in why


class RandomPlayers:
    """Answers every question with one of the offered names, at random: the session must never be refused."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)
        self.said: list[str] = []
        self.asked = 0

    def say(self, text: str = "") -> None:
        self.said.append(text)

    def ask(self, question: str, words, default=None) -> str:
        self.asked += 1
        assert self.asked < 500, f"the session keeps asking {question!r}: a dead end"
        offered = [w for w in words if w not in COMMANDS]
        if not offered:  # a number: the bid, a count, PUs
            return "" if default is not None and question.startswith(("how many", "PUs")) else str(self.random.randint(-12, 12))
        return self.random.choice(offered)


# Every ruleset with a game it is written for: AA50 (negative bids give PUs), the classic ones (they remove units).
GAMES = [
    ("kremlin-aa50", "world_war_ii_v3/WW2v3-1941.xml"),
    ("kremlin-aa50", "world_war_ii_v3/WW2v3-1942.xml"),
    ("kremlin-classic", "classic_variations/kremlin.xml"),
    ("kremlin-classic", "world_war_ii_classic/classic_3rd_edition.xml"),
    ("kremlin-daak", "world_war_ii_classic/classic.xml"),
]


@pytest.mark.parametrize("seed", range(int(os.environ.get("DRAFT_SEEDS", examples(10)))))  # every ruleset and game at least once
def test_random_legal_answers_always_make_a_draft_apply_accepts(tmp_path: Path, seed: int) -> None:
    ruleset, game = GAMES[seed % len(GAMES)]
    draft = tmp_path / "draft.toml"
    data = {"ruleset": ruleset, "game": game, "first": "Allies" if seed % 2 else "Axis", "picks_per_side": 4, "pick": []}
    session: Session = open_session(draft, data, MAPS_DIR)
    players = RandomPlayers(seed)
    Conversation(session, players).run()
    assert not [line for line in players.said if "refused" in line]
    assert len(session.picks) == 8
    written = tmp_path / "game.xml"
    lines = finish_draft(session.path, written, maps_dir=MAPS_DIR)
    assert written.is_file() and any(line.startswith("bid") for line in lines)


class OptionFirst(RandomPlayers):
    """Takes option ``number``, then answers at random."""

    def __init__(self, seed: int, number: str) -> None:
        super().__init__(seed)
        self.number = number

    def ask(self, question: str, words, default=None) -> str:
        return self.number if question.endswith("option> ") else super().ask(question, words, default)


@pytest.mark.parametrize("seed", range(6))
def test_units_bound_to_one_place_are_only_offered_places_that_suit_them_all(tmp_path: Path, seed: int) -> None:
    # A variant of option 2: a destroyer and a fighter in one sea zone. Most zones a destroyer may take have no
    # carrier for the fighter, so the destroyer's places must be only those leaving room for the fighter.
    text = (REPO / "rulesets" / "kremlin-aa50.toml").read_text()
    start = text.index('unit_sets = [["artillery", "tank"]]')
    end = text.index('require = ["not_adjacent_to_enemy_units"]', start) + len('require = ["not_adjacent_to_enemy_units"]')
    variant = (
        'unit_sets = [["destroyer", "fighter"]]\n'
        'at = ["sea_zone_adjacent_to_own_territory_or_with_friendly_ships", "friendly_carrier_with_room"]\n'
        'require = ["same_territory"]'
    )
    ruleset = tmp_path / "variant.toml"
    ruleset.write_text(text[:start] + variant + text[end:])
    data = {"ruleset": str(ruleset), "game": "world_war_ii_v3/WW2v3-1941.xml", "first": "Allies", "picks_per_side": 4, "pick": []}
    session = open_session(tmp_path / "draft.toml", data, MAPS_DIR)
    players = OptionFirst(seed, "2")
    Conversation(session, players).ask_pick(session.next_pick())
    assert not [line for line in players.said if "refused" in line]
    (entry,) = session.to_toml()["pick"]
    assert len({p["at"] for p in entry["place"]}) == 1


def test_the_terminal_draft_writes_its_game_and_install_all_or_none(tmp_path: Path) -> None:
    """Issue 27, every output: finishing a draft installed the game first and wrote the file after, so a refused
    output left an install behind. Now the output is checked before anything is written, as `apply` does."""
    maps = tmp_path / "maps"
    shutil.copytree(MAPS_DIR / "world_war_ii_v3", maps / "world_war_ii_v3")
    map_yml = (maps / "world_war_ii_v3" / "map.yml").read_bytes()
    games_before = sorted((maps / "world_war_ii_v3" / "map" / "games").iterdir())
    draft = tmp_path / "draft.toml"
    shutil.copyfile(EXAMPLE, draft)  # a finished draft, as the session has written it
    session = open_session(draft, None, maps)
    taken = tmp_path / "game.xml"
    taken.write_bytes(b"the host's own file")
    with pytest.raises(KremlinError, match="already exists"):
        finish_draft(session.path, taken, maps_dir=maps, install=True)
    assert taken.read_bytes() == b"the host's own file"
    assert (maps / "world_war_ii_v3" / "map.yml").read_bytes() == map_yml
    assert sorted((maps / "world_war_ii_v3" / "map" / "games").iterdir()) == games_before
    written = tmp_path / "new.xml"
    lines = finish_draft(session.path, written, maps_dir=maps, install=True)
    assert written.is_file() and any(line.startswith("installed") for line in lines)
    assert (maps / "world_war_ii_v3" / "map.yml").read_bytes() != map_yml

"""A host's evening, scripted (issue 42): for each ruleset, the terminal draft on its own game with a house-rule set
where its map has one, then install, the installed list, verify, a save for a lobby bot and uninstall, all through
the commands a host types. TripleA 2.x is stood in for (tests/support/fake_triplea2.py); tests/test_savegame.py
writes and checks saves with the real TripleA 2.7."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from kremlin_triplea.assistant.session import Conversation
from kremlin_triplea.assistant.setup import ask_setup, game_offers, installed_rulesets
from kremlin_triplea.cli.main import main
from kremlin_triplea.draft.rulesets import load_named_ruleset
from kremlin_triplea.draft.run import read_draft
from kremlin_triplea.gamefile.install import installed_games
from kremlin_triplea.session import open_session
from support.fake_triplea2 import install_fake
from support.paths import MAPS_DIR
from test_assistant_texts import Host, unreadable


class Evening(Host):
    """The set-up questions answered by the host's own script, then every other question at random."""

    def __init__(self, seed: int, setup: list[str]) -> None:
        super().__init__(seed)
        self.setup = list(setup)

    def ask(self, question: str, words, default=None) -> str:
        if self.setup:
            self.asked.append(question)
            return self.setup.pop(0)
        self.asked.append(question)
        if question == "house rules> ":  # the map's first set, then done
            return next((w for w in words if w.startswith("house-")), "done") if self.asked.count(question) == 1 else "done"
        for start, answer in (("turn ", "yes"), ("seed>", "7"), ("house-revised> ", "drop"), ("house-classic> ", "drop")):
            if question.startswith(start):
                return answer  # the fix taken; a set the ruleset's own rules refuse dropped
        if question.endswith("which holds? (1, 2)> "):
            return "1"  # 003 Winning over 001/002's economic victory: the draft chooses house_victory
        if question.endswith(" advantages> "):
            return "seed"
        if question.startswith("house-"):
            return ""  # its switches as preset
        self.asked.pop()
        return super().ask(question, words, default)


def _evenings() -> list:
    """Every ruleset on every pinned game it fits (as the terminal offers them): its own game in the quick tests."""
    pairs = []
    for ruleset in installed_rulesets():
        offers = game_offers(load_named_ruleset(ruleset), MAPS_DIR)
        for offer in offers.games:
            own = offer == offers.own
            pairs.append(pytest.param(ruleset, "" if own else offer.key, id=f"{ruleset}-{offer.key}", marks=() if own else pytest.mark.slow))
    return pairs


@pytest.mark.parametrize(("ruleset", "game"), _evenings())
def test_a_hosts_evening_runs_without_a_stumble(tmp_path: Path, ruleset: str, game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    install_fake(monkeypatch.setattr)
    # The game as offered ("": the ruleset's own, the default), the default picks; Axis first, no names.
    host = Evening(len(ruleset), [ruleset, game, "Axis", "Ann", "Bob", ""])
    conversation = Conversation(None, host)
    data, players = ask_setup(conversation, MAPS_DIR)
    assert not [line for line in host.said if line.startswith("  refused")]
    assert game in ("", data["game"])
    map_name = data["game"].split("/")[0]
    maps = tmp_path / "maps"
    shutil.copytree(MAPS_DIR / map_name, maps / map_name, ignore=shutil.ignore_patterns("*.png", "*.jpg"))
    path = tmp_path / "evening.toml"
    session = open_session(path, data, maps, players)
    session.save()
    conversation.session = session
    conversation.run()
    conversation.ask_house_rules()  # after the picks and the bid, as `draft` asks them
    drafted = read_draft(path)
    assert drafted.bid is not None
    # Each ruleset's own game has a house-rule set (004 for AA50, 003 for the classic games). 003's Winning and
    # 001/002's economic victory conflict: the host is asked which holds and keeps 003's (the draft's house_victory).
    if ruleset == "kremlin-aa50":
        assert drafted.house_rules == ("house-revised",)
        assert any(line.endswith("drawn with seed 7") for line in host.said)
    else:
        assert drafted.house_rules == ("house-classic",) and "house_victory" in drafted.choices, host.said[-12:]
    assert unreadable(host.asked + host.said) == []

    def run(*args: str) -> str:
        result = CliRunner().invoke(main, ["--maps-dir", str(maps), *args])
        assert result.exit_code == 0, (args, result.output)
        assert "Traceback" not in result.output
        return result.output

    written = run("apply", str(path), "-o", str(tmp_path / "evening.xml"), "--install", "--savegame", str(tmp_path / "evening.tsvg"), "--base-name")
    (game,) = installed_games(maps)
    assert f"{game.game_name!r}" in written and game.game_name.isascii() and " - Ann v Bob " in game.game_name
    assert "named" in written and "as its base game" in written and "lobby bot" not in written
    assert game.game_name in run("installed")
    run("verify", f"{map_name}/{game.game_file.name}")
    saved = run("save", str(game.game_file), "-o", str(tmp_path / "plain.tsvg"))
    assert "a lobby bot will not list this save" in saved and "--base-name" in saved  # one line, with the fix
    run("uninstall", game.game_name)
    assert installed_games(maps) == [] and not game.game_file.exists()

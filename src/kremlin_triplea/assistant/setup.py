"""The terminal draft's first questions: the ruleset, the game, who picks first, the players, picks per side."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from kremlin_triplea.assistant.asking import Choice
from kremlin_triplea.draft.rulesets import load_named_ruleset
from kremlin_triplea.errors import KremlinError
from kremlin_triplea.gamefile.locate import default_maps_dir, installed_maps
from kremlin_triplea.rules.datafiles import named_rule_files
from kremlin_triplea.rules.profile import load_named_profile
from kremlin_triplea.rules.ruleset import Ruleset

if TYPE_CHECKING:
    from kremlin_triplea.assistant.session import Conversation


def new_draft_data(ruleset: Ruleset, game_spec: str, first: str, picks_per_side: int) -> dict[str, Any]:
    return {"ruleset": ruleset.id, "game": game_spec, "first": first, "picks_per_side": picks_per_side, "pick": []}


def installed_rulesets() -> list[str]:
    """The Kremlin rulesets a draft can be made with (house-rule sets are chosen in their own question)."""
    return sorted(named_rule_files("ruleset"))


def load_ruleset_or_none(name: str) -> Ruleset | None:
    try:
        return load_named_ruleset(name)
    except KremlinError:
        return None


def ask_setup(conversation: Conversation, maps_dir: Path | None) -> tuple[dict[str, Any], dict[str, str]]:
    """Ruleset, game, who picks first for which side, picks per side: the draft file's header, and the players' names by side."""

    say = conversation.terminal.say
    rulesets = installed_rulesets()
    say("Rulesets:")
    preferred = "kremlin-aa50" if "kremlin-aa50" in rulesets else rulesets[0]
    ruleset_choices = [Choice(r, (r,)) for r in rulesets]
    ruleset_id = conversation.choose("ruleset> ", ruleset_choices, default=ruleset_choices[rulesets.index(preferred)])
    ruleset = load_named_ruleset(ruleset_id)
    say(f"  {ruleset.title} ({ruleset.source})")
    games: list[Choice] = []
    suited: list[Choice] = []
    for folder in installed_maps(default_maps_dir(maps_dir)):
        try:
            profile_rulesets = load_named_profile(folder.name).rulesets
        except KremlinError:
            profile_rulesets = None  # no map profile: the draft cannot resolve its names
        for entry in folder.games:
            if not entry.path.is_file():
                continue
            choice = Choice(entry.key, (entry.key, entry.game_name), f"{entry.key}  ({entry.game_name})")
            if profile_rulesets is None:
                continue
            games.append(choice)
            if not profile_rulesets or ruleset.id in profile_rulesets:
                suited.append(choice)
    if not games:
        raise KremlinError(f"no installed game has a map profile (looked in {default_maps_dir(maps_dir)})")
    say("Games (Tab completes):")
    game = conversation.choose("game> ", games, default=(suited or games)[0])
    say(f"Sides: {' and '.join(ruleset.sides)}.")
    if ruleset.picks.first_rule:
        say(f'  "{ruleset.picks.first_rule}" ({ruleset.picks.source})')
    first = conversation.choose("the first pick is for which side> ", [Choice(s, (s,)) for s in ruleset.sides], list_them=False)
    second = next(s for s in ruleset.sides if s != first)
    players = {}
    for side in (first, second):
        name = conversation.terminal.ask(f"name of the player picking for the {side} (Enter: none)> ", [], None).strip()
        if name:
            players[side] = name
    picks = ruleset.picks
    count = conversation.number(
        f"picks per side ({picks.min}..{picks.max if picks.max else ''})> ",
        picks.min,
        picks.max,
        picks.default,
    )
    return new_draft_data(ruleset, game, first, count), players

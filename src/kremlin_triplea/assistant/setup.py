"""The terminal draft's first questions: the ruleset, the game, who picks first, the players, picks per side."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from kremlin_triplea.assistant.asking import Choice
from kremlin_triplea.check.gate import check_base_game
from kremlin_triplea.draft.rulesets import load_named_ruleset
from kremlin_triplea.errors import KremlinError, possessive
from kremlin_triplea.gamefile.locate import MapFolder, default_maps_dir, installed_maps
from kremlin_triplea.rules.datafiles import data_folders, named_rule_files
from kremlin_triplea.rules.profile import PROFILE_IN_MAP, PROFILES_FOLDER, Profile, load_profile
from kremlin_triplea.rules.ruleset import Ruleset
from kremlin_triplea.session import open_session

if TYPE_CHECKING:
    from kremlin_triplea.assistant.session import Conversation


def new_draft_data(ruleset: Ruleset, game_spec: str, first: str, picks_per_side: int) -> dict[str, Any]:
    return {"ruleset": ruleset.id, "game": game_spec, "first": first, "picks_per_side": picks_per_side, "pick": []}


def installed_rulesets() -> list[str]:
    """The Kremlin rulesets a draft can be made with (house-rule sets are chosen in their own question)."""
    return sorted(named_rule_files("ruleset"))


@attrs.frozen
class GameOffer:
    """A game a ruleset may be drafted on: one its map profile was written for (the profile's ``rulesets`` and ``[[game]]``)."""

    key: str  # as the draft's ``game`` names it: MAP/GAME in the maps folder, or a path
    name: str
    profile: Profile


@attrs.frozen
class GameOffers:
    """The games a ruleset fits that are installed, its own game among them if installed, and the maps to download for the others."""

    games: tuple[GameOffer, ...]
    own: GameOffer | None
    missing: tuple[str, ...]  # MAP/GAME keys the ruleset's profiles pin whose map is not installed


def host_profiles(maps_dir: Path, folders: list[MapFolder]) -> list[Profile]:
    """The host's own map profiles, first found wins as :func:`profile_for_game` looks for them: the ``profiles`` folder beside
    the maps folder, then each map's own ``kremlin-profile.toml``. One that does not load is left out (``profile check`` says why)."""
    paths = sorted((maps_dir.parent / PROFILES_FOLDER).glob("*.toml"))
    paths += [f for folder in folders for f in (folder.folder / PROFILE_IN_MAP, folder.folder / "map" / PROFILE_IN_MAP)]
    found = []
    for path in paths:
        if path.is_file():
            try:
                found.append(load_profile(path))
            except KremlinError:
                continue
    return found


def builtin_profiles() -> list[Profile]:
    paths = {p.stem: p for folder in reversed(data_folders("maps")) for p in folder.glob("*.toml")}
    return [load_profile(paths[name]) for name in sorted(paths)]


def game_offers(ruleset: Ruleset, maps_dir: Path, profile: Profile | None = None) -> GameOffers:
    """The installed games ``ruleset`` may be drafted on: those a map profile written for it pins (``profile`` alone if given,
    else the host's profiles before the built-in ones), the ruleset's own games (its ``games``) first."""
    folders = installed_maps(maps_dir)
    installed = {entry.key: entry for folder in folders for entry in folder.games if entry.path.is_file()}
    profiles = [profile] if profile is not None else host_profiles(maps_dir, folders) + builtin_profiles()
    offers: dict[str, GameOffer] = {}
    missing: list[str] = []
    for each in profiles:
        if ruleset.id not in each.rulesets:
            continue
        for base in each.games:
            key = each.game_key(base)
            if key in offers:
                continue  # a profile found earlier pins it, as apply finds the host's profile first
            if key in installed:
                offers[key] = GameOffer(key, installed[key].game_name, each)
            elif Path(key).is_absolute() and Path(key).is_file() or key != base.key:
                offers[key] = GameOffer(key, base.name, each)  # a game outside the maps folder the host's profile names
            elif key not in missing:
                missing.append(key)
    order = {key: index for index, key in enumerate(ruleset.games)}
    games = sorted(offers.values(), key=lambda o: order.get(o.key, len(order)))
    own = games[0] if games and games[0].key in order else None
    return GameOffers(tuple(games), own, tuple(k for k in missing if k not in offers))


def download_line(keys: Sequence[str]) -> str:
    maps = list(dict.fromkeys(k.split("/")[0] for k in keys))
    return f"download the map{'s' if len(maps) > 1 else ''} {' and '.join(maps)} in TripleA (Download Maps)"


def ask_setup(conversation: Conversation, maps_dir: Path | None, profile: Profile | None = None) -> tuple[dict[str, Any], dict[str, str]]:
    """Ruleset, game, who picks first for which side, picks per side: the draft file's header, and the players' names by side.

    Only the games the ruleset's map profiles fit are offered, and the pair is opened as the draft will be before any
    other question, so a ruleset and game that cannot go together are refused at once, never after the set-up."""

    say = conversation.terminal.say
    rulesets = installed_rulesets()
    say("Rulesets:")
    preferred = "kremlin-aa50" if "kremlin-aa50" in rulesets else rulesets[0]
    ruleset_choices = [Choice(r, (r,)) for r in rulesets]
    folder = default_maps_dir(maps_dir)
    while True:
        ruleset_id = conversation.choose("ruleset> ", ruleset_choices, default=ruleset_choices[rulesets.index(preferred)])
        ruleset = load_named_ruleset(ruleset_id)
        say(f"  {ruleset.title} ({ruleset.source})")
        offers = game_offers(ruleset, folder, profile)
        if offers.games:
            break
        pinned = offers.missing or ruleset.games
        say(
            f"  no game {ruleset.id} was written for is installed in {folder}: {download_line(pinned)}; or choose another ruleset"
            if pinned
            else f"  no map profile is written for {ruleset.id}"
        )
        preferred = ruleset_id
    if offers.own is None and ruleset.games:
        say(
            f"  {possessive(ruleset.id)} own game{'s' if len(ruleset.games) > 1 else ''} ({', '.join(ruleset.games)}) not installed: {download_line(ruleset.games)}"
        )
    choices = [Choice(o.key, (o.key, o.name), f"{o.key}  ({o.name})") for o in offers.games]
    say(f"Games {ruleset.id} fits (Tab completes):")
    while True:
        game = conversation.choose("game> ", choices, default=choices[0], refuse=lambda answer: _not_fitting(answer, ruleset))
        try:  # opened as the draft will be: what would refuse it refuses it now, and what apply would warn of is said now
            trial = open_session(Path("draft.toml"), new_draft_data(ruleset, game, ruleset.sides[0], ruleset.picks.default), folder, None, profile)
            check_base_game(trial.game.document)  # as apply refuses it
        except KremlinError as error:
            say(f"  refused: {error}")
            continue
        break
    for warning in trial.warnings:
        say(f"  warning: {warning}")
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


def _not_fitting(answer: str, ruleset: Ruleset) -> str | None:
    """Why a game that is not offered is not: the map profiles that pin it are written for other rulesets."""
    key = answer.strip().replace("\\", "/")
    for each in builtin_profiles():
        for base in each.games:
            if key.casefold() in (base.key.casefold(), base.file.casefold(), base.name.casefold()):
                return f"{base.key} is not a game for {ruleset.id}: its map profile {Path(each.path).name} is written for {', '.join(each.rulesets) or 'no Kremlin ruleset'}"
    return None

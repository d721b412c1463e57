"""A restriction the map profile cannot place whole is never loosened (issue 46, item 1).

000 D(5) limits China to options 1, 2, 3, 6, 7 and 10, option 10 to territories China may enter, option 3 to
Mongolia; 001 and 002 option 3 except "Germany may not place a transport in the Baltic Sea". On a map whose
profile leaves one of these names ``[unmatched]`` (the place owned or named otherwise), dropping the restriction
offered Chinese battleships, factories and takeovers of Denmark, and German transports in the Baltic. Each name of
each restriction is left unmatched in turn, and every pick ``legal`` then offers must be one the whole rule allows.
"""

from __future__ import annotations

import html
from pathlib import Path

import attrs
import pytest

from kremlin_triplea.draft.kinds.placement import PlacementParams
from kremlin_triplea.draft.picks import Pick
from kremlin_triplea.draft.rulesets import load_named_ruleset
from kremlin_triplea.draft.run import draft_from_dict
from kremlin_triplea.rules.profile import Profile, profile_for_game
from kremlin_triplea.rules.ruleset import Ruleset
from kremlin_triplea.session import Session
from support.classic import CLASSIC_2ND, KREMLIN
from support.games import fresh_game
from support.paths import AA50_1941

REPO = Path(__file__).resolve().parents[1]

# Each Kremlin ruleset with a game its seed targets (shared/seeds/README.md), read with that game's own profile.
RULESET_GAMES = {"kremlin-aa50": AA50_1941, "kremlin-classic": KREMLIN, "kremlin-daak": CLASSIC_2ND}


def restriction_names(ruleset: Ruleset) -> list[str]:
    """Every rule-text name a restriction of ``ruleset`` uses: who it binds, where it lets them go, which neutral,
    and each part of a placement option's exception."""
    names = []
    for restriction in ruleset.restrictions.values():
        names += [restriction.power, *restriction.may_also_enter, *restriction.neutrals]
    for option in ruleset.options:
        if isinstance(option.params, PlacementParams):
            names += [name for excluded in option.params.exclude for name in excluded]
    return list(dict.fromkeys(names))


def without(profile: Profile, name: str) -> Profile:
    """``profile`` with the rule-text ``name`` listed ``[unmatched]`` and its game name given no rule-text name (its
    aliases too: "German" as well as "Germany"), as ``profile new`` writes a name it finds nothing for on a map."""

    def drop(table: dict[str, str]) -> dict[str, str]:
        game = {k.lower(): v for k, v in table.items()}.get(name.lower())
        return {k: v for k, v in table.items() if k.lower() != name.lower() and (game is None or v != game)}

    return attrs.evolve(
        profile,
        powers=drop(profile.powers),
        units=drop(profile.units),
        places=drop(profile.places),
        unmatched={**profile.unmatched, name: "a test: left unmatched"},
    )


def offered_picks(ruleset: str, game: Path, profile: Profile, first: str) -> tuple[Session, list[Pick]]:
    run = Session(draft_from_dict({"ruleset": ruleset, "first": first}), fresh_game(game), profile=profile)
    return run, list(run.legal_picks)


def test_every_kremlin_ruleset_is_walked() -> None:
    shipped = {path.stem for path in (REPO / "rulesets").glob("kremlin-*.toml")}
    assert shipped == set(RULESET_GAMES)
    assert all(restriction_names(load_named_ruleset(name)) for name in RULESET_GAMES)


CASES = [(ruleset, name) for ruleset in RULESET_GAMES for name in restriction_names(load_named_ruleset(ruleset))]


@pytest.mark.parametrize(("ruleset", "name"), CASES, ids=[f"{r}-{n}" for r, n in CASES])
def test_a_restriction_with_a_name_unmatched_offers_no_pick_the_whole_rule_forbids(ruleset: str, name: str) -> None:
    game = RULESET_GAMES[ruleset]
    full_profile = profile_for_game(fresh_game(game))
    for first in ("Axis", "Allies"):
        full = Session(draft_from_dict({"ruleset": ruleset, "first": first}), fresh_game(game), profile=full_profile)
        full_options = {option.number: option for option in full.ruleset.options}
        run, offered = offered_picks(ruleset, game, without(full_profile, name), first)
        assert offered, (ruleset, name, first)
        forbidden = []
        for pick in offered:
            whole = attrs.evolve(pick, option=full_options[pick.option.number])
            if not full.is_legal(whole):
                forbidden.append(pick.label)
        assert forbidden == [], f"{name} unmatched: {len(forbidden)} picks the whole rule forbids, e.g. {forbidden[:3]}"


def test_a_restriction_kept_in_part_holds_for_what_matched_and_says_so() -> None:
    """000 D(5) with French Indo-China unmatched: China still takes over where it may enter (Kiangsu, Manchuria),
    not French Indo-China, which the whole rule lets it take, and the run says so (apply prints it; the players'
    notes quote it)."""
    game = fresh_game(AA50_1941)
    full = profile_for_game(game)
    fic = full.places["French Indo-China"]

    def chinese_takeovers(profile: Profile) -> set[str]:
        run, offered = offered_picks("kremlin-aa50", AA50_1941, profile, "Allies")
        return {p.target.territory for p in offered if p.option.number == 10 and p.target.by == "Chinese"}  # type: ignore[attr-defined]

    assert fic in chinese_takeovers(full)
    kept = chinese_takeovers(without(full, "French Indo-China"))
    assert kept and kept == chinese_takeovers(full) - {fic}
    run, _ = offered_picks("kremlin-aa50", AA50_1941, without(full, "French Indo-China"), "Allies")
    assert any("The China restriction, kept in part" in w and "French Indo-China" in w for w in run.warnings), run.warnings


def test_a_restriction_kept_in_part_is_in_the_players_notes_quoted_whole() -> None:
    """apply's notes list it under "You enforce": the rule quoted whole (000 D(5)), and how it holds on this map."""
    from kremlin_triplea.draft.run import read_draft
    from kremlin_triplea.report.notes import add_notes
    from kremlin_triplea.session import apply_draft

    profile = without(profile_for_game(fresh_game(AA50_1941)), "French Indo-China")
    draft = read_draft(REPO / "examples" / "kremlin-aa50-1941.toml")
    notes = add_notes(apply_draft(draft, fresh_game(AA50_1941), profile=profile)).game.board.properties["notes"]
    ours = notes[: notes.index("<hr/>")]
    yours = ours[ours.index("<h3>You enforce</h3>") :]
    restriction = load_named_ruleset("kremlin-aa50").restrictions["China"]
    assert "The China restriction, kept in part on this map: this map has no place named French Indo-China: China may not enter or take it" in yours
    assert html.escape(restriction.rule) in yours and html.escape(restriction.source) in yours
    assert "profile" not in ours  # the players' words, not the host's machinery


@pytest.mark.parametrize(("ruleset", "game"), [("kremlin-classic", "iron_blitz_1945A.xml"), ("kremlin-daak", "iron_blitz_1945A.xml")])
def test_a_restriction_on_a_power_the_game_does_not_have_binds_nobody_and_lists_the_options_choices(ruleset: str, game: str) -> None:
    """001/002 option 3: "Germany may not place a transport in the Baltic". Classic: Iron Blitz 1945A has no Germans
    (the map's other games do, so its profile names them): no German can pick, so the exception restricts nobody, and
    the option's choices are listed (they were refused whole: "unknown power 'Germany'", every draft on the game)."""
    from support.paths import MAPS_DIR

    path = MAPS_DIR / "classic_variations" / "map" / "games" / game
    run = Session(draft_from_dict({"ruleset": ruleset, "first": "Axis"}), fresh_game(path))
    assert "Germans" not in run.game.board.catalog.players
    option = next(o for o in run.ruleset.options if o.number == 3)
    picks = [pick for _, pick in run.option_picks(option, "Axis")]
    assert picks and all(pick.side == "Axis" for pick in picks)

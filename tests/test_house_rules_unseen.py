"""House sets on maps they were not written for (issue 41): a map profile that lists the set in `rulesets` and maps its
names opens it to the map, as a Kremlin ruleset's profile does; `profile check` reads the same list. What the map lacks
(a strait, a unit name, a power) is written nowhere and left to the players in the notes; a drawn advantage is one the
map can take. Each real map of tests/data, its profile drafted by `profile new` as a host drafts one.
"""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from click.testing import CliRunner

from kremlin_triplea.cli.main import main
from kremlin_triplea.draft.invariants import board_problems
from kremlin_triplea.game import load
from kremlin_triplea.gamerules.house import apply_house_rules
from kremlin_triplea.report.notes import add_notes
from kremlin_triplea.rules.house_rules import HouseChoices
from kremlin_triplea.rules.names import Names
from kremlin_triplea.rules.profile import load_profile
from kremlin_triplea.rules.tomlfile import DataFileError
from support.house import duplicates

DATA = Path(__file__).resolve().parent / "data"
# Every real map of tests/data (tests/data/PROVENANCE.md): WW2v4 in the quick subset, the others slow.
QUICK = DATA / "world_war_ii_v4" / "WW2v4.xml"
UNSEEN = [QUICK] + [pytest.param(game, marks=pytest.mark.slow) for game in sorted(DATA.glob("*/*.xml")) if game != QUICK]


def _profile(game: Path, folder: Path, *house: str) -> Path:
    """The profile `profile new` drafts for kremlin-aa50 on ``game``, listing the house sets too (a line the host adds)."""
    profile = folder / f"{game.stem}.toml"
    made = CliRunner().invoke(main, ["profile", "new", str(game), "--ruleset", "kremlin-aa50", "-o", str(profile)])
    assert made.exit_code == 0, made.output
    if house:
        # The line lists kremlin-aa50 where its sides are the game's (not on the 3-teams and Warlords games).
        text = re.sub(
            r'^rulesets = \[("kremlin-aa50")?\]',
            lambda m: f"rulesets = [{', '.join([*filter(None, [m.group(1)]), *(f'{chr(34)}{h}{chr(34)}' for h in house)])}]",
            profile.read_text(encoding="utf-8"),
            count=1,
            flags=re.M,
        )
        profile.write_text(text, encoding="utf-8")
        checked = CliRunner().invoke(main, ["profile", "check", str(profile)])
        assert checked.exit_code == 0, checked.output  # `profile check` takes the house set in `rulesets`
    return profile


@pytest.mark.parametrize("house", ["house-classic", "house-revised"])
@pytest.mark.parametrize("game", UNSEEN, ids=lambda p: p.name)
def test_a_house_set_applies_on_a_map_whose_profile_lists_it_what_it_lacks_left_to_the_players(game: Path, house: str, tmp_path: Path) -> None:
    # house-classic on any of them: a technology the game lacks (003's Industrial Technology; AA50-style games have
    # Improved Shipyards instead) is the players' to keep, as a strait the map lacks is, not a refusal of the set.
    profile = load_profile(_profile(game, tmp_path, house))
    for seed in range(3):
        written = load(game)
        names = Names(written.board, profile, tuple(written.board.catalog.alliances()))
        factories = names.units_of_any_power("factory")
        before = board_problems(written.board, factories)
        applied = apply_house_rules(written, [HouseChoices(house, seed=seed)], profile=profile)
        # Every rule this map cannot express is warned of, and quoted for the players with those the notes find the
        # written game does not hold (report/claims.py).
        assert applied.rules.unwritten and len(applied.warnings) >= len(applied.rules.unwritten)
        result = add_notes(applied)
        assert board_problems(written.board, factories) <= before
        assert duplicates(written.to_bytes()) == duplicates(game.read_bytes())  # Total World War has two of its own
        notes = unescape(written.board.properties["notes"])
        for rule, _ in result.rules.unwritten:
            assert rule.title in notes


def test_a_profile_that_does_not_list_the_set_is_refused_saying_what_opens_it(tmp_path: Path) -> None:
    game = QUICK
    profile = load_profile(_profile(game, tmp_path))
    with pytest.raises(DataFileError, match=r"house-revised is written for the maps .*list it in the map profile's `rulesets`"):
        apply_house_rules(load(game), [HouseChoices("house-revised", seed=1)], profile=profile)


@pytest.mark.engine
@pytest.mark.slow
def test_every_set_written_into_every_pinned_game_its_profile_opens_loads_in_both_engines_as_written(tmp_path: Path) -> None:
    """Each house set on each pinned game, the game's profile listing the set (its own maps' or another's), two rounds
    of advantages: TripleA 1.9 and 2.7 read every written game, each player's PUs as the board has them."""
    from kremlin_triplea.engine.positions import Position, run_positions
    from kremlin_triplea.engine.triplea27_positions import run_positions27
    from kremlin_triplea.gamefile.installation import find_installation
    from kremlin_triplea.rules.datafiles import data_folders, named_rule_files
    from kremlin_triplea.rules.house_rules import load_named_house_set
    from support.paths import MAPS_DIR, SHARED

    pinned = [(profile, base) for path in sorted(data_folders("maps")[0].glob("*.toml")) for profile in [load_profile(path)] for base in profile.games]
    positions, boards = [], []
    for profile, base in pinned:
        path = load(profile.game_key(base), maps_dir=MAPS_DIR).source
        for set_id in sorted(named_rule_files("house")):
            house = load_named_house_set(set_id)
            listed = _listing(profile, set_id, tmp_path)
            for n in range(2):
                written = load(path)
                chosen = {p: house.advantages_of(p)[n % len(house.advantages_of(p))].id for p in house.powers}
                try:
                    apply_house_rules(written, [HouseChoices(set_id, advantages=chosen, seed=n)], profile=listed)
                except DataFileError:
                    continue  # an advantage this game cannot take, refused naming it (test_house_rules_property.py)
                saved = written.save(tmp_path / f"{Path(path).stem}-{set_id}-{n}.xml")
                players = sorted(written.board.catalog.players)
                positions.append(Position(saved, tuple(("pus", p) for p in players), label=saved.name))
                boards.append((saved.name, [written.board.pus[p] for p in players]))
    assert len(boards) >= len(pinned) * 2
    found = find_installation(SHARED / "triplea-engine-2.7").found
    assert found is not None and found.major == 2, "the pinned TripleA 2.7 engine is missing from ../shared"
    for engine, answers in (("1.9", run_positions(positions, strict=False)), ("2.7", run_positions27(found, positions))):
        for (name, pus), got in zip(boards, answers):
            assert [a.get("pus", a.get("error")) for a in got] == pus, (engine, name, got)


def _listing(profile, set_id: str, folder: Path):
    """``profile`` read again with ``set_id`` in its `rulesets` (the line a host adds)."""
    import re

    text = Path(profile.path).read_text(encoding="utf-8")
    line = re.search(r"^rulesets = \[(.*)\]$", text, re.M)
    assert line is not None
    if f'"{set_id}"' not in line.group(1):
        text = text.replace(line.group(0), f'rulesets = [{line.group(1)}, "{set_id}"]')
    listed = folder / f"{set_id}-{Path(profile.path).name}"
    listed.write_text(text, encoding="utf-8")
    return load_profile(listed)

"""`profile new` and `profile check` take house sets as they take Kremlin rulesets (issue 41): a profile lists a house set in
`rulesets`, `profile new --ruleset house-...` drafts the names it uses, and `profile check` accepts a listed set exactly
when `house` writes it into each pinned game of the profile.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kremlin_triplea.errors import KremlinError
from kremlin_triplea.game import load
from kremlin_triplea.gamerules.house import apply_house_rules
from kremlin_triplea.rules.datafiles import data_folders, named_rule_files
from kremlin_triplea.rules.house_rules import HouseChoices
from kremlin_triplea.rules.profile import load_profile
from kremlin_triplea.tools.profile_check import check_profile
from support.paths import MAPS_DIR

HOUSE_SETS = sorted(named_rule_files("house"))
PROFILES = sorted(p for folder in data_folders("maps") for p in folder.glob("*.toml"))


def _listing(profile: Path, house: str, folder: Path) -> Path:
    """``profile`` with ``house`` added to its `rulesets` (a line the host adds), beside it in ``folder``."""
    text = profile.read_text(encoding="utf-8")
    line = re.search(r"^rulesets = \[(.*)\]$", text, re.M)
    assert line is not None, profile
    if f'"{house}"' not in line.group(1):
        text = text.replace(line.group(0), f'rulesets = [{line.group(1)}, "{house}"]')
    listed = folder / profile.name
    listed.write_text(text, encoding="utf-8")
    return listed


@pytest.mark.parametrize("house", HOUSE_SETS)
@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.stem)
def test_profile_check_accepts_a_listed_house_set_exactly_where_house_applies_it(profile: Path, house: str, tmp_path: Path) -> None:
    listed = _listing(profile, house, tmp_path)
    problems = check_profile(listed, MAPS_DIR)
    loaded = load_profile(listed)
    for base in loaded.games:
        try:
            apply_house_rules(load(loaded.game_key(base), maps_dir=MAPS_DIR), [HouseChoices(house)], profile=loaded)
            refused = None
        except KremlinError as error:
            refused = str(error)
        found = [p for p in problems if f"game {base.key}:" in p or "game " not in p]
        if refused is None:
            assert found == [], (base.key, found)
        else:
            assert found, (base.key, refused)
            assert any(refused in p for p in found), (base.key, refused, found)

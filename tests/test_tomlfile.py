"""Draft-file errors speak as players count and give the file's line (rules/tomlfile.py, issue 14)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kremlin_triplea.draft.run import read_draft
from kremlin_triplea.errors import KremlinError
from kremlin_triplea.rules.tomlfile import DataFileError, KeyLines
from kremlin_triplea.session import apply_draft
from support.lines import last_line_of, line_of
from support.paths import MAPS_DIR

HEAD = """ruleset = "kremlin-aa50"
game = "world_war_ii_v3/WW2v3-1941.xml"
first = "Axis"

[[pick]]
side = "Axis"
option = 10
takeover = { territory = "Archangel", by = "Germans", retreat = [{ to = "Russia" }] }

[[pick]]  # the Allies
side = "Allies"
option = 2
place = [
  { power = "Russians", unit = "artillery", at = "Caucasus" },
  { power = "UK", unit = "tank", at = "India", count = COUNT },
]
"""


def error_for(tmp_path: Path, count: str) -> tuple[str, str]:
    text = HEAD.replace("COUNT", count)
    path = tmp_path / "draft.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(KremlinError) as caught:
        apply_draft(read_draft(path), maps_dir=MAPS_DIR)
    return str(caught.value), text


def test_a_wrong_value_names_the_pick_as_players_number_it_and_its_line(tmp_path: Path) -> None:
    message, text = error_for(tmp_path, '"two"')
    line = line_of(text, '"UK"')
    assert message == f"{tmp_path / 'draft.toml'}:{line}: pick 2, place 2, count: expected a whole number, got 'two'"
    assert "[1]" not in message and "pick[" not in message


def test_an_unknown_key_and_an_unknown_name_also_give_the_line(tmp_path: Path) -> None:
    message, text = error_for(tmp_path, '1, colour = "red"')
    assert message.startswith(f"{tmp_path / 'draft.toml'}:{line_of(text, 'colour')}: pick 2, place 2, colour: unknown key")
    text = HEAD.replace('"Caucasus"', '"Caucasos"').replace("COUNT", "1")
    path = tmp_path / "names.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(KremlinError) as caught:
        apply_draft(read_draft(path), maps_dir=MAPS_DIR)
    assert str(caught.value).startswith(f"{path}:{line_of(text, 'Caucasos')}: pick 2, place 1: ")
    assert "Caucasus" in str(caught.value)  # did you mean


def test_key_lines_follow_headers_inline_tables_arrays_and_strings() -> None:
    text = HEAD.replace("COUNT", "1") + '\n[bid]\naxis = 11  # "a comment with [brackets] = and {"\nnote = """two\nlines = {"""\nallocate = { Germans = 3 }\n'
    lines = KeyLines(text)
    assert lines.line(("pick", 0)) == line_of(text, "[[pick]]")
    assert lines.line(("pick", 0, "takeover", "retreat", 0, "to")) == line_of(text, "takeover =")
    assert lines.line(("pick", 1)) == line_of(text, "[[pick]]  # the Allies")
    assert lines.line(("pick", 1, "place", 1, "count")) == line_of(text, '"UK"')
    assert lines.line(("bid", "allocate", "Germans")) == line_of(text, "allocate =")
    assert lines.line(("bid", "note")) == line_of(text, 'note = """')
    assert lines.line(("bid", "lines")) is lines.line(("bid",)) == line_of(text, "[bid]")  # inside a string: no key


def test_other_data_files_keep_their_key_paths(tmp_path: Path) -> None:
    from kremlin_triplea.rules.tomlfile import Section

    section = Section({"option": [{"kind": 1}]}, "ruleset.toml")
    with pytest.raises(DataFileError, match=r"^ruleset.toml: option\[0\].kind: expected a text"):
        section.tables("option")[0].text("kind")


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            'Argentina = ["21 Sea Zone", "25 Sea Zone"]',
            'Argentina = ["21 Sea Zone", { zone = "25 Sea Zone" }]',
            "neutral_coasts.Argentina: expected a list of texts, got a list holding a table",
        ),
        ('refuge = "Himalaya"', "refuge = []", "capital_marker.refuge: expected a text, got a list"),
    ],
)
def test_a_malformed_map_profile_is_refused_at_its_line(tmp_path: Path, old: str, new: str, message: str) -> None:
    """Map makers edit profiles by hand (issue 17): a value of the wrong shape is one error at its line, before any game is read."""
    from kremlin_triplea.rules.profile import load_profile

    text = (Path(__file__).resolve().parents[1] / "maps" / "world_war_ii_v3.toml").read_text()
    assert old in text
    edited = text.replace(old, new, 1)
    profile = tmp_path / "v3.toml"
    profile.write_text(edited)
    line = last_line_of(edited, new)
    with pytest.raises(DataFileError) as error:
        load_profile(profile)
    assert str(error.value) == f"{profile}:{line}: {message}"


# -- rulesets and profiles are read once per text (rules/tomlfile.py ReadOnce) --------------------------


def test_an_edited_ruleset_is_read_again_and_an_unchanged_one_is_the_same_value(tmp_path: Path) -> None:
    from kremlin_triplea.draft.rulesets import load_ruleset
    from kremlin_triplea.rules.ruleset import find_data_file

    path = tmp_path / "mine.toml"
    text = find_data_file("rulesets", "kremlin-aa50").read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    first = load_ruleset(path)
    assert load_ruleset(path) is first  # nothing re-parsed for the same text
    assert '\ntitle = "' in text
    path.write_text(text.replace('\ntitle = "', '\ntitle = "Edited: ', 1), encoding="utf-8")
    assert load_ruleset(path).title == f"Edited: {first.title}"
    path.write_text(text.replace('\nsides = ["Axis", "Allies"]', '\nsides = ["Axis"]', 1), encoding="utf-8")
    with pytest.raises(KremlinError, match="sides"):  # the edit that breaks it is refused, not an old value returned
        load_ruleset(path)


def test_a_profile_is_read_again_when_the_profile_it_extends_is_edited(tmp_path: Path) -> None:
    from kremlin_triplea.rules.profile import load_profile
    from kremlin_triplea.rules.ruleset import find_data_file

    base = tmp_path / "base.toml"
    base_text = find_data_file("maps", "world_war_ii_classic").read_text(encoding="utf-8")
    base.write_text(base_text, encoding="utf-8")
    child = tmp_path / "child.toml"
    child_text = find_data_file("maps", "classic_variations").read_text(encoding="utf-8")
    child.write_text(child_text.replace('extends = "world_war_ii_classic"', f"extends = {str(base)!r}"), encoding="utf-8")
    assert load_profile(child).powers["Germany"] == "Germans"
    assert load_profile(child) is load_profile(child)
    base.write_text(base_text.replace('Germany = "Germans"', 'Germany = "Italians"', 1), encoding="utf-8")
    assert load_profile(child).powers["Germany"] == "Italians"

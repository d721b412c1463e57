"""The legal picks are exactly the picks a draft accepts (issue 28's last items, issue 30 item 2).

Like python-chess's ``Board.legal_moves``: whatever ``legal`` and ``run.legal_picks`` offer, ``apply`` and
``run.is_legal`` accept, and an option with nothing to offer says it is not available, and why. Rules quoted from
000_bc04a4edf7f7d2ab.txt (Kremlin AA50); what a map has is read from its game file, never from our own output.
"""

from __future__ import annotations

from pathlib import Path

import tomli_w
from click.testing import CliRunner
from lxml import etree

from kremlin_triplea.cli.main import main

DATA = Path(__file__).resolve().parent / "data"
V6 = DATA / "world_war_ii_v6_1941" / "WW2v6_1941.xml"


def _profile(tmp_path: Path, game: Path) -> Path:
    """The profile a host drafts for a map the tool has never seen (``profile new``, its guesses as written)."""
    written = tmp_path / f"{game.stem}.toml"
    made = CliRunner().invoke(main, ["profile", "new", str(game), "--ruleset", "kremlin-aa50", "-o", str(written)])
    assert made.exit_code == 0, made.output
    return written


def _artillery_types(game: Path) -> list[str]:
    """The game file's unit types with ``artillery=true`` (what the rule text's "artillery" is, by TripleA's role)."""
    root = etree.parse(str(game)).getroot()
    return [
        a.get("attachTo")
        for a in root.iter("attachment")
        if a.get("name") == "unitAttachment" and any(o.get("name") == "artillery" and o.get("value") == "true" for o in a.iter("option"))
    ]


def test_a_takeover_placing_artillery_is_not_offered_where_the_map_has_none_and_apply_refuses_it_in_one_line(tmp_path: Path) -> None:
    """000 option 10: "Take over an enemy territory ... place 1 infantry and 1 artillery". WW2v6 1941 has no
    artillery: ``legal`` listed takeovers that ``apply`` refused with "unknown unit 'artillery'"."""
    assert _artillery_types(V6) == []
    profile = _profile(tmp_path, V6)
    draft = tmp_path / "draft.toml"
    data = {"ruleset": "kremlin-aa50", "game": str(V6), "profile": str(profile), "first": "Axis"}
    draft.write_text(tomli_w.dumps(data), encoding="utf-8")
    listed = CliRunner().invoke(main, ["legal", str(draft)])
    assert listed.exit_code == 0, listed.output
    (line,) = [line for line in listed.output.splitlines() if line.startswith("Option 10 ")]
    assert "not available" in line and "artillery" in line, line
    # The takeover written by hand is refused as a rule the map cannot meet (exit 1), in one line, no traceback.
    data["pick"] = [{"side": "Axis", "option": 10, "takeover": {"territory": "Karelia", "by": "Germans"}}]
    draft.write_text(tomli_w.dumps(data), encoding="utf-8")
    applied = CliRunner().invoke(main, ["apply", str(draft), "-o", str(tmp_path / "out.xml")])
    assert applied.exit_code == 1, applied.output
    assert "artillery" in applied.output and "Traceback" not in applied.output
    assert not (tmp_path / "out.xml").exists()

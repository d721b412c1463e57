"""validate reads 2.x variables as TripleA 2.7 does (GameDataVariables, GameParser.parseAttachments): names are
checked after the expansion, and what 2.7 refuses in a foreach is a refusal; TripleA 1.9, which has no variables,
gets one note (an error when it is the judge)."""

from __future__ import annotations

from lxml import etree

from kremlin_triplea.check import variables
from kremlin_triplea.check.validate import NOTE, TRIPLEA_19, errors, validate_tree
from support.paths import CORPUS_DIR

REFUSES = "TripleA refuses to load the game"
INVASION_USA = CORPUS_DIR / "Invasion_USA.xml"

GAME = """<game>
  <info name="v" version="1"/>
  <variableList>
    <variable name="Cities"><element name="Paris"/><element name="Rome"/></variable>
    <variable name="Owners"><element name="French"/><element name="Italians"/></variable>
    <variable name="Everyone"><element name="$Owners$"/><element name="Germans"/></variable>
    <variable name="Nobody"><element name=""/></variable>
  </variableList>
  <attachmentList>
    <attachment foreach="$Cities$:$Owners$" name="territoryAttatchment" attachTo="@Cities@"
        javaClass="games.strategy.triplea.attachments.TerritoryAttachment" type="territory">
      <option name="capital" value="@Owners@"/>
    </attachment>
    <attachment foreach="$Cities$^$Everyone$" name="rulesAttachment@Everyone@" attachTo="@Everyone@"
        javaClass="games.strategy.triplea.attachments.RulesAttachment" type="player">
      <option name="directOwnershipTerritories" value="@Cities@"/>
      <option name="alliedOwnershipTerritories" value="$Cities$"/>
    </attachment>
    <attachment foreach="$Nobody$" name="a" attachTo="Germans" javaClass="x" type="player">
      <option name="kept" value="1"/>
      <option name="dropped" value="@Nobody@"/>
    </attachment>
  </attachmentList>
</game>"""


def test_variables_nest_earlier_variables() -> None:
    found = variables.variables(etree.fromstring(GAME))
    assert found["$Everyone$"] == ["French", "Italians", "Germans"]


def _made(root: etree._Element) -> list[tuple[str | None, str | None, list[tuple[str | None, str | None]]]]:
    return [(a.get("name"), a.get("attachTo"), [(o.get("name"), o.get("value")) for o in a.iterfind("option")]) for a in variables.expand(root).attachments]


def test_foreach_makes_one_attachment_per_combination() -> None:
    made = _made(etree.fromstring(GAME))
    # One group: the variables walk together; "ttatchment" is read as "ttachment".
    assert made[:2] == [
        ("territoryAttachment", "Paris", [("capital", "French")]),
        ("territoryAttachment", "Rome", [("capital", "Italians")]),
    ]
    # Two groups: every city with every player ($Cities$ outside), $Cities$ in a value joined by ':'.
    assert [(name, to, options[0][1]) for name, to, options in made[2:8]] == [
        (f"rulesAttachment{p}", p, c) for c in ("Paris", "Rome") for p in ("French", "Italians", "Germans")
    ]
    assert {options[1][1] for _, _, options in made[2:8]} == {"Paris:Rome"}
    # An option holding a foreach variable that is empty here is left out.
    assert made[8] == ("a", "Germans", [("kept", "1")])


def _with_foreach(foreach: str) -> etree._Element:
    root = etree.fromstring(GAME)
    root.find("attachmentList/attachment").set("foreach", foreach)
    return root


def test_what_2_7_refuses_in_a_foreach_is_a_refusal() -> None:
    for foreach, reason in [
        ("$Towns$", "Attachment has invalid variables in foreach: $Towns$"),
        ("$Cities$:$Everyone$", "Attachment foreach variables must have same number of elements: $Cities$:$Everyone$"),
        ("$Cities$^$Owners$^$Cities$", "Invalid foreach expression, can only use variables, ':', and at most 1 '^': $Cities$^$Owners$^$Cities$"),
    ]:
        problems = validate_tree(_with_foreach(foreach), "v.xml")
        assert f"attachment 'territoryAttatchment' foreach: {reason}; {REFUSES}" in [p.message for p in errors(problems)]


def test_a_game_with_variables_is_valid_for_2x_and_1_9_gets_one_note() -> None:
    root = etree.parse(str(INVASION_USA)).getroot()
    problems = validate_tree(root, INVASION_USA.name)
    assert errors(problems) == []
    notes = [p for p in problems if "1.9 cannot read this: uses 2.x variables" in p.message]
    assert [(p.line, p.severity) for p in notes] == [(33, NOTE)]
    assert not any("variableList" in p.message or "foreach of element" in p.message for p in problems if p not in notes)


def test_judged_for_1_9_variables_are_refused_and_names_are_read_unexpanded() -> None:
    root = etree.parse(str(INVASION_USA)).getroot()
    messages = [p.message for p in errors(validate_tree(root, INVASION_USA.name, engine=TRIPLEA_19))]
    assert any(m.startswith("TripleA 1.9 cannot read this: uses 2.x variables") for m in messages)
    # 1.9 refuses the file at its first unexpanded name ("Could not find player. name:@AllPlayers@").
    assert any("unknown player '@AllPlayers@'" in m for m in messages)


def test_names_a_variable_makes_are_checked() -> None:
    root = etree.parse(str(INVASION_USA)).getroot()
    element = root.find("variableList/variable[@name='AllPlayers']/element")
    player = element.get("name")
    assert errors(validate_tree(root, INVASION_USA.name)) == []
    element.set("name", player + "x")
    messages = [p.message for p in errors(validate_tree(root, INVASION_USA.name))]
    assert f"attachment 'techAttachment' attachTo: unknown player {player + 'x'!r} (did you mean {player!r}?); {REFUSES}" in messages


def _foreach_twice(option_value: str) -> list[tuple[str, str]]:
    root = etree.fromstring(GAME)
    attachment = root.find("attachmentList/attachment[@foreach='$Cities$^$Everyone$']")
    attachment.set("name", "rulesAttachment")  # the same name for every city: made once per city, per player
    attachment.find("option").set("value", option_value)
    return [(p.severity, p.message) for p in validate_tree(root, "v.xml") if "more than once" in p.message or "duplicate attachment" in p.message]


def test_one_foreach_making_one_attachment_again_is_said_only_when_it_differs() -> None:
    # GameParser.parseAttachment adds each combination's attachment under its name: the last replaces the others.
    assert _foreach_twice("Paris") == []
    said = _foreach_twice("@Cities@")
    assert [severity for severity, _ in said] == ["warning"] * 3  # once for each player, not once per extra city
    assert (
        said[0][1]
        == "its foreach makes attachment 'rulesAttachment' on player 'French' more than once, with other options; TripleA silently keeps only the last one"
    )

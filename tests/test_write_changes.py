"""Each kind of change becomes the smallest edit of the game file: exact diffs."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from kremlin_triplea import load
from kremlin_triplea.errors import InputError
from kremlin_triplea.game import Game
from kremlin_triplea.gamefile.document import XmlDocument
from kremlin_triplea.gamefile.tripleaxml import GameXml
from kremlin_triplea.model.board import Board
from kremlin_triplea.model.changes import AddXml, GrantTech, PlaceUnits, RemoveUnits, SetOwner, SetProperty, SetPUs, SetTerritory
from kremlin_triplea.model.codec import write_board
from support.games import random_changes
from support.paths import AA50_1941, ALL_GAMES, CORPUS_DIR, each_game


def diff(*changes) -> list[str]:
    game = load(AA50_1941)
    game.board.push_all(list(changes))
    before = game.document.original.decode().splitlines()
    after = game.to_bytes().decode().splitlines()
    return [line for line in difflib.unified_diff(before, after, lineterm="", n=0) if line[:1] in "+-" and not line.startswith(("+++", "---"))]


def test_place_units_raises_an_existing_quantity() -> None:
    assert diff(PlaceUnits("Finland", "Germans", "infantry", 3)) == [
        '-      <unitPlacement unitType="infantry" territory="Finland" quantity="2" owner="Germans"/>',
        '+      <unitPlacement unitType="infantry" territory="Finland" quantity="5" owner="Germans"/>',
    ]


def test_place_new_units_goes_beside_that_territory() -> None:
    assert diff(PlaceUnits("Finland", "Germans", "artillery", 1)) == [
        '+      <unitPlacement unitType="artillery" territory="Finland" quantity="1" owner="Germans"/>',
    ]
    lines = load(AA50_1941).document.original.decode().splitlines()
    game = load(AA50_1941)
    game.board.push(PlaceUnits("Finland", "Germans", "artillery", 1))
    written = game.to_bytes().decode().splitlines()
    at = written.index('      <unitPlacement unitType="artillery" territory="Finland" quantity="1" owner="Germans"/>')
    assert written[at - 1] == '      <unitPlacement unitType="infantry" territory="Finland" quantity="2" owner="Germans"/>'
    assert len(written) == len(lines) + 1


def test_removing_all_units_removes_the_line() -> None:
    assert diff(RemoveUnits("Finland", "Germans", "infantry", 2)) == [
        '-      <unitPlacement unitType="infantry" territory="Finland" quantity="2" owner="Germans"/>',
    ]


def test_neutral_units_have_no_owner_attribute() -> None:
    assert diff(PlaceUnits("Sweden", None, "infantry", 2)) == [
        '+      <unitPlacement unitType="infantry" territory="Sweden" quantity="2"/>',
    ]


def test_capture_keeps_the_original_owner_in_the_territory_attachment() -> None:
    assert diff(SetOwner("Archangel", "Germans")) == [
        '+      <option name="originalOwner" value="Russians"/>',
        '-      <territoryOwner territory="Archangel" owner="Russians"/>',
        '+      <territoryOwner territory="Archangel" owner="Germans"/>',
    ]


def test_handing_over_a_territory_changes_only_the_owner() -> None:
    assert diff(SetOwner("Archangel", "Germans", captured=False)) == [
        '-      <territoryOwner territory="Archangel" owner="Russians"/>',
        '+      <territoryOwner territory="Archangel" owner="Germans"/>',
    ]


def test_a_neutral_gets_an_owner_line_and_its_attachment_options() -> None:
    assert diff(
        SetOwner("Sweden", "Russians", captured=False),
        SetTerritory("Sweden", "production", 3),
        SetTerritory("Sweden", "impassable", False),
    ) == [
        '-      <option name="production" value="0"/>',
        '-      <option name="isImpassable" value="true"/>',
        '+      <option name="production" value="3"/>',
        '+      <territoryOwner territory="Sweden" owner="Russians"/>',
    ]


def test_capital_and_victory_city() -> None:
    assert diff(SetTerritory("Eastern Canada", "victory_city", 0), SetTerritory("Union of South Africa", "victory_city", 1)) == [
        '-      <option name="victoryCity" value="1"/>',
        '+      <option name="victoryCity" value="1"/>',
    ]


def test_pus_techs_and_properties() -> None:
    assert diff(SetPUs("Russians", 36), GrantTech("Germans", "jetPower"), SetProperty("Low Luck", "true")) == [
        '-      <option name="jetPower" value="false"/>',
        '+      <option name="jetPower" value="true"/>',
        '-      <resourceGiven player="Russians" resource="PUs" quantity="30"/>',
        '+      <resourceGiven player="Russians" resource="PUs" quantity="36"/>',
        '-    <property name="Low Luck" value="false" editable="true">',
        '+    <property name="Low Luck" value="true" editable="true">',
    ]


def test_a_new_property_is_declared_with_its_type() -> None:
    assert diff(SetProperty("Economic Victory", "true")) == [
        '+    <property name="Economic Victory" value="true" editable="false">',
        "+      <boolean/>",
        "+    </property>",
    ]


def test_an_attachment_and_a_turn_step_are_added() -> None:
    canal = AddXml(
        "attachmentList",
        '<attachment name="canalAttachmentGibraltar" attachTo="12 Sea Zone" '
        'javaClass="games.strategy.triplea.attachments.CanalAttachment" type="territory">'
        '<option name="canalName" value="Gibraltar"/><option name="landTerritories" value="Gibraltar:Morocco Algeria"/></attachment>',
    )
    step = AddXml("sequence", '<step name="chineseFirstNonCombatMove" delegate="move" player="Chinese" maxRunCount="1"/>', after="gameInitDelegate")
    changed = diff(canal, step)
    assert changed[0] == '+      <step name="chineseFirstNonCombatMove" delegate="move" player="Chinese" maxRunCount="1"/>'
    assert changed[1:] == [
        '+    <attachment name="canalAttachmentGibraltar" attachTo="12 Sea Zone" javaClass="games.strategy.triplea.attachments.CanalAttachment" type="territory">',
        '+      <option name="canalName" value="Gibraltar"/>',
        '+      <option name="landTerritories" value="Gibraltar:Morocco Algeria"/>',
        "+    </attachment>",
    ]
    game = load(AA50_1941)
    game.board.push(step)
    steps = [s.get("name") for s in load_bytes(game.to_bytes()).xml.steps()]
    assert steps[:2] == ["gameInitDelegate", "chineseFirstNonCombatMove"]


def load_bytes(data: bytes):
    from kremlin_triplea.game import Game
    from kremlin_triplea.gamefile.document import XmlDocument

    return Game(XmlDocument(data, source="written"))


def _game_from(data: bytes):
    from kremlin_triplea.game import Game
    from kremlin_triplea.gamefile.document import XmlDocument

    return Game(XmlDocument(data, source="edited"))


def test_a_duplicate_attachment_is_read_and_written_as_tripleA_keeps_it_the_last_one() -> None:
    # TripleA 1.9 keeps the last attachment of a name on a territory, whole (a map put).
    text = AA50_1941.read_text()
    duplicate = (
        '    <attachment name="territoryAttachment" attachTo="Finland" '
        'javaClass="games.strategy.triplea.attachments.TerritoryAttachment" type="territory">\n'
        '      <option name="production" value="7"/>\n    </attachment>\n  </attachmentList>'
    )
    game = _game_from(text.replace("  </attachmentList>", duplicate, 1).encode())
    assert game.board.node("Finland")["production"] == 7
    game.board.push(SetTerritory("Finland", "production", 9))
    written = game.to_bytes().decode()
    assert '<option name="production" value="9"/>' in written.split('attachTo="Finland"')[-1]
    assert _game_from(game.to_bytes()).board.node("Finland")["production"] == 9


def test_removing_the_last_option_removes_the_empty_attachment() -> None:
    # game.dtd: <!ELEMENT attachment (option+)>
    from kremlin_triplea.gamefile.document import XmlDocument
    from kremlin_triplea.gamefile.tripleaxml import GameXml

    xml = GameXml(XmlDocument.read(AA50_1941))
    xml.set_territory_option("Sahara", "production", None)
    assert xml.territory_attachment("Sahara") is not None
    xml.set_territory_option("Sahara", "isImpassable", None)
    assert xml.territory_attachment("Sahara") is None
    written = xml.document.to_bytes().decode()
    assert 'attachTo="Sahara"' not in written
    assert written.count("<attachment ") == AA50_1941.read_text().count("<attachment ") - 1


def test_damaged_units_count_when_units_are_added_or_taken_away() -> None:
    # oztea_1942.xml places a damaged Japanese carrier in 47 Sea Zone (hitsTaken="1"): TripleA counts it as a
    # carrier, so one more makes two, not three (issue 17: the corpus matrix read back a third).
    game = load(CORPUS_DIR / "oztea_1942.xml")
    key = ("Japanese", "carrier")
    assert game.board.units("47 Sea Zone")[key] == 1
    game.board.push(PlaceUnits("47 Sea Zone", "Japanese", "carrier", 1))
    written = game.to_bytes()
    assert Game(XmlDocument(written, source="w.xml")).board.units("47 Sea Zone")[key] == 2
    assert written.count(b'unitType="carrier" territory="47 Sea Zone" quantity="1" owner="Japanese" hitsTaken="1"') == 1
    game.reset()
    game.board.push(RemoveUnits("47 Sea Zone", "Japanese", "carrier", 1))
    assert Game(XmlDocument(game.to_bytes(), source="w.xml")).board.units("47 Sea Zone")[key] == 0


def test_a_territory_option_set_to_its_default_keeps_the_attachment_it_was_the_only_option_of() -> None:
    """Each territory field whose default can be written (a production of 0, not impassable): when it is its
    territoryAttachment's only option, the option stays at its default instead of the attachment going (game.dtd
    wants one option at least). A territory without a territoryAttachment loses what TripleA keeps there (its
    original owner), which validate reports as a warning the base game did not have (a made-up kind emptying
    Bulgaria Romania found it through the matrix)."""
    from kremlin_triplea.check.validate import added_problems, validate_tree
    from kremlin_triplea.gamefile.tripleaxml import GameXml

    cases = [
        ("Alaska", [SetTerritory("Alaska", "production", 0)]),  # WW2v3-1941: Alaska's attachment is its production
        ("Sahara", [SetTerritory("Sahara", "production", 0), SetTerritory("Sahara", "impassable", False)]),
    ]
    base = load(AA50_1941)
    base_problems = validate_tree(base.document.root, "base")
    for territory, changes in cases:
        game = load(AA50_1941)
        game.board.push_all(changes)
        written = game.to_bytes()
        attachment = GameXml(XmlDocument(written, source="written")).territory_attachment(territory)
        assert attachment is not None, territory
        assert [o.get("value") for o in attachment.iterchildren("option")] in (["0"], ["false"]), territory
        read_back = _game_from(written).board.node(territory)
        assert all(read_back[field] == value for field, value in ((c.field, c.value) for c in changes)), territory
        problems = added_problems(base_problems, validate_tree(XmlDocument(written, source="written").root, "written"))
        assert problems == [], (territory, problems)


def test_two_options_of_a_territory_without_an_attachment_make_one_attachment() -> None:
    # TripleA keeps one territoryAttachment per territory (the last, a map put): the first option makes it, the
    # second is written into it (the writer's index of attachments must know the one just made).
    lines = diff(SetTerritory("1 Sea Zone", "victory_city", 1), SetTerritory("1 Sea Zone", "production", 2))
    made = [line for line in lines if 'attachTo="1 Sea Zone"' in line]
    assert len(made) == 1 and made[0].startswith("+") and 'name="territoryAttachment"' in made[0], lines
    assert sum('name="victoryCity" value="1"' in line for line in lines) == 1
    assert sum('name="production" value="2"' in line for line in lines) == 1


def _board_read(board: Board) -> tuple[object, ...]:
    return (board.nodes, board._adjacency, board.pus, board.techs, board.properties, board.game_name, board.catalog)


@pytest.mark.slow  # keeps the quick subset under a minute; CI runs it
@pytest.mark.parametrize("path", each_game(ALL_GAMES))
def test_every_way_of_reading_a_game_gives_the_same_board_and_after_the_same_changes_the_same_bytes(path: Path) -> None:
    # The read path's shortcuts (issue 45 item 6) against the plain one: a game read afresh; the game load() keeps,
    # handed out as a copy whose position is made when first used, and written through a fork that borrows the
    # kept document's spans; and the changes written into a document of their own, its tags located in its bytes.
    fresh = Game(XmlDocument.read(path))
    load(path).to_bytes()  # the kept game, its document's spans located by a first write
    kept = load(path)
    assert _board_read(kept.initial) == _board_read(fresh.initial)
    random_changes(fresh, path.name)
    random_changes(kept, path.name)
    assert fresh.board.changes and kept.board.changes == fresh.board.changes
    assert _board_read(kept.board) == _board_read(fresh.board)
    plain = GameXml(XmlDocument(path.read_bytes(), source=str(path)))
    write_board(plain, fresh.initial, fresh.board)
    assert fresh.to_bytes() == kept.to_bytes() == plain.document.to_bytes() != fresh.document.original


def test_a_write_refused_half_way_leaves_the_game_file_as_read() -> None:
    """A game read without the cache writes in its own tree and undoes the edits (issue 45 item 6): a write refused
    after some of its edits (a count beyond TripleA's Java int, refused when written) undoes them too, so the next
    write is what the game read afresh writes, and the tree is the parsed one."""
    from lxml import etree

    game = Game(XmlDocument.read(AA50_1941))
    parsed = etree.tostring(game.document.root)
    game.board.push_all([SetOwner("Archangel", "Germans"), SetPUs("Russians", 30), PlaceUnits("Finland", "Germans", "infantry", 2**31)])
    with pytest.raises(InputError, match="beyond TripleA's limit"):
        game.to_bytes()
    assert etree.tostring(game.document.root) == parsed and not game.document.modified
    game.reset()
    game.board.push_all([SetOwner("Archangel", "Germans"), PlaceUnits("Finland", "Germans", "infantry", 3)])
    fresh = Game(XmlDocument.read(AA50_1941))
    fresh.board.push_all([SetOwner("Archangel", "Germans"), PlaceUnits("Finland", "Germans", "infantry", 3)])
    assert game.to_bytes() == fresh.to_bytes() != fresh.document.original

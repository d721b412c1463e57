"""A TripleA game: its file, the board read from it, and saving the changed board.

Saving writes the *difference* between the board as read and the board as it
is now, so the file gets the smallest edit that says the new position however
many changes produced it, and the same position always gives the same bytes.
"""

from __future__ import annotations

import functools
import os
import tempfile
from pathlib import Path

from kremlin_triplea.model.board import Board, Catalog
from kremlin_triplea.model.changes import CopyAttachment, SetAttachmentOption, SetProductionCost
from kremlin_triplea.errors import InputError
from kremlin_triplea.gamefile.document import XmlDocument
from kremlin_triplea.gamefile.locate import resolve_game
from kremlin_triplea.gamefile.tripleaxml import PUS, GameXml

# Board node field -> territoryAttachment option, and how a value is written.
_TERRITORY_OPTIONS = {
    "production": "production",
    "impassable": "isImpassable",
    "capital": "capital",
    "victory_city": "victoryCity",
}


class Game:
    """One game file and its board."""

    def __init__(self, document: XmlDocument) -> None:
        self.xml = GameXml(document)
        self.board = Board.from_xml(self.xml)

    @functools.cached_property
    def initial(self) -> Board:
        """The board as the file has it; read again on demand (the XML is never edited in place)."""
        return Board.from_xml(self.xml)

    @property
    def document(self) -> XmlDocument:
        return self.xml.document

    @property
    def source(self) -> str:
        return self.document.source

    @property
    def name(self) -> str:
        return self.xml.name

    @property
    def catalog(self) -> Catalog:
        return self.board.catalog

    @property
    def players(self) -> dict[str, PlayerView]:
        return {name: PlayerView(self.board, name) for name in self.catalog.turn_order()}

    # -- writing -------------------------------------------------------------

    def to_bytes(self) -> bytes:
        """The game file with the board's changes written in.

        Works on a fresh copy of the original document each time, so calling
        it twice, or after more changes, always reflects the current board.
        """
        xml = GameXml(self.document.fork())
        write_board_difference(xml, self.initial, self.board)
        return xml.document.to_bytes()

    def save(self, path: Path | str, *, overwrite: bool = False) -> Path:
        return write_atomically(Path(path), self.to_bytes(), overwrite=overwrite, protect=(Path(self.source),))


class PlayerView:
    """A player as the README's API shows it: name, alliances, PUs."""

    def __init__(self, board: Board, name: str) -> None:
        self._board = board
        self.name = name
        self.alliances = board.catalog.players[name].alliances

    @property
    def pus(self) -> int:
        return self._board.pus.get(self.name, 0)

    @property
    def techs(self) -> frozenset[str]:
        return self._board.techs.get(self.name, frozenset())

    def __repr__(self) -> str:
        return f"<Player {self.name} {'/'.join(self.alliances)} {self.pus} PUs>"


def load(game: str | Path, *, maps_dir: Path | str | None = None) -> Game:
    """Read a game from a path, or from ``<map>/<game>`` in the TripleA maps folder."""
    return Game(XmlDocument.read(resolve_game(game, maps_dir)))


def write_board_difference(xml: GameXml, before: Board, after: Board) -> None:
    for territory, new in after.nodes.items():
        old = before.nodes[territory]
        if new["owner"] != old["owner"]:
            xml.set_territory_owner(territory, new["owner"])
        if new["original_owner"] != old["original_owner"] or (
            new["owner"] != old["owner"] and new["original_owner"] != new["owner"]
        ):
            # TripleA takes the owner in the file as the original owner unless
            # the territoryAttachment says otherwise.
            keep = new["original_owner"] if new["original_owner"] != new["owner"] else None
            xml.set_territory_option(territory, "originalOwner", keep)
        for field, option in _TERRITORY_OPTIONS.items():
            if new[field] != old[field]:
                xml.set_territory_option(territory, option, _option_text(new[field]))
        if new["units"] != old["units"]:
            for owner, unit_type in sorted(set(new["units"]) | set(old["units"]), key=_unit_key_order):
                if new["units"][(owner, unit_type)] != old["units"][(owner, unit_type)]:
                    xml.set_unit_count(territory, owner, unit_type, new["units"][(owner, unit_type)])
    for player in after.catalog.turn_order():
        if after.pus.get(player, 0) != before.pus.get(player, 0):
            xml.set_resource(player, PUS, after.pus.get(player, 0))
        old_techs, new_techs = before.techs.get(player, frozenset()), after.techs.get(player, frozenset())
        for tech in sorted(new_techs ^ old_techs):
            xml.set_tech(player, tech, tech in new_techs)
    for name in sorted(after.properties):
        if after.properties[name] != before.properties.get(name):
            xml.set_property(name, after.properties[name])
    if after.game_name != before.game_name:
        xml.set_game_name(after.game_name)
    for addition in after.extra_xml:
        if isinstance(addition, SetAttachmentOption):
            xml.set_attachment_option(addition.attachment, addition.attach_to, addition.option, addition.value)
            continue
        if isinstance(addition, CopyAttachment):
            xml.copy_attachment(addition.attachment, addition.attach_to, addition.name, addition.without)
            continue
        if isinstance(addition, SetProductionCost):
            xml.set_production_cost(addition.player, addition.unit_type, addition.cost, addition.industrial_cost)
            continue
        parent = next(xml.root.iter(addition.section), None)
        if parent is None and addition.section in _NEW_SECTION_BEFORE:
            # A section the file may lack (e.g. <technology>: TripleA then builds its own list): made where game.dtd puts it.
            parent = xml._insert_section(addition.section, before=_NEW_SECTION_BEFORE[addition.section])
        if parent is None:
            raise InputError(f"the game file has no <{addition.section}> for: {addition}", where=xml.document.source)
        anchor = None
        if addition.after is not None:
            anchor = next((c for c in parent if c.get("name") == addition.after), None)
            if anchor is None:
                raise InputError(f"no <{addition.section}> entry named {addition.after!r} for: {addition}", where=xml.document.source)
        xml.add_element(parent, addition.xml, after=anchor)


# Sections of <game> an AddXml may create, and the sections that must follow each (game.dtd).
_NEW_SECTION_BEFORE = {"technology": ("attachmentList", "initialize", "propertyList")}


def _option_text(value: object) -> str | None:
    if value is None or value is False or value == 0:
        return None  # the attachment's default: leave the option out
    if value is True:
        return "true"
    return str(value)


def _unit_key_order(key: tuple[str | None, str]) -> tuple[str, str]:
    return (key[0] or "", key[1])


def write_atomically(path: Path, data: bytes, *, overwrite: bool = False, protect: tuple[Path, ...] = ()) -> Path:
    """Write ``data`` to ``path`` via a temporary file and a rename.

    Refuses to replace an existing file unless ``overwrite``, and never
    replaces one of the ``protect``ed inputs.
    """
    target = path.resolve()
    for guarded in protect:
        if guarded.exists() and target == guarded.resolve():
            raise InputError("refusing to overwrite the input file; choose another output", where=str(path))
    if target.exists() and not overwrite:
        raise InputError("already exists; use --force to replace it", where=str(path))
    if not target.parent.is_dir():
        raise InputError("the output folder does not exist", where=str(path.parent))
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, 0o644)
        if overwrite:
            os.replace(temporary, target)
        else:
            # A hard link fails if the target appeared meanwhile: no silent overwrite.
            try:
                os.link(temporary, target)
            except FileExistsError:
                raise InputError("already exists; use --force to replace it", where=str(path)) from None
            os.unlink(temporary)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
    return target

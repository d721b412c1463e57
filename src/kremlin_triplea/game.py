"""A TripleA game: its file, the board read from it, and saving the changed board.

Saving writes the *difference* between the board as read and the board as it
is now, so the file gets the smallest edit that says the new position however
many changes produced it, and the same position always gives the same bytes.
"""

from __future__ import annotations

from pathlib import Path

from kremlin_triplea.errors import InputError, and_more
from kremlin_triplea.gamefile.document import XmlDocument
from kremlin_triplea.gamefile.install import InstalledGame, install_game, map_folder_for, unique_game_name
from kremlin_triplea.gamefile.kept import Kept
from kremlin_triplea.gamefile.locate import MapFolder, resolve_game
from kremlin_triplea.gamefile.provenance import base_record
from kremlin_triplea.gamefile.safe import read_bytes, write_atomically
from kremlin_triplea.gamefile.tripleaxml import GameXml
from kremlin_triplea.model.board import Board, Catalog
from kremlin_triplea.model.changes import SetGameName, SetProperty
from kremlin_triplea.model.codec import read_board, write_board

# Board node field -> territoryAttachment option, and how a value is written.


class Game:
    """One game file and its board."""

    def __init__(self, document: XmlDocument) -> None:
        self.xml = GameXml(document)
        # The board is read from the XML once; the game's own position is a copy made when first asked for.
        self._initial = read_board(self.xml)
        self._board: Board | None = None

    @property
    def initial(self) -> Board:
        """The board as the file has it (never changed: the position is :attr:`board`)."""
        return self._initial

    @property
    def board(self) -> Board:
        """The position: changes are pushed onto it; :meth:`to_bytes` writes what differs from :attr:`initial`."""
        if self._board is None:
            self._board = self._initial.copy()
        return self._board

    def check_rules_can_apply(self) -> None:
        """Refuse (exit 2) a game whose set-up names players or unit types it does not declare: no rule can be checked on it."""
        unknown = self.initial.unknown_names()
        if unknown:
            raise InputError(f"{unknown[0]}{and_more(unknown)}; `kremlin-triplea validate {self.source}` gives each one's line", where=self.source)

    def reset(self) -> Board:
        """Back to the position the file has (every change dropped); returns the fresh board."""
        self._board = self._initial.copy()
        return self._board

    def copy(self) -> Game:
        """The same file with a copy of the current position (the XML is shared: a write's edits in it are undone
        before the write returns, and a shared one is written in a fork: :meth:`XmlDocument.edits`)."""
        twin = Game.__new__(Game)
        # A position nobody has asked for is the file's: the twin makes its own copy when first asked, so reading a
        # game (a copy of the one kept, load()) copies no board it does not use.
        twin.xml, twin._initial, twin._board = self.xml, self._initial, None if self._board is None else self._board.copy()
        return twin

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

    def to_bytes(self, board: Board | None = None) -> bytes:
        """The game file with the position written in (``board``, default the game's own).

        Edits the document and undoes the edits (or edits a fork of a shared one: :meth:`XmlDocument.edits`), so
        calling it twice, or after more changes, always reflects the current board.
        """
        if (board is None or board is self._board) and not self.board.changes:
            # The game's own position with nothing pushed is the file's (it changes only by push): its bytes.
            return self.document.to_bytes()
        with self.document.edits() as document:
            write_board(GameXml(document), self._initial, board if board is not None else self.board)
            return document.to_bytes()

    def map_folder(self, maps_dir: Path | str) -> MapFolder:
        """The installed map this game belongs to: the one holding its base file, else the one its ``mapName`` names."""
        return map_folder_for(self.source, self.board.properties.get("mapName"), Path(maps_dir))

    def install(self, maps_dir: Path | str, *, name: str | None = None, force: bool = False, protect: tuple[Path | str, ...] = ()) -> InstalledGame:
        """Install the game into its map's folder under ``name`` (default: its own name, numbered if taken).

        Its ``<info name>`` becomes that name, so TripleA shows the name ``map.yml`` lists;
        its notes (the ``notes`` property) go beside it as ``.notes.html``.
        """
        folder = self.map_folder(maps_dir)
        name = name or unique_game_name(folder, self.board.game_name)
        if name != self.board.game_name:
            self.board.push(SetGameName(name))
        return install_game(folder, name, self.to_bytes(), self.board.properties.get("notes"), force=force, protect=protect, maps_dir=maps_dir)

    def save(self, path: Path | str, *, overwrite: bool = False, protect: tuple[Path | str, ...] = ()) -> Path:
        """Write the game to ``path``; never over its own source file nor any of ``protect`` (the command's other inputs)."""
        return write_atomically(path, self.to_bytes(), overwrite=overwrite, protect=(self.source, *protect))


def record_base(game: Game) -> None:
    """Put which game ``game`` was made from atop its notes (gamefile/provenance), for render and verify to find."""
    record = base_record(game.source, game.initial.game_name)
    if record is not None:
        game.board.push(SetProperty("notes", record.comment() + game.board.properties.get("notes", "")))


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
    return read_game(resolve_game(game, maps_dir))


#: The games read lately, by path and bytes. A game is read again and again in one process (the draft room at
#: each draft, the matrix for each ruleset, the tests): its file is read each time, so an edited file is parsed
#: anew, but the same bytes are parsed once. Each caller gets its own copy of the position (:meth:`Game.copy`;
#: the XML is shared between threads, and never edited: writing works on a fork of it, made once and lent to one
#: write at a time).
_GAMES_READ: Kept[Game] = Kept(4)  # a big game's parsed tree is tens of megabytes


def read_game(path: Path | str) -> Game:
    """The game in the file at ``path``: its own position, at the file's."""
    source, data = str(path), read_bytes(Path(path))
    return _GAMES_READ.get((source, data), lambda: Game(_shared(XmlDocument(data, source=source)))).copy()


def _shared(document: XmlDocument) -> XmlDocument:
    """``document``, marked as read by other threads: every write works on a fork of it."""
    document.shared = True
    return document

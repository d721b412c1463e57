"""The board: the territories and sea zones of a game, and the position on them.

``Board.nodes`` maps each territory or sea zone (named as in the game file) to
its data; ``Board.neighbours`` follows the ``<connection>``s. ``Board.graph``
is the same board as a networkx graph, one node per territory and one edge per
connection, sharing the very same node data: a :class:`PlaceData` each.

Beside the graph: each player's PUs and technologies, the game properties, and
the static :class:`Catalog` (players, alliances, turn order, unit types and
costs). ``push`` applies a :mod:`~kremlin_triplea.model.changes` value, ``pop``
undoes the last one, as in python-chess.
"""

from __future__ import annotations

import functools
import itertools
import threading
import weakref
from collections import Counter
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Literal, TypedDict

import attrs

from kremlin_triplea.errors import UnknownNameError
from kremlin_triplea.model.changes import (
    TERRITORY_FIELDS,
    AddPUs,
    AddXml,
    Change,
    CopyAttachment,
    GrantTech,
    PlaceUnits,
    RemoveUnits,
    SetAttachmentOption,
    SetFrontierPrice,
    SetGameName,
    SetOwner,
    SetProductionCost,
    SetProperty,
    SetPUs,
    SetTerritory,
)

if TYPE_CHECKING:
    import networkx as nx

Domain = Literal["land", "sea", "air"]
UnitKey = tuple[str | None, str]


class PlaceData(TypedDict):
    """What the board knows of one territory or sea zone (the node data of ``Board.nodes`` and ``Board.graph``)."""

    water: bool  # a sea zone
    owner: str | None  # the owning player, or None (neutral / unowned)
    original_owner: str | None  # who owned it at the start of the war (liberation target)
    production: int  # its IPC value
    impassable: bool  # no unit may enter it
    capital: str | None  # the player whose capital it is, or None
    victory_city: int  # 0, or the victory-city count it carries
    units: Counter[UnitKey]  # (owner or None, unit type) -> number of units


_NEW_COUNTER = Counter.__new__
# A place before the file's owners, attachments and units are read: copied (dict.copy, in C) for each place.
_NEW_PLACE: PlaceData = {
    "water": False,
    "owner": None,
    "original_owner": None,
    "production": 0,
    "impassable": False,
    "capital": None,
    "victory_city": 0,
    "units": Counter(),
}


def new_places(places: Iterable[tuple[str, bool]]) -> dict[str, PlaceData]:
    """Each territory or sea zone of ``places`` (name, whether water) before the file's owners, attachments and units are
    read; a later one of a name replaces an earlier one.

    Each a copy of one place and an empty Counter, the Counters made by ``map`` (Counter.__new__ called from C): a dict
    display and a Python call to Counter.__new__ for each place, as new_place made them, were 4,700 instructions a
    place, a twentieth of reading WW2v3-1942's board (issue 45 item 6); Counter's own constructor runs Python code."""
    nodes: dict[str, PlaceData] = {}
    for (name, water), units in zip(places, map(_NEW_COUNTER, itertools.repeat(Counter))):
        place = _NEW_PLACE.copy()
        place["water"] = water
        place["units"] = units
        nodes[name] = place
    return nodes


# The fields other than units, in the order they are reported.
PLACE_FIELDS: tuple[str, ...] = tuple(name for name in PlaceData.__annotations__ if name not in ("water", "units"))


@attrs.frozen
class Player:
    name: str
    alliances: tuple[str, ...]
    turn_order: int
    optional: bool = False
    # Whether its turn has a purchase step that spends PUs: AA50's Chinese place units
    # without PUs (NoPUPurchaseDelegate), so PUs given to them buy nothing.
    spends_pus: bool = True
    # Whether its turns hold TripleA's own bid phase: a step run by a BidPurchaseDelegate and one by a BidPlaceDelegate.
    # Its "<power> bid" property alone gives PUs to no step (battleship_row.xml has the properties, not the steps).
    bid_phase: bool = False


@attrs.frozen
class UnitType:
    name: str
    domain: Domain
    cost: int | None  # PUs in the production frontier most players start with; None if not buyable
    transport_capacity: int = 0
    transport_cost: int = 0  # room it takes on a transport (land units)
    carrier_capacity: int = 0
    carrier_cost: int = 0
    infrastructure: bool = False  # factories and AA guns: captured, never fight
    movement: int = 0  # 0: a structure that cannot move (a factory, a harbour), so it cannot retreat either

    @property
    def is_ship(self) -> bool:
        return self.domain == "sea"


class Unread:
    """The parts of a game file read only when first asked for, each once, for every board and catalog read from the file
    (the boards of the room's threads share it: a part is read under a lock). Reading a game to write it with a few
    changes needs none of them: its unit types, prices, technologies and properties were a fifth of reading
    WW2v3-1942's board (issue 45 item 6). ``read(part)`` reads one; once every one of ``parts`` is read, the file (its
    parsed tree, which ``read`` holds) is let go."""

    def __init__(self, read: Callable[[str], object], parts: Iterable[str]) -> None:
        self._read: Callable[[str], object] | None = read
        self._unread = set(parts)
        self._values: dict[str, object] = {}
        self._lock = threading.RLock()  # a part may ask for another (unit types for the prices)

    def get(self, part: str) -> Any:
        try:
            return self._values[part]
        except KeyError:
            pass
        with self._lock:
            if part not in self._values:
                assert self._read is not None
                self._values[part] = self._read(part)
                self._unread.discard(part)
                if not self._unread:
                    self._read = None
            return self._values[part]


class _ReadWhenAsked:
    """A part read from the game file the first time it is asked for (:class:`Unread`), then kept as the instance's own
    attribute: each board gets its own copy of its technologies and properties, which it changes.

    Only the class of an instance with parts unread has these (:func:`_unread_class`), and an instance whose part is
    read moves to the class without it: Python 3.11 does not specialise the reading of an attribute its class has a
    descriptor of (nor any attribute of a class with ``__getattr__``), which cost every later read of it, and the
    matrix reads a catalog's unit types and a board's properties millions of times."""

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self
        # Every part of the instance read at once, and the instance moved to the class without them: one move, and
        # every later read of any of them as fast as a plain attribute's.
        for part in instance._parts_read_when_asked:
            if isinstance(getattr(type(instance), part, None), _ReadWhenAsked):
                value = instance._unread.get(part)
                setattr(instance, part, dict(value) if part in _OWN_COPY else value)
        instance.__class__ = instance._plain_class
        return getattr(instance, self._name)


_OWN_COPY = frozenset({"techs", "properties"})


@functools.cache
def _unread_class(plain: type, parts: frozenset[str]) -> type:
    """``plain`` with the parts ``parts`` read when first asked for (``plain`` itself when none is)."""
    if not parts:
        return plain
    return type(
        plain.__name__, (plain,), {part: _ReadWhenAsked() for part in sorted(parts)} | {"__module__": plain.__module__, "__qualname__": plain.__qualname__}
    )


class Catalog:
    """What does not change during set-up: players, alliances, unit types.

    The players are read with the board; the rest from the file when first asked for (:class:`Unread`)."""

    #: Each unit type the game declares, by name.
    unit_types: dict[str, UnitType]
    resources: tuple[str, ...]
    #: (player, unit type) -> PUs, from the player's own frontier.
    costs: dict[tuple[str, str], int]
    #: Every production frontier of the game: name -> unit type -> PUs. A technology that swaps
    #: frontiers (TripleA's Industrial Technology, Improved Shipyards) moves a player from its
    #: frontier F to the one named F + a suffix of its own, when the game has it.
    frontiers: dict[str, dict[str, int]]
    #: player -> the name of its production frontier.
    player_frontiers: dict[str, str]
    #: The technologies the game's <technology> section names (None: the file has no such section, and
    #: TripleA builds its own list; an empty section, as WAW40's, defines none).
    technologies: tuple[str, ...] | None
    #: (attachTo, name) of every attachment of the file.
    attachments: frozenset[tuple[str, str]]
    #: The parts above, in the order a catalog is compared and shown.
    READ_WHEN_ASKED = ("unit_types", "resources", "costs", "frontiers", "player_frontiers", "technologies", "attachments")

    def __init__(self, players: dict[str, Player], unit_type_names: Iterable[str], unread: Unread) -> None:
        self.players = players
        self._unit_type_names = dict.fromkeys(unit_type_names)  # the unit types' names, before the types are read
        self._unread = unread
        self.__class__ = _unread_class(Catalog, frozenset(self.READ_WHEN_ASKED))

    _parts_read_when_asked = READ_WHEN_ASKED

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Catalog):
            return NotImplemented
        return self.players == other.players and all(getattr(self, part) == getattr(other, part) for part in self.READ_WHEN_ASKED)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Catalog(players={self.players!r}, {', '.join(f'{part}={getattr(self, part)!r}' for part in self.READ_WHEN_ASKED)})"

    def check_unit_type(self, name: str) -> None:
        """Refuse (UnknownNameError) a unit type the game does not declare, without reading the types themselves."""
        if name not in self._unit_type_names:
            raise UnknownNameError("unit type", name, self._unit_type_names)

    def player(self, name: str) -> Player:
        try:
            return self.players[name]
        except KeyError:
            raise UnknownNameError("player", name, self.players) from None

    def unit_type(self, name: str) -> UnitType:
        try:
            return self.unit_types[name]
        except KeyError:
            raise UnknownNameError("unit type", name, self.unit_types) from None

    def allied(self, a: str | None, b: str | None) -> bool:
        """Same player, or players sharing an alliance. Neutrals are allied with nobody."""
        if a is None or b is None:
            return False
        return a == b or bool(set(self.players[a].alliances) & set(self.players[b].alliances))

    def allies(self, power: str) -> list[str]:
        """The power's allies, itself included, in turn order."""
        return [p for p in self.turn_order() if self.allied(power, p)]

    def enemies(self, power: str) -> list[str]:
        return [p for p in self.turn_order() if not self.allied(power, p)]

    def alliance_of(self, power: str) -> str | None:
        alliances = self.player(power).alliances
        return alliances[0] if alliances else None

    def alliance_members(self, alliance: str) -> list[str]:
        return [p for p in self.turn_order() if alliance in self.players[p].alliances]

    def alliances(self) -> list[str]:
        seen: dict[str, None] = {}
        for power in self.turn_order():
            for alliance in self.players[power].alliances:
                seen.setdefault(alliance, None)
        return list(seen)

    def turn_order(self) -> list[str]:
        return sorted(self.players, key=lambda p: self.players[p].turn_order)

    def cost(self, unit_type: str, player: str | None = None) -> int | None:
        if player is not None and (player, unit_type) in self.costs:
            return self.costs[(player, unit_type)]
        return self.unit_type(unit_type).cost


Catalog._plain_class = Catalog  # type: ignore[attr-defined]


@attrs.define
class _Undo:
    change: Change
    nodes: dict[str, PlaceData]
    pus: dict[str, int] | None = None
    techs: dict[str, frozenset[str]] | None = None
    properties: dict[str, str] | None = None
    game_name: str | None = None
    extra_xml: int | None = None


def copy_units(units: Counter[tuple[str | None, str]]) -> Counter[tuple[str | None, str]]:
    """A copy of a place's unit counts.

    dict's own update, not ``Counter(units)``: the constructor runs Python code per call, and copying a board
    copies every place's units (the matrix copies hundreds of thousands).
    """
    copied: Counter[tuple[str | None, str]] = Counter.__new__(Counter)
    dict.update(copied, units)
    return copied


class Board:
    """The position: the graph plus PUs, technologies and properties.

    Technologies and properties are read from the file when first asked for (:class:`Unread`): a board none of whose
    changes touched them, nor anyone asked, has the file's, and a copy of it too."""

    #: player -> the technologies it starts with.
    techs: dict[str, frozenset[str]]
    #: The game's properties: name -> value.
    properties: dict[str, str]
    _parts_read_when_asked = ("techs", "properties")

    def __init__(
        self,
        catalog: Catalog,
        nodes: dict[str, PlaceData],
        adjacency: dict[str, dict[str, dict[str, Any]]],
        pus: dict[str, int],
        techs: dict[str, frozenset[str]] | None,
        properties: dict[str, str] | None,
        game_name: str = "",
    ) -> None:
        self.catalog = catalog
        self.game_name = game_name  # the <info name> of the game file
        #: Territory name -> its data (the fields in the module docstring).
        self.nodes = nodes
        # Territory -> neighbour -> edge data, shared by copies: connections never change.
        self._adjacency = adjacency
        self._graph: nx.Graph | None = None
        self.pus = pus
        self._unread = catalog._unread  # where the technologies and properties not given are read from
        if techs is not None:
            self.techs = techs
        if properties is not None:
            self.properties = properties
        if techs is None or properties is None:
            if techs is not None or properties is not None:
                raise ValueError("a board's technologies and properties are read from its file together, or given together")
            self.__class__ = _unread_class(Board, frozenset(self._parts_read_when_asked))
        self.extra_xml: list[AddXml] = []
        self._stack: list[_Undo] = []
        # The board this one is a copy of, how deep its stack was then and its last change (places_changed_from)
        self._copied_from: tuple[weakref.ref[Board], int, _Undo | None] | None = None

    @property
    def graph(self) -> nx.Graph:
        """The board as a networkx graph, over the very same node data as ``nodes``.

        Built on first use: importing networkx costs about 0.1 s, which the
        command line's own paths (show, apply) need not pay.
        """
        if self._graph is None:
            import networkx as nx

            graph = nx.Graph()
            # networkx's own node -> data and node -> neighbour -> edge-data maps:
            # sharing them keeps the graph and the board one position.
            graph._node = self.nodes
            graph._adj = self._adjacency
            self._graph = graph
        return self._graph

    def as_read(self, other: Board, part: str) -> bool:
        """Whether this board's ``part`` (techs, properties) and ``other``'s are both the file's still, never asked
        for nor changed, and the file the same: equal without reading them."""
        return type(self) is not Board and type(other) is not Board and self._unread is other._unread

    def unknown_names(self) -> list[str]:
        """Owners and unit types of the position that the game does not declare, one line each.

        TripleA refuses a territory owned by an undeclared player; an undeclared unit owner is read as no
        owner by 1.9 and as a missing one by 2.x. No rule can be checked on such a position, so the draft
        and the house rules refuse it (``kremlin-triplea validate`` gives each one's line).
        """
        found = []
        for territory, data in self.nodes.items():
            owner = data["owner"]
            if owner is not None and owner not in self.catalog.players:
                found.append(f"{territory} is owned by {owner!r}, which is not a player of the game")
            for (unit_owner, unit_type), count in sorted(data["units"].items(), key=lambda item: (str(item[0][0]), item[0][1])):
                if count and unit_owner is not None and unit_owner not in self.catalog.players:
                    found.append(f"{territory} holds {unit_type} of {unit_owner!r}, which is not a player of the game")
                elif count and unit_type not in self.catalog.unit_types:
                    found.append(f"{territory} holds units of type {unit_type!r}, which the game does not declare")
        return found

    def neighbours(self, territory: str) -> list[str]:
        """The territories connected to ``territory``, in name order."""
        try:
            return sorted(self._adjacency[territory])
        except KeyError:
            raise UnknownNameError("territory", territory, self.nodes) from None

    # -- the position ------------------------------------------------------

    def node(self, territory: str) -> PlaceData:
        try:
            return self.nodes[territory]
        except KeyError:
            raise UnknownNameError("territory", territory, self.nodes) from None

    def units(self, territory: str) -> Counter[UnitKey]:
        return self.node(territory)["units"]

    def owner(self, territory: str) -> str | None:
        return self.node(territory)["owner"]

    def is_water(self, territory: str) -> bool:
        return bool(self.node(territory)["water"])

    @property
    def position(self) -> tuple[int, object]:
        """Names the position reached by push/pop from this board's start (compare the second item with ``is``): for caches."""
        return (len(self._stack), self._stack[-1] if self._stack else None)

    @property
    def changes(self) -> list[Change]:
        """Every change pushed so far, oldest first."""
        return [entry.change for entry in self._stack]

    def copy(self) -> Board:
        nodes = {}
        # Each place's dict copied in C and its units by dict's own update (copy_units): a dict display with ** took
        # twice as long, and the matrix copies hundreds of thousands of boards.
        for (name, data), units in zip(self.nodes.items(), map(_NEW_COUNTER, itertools.repeat(Counter))):
            copied = data.copy()
            dict.update(units, data["units"])
            copied["units"] = units
            nodes[name] = copied
        # The technologies and properties read (or set) so far, or none: the file's still
        techs, properties = (self.techs, self.properties) if type(self) is Board else (None, None)
        twin = Board(
            self.catalog,
            nodes,
            self._adjacency,
            dict(self.pus),
            None if techs is None else dict(techs),
            None if properties is None else dict(properties),
            self.game_name,
        )
        twin.extra_xml = list(self.extra_xml)
        twin._stack = list(self._stack)
        twin._copied_from = (weakref.ref(self), len(self._stack), self._stack[-1] if self._stack else None)
        return twin

    def places_changed_from(self, other: Board) -> set[str] | None:
        """The places this board's changes since it was copied from ``other`` touched, when it is a copy of ``other``
        and neither has moved past that point since (``other`` changed, this board popped behind it): every other
        place is as ``other`` has it, a place changing only by push and pop. None: not known (compare every place)."""
        if self._copied_from is None:
            return None
        origin, depth, last = self._copied_from
        if origin() is not other or len(other._stack) != depth or (other._stack[-1] if other._stack else None) is not last:
            return None
        if len(self._stack) < depth or (depth and self._stack[depth - 1] is not last):
            return None
        return {place for undo in self._stack[depth:] for place in undo.nodes}

    # -- push / pop --------------------------------------------------------

    def push(self, change: Change) -> None:
        """Apply ``change``; raise ValueError (and change nothing) if it cannot apply."""
        undo = _Undo(change, {})
        if isinstance(change, (PlaceUnits, RemoveUnits)):
            data = self._remember(undo, change.territory)
            if change.count <= 0:
                raise ValueError(f"cannot {change}: the count must be positive")
            self.catalog.check_unit_type(change.unit_type)
            if change.owner is not None:
                self.catalog.player(change.owner)
            key = (change.owner, change.unit_type)
            if isinstance(change, RemoveUnits):
                if data["units"][key] < change.count:
                    raise ValueError(f"cannot {change}: there are only {data['units'][key]}")
                data["units"][key] -= change.count
                if not data["units"][key]:
                    del data["units"][key]
            else:
                data["units"][key] += change.count
        elif isinstance(change, SetOwner):
            data = self._remember(undo, change.territory)
            if change.owner is not None:
                self.catalog.player(change.owner)
            # A game file cannot say "owned, but with no original owner": TripleA
            # then takes the owner as the original owner, and so does the board.
            if not change.captured or data["original_owner"] is None:
                data["original_owner"] = change.owner
            data["owner"] = change.owner
        elif isinstance(change, SetTerritory):
            if change.field not in TERRITORY_FIELDS:
                raise ValueError(f"cannot {change}: a territory has no field {change.field!r}")
            data = self._remember(undo, change.territory)
            data[change.field] = change.value
            if change.field == "original_owner" and change.value is None:
                data["original_owner"] = data["owner"]
        elif isinstance(change, SetPUs):
            self.catalog.player(change.player)
            undo.pus = dict(self.pus)
            self.pus[change.player] = change.amount
        elif isinstance(change, AddPUs):
            self.catalog.player(change.player)
            if self.pus.get(change.player, 0) + change.amount < 0:
                raise ValueError(f"cannot {change}: {change.player} start with only {self.pus.get(change.player, 0)}")
            undo.pus = dict(self.pus)
            self.pus[change.player] = self.pus.get(change.player, 0) + change.amount
        elif isinstance(change, GrantTech):
            self.catalog.player(change.player)
            undo.techs = dict(self.techs)
            self.techs[change.player] = self.techs.get(change.player, frozenset()) | {change.tech}
        elif isinstance(change, SetProperty):
            undo.properties = dict(self.properties)
            self.properties[change.name] = change.value
        elif isinstance(change, SetGameName):
            undo.game_name = self.game_name
            self.game_name = change.name
        elif isinstance(change, (AddXml, SetAttachmentOption, CopyAttachment, SetProductionCost, SetFrontierPrice)):
            undo.extra_xml = len(self.extra_xml)
            self.extra_xml.append(change)
        else:  # pragma: no cover - the Change union is closed
            raise TypeError(f"not a change: {change!r}")
        self._stack.append(undo)

    def push_all(self, changes: list[Change]) -> None:
        """Apply all of ``changes`` or, if one fails, none of them."""
        done = 0
        try:
            for change in changes:
                self.push(change)
                done += 1
        except Exception:
            for _ in range(done):
                self.pop()
            raise

    def pop(self) -> Change:
        undo = self._stack.pop()
        for territory, saved in undo.nodes.items():
            self.nodes[territory].update(saved)
        if undo.pus is not None:
            self.pus = undo.pus
        if undo.techs is not None:
            self.techs = undo.techs
        if undo.properties is not None:
            self.properties = undo.properties
        if undo.game_name is not None:
            self.game_name = undo.game_name
        if undo.extra_xml is not None:
            del self.extra_xml[undo.extra_xml :]
        return undo.change

    def _remember(self, undo: _Undo, territory: str) -> dict[str, Any]:
        data = self.node(territory)
        if territory not in undo.nodes:
            saved = dict(data)
            saved["units"] = copy_units(data["units"])
            undo.nodes[territory] = saved
        return data


Board._plain_class = Board  # type: ignore[attr-defined]

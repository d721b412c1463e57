"""The board: the territories and sea zones of a game, and the position on them.

``Board.nodes`` maps each territory or sea zone (named as in the game file) to
its data; ``Board.neighbours`` follows the ``<connection>``s. ``Board.graph``
is the same board as a networkx graph, one node per territory and one edge per
connection, sharing the very same node data. Node data:

==============  ==========================================================
water           True for a sea zone
owner           the owning player, or None (neutral / unowned)
original_owner  who owned it at the start of the war (liberation target)
production      its IPC value
impassable      no unit may enter it
capital         the player whose capital it is, or None
victory_city    0, or the victory-city count it carries
units           Counter of (owner or None, unit type) -> number of units
==============  ==========================================================

Beside the graph: each player's PUs and technologies, the game properties, and
the static :class:`Catalog` (players, alliances, turn order, unit types and
costs). ``push`` applies a :mod:`~kremlin_triplea.model.changes` value, ``pop``
undoes the last one, as in python-chess.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Literal

import attrs

from kremlin_triplea.model.changes import (
    AddPUs,
    AddXml,
    SetAttachmentOption,
    CopyAttachment,
    SetProductionCost,
    Change,
    GrantTech,
    PlaceUnits,
    RemoveUnits,
    SetOwner,
    SetGameName,
    SetProperty,
    SetPUs,
    SetTerritory,
    TERRITORY_FIELDS,
)
from kremlin_triplea.errors import InputError, UnknownNameError
from kremlin_triplea.gamefile.tripleaxml import PUS, GameXml

if TYPE_CHECKING:
    import networkx as nx

Domain = Literal["land", "sea", "air"]
UnitKey = tuple[str | None, str]


@attrs.frozen
class Player:
    name: str
    alliances: tuple[str, ...]
    turn_order: int
    optional: bool = False


@attrs.frozen
class UnitType:
    name: str
    domain: Domain
    cost: int | None  # PUs in the production frontier most players start with; None if not buyable
    transport_capacity: int = 0
    carrier_capacity: int = 0
    carrier_cost: int = 0
    infrastructure: bool = False  # factories and AA guns: captured, never fight

    @property
    def is_ship(self) -> bool:
        return self.domain == "sea"


@attrs.frozen
class Catalog:
    """What does not change during set-up: players, alliances, unit types."""

    players: dict[str, Player]
    unit_types: dict[str, UnitType]
    resources: tuple[str, ...]
    costs: dict[tuple[str, str], int]  # (player, unit type) -> PUs, from the player's own frontier
    #: (player, unit type) -> PUs in the twin TripleA's Industrial Technology moves the player to
    #: (the frontier named "<its frontier>IndustrialTechnology"), for games that have one.
    industrial_costs: dict[tuple[str, str], int] = attrs.field(factory=dict)

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


@attrs.define
class _Undo:
    change: Change
    nodes: dict[str, dict[str, Any]]
    pus: dict[str, int] | None = None
    techs: dict[str, frozenset[str]] | None = None
    properties: dict[str, str] | None = None
    game_name: str | None = None
    extra_xml: int | None = None


class Board:
    """The position: the graph plus PUs, technologies and properties."""

    def __init__(
        self,
        catalog: Catalog,
        nodes: dict[str, dict[str, Any]],
        adjacency: dict[str, dict[str, dict[str, Any]]],
        pus: dict[str, int],
        techs: dict[str, frozenset[str]],
        properties: dict[str, str],
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
        self.techs = techs
        self.properties = properties
        self.extra_xml: list[AddXml] = []
        self._stack: list[_Undo] = []

    @classmethod
    def from_xml(cls, game: GameXml) -> Board:
        return _BoardReader(game).board()

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

    def neighbours(self, territory: str) -> list[str]:
        """The territories connected to ``territory``, in name order."""
        try:
            return sorted(self._adjacency[territory])
        except KeyError:
            raise UnknownNameError("territory", territory, self.nodes) from None

    # -- the position ------------------------------------------------------

    def node(self, territory: str) -> dict[str, Any]:
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
        nodes = {name: {**data, "units": Counter(data["units"])} for name, data in self.nodes.items()}
        twin = Board(self.catalog, nodes, self._adjacency, dict(self.pus), dict(self.techs), dict(self.properties), self.game_name)
        twin.extra_xml = list(self.extra_xml)
        twin._stack = list(self._stack)
        return twin

    # -- push / pop --------------------------------------------------------

    def push(self, change: Change) -> None:
        """Apply ``change``; raise ValueError (and change nothing) if it cannot apply."""
        undo = _Undo(change, {})
        if isinstance(change, (PlaceUnits, RemoveUnits)):
            data = self._remember(undo, change.territory)
            if change.count <= 0:
                raise ValueError(f"cannot {change}: the count must be positive")
            self.catalog.unit_type(change.unit_type)
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
        elif isinstance(change, (AddXml, SetAttachmentOption, CopyAttachment, SetProductionCost)):
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
            saved["units"] = Counter(data["units"])
            undo.nodes[territory] = saved
        return data


class _BoardReader:
    """Builds the catalog and the board from a game file, as TripleA reads it."""

    def __init__(self, game: GameXml) -> None:
        self.game = game
        self.source = game.document.source

    def _where(self, element: Any) -> str:
        return f"{self.source}:{element.sourceline}"

    def _int(self, element: Any, attribute: str, value: str | None = None) -> int:
        text = element.get(attribute) if value is None else value
        try:
            return int(str(text).strip())
        except ValueError:
            raise InputError(f"{attribute} {text!r} is not a whole number", where=self._where(element)) from None

    def board(self) -> Board:
        catalog = self.catalog()
        nodes: dict[str, dict[str, Any]] = {}
        for territory in self.game.territories():
            nodes[territory.get("name", "")] = {
                "water": territory.get("water", "false").strip().lower() == "true",
                "owner": None,
                "original_owner": None,
                "production": 0,
                "impassable": False,
                "capital": None,
                "victory_city": 0,
                "units": Counter(),
            }
        adjacency: dict[str, dict[str, dict[str, Any]]] = {name: {} for name in nodes}
        for t1, t2 in self.game.connections():
            if t1 in nodes and t2 in nodes and t1 != t2:
                # One edge-data dict for both directions, as networkx keeps it.
                edge = adjacency[t1].get(t2, {})
                adjacency[t1][t2] = adjacency[t2][t1] = edge
        for entry in self.game.territory_owners():
            territory = entry.get("territory", "")
            if territory in nodes:
                nodes[territory]["owner"] = entry.get("owner")
        explicit_original: dict[str, str] = {}
        # As in TripleA, the last territoryAttachment of a territory replaces any earlier one.
        last_attachment = {a.get("attachTo", ""): a for a in self.game.attachments(kind="territory", name="territoryAttachment")}
        for territory, attachment in last_attachment.items():
            if territory not in nodes:
                continue
            data = nodes[territory]
            for option in attachment.iterchildren("option"):
                name, value = option.get("name"), option.get("value", "")
                if name == "production":
                    data["production"] = self._int(option, "value")
                elif name == "isImpassable":
                    data["impassable"] = value.strip().lower() == "true"
                elif name == "capital":
                    data["capital"] = value
                elif name == "victoryCity":
                    data["victory_city"] = 1 if value == "true" else 0 if value == "false" else self._int(option, "value")
                elif name == "originalOwner":
                    explicit_original[territory] = value
        for territory, data in nodes.items():
            data["original_owner"] = explicit_original.get(territory, data["owner"])
        for placement in self.game.unit_placements():
            territory = placement.get("territory", "")
            if territory in nodes:
                key = (placement.get("owner"), placement.get("unitType", ""))
                nodes[territory]["units"][key] += self._int(placement, "quantity")
        pus = {name: 0 for name in catalog.players}
        for given in self.game.resources_given():
            if given.get("resource") == PUS and given.get("player") in pus:
                pus[given.get("player", "")] += self._int(given, "quantity")
        techs: dict[str, frozenset[str]] = {}
        for player in catalog.players:
            attachment = self.game.tech_attachment(player)
            if attachment is not None:
                owned = {o.get("name", "") for o in attachment.iterchildren("option") if o.get("value", "").lower() == "true"}
                techs[player] = frozenset(owned)
        properties = {p.get("name", ""): _property_value(p) for p in self.game.properties()}
        return Board(catalog, nodes, adjacency, pus, techs, properties, self.game.name)

    def catalog(self) -> Catalog:
        alliances: dict[str, list[str]] = {}
        for player, alliance in self.game.alliances():
            alliances.setdefault(player, []).append(alliance)
        order = self._turn_order()
        players = {}
        for position, element in enumerate(self.game.players()):
            name = element.get("name", "")
            players[name] = Player(
                name=name,
                alliances=tuple(alliances.get(name, ())),
                turn_order=order.get(name, len(order) + position),
                optional=element.get("optional", "false") == "true",
            )
        options = {
            a.get("attachTo", ""): {o.get("name", ""): o.get("value", "") for o in a.iterchildren("option")}
            for a in self.game.attachments(kind="unitType", name="unitAttachment")
        }
        costs, common, industrial = self._costs(players)
        unit_types = {}
        for name in self.game.unit_types():
            unit = options.get(name, {})
            domain: Domain = "sea" if unit.get("isSea") == "true" else "air" if unit.get("isAir") == "true" else "land"
            unit_types[name] = UnitType(
                name=name,
                domain=domain,
                cost=common.get(name),
                transport_capacity=_int_or_zero(unit.get("transportCapacity")),
                carrier_capacity=_int_or_zero(unit.get("carrierCapacity")),
                carrier_cost=_int_or_zero(unit.get("carrierCost")),
                infrastructure=any(
                    unit.get(flag) == "true" for flag in ("isFactory", "isInfrastructure", "isAA", "isAAforCombatOnly", "isAAforBombingThisUnitOnly")
                ),
            )
        return Catalog(players=players, unit_types=unit_types, resources=tuple(self.game.resources()), costs=costs,
                       industrial_costs=industrial)

    def _turn_order(self) -> dict[str, int]:
        # A player's place in the turn: the first non-bid step it plays, else its first step.
        order: dict[str, int] = {}
        for step in self.game.steps():
            player = step.get("player")
            delegate = step.get("delegate", "")
            if player and player not in order and delegate not in ("bid", "placeBid") and "Bid" not in step.get("name", ""):
                order[player] = len(order)
        return order

    def _costs(self, players: dict[str, Player]) -> tuple[dict[tuple[str, str], int], dict[str, int], dict[tuple[str, str], int]]:
        rule_costs: dict[str, dict[str, int]] = {}
        for rule in self.game.production_rules():
            pus = sum(self._int(c, "quantity") for c in rule.iterchildren("cost") if c.get("resource") == PUS)
            results = list(rule.iterchildren("result"))
            if len(results) == 1 and pus:
                quantity = max(self._int(results[0], "quantity"), 1)
                rule_costs[rule.get("name", "")] = {results[0].get("resourceOrUnit", ""): pus // quantity}
        frontiers = {
            f.get("name", ""): [r.get("name", "") for r in f.iterchildren("frontierRules")]
            for f in self.game.production_frontiers()
        }
        costs: dict[tuple[str, str], int] = {}
        industrial: dict[tuple[str, str], int] = {}
        votes: dict[str, Counter[int]] = {}
        for production in self.game.player_productions():
            player = production.get("player", "")
            for rule in frontiers.get(production.get("frontier", ""), []):
                for unit, cost in rule_costs.get(rule, {}).items():
                    costs[(player, unit)] = cost
                    votes.setdefault(unit, Counter())[cost] += 1
            for rule in frontiers.get(production.get("frontier", "") + "IndustrialTechnology", []):
                for unit, cost in rule_costs.get(rule, {}).items():
                    industrial[(player, unit)] = cost
        common = {unit: counter.most_common(1)[0][0] for unit, counter in votes.items()}
        for costs_of_rule in rule_costs.values():
            for unit, cost in costs_of_rule.items():
                common.setdefault(unit, cost)
        return costs, common, industrial


def _property_value(element: Any) -> str:
    inner = element.find("value")
    if inner is not None:
        return inner.text or ""
    return element.get("value", "")


def _int_or_zero(text: str | None) -> int:
    try:
        return int(text) if text else 0
    except ValueError:
        return 0


"""The one mapping between a game file and a board, both ways.

:func:`read_board` builds the catalog and the position from the XML as TripleA
reads it (the last of duplicate attachments wins, as ``NamedAttachable`` keeps
it); :func:`write_board` writes back only what differs between two positions,
through :class:`~kremlin_triplea.gamefile.tripleaxml.GameXml`'s typed setters,
so everything else in the file stays byte for byte.
"""

from __future__ import annotations

import operator
from typing import Any

from lxml import etree

from kremlin_triplea.errors import InputError
from kremlin_triplea.gamefile import foreach
from kremlin_triplea.gamefile.tripleaxml import NULL_PLAYER, PUS, GameXml, option_name_as_read, placement_owner, territory_owner
from kremlin_triplea.model.board import Board, Catalog, Domain, PlaceData, Player, UnitType, Unread, new_places
from kremlin_triplea.model.changes import CopyAttachment, SetAttachmentOption, SetFrontierPrice, SetProductionCost
from kremlin_triplea.model.diff import board_difference

_COUNT = operator.itemgetter(1)

# Board fields written as territoryAttachment options (owner and original owner have their own rules).
_TERRITORY_OPTIONS = {
    "production": "production",
    "impassable": "isImpassable",
    "capital": "capital",
    "victory_city": "victoryCity",
}


def read_board(xml: GameXml) -> Board:
    """The board as the file has it."""
    return _Reader(xml).board()


def write_board(xml: GameXml, before: Board, after: Board) -> None:
    """Write into ``xml`` (a fork of the file ``before`` was read from) what differs in ``after``; nothing else is touched.

    What differs is worked out before the first edit: a part of a board read from the file when first asked for
    (board.Unread) must not be read from a file half written."""
    difference = board_difference(before, after)
    for territory, change in difference.places.items():
        new = after.nodes[territory]
        changed = {field for field, _, _ in change.fields}
        if "owner" in changed:
            xml.set_territory_owner(territory, new["owner"])
        if "original_owner" in changed or ("owner" in changed and new["original_owner"] != new["owner"]):
            # TripleA takes the owner in the file as the original owner unless
            # the territoryAttachment says otherwise.
            keep = new["original_owner"] if new["original_owner"] != new["owner"] else None
            xml.set_territory_option(territory, "originalOwner", keep)
        for field, option in _TERRITORY_OPTIONS.items():
            if field in changed:
                xml.set_territory_option(territory, option, _option_text(new[field]), default=_default_text(new[field]))
        for owner, unit_type, _ in change.units:
            xml.set_unit_count(territory, owner, unit_type, new["units"][(owner, unit_type)])
    for player in after.catalog.turn_order():
        if player in difference.pus:
            xml.set_resource(player, PUS, difference.pus[player][1])
        old_techs, new_techs = difference.techs.get(player, (frozenset(), frozenset()))
        for tech in sorted(new_techs ^ old_techs):
            xml.set_tech(player, tech, tech in new_techs)
    for name, (_, value) in difference.properties.items():  # in name order
        if value is not None:  # a property the position lacks is left as the file has it
            xml.set_property(name, value)
    if after.game_name != before.game_name:
        xml.set_game_name(after.game_name)
    for addition in after.extra_xml:
        if isinstance(addition, SetAttachmentOption):
            xml.set_attachment_option(addition.attachment, addition.attach_to, addition.option, addition.value)
            continue
        if isinstance(addition, CopyAttachment):
            xml.copy_attachment(addition.attachment, addition.attach_to, addition.name, addition.without)
            continue
        if isinstance(addition, SetFrontierPrice):
            xml.set_frontier_price(addition.frontier, addition.unit_type, addition.cost)
            continue
        if isinstance(addition, SetProductionCost):
            xml.set_production_cost(addition.player, addition.unit_type, addition.cost, dict(addition.twin_costs))
            continue
        parent = next(xml.root.iter(addition.section), None)
        if parent is None and addition.section == "technologies":
            # A <technology> section without its list (WAW40's is empty, so TripleA defines no technology): the list
            # is made inside it, where game.dtd puts it (first, before any playerTech).
            parent = xml.technologies_list()
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


def _default_text(value: object) -> str | None:
    """An option's default value written out, or None for an option whose default cannot be written (a capital).

    Written where leaving the option out would leave its attachment with no option at all: game.dtd wants at least
    one, so the attachment would go, and a territory without its territoryAttachment loses what TripleA keeps there
    (its original owner, so who liberates it)."""
    if value is False:
        return "false"
    if isinstance(value, int) and not isinstance(value, bool) and value == 0:
        return "0"
    return None


class _Reader:
    """Builds the catalog and the board from a game file, as TripleA reads it."""

    def __init__(self, game: GameXml) -> None:
        self.game = game
        self.source = game.document.source
        self._prices: dict[str, Any] | None = None
        self._players: dict[str, Player] = {}

    def attachments(self, kind: str, name: str) -> list[Any]:
        """The attachments of a type and name, in file order (a walk of the list for each kind asked for: the board asks
        for one, and libxml2's XPath picking them cost twice the walk, making an XPath object of each comparison)."""
        found = self.game.attachment_list
        if found is None:
            return []
        return [a for a in found.iterchildren("attachment") if a.get("name") == name and a.get("type") == kind]

    def read(self, part: str) -> Any:
        """One part of the catalog or board read when first asked for (board.Unread)."""
        if self.game.document.modified:
            raise RuntimeError(f"the game's {part} asked for while its file is being written (read them before the first edit)")
        if part in ("costs", "frontiers", "player_frontiers"):
            return self._read_prices()[part]
        read: Any = getattr(self, f"_read_{part}")
        return read()

    def _where(self, element: Any) -> str:
        return f"{self.source}:{element.sourceline}"

    def _int(self, element: Any, attribute: str, value: str | None = None) -> int:
        text = element.get(attribute) if value is None else value
        try:
            return int(str(text).strip())
        except ValueError:
            raise InputError(f"{attribute} {text!r} is not a whole number", where=self._where(element)) from None

    def _quantity(self, element: Any) -> int:
        try:
            return int(element.get("quantity"))  # int() strips blanks as _int does: its call only for the message
        except (TypeError, ValueError):
            return self._int(element, "quantity")

    def board(self) -> Board:
        self._players = players = self._read_players()
        catalog = Catalog(players, self.game.unit_types(), Unread(self.read, (*Catalog.READ_WHEN_ASKED, "techs", "properties")))
        self._check_prices()
        nodes: dict[str, PlaceData] = new_places((territory.get("name", ""), _is_water(territory.get("water"))) for territory in self.game.territories())
        adjacency: dict[str, dict[str, dict[str, Any]]] = {name: {} for name in nodes}
        for t1, t2 in self.game.connections():
            if t1 != t2 and t1 in nodes and t2 in nodes:
                around = adjacency[t1]
                if t2 not in around:  # one edge-data dict for both directions, as networkx keeps it
                    around[t2] = adjacency[t2][t1] = {}
        for entry in self.game.territory_owners():
            place = nodes.get(entry.get("territory", ""))
            if place is not None:
                place["owner"] = territory_owner(entry)
        explicit_original: dict[str, str | None] = {}
        # As in TripleA, the last territoryAttachment of a territory replaces any earlier one.
        # A foreach template's are made as the engine makes them (variables put in): Invasion_USA.xml's capitals.
        made = foreach.made(self.game.root, self.attachments("territory", "territoryAttachment"))
        last_attachment = {a.get("attachTo", ""): a for a in made}
        for territory, attachment in last_attachment.items():
            if territory not in nodes:
                continue
            data = nodes[territory]
            for option in attachment.iterchildren("option"):
                name, value = option.get("name"), option.get("value", "")
                if name == "production":
                    try:
                        data["production"] = int(value)  # int() strips blanks as _int does: its call only for the message
                    except ValueError:
                        data["production"] = self._int(option, "value")
                elif name == "isImpassable":
                    data["impassable"] = value.strip().lower() == "true"
                elif name == "capital":
                    data["capital"] = value
                elif name == "victoryCity":
                    data["victory_city"] = 1 if value == "true" else 0 if value == "false" else self._int(option, "value")
                elif name == "originalOwner":
                    explicit_original[territory] = None if value == NULL_PLAYER else value
        for territory, data in nodes.items():
            data["original_owner"] = explicit_original.get(territory, data["owner"])
        for placement in self.game.unit_placements():
            place = nodes.get(placement.get("territory", ""))
            if place is not None:
                count = self._quantity(placement)
                key = (placement_owner(placement), placement.get("unitType", ""))
                units = place["units"]
                units[key] = units.get(key, 0) + count  # without Counter's __missing__, a Python call per placement
        pus = {name: 0 for name in catalog.players}
        for given in self.game.resources_given():
            if given.get("resource") == PUS and given.get("player") in pus:
                pus[given.get("player", "")] += self._int(given, "quantity")
        return Board(catalog, nodes, adjacency, pus, None, None, self.game.name)

    def _read_techs(self) -> dict[str, frozenset[str]]:
        techs: dict[str, frozenset[str]] = {}
        # Each player's techAttachment as TripleA keeps it: the last, a foreach template's made as the engine makes it.
        tech_attachments = {a.get("attachTo"): a for a in foreach.made(self.game.root, self.attachments("player", "techAttachment"))}
        for player in self._players:
            attachment = tech_attachments.get(player)
            if attachment is not None:
                owned = {o.get("name", "") for o in attachment.iterchildren("option") if o.get("value", "").lower() == "true"}
                techs[player] = frozenset(owned)
        return techs

    def _read_properties(self) -> dict[str, str]:
        return {p.get("name", ""): _property_value(p) for p in self.game.properties()}

    def _read_resources(self) -> tuple[str, ...]:
        return tuple(self.game.resources())

    def _read_technologies(self) -> tuple[str, ...] | None:
        # None: no <technology> section, and TripleA builds its own list; an empty one (WAW40) defines none.
        return tuple(self.game.technology_names()) if self.game.root.find("technology") is not None else None

    def _read_attachments(self) -> frozenset[tuple[str | None, str | None]]:
        return frozenset((a.get("attachTo"), a.get("name")) for a in self.game.attachments())

    def _read_players(self) -> dict[str, Player]:
        alliances: dict[str, list[str]] = {}
        for player, alliance in self.game.alliances():
            alliances.setdefault(player, []).append(alliance)
        steps = list(self.game.steps())
        order = self._turn_order(steps)
        run_by = self._players_by_delegate_class(steps)
        # A turn's purchase step spends PUs (PurchaseDelegate and its subclasses); NoPUPurchaseDelegate gives units
        # without PUs, and BidPurchaseDelegate is the bid phase, not the turn.
        spenders = set().union(
            *(who for cls, who in run_by.items() if cls.endswith("PurchaseDelegate") and cls not in ("NoPUPurchaseDelegate", "BidPurchaseDelegate"))
        )
        # TripleA's bid phase: BidPurchaseDelegate spends the "<power> bid" property's PUs, BidPlaceDelegate places
        # what they bought; a player needs a step of each.
        bidders = run_by.get("BidPurchaseDelegate", set()) & run_by.get("BidPlaceDelegate", set())
        players = {}
        for position, element in enumerate(self.game.players()):
            name = element.get("name", "")
            players[name] = Player(
                name=name,
                alliances=tuple(alliances.get(name, ())),
                turn_order=order.get(name, len(order) + position),
                optional=element.get("optional", "false") == "true",
                spends_pus=name in spenders,
                bid_phase=name in bidders,
            )
        return players

    def _read_unit_types(self) -> dict[str, UnitType]:
        # Each unit type's unitAttachment options by the name TripleA reads them (GameXml.unit_options' reading, from
        # the attachments grouped in the one pass above).
        options: dict[str, dict[str, str]] = {}
        for a in self.attachments("unitType", "unitAttachment"):
            options.setdefault(a.get("attachTo", ""), {}).update({option_name_as_read(o.get("name", "")): o.get("value", "") for o in a.iterchildren("option")})
        common = self._read_prices()["common"]
        unit_types = {}
        for name in self.game.unit_types():
            unit = options.get(name, {})
            # TripleA reads a boolean option in any case (check/javaread.py java_boolean: 2.7 takes true/false so).
            domain: Domain = "sea" if unit.get("isSea", "").lower() == "true" else "air" if unit.get("isAir", "").lower() == "true" else "land"
            unit_types[name] = UnitType(
                name=name,
                domain=domain,
                cost=common.get(name),
                transport_capacity=_int_or_zero(unit.get("transportCapacity")),
                transport_cost=_int_or_zero(unit.get("transportCost")),
                carrier_capacity=_int_or_zero(unit.get("carrierCapacity")),
                carrier_cost=_int_or_zero(unit.get("carrierCost")),
                movement=_int_or_zero(unit.get("movement")),
                # 2.7's UnitAttachment: isInfrastructure is set by itself, isFactory and the old isAA, never by the
                # isAAfor... options alone (Command Decision's flak-firing infantry, the 1940 games' aaGun fight).
                infrastructure=any(unit.get(flag, "").lower() == "true" for flag in ("isFactory", "isInfrastructure", "isAA")),
            )
        return unit_types

    def _players_by_delegate_class(self, steps: list[Any]) -> dict[str, set[str]]:
        """The players of the steps each delegate class runs (the class's last name: PurchaseDelegate)."""
        classes = self.game.delegates()
        run_by: dict[str, set[str]] = {}
        for step in steps:
            java_class = classes.get(step.get("delegate", ""), "").rsplit(".", 1)[-1]
            run_by.setdefault(java_class, set()).add(step.get("player", ""))
        return run_by

    def _turn_order(self, steps: list[Any]) -> dict[str, int]:
        # A player's place in the turn: the first non-bid step it plays, else its first step.
        order: dict[str, int] = {}
        for step in steps:
            player = step.get("player")
            delegate = step.get("delegate", "")
            if player and player not in order and delegate not in ("bid", "placeBid") and "Bid" not in step.get("name", ""):
                order[player] = len(order)
        return order

    def _check_prices(self) -> None:
        """Refuse, as the board is read, a price the prices (read when first asked for) could not read: a cost or a
        result whose quantity is not a whole number. Told by libxml2's list of the quantities; read the long way (which
        names the line) only where one is not a number."""
        production = self.game.root.find("production")
        if production is None:
            return
        quantities = _PRICE_QUANTITIES(production)
        if _PRICE_ELEMENTS(production) != len(quantities) or not all(_is_whole(q) for q in quantities):
            self._read_prices()

    def _read_prices(self) -> dict[str, Any]:
        if self._prices is None:
            costs, common, frontiers, player_frontiers = self._costs()
            self._prices = {"costs": costs, "common": common, "frontiers": frontiers, "player_frontiers": player_frontiers}
        return self._prices

    def _costs(self) -> tuple[dict[tuple[str, str], int], dict[str, int], dict[str, dict[str, int]], dict[str, str]]:
        rule_costs: dict[str, dict[str, int]] = {}
        for rule in self.game.production_rules():
            pus = 0
            for cost in rule.iterchildren("cost"):
                if cost.get("resource") == PUS:
                    pus += self._quantity(cost)
            results = list(rule.iterchildren("result"))
            if len(results) == 1 and pus:
                quantity = max(self._quantity(results[0]), 1)
                rule_costs[rule.get("name", "")] = {results[0].get("resourceOrUnit", ""): pus // quantity}
        frontiers: dict[str, dict[str, int]] = {}
        for frontier in self.game.production_frontiers():
            prices = frontiers.setdefault(frontier.get("name", ""), {})
            for listed in frontier.iterchildren("frontierRules"):
                prices.update(rule_costs.get(listed.get("name", ""), {}))
        player_frontiers = {p.get("player", ""): p.get("frontier", "") for p in self.game.player_productions()}
        costs: dict[tuple[str, str], int] = {}
        votes: dict[str, dict[int, int]] = {}  # unit -> cost -> how many players pay it, costs in the order first paid
        for player, frontier in player_frontiers.items():
            for unit, cost in frontiers.get(frontier, {}).items():
                costs[(player, unit)] = cost
                paid = votes.setdefault(unit, {})
                paid[cost] = paid.get(cost, 0) + 1
        # The cost most players pay, the first paid among equals (Counter.most_common(1), without its Python calls).
        common = {unit: max(paid.items(), key=_COUNT)[0] for unit, paid in votes.items()}
        for costs_of_rule in rule_costs.values():
            for unit, cost in costs_of_rule.items():
                common.setdefault(unit, cost)
        return costs, common, frontiers, player_frontiers


_PRICE_QUANTITIES = etree.XPath("productionRule/cost/@quantity | productionRule/result/@quantity", smart_strings=False)
_PRICE_ELEMENTS = etree.XPath("count(productionRule/cost | productionRule/result)")


def _is_water(value: str | None) -> bool:
    return value is not None and (value == "true" or value.strip().lower() == "true")


def _is_whole(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


def _property_value(element: Any) -> str:
    inner = next(element.iterchildren("value"), None)  # find("value"), without ElementPath's Python code
    if inner is not None:
        return inner.text or ""
    return element.get("value", "")


def _int_or_zero(text: str | None) -> int:
    try:
        return int(text) if text else 0
    except ValueError:
        return 0

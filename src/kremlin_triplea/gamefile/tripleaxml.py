"""TripleA concepts over a game file's XML: read them, and edit them minimally.

Each reader returns plain values; each writer edits the :class:`XmlDocument`
in the smallest way that makes the file say the new value (one attribute, one
option, one new line). Nothing here knows about Kremlin rules.
"""

from __future__ import annotations

import collections
from collections.abc import Iterator

from lxml import etree

from kremlin_triplea.errors import InputError, possessive
from kremlin_triplea.gamefile import foreach
from kremlin_triplea.gamefile.document import XmlDocument

TERRITORY_ATTACHMENT = "games.strategy.triplea.attachments.TerritoryAttachment"
TECH_ATTACHMENT = "games.strategy.triplea.attachments.TechAttachment"
PUS = "PUs"
#: TripleA's null player, the owner of what nobody owns (Constants.PLAYER_NAME_NEUTRAL): both 1.9 and 2.7 read an
#: owner of this name as that player (PlayerList.getPlayerId), declared or not, and 2.7 reads a unitPlacement
#: with a blank owner so too (GameParser.parseUnitPlacement).
NULL_PLAYER = "Neutral"


def territory_owner(element: etree._Element) -> str | None:
    """A territoryOwner's owner as the engine reads it: None for its null player."""
    owner = element.get("owner")
    return None if owner == NULL_PLAYER else owner


def placement_owner(element: etree._Element) -> str | None:
    """A unitPlacement's owner as the engine reads it: None for no owner, a blank one or the null player's name."""
    owner = element.get("owner")
    return None if owner is None or not owner.strip() or owner == NULL_PLAYER else owner


#: TripleA reads quantities, costs, PUs and numeric options as Java ints (Integer.parseInt):
#: a number outside this range makes a game the engine cannot open.
JAVA_INT_MIN, JAVA_INT_MAX = -(2**31), 2**31 - 1


def outside_java_int(text: str | None) -> bool:
    """Whether ``text`` is a whole number TripleA cannot read as a Java int."""
    if text is None:
        return False
    text = text.strip()
    if not text.lstrip("+-").isdecimal():
        return False
    return not JAVA_INT_MIN <= int(text) <= JAVA_INT_MAX


def java_int(value: int, what: str, *, where: str) -> str:
    """``value`` as text, refused (``InputError``) if TripleA could not read it as a Java int."""
    if not JAVA_INT_MIN <= value <= JAVA_INT_MAX:
        raise InputError(f"{what} would be {value:,}, beyond TripleA's limit of {JAVA_INT_MAX:,} (a Java int)", where=where)
    return str(value)


_NONE: tuple[etree._Element, ...] = ()
_WITH_FOREACH = etree.XPath("attachment[@foreach]")
_CONNECTION_T1 = etree.XPath("connection/@t1", smart_strings=False)
_CONNECTION_T2 = etree.XPath("connection/@t2", smart_strings=False)
_CONNECTION_COUNT = etree.XPath("count(connection)")
_OWNERS_OF = etree.XPath("territoryOwner[@territory = $territory]")


def option_name_as_read(name: str) -> str:
    """An attachment option's name as TripleA looks its property up: 2.7's GameParser.decapitalize ("TransportCapacity"
    sets transportCapacity, as 1.9's setter lookup did by capitalizing it): Command Decision's Convoy carries 14."""
    return name[:1].lower() + name[1:]


def _elements(parent: etree._Element | None, tag: str) -> Iterator[etree._Element]:
    # lxml's own iterator, not a generator around it: a generator's frame is resumed once per element, a sixth of
    # reading WW2v3-1942's board (issue 45 item 6).
    return parent.iterchildren(tag) if parent is not None else iter(_NONE)


class GameXml:
    """The sections of one TripleA game file, indexed by the names TripleA uses."""

    def __init__(self, document: XmlDocument) -> None:
        self.document = document
        root = document.root
        if root.tag != "game":
            raise InputError(
                f"not a TripleA game file: the root element is <{root.tag}>, expected <game>",
                where=document.source,
            )
        self.root = root
        self.map = root.find("map")
        self.initialize = root.find("initialize")
        self.attachment_list = root.find("attachmentList")
        self.property_list = root.find("propertyList")
        # territory -> its unitPlacements in file order; built on the first write, kept by set_unit_count
        self._placements_by_territory: dict[str, list[etree._Element]] | None = None
        # (type, attachTo, name) -> those attachments in file order; built on the first lookup, dropped by every
        # method that adds or removes an attachment (all of them are here): a big map's writer asks for a territory's
        # attachment thousands of times, and each walk of the attachment list is thousands of elements.
        self._attachments_by_key: dict[tuple[str | None, str | None, str | None], list[etree._Element]] | None = None
        # (type, name) -> the foreach attachments of that name, found on the first write that asks
        self._templates: dict[tuple[str | None, str], list[etree._Element]] = {}
        if self.map is None:
            raise InputError("not a TripleA game file: it has no <map>", where=document.source)

    # -- reading ---------------------------------------------------------

    @property
    def name(self) -> str:
        info = self.root.find("info")
        return info.get("name", "") if info is not None else ""

    def territories(self) -> Iterator[etree._Element]:
        return _elements(self.map, "territory")

    def connections(self) -> Iterator[tuple[str, str]]:
        """Each ``<connection>``'s two ends (a missing one ""), in file order."""
        if self.map is None:
            return iter(_NONE)
        firsts, seconds = _CONNECTION_T1(self.map), _CONNECTION_T2(self.map)
        if len(firsts) == len(seconds) == _CONNECTION_COUNT(self.map):
            # Every connection names both ends (each at most once): the two lists, read by libxml2 without an element
            # made in Python for each connection, pair up.
            return zip(firsts, seconds)
        return ((c.get("t1", ""), c.get("t2", "")) for c in self.map.iterchildren("connection"))

    def players(self) -> Iterator[etree._Element]:
        return _elements(self.root.find("playerList"), "player")

    def alliances(self) -> Iterator[tuple[str, str]]:
        for alliance in _elements(self.root.find("playerList"), "alliance"):
            yield alliance.get("player", ""), alliance.get("alliance", "")

    def resources(self) -> Iterator[str]:
        for resource in _elements(self.root.find("resourceList"), "resource"):
            yield resource.get("name", "")

    def unit_types(self) -> Iterator[str]:
        for unit in _elements(self.root.find("unitList"), "unit"):
            yield unit.get("name", "")

    def steps(self) -> Iterator[etree._Element]:
        game_play = self.root.find("gamePlay")
        if game_play is not None:
            yield from game_play.iter("step")

    def delegates(self) -> dict[str, str]:
        """Each ``<delegate>``'s name -> its Java class (what a step with that delegate does)."""
        game_play = self.root.find("gamePlay")
        return {d.get("name", ""): d.get("javaClass", "") for d in _elements(game_play, "delegate")} if game_play is not None else {}

    def production_rules(self) -> Iterator[etree._Element]:
        return _elements(self.root.find("production"), "productionRule")

    def production_frontiers(self) -> Iterator[etree._Element]:
        return _elements(self.root.find("production"), "productionFrontier")

    def technology_names(self) -> Iterator[str]:
        """The ``<techname>`` names of the file's ``<technology>`` section (none: TripleA builds its own list)."""
        technology = self.root.find("technology")
        technologies = technology.find("technologies") if technology is not None else None
        for element in _elements(technologies, "techname"):
            yield element.get("name", "")

    def player_productions(self) -> Iterator[etree._Element]:
        return _elements(self.root.find("production"), "playerProduction")

    def attachments(self, *, kind: str | None = None, attach_to: str | None = None, name: str | None = None) -> Iterator[etree._Element]:
        if kind is not None and attach_to is not None and name is not None:
            if self._attachments_by_key is None:
                index: dict[tuple[str | None, str | None, str | None], list[etree._Element]] = {}
                for attachment in _elements(self.attachment_list, "attachment"):
                    index.setdefault((attachment.get("type"), attachment.get("attachTo"), attachment.get("name")), []).append(attachment)
                self._attachments_by_key = index
            return iter(tuple(self._attachments_by_key.get((kind, attach_to, name), ())))
        return self._matching_attachments(kind, attach_to, name)

    def unit_options(self) -> dict[str, dict[str, str]]:
        """Each unit type's unitAttachment options by the name TripleA reads (:func:`option_name_as_read`), a later
        option of one name replacing an earlier one, as the engine sets them in order."""
        found: dict[str, dict[str, str]] = {}
        for attachment in self.attachments(kind="unitType", name="unitAttachment"):
            options = found.setdefault(attachment.get("attachTo", ""), {})
            options.update({option_name_as_read(o.get("name", "")): o.get("value", "") for o in attachment.iterchildren("option")})
        return found

    def _matching_attachments(self, kind: str | None, attach_to: str | None, name: str | None) -> Iterator[etree._Element]:
        for attachment in _elements(self.attachment_list, "attachment"):
            if kind is not None and attachment.get("type") != kind:
                continue
            if attach_to is not None and attachment.get("attachTo") != attach_to:
                continue
            if name is not None and attachment.get("name") != name:
                continue
            yield attachment

    # TripleA keeps one attachment per name and owner: a later duplicate replaces an
    # earlier one whole (GameParser -> NamedAttachable.addAttachment, a map put).

    def territory_attachment(self, territory: str) -> etree._Element | None:
        return _last(self.attachments(kind="territory", attach_to=territory, name="territoryAttachment"))

    def territory_owners(self) -> Iterator[etree._Element]:
        return _elements(self._initialize_section("ownerInitialize"), "territoryOwner")

    def unit_placements(self) -> Iterator[etree._Element]:
        return _elements(self._initialize_section("unitInitialize"), "unitPlacement")

    def resources_given(self) -> Iterator[etree._Element]:
        return _elements(self._initialize_section("resourceInitialize"), "resourceGiven")

    def properties(self) -> Iterator[etree._Element]:
        return _elements(self.property_list, "property")

    def property_element(self, name: str) -> etree._Element | None:
        return next((p for p in self.properties() if p.get("name") == name), None)

    def _initialize_section(self, tag: str) -> etree._Element | None:
        return self.initialize.find(tag) if self.initialize is not None else None

    # -- writing ---------------------------------------------------------

    def set_territory_owner(self, territory: str, owner: str | None) -> None:
        # Picked by libxml2: a walk of every territoryOwner in Python for each owner written (hundreds on a big map)
        section = self._initialize_section("ownerInitialize")
        entries = _OWNERS_OF(section, territory=territory) if section is not None else []
        for extra in entries[1:]:
            self.document.remove(extra)
        if owner is None:
            if entries:
                self.document.remove(entries[0])
            return
        if entries:
            self.document.set_attribute(entries[0], "owner", owner)
            return
        section = self._ensure_initialize_section("ownerInitialize")
        self.document.append(section, etree.Element("territoryOwner", territory=territory, owner=owner))

    def set_unit_count(self, territory: str, owner: str | None, unit_type: str, count: int) -> None:
        """Make the file place exactly ``count`` units of this kind in ``territory``."""
        in_territory = self._unit_placements_in(territory)
        same = [e for e in in_territory if e.get("unitType") == unit_type and placement_owner(e) == owner]
        # Damaged units (hitsTaken, unitDamage) count as units, as the reader and TripleA count them; new units are
        # added undamaged, and units are taken away undamaged first.
        healthy = [e for e in same if e.get("hitsTaken") is None and e.get("unitDamage") is None]
        current = sum(self._quantity(e) for e in same)
        if count == current:
            return
        java_int(count, f"the number of {unit_type} in {territory}", where=self.document.source)
        if count > current:
            if healthy:
                last = healthy[-1]
                self.document.set_attribute(last, "quantity", str(self._quantity(last) + count - current))
                return
            attributes = {"unitType": unit_type, "territory": territory, "quantity": str(count - current)}
            if owner is not None:
                attributes["owner"] = owner
            new = etree.Element("unitPlacement", attributes)
            if in_territory:
                self.document.insert_after(in_territory[-1], new)
            else:
                self.document.append(self._ensure_initialize_section("unitInitialize"), new)
            in_territory.append(new)
            return
        excess = current - count
        for element in [*reversed(healthy), *[e for e in same if e not in healthy]]:
            quantity = self._quantity(element)
            if quantity <= excess:
                self.document.remove(element)
                in_territory.remove(element)
                excess -= quantity
            else:
                self.document.set_attribute(element, "quantity", str(quantity - excess))
                excess = 0
            if excess == 0:
                break

    def _unit_placements_in(self, territory: str) -> list[etree._Element]:
        """The territory's unitPlacements in file order: the index's own list, which set_unit_count keeps current."""
        if self._placements_by_territory is None:
            index: dict[str, list[etree._Element]] = {}
            for element in self.unit_placements():
                index.setdefault(element.get("territory", ""), []).append(element)
            self._placements_by_territory = index
        return self._placements_by_territory.setdefault(territory, [])

    def set_territory_option(self, territory: str, option: str, value: str | None, *, default: str | None = None) -> None:
        """Set (or, with ``None``, remove) one option of the territory's territoryAttachment.

        ``default`` is the option's default written out: used instead of removing the attachment's only option, so
        the territory keeps its territoryAttachment."""
        attachments = self._attachments_kept("territory", "territoryAttachment", territory)
        if not attachments:
            if value is None:
                return
            attachments = [self._new_attachment("territoryAttachment", territory, TERRITORY_ATTACHMENT, "territory")]
        last = attachments[-1]
        # TripleA reads only the last; an earlier exact copy (published games repeat some, e.g. Global_War.xml's
        # Corsica) gets the same edit, so the file keeps saying one thing rather than two different things.
        for attachment in [*(a for a in attachments[:-1] if _options(a) == _options(last)), last]:
            self._set_option(attachment, option, value, default=default)

    def _attachments_kept(self, kind: str | None, name: str, target: str) -> list[etree._Element]:
        """The attachments ``name`` of ``target`` in the file, the last the one TripleA keeps; when a ``foreach``
        template makes the one kept, it is first written out as ``target``'s own (and ``target`` taken out of the
        template), so an edit changes it and no second attachment replaces the template's whole (issue 46)."""
        attachments = list(self.attachments(kind=kind, attach_to=target, name=name))
        templates = self._foreach_templates(kind, name)
        made = foreach.template_for(self.root, templates, target) if templates else None
        if made is not None and (not attachments or self.attachment_list.index(made[0]) > self.attachment_list.index(attachments[-1])):
            self._attachments_by_key = None
            attachments = [foreach.split_off(self.document, self.root, *made)]
        return attachments

    def _foreach_templates(self, kind: str | None, name: str) -> list[etree._Element]:
        """The ``foreach`` attachments named ``name`` (of type ``kind``; None: any), found once."""
        if (kind, name) not in self._templates:
            # The attachments with a foreach are picked out by libxml2 (a walk of every attachment in Python was a
            # twentieth of writing a big game), then asked as before.
            candidates = _WITH_FOREACH(self.attachment_list) if self.attachment_list is not None else []
            self._templates[(kind, name)] = [
                a for a in candidates if (kind is None or a.get("type") == kind) and a.get("name") == name and a.get("foreach", "").strip()
            ]
        return self._templates[(kind, name)]

    def set_tech(self, player: str, tech: str, owned: bool) -> None:
        kept = self._attachments_kept("player", "techAttachment", player)
        attachment = kept[-1] if kept else None
        if attachment is None:
            if not owned:
                return
            attachment = self._new_attachment("techAttachment", player, TECH_ATTACHMENT, "player")
        self._set_option(attachment, tech, "true" if owned else "false")

    def set_resource(self, player: str, resource: str, quantity: int) -> None:
        java_int(quantity, f"{possessive(player)} {resource}", where=self.document.source)
        for given in self.resources_given():
            if given.get("player") == player and given.get("resource") == resource:
                self.document.set_attribute(given, "quantity", str(quantity))
                return
        section = self._ensure_initialize_section("resourceInitialize")
        new = etree.Element("resourceGiven", player=player, resource=resource, quantity=str(quantity))
        self.document.append(section, new)

    def set_game_name(self, name: str) -> None:
        info = self.root.find("info")
        if info is None:
            raise InputError("the game file has no <info> to name the game in", where=self.document.source)
        self.document.set_attribute(info, "name", name)

    def set_property(self, name: str, value: str) -> None:
        if outside_java_int(value):
            raise InputError(f"game option {name!r} would be {value}, beyond TripleA's limit of {JAVA_INT_MAX:,} (a Java int)", where=self.document.source)
        element = self.property_element(name)
        if element is not None:
            inner = element.find("value")
            if inner is not None:
                self.document.set_text(inner, value, cdata=True)
            else:
                self.document.set_attribute(element, "value", value)
            number = element.find("number")
            if number is not None and value.lstrip("-").isdecimal():
                # TripleA refuses a number property whose value lies outside its declared range
                # (NumberProperty: "Default value out of range"): a value beyond it widens the range.
                limit_max, limit_min = number.get("max", ""), number.get("min", "")
                if limit_max.lstrip("-").isdecimal() and int(value) > int(limit_max):
                    self.document.set_attribute(number, "max", value)
                if limit_min.lstrip("-").isdecimal() and int(value) < int(limit_min):
                    self.document.set_attribute(number, "min", value)
            return
        if self.property_list is None:
            self.property_list = self.document.append(self.root, etree.Element("propertyList"))
        new = etree.Element("property", name=name, value=value, editable="false")
        if value in ("true", "false"):
            etree.SubElement(new, "boolean")
        elif value.lstrip("-").isdecimal():
            etree.SubElement(new, "number", min="0", max=str(max(1000, int(value))))
        else:
            etree.SubElement(new, "string")
        self.document.append(self.property_list, new)

    def set_attachment_option(self, name: str, attach_to: str, option: str, value: object) -> None:
        """Set, extend (``("+", names)``: appended to its ``:`` list) or remove (None) an existing attachment's option."""
        attachment = next(self.attachments(attach_to=attach_to, name=name), None)
        if attachment is None:  # one a foreach template makes, written out as its own
            attachment = next(iter(self._attachments_kept(None, name, attach_to)), None)
        if attachment is None:
            raise InputError(f"no attachment {name!r} on {attach_to!r} to set {option} in", where=self.document.source)
        if isinstance(value, tuple) and value and value[0] == "+":
            current = next((o.get("value", "") for o in attachment.iterchildren("option") if o.get("name") == option), "")
            listed = [v for v in current.split(":") if v]
            value = ":".join(listed + [v for v in value[1] if v not in listed])
        self._set_option(attachment, option, None if value is None else str(value))

    def copy_attachment(self, name: str, attach_to: str, new_name: str, without: tuple[str, ...] = ()) -> None:
        """Copy the attachment ``name`` of ``attach_to`` right after it as ``new_name``, minus the ``without`` options."""
        attachment = _last(self.attachments(attach_to=attach_to, name=name))
        if attachment is None:  # an element is falsy when it has no children: asked by identity, not truth
            attachment = _last(iter(self._attachments_kept(None, name, attach_to)))
        if attachment is None:
            raise InputError(f"no attachment {name!r} on {attach_to!r} to copy", where=self.document.source)
        copy = etree.fromstring(etree.tostring(attachment))
        copy.tail = None
        copy.set("name", new_name)
        self._attachments_by_key = None
        for option in list(copy.iterchildren("option")):
            if option.get("name") in without:
                copy.remove(option)
        if not list(copy.iterchildren("option")):
            raise InputError(f"the copy of {name!r} on {attach_to!r} would have no options left", where=self.document.source)
        self.document.insert_after(attachment, copy)

    def set_production_cost(self, player: str, unit_type: str, cost: int, twin_costs: dict[str, int | None] | None = None) -> None:
        """Give ``player`` its own production rule for ``unit_type`` at ``cost`` (and its own frontier if shared).

        ``twin_costs``: suffix -> price. A technology that swaps frontiers (TripleA's Industrial
        Technology, Improved Shipyards) moves a player from its frontier F to the frontier named
        F + its suffix and does nothing if that is missing; so the player's own frontier gets its own
        twin for each suffix, copied from the twin of the frontier it had, selling the unit at that
        price (None: the twin does not sell it, and is only copied).
        """
        java_int(cost, f"{possessive(player)} cost of {unit_type}", where=self.document.source)
        for suffix, twin_cost in (twin_costs or {}).items():
            if twin_cost is not None:
                java_int(twin_cost, f"{possessive(player)} cost of {unit_type} in its {suffix} frontier", where=self.document.source)
        frontier_before = self._frontier_of(player)
        self._set_rule_cost(player, unit_type, cost, suffix="")
        own = self._frontier_of(player)
        for suffix, twin_cost in (twin_costs or {}).items():
            twin_name = f"{own}{suffix}"
            frontiers = {f.get("name"): f for f in self.production_frontiers()}
            if twin_name not in frontiers:
                source = frontiers.get(f"{frontier_before}{suffix}")
                if source is None:
                    raise InputError(f"{possessive(player)} frontier {frontier_before!r} has no {suffix} twin to copy", where=self.document.source)
                copy = etree.fromstring(etree.tostring(source))
                copy.tail = None
                copy.set("name", twin_name)
                self.document.insert_after(frontiers[own] if own in frontiers else source, copy)
            if twin_cost is not None:
                self._set_twin_rule_cost(player, twin_name, unit_type, twin_cost)

    def set_frontier_price(self, frontier_name: str, unit_type: str, cost: int) -> None:
        """The frontier ``frontier_name`` sells ``unit_type`` for ``cost``: its rule is changed where only it
        lists the rule, else the frontier gets its own copy of the rule."""
        java_int(cost, f"the cost of {unit_type} in {frontier_name}", where=self.document.source)
        frontier = next((f for f in self.production_frontiers() if f.get("name") == frontier_name), None)
        if frontier is None:
            raise InputError(f"no production frontier {frontier_name!r}", where=self.document.source)
        rules = {r.get("name"): r for r in self.production_rules()}
        listed = next(
            (
                e
                for e in frontier.iterchildren("frontierRules")
                if any(r.get("resourceOrUnit") == unit_type for r in rules.get(e.get("name"), etree.Element("x")).iter("result"))
            ),
            None,
        )
        if listed is None:
            raise InputError(f"the frontier {frontier_name!r} has no rule buying {unit_type}", where=self.document.source)
        rule = rules[listed.get("name")]
        shared = sum(1 for f in self.production_frontiers() for e in f.iterchildren("frontierRules") if e.get("name") == rule.get("name")) > 1
        if shared:
            copy = etree.fromstring(etree.tostring(rule))
            copy.tail = None
            copy.set("name", f"{rule.get('name')}{frontier_name}")
            self.document.insert_after(rule, copy)
            self.document.set_attribute(listed, "name", copy.get("name"))
            rule = copy
        for element in rule.iter("cost"):
            self.document.set_attribute(element, "quantity", str(cost))

    def _frontier_of(self, player: str) -> str:
        link = next((p for p in self.player_productions() if p.get("player") == player), None)
        if self.root.find("production") is None or link is None:
            raise InputError(f"{player} has no production frontier", where=self.document.source)
        return link.get("frontier", "")

    def _set_twin_rule_cost(self, player: str, twin_name: str, unit_type: str, cost: int) -> None:
        """The twin frontier (the player's own) buys ``unit_type`` through a rule of the player's at ``cost``."""
        twin = next(f for f in self.production_frontiers() if f.get("name") == twin_name)
        rules = {r.get("name"): r for r in self.production_rules()}
        listed = list(twin.iterchildren("frontierRules"))
        old = next((e for e in listed if any(r.get("resourceOrUnit") == unit_type for r in rules.get(e.get("name"), etree.Element("x")).iter("result"))), None)
        if old is None:
            raise InputError(f"the frontier {twin_name!r} has no rule buying {unit_type}", where=self.document.source)
        rule = rules[old.get("name")]
        new_name = rule.get("name") if rule.get("name", "").endswith(player) else f"{rule.get('name')}{player}"
        if new_name in rules and new_name != rule.get("name"):
            new_rule = rules[new_name]
        elif new_name == rule.get("name"):
            new_rule = rule
        else:
            new_rule = etree.fromstring(etree.tostring(rule))
            new_rule.tail = None
            new_rule.set("name", new_name)
            self.document.insert_after(rule, new_rule)
        for element in new_rule.iter("cost"):
            self.document.set_attribute(element, "quantity", str(cost))
        self.document.set_attribute(old, "name", new_name)

    def _set_rule_cost(self, player: str, unit_type: str, cost: int, suffix: str) -> None:
        production = self.root.find("production")
        link = next((p for p in self.player_productions() if p.get("player") == player), None)
        if production is None or link is None:
            raise InputError(f"{player} has no production frontier to change the price of {unit_type} in", where=self.document.source)
        frontier = next((f for f in self.production_frontiers() if f.get("name") == link.get("frontier")), None)
        rules = {r.get("name"): r for r in self.production_rules()}
        listed = [e for e in frontier.iterchildren("frontierRules")] if frontier is not None else []
        old = next((e for e in listed if any(r.get("resourceOrUnit") == unit_type for r in rules.get(e.get("name"), etree.Element("x")).iter("result"))), None)
        if frontier is None or old is None:
            raise InputError(f"{possessive(player)} frontier has no rule buying {unit_type}", where=self.document.source)
        rule = rules[old.get("name")]
        new_rule = etree.fromstring(etree.tostring(rule))
        new_rule.tail = None
        new_rule.set("name", f"{rule.get('name')}{player}")
        for element in new_rule.iter("cost"):
            element.set("quantity", str(cost))
        self.document.insert_after(rule, new_rule)
        if sum(1 for p in self.player_productions() if p.get("frontier") == frontier.get("name")) > 1:
            # Shared with other players: this player gets a copy of the frontier.
            copy = etree.fromstring(etree.tostring(frontier))
            copy.tail = None
            copy.set("name", f"{frontier.get('name')}{player}")
            self.document.insert_after(frontier, copy)
            self.document.set_attribute(link, "frontier", copy.get("name"))
            frontier = copy
            old = next(e for e in frontier.iterchildren("frontierRules") if e.get("name") == rule.get("name"))
        self.document.set_attribute(old, "name", new_rule.get("name"))

    def add_element(self, parent: etree._Element, xml: str, *, after: etree._Element | None = None) -> etree._Element:
        element = etree.fromstring(xml)
        self._placements_by_territory = None  # the addition may be a unitPlacement
        self._attachments_by_key = None  # or an attachment
        if after is not None:
            return self.document.insert_after(after, element)
        return self.document.append(parent, element)

    def _quantity(self, element: etree._Element) -> int:
        try:
            return int(element.get("quantity", "0"))
        except ValueError:
            where = f"{self.document.source}:{element.sourceline}"
            raise InputError(f"quantity {element.get('quantity')!r} is not a whole number", where=where) from None

    def _set_option(self, attachment: etree._Element, option: str, value: str | None, *, default: str | None = None) -> None:
        options = list(attachment.iterchildren("option"))
        existing = [o for o in options if o.get("name") == option]
        if value is None:
            if existing and len(existing) == len(options):
                if default is not None:  # the attachment stays, saying the default: TripleA keeps more there than options
                    for element in existing[1:]:
                        self.document.remove(element)
                    self.document.set_attribute(existing[0], "value", default)
                    return
                # game.dtd requires at least one option: an attachment left empty goes.
                self.document.remove(attachment)
                self._attachments_by_key = None
                return
            for element in existing:
                self.document.remove(element)
            return
        if existing:
            self.document.set_attribute(existing[0], "value", value)
        else:
            self.document.append(attachment, etree.Element("option", name=option, value=value))

    def _new_attachment(self, name: str, attach_to: str, java_class: str, kind: str) -> etree._Element:
        if self.attachment_list is None:
            self.attachment_list = self._insert_section("attachmentList", before=("initialize", "propertyList"))
        new = etree.Element("attachment", name=name, attachTo=attach_to, javaClass=java_class, type=kind)
        self._attachments_by_key = None
        same_kind = list(self.attachments(kind=kind, name=name))
        if same_kind:
            return self.document.insert_after(same_kind[-1], new)
        return self.document.append(self.attachment_list, new)

    def _ensure_initialize_section(self, tag: str) -> etree._Element:
        if self.initialize is None:
            self.initialize = self._insert_section("initialize", before=("propertyList",))
        section = self.initialize.find(tag)
        if section is None:
            section = self.document.append(self.initialize, etree.Element(tag))
        return section

    def technologies_list(self) -> etree._Element | None:
        """The <technologies> of the file's <technology> section, made when the section has no element yet (None:
        no section, or one with other elements first, where a list made last would break game.dtd's order)."""
        technology = self.root.find("technology")
        if technology is None:
            return None
        found = technology.find("technologies")
        if found is not None or any(isinstance(child.tag, str) for child in technology):
            return found
        return self.document.append(technology, etree.Element("technologies"))

    def _insert_section(self, tag: str, *, before: tuple[str, ...]) -> etree._Element:
        # game.dtd fixes the order of <game>'s sections; put the new one before the first that must follow it.
        new = etree.Element(tag)
        children = [c for c in self.root if isinstance(c.tag, str)]
        follower = next((c for c in children if c.tag in before), None)
        if follower is None:
            return self.document.append(self.root, new)
        index = children.index(follower)
        if index == 0:
            raise InputError(f"cannot place a new <{tag}> section", where=self.document.source)
        return self.document.insert_after(children[index - 1], new)


def _options(attachment: etree._Element) -> list[tuple[str | None, str | None]]:
    return [(o.get("name"), o.get("value")) for o in attachment.iterchildren("option")]


def _last(elements: Iterator[etree._Element]) -> etree._Element | None:
    last = collections.deque(elements, maxlen=1)
    return last[0] if last else None

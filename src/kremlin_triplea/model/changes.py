"""The primitive changes a rule can make to a game, as small frozen values.

Every option, scenario, house rule and bid is a list of these. A
:class:`~kremlin_triplea.model.board.Board` applies them (``push``/``pop``); when a
game is saved, the difference between the board it started from and the board
it ends with is written into the game file.
"""

from __future__ import annotations

import attrs

from kremlin_triplea.errors import possessive


@attrs.frozen
class PlaceUnits:
    territory: str
    owner: str | None
    unit_type: str
    count: int = 1

    def __str__(self) -> str:
        return f"place {self.count} {self.owner or 'neutral'} {self.unit_type} in {self.territory}"


@attrs.frozen
class RemoveUnits:
    territory: str
    owner: str | None
    unit_type: str
    count: int = 1

    def __str__(self) -> str:
        return f"remove {self.count} {self.owner or 'neutral'} {self.unit_type} from {self.territory}"


@attrs.frozen
class SetOwner:
    """Give ``territory`` to ``owner``.

    With ``captured`` the territory keeps its original owner, so TripleA treats
    it as conquered (liberation returns it); without, the new owner also
    becomes the original owner (the territory was always theirs).
    """

    territory: str
    owner: str | None
    captured: bool = True

    def __str__(self) -> str:
        how = "capture" if self.captured else "give"
        return f"{how} {self.territory} to {self.owner or 'nobody'}"


@attrs.frozen
class SetTerritory:
    """Set one territory property: production, impassable, capital, victory_city, original_owner."""

    territory: str
    field: str
    value: object

    def __str__(self) -> str:
        # Words a player reads (the value notes and summaries print them): never a field's id nor None.
        place, value = self.territory, self.value
        if self.field == "capital":
            return f"make {place} the capital of {value}" if value else f"{place} is no longer a capital"
        if self.field == "impassable":
            return f"make {place} {'impassable' if value else 'passable'}"
        if self.field == "victory_city":
            if not value:
                return f"{place} is no longer a victory city"
            return f"make {place} a victory city" + (f" counting {value}" if not isinstance(value, bool) and value != 1 else "")
        words = self.field.replace("_", " ")
        return f"set the {words} of {place} to {value if value is not None else 'nothing'}"


@attrs.frozen
class SetPUs:
    player: str
    amount: int

    def __str__(self) -> str:
        return f"set {possessive(self.player)} starting PUs to {self.amount}"


@attrs.frozen
class AddPUs:
    """Give ``player`` ``amount`` more starting PUs (fewer if negative): rules that each add PUs add up."""

    player: str
    amount: int

    def __str__(self) -> str:
        return f"{'add' if self.amount >= 0 else 'take'} {abs(self.amount)} PUs {'to' if self.amount >= 0 else 'from'} {possessive(self.player)} starting PUs"


@attrs.frozen
class GrantTech:
    player: str
    tech: str

    def __str__(self) -> str:
        return f"give {self.player} the technology {self.tech}"


@attrs.frozen
class SetProperty:
    name: str
    value: str

    def __str__(self) -> str:
        return f"set game option {self.name!r} to {self.value!r}"


@attrs.frozen
class SetGameName:
    """Rename the game: the ``name`` of its ``<info>``, shown in TripleA's game chooser."""

    name: str

    def __str__(self) -> str:
        return f"name the game {self.name!r}"


@attrs.frozen
class AddXml:
    """Add an element the board does not model (an attachment, a turn step).

    ``section`` is the tag of the parent (``attachmentList``, ``sequence``);
    ``after`` optionally names the ``name`` attribute of the sibling to follow.
    """

    section: str
    xml: str
    after: str | None = None
    description: str = ""

    def __str__(self) -> str:
        return self.description or f"add to <{self.section}>: {self.xml}"


@attrs.frozen
class SetAttachmentOption:
    """Set one option of an existing attachment (``value`` None removes it; ``("+", names)`` extends its ``:`` list)."""

    attachment: str
    attach_to: str
    option: str
    value: object

    def __str__(self) -> str:
        return f"set option {self.option} of {self.attachment} on {self.attach_to} to {_option_value(self.value)}"


@attrs.frozen
class CopyAttachment:
    """Copy an existing attachment, right after it, under a new ``name``, leaving out the ``without`` options.

    TripleA resolves a condition named in ``conditions`` by taking the first
    player (in the player list) with an attachment of that name, so a condition
    must carry a name no other player uses: a copy gives a game's own condition one.
    """

    attachment: str
    attach_to: str
    name: str
    without: tuple[str, ...] = ()

    def __str__(self) -> str:
        left_out = f" without {', '.join(self.without)}" if self.without else ""
        return f"copy {self.attachment} of {self.attach_to} as {self.name}{left_out}"


@attrs.frozen
class SetProductionCost:
    """``player`` buys ``unit_type`` for ``cost`` PUs: its own production rule in its own frontier.

    ``twin_costs``: (suffix, price) for each twin frontier a technology may move the player to
    (TripleA's Industrial Technology moves a player with frontier F to ``F + "IndustrialTechnology"``,
    Improved Shipyards to ``F + "Shipyards"``). A player given its own frontier gets its own twins,
    copied from the game's, so the technologies still work; a price of None: the twin does not
    sell the unit.
    """

    player: str
    unit_type: str
    cost: int
    twin_costs: tuple[tuple[str, int | None], ...] = ()

    def __str__(self) -> str:
        twins = "".join(f" ({c} in its {s} frontier)" for s, c in self.twin_costs if c is not None)
        return f"{self.player} buy {self.unit_type} for {self.cost} PUs{twins}"


@attrs.frozen
class SetFrontierPrice:
    """The game's production frontier ``frontier`` (every player it serves) sells ``unit_type`` for ``cost`` PUs.

    For a frontier a technology moves players to (``productionIndustrialTechnology``): the rule's prices
    for the technology, for every power.
    """

    frontier: str
    unit_type: str
    cost: int

    def __str__(self) -> str:
        return f"{self.unit_type} costs {self.cost} PUs in the frontier {self.frontier}"


# Changes to parts of the game file the board does not model: kept in order
# (Board.extra_xml) and written as they are.
XmlChange = AddXml | SetAttachmentOption | CopyAttachment | SetProductionCost | SetFrontierPrice

Change = (
    PlaceUnits
    | RemoveUnits
    | SetOwner
    | SetTerritory
    | SetPUs
    | AddPUs
    | GrantTech
    | SetProperty
    | SetGameName
    | AddXml
    | SetAttachmentOption
    | CopyAttachment
    | SetProductionCost
    | SetFrontierPrice
)

TERRITORY_FIELDS = ("production", "impassable", "capital", "victory_city", "original_owner")


def _option_value(value: object) -> str:
    """A game option's value as TripleA's settings show it: true/false, a number, a text in quotes; none when removed."""
    if value is None:
        return "none (removed)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "+":
        return "its list and " + ", ".join(str(v) for v in value[1])
    return str(value) if isinstance(value, int | float) else f'"{value}"'

"""What TripleA 2.x cannot make of a game's attachments and delegates, judged by the tables derived from it.

2.7's ``GameParser.parseAttachment`` makes each attachment of the class its ``javaClass`` names (the name after the
last dot, one of ``XmlGameElementMapper``'s: check/engine_tables.py) on the thing its ``type`` names, then sets each
option as ``setOptions`` does: a ``name`` or ``value`` absent or empty leaves the option out; the name is
decapitalized (``TransportCapacity`` is ``transportCapacity``, ``CANBLITZ`` is ``cANBLITZ``) and legacy names are
renamed; the class must have a property of that name ("Missing property definition for option"), and the property
refuses a value it cannot read (an ``int`` one what ``Integer.parseInt`` refuses, a ``boolean`` one anything but
``true``/``false`` in any case). A delegate's ``javaClass`` must name one of the delegates 2.7 makes.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

import attrs
from lxml import etree

from kremlin_triplea.check.engine_tables import attachment_class, is_delegate, option_kind, options_of, triplea2
from kremlin_triplea.check.game_index import REFUSES, TRIPLEA_2, Finding, GameIndex, property_value, unknown
from kremlin_triplea.check.javaread import java_boolean, java_int, shown, why_not_java_int
from kremlin_triplea.check.option_grammar import takes, why_not
from kremlin_triplea.gamefile.tripleaxml import option_name_as_read


def option_name(name: str) -> str:
    """The property an option of ``name`` sets in 2.7: decapitalized (GameParser.decapitalize), then a legacy name
    renamed."""
    name = option_name_as_read(name)
    return triplea2()["legacy_option_names"].get(name.lower(), name)  # matched ignoring case


def _ignored(name: str, value: str) -> bool:
    """Options 2.7 skips (LegacyPropertyMapper.ignoreOptionName)."""
    return name.lower() == "takeunitcontrol" or (name.lower() == "giveunitcontrol" and value in ("true", "false"))


def _legacy_value(name: str, value: str) -> str:
    """A legacy option value as 2.7 reads it (LegacyPropertyMapper.mapLegacyOptionValue)."""
    if name.lower() == "victorycity" and value.lower() in ("true", "false"):
        return "1" if value.lower() == "true" else "0"
    if name.lower() == "conditiontype" and value.lower() == "xor":
        return "1"
    return value


def attachments_the_engine_cannot_make(game: GameIndex) -> Iterator[Finding]:
    """Attachments of a ``javaClass`` 2.x has no attachment for, or of a ``type`` it attaches nothing to."""
    if game.engine != TRIPLEA_2:
        return
    known = sorted(triplea2()["attachments"])
    for element in game.attachments:
        java_class = element.get("javaClass")
        if java_class is None:
            yield element, f"attachment {element.get('name')!r} has no javaClass; {REFUSES}"
        elif attachment_class(java_class) is None:
            yield element, f"attachment {element.get('name')!r} javaClass: {unknown('attachment class', java_class.rsplit('.', 1)[-1], known)}; {REFUSES}"
        type_ = element.get("type") or "unitType"
        attachable = triplea2()["attachable_types"]  # GameParser.findAttachment's switch, matched exactly
        if type_ not in attachable:
            yield element, f"attachment {element.get('name')!r} type: {unknown('attachment type', type_, attachable)}; {REFUSES}"


def options_the_engine_cannot_set(game: GameIndex) -> Iterator[Finding]:
    """Options an attachment's class has no property for, or whose value its ``int`` or ``boolean`` property refuses."""
    if game.engine != TRIPLEA_2:
        return
    made: dict[str, set[str]] = {kind: set() for kind in (*_PLAYER_ATTACHMENTS.values(), _SUPPORT)}
    relationship_types = {*triplea2()["relationship_types"], *(e.get("name") for e in game.root.iterfind("relationshipTypes/relationshipType"))}
    techs = technologies(game)

    def has(kind: str, name: str) -> bool:
        if kind == "relationship type":
            return name in relationship_types
        if kind == "technology":
            return name in techs
        return name in made[kind] if kind in made else game.has(kind, name)

    judged = _judged(game, relationship_types, techs)

    def add(kind: str, name: str) -> None:
        if name not in made[kind]:
            made[kind].add(name)
            judged.made(kind, name)

    for attachment in game.attachments:
        java_class = attachment_class(attachment.get("javaClass"))
        if java_class in _PLAYER_ATTACHMENTS and attachment.get("type") == "player":
            add(_PLAYER_ATTACHMENTS[java_class], attachment.get("name") or "")
        if java_class == "UnitSupportAttachment" and (attachment.get("type") or "unitType") == "unitType":
            if (attachment.get("name") or "").startswith(triplea2()["support_attachment_prefix"]):
                add(_SUPPORT, attachment.get("name") or "")
        if java_class == "UnitAttachment" and (attachment.get("type") or "unitType") == "unitType":
            # UnitAttachment.setArtillery(true) makes the unit type a support attachment of its own
            # (UnitSupportAttachment.addRule), which a trigger's ``support`` may name.
            if any(option_name(o.get("name") or "") == "artillery" and java_boolean(o.get("value") or "") for o in attachment.iterfind("option")):
                add(_SUPPORT, triplea2()["old_artillery_support_prefix"] + (attachment.get("attachTo") or ""))
        if java_class is None:
            continue  # attachments_the_engine_cannot_make
        for option in attachment.iterfind("option"):
            key = (judged.state, java_class, option.get("name"), option.get("value"), option.get("count"))
            found = judged.refusals.get(key, _UNJUDGED)
            if found is _UNJUDGED:
                found = judged.refusals[key] = _option_refusal(game, has, java_class, option)
            if found:
                yield option, f"{java_class} option {option.get('name')}: {found}; {REFUSES}"


#: The refusals of options judged before, by all a refusal depends on: the names the game declares of each kind,
#: its relationship types and technologies (its *context*), the attachments made before the option (the sequence of
#: additions since the context: a *state*, one id for one sequence) and the option's class, name, value and count. A
#: game's options repeat a few values, and the matrix's files of one game its options: each distinct one is judged
#: once. Let go whole (for a fresh one) past ``_MOST_JUDGED``; a run keeps the one it started with.
@attrs.define
class _Judged:
    contexts: dict[frozenset, int] = attrs.Factory(dict)
    steps: dict[tuple[int, str, str], int] = attrs.Factory(dict)
    refusals: dict[tuple, str | None] = attrs.Factory(dict)
    ids: Iterator[int] = attrs.Factory(itertools.count)


@attrs.define
class _Run:
    """One run of options_the_engine_cannot_set over a game: its refusals kept so far, and its state."""

    refusals: dict[tuple, str | None]
    steps: dict[tuple[int, str, str], int]
    ids: Iterator[int]
    state: int

    def made(self, kind: str, name: str) -> None:
        """An attachment of ``kind`` named ``name`` made (an option after it may name it): the state moves on."""
        self.state = self.steps.setdefault((self.state, kind, name), next(self.ids))  # setdefault: one id, whatever the threads


_MOST_JUDGED = 100_000
_JUDGED = _Judged()
_UNJUDGED = object()


def _judged(game: GameIndex, relationship_types: set[str], techs: set[str]) -> _Run:
    """A run over ``game``'s options, in its context (equal contexts are one id, compared once a run)."""
    global _JUDGED
    if len(_JUDGED.refusals) > _MOST_JUDGED:
        _JUDGED = _Judged()
    kept = _JUDGED
    names = {kind: frozenset(found) for kind, found in game.declared.items()}
    context = frozenset({*names.items(), ("relationship type", frozenset(relationship_types)), ("technology", frozenset(techs))})
    return _Run(kept.refusals, kept.steps, kept.ids, kept.contexts.setdefault(context, next(kept.ids)))


#: The attachments an option may name by kind (option_grammar.NAME_KINDS): 2.7 looks them up on the players
#: (``conditions``, ``activateTrigger``) as it has made them so far, in the file's order, the option's own included
#: (GameParser.parseAttachments adds an attachment before it sets its options).
_PLAYER_ATTACHMENTS = {"RulesAttachment": "rules attachment", "TriggerAttachment": "trigger attachment"}
#: The unit support attachments an option may name (TriggerAttachment's ``support``): 2.7 looks among the attachments
#: of the unit types whose names begin with the tables' ``support_attachment_prefix`` (UnitSupportAttachment.get),
#: as made so far, in the file's order.
_SUPPORT = "unit support attachment"


def technologies(game: GameIndex) -> set[str]:
    """The names and properties 2.7 finds a technology by (TechnologyFrontier.getAdvanceByName/ByProperty): each
    ``techname``'s name; a built-in one's name and property when a ``techname`` names it (by its property, or in
    ``tech``); without ``<technology>``, the built-in ones ``TechAdvance.createDefaultTechAdvances`` makes for the
    game's WW2V2 and WW2V3 flags (the tables' ``default_technologies``; every built-in one where it makes none)."""
    built_in = triplea2()["technologies"]
    if game.root.find("technology") is None:
        values = {p.get("name"): property_value(p) for p in game.root.iterfind("propertyList/property")}
        flags = ",".join("true" if java_boolean(values.get(name) or "") else "false" for name in ("WW2V2", "WW2V3"))
        made = triplea2()["properties_read_at_load"]["default_technologies"][flags] or built_in
        return set(made) | {built_in[p] for p in made}
    found = set()
    for techname in game.root.iterfind("technology/technologies/techname"):
        name, tech = techname.get("name") or "", techname.get("tech") or ""
        found.add(name)
        if tech.strip():
            found.add(tech)  # a generic advance's property is its built-in one's
        elif name in built_in:
            found |= {name, built_in[name]}
    return found


def _option_refusal(game: GameIndex, has: Callable[[str, str], bool], java_class: str, option: etree._Element) -> str | None:
    written, value = option.get("name"), option.get("value")
    if not written or not value:
        return None  # left out (an empty attribute is read as none)
    name = option_name(written)
    if _ignored(name, value):
        return None
    kind = option_kind(java_class, name)
    if kind is None:
        return f"{java_class} has no such option ({unknown('option', name, options_of(java_class))})"
    count = option.get("count")
    value = _legacy_value(name, f"{count}:{value}" if count else value)
    if kind == "int" and java_int(value) is None:
        return f"{shown(value)} is {why_not_java_int(value)}"
    if kind == "boolean" and java_boolean(value) is None:
        return f"{value!r} is neither true nor false"
    grammar = triplea2()["attachments"][java_class]["properties"][name].get("grammar")
    if kind == "checked" and grammar is not None and not takes(grammar, value, has):
        return why_not(grammar, value, has)
    return None


def delegates_the_engine_cannot_make(game: GameIndex) -> Iterator[Finding]:
    """Delegates whose ``javaClass`` names no delegate 2.x makes."""
    if game.engine != TRIPLEA_2:
        return
    for element in game.root.iterfind("gamePlay/delegate"):
        java_class = element.get("javaClass")
        if java_class is None:
            yield element, f"delegate {element.get('name')!r} has no javaClass; {REFUSES}"
        elif not is_delegate(java_class):
            yield element, f"delegate {element.get('name')!r} javaClass: {unknown('delegate class', java_class, triplea2()['delegates'])}; {REFUSES}"

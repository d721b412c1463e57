"""TripleA conditions and triggers as board changes: the public helpers any writer of rules calls.

A TripleA trigger (``TriggerAttachment``) does something once its conditions
(``RulesAttachment``) hold at a step: pays PUs, places units, grants a
technology. The house-rule actions and the option kinds write the same three
things, so they are written here once:

``attachment_xml``
    one ``<attachment>`` element of the game file, its values escaped;
``round_one_condition``
    a condition that holds in round 1 only (``rounds = 1``), for triggers that fire once at the start;
``trigger``
    a trigger of a player: its conditions, when it fires (``before:STEP`` / ``after:STEP``), how often, what it does;
``USE_TRIGGERS``
    the game option without which TripleA runs no trigger at all (``Properties.getTriggers``;
    AA50 and Revised lack it), so every change that adds a trigger adds it too.

The XML goes into the game's ``<attachmentList>`` through :class:`~kremlin_triplea.model.changes.AddXml`,
in the order given: TripleA reads a condition where a trigger names it, so conditions come first.
"""

from __future__ import annotations

from collections.abc import Sequence

from kremlin_triplea.model.changes import AddXml, SetProperty

RULES_CLASS = "games.strategy.triplea.attachments.RulesAttachment"
TRIGGER_CLASS = "games.strategy.triplea.attachments.TriggerAttachment"

USE_TRIGGERS = SetProperty("Use Triggers", "true")


def xml_attr(text: object) -> str:
    """``text`` as the value of an XML attribute written between double quotes."""
    return str(text).replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def attachment_xml(name: str, attach_to: str, java_class: str, kind: str, options: Sequence[tuple[str, str]]) -> str:
    """One ``<attachment>`` of ``java_class`` named ``name`` on ``attach_to`` (a ``kind``: player, territory, unitType...)."""
    body = "".join(f'<option name="{xml_attr(k)}" value="{xml_attr(v)}"/>' for k, v in options)
    return f'<attachment name="{xml_attr(name)}" attachTo="{xml_attr(attach_to)}" javaClass="{java_class}" type="{kind}">{body}</attachment>'


def condition(name: str, power: str, options: Sequence[tuple[str, str]], description: str) -> AddXml:
    """A condition (a player's ``RulesAttachment``) named ``name``: it holds when all of ``options`` hold."""
    return AddXml("attachmentList", attachment_xml(name, power, RULES_CLASS, "player", options), description=description)


def round_one_condition(name: str, power: str) -> AddXml:
    """A condition of ``power`` that holds in the first round only: a trigger that needs it fires at most in round 1."""
    return condition(name, power, [("rounds", "1")], f"condition: round 1 ({power})")


def trigger(name: str, power: str, conditions: Sequence[str], when: str, does: Sequence[tuple[str, str]], description: str, *, uses: int = 1) -> AddXml:
    """A trigger of ``power``: when the ``conditions`` (their names) hold at ``when`` (``before:STEP`` or ``after:STEP``),
    it does ``does`` (TriggerAttachment options: ``("resource", "PUs")``, ``("placement", "2:Poland:infantry")``...),
    at most ``uses`` times. Add :data:`USE_TRIGGERS` with it, or TripleA never runs it."""
    options = [("conditions", ":".join(conditions)), ("when", when), ("uses", str(uses)), ("players", power), *does]
    return AddXml("attachmentList", attachment_xml(name, power, TRIGGER_CLASS, "player", options), description=description)

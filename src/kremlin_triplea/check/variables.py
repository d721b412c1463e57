"""A game's attachments as TripleA 2.7 makes them: variables and ``foreach`` expanded.

TripleA 2.x games may declare ``<variableList>`` (``$Name$`` stands for a
``:``-joined list of names) and give an attachment ``foreach="$A$:$B$^$C$"``:
the engine then makes one attachment per combination, with ``@A@`` in its
name, ``attachTo`` and option values replaced by the combination's names.
Read from 2.7's ``GameDataVariables`` and ``GameParser.parseAttachments``:

* a variable's elements are names, or earlier variables (``$Other$``) that are
  replaced by their own elements;
* ``foreach`` is one or two ``^``-separated groups of ``:``-separated
  variables; every variable must be declared and those of a group must have
  as many elements, else the engine refuses the game; the groups combine as
  nested loops;
* an option whose ``count:value`` holds a ``@Var@`` that is empty in this
  combination is left out; ``$Var$`` in option values is replaced whether or
  not the attachment has a ``foreach``;
* an attachment name spelled "...ttatchment" is read as "...ttachment".
"""

from __future__ import annotations

import copy

import attrs
from lxml import etree


@attrs.frozen
class Expanded:
    """The attachments the engine makes, each an element (a copy where it differs from the file's, at its line),
    and the file's attachments whose ``foreach`` the engine refuses, with the engine's reason."""

    attachments: list[etree._Element]
    refused: list[tuple[etree._Element, str]]


def variables(root: etree._Element) -> dict[str, list[str]]:
    """``$Name$`` -> its elements, nested variables replaced, as GameDataVariables.parse reads them."""
    found: dict[str, list[str]] = {}
    for variable in root.iterfind("variableList/variable"):
        values: list[str] = []
        for element in variable.iterfind("element"):
            values += _nested(element.get("name", ""), found)
        found[f"${variable.get('name', '')}$"] = values
    return found


def _nested(value: str, known: dict[str, list[str]]) -> list[str]:
    if value not in known:
        return [value]
    return [name for inner in known[value] for name in _nested(inner, known)]


def expand(root: etree._Element) -> Expanded:
    """Every attachment of the game as the engine makes it, in the file's order."""
    declared = variables(root)
    joined = {name: ":".join(values) for name, values in declared.items()}  # a variable named in an option: all its values
    made: list[etree._Element] = []
    refused: list[tuple[etree._Element, str]] = []
    for attachment in root.iterfind("attachmentList/attachment"):
        foreach = attachment.get("foreach", "")
        if not foreach.strip():
            made.append(_made(attachment, {}, joined))
            continue
        try:
            combinations = _combinations(foreach, declared)
        except ValueError as refusal:
            refused.append((attachment, str(refusal)))
            continue
        made += [_made(attachment, combination, joined) for combination in combinations]
    return Expanded(made, refused)


def _combinations(foreach: str, declared: dict[str, list[str]]) -> list[dict[str, str]]:
    """GameDataVariables.expandVariableCombinations: @Var@ -> name, one mapping per combination."""
    groups = foreach.split("^")
    if len(groups) > 2:
        raise ValueError(f"Invalid foreach expression, can only use variables, ':', and at most 1 '^': {foreach}")
    lists = [group.split(":") for group in groups]
    for names in lists:
        if not all(name in declared for name in names):
            raise ValueError(f"Attachment has invalid variables in foreach: {foreach}")
        if len({len(declared[name]) for name in names}) > 1:
            raise ValueError(f"Attachment foreach variables must have same number of elements: {foreach}")
    combinations = []
    outer = lists[0]
    for i in range(len(declared[outer[0]])):
        first = {f"@{name.strip('$')}@": declared[name][i] for name in outer}
        if len(lists) == 1:
            combinations.append(first)
            continue
        inner = lists[1]
        for j in range(len(declared[inner[0]])):
            combinations.append({f"@{name.strip('$')}@": declared[name][j] for name in inner} | first)
    return combinations


def _replace(text: str, mapping: dict[str, str]) -> str:
    for key, value in mapping.items():
        text = text.replace(key, value)
    return text


def _made(attachment: etree._Element, combination: dict[str, str], joined: dict[str, str]) -> etree._Element:
    """The attachment the engine makes for one combination (the file's own element when nothing changes);
    ``joined``: each declared variable's values joined with ``:``, as an option naming the variable reads."""
    name = _replace(attachment.get("name", ""), combination)
    name = name.replace("ttatchment", "ttachment")
    options = list(attachment.iterfind("option"))
    changes = name != attachment.get("name", "") or bool(combination) or bool(joined) and any(_uses(o, joined) for o in options)
    if not changes:
        return attachment
    made = copy.deepcopy(attachment)
    made.sourceline = attachment.sourceline
    made.set("name", name)
    if attachment.get("attachTo") is not None:
        made.set("attachTo", _replace(attachment.get("attachTo", ""), combination))
    empty = [key for key, value in combination.items() if not value]
    for option, original in zip(list(made.iterfind("option")), options):
        option.sourceline = original.sourceline
        count_and_value = f"{option.get('count') or ''}:{option.get('value', '')}"
        if any(key in count_and_value for key in empty):
            made.remove(option)
            continue
        for attribute in ("value", "count"):
            if option.get(attribute) is not None:
                option.set(attribute, _replace(_replace(option.get(attribute, ""), combination), joined))
    return made


def _uses(option: etree._Element, joined: dict[str, str]) -> bool:
    text = f"{option.get('count') or ''}:{option.get('value', '')}"
    return any(name in text for name in joined)

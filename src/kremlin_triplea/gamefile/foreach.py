"""A territory's territoryAttachment that a ``foreach`` template makes: split off before the writer edits it.

TripleA 2.x makes one attachment per combination of a ``foreach`` attachment's variables (``GameParser`` through
``GameDataVariables``; check/variables.py reads it for validation), and keeps only the last attachment of a name
on a territory. A writer that looked only for an attachment whose ``attachTo`` names the territory found none on
such a territory and added a second territoryAttachment, which replaced the template's whole (its production, its
other options). Here the territory's attachment is written out as its own element, the template's options with
the territory's names put in, and the territory taken out of the template's variables, so the territory keeps one
territoryAttachment, the one the writer then edits; every other territory of the template is made as before.
"""

from __future__ import annotations

import copy

from lxml import etree

from kremlin_triplea.errors import InputError
from kremlin_triplea.gamefile.document import XmlDocument


def variables(root: etree._Element) -> dict[str, list[str]]:
    """``$Name$`` -> its elements, nested variables replaced (as GameDataVariables reads them)."""
    found: dict[str, list[str]] = {}
    for variable in root.iterfind("variableList/variable"):
        values: list[str] = []
        for element in variable.iterfind("element"):
            name = element.get("name", "")
            values += found.get(name, [name])
        found[f"${variable.get('name', '')}$"] = values
    return found


def made(root: etree._Element, attachments: list[etree._Element]) -> list[etree._Element]:
    """``attachments`` as the engine makes them, in order: each without ``foreach`` itself, each with one a copy per
    combination of its variables (names, ``attachTo`` and option values put in); a ``foreach`` the engine refuses
    (an undeclared variable, groups of different lengths) makes none here (validation names it)."""
    declared: dict[str, list[str]] | None = None
    found = []
    for attachment in attachments:
        if not attachment.get("foreach", "").strip():
            found.append(attachment)
            continue
        declared = variables(root) if declared is None else declared
        for combination in _combinations(attachment.get("foreach", ""), declared):
            found.append(_made(attachment, combination))
    return found


def _combinations(foreach: str, declared: dict[str, list[str]]) -> list[dict[str, str]]:
    groups = [group.split(":") for group in foreach.split("^")]
    if len(groups) > 2 or any(name not in declared for group in groups for name in group):
        return []
    if any(len({len(declared[name]) for name in group}) > 1 for group in groups):
        return []
    each = [[{f"@{name.strip('$')}@": declared[name][n] for name in group} for n in range(len(declared[group[0]]))] for group in groups]
    if len(each) == 1:
        return each[0]
    return [inner | outer for outer in each[0] for inner in each[1]]


def _made(template: etree._Element, combination: dict[str, str]) -> etree._Element:
    made = copy.deepcopy(template)
    made.tail = None
    made.sourceline = template.sourceline
    del made.attrib["foreach"]
    for attribute in ("name", "attachTo"):
        made.set(attribute, _replaced(made.get(attribute, ""), combination))
    for option, original in zip(made.iterfind("option"), template.iterfind("option")):
        option.sourceline = original.sourceline
        for attribute in ("value", "count"):
            if option.get(attribute) is not None:
                option.set(attribute, _replaced(option.get(attribute, ""), combination))
    return made


def template_for(root: etree._Element, templates: list[etree._Element], territory: str) -> tuple[etree._Element, list[str], int] | None:
    """The last of ``templates`` (``foreach`` attachments) that makes an attachment on ``territory``: (it, the
    variables of its group, the territory's index in them), or None."""
    declared = variables(root)
    found = None
    for template in templates:
        groups = [group.split(":") for group in template.get("foreach", "").split("^")]
        for group in groups:
            if not all(name in declared for name in group):
                continue
            for n in range(len(declared[group[0]])):
                combination = {f"@{name.strip('$')}@": declared[name][n] for name in group if n < len(declared[name])}
                if _replaced(template.get("attachTo", ""), combination) == territory:
                    if len(groups) > 1:
                        raise InputError(
                            f"cannot write {territory}'s territoryAttachment: it is made by foreach={template.get('foreach')!r} (line "
                            f"{template.sourceline}) over two groups of variables, which the writer does not split",
                        )
                    found = (template, group, n)
    return found


def split_off(document: XmlDocument, root: etree._Element, template: etree._Element, group: list[str], index: int) -> etree._Element:
    """Write the attachment ``template`` makes for combination ``index`` of its ``group`` as its own element right
    after it, and make the template skip that combination: each variable of the group is replaced, in the
    template, by a new variable of its elements without that one. Returns the new attachment."""
    declared = variables(root)
    own = _made(template, {f"@{name.strip('$')}@": declared[name][index] for name in group})
    renamed = {name: _without(document, root, name, declared[name], index) for name in group}
    document.set_attribute(template, "foreach", ":".join(renamed[name] for name in group))
    mapping = {f"@{old.strip('$')}@": f"@{new.strip('$')}@" for old, new in renamed.items()}
    for element in (template, *template.iterfind("option")):
        for attribute in ("name", "attachTo", "value", "count"):
            if element.get(attribute) is not None:
                document.set_attribute(element, attribute, _replaced(element.get(attribute, ""), mapping))
    return document.insert_after(template, own)


def _without(document: XmlDocument, root: etree._Element, name: str, values: list[str], index: int) -> str:
    """A new variable (declared after ``name``) of ``values`` without the one at ``index``; its ``$name$``."""
    old = next(v for v in root.iterfind("variableList/variable") if f"${v.get('name', '')}$" == name)
    taken = {f"${v.get('name', '')}$" for v in root.iterfind("variableList/variable")}
    base = f"{name.strip('$')} without {values[index]}"
    new_name, n = base, 1
    while f"${new_name}$" in taken:
        n += 1
        new_name = f"{base} {n}"
    new = etree.Element("variable", name=new_name)
    for n, value in enumerate(values):
        if n != index:
            etree.SubElement(new, "element", name=value)
    document.insert_after(old, new)
    return f"${new_name}$"


def _replaced(text: str, mapping: dict[str, str]) -> str:
    for key, value in mapping.items():
        text = text.replace(key, value)
    return text

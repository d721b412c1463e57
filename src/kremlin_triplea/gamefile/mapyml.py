"""Add a game to a map's ``map.yml``, or take one out, changing no other byte.

TripleA 2.x lists a map's games from the ``games`` list of its ``map.yml``.
Hosts and map makers write that list in every style YAML allows: a block
list (indented under the key or not), a flow list (``games: [{…}, {…}]``),
an empty list, a key with only a comment, or no key at all. The edit is
textual, guided by where PyYAML's composer found each node, so comments,
quoting, line endings (CRLF stays CRLF) and key order survive; the result is
then parsed again and accepted only if its game list is exactly the old one
plus (or minus) the one entry and everything else means what it meant.
Anything else (a scalar, a mapping, an alias, two ``games`` keys, several
documents) is refused with one line, and nothing is changed.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import attrs
import yaml

from kremlin_triplea.errors import InputError

_BOM = "\ufeff"


@attrs.frozen
class Insertion:
    """One game entry added to a map.yml: enough to take exactly that text out again."""

    text: str  # the map.yml after the edit
    created_key: bool  # the file had no ``games`` key: the edit added ``games:`` too
    added_newline: bool  # the file did not end in a line break: the edit added one first


def yaml_scalar(text: str) -> str:
    """``text`` as a double-quoted YAML scalar that every YAML reader reads back as exactly ``text``.

    Always quoted: whether a plain scalar is a string depends on the reader's schema (``1e3`` is a string to
    PyYAML and a float to the SnakeYAML TripleA reads map.yml with, which then drops the whole map), so no plain
    form is safe. Inside the quotes, a character YAML would fold (line breaks, NEL, U+2028/9), refuse (control and
    unassigned characters, surrogates) or read as syntax (``"``, ``\\``) is escaped; every other one stays as it is.
    """
    return '"' + "".join(_ESCAPES.get(c) or (_escape(c) if _needs_escape(c) else c) for c in text) + '"'


_ESCAPES = {"\\": "\\\\", '"': '\\"', "\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _needs_escape(character: str) -> bool:
    return unicodedata.category(character) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


def _escape(character: str) -> str:
    code = ord(character)
    return f"\\x{code:02X}" if code <= 0xFF else f"\\u{code:04X}" if code <= 0xFFFF else f"\\U{code:08X}"


def game_entry(game_name: str, file_name: str) -> str:
    return f"{{game_name: {yaml_scalar(game_name)}, file_name: {yaml_scalar(file_name)}}}"


def _refuse(message: str, where: str, line: int | None = None) -> InputError:
    return InputError(f"{message}; map.yml was not changed", where=f"{where}:{line}" if line else where)


def _newline(text: str, at: int) -> str:
    """The line break of the line before ``at`` (else the file's first, else LF)."""
    before = text.rfind("\n", 0, at)
    if before > 0 and text[before - 1] == "\r":
        return "\r\n"
    if before >= 0:
        return "\n"
    return "\r\n" if "\r\n" in text else "\n"


def _load(text: str, where: str) -> Any:
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        line = getattr(getattr(error, "problem_mark", None), "line", None)
        raise _refuse(f"is not valid YAML ({getattr(error, 'problem', None) or error})", where, line + 1 if line is not None else None) from None


def _compose(text: str, where: str) -> tuple[yaml.Node | None, yaml.Node | None, yaml.Node | None]:
    """The root node, the ``games`` key node and its value node (``None`` where absent)."""
    _load(text, where)  # syntax errors, reported with their line
    try:
        documents = list(yaml.compose_all(text, Loader=yaml.SafeLoader))
    except yaml.YAMLError as error:
        raise _refuse(f"is not valid YAML ({error})", where) from None
    if len(documents) > 1:
        raise _refuse(f"holds {len(documents)} YAML documents; TripleA reads one", where)
    root = documents[0] if documents else None
    if root is None:
        return None, None, None
    if not isinstance(root, yaml.MappingNode):
        raise _refuse("is not a mapping of keys (map_name, games...)", where, root.start_mark.line + 1)
    keys = [(k, v) for k, v in root.value if isinstance(k, yaml.ScalarNode) and k.value == "games"]
    if len(keys) > 1:
        lines = ", ".join(str(k.start_mark.line + 1) for k, _ in keys)
        raise _refuse(f"has {len(keys)} 'games' keys (lines {lines}); YAML keeps only the last, so fix it by hand", where, keys[-1][0].start_mark.line + 1)
    if not keys:
        return root, None, None
    key, value = keys[0]
    if value.start_mark.index < key.end_mark.index:
        raise _refuse("'games' is an alias of a list elsewhere in the file; write the list under the key", where, key.start_mark.line + 1)
    return root, key, value


def _content_end(node: yaml.Node) -> int:
    """Where the node's last character is followed: block collections end at their last value."""
    if isinstance(node, yaml.MappingNode) and not node.flow_style and node.value:
        return _content_end(node.value[-1][1])
    if isinstance(node, yaml.SequenceNode) and not node.flow_style and node.value:
        return _content_end(node.value[-1])
    return node.end_mark.index


def _after_line(text: str, offset: int) -> tuple[int, bool]:
    """The offset just past the line holding ``offset`` (its line break included), and whether a break had to be added."""
    if offset > 0 and text[offset - 1] == "\n":
        return offset, False
    end = text.find("\n", offset)
    if end < 0:
        return len(text), True
    return end + 1, False


def _insert_line(text: str, offset: int, line: str) -> tuple[str, bool]:
    """``text`` with ``line`` on a line of its own after the line holding ``offset``; whether a break had to be added."""
    at, missing = _after_line(text, offset)
    newline = _newline(text, at if not missing else len(text))
    if missing:
        text += newline
        at = len(text)
    return text[:at] + line + newline + text[at:], missing


def _not_a_list(value: yaml.Node) -> str:
    if isinstance(value, yaml.MappingNode):
        return "a mapping"
    if isinstance(value, yaml.ScalarNode):
        return f"{value.value!r}"
    return "not a list"


def add_game(text: str, game_name: str, file_name: str, *, where: str = "map.yml") -> Insertion:
    """``text`` with one more ``{game_name, file_name}`` entry at the end of its games list."""
    bom = _BOM if text.startswith(_BOM) else ""
    body = text[len(bom) :]
    entry = game_entry(game_name, file_name)
    root, key, value = _compose(body, where)
    created_key = added_newline = False
    if key is None:
        if root is not None and root.flow_style:
            raise _refuse("is one flow mapping ({...}) without a 'games' key; add 'games: []' to it by hand", where, root.start_mark.line + 1)
        indent = " " * (root.start_mark.column if root is not None else 0)
        newline = _newline(body, len(body))
        lines = f"{indent}games:{newline}{indent}- {entry}{newline}"
        if not body or body.endswith("\n") or root is None:
            new = body + ("" if not body or body.endswith("\n") else newline) + lines
            added_newline = bool(body) and not body.endswith("\n")
        else:
            # No line break at the end: adding one could change a block scalar there (description: >),
            # so the key goes before the first key instead.
            at = body.rfind("\n", 0, root.start_mark.index) + 1
            new = body[:at] + lines + body[at:]
        created_key = True
    elif isinstance(value, yaml.ScalarNode) and value.tag == "tag:yaml.org,2002:null" and value.value == "":
        # "games:" with nothing (or only a comment) after it: a block list under the key.
        new, added_newline = _insert_line(body, key.end_mark.index, " " * key.start_mark.column + f"- {entry}")
    elif isinstance(value, yaml.SequenceNode) and value.flow_style:
        items = value.value
        if any(not value.start_mark.index < i.start_mark.index < value.end_mark.index for i in items):
            raise _refuse("the games list holds an alias; add the game by hand", where, value.start_mark.line + 1)
        if items:
            at = items[-1].end_mark.index
            new = body[:at] + ", " + entry + body[at:]
        else:
            at = value.start_mark.index + 1
            new = body[:at] + entry + body[at:]
    elif isinstance(value, yaml.SequenceNode):
        items = value.value
        dash = value.start_mark.index
        if body[dash] != "-" or any(not dash <= i.start_mark.index <= value.end_mark.index for i in items):
            raise _refuse("could not find where the games list ends (an alias in it?); add the game by hand", where, value.start_mark.line + 1)
        new, added_newline = _insert_line(body, _content_end(items[-1]), " " * value.start_mark.column + f"- {entry}")
    else:
        raise _refuse(f"'games' is {_not_a_list(value)}, not a list of games; fix it by hand", where, value.start_mark.line + 1)
    _check(body, new, where, added={"game_name": game_name, "file_name": file_name})
    return Insertion(bom + new, created_key, added_newline)


def remove_game(text: str, game_name: str, *, created_key: bool = False, added_newline: bool = False, where: str = "map.yml") -> str:
    """``text`` without the games entry named ``game_name``: the inverse of :func:`add_game`.

    ``created_key`` and ``added_newline`` are what :func:`add_game` reported:
    the ``games:`` key and line break it added go when its entry was the last one.
    """
    bom = _BOM if text.startswith(_BOM) else ""
    body = text[len(bom) :]
    _, key, value = _compose(body, where)
    if not isinstance(value, yaml.SequenceNode):
        raise _refuse(f"lists no game named {game_name!r}", where)
    data = _load(body, where)
    listed = data.get("games") or []
    matches = [i for i, g in enumerate(listed) if isinstance(g, dict) and g.get("game_name") == game_name]
    if len(matches) != 1:
        raise _refuse(
            f"lists {len(matches) or 'no'} game{'s' if len(matches) > 1 else ''} named {game_name!r}" + ("; remove it by hand" if matches else ""), where
        )
    index, items = matches[0], value.value
    item = items[index]
    if value.flow_style:
        if len(items) == 1:
            start, end = item.start_mark.index, item.end_mark.index
        elif index > 0:
            start, end = items[index - 1].end_mark.index, item.end_mark.index
        else:
            start, end = item.start_mark.index, items[1].start_mark.index
    else:
        start = body.rfind("\n", 0, item.start_mark.index) + 1
        if not re.fullmatch(r"[ ]*-[ ]+", body[start : item.start_mark.index]):
            raise _refuse(f"the entry of {game_name!r} shares its line with other text; remove it by hand", where, item.start_mark.line + 1)
        end, _ = _after_line(body, _content_end(item))
        if len(items) == 1 and created_key:
            start = body.rfind("\n", 0, key.start_mark.index) + 1
        if added_newline and end == len(body) and start > 0:
            start -= 2 if body[start - 2 : start] == "\r\n" else 1
    new = body[:start] + body[end:]
    _check(body, new, where, removed=listed[index], dropped_key=len(items) == 1 and created_key and not value.flow_style)
    return bom + new


def _check(old_text: str, new_text: str, where: str, *, added: dict | None = None, removed: dict | None = None, dropped_key: bool = False) -> None:
    """Refuse an edit whose meaning is not the old file's plus (minus) the one entry."""
    old = _load(old_text, where) or {}
    try:
        new = yaml.safe_load(new_text) or {}
    except yaml.YAMLError:
        new = None
    expected = dict(old)
    games = list(old.get("games") or [])
    if added is not None:
        games.append(added)
    if removed is not None:
        games.remove(removed)
    expected["games"] = games
    if dropped_key:
        del expected["games"]
    elif isinstance(new, dict) and "games" in new and not new["games"]:
        new = {**new, "games": []}  # "games:" (null) and "games: []" both list nothing
    if new != expected:
        raise _refuse("could not edit the games list without changing the meaning of the rest of the file", where)

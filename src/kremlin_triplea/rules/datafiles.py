"""Where rulesets, house-rule sets and map profiles are found, and which kind a rule file is (decided here only)."""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path

from kremlin_triplea.errors import InputError, UnknownNameError
from kremlin_triplea.gamefile.locate import native_path
from kremlin_triplea.rules.tomlfile import DataFileError, read_toml, read_toml_text


def find_data_file(folder: str, name: str, *, where: str | None = None) -> Path:
    """A ruleset or map profile: ``name`` as a path, else ``<folder>/<name>.toml``.

    Looked up in the repository's folder (a source checkout) and in the copy
    installed with the package (``kremlin_triplea/data/<folder>``). ``where``
    names the file and key that asked for it, for the error when it is unknown.
    """
    candidate = Path(native_path(name))
    if candidate.suffix == ".toml" and candidate.is_file():
        return candidate
    if candidate.suffix == ".toml" or "/" in name or "\\" in name or os.sep in name:  # a path, not an id
        if os.path.lexists(candidate) and not candidate.is_dir():
            return candidate  # the file named, whatever it is: its reader refuses what is not a regular file, saying what it is
        kind = {"maps": "map profile", "rulesets": "rule file"}.get(folder, folder)
        why = "no such file" if not os.path.lexists(candidate) else f"a folder, not a {kind}"
        raise InputError(why, where=f"{where}: {name}" if where else name)
    for base in data_folders(folder):
        path = base / f"{name}.toml"
        if path.is_file():
            return path
    known = sorted({p.stem for base in data_folders(folder) for p in base.glob("*.toml")})
    kind = {"maps": "map profile", "rulesets": "ruleset"}.get(folder, folder)
    raise UnknownNameError(kind, name, known, show_all=True, where=where or f"{folder}/")


def data_folders(folder: str) -> list[Path]:
    package = Path(__file__).resolve().parents[1]
    return [p for p in (package.parents[1] / folder, package / "data" / folder) if p.is_dir()]


#: An ``[[option]]`` table header: every ruleset has one (the bonus options).
_OPTION_TABLE = re.compile(r"^[ \t]*\[\[[ \t]*option[ \t]*\]\]", re.MULTILINE)


def rule_file_kind(path: Path | str) -> str:
    """``"ruleset"`` for a Kremlin ruleset (it has bonus options), ``"house"`` for a house-rule set."""
    path = Path(path)
    return _rule_text_kind(str(path), read_toml_text(path))


@functools.lru_cache(maxsize=256)
def _rule_text_kind(path: str, text: str) -> str:
    """:func:`rule_file_kind` of a file's text, worked out once per text: every command lists the rule files, and a
    house-rule set (no ``[[option]]``) is told from a ruleset only by parsing it."""
    if _OPTION_TABLE.search(text):
        return "ruleset"  # found without parsing the whole file: listing the rulesets stays fast
    return "ruleset" if "option" in read_toml(Path(path), text) else "house"


def named_rule_files(kind: str) -> dict[str, Path]:
    """The rule files of ``kind`` ("ruleset" or "house") by name; a checkout's own files win over installed copies."""
    paths = {p.stem: p for folder in reversed(data_folders("rulesets")) for p in folder.glob("*.toml")}
    return {name: path for name, path in sorted(paths.items()) if rule_file_kind(path) == kind}


#: What each kind of data file is called, and how a user runs the command meant for it.
_KINDS = {
    "ruleset": ("a Kremlin ruleset", "`kremlin-triplea options --ruleset {path}` lists it; a draft names it as `ruleset`"),
    "house": ("a house-rule set", "`kremlin-triplea options --ruleset {path}` lists it; a draft names it in `house_rules`"),
    "profile": ("a map profile", "`kremlin-triplea profile check {path}` checks it; commands take it with --profile"),
    "draft": ("a draft", "`kremlin-triplea apply {path}` applies it"),
}


def data_file_kind(data: dict) -> str | None:
    """Which of our data files ``data`` (a TOML file's top table) is, by the tables only that kind has; None: none of them."""
    if "option" in data:
        return "ruleset"
    if isinstance(data.get("map"), str) and isinstance(data.get("game"), list):
        return "profile"
    if "pick" in data or "first" in data or "house_rules" in data or isinstance(data.get("game"), str):
        return "draft"
    if "rule" in data or "advantage" in data or "advantages" in data:
        return "house"
    return None


def check_file_kind(data: dict, path: Path | str, *wanted: str) -> None:
    """Refuse a data file of another kind than ``wanted`` by what it is (a profile given as a draft, say), not by its first unknown key."""
    kind = data_file_kind(data)
    if kind is not None and kind not in wanted:
        name, use = _KINDS[kind]
        raise DataFileError(f"this is {name}, not {' or '.join(_KINDS[w][0] for w in wanted)}: {use.format(path=path)}", where=str(path))

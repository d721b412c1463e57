"""Where rulesets, house-rule sets and map profiles are found, and which kind a rule file is (decided here only)."""

from __future__ import annotations

import re
from pathlib import Path

from kremlin_triplea.errors import UnknownNameError
from kremlin_triplea.rules.tomlfile import read_toml


def find_data_file(folder: str, name: str, *, where: str | None = None) -> Path:
    """A ruleset or map profile: ``name`` as a path, else ``<folder>/<name>.toml``.

    Looked up in the repository's folder (a source checkout) and in the copy
    installed with the package (``kremlin_triplea/data/<folder>``). ``where``
    names the file and key that asked for it, for the error when it is unknown.
    """
    candidate = Path(name)
    if candidate.suffix == ".toml" and candidate.is_file():
        return candidate
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
_OPTION_TABLE = re.compile(rb"^[ \t]*\[\[[ \t]*option[ \t]*\]\]", re.MULTILINE)


def rule_file_kind(path: Path | str) -> str:
    """``"ruleset"`` for a Kremlin ruleset (it has bonus options), ``"house"`` for a house-rule set."""
    path = Path(path)
    if _OPTION_TABLE.search(path.read_bytes()):
        return "ruleset"  # found without parsing the whole file: listing the rulesets stays fast
    return "ruleset" if "option" in read_toml(path) else "house"


def named_rule_files(kind: str) -> dict[str, Path]:
    """The rule files of ``kind`` ("ruleset" or "house") by name; a checkout's own files win over installed copies."""
    paths = {p.stem: p for folder in reversed(data_folders("rulesets")) for p in folder.glob("*.toml")}
    return {name: path for name, path in sorted(paths.items()) if rule_file_kind(path) == kind}

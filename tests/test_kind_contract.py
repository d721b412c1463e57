"""The option-kind contract, checked for every registered kind (issue 45: "the kind contract is unwritten").

docs/architecture.md ("An option kind's contract") says what a kind provides; this module holds each registered
kind to it, so a kind added in src/ is checked by adding it, with no list here to extend. The kinds are the
draft's move types (000_bc04a4edf7f7d2ab.txt's options 1-10 and the scenarios; 001/002's the same kinds).
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest
import tomli_w
import tomllib

from kremlin_triplea.draft import run as draft_run
from kremlin_triplea.draft.form import PICK_FIELDS, Field, Form
from kremlin_triplea.draft.kinds import KINDS, OptionKind, params_by_kind
from kremlin_triplea.rules.datafiles import named_rule_files
from kremlin_triplea.rules.options import COMMON_QUOTES, OPTION_KEYS
from kremlin_triplea.rules.ruleset import read_ruleset
from kremlin_triplea.rules.tomlfile import DataFileError

KIND_NAMES = list(KINDS)


def _quoted_checks(source: str) -> set[str]:
    """The checks a module's code quotes by a literal name: ``option.quote("x")`` and ``option.quotes.get("x", ...)``."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args and isinstance(node.args[0], ast.Constant):
            called = node.func
            if called.attr == "quote" or (called.attr == "get" and isinstance(called.value, ast.Attribute) and called.value.attr == "quotes"):
                found.add(node.args[0].value)
    return found


def _first_option_of(kind: str) -> tuple[Path, dict, int]:
    """A shipped ruleset with an option of ``kind``: its file, its data and the option's position."""
    for path in named_rule_files("ruleset").values():
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for position, option in enumerate(data.get("option", [])):
            if option.get("kind") == kind:
                return path, data, position
    pytest.fail(f"no shipped ruleset has an option of kind {kind!r}")


@pytest.mark.parametrize("name", KIND_NAMES)
def test_a_kind_reads_its_own_parameters_and_names_its_target_by_a_key_of_its_own(name: str) -> None:
    kind = KINDS[name]
    assert isinstance(kind, OptionKind) and kind.name == name
    assert kind.params.KIND == name and params_by_kind()[name] is kind.params
    assert not set(kind.params.KEYS) & set(OPTION_KEYS)  # its keys are its own, besides every option's
    others = [other.target_key for other_name, other in KINDS.items() if other_name != name]
    assert kind.target_key not in others and kind.target_key not in PICK_FIELDS


@pytest.mark.parametrize("name", KIND_NAMES)
def test_every_check_a_kind_quotes_is_one_its_parameters_declare(name: str) -> None:
    """A check quoted in the code but not declared would refuse a ruleset that quotes it; the reverse would
    quote nothing (tested below)."""
    kind = KINDS[name]
    module_source = inspect.getsource(inspect.getmodule(type(kind)))
    assert isinstance(kind.params.QUOTES, frozenset)
    assert _quoted_checks(module_source) <= kind.params.QUOTES | COMMON_QUOTES
    assert _quoted_checks(inspect.getsource(draft_run)) <= COMMON_QUOTES  # the draft's own, for any kind


@pytest.mark.parametrize("name", KIND_NAMES)
def test_a_misspelt_quote_key_is_refused_where_it_stands_with_the_check_it_meant(name: str, tmp_path: Path) -> None:
    """A misspelt ``[option.quotes]`` key was kept and never asked: every refusal of that check quoted the whole rule."""
    path, data, position = _first_option_of(name)
    check = sorted(KINDS[name].params.QUOTES | COMMON_QUOTES)[0]
    misspelt = check[:-1] + ("x" if check[-1] != "x" else "y")
    data["option"][position]["quotes"] = {misspelt: "the rule's words"}
    written = tmp_path / path.name
    written.write_text(tomli_w.dumps(data), encoding="utf-8")
    with pytest.raises(DataFileError) as refused:
        read_ruleset(written, params_by_kind())
    message = str(refused.value)
    assert re.match(rf"{re.escape(str(written))}:\d+: quotes\.{misspelt}: not a check a {name} option quotes; did you mean {check}", message), message


def test_a_form_field_may_not_take_a_name_the_pick_travels_with() -> None:
    """The room sends ``seq`` and ``option`` with every pick's fields: a kind's field of either name was read as them."""
    for reserved in PICK_FIELDS:
        with pytest.raises(ValueError, match=reserved):
            Form((Field(reserved, "a question", ()),), read=lambda answers: answers)
    with pytest.raises(ValueError, match="at"):
        Form((Field("at", "where", ()), Field("at", "where again", ())), read=lambda answers: answers)

"""The import graph (issue 11): no module imports another that imports it back, however indirectly.

grimp reads every import statement, including those inside functions and under
``TYPE_CHECKING``, so a cycle hidden in a function-local import fails here; the
layers themselves are checked by import-linter's contract in pyproject.toml
(``lint-imports``, run by scripts/test).
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

import grimp
import networkx as nx
import pytest


@functools.cache
def _import_graph() -> grimp.ImportGraph:
    """The package's import graph, built once for the tests that only read it."""
    return grimp.build_graph("kremlin_triplea", cache_dir=None)


@functools.cache
def _syntax(path: Path, text: str) -> ast.Module:
    """A source file's syntax tree, parsed once per text: three tests walk every module of the package."""
    return ast.parse(text)


def _syntax_of(path: Path) -> ast.Module:
    return _syntax(path, path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module", autouse=True)
def _forget_the_trees() -> Iterator[None]:
    """The syntax trees and the graph are kept for this module's tests only: ~150,000 syntax nodes left alive to the
    end of the run made every later garbage collection of the worker slower."""
    yield
    _syntax.cache_clear()
    _import_graph.cache_clear()


def test_no_module_of_the_package_is_part_of_an_import_cycle() -> None:
    graph = _import_graph()
    imports = nx.DiGraph()
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            imports.add_edge(module, imported)
    cycles = sorted(sorted(c) for c in nx.strongly_connected_components(imports) if len(c) > 1)
    assert cycles == []


def test_the_draft_and_the_rules_data_never_import_a_report_or_the_command_line() -> None:
    graph = _import_graph()
    for low in ("kremlin_triplea.draft", "kremlin_triplea.gamerules", "kremlin_triplea.rules", "kremlin_triplea.model", "kremlin_triplea.gamefile"):
        for high in ("kremlin_triplea.report", "kremlin_triplea.cli", "kremlin_triplea.tools", "kremlin_triplea.assistant"):
            assert not graph.chain_exists(importer=low, imported=high, as_packages=True), (low, high)


def test_every_kind_of_option_has_its_schema_and_its_mechanism() -> None:
    """A ruleset's ``kind`` names one registered kind (draft/kinds) that carries its parameters class and its target class."""
    from kremlin_triplea.draft.kinds import KINDS, params_by_kind
    from kremlin_triplea.draft.rulesets import load_named_ruleset

    assert {name: params.KIND for name, params in params_by_kind().items()} == {name: name for name in KINDS}
    from kremlin_triplea.rules.datafiles import named_rule_files

    # Every kind a shipped ruleset uses is registered (a kind added in code or in a test need not be used by one yet).
    used = {o.kind for name in named_rule_files("ruleset") for o in load_named_ruleset(name).options}
    assert used and used <= set(KINDS)
    assert len({kind.target_key for kind in KINDS.values()}) == len(KINDS)  # a draft's pick names its target by one key per kind


@pytest.mark.slow
def test_no_module_imports_another_modules_private_name() -> None:
    """A leading underscore means "this module's own": a name another module needs is made public, with a docstring."""

    package = Path(__file__).resolve().parents[1] / "src" / "kremlin_triplea"
    crossing = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(_syntax_of(path)):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("kremlin_triplea"):
                crossing += [f"{path.relative_to(package)}: {node.module}.{a.name}" for a in node.names if a.name.startswith("_")]
    assert crossing == []


def test_every_scratch_folder_is_made_by_the_one_that_a_later_run_cleans() -> None:
    """Issue 27: a kill -9 left the matrix's, profile new's and the engine's temporary folders behind for good. Every
    scratch folder is gamefile.safe.scratch_folder, whose leftovers the next run removes; a fixed name must match it."""
    import re

    from kremlin_triplea.gamefile import safe

    package = Path(__file__).resolve().parents[1] / "src" / "kremlin_triplea"
    elsewhere = [
        f"{path.relative_to(package)}:{number}"
        for path in sorted(package.rglob("*.py"))
        if path.name != "safe.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\b(TemporaryDirectory|mkdtemp)\(", line)
    ]
    assert elsewhere == []
    used = {m.group(1) for path in package.rglob("*.py") for m in re.finditer(r'scratch_folder\("([^"]*)"\)', path.read_text(encoding="utf-8"))}
    assert used and all(safe._SCRATCH_NAME.match(f"kremlin-{what}-1-abc") for what in used), used


#: Issue 30: "no module over about 800 lines, functions under about 80" — a newcomer reads a module in one sitting.
MAX_MODULE_LINES = 800
MAX_FUNCTION_LINES = 80

#: Modules and functions still being split on other branches today, each with why; the lead empties this at the end.
#: A path alone allows the module's length; "path:function" allows that function's.
STILL_BEING_SPLIT: dict[str, str] = {}


def _sizes(package=None) -> tuple[dict[str, int], dict[str, int]]:
    """Each module's lines and each function's (``path:name``, nested functions too) in ``package`` (src/kremlin_triplea)."""

    package = package or Path(__file__).resolve().parents[1] / "src" / "kremlin_triplea"
    modules: dict[str, int] = {}
    functions: dict[str, int] = {}
    for path in sorted(package.rglob("*.py")):
        name = path.relative_to(package).as_posix()
        text = path.read_text(encoding="utf-8")
        modules[name] = len(text.splitlines())
        for node in ast.walk(_syntax(path, text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                key = f"{name}:{node.name}"
                functions[key] = max(functions.get(key, 0), node.end_lineno - node.lineno + 1)
    return modules, functions


def test_no_module_is_over_800_lines_and_no_function_over_80() -> None:
    modules, functions = _sizes()
    too_long = {name: n for name, n in modules.items() if n > MAX_MODULE_LINES}
    too_long |= {name: n for name, n in functions.items() if n > MAX_FUNCTION_LINES}
    assert {name: n for name, n in too_long.items() if name not in STILL_BEING_SPLIT} == {}
    # An entry that no longer needs its allowance is removed, so the list says what is left to do.
    assert sorted(name for name in STILL_BEING_SPLIT if name not in too_long) == []


def test_the_size_check_sees_a_long_module_and_a_long_nested_function(tmp_path) -> None:
    """The measure itself: a method of 81 lines nested in a function, in a module of 801 lines."""
    body = "\n".join(f"            x{i} = {i}" for i in range(79))
    source = f"def outer():\n    class Inner:\n        def method(self):\n{body}\n            return x0\n    return Inner\n"
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "mod.py").write_text(source + "\n" * (801 - len(source.splitlines())), encoding="utf-8")
    modules, functions = _sizes(tmp_path)
    assert modules == {"sub/mod.py": 801}
    assert functions == {"sub/mod.py:outer": 84, "sub/mod.py:method": 81}


def test_every_extension_point_is_one_registry_and_each_change_kind_has_its_action() -> None:
    """Issue 30: option kinds, change kinds and their actions were three shapes (a class registry, two dicts of
    functions merged by hand); each is now a Registry, and a change kind the rule data accept has one action."""
    from kremlin_triplea.draft.kinds import KINDS
    from kremlin_triplea.gamerules.context import CHANGE_ACTIONS
    from kremlin_triplea.rules.game_rules import CHANGE_KINDS
    from kremlin_triplea.rules.registry import Registry

    assert all(isinstance(registry, Registry) for registry in (KINDS, CHANGE_KINDS, CHANGE_ACTIONS))
    assert sorted(CHANGE_ACTIONS) == sorted(CHANGE_KINDS)


def test_a_registry_lists_in_the_order_added_refuses_a_name_twice_and_offers_close_names() -> None:
    import pytest

    from kremlin_triplea.rules.registry import Registry, UnknownEntry

    registry: Registry[int] = Registry("widget")
    registry.add("zebra", 1)
    registry.register("apple")(2)
    assert list(registry) == ["zebra", "apple"] and registry.items() == [("zebra", 1), ("apple", 2)]
    with pytest.raises(ValueError, match="widget 'apple' registered twice"):
        registry.add("apple", 3)
    with pytest.raises(UnknownEntry) as unknown:
        registry["aple"]
    assert str(unknown.value) == "unknown widget 'aple' (did you mean 'apple'?)"
    with pytest.raises(KeyError, match=r"unknown widget 'mango' \(known: zebra, apple\)"):
        registry.remove("mango")
    registry.remove("zebra")
    assert "zebra" not in registry and registry.names() == ["apple"]


def test_no_module_carries_a_setting_in_a_context_variable() -> None:
    """Issue 30: ``--profile`` and ``--triplea`` were carried to what needed them in ContextVars, steps nobody saw in
    a call; a setting is now passed as an argument, from the command line down."""

    package = Path(__file__).resolve().parents[1] / "src" / "kremlin_triplea"
    carried = [str(path.relative_to(package)) for path in sorted(package.rglob("*.py")) if "contextvars" in path.read_text(encoding="utf-8")]
    assert carried == []


@pytest.mark.slow
def test_drafts_are_driven_through_the_session_alone() -> None:
    """Issue 30: one object drives every draft (terminal, room, matrix, value, apply). Outside draft/ (which defines
    DraftRun) and session/ (which builds one per Session and pushes the steps onto it), no module constructs a
    DraftRun or calls the DraftRun methods that change a draft: its picks, declarations and bid are a Session's steps.
    The scripts (benchmarks, the unseen maps' survey) and the tests' helpers drive drafts the same way."""

    from kremlin_triplea.draft.run import DraftRun

    repo = Path(__file__).resolve().parents[1]
    package = repo / "src" / "kremlin_triplea"
    outside = sorted((repo / "scripts").rglob("*.py")) + sorted((repo / "tests" / "support").rglob("*.py"))
    changing = {name for name in vars(DraftRun) if callable(getattr(DraftRun, name)) and name.split("_")[0] in ("apply", "declare", "pop", "push", "take")}
    assert {"push", "pop", "apply_pick", "apply_bid", "declare_next", "pop_declaration"} <= changing
    # push and pop are also the board's and the session's: a DraftRun's are called on a `run` (a name or `.run`).
    shared = {"push", "pop"}
    found = []
    for path in sorted(package.rglob("*.py")) + outside:
        if path.is_relative_to(package) and path.relative_to(package).parts[0] in ("draft", "session"):
            continue
        for node in ast.walk(_syntax_of(path)):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name == "DraftRun":
                found.append(f"{path.relative_to(repo)}:{node.lineno}: constructs a DraftRun")
            elif isinstance(func, ast.Attribute) and name in changing:
                receiver = func.value
                on_run = (isinstance(receiver, ast.Name) and receiver.id == "run") or (isinstance(receiver, ast.Attribute) and receiver.attr == "run")
                if name not in shared or on_run:
                    found.append(f"{path.relative_to(repo)}:{node.lineno}: calls DraftRun.{name}")
    assert found == []

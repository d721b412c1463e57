"""Fixtures shared by every test; the helpers themselves are in tests/support/."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest

from support.paths import MAPS_DIR
from support.properties import set_quick

#: Fixture scopes that outlive one test: a test using one shares what it built (a JVM's readings, written games).
SHARED_SCOPES = frozenset({"class", "module", "package"})


def _cache_bytecode_outside_the_checkout() -> None:
    """Compile each module once per change, not once per process, even where PYTHONDONTWRITEBYTECODE is set.

    The suite starts hundreds of Pythons (the CLI, the engines' children, each xdist worker): without bytecode each
    compiles the package and rewrites the test modules' asserts anew, 6 s of CPU per worker before the first test.
    The bytecode goes to one folder in the system's temporary folder (PYTHONPYCACHEPREFIX, unless one is given), so
    the checkout stays as clean as PYTHONDONTWRITEBYTECODE keeps it; the children inherit the setting."""
    if not sys.dont_write_bytecode and not os.environ.get("PYTHONDONTWRITEBYTECODE"):
        return
    prefix = os.environ.get("PYTHONPYCACHEPREFIX") or str(Path(tempfile.gettempdir()) / "kremlin-triplea-test-bytecode")
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = prefix
    sys.pycache_prefix = prefix
    sys.dont_write_bytecode = False


_cache_bytecode_outside_the_checkout()


def pytest_configure(config: pytest.Config) -> None:
    """The quick subset is the run that leaves out the slow tests (README: ``-m "not engine and not slow"``)."""
    set_quick("not slow" in (config.getoption("markexpr") or ""))


@pytest.fixture
def maps_dir() -> Path:
    return MAPS_DIR


@pytest.fixture(scope="session")
def engine_readings(tmp_path_factory: pytest.TempPathFactory):
    """TripleA 1.9's readings, one per file, its bytes and the options for the whole run, whichever worker asks.

    pytest-xdist's workers each have their own session and temporary folder; the readings are kept in the folder
    beside them (the pytest-xdist documentation's recipe for session fixtures shared between workers). Imported
    here, not above: the quick subset never starts an engine."""
    from support.engine import SharedReadings

    base = tmp_path_factory.getbasetemp()
    return SharedReadings((base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "engine-readings")


@pytest.fixture(scope="session")
def drafted_profiles(tmp_path_factory: pytest.TempPathFactory):
    """``profile new``'s draft for a game, made once for the whole run whichever worker asks (as engine_readings)."""
    from support.drafted import SharedDrafts

    base = tmp_path_factory.getbasetemp()
    return SharedDrafts((base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "drafted-profiles")


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups (its own collection_modifyitems)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    _keep_tests_sharing_a_fixture_on_one_worker(items)
    _longest_first(items)
    if not sys.platform.startswith("linux"):
        _skip_linux_only(items)


def _keep_tests_sharing_a_fixture_on_one_worker(items: list[pytest.Item]) -> None:
    """Tests that share a module's fixture run on one worker (scripts/test runs ``-n auto --dist loadgroup``).

    Spread over two workers, a module-scoped fixture is built by each: the engine tests' fixtures each start a JVM
    over many games, so building one twice costs as much as the tests it serves. A group is the tests joined by the
    shared fixtures they use, not their whole module: a module with two engines' fixtures (TripleA 1.9's readings
    and 2.7's) gives two groups, which two workers run side by side. Tests without such a fixture are spread one by
    one."""
    # Union-find over (module, fixture name): two fixtures are joined when one test uses both.
    parent: dict[tuple[str, str], tuple[str, str]] = {}

    def root(key: tuple[str, str]) -> tuple[str, str]:
        while parent.setdefault(key, key) != key:
            key = parent[key]
        return key

    sharing = [(item, [(item.nodeid.split("::", 1)[0], name) for name in _shared_fixtures(item)]) for item in items]
    for _, shared in sharing:
        for other in shared[1:]:
            parent[root(other)] = root(shared[0])
    fixtures_of: dict[tuple[str, str], set[str]] = {}
    for _, shared in sharing:
        for key in shared:
            fixtures_of.setdefault(root(key), set()).add(key[1])
    for item, shared in sharing:
        if shared:
            group = root(shared[0])
            # Named by the module and its fixtures, sorted: the same group in every worker's collection.
            item.add_marker(pytest.mark.xdist_group(f"{group[0]}::{'+'.join(sorted(fixtures_of[group]))}"))


def _longest_first(items: list[pytest.Item]) -> None:
    """The engine's tests first, then the other slow ones, then the rest, each in collection order.

    pytest-xdist hands the groups out first, then the tests one by one in this order: a minute-long test left for
    the end keeps one worker busy while the other has nothing left to do (longest first is the classic remedy).
    The order is the same in every worker's collection, as pytest-xdist requires."""
    items.sort(key=lambda item: 0 if item.get_closest_marker("engine") else 1 if item.get_closest_marker("slow") else 2)


def _shared_fixtures(item: pytest.Item) -> list[str]:
    """The names of the fixtures ``item`` uses (directly or through another fixture) that outlive one test."""
    definitions = getattr(item, "_fixtureinfo", None)
    if definitions is None:
        return []
    return [name for name in definitions.names_closure if any(fixture.scope in SHARED_SCOPES for fixture in definitions.name2fixturedefs.get(name, ()))]


def _skip_linux_only(items: list[pytest.Item]) -> None:
    """A test marked linux_only is not run on another system: it would test Linux's behaviour there, not ours."""
    for item in items:
        if "linux_only" in item.keywords:
            item.add_marker(pytest.mark.skip(reason="linux_only: needs Linux"))

"""Fixtures shared by every test; the helpers themselves are in tests/support/."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from support.paths import MAPS_DIR

#: Fixture scopes that outlive one test: a test using one shares what it built (a JVM's readings, written games).
SHARED_SCOPES = frozenset({"class", "module", "package"})


@pytest.fixture
def maps_dir() -> Path:
    return MAPS_DIR


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups (its own collection_modifyitems)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        _keep_a_modules_shared_fixtures_on_one_worker(item)
    if not sys.platform.startswith("linux"):
        _skip_linux_only(items)


def _keep_a_modules_shared_fixtures_on_one_worker(item: pytest.Item) -> None:
    """Tests that share a module's fixture run on one worker (scripts/test runs ``-n auto --dist loadgroup``).

    Spread over two workers, a module-scoped fixture is built by each: the engine tests' fixtures each start a JVM
    over many games, so building one twice costs as much as the tests it serves. Tests without such a fixture are
    spread one by one."""
    definitions = getattr(item, "_fixtureinfo", None)
    if definitions is None:
        return
    for name in definitions.names_closure:
        for fixture in definitions.name2fixturedefs.get(name, ()):
            if fixture.scope in SHARED_SCOPES:
                item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))
                return


def _skip_linux_only(items: list[pytest.Item]) -> None:
    """A test marked linux_only is not run on another system: it would test Linux's behaviour there, not ours."""
    for item in items:
        if "linux_only" in item.keywords:
            item.add_marker(pytest.mark.skip(reason="linux_only: needs Linux"))

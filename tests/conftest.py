"""Fixtures shared by every test; the helpers themselves are in tests/support/."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from support.paths import MAPS_DIR


@pytest.fixture
def maps_dir() -> Path:
    return MAPS_DIR


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test marked linux_only is not run on another system: it would test Linux's behaviour there, not ours."""
    if sys.platform.startswith("linux"):
        return
    for item in items:
        if "linux_only" in item.keywords:
            item.add_marker(pytest.mark.skip(reason="linux_only: needs Linux"))

"""Fixtures shared by every test; the helpers themselves are in tests/support/."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.paths import MAPS_DIR


@pytest.fixture
def maps_dir() -> Path:
    return MAPS_DIR

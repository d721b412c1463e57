"""gamefile/kept.py: what was worked out from a file's contents is kept for those contents, the most recent first."""

from __future__ import annotations

import pytest

from kremlin_triplea.gamefile.kept import Kept


def test_a_value_is_made_once_per_key_and_the_least_recently_used_goes_first() -> None:
    made: list[str] = []
    kept: Kept[str] = Kept(2)

    def get(key: str) -> str:
        return kept.get(key, lambda: made.append(key) or key.upper())

    assert [get("a"), get("b"), get("a")] == ["A", "B", "A"] and made == ["a", "b"]
    get("c")  # three keys for two places: "b" was used longest ago
    assert [get("a"), get("c")] == ["A", "C"] and made == ["a", "b", "c"]
    get("b")
    assert made == ["a", "b", "c", "b"]


def test_a_value_that_cannot_be_made_is_not_kept() -> None:
    kept: Kept[str] = Kept(2)

    def broken() -> str:
        raise ValueError("a bad file")

    with pytest.raises(ValueError, match="a bad file"):
        kept.get("a", broken)
    assert kept.get("a", lambda: "made") == "made"

"""How many random examples a property test draws: all of them in the full suite, a quarter in the quick subset.

The quick subset (``-m "not engine and not slow"``, the check made while working) must stay under a minute, and a
property whose every example runs a whole command costs its examples. The cases that found the bugs a property
guards against are its ``@example``s, run in both; the full suite (``scripts/test``, CI) draws every example.
tests/conftest.py says which run this is (:func:`set_quick`) before any test module is imported.
"""

from __future__ import annotations

_quick = False


def set_quick(quick: bool) -> None:
    global _quick
    _quick = quick


def examples(full: int) -> int:
    """``full`` examples in the full suite; a quarter of them (at least 5) in the quick subset."""
    return max(5, full // 4) if _quick else full

"""What goes wrong when a TripleA engine is driven: it is not there, or it failed (every engine module raises these)."""

from __future__ import annotations

from kremlin_triplea.errors import KremlinError

__all__ = ["EngineFailed", "EngineUnavailable"]


class EngineUnavailable(KremlinError):
    """No TripleA engine, Java runtime or JPype is installed where it is looked for."""


class EngineFailed(KremlinError):
    """The engine's JVM crashed, hung or answered something the bridge never asks for."""

"""kremlin-triplea: Kremlin drafts, scenarios, house rules and bids for TripleA games."""

from __future__ import annotations

__version__ = "0.1.0"

"""Helpers shared by the tests: where the pinned inputs are, fresh games, drafts drawn from the legal picks.

Tests import from here (``from support.paths import MAPS_DIR``), never from another test module.
"""

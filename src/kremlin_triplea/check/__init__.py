"""Checks of a game file: our validator (TripleA's own refusals and silent misreadings)."""

"""Tools for map makers and CI: the option x game matrix and map-profile tools."""

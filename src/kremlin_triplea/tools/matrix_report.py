"""The matrix's report: a cell per option and game, what it found, and the report written as a text table,
JSON and JUnit XML (``kremlin-triplea matrix``'s outputs). See :mod:`kremlin_triplea.tools.matrix` for what runs."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from kremlin_triplea.rules.profile import Profile

APPLIED, NOT_APPLICABLE, FAILED = "applied", "not applicable", "failed"
FILE_LIMIT = 400  # place states per written file: a failing file's problems are laid at the states whose XML holds them


@attrs.define
class Cell:
    """One option (row) on one game (column)."""

    ruleset: str
    row: str
    game: str
    applied: int = 0
    reasons: list[str] = attrs.field(factory=list)  # why not applicable (per side)
    errors: list[str] = attrs.field(factory=list)

    @property
    def status(self) -> str:
        if self.errors:
            return FAILED
        return APPLIED if self.applied else NOT_APPLICABLE

    def as_dict(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "option": self.row,
            "game": self.game,
            "status": self.status,
            "applied": self.applied,
            "reasons": self.reasons,
            "errors": self.errors,
        }


@attrs.frozen
class GameSpec:
    """A game for the matrix: its file, how it is shown, and the profile given for it (None: the one apply finds)."""

    path: Path
    label: str
    profile: Profile | None


@attrs.define
class Report:
    cells: dict[tuple[str, str, str], Cell] = attrs.field(factory=dict)
    games: list[str] = attrs.field(factory=list)
    rows: list[tuple[str, str]] = attrs.field(factory=list)  # (ruleset, row) in order
    notes: dict[str, list[str]] = attrs.field(factory=dict)  # game -> notes
    figures: dict[str, float] = attrs.field(factory=dict)

    def cell(self, ruleset: str, row: str, game: str) -> Cell:
        key = (ruleset, row, game)
        if key not in self.cells:
            self.cells[key] = Cell(ruleset, row, game)
            if (ruleset, row) not in self.rows:
                self.rows.append((ruleset, row))
        return self.cells[key]

    @property
    def failed(self) -> list[Cell]:
        return [c for c in self.cells.values() if c.status == FAILED]


# -- output ------------------------------------------------------------------------------


def text_table(report: Report) -> str:
    games = report.games
    lines = ["Games:"]
    lines += [f"  G{i + 1:<3} {g}" for i, g in enumerate(games)]
    width = max([len(f"{r} {o}") for r, o in report.rows] + [10])
    header = f"{'option':<{width}} " + " ".join(f"{'G' + str(i + 1):>6}" for i in range(len(games)))
    lines += ["", header]
    for ruleset, row in report.rows:
        cells = []
        for game in games:
            cell = report.cells.get((ruleset, row, game))
            if cell is None:
                cells.append(f"{'':>6}")
            elif cell.status == FAILED:
                cells.append(f"{'FAIL':>6}")
            elif cell.status == APPLIED:
                cells.append(f"{cell.applied:>6}")
            else:
                cells.append(f"{'n/a':>6}")
        lines.append(f"{ruleset + ' ' + row:<{width}} " + " ".join(cells))
    lines += ["", "A number is how many picks applied and checked; n/a: not applicable (why below); FAIL: see below."]
    reasons = [c for c in report.cells.values() if c.status == NOT_APPLICABLE]
    if reasons:
        lines += ["", "Not applicable:"]
        lines += _not_applicable_lines(report, reasons)
    partly = [c for c in report.cells.values() if c.status == APPLIED and c.reasons]
    if partly:
        lines += ["", "Applied for one side only:"]
        for cell in partly:
            lines.append(f"  {cell.ruleset} {cell.row} on {cell.game}: {'; '.join(dict.fromkeys(cell.reasons))}")
    notes = [(g, n) for g, ns in report.notes.items() for n in dict.fromkeys(ns)]
    if notes:
        lines += ["", "Notes:"]
        lines += [f"  {g}: {n}" for g, n in notes]
    failed = report.failed
    if failed:
        lines += ["", "Failures:"]
        for cell in failed:
            lines.append(f"  {cell.ruleset} {cell.row} on {cell.game}: {len(cell.errors)} failed")
            lines += [f"    {e}" for e in cell.errors[:5]]
    total = sum(c.applied for c in report.cells.values())
    lines += ["", f"{total} picks, bids and drafts applied; {len(failed)} failed cells; {len(report.cells)} cells."]
    figures = report.figures
    line = f"{figures.get('files_written', 0):.0f} games written, read back and validated in {figures.get('seconds_without_engine', 0):.1f} s"
    if "engine_seconds" in figures:
        line += f"; the engine read {figures['engine_files']:.0f} of them in one JVM in {figures['engine_seconds']:.1f} s"
    lines.append(line + ".")
    return "\n".join(lines) + "\n"


def _not_applicable_lines(report: Report, cells: list[Cell]) -> list[str]:
    """One line per cell; a ruleset whose every row on a game is not applicable for one reason (apply refuses the
    game, an alliance it lacks) gets one line for them all."""
    rows: dict[tuple[str, str], list[Cell]] = {}
    for cell in report.cells.values():
        rows.setdefault((cell.ruleset, cell.game), []).append(cell)
    lines, done = [], set()
    for cell in cells:
        key = (cell.ruleset, cell.game)
        if key in done:
            continue
        every = rows[key]
        why = "; ".join(dict.fromkeys(cell.reasons))
        if len(every) > 1 and all(c.status == NOT_APPLICABLE and "; ".join(dict.fromkeys(c.reasons)) == why for c in every):
            done.add(key)
            lines.append(f"  {cell.ruleset} on {cell.game} (all {len(every)} rows): {why}")
        else:
            lines.append(f"  {cell.ruleset} {cell.row} on {cell.game}: {why}")
    return lines


def json_data(report: Report) -> dict[str, Any]:
    return {
        "games": report.games,
        "cells": [report.cells[k].as_dict() for k in sorted(report.cells, key=lambda k: (report.rows.index(k[:2]), report.games.index(k[2])))],
        "notes": {g: list(dict.fromkeys(n)) for g, n in report.notes.items()},
        "failed": len(report.failed),
        "figures": report.figures,
    }


def junit_xml(report: Report) -> bytes:
    """One test suite per game, one test case per option; not applicable is a skipped case."""
    from lxml import etree

    suites = etree.Element("testsuites", name="kremlin-triplea matrix")
    for game in report.games:
        cells = [c for (r, o, g), c in report.cells.items() if g == game]
        suite = etree.SubElement(
            suites,
            "testsuite",
            name=game,
            tests=str(len(cells)),
            failures=str(sum(c.status == FAILED for c in cells)),
            skipped=str(sum(c.status == NOT_APPLICABLE for c in cells)),
        )
        for cell in cells:
            case = etree.SubElement(suite, "testcase", classname=cell.ruleset, name=cell.row)
            if cell.status == FAILED:
                failure = etree.SubElement(case, "failure", message=cell.errors[0][:500])
                failure.text = "\n".join(cell.errors)
            elif cell.status == NOT_APPLICABLE:
                etree.SubElement(case, "skipped", message="; ".join(dict.fromkeys(cell.reasons))[:1000])
            else:
                out = etree.SubElement(case, "system-out")
                out.text = f"{cell.applied} applied and checked"
    return etree.tostring(suites, xml_declaration=True, encoding="UTF-8", pretty_print=True)


def progress_printer(stream=sys.stderr) -> Callable[[int, int, str], None]:
    def show(done: int, total: int, label: str) -> None:
        width = 30
        filled = width * done // max(total, 1)
        stream.write(f"\rmatrix [{'#' * filled}{' ' * (width - filled)}] {done}/{total} {label[:40]:<40}")
        if done == total:
            stream.write("\n")
        stream.flush()

    return show

"""The ``-o/--output`` option type every command shares: a file name, never a folder (issue 15).

Writing a draft's outputs all or none is :func:`kremlin_triplea.tools.outputs.write_apply_outputs`, which the
terminal draft and the draft room share with ``apply``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from kremlin_triplea.errors import InputError


class OutputPath(click.ParamType):
    """A path to write: ``dir/`` (a trailing slash) names a folder and is refused with one line.

    ``pathlib`` drops a trailing slash, so the check is made on the text as typed;
    everything else (folders, devices, FIFOs, inputs, existing files) is checked
    by ``gamefile.safe.check_output`` when the file is written.
    """

    name = "file"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Path:
        from kremlin_triplea.gamefile.locate import native_path

        given = os.fspath(value)
        text = native_path(given)  # out\\game.xml, as on Windows, when the folder "out" exists
        if text.endswith(("/", os.sep)):
            raise InputError("names a folder (it ends in a slash); name the output file", where=given)
        return Path(text)


OUTPUT_PATH = OutputPath()

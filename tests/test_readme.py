"""The README's Python example runs as written and prints what its comments say."""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_python_example_runs(tmp_path: Path, monkeypatch) -> None:
    code = re.search(r"```python\n(.*?)```", README.read_text(), re.S).group(1)
    code = code.replace('"/tmp/kremlin-example.xml"', repr(str(tmp_path / "example.xml")))
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "README.md", "exec"), {})
    lines = printed.getvalue().splitlines()
    assert lines[1:] == ["31", "['Finland']", "('15 Sea Zone', '16 Sea Zone')"]
    assert (tmp_path / "example.xml").is_file()
    assert os.path.getsize(tmp_path / "example.xml") > 100_000


def test_quick_start_main_command_generates_the_example_game(tmp_path: Path) -> None:
    import shlex
    import subprocess
    import sys

    block = re.search(r"## Quick start.*?```sh\n(.*?)```", README.read_text(), re.S).group(1)
    main_command = block.splitlines()[0].split("&&", 1)[1].strip()
    words = shlex.split(main_command)
    assert words[0] == "kremlin-triplea"
    out = tmp_path / "game.xml"
    words = [str(out) if w.startswith("/tmp/") else w for w in words[1:]]
    repo = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-m", "kremlin_triplea", *words], cwd=repo, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"wrote {out}" in done.stdout
    from kremlin_triplea import load

    assert load(out).board.owner("Archangel") == "Germans"


def test_install_lines_use_an_environment_of_their_own_on_every_system() -> None:
    # A system Python marked "externally managed" (PEP 668: Debian, Ubuntu, Homebrew) refuses `pip install .`
    # outside a virtualenv: the host's step 1 gives a virtualenv and a pipx line for each system.
    text = README.read_text(encoding="utf-8")
    step = text.split("1. **Install**", 1)[1].split("2. **Your maps**", 1)[0]
    assert "python3 -m venv" in step and "py -m venv" in step  # Linux and macOS; Windows
    assert step.count("pipx install") == 2
    assert "'.[png]'" in step and '".[png]"' in step  # the quoting each system's shell needs
    quick = text.split("## Quick start", 1)[1].split("```sh", 1)[0]
    assert "virtualenv of its own for the tests" in quick and "python3 -m venv" in quick


def test_the_png_extra_is_the_one_named_and_render_without_it_names_it(tmp_path: Path, monkeypatch) -> None:
    import sys

    from click.testing import CliRunner

    from kremlin_triplea.cli.main import main
    from kremlin_triplea.rules.tomlfile import read_toml
    from support.paths import MAPS_DIR

    project = read_toml(README.parent / "pyproject.toml")["project"]
    assert any(d.startswith("cairosvg") for d in project["optional-dependencies"]["png"])
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # as after the README's install without the extra
    result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "render", "world_war_ii_v3/WW2v3-1941.xml", "-o", str(tmp_path / "x.png")])
    assert result.exit_code == 2
    assert "install the tool with its png extra, python3 -m pip install '.[png]'" in result.stderr
    assert not (tmp_path / "x.png").exists()


def test_the_default_install_name_is_described_once_and_is_plain_ascii() -> None:
    import datetime

    from click.testing import CliRunner

    from kremlin_triplea.cli.main import main
    from kremlin_triplea.gamefile.install import default_game_name

    described = '"<base game> Kremlin - <player> v <player> <date>"'
    text = README.read_text(encoding="utf-8")
    assert text.count(described) == 2  # the host's step 4 and the command table, in the same words
    assert "Kremlin —" not in text
    assert described in " ".join(CliRunner().invoke(main, ["apply", "--help"]).output.split())
    example = default_game_name("World War II v3 1941 Kremlin", ["Ann", "Bob"], datetime.date(2026, 11, 22))
    assert f'e.g. "{example}"' in " ".join(text.split()) and example.isascii()

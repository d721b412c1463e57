"""Every input is read within TripleA's own bounds, in time linear in its size, and SIGTERM stops a run (issue 40).

A game whose element had 32,000 attributes took 56 s to edit, and with 300,000 ran until killed: lxml looks each
attribute's value up by name again when a whole element's attributes are read, so reading them was quadratic, in C,
where SIGTERM is not seen. The read is now linear (scripts/bench_inputs.py prints the times) and bounded by the
limits of TripleA's own XML parser (the JDK's: 10,000 attributes in one element, names of 1,000 characters), which
refuses such files too: the bounds are checked against TripleA 2.7 itself here.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from kremlin_triplea.cli.main import main
from kremlin_triplea.gamefile.document import XmlDocument, attributes_of
from support.paths import AA50_1941, EXAMPLES_DIR, MAPS_DIR, SHARED

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = EXAMPLES_DIR / "kremlin-aa50-1941.toml"


def with_attributes(count: int, name_length: int = 2) -> bytes:
    """AA50 1941 with ``count`` attributes in its <info> element (its own ``name`` and ``version`` included)."""
    extra = b"".join(b' %s%d="v"' % (b"x" * (name_length - 1), i) for i in range(count - 2))
    return AA50_1941.read_bytes().replace(b"<info ", b"<info" + extra + b" ", 1)


def with_element_name(length: int) -> bytes:
    return AA50_1941.read_bytes().replace(b"<info ", b"<%s/><info " % (b"e" * length), 1)


CASES = {
    "10,000 attributes": (with_attributes(10_000), True),
    "10,001 attributes": (with_attributes(10_001), False),
    "an attribute name of 1,000 characters": (with_attributes(3, name_length=1_000), True),
    "an attribute name of 1,001 characters": (with_attributes(3, name_length=1_001), False),
    "an element name of 1,000 characters": (with_element_name(1_000), True),
    "an element name of 1,001 characters": (with_element_name(1_001), False),
}


def read_by_us(path: Path) -> bool:
    result = CliRunner().invoke(main, ["validate", str(path)])
    if result.exit_code == 2 and "TripleA's XML parser refuses" in result.stderr:
        assert result.stderr.count("\n") == 1 and f"{path}:" in result.stderr, result.stderr
        return False
    return True


@pytest.mark.engine
def test_the_bounds_are_triplea_2_7s_own(tmp_path: Path) -> None:
    """TripleA 2.7's GameParser reads the files we read and refuses the ones we refuse (its JAXP limits)."""
    paths = []
    for number, (data, _) in enumerate(CASES.values()):
        paths.append(tmp_path / f"case{number}.xml")
        paths[-1].write_bytes(data)
    child = r"""
import sys, jpype
jar, paths = sys.argv[1], sys.argv[2:]
libraries = "guava gson commons-io commons-math3 commons-text commons-lang3 slf4j-api logback-classic logback-core snakeyaml".split()
jpype.startJVM("-Djava.awt.headless=true", "-Dtriplea.headless=true", classpath=[jar] + [f"/usr/share/java/{n}.jar" for n in libraries], convertStrings=True)
System = jpype.JClass("java.lang.System"); System.setOut(System.err)
Paths = jpype.JClass("java.nio.file.Paths"); GameParser = jpype.JClass("games.strategy.engine.data.gameparser.GameParser")
print(" ".join(str(GameParser.parse(Paths.get(p), False).isPresent()) for p in paths))
"""
    jar = SHARED / "triplea-engine-2.7" / "triplea-2.7.15472-headless.jar"
    done = subprocess.run([sys.executable, "-c", child, str(jar), *map(str, paths)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    by_triplea = [answer == "True" for answer in done.stdout.split()]
    assert by_triplea == [read for _, read in CASES.values()], "the cases are on both sides of TripleA's bounds"
    assert [read_by_us(path) for path in paths] == by_triplea


@pytest.mark.parametrize("case", list(CASES))
def test_a_file_beyond_the_bounds_is_refused_in_one_line_naming_its_line(tmp_path: Path, case: str) -> None:
    data, readable = CASES[case]
    path = tmp_path / "game.xml"
    path.write_bytes(data)
    result = CliRunner().invoke(main, ["validate", str(path)])
    if readable:
        assert "TripleA's XML parser refuses" not in result.stderr
    else:
        assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.stderr
        line = data.count(b"\n", 0, data.index(b"<info")) + 1 if "attribute" in case else data.count(b"\n", 0, data.index(b"<eee")) + 1
        assert f"{path}:{line}: " in result.stderr and "TripleA's XML parser refuses" in result.stderr


def test_an_element_with_many_attributes_is_edited_with_every_attribute_kept(tmp_path: Path) -> None:
    data = with_attributes(10_000)
    document = XmlDocument(data, source="many.xml")
    info = document.root.find("info")
    before = attributes_of(info)
    assert len(before) == 10_000 and before == dict(zip(info.keys(), (info.get(k) for k in info.keys()), strict=True))
    document.set_attribute(info, "name", "Kremlin")
    written = document.to_bytes()
    assert written == data.replace(b'name="World War II v3 1941"', b'name="Kremlin"', 1)


@pytest.mark.linux_only
def test_sigterm_stops_a_run_on_a_huge_element_at_once_with_one_line(tmp_path: Path) -> None:
    """The issue's case: 300,000 attributes ran for 695 s and SIGTERM had no effect."""
    game = tmp_path / "huge.xml"
    game.write_bytes(with_attributes(300_000))
    command = [
        sys.executable,
        "-m",
        "kremlin_triplea",
        "--maps-dir",
        str(MAPS_DIR),
        "apply",
        str(EXAMPLE),
        "--game",
        str(game),
        "-o",
        str(tmp_path / "out.xml"),
    ]
    process = subprocess.Popen(command, env={**os.environ, "PYTHONPATH": str(REPO / "src")}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_for_sigterm_handler(process.pid)
        signalled = time.monotonic()
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert time.monotonic() - signalled < 20, "the run ended soon after SIGTERM (or before it)"
    assert process.returncode in (2, 128 + signal.SIGTERM), err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert not (tmp_path / "out.xml").exists()


def _wait_for_sigterm_handler(pid: int, limit: float = 60.0) -> None:
    """Until the command has set its SIGTERM handler (Linux: SigCgt in /proc/PID/status), so that the signal meets the
    command at work, not Python starting up (on a loaded machine a fixed second was not enough); elsewhere a second."""
    status = Path(f"/proc/{pid}/status")
    if not status.exists():
        time.sleep(1.0)
        return
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            caught = next(line for line in status.read_text().splitlines() if line.startswith("SigCgt:"))
        except (OSError, StopIteration):
            return  # the command has ended already: the assertions say how
        if int(caught.split()[1], 16) & (1 << (signal.SIGTERM - 1)):
            return
        time.sleep(0.01)


@settings(max_examples=200, deadline=None)
@given(st.integers(990, 1_010), st.integers(0, 1_600), st.lists(st.integers(1, 1_200), max_size=6))
def test_a_long_name_is_found_wherever_it_stands(length: int, offset: int, gaps: list[int]) -> None:
    """An element name beyond TripleA's 1,000 characters is refused wherever it stands among text and short tags (the
    file is looked at in blocks first, and a run that long holds a whole block wherever it begins)."""
    from kremlin_triplea.gamefile.safe import _beyond_parser_limits

    filler = b"".join(b"x" * gap + b"<a/>" for gap in gaps)
    data = b"<game>" + b"t" * offset + filler + b"<" + b"e" * length + b"/>" + filler + b"</game>"
    found = _beyond_parser_limits(data)
    assert (found is not None) == (length > 1_000)
    assert found is None or found[0].startswith(f"an element's name is {length:,} characters")


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.integers(0, 1_600), st.sampled_from([499, 500, 501, 999, 1_000, 1_001, 1_002, 1_003, 30_000])), max_size=8))
def test_the_long_runs_are_every_lt_followed_by_more_than_a_names_length_without_another(gaps: list[int]) -> None:
    """_long_runs (the blocks looked into first, then each run once from its first block) gives exactly the '<' that a
    plain walk over every '<' gives: those followed by more than 1,000 bytes before the next one or the file's end."""
    from kremlin_triplea.gamefile.safe import MAX_NAME_LENGTH, _long_runs

    data = b"t" * (gaps[0] if gaps else 0) + b"".join(b"<" + b"x" * gap for gap in gaps[1:])
    starts = [i for i, byte in enumerate(data) if byte == ord("<")]
    ends = [*starts[1:], len(data)]
    assert list(_long_runs(data)) == [i for i, j in zip(starts, ends) if j > i + MAX_NAME_LENGTH + 1]

"""Windows' file semantics, simulated on any system (issue 32): text-mode descriptors, sharing violations, locks.

On Windows a descriptor opened without ``O_BINARY`` is read as text by the C
library (CRLF becomes LF, a Ctrl-Z byte ends the file); replacing a file that
an antivirus, an indexer or OneDrive holds open for a moment fails with
PermissionError; and there is no ``fcntl``, only ``msvcrt.locking``. Each is
simulated here the way the Windows C library and Python document it, so the
tests run (and would fail on the defect) on Linux too.
"""

from __future__ import annotations

import ast
import os
import re
import sys
import threading
import types
from pathlib import Path

import pytest

from kremlin_triplea.errors import InputError
from kremlin_triplea.gamefile import maplock, safe
from kremlin_triplea.gamefile.install import LOCK_NAME, install_game, map_lock, uninstall_game
from kremlin_triplea.gamefile.locate import read_map_folder
from kremlin_triplea.gamefile.safe import read_bytes, write_atomically
from support.concurrency import most_holders_at_once

SRC = Path(__file__).resolve().parents[1] / "src"
#: Stands for Windows' O_BINARY; a bit no real call passes, taken off before the real os.open.
FAKE_O_BINARY = 1 << 30


@pytest.fixture
def windows_text_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    """os.open/os.read as on Windows: a descriptor opened without O_BINARY reads CRLF as LF and stops at Ctrl-Z."""
    real_open, real_read, real_close = os.open, os.read, os.close
    real_binary = getattr(os, "O_BINARY", 0)  # on Windows itself the real flag still goes to the real open
    text_mode: set[int] = set()
    ended: set[int] = set()

    def fake_open(path, flags, *args, **kwargs):
        descriptor = real_open(path, flags & ~FAKE_O_BINARY | real_binary, *args, **kwargs)
        if not flags & FAKE_O_BINARY:
            text_mode.add(descriptor)
        return descriptor

    def fake_read(descriptor, count):
        data = real_read(descriptor, count)
        if descriptor not in text_mode:
            return data
        if descriptor in ended:
            return b""
        if b"\x1a" in data:
            data = data[: data.index(b"\x1a")]
            ended.add(descriptor)
        return data.replace(b"\r\n", b"\n")

    def fake_close(descriptor):
        text_mode.discard(descriptor)
        ended.discard(descriptor)
        return real_close(descriptor)

    monkeypatch.setattr(os, "O_BINARY", FAKE_O_BINARY, raising=False)
    monkeypatch.setattr(safe, "BINARY", FAKE_O_BINARY)
    monkeypatch.setattr(maplock, "BINARY", FAKE_O_BINARY)
    monkeypatch.setattr(os, "open", fake_open)
    monkeypatch.setattr(os, "read", fake_read)
    monkeypatch.setattr(os, "close", fake_close)


def a_map(tmp_path: Path, map_yml: bytes) -> Path:
    folder = tmp_path / "amap"
    (folder / "map" / "games").mkdir(parents=True)
    (folder / "map.yml").write_bytes(map_yml)
    return folder


# -- binary reads --------------------------------------------------------------------------------------


def test_an_input_is_read_byte_for_byte_crlf_and_ctrl_z_included(tmp_path: Path, windows_text_mode: None) -> None:
    data = b"line one\r\nline two\r\n\x1a after the Ctrl-Z\r\n" + bytes(range(256))
    path = tmp_path / "input.tsvg"
    path.write_bytes(data)
    assert read_bytes(path) == data


def test_a_crlf_map_yml_is_kept_byte_for_byte_through_install_and_uninstall(tmp_path: Path, windows_text_mode: None) -> None:
    # (YAML refuses a Ctrl-Z byte: that part is the test above, on a savegame's bytes.)
    original = b"map_name: amap\r\ngames:\r\n  - game_name: A\r\n    file_name: a.xml\r\n# CRLF to the end\r\n"
    folder = a_map(tmp_path, original)
    installed = install_game(read_map_folder(folder), "Kremlin", b"<game/>\r\n")
    after = (folder / "map.yml").read_bytes()
    entry = b'  - {game_name: "Kremlin", file_name: "Kremlin.xml"}\r\n'
    assert after == original.replace(b"# CRLF", entry + b"# CRLF"), "one CRLF line added after the list, no other byte changed"
    assert installed.game_file.read_bytes().startswith(b"<game/>\r\n")
    uninstall_game(tmp_path, "Kremlin")
    assert (folder / "map.yml").read_bytes() == original


def test_every_os_open_that_reads_opens_in_binary_mode() -> None:
    """The class, not the instance: any os.open for reading in the source names O_BINARY (safe.BINARY)."""
    offenders = []
    for path in sorted(SRC.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if not re.search(r"\bos\W*open\b", text):  # no os.open in it, however spelt: no need to parse it (a second)
            continue
        for node in ast.walk(ast.parse(text)):
            func = node.func if isinstance(node, ast.Call) else None
            if isinstance(func, ast.Attribute) and func.attr == "open" and ast.unparse(func) == "os.open" and len(node.args) > 1:
                flags = ast.unparse(node.args[1])
                if ("O_RDONLY" in flags or "O_RDWR" in flags) and "BINARY" not in flags:
                    offenders.append(f"{path.relative_to(SRC)}:{node.lineno}: {flags}")
    assert offenders == []


# -- a file held open for a moment by another program --------------------------------------------------


def failing_replace(monkeypatch: pytest.MonkeyPatch, failures: int) -> list[int]:
    real_replace, calls = os.replace, []

    def replace(source, target):
        calls.append(1)
        if len(calls) <= failures:
            raise PermissionError(13, "The process cannot access the file because it is being used by another process")
        return real_replace(source, target)

    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(safe, "REPLACE_RETRY_SECONDS", (0.01, 0.01, 0.01))
    return calls


def test_a_replace_meeting_a_sharing_violation_is_tried_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "game.xml"
    target.write_bytes(b"old")
    calls = failing_replace(monkeypatch, failures=2)
    write_atomically(target, b"new", overwrite=True)
    assert target.read_bytes() == b"new" and len(calls) == 3
    assert [p.name for p in tmp_path.iterdir()] == ["game.xml"]


def test_a_sharing_violation_that_lasts_is_one_error_and_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "game.xml"
    target.write_bytes(b"old")
    calls = failing_replace(monkeypatch, failures=100)
    with pytest.raises(InputError, match="cannot write: .*being used by another process") as error:
        write_atomically(target, b"new", overwrite=True)
    assert error.value.where == str(target) and len(calls) == 4, "three retries, then the answer"
    assert target.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["game.xml"]


def test_removing_a_file_meeting_a_sharing_violation_is_tried_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.xml"
    path.write_bytes(b"ours")
    real_unlink, calls = os.unlink, []

    def unlink(target, *args, **kwargs):
        calls.append(1)
        if len(calls) <= 2:
            raise PermissionError(13, "The process cannot access the file because it is being used by another process")
        return real_unlink(target, *args, **kwargs)

    monkeypatch.setattr(os, "unlink", unlink)
    monkeypatch.setattr(safe, "REPLACE_RETRY_SECONDS", (0.01, 0.01, 0.01))
    assert safe.remove(path) is True and not path.exists() and len(calls) == 3
    assert safe.remove(path) is False, "a file already gone"


def test_elsewhere_a_permission_error_is_answered_at_once() -> None:
    if os.name != "nt":
        assert safe.REPLACE_RETRY_SECONDS == ()
    else:
        assert 1 <= sum(safe.REPLACE_RETRY_SECONDS) <= 5


# -- the install lock through msvcrt ---------------------------------------------------------------------


@pytest.fixture
def windows_locks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """No fcntl; an msvcrt whose locking() is the documented one (LK_NBLCK fails at once, LK_UNLCK releases),
    made of Linux's real locks so that exclusion is real."""
    import fcntl

    calls: list[str] = []

    def locking(descriptor: int, mode: int, count: int) -> None:
        assert count == 1 and os.lseek(descriptor, 0, os.SEEK_CUR) == 0
        calls.append({0: "unlock", 2: "try"}[mode])
        if mode == 2:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise OSError(36, "Resource deadlock avoided") from None
        else:
            fcntl.flock(descriptor, fcntl.LOCK_UN)

    msvcrt = types.SimpleNamespace(LK_UNLCK=0, LK_LOCK=1, LK_NBLCK=2, LK_RLCK=3, LK_NBRLCK=4, locking=locking)
    monkeypatch.setitem(sys.modules, "fcntl", None)  # `import fcntl` fails, as on Windows
    monkeypatch.setitem(sys.modules, "msvcrt", msvcrt)
    return calls


@pytest.mark.linux_only
def test_windows_installs_into_one_map_take_turns(tmp_path: Path, windows_locks: list[str]) -> None:
    folder = a_map(tmp_path, b"map_name: amap\ngames:\n")
    assert most_holders_at_once(lambda: map_lock(folder), rounds=10) == 1 and windows_locks.count("unlock") == 40
    assert not (folder / LOCK_NAME).exists()


@pytest.mark.linux_only
def test_windows_installs_at_once_keep_every_entry(tmp_path: Path, windows_locks: list[str]) -> None:
    folder = a_map(tmp_path, b"map_name: amap\ngames:\n")
    errors: list[BaseException] = []

    def one(number: int) -> None:
        try:
            install_game(read_map_folder(folder), f"Kremlin {number}", b"<game/>")
        except BaseException as error:  # noqa: BLE001 - reported by the assertion below
            errors.append(error)

    threads = [threading.Thread(target=one, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sorted(g.game_name for g in read_map_folder(folder).games) == [f"Kremlin {n}" for n in range(6)]


@pytest.mark.linux_only
def test_a_windows_lock_held_too_long_is_one_line_naming_the_lock(tmp_path: Path, windows_locks: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    folder = a_map(tmp_path, b"map_name: amap\ngames:\n")
    monkeypatch.setattr(maplock, "LOCK_WAIT_SECONDS", 0.1)
    holder = os.open(folder / LOCK_NAME, os.O_RDWR | os.O_CREAT)
    assert sys.modules["msvcrt"].locking(holder, 2, 1) is None  # another run holds the lock
    try:
        with pytest.raises(InputError, match="another install into this map has held its lock") as error:
            install_game(read_map_folder(folder), "Kremlin", b"<game/>")
    finally:
        os.close(holder)
    assert error.value.where == str(folder / LOCK_NAME)
    assert read_map_folder(folder).games == ()

"""Outputs go only to regular files, never over an input; bad input is one line and exit 2 (issue 15)."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from kremlin_triplea.cli.main import main
from kremlin_triplea.errors import InputError
from kremlin_triplea.game import load
from kremlin_triplea.gamefile import install, safe
from kremlin_triplea.gamefile.safe import read_bytes, write_atomically
from support.paths import AA50_1941, MAPS_DIR

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "kremlin-aa50-1941.toml"
CLASSIC = REPO / "examples" / "kremlin-classic-kremlin.toml"


def run(*args: str):
    return CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), *args])


def one_line_error(result, status: int = 2) -> str:
    assert result.exit_code == status, (result.exit_code, result.stderr, result.exception)
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("kremlin-triplea: error: "), result.stderr
    assert "Traceback" not in result.stderr
    return result.stderr


@pytest.fixture(scope="module")
def applied(tmp_path_factory) -> bytes:
    """The bytes apply writes for the example (same inputs, same bytes)."""
    out = tmp_path_factory.mktemp("reference") / "game.xml"
    assert run("apply", str(EXAMPLE), "-o", str(out)).exit_code == 0
    return out.read_bytes()


# -- special files as outputs ---------------------------------------------------------


def test_a_device_is_never_replaced_even_with_force() -> None:
    result = run("apply", str(EXAMPLE), "-o", "/dev/null", "--force")
    assert "is a device" in one_line_error(result)
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_fifo_a_socket_and_a_folder_are_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    sock_path = tmp_path / "sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(sock_path))
    try:
        for target, kind in ((fifo, "FIFO"), (sock_path, "socket"), (tmp_path, "folder")):
            assert kind in one_line_error(run("apply", str(EXAMPLE), "-o", str(target), "--force"))
        assert stat.S_ISFIFO(os.stat(fifo).st_mode) and stat.S_ISSOCK(os.stat(sock_path).st_mode)
    finally:
        server.close()


def test_a_trailing_slash_names_a_folder_not_a_file(tmp_path: Path) -> None:
    result = run("apply", str(EXAMPLE), "-o", f"{tmp_path}/new/")
    assert "names a folder" in one_line_error(result)
    assert not (tmp_path / "new").exists()


def test_a_dangling_symlink_is_not_followed(tmp_path: Path) -> None:
    link = tmp_path / "out.xml"
    link.symlink_to(tmp_path / "elsewhere" / "target.xml")
    for force in ([], ["--force"]):
        assert "does not exist; not followed" in one_line_error(run("apply", str(EXAMPLE), "-o", str(link), *force))
    assert link.is_symlink() and not (tmp_path / "elsewhere").exists()


def test_a_symlink_to_a_file_stays_a_link_and_the_replaced_file_keeps_its_mode(tmp_path: Path, applied: bytes) -> None:
    target = tmp_path / "real.xml"
    target.write_text("old")
    target.chmod(0o600)
    link = tmp_path / "out.xml"
    link.symlink_to(target)
    assert run("apply", str(EXAMPLE), "-o", str(link), "--force").exit_code == 0
    assert link.is_symlink() and target.read_bytes() == applied
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


def test_a_new_file_gets_the_umask_permissions(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        written = write_atomically(tmp_path / "new.xml", b"<game/>")
    finally:
        os.umask(old)
    assert stat.S_IMODE(written.stat().st_mode) == 0o640


# -- inputs are never outputs ---------------------------------------------------------


def test_the_draft_the_game_and_a_hard_link_to_them_are_never_written_over(tmp_path: Path) -> None:
    draft = tmp_path / "draft.toml"
    shutil.copy(EXAMPLE, draft)
    game = tmp_path / "base.xml"
    shutil.copy(AA50_1941, game)
    linked = tmp_path / "same-draft.toml"
    os.link(draft, linked)
    for output in (draft, game, linked):
        result = run("apply", str(draft), "--game", str(game), "-o", str(output), "--force")
        assert "refusing to overwrite the input file" in one_line_error(result)
    assert draft.read_bytes() == EXAMPLE.read_bytes() and game.read_bytes() == AA50_1941.read_bytes()


def test_the_map_profile_read_is_never_written_over(monkeypatch: pytest.MonkeyPatch) -> None:
    profile = REPO / "maps" / "world_war_ii_v3.toml"
    before = profile.read_bytes()

    def no_write(*_args, **_kwargs):  # should the guard fail, fail the test without touching the repository's file
        raise AssertionError("tried to write over the map profile")

    monkeypatch.setattr(safe.os, "replace", no_write)
    result = run("apply", str(EXAMPLE), "-o", str(profile), "--force")
    assert "refusing to overwrite the input file" in one_line_error(result)
    assert profile.read_bytes() == before


def test_an_existing_output_needs_force(tmp_path: Path) -> None:
    out = tmp_path / "out.xml"
    out.write_text("keep")
    assert "already exists; use --force" in one_line_error(run("apply", str(EXAMPLE), "-o", str(out)))
    assert out.read_text() == "keep"


# -- --install -o OUT: nothing changes unless everything can ------------------------------


def test_install_with_an_unwritable_output_changes_nothing(tmp_path: Path) -> None:
    shutil.copytree(MAPS_DIR / "world_war_ii_v3", tmp_path / "world_war_ii_v3")
    games = tmp_path / "world_war_ii_v3" / "map" / "games"
    before = sorted(p.name for p in games.iterdir()), (tmp_path / "world_war_ii_v3" / "map.yml").read_bytes()
    for output in ("/dev/null", str(tmp_path / "missing-folder" / "out.xml"), str(EXAMPLE)):
        result = CliRunner().invoke(main, ["--maps-dir", str(tmp_path), "apply", str(EXAMPLE), "--install", "-o", output, "--force"])
        one_line_error(result)
        assert (sorted(p.name for p in games.iterdir()), (tmp_path / "world_war_ii_v3" / "map.yml").read_bytes()) == before


def test_install_with_a_write_failing_late_is_rolled_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(MAPS_DIR / "world_war_ii_v3", tmp_path / "world_war_ii_v3")
    map_yml = tmp_path / "world_war_ii_v3" / "map.yml"
    games = tmp_path / "world_war_ii_v3" / "map" / "games"
    before = sorted(p.name for p in games.iterdir()), map_yml.read_bytes()
    out = tmp_path / "out.xml"
    real_write = install.write_atomically

    def full_disk(path, data, **kwargs):  # the install's last write, its map.yml entry, finds the disk full
        if Path(path) == map_yml:
            raise InputError("cannot write: No space left on device", where=str(path))
        return real_write(path, data, **kwargs)

    monkeypatch.setattr(install, "write_atomically", full_disk)
    result = CliRunner().invoke(main, ["--maps-dir", str(tmp_path), "apply", str(EXAMPLE), "--install", "--name", "N", "-o", str(out)])
    assert "No space left on device" in one_line_error(result)
    assert (sorted(p.name for p in games.iterdir()), map_yml.read_bytes()) == before
    assert not out.exists()


# -- write errors: one line, exit 2, the target as it was, no temporary left ------------------


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS, errno.EACCES, errno.EDQUOT])
@pytest.mark.parametrize("stage", ["create", "write", "rename"])
def test_write_errors_are_one_line_and_leave_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int, stage: str) -> None:
    out = tmp_path / "out.xml"
    out.write_text("the host's file")

    def fail(*_args, **_kwargs):
        raise OSError(code, os.strerror(code))

    target = {"create": "mkstemp", "write": "fsync", "rename": "replace"}[stage]
    monkeypatch.setattr(safe.tempfile if target == "mkstemp" else safe.os, target, fail)
    result = run("apply", str(EXAMPLE), "-o", str(out), "--force")
    assert os.strerror(code) in one_line_error(result)
    assert out.read_text() == "the host's file"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.xml"]


def test_a_name_too_long_is_one_line(tmp_path: Path) -> None:
    result = run("apply", str(EXAMPLE), "-o", str(tmp_path / ("x" * 300 + ".xml")))
    assert os.strerror(errno.ENAMETOOLONG) in one_line_error(result)


# -- temporary files ---------------------------------------------------------------------


def _dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-I", "-S", "-c", "pass"])  # no site: a pid, in 20 ms, not 100
    process.wait()
    return process.pid


def test_stale_temporary_files_of_a_dead_run_are_removed_beside_the_next_write(tmp_path: Path) -> None:
    stale = tmp_path / f".out.xml.kremlin-{_dead_pid()}-abc123.tmp"
    stale.write_bytes(b"<game>half")
    live = tmp_path / f".out.xml.kremlin-{os.getppid()}-def456.tmp"  # a running process's: not ours to remove
    live.write_bytes(b"<game>being written")
    foreign = tmp_path / ".notes.tmp"
    foreign.write_bytes(b"someone else's")
    earlier = tmp_path / ".out.xml.k2j4_9xq.tmp"  # an earlier version's name, no pid: removed once old
    earlier.write_bytes(b"<game>half")
    os.utime(earlier, (1_000_000_000, 1_000_000_000))
    fresh = tmp_path / ".out.xml.a8b7c6d5.tmp"  # may be another run's, still writing
    fresh.write_bytes(b"<game>being written")
    other = tmp_path / ".other.xml.k2j4_9xq.tmp"  # not beside the file being written
    other.write_bytes(b"x")
    os.utime(other, (1_000_000_000, 1_000_000_000))
    write_atomically(tmp_path / "out.xml", b"<game/>")
    assert not stale.exists() and not earlier.exists()
    assert live.exists() and foreign.exists() and fresh.exists() and other.exists()


# -- bad input: one line, exit 2, never blocking ------------------------------------------------


def _cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    return subprocess.run(
        [sys.executable, "-m", "kremlin_triplea", "--maps-dir", str(MAPS_DIR), *args], capture_output=True, text=True, timeout=timeout, env=env
    )


@pytest.mark.slow
def test_readers_refuse_a_fifo_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "game.xml"
    os.mkfifo(fifo)
    for args in (
        ["verify", str(fifo)],
        ["show", str(fifo)],
        ["validate", str(fifo)],
        ["apply", str(fifo), "-o", str(tmp_path / "o.xml")],
        ["apply", str(EXAMPLE), "--game", str(fifo), "-o", str(tmp_path / "o.xml")],
    ):
        completed = _cli(*args)  # a blocked read would time out here
        assert completed.returncode == 2, completed.stderr
        assert completed.stderr.count("\n") == 1 and "FIFO" in completed.stderr


def test_a_device_as_input_is_refused() -> None:
    with pytest.raises(InputError, match="is a device"):
        read_bytes(Path("/dev/zero"))


@pytest.mark.parametrize(
    "content, expected",
    [
        (b'ruleset = "kremlin-aa50"\ngame = "caf\xe9"\n', "is not UTF-8 text (byte 0xe9 at line 2)"),
        (b"a = " + b"[" * 5000 + b"]" * 5000 + b"\n", "nested too deeply"),
        (EXAMPLE.read_bytes().replace(b"axis = 11", b"axis = 99999999999"), "bid, axis: expected a whole number within TripleA's limits"),
    ],
)
def test_bad_drafts_are_one_line(tmp_path: Path, content: bytes, expected: str) -> None:
    draft = tmp_path / "draft.toml"
    draft.write_bytes(content)
    assert expected in one_line_error(run("apply", str(draft), "-o", str(tmp_path / "o.xml")))


def test_a_symlink_loop_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "a.toml").symlink_to(tmp_path / "b.toml")
    (tmp_path / "b.toml").symlink_to(tmp_path / "a.toml")
    assert os.strerror(errno.ELOOP) in one_line_error(run("apply", str(tmp_path / "a.toml"), "-o", str(tmp_path / "o.xml")))


def test_counts_beyond_java_int_are_refused_with_their_place(tmp_path: Path) -> None:
    draft = tmp_path / "draft.toml"
    draft.write_text(EXAMPLE.read_text().replace('count = 2, at = "Italy"', 'count = 2147483648, at = "Italy"'))
    assert "draft.toml:87: bid, place 2, count: expected a whole number within TripleA's limits" in one_line_error(
        run("apply", str(draft), "-o", str(tmp_path / "o.xml"))
    )


def test_validate_reports_pus_beyond_java_int(tmp_path: Path) -> None:
    game = tmp_path / "game.xml"
    data = AA50_1941.read_bytes()
    assert data.count(b'resource="PUs" quantity="31"') == 1  # Germans' 31 PUs in the stock game
    game.write_bytes(data.replace(b'resource="PUs" quantity="31"', b'resource="PUs" quantity="2147483648"'))
    result = run("validate", str(game))
    assert result.exit_code == 1
    assert "<resourceGiven> quantity 2147483648 is beyond TripleA's limit of 2,147,483,647" in result.stdout


def test_a_huge_negative_bid_is_answered_not_searched() -> None:
    """001 1.: a negative bid removes units "worth" the bid; the search is bounded whatever the bid."""
    from kremlin_triplea.draft.kinds.bid import achievable_values, removal_target

    for costs in ([3, 5], [2, 6, 10], [8, 12], [3, 5, 6, 10, 15]):
        for amount in range(300):
            found = achievable_values(costs, amount + max(costs))
            assert removal_target(amount, costs, "at_most_bid") == max(v for v in range(amount + 1) if found[v])
            assert removal_target(amount, costs, "round_down_to_unit") == min(v for v in range(amount, len(found)) if found[v])
    assert removal_target(10**15 + 1, [8, 12], "at_most_bid") == 10**15  # multiples of gcd 4
    assert removal_target(10**15 + 1, [8, 12], "round_down_to_unit") == 10**15 + 4


def test_a_huge_negative_bid_on_the_classic_ruleset_is_a_rule_violation(tmp_path: Path) -> None:
    draft = tmp_path / "draft.toml"
    text = CLASSIC.read_text()
    assert "axis = -8" in text
    draft.write_text(text.replace("axis = -8", "axis = -2147483648"))
    stderr = one_line_error(run("apply", str(draft), "-o", str(tmp_path / "o.xml")), status=1)
    assert "the removed units are worth 8 PUs; a bid of -2147483648 removes units worth 2147483648" in stderr
    assert not (tmp_path / "o.xml").exists()


# -- game files TripleA reads ----------------------------------------------------------------


def test_an_undeclared_entity_is_refused_with_its_line(tmp_path: Path) -> None:
    game = tmp_path / "game.xml"
    data = AA50_1941.read_bytes()
    assert data.startswith(b'<?xml version="1.0"?>\n<!DOCTYPE game SYSTEM "game.dtd">')  # the usual prolog
    game.write_bytes(data.replace(b'<info name="World War II v3 1941"', b'<info name="World&nbsp;War II v3 1941"', 1))
    line = data[: data.index(b"<info ")].count(b"\n") + 1
    for command in (["show", str(game)], ["validate", str(game)], ["apply", str(EXAMPLE), "--game", str(game), "-o", str(tmp_path / "o.xml")]):
        assert f"game.xml:{line}: the entity &nbsp; is not declared" in one_line_error(run(*command))
    # In a comment it is not a reference at all.
    commented = tmp_path / "commented.xml"
    commented.write_bytes(data.replace(b"<info ", b"<!-- &nbsp; -->\n<info ", 1))
    assert load(commented).name == "World War II v3 1941"


@pytest.mark.parametrize(
    ("reference", "refused"),
    [("&amp;", False), ("&lt;", False), ("&gt;", False), ("&quot;", False), ("&apos;", False), ("&#160;", False)]
    + [("&ampx;", True), ("&amp_;", True), ("&ltgt;", True), ("&Amp;", True), ("&apos2;", True), ("&nbsp;", True)],
)
def test_only_xmls_five_entities_are_read_as_declared(tmp_path: Path, reference: str, refused: bool) -> None:
    """XML declares five entities; a name that begins like one of them (``&ampx;``) is another, undeclared, and
    TripleA's parser refuses the file (the five are passed over by the search itself, not after it)."""
    game = tmp_path / "game.xml"
    data = AA50_1941.read_bytes()
    game.write_bytes(data.replace(b'<info name="World War II v3 1941"', b'<info name="World' + reference.encode() + b'War II v3 1941"', 1))
    with pytest.raises(InputError, match="is not declared") if refused else contextlib.nullcontext():
        load(game)


@pytest.mark.parametrize("encoding", ["ISO-8859-1", "UTF-16", "UTF-16 by its byte order mark only"])
def test_apply_works_on_the_encodings_show_reads(tmp_path: Path, encoding: str) -> None:
    text = AA50_1941.read_text(encoding="utf-8")
    assert text.startswith('<?xml version="1.0"?>')
    if " " not in encoding:
        text = text.replace('<?xml version="1.0"?>', f'<?xml version="1.0" encoding="{encoding}"?>', 1)
    text = text.replace('<info name="World War II v3 1941"', '<info name="World War II v3 1941 é"', 1)
    game = tmp_path / "game.xml"
    game.write_bytes(text.encode("latin-1" if encoding == "ISO-8859-1" else "utf-16"))  # Python's utf-16 writes the BOM
    assert run("show", str(game)).stdout.startswith("World War II v3 1941 é\n")
    out = tmp_path / "out.xml"
    result = run("apply", str(EXAMPLE), "--game", str(game), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    written = load(out)
    assert written.name == "World War II v3 1941 é - Kremlin (kremlin-aa50)"
    assert written.board.owner("Archangel") == "Germans"  # pick 1 of the example


def test_the_same_inputs_give_the_same_bytes_whatever_pythons_hash_seed(tmp_path: Path, applied: bytes) -> None:
    """The card: same inputs, same bytes. Set and dict orders that follow string hashes differ between two processes
    of different hash seeds: a Python seeded otherwise than this one writes the bytes this one wrote (``applied``)."""
    ours = os.environ.get("PYTHONHASHSEED", "random")  # unset or "random": this process's hashes are random
    other = str((int(ours) + 1) % 2**32) if ours.isdigit() else "1"
    out = tmp_path / "game.xml"
    done = subprocess.run(
        [sys.executable, "-m", "kremlin_triplea", "--maps-dir", str(MAPS_DIR), "apply", str(EXAMPLE), "-o", str(out)],
        env={**os.environ, "PYTHONHASHSEED": other},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert out.read_bytes() == applied


# -- a command's outputs, all or none ----------------------------------------------------------------------


@pytest.mark.linux_only
@pytest.mark.parametrize("failure", [KeyboardInterrupt, InputError])
def test_all_or_none_puts_back_every_output_when_the_command_fails_later(tmp_path: Path, failure: type[BaseException]) -> None:
    replaced, created = tmp_path / "replaced.xml", tmp_path / "created.tsvg"
    replaced.write_bytes(b"the host's game")
    replaced.chmod(0o600)
    with pytest.raises(failure), safe.all_or_none() as outputs:
        outputs.write(replaced, b"new game", overwrite=True)
        outputs.write(created, b"new save")
        assert replaced.read_bytes() == b"new game" and created.read_bytes() == b"new save"
        raise failure("the install failed") if failure is InputError else failure()
    assert replaced.read_bytes() == b"the host's game" and stat.S_IMODE(replaced.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["replaced.xml"], "no new file, backup or temporary left"


def test_all_or_none_keeps_every_output_when_the_command_succeeds(tmp_path: Path) -> None:
    replaced, created = tmp_path / "replaced.xml", tmp_path / "created.tsvg"
    replaced.write_bytes(b"the host's game")
    with safe.all_or_none() as outputs:
        outputs.write(replaced, b"new game", overwrite=True)
        outputs.write(created, b"new save")
    assert (replaced.read_bytes(), created.read_bytes()) == (b"new game", b"new save")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["created.tsvg", "replaced.xml"]


@pytest.mark.linux_only
def test_one_file_is_never_two_outputs_of_a_command_by_any_name(tmp_path: Path) -> None:
    """(A hard link stops being the same file once the first write replaces the file: apply refuses it before.)"""
    game = tmp_path / "game.xml"
    game.write_bytes(b"the host's game")
    (tmp_path / "soft-link.xml").symlink_to(game)
    for other in ("game.xml", "soft-link.xml", "sub/../game.xml"):
        (tmp_path / "sub").mkdir(exist_ok=True)
        with pytest.raises(InputError, match="is already an output of this command"), safe.all_or_none() as outputs:
            outputs.write(game, b"new game", overwrite=True)
            outputs.write(tmp_path / other, b"new save", overwrite=True)
        assert game.read_bytes() == b"the host's game"

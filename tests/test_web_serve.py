"""``kremlin-triplea serve`` as a process (issue 18): its links, and SIGKILL then serve again resumes exactly."""

from __future__ import annotations

import html
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from kremlin_triplea.draft.run import read_draft
from support.paths import MAPS_DIR
from support.web import example, free_port, http_client, http_get, pick_form

SRC = Path(__file__).resolve().parents[1] / "src"


def start_serve(draft: Path, port: int, *extra: str) -> tuple[subprocess.Popen, dict[str, str]]:
    env = dict(os.environ, PYTHONPATH=str(SRC))
    process = subprocess.Popen(
        [sys.executable, "-m", "kremlin_triplea", "--maps-dir", str(MAPS_DIR), "serve", str(draft), "--port", str(port), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    links: dict[str, str] = {}
    deadline = time.monotonic() + 60
    while len(links) < 3:
        line = process.stdout.readline()
        if not line or time.monotonic() > deadline:
            process.kill()
            raise AssertionError(f"serve printed no links: {line!r}, exit {process.poll()}")
        found = re.match(r"(Axis|Allies|spectators): (http://\S+)", line)
        if found:
            links[found.group(1)] = found.group(2)
    while True:  # the server listens before it prints, but answers once uvicorn runs
        try:
            http_get(links["spectators"], timeout=5)
            break
        except httpx.TransportError:
            if time.monotonic() > deadline:
                process.kill()
                raise
            time.sleep(0.2)
    return process, links


@pytest.mark.slow
def test_serve_starts_a_new_draft_and_after_sigkill_resumes_with_the_same_links_and_state(tmp_path: Path) -> None:
    draft = tmp_path / "draft.toml"
    port = free_port()
    data = example()
    process, links = start_serve(
        draft, port, "--ruleset", "kremlin-aa50", "--game", data["game"], "--first", "Axis", "--picks-per-side", "5", "--player", "Axis=Ann"
    )
    try:
        assert all(link.startswith(f"http://localhost:{port}/room/") for link in links.values())
        with http_client(timeout=60) as http:
            for entry in data["pick"][:3]:
                seq = int(re.search(r"data-seq='(\d+)'", http.get(links[entry["side"]]).text).group(1))
                response = http.post(f"{links[entry['side']]}/pick", data=pick_form(entry, seq), follow_redirects=False)
                assert response.status_code == 303, response.text[-500:]
            drawn_before_kill = int(re.search(r"data-seq='(\d+)'", http.get(links["Allies"]).text).group(1))
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(10)
    saved = draft.read_bytes()
    assert len(read_draft(draft).picks) == 3
    assert read_draft(draft).picks[0].data["note"] == "picked by Ann"  # as the terminal draft notes it
    process, again = start_serve(draft, port)
    try:
        assert again == links
        assert draft.read_bytes() == saved
        with http_client(timeout=60) as http:
            page = http.get(again["Allies"]).text
            assert "Pick 4 of 10: the Allies choose." in page
            assert "Ann, for the Axis" in http.get(again["Axis"]).text  # the players' names are kept beside the draft too
            seq = int(re.search(r"data-seq='(\d+)'", page).group(1))
            # A form drawn before the kill is stale after the restart (the steps start afresh at random): 409, no pick.
            assert seq != drawn_before_kill
            stale = http.post(f"{again['Allies']}/pick", data=pick_form(data["pick"][3], drawn_before_kill), follow_redirects=False)
            assert stale.status_code == 409
            assert len(read_draft(draft).picks) == 3
            assert http.get(again["Axis"].rsplit("/", 1)[0] + "/wrong-secret").status_code == 403
            entry = data["pick"][3]
            assert http.post(f"{again['Allies']}/pick", data=pick_form(entry, seq), follow_redirects=False).status_code == 303
        assert len(read_draft(draft).picks) == 4
        # Ctrl-C with a page open (its event stream): the server stops promptly, without a traceback.
        with http_client(timeout=30) as http:
            with http.stream("GET", again["spectators"].replace("/room/", "/events/")) as events:
                assert next(line for line in events.iter_lines() if line.startswith("data:"))
                process.send_signal(signal.SIGINT)
                code = process.wait(15)
        output = process.stdout.read()
        assert code == 0, output
        assert "Traceback" not in output
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


@pytest.mark.slow
def test_a_second_serve_on_the_same_draft_is_refused_and_told_where_the_first_runs(tmp_path: Path) -> None:
    # Issue 31: "a second `serve` on the same draft file starts with the same links and both accept picks".
    draft = tmp_path / "draft.toml"
    port = free_port()
    data = example()
    process, links = start_serve(draft, port, "--ruleset", "kremlin-aa50", "--game", data["game"], "--first", "Axis", "--picks-per-side", "5")
    try:
        env = dict(os.environ, PYTHONPATH=str(SRC))
        second = subprocess.run(
            [sys.executable, "-m", "kremlin_triplea", "--maps-dir", str(MAPS_DIR), "serve", str(draft), "--port", str(free_port())],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert second.returncode == 2, second.stdout + second.stderr
        said = second.stdout + second.stderr
        assert f"is already served by process {process.pid} at http://localhost:{port}" in said
        assert all(link not in said for link in links.values()) and "Traceback" not in said
        assert http_get(links["spectators"], timeout=30).status_code == 200  # the first one serves on
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(10)
    # Killed outright, it leaves no lock behind: the operating system drops it with the process.
    process, again = start_serve(draft, port)
    try:
        assert again == links
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def test_serve_without_a_draft_or_its_settings_says_what_is_missing(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from kremlin_triplea.cli.main import main

    result = CliRunner().invoke(main, ["serve", str(tmp_path / "none.toml")])
    assert result.exit_code == 2
    assert "--ruleset, --game and --first" in result.output
    assert not (tmp_path / "none.toml").exists()


def test_serve_refuses_a_new_draft_the_rules_do_not_allow_and_writes_nothing(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from kremlin_triplea.cli.main import main

    draft = tmp_path / "new.toml"
    # 000 A: "Players will select four bonus options each...but if both agree then they can choose up to eleven options each."
    result = CliRunner().invoke(
        main,
        [
            "--maps-dir",
            str(MAPS_DIR),
            "serve",
            str(draft),
            "--ruleset",
            "kremlin-aa50",
            "--game",
            "world_war_ii_v3/WW2v3-1941.xml",
            "--first",
            "Axis",
            "--picks-per-side",
            "12",
        ],
    )
    assert result.exit_code == 1
    assert "up to eleven" in result.output
    assert not draft.exists()


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (("--ruleset", "kremlin-aa5"), "--ruleset: unknown ruleset 'kremlin-aa5'; did you mean 'kremlin-aa50'"),
        (("--game", "wold_war_ii_v3/WW2v3-1941.xml"), "--game: wold_war_ii_v3/WW2v3-1941.xml: unknown map 'wold_war_ii_v3'; did you mean 'world_war_ii_v3'"),
        (("--first", "Axes"), "--first: unknown side 'Axes'"),
        (("--house-rules", "house-revize"), "--house-rules: unknown ruleset 'house-revize'; did you mean 'house-revised'"),
    ],
)
def test_a_new_rooms_wrong_setting_is_reported_as_the_option_not_as_a_file_not_yet_written(tmp_path: Path, change: tuple[str, str], expected: str) -> None:
    from click.testing import CliRunner

    from kremlin_triplea.cli.main import main

    settings = {"--ruleset": "kremlin-aa50", "--game": "world_war_ii_v3/WW2v3-1941.xml", "--first": "Axis"}
    settings[change[0]] = change[1]
    draft = tmp_path / "new.toml"
    result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "serve", str(draft), *(x for pair in settings.items() for x in pair)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"kremlin-triplea: error: {expected}"), result.stderr
    assert not draft.exists()


@pytest.mark.slow
def test_a_ruleset_file_of_the_hosts_own_is_named_relative_to_the_new_draft(tmp_path: Path) -> None:
    """A draft names its own rule file as it names its profile, so the room opens it again from any folder."""
    mine = tmp_path / "rules" / "mine.toml"
    mine.parent.mkdir()
    mine.write_text((Path(__file__).resolve().parents[1] / "rulesets" / "kremlin-aa50.toml").read_text())
    draft = tmp_path / "room" / "draft.toml"
    draft.parent.mkdir()
    process, links = start_serve(draft, free_port(), "--ruleset", str(mine), "--game", "world_war_ii_v3/WW2v3-1941.xml", "--first", "Axis")
    process.kill()
    process.wait()
    assert 'ruleset = "../rules/mine.toml"' in draft.read_text(encoding="utf-8")
    assert read_draft(draft).ruleset == str(draft.parent / "../rules/mine.toml")


@pytest.mark.slow
def test_serve_takes_a_map_profile_and_a_new_draft_names_it(tmp_path: Path) -> None:
    # Issue 17: "every command takes --profile FILE". Smalls_1939.xml (Big World, mapName big_world_variations) is a
    # published game no shipped profile covers: the room is refused without a profile and served with one `profile
    # new` drafts, which the new draft names.
    from click.testing import CliRunner

    from kremlin_triplea.cli.main import main
    from support.paths import CORPUS_DIR

    game = str(CORPUS_DIR / "Smalls_1939.xml")
    refused = CliRunner().invoke(
        main, ["--maps-dir", str(MAPS_DIR), "serve", str(tmp_path / "none.toml"), "--ruleset", "kremlin-classic", "--game", game, "--first", "Axis"]
    )
    assert refused.exit_code == 2 and "profile new" in refused.output, refused.output
    assert not (tmp_path / "none.toml").exists()
    profile = tmp_path / "profiles" / "big_world.toml"
    made = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "profile", "new", game, "-o", str(profile), "--ruleset", "kremlin-classic"])
    assert made.exit_code == 0, made.output

    draft = tmp_path / "draft.toml"
    process, links = start_serve(draft, free_port(), "--ruleset", "kremlin-classic", "--game", game, "--first", "Axis", "--profile", str(profile))
    try:
        assert set(links) == {"Axis", "Allies", "spectators"}
        page = http_get(links["Axis"], timeout=10)
        assert page.status_code == 200
        # Big World's pictures are not installed here: the room says so where the board goes, and works without them.
        board = http_get(links["Axis"] + "/board", timeout=10)
        assert board.status_code == 200 and "No picture of the board: map 'big_world_variations' is not installed" in html.unescape(board.text)
    finally:
        process.kill()
        process.wait()
    assert 'profile = "profiles/big_world.toml"' in draft.read_text(encoding="utf-8")  # relative to the draft
    assert read_draft(draft).profile == str(profile)


class RecordingSocket:
    """Stands in for socket.socket: records the options set and binds nothing."""

    made: list[RecordingSocket] = []

    def __init__(self, family: int, kind: int) -> None:
        self.options: list[tuple[int, int, int]] = []
        RecordingSocket.made.append(self)

    def setsockopt(self, level: int, option: int, value: int) -> None:
        self.options.append((level, option, value))

    def bind(self, address) -> None:
        pass

    def listen(self, backlog: int) -> None:
        pass

    def set_inheritable(self, inheritable: bool) -> None:
        pass


def test_on_windows_the_rooms_port_is_claimed_exclusively_never_shared(monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 32: "`serve` with SO_REUSEADDR can share a port silently on Windows". Winsock lets a second socket with
    # SO_REUSEADDR bind a port another listens on; SO_EXCLUSIVEADDRUSE (winsock2.h: ((int)(~SO_REUSEADDR)), -5) forbids it.
    import socket

    from kremlin_triplea.cli import serve

    RecordingSocket.made.clear()
    monkeypatch.setattr(socket, "socket", RecordingSocket)
    monkeypatch.setattr(os, "name", "nt")
    serve._bound_socket("127.0.0.1", 8050)
    monkeypatch.undo()
    (made,) = RecordingSocket.made
    assert (socket.SOL_SOCKET, socket.SO_REUSEADDR, 1) not in made.options
    assert (socket.SOL_SOCKET, getattr(socket, "SO_EXCLUSIVEADDRUSE", -5), 1) in made.options
    assert getattr(socket, "SO_EXCLUSIVEADDRUSE", -5) == -5


def test_serve_refuses_a_port_another_socket_listens_on(tmp_path: Path) -> None:
    """Where SO_REUSEADDR is set (not Windows) it never lets two listeners share the port: serve says so, exit 2."""
    import socket

    from click.testing import CliRunner

    from kremlin_triplea.cli.main import main

    with socket.socket() as taken:
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        draft = tmp_path / "draft.toml"
        data = example()
        result = CliRunner().invoke(
            main,
            ["--maps-dir", str(MAPS_DIR), "serve", str(draft), "--port", str(port), "--ruleset", "kremlin-aa50", "--game", data["game"], "--first", "Axis"],
        )
    assert result.exit_code == 2, result.output
    assert f"--host 127.0.0.1 --port {port}: cannot listen there" in result.output and "Traceback" not in result.output


def test_a_file_the_draft_names_on_another_drive_is_named_by_its_absolute_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 32: "`serve` fails when the draft and profile are on different drives": on Windows os.path.relpath raises
    # ValueError ("path is on mount 'D:', start on mount 'C:'"); simulated here for the host's own ruleset file.
    import socket

    from click.testing import CliRunner

    from kremlin_triplea.cli.main import main

    mine = tmp_path / "other-drive" / "mine.toml"
    mine.parent.mkdir()
    mine.write_text((Path(__file__).resolve().parents[1] / "rulesets" / "kremlin-aa50.toml").read_text())
    draft = tmp_path / "room" / "draft.toml"
    draft.parent.mkdir()
    real = os.path.relpath

    def relpath(path, start=os.curdir):
        if Path(path) == mine.resolve():
            raise ValueError("path is on mount 'D:', start on mount 'C:'")
        return real(path, start)

    monkeypatch.setattr(os.path, "relpath", relpath)
    with socket.socket() as taken:  # the port is taken: serve stops once the new draft is written, before it serves
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        args = ["--ruleset", str(mine), "--game", "world_war_ii_v3/WW2v3-1941.xml", "--first", "Axis", "--port", str(taken.getsockname()[1])]
        result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "serve", str(draft), *args])
    assert result.exit_code == 2 and "cannot listen there" in result.output, result.output
    assert "Traceback" not in result.output
    assert read_draft(draft).ruleset == mine.resolve().as_posix()


@pytest.mark.slow
def test_serve_stops_when_the_draft_file_is_edited_while_it_runs_and_says_why_in_one_line(tmp_path: Path) -> None:
    """Issue 40: a hand edit of the draft file while the room ran was written over at the next action. serve stops
    within seconds, writes nothing over it, and says which file and why in one line, exit 2."""
    draft = tmp_path / "draft.toml"
    data = example()
    process, links = start_serve(draft, free_port(), "--ruleset", "kremlin-aa50", "--game", data["game"], "--first", "Axis", "--picks-per-side", "5")
    try:
        edited = draft.read_bytes() + b"# the host's own note\n"
        draft.write_bytes(edited)
        output, _ = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(5)
    assert process.returncode == 2, output
    (line,) = [line for line in output.splitlines() if line.startswith("kremlin-triplea:")]
    assert str(draft) in line and "changed by another program while the room served it" in line, output
    assert "Traceback" not in output and draft.read_bytes() == edited

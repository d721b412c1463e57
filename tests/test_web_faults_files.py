"""The draft room's files under an attacker holding a link, and an unlucky host (issue 40): no host path in what a
remote player sees; the room file kept 0600 while serving; a download named with any characters; one writer per
draft file by identity, and a hand edit made while the room runs stops the room instead of being written over;
``serve`` on a full disk names the file."""

from __future__ import annotations

import errno
import html
import os
import shutil
import stat
import time
import warnings
from pathlib import Path
from urllib.parse import unquote

import pytest
from click.testing import CliRunner

with warnings.catch_warnings():  # starlette's TestClient warns that it will move to httpx2; it works with httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from kremlin_triplea.cli.main import main
from kremlin_triplea.errors import KremlinError
from kremlin_triplea.web.app import create_app
from kremlin_triplea.web.room import HALTED, Room, ServeLock, lock_file, new_draft, room_file
from support.paths import MAPS_DIR
from support.web import EXAMPLE, example, header, pick_form
from test_web_faults import DiskFull, no_picture, post, room_served


@pytest.fixture
def room(tmp_path: Path) -> Room:
    path = tmp_path / "draft.toml"
    new_draft(path, header(example()), MAPS_DIR)
    return Room(path, MAPS_DIR)


def serve(*args: str):
    return CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "serve", *args, "--port", "0"])


# -- what a remote player sees -----------------------------------------------------------------------------


def test_a_failed_save_shows_the_remote_player_no_path_of_the_hosts(room: Room, monkeypatch, capsys) -> None:
    """Issue 40: a failed save showed the host's absolute path to the remote player. The host's window has it."""
    client = TestClient(create_app(room, svg_for=no_picture))
    DiskFull(monkeypatch).on(room.path)
    first = example()["pick"][0]
    response = post(client, room, first["side"], "pick", pick_form(first, room.seq))
    assert response.status_code == 503 and "No space left on device" in response.text and "draft.toml" in response.text
    for folder in {str(room.path.parent), str(room.path.parent.resolve()), str(Path.home())}:
        assert folder not in response.text
    assert str(room.path) in capsys.readouterr().err  # the host is told which file


def test_the_players_text_names_a_file_by_its_name_and_a_folder_of_the_hosts_as_such(room: Room) -> None:
    inside = room.path.parent / "sub" / "game.xml"
    text = room.for_players(f"{room.path}: cannot write; '{inside}' and {room.path.parent}, {Path.home()}/x.toml")
    assert text == "draft.toml: cannot write; 'game.xml' and the host's folder, x.toml"


@pytest.mark.parametrize("name", ["Партия 1941", "draft «ß» 1941", 'a "quoted"\\name', "日本 ドラフト"])
def test_a_draft_named_with_any_characters_downloads_its_game(tmp_path: Path, name: str) -> None:
    """Issue 40: a draft file named with non-Latin-1 characters made the game's download a 500 with a traceback.
    The name is sent as RFC 5987's filename* (and a printable ASCII stand-in in filename)."""
    path = tmp_path / f"{name}.toml"
    shutil.copyfile(EXAMPLE, path)  # a finished draft
    room = Room(path, MAPS_DIR)
    assert room.complete
    client = TestClient(create_app(room, svg_for=no_picture), raise_server_exceptions=False)
    response = client.get(f"/room/{room.keys['Axis']}/game.xml")
    assert response.status_code == 200 and response.content.startswith(b"<?xml")
    disposition = response.headers["content-disposition"]
    disposition.encode("latin-1")  # a header is Latin-1: the whole of it is
    plain, _, extended = disposition.partition("; filename*=UTF-8''")
    assert unquote(extended, errors="strict") == f"{name}.xml"
    fallback = plain.removeprefix('attachment; filename="').removesuffix('"')
    assert fallback.isascii() and fallback.isprintable() and '"' not in fallback and "\\" not in fallback and fallback.endswith(".xml")


# -- the room file kept private while serving --------------------------------------------------------------


def test_a_room_file_that_became_readable_by_others_is_set_back_to_0600_while_serving(room: Room) -> None:
    """Issue 40: a room file that became 0644 was never set back to 0600 while serving (only at its next write)."""
    with room_served(room, look_seconds=0.1, watch=room.watch) as (address, server):
        room_file(room.path).chmod(0o644)
        deadline = time.monotonic() + 10
        while stat.S_IMODE(room_file(room.path).stat().st_mode) != 0o600:
            assert time.monotonic() < deadline, "still readable by others"
            time.sleep(0.05)


# -- a hand edit while the room runs -----------------------------------------------------------------------


def test_a_hand_edit_of_the_draft_file_while_the_room_runs_stops_the_room_instead_of_being_written_over(room: Room) -> None:
    """Issue 40: a hand edit of the draft file while the room ran was silently overwritten at the next action."""
    client = TestClient(create_app(room, svg_for=no_picture))
    first, second = example()["pick"][:2]
    assert post(client, room, first["side"], "pick", pick_form(first, room.seq)).status_code == 303  # the room's own write
    edited = room.path.read_bytes() + b"\n# the host's own note\n"
    room.path.write_bytes(edited)
    response = post(client, room, second["side"], "pick", pick_form(second, room.seq))
    assert response.status_code == 503 and html.escape(HALTED) in response.text
    assert room.path.read_bytes() == edited  # not written over
    assert room.halted is not None and str(room.path) in room.halted and "\n" not in room.halted
    # Every action from now on, and the game itself, are refused: the room writes nothing more.
    assert post(client, room, first["side"], "undo", {"seq": str(room.seq)}).status_code == 503
    assert room.path.read_bytes() == edited and len(room.session.picks) == 1


def test_the_same_contents_written_again_is_no_edit(room: Room) -> None:
    client = TestClient(create_app(room, svg_for=no_picture))
    data = room.path.read_bytes()
    room.path.unlink()
    room.path.write_bytes(data)  # another file (inode), the same contents: an editor saving without a change
    first = example()["pick"][0]
    assert post(client, room, first["side"], "pick", pick_form(first, room.seq)).status_code == 303
    assert room.watch() is None


def test_a_hand_edit_stops_the_server_within_a_few_seconds_and_serve_says_why_in_one_line(room: Room) -> None:
    with room_served(room, look_seconds=0.1, watch=room.watch) as (address, server):
        room.path.write_bytes(room.path.read_bytes() + b"# edited\n")
        deadline = time.monotonic() + 10
        while not server.should_exit:
            assert time.monotonic() < deadline, "the server did not stop"
            time.sleep(0.05)
        assert server.halted == room.halted and str(room.path) in server.halted


# -- one writer per draft file, by identity ----------------------------------------------------------------


@pytest.mark.parametrize("link", ["symbolic", "hard", "hard, after a write"])
def test_a_second_serve_reaching_the_draft_through_a_link_is_refused_in_one_line(room: Room, tmp_path: Path, link: str) -> None:
    """Issue 40: a second ``serve`` reached through a symlink or hard link of the draft file ran beside the first
    and overwrote an accepted pick."""
    first = ServeLock(room.path).acquire()
    first.say(f"process {os.getpid()} at http://localhost:8123")
    first.hold_draft()
    room.written.append(first.hold_draft)
    try:
        if link == "hard, after a write":  # the room replaces the file at each write: the lock follows it
            client = TestClient(create_app(room, svg_for=no_picture))
            entry = example()["pick"][0]
            assert post(client, room, entry["side"], "pick", pick_form(entry, room.seq)).status_code == 303
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir()
        other = elsewhere / "same.toml"
        if link == "symbolic":
            other.symlink_to(room.path)
        else:
            os.link(room.path, other)
        before = room.path.read_bytes()
        result = serve(str(other))
        assert result.exit_code == 2, result.output
        assert result.output.count("\n") == 1 and "Traceback" not in result.output
        assert "is already served by" in result.output and str(other) in result.output
        assert not room_file(other).exists() and not lock_file(other).exists()  # nothing made beside the link
        assert room.path.read_bytes() == before
    finally:
        first.release()
    assert not lock_file(room.path).exists()


def test_a_lock_is_held_on_the_file_itself_and_a_second_lock_on_it_is_refused(room: Room, tmp_path: Path) -> None:
    first = ServeLock(room.path).acquire()
    first.hold_draft()
    try:
        os.link(room.path, tmp_path / "again.toml")
        second = ServeLock(tmp_path / "again.toml").acquire()  # another lock file: another name
        try:
            with pytest.raises(KremlinError) as refused:
                second.hold_draft()
            assert "under another name for the same file" in str(refused.value)
        finally:
            second.release()
    finally:
        first.release()


# -- serve on a full disk ----------------------------------------------------------------------------------


def new_draft_args(path: Path) -> list[str]:
    data = example()
    return [str(path), "--ruleset", data["ruleset"], "--game", data["game"], "--first", data["first"]]


@pytest.mark.parametrize("full", ["lock", "draft", "room"])
def test_serve_on_a_full_disk_names_the_file_in_one_line(tmp_path: Path, monkeypatch, full: str) -> None:
    """Issue 40: ``serve`` on a full disk did not name the file. Each file it writes before it listens: the lock,
    the new draft, the room file with the links' secrets."""
    draft = tmp_path / "new.toml"
    target = {"lock": lock_file(draft), "draft": draft, "room": room_file(draft)}[full]
    real_write, real_link, real_replace = os.write, os.link, os.replace

    def full_disk(name: str) -> OSError:
        return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), name)

    def write(descriptor, data):
        if os.path.realpath(f"/proc/self/fd/{descriptor}") == str(target.resolve()):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))  # os.write names no file
        return real_write(descriptor, data)

    def link(source, destination, *args, **kwargs):
        if Path(destination).resolve() == target.resolve():
            raise full_disk(str(destination))
        return real_link(source, destination, *args, **kwargs)

    def replace(source, destination, *args, **kwargs):
        if Path(destination).resolve() == target.resolve():
            raise full_disk(str(destination))
        return real_replace(source, destination, *args, **kwargs)

    monkeypatch.setattr(os, "write", write)
    monkeypatch.setattr(os, "link", link)
    monkeypatch.setattr(os, "replace", replace)
    result = serve(*new_draft_args(draft))
    assert result.exit_code == 2, result.output
    (line,) = [line for line in result.output.splitlines() if line.startswith("kremlin-triplea:")]  # one line, after "started the draft" at most
    assert "Traceback" not in result.output and str(target) in line and "No space left on device" in line, result.output


# -- installs from the room --------------------------------------------------------------------------------


def test_each_side_installs_once_per_draft_and_a_restart_gives_no_second_install(tmp_path: Path) -> None:
    """Issue 40: either player could install into the host's TripleA as often as they liked (30 installs in 19 s)."""
    import yaml

    maps = tmp_path / "maps"
    shutil.copytree(MAPS_DIR / "world_war_ii_v3", maps / "world_war_ii_v3")
    path = tmp_path / "draft.toml"
    shutil.copyfile(EXAMPLE, path)  # a finished draft
    room = Room(path, maps)
    client = TestClient(create_app(room, svg_for=no_picture))

    def listed() -> list[str]:
        return [g["game_name"] for g in yaml.safe_load((maps / "world_war_ii_v3" / "map.yml").read_text(encoding="utf-8"))["games"]]

    assert post(client, room, "Axis", "install", {"seq": str(room.seq), "name": "Ann v Bob"}).status_code == 303
    before = listed()
    second = post(client, room, "Axis", "install", {"seq": str(room.seq), "name": "Ann v Bob 2"})
    assert second.status_code == 422 and "one install per side" in html.unescape(second.text) and "'Ann v Bob'" in html.unescape(second.text)
    assert listed() == before
    # The other side's page says it is installed, and by whom; the Allies have their own one install.
    assert "The Axis installed it on the host's TripleA as <b>Ann v Bob</b>" in html.unescape(client.get(f"/room/{room.keys['Allies']}").text)
    assert post(client, room, "Allies", "install", {"seq": str(room.seq), "name": "Bob v Ann"}).status_code == 303
    assert listed() == [*before, "Bob v Ann"]
    restarted = Room(path, maps)
    assert restarted.installed == {"Axis": "Ann v Bob", "Allies": "Bob v Ann"}
    client = TestClient(create_app(restarted, svg_for=no_picture))
    for side in ("Axis", "Allies"):
        assert post(client, restarted, side, "install", {"seq": str(restarted.seq), "name": f"{side} again"}).status_code == 422
        assert "id='install'" not in client.get(f"/room/{restarted.keys[side]}").text  # no form offered
    assert listed() == [*before, "Bob v Ann"]

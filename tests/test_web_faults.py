"""The draft room under faults (issue 31, 4): an action is accepted only once the files holding it are on disk;
the secrets file is never readable by others; one server per draft file."""

from __future__ import annotations

import errno
import os
import stat
import warnings
from pathlib import Path

import pytest

with warnings.catch_warnings():  # starlette's TestClient warns that it will move to httpx2; it works with httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from kremlin_triplea.draft.run import read_draft
from kremlin_triplea.errors import KremlinError
from kremlin_triplea.gamefile import safe
from kremlin_triplea.web.app import create_app
from kremlin_triplea.web.room import Room, new_draft, room_file
from support.paths import MAPS_DIR
from support.web import bid_form, example, header, pick_form


def no_picture(room: Room) -> str:
    return "<svg></svg>"


@pytest.fixture
def room(tmp_path: Path) -> Room:
    path = tmp_path / "draft.toml"
    new_draft(path, header(example()), MAPS_DIR)
    return Room(path, MAPS_DIR)


def post(client: TestClient, room: Room, role: str, what: str, form: dict[str, str]):
    return client.post(f"/room/{room.keys[role]}/{what}", data=form, follow_redirects=False)


class DiskFull:
    """``os.replace`` onto the chosen files fails as on a full disk: the atomic writer's last step, so nothing reaches them."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.failing: set[Path] = set()
        real = os.replace

        def replace(source, target, *args, **kwargs):
            if Path(target).resolve() in self.failing:
                raise OSError(errno.ENOSPC, "No space left on device")
            return real(source, target, *args, **kwargs)

        monkeypatch.setattr(safe.os, "replace", replace)

    def on(self, *paths: Path) -> None:
        self.failing = {p.resolve() for p in paths}


def test_a_pick_whose_draft_file_cannot_be_written_is_not_kept_and_the_other_side_cannot_pick_on_it(room: Room, monkeypatch) -> None:
    client = TestClient(create_app(room, svg_for=no_picture))
    disk = DiskFull(monkeypatch)
    first = example()["pick"][0]  # the Axis' first pick
    before = room.path.read_bytes()
    disk.on(room.path)
    response = post(client, room, first["side"], "pick", pick_form(first, room.seq))
    assert response.status_code == 503
    assert "No space left on device" in response.text and "nothing of it was kept" in response.text
    assert room.path.read_bytes() == before and room.session.picks == [] and room.turn() == first["side"]
    # The other side does not pick on top of it: it is still the first side's turn.
    second = example()["pick"][1]
    assert second["side"] != first["side"]
    assert post(client, room, second["side"], "pick", pick_form(second, room.seq)).status_code == 403
    disk.on()
    assert post(client, room, first["side"], "pick", pick_form(first, room.seq)).status_code == 303
    assert len(read_draft(room.path).picks) == 1 == len(Room(room.path, MAPS_DIR).session.picks)


def make_picks(client: TestClient, room: Room) -> None:
    for entry in example()["pick"]:
        assert post(client, room, entry["side"], "pick", pick_form(entry, room.seq)).status_code == 303, entry


@pytest.mark.slow
def test_every_action_that_cannot_be_written_keeps_nothing(room: Room, monkeypatch) -> None:
    """The class: a pick, an undo, a bid entered (room file), a bid agreed (draft file and room file), a declaration."""
    client = TestClient(create_app(room, svg_for=no_picture))
    disk = DiskFull(monkeypatch)
    both = (room.path, room_file(room.path))

    def refused_unchanged(role: str, what: str, form: dict[str, str], failing: tuple[Path, ...] = both) -> None:
        files = [p.read_bytes() for p in both]
        state = (len(room.session.picks), "bid" in room.session.data, room.bid_proposal, room.undo_request)
        disk.on(*failing)
        try:
            response = post(client, room, role, what, {**form, "seq": str(room.seq)})
        finally:
            disk.on()
        assert response.status_code == 503, (what, response.status_code)
        assert [p.read_bytes() for p in both] == files, what
        assert (len(room.session.picks), "bid" in room.session.data, room.bid_proposal, room.undo_request) == state, what
        restarted = Room(room.path, MAPS_DIR)
        assert (len(restarted.session.picks), "bid" in restarted.session.data, restarted.bid_proposal, restarted.undo_request) == state, what

    first = example()["pick"][0]
    assert post(client, room, first["side"], "pick", pick_form(first, room.seq)).status_code == 303
    refused_unchanged(first["side"], "undo", {})  # not seen by the other side: undone at once, if it could be written
    client.get(f"/room/{room.keys[example()['pick'][1]['side']]}")  # the other side has seen it: an undo asks them
    refused_unchanged(first["side"], "undo", {}, failing=(room_file(room.path),))
    assert post(client, room, first["side"], "undo", {"seq": str(room.seq)}).status_code == 303
    other = example()["pick"][1]["side"]
    refused_unchanged(other, "undo/answer", {"agree": "yes"}, failing=(room.path,))
    assert post(client, room, other, "undo/answer", {"seq": str(room.seq), "agree": "no"}).status_code == 303
    for entry in example()["pick"][1:]:
        assert post(client, room, entry["side"], "pick", pick_form(entry, room.seq)).status_code == 303, entry
    refused_unchanged("Axis", "bid", bid_form(example()["bid"], 0), failing=(room_file(room.path),))
    assert post(client, room, "Axis", "bid", bid_form(example()["bid"], room.seq)).status_code == 303
    for failing in ((room.path,), (room_file(room.path),)):  # the draft file written and the room file not: both go back
        refused_unchanged("Allies", "bid/answer", {"agree": "yes"}, failing=failing)
    assert post(client, room, "Allies", "bid/answer", {"seq": str(room.seq), "agree": "yes"}).status_code == 303
    step = room.declaration()
    assert step is not None
    refused_unchanged(step[0].side, "declare", {"to": "Russia"}, failing=(room.path,))


def test_the_secrets_file_is_never_readable_by_others(tmp_path: Path, monkeypatch) -> None:
    """Every file that holds the links' secrets, the temporary one included, is 0600 at the moment it gets them."""
    seen: list[tuple[str, int]] = []
    real = os.replace

    def replace(source, target, *args, **kwargs):
        seen.append((str(target), stat.S_IMODE(os.stat(source).st_mode)))
        return real(source, target, *args, **kwargs)

    monkeypatch.setattr(safe.os, "replace", replace)
    old = os.umask(0o022)  # a usual umask: new files readable by all
    try:
        path = tmp_path / "draft.toml"
        new_draft(path, header(example()), MAPS_DIR)
        room = Room(path, MAPS_DIR, {"Axis": "Ann"})
        Room(path, MAPS_DIR, {"Axis": "Bea"})  # a new name: the file is written again
        room.bid_proposal = None  # the room state written again
    finally:
        os.umask(old)
    written = [mode for target, mode in seen if target == str(room_file(path))]
    assert len(written) >= 2 and all(mode == 0o600 for mode in written), seen
    assert stat.S_IMODE(room_file(path).stat().st_mode) == 0o600


def test_an_existing_secrets_file_readable_by_others_is_made_private_before_it_is_written_again(room: Room, monkeypatch) -> None:
    room_file(room.path).chmod(0o644)
    modes: list[int] = []
    real = os.replace

    def replace(source, target, *args, **kwargs):
        modes.append(stat.S_IMODE(os.stat(source).st_mode))
        return real(source, target, *args, **kwargs)

    monkeypatch.setattr(safe.os, "replace", replace)
    room.undo_request = None
    assert modes == [0o600] and stat.S_IMODE(room_file(room.path).stat().st_mode) == 0o600


def test_a_draft_file_has_one_server_and_a_second_is_told_where_the_first_runs(room: Room) -> None:
    from click.testing import CliRunner

    from kremlin_triplea.cli.main import main
    from kremlin_triplea.web.room import ServeLock, lock_file

    first = ServeLock(room.path).acquire()
    try:
        first.say(f"process {os.getpid()} at http://localhost:8123")
        with pytest.raises(KremlinError) as refused:
            ServeLock(room.path).acquire()
        assert f"is already served by process {os.getpid()} at http://localhost:8123" in str(refused.value)
        # The command says so in one line, exit 2, before it listens or prints a link.
        result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "serve", str(room.path), "--port", "0"])
        assert result.exit_code == 2, result.output
        assert f"is already served by process {os.getpid()} at http://localhost:8123" in result.output
        assert room.keys["Axis"] not in result.output and "Traceback" not in result.output
    finally:
        first.release()
    assert not lock_file(room.path).exists()  # a stopped server leaves no lock file
    ServeLock(room.path).acquire().release()  # and the next one starts

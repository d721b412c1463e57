"""The draft room under faults (issue 31, 4): an action is accepted only once the files holding it are on disk;
the secrets file is never readable by others; one server per draft file."""

from __future__ import annotations

import errno
import os
import re
import socket
import stat
import statistics
import threading
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import lxml.html
import pytest
from starlette.requests import Request
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

with warnings.catch_warnings():  # starlette's TestClient warns that it will move to httpx2; it works with httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from kremlin_triplea.draft.run import read_draft
from kremlin_triplea.errors import KremlinError
from kremlin_triplea.gamefile import safe
from kremlin_triplea.web.admission import (
    STREAMS_PER_ADDRESS,
    STREAMS_PER_NETWORK,
    STREAMS_PER_SIDE,
    SpectatorStreams,
    client_address,
    client_groups,
    spectator_share,
)
from kremlin_triplea.web.app import create_app, room_server
from kremlin_triplea.web.room import SPECTATOR, Room, new_draft, room_file, save_room_state
from support.paths import MAPS_DIR
from support.web import bid_form, example, header, http_client, pick_form


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
        state = (len(room.session.picks), room.session.bid is not None, room.bid_proposal, room.undo_request)
        disk.on(*failing)
        try:
            response = post(client, room, role, what, {**form, "seq": str(room.seq)})
        finally:
            disk.on()
        assert response.status_code == 503, (what, response.status_code)
        assert [p.read_bytes() for p in both] == files, what
        assert (len(room.session.picks), room.session.bid is not None, room.bid_proposal, room.undo_request) == state, what
        restarted = Room(room.path, MAPS_DIR)
        assert (len(restarted.session.picks), restarted.session.bid is not None, restarted.bid_proposal, restarted.undo_request) == state, what

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
        Room(path, MAPS_DIR, {"Axis": "Ann"})
        Room(path, MAPS_DIR, {"Axis": "Bea"})  # a new name: the file is written again
        save_room_state(path, bid_proposal=None)  # the room state written again
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


# -- load: streams, unfinished connections, the number of connections (issue 31, 3) --------------------------


class Arrivals:
    """The room's app, counting the requests that have reached it (their head read): a test waits for the others to
    have arrived while one is being answered, instead of sleeping long enough for them to."""

    def __init__(self) -> None:
        self.count = 0
        self.app = None

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http":
            self.count += 1
        await self.app(scope, receive, send)

    def wait_for(self, count: int, within: float = 20) -> None:
        """Until ``count`` requests have arrived (called from a worker thread while the loop takes them in)."""
        deadline = time.monotonic() + within
        while self.count < count:
            assert time.monotonic() < deadline, f"{self.count} of {count} requests arrived"
            time.sleep(0.005)


@contextmanager
def room_served(room: Room, svg_for=no_picture, send_buffer: int | None = None, arrivals: Arrivals | None = None, share_of: int | None = None, **limits):
    """``room`` served as ``serve`` serves it (room_server, a socket bound on 127.0.0.1) in a thread; yields its
    address (host, port) and the server.

    ``send_buffer``: the kernel's send buffer of each connection (its listening socket's, inherited), small to
    keep what a slow reader has not taken in the server's own buffer, as over a real network. ``arrivals``: counts
    the requests that reach the app.
    """
    from kremlin_triplea.cli.serve import _bound_socket

    server = None
    ceiling = {"max_connections": limits["max_connections"]} if "max_connections" in limits else {}
    if share_of is not None:  # the spectators' streams may hold their share of this many, whatever the server's ceiling
        ceiling = {"max_connections": share_of}
    app = create_app(room, svg_for=svg_for, stopping=lambda: server is not None and server.should_exit, **ceiling)
    if arrivals is not None:
        arrivals.app, app = app, arrivals
    server = room_server(app, **limits)
    sock = _bound_socket("127.0.0.1", 0)
    if send_buffer is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.005)  # uvicorn starts in some 10-50 ms
    try:
        yield sock.getsockname()[:2], server
    finally:
        server.should_exit = True
        thread.join(15)
        sock.close()


def raw(address, data: bytes = b"", source: str | None = None) -> socket.socket:
    """A connection to ``address`` that has sent ``data``; from ``source`` (another loopback address, 127.x.y.z) if given."""
    connection = socket.create_connection(address, timeout=10, source_address=(source, 0) if source else None)
    if data:
        connection.sendall(data)
    return connection


def closed_by_server(connection: socket.socket, within: float) -> bool:
    """The server closed ``connection`` (EOF or reset) within ``within`` seconds; what it sent before is read and dropped."""
    connection.settimeout(min(0.2, within))
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            if connection.recv(65536) == b"":
                return True
        except TimeoutError:
            continue
        except ConnectionResetError:
            return True
    return False


def length(response: bytes) -> int:
    """The body's length an HTTP answer's head declares."""
    return int(re.search(rb"content-length: (\d+)", response, re.IGNORECASE).group(1))


def stream_request(room: Room, role: str = SPECTATOR) -> bytes:
    return f"GET /events/{room.keys[role]} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()


@pytest.mark.slow
def test_event_streams_leave_the_workers_to_the_players(room: Room) -> None:
    # Issue 31: "each spectator's event stream holds one of the server's 40 worker threads: with 200 streams a
    # player's page takes 5 s and a pick 4 s". 120 streams are three times the workers.
    first = example()["pick"][0]
    with room_served(room) as (address, server):
        # From 120 addresses, as spectators on as many machines (one address may hold only STREAMS_PER_ADDRESS).
        streams = [raw(address, stream_request(room), source=f"127.0.1.{n + 1}") for n in range(120)]
        try:
            with http_client(f"http://{address[0]}:{address[1]}", timeout=60) as http:
                http.get(f"/room/{room.keys[SPECTATOR]}")  # the page drawn once
                timings = []
                for probe in range(5):  # each a page not drawn before: drawn by a worker
                    start = time.monotonic()
                    assert http.get(f"/room/{room.keys[first['side']]}", params={"probe": str(probe)}).status_code == 200
                    timings.append(time.monotonic() - start)
                start = time.monotonic()
                picked = http.post(f"/room/{room.keys[first['side']]}/pick", data=pick_form(first, room.seq), follow_redirects=False)
                pick_time = time.monotonic() - start
            assert picked.status_code == 303
            assert statistics.median(timings) < 1.0 and pick_time < 1.0, (timings, pick_time)
            # Every stream is still there and hears of the pick.
            streams[-1].settimeout(10)
            heard = b""
            while f"data: {room.seq}".encode() not in heard:
                heard += streams[-1].recv(4096)
        finally:
            for stream in streams:
                stream.close()


def stream_answer(connection: socket.socket) -> bytes:
    """The head of the answer to a stream request, and what came with it."""
    connection.settimeout(10)
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = connection.recv(4096)
        assert chunk, answer
        answer += chunk
    return answer


def test_one_address_holds_at_most_its_share_of_event_streams_and_others_are_not_refused(room: Room) -> None:
    """Issue 31's last note: anyone with the spectators' link could open up to 2,000 event streams."""
    with room_served(room) as (address, server):
        held = [raw(address, stream_request(room)) for _ in range(STREAMS_PER_ADDRESS)]
        try:
            for connection in held:
                assert stream_answer(connection).startswith(b"HTTP/1.1 200")
            refused = raw(address, stream_request(room))
            answer = stream_answer(refused)
            head, _, body = answer.partition(b"\r\n\r\n")
            while len(body) < length(answer):
                body += refused.recv(4096)
            assert head.startswith(b"HTTP/1.1 429"), head
            assert body.decode().count("\n") == 1 and f"{STREAMS_PER_ADDRESS} event streams" in body.decode(), body  # one line, why
            refused.close()
            # A player's stream from another address is not refused, nor is a player's own page from this one.
            other = raw(address, stream_request(room, "Axis"), source="127.0.0.2")
            assert stream_answer(other).startswith(b"HTTP/1.1 200")
            other.close()
            with http_client(f"http://{address[0]}:{address[1]}", timeout=30) as http:
                assert http.get(f"/room/{room.keys['Axis']}").status_code == 200
            # A page closed gives its stream back: the address may open one again.
            held.pop().close()
            deadline = time.monotonic() + 10
            while True:
                again = raw(address, stream_request(room))
                if stream_answer(again).startswith(b"HTTP/1.1 200"):
                    held.append(again)
                    break
                again.close()
                assert time.monotonic() < deadline, "the closed stream was never given back"
                time.sleep(0.1)
        finally:
            for connection in held:
                connection.close()


def groups_of(host: str) -> tuple[str, ...]:
    return client_groups(Request({"type": "http", "client": (host, 5000), "headers": []}))


def test_an_ipv6_client_is_counted_by_its_64_and_its_48_and_a_mapped_ipv4_as_its_ipv4() -> None:
    """A machine on IPv6 is given a whole /64 and may send from any address in it: they count as one; a home line
    is given a /48 (or a /56) and holds many /64s: they count together too (issue 40)."""

    def address_of(host: str) -> str:
        return client_address(Request({"type": "http", "client": (host, 5000), "headers": []}))

    assert address_of("2001:db8:1:2::1") == address_of("2001:db8:1:2:ffff::9")
    assert address_of("2001:db8:1:2::1") != address_of("2001:db8:1:3::1")
    assert groups_of("2001:db8:1:2::1")[1] == groups_of("2001:db8:1:ff00::1")[1] != groups_of("2001:db8:2:2::1")[1]
    assert address_of("::ffff:192.0.2.7") == address_of("192.0.2.7") != address_of("192.0.2.8")
    assert groups_of("::ffff:192.0.2.7") == ("192.0.2.7",)


def test_one_ipv6_home_line_holds_its_networks_share_of_spectators_streams_from_however_many_64s() -> None:
    pool = SpectatorStreams(total=10_000)
    line = [groups_of(f"2001:db8:7:{n:x}::1") for n in range(STREAMS_PER_NETWORK + 1)]  # a /64 each, one /48
    assert [pool.take(groups) for groups in line[:-1]] == [None] * STREAMS_PER_NETWORK
    refused = pool.take(line[-1])
    assert refused is not None and "2001:db8:7::/48" in refused and "\n" not in refused
    assert pool.take(groups_of("2001:db8:8::1")) is None  # another line is not refused
    pool.give_back(line[0])
    assert pool.take(line[-1]) is None  # a stream closed makes room on that line again


def test_the_spectators_streams_are_bounded_in_all_and_leave_the_rest_of_the_connections_to_the_players(room: Room) -> None:
    """Issue 40: 32 streams from each of 63 addresses filled the server's 2,000 connections and the players' pages
    were reset. The spectators' pool in all is half the connections (here 4 of 8)."""
    assert spectator_share(8) == 4
    with room_served(room, max_connections=8) as (address, server):
        held = [raw(address, stream_request(room), source=f"127.0.3.{n + 1}") for n in range(4)]
        try:
            for connection in held:
                assert stream_answer(connection).startswith(b"HTTP/1.1 200")
            refused = raw(address, stream_request(room), source="127.0.3.99")
            answer = stream_answer(refused)
            while len(answer.partition(b"\r\n\r\n")[2]) < length(answer):
                answer += refused.recv(4096)
            refused.close()
            assert answer.startswith(b"HTTP/1.1 429") and b"spectators' event streams open, the most it serves" in answer, answer
            player = raw(address, stream_request(room, "Axis"), source="127.0.3.1")
            assert stream_answer(player).startswith(b"HTTP/1.1 200")
            player.close()
            with http_client(f"http://{address[0]}:{address[1]}", timeout=30) as http:
                assert http.get(f"/room/{room.keys['Allies']}").status_code == 200
        finally:
            for connection in held:
                connection.close()


def test_a_players_streams_are_never_counted_with_the_spectators_of_their_address(room: Room) -> None:
    """Issue 40: 32 spectators' streams from a player's address cut that player off from updates (429)."""
    with room_served(room) as (address, server):
        spectators = [raw(address, stream_request(room), source="127.0.4.1") for _ in range(STREAMS_PER_ADDRESS)]
        players: list[socket.socket] = []
        try:
            for connection in spectators:
                assert stream_answer(connection).startswith(b"HTTP/1.1 200")
            for role in ("Axis", "Allies"):
                players.append(raw(address, stream_request(room, role), source="127.0.4.1"))
                assert stream_answer(players[-1]).startswith(b"HTTP/1.1 200")
            # The side's own budget: a side opening more ends its oldest stream, never refuses the new one.
            for _ in range(STREAMS_PER_SIDE):
                players.append(raw(address, stream_request(room, "Axis"), source="127.0.4.1"))
                assert stream_answer(players[-1]).startswith(b"HTTP/1.1 200")
            oldest = players[0]
            oldest.settimeout(10)
            heard = b""
            while not heard.endswith(b"0\r\n\r\n"):  # the stream's last chunk: it ended
                chunk = oldest.recv(4096)
                assert chunk, heard
                heard += chunk
            first = example()["pick"][0]
            with http_client(f"http://{address[0]}:{address[1]}", timeout=60) as http:
                assert http.post(f"/room/{room.keys[first['side']]}/pick", data=pick_form(first, room.seq), follow_redirects=False).status_code == 303
            for stream in (players[1], players[-1]):  # the Allies' one, and the Axis' newest, hear of the pick
                stream.settimeout(10)
                heard = b""
                while f"data: {room.seq}".encode() not in heard:
                    chunk = stream.recv(4096)
                    assert chunk, "the server closed the stream"
                    heard += chunk
        finally:
            for connection in spectators + players:
                connection.close()


def test_a_connection_that_owes_its_request_is_dropped_and_a_stream_is_not(room: Room) -> None:
    # Half a second owed, looked at every tenth: a fast test; the limit's arithmetic is the same as at 20 s.
    with room_served(room, request_seconds=0.5, look_seconds=0.1) as (address, server):
        silent = raw(address)
        half_head = raw(address, b"GET /room/x HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        half_body = raw(address, f"POST /room/{room.keys['Axis']}/pick HTTP/1.1\r\nHost: h\r\nContent-Length: 100\r\n\r\nseq=1".encode())
        stream = raw(address, stream_request(room))
        # Kept alive after an answer, then half of the next request (uvicorn's own idle timer stops at its first byte).
        kept = raw(address, f"GET /room/{room.keys[SPECTATOR]} HTTP/1.1\r\nHost: h\r\n\r\n".encode())
        answer = b""
        while b"\r\n\r\n" not in answer or len(answer.partition(b"\r\n\r\n")[2]) < length(answer):
            answer += kept.recv(65536)
        kept.sendall(b"GET /room/x HTTP/1.1\r\n")
        try:
            for connection in (silent, half_head, half_body, kept):
                assert closed_by_server(connection, within=10), connection
            # The stream sent its whole request: it stays open past the limit and hears of the next action.
            first = example()["pick"][0]
            with http_client(f"http://{address[0]}:{address[1]}", timeout=60) as http:
                assert http.post(f"/room/{room.keys[first['side']]}/pick", data=pick_form(first, room.seq), follow_redirects=False).status_code == 303
            stream.settimeout(10)
            heard = b""
            while f"data: {room.seq}".encode() not in heard:
                chunk = stream.recv(4096)
                assert chunk, "the server closed the stream"
                heard += chunk
        finally:
            for connection in (silent, half_head, half_body, kept, stream):
                connection.close()


def test_the_connections_at_once_are_bounded_and_idle_ones_give_way_to_a_player(room: Room) -> None:
    with room_served(room, max_connections=8) as (address, server):
        idle = [raw(address) for _ in range(20)]
        try:
            with http_client(f"http://{address[0]}:{address[1]}", timeout=30) as http:
                assert http.get(f"/room/{room.keys['Axis']}").status_code == 200
            deadline = time.monotonic() + 10  # the dropped ones are gone from the server, so their sockets are closed
            while len(server.server_state.connections) > 8 and time.monotonic() < deadline:
                time.sleep(0.01)
            still_open = [c for c in idle if not closed_by_server(c, within=0.01)]
            assert len(still_open) < 8, len(still_open)
            assert still_open == idle[-len(still_open) :]  # the oldest gave way first
        finally:
            for connection in idle:
                connection.close()


def test_a_full_server_lets_a_spectators_stream_give_way_to_a_new_connection_never_a_player(room: Room) -> None:
    """Issue 40: once spectators' streams held every connection, a player's new connection was the one dropped.
    Here the streams may take all 8 (their share is of 2,000): the next connection displaces the oldest of them."""
    with room_served(room, max_connections=8, share_of=2000) as (address, server):
        held = [raw(address, stream_request(room), source=f"127.0.5.{n + 1}") for n in range(8)]
        try:
            for connection in held:
                assert stream_answer(connection).startswith(b"HTTP/1.1 200")
            with http_client(f"http://{address[0]}:{address[1]}", timeout=30) as http:
                assert http.get(f"/room/{room.keys['Axis']}").status_code == 200
            assert closed_by_server(held[0], within=5)  # the oldest gave way
            assert not any(closed_by_server(connection, within=0.01) for connection in held[2:])
            # Players' streams hold the rest: a new spectator's connection gives way to none of them but a spectator's.
            players = [raw(address, stream_request(room, "Allies"), source="127.0.5.99") for _ in range(3)]  # sent at once
            for connection in players:
                assert stream_answer(connection).startswith(b"HTTP/1.1 200")  # none was displaced while sending its request
            assert not any(closed_by_server(connection, within=0.2) for connection in players)
            for connection in players:
                connection.close()
        finally:
            for connection in held:
                connection.close()


def heard_at(connection: socket.socket, step: int, within: float = 10) -> float:
    """When ``connection``'s stream told of ``step``."""
    connection.settimeout(within)
    heard = b""
    while f"data: {step}".encode() not in heard:
        chunk = connection.recv(4096)
        assert chunk, "the server closed the stream"
        heard += chunk
    return time.monotonic()


def test_the_players_hear_of_a_change_at_once_and_the_spectators_each_in_their_turn(room: Room, monkeypatch) -> None:
    """Every spectator's page reloads when told of a change: 2,000 at once kept a player's page waiting seconds
    (scripts/bench_room.py). The players are told at once; the spectators after them, in turns (here 0.4 s, then
    half a second apart)."""
    from kremlin_triplea.web import admission

    monkeypatch.setattr(admission, "SPECTATORS_PER_TURN", 1)
    monkeypatch.setattr(admission, "TURN_SECONDS", 0.5)
    monkeypatch.setattr(admission, "SPECTATOR_HEAD_START_SECONDS", 0.4)
    with room_served(room) as (address, server):
        spectators = [raw(address, stream_request(room), source=f"127.0.7.{n + 1}") for n in range(3)]
        player = raw(address, stream_request(room, "Allies"), source="127.0.7.1")
        try:
            for connection in [*spectators, player]:
                assert stream_answer(connection).startswith(b"HTTP/1.1 200")
            first = example()["pick"][0]
            with http_client(f"http://{address[0]}:{address[1]}", timeout=60) as http:
                began = time.monotonic()
                assert http.post(f"/room/{room.keys[first['side']]}/pick", data=pick_form(first, room.seq), follow_redirects=False).status_code == 303
            heard = [heard_at(connection, room.seq) - began for connection in [player, *spectators]]
            assert heard[0] < 0.4 <= heard[1] < 0.9, heard  # the player at once, the first spectator after the players' head start
            assert 1.4 <= heard[3] < 5, heard  # the third spectator's turn: two turns later
        finally:
            for connection in [*spectators, player]:
                connection.close()


def test_the_new_steps_board_is_drawn_before_anyone_asks_for_it(room: Room) -> None:
    """Every open page fetches the board of each step; the players' first: it is drawn as the room moves on."""
    drawn: list[int] = []

    def board(room: Room) -> str:
        drawn.append(room.seq)
        return f"<svg data-step='{room.seq}'></svg>"

    with room_served(room, svg_for=board) as (address, server):
        stream = raw(address, stream_request(room, "Allies"))
        try:
            assert stream_answer(stream).startswith(b"HTTP/1.1 200")
            first = example()["pick"][0]
            with http_client(f"http://{address[0]}:{address[1]}", timeout=60) as http:
                assert http.post(f"/room/{room.keys[first['side']]}/pick", data=pick_form(first, room.seq), follow_redirects=False).status_code == 303
                deadline = time.monotonic() + 10
                while room.seq not in drawn:
                    assert time.monotonic() < deadline, drawn
                    time.sleep(0.01)
                assert http.get(f"/room/{room.keys['Allies']}/board").text == f"<svg data-step='{room.seq}'></svg>"
            assert drawn == [room.seq]  # once
        finally:
            stream.close()


def test_the_spectators_next_turn_waits_while_the_event_loop_lags(room: Room, monkeypatch) -> None:
    """The spectators' turns are paced by the loop: while it lags (the server busy), the next spectators wait."""
    import asyncio

    from kremlin_triplea.web import admission
    from kremlin_triplea.web.app import Changes

    monkeypatch.setattr(admission, "SPECTATOR_HEAD_START_SECONDS", 0.0)
    monkeypatch.setattr(admission, "TURN_SECONDS", 0.1)

    async def run() -> list[float]:
        changes = Changes(room, stopping=lambda: False)
        changes.attach()
        loop = asyncio.get_running_loop()
        told: list[float] = []

        async def spectator(turn: int) -> None:
            await changes.wait(room.seq, 30, turn=turn)
            told.append(loop.time())
            if turn == 0:
                time.sleep(0.3)  # the first turn's answers hold the loop: a lag far over LOOP_LAG_SECONDS

        waiting = [asyncio.ensure_future(spectator(turn)) for turn in range(2)]
        await asyncio.sleep(0)
        room.seq += 1
        changes.notify()
        await asyncio.wait_for(asyncio.gather(*waiting), 10)
        changes._watcher.cancel()
        return told

    told = asyncio.run(run())
    assert told[1] - told[0] >= 0.3 + 0.09, told  # the second turn came once the loop had caught up, a turn later (not at once: 0.3 s)


def whole_answer(connection: socket.socket) -> bytes:
    answer = stream_answer(connection)
    while len(answer.partition(b"\r\n\r\n")[2]) < length(answer):
        chunk = connection.recv(65536)
        assert chunk, answer[:200]
        answer += chunk
    return answer


def test_a_players_kept_alive_connection_gives_way_after_every_spectators(room: Room) -> None:
    """Between two requests a player's connection owes its next one, as an idle spectator's does: on a full server
    the spectators' give way first (the bench's player was reset as 2,000 spectators reloaded at once)."""
    page = "GET /room/{} HTTP/1.1\r\nHost: h\r\nAccept-Encoding: identity\r\n\r\n"
    with room_served(room, max_connections=8) as (address, server):
        player = raw(address, page.format(room.keys["Axis"]).encode(), source="127.0.6.1")
        spectators: list[socket.socket] = []
        try:
            assert whole_answer(player).startswith(b"HTTP/1.1 200")
            for n in range(7):
                spectators.append(raw(address, page.format(room.keys[SPECTATOR]).encode(), source=f"127.0.6.{n + 2}"))
                assert whole_answer(spectators[-1]).startswith(b"HTTP/1.1 200")
            time.sleep(1.2)  # all have owed their next request a while, the player's longest
            newcomer = raw(address, page.format(room.keys[SPECTATOR]).encode(), source="127.0.6.99")
            assert whole_answer(newcomer).startswith(b"HTTP/1.1 200")
            newcomer.close()
            assert closed_by_server(spectators[0], within=5)  # the oldest spectator's gave way
            player.sendall(page.format(room.keys["Axis"]).encode())  # the player's next request, on the same connection
            assert whole_answer(player).startswith(b"HTTP/1.1 200")
        finally:
            for connection in [player, *spectators]:
                connection.close()


@pytest.mark.slow
def test_a_client_that_does_not_read_its_page_is_dropped(room: Room) -> None:
    big = "<svg>" + "<!-- x -->" * 4_000_000 + "</svg>"  # 40 MB: more than the kernel's buffers hold
    with room_served(room, svg_for=lambda room: big, request_seconds=1.0, stall_seconds=1.0, look_seconds=0.1) as (address, server):
        connection = socket.socket()
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        connection.connect(address)
        try:
            connection.sendall(f"GET /room/{room.keys[SPECTATOR]}/board HTTP/1.1\r\nHost: h\r\n\r\n".encode())  # the room's largest answer
            deadline = time.monotonic() + 60  # not reading: until the server has taken the connection, then let it go
            while not server.server_state.connections and time.monotonic() < deadline:
                time.sleep(0.05)
            while server.server_state.connections and time.monotonic() < deadline:
                time.sleep(0.1)
            assert not server.server_state.connections
            connection.settimeout(10)
            received = 0
            try:
                while chunk := connection.recv(1 << 20):
                    received += len(chunk)
            except ConnectionResetError:
                pass
            assert received < len(big)
        finally:
            connection.close()


def test_a_kept_page_is_never_one_of_an_earlier_step_and_is_sent_compressed_or_not(room: Room) -> None:
    client = TestClient(create_app(room, svg_for=no_picture))
    url = f"/room/{room.keys[SPECTATOR]}"
    before = client.get(url)
    assert f"data-seq='{room.seq}'" in before.text and before.headers["content-encoding"] == "gzip"
    plain = client.get(url, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == before.content
    first = example()["pick"][0]
    assert post(client, room, first["side"], "pick", pick_form(first, room.seq)).status_code == 303
    after = client.get(url)
    assert f"data-seq='{room.seq}'" in after.text and after.text != before.text


def test_spectators_reloading_together_hold_one_worker_and_the_page_is_drawn_once(room: Room, monkeypatch) -> None:
    """When the room changes every open page reloads at once: one worker draws the page, the others wait on the loop."""
    from kremlin_triplea.web import app as web_app

    drawn, workers = [], []
    real_page, real_pool = web_app.room_page, web_app.run_in_threadpool
    arrivals, second_half = Arrivals(), threading.Event()

    def room_page(*args, **kwargs):
        drawn.append(kwargs.get("note"))
        arrivals.wait_for(15)  # half the spectators arrive while the page is drawn
        return real_page(*args, **kwargs)

    async def run_in_threadpool(*args, **kwargs):
        workers.append(args[0])
        return await real_pool(*args, **kwargs)

    real_compress = web_app.gzip.compress

    def compress(*args, **kwargs):
        second_half.set()
        arrivals.wait_for(30)  # and the other half while it is compressed
        return real_compress(*args, **kwargs)

    monkeypatch.setattr(web_app, "room_page", room_page)
    monkeypatch.setattr(web_app, "run_in_threadpool", run_in_threadpool)
    monkeypatch.setattr(web_app.gzip, "compress", compress)
    with room_served(room, arrivals=arrivals) as (address, server):
        url = f"http://{address[0]}:{address[1]}/room/{room.keys[SPECTATOR]}"

        def reload(n: int) -> bytes:
            if n >= 15:
                assert second_half.wait(20)
            with http_client(timeout=60) as http:
                return http.get(url).content

        with ThreadPoolExecutor(max_workers=30) as pool:
            pages = list(pool.map(reload, range(30)))
    assert len(set(pages)) == 1 and f"data-seq='{room.seq}'".encode() in pages[0]
    assert len(drawn) == 1 and len(workers) == 1, (len(drawn), len(workers))


@pytest.mark.parametrize("kind", ["folder", "fifo", "dangling link"])
def test_a_lock_path_that_is_not_a_regular_file_is_refused_and_left_alone(room: Room, kind: str) -> None:
    from kremlin_triplea.web.room import ServeLock, lock_file

    path = lock_file(room.path)
    if kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to(room.path.parent / "elsewhere")
    with pytest.raises(KremlinError) as refused:
        ServeLock(room.path).acquire()
    assert str(path) in str(refused.value)
    assert path.is_dir() if kind == "folder" else path.is_fifo() if kind == "fifo" else path.is_symlink() and not path.exists()
    assert not (room.path.parent / "elsewhere").exists()


class FakeResource:
    """The ``resource`` module with an open-file limit of ``soft``/``hard`` (Windows has none: simulated everywhere)."""

    RLIMIT_NOFILE = 7
    RLIM_INFINITY = -1

    def __init__(self, soft: int, hard: int) -> None:
        self.limits = (soft, hard)

    def getrlimit(self, which: int) -> tuple[int, int]:
        return self.limits

    def setrlimit(self, which: int, limits: tuple[int, int]) -> None:
        if limits[1] != self.limits[1] or (self.limits[1] != self.RLIM_INFINITY and limits[0] > self.limits[1]):
            raise ValueError("not allowed")
        self.limits = limits


@pytest.mark.parametrize(
    ("soft", "hard", "room_left"),
    [
        (300, 300, True),  # cannot be raised: as many as it leaves room for
        (1024, 1 << 20, False),  # raised to make room for the most connections
        (1024, -1, False),  # (no ceiling)
    ],
)
def test_the_connections_at_once_stay_within_the_open_file_limit(monkeypatch, soft: int, hard: int, room_left: bool) -> None:
    """Each connection is an open file: beyond the limit accept() fails and the room is denied to all (issue 31)."""
    import sys

    from starlette.applications import Starlette

    from kremlin_triplea.web import app as web_app

    fake = FakeResource(soft, hard)
    monkeypatch.setitem(sys.modules, "resource", fake)
    allowed = web_app.room_server(Starlette()).config.http.max_connections
    assert allowed == (soft - web_app.RESERVED_FILES if room_left else web_app.MAX_CONNECTIONS)
    assert allowed + web_app.RESERVED_FILES <= fake.limits[0]  # the limit now in force leaves room for them


def test_a_spectators_page_is_drawn_once_a_step_whatever_its_query(room: Room, monkeypatch) -> None:
    """A spectator's page has no form (pages.room_page: the forms are for the side to act): a query cannot make a
    spectator's link cost a drawing per request."""
    from kremlin_triplea.web import app as web_app

    drawn = []
    real_page = web_app.room_page

    def room_page(*args, **kwargs):
        drawn.append(args[1])
        return real_page(*args, **kwargs)

    monkeypatch.setattr(web_app, "room_page", room_page)
    client = TestClient(create_app(room, svg_for=no_picture))
    pages = {client.get(f"/room/{room.keys[SPECTATOR]}", params={"option": str(n), "x": str(n)}).text for n in range(10)}
    assert len(pages) == 1 and drawn == [SPECTATOR]
    client.get(f"/room/{room.keys['Axis']}", params={"option": "1"})
    client.get(f"/room/{room.keys['Axis']}", params={"option": "2"})
    assert drawn == [SPECTATOR, "Axis", "Axis"]  # a player's form differs by option: each drawn


class FakeMsvcrt:
    """Windows' byte-range locks (msvcrt.locking), simulated: a locked byte is refused to every other descriptor,
    and on Windows a locked byte cannot be read by anyone else either."""

    LK_NBLCK = 2
    LK_UNLCK = 0

    def __init__(self) -> None:
        self.locked: dict[tuple[int, int], int] = {}  # (file, byte) -> descriptor

    def locking(self, descriptor: int, mode: int, count: int) -> None:
        assert mode == self.LK_NBLCK and count == 1
        where = (os.fstat(descriptor).st_ino, os.lseek(descriptor, 0, os.SEEK_CUR))
        holder = self.locked.get(where)
        if holder is not None and holder != descriptor:
            raise OSError(errno.EACCES, "Permission denied")
        self.locked[where] = descriptor

    def forget(self, descriptor: int) -> None:
        self.locked = {k: v for k, v in self.locked.items() if v != descriptor}


def test_on_windows_a_second_server_is_refused_and_can_read_who_holds_the_lock(room: Room, monkeypatch) -> None:
    import sys

    from kremlin_triplea.web import lock as web_lock
    from kremlin_triplea.web.room import ServeLock, lock_file

    fake = FakeMsvcrt()
    monkeypatch.setitem(sys.modules, "msvcrt", fake)
    monkeypatch.setattr(web_lock, "_windows", lambda: True)
    first = ServeLock(room.path).acquire()
    first.say("process 4242 at http://localhost:8050")
    with pytest.raises(KremlinError) as refused:
        ServeLock(room.path).acquire()
    assert "is already served by process 4242 at http://localhost:8050" in str(refused.value)
    ((_, byte),) = fake.locked.keys()
    assert byte >= len(lock_file(room.path).read_bytes())  # the lock lies past the text: a second server reads who holds it
    fake.forget(first._descriptor)  # closing a descriptor drops its locks
    first.release()
    assert not lock_file(room.path).exists()
    ServeLock(room.path).acquire().release()  # the next server starts


@pytest.mark.slow
def test_a_slow_reader_still_reading_gets_its_whole_page(room: Room) -> None:
    """Only a reader that stops is dropped: one taking its page slowly for longer than the limit gets all of it."""
    big = "<svg>" + "<!-- x -->" * 400_000 + "</svg>"  # 4 MB, sent as is (no compression asked)
    limits = {"request_seconds": 1.0, "stall_seconds": 1.0, "look_seconds": 0.1}  # looked at often: a drop would be seen at once
    with room_served(room, svg_for=lambda room: big, send_buffer=64 * 1024, **limits) as (address, server):
        connection = socket.socket()
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 * 1024)
        connection.connect(address)
        try:
            # Kept alive, as a browser keeps it: the next request is owed only once this answer is all taken.
            connection.sendall(f"GET /room/{room.keys[SPECTATOR]}/board HTTP/1.1\r\nHost: h\r\n\r\n".encode())  # the room's largest answer
            connection.settimeout(10)
            received = b""
            deadline = time.monotonic() + 60
            while b"\r\n\r\n" not in received or len(received.partition(b"\r\n\r\n")[2]) < length(received):
                assert time.monotonic() < deadline
                chunk = connection.recv(64 * 1024)
                assert chunk, f"dropped after {len(received)} bytes"
                received += chunk
                time.sleep(0.05)  # about 1.3 MB a second at most: the page takes three times the limit
            assert big.encode() in received.partition(b"\r\n\r\n")[2]
        finally:
            connection.close()


def test_a_page_is_answered_without_drawing_the_board_and_the_board_is_drawn_once_a_step_for_every_role(room: Room) -> None:
    """Issue 31: a player's page right after their pick waited for the new step's board (470-710 ms with 200
    spectators). The page names its step's board; the page's script fetches it, drawn once a step for everyone."""
    drawn: list[int] = []

    def board(room: Room) -> str:
        drawn.append(room.seq)
        return f"<svg data-step='{room.seq}'></svg>"

    client = TestClient(create_app(room, svg_for=board))
    for role in ("Axis", "Allies", SPECTATOR):
        page = lxml.html.fromstring(client.get(f"/room/{room.keys[role]}").text)
        (where,) = page.xpath("//div[@id='board']//*[@data-board]/@data-board")
        assert where == f"/room/{room.keys[role]}/board?step={room.seq}"
    assert drawn == []  # three pages, no board drawn
    boards = {client.get(f"/room/{room.keys[role]}/board").text for role in ("Axis", "Allies", SPECTATOR, "Axis")}
    assert boards == {f"<svg data-step='{room.seq}'></svg>"} and drawn == [room.seq]
    first = example()["pick"][0]
    assert post(client, room, first["side"], "pick", pick_form(first, room.seq)).status_code == 303
    assert client.get(f"/room/{room.keys[first['side']]}").status_code == 200 and len(drawn) == 1  # the page after the pick
    assert client.get(f"/room/{room.keys[SPECTATOR]}/board").text == f"<svg data-step='{room.seq}'></svg>"  # the new step's
    assert drawn == [room.seq - 1, room.seq]
    assert client.get("/room/not-a-key/board").status_code == 403


def test_spectators_fetching_the_board_together_hold_one_worker_and_it_is_drawn_once(room: Room, monkeypatch) -> None:
    from kremlin_triplea.web import app as web_app

    drawn, workers, arrivals = [], [], Arrivals()
    real_pool = web_app.run_in_threadpool

    async def run_in_threadpool(*args, **kwargs):
        workers.append(args[0])
        return await real_pool(*args, **kwargs)

    monkeypatch.setattr(web_app, "run_in_threadpool", run_in_threadpool)

    def board(room: Room) -> str:
        drawn.append(room.seq)
        arrivals.wait_for(30)  # a board takes a while: the others arrive meanwhile
        return "<svg>" + "<!-- x -->" * 10_000 + "</svg>"

    with room_served(room, svg_for=board, arrivals=arrivals) as (address, server):
        url = f"http://{address[0]}:{address[1]}/room/{room.keys[SPECTATOR]}/board"

        def fetch(_: int) -> bytes:
            with http_client(timeout=60) as http:
                return http.get(url).content

        with ThreadPoolExecutor(max_workers=30) as pool:
            boards = list(pool.map(fetch, range(30)))
    assert len(set(boards)) == 1 and boards[0].startswith(b"<svg>") and len(drawn) == 1
    assert len(workers) == 1, len(workers)  # the others waited on the loop, not each in a worker of its own


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "null"},  # a sandboxed page, a data: URL
        {"Origin": "http://testserver.evil.example"},
        {"Referer": "http://evil.example/page.html"},
        {"Origin": "https://evil.example", "Referer": "http://testserver/room/x"},  # Origin is what the browser says
    ],
)
def test_every_state_changing_request_from_another_sites_page_is_refused_in_one_line_and_changes_nothing(room: Room, headers: dict[str, str]) -> None:
    """Issue 40: no Origin/Referer check on state-changing POSTs. Every POST route of the room, each with the form
    it takes from the side it takes it from, is refused (403) when a page of another site sent it."""
    client = TestClient(create_app(room, svg_for=no_picture))
    first = example()["pick"][0]
    posts = [r for r in create_app(room, svg_for=no_picture).routes if "POST" in (r.methods or ())]
    assert len(posts) >= 8
    before = (room.path.read_bytes(), room_file(room.path).read_bytes(), room.seq)
    for route in posts:
        what = route.path.removeprefix("/room/{key}/")
        response = client.post(f"/room/{room.keys[first['side']]}/{what}", data=pick_form(first, room.seq), headers=headers, follow_redirects=False)
        assert response.status_code == 403, (what, response.status_code)
        assert response.text.count("\n") == 1 and "another site" in response.text, response.text
    assert (room.path.read_bytes(), room_file(room.path).read_bytes(), room.seq) == before
    # The room's own page (the Origin a browser sends from it) is taken, and so is a request naming no page at all.
    own = {"Origin": "http://testserver"} if "Origin" in headers else {"Referer": f"http://testserver/room/{room.keys[first['side']]}"}
    assert post_with(client, room, first, own).status_code == 303
    assert len(room.session.picks) == 1


def post_with(client: TestClient, room: Room, entry: dict, headers: dict[str, str]):
    return client.post(f"/room/{room.keys[entry['side']]}/pick", data=pick_form(entry, room.seq), headers=headers, follow_redirects=False)


def forwarded_stream(room: Room, forwarded_for: str) -> bytes:
    return f"GET /events/{room.keys[SPECTATOR]} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: {forwarded_for}\r\n\r\n".encode()


@pytest.mark.parametrize("trusted", [None, "127.0.0.1"])
def test_x_forwarded_for_names_the_client_only_from_a_proxy_the_host_trusts(room: Room, trusted: str | None) -> None:
    """Issue 40: X-Forwarded-For from 127.0.0.1 was trusted (uvicorn's default), so behind an ``ssh -R`` tunnel a
    visitor chose the address the room counts them by. By default no proxy is trusted."""
    limits = {"forwarded_allow_ips": trusted} if trusted else {}
    with room_served(room, **limits) as (address, server):
        held = [raw(address, forwarded_stream(room, f"198.51.100.{n + 1}")) for n in range(STREAMS_PER_ADDRESS + 1)]
        try:
            answers = [stream_answer(connection)[:12] for connection in held]
        finally:
            for connection in held:
                connection.close()
    if trusted:  # each counted by the address its proxy names
        assert answers == [b"HTTP/1.1 200"] * (STREAMS_PER_ADDRESS + 1)
    else:  # all counted as 127.0.0.1, whatever they claim
        assert answers == [b"HTTP/1.1 200"] * STREAMS_PER_ADDRESS + [b"HTTP/1.1 429"]


def test_serve_trusts_the_proxies_it_is_told_and_none_by_default(room: Room, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from kremlin_triplea.cli.main import main
    from kremlin_triplea.web import app as web_app

    configs = []
    real = web_app.room_server

    def room_server(app, **kwargs):
        server = real(app, **kwargs)
        configs.append(server.config)
        server.run = lambda sockets: None  # not served: the test asks only how it would be
        return server

    monkeypatch.setattr(web_app, "room_server", room_server)
    for extra in ([], ["--forwarded-allow-ips", "127.0.0.1, 10.0.0.0/8"]):
        result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "serve", str(room.path), "--port", "0", *extra])
        assert result.exit_code == 0, result.output
    configs[0].load()
    configs[1].load()
    assert configs[0].proxy_headers is False and not isinstance(configs[0].loaded_app, ProxyHeadersMiddleware)
    assert isinstance(configs[1].loaded_app, ProxyHeadersMiddleware)
    assert "10.1.2.3" in configs[1].loaded_app.trusted_hosts and "192.168.1.1" not in configs[1].loaded_app.trusted_hosts
    result = CliRunner().invoke(main, ["--maps-dir", str(MAPS_DIR), "serve", str(room.path), "--port", "0", "--forwarded-allow-ips", "proxy.lan"])
    assert result.exit_code == 2 and "--forwarded-allow-ips proxy.lan: 'proxy.lan' is not an address" in result.output
    assert result.output.count("\n") == 1 and room.keys[SPECTATOR] not in result.output


@pytest.mark.parametrize("trusted", [None, "127.0.0.1"])
def test_behind_a_trusted_proxy_a_form_from_the_address_the_browser_asked_for_is_taken(room: Room, trusted: str | None) -> None:
    """A reverse proxy may pass the room its own address as Host (nginx's default): the browser's Origin is the
    proxy's public name, named in X-Forwarded-Host. Believed only from a proxy the host trusts."""
    first = example()["pick"][0]
    form = "&".join(f"{k}={v}" for k, v in pick_form(first, room.seq).items()).replace(" ", "+")
    request = (
        f"POST /room/{room.keys[first['side']]}/pick HTTP/1.1\r\nHost: 127.0.0.1:8050\r\nOrigin: https://draft.example.org\r\n"
        f"X-Forwarded-Host: draft.example.org\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(form)}\r\n\r\n{form}"
    )
    limits = {"forwarded_allow_ips": trusted} if trusted else {}
    with room_served(room, **limits) as (address, server):
        connection = raw(address, request.encode())
        try:
            answer = stream_answer(connection)
        finally:
            connection.close()
    assert answer.startswith(b"HTTP/1.1 303" if trusted else b"HTTP/1.1 403"), answer[:200]
    assert len(room.session.picks) == (1 if trusted else 0)

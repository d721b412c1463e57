#!/usr/bin/env python3
"""Benchmark the draft room under load and print the figures (issues 31, 3 and 40).

Starts ``kremlin-triplea serve`` on a new AA50 draft on 127.0.0.1, then, from this process:

1. opens N spectators' event streams (default 2,000, each from a loopback address of its own) and keeps them
   open, in a process of its own; the room takes as many as its bounds let it (web/admission.py);
2. opens both players' event streams, times a player's page (a page not drawn before, so a worker draws it)
   and the picks of examples/kremlin-aa50-1941.toml; after each pick every spectator reloads its page and then
   the board, as the room's script does in a browser. Target (issue 40): every player's request answered
   within 200 ms, median and p95, while the spectators' connections are held: the page, the pick, the picking
   player's own page right after it and its board. The other player's stream hearing the pick is timed too;
   With ``--reloading LOW-HIGH`` (default 3-6, issue 43's load: "200 spectators holding streams and reloading every
   3-6 s"), each spectator also reloads its page and board on its own every LOW to HIGH seconds (drawn per
   spectator from a fixed seed), steps or not; ``--reloading off`` leaves only the reloads after each step;
3. opens K connections (default 1200) that send half a request and stop, times a player's
   page among them, and waits for the server to drop them (target: within 30 s).

Only 127.0.0.1 is used; every loop is bounded in count and time and stops by itself.

Usage: python scripts/bench_room.py [--maps-dir DIR] [--spectators N] [--reloading LOW-HIGH|off] [--unfinished K] [--pages P] [--picks N] [--src DIR]
(--src: serve another source tree, e.g. an earlier commit's from `git archive`, to compare)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import multiprocessing
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "tests"))  # the room's forms as the tests submit them

import httpx  # noqa: E402

from support.web import example, pick_form  # noqa: E402

HOST = "127.0.0.1"  # loopback only
TARGET_MS = 200  # a player's request answered within this, median and p95 (issue 40)
STARTUP_SECONDS = 120
DROP_WAIT_SECONDS = 40
CROWD_SECONDS = (
    300  # the spectators' process ends by itself then at the latest  # the server drops unfinished connections within 30 s: waited for a little longer at most
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def raise_open_file_limit(wanted: int) -> None:
    try:
        import resource
    except ImportError:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def start_server(folder: Path, maps_dir: Path, src: Path = REPO / "src") -> tuple[subprocess.Popen, dict[str, str]]:
    data = example()
    draft = folder / "bench.toml"
    command = [sys.executable, "-m", "kremlin_triplea", "--maps-dir", str(maps_dir), "serve", str(draft), "--host", HOST, "--port", str(free_port())]
    command += ["--ruleset", data["ruleset"], "--game", data["game"], "--first", data["first"], "--picks-per-side", str(data["picks_per_side"])]
    env = dict(os.environ, PYTHONPATH=str(src))
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    links: dict[str, str] = {}
    deadline = time.monotonic() + STARTUP_SECONDS
    while len(links) < 3 and time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        found = re.match(r"(Axis|Allies|spectators): (http://\S+)", line)
        if found:
            links[found.group(1)] = found.group(2).replace("localhost", HOST)
    if len(links) < 3:
        process.kill()
        raise SystemExit(f"serve printed no links (exit {process.poll()})")
    return process, links


async def get(port: int, path: str, source: str) -> int:
    """GET ``path`` on a connection of its own from ``source``, the whole answer read (as sent, compressed): its size."""
    reader, writer = await asyncio.open_connection(HOST, port, local_addr=(source, 0))
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n".encode())
        return len(await reader.read())
    finally:
        writer.close()


async def reloading(port: int, key: str, source: str, number: int, until: float, every: tuple[float, float], own, failed) -> None:
    """A spectator reloading on its own every ``every`` seconds (a person pressing reload, a phone waking), steps or not."""
    draw = random.Random(number)  # the same pauses every run
    while (left := until - time.monotonic()) > 0:
        await asyncio.sleep(min(left, draw.uniform(*every)))
        if time.monotonic() >= until:
            return
        try:
            for path in (f"/room/{key}", f"/room/{key}/board"):
                await get(port, path, source)
        except OSError:
            with failed.get_lock():
                failed.value += 1
        with own.get_lock():
            own.value += 1


async def spectator(port: int, key: str, number: int, until: float, opened, reloads, failed, refused, every=None, own=None) -> None:
    """An open event stream; on each new step the page and then the board are fetched again, as the room's script
    does in a browser.

    Each stream comes from an address of its own (127.x.y.z: all of 127/8 is this machine), as spectators on as many
    machines: the room takes only so many streams from one address (web/admission.py). Plain sockets, not an HTTP
    client: 2,000 of them in one process leave the processor to the server."""
    source = f"127.{1 + number // 62500}.{2 + number // 250 % 250}.{1 + number % 250}"
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port, local_addr=(source, 0)), timeout=30)
    except (OSError, asyncio.TimeoutError):
        with failed.get_lock():
            failed.value += 1
        return
    writer.write(f"GET /events/{key} HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode())
    last = None
    reloader: asyncio.Future | None = None
    try:
        status = await asyncio.wait_for(reader.readline(), timeout=60)
        if not status.startswith(b"HTTP/1.1 200"):
            with refused.get_lock():
                refused.value += 1
            return
        if every is not None:  # reloads of its own beside the stream's, until the stream's end
            reloader = asyncio.ensure_future(reloading(port, key, source, number, until, every, own, failed))
        while time.monotonic() < until:
            line = await asyncio.wait_for(reader.readline(), timeout=max(0.1, until - time.monotonic()))
            if not line:
                return
            if not line.startswith(b"data: "):
                continue
            step = line[6:].strip()
            if last is None:
                with opened.get_lock():
                    opened.value += 1
            elif step != last:
                try:
                    for path in (f"/room/{key}", f"/room/{key}/board"):  # the page, then its script fetches the board
                        await get(port, path, source)
                except OSError:  # as in a browser: the page stays as it was, the stream goes on
                    with failed.get_lock():
                        failed.value += 1
                with reloads.get_lock():
                    reloads.value += 1
            last = step
    except (asyncio.TimeoutError, ConnectionError):
        return
    finally:
        writer.close()
        if reloader is not None:
            reloader.cancel()


def crowd(port: int, key: str, count: int, seconds: float, opened, reloads, failed, refused, every=None, own=None) -> None:
    """The spectators, in a process of their own: the players' timings are not taken on a loop they keep busy. It
    runs at the lowest priority: the spectators' browsers run on their own machines, not on the host's processor."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(19)

    async def all_of_them() -> None:
        until = time.monotonic() + seconds
        await asyncio.gather(
            *(spectator(port, key, number, until, opened, reloads, failed, refused, every, own) for number in range(count)), return_exceptions=True
        )

    asyncio.run(all_of_them())


def figures(name: str, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p95 = ms[min(len(ms) - 1, math.ceil(len(ms) * 0.95) - 1)]
    return f"{name}: median {statistics.median(ms):.0f} ms, p95 {p95:.0f} ms, max {ms[-1]:.0f} ms ({len(ms)} requests)"


def timed(call, *args, **kwargs) -> tuple[float, httpx.Response]:
    began = time.monotonic()
    response = call(*args, **kwargs)
    return time.monotonic() - began, response


def cpu_seconds(pid: int) -> float | None:
    """The processor time process ``pid`` has used (Linux's /proc; None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime and stime


class PlayerStream:
    """A player's event stream, read in a thread of its own: when each step was heard."""

    def __init__(self, link: str) -> None:
        base, key = link.split("/room/")
        port = int(base.rsplit(":", 1)[1])
        self.connection = socket.create_connection((HOST, port), timeout=60)
        self.connection.sendall(f"GET /events/{key} HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode())
        self.heard: dict[int, float] = {}
        self.status = b""
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self) -> None:
        stream = self.connection.makefile("rb")
        try:
            self.status = stream.readline()
            for line in stream:
                if line.startswith(b"data: "):
                    self.heard.setdefault(int(line[6:]), time.monotonic())
        except OSError:
            pass

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_RDWR)
        self.connection.close()
        self.thread.join(5)


def watch_reloads(reloads, wanted: int, since: float, spans: list[float]) -> None:
    """Wait (at most 60 s) until ``reloads`` reaches ``wanted``, then add the time since ``since`` to ``spans``."""
    deadline = time.monotonic() + 60
    while reloads.value < wanted and time.monotonic() < deadline:
        time.sleep(0.01)
    spans.append(time.monotonic() - since)


def spectators_and_players(links: dict[str, str], spectators: int, pages: int, picks: int, server: int, every: tuple[float, float] | None = None) -> None:
    base = links["spectators"].split("/room/")[0]
    port = int(base.rsplit(":", 1)[1])
    key = links["spectators"].rsplit("/", 1)[1]
    opened, reloads, failed, refused, own = (multiprocessing.Value("i", 0) for _ in range(5))
    with httpx.Client(timeout=60, headers={"Accept-Encoding": "gzip"}) as http:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            try:
                http.get(links["spectators"])
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        spectating = multiprocessing.Process(
            target=crowd, args=(port, key, spectators, CROWD_SECONDS, opened, reloads, failed, refused, every, own), daemon=True
        )
        began = time.monotonic()
        spectating.start()
        deadline = time.monotonic() + 120
        while opened.value + refused.value + failed.value < spectators and time.monotonic() < deadline:
            time.sleep(0.1)
        print(
            f"{opened.value} of {spectators} spectators' event streams open in {time.monotonic() - began:.1f} s "
            f"({refused.value} refused by the room's bounds, {failed.value} not connected)"
        )
        players = {side: PlayerStream(links[side]) for side in ("Axis", "Allies")}
        try:
            quiet = []
            for probe in range(pages):  # a page not drawn before: drawn by a worker, as a player's page after each action is
                seconds, response = timed(http.get, links["Axis"], params={"probe": str(probe)})
                assert response.status_code == 200, response.status_code
                quiet.append(seconds)
            pick_times, herd, boards, spans, heard, storm = [], [], [], [], [], []
            picking_began, own_before = time.monotonic(), own.value
            for number, entry in enumerate(example()["pick"][:picks], start=1):
                link = links[entry["side"]]
                seq = int(re.search(r"data-seq='(\d+)'", http.get(link).text).group(1))
                asked = time.monotonic()
                seconds, response = timed(http.post, f"{link}/pick", data=pick_form(entry, seq), follow_redirects=False)
                assert response.status_code == 303, (response.status_code, response.text[-300:])
                picked = time.monotonic()
                pick_times.append(seconds)
                # When the last spectator has reloaded, watched beside the player's requests below (not after them:
                # the storm's probes take 6 s, which the figure would otherwise never go under).
                everyone = threading.Thread(target=watch_reloads, args=(reloads, opened.value * number, picked, spans), daemon=True)
                everyone.start()
                herd.append(timed(http.get, link)[0])  # the player's page after the redirect, as every spectator reloads
                boards.append(timed(http.get, f"{link}/board")[0])  # then the board, as the page's script fetches it
                other_link = links["Allies" if entry["side"] == "Axis" else "Axis"]
                for moment in (1.0, 2.0, 4.0, 6.0):  # while the spectators, told in turns, reload
                    time.sleep(max(0.0, picked + moment - time.monotonic()))
                    storm.append(timed(http.get, other_link, params={"probe": str(number)} if moment == 1.0 else None)[0])
                everyone.join(60)
                other = players["Allies" if entry["side"] == "Axis" else "Axis"]
                if seq + 1 in other.heard:  # the other player's stream: from the pick asked to its step heard
                    heard.append(other.heard[seq + 1] - asked)
            picking = time.monotonic() - picking_began
            own_reloads = own.value - own_before
        finally:
            used = {"the server": cpu_seconds(server), "the spectators' own client": cpu_seconds(spectating.pid)}
            for stream in players.values():
                stream.close()
            spectating.terminate()
            spectating.join(10)
    print(f"the players' event streams: {', '.join(f'{side} {stream.status.strip().decode()}' for side, stream in players.items())}")
    print(figures(f"a player's page, {opened.value} spectators' streams held", quiet))
    print(figures(f"the picking player's own page right after their pick, as {opened.value} spectators reload", herd))
    print(figures("then the board on that page (fetched by its script)", boards))
    print(figures("a pick", pick_times))
    print(figures(f"the other player's page 1-6 s after a pick, as {opened.value} spectators reload (the first drawn anew)", storm))
    crowd_did = f"{opened.value} spectators reload after each step"
    if every is not None:
        crowd_did += f" and every {every[0]:g}-{every[1]:g} s on their own ({own_reloads} such reloads in the {picking:.0f} s of the picks)"
    print(f"the spectators: {crowd_did}")
    if heard:
        print(figures(f"the other player's stream hears the pick (from the pick asked), as {crowd_did}", heard))
    print(figures("until every spectator has reloaded after a pick", spans) + f"; {failed.value} reloads failed")
    answered = quiet + herd + boards + pick_times + storm
    ms = sorted(s * 1000 for s in answered)
    p95 = ms[min(len(ms) - 1, math.ceil(len(ms) * 0.95) - 1)]
    met = "met" if statistics.median(ms) <= TARGET_MS and p95 <= TARGET_MS else "NOT met"
    print(f"every player's request: median {statistics.median(ms):.0f} ms, p95 {p95:.0f} ms: target {TARGET_MS} ms {met}")
    with contextlib.suppress(OSError, AttributeError):  # what else this machine was doing meanwhile
        print(f"load average (1, 5, 15 min): {', '.join(f'{load:.1f}' for load in os.getloadavg())} on {os.cpu_count()} processors")
    if None not in used.values():  # which of the two the spectators' reloads waited on
        print("processor time used so far: " + ", ".join(f"{who} {seconds:.1f} s" for who, seconds in used.items()))


async def unfinished_connections(links: dict[str, str], count: int) -> None:
    port = int(links["spectators"].split("/room/")[0].rsplit(":", 1)[1])
    held: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
    refused = 0
    start = time.monotonic()
    for _ in range(count):
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port), timeout=5)
        except (OSError, asyncio.TimeoutError):
            refused += 1
            continue
        writer.write(f"GET /room/x HTTP/1.1\r\nHost: {HOST}\r\n".encode())  # half a request head, never finished
        held.append((reader, writer))
    print(f"{len(held)} unfinished connections opened in {time.monotonic() - start:.1f} s ({refused} not accepted)")
    async with httpx.AsyncClient(timeout=60) as http:
        began = time.monotonic()
        status = (await http.get(links["Axis"], params={"probe": "unfinished"})).status_code
        print(f"a player's page among them: {status} in {(time.monotonic() - began) * 1000:.0f} ms")

    async def closed(reader: asyncio.StreamReader) -> float | None:
        try:
            await asyncio.wait_for(reader.read(), timeout=max(0.1, start + DROP_WAIT_SECONDS - time.monotonic()))
        except (asyncio.TimeoutError, ConnectionError):
            pass
        return time.monotonic() - start if reader.at_eof() or reader.exception() is not None else None

    ends = await asyncio.gather(*(closed(reader) for reader, _ in held))
    for _, writer in held:
        writer.close()
    dropped = [t for t in ends if t is not None]
    last = f"the last after {max(dropped):.1f} s" if dropped else "none"
    print(f"dropped by the server: {len(dropped)} of {len(held)} within {DROP_WAIT_SECONDS} s ({last})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--maps-dir", type=Path, default=REPO.parent / "shared" / "triplea-maps" / "downloadedMaps")
    parser.add_argument("--spectators", type=int, default=2000)
    parser.add_argument("--reloading", default="3-6", help="each spectator also reloads every LOW-HIGH seconds on its own (issue 43: 3-6), or 'off'")
    parser.add_argument("--unfinished", type=int, default=1200)
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--picks", type=int, default=10, help="how many of the example's 10 picks to make")
    parser.add_argument("--src", type=Path, default=REPO / "src", help="the source served (an earlier commit's, to compare)")
    args = parser.parse_args()
    every = None
    if args.reloading != "off":
        low, _, high = args.reloading.partition("-")
        try:
            every = (float(low), float(high or low))
        except ValueError:
            parser.error(f"--reloading: {args.reloading!r} is not LOW-HIGH seconds (3-6) or off")
    raise_open_file_limit(args.spectators * 2 + args.unfinished + 100)
    with tempfile.TemporaryDirectory() as folder:
        process, links = start_server(Path(folder), args.maps_dir, args.src)
        try:
            spectators_and_players(links, args.spectators, args.pages, args.picks, process.pid, every)
            if args.unfinished:
                asyncio.run(unfinished_connections(links, args.unfinished))
        finally:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)


if __name__ == "__main__":
    main()

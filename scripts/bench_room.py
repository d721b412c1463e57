#!/usr/bin/env python3
"""Benchmark the draft room under load and print the figures (issue 31, 3).

Starts ``kremlin-triplea serve`` on a new AA50 draft on 127.0.0.1, then, from this process:

1. opens N spectators' event streams (default 200) and keeps them open;
2. times a player's page (a page not drawn before, so a worker draws it) and every pick of
   examples/kremlin-aa50-1941.toml; after each pick every spectator reloads its page and then
   the board, as the room's script does in a browser (target: page and pick medians under
   200 ms, the picking player's own page right after their pick included). The board comes
   apart from the page, drawn once a step: the picking player's board is timed too;
3. opens K connections (default 1200) that send half a request and stop, times a player's
   page among them, and waits for the server to drop them (target: within 30 s).

Only 127.0.0.1 is used; every loop is bounded in count and time and stops by itself.

Usage: python scripts/bench_room.py [--maps-dir DIR] [--spectators N] [--unfinished K] [--pages P] [--picks N] [--src DIR]
(--src: serve another source tree, e.g. an earlier commit's from `git archive`, to compare)
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "tests"))  # the room's forms as the tests submit them

import httpx  # noqa: E402

from support.web import example, pick_form  # noqa: E402

HOST = "127.0.0.1"  # loopback only
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


async def spectator(http: httpx.AsyncClient, base: str, key: str, number: int, until: float, opened, reloads, failed) -> None:
    """An open event stream; on each new step the page is reloaded, as the room's script does in a browser.

    Each stream comes from an address of its own (127.0.x.y: all of 127/8 is this machine), as spectators on as many
    machines: the room takes only so many streams from one address (web/app.py, STREAMS_PER_ADDRESS)."""
    port = int(base.rsplit(":", 1)[1])
    reader, writer = await asyncio.open_connection(HOST, port, local_addr=(f"127.0.{2 + number // 250}.{1 + number % 250}", 0))
    writer.write(f"GET /events/{key} HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode())
    last = None
    try:
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
                    for address in (f"{base}/room/{key}", f"{base}/room/{key}/board"):  # the page, then its script fetches the board
                        async with http.stream("GET", address) as response:
                            async for _ in response.aiter_raw():  # taken as sent; a browser would inflate it
                                pass
                except httpx.HTTPError:  # as in a browser: the page stays as it was, the stream goes on
                    with failed.get_lock():
                        failed.value += 1
                with reloads.get_lock():
                    reloads.value += 1
            last = step
    except (asyncio.TimeoutError, ConnectionError):
        return
    finally:
        writer.close()


def crowd(base: str, key: str, count: int, seconds: float, opened, reloads, failed) -> None:
    """The spectators, in a process of their own: the players' timings are not taken on a loop they keep busy."""

    async def all_of_them() -> None:
        until = time.monotonic() + seconds
        limits = httpx.Limits(max_connections=count, max_keepalive_connections=count)
        async with httpx.AsyncClient(timeout=60, limits=limits, headers={"Accept-Encoding": "gzip"}) as http:
            await asyncio.gather(*(spectator(http, base, key, number, until, opened, reloads, failed) for number in range(count)), return_exceptions=True)

    asyncio.run(all_of_them())


def figures(name: str, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p90 = ms[min(len(ms) - 1, int(len(ms) * 0.9))]
    return f"{name}: median {statistics.median(ms):.0f} ms, p90 {p90:.0f} ms, max {ms[-1]:.0f} ms ({len(ms)} requests)"


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


def spectators_and_players(links: dict[str, str], spectators: int, pages: int, picks: int, server: int) -> None:
    base = links["spectators"].split("/room/")[0]
    key = links["spectators"].rsplit("/", 1)[1]
    opened, reloads, failed = multiprocessing.Value("i", 0), multiprocessing.Value("i", 0), multiprocessing.Value("i", 0)
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
        spectating = multiprocessing.Process(target=crowd, args=(base, key, spectators, CROWD_SECONDS, opened, reloads, failed), daemon=True)
        began = time.monotonic()
        spectating.start()
        deadline = time.monotonic() + 60
        while opened.value < spectators and time.monotonic() < deadline:
            time.sleep(0.1)
        print(f"{opened.value} of {spectators} spectators' event streams open in {time.monotonic() - began:.1f} s")
        try:
            quiet = []
            for probe in range(pages):  # a page not drawn before: drawn by a worker, as a player's page after each action is
                seconds, response = timed(http.get, links["Axis"], params={"probe": str(probe)})
                assert response.status_code == 200, response.status_code
                quiet.append(seconds)
            pick_times, herd, boards, spans = [], [], [], []
            for number, entry in enumerate(example()["pick"][:picks], start=1):
                link = links[entry["side"]]
                seq = int(re.search(r"data-seq='(\d+)'", http.get(link).text).group(1))
                seconds, response = timed(http.post, f"{link}/pick", data=pick_form(entry, seq), follow_redirects=False)
                assert response.status_code == 303, (response.status_code, response.text[-300:])
                picked = time.monotonic()
                pick_times.append(seconds)
                herd.append(timed(http.get, link)[0])  # the player's page after the redirect, as every spectator reloads
                boards.append(timed(http.get, f"{link}/board")[0])  # then the board, as the page's script fetches it
                deadline = time.monotonic() + 60
                while reloads.value < opened.value * number and time.monotonic() < deadline:
                    time.sleep(0.02)
                spans.append(time.monotonic() - picked)
        finally:
            used = {"the server": cpu_seconds(server), "the spectators' own client": cpu_seconds(spectating.pid)}
            spectating.terminate()
            spectating.join(10)
    print(figures("a player's page, quiet", quiet))
    print(figures(f"the picking player's own page right after their pick, as {opened.value} spectators reload", herd))
    print(figures("then the board on that page (fetched by its script)", boards))
    print(figures("a pick", pick_times))
    print(figures("until every spectator has reloaded after a pick", spans) + f"; {failed.value} reloads failed")
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
    parser.add_argument("--spectators", type=int, default=200)
    parser.add_argument("--unfinished", type=int, default=1200)
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--picks", type=int, default=10, help="how many of the example's 10 picks to make")
    parser.add_argument("--src", type=Path, default=REPO / "src", help="the source served (an earlier commit's, to compare)")
    args = parser.parse_args()
    raise_open_file_limit(args.spectators * 2 + args.unfinished + 100)
    with tempfile.TemporaryDirectory() as folder:
        process, links = start_server(Path(folder), args.maps_dir, args.src)
        try:
            spectators_and_players(links, args.spectators, args.pages, args.picks, process.pid)
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

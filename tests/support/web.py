"""Helpers for the draft room's tests: a draft's picks as the room's forms, a live server on loopback."""

from __future__ import annotations

import socket
import ssl
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from kremlin_triplea.rules.tomlfile import read_toml

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "kremlin-aa50-1941.toml"  # every kind of option; its bid places units


def example() -> dict[str, Any]:
    return read_toml(EXAMPLE)


def header(data: dict[str, Any]) -> dict[str, Any]:
    return {"ruleset": data["ruleset"], "game": data["game"], "first": data["first"], "picks_per_side": data["picks_per_side"], "pick": []}


def pick_form(entry: dict[str, Any], seq: int) -> dict[str, str]:
    """A ``[[pick]]`` table as the room's pick form submits it."""
    form = {"seq": str(seq), "option": str(entry["option"])}
    for n, place in enumerate(entry.get("place", [])):
        form |= {f"power.{n}": place["power"], f"unit.{n}": place["unit"], f"at.{n}": place["at"], f"count.{n}": str(place.get("count", 1))}
    for n, take in enumerate(entry.get("take", [])):
        form |= {f"neutral.{n}": take["neutral"], f"by.{n}": take["by"]}  # its navy: declared after the bid
    if "takeover" in entry:
        spec = entry["takeover"]
        form |= {"territory": spec["territory"], "by": spec["by"]}  # its retreats: declared after the bid
    if "scenario" in entry:
        form["scenario"] = entry["scenario"]
    return form


def bid_form(bid: dict[str, Any], seq: int) -> dict[str, str]:
    form = {"seq": str(seq), "amount": str(bid["axis"])}
    for n, place in enumerate(bid.get("place", [])):
        form |= {f"power.{n}": place["power"], f"unit.{n}": place["unit"], f"at.{n}": place["at"], f"count.{n}": str(place.get("count", 1))}
    for power, share in bid.get("phase", {}).items():  # left to TripleA's bid phase (kremlin-daak)
        form[f"phase.{power}"] = str(share)
    return form


# httpx builds a client's TLS context from the CA bundle unless it is given one: ~40-70 ms of CPU per client, which
# the tests that open a client per thread (one connection each, on purpose) paid hundreds of times. The servers the
# tests talk to are plain http on loopback, so no TLS happens; this one context is shared by every client. It still
# verifies (PROTOCOL_TLS_CLIENT requires a certificate and checks the host name) but trusts no CA, so an https URL
# would fail rather than pass unverified.
_PLAIN_HTTP_ONLY = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)


def http_client(base_url: str = "", *, timeout: float = 60) -> httpx.Client:
    """A client of its own (its own connections) for a server on loopback, without loading the CA bundle."""
    return httpx.Client(base_url=base_url, timeout=timeout, verify=_PLAIN_HTTP_ONLY)


def http_get(url: str, *, timeout: float = 60) -> httpx.Response:
    """``httpx.get`` (a client for one request) without loading the CA bundle."""
    with http_client(timeout=timeout) as http:
        return http.get(url)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def live_server(make_app):
    """``make_app(stopping)`` served by uvicorn on 127.0.0.1 in a thread; yields its base address."""
    import uvicorn

    port = free_port()
    server: uvicorn.Server | None = None
    app = make_app(lambda: server is not None and server.should_exit)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=5))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.005)  # uvicorn starts in some 10-50 ms
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)

"""Helpers for the draft room's tests: a draft's picks as the room's forms, a live server on loopback."""

from __future__ import annotations

import socket
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any

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
    return form


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
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)

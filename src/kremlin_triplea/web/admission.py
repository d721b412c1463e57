"""Who the room lets in (issue 40): the players first, the spectators in a bounded pool, and no request sent from
another site's page.

A spectator's link is meant to be passed around, so anyone may hold it: its event streams share one pool, bounded
per address, per IPv6 network and overall, and the overall bound leaves part of the server's connections free
(``spectator_share``). A player's streams are never counted there: each side has a budget of its own, and a side
opening more than its budget ends its own oldest stream (a page left open on another device), never a new one.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Sequence
from urllib.parse import urlsplit

from starlette.requests import Request
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

#: The most event streams one address (an IPv4 address, an IPv6 /64) may hold open at once (one per open page): a
#: browser opens at most six connections to a site, so this leaves room for a few devices behind one router.
STREAMS_PER_ADDRESS = 32
#: The most one IPv6 /48 may hold: a home line is given a /48 or a /56 and may send from any of its 256-65,536 /64s.
STREAMS_PER_NETWORK = 64
#: The widest IPv6 prefix counted as one network (a /48, the usual delegation to a site).
NETWORK_PREFIX = 48
#: The most event streams one side's players may hold open at once; beyond it their oldest is ended.
STREAMS_PER_SIDE = 16
#: The spectators' streams are told of a change after the players', in turns: every spectator's page reloads its
#: page and board when told, and 2,000 at once kept a player's page waiting seconds on the server's one event loop
#: (scripts/bench_room.py). The first turn comes this long after the change: the players' pages, the acting one's
#: and the other's, are drawn and answered before any spectator asks (the page and board after a pick: 50-100 ms).
SPECTATOR_HEAD_START_SECONDS = 0.5
#: How many spectators' streams are told together, and how long at least before the next ones are (2,000 within
#: 10 s on an idle server).
SPECTATORS_PER_TURN = 10
TURN_SECONDS = 0.05
#: The next spectators are told only once the event loop answers within this much of its turn (the spectators told
#: so far have been answered): a loop that lags, the server's processor busy, keeps them waiting, not the players.
LOOP_LAG_SECONDS = 0.02


def spectator_share(max_connections: int) -> int:
    """The spectators' streams at most, of the server's ``max_connections``: half, so that the other half is there
    for the players' pages, actions and streams, and for the spectators' pages (a browser fetches its page again on
    another connection than its stream's, all at once when the room moves on)."""
    return max(1, max_connections // 2)


def client_groups(request: Request) -> tuple[str, ...]:
    """The groups a client is counted in: its IPv4 address, or its IPv6 address's /64 (one machine is given a whole
    /64) and /48 (one home line); a mapped IPv4 address as that IPv4 address."""
    host = request.client.host if request.client is not None else ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return (host,)  # not an IP address (a test client's name, a Unix socket): counted as it is named
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return (str(address.ipv4_mapped),)
        return (str(ipaddress.IPv6Network((address, 64), strict=False)), str(ipaddress.IPv6Network((address, NETWORK_PREFIX), strict=False)))
    return (str(address),)


def client_address(request: Request) -> str:
    """Whom a stream is counted against first: the client's IPv4 address, or its IPv6 address's /64."""
    return client_groups(request)[0]


class SpectatorStreams:
    """The spectators' event streams open: at most ``per_address`` from one address, ``per_network`` from one IPv6
    /48 and ``total`` in all. Touched only on the event loop."""

    def __init__(self, total: int, per_address: int = STREAMS_PER_ADDRESS, per_network: int = STREAMS_PER_NETWORK) -> None:
        self.total = total
        self.per_address = per_address
        self.per_network = per_network
        self.open: dict[str, int] = {}
        self.count = 0
        self.opened = 0  # streams opened so far: each new one takes the next turn

    @property
    def most(self) -> int:
        return self.per_address

    def turn(self) -> int:
        """The turn of a new stream among those open (``SPECTATORS_PER_TURN`` share one): they are told of each
        change in turns (``app.Changes``), whichever joined when."""
        self.opened += 1
        return ((self.opened - 1) % max(1, self.count)) // SPECTATORS_PER_TURN

    def refusal(self, groups: Sequence[str]) -> str | None:
        """Why one more stream from ``groups`` is refused (one line), or None: it may open."""
        if self.count >= self.total:
            return f"the room has {self.total} spectators' event streams open, the most it serves: try again later"
        if self.open.get(groups[0], 0) >= self.per_address:
            return f"this address has {self.per_address} event streams open already, the most one address may hold: close a page of the room first"
        if len(groups) > 1 and self.open.get(groups[1], 0) >= self.per_network:
            return (
                f"this network ({groups[1]}) has {self.per_network} event streams open already, the most one network may hold: close a page of the room first"
            )
        return None

    def take(self, groups: Sequence[str]) -> str | None:
        """Count one more stream from ``groups``; or why not (nothing counted)."""
        refused = self.refusal(groups)
        if refused is None:
            self.count += 1
            for group in groups:
                self.open[group] = self.open.get(group, 0) + 1
        return refused

    def give_back(self, groups: Sequence[str]) -> None:
        self.count -= 1
        for group in groups:
            left = self.open.get(group, 0) - 1
            if left > 0:
                self.open[group] = left
            else:
                self.open.pop(group, None)


class PlayerStreams:
    """Each side's event streams, at most ``per_side``: a new one is always taken, and ends the side's oldest
    beyond the budget (a player is never refused updates, and a leaked player's link holds no more than this).
    Touched only on the event loop."""

    def __init__(self, per_side: int = STREAMS_PER_SIDE) -> None:
        self.per_side = per_side
        self.open: dict[str, list[asyncio.Event]] = {}

    def take(self, side: str) -> asyncio.Event:
        """The new stream's end: set when the side has opened ``per_side`` newer ones."""
        streams = self.open.setdefault(side, [])
        ended = asyncio.Event()
        streams.append(ended)
        while len(streams) > self.per_side:
            streams.pop(0).set()
        return ended

    def give_back(self, side: str, ended: asyncio.Event) -> None:
        streams = self.open.get(side, [])
        if ended in streams:
            streams.remove(ended)


#: A request's scope holds here the host a trusted proxy says the browser asked for (``X-Forwarded-Host``).
FORWARDED_HOST = "kremlin.forwarded_host"


class ForwardedHeaders(ProxyHeadersMiddleware):
    """uvicorn's proxy headers (the client from ``X-Forwarded-For``, the scheme from ``X-Forwarded-Proto``) from the
    proxies trusted, and the host the browser asked for from their ``X-Forwarded-Host``: a reverse proxy may pass
    the room its own address as ``Host`` (nginx does by default), and the Origin check compares with this one."""

    async def __call__(self, scope, receive, send) -> None:
        client = scope.get("client")
        if scope["type"] == "http" and client and client[0] in self.trusted_hosts:
            for name, value in scope["headers"]:
                if name == b"x-forwarded-host":
                    scope[FORWARDED_HOST] = value.decode("latin-1").split(",")[0].strip().lower()
        await super().__call__(scope, receive, send)


def cross_origin(request: Request) -> str | None:
    """Why a state-changing request is refused as sent from another site's page (one line), or None.

    A browser names the page a form was sent from in ``Origin`` (every POST), or failing that in ``Referer``; it
    must be this room's own address (the ``Host`` the request came to, or the one a trusted proxy says the browser
    asked for: ``ForwardedHeaders``). A request naming neither was not sent by a page in a browser (which is what
    a forged form needs) and is taken.
    """
    hosts = {request.headers.get("host", "").strip().lower(), request.scope.get(FORWARDED_HOST, "")} - {""}
    origin = request.headers.get("origin")
    named = origin if origin is not None else request.headers.get("referer")
    if named is None:
        return None
    where = named.strip()
    try:
        parts = urlsplit(where)
        same = parts.scheme in ("http", "https") and parts.netloc.lower() in hosts
    except ValueError:
        same = False
    if same:
        return None
    header = "Origin" if origin is not None else "Referer"
    return f"refused: this request was sent from another site's page ({header}: {where[:100]!r}), not from this room"

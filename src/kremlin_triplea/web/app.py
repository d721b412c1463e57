"""The room's web server (Starlette): pages, actions, server-sent events.

Routes (KEY is a player's or the spectators' secret):
  GET  /room/KEY               the room (?option=N: that option's form)
  POST /room/KEY/pick          a pick          POST /room/KEY/bid      the bid
  POST /room/KEY/bid/answer    agree to the other side's bid, or refuse it (each with a message)
  POST /room/KEY/bid/counter   refuse the other side's bid and propose this one, in one step
  (an action's form carries action_key: its redirect is to /room/KEY?done=ACTION, which confirms it; sent again, it is not applied again)
  POST /room/KEY/house         the side's powers' house-rule advantages (after the bid)
  POST /room/KEY/undo          ask an undo     POST /room/KEY/undo/answer
  GET  /room/KEY/presence      this page's side is here; the answer says whether the other side is
  GET  /room/KEY/board         the board of the picks so far (the page's script puts it in the page)
  GET  /room/KEY/game.xml      the game (players, once complete)
  POST /room/KEY/install       install it into TripleA's folder (players)
  GET  /events/KEY             server-sent events: the step number, on every change

Under load (issue 31): an event stream is a coroutine waiting on the event loop, never a worker thread, so
any number of spectators leave the workers to the players; a page, and apart from it the board, is drawn and
compressed once per step and kept (the spectators all reload it when the room changes); a connection that owes its request too long, or
does not read what it is sent, is dropped, and the connections at once are bounded (``room_server``).
"""

from __future__ import annotations

import asyncio
import gzip
import sys
import threading
from collections.abc import Callable
from urllib.parse import parse_qsl, quote

import h11
import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response, StreamingResponse
from starlette.routing import Route
from uvicorn.protocols.http.h11_impl import H11Protocol

from kremlin_triplea.errors import KremlinError, possessive
from kremlin_triplea.web import admission
from kremlin_triplea.web.actions import DONE_PARAMETER, Actions, confirmation
from kremlin_triplea.web.admission import PlayerStreams, SpectatorStreams, client_groups, cross_origin, spectator_share
from kremlin_triplea.web.bid_actions import BidActions
from kremlin_triplea.web.forms import MAX_FIELD, MAX_ROWS, FormError
from kremlin_triplea.web.pages import message_page, room_page
from kremlin_triplea.web.presence import Presence
from kremlin_triplea.web.room import SPECTATOR, Conflict, Forbidden, Halted, NotSaved, Refused, Room

MAX_BODY = 16 * 1024  # bytes: a pick or a bid form is far smaller
MAX_FIELDS = 8 * MAX_ROWS
#: An event stream says it is still there this often when nothing happens (proxies close silent connections).
HEARTBEAT_SECONDS = 15
#: Marks a request's scope as a spectator's event stream: its connection is the first to give way to a new one.
SPECTATOR_STREAM = "kremlin.spectator_stream"
#: Marks a request's scope as a player's: its connection is the last to give way.
PLAYER_REQUEST = "kremlin.player"
#: The board of a new step is drawn ahead once the acting player's page is, or after this long.
DRAW_AHEAD_WAIT_SECONDS = 0.3
#: Pages kept at once (per role, option and query; all of the current step): a query cannot fill the memory.
KEPT_PAGES = 64


class _BodyTooLarge(Exception):
    pass


async def read_form(request: Request) -> dict[str, str]:
    """The urlencoded form, bounded in size; anything else is a malformed request."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdecimal() or int(declared) > MAX_BODY):
        raise _BodyTooLarge
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise _BodyTooLarge
    kind = request.headers.get("content-type", "").split(";")[0].strip()
    if kind != "application/x-www-form-urlencoded":
        raise FormError("send the form urlencoded (application/x-www-form-urlencoded)")
    try:
        pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True, strict_parsing=bool(body), max_num_fields=MAX_FIELDS)
    except (UnicodeDecodeError, ValueError) as error:
        raise FormError(f"malformed form: {error}") from None
    form: dict[str, str] = {}
    for name, value in pairs:
        if name in form:
            raise FormError(f"{name}: given twice")
        if len(name) > MAX_FIELD:
            raise FormError("a field name is too long")
        form[name] = value
    return form


def accepts_gzip(request: Request) -> bool:
    """The client takes a gzip-compressed body (Accept-Encoding names gzip, not with q=0)."""
    for part in request.headers.get("accept-encoding", "").split(","):
        coding, _, params = part.strip().partition(";")
        if coding.strip().lower() in ("gzip", "*"):
            return params.replace(" ", "").lower() not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


def attachment(name: str) -> str:
    """The Content-Disposition of a download named ``name``, whatever its characters: the name itself in RFC 5987's
    ``filename*`` (UTF-8, percent-encoded; every browser reads it), and a printable ASCII stand-in in ``filename``
    for a client that does not (a header is Latin-1: a Cyrillic draft name there failed the download with a 500)."""
    plain = "".join(c if " " <= c <= "~" and c not in '"\\' else "_" for c in name)
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(name, safe='')}"


class Page:
    """A page (or the board the page's script puts in it) as sent, drawn at step ``seq``; compressed once, by the first
    request that takes it compressed."""

    def __init__(self, seq: int, html: str) -> None:
        self.seq = seq
        self.html = html.encode("utf-8")
        self._gzipped: bytes | None = None
        self._compressing = threading.Lock()

    @property
    def compressed(self) -> bool:
        return self._gzipped is not None

    def gzipped(self) -> bytes:
        with self._compressing:
            if self._gzipped is None:
                # Level 4: within 6% of level 9's size at a sixth of its time (when the page held the board, 560 KB: 180 KB in 40 ms); mtime 0: same bytes every time.
                self._gzipped = gzip.compress(self.html, compresslevel=4, mtime=0)
            return self._gzipped

    def response(self, request: Request, status: int = 200) -> Response:
        headers = {"Cache-Control": "no-store", "Vary": "Accept-Encoding"}
        if accepts_gzip(request):
            return Response(self.gzipped(), status_code=status, media_type="text/html", headers={**headers, "Content-Encoding": "gzip"})
        return Response(self.html, status_code=status, media_type="text/html", headers=headers)


class Changes:
    """Wakes the event streams, on the server's event loop, when the room accepts an action (in a worker thread),
    and once when the server is stopping (``stopping()``, looked at each second by one task, not by every stream).

    The players' streams are woken at once; the spectators' in turns (``wait``'s ``turn``), after the players' head
    start and paced by the loop itself (``release``): 2,000 streams woken together held the loop before the
    player's own answer went out, and their reloads all came at once and kept it busy for seconds (issue 40).
    """

    def __init__(self, room: Room, stopping) -> None:
        self.room = room
        self.stopping = stopping
        self.stopped = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._event: asyncio.Event | None = None
        self._turns: dict[int, asyncio.Event] = {}  # turn -> what the spectators of that turn wait on, for the next change
        self._due: dict[int, list[asyncio.Event]] = {}  # turn -> the changes its spectators are yet to be told of
        self._releasing: asyncio.Task | None = None
        self._watcher: asyncio.Task | None = None
        self.moved_on: list[Callable[[], None]] = []  # called on the loop at each change, after the players' streams are woken
        room.watchers.append(self.notify)

    def attach(self) -> None:
        """Called on the loop by each stream: the loop the streams wait on (a test client may run one per request)."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self._loop, self._event, self._turns, self._due = loop, asyncio.Event(), {}, {}
            self._watcher = loop.create_task(self._watch_stopping())

    async def _watch_stopping(self) -> None:
        while not self.stopping():
            await asyncio.sleep(1.0)
        self.stopped = True
        self._wake()

    def notify(self) -> None:
        loop = self._loop
        if loop is None:
            return
        try:
            loop.call_soon_threadsafe(self._wake)
        except RuntimeError:
            pass  # that loop is closed: no stream waits on it

    def _wake(self) -> None:
        event, self._event = self._event, asyncio.Event()
        turns, self._turns = self._turns, {}
        if event is not None:
            event.set()
        if not self.stopped:
            for moved_on in self.moved_on:
                moved_on()
        for turn, waiting in turns.items():
            self._due.setdefault(turn, []).append(waiting)
        if self.stopped:  # every stream ends now
            for waiting in (w for due in self._due.values() for w in due):
                waiting.set()
            self._due.clear()
        elif self._due and (self._releasing is None or self._releasing.done()) and self._loop is not None:
            self._releasing = self._loop.create_task(self.release())

    async def release(self) -> None:
        """Tell the spectators of each change in their turns: the first after the players' head start, each next
        one ``TURN_SECONDS`` later, and later still while the loop lags behind (busy answering)."""
        loop = asyncio.get_running_loop()
        await asyncio.sleep(admission.SPECTATOR_HEAD_START_SECONDS)
        while self._due:
            for waiting in self._due.pop(min(self._due)):
                waiting.set()
            while True:
                began = loop.time()
                await asyncio.sleep(admission.TURN_SECONDS)
                if self.stopped or loop.time() - began - admission.TURN_SECONDS < admission.LOOP_LAG_SECONDS:
                    break

    async def wait(self, seq: int, timeout: float, ended: asyncio.Event | None = None, turn: int | None = None) -> int:
        """The room's step once it differs from ``seq`` (a spectator: at its ``turn``, ``release``) or the server stops
        (or ``ended`` is set), or after ``timeout`` seconds."""
        event = self._event if turn is None else self._turns.setdefault(turn, asyncio.Event())
        if self.room.seq == seq and not self.stopped and event is not None:
            if ended is None:
                try:
                    await asyncio.wait_for(event.wait(), timeout)
                except asyncio.TimeoutError:
                    pass
            else:  # a player's stream: also until the side's newer streams end it (admission.PlayerStreams)
                waits = [asyncio.ensure_future(event.wait()), asyncio.ensure_future(ended.wait())]
                try:
                    await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    for waiting in waits:
                        waiting.cancel()
        return self.room.seq


class CountedStream(StreamingResponse):
    """A streaming response that calls ``closed()`` once it ends, however it ends (the client went away, the server stops)."""

    def __init__(self, content, closed, **kwargs) -> None:
        super().__init__(content, **kwargs)
        self.closed = closed

    async def __call__(self, scope, receive, send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.closed()


PageKey = tuple[str, str | None, tuple[tuple[str, str], ...]]  # role, option, query


class RoomPages:
    """The room's pages: each drawn under the room's lock (one whole state), kept for its step when it carries no
    note or error, and drawn by one worker however many ask for it at once (every spectator reloads when the room
    changes): the others wait on the loop, holding no worker.

    The board is not in the page: the page's script fetches it (``board``), drawn once a step for every role. A
    player's page after their action is then answered without waiting for the board to be drawn (issue 31: the
    board, drawn in the page, made it 470-710 ms with 200 spectators reloading), and a reload sends the page alone.
    """

    def __init__(self, room: Room, draw_svg) -> None:
        self.room = room
        self.draw_svg = draw_svg
        self.board: Page | None = None  # the board as last drawn: used while it is of the current step
        self.notes: dict[str, str] = {}  # role -> what its last action did, shown once on the page the redirect draws
        self.kept: dict[PageKey, Page] = {}  # the pages last drawn without a note or an error; only the current step's are used
        self.drawing: dict[tuple[object, int], asyncio.Future] = {}  # (page or "board", step) -> what a request is drawing now
        self.actions = Actions()  # what each action sent with a key said: confirmed on the page its redirect names

    @staticmethod
    def key(role: str, option: str | None, query: dict[str, str] | None) -> PageKey:
        if role == SPECTATOR:  # a spectator's page has no form: however a spectator's link is written, one page
            return role, None, ()
        return role, option, tuple(sorted((query or {}).items()))

    def kept_page(self, role: str, option: str | None, query: dict[str, str] | None) -> Page | None:
        page = self.kept.get(self.key(role, option, query))
        return page if page is not None and page.seq == self.room.seq and role not in self.notes else None

    def draw(self, role: str, key: str, *, option: str | None, query: dict[str, str] | None, error: str | None, note: str | None = None) -> Page:
        room = self.room
        with room.lock:  # the page shows one state of the room, not one an action is halfway through changing
            if note is None:
                note = self.notes.pop(role, None)
            plain = note is None and error is None
            page = self.kept_page(role, option, query) if plain else None  # drawn by a request that held the lock first
            if page is None:
                board = f"/room/{key}/board?step={room.seq}"
                page = Page(room.seq, room_page(room, role, key, option=option, query=query, error=error, note=note, board=board, talk=room.talk))
                if plain:
                    if len(self.kept) >= KEPT_PAGES:
                        self.kept.clear()
                    self.kept[self.key(role, option, query)] = page
            room.mark_seen(role, page.seq)
        return page

    def current_board(self) -> Page | None:
        board = self.board
        return board if board is not None and board.seq == self.room.seq else None

    def draw_board(self) -> Page:
        """The board of the room's step, drawn once a step (the same for every role: the picks so far)."""
        room = self.room
        with room.lock:  # one state of the board, not one an action is halfway through changing
            board = self.current_board()
            if board is None:
                board = self.board = Page(room.seq, self.draw_svg(room))
        return board

    async def view(self, request: Request, role: str, key: str, query: dict[str, str]) -> Response:
        option = query.get("option")
        done = self.actions.done(query.pop(DONE_PARAMETER, None), role)
        if done is not None:  # the page an action's redirect names: it says what that action did (drawn for it alone)
            return await run_in_threadpool(lambda: self.draw(role, key, option=option, query=query, error=None, note=done).response(request))
        page = self.kept_page(role, option, query)
        if (page is None or not page.compressed) and role not in self.notes:
            # Or joins the request drawing or compressing it.
            page = await self.once((self.key(role, option, query), self.room.seq), lambda: self.draw(role, key, option=option, query=query, error=None))
        if page is not None and (page.compressed or not accepts_gzip(request)):
            # Drawn and compressed already at this step: answered on the loop, without a worker or the room's lock.
            self.room.mark_seen(role, page.seq)
            return page.response(request)
        return await run_in_threadpool(lambda: self.draw(role, key, option=option, query=query, error=None).response(request))

    async def show_board(self, request: Request) -> Response:
        """The board as the page's script puts it in the page: an SVG element, or a line saying why there is none."""
        board = self.current_board()
        if board is None or not board.compressed:
            board = await self.once(("board", self.room.seq), self.draw_board)
        if board is None:  # the request drawing it failed or went away
            board = await run_in_threadpool(self.draw_board)
        return board.response(request)

    async def once(self, flight: tuple[object, int], draw: Callable[[], Page]) -> Page | None:
        """``draw()``'s page, drawn and compressed by one worker however many ask for ``flight`` (what, at which step)
        at once. None: drawing it failed (each asking draws it again)."""
        pending = self.drawing.get(flight)
        if pending is not None:
            try:
                return await asyncio.shield(pending)
            except asyncio.CancelledError:
                if pending.cancelled():
                    return None  # the drawing request failed or went away: this one draws it itself
                raise
        pending = self.drawing[flight] = asyncio.get_running_loop().create_future()

        def drawn() -> Page:
            page = draw()
            page.gzipped()
            return page

        try:
            page = await run_in_threadpool(drawn)
        except BaseException:
            pending.cancel()  # those waiting draw it themselves
            raise
        else:
            pending.set_result(page)
        finally:
            self.drawing.pop(flight, None)
        return page


def create_app(room: Room, *, svg_for=None, stopping=lambda: False, max_connections: int | None = None) -> Starlette:
    """The app serving ``room``; ``svg_for(room)`` draws the board (the render module's picture by default).

    ``stopping()`` says the server is shutting down: the event streams then end, so open pages do not hold it up.
    ``max_connections``: the server's (``room_server``; ``MAX_CONNECTIONS`` by default), of which the spectators'
    event streams may hold only their share (``admission.spectator_share``).
    """
    from kremlin_triplea.web.picture import board_svg

    spectators = SpectatorStreams(spectator_share(MAX_CONNECTIONS if max_connections is None else max_connections))
    endpoints = RoomEndpoints(room, RoomPages(room, svg_for or board_svg), Changes(room, stopping), spectators)
    # AA50's board is about 290 KB; compressed (once per step, in a worker: see Page) 60 KB. A page without it is about 22 KB, 6 KB compressed.
    return Starlette(routes=endpoints.routes(), middleware=[Middleware(MarkPlayers, room=room)])


class MarkPlayers:
    """Marks a request made with a player's link (``PLAYER_REQUEST`` in its scope): its connection, kept alive for
    the player's next request, is the last to give way when the server is full (``RoomProtocol``)."""

    def __init__(self, app, room: Room) -> None:
        self.app = app
        self.room = room

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http":
            parts = scope.get("path", "").split("/")
            if len(parts) > 2 and parts[1] in ("room", "events") and self.room.roles.get(parts[2], SPECTATOR) != SPECTATOR:
                scope[PLAYER_REQUEST] = True
        await self.app(scope, receive, send)


class RoomEndpoints:
    """The room's endpoints: each finds the role from the key in the address, then answers for that role."""

    def __init__(self, room: Room, pages: RoomPages, changes: Changes, spectators: SpectatorStreams) -> None:
        self.room = room
        self.pages = pages
        self.changes = changes
        self.spectators = spectators
        self.players = PlayerStreams()
        self.here = Presence(room.sides)
        changes.moved_on.append(self.draw_ahead)

    def draw_ahead(self) -> None:
        """On the loop, as the room moves on: the new step's board is drawn in a worker before anyone asks (every open
        page asks for it: the players' first, within their head start)."""
        task = asyncio.get_running_loop().create_task(self._draw_board_ahead(self.room.seq))
        task.add_done_callback(lambda done: done.cancelled() or done.exception())  # a failure is drawn again on asking

    async def _draw_board_ahead(self, seq: int) -> None:
        # After the acting player's own page (its note, drawn once: RoomPages.draw): the board holds the room's lock
        # while it is drawn, and that page is the first thing the player waits for.
        waited = 0.0  # the note is set as the action's worker returns, a moment after the room wakes the streams
        while (waited < 0.05 or self.pages.notes) and waited < DRAW_AHEAD_WAIT_SECONDS:
            await asyncio.sleep(0.01)
            waited += 0.01
        if self.room.seq == seq:
            await self.pages.once(("board", seq), self.pages.draw_board)

    def routes(self) -> list[Route]:
        room, action = self.room, self.action
        bids = BidActions(room)
        return [
            Route("/", self.index),
            Route("/room/{key}", self.view),
            Route("/room/{key}/pick", action(self.pick), methods=["POST"]),
            Route("/room/{key}/bid", action(bids.propose), methods=["POST"]),
            Route("/room/{key}/bid/answer", action(bids.answer), methods=["POST"]),
            Route("/room/{key}/bid/counter", action(bids.counter), methods=["POST"]),
            Route("/room/{key}/declare", action(room.declare), methods=["POST"]),
            Route("/room/{key}/house", action(room.choose_house), methods=["POST"]),
            Route("/room/{key}/undo", action(room.ask_undo), methods=["POST"]),
            Route("/room/{key}/undo/answer", action(room.answer_undo), methods=["POST"]),
            Route("/room/{key}/install", action(self.install), methods=["POST"]),
            Route("/room/{key}/board", self.board),
            Route("/room/{key}/presence", self.presence),
            Route("/room/{key}/game.xml", self.game_xml),
            Route("/events/{key}", self.events),
        ]

    def show(
        self,
        request: Request,
        role: str,
        key: str,
        *,
        status: int = 200,
        option: str | None = None,
        query: dict[str, str] | None = None,
        error: str | None = None,
    ) -> Response:
        shown = None if error is None else self.room.for_players(error)  # a remote player never sees the host's folders
        return self.pages.draw(role, key, option=option, query=query, error=shown).response(request, status)

    def forbidden(self, error: Exception | str) -> HTMLResponse:
        return HTMLResponse(message_page("403 Forbidden", self.room.for_players(str(error))), status_code=403)

    async def view(self, request: Request) -> Response:
        key = request.path_params["key"]
        try:
            role = self.room.role(key)
        except Forbidden as error:
            return self.forbidden(error)
        return await self.pages.view(request, role, key, {k: v[:200] for k, v in request.query_params.items()})

    async def presence(self, request: Request) -> Response:
        """This page's side is here (its script asks every ``POLL_SECONDS``); the answer: whether the others are."""
        try:
            role = self.room.role(request.path_params["key"])
        except Forbidden as error:
            return self.forbidden(error)
        if role != SPECTATOR:
            self.here.touch(role)
        return Response(self.here.line(role), media_type="text/plain", headers={"Cache-Control": "no-store"})

    async def board(self, request: Request) -> Response:
        try:
            self.room.role(request.path_params["key"])
        except Forbidden as error:
            return self.forbidden(error)
        return await self.pages.show_board(request)

    def action(self, method):
        """The endpoint that reads the form and runs ``method(role, form)`` in a worker, then redirects to the room."""

        async def endpoint(request: Request) -> Response:
            refused = cross_origin(request)
            if refused is not None:  # a form another site's page sent in the visitor's name (cross-site request forgery)
                return Response(refused + "\n", status_code=403, media_type="text/plain")
            key = request.path_params["key"]
            try:
                role = self.room.role(key)
            except Forbidden as error:
                return self.forbidden(error)
            try:
                form = await read_form(request)
            except _BodyTooLarge:
                return HTMLResponse(message_page("413 Request Entity Too Large", f"a request body is at most {MAX_BODY} bytes"), status_code=413)
            except FormError as error:
                return HTMLResponse(message_page("400 Bad Request", str(error)), status_code=400)
            return await run_in_threadpool(self.run_action, method, request, role, key, form)

        return endpoint

    def run_action(self, method, request: Request, role: str, key: str, form: dict[str, str]) -> Response:
        show, actions = self.show, self.pages.actions
        action = actions.key_of(form)
        if actions.done(action, role) is not None:  # sent again (a retry): applied once, confirmed again
            return self.confirmed(request, key, action)
        try:
            done = method(role, form)
        except Forbidden as error:
            return self.forbidden(error)
        except Conflict as error:
            if actions.done(action, role) is not None:  # the same action sent twice at once: the other one applied it
                return self.confirmed(request, key, action)
            return show(request, role, key, status=409, error=str(error))
        except FormError as error:
            return show(request, role, key, status=400, error=str(error), option=form.get("option"), query=form)
        except Refused as error:
            return show(request, role, key, status=422, error=str(error), option=form.get("option"), query=form)
        except Halted as error:  # the draft file was changed outside the room: nothing is written over it
            return show(request, role, key, status=503, error=str(error))
        except NotSaved as error:  # the room kept nothing: the form is shown again as it was filled in
            print(f"kremlin-triplea: {possessive(role)} action {error}", file=sys.stderr, flush=True)  # the host's window: with the files' paths
            return show(request, role, key, status=503, error=str(error), option=form.get("option"), query=form)
        if action is not None:
            actions.record(action, role, self.room.for_players(done) if done else "Done.")
            return self.confirmed(request, key, action)
        if done:
            self.pages.notes[role] = self.room.for_players(done)
        # Post/redirect/get: a reload does not submit again.
        return Response(status_code=303, headers={"Location": f"/room/{key}"})

    @staticmethod
    def confirmed(request: Request, key: str, action: str) -> Response:
        return Response(status_code=303, headers={"Location": confirmation(key, action, request.query_params.get("option", ""))})

    def pick(self, role: str, form: dict[str, str]) -> str:
        return "; ".join(self.room.pick(role, form))

    def install(self, role: str, form: dict[str, str]) -> str:
        room = self.room
        if role == SPECTATOR:
            raise Forbidden("spectators cannot install")
        if not room.complete:
            raise Conflict("the draft is not complete")
        try:
            return room.install(role, form.get("name"))
        except Refused:
            raise
        except KremlinError as error:
            # The host reads why where serve runs; a remote player is told without the host's folders or flags.
            print(f"kremlin-triplea: install from the room refused: {error}", file=sys.stderr, flush=True)
            raise Refused("the host's TripleA could not take the game (the host's window where the room runs says why)") from None

    async def game_xml(self, request: Request) -> Response:
        room = self.room
        key = request.path_params["key"]
        try:
            role = room.role(key)
        except Forbidden as error:
            return self.forbidden(error)
        if role == SPECTATOR:
            return self.forbidden("the game file is for the players")
        if not room.complete:
            return HTMLResponse(message_page("409 Conflict", "the draft is not complete"), status_code=409)
        try:
            data = await run_in_threadpool(room.game_bytes)
        except Halted as error:
            return HTMLResponse(message_page("503 Service Unavailable", str(error)), status_code=503)
        headers = {"Content-Disposition": attachment(room.path.with_suffix(".xml").name), "Vary": "Accept-Encoding"}
        if accepts_gzip(request):  # compressed in a worker: the loop keeps answering meanwhile
            data = await run_in_threadpool(gzip.compress, data, 6, mtime=0)
            headers["Content-Encoding"] = "gzip"
        return Response(data, media_type="application/xml", headers=headers)

    async def events(self, request: Request) -> Response:
        room, changes = self.room, self.changes
        try:
            role = room.role(request.path_params["key"])
        except Forbidden as error:
            return self.forbidden(error)

        ended: asyncio.Event | None = None
        turn: int | None = None
        if role == SPECTATOR:  # the spectators' pool, bounded per address, per network and in all
            request.scope[SPECTATOR_STREAM] = True  # the connection gives way first when the server is full (RoomProtocol)
            groups = client_groups(request)
            refused = self.spectators.take(groups)
            if refused is not None:
                return Response(refused + "\n", status_code=429, media_type="text/plain", headers={"Retry-After": "60"})
            closed = lambda: self.spectators.give_back(groups)  # noqa: E731
            turn = self.spectators.turn()
        else:  # a player's own budget: never refused, never counted with the spectators
            ended = self.players.take(role)
            closed = lambda: self.players.give_back(role, ended)  # noqa: E731
        changes.attach()

        async def stream():
            # Waits on the loop, never in a worker (issue 31: each stream held one of the 40, and 200 of them
            # made a player's page take 5 s). A client that goes away ends it: the response listens for that.
            seq = room.seq
            yield f"retry: 1000\ndata: {seq}\n\n"
            while True:
                # A spectator is told in its turn, so that the spectators' reloads come after the players' and spread out.
                now = await changes.wait(seq, HEARTBEAT_SECONDS, ended, turn)
                if changes.stopped or (ended is not None and ended.is_set()):  # the server is stopping, or the side's newer pages have the news
                    return
                if now != seq:
                    seq = now
                    yield f"data: {seq}\n\n"
                else:
                    yield ": still here\n\n"

        return CountedStream(stream(), closed, media_type="text/event-stream", headers={"Cache-Control": "no-store"})

    async def index(self, request: Request) -> Response:
        return self.forbidden("open the link the host gave you")


#: A connection must send each whole request (headers and body) within this many seconds of opening or of having
#: our previous answer: else it is dropped (issue 31: unfinished connections were never closed, and about 1,100 of
#: them denied the room). A browser sends its request at once.
REQUEST_SECONDS = 20.0
#: A connection that takes nothing of what it is sent for this long is dropped: longer than for a request, since a
#: reader on a poor line (or a busy machine) may pause; nginx's send_timeout is the same.
STALL_SECONDS = 60.0
#: The most connections served at once (each is a file descriptor: see ``room_server``): 2,000 spectators' event
#: streams (half: ``admission.spectator_share``) and as many connections again for their pages and the players'.
MAX_CONNECTIONS = 4000
#: File descriptors kept for everything but connections (the draft and room files, the maps, the listening socket).
RESERVED_FILES = 100


class RoomProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, where a connection that owes its request too long (``request_seconds``), or
    takes nothing of what it is sent too long (``stall_seconds``), is dropped, and one beyond the most allowed
    first displaces the connection that has owed its request the longest."""

    request_seconds = REQUEST_SECONDS
    stall_seconds = STALL_SECONDS
    #: A new connection owing its request for less than this is sending it: the last to give way among those owing.
    sending_seconds = 1.0
    max_connections = MAX_CONNECTIONS

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.owed_since = self.loop.time()
        self.stalled_since: float | None = None  # since when what it is sent has not gone out
        self.unsent = 0  # the bytes waiting to go out, as the last look saw them
        # One dropped a moment ago stays in the set until its loss is handled: it is neither counted nor dropped again.
        live = [c for c in self.connections if c.transport is not None and not c.transport.is_closing()]
        if len(live) > self.max_connections:
            others = [c for c in live if c is not self and isinstance(c, RoomProtocol)]
            now = self.loop.time()
            owing = [c for c in others if c.owes_request and not c.players]
            # An idle or unfinished connection gives way (one that has owed its request a while first: a browser's new
            # connection sends it at once); else a spectator's event stream (the oldest: its page opens it again), so
            # spectators never keep a player out; then a player's idle one; if every one is serving a player, the new one.
            for candidates in (
                [c for c in owing if now - c.owed_since >= self.sending_seconds],
                [c for c in others if c.spectator_stream],
                owing,
                [c for c in others if c.owes_request],
            ):
                if candidates:
                    min(candidates, key=lambda c: c.owed_since).drop()
                    break
            else:
                self.drop()

    @property
    def players(self) -> bool:
        """Its last request was a player's (``MarkPlayers``): kept alive for their next one."""
        scope = self.scope
        return scope is not None and scope.get(PLAYER_REQUEST, False)

    @property
    def spectator_stream(self) -> bool:
        """It is serving a spectator's event stream (``RoomEndpoints.events`` marks the request)."""
        scope = self.scope
        return scope is not None and scope.get(SPECTATOR_STREAM, False) and not self.owes_request

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self.owed_since = self.loop.time()  # the next request is owed from now (uvicorn also closes it idle after 5 s)

    @property
    def owes_request(self) -> bool:
        """The client has all of our answer and has not yet sent the whole of its next request (none, part of its
        head, or part of its body)."""
        return self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not self.unsent

    def overdue(self, now: float) -> bool:
        """It has owed its request longer than ``request_seconds``, or taken nothing of what it is sent for longer than
        ``stall_seconds``.

        Called by the server every ``look_seconds`` (a second): that is when what waits to go out is looked at.
        """
        unsent = self.transport.get_write_buffer_size()
        if not unsent:
            self.stalled_since = None
        elif self.stalled_since is None or unsent < self.unsent:
            self.stalled_since = now  # still taking what it is sent, however slowly (a phone on a poor line)
        if unsent:
            self.owed_since = now  # its next request is owed once it has the whole of this answer
        self.unsent = unsent
        stalled = self.stalled_since is not None and now - self.stalled_since > self.stall_seconds
        return stalled or (self.owes_request and now - self.owed_since > self.request_seconds)

    def drop(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.abort()  # not close(): that waits for a reader that does not read


class RoomServer(uvicorn.Server):
    """uvicorn's server, which every ``look_seconds`` (a second) drops the connections that are overdue
    (``RoomProtocol.overdue``)."""

    look_seconds = 1.0
    #: Called as often: why the server must stop (the room's draft file changed outside it), or None.
    watch: Callable[[], str | None] | None = None
    #: Why it stopped, if ``watch`` stopped it.
    halted: str | None = None

    async def on_tick(self, counter: int) -> bool:
        if counter % max(1, round(self.look_seconds / 0.1)) == 0:  # uvicorn ticks every 0.1 s
            now = asyncio.get_running_loop().time()
            for connection in list(self.server_state.connections):
                if isinstance(connection, RoomProtocol) and connection.overdue(now):
                    connection.drop()
            if self.watch is not None and self.halted is None:
                self.halted = self.watch()
                if self.halted is not None:
                    self.should_exit = True
        return await super().on_tick(counter)


def room_server(
    app: Starlette,
    *,
    request_seconds: float = REQUEST_SECONDS,
    stall_seconds: float = STALL_SECONDS,
    max_connections: int = MAX_CONNECTIONS,
    look_seconds: float = 1.0,
    forwarded_allow_ips: str | None = None,
    watch: Callable[[], str | None] | None = None,
) -> RoomServer:
    """The server for the room's ``app``: bounded connections, at most as many as the open-file limit leaves room for.

    ``forwarded_allow_ips``: the proxies (addresses, networks, comma-separated) whose ``X-Forwarded-For`` names the
    client; by default none, not uvicorn's 127.0.0.1: behind an ``ssh -R`` tunnel or a local proxy every visitor
    comes from 127.0.0.1, and would choose the address the room counts them by (issue 40).

    ``look_seconds``: how often the connections are looked at for being overdue (at least uvicorn's tick, 0.1 s);
    a second is precise enough for limits of 20 and 60 s, and a test of short limits looks more often.
    """
    max_connections = connection_ceiling(max_connections)
    limits = {"request_seconds": request_seconds, "stall_seconds": stall_seconds, "max_connections": max_connections}
    protocol = type("RoomProtocol", (RoomProtocol,), limits)
    if forwarded_allow_ips:  # uvicorn's own, and the host the browser asked for (admission.ForwardedHeaders)
        app = admission.ForwardedHeaders(app, trusted_hosts=forwarded_allow_ips)
    config = uvicorn.Config(app, http=protocol, log_level="warning", timeout_graceful_shutdown=5, proxy_headers=False)
    server = RoomServer(config)
    server.look_seconds = look_seconds
    server.watch = watch  # the room's own look at its files (Room.watch): a hand-edited draft stops the server
    return server


def connection_ceiling(max_connections: int = MAX_CONNECTIONS) -> int:
    """``max_connections``, or fewer: as many as the open-file limit (raised first) leaves room for."""
    limit = open_file_limit()
    if limit is not None:
        max_connections = max(1, min(max_connections, limit - RESERVED_FILES))
    return max_connections


def open_file_limit() -> int | None:
    """The open-file limit, raised to its ceiling first (a few thousand at most): each connection is one open file."""
    try:
        import resource
    except ImportError:  # Windows: no such per-process limit on sockets
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = MAX_CONNECTIONS + RESERVED_FILES if hard == resource.RLIM_INFINITY else min(hard, MAX_CONNECTIONS + RESERVED_FILES)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return None if soft == resource.RLIM_INFINITY else soft

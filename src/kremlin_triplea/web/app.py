"""The room's web server (Starlette): pages, actions, server-sent events.

Routes (KEY is a player's or the spectators' secret):
  GET  /room/KEY               the room (?option=N: that option's form)
  POST /room/KEY/pick          a pick          POST /room/KEY/bid      the bid
  POST /room/KEY/bid/answer    agree to the other side's bid, or refuse it
  POST /room/KEY/house         the side's powers' house-rule advantages (after the bid)
  POST /room/KEY/undo          ask an undo     POST /room/KEY/undo/answer
  GET  /room/KEY/game.xml      the game (players, once complete)
  POST /room/KEY/install       install it into TripleA's folder (players)
  GET  /events/KEY             server-sent events: the step number, on every change
"""

from __future__ import annotations

import asyncio
from urllib.parse import parse_qsl

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response, StreamingResponse
from starlette.routing import Route

from kremlin_triplea.errors import KremlinError
from kremlin_triplea.web.forms import MAX_FIELD, MAX_ROWS, FormError
from kremlin_triplea.web.pages import message_page, room_page
from kremlin_triplea.web.room import SPECTATOR, Conflict, Forbidden, Refused, Room

MAX_BODY = 16 * 1024  # bytes: a pick or a bid form is far smaller
MAX_FIELDS = 8 * MAX_ROWS


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


def create_app(room: Room, *, svg_for=None, stopping=lambda: False) -> Starlette:
    """The app serving ``room``; ``svg_for(room)`` draws the board (the render module's picture by default).

    ``stopping()`` says the server is shutting down: the event streams then end, so open pages do not hold it up.
    """
    from kremlin_triplea.web.picture import board_svg

    draw = svg_for or board_svg
    pictures: dict[int, str] = {}

    def picture() -> str:
        seq = room.seq
        if seq not in pictures:
            pictures.clear()
            pictures[seq] = draw(room)
        return pictures[seq]

    notes: dict[str, str] = {}  # role -> what its last action did, shown once on the page the redirect draws

    def show(
        role: str, key: str, *, status: int = 200, option: str | None = None, query: dict[str, str] | None = None, error: str | None = None
    ) -> HTMLResponse:
        with room.lock:  # the page shows one state of the room, not one an action is halfway through changing
            room.mark_seen(role)
            html = room_page(room, role, key, option=option, query=query, error=error, note=notes.pop(role, None), svg=picture())
        return HTMLResponse(html, status_code=status, headers={"Cache-Control": "no-store"})

    def forbidden(error: Exception) -> HTMLResponse:
        return HTMLResponse(message_page("403 Forbidden", str(error)), status_code=403)

    async def view(request: Request) -> Response:
        key = request.path_params["key"]
        try:
            role = room.role(key)
        except Forbidden as error:
            return forbidden(error)
        query = {k: v[:200] for k, v in request.query_params.items()}
        return await run_in_threadpool(lambda: show(role, key, option=query.get("option"), query=query))

    def action(method):
        async def endpoint(request: Request) -> Response:
            key = request.path_params["key"]
            try:
                role = room.role(key)
            except Forbidden as error:
                return forbidden(error)
            try:
                form = await read_form(request)
            except _BodyTooLarge:
                return HTMLResponse(message_page("413 Request Entity Too Large", f"a request body is at most {MAX_BODY} bytes"), status_code=413)
            except FormError as error:
                return HTMLResponse(message_page("400 Bad Request", str(error)), status_code=400)

            def run() -> Response:
                try:
                    done = method(role, form)
                except Forbidden as error:
                    return forbidden(error)
                except Conflict as error:
                    return show(role, key, status=409, error=str(error))
                except FormError as error:
                    return show(role, key, status=400, error=str(error), option=form.get("option"), query=form)
                except Refused as error:
                    return show(role, key, status=422, error=str(error), option=form.get("option"), query=form)
                if done:
                    notes[role] = done
                # Post/redirect/get: a reload does not submit again.
                return Response(status_code=303, headers={"Location": f"/room/{key}"})

            return await run_in_threadpool(run)

        return endpoint

    def pick(role: str, form: dict[str, str]) -> str:
        return "; ".join(room.pick(role, form))

    def install(role: str, form: dict[str, str]) -> str:
        if role == SPECTATOR:
            raise Forbidden("spectators cannot install")
        if not room.complete:
            raise Conflict("the draft is not complete")
        try:
            return room.install()
        except KremlinError as error:
            raise Refused(str(error)) from None

    async def game_xml(request: Request) -> Response:
        key = request.path_params["key"]
        try:
            role = room.role(key)
        except Forbidden as error:
            return forbidden(error)
        if role == SPECTATOR:
            return forbidden("the game file is for the players")
        if not room.complete:
            return HTMLResponse(message_page("409 Conflict", "the draft is not complete"), status_code=409)
        data = await run_in_threadpool(room.game_bytes)
        name = room.path.with_suffix(".xml").name
        return Response(data, media_type="application/xml", headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def events(request: Request) -> Response:
        try:
            room.role(request.path_params["key"])
        except Forbidden as error:
            return forbidden(error)

        async def stream():
            seq = room.seq
            yield f"retry: 1000\ndata: {seq}\n\n"
            while not stopping():
                if await request.is_disconnected():
                    return
                now = await run_in_threadpool(room.wait_change, seq, 1.0)
                if now != seq:
                    seq = now
                    yield f"data: {seq}\n\n"
                else:
                    yield ": still here\n\n"
                await asyncio.sleep(0)

        return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})

    async def index(request: Request) -> Response:
        return forbidden("open the link the host gave you")

    routes = [
        Route("/", index),
        Route("/room/{key}", view),
        Route("/room/{key}/pick", action(pick), methods=["POST"]),
        Route("/room/{key}/bid", action(lambda role, form: room.bid(role, form) or "the bid is entered: the other side agrees or refuses"), methods=["POST"]),
        Route("/room/{key}/bid/answer", action(room.answer_bid), methods=["POST"]),
        Route("/room/{key}/declare", action(room.declare), methods=["POST"]),
        Route("/room/{key}/house", action(room.choose_house), methods=["POST"]),
        Route("/room/{key}/undo", action(room.ask_undo), methods=["POST"]),
        Route("/room/{key}/undo/answer", action(room.answer_undo), methods=["POST"]),
        Route("/room/{key}/install", action(install), methods=["POST"]),
        Route("/room/{key}/game.xml", game_xml),
        Route("/events/{key}", events),
    ]
    # The board's SVG makes a page about 570 KB (AA50); compressed it is a fraction of that. Event streams are left alone.
    return Starlette(routes=routes, middleware=[Middleware(GZipMiddleware, minimum_size=1024)])

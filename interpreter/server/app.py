"""The HTTP and WebSocket API (Starlette), and the web board's static files.

Every error answers with a 4xx/5xx status and `{"error": {"status", "code", "message"}}`;
a refused request leaves its match unchanged. docs/api.md describes each endpoint and
`GET /api/openapi.json` serves the same description as OpenAPI.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
from importlib import resources
from typing import Any, AsyncIterator, Sequence

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from interpreter.bots import BOTS
from interpreter.server.catalog import Catalog
from interpreter.server.errors import ApiError
from interpreter.server.matches import Match, MatchBook
from interpreter.server.openapi import document
from interpreter.server.security import bearer
from interpreter.server.store import Store

MAX_BODY = 64 * 1024
HELLO_TIMEOUT = 10.0       # seconds a WebSocket may take to send its token
SEED_LIMIT = 1 << 62

_STATUS_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
                 405: "method_not_allowed", 413: "too_large"}


# -- request helpers ------------------------------------------------------------------

async def _body(request: Request, fields: dict[str, tuple[type, ...]], required: Sequence[str] = ()) -> dict[str, Any]:
    """The JSON object of a request body, with only known fields of the right types."""
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise ApiError(413, "too_large", f"the body may hold at most {MAX_BODY} bytes")
    try:
        data = json.loads(raw or b"null")
    except ValueError as err:
        raise ApiError(400, "malformed_json", f"the body is not valid JSON: {err}") from None
    if not isinstance(data, dict):
        raise ApiError(400, "bad_body", "the body must be a JSON object")
    for key, value in data.items():
        if key not in fields:
            raise ApiError(400, "bad_body", f"unknown field {key!r}; fields: {', '.join(fields)}")
        kinds = fields[key]
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            names = " or ".join(k.__name__ for k in kinds)
            raise ApiError(400, "bad_body", f"field {key!r} must be {names}")
    for key in required:
        if key not in data:
            raise ApiError(400, "bad_body", f"field {key!r} is required")
    return data


def _book(request: Request | WebSocket) -> MatchBook:
    return request.app.state.book


def _seat(request: Request) -> tuple[Match, int]:
    return _book(request).authorize(request.path_params["match_id"], bearer(request.headers.get("authorization")))


# -- endpoints --------------------------------------------------------------------------

async def list_specs(request: Request) -> JSONResponse:
    return JSONResponse({"specs": _book(request).catalog.specs(), "bots": list(BOTS)})


async def create_match(request: Request) -> JSONResponse:
    data = await _body(request, {"spec": (str,), "options": (dict,), "seed": (int,), "bots": (dict,)},
                       required=["spec"])
    seed = data.get("seed")
    if seed is not None and not 0 <= seed < SEED_LIMIT:
        raise ApiError(400, "bad_body", f"field 'seed' must be in 0..{SEED_LIMIT - 1}")
    bots: dict[int, str] = {}
    for key, name in (data.get("bots") or {}).items():
        if not str(key).isdigit() or not isinstance(name, str):
            raise ApiError(400, "bad_body", "field 'bots' maps seat numbers to bot names, e.g. {\"1\": \"random\"}")
        bots[int(key)] = name
    match, tokens = _book(request).create(data["spec"], data.get("options") or {}, seed, bots)
    return JSONResponse({**match.info(None), "tokens": {str(s): t for s, t in tokens.items()}}, status_code=201)


async def match_info(request: Request) -> JSONResponse:
    match, seat = _seat(request)
    return JSONResponse(match.info(seat))


async def seat_view(request: Request) -> JSONResponse:
    match, seat = _seat(request)
    return JSONResponse(match.view(seat))


async def legal_actions(request: Request) -> JSONResponse:
    match, seat = _seat(request)
    st = match.state
    return JSONResponse({"seat": seat, "to_act": st.current_player(), "version": match.version,
                         "legal": st.legal_actions(seat), "ids": st.legal_action_ids(seat)})


async def submit_action(request: Request) -> JSONResponse:
    match, seat = _seat(request)
    data = await _body(request, {"action": (str, int), "version": (int,)}, required=["action"])
    applied = _book(request).act(match, seat, data["action"], data.get("version"))
    return JSONResponse({"applied": applied, **match.view(seat)})


async def replay_log(request: Request) -> JSONResponse:
    match, _ = _seat(request)
    if not match.state.match_over:
        raise ApiError(409, "match_not_over", "the replay log shows every hidden card: it is given once the match is over")
    return JSONResponse(match.log(_book(request).store.actions(match.id)))


async def openapi(request: Request) -> JSONResponse:
    return JSONResponse(document())


async def event_stream(ws: WebSocket) -> None:
    """Send the seat's visible events and view after every change, until the match ends."""
    await ws.accept()
    try:
        match, seat, cursor = await _hello(ws)
    except ApiError as err:
        await ws.send_json(err.body())
        await ws.close(code=4000 + err.status)
        return
    except WebSocketDisconnect:
        return
    listener = asyncio.Event()
    listener.set()
    match.listeners.add(listener)
    receiver = asyncio.ensure_future(ws.receive())
    try:
        while True:
            waiter = asyncio.ensure_future(listener.wait())
            done, _ = await asyncio.wait({waiter, receiver}, return_when=asyncio.FIRST_COMPLETED)
            if receiver in done:
                waiter.cancel()
                if receiver.result()["type"] == "websocket.disconnect":
                    return
                receiver = asyncio.ensure_future(ws.receive())       # clients' messages are ignored
                continue
            listener.clear()
            events = match.events_for(seat, cursor)
            await ws.send_json({"seq": cursor, "events": events, "view": match.view(seat)})
            cursor += len(events)
            if match.state.match_over:
                await ws.close()
                return
    except WebSocketDisconnect:
        return
    finally:
        match.listeners.discard(listener)
        receiver.cancel()


async def _hello(ws: WebSocket) -> tuple[Match, int, int]:
    """The first message names the seat: {"token": "...", "since": 0}."""
    try:
        hello = json.loads(await asyncio.wait_for(ws.receive_text(), HELLO_TIMEOUT))
    except asyncio.TimeoutError:
        raise ApiError(400, "no_hello", "send {\"token\": ..., \"since\": 0} first") from None
    except ValueError as err:
        raise ApiError(400, "malformed_json", f"the first message is not valid JSON: {err}") from None
    if not isinstance(hello, dict) or not isinstance(hello.get("token"), str):
        raise ApiError(400, "bad_body", "the first message is {\"token\": ..., \"since\": 0}")
    since = hello.get("since", 0)
    if not isinstance(since, int) or isinstance(since, bool) or since < 0:
        raise ApiError(400, "bad_body", "'since' is the number of events already seen (0 or more)")
    match, seat = _book(ws).authorize(ws.path_params["match_id"], hello["token"])
    return match, seat, since


# -- errors and headers -----------------------------------------------------------------

async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return JSONResponse(exc.body(), status_code=exc.status)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = _STATUS_CODES.get(exc.status_code, "error")
    return JSONResponse(ApiError(exc.status_code, code, str(exc.detail)).body(), status_code=exc.status_code)


async def _internal_error(request: Request, exc: Exception) -> Response:
    return JSONResponse(ApiError(500, "internal_error", "the server failed on this request").body(), status_code=500)


class _Headers:
    """No caching of seat views; the board loads scripts from this server only."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = [(b"x-content-type-options", b"nosniff")]
        if scope["path"].startswith("/api/"):
            extra.append((b"cache-control", b"no-store"))
        else:
            extra.append((b"content-security-policy", b"default-src 'self'; connect-src 'self'"))

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)


def create_app(db: str = ":memory:", specs: Sequence[str] = ()) -> Starlette:
    """The server's ASGI app: matches kept in the SQLite file `db`, specs bundled plus `specs`."""
    web = StaticFiles(directory=str(resources.files("interpreter") / "web"), html=True)
    store = Store(db)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        store.close()

    app = Starlette(
        routes=[
            Route("/api/specs", list_specs),
            Route("/api/openapi.json", openapi),
            Route("/api/matches", create_match, methods=["POST"]),
            Route("/api/matches/{match_id}", match_info),
            Route("/api/matches/{match_id}/view", seat_view),
            Route("/api/matches/{match_id}/legal", legal_actions),
            Route("/api/matches/{match_id}/actions", submit_action, methods=["POST"]),
            Route("/api/matches/{match_id}/log", replay_log),
            WebSocketRoute("/api/matches/{match_id}/events", event_stream),
            Mount("/", web),
        ],
        exception_handlers={ApiError: _api_error, HTTPException: _http_error, Exception: _internal_error},
        middleware=[Middleware(_Headers)],
        lifespan=lifespan,
    )
    app.state.book = MatchBook(store, Catalog(specs))
    return app

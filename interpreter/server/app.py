"""The HTTP API (Starlette), and the web board's static files.

Every error answers with a 4xx status and `{"error": {"status", "code", "message"}}`; a
refused request leaves its match unchanged. docs/api.md describes each endpoint and
`GET /api/openapi.json` serves the same description as OpenAPI.
"""
from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator, Mapping, Sequence
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from interpreter.bots import BOTS
from interpreter.server.bodies import json_object, require_json, too_large
from interpreter.server.catalog import Catalog
from interpreter.server.errors import ApiError
from interpreter.server.gate import Gate, client_of, error_headers
from interpreter.server.matches import Match, MatchBook
from interpreter.server.openapi import document
from interpreter.server.ratelimit import RateLimit, SharedRateLimit
from interpreter.server.security import bearer
from interpreter.server.settings import Settings
from interpreter.server.store import open_store
from interpreter.server.streams import event_stream

SEED_LIMIT = 1 << 62
SEED_DIGITS = re.compile(r"0|[1-9][0-9]{0,18}", re.ASCII)  # a seed as a browser sends one past 2**53
SEAT_KEY = re.compile(r"0|[1-9][0-9]{0,3}", re.ASCII)      # "1", never "١", "²" nor 5,000 digits

_STATUS_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
                 405: "method_not_allowed", 413: "too_large"}


# -- request helpers ------------------------------------------------------------------

async def _body(request: Request, fields: Mapping[str, tuple[type, ...]],
                required: Sequence[str] = ()) -> dict[str, Any]:
    """The body's JSON object, read no further than `max_body` bytes whatever the client sends."""
    limits = _settings(request).limits
    require_json(request.headers.get("content-type"))
    length = request.headers.get("content-length", "")
    if length.isascii() and length.isdigit() and (len(length) > 18 or int(length) > limits.max_body):
        raise too_large(limits.max_body)
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > limits.max_body:
            raise too_large(limits.max_body)
    return json_object(bytes(raw), limits.max_depth, fields, required)


def _seed(value: int | str) -> int:
    """A client's seed: a whole number, or its decimal digits (JavaScript's numbers lose a seed
    past 2**53, so a browser sends it as a string, as the replay log gives it)."""
    if isinstance(value, str):
        if not SEED_DIGITS.fullmatch(value):
            raise ApiError(400, "bad_body", "field 'seed' must be a whole number or its decimal digits")
        value = int(value)
    if not 0 <= value < SEED_LIMIT:
        raise ApiError(400, "bad_body", f"field 'seed' must be in 0..{SEED_LIMIT - 1}")
    return value


def _book(request: Request) -> MatchBook:
    return request.app.state.book


def _settings(request: Request) -> Settings:
    return request.app.state.settings


async def _seat(request: Request, current: bool = True) -> tuple[Match, int]:
    token = bearer(request.headers.get("authorization"))
    return await _book(request).authorize(request.path_params["match_id"], token, current)


# -- endpoints --------------------------------------------------------------------------

async def list_specs(request: Request) -> JSONResponse:
    language = request.query_params.get("lang", "en")
    return JSONResponse({"specs": _book(request).catalog.specs(language), "bots": list(BOTS),
                         "client_seeds": _settings(request).client_seeds})


async def create_match(request: Request) -> JSONResponse:
    data = await _body(request, {"spec": (str,), "options": (dict,), "seed": (int, str), "bots": (dict,)},
                       required=["spec"])
    request.app.state.creations.take(client_of(request.scope))
    seed = data.get("seed")
    if seed is not None:
        if not _settings(request).client_seeds:
            raise ApiError(403, "seed_not_allowed", "this server chooses every seed (it was not started with "
                                                    "--client-seeds)")
        seed = _seed(seed)
    bots: dict[int, str] = {}
    for key, name in (data.get("bots") or {}).items():
        if not SEAT_KEY.fullmatch(key) or not isinstance(name, str):
            raise ApiError(400, "bad_body", "field 'bots' maps seat numbers to bot names, e.g. {\"1\": \"random\"}")
        bots[int(key)] = name
    match, codes = await _book(request).create(data["spec"], data.get("options") or {}, seed, bots)
    base = str(request.base_url)
    invitations = {str(s): {"code": c, "link": f"{base}#match={match.id}&code={c}"} for s, c in codes.items()}
    return JSONResponse({**match.info(None), "invitations": invitations}, status_code=201)


async def claim_seat(request: Request) -> JSONResponse:
    data = await _body(request, {"code": (str,)}, required=["code"])
    request.app.state.claims.take(client_of(request.scope))
    match, seat, token = await _book(request).claim(request.path_params["match_id"], data["code"])
    return JSONResponse({"match": match.id, "seat": seat, "token": token,
                         "commitment": match.info(seat)["commitment"]}, status_code=201)


async def match_info(request: Request) -> JSONResponse:
    match, seat = await _seat(request)
    return JSONResponse(match.info(seat))


async def seat_view(request: Request) -> JSONResponse:
    match, seat = await _seat(request)
    return JSONResponse(match.view(seat))


async def legal_actions(request: Request) -> JSONResponse:
    match, seat = await _seat(request)
    st = match.state
    return JSONResponse({"seat": seat, "to_act": st.current_player(), "version": match.version,
                         "legal": st.legal_actions(seat), "ids": st.legal_action_ids(seat)})


async def submit_action(request: Request) -> JSONResponse:
    data = await _body(request, {"action": (str, int), "version": (int,)}, required=["action"])
    match, seat = await _seat(request, current=False)   # `act` sees to that; nothing yields from here
    applied = _book(request).act(match, seat, data["action"], data.get("version"))
    return JSONResponse({"applied": applied, **match.view(seat)})


async def replay_log(request: Request) -> JSONResponse:
    match, _ = await _seat(request)
    if not match.state.match_over:
        raise ApiError(409, "match_not_over",
                       "the replay log shows every hidden card: it is given once the match is over")
    return JSONResponse(match.log(_book(request).store.actions(match.id)))


async def openapi(request: Request) -> JSONResponse:
    return JSONResponse(document(sorted(_book(request).catalog.sources), list(BOTS)))


# -- errors -----------------------------------------------------------------------------

async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return JSONResponse(exc.body(), status_code=exc.status, headers=error_headers(exc))


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = _STATUS_CODES.get(exc.status_code, "error")
    return JSONResponse(ApiError(exc.status_code, code, str(exc.detail)).body(), status_code=exc.status_code,
                        headers=exc.headers)


async def _internal_error(request: Request, exc: Exception) -> Response:
    return JSONResponse(ApiError(500, "internal_error", "the server failed on this request").body(), status_code=500)


def create_app(db: str = ":memory:", specs: Sequence[str] = (), settings: Settings = Settings()) -> Starlette:
    """The server's ASGI app: matches kept in the store `db` (a SQLite path or ':memory:',
    `sqlite:///PATH`, or `postgresql://…` shared with other processes), specs bundled plus `specs`."""
    web = StaticFiles(directory=str(resources.files("interpreter.server") / "web"), html=True)
    store = open_store(db)
    limits = settings.limits

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        book: MatchBook = app.state.book

        def changed(match_id: str | None) -> None:          # called from the store's listening thread
            try:
                loop.call_soon_threadsafe(book.changed_elsewhere, match_id)
            except RuntimeError:                            # the loop has closed: shutting down
                pass

        store.listen(changed)
        yield
        store.close()

    app = Starlette(
        routes=[
            Mount("/api", routes=[                       # the board's files never answer under /api
                Route("/specs", list_specs),
                Route("/openapi.json", openapi),
                Route("/matches", create_match, methods=["POST"]),
                Route("/matches/{match_id}", match_info),
                Route("/matches/{match_id}/claim", claim_seat, methods=["POST"]),
                Route("/matches/{match_id}/view", seat_view),
                Route("/matches/{match_id}/legal", legal_actions),
                Route("/matches/{match_id}/actions", submit_action, methods=["POST"]),
                Route("/matches/{match_id}/log", replay_log),
                WebSocketRoute("/matches/{match_id}/events", event_stream),
            ]),
            Mount("/", web),
        ],
        exception_handlers={ApiError: _api_error, HTTPException: _http_error, Exception: _internal_error},
        middleware=[Middleware(Gate, settings=settings)],
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.book = MatchBook(store, Catalog(specs, limits.game_cache), limits)
    if store.shared:                  # per client across every process sharing the store
        app.state.creations = SharedRateLimit("matches created", limits.creations_burst, limits.creations_per_second,
                                              store, "creations")
        app.state.claims = SharedRateLimit("seat claims", limits.claims_burst, limits.claims_per_second,
                                           store, "claims")
    else:
        app.state.creations = RateLimit("matches created", limits.creations_burst, limits.creations_per_second,
                                        limits.clients_tracked)
        app.state.claims = RateLimit("seat claims", limits.claims_burst, limits.claims_per_second,
                                     limits.clients_tracked)
    return app

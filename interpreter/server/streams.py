"""The event stream: a WebSocket that sends one seat its events and view after every change
it can see.

The first message names the seat: `{"token": "...", "since": 0}`. A refusal sends the JSON
error, then closes with 4000 + its HTTP status and the error's code as the reason (4400 for
a bad hello or a binary frame, 4403 for a foreign Origin, 4429 past the stream caps, 4408
when idle). A seat has at most `streams_per_seat` streams and the server `streams_total`; a
stream on which nothing was sent either way for `stream_idle_seconds` is closed. Clients may
send any text to keep a stream alive (at most `stream_messages_burst` at once and
`stream_messages_per_second` after, or the stream closes with 4429); it is otherwise ignored.
"""
from __future__ import annotations

import asyncio
import time
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from interpreter.server.bodies import parse_json
from interpreter.server.errors import ApiError
from interpreter.server.gate import origin_allowed
from interpreter.server.matches import Match, MatchBook
from interpreter.server.ratelimit import RateLimit
from interpreter.server.settings import Limits, Settings


async def event_stream(ws: WebSocket) -> None:
    """Send the seat's visible events and view after every change, until the match ends."""
    book: MatchBook = ws.app.state.book
    settings: Settings = ws.app.state.settings
    limits = settings.limits
    await ws.accept()
    if not origin_allowed(ws.scope, settings):
        await _refuse(ws, ApiError(403, "bad_origin", "this server takes event streams from its own pages only"))
        return
    if book.streams >= limits.streams_total:                    # sockets still saying hello count too
        await _refuse(ws, ApiError(429, "too_many_streams", "the server has as many streams open as it serves"))
        return
    book.streams += 1
    seated: Match | None = None
    try:
        match, seat, cursor = await _hello(ws, book, settings)
        if match.streams[seat] >= limits.streams_per_seat:
            raise ApiError(429, "too_many_streams", f"a seat may have at most {limits.streams_per_seat} streams open")
        match.streams[seat] += 1
        seated = match
        await _serve(ws, match, seat, cursor, limits)
    except ApiError as err:
        await _refuse(ws, err)
    except WebSocketDisconnect:
        return
    finally:
        book.streams -= 1
        if seated is not None:
            seated.streams[seat] -= 1


async def _refuse(ws: WebSocket, err: ApiError) -> None:
    try:
        await ws.send_json(err.body())
        await ws.close(code=4000 + err.status, reason=err.code)
    except (WebSocketDisconnect, RuntimeError):
        return                                          # the client left first


async def _hello(ws: WebSocket, book: MatchBook, settings: Settings) -> tuple[Match, int, int]:
    """The first message names the seat: {"token": "...", "since": 0}."""
    limits = settings.limits
    try:
        message = await asyncio.wait_for(ws.receive(), limits.hello_seconds)
    except TimeoutError:
        raise ApiError(400, "no_hello", "send {\"token\": ..., \"since\": 0} first") from None
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        raise ApiError(400, "binary_frame", "send the hello as a text frame of JSON")
    if len(text) > limits.ws_max_message:
        raise ApiError(413, "too_large", f"a message may hold at most {limits.ws_max_message} bytes")
    hello = parse_json(text, limits.max_depth)
    if not isinstance(hello, dict) or not isinstance(hello.get("token"), str):
        raise ApiError(400, "bad_body", "the first message is {\"token\": ..., \"since\": 0}")
    since = hello.get("since", 0)
    if not isinstance(since, int) or isinstance(since, bool) or since < 0:
        raise ApiError(400, "bad_body", "'since' is the number of events already seen (0 or more)")
    match, seat = await book.authorize(ws.path_params["match_id"], hello["token"])
    return match, seat, since


async def _serve(ws: WebSocket, match: Match, seat: int, cursor: int, limits: Limits) -> None:
    idle = limits.stream_idle_seconds
    chatter = RateLimit("messages on this stream", limits.stream_messages_burst, limits.stream_messages_per_second, 1)
    listener = asyncio.Event()
    listener.set()
    match.listeners.add(listener)
    receiver = asyncio.ensure_future(ws.receive())
    last_view: dict[str, Any] | None = None
    quiet_since = time.monotonic()
    try:
        while True:
            waiter = asyncio.ensure_future(listener.wait())
            left = quiet_since + idle - time.monotonic()
            done, _ = await asyncio.wait({waiter, receiver}, timeout=max(left, 0),
                                         return_when=asyncio.FIRST_COMPLETED)
            if not done:
                waiter.cancel()
                await _refuse(ws, ApiError(408, "idle", f"nothing was sent either way for {idle:g} s"))
                return
            if receiver in done:
                waiter.cancel()
                if receiver.result()["type"] == "websocket.disconnect":
                    return
                chatter.take(None)                          # past the rate: ApiError, the stream closes
                quiet_since = time.monotonic()
                receiver = asyncio.ensure_future(ws.receive())
                continue
            listener.clear()
            events = match.events_for(seat, cursor)
            view = match.view(seat)
            if events or view != last_view:                 # nothing this seat can see: nothing sent
                await ws.send_json({"seq": cursor, "events": events, "view": view})
                quiet_since = time.monotonic()
                last_view = view
            cursor += len(events)
            if match.state.match_over:
                await ws.close()
                return
    finally:
        match.listeners.discard(listener)
        receiver.cancel()

"""What every request passes before a route: an allowed `Host`, the client's request rate,
and the response headers.

Checking `Host` against a list (loopback by default) stops DNS rebinding: a page on another
site that resolves its own name to this machine still names its own host. A WebSocket's
`Origin`, which browsers always send, must be this server's own or a configured one.
"""
from __future__ import annotations

import functools
import ipaddress
import json
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from interpreter.server.errors import ApiError
from interpreter.server.ratelimit import RateLimit
from interpreter.server.settings import Settings


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin-1")
    return None


@functools.lru_cache(maxsize=256)
def host_allowed(host: str | None, allowed: tuple[str, ...]) -> bool:
    """Whether a `Host` header names one of `allowed` (a bare name allows any port); the few
    names a server sees are parsed once."""
    if not host:
        return False
    if "*" in allowed:
        return True
    try:
        where = urlsplit(f"//{host}")
        name, port = where.hostname, where.port
    except ValueError:
        return False
    if name is None or where.username is not None or where.path:
        return False
    names = {name, f"{name}:{port}", f"[{name}]", f"[{name}]:{port}"}
    return any(a.lower() in names for a in allowed)


def origin_allowed(scope: Scope, settings: Settings) -> bool:
    """No Origin (not a browser), a configured one, or the server's own: its page under the
    Host asked for, or under another of its allowed names on the same port."""
    origin = _header(scope, b"origin")
    if origin is None or origin in settings.origins:
        return True
    host = _header(scope, b"host") or ""
    try:
        netloc = urlsplit(origin).netloc
        same_port = urlsplit(f"//{netloc}").port == urlsplit(f"//{host}").port
    except ValueError:
        return False
    return bool(netloc) and (netloc == host or (same_port and host_allowed(netloc, settings.hosts)))


def client_of(scope: Scope) -> str:
    """The address rates are counted by: an IPv4 address, or an IPv6 /64 (one subscriber's
    whole network, whose addresses cost nothing to change)."""
    client = scope.get("client")
    if not client:
        return "unknown"
    try:
        address = ipaddress.ip_address(client[0])
    except ValueError:
        return str(client[0])
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


class Gate:
    """Refuse a wrong Host (400, or a WebSocket close 4400) and a client over its request
    rate (429 with Retry-After, or a close 4429); add no-store, nosniff and the board's
    content policy."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings
        limits = settings.limits
        self.requests = RateLimit("requests", limits.requests_burst, limits.requests_per_second,
                                  limits.clients_tracked)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        try:
            if not host_allowed(_header(scope, b"host"), self.settings.hosts):
                raise ApiError(400, "bad_host", "this server does not answer to that Host")
            self.requests.take(client_of(scope))          # a stream's handshake counts as a request
        except ApiError as err:
            await refuse(scope, receive, send, err)
            return
        if scope["type"] == "websocket":
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


def error_headers(err: ApiError) -> dict[str, str]:
    retry = err.details.get("retry_after")
    return {"retry-after": str(retry)} if retry is not None else {}


async def refuse(scope: Scope, receive: Receive, send: Send, err: ApiError) -> None:
    """Answer an error before any route: JSON for HTTP; accept, tell and close for a WebSocket."""
    body = json.dumps(err.body()).encode()
    if scope["type"] == "websocket":
        if (await receive())["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": body.decode()})
        await send({"type": "websocket.close", "code": 4000 + err.status, "reason": err.code})
        return
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
               (b"cache-control", b"no-store"), (b"x-content-type-options", b"nosniff"),
               *((k.encode(), v.encode()) for k, v in error_headers(err).items())]
    await send({"type": "http.response.start", "status": err.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})

"""The server's front door: per-address request rate, body size, JSON safety and control
characters in the address, the query and the body (``text.py``'s rule), checked before any
route runs (a pure ASGI middleware, so a body is counted as it streams in and a refused one is
never read whole, and a refused text reaches no route and no database).

Addresses are the peer address the ASGI server reports. Behind a reverse proxy run uvicorn with
``--proxy-headers`` (and ``--forwarded-allow-ips``) so that address is the visitor's."""

from __future__ import annotations

import asyncio
import hashlib
import ipaddress
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from boardplay.web import safejson, text
from boardplay.web.config import Limits
from boardplay.web.errors import ApiError

Clock = Callable[[], float]
BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
LARGE_BODY = 65_536
"""Bodies longer than this are parsed off the event loop (a 500 kB record takes ~20 ms)."""
FORM_PATHS = frozenset({"/api/email/unsubscribe"})
"""Routes posted to with a multipart form too: RFC 8058's one-click unsubscribe, which mail
programs may send so (``api/notify.py``); such a body is sized only: the route does not read
it."""
TEXT_PATHS = frozenset({"/api/token/test"})
"""Routes whose body is plain text whatever its declared type: lichess's token test, whose
clients send the tokens bare with no ``Content-Type`` (``api/lookups.py``)."""
FORM = b"application/x-www-form-urlencoded"
TEXT = b"text/plain"
PLAIN = frozenset({FORM, TEXT})
"""Bodies held to the query's rule instead of JSON's: an urlencoded form (lichess's clients send
one to the Bot API, ``api/bodies.py``; any other route refuses it as not JSON) and plain text."""
MAX_TRACKED = 10_000
"""Addresses remembered at once; idle ones are forgotten first."""


def address_of(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def network_of(address: str, v4: int = 32, v6: int = 64) -> str:
    """The network ``address`` belongs to, as a text: an IPv4 address's first ``v4`` bits, an
    IPv6 address's first ``v6`` (a home or a phone gets a whole /64, so its single addresses
    cost nothing to change). Anything else (``unknown``, a test client's name) is itself."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        parsed = parsed.ipv4_mapped
    bits = v4 if parsed.version == 4 else v6
    return str(ipaddress.ip_network(f"{parsed}/{bits}", strict=False))


def prefix_of(address: str) -> str:
    """The wider network the AI's fair shares count by (an IPv4 /24, an IPv6 /48): many
    addresses of one provider or host count as one visitor there."""
    return network_of(address, 24, 48)


def hashed(text: str) -> str:
    """``text`` as stored for a visitor: a hash, so the database holds no address."""
    return hashlib.sha256(b"boardplay-visitor:" + text.encode()).hexdigest()[:32]


def visitor_of(scope: Scope) -> str:
    """The address as games store it (``GameRow.owner``): a hash, so a database holds no
    visitor's address, yet every process counts the same visitor the same."""
    return hashed(address_of(scope))


@dataclass
class _Bucket:
    tokens: float
    stamp: float


class RateLimiter:
    """A token bucket per address: ``rate`` tokens a second, at most ``burst`` saved up."""

    def __init__(self, rate: float, burst: int, clock: Clock = time.monotonic) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.clock = clock
        self.buckets: dict[str, _Bucket] = {}

    def wait(self, address: str) -> float:
        """Take one token: 0 if allowed, else the seconds until one is available."""
        now = self.clock()
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= MAX_TRACKED:
                self._forget_idle(now)
            bucket = self.buckets[address] = _Bucket(self.burst, now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.stamp) * self.rate)
        bucket.stamp = now
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            return 0.0
        return (1 - bucket.tokens) / self.rate

    def _forget_idle(self, now: float) -> None:
        full = [a for a, b in self.buckets.items() if b.tokens + (now - b.stamp) * self.rate >= 1]
        for address in full or list(self.buckets)[: MAX_TRACKED // 2]:
            del self.buckets[address]


class Guard:
    """ASGI middleware: refuse a request over the rate (429), a body over the size ceiling (413),
    a body that is not safe JSON (400) or a control character in the path, the query or the
    body (400 ``bad_text``), in the API's error shape, before the app sees it. A socket is
    refused alike before it opens; its messages meet ``safejson`` where each socket reads them
    (``table/live.py``, ``lobby/sockets.py``)."""

    def __init__(
        self,
        app: ASGIApp,
        limits: Limits,
        rate: RateLimiter,
        counted_as: Callable[[Scope], str | None] | None = None,
    ) -> None:
        self.app = app
        self.limits = limits
        self.rate = rate
        self.counted_as = counted_as
        """What a request is counted against if not its address (None): a Bot API request with
        a token this process knows is counted against the token, a move of one not here
        ('': ``bots/limits.py``), so the bots of one host do not share its address's rate."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        key = None
        if self.counted_as is not None and scope["type"] == "http":
            key = self.counted_as(scope)
        delay = self.rate.wait(address_of(scope) if key is None else key) if key != "" else 0.0
        if delay:
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1013, "reason": "rate limited"})
                return
            error = ApiError(
                429,
                "rate_limited",
                f"too many requests from this {'address' if key is None else 'token'}; the "
                "server allows "
                f"{self.limits.rate_per_second:g} a second (bursts of {self.limits.rate_burst})",
            )
            await respond(send, error, {"retry-after": str(max(1, math.ceil(delay)))})
            return
        try:
            text.check_path(scope["path"])  # percent-decoded by the server
            text.check_form(scope.get("query_string", b""), "the query")
        except ApiError as error:
            if scope["type"] == "websocket":
                await deny(scope, send, error)
            else:
                await respond(send, error)
            return
        if scope["type"] == "websocket" or scope["method"] not in BODY_METHODS:
            await self.app(scope, receive, send)
            return
        try:
            body = await self._read_body(scope, receive)
            kind = _content_type(scope)
            if kind in PLAIN or scope["path"] in TEXT_PATHS:
                text.check_form(body, "the form" if kind == FORM else "the body")
            elif scope["path"] in FORM_PATHS:
                pass  # a multipart form: sized only (the route does not read it)
            elif len(body) > LARGE_BODY:  # checked in a thread: the loop goes on between slices
                await asyncio.to_thread(safejson.parse, body, self.limits)
            elif body.strip():
                safejson.parse(body, self.limits)
        except ApiError as error:
            await respond(send, error)
            return
        await self.app(scope, replay(body, receive), send)

    async def _read_body(self, scope: Scope, receive: Receive) -> bytes:
        limit = self.limits.max_body_bytes
        too_large = ApiError(413, "too_large", f"the request body is larger than {limit} bytes")
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.isdigit() and int(value) > limit:
                raise too_large
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise too_large
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)


def replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands the already-read body to the app, then passes through."""
    sent = False

    async def again() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again


def _content_type(scope: Scope) -> bytes:
    for name, value in scope.get("headers", ()):
        if name == b"content-type":
            return bytes(value.split(b";")[0].strip().lower())
    return b""


def _response(
    error: ApiError, headers: dict[str, str] | None = None
) -> tuple[bytes, list[tuple[bytes, bytes]]]:
    payload = json.dumps(error.to_json()).encode("utf-8")
    raw: list[tuple[bytes, bytes]] = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
        *((k.encode(), v.encode()) for k, v in (headers or {}).items()),
    ]
    return payload, raw


async def respond(send: Send, error: ApiError, headers: dict[str, str] | None = None) -> None:
    payload, raw = _response(error, headers)
    await send({"type": "http.response.start", "status": error.status, "headers": raw})
    await send({"type": "http.response.body", "body": payload})


async def deny(scope: Scope, send: Send, error: ApiError) -> None:
    """Refuse a socket before it opens: the error as an HTTP answer where the server can send
    one (the ASGI ``websocket.http.response`` extension: uvicorn, the test client), else a close
    with 1008 (policy violation), which the handshake turns into a 403."""
    if "websocket.http.response" not in scope.get("extensions", {}):
        await send({"type": "websocket.close", "code": 1008, "reason": error.code})
        return
    payload, raw = _response(error)
    await send({"type": "websocket.http.response.start", "status": error.status, "headers": raw})
    await send({"type": "websocket.http.response.body", "body": payload})


def limiter_for(limits: Limits) -> RateLimiter:
    return RateLimiter(limits.rate_per_second, limits.rate_burst)

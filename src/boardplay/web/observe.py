"""The operator's front door, the outermost ASGI middleware: every request gets an id, is
counted and timed by its route's template (``metrics.py``) and, in the JSON log format, gets an
access line (``logs.py``); every WebSocket is counted while it is open. It also answers the
operator's own paths before the visitors' guard (``guard.py``), so no rate limit can fail a
probe:

- ``GET /healthz/live`` — the process answers (liveness: restart it if this fails);
- ``GET /healthz/ready`` — it can serve (readiness: the database answers at the schema this
  version needs; 503 otherwise, with each check's state and no address or secret). A check
  runs at most once a second whoever asks, and probes arriving meanwhile share it;
- ``GET /metrics`` — the series in Prometheus's text format, only with ``Authorization: Bearer
  <BOARDPLAY_WEB_METRICS_TOKEN>`` (401 without it; 404 while no token is set: nothing is
  exposed by default). A token on the site's own port, rather than a port of its own, because
  ``--workers N`` processes share one listening socket (a second port per process would need
  a port each) and the scrape then passes the same load balancer and TLS as the site.

Probes and scrapes are neither counted nor logged: they would drown what they measure."""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from boardplay.web.logs import ACCESS, REQUEST_ID, REQUEST_ID_HEADER, request_id_from
from boardplay.web.metrics import UNMATCHED, Metrics

LIVE_PATH = "/healthz/live"
READY_PATH = "/healthz/ready"
METRICS_PATH = "/metrics"
READY_SECONDS = 1.0
"""How long a readiness answer is reused: probes from every load balancer and orchestrator
together cost at most one check a second."""
JSON = b"application/json"


@dataclass(frozen=True)
class Readiness:
    """Whether the process can serve, and each check's state (``ok``, or why not)."""

    ready: bool
    checks: dict[str, str] = field(default_factory=dict)


ReadinessCheck = Callable[[], Awaitable[Readiness]]


class SharedCheck:
    """``check`` run at most once every ``READY_SECONDS``: callers meanwhile get its last
    answer, or wait for the one running (a failure of the check itself is "not ready")."""

    def __init__(self, check: ReadinessCheck) -> None:
        self.check = check
        self._kept: tuple[float, Readiness] | None = None
        self._running: asyncio.Future[Readiness] | None = None

    async def answer(self) -> Readiness:
        kept = self._kept
        if kept is not None and time.monotonic() - kept[0] < READY_SECONDS:
            return kept[1]
        if self._running is None or self._running.get_loop() is not asyncio.get_running_loop():
            self._running = asyncio.ensure_future(self._run())
        return await asyncio.shield(self._running)

    async def _run(self) -> Readiness:
        try:
            result = await self.check()
        except Exception:
            logging.getLogger("boardplay.web").exception("the readiness check failed")
            result = Readiness(False, {"server": "check failed"})
        self._kept = (time.monotonic(), result)
        self._running = None
        return result


class Observe:
    """The ASGI middleware described in the module's docstring."""

    def __init__(
        self, app: ASGIApp, metrics: Metrics, token: str | None, ready: ReadinessCheck
    ) -> None:
        self.app = app
        self.metrics = metrics
        self.token = None if token is None else token.encode()
        self.ready = SharedCheck(ready)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        request_id = request_id_from(_header(scope, b"x-request-id"))
        bound = REQUEST_ID.set(request_id)
        try:
            if scope["type"] == "websocket":
                await self._socket(scope, receive, send)
            elif scope["method"] == "GET" and scope["path"] in OPERATOR_PATHS:
                await self._operator(scope, send, request_id)
            else:
                await self._request(scope, receive, send, request_id)
        finally:
            REQUEST_ID.reset(bound)

    async def _request(self, scope: Scope, receive: Receive, send: Send, request_id: str) -> None:
        """Pass the request on, its answer stamped with its id, counted and timed when its
        status line goes out (an error the app raised: as the 500 it becomes)."""
        start = time.perf_counter()
        stamp = (REQUEST_ID_HEADER.encode(), request_id.encode())
        status = 0

        async def stamped(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()), stamp]
                self._answered(scope, status, time.perf_counter() - start)
            await send(message)

        try:
            await self.app(scope, receive, stamped)
        except BaseException:
            if not status:
                self._answered(scope, 500, time.perf_counter() - start)
            raise

    def _answered(self, scope: Scope, status: int, seconds: float) -> None:
        route = _route(scope)
        method = scope["method"]
        self.metrics.answered(route, method, status, seconds)
        if ACCESS.isEnabledFor(logging.INFO):
            path = scope["path"]
            ACCESS.info(
                "%s %s %d",
                method,
                path,
                status,
                extra={
                    "method": method,
                    "path": path,
                    "route": route,
                    "status": status,
                    "duration_ms": round(seconds * 1000, 2),
                },
            )

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the socket on, counted from its accept to its end."""
        gauge = None

        async def counted(message: Message) -> None:
            nonlocal gauge
            if gauge is None and message["type"] == "websocket.accept":  # one test per update
                gauge = self.metrics.sockets(_route(scope))
                gauge.inc()
            await send(message)

        try:
            await self.app(scope, receive, counted)
        finally:
            if gauge is not None:
                gauge.dec()

    # ----- the operator's paths ---------------------------------------------------------------
    async def _operator(self, scope: Scope, send: Send, request_id: str) -> None:
        path = scope["path"]
        if path == LIVE_PATH:
            await _answer(send, 200, {"live": True}, request_id)
        elif path == READY_PATH:
            readiness = await self.ready.answer()
            body = {"ready": readiness.ready, "checks": readiness.checks}
            await _answer(send, 200 if readiness.ready else 503, body, request_id)
        elif self.token is None:
            error = {"code": "not_found", "message": "no such page or API route"}
            await _answer(send, 404, {"error": error}, request_id)
        elif not _bearer_is(scope, self.token):
            message = "the metrics need the operator's token (Authorization: Bearer …)"
            error = {"code": "unauthorized", "message": message}
            challenge = (b"www-authenticate", b"Bearer")
            await _answer(send, 401, {"error": error}, request_id, challenge)
        else:
            text = await asyncio.to_thread(self.metrics.exposition)
            await _send(send, 200, text, CONTENT_TYPE_PLAIN_0_0_4.encode(), request_id)


OPERATOR_PATHS = frozenset({LIVE_PATH, READY_PATH, METRICS_PATH})


def _route(scope: Scope) -> str:
    """The template of the route that took the request (``/api/games/{id}``), never its path:
    ids in paths would make a series per game. A request refused before routing (the guard's
    429, 413, 400) or taken by no route is ``unmatched``."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) else UNMATCHED


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value)
    return None


def _bearer_is(scope: Scope, token: bytes) -> bool:
    """Whether the request's ``Authorization`` is ``Bearer`` and ``token`` (compared in
    constant time, so the answer's timing tells nothing of the token)."""
    given = _header(scope, b"authorization") or b""
    scheme, _, credential = given.partition(b" ")
    return scheme.lower() == b"bearer" and hmac.compare_digest(credential.strip(), token)


async def _answer(
    send: Send,
    status: int,
    body: object,
    request_id: str,
    *extra: tuple[bytes, bytes],
) -> None:
    await _send(send, status, json.dumps(body).encode(), JSON, request_id, *extra)


async def _send(
    send: Send,
    status: int,
    body: bytes,
    content_type: bytes,
    request_id: str,
    *extra: tuple[bytes, bytes],
) -> None:
    headers = [
        (b"content-type", content_type),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"),
        (REQUEST_ID_HEADER.encode(), request_id.encode()),
        *extra,
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})

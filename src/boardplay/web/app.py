"""The ASGI app: JSON API, WebSocket live updates and the static front end. The routes live in
``api/``, above the domains (one router per domain, their dependencies in ``api/deps.py``); this
module builds the app around them: the process's hub and helpers on ``app.state``, the front
door (``Guard``), the error shapes, the static files and the served schema.

Routes (all JSON; errors are ``{"error": {"code", "message"}}`` with a 4xx status):

- ``GET  /api/health`` — this process answers (its id, for operators and tests).
- ``GET  /healthz/live``, ``/healthz/ready`` and ``/metrics`` (with the operator's token) —
  liveness, readiness and the Prometheus series, answered by the front door (``observe.py``).
- ``GET  /api/catalogue`` — games offered, their options and seat names, AI levels.
- ``GET  /api/rules/{game}`` — the game's rules (Markdown); ``?lang=ja`` for Japanese.
- ``GET  /api/i18n/{lang}`` — the browser's message catalogue in ``en`` or ``ja`` (``api/i18n.py``).
- ``POST /api/games`` — create: ``{"game", "options", "seats": [{"kind", "spec"?, "name"?}],
  "reproducible"?, "seed"?, "private"?}``; answers the creator's secret ``token`` and
  invitation codes.
- ``GET  /api/games`` — ``?ids=a,b`` (my games), ``?open=1`` (open seats), else recent games.
- ``GET  /api/games/{id}`` — the game as the token's holder sees it.
- ``POST /api/games/{id}/invitation`` — ``{"invite"}`` → the seat that code opens.
- ``POST /api/games/{id}/join`` — ``{"invite"?: code, "seat"?: n, "name"?,
  "accept_reproducible"?}`` → a seat token.
- ``POST /api/games/{id}/actions`` — ``{"action": notation or id, "ply"?: n}``.
- ``POST /api/games/{id}/undo`` — ``{"ply"?: n}``: take back the mover's last step of the turn.
- ``POST /api/games/{id}/resign`` — ``{"seat"?: n}``: give up (``table/offers.py``).
- ``POST /api/games/{id}/draw`` — ``{"answer": "offer"|"accept"|"decline", "seat"?: n}``.
- ``POST /api/games/{id}/rematch`` — play again, seats swapped → ``{"id", "invites"}``.
- ``GET  /api/games/{id}/record`` — the game record (boardplay-record JSON).
- ``GET  /api/games/{id}/replay`` and ``POST /api/replay`` (a record) — every position.
- ``POST /api/games/{id}/hint`` — ``{"ply"?}``: the best move for the token's seat to move
  (``advice/reviews.py``: players only, and only where hints are allowed).
- ``POST /api/games/{id}/review`` — ``{"seat"?, "iterations"?}``: start (or read) the review
  of a finished game; ``GET`` with ``?seat=&iterations=`` reads its progress or result.
- ``POST /api/analysis`` (a study from a game's start, a position, a record or ``from_game``),
  ``GET /api/analysis/{id}``, ``POST .../fork``, ``GET .../export``, ``GET .../nodes/{n}``,
  ``POST .../nodes/{n}/moves|promote|lines``, ``PUT .../nodes/{n}/comment``, ``DELETE
  .../nodes/{n}`` — the analysis board (``analysis/``, docs/api.md).
- ``GET /api/puzzles`` (the games with puzzles, your puzzle ratings, today's puzzle), ``GET
  .../daily``, ``POST .../next`` and ``POST .../{id}/attempts`` (an attempt), ``GET
  .../attempts/{a}``, ``POST .../attempts/{a}/moves``, ``POST .../streaks`` and
  ``.../streaks/{s}/next`` — puzzles (``puzzles/``, docs/web.md "Puzzles").
- ``GET/POST /api/games/{id}/chat`` — read (``?channel=``) or write ``{"channel", "text"}`` in
  the table chat; ``POST /api/games/{id}/chat/{message}/report`` (``chat/service.py``).
- ``WS   /api/games/{id}/ws`` — receive ``{"type": "state", "game"}``, then ``{"type":
  "update"}`` with what changed (``table/live.py``); send ``{"type": "hello", "token"?}``,
  ``{"type": "act"|"undo", ...}`` as above, ``{"type": "ping"}``.
- ``GET  /api/seeks`` — open seeks; ``POST /api/seeks`` — ``{"game", "options"?, "rated"?,
  "rating_min"?, "rating_max"?}`` (signed in); ``DELETE /api/seeks/{id}``;
  ``POST /api/seeks/{id}/accept`` → the new game and the acceptor's seat token;
  ``POST /api/seeks/quick`` (a seek's body) → ``{"started"}`` or ``{"seek"}`` (``lobby/seeks.py``).
- ``GET/POST /api/challenges`` — mine, or ``{"to": name, "game", "options"?, "rated"?}``;
  ``POST /api/challenges/{id}/accept|decline|cancel``.
- ``WS   /api/lobby/ws`` — receive ``{"type": "seeks", "seeks"}`` (now and on every change),
  ``{"type": "challenge", "challenge"}`` and ``{"type": "started", "game"}`` (``lobby/sockets.py``);
  send ``{"type": "ping"}``.
- ``GET/PUT/DELETE /api/account/email`` — the signed-in player's address for notifications
  and ``{"notify_turns", "notify_end"}``; ``GET /api/email/confirm?token=`` and
  ``GET|POST /api/email/unsubscribe?token=`` — the links in the mails (``notify/``).
- ``GET/PUT/DELETE /api/push``, ``POST /api/push/off|renew``, ``PUT /api/account/language`` —
  this device's push subscription, a notification's one-click off, the account's language;
  ``GET /sw.js`` and ``/manifest.webmanifest`` — the service worker and the app (``notify/``).
- ``GET /api/stream/event``, ``GET /api/bot/game/stream/{id}``, ``POST /api/bot/game/{id}/
  move/{move}|resign|abort|draw/{yes|no}|chat``, ``POST /api/challenge/{name}`` and
  ``/api/challenge/{id}/accept|decline|cancel``, ``GET|POST|DELETE /api/account/tokens`` —
  the Bot API with personal API tokens (``bots/``, docs/bots.md).
- ``GET /api/moderation/queue|log``, ``POST /api/moderation/actions`` — moderators only;
  ``POST /api/players/{name}/report``, ``GET /api/account/notices`` and ``POST
  /api/account/notices/{id}/seen`` — report a player, read what was decided (``moderation/``).

Every request passes ``guard.Guard`` first (rate, body size, JSON safety); the ceilings are in
``config.Limits`` and docs/web.md ("Security").

The token travels in ``Authorization: Bearer <token>`` (or a ``token`` field)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import signal
import threading
from collections.abc import AsyncIterator, Callable
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.telemetry import TelemetryConfig
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from boardplay.web.accounts import Passkeys
from boardplay.web.api import (
    accounts,
    advice,
    analysis,
    bots,
    chat,
    games,
    lobby,
    lookups,
    moderation,
    notify,
    puzzles,
    ratings,
    relations,
    replays,
    site,
    tournaments,
)
from boardplay.web.api.i18n import add_i18n_routes
from boardplay.web.bots import BotGate
from boardplay.web.catalogue import WebCatalogue, resolve
from boardplay.web.config import Settings
from boardplay.web.errors import ApiError, bad_request
from boardplay.web.frontpage import FrontEnd
from boardplay.web.guard import Guard, limiter_for
from boardplay.web.hub import Hub
from boardplay.web.metrics import Metrics
from boardplay.web.models import describe
from boardplay.web.notify import MailConfig, PushConfig
from boardplay.web.observe import Observe, Readiness
from boardplay.web.replays import HeavyReads
from boardplay.web.workers import make_executor

ROUTERS = (
    bots.router,
    *(m.router for m in (site, games, chat, replays, advice, analysis, puzzles, accounts)),
    *(m.router for m in (ratings, relations, lobby, lookups, tournaments)),
    moderation.router,  # moderators only: the router checks (``moderation/``)
    moderation.players,
    notify.router,  # e-mail and push notifications, the app (``notify/``)
)
"""The API's routers in the order a request's path is tried against them. The Bot API's come
first: a bot's move is the busiest HTTP request there is, and Starlette tries routes one by one
(about 140 µs of matching for a move behind the others, a twentieth of its CPU in ``make
bench-web``). No two routers answer the same path, so their order changes nothing else
(``test_no_router_answers_another_routers_paths``)."""
GC_THRESHOLDS = (10_000, 20, 20)
"""The collector's thresholds in a server process (``gc.set_threshold``; Python's are 700, 10,
10)."""


def static_dir() -> str:
    return str(resources.files("boardplay.web").joinpath("static"))


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    catalogue = WebCatalogue(resolve(settings.catalogue), settings.data_dir)
    push = PushConfig.from_env(
        settings.origin, settings.mail_from, settings.limits.challenge_lifetime
    )
    metrics = Metrics()
    """The app's series (``metrics.py``): every start's hub counts into the same ones."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # The heavy reads' workers are each start's own, as the hub is, since the end closes
        # them: an app started again (schemathesis's pytest plugin ends the lifespan after every
        # test and starts it with the next) must not find them shut down.
        app.state.heavy = heavy = HeavyReads(settings)
        hub = Hub(
            settings.database_url,
            catalogue,
            settings.catalogue,
            lambda: make_executor(settings.ai_workers, settings.catalogue, settings.data_dir),
            settings.limits,
            settings.data_dir,
            ai_workers=settings.ai_workers,
            ai_lease=settings.ai_lease,
            room_cache=settings.room_cache,
            redis_url=settings.redis_url,
            sweep_interval=settings.sweep_interval,
            sync_interval=settings.sync_interval,
            mail=MailConfig.from_settings(settings),
            push=push,
            metrics=metrics,
        )
        app.state.hub = hub
        hub.bots.gate = app.state.bot_gate  # the guard's: the tokens it lets by
        app.state.reviewer = hub.reviewer
        app.state.accounts = hub.accounts
        app.state.passkeys = Passkeys(hub.accounts)
        await hub.start()
        end_streams_on_exit(hub.bots.close_streams)
        # Everything made so far (modules, the catalogue, tables) lives as long as the process:
        # kept out of the garbage collector's full passes, which would otherwise walk it all
        # again and again while games wait (bench-web saw 250 ms pauses). Only the young
        # generations are collected first: the old one is what outlived the collections made
        # while the modules loaded (a full pass here found nothing and cost 0.26 s of CPU at
        # every start of a server).
        gc.collect(1)
        gc.freeze()
        # Every move makes thousands of short-lived objects (its views and messages), nearly all
        # freed at once by their reference counts: with the default threshold (700) the
        # collector ran about 10 times a second for nothing and took a tenth of a paced
        # process's CPU; collecting ten times more rarely halved its time (make bench-web).
        gc.set_threshold(*GC_THRESHOLDS)
        try:
            yield
        finally:
            await hub.close()
            heavy.close()
            hub.ai.shutdown()
            metrics.close()

    # FastAPI's own OpenTelemetry (its default when opentelemetry is installed, as Ray brings
    # it) is off: the operator's series are Prometheus's (``Observe``), and its check at every
    # request cost about 1% of a bot move's CPU (docs/journal/web-performance.md).
    off: TelemetryConfig = {"tracing": False, "metrics": False, "logs": False}
    app = FastAPI(
        title="boardplay",
        lifespan=lifespan,
        docs_url="/api/docs",
        redoc_url=None,
        telemetry=off,
    )
    app.state.catalogue = catalogue
    app.state.limits = settings.limits
    app.state.rate = limiter_for(settings.limits)
    app.state.origin = settings.origin
    app.state.levels = {}
    """AI levels each game accepts, worked out once (``api/site.py``)."""
    app.state.bot_gate = gate = BotGate()
    app.add_middleware(Guard, limits=settings.limits, rate=app.state.rate, counted_as=gate.key_of)
    add_error_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    add_i18n_routes(app)
    add_front_end(app)
    add_games_to_schema(app, catalogue)
    app.state.metrics = metrics

    async def ready() -> Readiness:
        hub: Hub | None = getattr(app.state, "hub", None)
        return Readiness(False, {"server": "starting"}) if hub is None else await hub.readiness()

    # Added last, so outermost: it counts and stamps every answer, the guard's refusals too.
    app.add_middleware(Observe, metrics=metrics, token=settings.metrics_token, ready=ready)
    return app


def end_streams_on_exit(end: Callable[[], None]) -> None:
    """Call ``end`` (which ends the Bot API's streams) when the process is told to stop, before
    uvicorn waits for the open responses: a stream never ends by itself, so uvicorn would wait
    for ever and never shut the app down. uvicorn's own handler of SIGTERM and SIGINT still
    runs after (the handlers are chained; sse-starlette hooks uvicorn's exit the same way).
    Only the main thread can take signals (a test's app in a thread does not need to)."""
    if threading.current_thread() is not threading.main_thread():
        return
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        before = signal.getsignal(sig)

        def handler(number: int, frame: Any, before: Any = before) -> None:
            loop.call_soon_threadsafe(end)
            if callable(before):
                before(number, frame)

        signal.signal(sig, handler)


def add_error_handlers(app: FastAPI) -> None:
    """Every error in the API's one shape, ``{"error": {"code", "message"}}``."""

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(exc.to_json(), status_code=exc.status, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        error = bad_request(describe(list(exc.errors()), skip=1))
        return JSONResponse(error.to_json(), 400)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = "not_found" if exc.status_code == 404 else "http_error"
        message = "no such page or API route" if exc.status_code == 404 else str(exc.detail)
        return JSONResponse({"error": {"code": code, "message": message}}, exc.status_code)


def add_front_end(app: FastAPI) -> None:
    """The page, the front end's bundle (``frontpage.py``) and the other static files."""
    static = static_dir()
    front = FrontEnd(Path(static))  # read once: the files do not change while serving

    @app.get("/", include_in_schema=False)
    async def index() -> HTMLResponse:
        page = front.page_for(app.state.catalogue.names())
        return HTMLResponse(page, headers={"Cache-Control": "no-cache"})

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return Response(status_code=204)

    @app.get("/static/dist/{name:path}", include_in_schema=False)
    async def bundled(name: str, request: Request) -> Response:
        return front.response(name, request.headers)

    # The sources stay reachable under their own names (the mail pages' style sheet, a test that
    # imports one module), asked again on every use since their names do not change.
    app.mount("/static", Revalidated(directory=static), name="static")
    app.add_middleware(CompressPublic)


PUBLIC = ("/static/", "/api/i18n/", "/api/catalogue", "/api/rules/")
"""Answers the same for every visitor, with no secret in them: the only ones compressed."""


class CompressPublic:
    """gzip for the answers of ``PUBLIC`` (about a quarter of their size on the wire; the
    bundle comes compressed already). The other API answers are sent as they are: some carry
    secrets beside text a visitor chose, which compression would let an observer guess at
    (BREACH)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=500, compresslevel=6)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope["path"] if scope["type"] == "http" else ""
        public = path.startswith(PUBLIC) and not path.startswith("/static/dist/")
        await (self.gzip if public else self.app)(scope, receive, send)


class Revalidated(StaticFiles):
    """Static files the browser asks again about before each use (``no-cache``): the answer is
    a 304 without the body while the file's ETag is unchanged."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = "no-cache"
        return response


def add_games_to_schema(app: FastAPI, catalogue: WebCatalogue) -> None:
    """FastAPI's schema, with the games this server offers as the choices of ``game`` in
    preview and create (a client, or a fuzzer, can then make real games)."""
    schema_of = app.openapi

    def openapi() -> dict[str, Any]:
        schema = schema_of()
        for model in ("PreviewRequest", "CreateRequest"):
            field = schema["components"]["schemas"][model]["properties"]["game"]
            field["enum"] = catalogue.names()
        return schema

    app.openapi = openapi  # type: ignore[method-assign]

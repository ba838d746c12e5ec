"""The ASGI app: JSON API, WebSocket live updates and the static front end.

Routes (all JSON; errors are ``{"error": {"code", "message"}}`` with a 4xx status):

- ``GET  /api/health`` — this process answers (its id, for operators and tests).
- ``GET  /api/catalogue`` — games offered, their options and seat names, AI levels.
- ``GET  /api/rules/{game}`` — the game's rules (Markdown); ``?lang=ja`` for Japanese.
- ``GET  /api/i18n/{lang}`` — the browser's message catalogue in ``en`` or ``ja`` (``i18n.py``).
- ``POST /api/games`` — create: ``{"game", "options", "seats": [{"kind", "spec"?, "name"?}],
  "reproducible"?, "seed"?, "private"?}``; answers the creator's secret ``token`` and
  invitation codes.
- ``GET  /api/games`` — ``?ids=a,b`` (my games), ``?open=1`` (open seats), else recent games.
- ``GET  /api/games/{id}`` — the game as the token's holder sees it.
- ``POST /api/games/{id}/join`` — ``{"invite"?: code, "seat"?: n, "name"?,
  "accept_reproducible"?}`` → a seat token.
- ``POST /api/games/{id}/actions`` — ``{"action": notation or id, "ply"?: n}``.
- ``POST /api/games/{id}/undo`` — ``{"ply"?: n}``: take back the mover's last step of the turn.
- ``POST /api/games/{id}/resign`` — ``{"seat"?: n}``: give up (``offers.py``).
- ``POST /api/games/{id}/draw`` — ``{"answer": "offer"|"accept"|"decline", "seat"?: n}``.
- ``POST /api/games/{id}/rematch`` — play again, seats swapped → ``{"id", "invites"}``.
- ``GET  /api/games/{id}/record`` — the game record (boardplay-record JSON).
- ``GET  /api/games/{id}/replay`` and ``POST /api/replay`` (a record) — every position.
- ``POST /api/games/{id}/hint`` — ``{"ply"?}``: the best move for the token's seat to move
  (``reviews.py``: players only, and only where hints are allowed).
- ``POST /api/games/{id}/review`` — ``{"seat"?, "iterations"?}``: start (or read) the review
  of a finished game; ``GET`` with ``?seat=&iterations=`` reads its progress or result.
- ``WS   /api/games/{id}/ws`` — receive ``{"type": "state", "game"}``, then ``{"type":
  "update"}`` with what changed (``live.py``); send ``{"type": "hello", "token"?}``,
  ``{"type": "act"|"undo", ...}`` as above, ``{"type": "ping"}``.

Every request passes ``guard.Guard`` first (rate, body size, JSON safety); the ceilings are in
``config.Limits`` and docs/web.md ("Security").

The token travels in ``Authorization: Bearer <token>`` (or a ``token`` field)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from boardplay.ai.specs import make_agent
from boardplay.core.errors import BoardplayError
from boardplay.web.ai_worker import make_executor
from boardplay.web.catalogue import WebCatalogue, resolve
from boardplay.web.config import Settings
from boardplay.web.errors import ApiError, bad_request, quote
from boardplay.web.guard import Guard, address_of, limiter_for, visitor_of
from boardplay.web.heavy import HeavyReads
from boardplay.web.hints import hints_for
from boardplay.web.hub import Hub
from boardplay.web.i18n import add_i18n_routes, rules_language, rules_text_or_english
from boardplay.web.live import serve_socket
from boardplay.web.offers import draw, rematch, resign
from boardplay.web.replays import check_length
from boardplay.web.reviews import Reviewer
from boardplay.web.rooms import Room
from boardplay.web.schemas import (
    ActionRequest,
    CreateRequest,
    DrawRequest,
    HintRequest,
    JoinRequest,
    PreviewRequest,
    RecordUpload,
    RematchRequest,
    ResignRequest,
    ReviewRequest,
    UndoRequest,
    describe,
)
from boardplay.web.storage import Storage

log = logging.getLogger("boardplay.web")

AI_LEVELS = ("easy", "medium", "hard", "expert", "random")
"""Agent specs the lobby offers, strongest last except ``random``; only those ``make_agent``
accepts for a game are shown (levels appear as the AI package provides them)."""


def static_dir() -> str:
    return str(resources.files("boardplay.web").joinpath("static"))


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    limits = settings.limits
    catalogue = WebCatalogue(resolve(settings.catalogue), settings.data_dir)
    rate = limiter_for(limits)
    heavy = HeavyReads(settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = Storage(settings.database_url)
        hub = Hub(
            storage,
            catalogue,
            settings.catalogue,
            lambda: make_executor(settings.ai_workers, settings.catalogue, settings.data_dir),
            limits,
            settings.data_dir,
            ai_workers=settings.ai_workers,
            ai_lease=settings.ai_lease,
            room_cache=settings.room_cache,
            redis_url=settings.redis_url,
            sweep_interval=settings.sweep_interval,
            sync_interval=settings.sync_interval,
        )
        app.state.hub = hub
        app.state.reviewer = Reviewer(hub)
        await hub.start()
        try:
            yield
        finally:
            await app.state.reviewer.close()
            await hub.close()
            heavy.close()
            hub.executor.shutdown(wait=False, cancel_futures=True)
            storage.close()

    app = FastAPI(title="boardplay", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.heavy = heavy
    app.add_middleware(Guard, limits=limits, rate=rate)

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

    def hub_of(request: Request | WebSocket) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    # ----- static front end -----------------------------------------------------------------
    static = static_dir()

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(f"{static}/index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return Response(status_code=204)

    app.mount("/static", StaticFiles(directory=static), name="static")

    @app.get("/api/health")
    async def health(request: Request) -> dict[str, Any]:
        """For a load balancer's health check: this process answers (and which one it is)."""
        hub = hub_of(request)
        return {"ok": True, "process": hub.epoch, "ai_running": hub.ai_running}

    # ----- catalogue and rules --------------------------------------------------------------
    levels_cache: dict[str, list[str]] = {}

    def ai_levels(name: str) -> list[str]:
        if name not in levels_cache:
            game = catalogue.load(name, {})
            usable: list[str] = []
            for spec in AI_LEVELS:
                try:
                    make_agent(spec, game, 0)
                except BoardplayError:
                    continue
                usable.append(spec)
            levels_cache[name] = usable
        return levels_cache[name]

    @app.get("/api/catalogue")
    async def get_catalogue() -> dict[str, Any]:
        games = []
        for name in catalogue.names():
            game = catalogue.load(name, {})
            games.append(
                {
                    "name": name,
                    "title": getattr(game, "title", name),
                    "min_players": game.min_players,
                    "max_players": game.max_players,
                    "num_players": game.num_players,
                    "seat_names": [game.seat_name(s) for s in range(game.max_players)],
                    "options": [catalogue.describe(o) for o in game.option_set.specs],
                    "ai_levels": ai_levels(name),
                    "hints": hints_for(game),
                }
            )
        return {"games": games}

    @app.get("/api/rules/{name}")
    async def get_rules(name: str, lang: str = "en") -> dict[str, Any]:
        lang = rules_language(lang)  # checked before anything else: a closed set
        if name not in catalogue.names():
            raise ApiError(404, "not_found", f"unknown game {quote(name)}")
        game = catalogue.load(name, {})
        try:
            text, lang = rules_text_or_english(game, lang)
        except OSError:
            title = getattr(game, "title", name)
            text = f"# {title}\n\nThe rules of this game are not written yet."
        return {"name": name, "title": getattr(game, "title", name), "markdown": text, "lang": lang}

    add_i18n_routes(app)

    @app.post("/api/games/preview")
    async def preview(body: PreviewRequest) -> dict[str, Any]:
        """Seats and options after validation (the lobby asks before creating)."""
        game = catalogue.build(body.game.strip(), body.options or {})
        return {
            "num_players": game.num_players,
            "seat_names": [game.seat_name(s) for s in range(game.num_players)],
            "options": game.options,
        }

    # ----- games ----------------------------------------------------------------------------
    @app.post("/api/games", status_code=201)
    async def create_game(request: Request, body: CreateRequest) -> dict[str, Any]:
        seats = [seat.model_dump(exclude_none=True) for seat in body.seats]
        room, token, invites = await hub_of(request).create(
            body.game.strip(),
            body.options or {},
            seats,
            body.reproducible,
            body.seed,
            body.private,
            owner=visitor_of(request.scope),
        )
        await room.changed()
        return {
            "id": room.row.id,
            "token": token,
            "invites": {str(seat): code for seat, code in invites.items()},
            "game": room.view_for(token),
        }

    @app.get("/api/games")
    async def list_games(request: Request, ids: str = "", open: int = 0) -> dict[str, Any]:
        hub = hub_of(request)
        if ids:
            wanted = [i for i in ids.split(",") if i][:200]
            found = [await hub.db(hub.storage.get_game, i) for i in wanted if len(i) <= 32]
            game_ids = [row.id for row in found if row is not None]
        elif open:
            game_ids = await hub.db(hub.storage.open_game_ids)
        else:
            game_ids = await hub.db(hub.storage.game_ids, limit=50)
        return {"games": [summary(await hub.room(i)) for i in game_ids]}

    @app.get("/api/games/{game_id}")
    async def get_game(request: Request, game_id: str) -> dict[str, Any]:
        room = await hub_of(request).room(game_id)
        return room.view_for(token_of(request, None))

    @app.post("/api/games/{game_id}/join")
    async def join(request: Request, game_id: str, body: JoinRequest) -> dict[str, Any]:
        room = await hub_of(request).room(game_id)
        token, chosen = await room.join(body.seat, body.invite, body.name, body.accept_reproducible)
        return {"token": token, "seat": chosen, "game": room.view_for(token)}

    @app.post("/api/games/{game_id}/actions")
    async def act(request: Request, game_id: str, body: ActionRequest) -> dict[str, Any]:
        room = await hub_of(request).room(game_id)
        token = token_of(request, body.token)
        move = body.action
        if isinstance(move, str) and not move.strip():
            raise bad_request("field 'action' is empty")
        await room.act(token, move, body.ply)
        return {"game": room.view_for(token)}

    @app.post("/api/games/{game_id}/undo")
    async def undo(
        request: Request, game_id: str, body: UndoRequest | None = None
    ) -> dict[str, Any]:
        room = await hub_of(request).room(game_id)
        token = token_of(request, body.token if body else None)
        await room.undo(token, body.ply if body else None)
        return {"game": room.view_for(token)}

    @app.post("/api/games/{game_id}/resign")
    async def resign_game(request: Request, game_id: str, body: ResignRequest) -> dict[str, Any]:
        """A seat gives up: two players, the other wins; more, an AI plays the seat out."""
        room = await hub_of(request).room(game_id)
        token = token_of(request, body.token)
        seat = await resign(room, token, body.seat)
        return {"seat": seat, "game": room.view_for(token)}

    @app.post("/api/games/{game_id}/draw")
    async def draw_game(request: Request, game_id: str, body: DrawRequest) -> dict[str, Any]:
        """Offer, accept or decline a draw (only in games whose rules can end drawn)."""
        room = await hub_of(request).room(game_id)
        token = token_of(request, body.token)
        await draw(room, token, body.answer, body.seat)
        return {"game": room.view_for(token)}

    @app.post("/api/games/{game_id}/rematch")
    async def rematch_game(
        request: Request, game_id: str, body: RematchRequest | None = None
    ) -> dict[str, Any]:
        """Play again with the seats swapped; every player's token holds their new seat."""
        hub = hub_of(request)
        room = await hub.room(game_id)
        token = token_of(request, body.token if body else None)
        new_id, invites = await rematch(room, token, visitor_of(request.scope))
        new_room = await hub.room(new_id)
        await new_room.changed()
        return {
            "id": new_id,
            "invites": {str(seat): code for seat, code in invites.items()},
            "game": new_room.view_for(token),
        }

    @app.get("/api/games/{game_id}/record")
    async def record(request: Request, game_id: str) -> Response:
        room = await hub_of(request).room(game_id)
        made = room.record()
        data = await heavy.build(address_of(request.scope), "records", made.to_json)
        filename = f"boardplay-{room.row.game}-{room.row.id}.json"
        return Response(
            data,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    @app.get("/api/games/{game_id}/replay")
    async def replay_game(request: Request, game_id: str) -> Response:
        """Every position of the game, built once per revision (``heavy.py``); a repeat with
        ``If-None-Match`` is a 304."""
        room = await hub_of(request).room(game_id)
        tag = f'"{room.row.id}.{room.row.revision}"'
        headers = {"ETag": tag, "Cache-Control": "private, no-cache"}
        if tag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        made = room.record()
        check_length(len(made.moves), limits.replay_max_plies)
        key = (room.row.id, room.row.revision)
        data = await heavy.replay(address_of(request.scope), made.to_json(), True, key)
        return Response(data, media_type="application/json", headers=headers)

    # ----- hints and reviews (reviews.py) ----------------------------------------------------
    def reviewer_of(request: Request) -> Reviewer:
        reviewer: Reviewer = request.app.state.reviewer
        return reviewer

    @app.post("/api/games/{game_id}/hint")
    async def hint(
        request: Request, game_id: str, body: HintRequest | None = None
    ) -> dict[str, Any]:
        room = await hub_of(request).room(game_id)
        token = token_of(request, body.token if body else None)
        return await reviewer_of(request).hint(room, token, body.ply if body else None)

    @app.post("/api/games/{game_id}/review")
    async def start_review(
        request: Request, game_id: str, body: ReviewRequest | None = None
    ) -> dict[str, Any]:
        room = await hub_of(request).room(game_id)
        token = token_of(request, body.token if body else None)
        seat, iterations = (body.seat, body.iterations) if body else (None, None)
        with heavy.metered(address_of(request.scope), "reviews"):
            return await reviewer_of(request).start(room, token, seat, iterations)

    @app.get("/api/games/{game_id}/review")
    async def review_status(
        request: Request, game_id: str, seat: int | None = None, iterations: int | None = None
    ) -> dict[str, Any]:
        room = await hub_of(request).room(game_id)
        token = token_of(request, None)
        with heavy.metered(address_of(request.scope), "reviews"):
            return reviewer_of(request).status(room, token, seat, iterations)

    @app.post("/api/replay")
    async def replay_upload(request: Request, body: RecordUpload) -> Response:
        """Every position of an uploaded record, checked move by move (``replays.py``)."""
        plies = max(len(body.actions), len(body.moves), len(body.seats))
        check_length(plies, limits.replay_max_plies)
        data = await heavy.replay(address_of(request.scope), body.model_dump())
        return Response(data, media_type="application/json")

    # ----- the served schema ----------------------------------------------------------------
    schema_of = app.openapi

    def openapi() -> dict[str, Any]:
        """FastAPI's schema, with the games this server offers as the choices of ``game`` in
        preview and create (a client, or a fuzzer, can then make real games)."""
        schema = schema_of()
        for model in ("PreviewRequest", "CreateRequest"):
            field = schema["components"]["schemas"][model]["properties"]["game"]
            field["enum"] = catalogue.names()
        return schema

    app.openapi = openapi  # type: ignore[method-assign]

    # ----- live updates ---------------------------------------------------------------------
    @app.websocket("/api/games/{game_id}/ws")
    async def live(websocket: WebSocket, game_id: str) -> None:
        await serve_socket(websocket, hub_of(websocket), game_id, limits, rate)

    return app


def summary(room: Room) -> dict[str, Any]:
    view = room.public_view()
    keys = ("id", "game", "title", "status", "seats", "ply", "current_player", "thinking")
    out = {k: view.get(k) for k in keys}
    out["current_name"] = view.get("current_name")
    out["result"] = (view.get("result") or {}).get("text")
    # The lobby words the result from these in a language other than the engine's English.
    for key in ("winners", "end", "ended", "resigned"):
        out[key] = (view.get("result") or {}).get(key)
    out["updated"] = room.row.updated.isoformat()
    out["reproducible"] = view.get("reproducible", False)
    return out


def token_of(request: Request | WebSocket, field: str | None) -> str | None:
    """The seat token: header ``Authorization: Bearer <token>``, else the body's field."""
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    return field or None

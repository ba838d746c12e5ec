"""The ASGI app: JSON API, WebSocket live updates and the static front end.

Routes (all JSON; errors are ``{"error": {"code", "message"}}`` with a 4xx status):

- ``GET  /api/catalogue`` — games offered, their options and seat names, AI levels.
- ``GET  /api/rules/{game}`` — the game's rules (Markdown).
- ``POST /api/games`` — create: ``{"game", "options", "seats": [{"kind", "spec"?, "name"?}]}``;
  answers the creator's secret ``token`` and invitation codes.
- ``GET  /api/games`` — ``?ids=a,b`` (my games), ``?open=1`` (open seats), else recent games.
- ``GET  /api/games/{id}`` — the game as the token's holder sees it.
- ``POST /api/games/{id}/join`` — ``{"invite"?: code, "seat"?: n, "name"?}`` → a seat token.
- ``POST /api/games/{id}/actions`` — ``{"action": notation or id, "ply"?: n}``.
- ``POST /api/games/{id}/undo`` — take back the mover's last step of the current turn.
- ``GET  /api/games/{id}/record`` — the game record (boardplay-record JSON).
- ``GET  /api/games/{id}/replay`` and ``POST /api/replay`` (a record) — every position.
- ``WS   /api/games/{id}/ws`` — send ``{"type": "hello", "token"?}``, then receive
  ``{"type": "state", "game"}`` after every change; ``{"type": "act"|"undo", ...}`` as above.

The token travels in ``Authorization: Bearer <token>`` (or a ``token`` field)."""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import AsyncIterator, Iterator
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from boardplay.ai.specs import make_agent
from boardplay.core.errors import BoardplayError
from boardplay.core.game import Game, State
from boardplay.core.records import Record
from boardplay.web.ai_worker import make_executor
from boardplay.web.catalogue import Catalogue, describe_option, resolve
from boardplay.web.config import Settings
from boardplay.web.errors import ApiError, bad_request
from boardplay.web.hints import hints_for
from boardplay.web.rooms import Hub, Room, Subscriber
from boardplay.web.storage import Storage

log = logging.getLogger("boardplay.web")

AI_LEVELS = ("easy", "medium", "hard", "expert", "random")
"""Agent specs the lobby offers, strongest last except ``random``; only those ``make_agent``
accepts for a game are shown (levels appear as the AI package provides them)."""

MAX_BODY = 2_000_000
"""Largest request body accepted (an uploaded record of a long game is well below this)."""


def static_dir() -> str:
    return str(resources.files("boardplay.web").joinpath("static"))


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    catalogue: Catalogue = resolve(settings.catalogue)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = Storage(settings.database_url)
        hub = Hub(
            storage, catalogue, settings.catalogue, lambda: make_executor(settings.ai_workers)
        )
        app.state.hub = hub
        if settings.resume_on_start:
            resumed = await hub.resume_all()
            log.info("resumed %d active games", resumed)
        try:
            yield
        finally:
            await hub.close()
            hub.executor.shutdown(wait=False, cancel_futures=True)
            storage.close()

    app = FastAPI(title="boardplay", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(exc.to_json(), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ())[1:]) or 'request'}: {e.get('msg')}"
            for e in exc.errors()
        )
        return JSONResponse({"error": {"code": "bad_request", "message": problems}}, 400)

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
                    "options": [describe_option(o) for o in game.option_set.specs],
                    "ai_levels": ai_levels(name),
                    "hints": hints_for(game),
                }
            )
        return {"games": games}

    @app.get("/api/rules/{name}")
    async def get_rules(name: str) -> dict[str, Any]:
        if name not in catalogue.names():
            raise ApiError(404, "not_found", f"unknown game {name!r}")
        game = catalogue.load(name, {})
        try:
            text = game.rules_text()
        except OSError:
            title = getattr(game, "title", name)
            text = f"# {title}\n\nThe rules of this game are not written yet."
        return {"name": name, "title": getattr(game, "title", name), "markdown": text}

    @app.post("/api/games/preview")
    async def preview(request: Request) -> dict[str, Any]:
        """Seats and options after validation (the lobby asks before creating)."""
        body = await read_object(request)
        name = require_str(body, "game")
        if name not in catalogue.names():
            raise bad_request(f"unknown game {name!r}; offered: {', '.join(catalogue.names())}")
        try:
            game = catalogue.load(name, optional_object(body, "options"))
        except BoardplayError as exc:
            raise bad_request(str(exc)) from None
        return {
            "num_players": game.num_players,
            "seat_names": [game.seat_name(s) for s in range(game.num_players)],
            "options": game.options,
        }

    # ----- games ----------------------------------------------------------------------------
    @app.post("/api/games", status_code=201)
    async def create_game(request: Request) -> dict[str, Any]:
        body = await read_object(request)
        name = require_str(body, "game")
        options = optional_object(body, "options")
        seats = body.get("seats")
        if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
            raise bad_request('field \'seats\' must be a list of objects like {"kind": "me"}')
        seed = body.get("seed")
        if seed is not None and (
            not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63
        ):
            raise bad_request("field 'seed' must be an integer 0 .. 2**63-1")
        room, token, invites = hub_of(request).create(name, options, seats, seed)
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
            found = [hub.storage.get_game(i) for i in wanted]
            game_ids = [row.id for row in found if row is not None]
        elif open:
            game_ids = hub.storage.open_game_ids()
        else:
            game_ids = hub.storage.game_ids(limit=50)
        return {"games": [summary(hub.room(i)) for i in game_ids]}

    @app.get("/api/games/{game_id}")
    async def get_game(request: Request, game_id: str) -> dict[str, Any]:
        room = hub_of(request).room(game_id)
        return room.view_for(token_of(request, {}))

    @app.post("/api/games/{game_id}/join")
    async def join(request: Request, game_id: str) -> dict[str, Any]:
        room = hub_of(request).room(game_id)
        body = await read_object(request)
        invite = body.get("invite")
        if invite is not None and not isinstance(invite, str):
            raise bad_request("field 'invite' must be a string")
        seat = optional_int(body, "seat")
        name = body.get("name")
        if name is not None and not isinstance(name, str):
            raise bad_request("field 'name' must be a string")
        token, chosen = await room.join(seat, invite, name)
        return {"token": token, "seat": chosen, "game": room.view_for(token)}

    @app.post("/api/games/{game_id}/actions")
    async def act(request: Request, game_id: str) -> dict[str, Any]:
        room = hub_of(request).room(game_id)
        body = await read_object(request)
        token = token_of(request, body)
        move = move_of(body)
        await room.act(token, move, optional_int(body, "ply"))
        return {"game": room.view_for(token)}

    @app.post("/api/games/{game_id}/undo")
    async def undo(request: Request, game_id: str) -> dict[str, Any]:
        room = hub_of(request).room(game_id)
        body = await read_object(request, allow_empty=True)
        token = token_of(request, body)
        await room.undo(token)
        return {"game": room.view_for(token)}

    @app.get("/api/games/{game_id}/record")
    async def record(request: Request, game_id: str) -> Response:
        room = hub_of(request).room(game_id)
        text = room.record().dumps()
        filename = f"boardplay-{room.row.game}-{room.row.id}.json"
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    @app.get("/api/games/{game_id}/replay")
    async def replay_game(request: Request, game_id: str) -> dict[str, Any]:
        room = hub_of(request).room(game_id)
        return frames_of(catalogue, room.record())

    @app.post("/api/replay")
    async def replay_upload(request: Request) -> dict[str, Any]:
        body = await read_object(request)
        try:
            record = Record.from_json(body)
        except BoardplayError as exc:
            raise bad_request(f"not a boardplay record: {exc}") from None
        return frames_of(catalogue, record)

    # ----- live updates ---------------------------------------------------------------------
    @app.websocket("/api/games/{game_id}/ws")
    async def live(websocket: WebSocket, game_id: str) -> None:
        await websocket.accept()
        hub = hub_of(websocket)
        try:
            room = hub.room(game_id)
        except ApiError as exc:
            await websocket.send_json({"type": "error", **exc.to_json()})
            await websocket.close(code=4404)
            return
        sub = Subscriber(websocket.send_json)
        room.subscribers.add(sub)
        try:
            await websocket.send_json({"type": "state", "game": room.view_for(None)})
            while True:
                text = await websocket.receive_text()
                await handle_message(room, sub, text)
        except WebSocketDisconnect:
            pass
        finally:
            room.subscribers.discard(sub)

    return app


async def handle_message(room: Room, sub: Subscriber, text: str) -> None:
    """One client message; refusals go back to this client only, as ``{"type": "error"}``."""
    reply_to: Any = None
    try:
        try:
            message = json.loads(text)
        except json.JSONDecodeError as exc:
            raise bad_request(f"message is not valid JSON: {exc.msg}") from None
        if not isinstance(message, dict):
            raise bad_request("a message must be a JSON object with a 'type'")
        reply_to = message.get("id")
        kind = message.get("type")
        if kind == "hello":
            token = message.get("token")
            if token is not None and not isinstance(token, str):
                raise bad_request("field 'token' must be a string")
            sub.token = token
            await sub.send({"type": "state", "game": room.view_for(token)})
        elif kind == "act":
            await room.act(sub.token, move_of(message), optional_int(message, "ply"))
        elif kind == "undo":
            await room.undo(sub.token)
        elif kind == "ping":
            await sub.send({"type": "pong", "id": reply_to})
        else:
            raise bad_request(f"unknown message type {kind!r}; use hello, act, undo or ping")
    except ApiError as exc:
        await sub.send({"type": "error", "status": exc.status, "id": reply_to, **exc.to_json()})


def summary(room: Room) -> dict[str, Any]:
    view = room.public_view()
    keys = ("id", "game", "title", "status", "seats", "ply", "current_player", "thinking")
    out = {k: view.get(k) for k in keys}
    out["current_name"] = view.get("current_name")
    out["result"] = (view.get("result") or {}).get("text")
    out["updated"] = room.row.updated.isoformat()
    return out


def frames_of(catalogue: Catalogue, record: Record) -> dict[str, Any]:
    """Every position of a record, for stepping and scrubbing in the browser."""
    if record.game not in catalogue.names():
        raise bad_request(f"this server cannot show {record.game!r} games")
    try:
        game = catalogue.load(record.game, record.options)
    except BoardplayError as exc:
        raise bad_request(f"the record's options are not valid: {exc}") from None
    frames: list[dict[str, Any]] = []
    last: State | None = None
    for index, state in enumerate(checked_states(game, record)):
        last = state
        move = record.moves[index - 1] if index else None
        frames.append(
            {
                "ply": index,
                "move": move.notation if move else None,
                "player": move.player if move else None,
                "current_player": state.current_player(),
                "position": state.to_json(),
                "text": state.render(),
                "scores": state.scores(),
                "result": state.result_text() if state.is_terminal() else None,
            }
        )
    return {
        "game": record.game,
        "title": getattr(game, "title", record.game),
        "options": game.options,
        "players": [p.to_json() for p in record.players],
        "frames": frames,
        "hints": hints_for(game, last),
        "record": record.to_json(),
    }


def checked_states(game: Game, record: Record) -> Iterator[State]:
    """The positions of ``record`` through the catalogue's engine; the first move the engine
    rejects (or whose seat or notation disagrees) becomes a 400 naming it."""
    try:
        state = (
            game.new_initial_state()
            if record.start_position is None
            else game.state_from_json(record.start_position)
        )
    except BoardplayError as exc:
        raise bad_request(f"the record's start position is invalid: {exc}") from None
    yield state.clone()
    for index, move in enumerate(record.moves, start=1):
        where = f"the record cannot be replayed: move {index} ({move.notation!r}, id {move.action})"
        if move.action not in state.legal_actions():
            raise bad_request(f"{where} is not legal there")
        if state.current_player() != move.player:
            raise bad_request(f"{where} is recorded for seat {move.player}")
        if state.action_to_string(move.action) != move.notation:
            raise bad_request(f"{where} is written {state.action_to_string(move.action)!r}")
        state.apply_action(move.action)
        yield state.clone()


# ----- request parsing (clear 400s instead of framework errors) --------------------------------
async def read_object(request: Request, allow_empty: bool = False) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise ApiError(413, "too_large", f"the request body is larger than {MAX_BODY} bytes")
    if not raw.strip():
        if allow_empty:
            return {}
        raise bad_request("the request needs a JSON object body")
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise bad_request(f"the body is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise bad_request("the body must be a JSON object")
    return data


def require_str(body: dict[str, Any], key: str) -> str:
    value = body.get(key)
    if not isinstance(value, str) or not value.strip():
        raise bad_request(f"field {key!r} must be a non-empty string")
    return value.strip()


def optional_object(body: dict[str, Any], key: str) -> dict[str, Any]:
    value = body.get(key, {})
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise bad_request(f"field {key!r} must be an object")
    return value


def optional_int(body: dict[str, Any], key: str) -> int | None:
    value = body.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise bad_request(f"field {key!r} must be an integer")
    return value


def move_of(body: dict[str, Any]) -> int | str:
    move = body.get("action")
    if isinstance(move, bool) or not isinstance(move, int | str):
        raise bad_request("field 'action' must be a move in the game's notation or an action id")
    if isinstance(move, str) and not move.strip():
        raise bad_request("field 'action' is empty")
    return move


def token_of(request: Request | WebSocket, body: dict[str, Any]) -> str | None:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    token = body.get("token")
    if token is not None and not isinstance(token, str):
        raise bad_request("field 'token' must be a string")
    return token or None

"""The Bot API's routes (lichess's paths and words, docs/bots.md) and the account page's token
routes.

With a personal API token (``Authorization: Bearer bp_…``; each route names the scope it
needs): who the token speaks for, the upgrade to a bot, the two streams, and a bot's moves,
resignation, abort, draw answers and chat. With the session cookie (and its CSRF token): the
account's tokens, listed, made (the secret shown once) and revoked, and the upgrade from the
account page. The challenges a bot sends and answers are the lobby's routes
(``api/lobby.py``, ``/api/challenge…``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel

from boardplay.web.api.bodies import json_or_form
from boardplay.web.api.deps import (
    AccountDep,
    AnyTokenDep,
    BotPlayDep,
    EventReaderDep,
    HubDep,
)
from boardplay.web.bots import (
    BOT_PLAY,
    MOVES,
    ApiUser,
    Bots,
    ChatLine,
    EventStream,
    GameStream,
    TokenRequest,
    UpgradeRequest,
)
from boardplay.web.chat import PLAYERS, SPECTATORS, post
from boardplay.web.errors import ApiError, bad_request
from boardplay.web.hub import Hub
from boardplay.web.table import Room, abort, draw, flag, late, resign

router = APIRouter(prefix="/api", tags=["bots"])
GameId = Annotated[str, PathParam(max_length=32)]
NDJSON = "application/x-ndjson"


class MoveTaken(BaseModel):
    """A bot's move the game took (the schema's: the route answers it as built)."""

    ok: bool
    ply: int


class IllegalMove(ApiError):
    """A move the game refuses: 400, naming the legal moves in words and as a list."""

    def __init__(self, message: str, legal: list[str]) -> None:
        super().__init__(400, "illegal_move", message)
        self.legal = legal

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "legal": self.legal}


def _ndjson(lines: Any) -> StreamingResponse:
    return StreamingResponse(
        lines, media_type=NDJSON, headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    )


# ----- who the token is ---------------------------------------------------------------------
@router.get("/account")
async def token_account(user: AnyTokenDep) -> dict[str, Any]:
    """The account the token speaks for (lichess's ``GET /api/account``): ``{"id", "username",
    "title", "scopes"}``, ``title`` being ``"BOT"`` for a bot account."""
    account = user.account
    return {
        "id": account.name.lower(),
        "username": account.name,
        "title": "BOT" if account.bot else None,
        "scopes": sorted(user.token.scopes),
    }


@router.delete("/token")
async def revoke_this_token(hub: HubDep, user: AnyTokenDep) -> dict[str, Any]:
    """Revoke the token this request carries (and end its streams)."""
    await hub.bots.revoke(user.account, user.token.id)
    return {"revoked": user.token.id}


@router.post("/bot/account/upgrade")
async def upgrade_by_token(hub: HubDep, user: BotPlayDep) -> dict[str, Any]:
    """Make the token's account a bot, for good (409 ``not_fresh`` once it has played)."""
    await hub.bots.upgrade(user.account)
    return {"ok": True, "title": "BOT"}


# ----- the account page -----------------------------------------------------------------------
@router.get("/account/tokens")
async def my_tokens(hub: HubDep, account: AccountDep) -> dict[str, Any]:
    """The account's tokens (never their secrets) and whether it is a bot."""
    tokens = await hub.bots.tokens(account)
    return {"bot": account.bot, "tokens": [t.to_json() for t in tokens]}


@router.post("/account/tokens", status_code=201)
async def make_token(hub: HubDep, account: AccountDep, body: TokenRequest) -> dict[str, Any]:
    """A new personal API token: its secret is in this answer and never again."""
    secret, row = await hub.bots.create_token(account, body.label, body.scopes)
    return {"token": secret, **row.to_json()}


@router.delete("/account/tokens/{token_id}")
async def revoke_token(
    token_id: Annotated[int, PathParam(ge=1, le=2**31 - 1)], hub: HubDep, account: AccountDep
) -> dict[str, Any]:
    """Revoke a token: every request with it is refused and its open streams end."""
    await hub.bots.revoke(account, token_id)
    return {"revoked": token_id}


@router.post("/account/bot")
async def upgrade_by_page(hub: HubDep, account: AccountDep, body: UpgradeRequest) -> dict[str, Any]:
    """Make this account a bot from the account page (its name typed again)."""
    if body.confirm.strip() != account.name:
        raise bad_request("field 'confirm' must be the account's name, typed again")
    await hub.bots.upgrade(account)
    return {"bot": True}


# ----- the streams ------------------------------------------------------------------------------
@router.get("/stream/event")
async def event_stream(hub: HubDep, user: EventReaderDep) -> StreamingResponse:
    """The account's events, one JSON object a line (``bots/streams.py``); the account is
    online while it listens (lichess's online bots: ``GET /api/bot/online``)."""
    stream = EventStream(hub, user)
    await hub.lobby.present(user.account.id)
    return _ndjson(stream.run())


@router.get("/bot/game/stream/{game_id}")
async def game_stream(game_id: GameId, hub: HubDep, user: BotPlayDep) -> StreamingResponse:
    """``gameFull``, then ``gameState`` and ``chatLine`` lines until the game ends."""
    Bots.require_bot(user)
    room = await hub.room(game_id)
    if not any(s.account == user.account.id for s in room.row.seats):
        raise ApiError(403, "not_your_game", "this bot holds no seat in this game")
    return _ndjson(GameStream(hub, user, room).run())


# ----- playing ----------------------------------------------------------------------------------
async def _as_bot(hub: Hub, user: ApiUser, game_id: str, act: Any, current: bool = True) -> Any:
    """Run ``act(room, token)`` with the bot's seat token for the game (403 unless a bot of
    the game); not ``current``: on the room as this process holds it (``House.room``)."""
    Bots.require_bot(user)
    room = await hub.room(game_id, current)
    return await act(room, hub.bots.seat_token(user, room))


MOVE_PARAMETERS = [
    {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}},
    {"name": "move", "in": "path", "required": True, "schema": {"type": "string"}},
    {"name": "ply", "in": "query", "required": False, "schema": {"type": "string"}},
]
"""The move route's parameters for the schema: the route reads them itself (``bot_move``)."""


@router.post(
    "/bot/game/{game_id}/move/{move:path}",
    response_model=MoveTaken,
    openapi_extra={"parameters": MOVE_PARAMETERS},
)
async def bot_move(request: Request) -> JSONResponse:
    """Play ``move`` in the game's notation (as the game stream's ``moves`` and ``legal`` write
    it). A move the rules refuse is a 400 naming the legal moves; one whose time has run out
    is the flag's, as anyone's. With ``ply`` (the game stream's, an extra lichess does not
    have) it is refused, 409 ``stale``, once the game is past that ply: a client re-sending a
    move whose answer it lost can never play it twice. Only refused moves count against the
    token (``bots/limits.py``). The move is decided on the room as this process holds it, with
    no query first: ``Room.act`` checks it against the database (``House.room``).

    The busiest route reads its parameters and token itself: FastAPI's resolution of declared
    ones (each validated through a model, a response made for the dependencies' headers) was
    a tenth of a bot move's CPU. Its token is counted among moves (``MOVES``), refused ones
    only (``Bots.moving``)."""
    game_id, move = request.path_params["game_id"], request.path_params["move"]
    ply = request.query_params.get("ply")
    hub: Hub = request.app.state.hub
    user = await hub.bots.authorise(request.headers.get("authorization"), BOT_PLAY, kind=MOVES)

    async def act(room: Room, token: str) -> dict[str, Any]:
        if late(room):
            await flag(room)
        try:
            await room.act(token, move, None if ply is None else int(ply))
        except ApiError as exc:
            if exc.code != "illegal_action":
                raise
            legal = [room.state.action_to_string(a) for a in room.state.legal_actions()]
            raise IllegalMove(exc.message, legal) from None
        return {"ok": True, "ply": len(room.moves)}

    async with hub.bots.moving(user, game_id[:32]):
        # Checked here: a malformed move is a refused one, and counts.
        if len(game_id) > 32 or len(move) > 200:
            raise bad_request("a game id is at most 32 characters, a move at most 200")
        if ply is not None and not (ply.isascii() and ply.isdigit() and len(ply) <= 10):
            raise bad_request("ply is the game stream's ply: a whole number from 0")
        result: dict[str, Any] = await _as_bot(hub, user, game_id, act, current=False)
    return JSONResponse(result)  # as it is: the busiest route skips the model's validation


@router.post("/bot/game/{game_id}/resign")
async def bot_resign(game_id: GameId, hub: HubDep, user: BotPlayDep) -> dict[str, Any]:
    async def act(room: Room, token: str) -> int:
        return await resign(room, token, None)

    return {"ok": True, "seat": await _as_bot(hub, user, game_id, act)}


@router.post("/bot/game/{game_id}/abort")
async def bot_abort(game_id: GameId, hub: HubDep, user: BotPlayDep) -> dict[str, Any]:
    """End the game with no result while a player of two has not moved yet."""

    async def act(room: Room, token: str) -> int:
        return await abort(room, token)

    return {"ok": True, "seat": await _as_bot(hub, user, game_id, act)}


@router.post("/bot/game/{game_id}/draw/{answer}")
async def bot_draw(game_id: GameId, answer: str, hub: HubDep, user: BotPlayDep) -> dict[str, Any]:
    """``yes``: offer a draw, or accept the one offered; ``no``: decline it (lichess's words)."""
    if answer not in ("yes", "no"):
        raise bad_request("the answer is 'yes' (offer or accept a draw) or 'no' (decline it)")

    async def act(room: Room, token: str) -> None:
        if answer == "no":
            await draw(room, token, "decline", None)
        elif room.row.draw_offer:
            await draw(room, token, "accept", None)
        else:
            await draw(room, token, "offer", None)

    await _as_bot(hub, user, game_id, act)
    return {"ok": True}


@router.post("/bot/game/{game_id}/chat", status_code=201)
async def bot_chat(
    game_id: GameId,
    hub: HubDep,
    user: BotPlayDep,
    body: Annotated[ChatLine, json_or_form(ChatLine)],
) -> dict[str, Any]:
    """Write in the game's chat, as JSON or lichess's form: ``room`` ``player`` (the players')
    or ``spectator`` (the watchers', which the bot may write in during the game, as on lichess,
    without reading it: the watchers' answers reach no player until the game is over)."""
    channel = PLAYERS if body.room == "player" else SPECTATORS

    async def act(room: Room, token: str) -> int:
        message = await post(room, hub.chat, token, user.account, channel, body.text, aloud=True)
        return message.id

    return {"ok": True, "id": await _as_bot(hub, user, game_id, act)}

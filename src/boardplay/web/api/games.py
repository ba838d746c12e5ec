"""Games and their tables: preview and create, the lobby's lists, a game's view, joining,
playing (moves, undo), what the players settle between themselves (resign, draw, rematch), and
the live socket."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, WebSocket

from boardplay.web.api.deps import (
    CatalogueDep,
    HubDep,
    NetworkDep,
    RoomDep,
    SessionDep,
    VisitorDep,
    socket_account,
    token_of,
)
from boardplay.web.errors import ApiError, bad_request
from boardplay.web.table import (
    ActionRequest,
    ClaimRequest,
    CreateRequest,
    DrawRequest,
    InvitationRequest,
    JoinRequest,
    PreviewRequest,
    RematchRequest,
    ResignRequest,
    UndoRequest,
    claim,
    draw,
    flag,
    invited_seat,
    late,
    note_visit,
    resign,
    serve_socket,
    summary,
)

router = APIRouter(prefix="/api/games")


@router.post("/preview")
async def preview(catalogue: CatalogueDep, body: PreviewRequest) -> dict[str, Any]:
    """Seats and options after validation (the lobby asks before creating)."""
    game = catalogue.build(body.game.strip(), body.options or {})
    return {
        "num_players": game.num_players,
        "seat_names": [game.seat_name(s) for s in range(game.num_players)],
        "options": game.options,
    }


@router.post("", status_code=201)
async def create_game(
    hub: HubDep,
    visitor: VisitorDep,
    network: NetworkDep,
    session: SessionDep,
    body: CreateRequest,
) -> dict[str, Any]:
    """A new game; signed in, the creator's seat is the account's (and may be ``rated``)."""
    seats = [seat.model_dump(exclude_none=True) for seat in body.seats]
    room, token, invites = await hub.maker.create(
        body.game.strip(),
        body.options or {},
        seats,
        body.reproducible,
        body.seed,
        body.private,
        owner=visitor,
        account=session.account if session else None,
        rated=body.rated,
        clock=body.clock.control() if body.clock else None,
        network=network,
    )
    await room.changed()
    return {
        "id": room.row.id,
        "token": token,
        "invites": {str(seat): code for seat, code in invites.items()},
        "game": room.view_for(token),
    }


@router.get("")
async def list_games(hub: HubDep, ids: str = "", open: int = 0) -> dict[str, Any]:
    """``?ids=a,b`` (my games), ``?open=1`` (open seats), else the recent games."""
    if ids:
        wanted = [i for i in ids.split(",") if i][:200]
        found = [await hub.db(hub.storage.get_game, i) for i in wanted if len(i) <= 32]
        game_ids = [row.id for row in found if row is not None]
    elif open:
        game_ids = await hub.db(hub.storage.open_game_ids)
    else:
        game_ids = await hub.db(hub.storage.game_ids, limit=50)
    games = []
    for game_id in game_ids:
        try:
            room = await hub.room(game_id)
        except ApiError:
            continue  # gone meanwhile
        games.append(summary(room.public_view(), room.row.updated))
    return {"games": games}


@router.get("/{game_id}")
async def get_game(request: Request, room: RoomDep) -> dict[str, Any]:
    token = token_of(request, None)
    await note_visit(room, token)
    return room.view_for(token)


@router.post("/{game_id}/invitation")
async def invitation(room: RoomDep, body: InvitationRequest) -> dict[str, Any]:
    """The seat an invitation opens, for the invitation page to say which side it offers (a
    POST, so the code never travels in a URL)."""
    seat = invited_seat(room, body.invite)
    return {"seat": seat.seat, "name": seat.name, "claimed": seat.claimed}


@router.post("/{game_id}/join")
async def join_game(
    hub: HubDep, visitor: VisitorDep, room: RoomDep, session: SessionDep, body: JoinRequest
) -> dict[str, Any]:
    """Take a seat; signed in, it is the account's (a rated game's seats must be, and must be
    different people's: the admission rule, ``admission/``)."""
    account = session.account if session else None
    token, chosen = await hub.maker.join(room, body, account, visitor)
    return {"token": token, "seat": chosen, "game": room.view_for(token)}


@router.post("/{game_id}/actions")
async def act(request: Request, room: RoomDep, body: ActionRequest) -> dict[str, Any]:
    token = token_of(request, body.token)
    move = body.action
    if isinstance(move, str) and not move.strip():
        raise bad_request("field 'action' is empty")
    if late(room):  # the mover's time ran out: the flag is what counts, not the move
        await flag(room)
    await note_visit(room, token)
    await room.act(token, move, body.ply)
    return {"game": room.view_for(token)}


@router.post("/{game_id}/undo")
async def undo(request: Request, room: RoomDep, body: UndoRequest | None = None) -> dict[str, Any]:
    token = token_of(request, body.token if body else None)
    await note_visit(room, token)
    await room.undo(token, body.ply if body else None)
    return {"game": room.view_for(token)}


@router.post("/{game_id}/resign")
async def resign_game(request: Request, room: RoomDep, body: ResignRequest) -> dict[str, Any]:
    """A seat gives up: two players, the other wins; more, an AI plays the seat out."""
    token = token_of(request, body.token)
    seat = await resign(room, token, body.seat)
    return {"seat": seat, "game": room.view_for(token)}


@router.post("/{game_id}/draw")
async def draw_game(request: Request, room: RoomDep, body: DrawRequest) -> dict[str, Any]:
    """Offer, accept or decline a draw (only in games whose rules can end drawn)."""
    token = token_of(request, body.token)
    await note_visit(room, token)
    await draw(room, token, body.answer, body.seat)
    return {"game": room.view_for(token)}


@router.post("/{game_id}/claim")
async def claim_game(request: Request, room: RoomDep, body: ClaimRequest) -> dict[str, Any]:
    """The opponent left a real-time game: claim the win (or a draw, where the rules have
    draws) once they have been gone ``abandon_after`` seconds."""
    token = token_of(request, body.token)
    await claim(room, token, body.outcome)
    return {"game": room.view_for(token)}


@router.post("/{game_id}/rematch")
async def rematch_game(
    request: Request,
    hub: HubDep,
    room: RoomDep,
    visitor: VisitorDep,
    body: RematchRequest | None = None,
) -> dict[str, Any]:
    """Offer, accept or decline playing again with the seats swapped. Once every player has
    agreed the new game starts and every player's token holds their new seat (``id`` names
    it; until then ``id`` is null and the game's view carries ``rematch_offer``). A new game
    counts against the visitor's quota as a created one does."""
    token = token_of(request, body.token if body else None)
    new_id, invites = await hub.maker.rematch(
        room, token, visitor, body.answer if body else "offer"
    )
    if new_id is None:
        return {"id": None, "invites": {}, "game": room.view_for(token)}
    new_room = await hub.room(new_id)
    await new_room.changed()
    return {
        "id": new_id,
        "invites": {str(seat): code for seat, code in invites.items()},
        "game": new_room.view_for(token),
    }


@router.websocket("/{game_id}/ws")
async def live(websocket: WebSocket, game_id: str) -> None:
    state = websocket.app.state
    hub = state.hub
    await serve_socket(
        websocket,
        hub.room,
        hub.presence_changed,
        hub.chat,
        game_id,
        state.limits,
        state.rate,
        account=lambda: socket_account(websocket),
    )

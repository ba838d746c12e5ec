"""The table chat over HTTP (``chat/service.py`` has the rules): read a channel, write in it, report
a message. A seat's token (``Authorization: Bearer``) makes the caller a player; the session cookie
(with its CSRF token on a POST) makes them a signed-in spectator. The game's socket carries the same
chat live (``table/live.py``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request

from boardplay.web import chat
from boardplay.web.api.deps import HubDep, RoomDep, SessionDep, VisitorDep, token_of
from boardplay.web.chat import ChatChannel, ChatReportRequest, ChatRequest
from boardplay.web.errors import ApiError

router = APIRouter(prefix="/api/games")

MessageId = Annotated[int, Path(ge=1, le=2**31 - 1)]
"""A message's id: its column is an SQL ``INTEGER``, and PostgreSQL refuses a larger number in a
query on it (an error) where SQLite finds no row."""


@router.get("/{game_id}/chat")
async def read_chat(
    request: Request,
    hub: HubDep,
    room: RoomDep,
    session: SessionDep,
    channel: ChatChannel | None = None,
) -> dict[str, Any]:
    """The last messages of a channel the caller may read, oldest first (default: the
    caller's own channel), and whether they may write in it."""
    token = token_of(request, None)
    account = session.account if session else None
    name = channel or chat.default_channel(room, token, account)
    messages = await chat.read(room, hub.chat, token, account, name)
    try:
        chat.author_of(room, token, account, name)
        can_write = True
    except ApiError:
        can_write = False
    return {
        "channel": name,
        "messages": [m.to_json() for m in messages],
        "can_write": can_write,
        "length": hub.limits.chat_length,
        "channels": sorted(chat.readable(room, token, account)),
    }


@router.post("/{game_id}/chat", status_code=201)
async def write_chat(
    request: Request, hub: HubDep, room: RoomDep, session: SessionDep, body: ChatRequest
) -> dict[str, Any]:
    """Write in a channel: the players' with a seat's token, the spectators' signed in."""
    token = token_of(request, body.token)
    account = session.account if session else None
    message = await chat.post(room, hub.chat, token, account, body.channel, body.text)
    return {"message": message.to_json()}


@router.post("/{game_id}/chat/{message_id}/report")
async def report_chat(
    request: Request,
    hub: HubDep,
    room: RoomDep,
    session: SessionDep,
    visitor: VisitorDep,
    message_id: MessageId,
    body: ChatReportRequest | None = None,
) -> dict[str, Any]:
    """Report a message of a channel the caller reads; stored once per reporter for the
    operator (``already``: this reporter had reported it)."""
    token = token_of(request, body.token if body else None)
    account = session.account if session else None
    stored = await chat.report(room, hub.chat, token, account, visitor, message_id)
    return {"reported": True, "already": not stored}

"""Live updates over WebSockets: a socket's life from accept to close, and what its client sends.

A socket starts as a spectator's (its first ``state`` is a spectator's view, sent before anything
is read) and becomes a seat's with a ``hello``; the ``state`` answering it carries the hello's
``id``, so a client can skip what came before and never shows a player a spectator's view. What
the socket is sent, and how (a bounded queue, updates as deltas), is ``sockets.py``.

Client messages are parsed within the server's ceilings (size, depth, digits, Unicode, rate);
every refusal goes back to the sender as ``{"type": "error", "status", "error", "id"}`` and the
socket stays open, except a message over the size ceiling, which closes it with 1009. An accepted
``act`` or ``undo`` is answered ``{"type": "done", "id", "ply"}`` after its update, so every
request gets an answer; an accepted ``chat`` (``chat/service.py``) with ``{"type": "done", "id",
"chat"}``. A hello with ``"chat": true`` is also sent the table chat its socket may read."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from fastapi import WebSocket

from boardplay.web import safejson
from boardplay.web.accounts import Account
from boardplay.web.chat import SPECTATORS, ChatRelay, post
from boardplay.web.config import Limits
from boardplay.web.errors import ApiError, bad_request
from boardplay.web.guard import RateLimiter
from boardplay.web.models import Ping, describe
from boardplay.web.sockets import Subscriber
from boardplay.web.table.rooms import Room
from boardplay.web.table.schemas import (
    CLIENT_MESSAGE,
    Act,
    ChatSend,
    Hello,
    Undo,
    ValidationError,
)
from boardplay.web.table.timeouts import flag, late
from boardplay.web.wsread import read_messages

log = logging.getLogger("boardplay.web")

UNKNOWN_GAME = 4404

AccountLookup = Callable[[], Awaitable[Account | None]]
"""The signed-in player whose page opened a socket (its session cookie, if the page was this
site's), looked up when the chat needs it: a spectator writing, a socket without a seat whose
account may hold one."""

PresenceNote = Callable[[str], None]
"""Tells the process that its count of a game's sockets changed (``Hub.presence_changed``)."""


async def serve_socket(
    websocket: WebSocket,
    room_of: Callable[[str], Awaitable[Room]],
    note: PresenceNote,
    chat: ChatRelay,
    game_id: str,
    limits: Limits,
    rate: RateLimiter,
    account: AccountLookup | None = None,
) -> None:
    """The WebSocket of one game, from accept to close: its room found with ``room_of``, the
    process told with ``note`` when the game's sockets come and go, its chat ``chat``'s."""
    await websocket.accept()
    try:
        room = await room_of(game_id)
    except ApiError as exc:
        await websocket.send_json({"type": "error", "status": exc.status, **exc.to_json()})
        await websocket.close(code=UNKNOWN_GAME)
        return

    async def close(code: int) -> None:
        await websocket.close(code=code)

    sub = Subscriber(websocket.send_text, close, limits.ws_send_queue)
    room.subscribers.add(sub)

    async def answer(text: str) -> None:
        await handle_message(room, sub, text, limits, note, chat, account)

    try:
        sub.push_view(room.view_for(None, words=False), full=True)
        await presence_changed(room, note)
        await read_messages(websocket, sub, limits, rate, answer)
    finally:
        room.subscribers.discard(sub)
        await sub.finish()
        await presence_changed(room, note)


async def presence_changed(room: Room, note: PresenceNote) -> bool:
    """A socket came, said who it is, or left: every socket of this process is sent the new
    presence now, and the database hears of it at the next check (``note``, then
    ``presence.py``); True if the sockets were sent it."""
    return room.recount(note)


async def handle_message(
    room: Room,
    sub: Subscriber,
    text: str,
    limits: Limits,
    note: PresenceNote,
    chat: ChatRelay | None = None,
    account: AccountLookup | None = None,
) -> None:
    """One client message; refusals go back to this client only, as ``{"type": "error"}``."""
    raw = safejson.parse(text, limits, "the message")
    if not isinstance(raw, dict):
        raise bad_request("a message must be a JSON object with a 'type'")
    reply_to = raw.get("id") if isinstance(raw.get("id"), int | str) else None
    try:
        try:
            message = CLIENT_MESSAGE.validate_python(raw)
        except ValidationError as exc:
            raise bad_request(
                f"{describe(exc.errors(include_input=False), skip=1)} "
                "(messages: hello, act, undo, chat or ping)"
            ) from None
        if isinstance(message, Hello):
            # The whole view for the token's seats, answering the hello by its id: the socket
            # began with a spectator's view, and the client shows none until this one.
            sub.token = message.token
            sub.presence = message.presence
            sub.words = message.words
            view = room.view_for(message.token, sub.words)
            sub.last = view
            now = room.host.now()
            sub.push({"type": "state", "game": view, "id": message.id, "now": now})
            if not await presence_changed(room, note) and sub.presence:  # else it was just sent
                sub.push(room.presence.shown.message())
            await room.came(room.seats_of(sub.token))  # a clock held for them runs
            sub.chat = None
            if message.chat and chat is not None:
                if account is not None and not room.seats_of(sub.token):
                    sub.account = await account()  # a player's account reads no spectators
                await chat.hello(room, sub)
        elif isinstance(message, ChatSend):
            if chat is None:
                raise bad_request("this server has no table chat")
            if message.channel == SPECTATORS and account is not None:
                sub.account = await account()  # signed in (or out) since the hello, perhaps
            sent = await post(room, chat, sub.token, sub.account, message.channel, message.text)
            sub.push({"type": "done", "id": reply_to, "chat": sent.id})
        elif isinstance(message, Act | Undo):
            if isinstance(message, Act):
                if late(room):  # the mover's time ran out: the flag is what counts
                    await flag(room)
                await room.act(sub.token, message.action, message.ply)
            else:
                await room.undo(sub.token, message.ply)
            # The update has gone out to every socket already; this answers the request itself,
            # so a client always hears back, whichever process's change it sees first.
            sub.push({"type": "done", "id": reply_to, "ply": len(room.moves)})
        elif isinstance(message, Ping):
            sub.push({"type": "pong", "id": message.id})
    except ApiError as exc:
        sub.push({"type": "error", "status": exc.status, "id": reply_to, **exc.to_json()})

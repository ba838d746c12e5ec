"""Reading what a WebSocket client sends, within the server's ceilings: the one loop behind the
game sockets (``table/live.py``) and the lobby socket (``lobby/sockets.py``).

A message over ``Limits.max_ws_message_bytes`` closes the socket with 1009; a binary frame, or a
message over the per-address rate, is refused as ``{"type": "error", "status", "error", "id":
null}`` and the socket stays open. Everything else goes to the socket's own ``answer``, whose
``ApiError`` goes back the same way."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from fastapi import WebSocket

from boardplay.web.config import Limits
from boardplay.web.errors import ApiError, bad_request
from boardplay.web.guard import RateLimiter, address_of
from boardplay.web.sockets import Subscriber

TOO_BIG = 1009


async def read_messages(
    websocket: WebSocket,
    sub: Subscriber,
    limits: Limits,
    rate: RateLimiter,
    answer: Callable[[str], Awaitable[None]],
) -> None:
    """Hand each text message of ``websocket`` to ``answer`` until the client goes or the
    socket is dropped."""
    address = address_of(websocket.scope)
    while not sub.dropped:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        if text is not None and len(text.encode("utf-8", "surrogatepass")) > (
            limits.max_ws_message_bytes
        ):
            sub.drop(TOO_BIG)
            return
        try:
            if text is None:
                raise bad_request("send JSON text frames; binary frames are not understood")
            if rate.wait(address):
                raise ApiError(429, "rate_limited", "too many messages from this address")
            await answer(text)
        except ApiError as exc:
            sub.push({"type": "error", "status": exc.status, "id": None, **exc.to_json()})

"""A test client's view of a game over the WebSocket: the first ``state`` message, then each
``update`` merged in as the browser does (fields changed, fields removed, moves kept + added)."""

from __future__ import annotations

from typing import Any


def merge(view: dict[str, Any] | None, message: dict[str, Any]) -> dict[str, Any]:
    if message["type"] == "state":
        game: dict[str, Any] = message["game"]
        return game
    assert message["type"] == "update" and view is not None, message
    merged = {k: v for k, v in view.items() if k not in message["removed"]}
    merged.update(message["game"])
    moves = message["moves"]
    merged["moves"] = view["moves"][: moves["keep"]] + moves["add"]
    return merged


class Live:
    """Wraps a TestClient WebSocket session; ``game()`` waits for the next state or update and
        returns the whole view (passing over ``done``, the answer to an act or undo sent on this
    socket), ``message()`` returns the next message as sent."""

    def __init__(self, socket: Any) -> None:
        self.socket = socket
        self.view: dict[str, Any] | None = None

    def message(self) -> dict[str, Any]:
        message: dict[str, Any] = self.socket.receive_json()
        if message["type"] in ("state", "update"):
            self.view = merge(self.view, message)
        return message

    def game(self) -> dict[str, Any]:
        message = self.message()
        while message["type"] == "done":  # the answer to this socket's own act or undo
            message = self.message()
        assert message["type"] in ("state", "update"), message
        assert self.view is not None
        return self.view

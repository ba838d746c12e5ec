"""Sockets as a room sees them: one ``Subscriber`` per socket, with a bounded send queue, and
the messages a broadcast sends, each encoded once.

A room never waits for a socket: it queues each update and moves on, and a sender task per
socket drains the queue. A socket whose queue is full (a client that stopped reading) is closed
with code 1013 (try again later); the page reconnects and starts from the latest state. After
the first full ``state`` message a socket receives ``update`` messages carrying only what
changed: the view's top-level fields that differ, the fields gone, and the move list as
``{"keep": k, "add": [...]}`` (keep the first k moves, append these).

Messages are queued as JSON text. A broadcast builds each audience's view once (``Room``) and
an ``Outbox`` encodes each distinct update once: every socket that held the same view before
gets the very same text, so a move costs one encoding per audience, not one per socket. What a
socket's client sends is read in ``table/live.py``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:
    from boardplay.web.identity import Account

Send = Callable[[str], Awaitable[None]]
Close = Callable[[int], Awaitable[None]]
FELL_BEHIND = 1013
log = logging.getLogger("boardplay.web")
CHANGED = '{"type":"changed"}'
"""What a room sends a subscriber that reads no views (``Subscriber.views`` False) when it sends
the others a new view: the room changed, read it there."""


class Subscriber:
    """A socket listening to a room; ``token`` decides which seats are "yours"."""

    def __init__(self, send: Send, close: Close, queue_size: int = 64) -> None:
        self.send = send
        self.close = close
        self.token: str | None = None
        self.presence = False
        """Whether the client asked to be told who is at the table (its hello said so)."""
        self.words = False
        """Whether the client asked for the legal moves' structs and words (a page that lets its
        player click the board; its hello said so): bots and spectators go without."""
        self.chat: frozenset[str] | None = None
        """The chat channels this socket was given the backlog of (``chat/service.py``); None: its
        hello did not ask for the chat, so it is sent none."""
        self.account: Account | None = None
        """The signed-in player whose page opened the socket, once the chat needed to know."""
        self.queue: asyncio.Queue[str] = asyncio.Queue(queue_size)
        self.last: dict[str, Any] | None = None
        self.dropped = False
        self.counts = True
        """Whether it counts in the table's presence (``table/presence.py``): a bot's event stream,
        watching its games only for their end, does not."""
        self.views = True
        """Whether it is sent the game's views. A Bot API stream builds its own lines from the
        room, so it is sent ``CHANGED`` instead: no view of its seats, no update between two of
        them and no encoding is made for it (``bots/streams.py``)."""
        self._sender: asyncio.Task[None] | None = None
        self._closer: asyncio.Task[None] | None = None

    def push(self, message: dict[str, Any]) -> bool:
        """Queue ``message`` without waiting; a full queue drops the socket (False)."""
        return self.push_text(encode(message))

    def push_text(self, text: str) -> bool:
        """Queue an encoded message without waiting; a full queue drops the socket (False)."""
        if self.dropped:
            return False
        if self._sender is None:
            self._sender = asyncio.get_running_loop().create_task(self._drain())
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.drop(FELL_BEHIND)
            return False
        return True

    def push_view(
        self, view: dict[str, Any], full: bool = False, outbox: Outbox | None = None
    ) -> bool:
        """Queue the game ``view``: whole the first time (or when ``full``), else what changed
        since the last view queued for this socket (encoded once per ``outbox`` for all the
        sockets that go from the same view to the same view). ``view`` is kept, not copied:
        views are never changed once built."""
        previous = self.last
        self.last = view
        if previous is view and not full:
            return True  # nothing this socket can see changed
        outbox = outbox or Outbox()
        if full or previous is None:
            return self.push_text(outbox.state(view))
        return self.push_text(outbox.update(previous, view))

    def drop(self, code: int) -> None:
        """Stop sending and close the socket with ``code`` (without waiting for it)."""
        if self.dropped:
            return
        self.dropped = True
        self.stop()
        self._closer = asyncio.get_running_loop().create_task(self._close(code))

    def stop(self) -> None:
        if self._sender is not None:
            self._sender.cancel()

    async def finish(self) -> None:
        """The socket's handler is ending: stop sending, and let a pending close go out."""
        self.stop()
        if self._closer is not None:
            await self._closer

    async def _close(self, code: int) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.close(code), timeout=2)

    async def _drain(self) -> None:
        try:
            while True:
                message = await self.queue.get()
                await self.send(message)
        except asyncio.CancelledError:
            raise
        except Exception:  # the socket is gone: stop feeding it
            self.dropped = True


class Told(Subscriber):
    """A subscriber in the server's own code (a Bot API stream's watch, ``bots/streams.py``): each
    message is handed to ``told`` in the broadcast's own call, as a socket's is queued, so it
    keeps the order a socket's queue would. ``told`` must not wait. A socket needs its queue and
    sender task because its writes may wait for its client; a watch only reads the room and puts
    a line in its stream's own bounded buffer, and the task's wake-up for each of a move's four
    watches was most of what a watch cost. ``told("")`` is the room dropping it."""

    def __init__(self, told: Callable[[str], None]) -> None:
        async def closed(_code: int) -> None:
            told("")

        super().__init__(_never_sent, closed, 1)
        self.told = told

    def push_text(self, text: str) -> bool:
        if self.dropped:
            return False
        try:
            self.told(text)
        except Exception:
            log.exception("a watch of a room failed; it is dropped")
            self.dropped = True
            return False
        return True


async def _never_sent(_text: str) -> None:
    raise AssertionError("a Told subscriber is told, never sent to")


def encode(message: Any) -> str:
    """JSON text as Starlette's ``send_json`` writes it (compact, UTF-8 kept).

    orjson writes the same text six times faster than the standard library (a Potlatch view: 3.5
    against 23 µs), and every move encodes one message per audience. It refuses what JSON allows
    but it does not write (integers beyond 64 bits): those go through the standard library."""
    return exact(message) or json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def exact(message: Any) -> str:
    """``encode``'s text when ``orjson.loads`` reads it back exactly, else "". orjson reads
    integers beyond 64 bits as floats, which the standard library writes and orjson refuses to:
    a view relayed to the other processes with one of those is left for each to build."""
    try:
        return orjson.dumps(message, option=_ORJSON).decode()
    except TypeError:
        return ""


_ORJSON = orjson.OPT_NON_STR_KEYS | orjson.OPT_SERIALIZE_NUMPY
"""Keys that are not strings written as strings, and NumPy numbers as numbers, as ``json`` does."""


class Outbox:
    """The messages of one broadcast, each encoded once and shared by every socket that needs
    it. Views are keyed by identity: a room hands every socket of an audience the same view
    object, and a view is never changed after it is built (both stay alive while the outbox
    is in use, so identities cannot be reused)."""

    def __init__(self) -> None:
        self._texts: dict[tuple[int, int], str] = {}

    def state(self, view: dict[str, Any]) -> str:
        key = (0, id(view))
        text = self._texts.get(key)
        if text is None:
            text = self._texts[key] = encode({"type": "state", "game": view})
        return text

    def update(self, previous: dict[str, Any], view: dict[str, Any]) -> str:
        key = (id(previous), id(view))
        text = self._texts.get(key)
        if text is None:
            text = self._texts[key] = encode(delta(previous, view))
        return text


def moves_kept(old_moves: list[Any], new_moves: list[Any]) -> int:
    """How many of a view's ``old_moves`` its next view keeps (an undo takes some back)."""
    keep = min(len(old_moves), len(new_moves))
    while keep and old_moves[keep - 1] != new_moves[keep - 1]:
        keep -= 1
    return keep


def delta(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The ``update`` message turning view ``old`` into view ``new``."""
    new_moves: list[Any] = new.get("moves", [])
    keep = moves_kept(old.get("moves", []), new_moves)
    return {
        "type": "update",
        "game": {k: v for k, v in new.items() if k != "moves" and old.get(k, ...) != v},
        "removed": [k for k in old if k not in new],
        "moves": {"keep": keep, "add": new_moves[keep:]},
    }

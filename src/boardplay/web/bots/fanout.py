"""How the Bot API's streams (``streams.py``) reach their readers, at one process's cost rather
than one per stream:

- **``Lines``**: each stream's queue of encoded lines, bounded (``QUEUE``): a reader that stops
  reading is ended rather than kept behind a growing backlog; an empty line every
  ``KEEPALIVE`` seconds tells a quiet stream's client, and every proxy between, that it lives.
- **``shared_line``**: a line, or the part of one, for an audience (a game's ``gameState``
  members: the same for every reader of the game, or of one seat should it show what only
  that seat may see) is built and encoded once per change of its room for every stream of the
  process with that audience, as a socket's audience is sent one text (``sockets.Outbox``);
  each stream then only adds its own part (the clocks as of its moment) and queues it.
- **``Looks``**: the event streams' look at their accounts' games in progress (the fallback for
  a game started without the lobby telling) is one query every ``TICK`` seconds for every event
  stream of the process, not one per stream."""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Collection,
    Hashable,
    Mapping,
    Sequence,
)
from typing import Any, Protocol

from boardplay.web.sockets import encode
from boardplay.web.table import Room

log = logging.getLogger("boardplay.web")

KEEPALIVE = 4.0
"""Seconds between two keep-alive empty lines of a quiet stream."""
QUEUE = 256
"""Lines waiting for a stream's reader before the stream is ended."""
TICK = 3.0
"""Seconds between two looks at the event streams' accounts' games in progress."""


class Lines:
    """A stream's lines waiting for its reader, and its end."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(QUEUE)
        self.closed = False

    def put(self, event: Mapping[str, Any]) -> None:
        if not self.closed:
            self.put_text(encode(event))

    def put_text(self, text: str) -> None:
        """Queue a line already encoded (a state whose shared part was encoded once for every
        stream: ``shared_line``)."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(text + "\n")
        except asyncio.QueueFull:
            log.info("a Bot API stream's reader fell %s lines behind; ended", QUEUE)
            self.close()

    def end(self) -> None:
        """End the stream after the lines waiting (the game is over: its last state goes)."""
        if self.closed:
            return
        self.closed = True
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:
            self.queue.get_nowait()
            self.queue.put_nowait(None)

    def close(self) -> None:
        """End the stream now (what waits is dropped: a revoked token reads no more)."""
        if self.closed:
            return
        self.closed = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(None)

    async def lines(self) -> AsyncIterator[str]:
        while True:
            try:
                line = await asyncio.wait_for(self.queue.get(), KEEPALIVE)
            except TimeoutError:
                yield "\n"
                continue
            if line is None:
                return
            yield line


_SHARED: weakref.WeakKeyDictionary[Room, dict[Hashable, tuple[Hashable, str]]] = (
    weakref.WeakKeyDictionary()
)
"""Each room's latest shared line per audience on this process, with its key (forgotten with
the room)."""


def shared_line(room: Room, audience: Hashable, key: Hashable, build: Callable[[], str]) -> str:
    """The room's line for ``audience`` (whom it is for: ``()`` if it names no reader) as of
    ``key`` (what it is built from, as the room's revision: a new key is a new line), ``build``
    called only the first time a stream of this process with that audience asks for that key."""
    lines = _SHARED.setdefault(room, {})
    known = lines.get(audience)
    if known is None or known[0] != key:
        known = lines[audience] = (key, build())
    return known[1]


class Looker(Protocol):
    """What ``Looks`` needs of an event stream."""

    account_id: int
    lines: Lines

    def found(self, game_ids: Collection[str]) -> None:
        """The account's games in progress, as the look found them."""


Playing = Callable[[Sequence[int]], Awaitable[dict[int, set[str]]]]
"""The games in progress of each of these accounts, in one query (``Games.in_progress``)."""


class Looks:
    """The event streams of one process (``Bots.looks``), looked at together every ``TICK``
    seconds while any is open."""

    def __init__(self, playing: Playing) -> None:
        self.playing = playing
        self.streams: set[Looker] = set()
        self._task: asyncio.Task[None] | None = None

    def add(self, stream: Looker) -> None:
        self.streams.add(stream)
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._looking())

    def discard(self, stream: Looker) -> None:
        """Look no more for ``stream``; the looks stop with the last one."""
        self.streams.discard(stream)
        if not self.streams and self._task is not None:
            self._task.cancel()
            self._task = None

    async def look(self) -> None:
        streams = [s for s in self.streams if not s.lines.closed]
        if not streams:
            return
        found = await self.playing(sorted({s.account_id for s in streams}))
        for stream in streams:
            stream.found(found.get(stream.account_id, ()))

    def close(self) -> None:
        self.streams.clear()
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def _looking(self) -> None:
        while True:
            await asyncio.sleep(TICK)
            try:
                await self.look()
            except Exception:
                log.exception("the Bot API event streams could not look at their games")

"""Live updates between server processes: Redis pub/sub.

Each accepted change is published once, by the process that stored it, as the game's id and new
revision on channel ``boardplay:game:<id>``. Every process listens on ``boardplay:game:*`` and,
for a game whose sockets it serves, reloads what changed from the database (the single source
of truth) and sends each socket the update. Messages carry no game data: one that is lost or
arrives late costs nothing but time, because a process compares revisions and catches up from
the database (the hub also checks its watched games every few seconds, and after the
connection to Redis comes back).

Redis is never in a move's path: the move is stored and acknowledged first, and its notice goes
into a bounded queue that a background task publishes. While Redis is down the notices are
dropped (the other processes catch up from the database by revision), the outage is logged once
when it starts and once when it ends, and no request waits for Redis or fails because of it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger("boardplay.web")

CHANNEL = "boardplay:game:"
RETRY_SECONDS = 1.0
TIMEOUT_SECONDS = 2.0
"""Longest wait for Redis to connect or answer a command (a hung Redis counts as down)."""
OUTBOX = 10_000
"""Notices waiting to be published; more are dropped (other processes catch up by revision)."""

Changed = Callable[[str, int], Awaitable[None]]
Reconnected = Callable[[], Awaitable[None]]


class Broker:
    """One process's connection to Redis: publishes its changes, hands others' to ``changed``."""

    def __init__(self, url: str, changed: Changed, reconnected: Reconnected) -> None:
        import redis.asyncio as aioredis

        self.url = url
        self.redis: Any = aioredis.from_url(
            url, socket_connect_timeout=TIMEOUT_SECONDS, socket_timeout=TIMEOUT_SECONDS
        )
        self.changed = changed
        self.reconnected = reconnected
        self.listening = asyncio.Event()
        self.outbox: asyncio.Queue[tuple[str, int]] = asyncio.Queue(OUTBOX)
        self.down = False
        """Redis is known to be unreachable (logged once; cleared when it answers again)."""
        self.dropped = 0
        """Notices not published during the current outage."""
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        """Start listening; returns once subscribed (or after a few seconds without Redis: the
        server still works, catching up from the database until Redis answers)."""
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._publish())]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.listening.wait(), timeout=5)

    def publish(self, game_id: str, revision: int) -> None:
        """Queue the notice that ``game_id`` reached ``revision``; never waits."""
        try:
            self.outbox.put_nowait((game_id, revision))
        except asyncio.QueueFull:
            self.dropped += 1

    async def _publish(self) -> None:
        """Publish queued notices in order; while Redis is down, drop them (the other processes
        catch up from the database) instead of piling them up."""
        while True:
            game_id, revision = await self.outbox.get()
            if self.down and not self.listening.is_set():
                self.dropped += 1
                continue
            try:
                await self.redis.publish(CHANNEL + game_id, json.dumps({"revision": revision}))
            except Exception as exc:
                self.dropped += 1
                self._lost(exc)
            else:
                if self.down and self.listening.is_set():
                    self._back()

    def _lost(self, exc: BaseException) -> None:
        if not self.down:
            self.down = True
            log.error(
                "Redis at %s is unreachable (%s): moves are still stored and answered; other "
                "processes' sockets catch up from the database every few seconds until it is back",
                self.url,
                str(exc) or type(exc).__name__,
            )

    def _back(self) -> None:
        if self.down:
            self.down = False
            log.warning(
                "Redis is reachable again; %d change notices were not published meanwhile "
                "(the sockets catch up from the database now)",
                self.dropped,
            )
        self.dropped = 0

    async def _listen(self) -> None:
        from redis.exceptions import RedisError

        while True:
            pubsub = self.redis.pubsub()
            try:
                await pubsub.psubscribe(CHANNEL + "*")
                self.listening.set()
                self._back()
                await self.reconnected()
                while True:
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    if message is not None:
                        await self._deliver(message)
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                raise
            except (RedisError, OSError) as exc:
                self._lost(exc)
                self.listening.clear()
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                await asyncio.sleep(RETRY_SECONDS)

    async def _deliver(self, message: dict[str, Any]) -> None:
        try:
            channel = message["channel"]
            channel = channel.decode() if isinstance(channel, bytes) else str(channel)
            revision = int(json.loads(message["data"])["revision"])
        except (KeyError, TypeError, ValueError) as exc:
            log.warning("ignoring a malformed broker message: %s", exc)
            return
        try:
            await self.changed(channel.removeprefix(CHANNEL), revision)
        except Exception:
            log.exception("could not deliver a change of %s", channel)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        with contextlib.suppress(Exception):
            await self.redis.aclose()

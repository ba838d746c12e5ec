"""Live updates between server processes: Redis pub/sub.

Each accepted change is published once, by the process that stored it, as the game's id and new
revision on channel ``boardplay:game:<id>``. Every process listens on ``boardplay:game:*`` and,
for a game whose sockets it serves, reloads what changed from the database (the single source
of truth) and sends each socket the update. Messages carry no game data: one that is lost or
arrives late costs nothing but time, because a process compares revisions and catches up from
the database (the hub also checks its watched games every few seconds, and after the
connection to Redis comes back)."""

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

Changed = Callable[[str, int], Awaitable[None]]
Reconnected = Callable[[], Awaitable[None]]


class Broker:
    """One process's connection to Redis: publishes its changes, hands others' to ``changed``."""

    def __init__(self, url: str, changed: Changed, reconnected: Reconnected) -> None:
        import redis.asyncio as aioredis

        self.url = url
        self.redis: Any = aioredis.from_url(url)
        self.changed = changed
        self.reconnected = reconnected
        self.listening = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Start listening; returns once subscribed (or after a few seconds without Redis: the
        server still works, catching up from the database until Redis answers)."""
        self._task = asyncio.get_running_loop().create_task(self._listen())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.listening.wait(), timeout=5)

    async def publish(self, game_id: str, revision: int) -> None:
        message = json.dumps({"revision": revision})
        try:
            await self.redis.publish(CHANNEL + game_id, message)
        except Exception as exc:  # other processes catch up from the database
            log.warning("could not publish a change of game %s: %s", game_id, exc)

    async def _listen(self) -> None:
        from redis.exceptions import RedisError

        while True:
            pubsub = self.redis.pubsub()
            try:
                await pubsub.psubscribe(CHANNEL + "*")
                self.listening.set()
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
                log.warning("Redis connection lost (%s); catching up from the database", exc)
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
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        with contextlib.suppress(Exception):
            await self.redis.aclose()
